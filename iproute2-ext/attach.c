// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * attach.c - load hopmark's BPF programs through their skeletons and attach
 * them where each role runs:
 *
 *	encap		hm_encap	tc egress
 *	transit in	hm_transit_in	XDP (driver mode, else generic)
 *	transit out	hm_transit_out	tc egress
 *	decap		hm_decap	tc ingress
 *
 * Objects are opened with pin_root_path = hm_pin_dir(), so their maps are
 * the node's pinned maps (LIBBPF_PIN_BY_NAME), shared with stock ip/tc.
 * tc filters go to a fixed handle and priority per role: enabling again
 * replaces our filter in place and disabling removes exactly ours, never a
 * filter someone added with tc(8).
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark_cli.h"
#include "bpf/hopmark_encap.skel.h"
#include "bpf/hopmark_transit.skel.h"
#include "bpf/hopmark_decap.skel.h"

static const struct {
	const char *name;	/* role as printed */
	const char *prog;	/* BPF program name */
	enum bpf_tc_attach_point tc_point;	/* 0 for XDP */
	__u32 prio;
} roles[HM_ROLE_MAX] = {
	[HM_ROLE_ENCAP]		= { "encap", "hm_encap", BPF_TC_EGRESS, HM_TC_PRIO_ENCAP },
	[HM_ROLE_TRANSIT_IN]	= { "transit-in", "hm_transit_in", 0, 0 },
	[HM_ROLE_TRANSIT_OUT]	= { "transit-out", "hm_transit_out", BPF_TC_EGRESS,
				    HM_TC_PRIO_TRANSIT_OUT },
	[HM_ROLE_DECAP]		= { "decap", "hm_decap", BPF_TC_INGRESS, HM_TC_PRIO_DECAP },
};

/** role_name() - printable name of a role ("transit-in", ...) */
const char *role_name(enum hm_role role)
{
	return roles[role].name;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap);

/* Route libbpf's messages through libbpf_print() from the first call on. */
static void __attribute__((constructor)) attach_init(void)
{
	libbpf_set_print(libbpf_print);
}

/* A loaded skeleton of whichever object carries the role's program. */
struct loaded {
	struct hopmark_encap *encap;
	struct hopmark_transit *transit;
	struct hopmark_decap *decap;
	int prog_fd;
};

static void unload(struct loaded *l)
{
	hopmark_encap__destroy(l->encap);
	hopmark_transit__destroy(l->transit);
	hopmark_decap__destroy(l->decap);
}

/*
 * libbpf's messages: while loading, warnings (the verifier log above all)
 * are kept and only their tail is printed if the load fails; everything
 * else, e.g. the extack of a tc query that finds no filter, is dropped.
 * HOPMARK_VERBOSE=1 in the environment prints all of it as it comes.
 */
#define HM_LOG_KEEP	4096
#define HM_LOG_TAIL	12	/* lines printed after a failed load */

static char load_log[HM_LOG_KEEP];
static size_t load_log_len;
static bool keep_log;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg, *line;
	size_t n;

	if (getenv("HOPMARK_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	if (!keep_log || level == LIBBPF_DEBUG)
		return 0;
	/* The verifier log comes as one message: keep only its end. */
	if (vasprintf(&msg, fmt, ap) < 0)
		return 0;
	n = strlen(msg);
	line = msg;
	if (n >= sizeof(load_log)) {
		line += n - (sizeof(load_log) - 1);
		n = sizeof(load_log) - 1;
	}
	if (load_log_len + n >= sizeof(load_log)) {
		size_t drop = load_log_len + n - sizeof(load_log) + 1;

		memmove(load_log, load_log + drop, load_log_len - drop);
		load_log_len -= drop;
	}
	memcpy(load_log + load_log_len, line, n);
	load_log_len += n;
	load_log[load_log_len] = '\0';
	free(msg);
	return 0;
}

static void print_log_tail(void)
{
	const char *p = load_log + load_log_len;
	int lines = 0;

	while (p > load_log && lines <= HM_LOG_TAIL)
		if (*--p == '\n')
			lines++;
	if (p > load_log)
		p++;
	if (*p)
		fprintf(stderr, "%s%s(last lines of the libbpf log; HOPMARK_VERBOSE=1 prints all)\n",
			p, load_log_len && load_log[load_log_len - 1] == '\n' ? "" : "\n");
}

static int load_role(enum hm_role role, struct loaded *l)
{
	char pin_dir[PATH_MAX];
	int err;

	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = pin_dir);

	memset(l, 0, sizeof(*l));
	err = hm_pin_dir(pin_dir, sizeof(pin_dir));
	if (err)
		return err;
	load_log_len = 0;
	load_log[0] = '\0';
	keep_log = true;

	switch (role) {
	case HM_ROLE_ENCAP:
		l->encap = hopmark_encap__open_opts(&opts);
		if (!l->encap) {
			err = -errno;
			break;
		}
		err = hopmark_encap__load(l->encap);
		if (!err)
			l->prog_fd = bpf_program__fd(l->encap->progs.hm_encap);
		break;
	case HM_ROLE_TRANSIT_IN:
	case HM_ROLE_TRANSIT_OUT:
		l->transit = hopmark_transit__open_opts(&opts);
		if (!l->transit) {
			err = -errno;
			break;
		}
		err = hopmark_transit__load(l->transit);
		if (!err)
			l->prog_fd = bpf_program__fd(role == HM_ROLE_TRANSIT_IN ?
						     l->transit->progs.hm_transit_in :
						     l->transit->progs.hm_transit_out);
		break;
	case HM_ROLE_DECAP:
		l->decap = hopmark_decap__open_opts(&opts);
		if (!l->decap) {
			err = -errno;
			break;
		}
		err = hopmark_decap__load(l->decap);
		if (!err)
			l->prog_fd = bpf_program__fd(l->decap->progs.hm_decap);
		break;
	default:
		err = -EINVAL;
		break;
	}
	keep_log = false;
	if (err) {
		print_log_tail();
		unload(l);
	}
	return err;
}

static int prog_name_of(__u32 id, char *name, size_t len)
{
	struct bpf_prog_info info = {};
	__u32 info_len = sizeof(info);
	int fd, err;

	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &info_len) ? -errno : 0;
	close(fd);
	if (!err)
		snprintf(name, len, "%s", info.name);
	return err;
}

static __u32 xdp_mode_flags(__u8 attach_mode)
{
	switch (attach_mode) {
	case XDP_ATTACHED_SKB:
		return XDP_FLAGS_SKB_MODE;
	case XDP_ATTACHED_HW:
		return XDP_FLAGS_HW_MODE;
	default:
		return XDP_FLAGS_DRV_MODE;
	}
}

static int xdp_query(__u32 ifindex, struct hm_attach_info *info)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	memset(info, 0, sizeof(*info));
	err = bpf_xdp_query(ifindex, 0, &q);
	if (err)
		return err;
	switch (q.attach_mode) {
	case XDP_ATTACHED_DRV:
		info->prog_id = q.drv_prog_id;
		info->xdp_mode = "driver";
		break;
	case XDP_ATTACHED_SKB:
		info->prog_id = q.skb_prog_id;
		info->xdp_mode = "generic";
		break;
	case XDP_ATTACHED_HW:
		info->prog_id = q.hw_prog_id;
		info->xdp_mode = "offload";
		break;
	case XDP_ATTACHED_MULTI:
		info->prog_id = q.drv_prog_id ? q.drv_prog_id : q.skb_prog_id;
		info->xdp_mode = q.drv_prog_id ? "driver" : "generic";
		break;
	default:
		return 0;
	}
	if (info->prog_id && !prog_name_of(info->prog_id, info->name, sizeof(info->name)))
		info->ours = !strcmp(info->name, roles[HM_ROLE_TRANSIT_IN].prog);
	return 0;
}

static int xdp_attach(int prog_fd, __u32 ifindex, const char *dev)
{
	struct hm_attach_info cur;
	__u8 mode = XDP_ATTACHED_NONE;
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	err = xdp_query(ifindex, &cur);
	if (err)
		return hm_errf(err, "cannot query XDP on %s", dev);
	if (cur.prog_id && !cur.ours)
		return hm_errf(0, "%s already runs XDP program \"%s\" (id %u): detach it first",
			       dev, cur.name, cur.prog_id);
	if (cur.prog_id) {
		LIBBPF_OPTS(bpf_xdp_attach_opts, ao);

		/*
		 * Replace ours in the mode it runs in (modes cannot be mixed),
		 * and only if it is still the program we saw: XDP_FLAGS_REPLACE
		 * fails with -EEXIST if another one was attached meanwhile.
		 */
		if (!bpf_xdp_query(ifindex, 0, &q))
			mode = q.attach_mode;
		ao.old_prog_fd = bpf_prog_get_fd_by_id(cur.prog_id);
		if (ao.old_prog_fd < 0)
			return hm_errf(-errno, "cannot replace XDP program %s (id %u) on %s",
				       cur.name, cur.prog_id, dev);
		err = bpf_xdp_attach(ifindex, prog_fd, xdp_mode_flags(mode) | XDP_FLAGS_REPLACE,
				     &ao);
		close(ao.old_prog_fd);
	} else {
		/* UPDATE_IF_NOEXIST: never replace a program attached meanwhile. */
		err = bpf_xdp_attach(ifindex, prog_fd,
				     XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
		if (err && err != -EBUSY && err != -EEXIST)
			err = bpf_xdp_attach(ifindex, prog_fd,
					     XDP_FLAGS_SKB_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST,
					     NULL);
	}
	if (err == -EBUSY || err == -EEXIST)
		return hm_errf(err, "another XDP program was attached to %s meanwhile: not replaced",
			       dev);
	if (err)
		return hm_errf(err, "cannot attach XDP program %s to %s",
			       roles[HM_ROLE_TRANSIT_IN].prog, dev);
	return 0;
}

static void tc_hook_opts(enum hm_role role, __u32 ifindex, struct bpf_tc_hook *hook,
			 struct bpf_tc_opts *opts)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = roles[role].tc_point;
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->handle = HM_TC_HANDLE;
	opts->priority = roles[role].prio;
}

/**
 * role_attach() - load a role's program and attach it on an interface
 * @role:	which program and hook
 * @ifindex:	interface
 * @dev:	its name, for messages
 *
 * Idempotent: attaching again replaces our program in place.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int role_attach(enum hm_role role, __u32 ifindex, const char *dev)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	struct loaded l;
	int err;

	err = load_role(role, &l);
	if (err)
		return hm_errf(err, "cannot load BPF program %s (pin directory of bpffs %s)",
			       roles[role].prog, hm_bpffs_root());
	if (role == HM_ROLE_TRANSIT_IN) {
		err = xdp_attach(l.prog_fd, ifindex, dev);
		unload(&l);
		return err;
	}
	tc_hook_opts(role, ifindex, &hook, &opts);
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST) {
		unload(&l);
		return hm_errf(err, "cannot create the clsact qdisc on %s", dev);
	}
	opts.prog_fd = l.prog_fd;
	opts.flags = BPF_TC_F_REPLACE;
	err = bpf_tc_attach(&hook, &opts);
	unload(&l);
	if (err)
		return hm_errf(err, "cannot attach tc %s program %s to %s",
			       roles[role].tc_point == BPF_TC_INGRESS ? "ingress" : "egress",
			       roles[role].prog, dev);
	return 0;
}

/**
 * role_detach() - remove a role's program from an interface
 * @role:	which program and hook
 * @ifindex:	interface
 * @dev:	its name, for messages
 *
 * Removes only hopmark's own program: the tc filter at our handle and
 * priority, or the XDP program if it is hm_transit_in. Nothing attached is
 * not an error (disable is idempotent); the clsact qdisc stays, since other
 * filters may use it.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int role_detach(enum hm_role role, __u32 ifindex, const char *dev)
{
	struct hm_attach_info cur;
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	if (role == HM_ROLE_TRANSIT_IN) {
		err = xdp_query(ifindex, &cur);
		if (err)
			return hm_errf(err, "cannot query XDP on %s", dev);
		if (!cur.prog_id)
			return 0;
		if (!cur.ours) {
			fprintf(stderr, "Warning: %s runs XDP program \"%s\" (id %u), not %s: left attached.\n",
				dev, cur.name, cur.prog_id, roles[role].prog);
			return 0;
		}
		err = bpf_xdp_query(ifindex, 0, &q);
		if (!err)
			err = bpf_xdp_detach(ifindex, xdp_mode_flags(q.attach_mode), NULL);
		if (err)
			return hm_errf(err, "cannot detach XDP from %s", dev);
		return 0;
	}
	tc_hook_opts(role, ifindex, &hook, &opts);
	err = bpf_tc_detach(&hook, &opts);
	/* -ENOENT: no filter of ours; -EINVAL: no clsact qdisc at all. */
	if (err && err != -ENOENT && err != -EINVAL)
		return hm_errf(err, "cannot detach tc program %s from %s", roles[role].prog, dev);
	return 0;
}

/**
 * role_query() - which program runs in a role's hook on an interface
 * @role:	which hook
 * @ifindex:	interface
 * @info:	output; @info->prog_id 0 when nothing is attached
 *
 * For tc it looks at hopmark's own handle and priority; filters added with
 * tc(8) elsewhere in the chain are not reported.
 *
 * Return: 0 or negative errno.
 */
int role_query(enum hm_role role, __u32 ifindex, struct hm_attach_info *info)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;

	if (role == HM_ROLE_TRANSIT_IN)
		return xdp_query(ifindex, info);
	memset(info, 0, sizeof(*info));
	tc_hook_opts(role, ifindex, &hook, &opts);
	if (bpf_tc_query(&hook, &opts))
		return 0;
	info->prog_id = opts.prog_id;
	if (!prog_name_of(info->prog_id, info->name, sizeof(info->name)))
		info->ours = !strcmp(info->name, roles[role].prog);
	return 0;
}
