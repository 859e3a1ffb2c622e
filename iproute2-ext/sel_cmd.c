// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * sel_cmd.c - the selection commands `hopmark int` and `hopmark postcard`
 * share: `watch add | del | flush` and `sample`, working on the struct
 * hm_sel_cfg (lib/select/select.h) inside each family's pinned domain
 * configuration, read and written through the family's struct hm_sel_ops,
 * the watchlist part of their `show`, and the per-interface role flags
 * `disable` takes away.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"
#include "select/sel_text.h"

#define SEL_MSG_LEN	320

/*
 * sel_words_or_exit() - the watch rule at the start of argv
 * (hm_sel_words_parse()), exiting with the usage error naming the word
 * when a value is wrong.
 */
int sel_words_or_exit(int argc, char **argv, __u32 opts, struct hm_sel_rule *r,
		      struct hm_sel_words *w)
{
	char msg[SEL_MSG_LEN];
	int err;

	err = hm_sel_words_parse(argc, argv, opts, r, w, msg, sizeof(msg));
	if (err == -ENODATA)
		incomplete_command(w->bad);
	if (err == -EEXIST)
		duparg(argv[w->used], w->bad);
	if (err)
		invarg(msg, w->bad);
	return 0;
}

/* "help" prints the family's usage; anything else is unknown to "<family> @what". */
static int help_or_unknown(const struct hm_sel_ops *ops, const char *what, const char *arg)
{
	char cmd[64];

	if (matches(arg, "help")) {
		ops->usage(stdout);
		return HM_EXIT_OK;
	}
	snprintf(cmd, sizeof(cmd), "%s %s", ops->name, what);
	unknown_arg(cmd, arg);
}

static int watch_add(const struct hm_sel_ops *ops, void *cfg, int argc, char **argv)
{
	struct hm_sel_words w;
	struct hm_sel_rule r;
	struct hm_sel_cfg *sel = ops->sel(cfg);
	char msg[SEL_MSG_LEN], text[192];
	int fd, idx, ret;

	sel_words_or_exit(argc, argv, ops->sel_words, &r, &w);
	if (w.used < argc)
		return help_or_unknown(ops, "watch add", argv[w.used]);
	if (hm_sel_rule_check(&r, msg, sizeof(msg)))
		invarg(msg, w.port_word ? w.port_word : "watch add");
	fd = ops->begin(cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	idx = hm_sel_add(sel, &r, msg, sizeof(msg));
	if (idx < 0) {
		close(fd);
		return hm_errf_errno(idx, "%s: %s", hm_sel_rule_format(&r, text, sizeof(text)), msg);
	}
	ret = ops->commit(fd, cfg);
	if (!ret && !json)
		printf("watch %d: %s\n", idx, hm_sel_rule_format(&r, text, sizeof(text)));
	return ret;
}

/* See hopmark_cli.h. */
int hm_sel_cmd_watch(const struct hm_sel_ops *ops, void *cfg, int argc, char **argv)
{
	struct hm_sel_cfg *sel = ops->sel(cfg);
	char cmd[64];
	__u32 index;
	int fd;

	if (argc < 1 || matches(*argv, "help")) {
		ops->usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "add"))
		return watch_add(ops, cfg, argc - 1, argv + 1);
	if (matches(*argv, "delete")) {
		NEXT_ARG();
		if (matches(*argv, "help")) {
			ops->usage(stdout);
			return HM_EXIT_OK;
		}
		index = get_u32_arg(*argv, HM_SEL_MAX_RULES - 1, "the rule's INDEX");
		if (argc > 1) {
			snprintf(cmd, sizeof(cmd), "%s watch del", ops->name);
			unknown_arg(cmd, argv[1]);
		}
		fd = ops->begin(cfg);
		if (fd < 0)
			return HM_EXIT_FAIL;
		if (hm_sel_del(sel, index)) {
			close(fd);
			return hm_errf_errno(-ENOENT, "the watchlist has no rule %u (%u rules)",
					     index, sel->nr_rules);
		}
		return ops->commit(fd, cfg);
	}
	if (matches(*argv, "flush")) {
		if (argc > 1)
			return help_or_unknown(ops, "watch flush", argv[1]);
		fd = ops->begin(cfg);
		if (fd < 0)
			return HM_EXIT_FAIL;
		memset(sel->rules, 0, sizeof(sel->rules));
		sel->nr_rules = 0;
		return ops->commit(fd, cfg);
	}
	snprintf(cmd, sizeof(cmd), "%s watch", ops->name);
	unknown_arg(cmd, *argv);
}

/* See hopmark_cli.h. */
int hm_sel_cmd_sample(const struct hm_sel_ops *ops, void *cfg, int argc, char **argv)
{
	struct hm_sel_cfg *sel;
	__u32 mode, n = 1, seed = 0;
	bool have_seed = false;
	__u64 interval = 0;
	int fd;

	if (argc < 1 || matches(*argv, "help")) {
		ops->usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "all")) {
		mode = HM_SAMPLE_ALL;
	} else if (matches(*argv, "packet") || matches(*argv, "flow")) {
		mode = matches(*argv, "packet") ? HM_SAMPLE_PACKET : HM_SAMPLE_FLOW;
		NEXT_ARG();
		n = get_u32_arg(*argv, 0xffffffffU, "N of 1:N sampling");
		if (!n)
			invarg("N of 1:N sampling is at least 1", *argv);
	} else if (ops->set_interval && matches(*argv, "interval")) {
		mode = ops->interval_mode;
		NEXT_ARG();
		interval = get_u64_arg(*argv, ops->interval_max_ms,
				       "the interval (ms between marked packets of a flow)");
		if (!interval)
			invarg("the interval is at least 1 ms", *argv);
	} else {
		invarg(ops->set_interval ? "sample is all, packet N, flow N or interval MS" :
		       "sample is all, packet N or flow N", *argv);
	}
	argc--;
	argv++;
	while (argc > 0) {
		if (mode == HM_SAMPLE_FLOW && matches(*argv, "seed")) {
			NEXT_ARG();
			if (have_seed)
				duparg("seed", *argv);
			seed = get_u32_arg(*argv, 0xffffffffU, "seed");
			have_seed = true;
		} else {
			return help_or_unknown(ops, "sample", *argv);
		}
		argc--;
		argv++;
	}
	fd = ops->begin(cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	sel = ops->sel(cfg);
	sel->sample = mode;
	sel->sample_n = n;
	if (have_seed || mode != HM_SAMPLE_FLOW)
		sel->seed = seed;
	if (ops->set_interval)
		ops->set_interval(cfg, interval);
	return ops->commit(fd, cfg);
}

/* One watch rule of `show`; @synthetic: the rule's synthetic flag is a key (INT). */
static void print_rule(__u32 index, const struct hm_sel_rule *r, bool synthetic)
{
	char words[192], a[INET6_ADDRSTRLEN + 4], b[INET6_ADDRSTRLEN];

	open_json_object(NULL);
	print_uint(PRINT_ANY, "index", "watch %llu:", index);
	print_string(PRINT_FP, NULL, " %s", hm_sel_rule_format(r, words, sizeof(words)));
	if (r->family)
		print_uint(PRINT_JSON, "family", NULL, r->family);
	else
		print_null(PRINT_JSON, "family", NULL, NULL);
	if (r->family && (r->src_plen || !r->dst_plen)) {
		inet_ntop(r->family == 4 ? AF_INET : AF_INET6, r->saddr, b, sizeof(b));
		snprintf(a, sizeof(a), "%s/%u", b, r->src_plen);
		print_string(PRINT_JSON, "src", NULL, a);
	}
	if (r->family && r->dst_plen) {
		inet_ntop(r->family == 4 ? AF_INET : AF_INET6, r->daddr, b, sizeof(b));
		snprintf(a, sizeof(a), "%s/%u", b, r->dst_plen);
		print_string(PRINT_JSON, "dst", NULL, a);
	}
	print_uint(PRINT_JSON, "proto", NULL, r->proto);
	if (r->sport_mask) {
		print_uint(PRINT_JSON, "sport", NULL, ntohs(r->sport));
		print_uint(PRINT_JSON, "sport_mask", NULL, ntohs(r->sport_mask));
	}
	if (r->dport_mask) {
		print_uint(PRINT_JSON, "dport", NULL, ntohs(r->dport));
		print_uint(PRINT_JSON, "dport_mask", NULL, ntohs(r->dport_mask));
	}
	if (synthetic)
		print_bool(PRINT_JSON, "synthetic", NULL, r->flags & HM_SEL_F_SYNTHETIC);
	print_nl();
	close_json_object();
}

/* See hopmark_cli.h. */
void hm_sel_print_watch(const struct hm_sel_cfg *sel, bool synthetic)
{
	__u32 i;

	open_json_array(PRINT_JSON, "watch");
	if (!sel->nr_rules)
		print_text("watch: every packet (no rule)\n");
	for (i = 0; i < sel->nr_rules && i < HM_SEL_MAX_RULES; i++)
		print_rule(i, &sel->rules[i], synthetic);
	close_json_array(PRINT_JSON, NULL);
}

/* See hopmark_cli.h. */
int hm_ifcfg_drop_roles(const char *map, size_t val_size, __u32 ifindex, __u32 drop,
			__u32 *left)
{
	__u64 val[HM_IFCFG_MAX_SIZE / sizeof(__u64)] = { 0 };
	__u32 flags;
	int fd, ret = 0;

	if (val_size > sizeof(val))
		return hm_errf(-EINVAL, "%s: a value of %zu bytes", map, val_size);
	fd = hm_map_open(map);
	if (fd >= 0 && bpf_map_lookup_elem(fd, &ifindex, val))
		memset(val, 0, sizeof(val));
	memcpy(&flags, val, sizeof(flags));
	*left = flags & ~drop;
	/* The flags go first, so that no program runs with a role it lost. */
	if (fd >= 0) {
		if (*left) {
			memcpy(val, left, sizeof(*left));
			if (bpf_map_update_elem(fd, &ifindex, val, BPF_ANY))
				ret = hm_errf(-errno, "cannot write %s", map);
		} else {
			ret = map_delete_ifindex(fd, map, ifindex);
		}
		close(fd);
	}
	return ret;
}
