/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * fuzz_input.h - how the harnesses whose decoder takes more than one
 * buffer cut their input, shared by the harness and the seed generator
 * (fuzz/corpus_gen.c) so that the committed seeds mean what the harness
 * reads. Multi-octet fields are big-endian; every octet of the input is
 * used, none is padding.
 */
#ifndef __HOPMARK_FUZZ_INPUT_H
#define __HOPMARK_FUZZ_INPUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "pint/pint_maps.h"

/*
 * fuzz_postcard: a struct hm_postcard (lib/postcard/postcard.h).
 *
 *   octet  0      type (enum hm_postcard_type; 0 and 5.. are unknown)
 *   octet  1      which buffers are present: bit 0 node data, bit 1
 *                 option, bit 2 headers (absent: NULL pointer)
 *   octet  2-3    present (HM_POSTCARD_F_*)
 *   octet  4      omit (HM_POSTCARD_FIELD_*)
 *   octet  5      node_data_len
 *   octet  6      option_len
 *   octet  7-9    trace_type (24 bits)
 *   octet 10-11   ns_id
 *   octet 12-15   flow_id
 *   octet 16-19   seq
 *   octet 20-27   ts_ns
 *   octet 28-31   ifindex
 *   octet 32-35   node_id
 *   octet 36-43   node_id_wide
 *   octet 44-47   pkt_len
 *   octet 48..    node data (node_data_len octets), then the option
 *                 (option_len octets), then the headers: the rest
 *
 * A length beyond the input is cut to what is left.
 */
#define FUZZ_PC_HDR_LEN		48
#define FUZZ_PC_HAS_NODE_DATA	0x01
#define FUZZ_PC_HAS_OPTION	0x02
#define FUZZ_PC_HAS_HEADERS	0x04

/*
 * fuzz_pint_sink: octet 0 chooses what the rest is (mode % 3).
 *
 *   0     an Ethernet frame for pint_frame_parse()
 *   2     a latency sketch as kll_serialize() writes it (lib/pint/kll.h)
 *   1     a sink's life: FUZZ_PINT_CFG_LEN octets of struct pint_domain_cfg
 *         as hopmarkd reads it from the pint_cfg map (host order, up to and
 *         including lat.bits and lat.ncodes: the sink builds its own
 *         latency table and reads nothing after them), one octet choosing
 *         the topology (0: topology-blind; n: FUZZ_PINT_TOPO_NODES() nodes,
 *         see fuzz_pint_topo_gml()), then records of the pint_events ring
 *         buffer, sizeof(struct pint_record) each; a shorter tail is given
 *         with its short size.
 */
#define FUZZ_PINT_CFG_LEN	(offsetof(struct pint_domain_cfg, lat) + 8)

/* Nodes of topology @t over switch IDs id_min.. (at most 64). */
static inline unsigned int fuzz_pint_topo_nodes(unsigned int t, __u32 id_min, __u32 id_max)
{
	unsigned int n = (t & 63) + 1;

	if ((__u64)id_max - id_min + 1 < n)
		n = id_max - id_min + 1;
	return n;
}

/*
 * fuzz_pint_topo_gml() - the GML text of topology @t: switches id_min ..
 * id_min + n - 1 on a line, plus from each node i a chord to node
 * (i * (t >> 6 | 2) + 3) % n, so that the harness exercises gml_parse()
 * too and a path has detours.
 *
 * Return: length written (the text is cut at @size).
 */
static inline size_t fuzz_pint_topo_gml(char *buf, size_t size, unsigned int t, __u32 id_min,
					__u32 id_max)
{
	unsigned int n = fuzz_pint_topo_nodes(t, id_min, id_max), i, k = (t >> 6) | 2;
	size_t len = 0;

#define FUZZ_CAT(...) \
	do { \
		if (len < size) \
			len += snprintf(buf + len, size - len, __VA_ARGS__); \
	} while (0)
	FUZZ_CAT("graph [\n");
	for (i = 0; i < n; i++)
		FUZZ_CAT(" node [ id %u ]\n", id_min + i);
	for (i = 0; i + 1 < n; i++)
		FUZZ_CAT(" edge [ source %u target %u ]\n", id_min + i, id_min + i + 1);
	for (i = 0; i < n; i++)
		FUZZ_CAT(" edge [ source %u target %u ]\n", id_min + i,
			 id_min + (i * k + 3) % n);
	FUZZ_CAT("]\n");
#undef FUZZ_CAT
	return len < size ? len : size;
}

/* Big-endian reads of the postcard header. */
static inline __u64 fuzz_be(const __u8 *p, unsigned int n)
{
	__u64 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static inline void fuzz_put_be(__u8 *p, unsigned int n, __u64 v)
{
	while (n--) {
		p[n] = v;
		v >>= 8;
	}
}

/*
 * fuzz_int_decode: octet 0 bit 0 selects an IP packet (0) or a Telemetry
 * Report payload (1); octets 1-5 are the struct int_signal (DSCP value,
 * DSCP mask, UDP port big-endian, source-only words); the bytes follow.
 */
#define FUZZ_INT_HDR_LEN	6

/*
 * fuzz_tail_copy() - the input after its first octet (a selector), as an
 * exact-size heap copy so that AddressSanitizer sees any read past it.
 * Returns NULL when @size is 0 or memory runs out; free() the copy.
 */
static inline __u8 *fuzz_tail_copy(const __u8 *data, size_t size, size_t *len)
{
	__u8 *copy;

	if (!size)
		return NULL;
	*len = size - 1;
	copy = malloc(*len ? *len : 1);
	if (copy)
		memcpy(copy, data + 1, *len);
	return copy;
}

/*
 * fuzz_ipfix: hopmark-collector's IPFIX input (fuzz/fuzz_ipfix.c).
 *
 *   octet  0      bit 0: 0 = UDP datagrams follow, 1 = one TCP stream
 *   octet  1      TCP: octets per read (0 reads 1 at a time)
 *   octet  2..    UDP: each datagram as a 2-octet big-endian length and
 *                 its octets; TCP: the stream
 */
#define FUZZ_IPFIX_HDR_LEN	2

#endif /* __HOPMARK_FUZZ_INPUT_H */
