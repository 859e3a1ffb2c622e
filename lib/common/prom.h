/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * prom.h - Prometheus metrics over HTTP: a writer of the text exposition
 * format, version 0.0.4, and a server (Debian's libmicrohttpd) that
 * answers GET /metrics with what the registered collectors write.
 *
 * The format (Prometheus' "Exposition formats", text format 0.0.4): one
 * family per metric name, its "# HELP" and "# TYPE" lines once, then all
 * its samples in one group; a sample is NAME{LABEL="VALUE",...} VALUE.
 * The writer keeps each family's samples apart and prints the families
 * whole at the end, in the order they were first added, so a collector may
 * add samples in any order (per interface, then per counter) and a family
 * is never split. What the writer refuses (a bad metric or label name, a
 * counter whose name does not end in "_total", a family added again with
 * another type or help) is not printed and is counted: the server exposes
 * the count as hopmark_metrics_samples_refused_total.
 *
 * Names follow Prometheus' conventions (Documentation/metrics.rst):
 * hopmark_<component>_<what>, counters end in "_total", a quantity with a
 * unit names it in base units before that ("_bytes", "_seconds").
 *
 * Threads: the server serves from libmicrohttpd's own thread, one request
 * at a time; collectors run there. A collector reads only what that
 * thread may touch: its own file descriptors (the agent reads the per-CPU
 * maps with fds of its own, never stalling the event loop), or a snapshot
 * (hm_prom_snap_new()) that the owning thread publishes with one memcpy.
 *
 * This file and prom.c are not part of libhopmark.a: they are
 * build/libhopmark-prom.a, linked with `pkg-config --libs libmicrohttpd`
 * and -lpthread by the programs that serve metrics (lib/common/build.mk).
 *
 * The collector's hook, in one call after start-up and one per loop:
 *
 *	srv = hm_prom_server_new("127.0.0.1:9465", "hopmark-collector", err, sizeof(err));
 *	snap = hm_prom_snap_new(srv, sizeof(struct hmc_stitch_stats), write_stitch, NULL);
 *	...
 *	hm_prom_snap_publish(snap, hmc_stitch_stats(s));	(after each batch)
 *
 * where write_stitch(w, copy, arg) calls hm_prom_counter() for each field
 * of the copy.
 */
#ifndef __HOPMARK_PROM_H
#define __HOPMARK_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <linux/types.h>

/**
 * enum hm_prom_type - a metric family's type (the "# TYPE" line)
 * @HM_PROM_COUNTER:	a count that only goes up (reset when its source
 *			restarts); its name ends in "_total"
 * @HM_PROM_GAUGE:	a value that goes up and down
 */
enum hm_prom_type {
	HM_PROM_COUNTER,
	HM_PROM_GAUGE,
};

/**
 * struct hm_prom_label - one label of a sample
 * @name:	label name, [a-zA-Z_][a-zA-Z0-9_]*, not starting "__"
 *		(reserved to Prometheus)
 * @value:	any UTF-8 text; '\\', '"' and newline are escaped
 */
struct hm_prom_label {
	const char *name;
	const char *value;
};

/* Labels per sample at most. */
#define HM_PROM_MAX_LABELS	8

struct hm_prom_writer;

/**
 * hm_prom_writer_new() - start one exposition
 *
 * Return: the writer, or NULL (ENOMEM).
 */
struct hm_prom_writer *hm_prom_writer_new(void);

/**
 * hm_prom_add() - add one sample to its family
 * @w:		writer
 * @type:	the family's type
 * @name:	metric name, [a-zA-Z_:][a-zA-Z0-9_:]*; a counter's ends in
 *		"_total"
 * @help:	the family's help text (one line; '\\' and newline escaped)
 * @labels:	the sample's labels, may be NULL when @n_labels is 0
 * @n_labels:	labels at @labels, at most %HM_PROM_MAX_LABELS
 * @value:	the value as printed: see hm_prom_counter() and
 *		hm_prom_gauge(), which format it
 *
 * The first sample of a name makes the family with @type and @help; a
 * later one must give the same two.
 *
 * Return: 0, -EINVAL for a refused sample (counted, see
 * hm_prom_writer_refused()), -ENOMEM.
 */
int hm_prom_add(struct hm_prom_writer *w, enum hm_prom_type type, const char *name,
		const char *help, const struct hm_prom_label *labels,
		unsigned int n_labels, const char *value);

/**
 * hm_prom_counter() - add a counter sample (printed as a decimal integer)
 * @w:		writer
 * @name:	metric name, ending in "_total"
 * @help:	help text
 * @labels:	labels (see hm_prom_add())
 * @n_labels:	labels at @labels
 * @value:	the count; printed exactly (Prometheus stores a float64, so
 *		above 2^53 it keeps the nearest one)
 *
 * Return: see hm_prom_add().
 */
int hm_prom_counter(struct hm_prom_writer *w, const char *name, const char *help,
		    const struct hm_prom_label *labels, unsigned int n_labels, __u64 value);

/**
 * hm_prom_gauge() - add a gauge sample
 * @w:		writer
 * @name:	metric name
 * @help:	help text
 * @labels:	labels (see hm_prom_add())
 * @n_labels:	labels at @labels
 * @value:	the value; an integral one is printed as an integer, NaN and
 *		infinities as "NaN", "+Inf", "-Inf", others with 17
 *		significant digits (round trip)
 *
 * Return: see hm_prom_add().
 */
int hm_prom_gauge(struct hm_prom_writer *w, const char *name, const char *help,
		  const struct hm_prom_label *labels, unsigned int n_labels, double value);

/**
 * hm_prom_writer_refused() - samples the writer refused so far
 * @w:	writer
 *
 * Return: count of -EINVAL returns of hm_prom_add().
 */
unsigned int hm_prom_writer_refused(const struct hm_prom_writer *w);

/**
 * hm_prom_writer_finish() - the exposition text, families whole
 * @w:		writer, freed by the call
 * @len:	set to the bytes of the text (no NUL counted)
 *
 * Return: the text, NUL-terminated, to free(3); NULL (ENOMEM).
 */
char *hm_prom_writer_finish(struct hm_prom_writer *w, size_t *len);

/**
 * hm_prom_writer_free() - drop a writer without its text
 * @w:	writer, may be NULL
 */
void hm_prom_writer_free(struct hm_prom_writer *w);

/**
 * hm_prom_name_ok() - whether @name is a valid metric name
 * @name:	the name
 * @label:	check as a label name instead
 *
 * Return: true when valid.
 */
bool hm_prom_name_ok(const char *name, bool label);

/* ---- the server ---- */

/* The Content-Type of the text format, version 0.0.4. */
#define HM_PROM_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"
/* The only path served (any other gets 404). */
#define HM_PROM_PATH		"/metrics"

/*
 * The server's own families, written after the collectors' samples (a
 * program's list of its families names them with these).
 */
#define HM_PROM_SELF_DURATION		"hopmark_metrics_collect_duration_seconds"
#define HM_PROM_SELF_DURATION_HELP	"Time the collectors of this scrape took"
#define HM_PROM_SELF_SCRAPES		"hopmark_metrics_scrapes_total"
#define HM_PROM_SELF_SCRAPES_HELP	"Scrapes of /metrics answered, this one included"
#define HM_PROM_SELF_REFUSED		"hopmark_metrics_samples_refused_total"
#define HM_PROM_SELF_REFUSED_HELP	"Samples the exposition writer refused (bad name, label or a family redefined)"

struct hm_prom_server;

/**
 * typedef hm_prom_collect_fn - writes a collector's samples for one scrape
 * @w:		the scrape's writer
 * @arg:	the pointer given when the collector was registered
 *
 * Runs in the server's thread, one scrape at a time.
 */
typedef void (*hm_prom_collect_fn)(struct hm_prom_writer *w, void *arg);

/**
 * hm_prom_parse_addr() - parse ADDR:PORT
 * @s:		"IPV4:PORT" or "[IPV6]:PORT"; PORT 0 to 65535 (0: the
 *		kernel picks one, hm_prom_server_port() says which)
 * @ss:		set to the address
 * @sslen:	set to its length
 *
 * Return: 0, or -EINVAL.
 */
int hm_prom_parse_addr(const char *s, struct sockaddr_storage *ss, unsigned int *sslen);

/**
 * hm_prom_server_new() - listen on ADDR:PORT and serve GET /metrics
 * @addr:	see hm_prom_parse_addr()
 * @prog:	program name for the server's log lines on stderr
 *		("PROG: metrics: ..."), borrowed while the server runs
 * @err:	set to the reason of a failure, naming @addr
 * @errlen:	bytes at @err
 *
 * GET and HEAD of %HM_PROM_PATH answer 200 with %HM_PROM_CONTENT_TYPE;
 * another path answers 404, another method 405. The server's own
 * counters (scrapes, refused samples, scrape duration) come after the
 * collectors' samples.
 *
 * Return: the server, running, or NULL with errno set (EINVAL: bad
 * @addr; EADDRINUSE and the like: cannot listen).
 */
struct hm_prom_server *hm_prom_server_new(const char *addr, const char *prog,
					  char *err, size_t errlen);

/**
 * hm_prom_server_port() - the TCP port the server listens on
 * @srv:	server
 *
 * Return: the port (the kernel's pick for PORT 0), host order.
 */
unsigned int hm_prom_server_port(const struct hm_prom_server *srv);

/**
 * hm_prom_register() - add a collector, run at every scrape in order
 * @srv:	server
 * @fn:		the collector; it runs in the server's thread and touches
 *		nothing another thread changes
 * @arg:	passed to @fn
 *
 * Return: 0 or -ENOMEM.
 */
int hm_prom_register(struct hm_prom_server *srv, hm_prom_collect_fn fn, void *arg);

struct hm_prom_snap;

/**
 * typedef hm_prom_snap_fn - writes the samples of a snapshot
 * @w:		the scrape's writer
 * @data:	the latest published copy (hm_prom_snap_publish()), valid
 *		during the call
 * @arg:	the pointer given to hm_prom_snap_new()
 */
typedef void (*hm_prom_snap_fn)(struct hm_prom_writer *w, const void *data, void *arg);

/**
 * hm_prom_snap_new() - a collector of counters another thread owns
 * @srv:	server
 * @size:	bytes of the counters (a struct of them)
 * @fn:		writes the samples of a copy, in the server's thread
 * @arg:	passed to @fn
 *
 * Nothing is written before the first hm_prom_snap_publish(). The owner
 * publishes after it changes the counters (e.g. after each event loop
 * iteration): a scrape then shows them as they were when the owner last
 * finished an iteration, and never waits for the owner.
 *
 * Return: the snapshot (freed with the server), or NULL (ENOMEM).
 */
struct hm_prom_snap *hm_prom_snap_new(struct hm_prom_server *srv, size_t size,
				      hm_prom_snap_fn fn, void *arg);

/**
 * hm_prom_snap_publish() - copy the owner's counters for the next scrapes
 * @snap:	snapshot, may be NULL (no metrics: nothing happens)
 * @data:	@size bytes (hm_prom_snap_new())
 *
 * One memcpy under a mutex that a scrape holds only for its own copy.
 */
void hm_prom_snap_publish(struct hm_prom_snap *snap, const void *data);

/**
 * hm_prom_server_free() - stop serving, free the server and its snapshots
 * @srv:	server, may be NULL
 *
 * Waits for a scrape in progress to finish.
 */
void hm_prom_server_free(struct hm_prom_server *srv);

#endif /* __HOPMARK_PROM_H */
