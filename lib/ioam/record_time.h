/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * record_time.h - libhopmark internal: node timestamps and latencies of a
 * decoded trace, shared by the JSON, table and summary renderings so that
 * all three agree. Not installed, not part of the API.
 */
#ifndef __HOPMARK_RECORD_TIME_H
#define __HOPMARK_RECORD_TIME_H

#include <stdbool.h>

#include "common/hm_time.h"
#include "ioam/record.h"

#define HM_TT_TIMESTAMP		(HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC)

/* Whether the trace type carries both timestamp fields (bits 2 and 3). */
static inline bool hm_trace_has_timestamp(__u32 trace_type)
{
	return (trace_type & HM_TT_TIMESTAMP) == HM_TT_TIMESTAMP;
}

/*
 * hm_node_timestamp_ns() - a node's timestamp in POSIX ns
 *
 * RFC 9197 §4.4.2.3/4 in the POSIX format Linux writes: seconds and
 * microseconds. False when a field is absent or unavailable (all-ones) or
 * the fraction is not a valid microsecond count.
 */
static inline bool hm_node_timestamp_ns(const struct hm_ioam6_node_values *v,
					__u32 trace_type, __u64 *ns)
{
	if (!hm_trace_has_timestamp(trace_type) ||
	    v->ts_sec == HM_IOAM_U32_UNAVAILABLE ||
	    v->ts_frac >= HM_USEC_PER_SEC)
		return false;
	*ns = (__u64)v->ts_sec * HM_NSEC_PER_SEC + (__u64)v->ts_frac * 1000;
	return true;
}

/* Latency of hop @i (0-based, path order) from hop @i - 1, in ns (signed). */
static inline bool hm_hop_latency_ns(const struct hm_ioam_trace *t, unsigned int i,
				     __s64 *lat)
{
	__u64 a, b;

	if (i == 0 || i >= t->n_nodes ||
	    !hm_node_timestamp_ns(&t->nodes[i - 1], t->trace_type, &a) ||
	    !hm_node_timestamp_ns(&t->nodes[i], t->trace_type, &b))
		return false;
	*lat = (__s64)(b - a);
	return true;
}

/* Latency of the last link: sink receive time - last node's timestamp. */
static inline bool hm_sink_latency_ns(const struct hm_record *r, __s64 *lat)
{
	const struct hm_ioam_trace *t = &r->trace;
	__u64 ts;

	if (!r->rx_ns || !t->n_nodes ||
	    !hm_node_timestamp_ns(&t->nodes[t->n_nodes - 1], t->trace_type, &ts))
		return false;
	*lat = (__s64)(r->rx_ns - ts);
	return true;
}

#endif /* __HOPMARK_RECORD_TIME_H */
