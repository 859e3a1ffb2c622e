/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark.h - libhopmark, the userspace library every hopmark tool and test
 * links: IOAM trace decoding, the trace record (from a sink's ring buffer
 * or from a capture), its JSON and text renderings, per-hop summaries,
 * counter names and the pinned-map helpers.
 *
 * Functions return 0 or a positive count on success and a negative errno on
 * failure, as the kernel does, unless their comment says otherwise.
 */
#ifndef __HOPMARK_H
#define __HOPMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#include "ioam6_trace.h"
#include "hopmark_maps.h"

struct json_object;

/* Most node data entries a decoded trace can hold (244 / 4). */
#define HM_MAX_HOPS	61

/**
 * struct hm_ioam_trace - a decoded IOAM Pre-allocated Trace option
 * @ns_id:	IOAM-Namespace
 * @nodelen:	NodeLen, 4-octet words
 * @remlen:	RemainingLen, 4-octet words
 * @overflow:	Overflow flag
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @data_len:	size of the node data list area in bytes
 * @n_nodes:	number of node data entries in @nodes
 * @nodes:	node data in path order: @nodes[0] is the first node that
 *		wrote (nearest the encapsulating node), the last entry the most
 *		recent. On the wire the order is the reverse (RFC 9197 §4.4).
 */
struct hm_ioam_trace {
	__u16	ns_id;
	__u8	nodelen;
	__u8	remlen;
	__u8	overflow;
	__u32	trace_type;
	__u32	data_len;
	unsigned int n_nodes;
	struct hm_ioam6_node_values nodes[HM_MAX_HOPS];
};

/**
 * hm_ioam_trace_decode() - decode an IOAM Pre-allocated Trace option
 * @opt:	the option from its IPv6 option type octet (0x31) on
 * @len:	bytes available at @opt
 * @trace:	output
 *
 * Checks what RFC 9197 §4.4 and RFC 9486 require: option type 0x31 and
 * IOAM Option-Type 0 (pre-allocated trace), option length covering the
 * trace header, NodeLen equal to what the IOAM-Trace-Type implies,
 * RemainingLen inside the data area, whole node data entries after it
 * (opaque state snapshots are walked by their length).
 *
 * Return: 0; -EMSGSIZE if @len is shorter than the option says;
 * -EPROTONOSUPPORT for another IOAM Option-Type; -EINVAL for a malformed
 * or inconsistent trace.
 */
int hm_ioam_trace_decode(const __u8 *opt, size_t len, struct hm_ioam_trace *trace);

/**
 * struct hm_pkt_info - what identifies the packet a trace travelled in
 * @saddr:	IPv6 source, network byte order
 * @daddr:	IPv6 destination, network byte order
 * @flow_label:	20-bit flow label
 * @payload_len: IPv6 payload length, bytes
 * @hop_limit:	Hop Limit
 * @proto:	upper-layer protocol after the extension headers
 * @sport:	TCP/UDP source port (0 if none)
 * @dport:	TCP/UDP destination port (0 if none)
 */
struct hm_pkt_info {
	__u8	saddr[16];
	__u8	daddr[16];
	__u32	flow_label;
	__u16	payload_len;
	__u8	hop_limit;
	__u8	proto;
	__u16	sport;
	__u16	dport;
};

/**
 * hm_ipv6_find_ioam() - locate the IOAM trace option of an IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt
 * @info:	filled with the packet's addresses, ports, etc. (may be NULL)
 * @opt_off:	offset from @pkt of the IOAM option type octet
 * @opt_len:	bytes of the option including its 2-octet TLV head
 *
 * Walks the Hop-by-Hop header (RFC 8200 §4.3) TLV by TLV for an option of
 * type 0x31 carrying IOAM Option-Type 0, then the other extension headers
 * for the upper-layer protocol and ports.
 *
 * Return: 0; -ENOENT if the packet has no IOAM pre-allocated trace;
 * -EINVAL if the IPv6 or Hop-by-Hop header is malformed or truncated.
 */
int hm_ipv6_find_ioam(const __u8 *pkt, size_t len, struct hm_pkt_info *info,
		      size_t *opt_off, size_t *opt_len);

/**
 * struct hm_record - one traced packet as hopmark reports it
 * @rx_ns:	POSIX time in ns when the sink (or the capture) saw it
 * @ifindex:	sink interface index (0 when read from a capture)
 * @sink_if_id:	sink interface's short IOAM ID (0xffff if unknown)
 * @sink_node_id: sink's short node ID (0xffffff if unknown)
 * @pkt:	packet identity
 * @trace:	decoded trace
 */
struct hm_record {
	__u64	rx_ns;
	__u32	ifindex;
	__u16	sink_if_id;
	__u32	sink_node_id;
	struct hm_pkt_info pkt;
	struct hm_ioam_trace trace;
};

/**
 * hm_record_from_ring() - build a record from a sink's ring buffer record
 * @rec:	record as struct hopmark_ioam_record
 * @size:	bytes received
 * @sink_node_id: node ID of the sink (from its hopmark_node map)
 * @out:	output
 *
 * Return: 0, or the error of hm_ioam_trace_decode(); -EMSGSIZE if @size
 * is smaller than the record.
 */
int hm_record_from_ring(const void *rec, size_t size, __u32 sink_node_id,
			struct hm_record *out);

/**
 * hm_record_from_packet() - build a record from a captured IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt
 * @ts_ns:	capture time, POSIX ns
 * @out:	output
 *
 * Return: 0; -ENOENT if the packet carries no IOAM pre-allocated trace;
 * other negative errno as hm_ipv6_find_ioam() and hm_ioam_trace_decode().
 */
int hm_record_from_packet(const __u8 *pkt, size_t len, __u64 ts_ns,
			  struct hm_record *out);

/**
 * hm_record_to_json() - the JSON form of a record (Documentation/json-record.rst)
 * @r: record
 *
 * Return: a new json-c object the caller puts, or NULL on ENOMEM.
 */
struct json_object *hm_record_to_json(const struct hm_record *r);

/**
 * hm_record_print_json() - print a record as one JSON line
 * @f: stream
 * @r: record
 *
 * Return: 0 or -EIO.
 */
int hm_record_print_json(FILE *f, const struct hm_record *r);

/**
 * hm_record_print_table() - print a record as a readable per-hop table
 * @f: stream
 * @r: record
 *
 * One row per node data entry in path order and a last row for the sink:
 * hop, node ID, ingress/egress interface IDs, hop limit, timestamp,
 * latency from the previous hop (us), transit delay (us), queue depth.
 */
void hm_record_print_table(FILE *f, const struct hm_record *r);

/**
 * struct hm_summary - per-hop latency statistics over many records
 *
 * Opaque; create with hm_summary_new(), feed with hm_summary_add(), print
 * with hm_summary_print() and free with hm_summary_free().
 */
struct hm_summary;

struct hm_summary *hm_summary_new(void);
void hm_summary_add(struct hm_summary *s, const struct hm_record *r);

/**
 * hm_summary_print() - per hop: count, min / median / p99 latency (us)
 * @s: summary
 * @f: stream
 * @json: print one JSON object instead of a table
 */
void hm_summary_print(const struct hm_summary *s, FILE *f, int json);
void hm_summary_free(struct hm_summary *s);

/* Display names of enum hopmark_counter, indexed by counter. */
extern const char *const hopmark_counter_names[HM_CNT_MAX];

/**
 * hm_bpffs_root() - bpffs this node's pins live on
 *
 * Return: $TC_BPF_MNT if set and non-empty, else "/sys/fs/bpf".
 */
const char *hm_bpffs_root(void);

/**
 * hm_pin_dir() - the pin directory, <bpffs>/tc/globals
 * @buf: output
 * @len: size of @buf
 *
 * Return: 0 or -ENAMETOOLONG.
 */
int hm_pin_dir(char *buf, size_t len);

/**
 * hm_map_open() - open a pinned hopmark map by name
 * @name: map name, e.g. %HM_MAP_NODE
 *
 * Return: a map fd, or -errno from bpf_obj_get() (-ENOENT when nothing of
 * hopmark was set up on this node yet).
 */
int hm_map_open(const char *name);

/**
 * hm_maps_create() - create and pin every hopmark map if missing
 *
 * Loads the maps-only BPF object with the pin root of hm_pin_dir(), so the
 * maps exist before any program is attached; existing pins are reused.
 * Mounts nothing: the bpffs must be mounted.
 *
 * Return: 0 or negative errno (-ENODEV if hm_bpffs_root() is not a bpffs).
 */
int hm_maps_create(void);

/**
 * hm_map_delete_if() - delete the entries of a map a predicate picks
 * @fd:		the map
 * @key_size:	its key size in bytes
 * @doomed:	called with @fd, each key and @ctx; true deletes the entry
 * @ctx:	passed to @doomed
 *
 * The keys are collected over the whole walk and deleted after it, since a
 * deletion during bpf_map_get_next_key() iteration restarts a hash walk.
 *
 * Return: number of entries deleted, or -ENOMEM (nothing deleted then).
 */
int hm_map_delete_if(int fd, size_t key_size,
		     bool (*doomed)(int fd, const void *key, void *ctx), void *ctx);

/**
 * hm_prune_gone_ifaces() - forget the settings of deleted interfaces
 *
 * Linux removes a device's programs and qdiscs with it, but not the map
 * entries keyed by its ifindex. This deletes, in the caller's network
 * namespace, every entry of hopmark_ifcfg, hopmark_stats, pint_ifcfg,
 * pint_stats and pint_txrate whose ifindex names no device
 * (if_indextoname() fails with ENXIO), and every hopmark_encap rule bound
 * to such an ifindex, so that the maps (HM_MAX_IFACES entries) do not fill
 * up as containers' interfaces come and go. Maps not created yet are
 * skipped.
 *
 * Return: number of entries deleted, or negative errno when a map exists
 * but cannot be read.
 */
int hm_prune_gone_ifaces(void);

#endif /* __HOPMARK_H */
