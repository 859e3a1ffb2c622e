// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * genl.c - generic netlink helpers of the hopmark command (libmnl) for the
 * "hopmark" family of kernel/hopmark.ko (lib/common/hopmark_genl.h).
 *
 * The family id is not fixed: it is resolved by name with the generic
 * netlink controller (CTRL_CMD_GETFAMILY), which also says whether the
 * module is loaded at all. Requests ask for an ack with the kernel's
 * extended ack (NETLINK_EXT_ACK): the module's attribute policies and
 * handlers explain a rejection in a message and point at the attribute,
 * and hm_genl_errf() shows both to the user, as iproute2 does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "hopmark_cli.h"
#include "genl.h"

#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif

/**
 * struct hm_genl_talk - state of one request while its replies are read
 * @g:		the socket
 * @req:	the request as sent, to resolve NLMSGERR_ATTR_OFFS against
 * @cb:		caller's callback for every reply message, may be NULL
 * @data:	its argument
 */
struct hm_genl_talk {
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
static void extack_parse(struct hm_genl_talk *t, const struct nlmsghdr *nlh,
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
	struct hm_genl_talk *t = data;
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
	struct hm_genl_talk *t = data;
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
	struct hm_genl_talk *t = data;

	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR]	= cb_error,
	[NLMSG_DONE]	= cb_done,
};

/**
 * hm_genl_msg() - start a request of the family in @buf
 * @g:		socket with the family resolved (or GENL_ID_CTRL in
 *		@g->family_id while resolving)
 * @buf:	%HM_GENL_BUF bytes
 * @cmd:	generic netlink command (HOPMARK_CMD_*)
 * @flags:	NLM_F_* besides NLM_F_REQUEST: NLM_F_ACK for a change,
 *		NLM_F_DUMP for a dump
 *
 * Return: the message, to which the caller adds attributes.
 */
struct nlmsghdr *hm_genl_msg(struct hm_genl *g, void *buf, __u8 cmd, __u16 flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = g->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = g->family_id == GENL_ID_CTRL ? 1 : HOPMARK_GENL_VERSION;
	return nlh;
}

/**
 * hm_genl_talk() - send a request and read every reply up to its ack or end
 * @g:		socket
 * @nlh:	the request (hm_genl_msg() + attributes)
 * @cb:		called for each reply message other than error/done, may be NULL
 * @data:	argument of @cb
 *
 * On failure @g->ext_msg and @g->ext_attr hold what the kernel's extended
 * ack said (empty/0 if nothing).
 *
 * Return: 0; negative errno from the kernel (EINVAL for an attribute the
 * family's policy rejects, EPERM without CAP_NET_ADMIN, ...) or from the
 * socket; the error @cb signalled with MNL_CB_ERROR and errno.
 */
int hm_genl_talk(struct hm_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct hm_genl_talk t = { .g = g, .req = nlh, .cb = cb, .data = data };
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

/**
 * hm_genl_parse() - the top-level attributes of a family message
 * @nlh:	message of the family
 * @tb:		array of @max + 1 entries, filled by attribute type
 * @max:	highest attribute type kept; higher ones (a newer module) are
 *		skipped
 *
 * Return: MNL_CB_OK, or MNL_CB_ERROR with errno set if the message is
 * malformed.
 */
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

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct hm_genl *g = data;

	if (hm_genl_parse(nlh, tb, CTRL_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID] ||
	    mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16) < 0) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	g->family_id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION] &&
	    mnl_attr_validate(tb[CTRL_ATTR_VERSION], MNL_TYPE_U32) == 0)
		g->version = mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_MAXATTR] &&
	    mnl_attr_validate(tb[CTRL_ATTR_MAXATTR], MNL_TYPE_U32) == 0)
		g->maxattr = mnl_attr_get_u32(tb[CTRL_ATTR_MAXATTR]);
	return MNL_CB_OK;
}

/**
 * hm_genl_open() - open a generic netlink socket and resolve the family
 * @g:	zeroed by the caller; filled
 *
 * Enables extended acks (NETLINK_EXT_ACK) with capped acks
 * (NETLINK_CAP_ACK), then asks the controller (CTRL_CMD_GETFAMILY) for
 * %HOPMARK_GENL_NAME.
 *
 * Return: 0; -ENOENT if the family is not registered (module not
 * loaded); other negative errno from the socket.
 */
int hm_genl_open(struct hm_genl *g)
{
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh;
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
	nlh = hm_genl_msg(g, buf, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, HOPMARK_GENL_NAME);
	err = hm_genl_talk(g, nlh, family_cb, g);
	if (!err && g->family_id == GENL_ID_CTRL)
		err = -EBADMSG;
	if (err)
		hm_genl_close(g);
	return err;
}

/**
 * hm_genl_close() - close the socket
 * @g: socket, may be closed already
 */
void hm_genl_close(struct hm_genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	g->nl = NULL;
}

/**
 * hm_genl_connect() - hm_genl_open() for a command, explaining a failure
 * @g:	zeroed by the caller
 *
 * Without the module the family is unknown to the kernel; say so in the
 * words the user needs ("the hopmark kernel module is not loaded: ...").
 * A module whose family version is older than this command's is refused
 * too: its attributes would be misread.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int hm_genl_connect(struct hm_genl *g)
{
	int err = hm_genl_open(g);

	if (err == -ENOENT)
		return hm_errf(0, "the hopmark kernel module is not loaded: generic netlink family \"%s\" is unknown to this kernel (load it: modprobe hopmark, or insmod hopmark.ko)",
			       HOPMARK_GENL_NAME);
	if (err)
		return hm_errf(err, "cannot query generic netlink family \"%s\"",
			       HOPMARK_GENL_NAME);
	if (g->version < HOPMARK_GENL_VERSION) {
		hm_genl_close(g);
		return hm_errf(0, "the hopmark kernel module speaks version %u of family \"%s\", this command needs %u: load a matching hopmark.ko",
			       g->version, HOPMARK_GENL_NAME, HOPMARK_GENL_VERSION);
	}
	return 0;
}

/**
 * hm_genl_errf() - print a failed request the way the kernel explained it
 * @g:		socket whose last request failed
 * @err:	its negative errno
 * @fmt:	what was being done ("cannot set DEX on dev eth0")
 *
 * Prints "Error: <what>: <kernel's extack message> (attribute <name>):
 * <strerror>." Without CAP_NET_ADMIN the kernel says nothing more than
 * EPERM, so the hint is added here.
 *
 * Return: %HM_EXIT_FAIL.
 */
int hm_genl_errf(struct hm_genl *g, int err, const char *fmt, ...)
{
	const char *aname = hm_genl_attr_name(g->ext_attr);
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (g->ext_msg[0])
		fprintf(stderr, ": %s", g->ext_msg);
	if (g->ext_attr)
		fprintf(stderr, " (%s attribute %s)", g->ext_missing ? "missing" : "bad",
			aname);
	fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	if (err == -EPERM)
		fputs(" (changes need CAP_NET_ADMIN)", stderr);
	fputs(".\n", stderr);
	return HM_EXIT_FAIL;
}

/* Attribute names, with the command-line word that sets each. */
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
};

/**
 * hm_genl_attr_name() - printable name of a top-level attribute
 * @type: HOPMARK_ATTR_*
 *
 * Return: "HOPMARK_ATTR_X (word)" naming the command-line word that sets
 * it, or "type N" for one this command does not know.
 */
const char *hm_genl_attr_name(__u16 type)
{
	static char buf[24];

	if (type <= HOPMARK_ATTR_MAX && attr_names[type])
		return attr_names[type];
	snprintf(buf, sizeof(buf), "type %u", type);
	return buf;
}
