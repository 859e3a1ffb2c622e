/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bpf_test.h - BPF_PROG_TEST_RUN tier of the hopmark tests: the TAP harness,
 * the packet builders and the map/run helpers shared by the per-program
 * test files (test_transit.c, test_encap.c, test_decap.c).
 *
 * Every test builds its input frame (Ethernet + IPv6 + extension headers +
 * upper layer) with the builders below, computes the expected output frame
 * independently (RFC 9197 §4.4, RFC 9486, RFC 8200), runs one program with
 * bpf_prog_test_run_opts() and compares byte for byte, then checks the
 * per-interface counters of hopmark_stats.
 */
#ifndef __HM_BPF_TEST_H
#define __HM_BPF_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#include "ioam/ioam6.h"
#include "common/hopmark_maps.h"

/* ---- TAP harness (test_run.c) ---- */

struct hm_test;
typedef void (*hm_test_fn)(const struct hm_test *t);

/**
 * struct hm_test - one named TAP test
 * @name:	behaviour checked, e.g. "transit_in_sets_overflow_when_full"
 * @fn:		body; reports failures with hm_fail() and the CHECK macros
 * @arg:	parameter of a sweep (Trace-Type bit, length, ...)
 */
struct hm_test {
	char		name[96];
	hm_test_fn	fn;
	__u32		arg;
};

void hm_add_test(hm_test_fn fn, __u32 arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hm_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool hm_failed(void);

/* Compare two integers; prints "# WHAT: expected X, got Y" on mismatch. */
bool hm_check_eq(const char *what, unsigned long long exp, unsigned long long got);
#define CHECK_EQ(what, exp, got) hm_check_eq((what), (unsigned long long)(exp), \
					     (unsigned long long)(got))
/* Fail with "# WHAT: expected COND" unless @cond. */
bool hm_check(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Byte-exact comparison of two buffers; prints length and first differences. */
bool hm_check_bytes(const char *what, const void *exp, size_t exp_len,
		    const void *got, size_t got_len);

/*
 * Timestamp fields (bits 2, 3) of the node slot at @slot for @type must lie
 * in [t0, t1] (CLOCK_REALTIME ns around the run) minus @shift ns; stores
 * them in @v->ts_sec / @v->ts_frac.
 */
struct hm_ioam6_node_values;
void hm_check_ts(__u32 type, const __u8 *slot, __u64 t0, __u64 t1, __s64 shift,
		 struct hm_ioam6_node_values *v);

/*
 * Whether HM_BPF_GENERAL_PATH is set (and not "0"): the objects with a fast
 * path of their own (encap, decap, PINT) are then loaded with
 * hm_encap_general_only, hm_decap_general_only and hm_pint_general_only
 * set, so that the same tests check their general paths
 * (selftests/bpf/test_general_path.sh).
 */
bool hm_general_path(void);

/**
 * hm_libbpf_errors_only() - libbpf's print callback for the test and bench
 *			      loaders (libbpf_set_print())
 * @level:	libbpf's level; only %LIBBPF_WARN is printed
 * @fmt:	printf format
 * @ap:		its arguments
 *
 * Writes warnings and errors to stderr, at most about 8 KiB in all (the
 * error, not a whole verifier log).
 *
 * Return: what fputs() returns, or 0 for a message left out.
 */
int hm_libbpf_errors_only(enum libbpf_print_level level, const char *fmt, va_list ap);

void register_transit_tests(void);
void register_encap_tests(void);
void register_decap_tests(void);
void register_int_drop_tests(void);	/* test_int_drop.c */
void register_int_xdp_tests(void);	/* test_int_xdp.c */

/* ---- environment (test_run.c; map setters and defaults: maps.c) ---- */

/**
 * struct hm_env - what every test uses
 * @if_in:	ifindex of the ingress veth (XDP transit in, tc decap)
 * @if_out:	ifindex of the egress veth (tc transit out)
 * @if_enc:	ifindex of the encap veth, MTU %HM_ENC_MTU
 * @prog_*:	program fds, -1 when that object did not load
 * @fd_*:	map fds (the pinned maps shared by all objects); @fd_encap_filter
 *		is -1 for a --before build of bench/ without hopmark_encap_filter
 * @tai_offset_ns: CLOCK_TAI - CLOCK_REALTIME (adjtimex), written to hopmark_node
 */
struct hm_env {
	int	if_in, if_out, if_enc;
	int	prog_encap, prog_transit_in, prog_transit_out, prog_decap;
	int	fd_node, fd_ifcfg, fd_ns, fd_encap, fd_qdepth, fd_stats, fd_events;
	int	fd_encap_filter;
	__s64	tai_offset_ns;
	int	ncpus;
};
extern struct hm_env env;

#define HM_ENC_MTU	1280

/* Map contents every test starts from (reset by the harness). */
#define HM_T_NS			123
#define HM_T_NS_UNKNOWN		77
#define HM_T_NS_DATA		0xdeadbeefU
#define HM_T_NS_DATA_WIDE	0x0123456789abcdefULL
#define HM_T_NODE_ID		2
#define HM_T_NODE_ID_WIDE	0x00aabbccddeeffULL
#define HM_T_IN_ID		11
#define HM_T_IN_ID_WIDE		0x11111111U
#define HM_T_OUT_ID		22
#define HM_T_OUT_ID_WIDE	0x22222222U
#define HM_T_ENC_ID		33
#define HM_T_ENC_ID_WIDE	0x33333333U
#define HM_T_OCCUPANCY		7777	/* hopmark_qdepth[0].backlog_bytes */
#define HM_T_OUT_QDEPTH		4242	/* hopmark_qdepth[if_out].backlog_bytes */
#define HM_T_OUT_OCCUPANCY	8888	/* hopmark_qdepth[if_out].node_backlog_bytes */
#define HM_T_QDEPTH_MAX_AGE	1000000000ULL	/* 1 s: a stale reading 2 s old must exist even right after a VM boots */

__u64 hm_now_ns(int clock);
void hm_set_node(__u32 flags, __u32 node_id, __u64 node_id_wide, __s64 tai_offset_ns);
void hm_set_ifcfg(int ifindex, __u16 flags, __u16 id, __u32 id_wide);
void hm_del_ifcfg(int ifindex);
void hm_set_ns(__u32 ns, __u32 flags, __u32 data, __u64 data_wide);
void hm_del_ns(__u32 ns);
void hm_set_qdepth(__u32 key, __u32 backlog, __u32 node_backlog, __u64 updated_ns);
void hm_del_qdepth(__u32 key);
void hm_set_encap(const __u8 *prefix, __u32 prefixlen, const struct hopmark_encap_cfg *cfg);
void hm_set_encap_trie_only(const __u8 *prefix, __u32 prefixlen,
			    const struct hopmark_encap_cfg *cfg);
void hm_del_encap(const __u8 *prefix, __u32 prefixlen);
bool hm_get_encap_filter(struct hopmark_encap_filter *f);
bool hm_get_encap(const __u8 *prefix, __u32 prefixlen, struct hopmark_encap_cfg *cfg);
/*
 * The settings every test starts from (maps.c): node ID HM_T_NODE_ID and
 * its wide ID, namespace HM_T_NS with its data, env.if_in and env.if_out
 * transit, env.if_enc encap, each with its IDs, fresh hopmark_qdepth
 * readings for the node (key 0) and env.if_out. Writes over what is there,
 * deletes nothing.
 */
void hm_maps_defaults(void);

/* Counters of hopmark_stats[ifindex], summed over CPUs. */
struct hm_counters {
	__u64	cnt[HM_CNT_MAX];
};
void hm_counters_read(int ifindex, struct hm_counters *c);
/*
 * Check counter deltas since @before: counters in @must moved by exactly
 * one, counters in @may by zero or one, every other counter did not move.
 */
#define HM_BIT(c)	(1U << (c))
bool hm_check_counters(int ifindex, const struct hm_counters *before,
		       __u32 must, __u32 may);

/* Ring buffer: consume every pending record into @recs (at most @max). */
int hm_events_consume(struct hopmark_ioam_record *recs, int max);

/**
 * struct hm_run - one BPF_PROG_TEST_RUN
 * @out:	output frame
 * @out_len:	its length
 * @retval:	program return value
 * @t0:		CLOCK_REALTIME ns read just before the run
 * @t1:		CLOCK_REALTIME ns read just after it
 * @err:	bpf_prog_test_run_opts() result
 */
struct hm_run {
	__u8	out[4096];
	__u32	out_len;
	__u32	retval;
	__u64	t0, t1;
	int	err;
};
/* XDP run with xdp_md.ingress_ifindex = @ifindex. */
bool hm_run_xdp(int prog_fd, int ifindex, const void *in, size_t len, struct hm_run *r);
/* tc run with __sk_buff.ifindex = @ifindex, ingress_ifindex = @iif. */
bool hm_run_tc(int prog_fd, int ifindex, int iif, const void *in, size_t len, struct hm_run *r);

/* ---- packet builders (pkt_build.c) ---- */

#define HM_PKT_MAX	4096
#define HM_ETH_LEN	14
#define HM_IP6_LEN	40
#define HM_IP6_OFF	HM_ETH_LEN
#define HM_EXT_OFF	(HM_ETH_LEN + HM_IP6_LEN)
/*
 * Shortest frame a tc test run takes with an IPv6 EtherType: the kernel
 * pulls the whole IPv6 header first (-EINVAL otherwise), so truncation
 * sweeps of tc programs start here; XDP ones start at HM_ETH_LEN.
 */
#define HM_TC_MIN_LEN	HM_EXT_OFF

#define HM_NH_HBH	0
#define HM_NH_TCP	6
#define HM_NH_UDP	17
#define HM_NH_ROUTING	43
#define HM_NH_FRAG	44
#define HM_NH_ICMP6	58
#define HM_NH_NONE	59

/**
 * struct pkt - a frame under construction
 * @b:		bytes
 * @len:	bytes used
 * @l4_off:	offset of the upper-layer header (0: none)
 * @l4_proto:	its protocol number
 */
struct pkt {
	__u8	b[HM_PKT_MAX];
	size_t	len;
	size_t	l4_off;
	__u8	l4_proto;
};

extern const __u8 hm_addr_src[16];	/* 2001:db8:a::1 */
extern const __u8 hm_addr_dst[16];	/* 2001:db8:b::1 */
#define HM_T_FLOW_LABEL	0x12345

void pkt_init(struct pkt *p);
void pkt_put(struct pkt *p, const void *d, size_t n);
void pkt_put_u8(struct pkt *p, __u8 v);
void pkt_put_be16(struct pkt *p, __u16 v);
void pkt_put_be32(struct pkt *p, __u32 v);
void pkt_eth(struct pkt *p, __u16 ethertype);
/* IPv6 header (payload length filled by pkt_finish()); returns nothing. */
void pkt_ipv6(struct pkt *p, __u8 nexthdr, __u8 hop_limit, const __u8 *dst);
/* Hop-by-Hop header: begin writes Next Header and a Hdr Ext Len placeholder. */
size_t hbh_begin(struct pkt *p, __u8 nexthdr);
/* Pad with PadN/Pad1 to 8n and set Hdr Ext Len. */
void hbh_end(struct pkt *p, size_t hbh_off);
void opt_pad1(struct pkt *p);
void opt_padn(struct pkt *p, size_t total);	/* total >= 2, includes the TLV head */
void opt_raw(struct pkt *p, __u8 type, __u8 len, __u8 fill);
/* Pad with Pad1/PadN so that the next option starts at 4n + @rem from @hbh_off. */
void opt_align(struct pkt *p, size_t hbh_off, size_t rem);

/**
 * struct trace_spec - an IOAM Pre-allocated Trace option to build
 * @ns:		IOAM-Namespace
 * @nodelen:	NodeLen field (words)
 * @flags:	Flags bits in the third octet (HM_IOAM_TRACE_F_OVERFLOW)
 * @remlen:	RemainingLen (words)
 * @type:	IOAM-Trace-Type
 * @ioam_type:	IOAM Option-Type (0 = pre-allocated trace)
 * @data:	node data area
 * @data_len:	its length in bytes
 * @opt_len:	IPv6 Opt Data Len to write; 0 = computed (2 + 8 + data_len)
 */
struct trace_spec {
	__u16	ns;
	__u8	nodelen;
	__u8	flags;
	__u8	remlen;
	__u32	type;
	__u8	ioam_type;
	__u8	data[256];
	size_t	data_len;
	int	opt_len;
};

/* Bytes one node writes for @type: NodeLen * 4, + 4 with bit 22. */
size_t trace_slot_len(__u32 type);
/*
 * A trace of @nslots node slots of which the last @nfilled were written by
 * an earlier node (values of hm_prev_node_values()); the free area holds a
 * recognisable byte pattern so that stray writes show.
 */
void trace_init(struct trace_spec *ts, __u16 ns, __u32 type, int nslots, int nfilled);
void hm_prev_node_values(struct hm_ioam6_node_values *v);
/* Writes the option; returns the offset of its type octet (0x31) in @p. */
size_t opt_ioam(struct pkt *p, const struct trace_spec *ts);
/* Offset of the node data area for the option at @opt_off. */
#define IOAM_DATA_OFF(opt_off)	((opt_off) + 4 + 8)
#define IOAM_REMLEN_OFF(opt_off) ((opt_off) + 4 + 3)
#define IOAM_FLAGS_OFF(opt_off)	((opt_off) + 4 + 2)

void pkt_srh(struct pkt *p, __u8 nexthdr, int nsegs);
void pkt_frag(struct pkt *p, __u8 nexthdr, __u16 offset, bool more);
void pkt_udp(struct pkt *p, __u16 sport, __u16 dport, size_t payload);
void pkt_tcp(struct pkt *p, __u16 sport, __u16 dport, size_t payload);
void pkt_icmp6_echo(struct pkt *p, size_t payload);
/* Sets the IPv6 Payload Length and the upper-layer checksum. */
void pkt_finish(struct pkt *p);

/**
 * pkt_csum16() - the Internet checksum of @n bytes (RFC 1071)
 * @d:		the bytes, network order
 * @n:		their count; an odd last byte is padded with zero
 *
 * Return: the one's complement of the one's complement sum, host order
 * (0 when @d holds a correct checksum, e.g. a whole IPv4 header).
 */
__u16 pkt_csum16(const __u8 *d, size_t n);

/*
 * Standard transit input: Ethernet, IPv6 (hop limit @hlim), Hop-by-Hop with
 * PadN(2) and the IOAM option at offset 4 (RFC 9486 4n alignment), padded
 * to 8n, then UDP with 32 bytes. Returns the offset of the IOAM option.
 */
size_t pkt_std_trace(struct pkt *p, const struct trace_spec *ts, __u8 hlim);
/* Same packet without any Hop-by-Hop header. */
void pkt_std_plain(struct pkt *p, __u8 l4, __u8 hlim, size_t payload);

/**
 * struct tlv - one option of a Hop-by-Hop header found by hbh_walk()
 * @off:	offset of its type octet from the start of the header
 * @type:	option type
 * @len:	Opt Data Len (0 for Pad1)
 */
struct tlv {
	size_t	off;
	__u8	type;
	__u8	len;
};
/*
 * Walk the Hop-by-Hop header at @hbh (@len bytes available). Returns the
 * number of options stored in @tlvs, or -1 when an option overruns the
 * header or a pad option carries non-zero data.
 */
int hbh_walk(const __u8 *hbh, size_t len, struct tlv *tlvs, int max);

/*
 * Hop-by-Hop limits a Linux receiver applies with its default sysctls
 * (net.ipv6.max_hbh_opts_number = 8, net.ipv6.max_hbh_length = INT_MAX;
 * net/ipv6/exthdrs.c): options other than Pad1/PadN, and padding bytes in
 * a row.
 */
#define HM_T_LINUX_OPTS_MAX	8
#define HM_T_LINUX_PAD_RUN_MAX	7
/*
 * Most TLVs in a header Linux accepts with those sysctls: 8 options and a
 * run of 7 Pad1 before, between and after them.
 */
#define HM_T_LINUX_TLVS_MAX	(HM_T_LINUX_OPTS_MAX + \
				 (HM_T_LINUX_OPTS_MAX + 1) * HM_T_LINUX_PAD_RUN_MAX)

/*
 * Whether a Linux node with default sysctls, forwarding or receiving,
 * accepts the Hop-by-Hop header at @hbh (@len bytes available), by the
 * rules of ipv6_parse_hopopts() and ip6_parse_tlv(): the header is whole;
 * TLVs end inside it; at most HM_T_LINUX_OPTS_MAX options other than
 * Pad1/PadN; at most HM_T_LINUX_PAD_RUN_MAX padding bytes in a row; PadN
 * data zero; an unknown option's action bits 00 (RFC 8200 §4.2); Router
 * Alert of length 2; an IOAM option 4n-aligned (ipv6_hop_ioam(), checked
 * before ioam6_enabled). Jumbo Payload and CALIPSO, which the tests never
 * send, are not modelled. On rejection @why (@why_len bytes) says which
 * rule and where.
 */
bool hbh_linux_accepts(const __u8 *hbh, size_t len, char *why, size_t why_len);

/*
 * What the running kernel does with a Hop-by-Hop header (@len bytes at
 * @hbh, Next Header ignored): one UDP datagram from ::1 to ::1 in the
 * test's network namespace (default sysctls: a new namespace starts from
 * them) carrying it through IPV6_HOPOPTS. Local delivery and forwarding
 * parse the header alike (ipv6_parse_hopopts() in ip6_rcv_core()).
 * Returns 1 when delivered, 0 when dropped as a header error
 * (Ip6InHdrErrors rose), -1 when neither happened within 1 s or the
 * datagram could not be sent (IPV6_HOPOPTS takes at most 2040 bytes).
 */
int hm_kernel_hbh(const __u8 *hbh, size_t len);
/*
 * Checks that both hbh_linux_accepts() and the running kernel
 * (hm_kernel_hbh()) accept (@accepts) or reject the header; failures name
 * @what.
 */
bool hm_check_hbh_linux(const char *what, const __u8 *hbh, size_t len, bool accepts);

/*
 * Options for hbh_steps(): @nopts options, the one at index @ioam_at (-1:
 * none) the IOAM trace @ts, the others experimental type 0x1e (RFC 4727,
 * action 00) whose lengths put the IOAM option at 4n and the header end
 * at 8n; @lead Pad1 before the first, @run Pad1 between two, @tail Pad1
 * after the last (-1: what the last IOAM option needs to end at 8n).
 */
struct hbh_steps_spec {
	int	nopts;
	int	ioam_at;
	int	lead;
	int	run;
	int	tail;
};
/*
 * Writes the options of a Hop-by-Hop header begun with hbh_begin() at
 * @hbh_off and sets its Hdr Ext Len. Returns the offset of the IOAM
 * option in @p (0 when none); *@tlvs (when not NULL) = TLVs written.
 */
size_t hbh_steps(struct pkt *p, size_t hbh_off, const struct hbh_steps_spec *sp,
		 const struct trace_spec *ts, int *tlvs);

/* Offset in a node slot of the field of Trace-Type bit @bit (RFC 9197 §4.4.2 order). */
size_t field_off(__u32 type, int bit);

#endif /* __HM_BPF_TEST_H */
