// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * budget.c - the in-band metadata budget model of seed 000 and the MTU fit
 * of configured INT-MD and IOAM traces (budget.h).
 */
#include <errno.h>

#include "budget/budget.h"
#include "int/int.h"
#include "ioam/ioam6.h"
#include "ipv6/ipv6.h"

/* Smallest MTU an IPv4 link may have (RFC 791); IPv6's is larger. */
#define HM_BUDGET_MTU_MIN	68

__u64 hm_budget_bytes(__u32 fixed, __u32 per_hop, __u32 hops)
{
	return (__u64)fixed + (__u64)hops * per_hop;
}

long hm_budget_max_hops(__u32 fixed, __u32 per_hop, __u32 budget)
{
	if (budget < fixed)
		return -1;
	if (!per_hop)
		return HM_BUDGET_HOPS_UNLIMITED;
	return (long)((budget - fixed) / per_hop);
}

double hm_budget_overhead_pct(__u64 added, __u64 size)
{
	if (!size)
		return 0;
	/* The seed's order: the ratio first, then the percentage. */
	return (double)added / (double)size * 100.0;
}

__u64 hm_budget_pps(double rate_bps, double pkt_bytes)
{
	double pps;

	if (pkt_bytes <= 0 || rate_bps < 0)
		return 0;
	pps = rate_bps / 8 / pkt_bytes;
	return (__u64)pps;
}

double hm_budget_export_gbps(__u64 pps, double fraction, __u32 record)
{
	return (double)pps * fraction * record * 8 / 1e9;
}

__u32 hm_budget_ioam_prealloc_bytes(__u32 data_len)
{
	__u32 len = HM_BUDGET_HBH_HDR + HM_BUDGET_HBH_ALIGN_PAD + HM_IOAM_OPT_HDR_LEN +
		    HM_IOAM_TRACE_HDR_LEN + data_len;

	/* RFC 8200 §4.3: the header is a multiple of 8 octets, PadN ends it. */
	return (len + 7) & ~7U;
}

long hm_budget_ioam_prealloc_max_hops(__u32 node_len, __u32 budget)
{
	long n;

	if (!node_len || hm_budget_ioam_prealloc_bytes(0) > budget)
		return -1;
	n = HM_IOAM_TRACE_DATA_MAX / node_len;
	while (n > 0 && hm_budget_ioam_prealloc_bytes(n * node_len) > budget)
		n--;
	return n;
}

__u32 hm_budget_pint_bytes(__u32 bits)
{
	return (bits + 7) / 8;
}

__u64 hm_budget_int_md_bytes(__u32 fixed, __u32 hop_ml, __u32 hops, __u32 npt)
{
	__u32 f = fixed + (npt == 2 ? HM_BUDGET_NPT2_UDP : 0);

	return hm_budget_bytes(f, hop_ml * HM_BUDGET_WORD, hops);
}

int hm_budget_int_md_fit(__u16 bitmap, __u32 max_hops, __u32 npt, __u32 carrier,
			 __u32 mtu, struct hm_budget_fit *fit)
{
	__u32 hop_ml = int_bitmap_words(bitmap);
	__u32 fixed = INT_FIXED_LEN + (npt == 2 ? HM_BUDGET_NPT2_UDP : 0);

	if (npt > 2 || mtu < HM_BUDGET_MTU_MIN || hop_ml > INT_HOP_ML_MAX)
		return -EINVAL;
	fit->bytes = hm_budget_int_md_bytes(INT_FIXED_LEN, hop_ml, max_hops, npt);
	fit->carrier = carrier;
	fit->mtu = mtu;
	fit->hops = max_hops;
	fit->fit_hops = carrier > mtu ? -1 :
			hm_budget_max_hops(fixed, hop_ml * HM_BUDGET_WORD, mtu - carrier);
	fit->fits = (__u64)carrier + fit->bytes <= mtu;
	return fit->fits;
}

int hm_budget_ioam_prealloc_fit(__u32 trace_type, __u32 data_len, __u32 mtu,
				struct hm_budget_fit *fit)
{
	__u32 node_len = hm_ioam6_node_data_len(trace_type);

	if (!node_len || data_len < 4 || data_len % 4 || data_len > HM_IOAM_TRACE_DATA_MAX ||
	    mtu < HM_BUDGET_MTU_MIN)
		return -EINVAL;
	fit->bytes = hm_budget_ioam_prealloc_bytes(data_len);
	fit->carrier = HM_IPV6_HDR_LEN;
	fit->mtu = mtu;
	fit->hops = data_len / node_len;
	fit->fit_hops = mtu < HM_IPV6_HDR_LEN ? -1 :
			hm_budget_ioam_prealloc_max_hops(node_len, mtu - HM_IPV6_HDR_LEN);
	fit->fits = HM_IPV6_HDR_LEN + fit->bytes <= mtu;
	return fit->fits;
}
