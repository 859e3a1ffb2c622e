// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * corpus_gen.c - writes the seed corpus of the harnesses that have a
 * generated one (`make fuzz-corpus`, then commit fuzz/corpus/): small
 * inputs that each take a decoder down one meaningful path, built with
 * libhopmark's own encoders and printers so that they are what a node, the
 * agent or a capture produces. The output is the same on every run.
 *
 * Usage: corpus_gen DIR   (writes DIR/<harness>/<name>)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/byteorder.h"
#include "common/ether.h"
#include "fuzz_input.h"
#include "hopmark.h"
#include "int/int_decode.h"
#include "pbt/pbt_maps.h"
#include "../collector/tests/ipfix_craft.h"
#include "pint/kll.h"
#include "pint/pint_latency.h"
#include "pint/pint_path.h"
#include "pint/pint_query.h"
#include "pint/pint_sink.h"
#include "pint/pint_util.h"
#include "postcard/postcard.h"
#include "srv6/srh.h"

static const char *out_dir;

static void put(const char *harness, const char *name, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, harness);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, harness, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* ---------------- packets ---------------- */

/* IPv6 header: flow label 0x12345, 2001:db8:1::1 -> 2001:db8:5::1, hop limit 61. */
static size_t ipv6_hdr(__u8 *p, __u8 nexthdr)
{
	static const __u8 src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };
	static const __u8 dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 5, [15] = 1 };

	memset(p, 0, 40);
	hm_put_be32(p, 6U << 28 | 0x12345);
	p[6] = nexthdr;
	p[7] = 61;
	memcpy(p + 8, src, 16);
	memcpy(p + 24, dst, 16);
	return 40;
}

/* Fill in the payload length once the packet is complete. */
static size_t ipv6_done(__u8 *p, size_t len)
{
	hm_put_be16(p + 4, len - 40);
	return len;
}

/* UDP 40000 -> 9999, 8 octets of header and @n of payload. */
static size_t udp(__u8 *p, size_t n)
{
	hm_put_be16(p, 40000);
	hm_put_be16(p + 2, 9999);
	hm_put_be16(p + 4, 8 + n);
	hm_put_be16(p + 6, 0);
	memset(p + 8, 0x5a, n);
	return 8 + n;
}

/*
 * A Hop-by-Hop header holding @opts (each IOAM option 4n-aligned by the
 * caller), padded with PadN to a multiple of 8 octets.
 */
static size_t hbh(__u8 *p, __u8 nexthdr, const __u8 *opts, size_t n)
{
	size_t len = 2 + n, pad = (8 - len % 8) % 8;

	p[0] = nexthdr;
	memcpy(p + 2, opts, n);
	if (pad == 1) {
		p[len] = HM_IPV6_TLV_PAD1;
	} else if (pad) {
		p[len] = HM_IPV6_TLV_PADN;
		p[len + 1] = pad - 2;
		memset(p + len + 2, 0, pad - 2);
	}
	len += pad;
	p[1] = len / 8 - 1;
	return len;
}

/* PadN of 2 then an IOAM option of @type with @data: starts at offset 4 of the header. */
static size_t ioam_opt(__u8 *p, __u8 type, const __u8 *data, size_t n)
{
	p[0] = HM_IPV6_TLV_PADN;
	p[1] = 0;
	p[2] = HM_IPV6_TLV_IOAM;
	p[3] = 2 + n;
	p[4] = 0;		/* Reserved */
	p[5] = type;
	memcpy(p + 6, data, n);
	return 6 + n;
}

static struct hm_ioam6_node_values node(unsigned int i)
{
	struct hm_ioam6_node_values v = {
		.hop_limit = 64 - i, .node_id = 10 + i, .ingress_if = 100 + i,
		.egress_if = 200 + i, .ts_sec = 1700000000,
		.ts_frac = 250 * i + 7,		/* microseconds, as Linux writes it */
		.transit_delay = 5000 + 100 * i, .ns_data = 0xdead0000 + i,
		.queue_depth = 3 * i, .csum_compl = 0xffffffff, .node_id_wide = 0x1000 + i,
		.ingress_if_wide = 0x10000 + i, .egress_if_wide = 0x20000 + i,
		.ns_data_wide = 0xabcdef0000ULL + i, .buffer_occupancy = 77 * i,
		.opaque_len = 0, .opaque_schema = 0xffffff,
	};

	return v;
}

/*
 * An IOAM Pre-allocated Trace option data (after Reserved and Option-Type):
 * namespace, NodeLen for @tt, @free empty slots then @n nodes, most recent
 * first (RFC 9197 §4.4).
 */
static size_t trace_data(__u8 *p, __u16 ns, __u32 tt, unsigned int free, unsigned int n,
			 int overflow)
{
	__u32 nl = hm_ioam6_trace_nodelen(tt), off = 8 + free * nl * 4;
	struct hm_ioam6_node_values v;
	unsigned int i;

	hm_put_be16(p, ns);
	p[2] = nl << 3 | (overflow ? HM_IOAM_TRACE_F_OVERFLOW : 0);
	p[3] = free * nl;
	p[4] = tt >> 16;
	p[5] = tt >> 8;
	p[6] = tt;
	p[7] = 0;
	memset(p + 8, 0, free * nl * 4);
	for (i = n; i > 0; i--) {
		v = node(i);
		off += hm_ioam6_node_data_encode(p + off, tt, &v);
	}
	return off;
}

/* A Direct Export option's data (RFC 9326 §3.2) with @extra octets after the header. */
static size_t dex_data(__u8 *p, __u16 ns, __u8 ext, __u32 tt, const __u8 *extra, size_t n)
{
	hm_put_be16(p, ns);
	p[2] = 0;
	p[3] = ext;
	p[4] = tt >> 16;
	p[5] = tt >> 8;
	p[6] = tt;
	p[7] = 0;
	memcpy(p + 8, extra, n);
	return 8 + n;
}

/* An IPv6/UDP packet whose Hop-by-Hop header holds one IOAM option. */
static size_t pkt_with(__u8 *p, __u8 type, const __u8 *data, size_t n)
{
	__u8 opts[256];
	size_t len = ipv6_hdr(p, HM_NEXTHDR_HOP), on;

	on = ioam_opt(opts, type, data, n);
	len += hbh(p + len, 17, opts, on);
	len += udp(p + len, 16);
	return ipv6_done(p, len);
}

/* @mode, then @n octets: one input of a harness whose first octet chooses. */
static void put_mode(const char *harness, const char *name, __u8 mode, const __u8 *p,
		     size_t n)
{
	__u8 buf[4096];

	buf[0] = mode;
	memcpy(buf + 1, p, n);
	put(harness, name, buf, n + 1);
}

/* ---------------- fuzz_ioam_decode, fuzz_capture ---------------- */

static const __u8 dex_lsb_extra[8] = { 0, 0, 0, 0x15, 0, 0, 0, 0x07 };

static void gen_ioam_decode(void)
{
	__u8 p[1024], d[256];
	size_t n;

	/* A DEX option whose Extension-Flags 0x03 count from the low bit. */
	n = dex_data(d, 123, 0x03, 0x800000, dex_lsb_extra, 8);
	n = pkt_with(p, HM_IOAM_OPT_DEX, d, n);
	put_mode("ioam_decode", "dex-ext-0x03.bin", 0, p, n);
	/* A trace of every field and a 0-length opaque state snapshot, 2 nodes. */
	n = trace_data(d, 7, 0xfff002, 0, 2, 0);
	n = pkt_with(p, HM_IOAM_OPT_PREALLOC_TRACE, d, n);
	put_mode("ioam_decode", "trace-all-fields.bin", 0, p, n);
	/* The option alone, full, Overflow set. */
	n = trace_data(d + 4, 9, 0xc00000, 0, 4, 1);
	d[0] = HM_IPV6_TLV_IOAM;
	d[1] = 2 + n;
	d[2] = 0;
	d[3] = HM_IOAM_OPT_PREALLOC_TRACE;
	put_mode("ioam_decode", "opt-overflow.bin", 1, d, n + 4);
}

static size_t eth(__u8 *f, const __u16 *tags, unsigned int ntags, const __u8 *ip, size_t n)
{
	size_t o = 12;
	unsigned int i;

	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	for (i = 0; i < ntags; i++, o += 4) {
		hm_put_be16(f + o, tags[i]);
		hm_put_be16(f + o + 2, 10 + i);
	}
	hm_put_be16(f + o, HM_ETH_P_IPV6);
	memcpy(f + o + 2, ip, n);
	return o + 2 + n;
}

static void gen_capture(void)
{
	static const __u16 qinq[2] = { HM_ETH_P_8021AD, HM_ETH_P_8021Q };
	static const __u8 flow_seq[8] = { 0, 0, 0x30, 0x39, 0, 0, 0, 42 };
	__u8 ip[1024], f[1100], d[256], opts[256];
	size_t n, fn, on;

	n = trace_data(d, 123, 0xf00000, 2, 2, 0);
	n = pkt_with(ip, HM_IOAM_OPT_PREALLOC_TRACE, d, n);
	fn = eth(f, NULL, 0, ip, n);
	put_mode("capture", "eth-trace.bin", 0, f, fn);

	/* Flow ID 12345 and Sequence Number 42 behind an 802.1ad + 802.1Q stack. */
	n = dex_data(d, 123, HM_IOAM_DEX_EXT_FLOW_ID | HM_IOAM_DEX_EXT_SEQ, 0xf00000, flow_seq, 8);
	n = pkt_with(ip, HM_IOAM_OPT_DEX, d, n);
	fn = eth(f, qinq, 2, ip, n);
	put_mode("capture", "eth-qinq-dex-flow-seq.bin", 0, f, fn);

	/* Linux cooked v1: DEX with Extension-Flags 0x03 and 8 more octets. */
	n = dex_data(d, 123, 0x03, 0x800000, dex_lsb_extra, 8);
	n = pkt_with(ip, HM_IOAM_OPT_DEX, d, n);
	memset(f, 0, 16);
	hm_put_be16(f + 2, 1);
	hm_put_be16(f + 4, 6);
	hm_put_be16(f + 14, HM_ETH_P_IPV6);
	memcpy(f + 16, ip, n);
	put_mode("capture", "sll-dex-ext-0x03.bin", 1, f, 16 + n);

	/*
	 * Linux cooked v2: an E2E option (sequence and seconds), then a DEX
	 * option that announces a Flow ID it does not have room for.
	 */
	on = ioam_opt(opts, HM_IOAM_OPT_E2E,
		      (const __u8 *)"\x00\x7b\x60\x00\x00\x00\x00\x05\x65\x53\xf1\x00", 12);
	n = dex_data(d, 124, HM_IOAM_DEX_EXT_FLOW_ID, 0x800000, NULL, 0);
	on += ioam_opt(opts + on, HM_IOAM_OPT_DEX, d, n);
	n = ipv6_hdr(ip, HM_NEXTHDR_HOP);
	n += hbh(ip + n, 17, opts, on);
	n += udp(ip + n, 4);
	n = ipv6_done(ip, n);
	memset(f, 0, 20);
	hm_put_be16(f, HM_ETH_P_IPV6);
	hm_put_be32(f + 4, 3);
	memcpy(f + 20, ip, n);
	put_mode("capture", "sll2-e2e-dex-short.bin", 2, f, 20 + n);

	/* Raw IP: an IPv4 packet (skipped), and POT + Incremental Trace. */
	memcpy(f, "\x45\x00\x00\x1c\x00\x01\x40\x00\x40\x11\x00\x00\x0a\x00\x00\x01"
		  "\x0a\x00\x00\x02\x9c\x40\x27\x0f\x00\x08\x00\x00", 28);
	put_mode("capture", "raw-ipv4.bin", 3, f, 28);
	on = ioam_opt(opts, HM_IOAM_OPT_POT, (const __u8 *)"\x00\x7b\x00\x00", 4);
	n = trace_data(d, 123, 0x800000, 1, 1, 0);
	on += ioam_opt(opts + on, HM_IOAM_OPT_INCREMENTAL_TRACE, d, n);
	n = ipv6_hdr(ip, HM_NEXTHDR_HOP);
	n += hbh(ip + n, 59, opts, on);
	n = ipv6_done(ip, n);
	put_mode("capture", "raw-pot-incremental.bin", 3, ip, n);

	/* Raw IPv6: a DEX option of 6 data octets, shorter than its header. */
	n = pkt_with(ip, HM_IOAM_OPT_DEX, (const __u8 *)"\x00\x7b\x00\x00\x80\x00", 6);
	put_mode("capture", "ipv6-dex-6-octets.bin", 4, ip, n);

	/* A link type decode refuses. */
	put_mode("capture", "ieee802-11.bin", 5, f, 24);

	/* DEX option data alone: a Sequence Number only; unassigned bits with room. */
	n = dex_data(d, 5, HM_IOAM_DEX_EXT_SEQ, 0xc00000, flow_seq + 4, 4);
	put_mode("capture", "dex-seq-only.bin", 6, d, n);
	n = dex_data(d, 5, 0x3f, 0xc00000, flow_seq, 8);
	put_mode("capture", "dex-unassigned-bits.bin", 6, d, n);
}

/* ---------------- fuzz_record_json ---------------- */

static void put_line(const char *harness, const char *name, void (*print)(FILE *, const void *),
		     const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	print(f, arg);
	fclose(f);
	put(harness, name, buf, len);
	free(buf);
}

static void print_record(FILE *f, const void *r)
{
	hm_record_print_json(f, r);
}

static void print_postcard(FILE *f, const void *pc)
{
	hm_postcard_print_json(f, pc);
}

static void gen_record_json(void)
{
	static struct hm_record r;
	struct hm_postcard pc = { .type = HM_POSTCARD_DEX, .node_id = 7 };
	__u8 ip[1024], d[256];
	size_t n;

	n = trace_data(d, 123, 0xf00000, 1, 3, 0);
	n = pkt_with(ip, HM_IOAM_OPT_PREALLOC_TRACE, d, n);
	if (hm_record_from_packet(ip, n, 1700000000123456789ULL, &r))
		exit(1);
	r.ifindex = 4;
	r.sink_if_id = 2;
	r.sink_node_id = 5;
	put_line("record_json", "sink-3-hops.json", print_record, &r);

	/* Every field, wide ones included, and a 0-length opaque state snapshot. */
	n = trace_data(d, 7, 0xfff002 | HM_IOAM_TT_OPAQUE, 0, 2, 1);
	n = pkt_with(ip, HM_IOAM_OPT_PREALLOC_TRACE, d, n);
	if (hm_record_from_packet(ip, n, 1700000000000000000ULL, &r))
		exit(1);
	put_line("record_json", "capture-all-fields-overflow.json", print_record, &r);

	/* No node wrote yet: every slot free. */
	n = trace_data(d, 1, 0x800000, 4, 0, 0);
	n = pkt_with(ip, HM_IOAM_OPT_PREALLOC_TRACE, d, n);
	if (hm_record_from_packet(ip, n, 1, &r))
		exit(1);
	put_line("record_json", "no-hop-yet.json", print_record, &r);

	/* A postcard line of the same socket: not a record. */
	put_line("record_json", "postcard.json", print_postcard, &pc);
}

/* ---------------- fuzz_postcard ---------------- */

/* Serialise @pc as fuzz_input.h says, with its three buffers. */
static void put_postcard(const char *name, const struct hm_postcard *pc)
{
	__u8 buf[2048];
	size_t n = FUZZ_PC_HDR_LEN;

	memset(buf, 0, FUZZ_PC_HDR_LEN);
	buf[0] = pc->type;
	buf[1] = (pc->node_data ? FUZZ_PC_HAS_NODE_DATA : 0) |
		 (pc->option ? FUZZ_PC_HAS_OPTION : 0) | (pc->headers ? FUZZ_PC_HAS_HEADERS : 0);
	fuzz_put_be(buf + 2, 2, pc->present);
	buf[4] = pc->omit;
	buf[5] = pc->node_data_len;
	buf[6] = pc->option_len;
	fuzz_put_be(buf + 7, 3, pc->trace_type);
	fuzz_put_be(buf + 10, 2, pc->ns_id);
	fuzz_put_be(buf + 12, 4, pc->flow_id);
	fuzz_put_be(buf + 16, 4, pc->seq);
	fuzz_put_be(buf + 20, 8, pc->ts_ns);
	fuzz_put_be(buf + 28, 4, pc->ifindex);
	fuzz_put_be(buf + 32, 4, pc->node_id);
	fuzz_put_be(buf + 36, 8, pc->node_id_wide);
	fuzz_put_be(buf + 44, 4, pc->pkt_len);
	memcpy(buf + n, pc->node_data, pc->node_data_len);
	n += pc->node_data_len;
	memcpy(buf + n, pc->option, pc->option_len);
	n += pc->option_len;
	memcpy(buf + n, pc->headers, pc->headers_len);
	n += pc->headers_len;
	put("postcard", name, buf, n);
}

static void gen_postcard(void)
{
	static const __u8 flow_seq[8] = { 0, 0, 0x30, 0x39, 0, 0, 0, 42 };
	struct hm_ioam6_node_values v = node(1);
	__u8 nd[64], ip[1024], d[256], opt[256];
	struct hm_postcard pc;
	size_t n, hl;

	/* DEX: this node's data for trace type 0xf00000, the packet's headers. */
	n = dex_data(d, 123, HM_IOAM_DEX_EXT_FLOW_ID | HM_IOAM_DEX_EXT_SEQ, 0xf00000, flow_seq, 8);
	hl = pkt_with(ip, HM_IOAM_OPT_DEX, d, n);
	memset(&pc, 0, sizeof(pc));
	pc.type = HM_POSTCARD_DEX;
	pc.present = HM_POSTCARD_F_TS | HM_POSTCARD_F_IFINDEX | HM_POSTCARD_F_NS |
		     HM_POSTCARD_F_FLOW_ID | HM_POSTCARD_F_SEQ | HM_POSTCARD_F_TRACE_TYPE |
		     HM_POSTCARD_F_PKT_LEN;
	pc.ts_ns = 1700000000000000042ULL;
	pc.ifindex = 3;
	pc.node_id = 11;
	pc.ns_id = 123;
	pc.flow_id = 12345;
	pc.seq = 42;
	pc.trace_type = 0xf00000;
	pc.node_data_len = hm_ioam6_node_data_encode(nd, 0xf00000, &v);
	pc.node_data = nd;
	pc.headers = ip;
	pc.headers_len = hl;
	pc.pkt_len = hl;
	put_postcard("dex-node-data-headers.bin", &pc);
	/* The same with the node's wide ID and node data and flow left out. */
	pc.present |= HM_POSTCARD_F_NODE_ID_WIDE;
	pc.node_id_wide = 0x123456789aULL;
	pc.omit = HM_POSTCARD_FIELD_NODE_DATA | HM_POSTCARD_FIELD_FLOW;
	put_postcard("dex-omit-node-data-flow.bin", &pc);

	/* An Incremental Trace ending here, option from its IPv6 option type octet. */
	n = trace_data(d, 123, 0xc00000, 0, 2, 0);
	opt[0] = HM_IPV6_TLV_IOAM;
	opt[1] = 2 + n;
	opt[2] = 0;
	opt[3] = HM_IOAM_OPT_INCREMENTAL_TRACE;
	memcpy(opt + 4, d, n);
	opt[4 + 3] = 3;		/* RemainingLen: room not yet in the packet */
	memset(&pc, 0, sizeof(pc));
	pc.type = HM_POSTCARD_TRACE;
	pc.present = HM_POSTCARD_F_TS | HM_POSTCARD_F_NS;
	pc.ns_id = 123;
	pc.node_id = HM_IOAM_U24_UNAVAILABLE;
	pc.option = opt;
	pc.option_len = 4 + n;
	hl = pkt_with(ip, HM_IOAM_OPT_INCREMENTAL_TRACE, d, n);
	pc.headers = ip;
	pc.headers_len = hl;
	put_postcard("trace-incremental.bin", &pc);

	/*
	 * Edge-to-Edge from its IOAM Option-Type octet (RFC 9197 §4.6):
	 * namespace 123, IOAM-E2E-Type 64-bit sequence and both timestamps,
	 * then sequence number 2^32 + 2, seconds, fraction.
	 */
	opt[0] = HM_IOAM_OPT_E2E;
	hm_put_be16(opt + 1, 123);
	hm_put_be16(opt + 3, HM_IOAM_E2E_SEQ64 | HM_IOAM_E2E_TS_SEC | HM_IOAM_E2E_TS_FRAC);
	hm_put_be32(opt + 5, 1);
	hm_put_be32(opt + 9, 2);
	hm_put_be32(opt + 13, 1700000000);
	hm_put_be32(opt + 17, 0x10000);
	memset(&pc, 0, sizeof(pc));
	pc.type = HM_POSTCARD_E2E;
	pc.present = HM_POSTCARD_F_NS | HM_POSTCARD_F_SEQ;
	pc.ns_id = 123;
	pc.seq = 2;
	pc.option = opt;
	pc.option_len = 21;
	put_postcard("e2e-seq64-timestamps.bin", &pc);

	/* SRH O-flag: the packet's SRH of two segments (RFC 8754 §2). */
	hl = ipv6_hdr(ip, HM_NEXTHDR_ROUTING);
	ip[hl] = 17;
	ip[hl + 1] = 4;			/* Hdr Ext Len: 2 segments */
	ip[hl + 2] = HM_SRH_ROUTING_TYPE;
	ip[hl + 3] = 1;			/* Segments Left */
	ip[hl + 4] = 1;			/* Last Entry */
	ip[hl + 5] = HM_SRH_FLAG_O;
	hm_put_be16(ip + hl + 6, 7);	/* Tag */
	memcpy(ip + hl + 8, ip + 24, 16);
	memcpy(ip + hl + 24, ip + 8, 16);
	hl += 40;
	hl += udp(ip + hl, 8);
	hl = ipv6_done(ip, hl);
	memset(&pc, 0, sizeof(pc));
	pc.type = HM_POSTCARD_OFLAG;
	pc.present = HM_POSTCARD_F_TS | HM_POSTCARD_F_IFINDEX | HM_POSTCARD_F_PKT_LEN;
	pc.ifindex = 2;
	pc.node_id = 12;
	pc.headers = ip;
	pc.headers_len = hl;
	pc.pkt_len = hl;
	put_postcard("oflag-srh.bin", &pc);
	/* The same headers cut inside the segment list. */
	pc.headers_len = 40 + 8 + 20;
	put_postcard("oflag-srh-cut.bin", &pc);
}

/* ---------------- fuzz_gml ---------------- */

static void gen_gml(void)
{
	static const struct {
		const char *name, *text;
	} docs[] = {
		{ "triangle.gml",
		  "graph [\n  node [ id 1 ]\n  node [ id 2 ]\n  node [ id 3 ]\n"
		  "  edge [ source 1 target 2 ]\n  edge [ source 2 target 3 ]\n"
		  "  edge [ source 3 target 1 ]\n]\n" },
		{ "labels-nested-comments.gml",
		  "# a comment\nCreator \"hopmark\"\nVersion 1.0\ngraph [\n  directed 0\n"
		  "  label \"net\"\n  node [ id 0 label \"A [x]\" graphics [ x -1.5 y 2e3 ] ]\n"
		  "  node [ id 4294967295 label \"B\" Country \"\" ]\n"
		  "  edge [ source 0 target 4294967295 LinkLabel \"10G\" ]\n]\n" },
		{ "multigraph.gml",
		  "graph [ node [ id 10 ] node [ id 20 ] node [ id 30 ]\n"
		  " edge [ source 10 target 20 ] edge [ source 20 target 10 ]\n"
		  " edge [ source 30 target 30 ] edge [ source 30 target 20 ] ]\n" },
		{ "no-edges.gml", "graph [ node [ id 7 ] node [ id 3 ] ]\n" },
		{ "disconnected.gml",
		  "graph [ node [ id 1 ] node [ id 2 ] node [ id 3 ] node [ id 4 ]\n"
		  " edge [ source 1 target 2 ] edge [ source 3 target 4 ] ]\n" },
		{ "bad-unknown-node.gml", "graph [ node [ id 1 ] edge [ source 1 target 9 ] ]\n" },
	};
	char buf[4096];
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		put("gml", docs[i].name, docs[i].text, strlen(docs[i].text));
	/* The PINT harness's own 12-node topology. */
	n = fuzz_pint_topo_gml(buf, sizeof(buf), 0x4b, 1, 64);
	put("gml", "line-with-chords.gml", buf, n);
}

/* ---------------- fuzz_pint_sink ---------------- */

/*
 * Settings as `hopmark pint set` builds them: queries of @bits (path,
 * latency, util; 0 = absent) in a budget of 16 bits.
 */
static void domain(struct pint_domain_cfg *c, const unsigned int bits[3], const char *scheme,
		   int full_id)
{
	struct pint_seeds seeds = {
		.decider = PINT_SEED_DECIDER, .act = PINT_SEED_ACT, .value = PINT_SEED_VALUE,
	};
	struct pint_query q[3];
	struct pint_lat_table lt;
	unsigned int k, n = 0;

	memset(c, 0, sizeof(*c));
	c->flags = PINT_DOM_F_CONFIGURED | (full_id ? PINT_DOM_F_FULL_ID : 0);
	c->hop_limit_start = 64;
	c->id_min = 1;
	c->id_max = full_id ? 255 : 64;
	c->base_rtt_ns = 100000;
	c->lat_min_ns = 1000;
	c->lat_max_ns = 1000000000;
	c->q_path = c->q_lat = c->q_util = PINT_QUERY_NONE;
	c->path_d = 16;
	for (k = 0; k < 3; k++) {
		if (!bits[k])
			continue;
		q[n].kind = k == 0 ? PINT_Q_PATH : k == 1 ? PINT_Q_LATENCY : PINT_Q_UTIL;
		q[n].bits = bits[k];
		q[n].weight = 1;
		if (k == 0)
			c->q_path = n;
		else if (k == 1)
			c->q_lat = n;
		else
			c->q_util = n;
		n++;
	}
	if (pint_query_plan_build(&c->plan, &seeds, 16, q, n))
		exit(1);
	if (bits[0] && (pint_path_params_init(&c->path, &seeds, bits[0],
					      full_id ? PINT_PATH_F_FULL_ID : 0) ||
			pint_path_scheme(&c->path, scheme, c->path_d)))
		exit(1);
	if (bits[1]) {
		if (pint_lat_table_for_range(&lt, bits[1], c->lat_min_ns, c->lat_max_ns))
			exit(1);
		c->lat = lt.enc;
	}
	if (pint_domain_cfg_check(c))
		exit(1);
}

static __u64 rnd(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One packet over @ids as the transits write it, and the sink's record of it. */
static void pint_packet(const struct pint_domain_cfg *c, __u32 pid, const __u32 *ids,
			unsigned int k, struct pint_record *r)
{
	__u32 s = pint_query_select(&c->plan, pid), d = 0, off, ah, f, h, b;

	for (h = 1; h <= k; h++) {
		if (c->q_path != PINT_QUERY_NONE &&
		    (off = c->plan.set[s].offset[c->q_path]) != PINT_QUERY_NONE) {
			b = c->plan.bits[c->q_path];
			d = pint_field_set(d, off, b, pint_path_hop(&c->path, pid, h, ids[h - 1],
								    pint_field_get(d, off, b)));
		}
		if (c->q_lat != PINT_QUERY_NONE &&
		    (off = c->plan.set[s].offset[c->q_lat]) != PINT_QUERY_NONE) {
			b = c->plan.bits[c->q_lat];
			ah = pint_lat_act_hash(&c->plan.seeds, pid, h);
			if (ah <= pint_prob_thresh_baseline(h))
				d = pint_field_set(d, off, b, pint_lat_compress(&c->lat,
									 2000 + 1000 * h, ah));
		}
		if (c->q_util != PINT_QUERY_NONE &&
		    (off = c->plan.set[s].offset[c->q_util]) != PINT_QUERY_NONE) {
			b = c->plan.bits[c->q_util];
			f = pint_util_field(pint_util_encode(1000 * h), b);
			if (f > pint_field_get(d, off, b))
				d = pint_field_set(d, off, b, f);
		}
	}
	memset(r, 0, sizeof(*r));
	r->rx_ns = 1000000 + pid;
	r->pid = pid;
	r->digest = d;
	r->ifindex = 3;
	r->hops = k;
	r->family = 4;
	r->proto = 17;
	r->qset = s;
	r->sport = 40000;
	r->dport = 9;
	memcpy(r->saddr, "\x0a\x00\x01\x01", 4);
	memcpy(r->daddr, "\x0a\x00\x09\x02", 4);
}

static void put_sink(const char *name, const struct pint_domain_cfg *c, __u8 topo,
		     const __u32 *ids, unsigned int k, unsigned int packets, __u64 seed)
{
	static __u8 buf[1 + FUZZ_PINT_CFG_LEN + 1 + 64 * sizeof(struct pint_record)];
	struct pint_record r;
	size_t n = 0;
	unsigned int i;

	buf[n++] = 1;
	memcpy(buf + n, c, FUZZ_PINT_CFG_LEN);
	n += FUZZ_PINT_CFG_LEN;
	buf[n++] = topo;
	for (i = 0; i < packets && n + sizeof(r) <= sizeof(buf); i++) {
		pint_packet(c, (__u32)rnd(&seed), ids, k, &r);
		/* The last packets come over a detour: a route change. */
		if (i == packets - 1 && k > 2) {
			__u32 alt[PINT_MAX_HOPS];

			memcpy(alt, ids, k * sizeof(*ids));
			alt[1] = ids[1] + 20;
			pint_packet(c, (__u32)rnd(&seed), alt, k, &r);
		}
		memcpy(buf + n, &r, sizeof(r));
		n += sizeof(r);
	}
	put("pint_sink", name, buf, n);
}

/* A sketch of @n latencies (ns) the way the sink fills one, serialised. */
static void put_sketch(const char *name, unsigned int k, unsigned int n)
{
	struct kll_sketch *sk = kll_new(k, 0x5049ULL + 1);
	static __u8 buf[8192];
	unsigned int i;
	ssize_t len;

	if (!sk)
		exit(1);
	for (i = 0; i < n; i++)
		kll_update(sk, 2000 + (i * 7919) % 50000);
	buf[0] = 2;
	len = kll_serialize(sk, buf + 1, sizeof(buf) - 1);
	if (len < 0)
		exit(1);
	put("pint_sink", name, buf, len + 1);
	kll_free(sk);
}

static void gen_pint_sink(void)
{
	static const __u32 path[6] = { 1, 2, 3, 4, 5, 6 };
	static const __u32 ids[6] = { 11, 12, 13, 14, 15, 16 };
	static const unsigned int all[3] = { 8, 8, 8 }, path16[3] = { 16, 0, 0 };
	static const unsigned int path_util[3] = { 8, 0, 4 }, lat_only[3] = { 0, 8, 0 };
	struct pint_domain_cfg c;
	__u8 f[128];
	size_t n;

	domain(&c, all, "hybrid", 0);
	put_sink("hybrid-path-lat-util.bin", &c, 0, ids, 6, 48, 1);
	/* Topology-aware over fuzz_pint_topo_gml(0x0b): switches 1..12 on a line. */
	put_sink("hybrid-topology-aware.bin", &c, 0x0b, path, 6, 40, 2);
	domain(&c, path16, "baseline", 0);
	put_sink("baseline-path16.bin", &c, 0, ids, 4, 24, 3);
	domain(&c, path_util, "xor", 1);
	put_sink("xor-full-id-util.bin", &c, 0, ids, 5, 32, 4);
	domain(&c, lat_only, "hybrid", 0);
	put_sink("latency-only.bin", &c, 0, ids, 3, 32, 5);

	/* Frames for pint_frame_parse(): IPv4 with DF, one without, IPv6 with the option. */
	memset(f, 0, sizeof(f));
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	memcpy(f + 14, "\x45\x00\x00\x30\x12\x34\x40\x00\x3c\x11\x00\x00\x0a\x00\x01\x01"
		       "\x0a\x00\x09\x02\x9c\x40\x00\x09\x00\x1c\x00\x00", 28);
	put_mode("pint_sink", "frame-ipv4-df.bin", 0, f, 14 + 48);
	f[14 + 6] = 0;
	put_mode("pint_sink", "frame-ipv4-no-df.bin", 0, f, 14 + 48);
	hm_put_be16(f + 12, HM_ETH_P_IPV6);
	n = ipv6_hdr(f + 14, HM_NEXTHDR_HOP);
	f[14 + n] = 17;
	f[14 + n + 1] = 0;
	f[14 + n + 2] = PINT_IP6_OPT_TYPE;
	f[14 + n + 3] = PINT_IP6_OPT_DATA_LEN;
	f[14 + n + 4] = 0xab;
	f[14 + n + 5] = 0xcd;
	f[14 + n + 6] = 3;
	n += PINT_IP6_HBH_LEN;
	n += udp(f + 14 + n, 12);
	ipv6_done(f + 14, n);
	put_mode("pint_sink", "frame-ipv6-option.bin", 0, f, 14 + n);
	f[14 + 6] = HM_NEXTHDR_FRAGMENT;
	put_mode("pint_sink", "frame-ipv6-fragment.bin", 0, f, 14 + 40 + 8);

	/* Latency sketches of 10 and 3000 samples (one level, several). */
	put_sketch("kll-k200-10.bin", PINT_SINK_KLL_K, 10);
	put_sketch("kll-k8-3000.bin", KLL_K_MIN, 3000);
}

/* ---------------- fuzz_int_decode ---------------- */

/* One seed: the FUZZ_INT_HDR_LEN selector octets, then @n bytes. */
static void put_int(const char *name, __u8 mode, __u16 port, __u8 src_only, const __u8 *p,
		    size_t n)
{
	__u8 buf[4096];

	buf[0] = mode;
	buf[1] = 0x17;		/* DSCP of INT §6.1, exact */
	buf[2] = 0x3f;
	hm_put_be16(buf + 3, port);
	buf[5] = src_only;
	memcpy(buf + FUZZ_INT_HDR_LEN, p, n);
	put("int_decode", name, buf, FUZZ_INT_HDR_LEN + n);
}

static size_t int_hops_data(__u8 *p, __u8 type, __u8 npt, __u16 npt_field, __u16 bitmap,
			    __u16 ds_id, unsigned int n_hops, const __u8 *src, __u32 src_words)
{
	struct int_hop hops[4];
	unsigned int i;
	struct int_enc e = {
		.type = type, .npt = npt, .npt_field = npt_field, .bitmap = bitmap,
		.hop_ml = int_bitmap_words(bitmap) + (ds_id ? 1 : 0), .rhc = 8 - n_hops,
		.ds_id = ds_id, .ds_inst = ds_id ? 0x8000 : 0, .hops = hops, .n_hops = n_hops,
		.src_data = src, .src_words = src_words,
	};
	int w;

	memset(hops, 0, sizeof(hops));
	for (i = 0; i < n_hops; i++) {
		hops[i].node_id = 10 + i;
		hops[i].l1_ingress = i + 1;
		hops[i].l1_egress = i + 2;
		hops[i].hop_latency = 1000 * (i + 1);
		hops[i].queue_id = i;
		hops[i].queue_occupancy = 1500 * i;
		hops[i].ingress_ts = 1700000000000000000ULL + i;
		hops[i].egress_ts = 1700000000000001000ULL + i;
		hops[i].csum_complement = INT_UNAVAIL32;
		memset(hops[i].rsvd, 0xff, sizeof(hops[i].rsvd));
	}
	w = int_encode(&e, p, 2048);
	return w > 0 ? (size_t)w : 0;
}

/* IPv4 10.0.0.1 -> 10.0.0.2, DSCP @dscp, around @l4. */
static size_t int_ipv4(__u8 *p, __u8 dscp, __u8 proto, const __u8 *l4, size_t n)
{
	memset(p, 0, 20);
	p[0] = 0x45;
	p[1] = dscp << 2;
	hm_put_be16(p + 2, 20 + n);
	p[8] = 64;
	p[9] = proto;
	p[12] = 10, p[15] = 1;
	p[16] = 10, p[19] = 2;
	memcpy(p + 20, l4, n);
	return 20 + n;
}

static size_t int_tcp(__u8 *p)
{
	memset(p, 0, 20);
	hm_put_be16(p, 1234);
	hm_put_be16(p + 2, 80);
	p[12] = 0x50;
	return 20;
}

static void gen_int_decode(void)
{
	static const __u8 mac[8] = { 0xa6, 0x1a, 0xf6, 0xb1, 0x64, 0x7d, 0, 0 };
	__u8 l4[2048], pkt[2100], pl[2100];
	size_t n, k;

	/* INT §6.1: MD over TCP, DSCP; §6.3: NPT=2 over IPv6; §6.5: NPT=1. */
	n = int_tcp(l4);
	n += int_hops_data(l4 + n, INT_TYPE_MD, INT_NPT_DSCP, 10, 0x9000, 0, 2, NULL, 0);
	put_int("md-tcp-dscp.bin", 0, 0, 0, pkt, int_ipv4(pkt, 0x17, 6, l4, n));
	n = 8;
	n += int_hops_data(l4 + n, INT_TYPE_MD, INT_NPT_L4, 6, 0xfc01, 0, 3, NULL, 0);
	n += int_tcp(l4 + n);
	hm_put_be16(l4, 4321), hm_put_be16(l4 + 2, 5000), hm_put_be16(l4 + 4, n), l4[6] = l4[7] = 0;
	k = ipv6_hdr(pkt, 17);
	memcpy(pkt + k, l4, n);
	put_int("md-npt2-ipv6-fc01.bin", 0, 5000, 0, pkt, ipv6_done(pkt, k + n));
	n = 8;
	n += int_hops_data(l4 + n, INT_TYPE_MD, INT_NPT_UDP, 4789, 0xff80 | 0x0040, 7, 2, mac, 2);
	hm_put_be16(l4, 4321), hm_put_be16(l4 + 2, 5000), hm_put_be16(l4 + 4, n), l4[6] = l4[7] = 0;
	put_int("md-npt1-ds-source-only.bin", 0, 5000, 2, pkt, int_ipv4(pkt, 0, 17, l4, n));
	/* INT §6.16: MX with source-inserted data. */
	n = 8;
	n += int_hops_data(l4 + n, INT_TYPE_MX, INT_NPT_L4, 6, 0x9000, 0xabcd, 0, mac, 2);
	n += int_tcp(l4 + n);
	hm_put_be16(l4, 4321), hm_put_be16(l4 + 2, 5000), hm_put_be16(l4 + 4, n), l4[6] = l4[7] = 0;
	put_int("mx-npt2-source-inserted.bin", 0, 5000, 0, pkt, int_ipv4(pkt, 0, 17, l4, n));

	/* Reports: group header, a RepType 1 (drop, bit 15) whose inner packet
	 * is §6.1's, then an Inner Only; then one of Report Length 0xff. */
	n = int_tcp(l4);
	n += int_hops_data(l4 + n, INT_TYPE_MD, INT_NPT_DSCP, 10, 0x9000, 0, 2, NULL, 0);
	k = int_ipv4(pkt, 0x17, 6, l4, n);
	hm_put_be32(pl, int_rpt_group_w0(1, 5));
	hm_put_be32(pl + 4, 3);
	n = 8;
	pl[n] = INT_REP_INT << 4 | INT_IN_IPV4;
	pl[n + 1] = 2 + 3 + (k + 3) / 4;
	pl[n + 2] = 3;
	pl[n + 3] = INT_RPT_F_D | INT_RPT_F_F;
	hm_put_be16(pl + n + 4, 0x5001);
	memset(pl + n + 6, 0, 6);
	hm_put_be32(pl + n + 12, 0x00010002);
	hm_put_be32(pl + n + 16, 0x07000123);
	hm_put_be32(pl + n + 20, 0x09210000);
	memset(pl + n + 24, 0, (k + 3) / 4 * 4);
	memcpy(pl + n + 24, pkt, k);
	n += 24 + (k + 3) / 4 * 4;
	pl[n] = INT_REP_INNER_ONLY << 4 | INT_IN_IPV4;
	pl[n + 1] = (k + 3) / 4;
	pl[n + 2] = 0;
	pl[n + 3] = INT_RPT_F_F;
	memset(pl + n + 4, 0, (k + 3) / 4 * 4);
	memcpy(pl + n + 4, pkt, k);
	n += 4 + (k + 3) / 4 * 4;
	put_int("report-coalesced-drop.bin", 1, 0, 0, pl, n);
	pl[9] = INT_RPT_LEN_TO_END;
	put_int("report-length-0xff.bin", 1, 0, 0, pl, n - 3);
}

/* ---------------- fuzz_ipfix ---------------- */

static void put_ipfix(const char *name, int tcp, const struct craft *const *msgs, unsigned int n)
{
	static __u8 buf[FUZZ_IPFIX_HDR_LEN + 4 * 65538];
	size_t len = FUZZ_IPFIX_HDR_LEN;
	unsigned int i;

	buf[0] = tcp;
	buf[1] = tcp ? 7 : 0;
	for (i = 0; i < n; i++) {
		if (!tcp) {
			hm_put_be16(buf + len, msgs[i]->len);
			len += 2;
		}
		memcpy(buf + len, msgs[i]->b, msgs[i]->len);
		len += msgs[i]->len;
	}
	put("ipfix", name, buf, len);
}

/*
 * Another exporter's IPv6 template with a variable-length field (RFC 7011
 * §7) and a reduced-size ingressInterface (§6.2), an RFC 5610 type
 * template (Options, scope privateEnterpriseNumber + informationElementId),
 * then records of both: headers of 3 octets (1-octet length) and of 300
 * (255 and a 2-octet length), and the name of hopmarkPacketId.
 */
static void gen_ipfix_varlen(void)
{
	static struct craft t, d;
	const struct craft *m[2] = { &t, &d };
	static const char name[] = "hopmarkPacketId";
	unsigned int i, k;

	craft_msg(&t, 0, 9);
	craft_set(&t, 2);
	craft_u16(&t, 300);
	craft_u16(&t, 7);
	craft_field(&t, 1, 4, 32473);		/* hopmarkPacketId */
	craft_field(&t, 27, 16, 0);		/* sourceIPv6Address */
	craft_field(&t, 313, 65535, 0);		/* ipHeaderPacketSection, variable */
	craft_field(&t, 325, 8, 0);		/* observationTimeNanoseconds */
	craft_field(&t, 28, 16, 0);		/* destinationIPv6Address */
	craft_field(&t, 10, 2, 0);		/* ingressInterface, 2 of 4 octets */
	craft_field(&t, 2, 4, 32473);		/* hopmarkNodeId */
	craft_set_end(&t);
	craft_set(&t, 3);
	craft_u16(&t, 264);
	craft_u16(&t, 4);
	craft_u16(&t, 2);			/* Scope Field Count */
	craft_field(&t, 346, 4, 0);		/* privateEnterpriseNumber */
	craft_field(&t, 303, 2, 0);		/* informationElementId */
	craft_field(&t, 339, 1, 0);		/* informationElementDataType */
	craft_field(&t, 341, 65535, 0);		/* informationElementName */
	craft_set_end(&t);
	craft_end(&t);
	craft_msg(&d, 0, 9);
	craft_set(&d, 300);
	for (i = 0; i < 2; i++) {
		unsigned int hl = i ? 300 : 3;

		craft_u32(&d, 0x2000 + i);
		craft_u32(&d, 0x20010db8);
		craft_u32(&d, 0);
		craft_u32(&d, 0);
		craft_u32(&d, 1);
		if (hl < 255) {
			craft_u8(&d, hl);
		} else {
			craft_u8(&d, 255);
			craft_u16(&d, hl);
		}
		for (k = 0; k < hl; k++)
			craft_u8(&d, k);
		craft_u64(&d, (2208988800ULL + 1764620000ULL) << 32);
		craft_u32(&d, 0x20010db8);
		craft_u32(&d, 0);
		craft_u32(&d, 0);
		craft_u32(&d, 2);
		craft_u16(&d, 3);
		craft_u32(&d, 1 + i);
	}
	craft_set_end(&d);
	craft_set(&d, 264);
	craft_u32(&d, 32473);
	craft_u16(&d, 1);
	craft_u8(&d, 3);			/* unsigned32 */
	craft_u8(&d, sizeof(name) - 1);
	for (k = 0; k < sizeof(name) - 1; k++)
		craft_u8(&d, name[k]);
	craft_set_end(&d);
	craft_end(&d);
	put_ipfix("udp-varlen-rfc5610.bin", 0, m, 2);
}

/* hopmark's IPv4 postcard template and two packets' postcards on 3 nodes. */
static void gen_ipfix(void)
{
	static struct craft t, d, w;
	const struct craft *m[3] = { &t, &d, &w };
	unsigned int i;

	craft_msg(&t, 0, 7);
	craft_set(&t, 2);
	craft_template(&t, 256, 32473, 15);
	craft_set_end(&t);
	craft_end(&t);
	craft_msg(&d, 0, 7);
	craft_set(&d, 256);
	for (i = 0; i < 6; i++) {
		struct craft_rec r = {
			.ts_ns = 1764620000000000000ULL + i * 1000, .node = 1 + i % 3,
			.pkt = 0x100 + i / 3, .point = 2, .ttl = 64 - i % 3,
			.src = 0xc0000201, .dst = 0xc6336402, .proto = 17, .sport = 10001,
			.dport = 5201, .in_if = 3, .out_if = 4, .qdepth = 100,
			.flags = i % 3 == 0 ? PBT_REC_F_HEAD : i % 3 == 2 ? PBT_REC_F_END : 0,
			.source = 1,
		};
		craft_record(&d, &r);
	}
	craft_set_end(&d);
	craft_end(&d);
	craft_msg(&w, 6, 7);
	craft_set(&w, 2);
	craft_u16(&w, 256);
	craft_u16(&w, 0);
	craft_set_end(&w);
	craft_end(&w);
	put_ipfix("udp-template-data-withdraw.bin", 0, m, 3);
	put_ipfix("tcp-template-data.bin", 1, m, 2);
	m[0] = &d;
	m[1] = &t;
	put_ipfix("udp-data-before-template.bin", 0, m, 3);
	gen_ipfix_varlen();
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	gen_ioam_decode();
	gen_capture();
	gen_record_json();
	gen_postcard();
	gen_gml();
	gen_pint_sink();
	gen_int_decode();
	gen_ipfix();
	return 0;
}
