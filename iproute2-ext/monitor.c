// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * monitor.c - "hopmark monitor [file PATH | binary] [count N] [summary]":
 * the traces this node, as decapsulating node, reports.
 *
 * Source: hopmarkd's monitor socket ($HOPMARK_RUNDIR/hopmarkd.sock, default
 * /run/hopmark/hopmarkd.sock), which sends every record as one JSON line
 * (Documentation/json-record.rst), or with "binary" as a binary frame
 * (lib/common/monitor_proto.h, the record as lib/ioam/record_wire.h): the
 * command asks for that stream and prints the same text or JSON lines from
 * the decoded records, byte for byte what the JSON stream gives. A BPF ring buffer has one consumer
 * position, so while hopmarkd runs it alone reads hopmark_events; only when
 * no agent listens does the command read the pinned ring buffer itself.
 * With "file PATH" the JSON lines come from a file instead (hopmarkd -o
 * FILE, "-" for standard input), read to its end: unlike the socket, whose
 * slow clients hopmarkd drops, the file holds every record hopmarkd wrote.
 *
 * Output: with -j the JSON lines, exactly as hopmarkd writes them, and with
 * "summary" one last line {"summary": {...}}; as text one table per record
 * (hm_record_print_table()) and, after N records, at the end of the file,
 * or on SIGINT/SIGTERM, the per-hop summary (hm_summary_print()).
 *
 * Every line is checked before it is shown, in either form: it must be one
 * JSON object and nothing after it, and either a record that
 * hm_record_from_json() takes, an INT record that int_record_from_json()
 * takes (shown as int_print_record_table() prints it) or a postcard of a
 * known type. Any other line
 * is rejected: named on stderr, counted (on stderr at the end, and as
 * "not_decoded" in the JSON summary), never copied to stdout. When lines
 * were rejected and none was valid, the command fails.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "hopmark_cli.h"
#include "common/byteorder.h"
#include "common/monitor_proto.h"
#include "ioam/record_wire.h"
#include "int/int_record.h"
#include "postcard/postcard.h"

#define HM_POLL_MS		200
/* A record line is a few KB at most (61 hops); longer lines are refused. */
#define HM_LINE_MAX		(64 * 1024)

static volatile sig_atomic_t stop;

struct mon {
	__u64 limit;		/* stop after this many records, 0: never */
	__u64 read;		/* lines (ring: records) read, empty lines aside */
	__u64 seen;		/* records and postcards shown */
	__u64 bad;		/* lines (ring: records) rejected */
	__u32 sink_node_id;	/* for ring records */
	__u64 summed;		/* records in the summary */
	bool summary;		/* -j: also sum up, print the summary line */
	struct hm_summary *sum;
	struct int_record int_rec;	/* the INT record of the line shown */
	struct int_signal int_sig;	/* and its domain's signalling */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark [ -j ] monitor [ file { PATH | - } | binary ] [ count N ] [ summary ]\n"
		"       reads hopmarkd's socket $%s/%s (default %s/%s),\n"
		"       or the pinned ring buffer %s when no hopmarkd runs;\n"
		"       file: the JSON lines of PATH (hopmarkd -o PATH; - is standard\n"
		"       input) to their end, complete unlike the socket, which drops\n"
		"       clients that fall behind. Text: a table per record, then the\n"
		"       per-hop summary; INT records (from hopmarkd only): a table each.\n"
		"       binary: read hopmarkd's binary stream (records as binary frames,\n"
		"       cheaper for the agent); the output is the same.\n"
		"       -j: the JSON lines; with summary, then the\n"
		"       summary as one last JSON line {\"summary\":{...}}.\n",
		HM_RUNDIR_ENV, HM_SOCK_NAME, HM_RUNDIR_DEFAULT, HM_SOCK_NAME, HM_MAP_EVENTS);
}

static void on_signal(int sig)
{
	stop = 1;
}

static void show_record(struct mon *m, const struct hm_record *r)
{
	hm_record_print_table(stdout, r);
	putchar('\n');
	fflush(stdout);
	hm_summary_add(m->sum, r);
	m->summed++;
}

static bool done(const struct mon *m)
{
	return stop || (m->limit && m->seen >= m->limit);
}

/*
 * @line as one JSON value with nothing but white space after it (json-c's
 * json_tokener_parse() stops after the first value and would take
 * "{...} junk"), or NULL. JSON null parses as NULL too, and is no record.
 */
static struct json_object *parse_whole_line(const char *line)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;
	size_t len = strlen(line), end;

	if (!tok)
		return NULL;
	obj = json_tokener_parse_ex(tok, line, len);
	end = json_tokener_get_parse_end(tok);
	if (obj && json_tokener_get_error(tok) == json_tokener_success)
		while (end < len && strchr(" \t\r", line[end]))
			end++;
	if (!obj || json_tokener_get_error(tok) != json_tokener_success || end != len) {
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

/* Whether @obj is a module postcard (Documentation/postcards.rst) of a known type. */
static bool is_postcard(struct json_object *obj)
{
	struct json_object *type;
	const char *name;
	unsigned int t;

	if (!json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, "postcard", &type) ||
	    !json_object_is_type(type, json_type_string))
		return false;
	for (t = HM_POSTCARD_DEX; (name = hm_postcard_type_name(t)); t++)
		if (!strcmp(name, json_object_get_string(type)))
			return true;
	return false;
}

static void handle_line(struct mon *m, const char *line)
{
	struct json_object *obj;
	struct hm_record r;
	bool postcard, is_int;
	int err;

	if (!*line)
		return;
	m->read++;
	obj = parse_whole_line(line);
	postcard = obj && is_postcard(obj);
	/* An INT record (Documentation/int.rst, "Monitoring INT"), or IOAM. */
	err = obj ? int_record_from_json(obj, &m->int_rec, &m->int_sig) : -EINVAL;
	is_int = !err || err != -ENOENT;
	if (!is_int)
		err = postcard ? 0 : obj ? hm_record_from_json(obj, &r) : -EINVAL;
	json_object_put(obj);
	if (err) {
		m->bad++;
		fprintf(stderr, "hopmark: line %llu not shown: %s%s\n",
			(unsigned long long)m->read,
			err == -EPROTO ? "its format differs from this hopmark's libhopmark" :
					 "not a hopmark JSON record",
			err == -EPROTO ? " (hopmarkd and hopmark from different versions?)" : "");
		return;
	}
	m->seen++;
	if (json) {
		/* The agent's line, unchanged. */
		printf("%s\n", line);
		fflush(stdout);
		if (m->summary && !postcard && !is_int) {
			hm_summary_add(m->sum, &r);	/* for the summary line */
			m->summed++;
		}
	} else if (is_int) {
		/* The INT record's table; not in the IOAM per-hop summary. */
		int_print_record_table(stdout, &m->int_rec, &m->int_sig);
		putchar('\n');
		fflush(stdout);
	} else if (postcard) {
		/* A module postcard: no table form. */
		printf("postcard %s\n", line);
		fflush(stdout);
	} else {
		show_record(m, &r);
	}
}

/*
 * A record of the binary stream: shown as the JSON stream's line for it is
 * (hm_record_print_json() writes the agent's line byte for byte).
 */
static void handle_record(struct mon *m, const __u8 *buf, size_t len)
{
	struct hm_record r;
	int err;

	m->read++;
	err = hm_record_wire_decode(buf, len, &r);
	if (err) {
		m->bad++;
		fprintf(stderr, "hopmark: record %llu not shown: %s (binary record layout %d)\n",
			(unsigned long long)m->read,
			err == -EPROTO ? "its layout differs from this hopmark's" : strerror(-err),
			HM_RECORD_WIRE_VERSION);
		return;
	}
	m->seen++;
	if (json) {
		hm_record_print_json(stdout, &r);
		fflush(stdout);
		if (m->summary) {
			hm_summary_add(m->sum, &r);
			m->summed++;
		}
	} else {
		show_record(m, &r);
	}
}

/*
 * Read JSON record lines from @f (hopmarkd's -o file, or standard input)
 * to its end, or until N records or a signal.
 */
static int monitor_file(FILE *f, const char *name, struct mon *m)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = HM_EXIT_OK;

	while (!done(m)) {
		errno = 0;
		n = getline(&line, &cap, f);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno)
				ret = hm_errf(-errno, "reading %s", name);
			break;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		handle_line(m, line);
	}
	free(line);
	return ret;
}

/*
 * The frames of the binary stream in @buf (@used bytes): handled up to the
 * last whole one. Return the bytes consumed, or -1 after an error (said).
 */
static ssize_t socket_frames(struct mon *m, const __u8 *buf, size_t used)
{
	size_t off = 0;

	while (!done(m) && used - off >= HM_MON_FRAME_HDR_LEN) {
		__u32 len = hm_get_be32(buf + off);
		__u16 type = hm_get_be16(buf + off + 4);
		const __u8 *p = buf + off + HM_MON_FRAME_HDR_LEN;

		if (len > HM_MON_FRAME_MAX || hm_get_be16(buf + off + 6)) {
			hm_errf(0, "hopmarkd's binary stream is out of step (a frame of %u bytes, reserved 0x%04x)",
				len, hm_get_be16(buf + off + 6));
			return -1;
		}
		if (used - off - HM_MON_FRAME_HDR_LEN < len)
			break;
		off += HM_MON_FRAME_HDR_LEN + len;
		if (type == HM_MON_FRAME_IOAM_RECORD) {
			handle_record(m, p, len);
		} else if (type == HM_MON_FRAME_JSON_LINE) {
			char *line = malloc(len + 1);

			if (!line) {
				hm_errf(-ENOMEM, "monitor");
				return -1;
			}
			memcpy(line, p, len);
			while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
				len--;
			line[len] = '\0';
			handle_line(m, line);
			free(line);
		}
		/* Another type: a later version's, skipped by its length. */
	}
	return off;
}

/*
 * Read hopmarkd's socket: JSON lines, or with @binary the binary stream,
 * asked for first. Lines before its acknowledgement are handled as lines
 * (records the agent sent before it read the request); an agent that does
 * not know the request goes on with lines, which show the same.
 */
static int monitor_socket(int fd, struct mon *m, bool binary)
{
	size_t cap = binary ? HM_MON_FRAME_HDR_LEN + HM_MON_FRAME_MAX + 1 : HM_LINE_MAX;
	size_t ack_len = strlen(HM_MON_ACK_BINARY) - 1;
	char *buf = malloc(cap);
	bool frames = false;
	size_t used = 0;
	int ret = HM_EXIT_OK;

	if (!buf)
		return hm_errf(-ENOMEM, "monitor");
	if (binary && send(fd, HM_MON_REQ_BINARY, strlen(HM_MON_REQ_BINARY), MSG_NOSIGNAL) < 0) {
		free(buf);
		return hm_errf(-errno, "asking hopmarkd for the binary stream");
	}
	while (!done(m)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char *nl, *start;
		ssize_t n;

		if (poll(&p, 1, HM_POLL_MS) <= 0)
			continue;	/* timeout or EINTR: check stop */
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = hm_errf(-errno, "reading the hopmarkd socket");
			break;
		}
		if (n == 0) {
			fprintf(stderr, "hopmark: hopmarkd closed the monitor socket.\n");
			break;
		}
		used += n;
		start = buf;
		while (!frames && !done(m) && (nl = memchr(start, '\n', buf + used - start))) {
			*nl = '\0';
			if (binary && (size_t)(nl - start) == ack_len &&
			    !memcmp(start, HM_MON_ACK_BINARY, ack_len)) {
				frames = true;
			} else if (binary && !strncmp(start, HM_MON_ERROR_PFX,
						      strlen(HM_MON_ERROR_PFX))) {
				ret = hm_errf(0, "hopmarkd refused the binary stream: %s",
					      start + strlen(HM_MON_ERROR_PFX));
				goto out;
			} else {
				handle_line(m, start);
			}
			start = nl + 1;
		}
		if (frames) {
			ssize_t k = socket_frames(m, (const __u8 *)start, buf + used - start);

			if (k < 0) {
				ret = HM_EXIT_FAIL;
				break;
			}
			start += k;
		}
		used -= start - buf;
		memmove(buf, start, used);
		if (used == cap - 1) {
			ret = hm_errf(0, "a line from hopmarkd exceeds %zu bytes", cap - 1);
			break;
		}
	}
out:
	free(buf);
	return ret;
}

static int ring_sample(void *ctx, void *data, size_t size)
{
	struct mon *m = ctx;
	struct hm_record r;
	int err;

	m->read++;
	err = hm_record_from_ring(data, size, m->sink_node_id, &r);
	if (!err)
		m->seen++;
	if (err) {
		m->bad++;
		fprintf(stderr, "hopmark: record %llu not decoded: %s\n",
			(unsigned long long)m->read, strerror(-err));
	} else if (json) {
		hm_record_print_json(stdout, &r);
		if (m->summary) {
			hm_summary_add(m->sum, &r);
			m->summed++;
		}
	} else {
		show_record(m, &r);
	}
	/* Negative stops the poll with exactly this record consumed. */
	return done(m) ? -ECANCELED : 0;
}

static int monitor_ring(struct mon *m)
{
	struct hopmark_node_cfg node;
	struct ring_buffer *rb;
	int fd, err, ret = HM_EXIT_OK;

	fd = map_open_existing(HM_MAP_EVENTS);
	if (fd < 0)
		return HM_EXIT_FAIL;
	m->sink_node_id = HM_IOAM_U24_UNAVAILABLE;
	if (!node_get(&node) && (node.flags & HM_NODE_F_ID))
		m->sink_node_id = node.node_id;
	rb = ring_buffer__new(fd, ring_sample, m, NULL);
	if (!rb) {
		err = -errno;
		close(fd);
		return hm_errf(err, "cannot read the ring buffer %s", HM_MAP_EVENTS);
	}
	while (!done(m)) {
		err = ring_buffer__poll(rb, HM_POLL_MS);
		/*
		 * The sink wakes readers once per HM_EVENTS_WAKEUP_BYTES of
		 * records: what waits below that is read when the poll times out.
		 */
		if (!err)
			err = ring_buffer__consume(rb);
		if (err < 0 && err != -EINTR && err != -ECANCELED) {
			ret = hm_errf(err, "polling the ring buffer %s", HM_MAP_EVENTS);
			break;
		}
	}
	ring_buffer__free(rb);
	close(fd);
	return ret;
}

/* Connect to hopmarkd; -ENOENT/-ECONNREFUSED when no agent listens. */
static int connect_agent(char *path, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	if (hm_run_path(path, len, HM_SOCK_NAME) || strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/**
 * do_monitor() - "hopmark monitor [file PATH | binary] [count N] [summary]"
 * @argc: words after "monitor"
 * @argv: the words
 *
 * Return: exit status: 0 also when stopped by SIGINT/SIGTERM; %HM_EXIT_FAIL
 * if the file cannot be opened or read, or if lines were rejected and none
 * was valid.
 */
int do_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char *file = NULL, *from;
	bool ring = false, binary = false;
	struct mon m = {};
	char path[256];
	int fd, ret;

	while (argc > 0) {
		if (matches(*argv, "count")) {
			NEXT_ARG();
			m.limit = get_u64_arg(*argv, ~0ULL, "count");
			if (!m.limit)
				invarg("count must be at least 1", *argv);
		} else if (matches(*argv, "file")) {
			NEXT_ARG();
			if (file)
				duparg("file", *argv);
			file = *argv;
		} else if (matches(*argv, "binary")) {
			if (binary)
				duparg("binary", *argv);
			binary = true;
		} else if (matches(*argv, "summary")) {
			/* Text output always ends with the summary. */
			m.summary = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("monitor", *argv);
		}
		argc--;
		argv++;
	}
	if (binary && file)
		invarg("binary reads hopmarkd's socket: not with file", "binary");
	/* No SA_RESTART: a signal ends poll() at once. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	m.sum = hm_summary_new();
	if (!m.sum)
		return hm_errf(-ENOMEM, "monitor");
	if (file) {
		FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;

		from = strcmp(file, "-") ? file : "standard input";
		if (!f) {
			ret = hm_errf(-errno, "cannot open %s", file);
		} else {
			ret = monitor_file(f, from, &m);
			if (f != stdin)
				fclose(f);
		}
		goto out;
	}
	from = "hopmarkd";
	fd = connect_agent(path, sizeof(path));
	if (fd >= 0) {
		ret = monitor_socket(fd, &m, binary);
		close(fd);
	} else if (fd == -ENOENT || fd == -ECONNREFUSED) {
		fprintf(stderr, "hopmark: no hopmarkd at %s: reading the ring buffer %s directly.\n",
			path, HM_MAP_EVENTS);
		from = HM_MAP_EVENTS;
		ring = true;
		ret = monitor_ring(&m);
	} else {
		ret = hm_errf(fd, "cannot connect to hopmarkd at %s", path);
	}
out:
	if (!json && m.read) {
		printf("%llu record%s", (unsigned long long)m.seen, m.seen == 1 ? "" : "s");
		if (m.bad)
			printf(", %llu not shown", (unsigned long long)m.bad);
		printf("\n");
		if (m.seen)
			hm_summary_print(m.sum, stdout, 0);
	}
	if (json && m.summary)
		print_summary_json(m.sum, m.summed, m.bad, NULL);
	if (m.bad)
		fprintf(stderr, "hopmark: %llu of %llu %s%s from %s rejected.\n",
			(unsigned long long)m.bad, (unsigned long long)m.read,
			ring ? "record" : "line", m.read == 1 ? "" : "s", from);
	if (ret == HM_EXIT_OK && m.bad && !m.seen)
		ret = hm_errf(0, "nothing from %s is a hopmark record (%llu %s%s rejected)",
			      from, (unsigned long long)m.bad, ring ? "record" : "line",
			      m.bad == 1 ? "" : "s");
	hm_summary_free(m.sum);
	return ret;
}
