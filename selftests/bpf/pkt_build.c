// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pkt_build.c - frame builders of the BPF_PROG_TEST_RUN tests.
 *
 * Written from RFC 8200 (IPv6, extension headers, TLV options and their
 * padding), RFC 8754 (SRH), RFC 9486 (IOAM option in the Hop-by-Hop
 * header, 4n alignment) and RFC 9197 §4.4 (trace header); independent of
 * the BPF programs under test. Values are written big-endian by hand.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "bpf_test.h"

const __u8 hm_addr_src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0a, [15] = 1 };
const __u8 hm_addr_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0b, [15] = 1 };

void pkt_init(struct pkt *p)
{
	memset(p, 0, sizeof(*p));
}

void pkt_put(struct pkt *p, const void *d, size_t n)
{
	assert(p->len + n <= sizeof(p->b));
	memcpy(p->b + p->len, d, n);
	p->len += n;
}

void pkt_put_u8(struct pkt *p, __u8 v)
{
	pkt_put(p, &v, 1);
}

void pkt_put_be16(struct pkt *p, __u16 v)
{
	__u8 b[2];

	hm_put_be16(b, v);
	pkt_put(p, b, 2);
}

void pkt_put_be32(struct pkt *p, __u32 v)
{
	__u8 b[4];

	hm_put_be32(b, v);
	pkt_put(p, b, 4);
}

void pkt_eth(struct pkt *p, __u16 ethertype)
{
	static const __u8 dmac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	static const __u8 smac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

	pkt_put(p, dmac, 6);
	pkt_put(p, smac, 6);
	pkt_put_be16(p, ethertype);
}

void pkt_ipv6(struct pkt *p, __u8 nexthdr, __u8 hop_limit, const __u8 *dst)
{
	/* Version 6, Traffic Class 0, Flow Label. */
	pkt_put_be32(p, (6U << 28) | HM_T_FLOW_LABEL);
	pkt_put_be16(p, 0);
	pkt_put_u8(p, nexthdr);
	pkt_put_u8(p, hop_limit);
	pkt_put(p, hm_addr_src, 16);
	pkt_put(p, dst ? dst : hm_addr_dst, 16);
}

size_t hbh_begin(struct pkt *p, __u8 nexthdr)
{
	size_t off = p->len;

	pkt_put_u8(p, nexthdr);
	pkt_put_u8(p, 0);
	return off;
}

void opt_pad1(struct pkt *p)
{
	pkt_put_u8(p, HM_IPV6_TLV_PAD1);
}

void opt_padn(struct pkt *p, size_t total)
{
	assert(total >= 2);
	pkt_put_u8(p, HM_IPV6_TLV_PADN);
	pkt_put_u8(p, total - 2);
	while (total-- > 2)
		pkt_put_u8(p, 0);
}

void opt_raw(struct pkt *p, __u8 type, __u8 len, __u8 fill)
{
	pkt_put_u8(p, type);
	pkt_put_u8(p, len);
	while (len--)
		pkt_put_u8(p, fill);
}

void opt_align(struct pkt *p, size_t hbh_off, size_t rem)
{
	size_t need = (4 + rem - (p->len - hbh_off) % 4) % 4;

	if (need == 1)
		opt_pad1(p);
	else if (need > 1)
		opt_padn(p, need);
}

void hbh_end(struct pkt *p, size_t hbh_off)
{
	size_t need = (8 - (p->len - hbh_off) % 8) % 8;

	if (need == 1)
		opt_pad1(p);
	else if (need > 1)
		opt_padn(p, need);
	p->b[hbh_off + 1] = (p->len - hbh_off) / 8 - 1;
}

size_t trace_slot_len(__u32 type)
{
	return hm_ioam6_trace_nodelen(type) * 4 + ((type & HM_IOAM_TT_OPAQUE) ? 4 : 0);
}

void hm_prev_node_values(struct hm_ioam6_node_values *v)
{
	memset(v, 0, sizeof(*v));
	v->hop_limit = 65;
	v->node_id = 1;
	v->ingress_if = 0x0101;
	v->egress_if = 0x0102;
	v->ts_sec = 1700000000;
	v->ts_frac = 123456;
	v->transit_delay = 0x1000;
	v->ns_data = 0x0a0a0a0a;
	v->queue_depth = 0x200;
	v->csum_compl = 0x0c0c0c0c;
	v->node_id_wide = 0x01010101010101ULL;
	v->ingress_if_wide = 0x01010101;
	v->egress_if_wide = 0x01010102;
	v->ns_data_wide = 0x0b0b0b0b0b0b0b0bULL;
	v->buffer_occupancy = 0x300;
	v->opaque_len = 0;
	v->opaque_schema = 0xffffff;
}

void trace_init(struct trace_spec *ts, __u16 ns, __u32 type, int nslots, int nfilled)
{
	size_t slot = trace_slot_len(type);
	struct hm_ioam6_node_values prev;
	size_t i;
	int n;

	memset(ts, 0, sizeof(*ts));
	ts->ns = ns;
	ts->type = type;
	ts->nodelen = hm_ioam6_trace_nodelen(type);
	ts->ioam_type = HM_IOAM_OPT_PREALLOC_TRACE;
	ts->data_len = slot * nslots;
	assert(ts->data_len <= HM_IOAM_TRACE_DATA_MAX);
	ts->remlen = slot * (nslots - nfilled) / 4;
	for (i = 0; i < ts->data_len; i++)
		ts->data[i] = 0x40 + (i & 0x3f);
	hm_prev_node_values(&prev);
	for (n = 0; n < nfilled; n++) {
		prev.node_id = 100 + n;
		hm_ioam6_node_data_encode(ts->data + ts->remlen * 4 + n * slot, type, &prev);
	}
}

size_t opt_ioam(struct pkt *p, const struct trace_spec *ts)
{
	size_t off = p->len;
	int opt_len = ts->opt_len ? ts->opt_len : (int)(2 + 8 + ts->data_len);

	pkt_put_u8(p, HM_IPV6_TLV_IOAM);
	pkt_put_u8(p, opt_len);
	pkt_put_u8(p, 0);			/* reserved */
	pkt_put_u8(p, ts->ioam_type);
	pkt_put_be16(p, ts->ns);
	pkt_put_u8(p, (ts->nodelen << 3) | (ts->flags & 0x7));
	pkt_put_u8(p, ts->remlen & 0x7f);
	pkt_put_u8(p, ts->type >> 16);
	pkt_put_u8(p, ts->type >> 8);
	pkt_put_u8(p, ts->type);
	pkt_put_u8(p, 0);			/* reserved */
	pkt_put(p, ts->data, ts->data_len);
	return off;
}

void pkt_srh(struct pkt *p, __u8 nexthdr, int nsegs)
{
	int i;

	pkt_put_u8(p, nexthdr);
	pkt_put_u8(p, nsegs * 2);		/* Hdr Ext Len, 8-octet units */
	pkt_put_u8(p, 4);			/* Routing Type: SRH */
	pkt_put_u8(p, 0);			/* Segments Left: at the last segment */
	pkt_put_u8(p, nsegs - 1);		/* Last Entry */
	pkt_put_u8(p, 0);			/* Flags */
	pkt_put_be16(p, 0);			/* Tag */
	for (i = 0; i < nsegs; i++) {
		__u8 seg[16];

		/* Segment List[0] is the final destination, the IPv6 one. */
		memcpy(seg, hm_addr_dst, 16);
		if (i)
			seg[15] = 0x10 + i;
		pkt_put(p, seg, 16);
	}
}

void pkt_frag(struct pkt *p, __u8 nexthdr, __u16 offset, bool more)
{
	pkt_put_u8(p, nexthdr);
	pkt_put_u8(p, 0);
	pkt_put_be16(p, (offset << 3) | (more ? 1 : 0));
	pkt_put_be32(p, 0xcafe0001);		/* Identification */
}

static void pkt_payload(struct pkt *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pkt_put_u8(p, 0x80 + (i * 7 & 0x7f));
}

void pkt_udp(struct pkt *p, __u16 sport, __u16 dport, size_t payload)
{
	p->l4_off = p->len;
	p->l4_proto = HM_NH_UDP;
	pkt_put_be16(p, sport);
	pkt_put_be16(p, dport);
	pkt_put_be16(p, 8 + payload);
	pkt_put_be16(p, 0);
	pkt_payload(p, payload);
}

void pkt_tcp(struct pkt *p, __u16 sport, __u16 dport, size_t payload)
{
	p->l4_off = p->len;
	p->l4_proto = HM_NH_TCP;
	pkt_put_be16(p, sport);
	pkt_put_be16(p, dport);
	pkt_put_be32(p, 0x01020304);		/* sequence */
	pkt_put_be32(p, 0x05060708);		/* acknowledgement */
	pkt_put_be16(p, (5 << 12) | 0x018);	/* data offset 5, PSH|ACK */
	pkt_put_be16(p, 65535);			/* window */
	pkt_put_be16(p, 0);			/* checksum */
	pkt_put_be16(p, 0);			/* urgent */
	pkt_payload(p, payload);
}

void pkt_icmp6_echo(struct pkt *p, size_t payload)
{
	p->l4_off = p->len;
	p->l4_proto = HM_NH_ICMP6;
	pkt_put_u8(p, 128);			/* Echo Request */
	pkt_put_u8(p, 0);
	pkt_put_be16(p, 0);
	pkt_put_be16(p, 0x4242);		/* identifier */
	pkt_put_be16(p, 1);			/* sequence */
	pkt_payload(p, payload);
}

static __u32 csum_add(__u32 sum, const __u8 *d, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (d[i] << 8) | d[i + 1];
	if (n & 1)
		sum += d[n - 1] << 8;
	return sum;
}

__u16 pkt_csum16(const __u8 *d, size_t n)
{
	__u32 s = csum_add(0, d, n);

	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

void pkt_finish(struct pkt *p)
{
	__u8 *ip = p->b + HM_IP6_OFF;
	size_t l4_len;
	size_t csum_off;
	__u32 sum;
	__u8 ph[8];

	hm_put_be16(ip + 4, p->len - HM_EXT_OFF);
	if (!p->l4_off)
		return;
	l4_len = p->len - p->l4_off;
	csum_off = p->l4_off + (p->l4_proto == HM_NH_UDP ? 6 :
				p->l4_proto == HM_NH_TCP ? 16 : 2);
	hm_put_be16(p->b + csum_off, 0);
	/* RFC 8200 §8.1 pseudo-header. */
	sum = csum_add(0, ip + 8, 32);
	hm_put_be32(ph, l4_len);
	ph[4] = ph[5] = ph[6] = 0;
	ph[7] = p->l4_proto;
	sum = csum_add(sum, ph, 8);
	sum = csum_add(sum, p->b + p->l4_off, l4_len);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	if (!sum && p->l4_proto == HM_NH_UDP)
		sum = 0xffff;
	hm_put_be16(p->b + csum_off, sum);
}

size_t pkt_std_trace(struct pkt *p, const struct trace_spec *ts, __u8 hlim)
{
	size_t hbh, opt;

	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, HM_NH_HBH, hlim, NULL);
	hbh = hbh_begin(p, HM_NH_UDP);
	opt_padn(p, 2);
	opt = opt_ioam(p, ts);
	hbh_end(p, hbh);
	pkt_udp(p, 40000, 5001, 32);
	pkt_finish(p);
	return opt;
}

void pkt_std_plain(struct pkt *p, __u8 l4, __u8 hlim, size_t payload)
{
	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, l4, hlim, NULL);
	if (l4 == HM_NH_UDP)
		pkt_udp(p, 40000, 5001, payload);
	else if (l4 == HM_NH_TCP)
		pkt_tcp(p, 40001, 5201, payload);
	else
		pkt_icmp6_echo(p, payload);
	pkt_finish(p);
}

size_t field_off(__u32 type, int bit)
{
	size_t off = 0;
	int i;

	for (i = 0; i < bit && i < 22; i++) {
		if (!(type & HM_IOAM_TT_BIT(i)))
			continue;
		off += (i >= 8 && i <= 10) ? 8 : 4;
	}
	return off;
}

int hbh_walk(const __u8 *hbh, size_t len, struct tlv *tlvs, int max)
{
	size_t end, off = 2;
	int n = 0;

	if (len < 2)
		return -1;
	end = (hbh[1] + 1) * 8;
	if (end > len)
		return -1;
	while (off < end) {
		struct tlv t = { .off = off, .type = hbh[off] };
		size_t i;

		if (t.type != HM_IPV6_TLV_PAD1) {
			if (off + 2 > end)
				return -1;
			t.len = hbh[off + 1];
			if (off + 2 + t.len > end)
				return -1;
			if (t.type == HM_IPV6_TLV_PADN)
				for (i = 0; i < t.len; i++)
					if (hbh[off + 2 + i])
						return -1;
		}
		if (n < max)
			tlvs[n] = t;
		n++;
		off += t.type == HM_IPV6_TLV_PAD1 ? 1 : 2 + t.len;
	}
	return n;
}

bool hbh_linux_accepts(const __u8 *hbh, size_t len, char *why, size_t why_len)
{
	size_t end, off = 2, i;
	int opts = 0, run = 0;

	/* ipv6_parse_hopopts(): 8 bytes, then the whole header, in the packet. */
	if (len < 8 || (size_t)(hbh[1] + 1) * 8 > len) {
		snprintf(why, why_len, "header of %zu bytes truncated (%zu available)",
			 len < 2 ? 0 : (size_t)(hbh[1] + 1) * 8, len);
		return false;
	}
	end = (hbh[1] + 1) * 8;
	while (off < end) {
		__u8 type = hbh[off];
		size_t optlen;

		if (type == HM_IPV6_TLV_PAD1) {
			if (++run > HM_T_LINUX_PAD_RUN_MAX) {
				snprintf(why, why_len, "padding run of %d bytes at offset %zu",
					 run, off);
				return false;
			}
			off++;
			continue;
		}
		if (off + 2 > end || off + 2 + hbh[off + 1] > end) {
			snprintf(why, why_len, "option 0x%02x at offset %zu overruns the header",
				 type, off);
			return false;
		}
		optlen = 2 + hbh[off + 1];
		if (type == HM_IPV6_TLV_PADN) {
			run += optlen;
			if (run > HM_T_LINUX_PAD_RUN_MAX) {
				snprintf(why, why_len, "padding run of %d bytes at offset %zu",
					 run, off);
				return false;
			}
			for (i = 2; i < optlen; i++) {
				if (hbh[off + i]) {
					snprintf(why, why_len,
						 "PadN at offset %zu: data byte %zu is 0x%02x",
						 off, i - 2, hbh[off + i]);
					return false;
				}
			}
			off += optlen;
			continue;
		}
		if (++opts > HM_T_LINUX_OPTS_MAX) {
			snprintf(why, why_len, "option %d (type 0x%02x at offset %zu) is over %d",
				 opts, type, off, HM_T_LINUX_OPTS_MAX);
			return false;
		}
		if (type == 0x05 && optlen != 4) {
			snprintf(why, why_len, "Router Alert at offset %zu: length %zu",
				 off, optlen - 2);
			return false;
		}
		if (type == HM_IPV6_TLV_IOAM && ((HM_IP6_LEN + off) & 3)) {
			snprintf(why, why_len, "IOAM option at offset %zu: not 4n-aligned", off);
			return false;
		}
		if (type != 0x05 && type != HM_IPV6_TLV_IOAM && (type & 0xc0)) {
			snprintf(why, why_len, "unknown option 0x%02x at offset %zu: action %u",
				 type, off, type >> 6);
			return false;
		}
		run = 0;
		off += optlen;
	}
	return true;
}

size_t hbh_steps(struct pkt *p, size_t hbh_off, const struct hbh_steps_spec *sp,
		 const struct trace_spec *ts, int *tlvs)
{
	size_t opt = 0, at;
	int i, k, n = 0, tail = sp->tail;
	__u8 d;

	for (k = 0; k < sp->lead; k++, n++)
		opt_pad1(p);
	for (i = 0; i < sp->nopts; i++, n++) {
		if (i) {
			for (k = 0; k < sp->run; k++, n++)
				opt_pad1(p);
		}
		if (i == sp->ioam_at) {
			assert((p->len - hbh_off) % 4 == 0);
			opt = opt_ioam(p, ts);
			continue;
		}
		/* Offset right after this option with no data. */
		at = p->len - hbh_off + 2;
		if (i + 1 == sp->ioam_at)
			d = (4 - (at + sp->run) % 4) % 4;
		else if (i + 1 == sp->nopts)
			d = (8 - (at + (tail < 0 ? 0 : tail)) % 8) % 8;
		else
			d = i % 4;
		opt_raw(p, 0x1e, d, 0xa0 + i);
	}
	if (tail < 0)
		tail = (8 - (p->len - hbh_off) % 8) % 8;
	for (k = 0; k < tail; k++, n++)
		opt_pad1(p);
	assert((p->len - hbh_off) % 8 == 0);
	p->b[hbh_off + 1] = (p->len - hbh_off) / 8 - 1;
	if (tlvs)
		*tlvs = n;
	return opt;
}
