// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * link.c - "hopmark link": per-interface IOAM settings (hopmark_ifcfg, an
 * array indexed by ifindex whose set entries have HM_IF_F_PRESENT):
 * the short and wide interface IDs (RFC 9197 §4.4.2.2, §4.4.2.10), the
 * roles enabled on the interface, which programs run on it, and with -s
 * the datapath counters of hopmark_stats summed over all CPUs.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark_cli.h"
#include "pbt/pbt_maps.h"

#define HM_IF_ID_MAX		(HM_IOAM_U16_UNAVAILABLE - 1)
#define HM_IF_ID_WIDE_MAX	(HM_IOAM_U32_UNAVAILABLE - 1)

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark link set dev DEV [ id ID ] [ wide-id ID ]\n"
		"       hopmark [ -s ] link show [ dev DEV ]\n"
		"where  ID (id) := 0..65534 (0xfffe; 0xffff means unavailable)\n"
		"       ID (wide-id) := 0..4294967294 (0xfffffffe)\n");
}

static int link_set(int argc, char **argv)
{
	struct hopmark_if_cfg cfg;
	const char *dev = NULL;
	bool have_id = false, have_wide = false;
	__u32 id = 0, wide = 0, ifindex;
	int fd, err;

	while (argc > 0) {
		if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (have_id)
				duparg("id", *argv);
			id = get_u32_arg(*argv, HM_IF_ID_MAX,
					 "interface id (16 bits)");
			have_id = true;
		} else if (matches(*argv, "wide-id")) {
			NEXT_ARG();
			if (have_wide)
				duparg("wide-id", *argv);
			wide = get_u32_arg(*argv, HM_IF_ID_WIDE_MAX,
					   "wide interface id (32 bits)");
			have_wide = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("link set", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "link set");
	ifindex = ifindex_check(dev, get_ifindex_arg(dev));

	err = maps_prepare();
	if (err)
		return err;
	fd = map_open_existing(HM_MAP_IFCFG);
	if (fd < 0)
		return HM_EXIT_FAIL;
	err = ifcfg_get(fd, ifindex, &cfg);
	if (err < 0) {
		close(fd);
		return hm_errf(err, "cannot read %s", HM_MAP_IFCFG);
	}
	if (have_id)
		cfg.if_id = id;
	if (have_wide)
		cfg.if_id_wide = wide;
	cfg.flags |= HM_IF_F_PRESENT;
	err = 0;
	if (bpf_map_update_elem(fd, &ifindex, &cfg, BPF_ANY))
		err = hm_errf(-errno, "cannot write %s for %s", HM_MAP_IFCFG, dev);
	close(fd);
	return err;
}

static void print_id(const char *key, const char *label, __u64 id, __u64 unavailable)
{
	char fmt[32];

	/* Same key in both forms; the word "unavailable" for the all-ones ID. */
	if (id == unavailable) {
		snprintf(fmt, sizeof(fmt), "%s %%s ", label);
		print_null(PRINT_ANY, key, fmt, "unavailable");
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%llu ", label);
		print_uint(PRINT_ANY, key, fmt, id);
	}
}

/*
 * The IOAM or PBT-M role a program of ours plays, by name; HM_ROLE_MAX if
 * none. This command lists hopmark_ifcfg (IOAM settings) and pbt_ifcfg
 * (PBT-M roles): PINT's programs are shown as any other program of ours
 * attached with tc.
 */
static enum hm_role role_of(const char *name)
{
	enum hm_role role = hm_role_of_prog(name);

	return role < HM_ROLE_MAX && (hm_roles[role].family == HM_FAMILY_IOAM ||
				      hm_roles[role].family == HM_FAMILY_PBT) ? role :
										HM_ROLE_MAX;
}

/* Start one program's line (text) / object (JSON): hook, name, id, role. */
static void print_prog_head(const char *hook, const char *name, __u32 id)
{
	enum hm_role role = role_of(name);

	open_json_object(NULL);
	print_string(PRINT_ANY, "hook", "      %-10s", hook);
	print_string(PRINT_ANY, "name", " %-15s", name);
	print_uint(PRINT_ANY, "id", " id %-5llu", id);
	if (role < HM_ROLE_MAX)
		print_string(PRINT_ANY, "role", " %s,", hm_roles[role].name);
	else
		print_null(PRINT_JSON, "role", NULL, NULL);
}

static void print_prog_tail(const char *name)
{
	bool ours = hm_prog_is_ours(name);

	print_bool(PRINT_JSON, "foreign", NULL, !ours);
	if (!ours)
		print_text(", foreign (not hopmark's)");
	print_nl();
	close_json_object();
}

static unsigned int print_tc_hook(__u32 ifindex, bool ingress)
{
	const char *hook = ingress ? "tc ingress" : "tc egress";
	struct hm_tc_dump d;
	char name[BPF_OBJ_NAME_LEN];
	unsigned int i;
	int err;

	err = hm_tc_bpf_filters(ifindex, ingress, &d);
	if (err) {
		print_text("      %-10s (cannot list filters: %s)\n", hook, strerror(-err));
		return 0;
	}
	for (i = 0; i < d.n; i++) {
		const struct hm_tc_bpf_filter *f = &d.f[i];
		enum hm_role role;
		bool by_hm;

		hm_prog_name(f->prog_id, name, sizeof(name));
		role = role_of(name);
		/* hopmark's own attachment: the role's handle and priority. */
		by_hm = role < HM_ROLE_MAX && hm_roles[role].hook != HM_HOOK_XDP &&
			f->handle == hm_roles[role].tc_handle &&
			f->pref == hm_roles[role].tc_prio;
		print_prog_head(hook, name, f->prog_id);
		/* As each tool names it: hopmark's handle/prio, tc's pref. */
		print_string(PRINT_ANY, "attached_by", " %s", by_hm ? "hopmark" : "tc");
		if (by_hm)
			print_text(" handle 0x%x prio 0x%x", f->handle, f->pref);
		else
			print_text(" pref %u handle 0x%x", f->pref, f->handle);
		print_uint(PRINT_JSON, "pref", NULL, f->pref);
		print_hex(PRINT_JSON, "handle", "0x%llx", f->handle);
		print_bool(PRINT_JSON, "direct_action", NULL, f->da);
		if (!f->da)
			print_text(" (not direct-action)");
		/* tc(8) names it OBJECT:[SECTION]; libbpf PROG:[ID], no news. */
		if (f->tc_name[0])
			print_string(by_hm ? PRINT_JSON : PRINT_ANY, "tc_name", " %s",
				     f->tc_name);
		print_prog_tail(name);
	}
	if (d.skipped) {
		print_text("      %-10s %u more filters not shown\n", hook, d.skipped);
		print_uint(PRINT_JSON, ingress ? "ingress_not_shown" : "egress_not_shown",
			   NULL, d.skipped);
	}
	return d.n;
}

/*
 * Every BPF program on the interface's hooks, whoever attached it: XDP,
 * then the clsact egress and ingress filters in the order they run.
 */
static void print_programs(__u32 ifindex)
{
	struct hm_attach_info info;
	unsigned int n = 0;

	print_text("    programs:\n");
	open_json_array(PRINT_JSON, "programs");
	if (!hm_role_query(HM_ROLE_TRANSIT_IN, ifindex, &info) && info.prog_id) {
		print_prog_head("xdp", info.name[0] ? info.name : "?", info.prog_id);
		print_string(PRINT_ANY, "xdp_mode", " mode %s", info.xdp_mode ?: "?");
		print_prog_tail(info.name);
		n++;
	}
	n += print_tc_hook(ifindex, false);
	n += print_tc_hook(ifindex, true);
	if (!n)
		print_text("      none\n");
	close_json_array(PRINT_JSON, NULL);
}

static void print_counters(int stats_fd, __u32 ifindex)
{
	struct hopmark_link_stats *per_cpu, sum;
	int ncpus = libbpf_num_possible_cpus();
	unsigned int i, c;

	if (stats_fd < 0 || ncpus <= 0)
		return;
	memset(&sum, 0, sizeof(sum));
	per_cpu = calloc(ncpus, sizeof(*per_cpu));
	if (!per_cpu)
		return;
	/* Per-CPU values are 8-byte aligned; our value is a multiple of 8. */
	if (!bpf_map_lookup_elem(stats_fd, &ifindex, per_cpu)) {
		for (c = 0; c < (unsigned int)ncpus; c++)
			for (i = 0; i < HM_CNT_MAX; i++)
				sum.cnt[i] += per_cpu[c].cnt[i];
	}
	free(per_cpu);

	open_json_object("stats");
	print_text("    counters:");
	for (i = 0; i < HM_CNT_MAX; i++) {
		if (i % 3 == 0)
			print_text("\n      ");
		print_text("%-22s", hopmark_counter_names[i]);
		print_uint(PRINT_ANY, hopmark_counter_names[i], " %-10llu", sum.cnt[i]);
	}
	print_nl();
	close_json_object();
}

/*
 * The interface's PBT-M roles (pbt_ifcfg), when it has any: text "    pbt
 * roles head egress", JSON "pbt": {"roles": [...], "xdp": B}; with -s its
 * PBT-M counters follow the IOAM ones (postcard.c).
 */
static void print_pbt(__u32 ifindex)
{
	__u32 flags;
	bool xdp;

	if (!pbt_link_roles(ifindex, &flags, &xdp))
		return;
	open_json_object("pbt");
	print_text("    pbt roles");
	pbt_print_roles(flags, xdp);
	print_nl();
	close_json_object();
}

static void print_link(__u32 ifindex, const struct hopmark_if_cfg *cfg, int stats_fd)
{
	char name[IF_NAMESIZE];

	open_json_object(NULL);
	print_uint(PRINT_ANY, "ifindex", "%llu: ", ifindex);
	print_string(PRINT_ANY, "ifname", "%s: ", ifname_or_index(ifindex, name));
	print_id("id", "id", cfg->if_id, HM_IOAM_U16_UNAVAILABLE);
	print_id("wide_id", "wide-id", cfg->if_id_wide, HM_IOAM_U32_UNAVAILABLE);
	open_json_array(PRINT_ANY, "roles");
	if (cfg->flags & HM_IF_F_TRANSIT)
		print_string(PRINT_ANY, NULL, "%s ", "transit");
	if (cfg->flags & HM_IF_F_DECAP)
		print_string(PRINT_ANY, NULL, "%s ", "decap");
	if (cfg->flags & HM_IF_F_ENCAP)
		print_string(PRINT_ANY, NULL, "%s ", "encap");
	if (!(cfg->flags & (HM_IF_F_TRANSIT | HM_IF_F_DECAP | HM_IF_F_ENCAP)))
		print_string(PRINT_FP, NULL, "%s ", "none");
	close_json_array(PRINT_ANY, NULL);
	print_nl();
	print_pbt(ifindex);
	print_programs(ifindex);
	if (show_stats) {
		print_counters(stats_fd, ifindex);
		pbt_print_link_counters(ifindex);
	}
	close_json_object();
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static int link_show(int argc, char **argv)
{
	__u32 keys[HM_MAX_IFINDEX + PBT_IFINDEX_LIMIT], filter = 0, pflags;
	struct hopmark_if_cfg cfg;
	unsigned int n = 0, i, j, m, base;
	bool pxdp;
	int fd, stats_fd = -1, err;

	while (argc > 0) {
		if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (filter)
				duparg("dev", *argv);
			filter = get_ifindex_arg(*argv);
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("link show", *argv);
		}
		argc--;
		argv++;
	}
	fd = map_open_existing(HM_MAP_IFCFG);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (show_stats) {
		stats_fd = map_open_existing(HM_MAP_STATS);
		if (stats_fd < 0) {
			close(fd);
			return HM_EXIT_FAIL;
		}
	}

	if (filter) {
		err = ifcfg_get(fd, filter, &cfg);
		if (err == 0 && !pbt_link_roles(filter, &pflags, &pxdp)) {
			char name[IF_NAMESIZE];

			close(fd);
			if (stats_fd >= 0)
				close(stats_fd);
			return hm_errf(0, "%s has no hopmark settings (hopmark link set dev %s ...)",
				       ifname_or_index(filter, name), ifname_or_index(filter, name));
		}
		keys[n++] = filter;
	} else {
		/* The array's set entries, in ifindex order. */
		err = hm_ifcfg_ifindexes(fd, keys, HM_MAX_IFINDEX);
		if (err < 0) {
			close(fd);
			if (stats_fd >= 0)
				close(stats_fd);
			return hm_errf(err, "cannot read %s", HM_MAP_IFCFG);
		}
		n = err;
		/* And the interfaces with PBT-M roles only. */
		base = n;
		m = pbt_link_ifindexes(keys + base, PBT_IFINDEX_LIMIT);
		for (i = base; i < base + m; i++) {
			for (j = 0; j < base && keys[j] != keys[i]; j++)
				;
			if (j == base)
				keys[n++] = keys[i];
		}
		qsort(keys, n, sizeof(keys[0]), cmp_u32);
	}

	new_json_obj();
	for (i = 0; i < n; i++) {
		if (ifcfg_get(fd, keys[i], &cfg) <= 0 && !pbt_link_roles(keys[i], &pflags, &pxdp))
			continue;
		print_link(keys[i], &cfg, stats_fd);
	}
	delete_json_obj();
	close(fd);
	if (stats_fd >= 0)
		close(stats_fd);
	return HM_EXIT_OK;
}

/**
 * do_link() - "hopmark link { set | show | help }"
 * @argc: words after "link"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_link(int argc, char **argv)
{
	if (argc < 1)
		return link_show(0, NULL);
	if (matches(*argv, "set"))
		return link_set(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return link_show(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark link help\".\n", *argv);
	return HM_EXIT_USAGE;
}
