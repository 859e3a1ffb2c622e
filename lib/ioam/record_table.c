// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * record_table.c - a traced packet as a readable per-hop table, the text
 * form `hopmark monitor` and `hopmark decode` print. Unavailable or absent
 * values print as "-".
 */
#include <arpa/inet.h>
#include <inttypes.h>

#include "hopmark.h"
#include "ioam/record_time.h"

#define HM_COL_UNAVAIL	"-"

static void hm_put_u(FILE *f, int width, __u64 v, __u64 unavailable, bool carried)
{
	if (!carried || v == unavailable)
		fprintf(f, " %*s", width, HM_COL_UNAVAIL);
	else
		fprintf(f, " %*" PRIu64, width, (uint64_t)v);
}

/* ns -> us with 3 decimals; signed because unsynchronised clocks go negative. */
static void hm_put_us(FILE *f, int width, __s64 ns, bool ok)
{
	if (!ok)
		fprintf(f, " %*s", width, HM_COL_UNAVAIL);
	else
		fprintf(f, " %*.3f", width, (double)ns / 1000.0);
}

static void hm_put_ts(FILE *f, const struct hm_ioam6_node_values *v, __u32 tt)
{
	__u64 ns;

	if (hm_node_timestamp_ns(v, tt, &ns))
		fprintf(f, " %10" PRIu64 ".%06" PRIu64, (uint64_t)(ns / HM_NSEC_PER_SEC),
			(uint64_t)(ns % HM_NSEC_PER_SEC / 1000));
	else if ((tt & HM_IOAM_TT_TS_SEC) && v->ts_sec != HM_IOAM_U32_UNAVAILABLE)
		fprintf(f, " %10u.%-6s", v->ts_sec, HM_COL_UNAVAIL);
	else
		fprintf(f, " %17s", HM_COL_UNAVAIL);
}

/**
 * hm_record_print_table() - print a record as a readable per-hop table
 * @f: stream
 * @r: record
 *
 * A header line (source, destination, protocol and ports, IOAM-Namespace,
 * IOAM-Trace-Type, Overflow flag), then one row per node data entry in
 * path order and a last row for the sink: hop, node ID, ingress/egress
 * interface IDs, hop limit, timestamp (POSIX seconds.microseconds),
 * latency from the previous hop (us), transit delay (us), queue depth
 * (bytes). The wide node ID replaces the short one when only it is carried.
 */
void hm_record_print_table(FILE *f, const struct hm_record *r)
{
	const struct hm_ioam_trace *t = &r->trace;
	__u32 tt = t->trace_type;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	bool short_id = tt & HM_IOAM_TT_HOPLIM_NODEID;
	bool wide_id = tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE;
	unsigned int i;
	__s64 lat = 0;
	bool ok;

	inet_ntop(AF_INET6, r->pkt.saddr, src, sizeof(src));
	inet_ntop(AF_INET6, r->pkt.daddr, dst, sizeof(dst));
	fprintf(f, "%s", src);
	if (r->pkt.sport || r->pkt.dport)
		fprintf(f, ".%u", r->pkt.sport);
	fprintf(f, " > %s", dst);
	if (r->pkt.sport || r->pkt.dport)
		fprintf(f, ".%u", r->pkt.dport);
	fprintf(f, " proto %u flowlabel 0x%05x ns %u trace-type 0x%06x nodelen %u remlen %u%s\n",
		r->pkt.proto, r->pkt.flow_label, t->ns_id, tt, t->nodelen, t->remlen,
		t->overflow ? " OVERFLOW" : "");
	fprintf(f, "  %4s %16s %6s %6s %4s %17s %12s %12s %10s\n", "hop", "node", "in-if",
		"out-if", "hlim", "timestamp", "latency-us", "transit-us", "qdepth");

	for (i = 0; i < t->n_nodes && i < HM_MAX_HOPS; i++) {
		const struct hm_ioam6_node_values *v = &t->nodes[i];
		bool tr = (tt & HM_IOAM_TT_TRANSIT_DELAY) &&
			  v->transit_delay != HM_IOAM_U32_UNAVAILABLE;

		fprintf(f, "  %4u", i + 1);
		if (short_id || !wide_id)
			hm_put_u(f, 16, v->node_id, HM_IOAM_U24_UNAVAILABLE, short_id);
		else
			hm_put_u(f, 16, v->node_id_wide, HM_IOAM_U56_UNAVAILABLE, true);
		hm_put_u(f, 6, v->ingress_if, HM_IOAM_U16_UNAVAILABLE, tt & HM_IOAM_TT_IF_IDS);
		hm_put_u(f, 6, v->egress_if, HM_IOAM_U16_UNAVAILABLE, tt & HM_IOAM_TT_IF_IDS);
		hm_put_u(f, 4, v->hop_limit, ~0ULL, short_id || wide_id);
		hm_put_ts(f, v, tt);
		ok = hm_hop_latency_ns(t, i, &lat);
		hm_put_us(f, 12, lat, ok);
		hm_put_us(f, 12, v->transit_delay & 0x7fffffff, tr);
		hm_put_u(f, 10, v->queue_depth, HM_IOAM_U32_UNAVAILABLE,
			 tt & HM_IOAM_TT_QUEUE_DEPTH);
		fputc('\n', f);
	}

	fprintf(f, "  %4s", "sink");
	hm_put_u(f, 16, r->sink_node_id, HM_IOAM_U24_UNAVAILABLE, true);
	hm_put_u(f, 6, r->sink_if_id, HM_IOAM_U16_UNAVAILABLE, true);
	fprintf(f, " %6s", HM_COL_UNAVAIL);
	hm_put_u(f, 4, r->pkt.hop_limit, ~0ULL, true);
	if (r->rx_ns)
		fprintf(f, " %10" PRIu64 ".%06" PRIu64, (uint64_t)(r->rx_ns / HM_NSEC_PER_SEC),
			(uint64_t)(r->rx_ns % HM_NSEC_PER_SEC / 1000));
	else
		fprintf(f, " %17s", HM_COL_UNAVAIL);
	ok = hm_sink_latency_ns(r, &lat);
	hm_put_us(f, 12, lat, ok);
	fprintf(f, " %12s %10s\n", HM_COL_UNAVAIL, HM_COL_UNAVAIL);
}
