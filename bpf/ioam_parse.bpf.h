/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ioam_parse.bpf.h - find and validate the IOAM Pre-allocated Trace option
 * (RFC 9197 §4.4) in an IPv6 Hop-by-Hop Options header (RFC 8200 §4.3,
 * RFC 9486 §2).
 *
 * The programs first copy the Ethernet, IPv6 and Hop-by-Hop headers into
 * the per-CPU scratch area (hm_load_hdrs_*), then parse the copy. Every
 * read of the copy is masked with HM_SCRATCH_MASK, so the access is in
 * bounds whatever path the verifier follows, and is checked against the
 * number of bytes actually copied before it is made.
 */
#ifndef __HM_IOAM_PARSE_BPF_H
#define __HM_IOAM_PARSE_BPF_H

#include "hm_common.bpf.h"

/* Offsets in the frame of the IPv6 header fields and of the Hop-by-Hop header. */
#define HM_OFF_IP6		HM_ETH_HLEN
#define HM_OFF_IP6_PLEN		(HM_ETH_HLEN + HM_IPV6_OFF_PAYLOAD_LEN)
#define HM_OFF_IP6_NEXTHDR	(HM_ETH_HLEN + HM_IPV6_OFF_NEXTHDR)
#define HM_OFF_IP6_HOPLIM	(HM_ETH_HLEN + HM_IPV6_OFF_HOP_LIMIT)
#define HM_OFF_IP6_SADDR	(HM_ETH_HLEN + HM_IPV6_OFF_SADDR)
#define HM_OFF_IP6_DADDR	(HM_ETH_HLEN + HM_IPV6_OFF_DADDR)
#define HM_OFF_HBH		(HM_ETH_HLEN + HM_IPV6_HDR_LEN)

/* Data bytes of the longest PadN that fits such a run. */
#define HM_PADN_DATA_MAX	(HM_LINUX_PAD_RUN_MAX - 2)

/*
 * TLVs walked at most in one Hop-by-Hop header: the most a header Linux
 * accepts can hold, 8 options with a run of 7 Pad1 before, between and
 * after them: 8 + 9 * 7 = 71. A header needing more steps (possible only
 * where max_hbh_opts_number was raised) is left untouched and counted
 * (%HM_P_WALK_LIMIT), apart from malformed ones.
 */
#define HM_OPT_ITER_MAX		(HM_LINUX_HBH_OPTS_MAX + \
				 (HM_LINUX_HBH_OPTS_MAX + 1) * HM_LINUX_PAD_RUN_MAX)

/* Byte @off of the copied frame. */
#define HM_B(b, off)		((b)[(off) & HM_SCRATCH_MASK])

/**
 * enum hm_parse_ret - outcome of hm_ioam_parse()
 * @HM_P_NONE:		no Hop-by-Hop header or no IOAM Pre-allocated Trace
 * @HM_P_TRACE:		a valid trace was found, see struct hm_trace_loc
 * @HM_P_MALFORMED:	the Hop-by-Hop header or the trace is inconsistent
 *			(truncated, TLV past the header, misaligned IOAM
 *			option, bad Opt Data Len, NodeLen not matching the
 *			Trace-Type, RemainingLen beyond the data area)
 * @HM_P_FRAGMENT:	a valid trace in a packet whose Hop-by-Hop header is
 *			followed by a Fragment header
 * @HM_P_WALK_LIMIT:	the walk took %HM_OPT_ITER_MAX TLVs without reaching
 *			the end of the header (or, with %HM_PARSE_FIRST_TRACE,
 *			a trace of a configured IOAM-Namespace): the rest is
 *			unchecked, so the header is neither used nor changed
 */
enum hm_parse_ret {
	HM_P_NONE,
	HM_P_TRACE,
	HM_P_MALFORMED,
	HM_P_FRAGMENT,
	HM_P_WALK_LIMIT,
};

/* Walk modes of hm_ioam_parse(). */
#define HM_PARSE_FIRST_TRACE	0	/* stop at the first trace (transit) */
#define HM_PARSE_ALL		1	/* walk every option (encap, decap) */

/**
 * struct hm_trace_loc - where things are; offsets in bytes from the start
 *			 of the frame (Ethernet header)
 * @hbh_len:	length of the Hop-by-Hop header, (Hdr Ext Len + 1) * 8
 * @opt:	the IOAM option's IPv6 option type octet (0x31)
 * @opt_size:	whole IOAM option, 2 + Opt Data Len
 * @trace:	IOAM trace header (struct hm_ioam6_trace_hdr)
 * @data:	node data list
 * @data_len:	node data list length
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @nodelen:	NodeLen, 4-octet words
 * @remlen:	RemainingLen, 4-octet words
 * @pad_start:	first byte of the padding run right before @opt (@opt if none)
 * @pad_end:	first byte after the padding run that follows the option
 * @ns_id:	IOAM-Namespace, host order
 * @flags_byte:	third octet of the trace header (NodeLen and Overflow flag)
 * @remlen_byte: fourth octet of the trace header (last flag, RemainingLen)
 * @hbh_nexthdr: Next Header of the Hop-by-Hop header
 * @ioam_seen:	any IOAM option (any IOAM Option-Type) is present
 * @n_opts:	options other than Pad1 and PadN walked (at most
 *		%HM_OPT_ITER_MAX)
 * @padn_nonzero: a PadN of at most %HM_PADN_DATA_MAX data bytes carries a
 *		non-zero byte (longer ones break %HM_LINUX_PAD_RUN_MAX)
 * @w_off:	walk state of hm_ioam_parse(): next option, from the
 *		Hop-by-Hop header
 * @w_pad_run:	walk state: padding bytes right before @w_off
 * @w_found:	walk state: a trace was found
 * @w_known:	walk state: the trace found is of a configured IOAM-Namespace
 * @w_after:	walk state: only padding since the trace
 * @pad_run_long: a run of padding bytes walked (Pad1 and PadN together, up
 *		to the next other option or the end) is longer than
 *		%HM_LINUX_PAD_RUN_MAX
 *
 * With %HM_PARSE_ALL, @n_opts, @padn_nonzero and @pad_run_long describe
 * the whole header, and @w_pad_run is then its trailing padding run. The
 * struct stays 64 bytes: the callers' stack and hm_ioam_parse()'s together
 * must fit Linux 6.1's 512 (which rounds each frame up to 32 bytes).
 */
struct hm_trace_loc {
	__u32	hbh_len;
	__u32	opt;
	__u32	opt_size;
	__u32	trace;
	__u32	data;
	__u32	data_len;
	__u32	trace_type;
	__u32	nodelen;
	__u32	remlen;
	__u32	pad_start;
	__u32	pad_end;
	__u16	ns_id;
	__u8	flags_byte;
	__u8	remlen_byte;
	__u8	hbh_nexthdr;
	__u8	ioam_seen;
	__u8	n_opts;
	__u8	padn_nonzero;
	__u32	w_off;
	__u32	w_pad_run;
	__u8	w_found;
	__u8	w_known;
	__u8	w_after;
	__u8	pad_run_long;
};

/**
 * hm_popcount32() - number of bits set, branch-free
 *
 * Branch-free so that the verifier sees one path whatever the Trace-Type.
 */
static __always_inline __u32 hm_popcount32(__u32 x)
{
	x = x - ((x >> 1) & 0x55555555);
	x = (x & 0x33333333) + ((x >> 2) & 0x33333333);
	x = (x + (x >> 4)) & 0x0f0f0f0f;
	return (x * 0x01010101) >> 24;
}

/* Trace-Type bits 0-21: the fixed-size fields counted in NodeLen. */
#define HM_TT_FIXED_MASK	0xfffffcU

/**
 * hm_tt_words_before() - offset of a node data field, in 4-octet words
 * @tt:	24-bit IOAM-Trace-Type, host order
 * @k:	Trace-Type bit of the field (0..22), a compile-time constant
 *
 * RFC 9197 §4.4.2: fields appear in bit order; bits 8-10 are 8 octets, the
 * others 4. hm_tt_words_before(tt, 22) is NodeLen, the same value as
 * hm_ioam6_trace_nodelen() in lib/ioam/ioam6.h.
 *
 * Return: words of node data before field @k.
 */
static __always_inline __u32 hm_tt_words_before(__u32 tt, __u32 k)
{
	__u32 shift = 24 - k;

	if (k == 0)
		return 0;
	return hm_popcount32((tt & HM_TT_FIXED_MASK) >> shift) +
	       hm_popcount32((tt & HM_IOAM_TT_WIDE_MASK) >> shift);
}

/** hm_tt_nodelen() - NodeLen of a Trace-Type, 4-octet words (RFC 9197 §4.4) */
static __always_inline __u32 hm_tt_nodelen(__u32 tt)
{
	return hm_tt_words_before(tt, 22);
}

/**
 * hm_tt_slot_len() - bytes one node writes for a Trace-Type
 *
 * NodeLen * 4, plus the 4-octet opaque state snapshot header of bit 22
 * (RFC 9197 §4.4.2.13), which hopmark writes empty.
 */
static __always_inline __u32 hm_tt_slot_len(__u32 tt)
{
	return hm_tt_nodelen(tt) * 4 + ((tt & HM_IOAM_TT_OPAQUE) ? 4 : 0);
}

/**
 * hm_ioam_check_trace() - validate an IOAM Pre-allocated Trace option
 * @b:		copied frame
 * @blen:	bytes valid in @b
 * @opt:	offset of the option's type octet in @b
 * @opt_off:	offset of the option inside the Hop-by-Hop header
 * @loc:	filled on success
 *
 * RFC 9486 §2.1: the option is 4n-aligned in the Hop-by-Hop header.
 * RFC 9197 §4.4: Opt Data Len = 2 + 8 (trace header) + data, data a
 * multiple of 4 and at most %HM_IOAM_TRACE_DATA_MAX; NodeLen must match
 * the Trace-Type (the check Linux makes before writing); RemainingLen must
 * not exceed the data area, and the data it leaves filled (written from the
 * end by earlier nodes) must be whole node data entries of NodeLen words,
 * unless bit 22 makes entries variable in length. A trace that fails any
 * of these would be misread by every decoder downstream.
 *
 * Return: %HM_P_TRACE or %HM_P_MALFORMED.
 */
static __always_inline int hm_ioam_check_trace(const __u8 *b, __u32 blen, __u32 opt,
					       __u32 opt_off, struct hm_trace_loc *loc)
{
	__u32 opt_len = HM_B(b, opt + 1);
	__u32 t = opt + 4;
	__u32 data_len, tt;

	if (opt_off & 3)
		return HM_P_MALFORMED;
	if (opt_len < 10 || ((opt_len - 10) & 3))
		return HM_P_MALFORMED;
	data_len = opt_len - 10;
	if (data_len > HM_IOAM_TRACE_DATA_MAX)
		return HM_P_MALFORMED;
	if (opt + 2 + opt_len > blen)
		return HM_P_MALFORMED;

	tt = ((__u32)HM_B(b, t + 4) << 16) | ((__u32)HM_B(b, t + 5) << 8) | HM_B(b, t + 6);
	loc->flags_byte = HM_B(b, t + 2);
	loc->remlen_byte = HM_B(b, t + 3);
	loc->nodelen = loc->flags_byte >> 3;
	loc->remlen = loc->remlen_byte & 0x7f;
	if (loc->nodelen != hm_tt_nodelen(tt))
		return HM_P_MALFORMED;
	if (loc->remlen * 4 > data_len)
		return HM_P_MALFORMED;
	if (!(tt & HM_IOAM_TT_OPAQUE) && loc->nodelen &&
	    (data_len - loc->remlen * 4) % (loc->nodelen * 4))
		return HM_P_MALFORMED;

	loc->opt = opt;
	loc->opt_size = 2 + opt_len;
	loc->trace = t;
	loc->data = t + 8;
	loc->data_len = data_len;
	loc->trace_type = tt;
	loc->ns_id = ((__u16)HM_B(b, t) << 8) | HM_B(b, t + 1);
	return HM_P_TRACE;
}

/*
 * hm_pad_run_add() - @n more padding bytes in the current run; notes a
 * run longer than Linux accepts. @vl is the walk state of hm_ioam_parse().
 */
static __always_inline void hm_pad_run_add(volatile struct hm_trace_loc *vl, __u32 n)
{
	__u32 run = vl->w_pad_run + n;

	vl->w_pad_run = run;
	if (run > HM_LINUX_PAD_RUN_MAX)
		vl->pad_run_long = 1;
}

/*
 * hm_padn_nonzero() - whether the data of a PadN at @data in @b, @len
 * bytes, is not all zero (RFC 4942 §2.1.9.5: Linux drops such a PadN).
 * Only PadN of at most %HM_PADN_DATA_MAX bytes fit a padding run Linux
 * accepts, so only that many are read; longer ones break
 * %HM_LINUX_PAD_RUN_MAX anyway. Branch-free, so that the walk stays one
 * verifier path per step.
 */
static __always_inline __u32 hm_padn_nonzero(const __u8 *b, __u32 data, __u32 len)
{
	__u64 v = 0;
	__u32 k;

#pragma unroll
	for (k = 0; k < HM_PADN_DATA_MAX; k++)
		v |= (__u64)HM_B(b, data + k) << (8 * k);
	/*
	 * For @len <= 5 the mask keeps exactly the data bytes; a longer PadN
	 * breaks the run limit whatever this returns. @len & 7 keeps the
	 * shift below 64.
	 */
	return (v & ((1ULL << ((len & 7) * 8)) - 1)) != 0;
}

/**
 * hm_ioam_parse() - find the IOAM Pre-allocated Trace in a copied frame
 * @s:		scratch area whose @pkt holds the frame copied by
 *		hm_load_hdrs_*(): Ethernet + IPv6 + Hop-by-Hop
 * @blen:	bytes valid in @s->pkt
 * @mode:	%HM_PARSE_FIRST_TRACE or %HM_PARSE_ALL
 * @loc:	filled with the offsets of the first trace of a configured
 *		IOAM-Namespace, or else of the last trace walked
 *
 * Walks the Hop-by-Hop options (RFC 8200 §4.2 TLVs: Pad1 is one octet, all
 * others type, length, data) checking that each lies inside the header.
 * Other IOAM Option-Types are noted in @loc->ioam_seen and skipped. With
 * %HM_PARSE_ALL the walk goes to the end of the header, so that every TLV
 * is checked and the padding following the trace is known. The walk also
 * notes what Linux's limits look at (@loc->n_opts, @loc->pad_run_long,
 * @loc->padn_nonzero) but rejects nothing for them: a node forwards what
 * it is given. It takes at most %HM_OPT_ITER_MAX TLVs, every header a
 * Linux receiver with default sysctls accepts.
 *
 * A global (not inlined) function: the verifier checks it once, with
 * unknown arguments, instead of once per caller path, which keeps the
 * option walk cheap to verify.
 *
 * Return: enum hm_parse_ret.
 */
__attribute__((noinline))
int hm_ioam_parse(struct hm_scratch *s, __u32 blen, int mode, struct hm_trace_loc *loc)
{
	volatile struct hm_trace_loc *vl = loc;
	__u32 hbh = HM_OFF_HBH, hbh_len, off, type, len, i;
	const __u8 *b;
	int ret;

	if (!s || !loc)
		return HM_P_NONE;
	b = s->pkt;
	__builtin_memset(loc, 0, sizeof(*loc));
	if (blen < hbh + 2 || HM_B(b, HM_OFF_IP6_NEXTHDR) != HM_NEXTHDR_HOP)
		return HM_P_NONE;
	hbh_len = ((__u32)HM_B(b, hbh + 1) + 1) * 8;
	loc->hbh_len = hbh_len;
	loc->hbh_nexthdr = HM_B(b, hbh);
	if (hbh + hbh_len > blen)
		return HM_P_MALFORMED;
	vl->w_off = 2;

	/*
	 * The walk's state lives in *loc (memory the verifier does not
	 * track), so every iteration starts from the same verifier state
	 * whatever options came before, and the loop verifies in linear time.
	 */
	for (i = 0; i < HM_OPT_ITER_MAX; i++) {
		off = vl->w_off & 0xfff;
		if (off >= hbh_len)
			break;
		type = HM_B(b, hbh + off);
		if (type == HM_IPV6_TLV_PAD1) {
			hm_pad_run_add(vl, 1);
			vl->w_off = off + 1;
			if (vl->w_after)
				vl->pad_end = hbh + off + 1;
			continue;
		}
		if (off + 2 > hbh_len)
			return HM_P_MALFORMED;
		len = HM_B(b, hbh + off + 1);
		if (off + 2 + len > hbh_len)
			return HM_P_MALFORMED;
		vl->w_off = off + 2 + len;

		if (type == HM_IPV6_TLV_PADN) {
			hm_pad_run_add(vl, 2 + len);
			vl->padn_nonzero = vl->padn_nonzero |
					   hm_padn_nonzero(b, hbh + off + 2, len);
			if (vl->w_after)
				vl->pad_end = hbh + off + 2 + len;
			continue;
		}
		vl->w_after = 0;
		vl->n_opts = vl->n_opts + 1;
		if (type == HM_IPV6_TLV_IOAM) {
			vl->ioam_seen = 1;
			/*
			 * Several IOAM-Namespaces may trace the same packet
			 * (RFC 9197 §5): ours is the first trace of a
			 * configured namespace; until one is seen, the last
			 * trace walked stands for the packet (unknown, counted).
			 */
			if (!vl->w_known && len >= 2 &&
			    HM_B(b, hbh + off + 3) == HM_IOAM_OPT_PREALLOC_TRACE) {
				ret = hm_ioam_check_trace(b, blen, hbh + off, off, loc);
				if (ret != HM_P_TRACE)
					return ret;
				vl->w_found = 1;
				vl->w_known = !!hm_ns_cfg(loc->ns_id);
				vl->w_after = 1;
				vl->pad_start = hbh + off - (vl->w_pad_run & 0xfff);
				vl->pad_end = hbh + off + 2 + len;
				if (mode == HM_PARSE_FIRST_TRACE && vl->w_known)
					goto done;
			}
		}
		vl->w_pad_run = 0;
	}
	/*
	 * Every TLV was checked to end inside the header, so stopping short
	 * of its end means the walk ran out of steps.
	 */
	off = vl->w_off;
	if (off != hbh_len)
		return HM_P_WALK_LIMIT;
	if (!vl->w_found)
		return HM_P_NONE;
done:
	if (loc->hbh_nexthdr == HM_NEXTHDR_FRAGMENT)
		return HM_P_FRAGMENT;
	return HM_P_TRACE;
}

/**
 * hm_ioam_find() - the trace of a configured IOAM-Namespace, or why not
 * @s:		scratch area holding the copied frame (hm_load_hdrs_*())
 * @blen:	bytes valid in @s->pkt
 * @mode:	%HM_PARSE_FIRST_TRACE or %HM_PARSE_ALL
 * @loc:	filled as by hm_ioam_parse()
 * @ifindex:	interface the outcome is counted on
 *
 * The common first step of the transit and decapsulating programs: a
 * malformed trace, a fragment, a header longer than the walk and an
 * unknown IOAM-Namespace are each counted (HM_CNT_MALFORMED,
 * HM_CNT_FRAGMENT, HM_CNT_HBH_WALK_LIMIT, HM_CNT_UNKNOWN_NS) and the
 * packet is to be left untouched; a packet without a trace is not counted.
 *
 * Return: the namespace's settings, or NULL when the packet is not ours.
 */
static __always_inline struct hopmark_ns_cfg *
hm_ioam_find(struct hm_scratch *s, __u32 blen, int mode, struct hm_trace_loc *loc,
	     __u32 ifindex)
{
	struct hopmark_ns_cfg *ns;
	int ret;

	ret = hm_ioam_parse(s, blen, mode, loc);
	if (ret == HM_P_MALFORMED)
		hm_count(ifindex, HM_CNT_MALFORMED);
	else if (ret == HM_P_FRAGMENT)
		hm_count(ifindex, HM_CNT_FRAGMENT);
	else if (ret == HM_P_WALK_LIMIT)
		hm_count(ifindex, HM_CNT_HBH_WALK_LIMIT);
	if (ret != HM_P_TRACE)
		return NULL;
	ns = hm_ns_cfg(loc->ns_id);
	if (!ns)
		hm_count(ifindex, HM_CNT_UNKNOWN_NS);
	return ns;
}

/**
 * enum hm_fast_ret - outcome of hm_ioam_fast_hbh() and hm_ioam_fast()
 * @HM_FAST_GENERAL:	not the common layout, or not readable in place:
 *			the caller runs the general walk (hm_ioam_find())
 * @HM_FAST_TRACE:	a valid trace of a configured IOAM-Namespace, where
 *			the general walk would find it, see hm_ioam_fast()
 * @HM_FAST_NOT_HBH:	not Ethernet + IPv6 + Hop-by-Hop: not ours, as
 *			hm_load_hdrs_*() would have found
 */
enum hm_fast_ret {
	HM_FAST_GENERAL,
	HM_FAST_TRACE,
	HM_FAST_NOT_HBH,
};

/**
 * hm_ioam_fast_hbh() - whether a frame, read in place, may carry IOAM
 * @data:	first byte of the frame (xdp_md or __sk_buff data)
 * @data_end:	end of its linear part
 *
 * A dozen instructions for the packets that are not ours: an Ethernet
 * frame that is not IPv6, or IPv6 whose Next Header is not Hop-by-Hop.
 *
 * Return: %HM_FAST_NOT_HBH, or %HM_FAST_GENERAL when the frame may be
 * ours (or its first HM_OFF_HBH bytes are not in the linear part).
 */
static __always_inline int hm_ioam_fast_hbh(void *data, void *data_end)
{
	__u8 *p = data;

	if ((void *)(p + HM_OFF_HBH) > data_end)
		return HM_FAST_GENERAL;
	if (!hm_eth_ipv6(p) || p[HM_OFF_IP6_NEXTHDR] != HM_NEXTHDR_HOP)
		return HM_FAST_NOT_HBH;
	return HM_FAST_GENERAL;
}

/**
 * hm_ioam_fast() - the layout real traffic has, read in place
 * @data:	first byte of the frame, Ethernet + IPv6 + Hop-by-Hop
 *		(hm_ioam_fast_hbh() returned %HM_FAST_GENERAL)
 * @data_end:	end of its linear part
 * @loc:	on %HM_FAST_TRACE, filled as hm_ioam_parse() would in
 *		%HM_PARSE_FIRST_TRACE mode for the fields the transit
 *		programs read (offsets, lengths, Trace-Type, header octets)
 * @nsp:	on %HM_FAST_TRACE, the trace's IOAM-Namespace settings
 * @hop:	on %HM_FAST_TRACE, the IPv6 Hop Limit
 *
 * The layout Linux and hm_encap write (RFC 9486 §2.1: the option 4n
 * aligned): a Hop-by-Hop header, not followed by a Fragment header, whose
 * first option is a PadN of 0 or 4 data bytes and whose second is an IOAM
 * Pre-allocated Trace of a configured IOAM-Namespace, the whole header in
 * the linear part of the frame. The trace passes the checks of
 * hm_ioam_check_trace(). The general walk finds the same trace there, with
 * the same outcome; anything else (other options first, a malformed or
 * unknown trace, where a later trace may be ours) is left to it.
 *
 * Return: %HM_FAST_TRACE or %HM_FAST_GENERAL.
 */
static __always_inline int hm_ioam_fast(void *data, void *data_end, struct hm_trace_loc *loc,
					struct hopmark_ns_cfg **nsp, __u8 *hop)
{
	__u32 hbh_len, opt, opt_len, data_len, tt, nodelen, remlen;
	struct hopmark_ns_cfg *ns;
	__u8 *p = data, *o;
	__u16 ns_id;

	if ((void *)(p + HM_OFF_HBH + 16) > data_end)
		return HM_FAST_GENERAL;
	if (p[HM_OFF_HBH] == HM_NEXTHDR_FRAGMENT || p[HM_OFF_HBH + 2] != HM_IPV6_TLV_PADN)
		return HM_FAST_GENERAL;
	opt = 4 + (__u32)p[HM_OFF_HBH + 3];
	if (opt != 4 && opt != 8)
		return HM_FAST_GENERAL;
	hbh_len = ((__u32)p[HM_OFF_HBH + 1] + 1) * 8;
	if ((void *)(p + HM_OFF_HBH) + hbh_len > data_end)
		return HM_FAST_GENERAL;
	o = p + HM_OFF_HBH + opt;
	if ((void *)(o + 12) > data_end)
		return HM_FAST_GENERAL;
	if (o[0] != HM_IPV6_TLV_IOAM || o[3] != HM_IOAM_OPT_PREALLOC_TRACE)
		return HM_FAST_GENERAL;
	opt_len = o[1];
	if (opt_len < 10 || ((opt_len - 10) & 3))
		return HM_FAST_GENERAL;
	data_len = opt_len - 10;
	if (data_len > HM_IOAM_TRACE_DATA_MAX || opt + 2 + opt_len > hbh_len)
		return HM_FAST_GENERAL;
	tt = ((__u32)o[8] << 16) | ((__u32)o[9] << 8) | o[10];
	nodelen = o[6] >> 3;
	remlen = o[7] & 0x7f;
	if (nodelen != hm_tt_nodelen(tt) || remlen * 4 > data_len)
		return HM_FAST_GENERAL;
	if (!(tt & HM_IOAM_TT_OPAQUE) && nodelen &&
	    (data_len - remlen * 4) % (nodelen * 4))
		return HM_FAST_GENERAL;
	ns_id = ((__u16)o[4] << 8) | o[5];
	ns = hm_ns_cfg(ns_id);
	if (!ns)
		return HM_FAST_GENERAL;

	loc->hbh_len = hbh_len;
	loc->hbh_nexthdr = p[HM_OFF_HBH];
	loc->opt = HM_OFF_HBH + opt;
	loc->opt_size = 2 + opt_len;
	loc->trace = HM_OFF_HBH + opt + 4;
	loc->data = HM_OFF_HBH + opt + 12;
	loc->data_len = data_len;
	loc->trace_type = tt;
	loc->nodelen = nodelen;
	loc->remlen = remlen;
	loc->ns_id = ns_id;
	loc->flags_byte = o[6];
	loc->remlen_byte = o[7];
	*nsp = ns;
	*hop = p[HM_OFF_IP6_HOPLIM];
	return HM_FAST_TRACE;
}

/**
 * hm_load_hdrs_len() - bytes to copy for parsing
 * @b:		the first HM_OFF_HBH + 2 bytes of the frame, already copied
 * @pkt_len:	frame length in bytes
 *
 * Return: Ethernet + IPv6 + the whole Hop-by-Hop header (or what the frame
 * holds of it), 0 when the frame is not Ethernet + IPv6 + Hop-by-Hop.
 */
static __always_inline __u32 hm_load_hdrs_len(const __u8 *b, __u32 pkt_len)
{
	__u32 need;

	if (!hm_eth_ipv6(b) || b[HM_OFF_IP6_NEXTHDR] != HM_NEXTHDR_HOP)
		return 0;
	need = HM_OFF_HBH + ((__u32)b[HM_OFF_HBH + 1] + 1) * 8;
	if (need > pkt_len)
		need = pkt_len;
	return need;
}

/**
 * hm_load_hdrs_skb() - copy the headers of an skb into @b
 *
 * Return: bytes copied, 0 if the packet carries no Hop-by-Hop header.
 */
static __always_inline __u32 hm_load_hdrs_skb(struct __sk_buff *skb, __u8 *b)
{
	__u32 len;

	if (skb->len < HM_OFF_HBH + 2 ||
	    bpf_skb_load_bytes(skb, 0, b, HM_OFF_HBH + 2))
		return 0;
	len = hm_load_hdrs_len(b, skb->len);
	if (len < HM_OFF_HBH + 2 || len > HM_OFF_HBH + HM_HBH_MAX_LEN)
		return 0;
	if (bpf_skb_load_bytes(skb, 0, b, hm_len_1_to(len, HM_SCRATCH_LEN)))
		return 0;
	return len;
}

/**
 * hm_load_hdrs_xdp() - copy the headers of an XDP frame into @b
 *
 * Return: bytes copied, 0 if the packet carries no Hop-by-Hop header.
 */
static __always_inline __u32 hm_load_hdrs_xdp(struct xdp_md *ctx, __u8 *b)
{
	__u32 pkt_len = bpf_xdp_get_buff_len(ctx);
	__u32 len;

	if (pkt_len < HM_OFF_HBH + 2 ||
	    bpf_xdp_load_bytes(ctx, 0, b, HM_OFF_HBH + 2))
		return 0;
	len = hm_load_hdrs_len(b, pkt_len);
	if (len < HM_OFF_HBH + 2 || len > HM_OFF_HBH + HM_HBH_MAX_LEN)
		return 0;
	if (bpf_xdp_load_bytes(ctx, 0, b, hm_len_1_to(len, HM_SCRATCH_LEN)))
		return 0;
	return len;
}

#endif /* __HM_IOAM_PARSE_BPF_H */
