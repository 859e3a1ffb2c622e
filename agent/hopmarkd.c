// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmarkd.c - the hopmark agent: options and the main loop.
 *
 * One thread, one epoll instance. It waits on
 *   - the hopmark_events ring buffer: a sink's IOAM records, turned into
 *     JSON lines (hm_record_from_ring(), hm_record_print_json()) for the
 *     output (output.c) and the monitor socket, and into binary frames
 *     (lib/ioam/record_wire.h) for the monitor's binary stream, a whole
 *     batch per wakeup;
 *   - a timerfd every --qdepth-interval: qdisc backlog into hopmark_qdepth;
 *   - a one-second timerfd: the TAI offset in hopmark_node, the sink's node
 *     ID, and the rate-limited reports of records that failed to decode,
 *     of output that could not be written and of records the datapath
 *     lost because the ring buffer was full (events_lost.c);
 *   - the monitor socket and its clients;
 *   - the hopmark kernel module's generic netlink events and configuration
 *     (genl_events.c): one postcard JSON line per event, when the module
 *     is loaded;
 *   - the INT datapath's int_events ring buffer, when the INT maps are
 *     pinned (int_report.c): Telemetry Report v2.0 datagrams to the
 *     collector of int_cfg[0], with or without --no-records;
 *   - a signalfd: SIGINT/SIGTERM stop, SIGHUP reopens the output file,
 *     SIGUSR1 prints the counters.
 * With --metrics ADDR:PORT a libmicrohttpd thread serves Prometheus
 * metrics (metrics.c): it reads the datapath maps itself, and the loop
 * publishes a copy of its counters after every iteration.
 * See hopmarkd.8 and Documentation/agent.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "pint/gml.h"
#include "hopmark.h"
#include "hopmarkd.h"
#include "common/prom.h"
#include "postcard/postcard.h"
#include "postcard/pc_obs_from.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "pint_agent.h"
#include "pint/pint_path.h"

/* Batches written per ring buffer event before other events are served. */
#define HM_DRAIN_BATCHES	64
/*
 * The datapath wakes the agent once per HM_EVENTS_WAKEUP_BYTES of records
 * (hopmark_maps.h): what a slower trickle leaves below that is read after
 * at most this long, ms.
 */
#define HM_RING_POLL_MS		10

/**
 * struct hm_agent_stats - the main loop's own counters, from 0 at every
 *			   start (with those of the output, &hm_output_stats,
 *			   and the loss watcher, hm_events_lost_ring_lost():
 *			   the "agent" part of the statistics line)
 * @decode_errors:	records hm_record_from_ring() rejected
 * @decode_reported:	@decode_errors already reported on stderr
 * @last_decode_err:	negative errno of the latest rejection
 * @qdepth_polls:	successful qdisc polls
 * @qdepth_errors:	failed qdisc polls
 * @qdepth_reported:	@qdepth_errors already reported
 * @last_qdepth_err:	negative errno of the latest failed poll
 * @tai_updates:	writes of hopmark_node.tai_offset_ns
 * @tai_errors:		failed TAI refreshes
 * @pruned:		map entries of deleted interfaces forgotten
 * @prune_errors:	failed hm_prune_gone_ifaces() runs (the first is logged)
 * @postcards_not_ipfix: module postcards whose headers did not parse
 *			(not IPv6): shown as JSON, not exported as IPFIX
 */
struct hm_agent_stats {
	__u64	decode_errors;
	__u64	decode_reported;
	int	last_decode_err;
	__u64	qdepth_polls;
	__u64	qdepth_errors;
	__u64	qdepth_reported;
	int	last_qdepth_err;
	__u64	tai_updates;
	__u64	tai_errors;
	__u64	pruned;
	__u64	prune_errors;
	__u64	postcards_not_ipfix;
};

/**
 * struct hm_agent - everything the main loop owns
 * @output_path:	-o FILE, NULL for standard output
 * @socket_path:	monitor socket path
 * @qdepth_interval_ms:	--qdepth-interval, 0 = no qdisc polling
 * @quiet:		-q: records go to socket clients only
 * @no_records:		--no-records: no ring buffer, no socket
 * @pint_topology_path:	--pint-topology FILE, NULL for topology-blind
 * @pint_graph:		that file's graph (GML), while the agent runs
 * @pint_topo:		@pint_graph as the PINT decoder's topology
 * @metrics_addr:	--metrics ADDR:PORT, NULL for no metrics
 * @metrics:		the metrics server, NULL without --metrics
 * @start_time_s:	when the agent started, POSIX seconds
 * @out:		the output (standard output or -o FILE; with -q its
 *			batches only go to the socket), NULL with --no-records
 * @lost:		the ring buffer loss watcher, NULL with --no-records
 * @epfd:		epoll instance
 * @sig_fd:		signalfd
 * @qdepth_tfd:		queue-depth timerfd, -1 when disabled
 * @tick_tfd:		one-second timerfd
 * @node_fd:		hopmark_node
 * @qdepth_fd:		hopmark_qdepth
 * @events_fd:		hopmark_events
 * @lock_fd:		the pin directory, flock(2)ed: one consumer per node
 * @rb:			ring buffer consumer
 * @qp:			qdisc poller
 * @mon:		monitor socket
 * @ge:			the hopmark module's generic netlink side, NULL with
 *			--no-records
 * @ir:			the INT Telemetry Report exporter
 * @xp:			the IPFIX exporter of every postcard source
 * @pe:			the PBT-M postcard consumer (pbt_events)
 * @pen:		--pen: PEN of hopmark's IPFIX elements
 * @node:		hopmark_node as last read
 * @sink_node_id:	sink node ID of the records being drained
 * @seen_max_age_ns:	qdepth_max_age_ns last checked (hm_check_max_age())
 * @stop:		a stop signal arrived
 * @stats:		counters
 * @ev_ring:		epoll tags of the fds above
 * @ev_sig:		see @ev_ring
 * @ev_qdepth:		see @ev_ring
 * @ev_tick:		see @ev_ring
 * @ev_genl:		see @ev_ring
 * @ev_int:		see @ev_ring
 * @ev_pbt:		see @ev_ring
 */
struct hm_agent {
	const char *output_path;
	char *socket_path;
	unsigned int qdepth_interval_ms;
	int quiet;
	int no_records;
	const char *pint_topology_path;
	struct gml_graph pint_graph;
	struct pint_topo pint_topo;
	const char *metrics_addr;
	struct hm_metrics *metrics;
	double start_time_s;

	struct hm_output *out;
	struct hm_events_lost *lost;
	int epfd;
	int sig_fd;
	int qdepth_tfd;
	int tick_tfd;
	int node_fd;
	int qdepth_fd;
	int events_fd;
	int lock_fd;
	struct ring_buffer *rb;
	struct hm_qdisc_poll *qp;
	struct hm_monitor *mon;
	struct hm_genl_events *ge;
	struct hm_int_report *ir;
	struct hm_ipfix_exp *xp;
	struct hm_pbt_events *pe;
	__u32 pen;
	struct hm_node_view node;
	__u32 sink_node_id;
	__u64 seen_max_age_ns;

	int stop;
	struct hm_agent_stats stats;
	struct hm_ev_src ev_ring, ev_sig, ev_qdepth, ev_tick, ev_genl, ev_int, ev_pbt;
};

/* See hopmarkd.h. */
void hm_log(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, HOPMARKD_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " HOPMARKD_NAME " [OPTIONS]\n"
"hopmark agent: sink records to JSON lines, monitor socket, queue depth, TAI offset.\n"
"\n"
"  -o, --output FILE           append records to FILE (default: standard output);\n"
"                              SIGHUP reopens it\n"
"  -s, --socket PATH           monitor socket (default: $" HM_RUNDIR_ENV "/" HM_SOCK_NAME ",\n"
"                              " HM_RUNDIR_ENV " default " HM_RUNDIR_DEFAULT ")\n"
"  -i, --qdepth-interval MS    poll qdisc backlog every MS milliseconds\n"
"                              (default 10, 0 disables)\n"
"  -q, --quiet                 write records to socket clients only\n"
"      --no-records            queue depth, TAI offset and INT reports only\n"
"                              (transit node): no IOAM ring buffer, no socket\n"
"  -T, --pint-topology FILE    decode PINT paths topology-aware over the GML\n"
"                              graph in FILE (node ids = switch IDs)\n"
"      --pen N                 Private Enterprise Number of hopmark's IPFIX\n"
"                              elements (default 32473, RFC 5612's\n"
"                              documentation PEN); the collector, set by\n"
"                              `hopmark postcard export set`, is pbt_cfg's\n"
"      --metrics ADDR:PORT     serve Prometheus metrics at http://ADDR:PORT/metrics\n"
"                              (IPV4:PORT or [IPV6]:PORT; PORT 0: any free port)\n"
"      --list-metrics          print every metric family and exit\n"
"  -h, --help                  this help\n"
"  -V, --version               print the version\n"
"\n"
"Pins: $" HM_BPFFS_ENV "/" HM_PIN_SUBDIR " (default " HM_BPFFS_DEFAULT "/" HM_PIN_SUBDIR ").\n"
"Exit status: 0 stopped by SIGINT/SIGTERM, 1 failure, 2 usage error.\n");
}

/* Parse a decimal number of milliseconds in [0, 3600000]. */
static int hm_parse_ms(const char *s, unsigned int *ms)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > 3600000UL)
		return -EINVAL;
	*ms = v;
	return 0;
}

static int hm_parse_args(struct hm_agent *a, int argc, char **argv)
{
	enum { OPT_NO_RECORDS = 256, OPT_PEN, OPT_METRICS, OPT_LIST_METRICS };
	static const struct option opts[] = {
		{ "output",		required_argument, NULL, 'o' },
		{ "socket",		required_argument, NULL, 's' },
		{ "qdepth-interval",	required_argument, NULL, 'i' },
		{ "quiet",		no_argument,	   NULL, 'q' },
		{ "no-records",		no_argument,	   NULL, OPT_NO_RECORDS },
		{ "pint-topology",	required_argument, NULL, 'T' },
		{ "pen",		required_argument, NULL, OPT_PEN },
		{ "metrics",		required_argument, NULL, OPT_METRICS },
		{ "list-metrics",	no_argument,	   NULL, OPT_LIST_METRICS },
		{ "help",		no_argument,	   NULL, 'h' },
		{ "version",		no_argument,	   NULL, 'V' },
		{}
	};
	int c;

	a->qdepth_interval_ms = 10;
	a->pen = HM_IPFIX_PEN_DEFAULT;
	while ((c = getopt_long(argc, argv, "o:s:i:qT:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->output_path = optarg;
			break;
		case 's':
			free(a->socket_path);
			a->socket_path = strdup(optarg);
			if (!a->socket_path)
				return -ENOMEM;
			break;
		case 'i':
			if (hm_parse_ms(optarg, &a->qdepth_interval_ms)) {
				hm_log("invalid --qdepth-interval \"%s\": milliseconds, 0..3600000",
				       optarg);
				return -EINVAL;
			}
			break;
		case 'q':
			a->quiet = 1;
			break;
		case OPT_NO_RECORDS:
			a->no_records = 1;
			break;
		case 'T':
			a->pint_topology_path = optarg;
			break;
		case OPT_PEN: {
			unsigned long v;
			char *end;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || !v ||
			    v > 0xffffffffUL) {
				hm_log("invalid --pen \"%s\": a Private Enterprise Number, 1..4294967295",
				       optarg);
				return -EINVAL;
			}
			a->pen = v;
			break;
		}
		case OPT_METRICS: {
			struct sockaddr_storage ss;
			unsigned int sslen;

			if (hm_prom_parse_addr(optarg, &ss, &sslen)) {
				hm_log("invalid --metrics \"%s\": expected IPV4:PORT or [IPV6]:PORT, PORT 0..65535",
				       optarg);
				return -EINVAL;
			}
			a->metrics_addr = optarg;
			break;
		}
		case OPT_LIST_METRICS:
			hm_metrics_list(stdout);
			exit(HM_EXIT_OK);
		case 'h':
			usage(stdout);
			exit(HM_EXIT_OK);
		case 'V':
			printf(HOPMARKD_NAME " " HOPMARKD_VERSION "\n");
			exit(HM_EXIT_OK);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		hm_log("unexpected argument \"%s\"", argv[optind]);
		return -EINVAL;
	}
	if (a->quiet && a->output_path) {
		hm_log("--quiet and --output exclude each other");
		return -EINVAL;
	}
	if (a->no_records && (a->quiet || a->output_path)) {
		hm_log("--no-records writes no records: drop --quiet/--output");
		return -EINVAL;
	}
	if (a->pint_topology_path) {
		char err[256];
		int ret;

		ret = gml_load(a->pint_topology_path, &a->pint_graph, err, sizeof(err));
		if (ret) {
			hm_log("--pint-topology: %s", err);
			return ret;
		}
		if (!a->pint_graph.nr_edges) {
			hm_log("--pint-topology: %s has no links: nothing to decode with",
			       a->pint_topology_path);
			gml_free(&a->pint_graph);
			return -EINVAL;
		}
		gml_to_topo(&a->pint_graph, &a->pint_topo);
	}
	if (!a->socket_path) {
		if (asprintf(&a->socket_path, "%s/%s", hm_run_dir(), HM_SOCK_NAME) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ring_buffer sample callback: one struct hopmark_ioam_record. */
static int hm_on_record(void *ctx, void *data, size_t size)
{
	struct hm_agent *a = ctx;
	int ret;

	/* With the module loaded, it owns the node's identity (hm_ring_drain()). */
	ret = hm_output_ring_record(a->out, data, size, a->sink_node_id);
	if (ret < 0) {
		a->stats.decode_errors++;
		a->stats.last_decode_err = ret;
		return 0;
	}
	/*
	 * A full batch: a negative return stops ring_buffer__consume() after
	 * this record (consumed); the drain loop writes the batch and goes on.
	 */
	return ret ? -EAGAIN : 0;
}

/*
 * A DEX or O-flag postcard of the module as an IPFIX record (HM_TID_DEX,
 * HM_TID_OFLAG); E2E and trace postcards describe a whole path, not one
 * node's view of a packet, and are not exported.
 */
static void hm_postcard_ipfix(struct hm_agent *a, const struct hm_postcard *pc)
{
	struct hm_ipfix_var var = { 0 };
	struct hm_pc_obs o;

	if (!hm_ipfix_exp_active(a->xp) ||
	    (pc->type != HM_POSTCARD_DEX && pc->type != HM_POSTCARD_OFLAG))
		return;
	if (hm_pc_obs_from_postcard(pc, 0, &o)) {
		a->stats.postcards_not_ipfix++;
		return;
	}
	var.hdr = pc->headers;
	var.hdr_len = pc->headers_len > PBT_REC_HDR_MAX ? PBT_REC_HDR_MAX : pc->headers_len;
	var.node_data = pc->node_data;
	var.node_data_len = pc->node_data_len;
	var.ioam_ns = pc->ns_id;
	var.trace_type = pc->trace_type;
	hm_ipfix_exp_add(a->xp, &o, &var);
}

/* genl_events.c callback: one postcard of the module into the batch. */
static int hm_on_postcard(void *ctx, const struct hm_postcard *pc)
{
	struct hm_agent *a = ctx;
	size_t len = 0;
	char *line = NULL;
	FILE *f;
	int n;

	hm_postcard_ipfix(a, pc);
	/* Postcards are few (the module batches and rate-limits them). */
	f = open_memstream(&line, &len);
	if (!f) {
		hm_output_line_lost(a->out);
		return -ENOMEM;
	}
	n = hm_postcard_print_json(f, pc);
	if (fclose(f) || n) {
		free(line);
		hm_output_line_lost(a->out);
		return -ENOMEM;
	}
	n = hm_output_line(a->out, line, len, false);
	free(line);
	return n < 0 ? n : 0;
}

/*
 * The forms the next batch is made in: JSON lines for the output and the
 * JSON clients, binary frames for the binary stream's clients.
 */
static void hm_batch_forms(struct hm_agent *a)
{
	if (a->out)
		hm_output_set_forms(a->out, hm_monitor_json_clients(a->mon) > 0,
				    hm_monitor_binary_clients(a->mon) > 0);
}

/*
 * Write one batch of JSON lines to the output and to every client (the
 * binary stream's clients get its binary frames). The output gets whole
 * lines only (hm_output_flush()); the lines it could not take are
 * counted, the clients still get them.
 */
static int hm_batch_flush(struct hm_agent *a)
{
	const void *bin;
	const char *buf;
	size_t len, bin_len;
	int ret;

	ret = hm_output_flush(a->out, &buf, &len, &bin, &bin_len);
	if (a->mon && (len || bin_len))
		hm_monitor_send(a->mon, buf, len, bin, bin_len);
	hm_batch_forms(a);
	return ret;
}

/* int_report.c's flush: a batch of INT record lines. */
static int hm_int_flush(void *ctx)
{
	return hm_batch_flush(ctx);
}

/*
 * Consume what the ring buffer holds, a batch at a time, at most
 * HM_DRAIN_BATCHES batches before the other events get their turn (the
 * ring's epoll fd is level-triggered: what is left is reported again).
 */
static int hm_ring_drain(struct hm_agent *a)
{
	const struct hm_genl_cfg *cfg = hm_genl_events_cfg(a->ge);
	int i, n, ret;

	a->sink_node_id = cfg && cfg->has_node_id ? cfg->node_id : a->node.node_id;
	for (i = 0; i < HM_DRAIN_BATCHES; i++) {
		n = ring_buffer__consume(a->rb);
		if (n < 0 && n != -EAGAIN) {
			hm_log("ring buffer: %s", strerror(-n));
			return n;
		}
		ret = hm_batch_flush(a);
		if (ret || n != -EAGAIN)
			return ret;
	}
	return 0;
}

static void hm_qdepth_poll(struct hm_agent *a)
{
	int ret = hm_qdisc_poll_run(a->qp);

	if (ret < 0) {
		a->stats.qdepth_errors++;
		a->stats.last_qdepth_err = ret;
	} else {
		a->stats.qdepth_polls++;
	}
}

/*
 * The datapath ignores readings older than hopmark_node.qdepth_max_age_ns
 * (set by `hopmark node set`): say so when that bound makes the agent's
 * polling useless, once per value seen.
 */
static void hm_check_max_age(struct hm_agent *a)
{
	__u64 age = a->node.qdepth_max_age_ns;
	__u64 interval_ns = (__u64)a->qdepth_interval_ms * 1000000ULL;

	if (!a->qdepth_interval_ms || age == a->seen_max_age_ns)
		return;
	a->seen_max_age_ns = age;
	if (!age)
		hm_log("%s.qdepth_max_age_ns is 0: the datapath writes queue depth as unavailable until `hopmark node set` sets it",
		       HM_MAP_NODE);
	else if (age < interval_ns)
		hm_log("%s.qdepth_max_age_ns (%llu ns) is shorter than --qdepth-interval (%u ms): most readings will be stale",
		       HM_MAP_NODE, (unsigned long long)age, a->qdepth_interval_ms);
}

/*
 * Once a second: TAI offset, sink node ID, the settings of deleted
 * interfaces, rate-limited error reports.
 */
static void hm_tick(struct hm_agent *a)
{
	__u64 n;
	int ret;

	ret = hm_prune_gone_ifaces();
	if (ret > 0) {
		a->stats.pruned += ret;
		hm_log("forgot %d map entr%s of deleted interfaces", ret, ret == 1 ? "y" : "ies");
	} else if (ret < 0 && !a->stats.prune_errors++) {
		hm_log("cannot forget the settings of deleted interfaces: %s", strerror(-ret));
	}

	ret = hm_tai_refresh(a->node_fd, &a->node);
	if (ret < 0) {
		if (!a->stats.tai_errors++)
			hm_log("cannot refresh %s.tai_offset_ns: %s", HM_MAP_NODE,
			       strerror(-ret));
	} else if (ret > 0) {
		a->stats.tai_updates++;
		hm_log("%s.tai_offset_ns = %lld (TAI - UTC)", HM_MAP_NODE,
		       (long long)a->node.tai_offset_ns);
	}
	if (ret >= 0)
		hm_check_max_age(a);

	n = a->stats.decode_errors - a->stats.decode_reported;
	if (n) {
		hm_log("%llu record(s) failed to decode in the last second (last: %s), %llu in all",
		       (unsigned long long)n, strerror(-a->stats.last_decode_err),
		       (unsigned long long)a->stats.decode_errors);
		a->stats.decode_reported = a->stats.decode_errors;
	}
	if (a->out)
		hm_output_report(a->out);
	if (a->mon)
		hm_monitor_report(a->mon);
	if (a->lost)
		hm_events_lost_check(a->lost, true);
	if (a->ir)
		hm_int_report_tick(a->ir);
	if (a->pe)
		hm_pbt_events_tick(a->pe);
	if (a->xp)
		hm_ipfix_exp_tick(a->xp);
	n = a->stats.qdepth_errors - a->stats.qdepth_reported;
	if (n) {
		hm_log("%llu qdisc poll(s) failed in the last second (last: %s), %llu in all",
		       (unsigned long long)n, strerror(-a->stats.last_qdepth_err),
		       (unsigned long long)a->stats.qdepth_errors);
		a->stats.qdepth_reported = a->stats.qdepth_errors;
	}
}

/*
 * The statistics line (hopmarkd.8, STATISTICS): "<what>: " then parts
 * "<source> (<scope>): key value ..." joined by "; ". The agent's and the
 * module side's counters start at 0 with every run; the datapath's live in
 * the pinned maps and add up across agent restarts until the maps are
 * removed: their labels say which is which.
 */
static void hm_print_stats(const struct hm_agent *a, const char *what)
{
	const struct hm_monitor_stats *ms = a->mon ? hm_monitor_stats(a->mon) : NULL;
	const struct hm_genl_stats *gs = a->ge ? hm_genl_events_stats(a->ge) : NULL;
	static const struct hm_output_stats no_output;
	const struct hm_output_stats *os = a->out ? hm_output_stats(a->out) : &no_output;
	static const struct hm_int_report_stats no_int;
	const struct hm_int_report_stats *is = a->ir ? hm_int_report_stats(a->ir) : &no_int;
	static const struct hm_pbt_events_stats no_pbt;
	const struct hm_pbt_events_stats *ps = a->pe ? hm_pbt_events_stats(a->pe) : &no_pbt;
	static const struct hm_ipfix_exp_stats no_xp;
	const struct hm_ipfix_exp_stats *xs = a->xp ? hm_ipfix_exp_stats(a->xp) : &no_xp;

	if (gs)
		fprintf(stderr, HOPMARKD_NAME ": %s: module (this run): postcards %llu event_messages %llu"
			" bad_records %llu filtered %llu overruns %llu config_changes %llu"
			" config_dumps %llu module %s\n", what,
			(unsigned long long)gs->postcards, (unsigned long long)gs->messages,
			(unsigned long long)gs->bad_records, (unsigned long long)gs->filtered,
			(unsigned long long)gs->overruns, (unsigned long long)gs->config_changes,
			(unsigned long long)gs->dumps,
			hm_genl_events_cfg(a->ge) ? "loaded" : "absent");

	fprintf(stderr, HOPMARKD_NAME ": %s: agent (this run): records %llu output_lost %llu"
		" ring_lost %llu decode_errors %llu output_errors %llu qdepth_polls %llu"
		" qdepth_errors %llu tai_updates %llu ifaces_pruned %llu clients_accepted %llu"
		" clients_connected %u clients_dropped_slow %llu clients_refused %llu"
		" clients_binary %llu clients_bad_requests %llu binary_lost %llu;"
		" datapath (since load): events_lost %lld;"
		" int_reports (this run): records %llu reports_sent %llu datagrams_sent %llu"
		" coalesced %llu send_failed %llu datagrams_failed %llu bad_records %llu"
		" no_collector %llu ring_lost %llu json_lines %llu json_bad %llu;"
		" int_datapath (since load): events_lost %lld;"
		" pbt (this run): postcards %llu bad_records %llu json_lines %llu ring_lost %llu"
		" templates_expired %llu;"
		" ipfix (this run): records %llu sent %llu not_sent %llu rate_limited %llu"
		" no_collector %llu down %llu send_failed %llu queue_full %llu bad %llu"
		" messages %llu bytes %llu template_sends %llu options_sent %llu connects %llu"
		" disconnects %llu postcards_not_ipfix %llu\n", what,
		(unsigned long long)os->records,
		(unsigned long long)os->lost,
		(unsigned long long)(a->lost ? hm_events_lost_ring_lost(a->lost) : 0),
		(unsigned long long)a->stats.decode_errors,
		(unsigned long long)os->errors,
		(unsigned long long)a->stats.qdepth_polls,
		(unsigned long long)a->stats.qdepth_errors,
		(unsigned long long)a->stats.tai_updates,
		(unsigned long long)a->stats.pruned,
		(unsigned long long)(ms ? ms->accepted : 0),
		ms ? ms->connected : 0,
		(unsigned long long)(ms ? ms->dropped_slow : 0),
		(unsigned long long)(ms ? ms->refused : 0),
		(unsigned long long)(ms ? ms->binary_accepted : 0),
		(unsigned long long)(ms ? ms->bad_requests : 0),
		(unsigned long long)os->binary_lost,
		hm_events_lost_total(),
		(unsigned long long)is->records, (unsigned long long)is->reports_sent,
		(unsigned long long)is->dgrams_sent, (unsigned long long)is->coalesced,
		(unsigned long long)is->send_failed, (unsigned long long)is->dgrams_failed,
		(unsigned long long)is->bad_records, (unsigned long long)is->no_collector,
		(unsigned long long)is->ring_lost, (unsigned long long)is->json_lines,
		(unsigned long long)is->json_bad,
		a->ir ? hm_int_report_events_lost_total(a->ir) : -1LL,
		(unsigned long long)ps->postcards, (unsigned long long)ps->bad_records,
		(unsigned long long)ps->json_lines, (unsigned long long)ps->ring_lost,
		(unsigned long long)ps->tpl_expired,
		(unsigned long long)xs->records, (unsigned long long)xs->sent,
		(unsigned long long)xs->not_sent, (unsigned long long)xs->rate_limited,
		(unsigned long long)xs->no_collector, (unsigned long long)xs->down,
		(unsigned long long)xs->send_failed, (unsigned long long)xs->queue_full,
		(unsigned long long)xs->bad, (unsigned long long)xs->messages,
		(unsigned long long)xs->bytes, (unsigned long long)xs->template_sends,
		(unsigned long long)xs->options_sent, (unsigned long long)xs->connects,
		(unsigned long long)xs->disconnects,
		(unsigned long long)a->stats.postcards_not_ipfix);
}

/*
 * The counters the metrics serve (metrics.c), copied from where the loop
 * keeps them; published after every loop iteration, the only time they
 * change.
 */
static void hm_metrics_update(const struct hm_agent *a)
{
	const struct hm_genl_cfg *cfg = a->ge ? hm_genl_events_cfg(a->ge) : NULL;
	struct hm_metrics_agent s = {
		.node_id = cfg && cfg->has_node_id ? cfg->node_id : a->node.node_id,
		.start_time_s = a->start_time_s,
		.records = a->out != NULL,
		.has_genl = a->ge != NULL,
		.module_loaded = cfg != NULL,
		.decode_errors = a->stats.decode_errors,
		.qdepth_polls = a->stats.qdepth_polls,
		.qdepth_errors = a->stats.qdepth_errors,
		.tai_updates = a->stats.tai_updates,
		.tai_errors = a->stats.tai_errors,
		.pruned = a->stats.pruned,
		.postcards_not_ipfix = a->stats.postcards_not_ipfix,
		.has_ipfix = a->xp != NULL,
		.has_pbt = a->pe != NULL,
		.ring_lost = a->lost ? hm_events_lost_ring_lost(a->lost) : 0,
	};

	if (!a->metrics)
		return;
	if (a->out)
		s.out = *hm_output_stats(a->out);
	if (a->mon)
		s.mon = *hm_monitor_stats(a->mon);
	if (a->ge)
		s.genl = *hm_genl_events_stats(a->ge);
	if (a->ir)
		s.intr = *hm_int_report_stats(a->ir);
	if (a->xp)
		s.ipfix = *hm_ipfix_exp_stats(a->xp);
	if (a->pe)
		s.pbt = *hm_pbt_events_stats(a->pe);
	hm_metrics_publish(a->metrics, &s);
}

static int hm_on_signal(struct hm_agent *a)
{
	struct signalfd_siginfo si;

	while (read(a->sig_fd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGINT:
		case SIGTERM:
			a->stop = 1;
			break;
		case SIGHUP:
			if (a->out)
				hm_output_reopen(a->out);
			break;
		case SIGUSR1:
			hm_print_stats(a, "stats");
			break;
		}
	}
	return 0;
}

static int hm_timer_new(struct hm_agent *a, struct hm_ev_src *src,
			enum hm_ev_kind kind, unsigned int ms)
{
	struct itimerspec its = {
		.it_interval = { ms / 1000, (ms % 1000) * 1000000L },
		.it_value = { ms / 1000, (ms % 1000) * 1000000L },
	};
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = src };
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (timerfd_settime(fd, 0, &its, NULL) ||
	    epoll_ctl(a->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int err = -errno;

		close(fd);
		return err;
	}
	src->kind = kind;
	return fd;
}

static void hm_timer_ack(int fd)
{
	__u64 expirations;

	/* Missed expirations are not made up for: only the latest state counts. */
	if (read(fd, &expirations, sizeof(expirations)) < 0)
		return;
}

static int hm_setup_signals(struct hm_agent *a)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &a->ev_sig };
	sigset_t mask;

	signal(SIGPIPE, SIG_IGN);
	/*
	 * A file size limit (RLIMIT_FSIZE, systemd's LimitFSIZE=) must fail
	 * the write with EFBIG, which is counted and cut back to whole lines,
	 * not kill the agent.
	 */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	a->sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (a->sig_fd < 0)
		return -errno;
	a->ev_sig.kind = HM_EV_SIGNAL;
	if (epoll_ctl(a->epfd, EPOLL_CTL_ADD, a->sig_fd, &ev))
		return -errno;
	return 0;
}

static int hm_open_map(const char *name)
{
	int fd = hm_map_open(name);

	if (fd < 0) {
		char dir[256];

		if (hm_pin_dir(dir, sizeof(dir)))
			snprintf(dir, sizeof(dir), "(pin directory too long)");
		hm_log("cannot open pinned map %s/%s: %s", dir, name,
		       strerror(-fd));
	}
	return fd;
}

/*
 * One hopmarkd per node: ring buffers hand each record to one consumer, so
 * a second agent on the same pinned maps (another run directory, the same
 * bpffs) would silently take half of the records of the first. The agent
 * holds an exclusive flock(2) on the pin directory, <bpffs>/tc/globals,
 * while it runs (bpffs holds no regular files, but a directory can be
 * locked); the kernel drops the lock when the agent exits, even killed.
 */
static int hm_lock_pins(struct hm_agent *a)
{
	char dir[PATH_MAX];
	int err;

	if (hm_pin_dir(dir, sizeof(dir))) {
		hm_log("pin directory too long");
		return -ENAMETOOLONG;
	}
	a->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (a->lock_fd < 0) {
		err = -errno;
		hm_log("cannot open the pin directory %s: %s", dir, strerror(errno));
		return err;
	}
	if (flock(a->lock_fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		if (errno == EWOULDBLOCK)
			hm_log("another hopmarkd is already consuming this node's pinned maps "
			       "(it holds the lock on %s): one hopmarkd per node, or the two "
			       "would split the ring buffers' records between them", dir);
		else
			hm_log("cannot lock the pin directory %s: %s", dir, strerror(errno));
		return err;
	}
	return 0;
}

static int hm_setup(struct hm_agent *a)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &a->ev_ring };
	int err;

	a->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (a->epfd < 0)
		return -errno;
	err = hm_setup_signals(a);
	if (err) {
		hm_log("signals: %s", strerror(-err));
		return err;
	}

	/* The agent may start first: create what the programs will reuse. */
	if (hm_events_bytes() < 0) {
		hm_log("%s=\"%s\": expected a power of two from %u to %u (bytes)",
		       HM_EVENTS_BYTES_ENV, getenv(HM_EVENTS_BYTES_ENV), HM_EVENTS_BYTES_MIN,
		       HM_EVENTS_BYTES_MAX);
		return -EINVAL;
	}
	err = hm_maps_create();
	if (err) {
		hm_log("cannot create the hopmark maps on %s: %s%s", hm_bpffs_root(),
		       strerror(-err), err == -ENODEV ?
		       " (not a bpffs: mount -t bpf bpf DIR, or set " HM_BPFFS_ENV ")" : "");
		return err;
	}
	err = hm_lock_pins(a);
	if (err)
		return err;
	a->node_fd = hm_open_map(HM_MAP_NODE);
	if (a->node_fd < 0)
		return a->node_fd;
	err = hm_tai_refresh(a->node_fd, &a->node);
	if (err < 0) {
		hm_log("cannot read %s: %s", HM_MAP_NODE, strerror(-err));
		return err;
	}
	if (err > 0)
		a->stats.tai_updates++;
	a->seen_max_age_ns = ~0ULL;
	hm_check_max_age(a);

	if (a->qdepth_interval_ms) {
		a->qdepth_fd = hm_open_map(HM_MAP_QDEPTH);
		if (a->qdepth_fd < 0)
			return a->qdepth_fd;
		a->qp = hm_qdisc_poll_new(a->qdepth_fd);
		if (!a->qp) {
			err = -errno;
			hm_log("rtnetlink: %s", strerror(errno));
			return err;
		}
		hm_qdepth_poll(a);
		if (a->stats.qdepth_errors) {
			hm_log("qdisc poll: %s", strerror(-a->stats.last_qdepth_err));
			return a->stats.last_qdepth_err;
		}
		a->qdepth_tfd = hm_timer_new(a, &a->ev_qdepth, HM_EV_QDEPTH,
					     a->qdepth_interval_ms);
		if (a->qdepth_tfd < 0)
			return a->qdepth_tfd;
	}
	a->tick_tfd = hm_timer_new(a, &a->ev_tick, HM_EV_TICK, 1000);
	if (a->tick_tfd < 0)
		return a->tick_tfd;

	/* Postcards leave every PBT-M-aware node: not tied to the records either. */
	hm_ipfix_log = hm_log;
	a->xp = hm_ipfix_exp_new(a->pen);
	if (!a->xp) {
		err = -errno;
		hm_log("IPFIX exporter: %s", strerror(errno));
		return err;
	}
	a->pe = hm_pbt_events_new(a->epfd, &a->ev_pbt, a->xp);
	if (!a->pe) {
		err = -errno;
		hm_log("PBT-M postcards: %s", strerror(errno));
		return err;
	}

	/* INT reports come from transit (MX, XD) nodes too: not tied to the records. */
	a->ir = hm_int_report_new(a->epfd, &a->ev_int);
	if (!a->ir) {
		err = -errno;
		hm_log("INT reports: %s", strerror(errno));
		return err;
	}
	hm_int_report_set_exporter(a->ir, a->xp);

	if (a->no_records)
		return 0;

	a->out = hm_output_new(a->output_path, a->quiet);
	if (!a->out) {
		err = -errno;
		hm_log("cannot open %s: %s", a->output_path ? a->output_path : "standard output",
		       strerror(errno));
		return err;
	}
	a->events_fd = hm_open_map(HM_MAP_EVENTS);
	if (a->events_fd < 0)
		return a->events_fd;
	a->lost = hm_events_lost_new();
	if (!a->lost) {
		err = -errno;
		hm_log("%s: %s", HM_MAP_STATS, strerror(errno));
		return err;
	}
	a->rb = ring_buffer__new(a->events_fd, hm_on_record, a, NULL);
	if (!a->rb) {
		err = -errno;
		hm_log("ring buffer %s: %s", HM_MAP_EVENTS, strerror(errno));
		return err;
	}
	a->ev_ring.kind = HM_EV_RING;
	if (epoll_ctl(a->epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(a->rb), &ev))
		return -errno;

	a->mon = hm_monitor_new(a->socket_path, a->epfd);
	if (!a->mon) {
		err = -errno;
		hm_log("monitor socket %s: %s%s", a->socket_path, strerror(errno),
		       errno == EADDRINUSE ? " (another hopmarkd serves it)" : "");
		return err;
	}
	hm_batch_forms(a);
	/* INT records are shown as IOAM records are: output and socket. */
	hm_int_report_set_output(a->ir, a->out, hm_int_flush, a);
	hm_pbt_events_set_output(a->pe, a->out, hm_int_flush, a);
	/* Optional: without generic netlink the BPF records still flow. */
	a->ge = hm_genl_events_new(a->epfd, &a->ev_genl, hm_on_postcard, a);
	if (!a->ge)
		hm_log("generic netlink: %s; no hopmark module events", strerror(errno));
	return 0;
}

/*
 * After the rest of the set-up: the maps exist, and the signals the loop
 * takes from its signalfd are blocked, so the server's thread inherits
 * that mask and never takes them.
 */
static int hm_metrics_setup(struct hm_agent *a)
{
	const char *colon;

	if (!a->metrics_addr)
		return 0;
	a->metrics = hm_metrics_new(a->metrics_addr);
	if (!a->metrics)
		return -errno;
	hm_metrics_update(a);
	colon = strrchr(a->metrics_addr, ':');
	hm_log("metrics: http://%.*s:%u%s", (int)(colon - a->metrics_addr), a->metrics_addr,
	       hm_metrics_port(a->metrics), HM_PROM_PATH);
	return 0;
}

static void hm_teardown(struct hm_agent *a)
{
	hm_metrics_free(a->metrics);
	hm_genl_events_free(a->ge);
	hm_int_report_free(a->ir);
	hm_pbt_events_free(a->pe);
	hm_ipfix_exp_free(a->xp);
	hm_monitor_free(a->mon);
	ring_buffer__free(a->rb);
	hm_qdisc_poll_free(a->qp);
	hm_output_free(a->out);
	hm_events_lost_free(a->lost);
	if (a->events_fd >= 0)
		close(a->events_fd);
	if (a->qdepth_fd >= 0)
		close(a->qdepth_fd);
	if (a->node_fd >= 0)
		close(a->node_fd);
	if (a->lock_fd >= 0)
		close(a->lock_fd);
	if (a->qdepth_tfd >= 0)
		close(a->qdepth_tfd);
	if (a->tick_tfd >= 0)
		close(a->tick_tfd);
	if (a->sig_fd >= 0)
		close(a->sig_fd);
	if (a->epfd >= 0)
		close(a->epfd);
	free(a->socket_path);
}

static int hm_run(struct hm_agent *a)
{
	struct epoll_event evs[32];
	int i, n, err;

	while (!a->stop) {
		bool ring_read = false, int_read = false, pbt_read = false;

		hm_metrics_update(a);

		n = epoll_wait(a->epfd, evs, 32,
			       a->rb || hm_int_report_active(a->ir) ||
			       hm_pbt_events_active(a->pe) ? HM_RING_POLL_MS : -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			hm_log("epoll_wait: %s", strerror(errno));
			return -errno;
		}
		for (i = 0; i < n; i++) {
			struct hm_ev_src *src = evs[i].data.ptr;
			__u64 gone = hm_monitor_clients_gone(a->mon);

			switch (src->kind) {
			case HM_EV_RING:
				err = hm_ring_drain(a);
				if (err)
					return err;
				ring_read = true;
				break;
			case HM_EV_SIGNAL:
				hm_on_signal(a);
				break;
			case HM_EV_QDEPTH:
				hm_timer_ack(a->qdepth_tfd);
				hm_qdepth_poll(a);
				break;
			case HM_EV_TICK:
				hm_timer_ack(a->tick_tfd);
				hm_tick(a);
				break;
			case HM_EV_LISTEN:
			case HM_EV_CLIENT:
				hm_monitor_event(a->mon, src, evs[i].events);
				/* A client came, went or asked for the binary stream. */
				hm_batch_forms(a);
				break;
			case HM_EV_GENL:
				hm_genl_events_run(a->ge);
				hm_ipfix_exp_flush(a->xp);
				err = hm_batch_flush(a);
				if (err)
					return err;
				break;
			case HM_EV_INT_RING:
				err = hm_int_report_drain(a->ir);
				if (err)
					return err;
				int_read = true;
				break;
			case HM_EV_PBT_RING:
				err = hm_pbt_events_drain(a->pe);
				if (err)
					return err;
				pbt_read = true;
				break;
			}
			/* A client freed here may own a later evs[] entry. */
			if (hm_monitor_clients_gone(a->mon) != gone)
				break;
		}
		/*
		 * Records below the datapath's wakeup threshold wake nobody:
		 * read them on every other wakeup (the qdisc timer) and at the
		 * latest after HM_RING_POLL_MS. Cheap when the ring is empty.
		 */
		if (a->rb && !ring_read) {
			err = hm_ring_drain(a);
			if (err)
				return err;
		}
		if (hm_int_report_active(a->ir) && !int_read) {
			err = hm_int_report_drain(a->ir);
			if (err)
				return err;
		}
		if (hm_pbt_events_active(a->pe) && !pbt_read) {
			err = hm_pbt_events_drain(a->pe);
			if (err)
				return err;
		}
	}
	/* Stopping: what the sink already reported is not lost. */
	err = hm_int_report_drain(a->ir);
	err = hm_pbt_events_drain(a->pe) ? : err;
	if (a->rb)
		return hm_ring_drain(a) ? : err;
	return err;
}

int main(int argc, char **argv)
{
	struct hm_agent a = {
		.epfd = -1, .sig_fd = -1, .qdepth_tfd = -1, .tick_tfd = -1,
		.node_fd = -1, .qdepth_fd = -1, .events_fd = -1, .lock_fd = -1,
	};
	int err;

	if (hm_parse_args(&a, argc, argv)) {
		free(a.socket_path);
		gml_free(&a.pint_graph);
		return HM_EXIT_USAGE;
	}
	a.start_time_s = (double)time(NULL);
	err = hm_setup(&a);
	if (!err)
		err = hm_metrics_setup(&a);
	if (!err) {
		char qd[48] = "no qdisc polling";

		hm_pint_agent_start(a.pint_topology_path ? &a.pint_topo : NULL);
		if (a.pint_topology_path)
			hm_log("PINT: topology-aware path decoding over %s (%u switches, %u links)",
			       a.pint_topology_path, a.pint_graph.nr_nodes, a.pint_graph.nr_edges);

		if (a.qdepth_interval_ms)
			snprintf(qd, sizeof(qd), "qdisc polling every %u ms",
				 a.qdepth_interval_ms);
		hm_log("started: pins %s/%s, %s, %s%s%s",
		       hm_bpffs_root(), HM_PIN_SUBDIR,
		       a.no_records ? "no records" :
		       a.quiet ? "records to socket clients" :
		       a.output_path ? a.output_path : "records to stdout",
		       qd, a.mon ? ", socket " : "", a.mon ? a.socket_path : "");
		err = hm_run(&a);
		/* The last second's losses, logged and in the counters. */
		if (a.lost)
			hm_events_lost_check(a.lost, true);
		if (a.ir)
			hm_int_report_lost_check(a.ir, true);
		hm_print_stats(&a, err ? "failed" : "exiting");
	}
	hm_pint_agent_stop();
	gml_free(&a.pint_graph);
	hm_teardown(&a);
	return err ? HM_EXIT_FAILURE : HM_EXIT_OK;
}
