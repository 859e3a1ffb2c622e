// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * metrics.c - hopmarkd --metrics ADDR:PORT: Prometheus metrics over HTTP
 * (lib/common/prom.h, text exposition format 0.0.4).
 *
 * Two sources, both written at each scrape in libmicrohttpd's thread:
 *   - the datapath's per-interface counters, read from the pinned per-CPU
 *     maps (hopmark_stats, pint_stats, int_stats, pbt_stats) with file
 *     descriptors this thread opens for the scrape, summed over the CPUs
 *     as `hopmark -s link show` sums them. Opening them per scrape follows
 *     maps that appear (INT, PBT-M loaded later) or are re-created. The
 *     main loop never waits: a scrape costs it nothing.
 *   - the agent's own counters (records, losses, monitor clients, module
 *     events, INT reports, IPFIX export), which only the main loop
 *     changes: it publishes a copy after every loop iteration
 *     (hm_metrics_publish()), and the scrape writes the latest copy.
 *
 * Names: hopmark_<ioam|int|pint|pbt>_<counter name>_total for the datapath
 * (the names of the CLI's tables: hopmark_counter_names[],
 * int_counter_names[], pint_counter_names[], pbt_counter_names[]) with
 * labels dev (the interface, "if<N>" once it is gone) and node (the node
 * ID, empty while the node has none); hopmark_agent_* for the agent.
 * Documentation/metrics.rst lists them all (hopmarkd --list-metrics).
 */
#include <errno.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "common/prom.h"
#include "int/int_names.h"
#include "pint/pint_names.h"
#include "pbt/pbt_maps.h"
/* PBT-M's name table comes with `hopmark postcard` (lib/pbt/pbt_names.c). */
#if __has_include("pbt/pbt_names.h")
#include "pbt/pbt_names.h"
#define HM_METRICS_PBT	1
#endif

/* Interfaces read per map and scrape at most (the maps hold fewer). */
#define HM_METRICS_MAX_IFACES	1024

/*
 * Help of each datapath counter, as the enums' comments say what it
 * counts. A counter appended to an enum without help here gets a generic
 * one (dp_help()); its name still comes from the name table.
 */
static const char *const ioam_help[HM_CNT_MAX] = {
	[HM_CNT_ENCAP_OK]		= "IOAM encap: trace inserted",
	[HM_CNT_ENCAP_SKIP_MTU]		= "IOAM encap: would exceed the egress MTU, sent without trace",
	[HM_CNT_ENCAP_SKIP_FREQ]	= "IOAM encap: not selected by the K/N frequency",
	[HM_CNT_ENCAP_ERR]		= "IOAM encap: could not insert, sent unchanged",
	[HM_CNT_ENCAP_HBH_MERGED]	= "IOAM encap: trace added to an existing Hop-by-Hop header",
	[HM_CNT_TRANSIT_OK]		= "IOAM transit: node data written (ingress half)",
	[HM_CNT_TRANSIT_EGRESS_OK]	= "IOAM transit: egress fields completed (egress half)",
	[HM_CNT_TRANSIT_OVERFLOW]	= "IOAM transit: no room, Overflow flag set, nothing written",
	[HM_CNT_TRANSIT_OVERFLOW_SEEN]	= "IOAM transit: Overflow flag already set, untouched",
	[HM_CNT_UNKNOWN_NS]		= "IOAM: IOAM-Namespace not configured, untouched",
	[HM_CNT_MALFORMED]		= "IOAM: bad lengths or inconsistent trace, untouched",
	[HM_CNT_FRAGMENT]		= "IOAM: IPv6 fragment with IOAM, untouched",
	[HM_CNT_DECAP_OK]		= "IOAM decap: trace removed and reported",
	[HM_CNT_DECAP_ERR]		= "IOAM decap: could not remove, delivered unchanged",
	[HM_CNT_EVENTS_LOST]		= "IOAM decap: ring buffer full, record not reported",
	[HM_CNT_HBH_WALK_LIMIT]		= "IOAM: more Hop-by-Hop TLVs than walked, untouched",
	[HM_CNT_ENCAP_SKIP_HBH_LIMIT]	= "IOAM encap: merge past Linux's Hop-by-Hop limits, sent unchanged",
};

static const char *const int_help[INT_CNT_MAX] = {
	[INT_CNT_SRC_OK]		= "INT source: INT header inserted",
	[INT_CNT_SRC_NOT_WATCHED]	= "INT source: no watchlist rule matched",
	[INT_CNT_SRC_NOT_SAMPLED]	= "INT source: watched, not sampled",
	[INT_CNT_SRC_MTU_NO_INT]	= "INT source: fixed headers would exceed the MTU, no INT",
	[INT_CNT_SRC_MTU_M]		= "INT source: own metadata would exceed the MTU, M set",
	[INT_CNT_SRC_GSO]		= "INT source: GSO packet, left without INT",
	[INT_CNT_SRC_HAS_INT]		= "INT source: already carries INT or the INT DSCP/port, untouched",
	[INT_CNT_SRC_PROTO]		= "INT source: neither TCP nor UDP, or a fragment, untouched",
	[INT_CNT_TRANSIT_OK]		= "INT transit: this hop's metadata pushed",
	[INT_CNT_TRANSIT_E]		= "INT transit: Remaining Hop Count 0, E set, nothing added",
	[INT_CNT_TRANSIT_M]		= "INT transit: would exceed the MTU, M set, nothing added",
	[INT_CNT_TRANSIT_FULL]		= "INT transit: shim length would pass 255 words, nothing added",
	[INT_CNT_MALFORMED]		= "INT: bad shim, header or lengths, untouched",
	[INT_CNT_SINK_OK]		= "INT sink: INT removed, packet restored, record sent",
	[INT_CNT_SINK_DISCARD]		= "INT sink: D set, dropped after extraction",
	[INT_CNT_XD_REPORT]		= "INT: INT-XD record for a watched packet",
	[INT_CNT_MX_REPORT]		= "INT: INT-MX record",
	[INT_CNT_DROP_REPORT]		= "INT: drop record (D)",
	[INT_CNT_QUEUE_REPORT]		= "INT: congested-queue record (Q)",
	[INT_CNT_EVENTS_LOST]		= "INT: ring buffer full, record lost",
	[INT_CNT_ERR]			= "INT: helper failed, packet unchanged",
	[INT_CNT_NOT_CONFIGURED]	= "INT: role enabled, domain not configured",
	[INT_CNT_SRC_REPORT]		= "INT source: UDP to the report port, never instrumented",
	[INT_CNT_CSUM_PARTIAL]		= "INT: NPT 0/1 on a CHECKSUM_PARTIAL skb, untouched",
	[INT_CNT_GSO]			= "INT transit/sink: GSO packet, untouched",
	[INT_CNT_DROP_SINK_DISCARD]	= "INT sink: discard of a D packet, no drop report",
	[INT_CNT_XDP_NOT_TCP]		= "INT XDP source: not TCP, left to the tc source",
	[INT_CNT_XDP_UNSUPPORTED]	= "INT XDP source: DSCP signalling or MX/XD mode, untouched",
};

static const char *const pint_help[PINT_CNT_MAX] = {
	[PINT_CNT_SRC_OK]		= "PINT source: digest started",
	[PINT_CNT_SRC_TTL_SET]		= "PINT source: IPv4 TTL set to the start value",
	[PINT_CNT_TRANSIT_OK]		= "PINT transit: this hop's queries applied",
	[PINT_CNT_SINK_OK]		= "PINT sink: reported and removed",
	[PINT_CNT_NO_DF]		= "PINT: IPv4 without DF, left alone",
	[PINT_CNT_FRAGMENT]		= "PINT: IPv4/IPv6 fragment, left alone",
	[PINT_CNT_NO_OPTION]		= "PINT: IPv6 without the PINT option, left alone",
	[PINT_CNT_HBH_PRESENT]		= "PINT source: IPv6 already has Hop-by-Hop, left alone",
	[PINT_CNT_MTU]			= "PINT source: option would exceed the MTU, left alone",
	[PINT_CNT_HOP_RANGE]		= "PINT: hop number 0 or above the maximum, left alone",
	[PINT_CNT_LAT_UNAVAIL]		= "PINT: sampled for latency, no fresh queue reading, 0 sent",
	[PINT_CNT_ERR]			= "PINT: helper failed, packet unchanged",
	[PINT_CNT_EVENTS_LOST]		= "PINT: ring buffer full, record lost",
	[PINT_CNT_NOT_CONFIGURED]	= "PINT: role enabled but no domain settings",
};

#ifdef HM_METRICS_PBT
static const char *const pbt_help[PBT_CNT_MAX] = {
	[PBT_CNT_MARKED]		= "PBT-M head: mark set",
	[PBT_CNT_NOT_WATCHED]		= "PBT-M head: no access-list rule matched",
	[PBT_CNT_NOT_SAMPLED]		= "PBT-M head: watched, not sampled",
	[PBT_CNT_METERED]		= "PBT-M head: sampled, no token left",
	[PBT_CNT_TRIGGERED]		= "PBT-M head: marked because of a trigger",
	[PBT_CNT_ALREADY_MARKED]	= "PBT-M head: the bit was already set, left alone",
	[PBT_CNT_UNSUPPORTED]		= "PBT-M: not IPv4/IPv6, or a fragment, untouched",
	[PBT_CNT_EXPORT]		= "PBT-M head: the node's own export, never marked",
	[PBT_CNT_POSTCARD_INGRESS]	= "PBT-M: postcard record made at ingress",
	[PBT_CNT_POSTCARD_EGRESS]	= "PBT-M: postcard record made at egress",
	[PBT_CNT_EVENTS_LOST]		= "PBT-M: ring buffer full, postcard lost",
	[PBT_CNT_CLEARED]		= "PBT-M end: mark cleared",
	[PBT_CNT_TEMPLATE]		= "PBT-M: postcard carried a per-flow template's fields",
	[PBT_CNT_TEMPLATE_EXPIRED]	= "PBT-M: a per-flow template had timed out, basic set sent",
	[PBT_CNT_MALFORMED]		= "PBT-M: truncated or bad header, untouched",
	[PBT_CNT_ERR]			= "PBT-M: helper failed, packet unchanged",
	[PBT_CNT_NOT_CONFIGURED]	= "PBT-M: role enabled, domain not configured",
	[PBT_CNT_ALTMARK]		= "PBT-M: the mark bit is an Alternate Marking bit, refused",
	[PBT_CNT_GSO]			= "PBT-M: a GSO skb marked, postcarded or cleared as one",
	[PBT_CNT_BAD_BIT]		= "PBT-M: the configured TOS / TC bit is not one DSCP bit, nothing done",
	[PBT_CNT_NOT_TRIGGERED]		= "PBT-M head: triggers set, the flow is not triggered",
	[PBT_CNT_NO_NEXTHOP]		= "PBT-M: template's next hop, the FIB lookup gave none",
	[PBT_CNT_NO_SOJOURN]		= "PBT-M: template's sojourn, no ingress stamp of the packet",
	[PBT_CNT_NOT_UNICAST]		= "PBT-M head: multicast, broadcast or link-local destination, never marked",
};
#endif

/*
 * Metric names that differ from the CLI's counter names: Prometheus'
 * linter (promtool check metrics) reads "ns" and "m" as abbreviated units
 * (nanoseconds, metres), so IOAM's "unknown_ns" (IOAM-Namespace) and INT's
 * M-bit counters (MTU exceeded, INT v2.1 §5.3) are spelt out.
 */
static const char *const ioam_metric[HM_CNT_MAX] = {
	[HM_CNT_UNKNOWN_NS]		= "unknown_namespace",
};

static const char *const int_metric[INT_CNT_MAX] = {
	[INT_CNT_SRC_MTU_M]		= "src_mtu_exceeded",
	[INT_CNT_TRANSIT_M]		= "transit_mtu_exceeded",
};

static const char *const no_metric[1];

/**
 * struct dp_table - one datapath's per-interface counter map
 * @what:	the family names' component ("ioam" -> hopmark_ioam_*)
 * @stats_map:	per-CPU hash or array ifindex -> counters
 * @cfg_map:	hash or array of the interfaces with a role (ifindex keys):
 *		their counters are shown, zero until the map has an entry
 *		(IOAM's hopmark_ifcfg: its HM_IF_F_PRESENT entries; another
 *		array's: its entries that are not all zeroes)
 * @n:		counters per interface
 * @names:	their names
 * @metric:	their metric names where they differ from @names (NULL
 *		entries: the same), for @n_metric counters
 * @n_metric:	entries at @metric
 * @help:	their help, entries may be NULL
 */
struct dp_table {
	const char		*what;
	const char		*stats_map;
	const char		*cfg_map;
	unsigned int		n;
	const char *const	*names;
	const char *const	*metric;
	unsigned int		n_metric;
	const char *const	*help;
};

static const struct dp_table dp_tables[] = {
	{ "ioam", HM_MAP_STATS, HM_MAP_IFCFG, HM_CNT_MAX, hopmark_counter_names,
	  ioam_metric, HM_CNT_MAX, ioam_help },
	{ "pint", PINT_MAP_STATS, PINT_MAP_IFCFG, PINT_CNT_MAX, pint_counter_names,
	  no_metric, 0, pint_help },
	{ "int", INT_MAP_STATS, INT_MAP_IFCFG, INT_CNT_MAX, int_counter_names,
	  int_metric, INT_CNT_MAX, int_help },
#ifdef HM_METRICS_PBT
	{ "pbt", PBT_MAP_STATS, PBT_MAP_IFCFG, PBT_CNT_MAX, pbt_counter_names,
	  no_metric, 0, pbt_help },
#endif
};

/**
 * struct hm_metrics - hopmarkd's metrics
 * @srv:	the HTTP server
 * @snap:	the main loop's published counters
 */
struct hm_metrics {
	struct hm_prom_server	*srv;
	struct hm_prom_snap	*snap;
};

static void dp_name(char *buf, size_t len, const struct dp_table *t, unsigned int i)
{
	snprintf(buf, len, "hopmark_%s_%s_total", t->what,
		 i < t->n_metric && t->metric[i] ? t->metric[i] : t->names[i]);
}

static const char *dp_help(char *buf, size_t len, const struct dp_table *t, unsigned int i)
{
	if (t->help[i])
		return t->help[i];
	snprintf(buf, len, "%s datapath counter %s (%s)", t->what, t->names[i], t->stats_map);
	return buf;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Append the keys of a map keyed by __u32; returns the new count. Of an
 * array, which has every index, only the interfaces in use: the set
 * entries of IOAM's hopmark_ifcfg (HM_IF_F_PRESENT), the entries of
 * another array that are not all zeroes (hm_stats_ifindexes()).
 */
static unsigned int map_keys(int fd, __u32 *keys, unsigned int n, unsigned int max)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), key, next;
	int err;

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) || info.key_size != sizeof(__u32))
		return n;
	if (info.type == BPF_MAP_TYPE_ARRAY && !strcmp(info.name, HM_MAP_IFCFG)) {
		err = hm_ifcfg_ifindexes(fd, keys + n, max - n);
		return err < 0 ? n : n + err;
	}
	if (info.type == BPF_MAP_TYPE_ARRAY || info.type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		err = hm_stats_ifindexes(fd, keys + n, max - n);
		return err < 0 ? n : n + err;
	}
	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err && n < max) {
		keys[n++] = next;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	return n;
}

/*
 * One datapath's counters: every interface of its stats and config maps,
 * in ifindex order (a key deleted during the walk restarts it: duplicates
 * are removed), each counter summed over the CPUs.
 */
static void dp_collect(struct hm_prom_writer *w, const struct dp_table *t, const char *node,
		       __u32 *keys, __u64 *per_cpu, __u64 *sum, int ncpu)
{
	char name[128], help[160], dev[IF_NAMESIZE];
	struct hm_prom_label labels[2] = { { "dev", dev }, { "node", node } };
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	unsigned int n = 0, k, u, i, c, vals;
	int sfd, cfd;

	sfd = hm_map_open(t->stats_map);
	if (sfd < 0)
		return;
	/* A map of another build may have fewer counters: read what it has. */
	if (bpf_obj_get_info_by_fd(sfd, &info, &len) || info.key_size != sizeof(__u32) ||
	    info.value_size % sizeof(__u64) || info.value_size > t->n * sizeof(__u64)) {
		close(sfd);
		return;
	}
	vals = info.value_size / sizeof(__u64);
	cfd = hm_map_open(t->cfg_map);
	n = map_keys(sfd, keys, n, HM_METRICS_MAX_IFACES);
	n = map_keys(cfd, keys, n, HM_METRICS_MAX_IFACES);
	if (cfd >= 0)
		close(cfd);
	qsort(keys, n, sizeof(keys[0]), cmp_u32);
	for (k = 0, u = 0; k < n; k++)
		if (!u || keys[k] != keys[u - 1])
			keys[u++] = keys[k];

	for (k = 0; k < u; k++) {
		memset(sum, 0, t->n * sizeof(*sum));
		/* No entry yet (a configured interface without traffic): zeros. */
		if (!bpf_map_lookup_elem(sfd, &keys[k], per_cpu))
			for (c = 0; c < (unsigned int)ncpu; c++)
				for (i = 0; i < vals; i++)
					sum[i] += per_cpu[c * vals + i];
		if (!if_indextoname(keys[k], dev))
			snprintf(dev, sizeof(dev), "if%u", keys[k]);
		for (i = 0; i < t->n; i++) {
			dp_name(name, sizeof(name), t, i);
			hm_prom_counter(w, name, dp_help(help, sizeof(help), t, i), labels, 2, sum[i]);
		}
	}
	close(sfd);
}

static void dp_collect_all(struct hm_prom_writer *w, __u32 node_id)
{
	int ncpu = libbpf_num_possible_cpus();
	unsigned int t, most = 0;
	__u64 *per_cpu, *sum;
	char node[16] = "";
	__u32 *keys;

	if (ncpu <= 0)
		return;
	for (t = 0; t < sizeof(dp_tables) / sizeof(dp_tables[0]); t++)
		if (dp_tables[t].n > most)
			most = dp_tables[t].n;
	if (node_id != HM_IOAM_U24_UNAVAILABLE)
		snprintf(node, sizeof(node), "%u", node_id);
	keys = calloc(2 * HM_METRICS_MAX_IFACES, sizeof(*keys));
	per_cpu = calloc((size_t)ncpu * most, sizeof(*per_cpu));
	sum = calloc(most, sizeof(*sum));
	if (keys && per_cpu && sum)
		for (t = 0; t < sizeof(dp_tables) / sizeof(dp_tables[0]); t++)
			dp_collect(w, &dp_tables[t], node, keys, per_cpu, sum, ncpu);
	free(keys);
	free(per_cpu);
	free(sum);
}

/* What a hopmark_agent_* sample is, in struct hm_metrics_agent. */
enum {
	AM_U64,		/* __u64 at @off */
	AM_UINT,	/* unsigned int at @off */
	AM_BOOL,	/* bool at @off, 0 or 1 */
};

/* When a family is shown. */
enum {
	AM_ALWAYS,
	AM_RECORDS,	/* the IOAM ring buffer is read (not --no-records) */
	AM_GENL,	/* the generic netlink side runs */
	AM_IPFIX,	/* the IPFIX exporter runs */
	AM_PBT,		/* the PBT-M postcard consumer runs */
};

/**
 * struct agent_metric - one hopmark_agent_* family
 * @name:	metric name
 * @type:	counter or gauge
 * @kind:	AM_U64, AM_UINT or AM_BOOL
 * @when:	AM_ALWAYS, AM_RECORDS, AM_GENL, AM_IPFIX, AM_PBT
 * @off:	offset of the value in struct hm_metrics_agent
 * @help:	help text
 */
struct agent_metric {
	const char		*name;
	enum hm_prom_type	type;
	unsigned char		kind;
	unsigned char		when;
	size_t			off;
	const char		*help;
};

#define AGENT(n, t, k, w, field, h) \
	{ "hopmark_agent_" n, HM_PROM_ ## t, AM_ ## k, AM_ ## w, \
	  offsetof(struct hm_metrics_agent, field), h }

static const struct agent_metric agent_metrics[] = {
	AGENT("records_total", COUNTER, U64, RECORDS, out.records,
	      "IOAM ring buffer records written whole to the output (with -q: to the monitor socket)"),
	AGENT("output_lost_total", COUNTER, U64, RECORDS, out.lost,
	      "JSON lines decoded but not in the output (failed or partial write, no memory)"),
	AGENT("output_errors_total", COUNTER, U64, RECORDS, out.errors,
	      "Failed writes to the output and lines there was no memory for"),
	AGENT("output_batches_total", COUNTER, U64, RECORDS, out.batches,
	      "Batches of JSON lines flushed to the output"),
	AGENT("ring_lost_total", COUNTER, U64, RECORDS, ring_lost,
	      "IOAM records the datapath could not queue in this run (events_lost since start)"),
	AGENT("decode_errors_total", COUNTER, U64, RECORDS, decode_errors,
	      "IOAM ring buffer records that did not decode"),
	AGENT("monitor_clients", GAUGE, UINT, RECORDS, mon.connected,
	      "Monitor socket clients connected now"),
	AGENT("monitor_clients_accepted_total", COUNTER, U64, RECORDS, mon.accepted,
	      "Monitor socket clients accepted"),
	AGENT("monitor_clients_refused_total", COUNTER, U64, RECORDS, mon.refused,
	      "Monitor socket connections refused: too many clients"),
	AGENT("monitor_clients_dropped_slow_total", COUNTER, U64, RECORDS, mon.dropped_slow,
	      "Monitor socket clients disconnected for falling too far behind"),
	AGENT("monitor_clients_closed_total", COUNTER, U64, RECORDS, mon.closed,
	      "Monitor socket clients that hung up or failed"),
	AGENT("qdepth_polls_total", COUNTER, U64, ALWAYS, qdepth_polls,
	      "Successful qdisc backlog polls into hopmark_qdepth"),
	AGENT("qdepth_poll_errors_total", COUNTER, U64, ALWAYS, qdepth_errors,
	      "Failed qdisc backlog polls"),
	AGENT("tai_updates_total", COUNTER, U64, ALWAYS, tai_updates,
	      "Writes of hopmark_node.tai_offset_ns"),
	AGENT("tai_errors_total", COUNTER, U64, ALWAYS, tai_errors,
	      "Failed TAI offset refreshes"),
	AGENT("ifaces_pruned_total", COUNTER, U64, ALWAYS, pruned,
	      "Map entries of deleted interfaces forgotten"),
	AGENT("module_loaded", GAUGE, BOOL, GENL, module_loaded,
	      "1 when the hopmark kernel module answered its configuration dump"),
	AGENT("module_postcards_total", COUNTER, U64, GENL, genl.postcards,
	      "Postcards of the hopmark module handed to the output"),
	AGENT("module_event_messages_total", COUNTER, U64, GENL, genl.messages,
	      "Generic netlink event messages of the hopmark module received"),
	AGENT("module_bad_records_total", COUNTER, U64, GENL, genl.bad_records,
	      "Module records that do not follow the uapi, not exported"),
	AGENT("module_filtered_total", COUNTER, U64, GENL, genl.filtered,
	      "Module records of IOAM-Namespaces the module no longer has"),
	AGENT("module_emit_errors_total", COUNTER, U64, GENL, genl.emit_errors,
	      "Module postcards the output could not take"),
	AGENT("module_overruns_total", COUNTER, U64, GENL, genl.overruns,
	      "Generic netlink receive buffer overruns (events lost in the socket)"),
	AGENT("module_recv_errors_total", COUNTER, U64, GENL, genl.recv_errors,
	      "Other generic netlink receive errors"),
	AGENT("module_config_changes_total", COUNTER, U64, GENL, genl.config_changes,
	      "Module configuration notifications applied"),
	AGENT("module_bad_config_total", COUNTER, U64, GENL, genl.bad_config,
	      "Module configuration messages that did not parse"),
	AGENT("module_config_dumps_total", COUNTER, U64, GENL, genl.dumps,
	      "Module configuration dumps"),
	AGENT("int_records_total", COUNTER, U64, ALWAYS, intr.records,
	      "INT records read from int_events"),
	AGENT("int_reports_sent_total", COUNTER, U64, ALWAYS, intr.reports_sent,
	      "INT Individual Reports in datagrams the kernel took"),
	AGENT("int_report_datagrams_sent_total", COUNTER, U64, ALWAYS, intr.dgrams_sent,
	      "INT report datagrams the kernel took"),
	AGENT("int_reports_coalesced_total", COUNTER, U64, ALWAYS, intr.coalesced,
	      "INT reports sent in a datagram after its first one"),
	AGENT("int_reports_lost_total", COUNTER, U64, ALWAYS, intr.send_failed,
	      "INT reports in datagrams that could not be sent"),
	AGENT("int_report_datagrams_failed_total", COUNTER, U64, ALWAYS, intr.dgrams_failed,
	      "INT report datagrams that could not be sent"),
	AGENT("int_bad_records_total", COUNTER, U64, ALWAYS, intr.bad_records,
	      "INT records the report encoder refused"),
	AGENT("int_no_collector_total", COUNTER, U64, ALWAYS, intr.no_collector,
	      "INT records read while int_cfg has no collector: not sent"),
	AGENT("int_ring_lost_total", COUNTER, U64, ALWAYS, intr.ring_lost,
	      "INT records the datapath could not queue in this run"),
	AGENT("int_json_lines_total", COUNTER, U64, ALWAYS, intr.json_lines,
	      "INT records written as JSON lines"),
	AGENT("int_json_bad_total", COUNTER, U64, ALWAYS, intr.json_bad,
	      "INT records no JSON line could be made of"),
	AGENT("ipfix_records_total", COUNTER, U64, IPFIX, ipfix.records,
	      "Postcards and records offered to the IPFIX exporter"),
	AGENT("ipfix_records_exported_total", COUNTER, U64, IPFIX, ipfix.sent,
	      "IPFIX Data Records in Messages the kernel took"),
	AGENT("ipfix_records_not_sent_total", COUNTER, U64, IPFIX, ipfix.not_sent,
	      "IPFIX records not sent, for any of the reasons below"),
	AGENT("ipfix_records_rate_limited_total", COUNTER, U64, IPFIX, ipfix.rate_limited,
	      "IPFIX records not sent: above the export rate limit (pbt_cfg.exp_rate)"),
	AGENT("ipfix_records_no_collector_total", COUNTER, U64, IPFIX, ipfix.no_collector,
	      "IPFIX records not sent: no collector configured"),
	AGENT("ipfix_records_transport_down_total", COUNTER, U64, IPFIX, ipfix.down,
	      "IPFIX records not sent: TCP not connected, or the stream broke with them queued"),
	AGENT("ipfix_records_send_failed_total", COUNTER, U64, IPFIX, ipfix.send_failed,
	      "IPFIX records not sent: UDP datagrams the kernel refused"),
	AGENT("ipfix_records_queue_full_total", COUNTER, U64, IPFIX, ipfix.queue_full,
	      "IPFIX records not sent: the TCP stream was too far behind"),
	AGENT("ipfix_records_bad_total", COUNTER, U64, IPFIX, ipfix.bad,
	      "IPFIX records not sent: no template, or libfixbuf could not encode them"),
	AGENT("ipfix_messages_total", COUNTER, U64, IPFIX, ipfix.messages,
	      "IPFIX Messages sent (templates and options included)"),
	AGENT("ipfix_sent_bytes_total", COUNTER, U64, IPFIX, ipfix.bytes,
	      "Octets of the IPFIX Messages sent"),
	AGENT("ipfix_template_sends_total", COUNTER, U64, IPFIX, ipfix.template_sends,
	      "Times the IPFIX templates and type records were sent"),
	AGENT("ipfix_options_sent_total", COUNTER, U64, IPFIX, ipfix.options_sent,
	      "IPFIX options records of the not-sent count sent"),
	AGENT("ipfix_connects_total", COUNTER, U64, IPFIX, ipfix.connects,
	      "IPFIX TCP connections made"),
	AGENT("ipfix_connect_failures_total", COUNTER, U64, IPFIX, ipfix.connect_failures,
	      "IPFIX TCP connection attempts that failed"),
	AGENT("ipfix_disconnects_total", COUNTER, U64, IPFIX, ipfix.disconnects,
	      "IPFIX TCP connections that broke"),
	AGENT("ipfix_send_errors_total", COUNTER, U64, IPFIX, ipfix.send_errors,
	      "Failed send(2) calls of the IPFIX exporter"),
	AGENT("ipfix_encode_errors_total", COUNTER, U64, IPFIX, ipfix.encode_errors,
	      "libfixbuf errors of the IPFIX exporter"),
	AGENT("module_postcards_not_ipfix_total", COUNTER, U64, GENL, postcards_not_ipfix,
	      "Module postcards whose headers did not parse: shown as JSON, not exported as IPFIX"),
	AGENT("pbt_postcards_total", COUNTER, U64, PBT, pbt.postcards,
	      "PBT-M postcards read from pbt_events"),
	AGENT("pbt_bad_records_total", COUNTER, U64, PBT, pbt.bad_records,
	      "pbt_events records too short or that do not convert"),
	AGENT("pbt_json_lines_total", COUNTER, U64, PBT, pbt.json_lines,
	      "PBT-M postcards written as JSON lines"),
	AGENT("pbt_ring_lost_total", COUNTER, U64, PBT, pbt.ring_lost,
	      "PBT-M postcards the datapath could not queue in this run"),
	AGENT("pbt_templates_expired_total", COUNTER, U64, PBT, pbt.tpl_expired,
	      "Per-flow templates removed from pbt_tpl after they expired"),
	AGENT("pbt_cfg_changes_total", COUNTER, U64, PBT, pbt.cfg_changes,
	      "Readings of pbt_cfg that differed from the previous"),
};

static const char start_help[] = "When hopmarkd started, POSIX seconds";
static const char info_help[] = "hopmarkd's version, value 1";

static void collect(struct hm_prom_writer *w, const void *data, void *arg)
{
	const struct hm_metrics_agent *s = data;
	struct hm_prom_label ver = { "version", HOPMARKD_VERSION };
	unsigned int i;

	dp_collect_all(w, s->node_id);
	hm_prom_gauge(w, "hopmark_agent_info", info_help, &ver, 1, 1);
	hm_prom_gauge(w, "hopmark_agent_start_time_seconds", start_help, NULL, 0,
		      s->start_time_s);
	for (i = 0; i < sizeof(agent_metrics) / sizeof(agent_metrics[0]); i++) {
		const struct agent_metric *m = &agent_metrics[i];
		const char *p = (const char *)s + m->off;
		__u64 v;

		if ((m->when == AM_RECORDS && !s->records) ||
		    (m->when == AM_GENL && !s->has_genl) ||
		    (m->when == AM_IPFIX && !s->has_ipfix) ||
		    (m->when == AM_PBT && !s->has_pbt))
			continue;
		if (m->kind == AM_U64)
			memcpy(&v, p, sizeof(v));
		else if (m->kind == AM_UINT)
			v = *(const unsigned int *)p;
		else
			v = *(const bool *)p;
		if (m->type == HM_PROM_COUNTER)
			hm_prom_counter(w, m->name, m->help, NULL, 0, v);
		else
			hm_prom_gauge(w, m->name, m->help, NULL, 0, (double)v);
	}
}

struct hm_metrics *hm_metrics_new(const char *addr)
{
	struct hm_metrics *m = calloc(1, sizeof(*m));
	char err[256];
	int e;

	if (!m)
		return NULL;
	m->srv = hm_prom_server_new(addr, HOPMARKD_NAME, err, sizeof(err));
	if (!m->srv) {
		e = errno;
		hm_log("--metrics %s", err);
		free(m);
		errno = e;
		return NULL;
	}
	m->snap = hm_prom_snap_new(m->srv, sizeof(struct hm_metrics_agent), collect, m);
	if (!m->snap) {
		hm_log("--metrics: %s", strerror(ENOMEM));
		hm_prom_server_free(m->srv);
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

unsigned int hm_metrics_port(const struct hm_metrics *m)
{
	return hm_prom_server_port(m->srv);
}

void hm_metrics_publish(struct hm_metrics *m, const struct hm_metrics_agent *s)
{
	if (m)
		hm_prom_snap_publish(m->snap, s);
}

/*
 * The "source" column of an agent family, which also says when it is
 * shown: agent always; agent/records not with --no-records; agent/module
 * when the generic netlink side runs; agent/ipfix when the IPFIX exporter
 * runs; agent/pbt when the PBT-M postcard consumer runs.
 */
static const char *const when_text[] = {
	[AM_ALWAYS] = "agent", [AM_RECORDS] = "agent/records",
	[AM_GENL] = "agent/module", [AM_IPFIX] = "agent/ipfix", [AM_PBT] = "agent/pbt",
};

void hm_metrics_list(FILE *f)
{
	char name[128], help[160], src[64];
	unsigned int t, i;

	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", "# family", "type", "labels", "source", "help");
	for (t = 0; t < sizeof(dp_tables) / sizeof(dp_tables[0]); t++) {
		const struct dp_table *d = &dp_tables[t];

		for (i = 0; i < d->n; i++) {
			dp_name(name, sizeof(name), d, i);
			snprintf(src, sizeof(src), "%s:%s", d->stats_map, d->names[i]);
			fprintf(f, "%-44s %-7s %-8s %-30s %s\n", name, "counter", "dev,node", src,
				dp_help(help, sizeof(help), d, i));
		}
	}
	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", "hopmark_agent_info", "gauge", "version",
		"agent", info_help);
	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", "hopmark_agent_start_time_seconds", "gauge", "-",
		"agent", start_help);
	for (i = 0; i < sizeof(agent_metrics) / sizeof(agent_metrics[0]); i++) {
		const struct agent_metric *m = &agent_metrics[i];

		fprintf(f, "%-44s %-7s %-8s %-30s %s\n", m->name,
			m->type == HM_PROM_COUNTER ? "counter" : "gauge", "-",
			when_text[m->when], m->help);
	}
	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", HM_PROM_SELF_DURATION, "gauge", "-",
		"server", HM_PROM_SELF_DURATION_HELP);
	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", HM_PROM_SELF_SCRAPES, "counter", "-",
		"server", HM_PROM_SELF_SCRAPES_HELP);
	fprintf(f, "%-44s %-7s %-8s %-30s %s\n", HM_PROM_SELF_REFUSED, "counter", "-",
		"server", HM_PROM_SELF_REFUSED_HELP);
}

void hm_metrics_free(struct hm_metrics *m)
{
	if (!m)
		return;
	hm_prom_server_free(m->srv);
	free(m);
}
