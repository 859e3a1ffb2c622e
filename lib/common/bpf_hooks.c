// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * bpf_hooks.c - which BPF programs run on an interface's hooks, whoever
 * attached them (bpf_hooks.h): clsact filters from an rtnetlink dump
 * (libmnl), XDP from libbpf's query, names from the programs' info.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/bpf_hooks.h"

static int tc_bpf_opt_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, TCA_BPF_MAX) < 0)
		return MNL_CB_OK;	/* newer kernel: ignore */
	tb[type] = attr;
	return MNL_CB_OK;
}

static int tc_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, TCA_MAX) < 0)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

/* One RTM_NEWTFILTER message of the dump. */
static int tc_filter_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TCA_MAX + 1] = {}, *opt[TCA_BPF_MAX + 1] = {};
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct hm_tc_dump *d = data;
	struct hm_tc_bpf_filter *f;

	if (nlh->nlmsg_type != RTM_NEWTFILTER)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*t), tc_attr_cb, tb);
	/* The chain head of each priority comes without options: skip it. */
	if (!tb[TCA_KIND] || strcmp(mnl_attr_get_str(tb[TCA_KIND]), "bpf") ||
	    !tb[TCA_OPTIONS])
		return MNL_CB_OK;
	mnl_attr_parse_nested(tb[TCA_OPTIONS], tc_bpf_opt_cb, opt);
	if (!opt[TCA_BPF_ID] || mnl_attr_validate(opt[TCA_BPF_ID], MNL_TYPE_U32) < 0)
		return MNL_CB_OK;	/* classic BPF (bytecode), no program id */
	if (d->n >= HM_TC_FILTERS_MAX) {
		d->skipped++;
		return MNL_CB_OK;
	}
	f = &d->f[d->n++];
	memset(f, 0, sizeof(*f));
	f->prog_id = mnl_attr_get_u32(opt[TCA_BPF_ID]);
	f->pref = TC_H_MAJ(t->tcm_info) >> 16;
	f->handle = t->tcm_handle;
	if (opt[TCA_BPF_FLAGS] && mnl_attr_validate(opt[TCA_BPF_FLAGS], MNL_TYPE_U32) == 0)
		f->da = mnl_attr_get_u32(opt[TCA_BPF_FLAGS]) & TCA_BPF_FLAG_ACT_DIRECT;
	if (opt[TCA_BPF_NAME] && mnl_attr_validate(opt[TCA_BPF_NAME], MNL_TYPE_STRING) == 0)
		snprintf(f->tc_name, sizeof(f->tc_name), "%s", mnl_attr_get_str(opt[TCA_BPF_NAME]));
	return MNL_CB_OK;
}

int hm_tc_bpf_filters(__u32 ifindex, bool ingress, struct hm_tc_dump *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct tcmsg *t;
	unsigned int seq, portid;
	int n, err = 0;

	memset(d, 0, sizeof(*d));
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETTFILTER;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq = time(NULL);
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_MAKE(TC_H_CLSACT, ingress ? TC_H_MIN_INGRESS : TC_H_MIN_EGRESS);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out;
	}
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		n = mnl_cb_run(buf, n, seq, portid, tc_filter_cb, d);
		if (n <= MNL_CB_STOP)
			break;
	}
	if (n < 0) {
		err = -errno;
		/* No clsact qdisc (or no such hook): nothing attached. */
		if (err == -EINVAL || err == -ENOENT || err == -EOPNOTSUPP)
			err = 0;
	}
out:
	mnl_socket_close(nl);
	return err;
}

int hm_prog_name(__u32 id, char *name, size_t len)
{
	struct bpf_prog_info info = {};
	__u32 info_len = sizeof(info);
	int fd, err;

	snprintf(name, len, "?");
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &info_len) ? -errno : 0;
	close(fd);
	if (!err && info.name[0])
		snprintf(name, len, "%s", info.name);
	return err;
}

bool hm_prog_is_ours(const char *name)
{
	return !strncmp(name, HM_PROG_PREFIX, strlen(HM_PROG_PREFIX));
}


/* Append "@what" to the list @buf of hm_node_programs(), "..." when full. */
static void list_add(char *buf, size_t len, size_t *used, const char *what)
{
	int n;

	if (*used >= len)
		return;
	n = snprintf(buf + *used, len - *used, "%s", what);
	if (n < 0 || (size_t)n >= len - *used) {
		if (len >= 4)
			strcpy(buf + len - 4, "...");
		*used = len;
		return;
	}
	*used += n;
}

/* Append the hm_* programs of one tc hook of @ifindex; return how many. */
static unsigned int list_tc_hook(__u32 ifindex, bool ingress, char *buf, size_t len,
				 size_t *used, unsigned int found)
{
	char name[BPF_OBJ_NAME_LEN];
	struct hm_tc_dump d;
	unsigned int i;

	if (hm_tc_bpf_filters(ifindex, ingress, &d))
		return 0;
	for (i = 0; i < d.n; i++) {
		hm_prog_name(d.f[i].prog_id, name, sizeof(name));
		if (!hm_prog_is_ours(name))
			continue;
		list_add(buf, len, used, found++ ? ", " : " (");
		list_add(buf, len, used, name);
	}
	return found;
}

/* The XDP program of @ifindex in whichever mode it runs, 0 if none. */
static int xdp_prog_id(__u32 ifindex, __u32 *id)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err = bpf_xdp_query(ifindex, 0, &q);

	if (err)
		return err;
	*id = q.drv_prog_id ? q.drv_prog_id : q.skb_prog_id ? q.skb_prog_id : q.hw_prog_id;
	return 0;
}

int hm_node_programs(char *buf, size_t len)
{
	struct if_nameindex *ifs, *i;
	char xdp_name[BPF_OBJ_NAME_LEN];
	size_t used = 0;
	int n = 0;

	if (len)
		buf[0] = '\0';
	ifs = if_nameindex();
	if (!ifs)
		return -errno;
	for (i = ifs; i->if_index; i++) {
		size_t start = used;
		unsigned int found = 0;
		__u32 id;

		list_add(buf, len, &used, n ? ", " : "");
		list_add(buf, len, &used, i->if_name);
		if (xdp_prog_id(i->if_index, &id) == 0 && id &&
		    !hm_prog_name(id, xdp_name, sizeof(xdp_name)) && hm_prog_is_ours(xdp_name)) {
			list_add(buf, len, &used, " (");
			list_add(buf, len, &used, xdp_name);
			found++;
		}
		found = list_tc_hook(i->if_index, false, buf, len, &used, found);
		found = list_tc_hook(i->if_index, true, buf, len, &used, found);
		if (found) {
			list_add(buf, len, &used, ")");
			n++;
		} else if (used < len) {
			used = start;	/* none here: take the name back */
			buf[used] = '\0';
		}
	}
	if_freenameindex(ifs);
	return n;
}
