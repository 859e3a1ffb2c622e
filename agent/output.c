// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * output.c - the agent's output (standard output or the -o file): whole
 * JSON lines only, and every line that is not there counted.
 *
 * The JSON lines of one wakeup, all ring buffer records or all postcards
 * of the module, are collected in one reused buffer (the batch) and written
 * with write(2) in one go; the caller hands the same bytes to the monitor
 * socket's clients. A reader of the output only ever finds whole lines:
 * after a failed write (ENOSPC, EFBIG past RLIMIT_FSIZE, EIO) the start of
 * a cut line is cut off again with ftruncate(2) on a regular file; where
 * that cannot be done (pipe, terminal) the rest of the line is kept and
 * written before anything else. The lines not written are counted lost
 * (output_lost of the statistics line, hopmarkd.8) and the failures are
 * logged at most once a second.
 *
 * A batch is made in the forms somebody reads (hm_output_set_forms()):
 * JSON lines for the output and the JSON clients, binary frames
 * (lib/common/monitor_proto.h, records as lib/ioam/record_wire.h) for the
 * clients of the binary stream, both from the same decoded record, and
 * neither when nobody reads it: with -q and only binary clients no JSON is
 * written at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/monitor_proto.h"
#include "ioam/record.h"
#include "ioam/record_wire.h"
#include "hopmarkd.h"

/**
 * struct hm_output - the output and the batch being collected
 * @path:		-o FILE (borrowed), NULL for standard output
 * @fd:			output file descriptor (standard output or @path),
 *			-1 with -q
 * @seekable:		@fd is a regular file: a partial line can be cut
 *			off again with ftruncate(2)
 * @tail:		the unwritten end of a line cut by a failed write
 *			that could not be taken back (pipe, terminal),
 *			written before anything else; NULL when none
 * @tail_len:		bytes at @tail
 * @tail_record:	the cut line is a ring buffer record (else a postcard)
 * @batch_buf:		the JSON lines of one batch, one buffer kept and
 *			reused for every batch (it grows to the largest
 *			batch and stays): a line costs no allocation
 * @batch_cap:		bytes allocated at @batch_buf
 * @batch_len:		bytes of lines in it
 * @batch_n:		JSON lines in the batch
 * @batch_records:	of which ring buffer records; a batch holds the
 *			lines of one source, the ring buffer or the module
 * @want_json:		the batch is made as JSON lines
 * @want_bin:		the batch is made as binary frames
 * @next_json:		@want_json from the next batch on
 * @next_bin:		@want_bin from the next batch on
 * @bin_buf:		the batch's binary frames, reused like @batch_buf
 * @bin_cap:		bytes allocated at @bin_buf
 * @bin_len:		bytes of frames in it
 * @errors_reported:	@stats.errors already reported (hm_output_report())
 * @lost_reported:	@stats.lost already reported
 * @binary_reported:	@stats.binary_lost already reported
 * @stats:		counters
 */
struct hm_output {
	const char *path;
	int fd;
	bool seekable;
	char *tail;
	size_t tail_len;
	bool tail_record;

	char *batch_buf;
	size_t batch_cap;
	size_t batch_len;
	unsigned int batch_n;
	unsigned int batch_records;

	bool want_json;
	bool want_bin;
	bool next_json;
	bool next_bin;
	__u8 *bin_buf;
	size_t bin_cap;
	size_t bin_len;

	__u64 errors_reported;
	__u64 lost_reported;
	__u64 binary_reported;
	struct hm_output_stats stats;
};

/* Whether @fd is a regular file, whose end a failed write can be cut off. */
static bool hm_fd_seekable(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode);
}

/* See hopmarkd.h. */
struct hm_output *hm_output_new(const char *path, bool quiet)
{
	struct hm_output *o;
	int fd;

	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->path = path;
	o->fd = -1;
	o->want_json = o->next_json = true;
	o->want_bin = o->next_bin = false;
	if (quiet)
		return o;
	if (!path) {
		fd = STDOUT_FILENO;
	} else {
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0) {
			int err = errno;

			free(o);
			errno = err;
			return NULL;
		}
	}
	o->fd = fd;
	o->seekable = hm_fd_seekable(fd);
	return o;
}

/* Count the lines a write took whole, or lost, by their source. */
static void hm_output_count(struct hm_output *o, unsigned int written, unsigned int lost,
			    bool records)
{
	if (records)
		o->stats.records += written;
	o->stats.lost += lost;
}

/*
 * write(2) all of @buf, going on after short writes (a signal, a pipe's
 * room); stop at the first error. Return the bytes written, errno of the
 * error (0 if none) in *@err.
 */
static size_t hm_write_all(int fd, const char *buf, size_t len, int *err)
{
	size_t off = 0;
	ssize_t n;

	*err = 0;
	while (off < len) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*err = n < 0 ? errno : EIO;
			break;
		}
		off += n;
	}
	return off;
}

/*
 * The end of a cut line is due first: nothing else may follow its start.
 * Return 0 once it is written (the line counted), else the errno.
 */
static int hm_output_tail(struct hm_output *o)
{
	size_t n;
	int err;

	if (!o->tail)
		return 0;
	n = hm_write_all(o->fd, o->tail, o->tail_len, &err);
	if (err) {
		memmove(o->tail, o->tail + n, o->tail_len - n);
		o->tail_len -= n;
		return err;
	}
	hm_output_count(o, 1, 0, o->tail_record);
	free(o->tail);
	o->tail = NULL;
	o->tail_len = 0;
	return 0;
}

/* The output is being closed: a line still cut stays lost. */
static void hm_output_drop_tail(struct hm_output *o)
{
	if (!o->tail || !hm_output_tail(o))
		return;
	hm_output_count(o, 0, 1, false);
	free(o->tail);
	o->tail = NULL;
	o->tail_len = 0;
}

/*
 * Write a batch of @n whole JSON lines (@records of them ring buffer
 * records, the others postcards) to the output so that a reader only
 * ever finds whole lines: after a failed write (ENOSPC, EFBIG past
 * RLIMIT_FSIZE, EIO) the start of a cut line is cut off again with
 * ftruncate(2) on a regular file; where that cannot be done (pipe,
 * terminal) the rest of the line is kept and written first next time.
 * The lines not written are counted in &hm_output_stats.lost.
 *
 * Return: 0, or -EPIPE when the reader of a pipe went away.
 */
static int hm_output_write(struct hm_output *o, const char *buf, size_t len,
			   unsigned int n, unsigned int records)
{
	unsigned int whole = 0, cut_later = 0;
	size_t done = 0, keep = 0;
	const char *p, *eol;
	int err;

	err = hm_output_tail(o);
	if (!err)
		done = hm_write_all(o->fd, buf, len, &err);
	if (!err) {
		hm_output_count(o, n, 0, records > 0);
		return 0;
	}
	/* Whole lines in the part written, and where the last one ends. */
	for (p = buf; p < buf + done && (eol = memchr(p, '\n', buf + done - p)); p = eol + 1) {
		whole++;
		keep = eol + 1 - buf;
	}
	if (done > keep) {
		off_t end = lseek(o->fd, 0, SEEK_CUR);
		off_t cut = end - (off_t)(done - keep);

		if (!o->seekable || end < 0 || ftruncate(o->fd, cut) ||
		    lseek(o->fd, cut, SEEK_SET) < 0) {
			/*
			 * Cannot take it back: keep the rest of the line for
			 * the next write, which finishes it (and counts it).
			 */
			eol = memchr(buf + done, '\n', len - done);
			o->tail_len = eol + 1 - (buf + done);
			o->tail = malloc(o->tail_len);
			if (o->tail) {
				memcpy(o->tail, buf + done, o->tail_len);
				o->tail_record = records > 0;
				cut_later = 1;
			} else {
				o->tail_len = 0;
			}
		}
	}
	hm_output_count(o, whole, n - whole - cut_later, records > 0);
	o->stats.errors++;
	o->stats.last_err = err;
	if (err == EPIPE) {
		/* Nobody reads the output any more. */
		hm_log("output closed by its reader (EPIPE), stopping");
		return -EPIPE;
	}
	return 0;
}

/* See hopmarkd.h. */
void hm_output_reopen(struct hm_output *o)
{
	int fd;

	if (!o->path || o->fd < 0)
		return;
	fd = open(o->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		hm_log("SIGHUP: cannot reopen %s: %s; still writing the old file",
		       o->path, strerror(errno));
		return;
	}
	hm_output_drop_tail(o);
	close(o->fd);
	o->fd = fd;
	o->seekable = hm_fd_seekable(fd);
}

/* No memory for a line: it is lost, and counted as an ENOMEM error. */
static void hm_batch_line_failed(struct hm_output *o)
{
	o->stats.errors++;
	o->stats.last_err = ENOMEM;
	o->stats.lost++;
}

/*
 * Room for @n more bytes at the end of the batch: the buffer grows by
 * doubling and is kept for the next batches. Return the free space, or
 * NULL without memory.
 */
static char *hm_batch_room(struct hm_output *o, size_t n)
{
	size_t cap = o->batch_cap ? o->batch_cap : HM_OUTPUT_BATCH_BYTES;
	char *p;

	if (o->batch_len + n <= o->batch_cap)
		return o->batch_buf + o->batch_len;
	while (cap < o->batch_len + n)
		cap *= 2;
	p = realloc(o->batch_buf, cap);
	if (!p)
		return NULL;
	o->batch_buf = p;
	o->batch_cap = cap;
	return p + o->batch_len;
}

/* A line of @len bytes was written at the end of the batch. */
static int hm_batch_commit(struct hm_output *o, size_t len, bool record)
{
	o->batch_len += len;
	if (record)
		o->batch_records++;
	return ++o->batch_n;
}

/* See hopmarkd.h. */
void hm_output_set_forms(struct hm_output *o, bool json_clients, bool bin_clients)
{
	o->next_json = o->fd >= 0 || json_clients;
	o->next_bin = bin_clients;
	if (!o->batch_n) {
		o->want_json = o->next_json;
		o->want_bin = o->next_bin;
	}
}

/*
 * Room for a frame of @payload bytes at the end of the binary batch (it
 * grows by doubling and is kept, like the JSON one); the header is written.
 * Return where the payload goes, or NULL without memory (counted).
 */
static __u8 *hm_bin_frame(struct hm_output *o, __u16 type, size_t payload)
{
	size_t need = o->bin_len + HM_MON_FRAME_HDR_LEN + payload;
	__u8 *p;

	if (payload > HM_MON_FRAME_MAX) {
		o->stats.binary_lost++;
		return NULL;
	}
	if (need > o->bin_cap) {
		size_t cap = o->bin_cap ? o->bin_cap : HM_OUTPUT_BATCH_BYTES;

		while (cap < need)
			cap *= 2;
		p = realloc(o->bin_buf, cap);
		if (!p) {
			o->stats.binary_lost++;
			return NULL;
		}
		o->bin_buf = p;
		o->bin_cap = cap;
	}
	p = o->bin_buf + o->bin_len;
	hm_mon_frame_hdr(p, type, payload);
	o->bin_len = need;
	return p + HM_MON_FRAME_HDR_LEN;
}

/* See hopmarkd.h. */
int hm_output_record(struct hm_output *o, const struct hm_record *r)
{
	size_t room = o->batch_cap - o->batch_len, len = 0;
	char *p = o->batch_buf + o->batch_len;
	__u8 *b;

	if (o->want_bin) {
		b = hm_bin_frame(o, HM_MON_FRAME_IOAM_RECORD, hm_record_wire_len(r));
		if (b)
			hm_record_wire_encode(b, hm_record_wire_len(r), r);
	}
	if (!o->want_json)
		return hm_batch_commit(o, 0, true);
	/* Most lines fit what is left; a longer one is written again. */
	len = hm_record_write_json(p, room, r);
	if (len > room) {
		p = hm_batch_room(o, len);
		if (!p) {
			hm_batch_line_failed(o);
			return -ENOMEM;
		}
		hm_record_write_json(p, len, r);
	}
	return hm_batch_commit(o, len, true);
}

/* See hopmarkd.h. */
int hm_output_ring_record(struct hm_output *o, const void *data, size_t size,
			  __u32 sink_node_id)
{
	struct hm_record rec;
	int err, n;

	err = hm_record_from_ring(data, size, sink_node_id, &rec);
	if (err)
		return err;
	n = hm_output_record(o, &rec);
	/*
	 * Bound a batch so a producer as fast as the agent cannot keep it
	 * from writing, and so it stays in the cache.
	 */
	return n >= HM_OUTPUT_BATCH_LINES || o->batch_len >= HM_OUTPUT_BATCH_BYTES ||
	       o->bin_len >= HM_OUTPUT_BATCH_BYTES;
}

/* See hopmarkd.h. */
int hm_output_line(struct hm_output *o, const char *line, size_t len, bool record)
{
	char *p;
	__u8 *b;

	if (o->want_bin) {
		b = hm_bin_frame(o, HM_MON_FRAME_JSON_LINE, len);
		if (b)
			memcpy(b, line, len);
	}
	if (!o->want_json)
		return hm_batch_commit(o, 0, record);
	p = hm_batch_room(o, len);
	if (!p) {
		hm_batch_line_failed(o);
		return -ENOMEM;
	}
	memcpy(p, line, len);
	return hm_batch_commit(o, len, record);
}

/* See hopmarkd.h. */
void hm_output_line_lost(struct hm_output *o)
{
	hm_batch_line_failed(o);
}

/* See hopmarkd.h. */
size_t hm_output_batch_bytes(const struct hm_output *o)
{
	return o->batch_len > o->bin_len ? o->batch_len : o->bin_len;
}

/* See hopmarkd.h. */
int hm_output_flush(struct hm_output *o, const char **buf, size_t *len,
		    const void **bin, size_t *bin_len)
{
	int ret = 0;

	*buf = NULL;
	*len = 0;
	*bin = NULL;
	*bin_len = 0;
	if (!o->batch_n)
		return 0;
	o->stats.batches++;
	if (o->fd >= 0 && o->batch_len)
		ret = hm_output_write(o, o->batch_buf, o->batch_len, o->batch_n,
				      o->batch_records);
	else
		hm_output_count(o, o->batch_n, 0, o->batch_records > 0);
	*buf = o->batch_buf;
	*len = o->batch_len;
	*bin = o->bin_buf;
	*bin_len = o->bin_len;
	o->batch_len = 0;
	o->batch_n = 0;
	o->batch_records = 0;
	o->bin_len = 0;
	o->want_json = o->next_json;
	o->want_bin = o->next_bin;
	return ret;
}

/* See hopmarkd.h. */
void hm_output_report(struct hm_output *o)
{
	__u64 n = o->stats.binary_lost - o->binary_reported;

	if (n)
		hm_log("%llu record(s) and line(s) not framed for the monitor's binary stream in the last second (no memory, or a line over %u bytes), %llu in all",
		       (unsigned long long)n, HM_MON_FRAME_MAX,
		       (unsigned long long)o->stats.binary_lost);
	o->binary_reported = o->stats.binary_lost;
	n = o->stats.errors - o->errors_reported;
	if (!n)
		return;
	hm_log("%llu output write(s) failed in the last second (last: %s): %llu JSON line(s) not written, %llu in all",
	       (unsigned long long)n, strerror(o->stats.last_err),
	       (unsigned long long)(o->stats.lost - o->lost_reported),
	       (unsigned long long)o->stats.lost);
	o->errors_reported = o->stats.errors;
	o->lost_reported = o->stats.lost;
}

/* See hopmarkd.h. */
const struct hm_output_stats *hm_output_stats(const struct hm_output *o)
{
	return &o->stats;
}

/* See hopmarkd.h. */
void hm_output_free(struct hm_output *o)
{
	if (!o)
		return;
	if (o->fd >= 0) {
		hm_output_drop_tail(o);
		if (o->fd != STDOUT_FILENO)
			close(o->fd);
	}
	free(o->batch_buf);
	free(o->bin_buf);
	free(o);
}
