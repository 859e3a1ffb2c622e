// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_sink.c - per-flow PINT inference from the sink's ring buffer
 * records: path decoding (lib/pint/pint_decode.c), latency quantiles per hop
 * (KLL, lib/pint/kll.c) and the path's maximum utilisation; JSON output. See
 * lib/pint/pint_sink.h and Documentation/pint-datapath.rst.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/byteorder.h"
#include "common/ether.h"
#include "ipv4/ipv4.h"
#include "ipv6/ipv6.h"
#include "pint/kll.h"
#include "pint/pint_sink.h"

#define PINT_SINK_BUCKETS	1024

/**
 * struct pint_flow_key - what tells flows apart
 * @family:	4 or 6
 * @proto:	upper-layer protocol
 * @sport:	source port (host order)
 * @dport:	destination port (host order)
 * @saddr:	source address, network order (IPv4: 4 octets, rest 0)
 * @daddr:	destination address, network order
 */
struct pint_flow_key {
	__u8	family;
	__u8	proto;
	__u16	sport;
	__u16	dport;
	__u8	saddr[16];
	__u8	daddr[16];
};

/**
 * struct pint_flow - inference state of one flow
 * @key:		flow
 * @next:		hash chain
 * @packets:		records of the flow
 * @hops:		hop count of the last record
 * @dec:		path decoder (NULL when the plan has no path query)
 * @path_packets:	records that carried the path field
 * @paths:		decoded paths, most recent first (@n_paths of them);
 *			@paths[0] is the current one once complete
 * @path_len:		their hop counts
 * @n_paths:		entries of @paths in use
 * @cur_complete:	@paths[0] is the current inference's decoded path
 * @lat:		per hop (index hop - 1) KLL sketch of latency in ns
 * @util_samples:	records that carried the utilisation field
 * @util_max:		largest 8-bit utilisation code seen
 * @util_last:		code of the last record
 */
struct pint_flow {
	struct pint_flow_key	key;
	struct pint_flow	*next;
	unsigned long		packets;
	unsigned int		hops;
	struct pint_decoder	*dec;
	unsigned long		path_packets;
	__u32			paths[PINT_SINK_PATHS][PINT_MAX_HOPS];
	unsigned int		path_len[PINT_SINK_PATHS];
	unsigned int		n_paths;
	bool			cur_complete;
	struct kll_sketch	*lat[PINT_MAX_HOPS];
	unsigned long		util_samples;
	unsigned int		util_max;
	unsigned int		util_last;
};

/**
 * struct pint_sink - inference state of one sink
 * @cfg:	the domain's settings
 * @lat:	latency scale (decoding codes to ns)
 * @have_lat:	the plan has a latency query
 * @ids:	decoder universe: every switch ID id_min..id_max
 * @topo:	the same as a struct pint_topo (no adjacency: topology-blind),
 *		or a copy of the one pint_sink_set_topology() lends
 * @dec_flags:	flags of every flow's decoder (PINT_DEC_F_TOPO_AWARE)
 * @last_util:	8-bit utilisation code of the last record pint_sink_add()
 *		took, -1 when that record carried no utilisation field
 * @bucket:	flow hash table
 * @order:	flows in arrival order (JSON output)
 * @st:		counters
 */
struct pint_sink {
	struct pint_domain_cfg	cfg;
	struct pint_lat_table	lat;
	bool			have_lat;
	__u32			*ids;
	struct pint_topo	topo;
	unsigned int		dec_flags;
	int			last_util;
	struct pint_flow	*bucket[PINT_SINK_BUCKETS];
	struct pint_flow	**order;	/* flows in arrival order */
	struct pint_sink_stats	st;
};

int pint_domain_cfg_check(const struct pint_domain_cfg *cfg)
{
	if (!(cfg->flags & PINT_DOM_F_CONFIGURED))
		return -EINVAL;
	if (pint_query_plan_check(&cfg->plan) || cfg->plan.budget > PINT_WIRE_BITS)
		return -EINVAL;
	if (cfg->id_min > cfg->id_max || cfg->id_max - cfg->id_min >= PINT_SINK_MAX_IDS)
		return -EINVAL;
	if (cfg->q_path != PINT_QUERY_NONE &&
	    (cfg->q_path >= cfg->plan.nr_queries || pint_path_params_check(&cfg->path) ||
	     pint_path_width(&cfg->path) != cfg->plan.bits[cfg->q_path]))
		return -EINVAL;
	if (cfg->q_lat != PINT_QUERY_NONE &&
	    (cfg->q_lat >= cfg->plan.nr_queries || cfg->lat.bits != cfg->plan.bits[cfg->q_lat]))
		return -EINVAL;
	if (cfg->q_util != PINT_QUERY_NONE &&
	    (cfg->q_util >= cfg->plan.nr_queries || cfg->plan.bits[cfg->q_util] > 8))
		return -EINVAL;
	return 0;
}

struct pint_sink *pint_sink_new(const struct pint_domain_cfg *cfg)
{
	struct pint_sink *s;
	__u32 i, n;

	if (pint_domain_cfg_check(cfg)) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->last_util = -1;
	if (cfg->q_lat != PINT_QUERY_NONE) {
		if (pint_lat_table_for_range(&s->lat, cfg->lat.bits, cfg->lat_min_ns,
					     cfg->lat_max_ns)) {
			free(s);
			errno = EINVAL;
			return NULL;
		}
		s->have_lat = true;
	}
	n = cfg->id_max - cfg->id_min + 1;
	s->ids = calloc(n, sizeof(*s->ids));
	s->order = calloc(PINT_SINK_MAX_FLOWS, sizeof(*s->order));
	if (!s->ids || !s->order) {
		pint_sink_free(s);
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		s->ids[i] = cfg->id_min + i;
	s->topo.nr_nodes = n;
	s->topo.node_id = s->ids;
	return s;
}

int pint_sink_set_topology(struct pint_sink *s, const struct pint_topo *topo)
{
	if (!topo->nr_nodes || !topo->node_id || !topo->adj_off || !topo->adj)
		return -EINVAL;
	if (s->st.flows)
		return -EBUSY;
	s->topo = *topo;
	s->dec_flags = PINT_DEC_F_TOPO_AWARE;
	return 0;
}

static void flow_free(struct pint_flow *f)
{
	unsigned int h;

	pint_decoder_free(f->dec);
	for (h = 0; h < PINT_MAX_HOPS; h++)
		kll_free(f->lat[h]);
	free(f);
}

void pint_sink_free(struct pint_sink *s)
{
	unsigned long i;

	if (!s)
		return;
	if (s->order)
		for (i = 0; i < s->st.flows; i++)
			flow_free(s->order[i]);
	free(s->order);
	free(s->ids);
	free(s);
}

const struct pint_sink_stats *pint_sink_stats(const struct pint_sink *s)
{
	return &s->st;
}

int pint_sink_last_util(const struct pint_sink *s)
{
	return s->last_util < 0 ? -ENOENT : s->last_util;
}

static unsigned int key_hash(const struct pint_flow_key *k)
{
	__u32 h = pint_hash32(PINT_PID_SEED, pint_le32(k->saddr) ^ pint_le32(k->saddr + 12),
			      pint_le32(k->daddr) ^ pint_le32(k->daddr + 12));

	h = pint_hash32(h, (__u32)k->sport << 16 | k->dport, (__u32)k->family << 8 | k->proto);
	return h % PINT_SINK_BUCKETS;
}

static struct pint_flow *flow_get(struct pint_sink *s, const struct pint_flow_key *k)
{
	unsigned int b = key_hash(k);
	struct pint_flow *f;

	for (f = s->bucket[b]; f; f = f->next)
		if (!memcmp(&f->key, k, sizeof(*k)))
			return f;
	if (s->st.flows >= PINT_SINK_MAX_FLOWS) {
		s->st.flows_refused++;
		errno = ENOSPC;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->key = *k;
	if (s->cfg.q_path != PINT_QUERY_NONE) {
		f->dec = pint_decoder_new(&s->cfg.path, &s->topo, s->dec_flags, PINT_MAX_HOPS);
		if (!f->dec) {
			free(f);
			return NULL;
		}
	}
	f->next = s->bucket[b];
	s->bucket[b] = f;
	s->order[s->st.flows++] = f;
	return f;
}

/* Keep the completed path at the head of the flow's history. */
static void flow_path_done(struct pint_flow *f)
{
	__u32 ids[PINT_MAX_HOPS];
	int k = pint_decoder_path(f->dec, ids, PINT_MAX_HOPS);

	if (k <= 0)
		return;
	if (!f->cur_complete) {
		memmove(f->paths[1], f->paths[0], sizeof(f->paths[0]) * (PINT_SINK_PATHS - 1));
		memmove(f->path_len + 1, f->path_len,
			sizeof(f->path_len[0]) * (PINT_SINK_PATHS - 1));
		if (f->n_paths < PINT_SINK_PATHS)
			f->n_paths++;
	}
	memcpy(f->paths[0], ids, sizeof(ids[0]) * k);
	f->path_len[0] = k;
	f->cur_complete = true;
}

static void flow_lat_reset(struct pint_flow *f)
{
	unsigned int h;

	for (h = 0; h < PINT_MAX_HOPS; h++) {
		kll_free(f->lat[h]);
		f->lat[h] = NULL;
	}
}

int pint_sink_add(struct pint_sink *s, const void *data, size_t size)
{
	const struct pint_query_plan *plan = &s->cfg.plan;
	struct pint_record r;
	struct pint_flow_key k = {};
	struct pint_flow *f;
	__u32 set, q, off, field, w;
	int ret = 0;
	double ns;

	s->st.records++;
	s->last_util = -1;
	if (size < sizeof(r)) {
		s->st.bad_records++;
		return -EINVAL;
	}
	memcpy(&r, data, sizeof(r));
	if (!r.hops || r.hops > PINT_MAX_HOPS || (r.family != 4 && r.family != 6)) {
		s->st.bad_records++;
		return -EINVAL;
	}
	k.family = r.family;
	k.proto = r.proto;
	k.sport = r.sport;
	k.dport = r.dport;
	memcpy(k.saddr, r.saddr, r.family == 4 ? 4 : 16);
	memcpy(k.daddr, r.daddr, r.family == 4 ? 4 : 16);
	f = flow_get(s, &k);
	if (!f)
		return -errno;
	f->packets++;
	f->hops = r.hops;
	/* The datapath's subset, recomputed: both come from the ID alone. */
	set = pint_query_select(plan, r.pid);

	q = s->cfg.q_path;
	if (q != PINT_QUERY_NONE && (off = plan->set[set].offset[q]) != PINT_QUERY_NONE) {
		field = pint_field_get(r.digest, off, plan->bits[q]);
		f->path_packets++;
		ret = pint_decoder_add(f->dec, r.pid, field, r.hops);
		if (ret & PINT_DEC_ROUTE_CHANGE) {
			f->cur_complete = false;
			flow_lat_reset(f);
		}
		if (ret & PINT_DEC_COMPLETE)
			flow_path_done(f);
	}
	q = s->cfg.q_lat;
	if (s->have_lat && q != PINT_QUERY_NONE &&
	    (off = plan->set[set].offset[q]) != PINT_QUERY_NONE) {
		field = pint_field_get(r.digest, off, plan->bits[q]);
		w = pint_lat_writer(&plan->seeds, r.pid, r.hops);
		if (w && !pint_lat_decode(&s->lat, field, &ns)) {
			if (!f->lat[w - 1])
				f->lat[w - 1] = kll_new(PINT_SINK_KLL_K, 0x5049ULL + w);
			if (f->lat[w - 1])
				kll_update(f->lat[w - 1], ns);
		}
	}
	q = s->cfg.q_util;
	if (q != PINT_QUERY_NONE && (off = plan->set[set].offset[q]) != PINT_QUERY_NONE) {
		field = pint_util_field_code8(pint_field_get(r.digest, off, plan->bits[q]),
					      plan->bits[q]);
		f->util_samples++;
		f->util_last = field;
		s->last_util = (int)field;
		if (field > f->util_max)
			f->util_max = field;
	}
	return ret;
}

static struct json_object *ids_json(const __u32 *ids, unsigned int k)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; a && i < k; i++)
		json_object_array_add(a, json_object_new_int64(ids[i]));
	return a;
}

static void addr_str(const struct pint_flow_key *k, const __u8 *a, char *buf, size_t len)
{
	if (!inet_ntop(k->family == 4 ? AF_INET : AF_INET6, a, buf, len))
		snprintf(buf, len, "?");
}

static struct json_object *flow_json(const struct pint_sink *s, const struct pint_flow *f)
{
	struct json_object *o = json_object_new_object(), *p, *a, *h, *u;
	static const double qs[3] = { 0.5, 0.9, 0.99 };
	static const char *const qn[3] = { "p50_ns", "p90_ns", "p99_ns" };
	const struct pint_decoder_stats *ds;
	char buf[INET6_ADDRSTRLEN];
	double out[3];
	unsigned int i, j;

	if (!o)
		return NULL;
	json_object_object_add(o, "family", json_object_new_int(f->key.family));
	addr_str(&f->key, f->key.saddr, buf, sizeof(buf));
	json_object_object_add(o, "src", json_object_new_string(buf));
	addr_str(&f->key, f->key.daddr, buf, sizeof(buf));
	json_object_object_add(o, "dst", json_object_new_string(buf));
	json_object_object_add(o, "proto", json_object_new_int(f->key.proto));
	json_object_object_add(o, "sport", json_object_new_int(f->key.sport));
	json_object_object_add(o, "dport", json_object_new_int(f->key.dport));
	json_object_object_add(o, "packets", json_object_new_int64(f->packets));
	json_object_object_add(o, "hops", json_object_new_int(f->hops));

	if (f->dec) {
		ds = pint_decoder_stats(f->dec);
		p = json_object_new_object();
		json_object_object_add(p, "complete", json_object_new_boolean(f->cur_complete));
		json_object_object_add(p, "packets", json_object_new_int64(f->path_packets));
		if (f->cur_complete) {
			json_object_object_add(p, "hops", json_object_new_int(f->path_len[0]));
			json_object_object_add(p, "ids", ids_json(f->paths[0], f->path_len[0]));
			json_object_object_add(p, "packets_to_decode",
					       json_object_new_int64(ds->packets_to_decode));
			json_object_object_add(p, "loop", json_object_new_boolean(
				pint_path_has_loop(f->paths[0], f->path_len[0]) != 0));
		} else {
			a = json_object_new_array();
			for (i = 1; i <= f->hops; i++)
				json_object_array_add(a, json_object_new_int(
					pint_decoder_candidates(f->dec, i)));
			json_object_object_add(p, "candidates", a);
		}
		json_object_object_add(p, "route_changes", json_object_new_int64(ds->route_changes));
		json_object_object_add(p, "loops", json_object_new_int64(ds->loops));
		json_object_object_add(o, "path", p);
		a = json_object_new_array();
		for (i = f->cur_complete ? 1 : 0; i < f->n_paths; i++)
			json_object_array_add(a, ids_json(f->paths[i], f->path_len[i]));
		json_object_object_add(o, "previous_paths", a);
	}
	if (s->have_lat) {
		a = json_object_new_array();
		for (i = 0; i < PINT_MAX_HOPS; i++) {
			if (!f->lat[i] || kll_quantiles(f->lat[i], qs, 3, out))
				continue;
			h = json_object_new_object();
			json_object_object_add(h, "hop", json_object_new_int(i + 1));
			json_object_object_add(h, "samples",
					       json_object_new_int64(kll_count(f->lat[i])));
			for (j = 0; j < 3; j++)
				json_object_object_add(h, qn[j], json_object_new_int64(out[j] + 0.5));
			json_object_array_add(a, h);
		}
		json_object_object_add(o, "latency", a);
	}
	if (s->cfg.q_util != PINT_QUERY_NONE) {
		u = json_object_new_object();
		json_object_object_add(u, "samples", json_object_new_int64(f->util_samples));
		json_object_object_add(u, "max", json_object_new_double(
			pint_util_decode(f->util_max)));
		json_object_object_add(u, "max_code", json_object_new_int(f->util_max));
		json_object_object_add(u, "last", json_object_new_double(
			pint_util_decode(f->util_last)));
		json_object_object_add(o, "util", u);
	}
	return o;
}

struct json_object *pint_sink_to_json(const struct pint_sink *s)
{
	struct json_object *o = json_object_new_object(), *a, *st;
	unsigned long i;

	if (!o)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < s->st.flows; i++)
		json_object_array_add(a, flow_json(s, s->order[i]));
	json_object_object_add(o, "flows", a);
	st = json_object_new_object();
	json_object_object_add(st, "records", json_object_new_int64(s->st.records));
	json_object_object_add(st, "bad_records", json_object_new_int64(s->st.bad_records));
	json_object_object_add(st, "flows", json_object_new_int64(s->st.flows));
	json_object_object_add(st, "flows_refused", json_object_new_int64(s->st.flows_refused));
	json_object_object_add(o, "stats", st);
	json_object_object_add(o, "decoder", json_object_new_string(
		s->dec_flags & PINT_DEC_F_TOPO_AWARE ? "topology-aware" : "topology-blind"));
	json_object_object_add(o, "switches", json_object_new_int64(s->topo.nr_nodes));
	return o;
}

/* ---------------- the datapath's parsing, in userspace ---------------- */

static void l4_bytes(const __u8 *p, size_t have, __u32 avail, __u8 *l4)
{
	memset(l4, 0, PINT_PID_L4_LEN);
	if (avail >= PINT_PID_L4_LEN && have >= PINT_PID_L4_LEN)
		memcpy(l4, p, PINT_PID_L4_LEN);
	else if (avail >= PINT_PID_L4_SHORT && have >= PINT_PID_L4_SHORT)
		memcpy(l4, p, PINT_PID_L4_SHORT);
}

int pint_frame_parse(const __u8 *frame, size_t len, struct pint_frame_info *info)
{
	const __u8 *ip = frame + HM_ETH_HLEN, *l4p;
	__u8 l4[PINT_PID_L4_LEN], nh;
	__u32 ihl, tot, frag, plen, flow;

	memset(info, 0, sizeof(*info));
	if (len < HM_ETH_HLEN + HM_IPV4_HDR_LEN)
		return -EINVAL;
	if (hm_get_be16(frame + 12) == HM_ETH_P_IP) {
		if ((ip[0] >> 4) != 4)
			return -EINVAL;
		ihl = (ip[0] & 0x0f) * 4;
		tot = hm_get_be16(ip + HM_IPV4_OFF_TOT_LEN);
		if (ihl < HM_IPV4_HDR_LEN || tot < ihl || len < HM_ETH_HLEN + ihl)
			return -EINVAL;
		frag = hm_get_be16(ip + HM_IPV4_OFF_FRAG);
		if (frag & (HM_IPV4_F_MF | HM_IPV4_OFFSET_MASK))
			return -EAGAIN;
		if (!(frag & HM_IPV4_F_DF))
			return -EAGAIN;
		info->family = 4;
		info->ttl = ip[HM_IPV4_OFF_TTL];
		info->digest = hm_get_be16(ip + HM_IPV4_OFF_ID);
		l4_bytes(ip + ihl, len - HM_ETH_HLEN - ihl, tot - ihl, l4);
		info->pid = pint_pid_v4(ip + HM_IPV4_OFF_SADDR, ip + HM_IPV4_OFF_DADDR,
					ip[HM_IPV4_OFF_PROTOCOL], tot, l4);
		return 0;
	}
	if (hm_get_be16(frame + 12) != HM_ETH_P_IPV6 || len < HM_ETH_HLEN + HM_IPV6_HDR_LEN ||
	    (ip[0] >> 4) != 6)
		return -EINVAL;
	info->family = 6;
	info->ttl = ip[HM_IPV6_OFF_HOP_LIMIT];
	plen = hm_get_be16(ip + HM_IPV6_OFF_PAYLOAD_LEN);
	nh = ip[HM_IPV6_OFF_NEXTHDR];
	l4p = ip + HM_IPV6_HDR_LEN;
	if (nh == HM_NEXTHDR_HOP && plen >= PINT_IP6_HBH_LEN &&
	    len >= HM_ETH_HLEN + HM_IPV6_HDR_LEN + PINT_IP6_HBH_LEN &&
	    l4p[1] == 0 && l4p[2] == PINT_IP6_OPT_TYPE && l4p[3] == PINT_IP6_OPT_DATA_LEN) {
		info->has_opt = 1;
		info->digest = (__u16)l4p[4] << 8 | l4p[5];
		info->count = l4p[6];
		nh = l4p[0];
		plen -= PINT_IP6_HBH_LEN;
		l4p += PINT_IP6_HBH_LEN;
	}
	if (nh == HM_NEXTHDR_FRAGMENT)
		return -EAGAIN;
	flow = ((__u32)(ip[1] & 0x0f) << 16) | ((__u32)ip[2] << 8) | ip[3];
	l4_bytes(l4p, len - (size_t)(l4p - frame), plen, l4);
	info->pid = pint_pid_v6(ip + HM_IPV6_OFF_SADDR, ip + HM_IPV6_OFF_DADDR, nh, plen, flow, l4);
	return 0;
}
