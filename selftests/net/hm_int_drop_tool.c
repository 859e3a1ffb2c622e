// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_int_drop_tool.c - what selftests/net/test_int_drop.sh needs of the
 * INT drop reports before `hopmark int` and hopmarkd handle them: attach
 * and detach the int-drop role (lib/common/bpf_attach.c), write the INT
 * domain (int_cfg[0]) the way the CLI will, read drop records from
 * int_events and print them one JSON object per line, and print int_stats.
 *
 * Usage (in the node's namespace, TC_BPF_MNT set as hm_on does):
 *   hm_int_drop_tool attach | detach | query
 *   hm_int_drop_tool config [ dscp V/M | udp PORT ] [ trunc N ] [ bitmap B ] [ max-hops N ]
 *                    [ report-port P ] [ watch-family 4|6 [ watch-proto N ]
 *                    [ watch-dport P ] ]...
 * (each watch-family starts a watchlist rule; none: every packet watched)
 *   hm_int_drop_tool events COUNT TIMEOUT_MS
 *   hm_int_drop_tool stats
 *   hm_int_drop_tool role ROLE DEV { on [ IFFLAGS ] | off }
 * (ROLE: an INT role of lib/common/bpf_attach.c, int-xdp-source, int-sink,
 * ...; IFFLAGS: the INT_IF_F_* to write into int_ifcfg[DEV])
 *
 * events prints the records that arrive within TIMEOUT_MS, stopping after
 * COUNT; exit 0. Errors go to stderr with exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/bpf_attach.h"
#include "common/bpf_pin.h"
#include "int/int_maps.h"
#include "int/int_drop.h"

static int fail(const char *what, int err)
{
	fprintf(stderr, "hm_int_drop_tool: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

static int open_pinned(const char *name)
{
	char dir[4096], path[4200];
	int err = hm_pin_dir(dir, sizeof(dir));

	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = bpf_obj_get(path);
	return err < 0 ? -errno : err;
}

static int do_attach(void)
{
	char msg[HM_ATTACH_MSG_MAX];
	struct hm_role_prog p;
	int err;

	/* As the CLI does before any role: the node's maps exist, pinned. */
	err = hm_maps_create();
	if (err)
		return fail("hm_maps_create", err);
	err = hm_role_load(HM_ROLE_INT_DROP, &p, msg, sizeof(msg));
	if (!err)
		err = hm_role_attach(&p, 0, msg, sizeof(msg));
	hm_role_unload(&p);
	if (err) {
		fprintf(stderr, "hm_int_drop_tool: %s\n", msg);
		return 1;
	}
	return 0;
}

/*
 * An INT role (by its name in hm_roles[]: int-xdp-source, int-sink, ...)
 * on @dev, or off it; on, int_ifcfg[@dev] gets @ifflags (INT_IF_F_*).
 */
static int do_role(const char *name, const char *dev, int on, __u32 ifflags)
{
	char msg[HM_ATTACH_MSG_MAX];
	struct hm_role_prog p;
	struct int_if_cfg ic = { .flags = ifflags };
	__u32 ifindex = if_nametoindex(dev);
	enum hm_role role;
	int err, fd;

	for (role = 0; role < HM_ROLE_MAX; role++)
		if (hm_roles[role].family == HM_FAMILY_INT && !strcmp(hm_roles[role].name, name))
			break;
	if (role == HM_ROLE_MAX)
		return fail(name, ENOENT);
	if (!ifindex)
		return fail(dev, errno);
	if (!on) {
		err = hm_role_detach(role, ifindex, msg, sizeof(msg));
		goto out;
	}
	err = hm_maps_create();
	if (err)
		return fail("hm_maps_create", err);
	err = hm_role_load(role, &p, msg, sizeof(msg));
	if (!err)
		err = hm_role_attach(&p, ifindex, msg, sizeof(msg));
	hm_role_unload(&p);
	if (!err && ifflags) {
		fd = open_pinned(INT_MAP_IFCFG);
		if (fd < 0)
			return fail(INT_MAP_IFCFG, fd);
		if (bpf_map_update_elem(fd, &ifindex, &ic, BPF_ANY))
			return fail("int_ifcfg update", errno);
		close(fd);
	}
out:
	if (err) {
		fprintf(stderr, "hm_int_drop_tool: %s\n", msg);
		return 1;
	}
	return 0;
}

static int do_detach(void)
{
	char msg[HM_ATTACH_MSG_MAX];

	if (hm_role_detach(HM_ROLE_INT_DROP, 0, msg, sizeof(msg))) {
		fprintf(stderr, "hm_int_drop_tool: %s\n", msg);
		return 1;
	}
	return 0;
}

static int do_query(void)
{
	struct hm_attach_info info;
	int err = hm_role_query(HM_ROLE_INT_DROP, 0, &info);

	if (err)
		return fail("query", err);
	printf("{\"prog_id\":%u,\"ours\":%s,\"name\":\"%s\"}\n", info.prog_id,
	       info.ours ? "true" : "false", info.name);
	return 0;
}

static int do_config(int argc, char **argv)
{
	struct int_domain_cfg d;
	__u32 zero = 0;
	int fd, i;

	memset(&d, 0, sizeof(d));
	d.flags = INT_DOM_F_CONFIGURED;
	d.signal = INT_SIG_DSCP;
	d.dscp = 0x17;
	d.dscp_mask = 0x3f;
	d.bitmap = 0x9000;
	d.max_hops = 8;
	d.report_trunc = 128;
	for (i = 0; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "dscp")) {
			char *slash = strchr(argv[i + 1], '/');

			d.signal = INT_SIG_DSCP;
			d.dscp = v;
			d.dscp_mask = slash ? strtoul(slash + 1, NULL, 0) : 0x3f;
		} else if (!strcmp(argv[i], "udp")) {
			d.signal = INT_SIG_UDP;
			d.udp_port = v;
		} else if (!strcmp(argv[i], "trunc")) {
			d.report_trunc = v;
		} else if (!strcmp(argv[i], "bitmap")) {
			d.bitmap = v;
		} else if (!strcmp(argv[i], "max-hops")) {
			d.max_hops = v;
		} else if (!strcmp(argv[i], "report-port")) {
			d.rpt_family = 4;
			d.rpt_port = v;
		} else if (!strcmp(argv[i], "watch-dport")) {
			struct hm_sel_rule *r = &d.sel.rules[d.sel.nr_rules ? d.sel.nr_rules - 1 : 0];

			if (!d.sel.nr_rules)
				return fail("watch-dport needs a watch-family before it", EINVAL);
			r->dport = htons(v);
			r->dport_mask = 0xffff;
		} else if (!strcmp(argv[i], "watch-proto")) {
			struct hm_sel_rule *r = &d.sel.rules[d.sel.nr_rules ? d.sel.nr_rules - 1 : 0];

			if (!d.sel.nr_rules)
				return fail("watch-proto needs a watch-family before it", EINVAL);
			r->proto = v;
		} else if (!strcmp(argv[i], "watch-family")) {
			struct hm_sel_rule *r = &d.sel.rules[d.sel.nr_rules];

			if (d.sel.nr_rules >= HM_SEL_MAX_RULES)
				return fail("watch-family", E2BIG);
			d.sel.nr_rules++;
			r->family = v;
		} else {
			fprintf(stderr, "hm_int_drop_tool: config: unknown argument \"%s\"\n",
				argv[i]);
			return 1;
		}
	}
	if (i != argc) {
		fprintf(stderr, "hm_int_drop_tool: config: \"%s\" needs a value\n", argv[i]);
		return 1;
	}
	fd = open_pinned(INT_MAP_CFG);
	if (fd < 0)
		return fail(INT_MAP_CFG, fd);
	if (bpf_map_update_elem(fd, &zero, &d, BPF_ANY))
		return fail("int_cfg update", errno);
	close(fd);
	return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	const struct int_record *r = data;
	unsigned int *left = ctx;
	char dev[IF_NAMESIZE] = "";
	__u32 i;

	if (size < sizeof(*r))
		return 0;
	if (r->ifindex && !if_indextoname(r->ifindex, dev))
		dev[0] = '\0';
	printf("{\"kind\":%u,\"flags\":%u,\"drop_reason\":%u,\"reason\":\"%s\",\"family\":%u,"
	       "\"dev\":\"%s\",\"queue_id\":%u,\"node_id\":%u,\"rep_md_bits\":\"0x%04x\","
	       "\"md_len\":%u,\"md\":\"", r->kind, r->flags, r->drop_reason,
	       int_drop_reason_name(r->drop_reason), r->family, dev, r->queue_id, r->node_id,
	       r->rep_md_bits, r->md_len);
	for (i = 0; i < r->md_len && i < INT_REC_MD_MAX; i++)
		printf("%02x", r->md[i]);
	printf("\",\"pkt_len\":%u,\"orig_len\":%u,\"pkt\":\"", r->pkt_len, r->orig_len);
	for (i = 0; i < r->pkt_len && i < INT_REC_PKT_MAX; i++)
		printf("%02x", r->pkt[i]);
	printf("\",\"ts_ns\":%llu}\n", (unsigned long long)r->ts_ns);
	fflush(stdout);
	if (*left && !--*left)
		return 1;	/* stop ring_buffer__poll() */
	return 0;
}

static int do_events(unsigned int count, unsigned int timeout_ms)
{
	struct ring_buffer *rb;
	unsigned int left = count, waited = 0;
	int fd, err = 0;

	fd = open_pinned(INT_MAP_EVENTS);
	if (fd < 0)
		return fail(INT_MAP_EVENTS, fd);
	rb = ring_buffer__new(fd, on_record, &left, NULL);
	if (!rb)
		return fail("ring_buffer__new", errno);
	while (waited < timeout_ms && (!count || left)) {
		err = ring_buffer__poll(rb, 50);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		waited += 50;
	}
	ring_buffer__free(rb);
	close(fd);
	return err ? fail("ring_buffer__poll", err) : 0;
}

/* The counters the tests read, by the names they use. */
static const struct {
	int cnt;
	const char *name;
} cnt_names[] = {
	{ INT_CNT_DROP_REPORT, "drop_report" },
	{ INT_CNT_EVENTS_LOST, "events_lost" },
	{ INT_CNT_DROP_SINK_DISCARD, "drop_sink_discard" },
	{ INT_CNT_SRC_OK, "src_ok" },
	{ INT_CNT_SRC_NOT_WATCHED, "src_not_watched" },
	{ INT_CNT_SRC_NOT_SAMPLED, "src_not_sampled" },
	{ INT_CNT_SRC_MTU_NO_INT, "src_mtu_no_int" },
	{ INT_CNT_SRC_MTU_M, "src_mtu_m" },
	{ INT_CNT_SRC_GSO, "src_gso" },
	{ INT_CNT_SRC_HAS_INT, "src_has_int" },
	{ INT_CNT_SRC_PROTO, "src_proto" },
	{ INT_CNT_ERR, "err" },
	{ INT_CNT_NOT_CONFIGURED, "not_configured" },
	{ INT_CNT_XDP_NOT_TCP, "xdp_not_tcp" },
	{ INT_CNT_XDP_UNSUPPORTED, "xdp_unsupported" },
	{ INT_CNT_SINK_OK, "sink_ok" },
	{ INT_CNT_TRANSIT_OK, "transit_ok" },
	{ INT_CNT_MALFORMED, "malformed" },
	{ INT_CNT_GSO, "gso" },
	{ INT_CNT_CSUM_PARTIAL, "csum_partial" },
};

/* Sum of every CPU's counters, per interface: one JSON object per line. */
static int do_stats(void)
{
	int ncpu = libbpf_num_possible_cpus(), fd, c, k;
	struct int_link_stats *v;
	__u32 key, next, *prev = NULL;

	if (ncpu <= 0)
		return fail("possible cpus", ncpu);
	fd = open_pinned(INT_MAP_STATS);
	if (fd < 0)
		return fail(INT_MAP_STATS, fd);
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return fail("calloc", ENOMEM);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		__u64 sum[INT_CNT_MAX] = { 0 };
		char dev[IF_NAMESIZE] = "";

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, v))
			continue;
		for (c = 0; c < ncpu; c++)
			for (k = 0; k < INT_CNT_MAX; k++)
				sum[k] += v[c].cnt[k];
		if (key && !if_indextoname(key, dev))
			dev[0] = '\0';
		printf("{\"ifindex\":%u,\"dev\":\"%s\"", key, dev);
		for (k = 0; k < (int)(sizeof(cnt_names) / sizeof(cnt_names[0])); k++)
			printf(",\"%s\":%llu", cnt_names[k].name,
			       (unsigned long long)sum[cnt_names[k].cnt]);
		printf("}\n");
	}
	free(v);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "attach"))
		return do_attach();
	if (!strcmp(argv[1], "detach"))
		return do_detach();
	if (!strcmp(argv[1], "query"))
		return do_query();
	if (!strcmp(argv[1], "config"))
		return do_config(argc - 2, argv + 2);
	if (!strcmp(argv[1], "events") && argc == 4)
		return do_events(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (!strcmp(argv[1], "stats"))
		return do_stats();
	if (!strcmp(argv[1], "role") && (argc == 5 || argc == 6))
		return do_role(argv[2], argv[3], !strcmp(argv[4], "on"),
			       argc == 6 ? strtoul(argv[5], NULL, 0) : 0);
usage:
	fprintf(stderr, "usage: hm_int_drop_tool { attach | detach | query | config ARGS... |"
			" events COUNT TIMEOUT_MS | stats }\n");
	return 1;
}
