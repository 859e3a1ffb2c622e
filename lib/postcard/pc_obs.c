// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pc_obs.c - the portable encoding of struct hm_pc_obs: one postcard as
 * hopmark-collector's front collectors publish it to the broker and its
 * stitching workers read it back (Documentation/collector-scaleout.rst).
 * The struct itself is host-order with padding chosen by the compiler; this
 * encoding is the same on every architecture, so a front on one machine and
 * a worker on another agree.
 *
 * Version 1, HM_PC_OBS_WIRE_LEN (128) octets, big-endian:
 *
 *   octet   0      version (1)
 *   octet   1      source (HM_PC_SRC_*)
 *   octet   2      point (PBT_PT_INGRESS 1, PBT_PT_EGRESS 2)
 *   octet   3      ttl (TTL / Hop Limit)
 *   octet   4      tos
 *   octet   5      srh_flags
 *   octet   6      srh_sl
 *   octet   7      key.family (4 or 6)
 *   octet   8      key.proto
 *   octet   9      reserved, 0
 *   octets 10-11   flags (PBT_REC_F_*)
 *   octets 12-13   length, octets
 *   octets 14-15   key.sport, as on the wire
 *   octets 16-17   key.dport, as on the wire
 *   octets 18-19   reserved, 0
 *   octets 20-27   ts_ns, POSIX ns
 *   octets 28-31   node_id
 *   octets 32-35   pkt_id
 *   octets 36-39   in_if
 *   octets 40-43   out_if
 *   octets 44-47   qdepth, bytes
 *   octets 48-51   sojourn_ns
 *   octets 52-55   tpl_id
 *   octets 56-59   obs_domain
 *   octets 60-63   present (HM_PC_HAS_*)
 *   octets 64-79   key.saddr (IPv4: first 4 octets, 12 zero)
 *   octets 80-95   key.daddr
 *   octets 96-111  nexthop
 *   octets 112-127 srh_active
 */
#include <errno.h>
#include <string.h>

#include "common/byteorder.h"
#include "pbt/pbt_maps.h"
#include "postcard/pc_obs.h"

static void put_be64(__u8 *p, __u64 v)
{
	hm_put_be32(p, v >> 32);
	hm_put_be32(p + 4, (__u32)v);
}

int hm_pc_obs_encode(const struct hm_pc_obs *o, __u8 *buf, __u32 len)
{
	if (len < HM_PC_OBS_WIRE_LEN)
		return -ENOSPC;
	memset(buf, 0, HM_PC_OBS_WIRE_LEN);
	buf[0] = HM_PC_OBS_WIRE_VERSION;
	buf[1] = o->source;
	buf[2] = o->point;
	buf[3] = o->ttl;
	buf[4] = o->tos;
	buf[5] = o->srh_flags;
	buf[6] = o->srh_sl;
	buf[7] = o->key.family;
	buf[8] = o->key.proto;
	hm_put_be16(buf + 10, o->flags);
	hm_put_be16(buf + 12, o->length);
	memcpy(buf + 14, &o->key.sport, 2);
	memcpy(buf + 16, &o->key.dport, 2);
	put_be64(buf + 20, o->ts_ns);
	hm_put_be32(buf + 28, o->node_id);
	hm_put_be32(buf + 32, o->pkt_id);
	hm_put_be32(buf + 36, o->in_if);
	hm_put_be32(buf + 40, o->out_if);
	hm_put_be32(buf + 44, o->qdepth);
	hm_put_be32(buf + 48, o->sojourn_ns);
	hm_put_be32(buf + 52, o->tpl_id);
	hm_put_be32(buf + 56, o->obs_domain);
	hm_put_be32(buf + 60, o->present);
	memcpy(buf + 64, o->key.saddr, 16);
	memcpy(buf + 80, o->key.daddr, 16);
	memcpy(buf + 96, o->nexthop, 16);
	memcpy(buf + 112, o->srh_active, 16);
	return HM_PC_OBS_WIRE_LEN;
}

int hm_pc_obs_decode(struct hm_pc_obs *o, const __u8 *buf, __u32 len)
{
	struct hm_pc_obs v;

	if (len != HM_PC_OBS_WIRE_LEN)
		return -EMSGSIZE;
	if (buf[0] != HM_PC_OBS_WIRE_VERSION)
		return -EPROTO;
	if ((buf[7] != 4 && buf[7] != 6) ||
	    (buf[2] != PBT_PT_INGRESS && buf[2] != PBT_PT_EGRESS) ||
	    buf[9] || buf[18] || buf[19] ||
	    (hm_get_be32(buf + 60) & ~HM_PC_HAS_ALL))
		return -EINVAL;
	memset(&v, 0, sizeof(v));
	v.source = buf[1];
	v.point = buf[2];
	v.ttl = buf[3];
	v.tos = buf[4];
	v.srh_flags = buf[5];
	v.srh_sl = buf[6];
	v.key.family = buf[7];
	v.key.proto = buf[8];
	v.flags = hm_get_be16(buf + 10);
	v.length = hm_get_be16(buf + 12);
	memcpy(&v.key.sport, buf + 14, 2);
	memcpy(&v.key.dport, buf + 16, 2);
	v.ts_ns = hm_get_be64(buf + 20);
	v.node_id = hm_get_be32(buf + 28);
	v.pkt_id = hm_get_be32(buf + 32);
	v.in_if = hm_get_be32(buf + 36);
	v.out_if = hm_get_be32(buf + 40);
	v.qdepth = hm_get_be32(buf + 44);
	v.sojourn_ns = hm_get_be32(buf + 48);
	v.tpl_id = hm_get_be32(buf + 52);
	v.obs_domain = hm_get_be32(buf + 56);
	v.present = hm_get_be32(buf + 60);
	memcpy(v.key.saddr, buf + 64, 16);
	memcpy(v.key.daddr, buf + 80, 16);
	memcpy(v.nexthop, buf + 96, 16);
	memcpy(v.srh_active, buf + 112, 16);
	*o = v;
	return 0;
}
