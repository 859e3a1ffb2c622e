// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * maps.c - the map setters of the BPF_PROG_TEST_RUN tests and the settings
 * every test starts from (hm_maps_defaults()): node R (ID HM_T_NODE_ID),
 * one IOAM-Namespace, the three veths' interface IDs and fresh queue
 * readings, written as the CLI and hopmarkd write them (the structs of
 * common/hopmark_maps.h into the pinned maps of env).
 *
 * Apart from test_run.c so that bench/bpf_cost.c configures the maps with
 * the same code and values; the user provides env and hm_fail().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "bpf_test.h"

__u64 hm_now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void map_update(int fd, const void *key, const void *val, const char *what)
{
	if (bpf_map_update_elem(fd, key, val, BPF_ANY))
		hm_fail("setup: update of %s failed: %s", what, strerror(errno));
}

void hm_set_node(__u32 flags, __u32 node_id, __u64 node_id_wide, __s64 tai_offset_ns)
{
	struct hopmark_node_cfg n = {
		.flags = flags, .node_id = node_id, .node_id_wide = node_id_wide,
		.tai_offset_ns = tai_offset_ns, .qdepth_max_age_ns = HM_T_QDEPTH_MAX_AGE,
	};
	__u32 k = 0;

	map_update(env.fd_node, &k, &n, HM_MAP_NODE);
}

/*
 * An entry as the CLI writes it: with HM_IF_F_PRESENT (hopmark_ifcfg is an
 * array, hopmark_maps.h; a --before build of bench/ with the older hash
 * ignores the flag).
 */
void hm_set_ifcfg(int ifindex, __u16 flags, __u16 id, __u32 id_wide)
{
	struct hopmark_if_cfg c = {
		.flags = flags | HM_IF_F_PRESENT, .if_id = id, .if_id_wide = id_wide,
	};
	__u32 k = ifindex;

	map_update(env.fd_ifcfg, &k, &c, HM_MAP_IFCFG);
}

/* No entry: zeros in the array (a hash of an older build: deleted). */
static void map_clear(int fd, __u32 key)
{
	if (bpf_map_delete_elem(fd, &key) && errno == EINVAL)
		hm_map_zero_elem(fd, &key);
}

void hm_del_ifcfg(int ifindex)
{
	map_clear(env.fd_ifcfg, ifindex);
}

void hm_set_ns(__u32 ns, __u32 flags, __u32 data, __u64 data_wide)
{
	struct hopmark_ns_cfg c = {
		.flags = flags | HM_NS_F_KNOWN, .data = data, .data_wide = data_wide,
	};

	map_update(env.fd_ns, &ns, &c, HM_MAP_NS);
}

void hm_del_ns(__u32 ns)
{
	map_clear(env.fd_ns, ns);
}

void hm_set_qdepth(__u32 key, __u32 backlog, __u32 node_backlog, __u64 updated_ns)
{
	struct hopmark_qdepth q = {
		.backlog_bytes = backlog, .qlen = 1,
		.node_backlog_bytes = node_backlog, .node_qlen = 2,
		.updated_ns = updated_ns,
	};

	map_update(env.fd_qdepth, &key, &q, HM_MAP_QDEPTH);
}

void hm_del_qdepth(__u32 key)
{
	map_clear(env.fd_qdepth, key);
}

/*
 * A rule as written by stock tools (bpftool, a loader of its own): only
 * into hopmark_encap, hopmark_encap_filter left as it is.
 */
void hm_set_encap_trie_only(const __u8 *prefix, __u32 prefixlen,
			    const struct hopmark_encap_cfg *cfg)
{
	struct hopmark_encap_key k = { .prefixlen = prefixlen };

	memcpy(k.addr, prefix, 16);
	map_update(env.fd_encap, &k, cfg, HM_MAP_ENCAP);
}

/* The filter recomputed from all rules, as the CLI does after a change. */
static void encap_filter_sync(void)
{
	int err;

	if (env.fd_encap_filter < 0)
		return;	/* a --before build of bench/ without the filter */
	err = hm_encap_filter_sync(env.fd_encap, env.fd_encap_filter);
	if (err)
		hm_fail("setup: hm_encap_filter_sync(): %s", strerror(-err));
}

/* A rule as `hopmark ioam encap add` writes it: rule, then filter. */
void hm_set_encap(const __u8 *prefix, __u32 prefixlen, const struct hopmark_encap_cfg *cfg)
{
	hm_set_encap_trie_only(prefix, prefixlen, cfg);
	encap_filter_sync();
}

/* As `hopmark ioam encap del` deletes it: rule, then filter. */
void hm_del_encap(const __u8 *prefix, __u32 prefixlen)
{
	struct hopmark_encap_key k = { .prefixlen = prefixlen };

	memcpy(k.addr, prefix, 16);
	if (bpf_map_delete_elem(env.fd_encap, &k))
		hm_fail("setup: delete from %s failed: %s", HM_MAP_ENCAP, strerror(errno));
	encap_filter_sync();
}

bool hm_get_encap_filter(struct hopmark_encap_filter *f)
{
	__u32 k = 0;

	return env.fd_encap_filter >= 0 && !bpf_map_lookup_elem(env.fd_encap_filter, &k, f);
}

bool hm_get_encap(const __u8 *prefix, __u32 prefixlen, struct hopmark_encap_cfg *cfg)
{
	struct hopmark_encap_key k = { .prefixlen = prefixlen };

	memcpy(k.addr, prefix, 16);
	return bpf_map_lookup_elem(env.fd_encap, &k, cfg) == 0;
}

void hm_counters_read(int ifindex, struct hm_counters *c)
{
	struct hopmark_link_stats *v;
	__u32 k = ifindex;
	int cpu, i;

	memset(c, 0, sizeof(*c));
	v = calloc(env.ncpus, sizeof(*v));
	if (!v)
		return;
	if (bpf_map_lookup_elem(env.fd_stats, &k, v) == 0) {
		for (cpu = 0; cpu < env.ncpus; cpu++)
			for (i = 0; i < HM_CNT_MAX; i++)
				c->cnt[i] += v[cpu].cnt[i];
	}
	free(v);
}

bool hm_check_counters(int ifindex, const struct hm_counters *before, __u32 must, __u32 may)
{
	struct hm_counters now;
	bool ok = true;
	int i;

	hm_counters_read(ifindex, &now);
	for (i = 0; i < HM_CNT_MAX; i++) {
		__u64 d = now.cnt[i] - before->cnt[i];
		const char *name = hopmark_counter_names[i] ? hopmark_counter_names[i] : "?";

		if (must & HM_BIT(i)) {
			if (d != 1) {
				hm_fail("counter %s on ifindex %d: expected +1, got +%llu",
					name, ifindex, (unsigned long long)d);
				ok = false;
			}
		} else if (may & HM_BIT(i)) {
			if (d > 1) {
				hm_fail("counter %s on ifindex %d: expected +0 or +1, got +%llu",
					name, ifindex, (unsigned long long)d);
				ok = false;
			}
		} else if (d) {
			hm_fail("counter %s on ifindex %d: expected +0, got +%llu",
				name, ifindex, (unsigned long long)d);
			ok = false;
		}
	}
	return ok;
}

void hm_maps_defaults(void)
{
	__u64 mono = hm_now_ns(CLOCK_MONOTONIC);

	hm_set_node(HM_NODE_F_ID | HM_NODE_F_ID_WIDE, HM_T_NODE_ID, HM_T_NODE_ID_WIDE,
		    env.tai_offset_ns);
	hm_set_ns(HM_T_NS, HM_NS_F_DATA | HM_NS_F_DATA_WIDE, HM_T_NS_DATA, HM_T_NS_DATA_WIDE);
	hm_set_ifcfg(env.if_in, HM_IF_F_TRANSIT, HM_T_IN_ID, HM_T_IN_ID_WIDE);
	hm_set_ifcfg(env.if_out, HM_IF_F_TRANSIT, HM_T_OUT_ID, HM_T_OUT_ID_WIDE);
	hm_set_ifcfg(env.if_enc, HM_IF_F_ENCAP, HM_T_ENC_ID, HM_T_ENC_ID_WIDE);
	hm_set_qdepth(0, HM_T_OCCUPANCY, HM_T_OCCUPANCY, mono);
	hm_set_qdepth(env.if_out, HM_T_OUT_QDEPTH, HM_T_OUT_OCCUPANCY, mono);
}
