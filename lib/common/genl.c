// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * genl.c - generic netlink client of libhopmark (libmnl), see genl.h.
 *
 * A family id is not fixed: it is resolved by name with the generic
 * netlink controller (CTRL_CMD_GETFAMILY), which also says whether the
 * module is loaded at all and which multicast groups it registered.
 * Requests ask for an ack with the kernel's extended ack
 * (NETLINK_EXT_ACK): the module's attribute policies and handlers explain
 * a rejection in a message and point at the attribute, and struct hm_genl
 * keeps both for the caller to show, as iproute2 does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "common/genl.h"

#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif

/**
 * struct hm_genl_req - state of one request while its replies are read
 * @g:		the socket
 * @req:	the request as sent, to resolve NLMSGERR_ATTR_OFFS against
 * @cb:		caller's callback for every reply message, may be NULL
 * @data:	its argument
 */
struct hm_genl_req {
	struct hm_genl *g;
	const struct nlmsghdr *req;
	mnl_cb_t cb;
	void *data;
};

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	__u16 type = mnl_attr_get_type(attr);

	if (type > NLMSGERR_ATTR_MAX)
		return MNL_CB_OK;
	if (mnl_attr_type_valid(attr, NLMSGERR_ATTR_MAX) < 0)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

/*
 * Keep what the kernel said about a rejected request: the message and
 * which attribute (by offset into our request, or by type when missing).
 * With NETLINK_CAP_ACK the request is not echoed, so the offset is
 * resolved against our own copy.
 */
static void extack_parse(struct hm_genl_req *t, const struct nlmsghdr *nlh,
			 const struct nlmsgerr *e)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	unsigned int hlen = sizeof(*e);
	struct hm_genl *g = t->g;

	g->ext_msg[0] = '\0';
	g->ext_attr = 0;
	g->ext_missing = false;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += mnl_nlmsg_get_payload_len(&e->msg);
	if (mnl_nlmsg_get_payload_len(nlh) < hlen ||
	    mnl_attr_parse(nlh, hlen, extack_attr_cb, tb) != MNL_CB_OK)
		return;
	if (tb[NLMSGERR_ATTR_MSG] &&
	    mnl_attr_validate(tb[NLMSGERR_ATTR_MSG], MNL_TYPE_NUL_STRING) == 0)
		snprintf(g->ext_msg, sizeof(g->ext_msg), "%s",
			 mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4) {
		g->ext_attr = mnl_attr_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		g->ext_missing = true;
	} else if (tb[NLMSGERR_ATTR_OFFS] && t->req &&
		   mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_OFFS]) >= 4) {
		__u32 off = mnl_attr_get_u32(tb[NLMSGERR_ATTR_OFFS]);

		if (off >= NLMSG_HDRLEN + GENL_HDRLEN &&
		    off + sizeof(struct nlattr) <= t->req->nlmsg_len) {
			const struct nlattr *a = (const void *)((const char *)t->req + off);

			g->ext_attr = mnl_attr_get_type(a);
		}
	}
}

static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	struct hm_genl_req *t = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!e->error)
		return MNL_CB_STOP;
	extack_parse(t, nlh, e);
	errno = e->error < 0 ? -e->error : e->error;
	return MNL_CB_ERROR;
}

/* A dump's end carries its error (and extack) like an error message does. */
static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct hm_genl_req *t = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
	if (!err)
		return MNL_CB_STOP;
	t->g->ext_msg[0] = '\0';
	t->g->ext_attr = 0;
	errno = err < 0 ? -err : err;
	return MNL_CB_ERROR;
}

static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct hm_genl_req *t = data;

	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR]	= cb_error,
	[NLMSG_DONE]	= cb_done,
};

/* See genl.h. */
struct nlmsghdr *hm_genl_msg(struct hm_genl *g, void *buf, __u8 cmd, __u16 flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	/*
	 * libmnl 1.0.4 leaves the padding after an attribute as it finds
	 * it: send the kernel zeros, not old stack bytes.
	 */
	memset(buf, 0, HM_GENL_BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = g->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = g->family_id == GENL_ID_CTRL ? 1 : HOPMARK_GENL_VERSION;
	return nlh;
}

/* See genl.h. */
int hm_genl_talk(struct hm_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct hm_genl_req t = { .g = g, .req = nlh, .cb = cb, .data = data };
	ssize_t n;
	int ret;

	g->ext_msg[0] = '\0';
	g->ext_attr = 0;
	g->ext_missing = false;
	nlh->nlmsg_seq = ++g->seq;
	if (mnl_socket_sendto(g->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(g->nl, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		errno = 0;
		ret = mnl_cb_run2(buf, n, nlh->nlmsg_seq, g->portid, cb_data, &t,
				  ctl_cbs, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EPROTO;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

/* See genl.h. */
int hm_genl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		  unsigned int max)
{
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		__u16 type = mnl_attr_get_type(a);

		if (type <= max)
			tb[type] = a;
	}
	return MNL_CB_OK;
}

/* See genl.h. */
int hm_genl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			 unsigned int max)
{
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	mnl_attr_for_each_nested(a, nest) {
		__u16 type = mnl_attr_get_type(a);

		if (type <= max)
			tb[type] = a;
	}
	return MNL_CB_OK;
}

/* Payload size of the fixed-size types of struct hm_genl_policy. */
static size_t policy_fixed_len(enum mnl_attr_data_type type)
{
	switch (type) {
	case MNL_TYPE_U8:
		return 1;
	case MNL_TYPE_U16:
		return 2;
	case MNL_TYPE_U32:
		return 4;
	case MNL_TYPE_U64:
		return 8;
	default:
		return 0;
	}
}

/* See genl.h. */
int hm_genl_validate(const struct nlattr *const *tb, const struct hm_genl_policy *policy,
		     unsigned int max)
{
	unsigned int i;

	for (i = 0; i <= max; i++) {
		const struct hm_genl_policy *p = &policy[i];
		const char *s;
		size_t len, fixed;

		if (!tb[i])
			continue;
		len = mnl_attr_get_payload_len(tb[i]);
		fixed = policy_fixed_len(p->type);
		if (fixed) {
			if (len != fixed)
				return -ERANGE;
			continue;
		}
		if (p->max_len && len > p->max_len)
			return -ERANGE;
		if (p->type == MNL_TYPE_NUL_STRING) {
			s = mnl_attr_get_payload(tb[i]);
			if (!len || s[len - 1] != '\0')
				return -EINVAL;
		}
	}
	return 0;
}

/* One CTRL_ATTR_MCAST_GROUPS entry: a nest of name and id. */
static void family_group(const struct nlattr *nest, struct hm_genl_family *fam)
{
	static const struct hm_genl_policy pol[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
		[CTRL_ATTR_MCAST_GRP_NAME]	= { MNL_TYPE_NUL_STRING, GENL_NAMSIZ },
		[CTRL_ATTR_MCAST_GRP_ID]	= { MNL_TYPE_U32 },
	};
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct hm_genl_group *grp;

	if (fam->n_groups >= HM_GENL_GROUPS_MAX)
		return;
	hm_genl_parse_nested(nest, tb, CTRL_ATTR_MCAST_GRP_MAX);
	if (hm_genl_validate(tb, pol, CTRL_ATTR_MCAST_GRP_MAX) ||
	    !tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
		return;
	grp = &fam->groups[fam->n_groups++];
	grp->id = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	snprintf(grp->name, sizeof(grp->name), "%s",
		 mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]));
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	static const struct hm_genl_policy pol[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID]	= { MNL_TYPE_U16 },
		[CTRL_ATTR_VERSION]	= { MNL_TYPE_U32 },
		[CTRL_ATTR_MAXATTR]	= { MNL_TYPE_U32 },
	};
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct hm_genl_family *fam = data;
	const struct nlattr *a;

	if (hm_genl_parse(nlh, tb, CTRL_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID] || hm_genl_validate(tb, pol, CTRL_ATTR_MAX)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	fam->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		fam->version = mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_MAXATTR])
		fam->maxattr = mnl_attr_get_u32(tb[CTRL_ATTR_MAXATTR]);
	if (tb[CTRL_ATTR_MCAST_GROUPS]) {
		mnl_attr_for_each_nested(a, tb[CTRL_ATTR_MCAST_GROUPS])
			family_group(a, fam);
	}
	return MNL_CB_OK;
}

/* See genl.h. */
int hm_genl_family_get(struct hm_genl *g, const char *name, struct hm_genl_family *fam)
{
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh;
	__u16 family_id = g->family_id;
	int err;

	memset(fam, 0, sizeof(*fam));
	g->family_id = GENL_ID_CTRL;
	nlh = hm_genl_msg(g, buf, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	g->family_id = family_id;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	err = hm_genl_talk(g, nlh, family_cb, fam);
	if (!err && !fam->id)
		err = -EBADMSG;
	return err;
}

/* See genl.h. */
int hm_genl_group_id(const struct hm_genl_family *fam, const char *group)
{
	unsigned int i;

	for (i = 0; i < fam->n_groups; i++) {
		if (!strcmp(fam->groups[i].name, group))
			return fam->groups[i].id;
	}
	return -ENOENT;
}

/* See genl.h. */
int hm_genl_socket(struct hm_genl *g)
{
	int one = 1, err;

	g->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!g->nl)
		return -errno;
	/* Older kernels lack them: messages then come without explanations. */
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		hm_genl_close(g);
		return err;
	}
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = time(NULL);
	g->family_id = GENL_ID_CTRL;
	return 0;
}

/* See genl.h. */
int hm_genl_open(struct hm_genl *g)
{
	struct hm_genl_family fam;
	int err;

	err = hm_genl_socket(g);
	if (err)
		return err;
	err = hm_genl_family_get(g, HOPMARK_GENL_NAME, &fam);
	if (err) {
		hm_genl_close(g);
		return err;
	}
	g->family_id = fam.id;
	g->version = fam.version;
	g->maxattr = fam.maxattr;
	return 0;
}

/* See genl.h. */
void hm_genl_close(struct hm_genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	g->nl = NULL;
	free(g->rx_buf);
	g->rx_buf = NULL;
	g->rx_len = 0;
}

/* See genl.h. */
int hm_genl_fd(const struct hm_genl *g)
{
	return mnl_socket_get_fd(g->nl);
}

/* See genl.h. */
int hm_genl_listen(struct hm_genl *g, int rcvbuf)
{
	int fd = mnl_socket_get_fd(g->nl);
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) < 0)
		return -errno;
	return 0;
}

/* See genl.h. */
int hm_genl_join(struct hm_genl *g, __u32 group)
{
	if (mnl_socket_setsockopt(g->nl, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0)
		return -errno;
	return 0;
}

/* See genl.h. */
int hm_genl_leave(struct hm_genl *g, __u32 group)
{
	if (mnl_socket_setsockopt(g->nl, NETLINK_DROP_MEMBERSHIP, &group, sizeof(group)) < 0)
		return -errno;
	return 0;
}

/* Control messages in a stream of notifications carry nothing for us. */
static int cb_skip(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static mnl_cb_t notify_ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP]	= cb_skip,
	[NLMSG_ERROR]	= cb_skip,
	[NLMSG_DONE]	= cb_skip,
	[NLMSG_OVERRUN]	= cb_skip,
};

/* See genl.h. */
int hm_genl_recv(struct hm_genl *g, mnl_cb_t cb, void *data)
{
	int fd = mnl_socket_get_fd(g->nl);
	ssize_t len, n;
	int ret;

	/* Netlink reports the whole datagram's length with MSG_TRUNC. */
	do {
		len = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	} while (len < 0 && errno == EINTR);
	if (len < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	if ((size_t)len > g->rx_len || !g->rx_buf) {
		size_t want = len > MNL_SOCKET_BUFFER_SIZE ? (size_t)len : MNL_SOCKET_BUFFER_SIZE;
		void *p = realloc(g->rx_buf, want);

		if (!p)
			return -ENOMEM;
		g->rx_buf = p;
		g->rx_len = want;
	}
	do {
		n = mnl_socket_recvfrom(g->nl, g->rx_buf, g->rx_len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	errno = 0;
	ret = mnl_cb_run2(g->rx_buf, n, 0, 0, cb, data, notify_ctl_cbs, NLMSG_MIN_TYPE);
	if (ret == MNL_CB_ERROR)
		return errno ? -errno : -EPROTO;
	return 1;
}

/* Attribute names, with the command-line word of hopmark(8) that sets each. */
static const char *const attr_names[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_NODE_ID]		= "HOPMARK_ATTR_NODE_ID (id)",
	[HOPMARK_ATTR_NODE_ID_WIDE]	= "HOPMARK_ATTR_NODE_ID_WIDE (wide-id)",
	[HOPMARK_ATTR_NS_ID]		= "HOPMARK_ATTR_NS_ID (namespace)",
	[HOPMARK_ATTR_NS_DATA]		= "HOPMARK_ATTR_NS_DATA (data)",
	[HOPMARK_ATTR_NS_DATA_WIDE]	= "HOPMARK_ATTR_NS_DATA_WIDE (wide)",
	[HOPMARK_ATTR_IFINDEX]		= "HOPMARK_ATTR_IFINDEX (dev)",
	[HOPMARK_ATTR_IF_ID]		= "HOPMARK_ATTR_IF_ID (id)",
	[HOPMARK_ATTR_IF_ID_WIDE]	= "HOPMARK_ATTR_IF_ID_WIDE (wide-id)",
	[HOPMARK_ATTR_IF_FEATURES]	= "HOPMARK_ATTR_IF_FEATURES",
	[HOPMARK_ATTR_IF_ENCAP_NS]	= "HOPMARK_ATTR_IF_ENCAP_NS (ns)",
	[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE] = "HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE (trace-type)",
	[HOPMARK_ATTR_IF_ENCAP_REMLEN]	= "HOPMARK_ATTR_IF_ENCAP_REMLEN (remlen)",
	[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE] = "HOPMARK_ATTR_IF_ENCAP_E2E_TYPE (type)",
	[HOPMARK_ATTR_IFNAME]		= "HOPMARK_ATTR_IFNAME",
	[HOPMARK_ATTR_RATE_LIMIT]	= "HOPMARK_ATTR_RATE_LIMIT (rate)",
	[HOPMARK_ATTR_BATCH_SIZE]	= "HOPMARK_ATTR_BATCH_SIZE (batch)",
	[HOPMARK_ATTR_FLUSH_MS]		= "HOPMARK_ATTR_FLUSH_MS (flush)",
	[HOPMARK_ATTR_COUNTERS]		= "HOPMARK_ATTR_COUNTERS",
	[HOPMARK_ATTR_RECORD]		= "HOPMARK_ATTR_RECORD",
	[HOPMARK_ATTR_EXPORT_FIELDS]	= "HOPMARK_ATTR_EXPORT_FIELDS (fields)",
};

/* See genl.h. */
const char *hm_genl_attr_name(__u16 type)
{
	static char buf[24];

	if (type <= HOPMARK_ATTR_MAX && attr_names[type])
		return attr_names[type];
	snprintf(buf, sizeof(buf), "type %u", type);
	return buf;
}
