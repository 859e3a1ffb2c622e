/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bpf_hooks.h - which BPF programs run on an interface's hooks, whoever
 * attached them (hopmark, ip/tc, libbpf users): the clsact filters of a
 * tc hook from an rtnetlink filter dump, program names, whether a program
 * is hopmark's, and the list of this node's interfaces that run one
 * (bpf_hooks.c). `hopmark link show` prints from it; the attach layer
 * (bpf_attach.c) and the CLI's messages use it.
 *
 * Functions return 0 or a positive count on success and a negative errno.
 */
#ifndef __HOPMARK_BPF_HOOKS_H
#define __HOPMARK_BPF_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* hopmark's BPF programs are all named hm_* (bpf/, Documentation/datapath.rst). */
#define HM_PROG_PREFIX		"hm_"

/* BPF filters kept per hook by hm_tc_bpf_filters(); more are counted. */
#define HM_TC_FILTERS_MAX	32

/**
 * struct hm_tc_bpf_filter - one BPF filter of a clsact hook, from a filter dump
 * @prog_id:	BPF program id (TCA_BPF_ID)
 * @pref:	tc priority ("pref"), the upper 16 bits of tcm_info
 * @handle:	filter handle
 * @da:		direct-action mode (TCA_BPF_FLAG_ACT_DIRECT)
 * @tc_name:	the name tc(8) gave it (TCA_BPF_NAME, "OBJECT:[SECTION]"),
 *		empty when attached through libbpf's bpf_tc_attach()
 */
struct hm_tc_bpf_filter {
	__u32	prog_id;
	__u32	pref;
	__u32	handle;
	bool	da;
	char	tc_name[64];
};

/**
 * struct hm_tc_dump - the BPF filters of one clsact hook
 * @f:		the filters, in the order the kernel runs them
 * @n:		filters in @f
 * @skipped:	filters beyond %HM_TC_FILTERS_MAX, not kept
 */
struct hm_tc_dump {
	struct hm_tc_bpf_filter f[HM_TC_FILTERS_MAX];
	unsigned int n;
	unsigned int skipped;
};

/**
 * hm_tc_bpf_filters() - every BPF filter on a clsact hook of an interface
 * @ifindex:	interface
 * @ingress:	true for the ingress hook, false for egress
 * @d:		output
 *
 * An RTM_GETTFILTER dump (libmnl) of parent TC_H_MAKE(TC_H_CLSACT,
 * TC_H_MIN_INGRESS or TC_H_MIN_EGRESS), in the order the kernel runs the
 * filters (priority, then handle). Classic BPF filters have no program id
 * and are left out.
 *
 * Return: 0 (also when the interface has no clsact qdisc: no filters), or
 * negative errno of the netlink socket.
 */
int hm_tc_bpf_filters(__u32 ifindex, bool ingress, struct hm_tc_dump *d);

/**
 * hm_prog_name() - the name of a loaded BPF program
 * @id:		program id
 * @name:	output, "?" when the program cannot be read
 * @len:	size of @name (BPF_OBJ_NAME_LEN holds every name)
 *
 * Return: 0, or negative errno of bpf_prog_get_fd_by_id() /
 * bpf_obj_get_info_by_fd() (the program is gone, or no CAP_SYS_ADMIN).
 */
int hm_prog_name(__u32 id, char *name, size_t len);

/** hm_prog_is_ours() - whether a program name is one of hopmark's (hm_*) */
bool hm_prog_is_ours(const char *name);

/**
 * hm_node_programs() - hopmark's programs attached in this network namespace
 * @buf:	output: "DEV (PROG, PROG), DEV (PROG)", ending in "..." when
 *		it does not fit; empty when none is attached
 * @len:	size of @buf
 *
 * Looks, as `hopmark link show` does, at the XDP program and the clsact
 * filters of every interface of the network namespace the caller runs in,
 * for programs named hm_* (hopmark's, however attached). An interface
 * whose hooks cannot be queried counts as running none.
 *
 * Return: the number of interfaces running one, or negative errno if the
 * interfaces cannot be listed.
 */
int hm_node_programs(char *buf, size_t len);

#endif /* __HOPMARK_BPF_HOOKS_H */
