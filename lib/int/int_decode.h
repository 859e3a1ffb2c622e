/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_decode.h - find and parse INT v2.1 over TCP/UDP (INT.mdk §5.7.2,
 * §5.8, §5.9) in a packet given from its IP header, and encode the same
 * structures (int_encode.c) for tests and tools that build expected
 * packets. Userspace only (the datapath parses with bpf/ helpers).
 *
 * Every value below is in host order; the wire is big-endian (int.h).
 */
#ifndef __HOPMARK_INT_DECODE_H
#define __HOPMARK_INT_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "int/int.h"

/**
 * enum int_dec_err - why a packet's INT could not be decoded
 * @INT_E_NONE:		no INT: the packet is not signalled as INT (not an
 *			error of the packet; decoders return -INT_E_NONE)
 * @INT_E_IP:		the IP header is truncated or malformed (version,
 *			IHL, a non-first fragment, an extension header)
 * @INT_E_L4:		the TCP or UDP header carrying INT is truncated or
 *			its TCP Data Offset is below 5 or beyond the packet
 * @INT_E_SHIM_TRUNC:	fewer than the shim's 4 octets follow the L4 header
 * @INT_E_TYPE:		shim Type is not 1 (MD) or 3 (MX): 2 (Destination)
 *			has no format in v2.1, the others are unassigned
 * @INT_E_NPT:		the shim's NPT disagrees with the signalling (NPT 0
 *			under UDP-port signalling, 1 or 2 under DSCP, 1 on
 *			an inserted UDP header, 3)
 * @INT_E_SHIM_LEN:	shim Length below the 3 words of the MD/MX header
 * @INT_E_BEYOND:	shim Length runs past the end of the IP packet
 *			(IPv4 Total Length / IPv6 Payload Length)
 * @INT_E_CAPTURE:	the packet's INT data is longer than the bytes given
 *			(a capture cut short by its snapshot length)
 * @INT_E_VER:		MD or MX header Ver is not 2
 * @INT_E_HOP_ML:	Hop ML disagrees with the Instruction Bitmap: fewer
 *			words than the bitmap needs (int_bitmap_words()), or
 *			more while DS ID is 0 (no DS metadata then, §5.8)
 * @INT_E_STACK:	the stack (shim Length - 3 - source-only words) is
 *			not a multiple of Hop ML words
 * @INT_E_MAX:		number of codes
 */
enum int_dec_err {
	INT_E_NONE = 1,
	INT_E_IP,
	INT_E_L4,
	INT_E_SHIM_TRUNC,
	INT_E_TYPE,
	INT_E_NPT,
	INT_E_SHIM_LEN,
	INT_E_BEYOND,
	INT_E_CAPTURE,
	INT_E_VER,
	INT_E_HOP_ML,
	INT_E_STACK,
	INT_E_MAX
};

/**
 * int_dec_strerror() - the text of a decode error
 * @err:	a return value of int_decode_ip() or int_rpt_*() (negative), or
 *		the positive code
 *
 * Return: a static string naming the condition and the spec section.
 */
const char *int_dec_strerror(int err);

/**
 * struct int_signal - how a domain signals INT (INT §5.7.2), per caller
 * @dscp:		DSCP value (6 bits) that marks INT, under @dscp_mask
 * @dscp_mask:		DSCP mask; 0 disables DSCP signalling (0/0 would
 *			match every packet, the rule)
 * @udp_port:		INT UDP destination port (NPT=1/2); 0 disables it
 * @src_only_words:	source-only metadata words the domain's DS
 *			Instruction puts after the stack (INT-MD, §5.8); the
 *			decoder cannot tell them from hops otherwise
 */
struct int_signal {
	__u8	dscp;
	__u8	dscp_mask;
	__u16	udp_port;
	__u8	src_only_words;
};

/**
 * struct int_hop - one node's metadata, per the Instruction Bitmap (§5.8)
 * or a report's RepMdBits (Report §3.3.1)
 * @bitmap:		the bits these values were decoded for; a field is
 *			present only when its bit is set
 * @node_id:		bit 0, 32 bits
 * @l1_ingress:		bit 1, Level 1 ingress interface ID, 16 bits
 * @l1_egress:		bit 1, Level 1 egress interface ID, 16 bits
 * @hop_latency:	bit 2, 32 bits (hopmark: ns)
 * @queue_id:		bit 3, 8 bits (report bit 15: the queue of the drop)
 * @queue_occupancy:	bit 3, 24 bits (hopmark: bytes)
 * @ingress_ts:		bit 4, 64 bits (hopmark: ns, CLOCK_REALTIME)
 * @egress_ts:		bit 5, 64 bits
 * @l2_ingress:		bit 6, Level 2 ingress interface ID, 32 bits
 * @l2_egress:		bit 6, Level 2 egress interface ID, 32 bits
 * @tx_util:		bit 7, 32 bits (hopmark: 0.01 % of the link rate)
 * @buffer_id:		bit 8, 8 bits
 * @buffer_occupancy:	bit 8, 24 bits
 * @rsvd:		bits 9-14, one word each (0xffffffff when honoured)
 * @csum_complement:	INT-MD bit 15, the last word of the hop
 * @drop_queue_id:	report RepMdBits bit 15: queue ID, 8 bits
 * @drop_reason:	report RepMdBits bit 15: drop reason, 8 bits
 * @ds:			DS metadata words (Hop ML beyond the baseline, or a
 *			report's MD Length beyond its RepMdBits), wire bytes
 * @ds_words:		words at @ds
 * @report:		decoded from a report: bit 15 is @drop_queue_id and
 *			@drop_reason, not @csum_complement
 *
 * All-ones values are kept as they are: the unavailable value of §4.
 */
struct int_hop {
	__u16		bitmap;
	__u32		node_id;
	__u16		l1_ingress;
	__u16		l1_egress;
	__u32		hop_latency;
	__u8		queue_id;
	__u32		queue_occupancy;
	__u64		ingress_ts;
	__u64		egress_ts;
	__u32		l2_ingress;
	__u32		l2_egress;
	__u32		tx_util;
	__u8		buffer_id;
	__u32		buffer_occupancy;
	__u32		rsvd[6];
	__u32		csum_complement;
	__u8		drop_queue_id;
	__u8		drop_reason;
	const __u8	*ds;
	__u32		ds_words;
	bool		report;
};

/**
 * struct int_pkt - a packet's IP identity and its INT headers
 * @ip_ver:		4 or 6
 * @saddr:		source address (IPv4: first 4 octets)
 * @daddr:		destination address
 * @dscp:		DSCP / Traffic Class >> 2 as received
 * @ttl:		IPv4 TTL / IPv6 Hop Limit
 * @ip_len:		bytes of the IP packet (IPv4 Total Length, or 40 +
 *			IPv6 Payload Length), as the header says
 * @avail:		bytes of it given: min(@ip_len, the length given)
 * @proto:		IP protocol of the L4 header after IP (and IPv6
 *			extension headers): 17 for NPT=2
 * @l4_off:		offset of that L4 header from the IP header
 * @sport:		its source port
 * @dport:		its destination port
 * @has_ports:		@proto is TCP or UDP and its ports were captured
 * @int_found:		the packet carries INT (the fields below are set)
 * @shim_off:		offset of the shim from the IP header
 * @type:		shim Type (%INT_TYPE_MD or %INT_TYPE_MX)
 * @npt:		shim NPT
 * @shim_len:		shim Length, words after the shim
 * @npt_field:		the shim's NPT-dependent 16 bits: NPT=0 original
 *			DSCP (bits 24-29 >> 2), NPT=1 original UDP
 *			destination port, NPT=2 original IP protocol
 * @ver:		header Ver
 * @d:			D bit
 * @e:			E bit (MD only)
 * @m:			M bit (MD only)
 * @hop_ml:		Hop ML, words per hop (MD only)
 * @rhc:		Remaining Hop Count (MD only)
 * @bitmap:		Instruction Bitmap
 * @ds_id:		Domain Specific ID
 * @ds_inst:		DS Instruction
 * @ds_flags:		DS Flags
 * @stack:		first octet of the metadata stack (most recent hop)
 * @n_hops:		hops in the stack (MD; 0 for MX)
 * @src_data:		source-only (MD) or source-inserted (MX) data
 * @src_words:		words at @src_data
 * @end_off:		offset of the first octet after the INT data
 * @inner_proto:	NPT=2: the original L4 protocol that follows
 * @inner_sport:	NPT=2, TCP/UDP: its ports when captured
 * @inner_dport:	(with @inner_has_ports)
 * @inner_has_ports:	the two above are set
 */
struct int_pkt {
	__u8		ip_ver;
	__u8		saddr[16];
	__u8		daddr[16];
	__u8		dscp;
	__u8		ttl;
	size_t		ip_len;
	size_t		avail;
	__u8		proto;
	size_t		l4_off;
	__u16		sport;
	__u16		dport;
	bool		has_ports;

	bool		int_found;
	size_t		shim_off;
	__u8		type;
	__u8		npt;
	__u8		shim_len;
	__u16		npt_field;
	__u8		ver;
	__u8		d, e, m;
	__u8		hop_ml;
	__u8		rhc;
	__u16		bitmap;
	__u16		ds_id;
	__u16		ds_inst;
	__u16		ds_flags;
	const __u8	*stack;
	__u32		n_hops;
	const __u8	*src_data;
	__u32		src_words;
	size_t		end_off;
	__u8		inner_proto;
	__u16		inner_sport;
	__u16		inner_dport;
	bool		inner_has_ports;
};

/**
 * int_decode_ip() - find and parse the INT data of a packet
 * @ip:		the packet from its IP header (IPv4 or IPv6)
 * @len:	bytes at @ip (may be less than the packet: a capture)
 * @sig:	the domain's signalling
 * @p:		output
 *
 * UDP destination port @sig->udp_port (when not 0) means INT with the shim
 * right after the UDP header, NPT 1 or 2; otherwise a DSCP with
 * (dscp & @sig->dscp_mask) == @sig->dscp (mask not 0) on TCP or UDP means
 * INT after the TCP header (options included) or the UDP header, NPT 0
 * (§5.7.2). IPv6 Hop-by-Hop, Routing, Destination Options, Fragment (first
 * fragment) and AH headers are skipped. The shim, the MD or MX header and
 * the stack are checked against each other and against the packet; the
 * hops are read with int_decode_hop().
 *
 * Return: 0 with @p set (@p->int_found); -INT_E_NONE when the packet is not
 * INT (@p has its IP identity); another -INT_E_* code (enum int_dec_err)
 * for INT data that cannot be decoded, with @p filled as far as it was read.
 */
int int_decode_ip(const __u8 *ip, size_t len, const struct int_signal *sig, struct int_pkt *p);

/**
 * int_decode_hop() - the metadata of one hop of a decoded INT-MD stack
 * @p:		a packet int_decode_ip() returned 0 for
 * @i:		0 .. @p->n_hops - 1, 0 being the most recent hop (as on the wire)
 * @h:		output
 *
 * Return: 0; -EINVAL if @i is out of range or the packet is not INT-MD.
 */
int int_decode_hop(const struct int_pkt *p, __u32 i, struct int_hop *h);

/**
 * int_md_parse() - decode one node's metadata block
 * @d:		the block, wire order
 * @words:	its length in 4-octet words
 * @bitmap:	Instruction Bitmap (§5.8) or RepMdBits (Report §3.3.1)
 * @report:	true: bit 15 is RepMdBits' queue ID + drop reason (first
 *		after bits 0-14, before DS metadata); false: it is INT-MD's
 *		checksum complement, the block's last word after DS metadata
 * @h:		output; DS metadata is what remains after the baseline
 *
 * Return: 0; -EINVAL if @words is less than the bitmap needs.
 */
int int_md_parse(const __u8 *d, __u32 words, __u16 bitmap, bool report, struct int_hop *h);

/**
 * struct int_enc - what int_encode() writes (the shim, header and stack)
 * @type:	%INT_TYPE_MD or %INT_TYPE_MX
 * @npt:	shim NPT
 * @npt_field:	NPT=0: original DSCP (6 bits); NPT=1: original UDP
 *		destination port; NPT=2: original IP protocol
 * @flags:	MD: %INT_MD_D | %INT_MD_E | %INT_MD_M; MX: %INT_MX_D
 * @hop_ml:	MD Hop ML (the caller's, so that tests can write wrong ones)
 * @rhc:	MD Remaining Hop Count
 * @bitmap:	Instruction Bitmap
 * @ds_id:	DS ID
 * @ds_inst:	DS Instruction
 * @ds_flags:	DS Flags
 * @hops:	MD: @n_hops hops, most recent first (as on the wire); each
 *		written as Hop ML words by int_encode_hop()
 * @n_hops:	hops at @hops
 * @src_data:	source-only (MD, after the stack) or source-inserted (MX)
 *		data, wire bytes
 * @src_words:	words at @src_data
 * @shim_len:	0: the shim Length the data needs; otherwise written as is
 *		(tests of inconsistent shims)
 */
struct int_enc {
	__u8			type;
	__u8			npt;
	__u16			npt_field;
	__u32			flags;
	__u8			hop_ml;
	__u8			rhc;
	__u16			bitmap;
	__u16			ds_id;
	__u16			ds_inst;
	__u16			ds_flags;
	const struct int_hop	*hops;
	__u32			n_hops;
	const __u8		*src_data;
	__u32			src_words;
	__u8			shim_len;
};

/**
 * int_encode_hop() - write one hop's metadata, Hop ML words
 * @bitmap:	Instruction Bitmap; fields in ascending bit order, reserved
 *		bits 9-14 from @h->rsvd, then @h->ds (all-ones words when
 *		@h->ds is NULL), then the checksum complement of bit 15
 * @hop_ml:	words to write; the words beyond the bitmap's are DS data
 * @h:		the values
 * @buf:	output, @hop_ml * 4 octets
 *
 * Return: octets written; -EINVAL if @hop_ml is below the bitmap's words.
 */
int int_encode_hop(__u16 bitmap, __u8 hop_ml, const struct int_hop *h, __u8 *buf);

/**
 * int_encode() - write the shim, MD/MX header, stack and source data
 * @e:		what to write
 * @buf:	output
 * @size:	bytes at @buf
 *
 * The shim Length is (12 + stack + source data) / 4 unless @e->shim_len
 * is set. Nothing else of the packet (IP lengths, checksums) is touched.
 *
 * Return: octets written; -ENOSPC if @size is too small; -EINVAL for a
 * Type other than MD/MX, a Hop ML below the bitmap or data over 255 words.
 */
int int_encode(const struct int_enc *e, __u8 *buf, size_t size);

#endif /* __HOPMARK_INT_DECODE_H */
