// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * bpf_attach.c - hopmark's one BPF load/attach layer (bpf_attach.h): the
 * roles table, loading a role's object through its skeleton with the
 * node's pin root, attaching at tc ingress/egress at the role's handle and
 * priority or at XDP (driver mode, else generic) without ever replacing a
 * program that is not ours, detaching only ours, and querying a hook.
 *
 * The skeletons embed the BPF objects: only a program that calls into
 * this file links them (static linking takes an archive member only when
 * one of its symbols is referenced), so the tests and benchmarks that link
 * libhopmark.a without attaching do not carry them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/bpf_attach.h"
#include "common/bpf_hooks.h"
#include "common/bpf_pin.h"
#include "common/hopmark_run.h"
#include "pint/pint_maps.h"	/* types of pint.skel.h's .rodata */
#include "int/int_maps.h"	/* types of the INT skeletons' .rodata */
#include "pbt/pbt_maps.h"	/* types of hopmark_pbt.skel.h's .rodata */
#include "bpf/hopmark_encap.skel.h"
#include "bpf/hopmark_transit.skel.h"
#include "bpf/hopmark_decap.skel.h"
#include "bpf/pint.skel.h"
#include "bpf/hopmark_int.skel.h"
#include "bpf/hopmark_int_drop.skel.h"
#include "bpf/hopmark_int_xdp.skel.h"
#include "bpf/hopmark_pbt.skel.h"

const struct hm_role_desc hm_roles[HM_ROLE_MAX] = {
	[HM_ROLE_ENCAP] = {
		"encap", "hm_encap", HM_FAMILY_IOAM, HM_HOOK_TC_EGRESS,
		HM_TC_HANDLE, HM_TC_PRIO_ENCAP,
	},
	[HM_ROLE_TRANSIT_IN] = {
		"transit-in", "hm_transit_in", HM_FAMILY_IOAM, HM_HOOK_XDP, 0, 0,
	},
	[HM_ROLE_TRANSIT_OUT] = {
		"transit-out", "hm_transit_out", HM_FAMILY_IOAM, HM_HOOK_TC_EGRESS,
		HM_TC_HANDLE, HM_TC_PRIO_TRANSIT_OUT,
	},
	[HM_ROLE_DECAP] = {
		"decap", "hm_decap", HM_FAMILY_IOAM, HM_HOOK_TC_INGRESS,
		HM_TC_HANDLE, HM_TC_PRIO_DECAP,
	},
	[HM_ROLE_TRANSIT_IN_TC] = {
		"transit-in-tc", "hm_transit_tcin", HM_FAMILY_IOAM, HM_HOOK_TC_INGRESS,
		HM_TC_HANDLE, HM_TC_PRIO_TRANSIT_IN,
	},
	[HM_ROLE_PINT_SOURCE] = {
		"source", "hm_pint_source", HM_FAMILY_PINT, HM_HOOK_TC_INGRESS,
		HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_SOURCE,
	},
	[HM_ROLE_PINT_TRANSIT] = {
		"transit", "hm_pint_transit", HM_FAMILY_PINT, HM_HOOK_TC_EGRESS,
		HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_TRANSIT,
	},
	[HM_ROLE_PINT_SINK] = {
		"sink", "hm_pint_sink", HM_FAMILY_PINT, HM_HOOK_TC_INGRESS,
		HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_SINK,
	},
	[HM_ROLE_INT_SOURCE] = {
		"int-source", "hm_int_source", HM_FAMILY_INT, HM_HOOK_TC_EGRESS,
		HM_INT_TC_HANDLE, HM_INT_TC_PRIO_SOURCE,
	},
	[HM_ROLE_INT_INGRESS] = {
		"int-ingress", "hm_int_ingress", HM_FAMILY_INT, HM_HOOK_TC_INGRESS,
		HM_INT_TC_HANDLE, HM_INT_TC_PRIO_INGRESS,
	},
	[HM_ROLE_INT_TRANSIT] = {
		"int-transit", "hm_int_transit", HM_FAMILY_INT, HM_HOOK_TC_EGRESS,
		HM_INT_TC_HANDLE, HM_INT_TC_PRIO_TRANSIT,
	},
	[HM_ROLE_INT_SINK] = {
		"int-sink", "hm_int_sink", HM_FAMILY_INT, HM_HOOK_TC_INGRESS,
		HM_INT_TC_HANDLE, HM_INT_TC_PRIO_SINK,
	},
	[HM_ROLE_INT_DROP] = {
		"int-drop", "hm_int_drop", HM_FAMILY_INT, HM_HOOK_TRACING, 0, 0,
	},
	[HM_ROLE_INT_XDP_SOURCE] = {
		"int-xdp-source", "hm_int_xdp_src", HM_FAMILY_INT, HM_HOOK_XDP, 0, 0,
	},
	[HM_ROLE_PBT_XDP] = {
		"pbt-xdp", "hm_pbt_xdp", HM_FAMILY_PBT, HM_HOOK_XDP, 0, 0,
	},
	[HM_ROLE_PBT_INGRESS] = {
		"pbt-ingress", "hm_pbt_ingress", HM_FAMILY_PBT, HM_HOOK_TC_INGRESS,
		HM_PBT_TC_HANDLE, HM_PBT_TC_PRIO_INGRESS,
	},
	[HM_ROLE_PBT_EGRESS] = {
		"pbt-egress", "hm_pbt_egress", HM_FAMILY_PBT, HM_HOOK_TC_EGRESS,
		HM_PBT_TC_HANDLE, HM_PBT_TC_PRIO_EGRESS,
	},
};

enum hm_role hm_role_of_prog(const char *prog_name)
{
	enum hm_role role;

	for (role = 0; role < HM_ROLE_MAX; role++)
		if (!strcmp(prog_name, hm_roles[role].prog))
			return role;
	return HM_ROLE_MAX;
}

static const char *errstr(int err)
{
	return strerror(err < 0 ? -err : err);
}

/* The device's name for messages; "if<N>" when it has none (gone). */
static const char *dev_name(__u32 ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

/* ---------------- loading ---------------- */

static int load_skel(enum hm_role role, struct hm_role_prog *p, const char *pin_dir)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = pin_dir);
	struct hopmark_transit *transit;
	struct hopmark_encap *encap;
	struct hopmark_decap *decap;
	struct hopmark_int_drop *drop;
	struct hopmark_int_xdp *xsrc;
	struct hopmark_int *hint;
	struct hopmark_pbt *pbt;
	struct pint *pint;
	struct stat st;
	int err;

	switch (role) {
	case HM_ROLE_ENCAP:
		p->skel = encap = hopmark_encap__open_opts(&opts);
		if (!encap)
			return -errno;
		err = hm_events_fit_pin(encap->obj, pin_dir);
		if (!err)
			err = hopmark_encap__load(encap);
		if (!err)
			p->fd = bpf_program__fd(encap->progs.hm_encap);
		return err;
	case HM_ROLE_TRANSIT_IN:
	case HM_ROLE_TRANSIT_OUT:
	case HM_ROLE_TRANSIT_IN_TC:
		p->skel = transit = hopmark_transit__open_opts(&opts);
		if (!transit)
			return -errno;
		err = hm_events_fit_pin(transit->obj, pin_dir);
		if (!err)
			err = hopmark_transit__load(transit);
		if (!err)
			p->fd = bpf_program__fd(role == HM_ROLE_TRANSIT_IN ?
						transit->progs.hm_transit_in :
						role == HM_ROLE_TRANSIT_IN_TC ?
						transit->progs.hm_transit_tcin :
						transit->progs.hm_transit_out);
		return err;
	case HM_ROLE_DECAP:
		p->skel = decap = hopmark_decap__open_opts(&opts);
		if (!decap)
			return -errno;
		err = hm_events_fit_pin(decap->obj, pin_dir);
		if (!err)
			err = hopmark_decap__load(decap);
		if (!err)
			p->fd = bpf_program__fd(decap->progs.hm_decap);
		return err;
	case HM_ROLE_PINT_SOURCE:
	case HM_ROLE_PINT_TRANSIT:
	case HM_ROLE_PINT_SINK:
		p->skel = pint = pint__open_opts(&opts);
		if (!pint)
			return -errno;
		err = hm_events_fit_pin(pint->obj, pin_dir);
		if (!err)
			err = pint__load(pint);
		if (!err)
			p->fd = bpf_program__fd(role == HM_ROLE_PINT_SOURCE ?
						pint->progs.hm_pint_source :
						role == HM_ROLE_PINT_SINK ?
						pint->progs.hm_pint_sink :
						pint->progs.hm_pint_transit);
		return err;
	case HM_ROLE_INT_SOURCE:
	case HM_ROLE_INT_INGRESS:
	case HM_ROLE_INT_TRANSIT:
	case HM_ROLE_INT_SINK:
		p->skel = hint = hopmark_int__open_opts(&opts);
		if (!hint)
			return -errno;
		err = hm_events_fit_pin(hint->obj, pin_dir);
		if (!err)
			err = hopmark_int__load(hint);
		if (!err)
			p->fd = bpf_program__fd(role == HM_ROLE_INT_SOURCE ?
						hint->progs.hm_int_source :
						role == HM_ROLE_INT_INGRESS ?
						hint->progs.hm_int_ingress :
						role == HM_ROLE_INT_TRANSIT ?
						hint->progs.hm_int_transit :
						hint->progs.hm_int_sink);
		return err;
	case HM_ROLE_INT_DROP:
		/* The tracepoint fires for every namespace: tell it ours. */
		if (stat("/proc/self/ns/net", &st))
			return -errno;
		p->skel = drop = hopmark_int_drop__open_opts(&opts);
		if (!drop)
			return -errno;
		drop->data->hm_drop_netns = (__u32)st.st_ino;
		err = hm_events_fit_pin(drop->obj, pin_dir);
		if (!err)
			err = hopmark_int_drop__load(drop);
		if (!err)
			p->fd = bpf_program__fd(drop->progs.hm_int_drop);
		return err;
	case HM_ROLE_INT_XDP_SOURCE:
		p->skel = xsrc = hopmark_int_xdp__open_opts(&opts);
		if (!xsrc)
			return -errno;
		err = hm_events_fit_pin(xsrc->obj, pin_dir);
		if (!err)
			err = hopmark_int_xdp__load(xsrc);
		if (!err)
			p->fd = bpf_program__fd(xsrc->progs.hm_int_xdp_src);
		return err;
	case HM_ROLE_PBT_XDP:
	case HM_ROLE_PBT_INGRESS:
	case HM_ROLE_PBT_EGRESS:
		p->skel = pbt = hopmark_pbt__open_opts(&opts);
		if (!pbt)
			return -errno;
		err = hm_events_fit_pin(pbt->obj, pin_dir);
		if (!err)
			err = hopmark_pbt__load(pbt);
		if (!err)
			p->fd = bpf_program__fd(role == HM_ROLE_PBT_XDP ?
						pbt->progs.hm_pbt_xdp :
						role == HM_ROLE_PBT_INGRESS ?
						pbt->progs.hm_pbt_ingress :
						pbt->progs.hm_pbt_egress);
		return err;
	default:
		return -EINVAL;
	}
}

int hm_role_load(enum hm_role role, struct hm_role_prog *p, char *msg, size_t len)
{
	char pin_dir[PATH_MAX];
	int err;

	memset(p, 0, sizeof(*p));
	p->role = role;
	p->fd = -1;
	if ((unsigned int)role >= HM_ROLE_MAX) {
		snprintf(msg, len, "no BPF program for role %d", role);
		return -EINVAL;
	}
	err = hm_pin_dir(pin_dir, sizeof(pin_dir));
	if (!err)
		err = load_skel(role, p, pin_dir);
	if (err) {
		snprintf(msg, len, "cannot load BPF program %s (pin directory of bpffs %s): %s",
			 hm_roles[role].prog, hm_bpffs_root(), errstr(err));
		hm_role_unload(p);
		return err;
	}
	return 0;
}

void hm_role_unload(struct hm_role_prog *p)
{
	switch (p->skel ? p->role : HM_ROLE_MAX) {
	case HM_ROLE_ENCAP:
		hopmark_encap__destroy(p->skel);
		break;
	case HM_ROLE_TRANSIT_IN:
	case HM_ROLE_TRANSIT_OUT:
	case HM_ROLE_TRANSIT_IN_TC:
		hopmark_transit__destroy(p->skel);
		break;
	case HM_ROLE_DECAP:
		hopmark_decap__destroy(p->skel);
		break;
	case HM_ROLE_PINT_SOURCE:
	case HM_ROLE_PINT_TRANSIT:
	case HM_ROLE_PINT_SINK:
		pint__destroy(p->skel);
		break;
	case HM_ROLE_INT_SOURCE:
	case HM_ROLE_INT_INGRESS:
	case HM_ROLE_INT_TRANSIT:
	case HM_ROLE_INT_SINK:
		hopmark_int__destroy(p->skel);
		break;
	case HM_ROLE_INT_DROP:
		hopmark_int_drop__destroy(p->skel);
		break;
	case HM_ROLE_INT_XDP_SOURCE:
		hopmark_int_xdp__destroy(p->skel);
		break;
	case HM_ROLE_PBT_XDP:
	case HM_ROLE_PBT_INGRESS:
	case HM_ROLE_PBT_EGRESS:
		hopmark_pbt__destroy(p->skel);
		break;
	default:
		break;
	}
	p->skel = NULL;
	p->fd = -1;
}

/* ---------------- device type ---------------- */

int hm_dev_is_veth(__u32 ifindex)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	char name[IF_NAMESIZE];
	struct ifreq ifr;
	int fd, ok;

	if (!if_indextoname(ifindex, name))
		return 0;
	/* A socket of the caller's network namespace, as hm_dev_check_ether(). */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && errno == EAFNOSUPPORT)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (void *)&info;
	ok = !ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	return ok && !strcmp(info.driver, "veth");
}

enum hm_role hm_transit_in_role(__u32 ifindex, enum hm_ingress_hook want)
{
	if (want == HM_INGRESS_XDP)
		return HM_ROLE_TRANSIT_IN;
	if (want == HM_INGRESS_TC || hm_dev_is_veth(ifindex))
		return HM_ROLE_TRANSIT_IN_TC;
	return HM_ROLE_TRANSIT_IN;
}

/* ---------------- link type ---------------- */

const char *hm_link_type_name(unsigned int type, char *buf, size_t len)
{
	/* The names `ip link` prints after "link/" (linux/if_arp.h values). */
	static const struct {
		unsigned int type;
		const char *name;
	} names[] = {
		{ ARPHRD_ETHER, "ether" },
		{ ARPHRD_LOOPBACK, "loopback" },
		{ ARPHRD_NONE, "none" },
		{ ARPHRD_VOID, "void" },
		{ ARPHRD_TUNNEL, "ipip" },
		{ ARPHRD_TUNNEL6, "tunnel6" },
		{ ARPHRD_SIT, "sit" },
		{ ARPHRD_IPGRE, "gre" },
		{ ARPHRD_IP6GRE, "gre6" },
		{ ARPHRD_PPP, "ppp" },
		{ ARPHRD_RAWIP, "rawip" },
		{ ARPHRD_INFINIBAND, "infiniband" },
		{ ARPHRD_IEEE80211, "ieee802.11" },
		{ ARPHRD_IEEE802154, "ieee802.15.4" },
		{ ARPHRD_CAN, "can" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].name;
	snprintf(buf, len, "[%u]", type);
	return buf;
}

int hm_dev_check_ether(__u32 ifindex, char *msg, size_t len)
{
	char name[IF_NAMESIZE], tbuf[16];
	struct ifreq ifr;
	int fd, err = 0;

	/*
	 * An ioctl on a socket of the caller's network namespace, not
	 * /sys/class/net: sysfs shows the namespace it was mounted in, which
	 * under `nsenter --net` is not the caller's.
	 */
	if (!if_indextoname(ifindex, name)) {
		err = -errno;
		snprintf(msg, len, "no device with ifindex %u: %s", ifindex, errstr(err));
		return err;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && errno == EAFNOSUPPORT)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, len, "cannot read the link type of %s: %s", name, errstr(err));
		return err;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	close(fd);
	if (err) {
		snprintf(msg, len, "cannot read the link type of %s: %s", name, errstr(err));
		return err;
	}
	if (ifr.ifr_hwaddr.sa_family == ARPHRD_ETHER ||
	    ifr.ifr_hwaddr.sa_family == ARPHRD_LOOPBACK)
		return 0;
	snprintf(msg, len,
		 "%s is not an Ethernet device (link/%s): hopmark's BPF programs parse Ethernet frames",
		 name, hm_link_type_name(ifr.ifr_hwaddr.sa_family, tbuf, sizeof(tbuf)));
	return -EOPNOTSUPP;
}

/* ---------------- XDP ---------------- */

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

static int xdp_query(enum hm_role role, __u32 ifindex, struct hm_attach_info *info)
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
	if (info->prog_id && !hm_prog_name(info->prog_id, info->name, sizeof(info->name)))
		info->ours = !strcmp(info->name, hm_roles[role].prog);
	return 0;
}

static int xdp_attach(const struct hm_role_prog *p, __u32 ifindex, const char *dev,
		      char *msg, size_t len)
{
	const char *prog = hm_roles[p->role].prog;
	struct hm_attach_info cur;
	__u8 mode = XDP_ATTACHED_NONE;
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	err = xdp_query(p->role, ifindex, &cur);
	if (err) {
		snprintf(msg, len, "cannot query XDP on %s: %s", dev, errstr(err));
		return err;
	}
	if (cur.prog_id && !cur.ours) {
		snprintf(msg, len, "%s already runs XDP program \"%s\" (id %u): detach it first",
			 dev, cur.name, cur.prog_id);
		return -EBUSY;
	}
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
		if (ao.old_prog_fd < 0) {
			err = -errno;
			snprintf(msg, len, "cannot replace XDP program %s (id %u) on %s: %s",
				 cur.name, cur.prog_id, dev, errstr(err));
			return err;
		}
		err = bpf_xdp_attach(ifindex, p->fd, xdp_mode_flags(mode) | XDP_FLAGS_REPLACE,
				     &ao);
		close(ao.old_prog_fd);
	} else {
		/* UPDATE_IF_NOEXIST: never replace a program attached meanwhile. */
		err = bpf_xdp_attach(ifindex, p->fd,
				     XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
		if (err && err != -EBUSY && err != -EEXIST)
			err = bpf_xdp_attach(ifindex, p->fd,
					     XDP_FLAGS_SKB_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST,
					     NULL);
	}
	if (err == -EBUSY || err == -EEXIST)
		snprintf(msg, len, "another XDP program was attached to %s meanwhile: not replaced: %s",
			 dev, errstr(err));
	else if (err)
		snprintf(msg, len, "cannot attach XDP program %s to %s: %s", prog, dev,
			 errstr(err));
	return err;
}

static int xdp_detach(enum hm_role role, __u32 ifindex, const char *dev, char *msg, size_t len)
{
	struct hm_attach_info cur;
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	err = xdp_query(role, ifindex, &cur);
	if (err) {
		snprintf(msg, len, "cannot query XDP on %s: %s", dev, errstr(err));
		return err;
	}
	if (!cur.prog_id)
		return 0;
	if (!cur.ours) {
		snprintf(msg, len, "%s runs XDP program \"%s\" (id %u), not %s: left attached",
			 dev, cur.name, cur.prog_id, hm_roles[role].prog);
		return HM_DETACH_FOREIGN;
	}
	err = bpf_xdp_query(ifindex, 0, &q);
	if (!err)
		err = bpf_xdp_detach(ifindex, xdp_mode_flags(q.attach_mode), NULL);
	if (err)
		snprintf(msg, len, "cannot detach XDP from %s: %s", dev, errstr(err));
	return err;
}

/* ---------------- tc ---------------- */

static void tc_hook_opts(enum hm_role role, __u32 ifindex, struct bpf_tc_hook *hook,
			 struct bpf_tc_opts *opts)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = hm_roles[role].hook == HM_HOOK_TC_INGRESS ? BPF_TC_INGRESS :
								      BPF_TC_EGRESS;
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->handle = hm_roles[role].tc_handle;
	opts->priority = hm_roles[role].tc_prio;
}

static int tc_attach(const struct hm_role_prog *p, __u32 ifindex, const char *dev,
		     char *msg, size_t len)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	int err;

	tc_hook_opts(p->role, ifindex, &hook, &opts);
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST) {
		snprintf(msg, len, "cannot create the clsact qdisc on %s: %s", dev, errstr(err));
		return err;
	}
	opts.prog_fd = p->fd;
	opts.flags = BPF_TC_F_REPLACE;
	err = bpf_tc_attach(&hook, &opts);
	if (err)
		snprintf(msg, len, "cannot attach tc %s program %s to %s: %s",
			 hook.attach_point == BPF_TC_INGRESS ? "ingress" : "egress",
			 hm_roles[p->role].prog, dev, errstr(err));
	return err;
}

static int tc_detach(enum hm_role role, __u32 ifindex, const char *dev, char *msg, size_t len)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	int err;

	tc_hook_opts(role, ifindex, &hook, &opts);
	err = bpf_tc_detach(&hook, &opts);
	/* -ENOENT: no filter of ours; -EINVAL: no clsact qdisc at all. */
	if (err == -ENOENT || err == -EINVAL)
		return 0;
	if (err)
		snprintf(msg, len, "cannot detach tc program %s from %s: %s",
			 hm_roles[role].prog, dev, errstr(err));
	return err;
}

/* ---------------- tracing ---------------- */

static int link_pin_path(char *buf, size_t len)
{
	char dir[PATH_MAX];
	int err = hm_pin_dir(dir, sizeof(dir));

	if (err)
		return err;
	if ((size_t)snprintf(buf, len, "%s/%s", dir, HM_INT_DROP_LINK) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int trace_attach(const struct hm_role_prog *p, char *msg, size_t len)
{
	const char *prog = hm_roles[p->role].prog;
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	int fd, err;

	err = link_pin_path(path, sizeof(path));
	if (err) {
		snprintf(msg, len, "no pin path for the link of %s: %s", prog, errstr(err));
		return err;
	}
	/* bpffs refuses names with a dot. */
	snprintf(tmp, sizeof(tmp), "%s_new", path);
	/* tp_btf: the program names its tracepoint (attach_btf_id). */
	fd = bpf_raw_tracepoint_open(NULL, p->fd);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, len, "cannot attach tracing program %s: %s", prog, errstr(err));
		return err;
	}
	unlink(tmp);
	err = bpf_obj_pin(fd, tmp) ? -errno : 0;
	/* Over an older link: that one is released, ours takes its place. */
	if (!err && rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
	}
	close(fd);
	if (err)
		snprintf(msg, len, "cannot pin the link of %s at %s: %s", prog, path,
			 errstr(err));
	return err;
}

static int trace_detach(enum hm_role role, char *msg, size_t len)
{
	char path[PATH_MAX];
	int err;

	err = link_pin_path(path, sizeof(path));
	if (!err && unlink(path) && errno != ENOENT)
		err = -errno;
	if (err)
		snprintf(msg, len, "cannot remove the link of %s (%s): %s", hm_roles[role].prog,
			 path, errstr(err));
	return err;
}

static int trace_query(enum hm_role role, struct hm_attach_info *info)
{
	struct bpf_link_info li;
	__u32 li_len = sizeof(li);
	char path[PATH_MAX];
	int fd, err;

	err = link_pin_path(path, sizeof(path));
	if (err)
		return err;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	memset(&li, 0, sizeof(li));
	err = bpf_obj_get_info_by_fd(fd, &li, &li_len) ? -errno : 0;
	close(fd);
	if (err)
		return err;
	info->prog_id = li.prog_id;
	if (!hm_prog_name(info->prog_id, info->name, sizeof(info->name)))
		info->ours = !strcmp(info->name, hm_roles[role].prog);
	return 0;
}

/* ---------------- the role's hook ---------------- */

int hm_role_attach(const struct hm_role_prog *p, __u32 ifindex, char *msg, size_t len)
{
	char dev[IF_NAMESIZE];
	int err;

	if ((unsigned int)p->role >= HM_ROLE_MAX || p->fd < 0) {
		snprintf(msg, len, "no loaded BPF program to attach");
		return -EINVAL;
	}
	if (hm_roles[p->role].hook == HM_HOOK_TRACING)
		return trace_attach(p, msg, len);
	err = hm_dev_check_ether(ifindex, msg, len);
	if (err)
		return err;
	dev_name(ifindex, dev);
	if (hm_roles[p->role].hook == HM_HOOK_XDP)
		return xdp_attach(p, ifindex, dev, msg, len);
	return tc_attach(p, ifindex, dev, msg, len);
}

int hm_role_detach(enum hm_role role, __u32 ifindex, char *msg, size_t len)
{
	char dev[IF_NAMESIZE];

	if ((unsigned int)role >= HM_ROLE_MAX) {
		snprintf(msg, len, "no BPF program for role %d", role);
		return -EINVAL;
	}
	if (hm_roles[role].hook == HM_HOOK_TRACING)
		return trace_detach(role, msg, len);
	dev_name(ifindex, dev);
	if (hm_roles[role].hook == HM_HOOK_XDP)
		return xdp_detach(role, ifindex, dev, msg, len);
	return tc_detach(role, ifindex, dev, msg, len);
}

int hm_role_query(enum hm_role role, __u32 ifindex, struct hm_attach_info *info)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;

	memset(info, 0, sizeof(*info));
	if ((unsigned int)role >= HM_ROLE_MAX)
		return -EINVAL;
	if (hm_roles[role].hook == HM_HOOK_XDP)
		return xdp_query(role, ifindex, info);
	if (hm_roles[role].hook == HM_HOOK_TRACING)
		return trace_query(role, info);
	tc_hook_opts(role, ifindex, &hook, &opts);
	if (bpf_tc_query(&hook, &opts))
		return 0;
	info->prog_id = opts.prog_id;
	if (!hm_prog_name(info->prog_id, info->name, sizeof(info->name)))
		info->ours = !strcmp(info->name, hm_roles[role].prog);
	return 0;
}
