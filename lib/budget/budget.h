/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * budget.h - the in-band metadata budget model (seed 000's executed demo):
 * the two hard budgets of in-band telemetry, header bytes against the MTU
 * and metadata generation rate against export capacity, and whether a
 * configured INT-MD trace (INT v2.1 §5.3) or IOAM trace (RFC 9197 §4.4 in
 * a Hop-by-Hop header, RFC 9486) fits a path MTU.
 *
 * Units: bytes (octets) everywhere, rates in bit/s, fractions in [0, 1].
 * Nothing here touches a packet: byte order does not arise. budget.c;
 * `hopmark budget` prints the model, Documentation/budget.rst describes it.
 */
#ifndef __HOPMARK_BUDGET_H
#define __HOPMARK_BUDGET_H

#include <stdbool.h>
#include <linux/types.h>

/* The seed's constants (bytes). */
#define HM_BUDGET_SEED_INT_FIXED	12	/* INT-MD header alone (INT_HDR_LEN) */
#define HM_BUDGET_SPEC_INT_FIXED	16	/* §5.3: shim + header (INT_FIXED_LEN) */
#define HM_BUDGET_WORD			4
#define HM_BUDGET_IOAM_FIXED		12	/* IOAM option header + trace header */
#define HM_BUDGET_POSTCARD		8	/* a postcard's in-band trigger */
#define HM_BUDGET_EXPORT_RECORD		16	/* panel C: metadata bytes per packet */
#define HM_BUDGET_BROKER_GBYTES		1.0	/* panel C: one Kafka broker, GB/s */
/* UDP header NPT=2 inserts before the INT shim (§5.7.2). */
#define HM_BUDGET_NPT2_UDP		8
/* IPv6 Hop-by-Hop header: Next Header + Hdr Ext Len, then PadN to 4n. */
#define HM_BUDGET_HBH_HDR		2
#define HM_BUDGET_HBH_ALIGN_PAD		2

/* hm_budget_max_hops() when the per-hop cost is 0: no hop limit. */
#define HM_BUDGET_HOPS_UNLIMITED	(-2)

/**
 * hm_budget_bytes() - in-band bytes of a trace after @hops hops
 * @fixed:	bytes the trace carries whatever the hop count
 * @per_hop:	bytes every hop adds
 * @hops:	hop count
 *
 * Seed 000 panel A: f + n·p.
 *
 * Return: bytes.
 */
__u64 hm_budget_bytes(__u32 fixed, __u32 per_hop, __u32 hops);

/**
 * hm_budget_max_hops() - most hops whose trace fits a byte budget
 * @fixed:	bytes the trace carries whatever the hop count
 * @per_hop:	bytes every hop adds
 * @budget:	bytes allowed (panel A: the MTU, 1500 and 900)
 *
 * Seed 000 panel A: the largest n with f + n·p <= B, (B - f) div p.
 *
 * Return: that n; -1 when @budget < @fixed (not even the fixed part fits);
 * %HM_BUDGET_HOPS_UNLIMITED when @per_hop is 0 and the fixed part fits.
 */
long hm_budget_max_hops(__u32 fixed, __u32 per_hop, __u32 budget);

/**
 * hm_budget_overhead_pct() - added bytes as a percentage of a packet
 * @added:	bytes the trace adds
 * @size:	packet size before, bytes; must not be 0
 *
 * Seed 000 panel B: added / size × 100 (of the original size, not of the
 * grown packet).
 *
 * Return: the percentage; 0 when @size is 0.
 */
double hm_budget_overhead_pct(__u64 added, __u64 size);

/**
 * hm_budget_pps() - packet rate of a link at an average packet size
 * @rate_bps:	link rate, bit/s (seed 000: 12.8e12)
 * @pkt_bytes:	average packet size, bytes (seed 000: 800); must not be 0
 *
 * Seed 000 panel C: int(rate / 8 / size), computed in double as the seed
 * does and truncated.
 *
 * Return: packets per second; 0 when @pkt_bytes is 0 or @rate_bps < 0.
 */
__u64 hm_budget_pps(double rate_bps, double pkt_bytes);

/**
 * hm_budget_export_gbps() - metadata export rate under sampling
 * @pps:	packets per second (hm_budget_pps())
 * @fraction:	share of packets that export, in [0, 1] (1:1000 = 0.001)
 * @record:	metadata bytes per exported packet (seed 000: 16)
 *
 * Seed 000 panel C: pps · fraction · record · 8 / 1e9, evaluated left to
 * right in double. GB/s is this / 8.
 *
 * Return: Gbit/s.
 */
double hm_budget_export_gbps(__u64 pps, double fraction, __u32 record);

/**
 * hm_budget_ioam_prealloc_bytes() - bytes a Pre-allocated Trace adds
 * @data_len:	pre-allocated data area, bytes (a multiple of 4)
 *
 * RFC 9197 §4.4 in RFC 9486's Hop-by-Hop header, as hopmark_encap lays it
 * out (bpf/hopmark_encap.bpf.c): Next Header and Hdr Ext Len (2), PadN (2)
 * so that the option header starts at 4n, the IOAM option header
 * (%HM_IOAM_OPT_HDR_LEN), the trace header (%HM_IOAM_TRACE_HDR_LEN), the
 * data area, and PadN to the header's 8n length (RFC 8200 §4.3). Fixed at
 * encapsulation: transit nodes fill the area, they never grow it.
 *
 * Return: bytes, a multiple of 8.
 */
__u32 hm_budget_ioam_prealloc_bytes(__u32 data_len);

/**
 * hm_budget_ioam_prealloc_max_hops() - most nodes a Pre-allocated Trace
 * can hold within a byte budget
 * @node_len:	bytes one node writes (hm_ioam6_node_data_len()), not 0
 * @budget:	bytes the Hop-by-Hop header may take
 *
 * The largest n with hm_budget_ioam_prealloc_bytes(n · @node_len) <=
 * @budget and n · @node_len <= %HM_IOAM_TRACE_DATA_MAX (one option's Opt
 * Data Len is 8 bits).
 *
 * Return: n; -1 when not even the headers fit @budget; 0 when they fit but
 * no node's data does.
 */
long hm_budget_ioam_prealloc_max_hops(__u32 node_len, __u32 budget);

/**
 * hm_budget_pint_bytes() - in-band bytes of a PINT digest of @bits bits
 * @bits:	digest width b (PINT: a constant b bits whatever the path)
 *
 * Return: bytes, rounded up to whole bytes.
 */
__u32 hm_budget_pint_bytes(__u32 bits);

/**
 * hm_budget_int_md_bytes() - bytes an INT-MD trace adds after @hops hops
 * @fixed:	INT fixed bytes: %INT_FIXED_LEN (shim + header, 16, what the
 *		packet carries and what §5.3 counts) or %INT_HDR_LEN (12, the
 *		seed's convention)
 * @hop_ml:	words per hop (int_bitmap_words() of the Instruction
 *		Bitmap), 0..%INT_HOP_ML_MAX
 * @hops:	INT hops that push metadata (the source included)
 * @npt:	Next Protocol Type of the shim (§5.7.2): 2 adds the 8-byte UDP
 *		header inserted before the shim; 0 and 1 add nothing
 *
 * INT v2.1 §5.3: Hop ML × 4 × hops + fixed length.
 *
 * Return: bytes.
 */
__u64 hm_budget_int_md_bytes(__u32 fixed, __u32 hop_ml, __u32 hops, __u32 npt);

/**
 * struct hm_budget_fit - whether a configured trace fits a path MTU
 * @bytes:	in-band bytes of the trace as configured (INT-MD: after its
 *		maximum hop count; IOAM pre-allocated: the whole Hop-by-Hop
 *		header)
 * @carrier:	bytes of the headers the trace rides with, counted against
 *		the MTU too (the IP header, and for INT the L4 header)
 * @mtu:	the MTU compared with, bytes
 * @hops:	hops the trace is configured for (INT-MD: the maximum hop
 *		count; IOAM: nodes the data area holds)
 * @fit_hops:	most hops whose trace fits @mtu with @carrier; -1 when not
 *		even the fixed headers fit
 * @fits:	@carrier + @bytes <= @mtu
 */
struct hm_budget_fit {
	__u64	bytes;
	__u32	carrier;
	__u32	mtu;
	__u32	hops;
	long	fit_hops;
	bool	fits;
};

/**
 * hm_budget_int_md_fit() - whether an INT-MD trace fits a path MTU
 * @bitmap:	Instruction Bitmap (host order); Hop ML is its
 *		int_bitmap_words()
 * @max_hops:	Remaining Hop Count the source starts with: hops that push
 *		metadata
 * @npt:	shim Next Protocol Type (0, 1 or 2; 2 adds a UDP header)
 * @carrier:	bytes of the smallest packet's IP and L4 headers (e.g.
 *		%HM_IPV4_HDR_LEN + 8 for UDP over IPv4): the trace must fit
 *		beside them
 * @mtu:	the egress (path) MTU, bytes, at least 68
 * @fit:	output
 *
 * INT v2.1 §5.3: a source must not start INT when the fixed headers do not
 * fit; a node whose metadata would exceed the MTU sets M. A configuring
 * command warns when @fit->fits is false, naming @fit->bytes, @mtu and
 * @fit->fit_hops (hops of this bitmap that do fit).
 *
 * Return: 1 when the trace fits, 0 when it does not, -EINVAL for @npt > 2,
 * @mtu < 68, or a Hop ML above %INT_HOP_ML_MAX (@fit untouched then).
 */
int hm_budget_int_md_fit(__u16 bitmap, __u32 max_hops, __u32 npt, __u32 carrier,
			 __u32 mtu, struct hm_budget_fit *fit);

/**
 * hm_budget_ioam_prealloc_fit() - whether a Pre-allocated Trace fits a
 * path MTU
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @data_len:	pre-allocated data area, bytes (4..%HM_IOAM_TRACE_DATA_MAX,
 *		a multiple of 4)
 * @mtu:	MTU of the encapsulating device, bytes, at least 68
 * @fit:	output; @fit->carrier is the IPv6 header (%HM_IPV6_HDR_LEN),
 *		@fit->hops the nodes the area holds (@data_len div
 *		hm_ioam6_node_data_len())
 *
 * The trace rides in a Hop-by-Hop header of hm_budget_ioam_prealloc_bytes()
 * right after the IPv6 header: even a packet without payload cannot carry
 * it when the two exceed the MTU, and the encapsulating node sends every
 * packet without it (HM_CNT_ENCAP_SKIP_MTU).
 *
 * Return: 1 when it fits, 0 when not, -EINVAL for a data area that is not
 * a multiple of 4 within 4..%HM_IOAM_TRACE_DATA_MAX, a Trace-Type selecting
 * no data, or @mtu < 68 (@fit untouched then).
 */
int hm_budget_ioam_prealloc_fit(__u32 trace_type, __u32 data_len, __u32 mtu,
				struct hm_budget_fit *fit);

#endif /* __HOPMARK_BUDGET_H */
