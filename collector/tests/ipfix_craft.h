/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_craft.h - IPFIX messages written out octet by octet (RFC 7011 §3)
 * for the collector's tests and the fuzz harness's seeds: a Template Set
 * of hopmark's IPv4 postcard template and Data Sets of its records.
 *
 * The template (ID @tid), in this order:
 *   observationTimeNanoseconds   325  8   NTP format (§6.1.10)
 *   hopmarkNodeId                PEN:2 4
 *   hopmarkPacketId              PEN:1 4
 *   hopmarkObservationPoint      PEN:3 1
 *   ipTTL                        192  1
 *   sourceIPv4Address            8    4
 *   destinationIPv4Address       12   4
 *   protocolIdentifier           4    1
 *   sourceTransportPort          7    2
 *   destinationTransportPort     11   2
 *   ingressInterface             10   4
 *   egressInterface              14   4
 *   hopmarkQueueDepthOctets      PEN:4 4
 *   hopmarkPostcardFlags         PEN:6 2
 *   hopmarkPostcardSource        PEN:5 1
 * A record is 50 octets.
 */
#ifndef __HMC_IPFIX_CRAFT_H
#define __HMC_IPFIX_CRAFT_H

#include <stddef.h>
#include <string.h>
#include <linux/types.h>

#define CRAFT_REC_LEN	50
#define CRAFT_NTP_OFF	2208988800ULL

struct craft {
	__u8	b[65536];
	size_t	len;
	size_t	set;	/* offset of the open Set's header */
};

struct craft_rec {
	__u64	ts_ns;
	__u32	node;
	__u32	pkt;
	__u8	point;
	__u8	ttl;
	__u32	src;	/* host order */
	__u32	dst;
	__u8	proto;
	__u16	sport;
	__u16	dport;
	__u32	in_if;
	__u32	out_if;
	__u32	qdepth;
	__u16	flags;
	__u8	source;
};

static inline void craft_u8(struct craft *c, __u8 v)
{
	c->b[c->len++] = v;
}

static inline void craft_u16(struct craft *c, __u16 v)
{
	craft_u8(c, v >> 8);
	craft_u8(c, v);
}

static inline void craft_u32(struct craft *c, __u32 v)
{
	craft_u16(c, v >> 16);
	craft_u16(c, v);
}

static inline void craft_u64(struct craft *c, __u64 v)
{
	craft_u32(c, v >> 32);
	craft_u32(c, v);
}

/* Message Header: Version 10, Length (set at the end), Export Time,
 * Sequence Number, Observation Domain ID. */
static inline void craft_msg(struct craft *c, __u32 seq, __u32 domain)
{
	c->len = 0;
	craft_u16(c, 10);
	craft_u16(c, 0);
	craft_u32(c, 1764620000);
	craft_u32(c, seq);
	craft_u32(c, domain);
}

static inline void craft_set(struct craft *c, __u16 set_id)
{
	c->set = c->len;
	craft_u16(c, set_id);
	craft_u16(c, 0);
}

static inline void craft_set_end(struct craft *c)
{
	__u16 l = c->len - c->set;

	c->b[c->set + 2] = l >> 8;
	c->b[c->set + 3] = l;
}

static inline size_t craft_end(struct craft *c)
{
	c->b[2] = c->len >> 8;
	c->b[3] = c->len;
	return c->len;
}

static inline void craft_field(struct craft *c, __u16 id, __u16 len, __u32 pen)
{
	craft_u16(c, pen ? (id | 0x8000) : id);
	craft_u16(c, len);
	if (pen)
		craft_u32(c, pen);
}

/* One template record (in an open Template Set); @nfields 15 is the whole
 * template above, fewer leave the last ones out. */
static inline void craft_template(struct craft *c, __u16 tid, __u32 pen, unsigned int nfields)
{
	static const struct { __u16 id, len; int ent; } f[] = {
		{ 325, 8, 0 }, { 2, 4, 1 }, { 1, 4, 1 }, { 3, 1, 1 }, { 192, 1, 0 },
		{ 8, 4, 0 }, { 12, 4, 0 }, { 4, 1, 0 }, { 7, 2, 0 }, { 11, 2, 0 },
		{ 10, 4, 0 }, { 14, 4, 0 }, { 4, 4, 1 }, { 6, 2, 1 }, { 5, 1, 1 },
	};
	unsigned int i;

	craft_u16(c, tid);
	craft_u16(c, nfields);
	for (i = 0; i < nfields; i++)
		craft_field(c, f[i].id, f[i].len, f[i].ent ? pen : 0);
}

static inline void craft_record(struct craft *c, const struct craft_rec *r)
{
	__u64 sec = r->ts_ns / 1000000000ULL, ns = r->ts_ns % 1000000000ULL;

	craft_u32(c, sec + CRAFT_NTP_OFF);
	craft_u32(c, (__u32)((ns << 32) / 1000000000ULL + ((ns << 32) % 1000000000ULL ? 1 : 0)));
	craft_u32(c, r->node);
	craft_u32(c, r->pkt);
	craft_u8(c, r->point);
	craft_u8(c, r->ttl);
	craft_u32(c, r->src);
	craft_u32(c, r->dst);
	craft_u8(c, r->proto);
	craft_u16(c, r->sport);
	craft_u16(c, r->dport);
	craft_u32(c, r->in_if);
	craft_u32(c, r->out_if);
	craft_u32(c, r->qdepth);
	craft_u16(c, r->flags);
	craft_u8(c, r->source);
}

#endif /* __HMC_IPFIX_CRAFT_H */
