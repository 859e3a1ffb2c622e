/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmarkd.h - interfaces between the parts of the hopmark agent:
 * the main loop (hopmarkd.c), the output writer (output.c), the ring
 * buffer loss watcher (events_lost.c), the qdisc poller (qdisc_poll.c),
 * the monitor socket (monitor_sock.c), the TAI offset refresher (tai.c),
 * the hopmark module's generic netlink side (genl_events.c), the INT
 * Telemetry Report exporter (int_report.c), the PBT-M postcards
 * (pbt_events.c), the ring-buffer consumption those two share
 * (ring_consume.c) and the Prometheus metrics (metrics.c).
 *
 * Everything the main loop waits on is registered in one epoll instance;
 * the epoll_event's data.ptr points at a struct hm_ev_src whose @kind says
 * who handles the event.
 */
#ifndef __HOPMARKD_H
#define __HOPMARKD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#include "common/hopmark_run.h"
#include "ipfix/ipfix_export.h"

#define HOPMARKD_NAME		"hopmarkd"
#define HOPMARKD_VERSION	"0.1"


/* Exit codes (documented in hopmarkd.8). */
#define HM_EXIT_OK		0	/* stopped by SIGINT or SIGTERM */
#define HM_EXIT_FAILURE		1	/* could not start, or a fatal error */
#define HM_EXIT_USAGE		2	/* bad command line */

/**
 * enum hm_ev_kind - who handles an epoll event
 * @HM_EV_RING:		the ring buffer hopmark_events has records
 * @HM_EV_SIGNAL:	the signalfd has a signal
 * @HM_EV_QDEPTH:	the queue-depth timerfd expired
 * @HM_EV_TICK:		the one-second timerfd expired
 * @HM_EV_LISTEN:	the monitor socket has a connection to accept
 * @HM_EV_CLIENT:	a monitor client is readable, writable or gone
 * @HM_EV_GENL:		the hopmark module's generic netlink socket has
 *			events, configuration changes or family news
 * @HM_EV_INT_RING:	the INT ring buffer int_events has records
 *			(int_report.c)
 * @HM_EV_PBT_RING:	the PBT-M ring buffer pbt_events has postcards
 *			(pbt_events.c)
 */
enum hm_ev_kind {
	HM_EV_RING,
	HM_EV_SIGNAL,
	HM_EV_QDEPTH,
	HM_EV_TICK,
	HM_EV_LISTEN,
	HM_EV_CLIENT,
	HM_EV_GENL,
	HM_EV_INT_RING,
	HM_EV_PBT_RING,
};

/**
 * struct hm_ev_src - what an epoll_event's data.ptr points at
 * @kind: handler
 */
struct hm_ev_src {
	enum hm_ev_kind kind;
};

/* ---- hopmarkd.c ---- */

/**
 * hm_log() - write one line on standard error, prefixed "hopmarkd: "
 * @fmt:	printf(3) format of the line, without its final newline
 */
void hm_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- output.c ---- */

/**
 * struct hm_output_stats - what the output counts, from 0 at every start
 *			    (part of the "agent" part of the statistics line)
 * @records:	ring buffer records written whole to the output (with -q:
 *		handed to the monitor socket)
 * @lost:	JSON lines (records and postcards) decoded but not in the
 *		output: a failed or partial write, or no memory to format
 *		them (socket clients still got the ones that were
 *		formatted); "output_lost"
 * @errors:	failed writes to the output (each loses a batch, or its
 *		end), and lines or batches there was no memory for;
 *		"output_errors"
 * @last_err:	errno of the latest failure (ENOMEM: no memory for a line
 *		or a batch)
 * @batches:	batches flushed
 * @binary_lost: records and lines not in a batch's binary form (no
 *		memory, or a line longer than %HM_MON_FRAME_MAX): the binary
 *		stream's clients did not get them; "binary_lost"
 */
struct hm_output_stats {
	__u64	records;
	__u64	lost;
	__u64	errors;
	int	last_err;
	__u64	batches;
	__u64	binary_lost;
};

struct hm_output;

/**
 * hm_output_new() - open the output the JSON lines are written to
 * @path:	-o FILE, opened for appending (created mode 0666 & ~umask);
 *		borrowed until hm_output_free(). NULL: standard output
 * @quiet:	-q: nothing is written; the lines only go to the monitor
 *		socket's clients (and are counted in &hm_output_stats.records)
 *
 * Return: the output, or NULL with errno set (that of open(2), or ENOMEM).
 */
struct hm_output *hm_output_new(const char *path, bool quiet);

/**
 * hm_output_set_forms() - which forms the next batches are made in
 * @o:		output
 * @json_clients: monitor clients read JSON lines
 * @bin_clients:	monitor clients read the binary stream
 *
 * A batch is made as JSON lines when the output writes them (not -q) or a
 * client reads them, and as binary frames (lib/common/monitor_proto.h)
 * when a client reads those; in neither form when nobody does (records
 * are still counted). JSON lines alone until the first call. Takes
 * effect at the start of the next batch: a batch is in one set of forms.
 */
void hm_output_set_forms(struct hm_output *o, bool json_clients, bool bin_clients);

/* Initial size of the batch buffer, bytes; it grows by doubling. */
#define HM_OUTPUT_BATCH_BYTES	(256 * 1024)

struct hm_record;

/**
 * hm_output_record() - add a record's JSON line to the batch
 * @o:	output
 * @r:	record
 *
 * Written straight into the batch buffer by hm_record_write_json(): no
 * allocation unless the buffer must grow. A batch holds the lines of one
 * source, either ring buffer records or postcards of the module.
 *
 * Return: the number of lines in the batch, or -ENOMEM (the line is
 * counted lost and as an ENOMEM error).
 */
int hm_output_record(struct hm_output *o, const struct hm_record *r);

/* Lines per batch before it is written out. */
#define HM_OUTPUT_BATCH_LINES	4096

/**
 * hm_output_ring_record() - decode a ring buffer record into the batch
 * @o:			output
 * @data:		struct hopmark_ioam_record as the ring buffer gave it
 * @size:		bytes at @data
 * @sink_node_id:	node ID of the sink (0xffffff when unknown)
 *
 * hm_record_from_ring(), then hm_output_record(): the whole path of a
 * record from the ring buffer into the batch (a line without memory is
 * counted there).
 *
 * Return: 1 when the batch is full (%HM_OUTPUT_BATCH_LINES lines or
 * %HM_OUTPUT_BATCH_BYTES bytes: write it out), 0 to go on, or the negative
 * errno of hm_record_from_ring() for a record that does not decode (not
 * in the batch; the caller counts it).
 */
int hm_output_ring_record(struct hm_output *o, const void *data, size_t size,
			  __u32 sink_node_id);

/**
 * hm_output_line() - add a formatted JSON line to the batch
 * @o:		output
 * @line:	the line, ending in '\n'
 * @len:	bytes at @line
 * @record:	the line is a ring buffer record (else a postcard)
 *
 * Return: the number of lines in the batch, or -ENOMEM (counted as in
 * hm_output_record()).
 */
int hm_output_line(struct hm_output *o, const char *line, size_t len, bool record);

/**
 * hm_output_line_lost() - count a line that could not be formatted
 * @o:	output
 *
 * Counted lost and as an ENOMEM error, like a line without memory.
 */
void hm_output_line_lost(struct hm_output *o);

/**
 * hm_output_batch_bytes() - bytes of lines in the batch so far
 * @o:	output
 *
 * Return: bytes of its JSON lines or of its binary frames, the larger.
 */
size_t hm_output_batch_bytes(const struct hm_output *o);

/**
 * hm_output_flush() - write the batch to the output, whole lines only
 * @o:		output
 * @buf:	set to the batch's lines, for the monitor socket's clients
 *		(which get them whether the output took them or not):
 *		borrowed, valid until the next line is added; NULL when
 *		there was no batch
 * @len:	set to the bytes at *@buf (0 when the batch had no JSON form)
 * @bin:	set to the batch's binary frames, for the clients of the
 *		binary stream: borrowed like *@buf; NULL when none
 * @bin_len:	set to the bytes at *@bin
 *
 * After a failed write (ENOSPC, EFBIG past RLIMIT_FSIZE, EIO) the start of
 * a line cut by it is cut off again with ftruncate(2) on a regular file;
 * on a pipe or terminal the rest of the line is kept and written before
 * anything else. The lines not written are counted lost; the next batch
 * starts empty, in the same buffer.
 *
 * Return: 0, or -EPIPE when the reader of a pipe went away (logged).
 */
int hm_output_flush(struct hm_output *o, const char **buf, size_t *len,
		    const void **bin, size_t *bin_len);

/**
 * hm_output_reopen() - continue in a new file at the -o path (SIGHUP)
 * @o:	output
 *
 * After logrotate moved the file away. Nothing happens on standard output
 * or with -q; if the path cannot be opened, that is logged and the old
 * file is written on. The rest of a line cut on the old file stays lost.
 */
void hm_output_reopen(struct hm_output *o);

/**
 * hm_output_report() - log the output's failures since the last report
 * @o:	output
 *
 * Called once a second, so a flood of failures gives at most one line a
 * second, with the failed writes and the lines lost since the previous one,
 * and one for what the binary stream's clients did not get
 * (&hm_output_stats.binary_lost).
 */
void hm_output_report(struct hm_output *o);

/**
 * hm_output_stats() - the output's counters
 * @o:	output
 *
 * Return: pointer to counters owned by @o.
 */
const struct hm_output_stats *hm_output_stats(const struct hm_output *o);

/**
 * hm_output_free() - close the output (not standard output) and free it
 * @o:	output, may be NULL
 *
 * The rest of a line still cut is written if the output takes it now, else
 * counted lost.
 */
void hm_output_free(struct hm_output *o);

/* ---- events_lost.c ---- */

struct hm_events_lost;

/**
 * hm_events_lost_new() - start watching the datapath's events_lost counters
 *
 * The first reading of hopmark_stats (HM_CNT_EVENTS_LOST of every
 * interface, summed over the CPUs) is the baseline: what was lost before
 * this run is not this run's. If the map cannot be read, the first
 * reading that succeeds is.
 *
 * Return: the watcher, or NULL with errno set (ENOMEM).
 */
struct hm_events_lost *hm_events_lost_new(void);

/**
 * hm_events_lost_check() - read the counters, count what was lost since
 * @el:		watcher
 * @report:	log the loss, if any, in one line
 *
 * Called once a second (the tick) and at exit: what the datapath lost
 * since the previous reading, per interface, is added to the records lost
 * in this run (hm_events_lost_ring_lost()). An interface that appeared
 * counts from 0; one deleted meanwhile takes its counts with it; a counter
 * lower than before was reset and lost nothing. A reading that fails (map
 * gone, no memory) changes nothing.
 */
void hm_events_lost_check(struct hm_events_lost *el, bool report);

/**
 * hm_events_lost_ring_lost() - records lost in this run, so far
 * @el:	watcher
 *
 * Return: the increase of the events_lost counters since the baseline,
 * records (the "ring_lost" of the statistics line).
 */
__u64 hm_events_lost_ring_lost(const struct hm_events_lost *el);

/**
 * hm_events_lost_total() - the datapath's events_lost since the maps were
 *			    created
 *
 * Summed over interfaces and CPUs, across agent restarts.
 *
 * Return: records, or -1 if hopmark_stats cannot be read.
 */
long long hm_events_lost_total(void);

/**
 * hm_events_lost_free() - free the watcher
 * @el:	watcher, may be NULL
 */
void hm_events_lost_free(struct hm_events_lost *el);

/* ---- qdisc_poll.c ---- */

struct hm_qdisc_poll;

/**
 * hm_qdisc_poll_new() - open the rtnetlink socket the poller dumps qdiscs on
 * @qdepth_fd:	fd of the pinned hopmark_qdepth map, kept by the caller
 *
 * Return: the poller, or NULL with errno set.
 */
struct hm_qdisc_poll *hm_qdisc_poll_new(int qdepth_fd);

/**
 * hm_qdisc_poll_run() - read every root qdisc's backlog into hopmark_qdepth
 * @qp: poller
 *
 * Dumps the qdiscs of the current network namespace (RTM_GETQDISC), takes
 * the root qdisc of each interface, writes hopmark_qdepth[ifindex] with the
 * node totals of the same reading (buffer occupancy, RFC 9197 §4.4.2.12)
 * and the totals alone at key 0, all with one CLOCK_MONOTONIC reading, and
 * deletes the entries of interfaces that are gone.
 *
 * Return: number of interfaces written, or negative errno (the map keeps
 * its previous values, which then age out in the datapath).
 */
int hm_qdisc_poll_run(struct hm_qdisc_poll *qp);

/**
 * hm_qdisc_poll_free() - close the poller's socket and free it
 * @qp: poller, may be NULL
 */
void hm_qdisc_poll_free(struct hm_qdisc_poll *qp);

/* ---- monitor_sock.c ---- */

/**
 * struct hm_monitor_stats - what the monitor socket counts
 * @accepted:	clients accepted
 * @refused:	connections closed at once because %HM_MONITOR_MAX_CLIENTS
 *		were connected
 * @dropped_slow: clients disconnected because they fell more than
 *		%HM_MONITOR_PENDING_MAX bytes behind
 * @closed:	clients that hung up or failed, and those closed after
 *		their request was refused
 * @connected:	clients connected now
 * @binary:	of which reading the binary stream
 * @binary_accepted: requests for the binary stream accepted
 * @bad_requests: requests refused (unknown, a version the agent does not
 *		speak, too long, not ended by a newline): answered with an
 *		error line, the client closed
 */
struct hm_monitor_stats {
	__u64	accepted;
	__u64	refused;
	__u64	dropped_slow;
	__u64	closed;
	unsigned int connected;
	unsigned int binary;
	__u64	binary_accepted;
	__u64	bad_requests;
};

#define HM_MONITOR_MAX_CLIENTS	64
#define HM_MONITOR_PENDING_MAX	(1024 * 1024)	/* bytes queued per client */

struct hm_monitor;

/**
 * hm_monitor_new() - listen on a unix stream socket for monitor clients
 * @path:	socket path; its directory is created (mode 0755) if missing
 * @epfd:	epoll instance the listening socket and the clients join
 *
 * A stale socket file (nobody accepting on it) is replaced; a live one
 * means another agent serves this node.
 *
 * Return: the monitor, or NULL with errno set (EADDRINUSE: another agent
 * is listening on @path; ENAMETOOLONG: @path does not fit sun_path).
 */
struct hm_monitor *hm_monitor_new(const char *path, int epfd);

/**
 * hm_monitor_event() - handle an epoll event of the listening socket or a client
 * @m:		monitor
 * @src:	the event's data.ptr (kind %HM_EV_LISTEN or %HM_EV_CLIENT)
 * @events:	the epoll event mask
 *
 * Return: 1 if a client was closed and freed (counted in
 * &hm_monitor_stats.closed), else 0.
 */
int hm_monitor_event(struct hm_monitor *m, struct hm_ev_src *src, __u32 events);

/**
 * hm_monitor_send() - send a batch to every client without blocking
 * @m:		monitor
 * @buf:	the batch as JSON lines, each ending in '\n', for the JSON
 *		clients
 * @len:	bytes at @buf (0: nothing for them)
 * @bin:	the same batch as binary frames (lib/common/monitor_proto.h),
 *		for the clients of the binary stream
 * @bin_len:	bytes at @bin (0: nothing for them)
 *
 * What a client's socket does not take at once is queued for it; a client
 * with more than %HM_MONITOR_PENDING_MAX bytes queued is disconnected and
 * counted in &hm_monitor_stats.dropped_slow, in either stream.
 */
void hm_monitor_send(struct hm_monitor *m, const char *buf, size_t len,
		     const void *bin, size_t bin_len);

/**
 * hm_monitor_json_clients() - clients that get JSON lines now
 * @m:	monitor, or NULL (0)
 *
 * Return: connected clients neither on the binary stream nor closing.
 */
unsigned int hm_monitor_json_clients(const struct hm_monitor *m);

/**
 * hm_monitor_binary_clients() - clients that get binary frames now
 * @m:	monitor, or NULL (0)
 *
 * Return: &hm_monitor_stats.binary.
 */
unsigned int hm_monitor_binary_clients(const struct hm_monitor *m);

/**
 * hm_monitor_report() - log the clients dropped and requests refused since
 *			 the last report
 * @m:	monitor
 *
 * Called once a second: at most one line for each, with the count since
 * the last line, the total and, for requests, why the last one was refused.
 */
void hm_monitor_report(struct hm_monitor *m);

/**
 * hm_monitor_stats() - the monitor's counters
 * @m: monitor
 *
 * Return: pointer to counters owned by @m.
 */
const struct hm_monitor_stats *hm_monitor_stats(const struct hm_monitor *m);

/**
 * hm_monitor_clients_gone() - how many clients the monitor has freed so far
 * @m: monitor, or NULL (no monitor: 0)
 *
 * A client is freed while the caller handles one epoll event (it hung up,
 * failed, or fell too far behind in hm_monitor_send()); a later entry of
 * the same epoll_wait() batch may point at it. A caller compares this
 * count before and after each event and, when it changed, drops the rest
 * of the batch and asks epoll again. Every fd is level-triggered, so no
 * event is lost.
 *
 * Return: &hm_monitor_stats.closed + &hm_monitor_stats.dropped_slow.
 */
__u64 hm_monitor_clients_gone(const struct hm_monitor *m);

/**
 * hm_monitor_free() - disconnect every client, close and unlink the socket
 * @m: monitor, may be NULL
 */
void hm_monitor_free(struct hm_monitor *m);

/* ---- tai.c ---- */

/**
 * struct hm_node_view - what the agent reads from hopmark_node[0]
 * @node_id:		short node ID, 0xffffff while none is set
 * @tai_offset_ns:	the TAI - UTC offset last written, ns
 * @qdepth_max_age_ns:	queue-depth freshness bound of the datapath, ns
 */
struct hm_node_view {
	__u32	node_id;
	__s64	tai_offset_ns;
	__u64	qdepth_max_age_ns;
};

/**
 * hm_tai_refresh() - write the kernel's TAI offset into hopmark_node[0]
 * @node_fd:	fd of the pinned hopmark_node map
 * @view:	filled with the node settings as they are after the refresh
 *
 * Reads the TAI - UTC offset (seconds) with adjtimex(2) and, when it
 * differs from hopmark_node[0].tai_offset_ns, writes it there in ns; the
 * other fields are written back as read.
 *
 * Return: 1 if the map was updated, 0 if it already held the offset,
 * negative errno on failure.
 */
int hm_tai_refresh(int node_fd, struct hm_node_view *view);

/* ---- genl_events.c ---- */

struct hm_postcard;
struct hm_genl_events;

#define HM_GENL_NS_MAX		64	/* IOAM-Namespaces followed */

/**
 * struct hm_genl_cfg - what the agent exports, as the hopmark module says
 * @module:		dumped from the module (false: use the pinned maps)
 * @has_node_id:	the module has a short node ID
 * @node_id:		short node ID (24 bits), stamped on postcards and
 *			used as the sink node ID of ring buffer records
 * @has_node_id_wide:	the module has a wide node ID
 * @node_id_wide:	wide node ID (56 bits)
 * @rate:		export rate limit, events/s (0: none)
 * @batch:		records per event message
 * @flush_ms:		flush delay of a partial batch, ms
 * @fields:		postcard fields exported (HOPMARK_EXPORT_F_*, the same
 *			bits as HM_POSTCARD_FIELD_*); the others are left out
 * @n_ns:		IOAM-Namespaces in @ns
 * @ns:			the module's IOAM-Namespaces and their rate limits
 *			(events/s); postcards of others are not exported
 */
struct hm_genl_cfg {
	bool	module;
	bool	has_node_id;
	__u32	node_id;
	bool	has_node_id_wide;
	__u64	node_id_wide;
	__u32	rate;
	__u32	batch;
	__u32	flush_ms;
	__u32	fields;
	unsigned int n_ns;
	struct {
		__u16	id;
		__u32	rate;
	} ns[HM_GENL_NS_MAX];
};

/**
 * struct hm_genl_stats - what the generic netlink side counts
 * @messages:		event messages received
 * @postcards:		postcards handed to the output
 * @bad_records:	records that do not follow the uapi, not exported
 * @filtered:		records of IOAM-Namespaces the module no longer has
 * @emit_errors:	postcards the output could not take
 * @overruns:		receive buffer overruns (events lost in the socket)
 * @recv_errors:	other receive errors
 * @config_changes:	configuration notifications applied
 * @bad_config:		configuration messages that did not parse
 * @dumps:		configuration dumps
 * @ns_overflow:	namespaces beyond %HM_GENL_NS_MAX, not followed
 */
struct hm_genl_stats {
	__u64	messages;
	__u64	postcards;
	__u64	bad_records;
	__u64	filtered;
	__u64	emit_errors;
	__u64	overruns;
	__u64	recv_errors;
	__u64	config_changes;
	__u64	bad_config;
	__u64	dumps;
	__u64	ns_overflow;
};

struct hm_genl_events *hm_genl_events_new(int epfd, struct hm_ev_src *src,
					  int (*emit)(void *ctx, const struct hm_postcard *pc),
					  void *ctx);
int hm_genl_events_run(struct hm_genl_events *ge);
const struct hm_genl_cfg *hm_genl_events_cfg(const struct hm_genl_events *ge);
const struct hm_genl_stats *hm_genl_events_stats(const struct hm_genl_events *ge);
void hm_genl_events_free(struct hm_genl_events *ge);

/* ---- int_report.c ---- */

struct hm_ipfix_exp;

/**
 * struct hm_int_report_stats - what the INT exporter counts, from 0 at
 *				every start (the "int_reports" part of the
 *				statistics line)
 * @records:		records read from int_events
 * @reports_sent:	Individual Reports in datagrams the kernel took
 * @dgrams_sent:	report datagrams the kernel took
 * @coalesced:		reports sent in a datagram after its first one
 *			(@reports_sent - @dgrams_sent)
 * @send_failed:	reports in datagrams that could not be sent (no
 *			socket for the collector, a full socket buffer after
 *			%HM_INT_SEND_WAIT_MS, an unreachable collector)
 * @dgrams_failed:	datagrams that could not be sent
 * @bad_records:	records the encoder refused (RepMdBits and metadata
 *			length disagree, unknown kind or family)
 * @no_collector:	records read while int_cfg[0] has no collector
 *			(rpt_family 0) or is not configured: not sent
 * @ring_lost:		records the datapath could not queue (the increase of
 *			INT_CNT_EVENTS_LOST in int_stats during this run)
 * @cfg_changes:	readings of int_cfg[0] that differed from the previous
 * @json_lines:		records whose JSON line went into the output's batch
 *			(for the output and the monitor socket)
 * @json_bad:		records no JSON line could be made of (the
 *			int_record_write_json() refusals: unknown kind or
 *			family, metadata that disagrees with RepMdBits)
 * @last_send_err:	errno of the latest failed send
 * @last_bad_err:	errno of the latest refused record
 */
struct hm_int_report_stats {
	__u64	records;
	__u64	reports_sent;
	__u64	dgrams_sent;
	__u64	coalesced;
	__u64	send_failed;
	__u64	dgrams_failed;
	__u64	bad_records;
	__u64	no_collector;
	__u64	ring_lost;
	__u64	cfg_changes;
	__u64	json_lines;
	__u64	json_bad;
	int	last_send_err;
	int	last_bad_err;
};

/* How long a full socket buffer is waited for before a batch's rest fails, ms. */
#define HM_INT_SEND_WAIT_MS	20

struct hm_int_report;

/**
 * hm_int_report_new() - start the INT Telemetry Report exporter
 * @epfd:	epoll instance the int_events ring buffer joins, with @src
 * @src:	epoll tag; its kind is set to %HM_EV_INT_RING
 *
 * The INT maps need not exist yet: they are looked for now and on every
 * hm_int_report_tick().
 *
 * Return: the exporter, or NULL with errno set (ENOMEM).
 */
struct hm_int_report *hm_int_report_new(int epfd, struct hm_ev_src *src);

/**
 * hm_int_report_set_output() - write every record as a JSON line too
 * @ir:		exporter
 * @out:	hopmarkd's output; its batch gets one line per record read
 *		(int_record_write_json(), Documentation/int.rst, "Monitoring
 *		INT"), whether or not a collector is configured
 * @flush:	writes the batch to the output and to the monitor socket's
 *		clients; called after every batch of the drain
 * @ctx:	its argument
 */
void hm_int_report_set_output(struct hm_int_report *ir, struct hm_output *out,
			      int (*flush)(void *ctx), void *ctx);

/**
 * hm_int_report_set_exporter() - export every XD / MX record as IPFIX too
 * @ir:		exporter of reports
 * @exp:	the IPFIX exporter (lib/ipfix/ipfix_export.c); its collector is
 *		pbt_cfg[0]'s, independent of int_cfg's report collector
 */
void hm_int_report_set_exporter(struct hm_int_report *ir, struct hm_ipfix_exp *exp);

/**
 * hm_int_report_active() - whether the int_events ring buffer is read
 * @ir:	exporter, may be NULL
 *
 * Return: true when the ring is open (the main loop then polls it).
 */
bool hm_int_report_active(const struct hm_int_report *ir);

/**
 * hm_int_report_drain() - turn the records waiting in int_events into reports
 * @ir:	exporter, may be NULL
 *
 * Reads int_cfg[0] again, consumes the ring, coalesces the records into
 * datagrams (lib/int/report_encode.h) and sends them, up to 64 per
 * sendmmsg(2). With an output (hm_int_report_set_output()) every record's
 * JSON line joins its batch; a full batch (%HM_OUTPUT_BATCH_LINES lines or
 * %HM_OUTPUT_BATCH_BYTES bytes) is written out before the ring is read on,
 * at most 64 batches per call. A full socket buffer is waited for at most
 * %HM_INT_SEND_WAIT_MS per batch; what it still refuses fails (counted).
 *
 * Return: 0, or the negative errno of a failed ring buffer read.
 */
int hm_int_report_drain(struct hm_int_report *ir);

/**
 * hm_int_report_tick() - once a second: maps, settings, losses, log
 * @ir:	exporter
 *
 * Opens the INT maps if they appeared (or were replaced), reads int_cfg[0],
 * reads the datapath's INT_CNT_EVENTS_LOST and logs, in at most one line
 * each, the records lost, the reports that failed to send and the records
 * refused since the previous tick.
 */
void hm_int_report_tick(struct hm_int_report *ir);

/**
 * hm_int_report_lost_check() - read the datapath's INT loss counter
 * @ir:		exporter
 * @report:	log the loss since the previous reading, if any
 *
 * The first reading is the baseline (&hm_int_report_stats.ring_lost counts
 * from there); a lower sum than before means the maps were re-created.
 */
void hm_int_report_lost_check(struct hm_int_report *ir, bool report);

/**
 * hm_int_report_stats() - the exporter's counters
 * @ir:	exporter
 *
 * Return: pointer to counters owned by @ir.
 */
const struct hm_int_report_stats *hm_int_report_stats(const struct hm_int_report *ir);

/**
 * hm_int_report_events_lost_total() - INT_CNT_EVENTS_LOST since the INT
 *				       maps were created
 * @ir:	exporter
 *
 * Return: records, summed over interfaces and CPUs at the latest reading,
 * or -1 if int_stats could not be read.
 */
long long hm_int_report_events_lost_total(const struct hm_int_report *ir);

/**
 * hm_int_report_free() - close the maps and the socket, free the exporter
 * @ir:	exporter, may be NULL
 */
void hm_int_report_free(struct hm_int_report *ir);

/* ---- lib/ipfix/ipfix_export.c: the IPFIX exporter, ipfix/ipfix_export.h ---- */

/* ---- pbt_events.c ---- */

/**
 * struct hm_pbt_events_stats - what the PBT-M consumer counts, from 0 at
 *				every start (the "pbt" part of the
 *				statistics line)
 * @postcards:		records read from pbt_events
 * @bad_records:	records shorter than struct pbt_record, or that do not
 *			convert (family, point)
 * @json_lines:		postcards whose JSON line went into the output's batch
 * @ring_lost:		postcards the datapath could not queue (the increase
 *			of PBT_CNT_EVENTS_LOST in pbt_stats during this run)
 * @tpl_expired:	per-flow templates removed from pbt_tpl after their
 *			expires_ns
 * @cfg_changes:	readings of pbt_cfg[0] that differed from the previous
 */
struct hm_pbt_events_stats {
	__u64	postcards;
	__u64	bad_records;
	__u64	json_lines;
	__u64	ring_lost;
	__u64	tpl_expired;
	__u64	cfg_changes;
};

struct hm_pbt_events;

/**
 * hm_pbt_events_new() - start consuming PBT-M postcards
 * @epfd:	epoll instance the pbt_events ring buffer joins, with @src
 * @src:	epoll tag; its kind is set to %HM_EV_PBT_RING
 * @exp:	the IPFIX exporter, configured from pbt_cfg[0].exp_*
 *
 * The PBT-M maps need not exist yet: they are looked for now and on
 * every hm_pbt_events_tick().
 *
 * Return: the consumer, or NULL with errno set (ENOMEM).
 */
struct hm_pbt_events *hm_pbt_events_new(int epfd, struct hm_ev_src *src,
					struct hm_ipfix_exp *exp);

/**
 * hm_pbt_events_set_output() - write every postcard as a JSON line too
 * @pe:		consumer
 * @out:	hopmarkd's output (NULL: no lines)
 * @flush:	writes the batch to the output and the monitor socket
 * @ctx:	its argument
 */
void hm_pbt_events_set_output(struct hm_pbt_events *pe, struct hm_output *out,
			      int (*flush)(void *ctx), void *ctx);

/**
 * hm_pbt_events_active() - whether pbt_events is read
 * @pe:	consumer, may be NULL
 *
 * Return: true when the ring is open.
 */
bool hm_pbt_events_active(const struct hm_pbt_events *pe);

/**
 * hm_pbt_events_drain() - postcards waiting in pbt_events into JSON lines
 *			   and IPFIX records
 * @pe:	consumer, may be NULL
 *
 * Batched as int_report.c's drain: a full batch of lines is written out
 * before the ring is read on, at most 64 batches per call.
 *
 * Return: 0, or the negative errno of a failed ring read or flush.
 */
int hm_pbt_events_drain(struct hm_pbt_events *pe);

/**
 * hm_pbt_events_tick() - once a second: maps, settings, losses, expiry
 * @pe:	consumer
 *
 * Opens the PBT-M maps if they appeared, reads pbt_cfg[0] into the
 * exporter, adds the datapath's PBT_CNT_EVENTS_LOST increase to
 * &hm_pbt_events_stats.ring_lost (logged), and removes the pbt_tpl
 * entries whose expires_ns passed (counted, logged).
 */
void hm_pbt_events_tick(struct hm_pbt_events *pe);

/**
 * hm_pbt_events_stats() - the consumer's counters
 * @pe:	consumer
 *
 * Return: pointer to counters owned by @pe.
 */
const struct hm_pbt_events_stats *hm_pbt_events_stats(const struct hm_pbt_events *pe);

/**
 * hm_pbt_events_free() - close the maps, free the consumer
 * @pe:	consumer, may be NULL
 */
void hm_pbt_events_free(struct hm_pbt_events *pe);

/* ---- metrics.c ---- */

/**
 * struct hm_metrics_agent - what the main loop publishes for the metrics
 *			     (a snapshot, copied once per loop iteration)
 * @node_id:		the node ID the agent stamps (the module's when it has
 *			one, else hopmark_node.node_id; 0xffffff: none): the
 *			"node" label of every datapath series
 * @start_time_s:	when the agent started, POSIX seconds
 * @records:		the IOAM ring buffer is read (not --no-records)
 * @has_genl:		the generic netlink side runs
 * @module_loaded:	the hopmark module answered its configuration dump
 * @has_ipfix:		the IPFIX exporter runs: @ipfix holds its counters
 * @has_pbt:		the PBT-M consumer runs: @pbt holds its counters
 * @decode_errors:	records that did not decode
 * @qdepth_polls:	successful qdisc polls
 * @qdepth_errors:	failed qdisc polls
 * @tai_updates:	writes of hopmark_node.tai_offset_ns
 * @tai_errors:		failed TAI refreshes
 * @pruned:		map entries of deleted interfaces forgotten
 * @postcards_not_ipfix: module postcards not exported as IPFIX (headers
 *			that did not parse)
 * @ring_lost:		IOAM records the datapath lost in this run
 *			(hm_events_lost_ring_lost())
 * @out:		the output's counters
 * @mon:		the monitor socket's counters
 * @genl:		the generic netlink side's counters
 * @intr:		the INT exporter's counters
 * @ipfix:		the IPFIX exporter's counters (@has_ipfix)
 * @pbt:		the PBT-M postcard consumer's counters (@has_pbt)
 */
struct hm_metrics_agent {
	__u32				node_id;
	double				start_time_s;
	bool				records;
	bool				has_genl;
	bool				module_loaded;
	bool				has_ipfix;
	bool				has_pbt;
	__u64				decode_errors;
	__u64				qdepth_polls;
	__u64				qdepth_errors;
	__u64				tai_updates;
	__u64				tai_errors;
	__u64				pruned;
	__u64				postcards_not_ipfix;
	__u64				ring_lost;
	struct hm_output_stats		out;
	struct hm_monitor_stats		mon;
	struct hm_genl_stats		genl;
	struct hm_int_report_stats	intr;
	struct hm_ipfix_exp_stats	ipfix;
	struct hm_pbt_events_stats	pbt;
};

struct hm_metrics;

/**
 * hm_metrics_new() - serve the Prometheus metrics on --metrics ADDR:PORT
 * @addr:	"IPV4:PORT" or "[IPV6]:PORT" (PORT 0: the kernel picks one)
 *
 * A libmicrohttpd thread answers GET /metrics (lib/common/prom.h): it
 * reads the datapath's per-CPU counter maps (hopmark_stats, pint_stats,
 * int_stats, pbt_stats, each when pinned) with file descriptors of its
 * own at each scrape, so the main loop never waits for a scrape, and
 * writes the agent's counters from the latest hm_metrics_publish().
 * Documentation/metrics.rst lists every family.
 *
 * Return: the metrics, or NULL with errno set (the reason is logged).
 */
struct hm_metrics *hm_metrics_new(const char *addr);

/**
 * hm_metrics_port() - the TCP port the metrics are served on
 * @m:	metrics
 *
 * Return: the port, host order.
 */
unsigned int hm_metrics_port(const struct hm_metrics *m);

/**
 * hm_metrics_publish() - hand the main loop's counters to the next scrapes
 * @m:	metrics, may be NULL (no --metrics: nothing happens)
 * @s:	the counters; copied
 */
void hm_metrics_publish(struct hm_metrics *m, const struct hm_metrics_agent *s);

/**
 * hm_metrics_list() - print every metric family hopmarkd may serve
 * @f:	where to
 *
 * One line per family: name, type, labels, help (--list-metrics, the
 * table of Documentation/metrics.rst). The PBT-M families are listed when
 * this build has lib/pbt/pbt_names.h.
 */
void hm_metrics_list(FILE *f);

/**
 * hm_metrics_free() - stop serving and free the metrics
 * @m:	metrics, may be NULL
 */
void hm_metrics_free(struct hm_metrics *m);
/* ring_consume.c: what int_report.c and pbt_events.c share. */
struct ring_buffer;

/**
 * hm_ring_consume_batches() - drain a family's ring buffer a batch at a time
 * @rb:		the ring buffer (libbpf)
 * @batches:	at most this many batches before the other events get their
 *		turn (the ring's epoll fd is level-triggered: what is left is
 *		reported again)
 * @who:	the family's name in the log line ("INT", "PBT-M")
 * @map:	the ring's pinned map name, for the log line
 * @after:	called after each batch to write out what it produced; its
 *		nonzero return stops the drain and is returned
 * @ctx:	@after's argument
 *
 * A full batch stops the consumer with -EAGAIN: written out, then the next.
 *
 * Return: 0, the error of ring_buffer__consume() (logged; -EAGAIN and
 * -EINTR are not errors) or @after's.
 */
int hm_ring_consume_batches(struct ring_buffer *rb, unsigned int batches, const char *who,
			    const char *map, int (*after)(void *ctx), void *ctx);

/**
 * hm_percpu_cnt_sum() - one counter of a per-CPU stats map summed over
 *	its keys (interfaces) and the CPUs
 * @fd:		the map's fd, opened from @map on the first call (-1 before)
 * @map:	the pinned map's name (int_stats, pbt_stats)
 * @val_size:	the size of one CPU's value in bytes (a multiple of 8, as
 *		the per-CPU lookup lays them out)
 * @cnt_off:	the byte offset of the __u64 counter in one CPU's value
 *
 * Return: the sum (host order), or -1 when the map cannot be read.
 */
long long hm_percpu_cnt_sum(int *fd, const char *map, size_t val_size, size_t cnt_off);

/**
 * hm_lost_delta() - what a loss counter rose by since its last reading
 * @prev:	the last reading, -1 before the first; updated to @cur
 * @cur:	this reading, negative when unreadable (then nothing changes)
 *
 * The first reading, or one lower than the last (maps created again), is
 * a baseline: losses before it are not this run's.
 *
 * Return: the increase, 0 for a baseline or an unreadable counter.
 */
__u64 hm_lost_delta(long long *prev, long long cur);

#endif /* __HOPMARKD_H */
