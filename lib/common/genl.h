/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * genl.h - the generic netlink client every hopmark program shares (genl.c),
 * over libmnl: the "hopmark" family of kernel/hopmark.ko
 * (common/hopmark_genl.h) and the generic netlink controller "nlctrl".
 *
 *   - a socket with the kernel's extended acks (NETLINK_EXT_ACK), so a
 *     rejected request comes back with the module's message and the
 *     attribute it points at;
 *   - family resolution by name (CTRL_CMD_GETFAMILY), with the family's
 *     multicast groups (CTRL_ATTR_MCAST_GROUPS);
 *   - request/ack and dump, with the extended ack kept in struct hm_genl;
 *   - joining and leaving multicast groups (NETLINK_ADD_MEMBERSHIP) and a
 *     non-blocking receive of notifications that reports a receive buffer
 *     overrun (ENOBUFS) to its caller;
 *   - attribute parsing and validation, attribute names.
 *
 * Nothing here prints: the hopmark command (iproute2-ext/genl.c) turns
 * failures into "Error: ..." messages, hopmarkd (agent/genl_events.c) into
 * log lines and counters.
 *
 * Functions return 0 or a positive count on success and a negative errno
 * on failure, unless their comment says otherwise.
 */
#ifndef __HOPMARK_COMMON_GENL_H
#define __HOPMARK_COMMON_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/genetlink.h>
#include <linux/types.h>
#include <libmnl/libmnl.h>

#include "common/hopmark_genl.h"

/* The generic netlink controller and its group announcing families. */
#define HM_GENL_CTRL_NAME		"nlctrl"
#define HM_GENL_CTRL_GRP_NOTIFY		"notify"

/* Room for one request; replies are read in MNL_SOCKET_BUFFER_SIZE pieces. */
#define HM_GENL_BUF	8192

/* Multicast groups kept per family by hm_genl_family_get(). */
#define HM_GENL_GROUPS_MAX	8

/**
 * struct hm_genl - an open generic netlink socket
 * @nl:		libmnl socket (NETLINK_GENERIC), extended acks enabled
 * @family_id:	id of the family hm_genl_msg() addresses (GENL_ID_CTRL
 *		until a family is resolved)
 * @version:	the family's version as its owner registered it
 * @maxattr:	highest attribute the family accepts
 * @seq:	sequence number of the last request
 * @portid:	our netlink port id
 * @ext_msg:	the extended ack message of the last failed request ("" if
 *		the kernel sent none)
 * @ext_attr:	attribute type the kernel pointed at with NLMSGERR_ATTR_OFFS
 *		or NLMSGERR_ATTR_MISS_TYPE, 0 if none
 * @ext_missing: @ext_attr is an attribute the request lacked
 * @rx_buf:	receive buffer of hm_genl_recv(), grown to the largest
 *		notification seen; freed by hm_genl_close()
 * @rx_len:	bytes at @rx_buf
 *
 * Zero it before hm_genl_socket() or hm_genl_open().
 */
struct hm_genl {
	struct mnl_socket *nl;
	__u16	family_id;
	__u32	version;
	__u32	maxattr;
	__u32	seq;
	__u32	portid;
	char	ext_msg[256];
	__u16	ext_attr;
	bool	ext_missing;
	void	*rx_buf;
	size_t	rx_len;
};

/**
 * struct hm_genl_group - one multicast group of a family
 * @id:		group id (CTRL_ATTR_MCAST_GRP_ID), what NETLINK_ADD_MEMBERSHIP
 *		takes
 * @name:	group name (CTRL_ATTR_MCAST_GRP_NAME)
 */
struct hm_genl_group {
	__u32	id;
	char	name[GENL_NAMSIZ];
};

/**
 * struct hm_genl_family - a family as the controller describes it
 * @id:		family id (CTRL_ATTR_FAMILY_ID), the nlmsg_type of its messages
 * @version:	CTRL_ATTR_VERSION, 0 if not reported
 * @maxattr:	CTRL_ATTR_MAXATTR, 0 if not reported
 * @n_groups:	entries of @groups used
 * @groups:	its multicast groups (CTRL_ATTR_MCAST_GROUPS), the first
 *		%HM_GENL_GROUPS_MAX
 */
struct hm_genl_family {
	__u16	id;
	__u32	version;
	__u32	maxattr;
	unsigned int n_groups;
	struct hm_genl_group groups[HM_GENL_GROUPS_MAX];
};

/**
 * struct hm_genl_policy - what a received attribute must look like
 * @type:	MNL_TYPE_U8/U16/U32/U64: exactly that size;
 *		MNL_TYPE_NUL_STRING: a NUL-terminated string of at most
 *		@max_len bytes (0: any length); MNL_TYPE_BINARY or
 *		MNL_TYPE_UNSPEC: at most @max_len bytes (0: any length).
 *		An entry left zero (MNL_TYPE_UNSPEC, 0) accepts anything.
 * @max_len:	see @type
 *
 * The user-space half of the module's nla_policy tables: a table indexed
 * by attribute type, checked by hm_genl_validate().
 */
struct hm_genl_policy {
	enum mnl_attr_data_type type;
	__u16	max_len;
};

/**
 * hm_genl_socket() - open a generic netlink socket
 * @g:	zeroed by the caller; filled
 *
 * Enables extended acks (NETLINK_EXT_ACK) with capped acks
 * (NETLINK_CAP_ACK) where the kernel has them, binds to a port the
 * kernel picks, and leaves @g->family_id at GENL_ID_CTRL, the controller:
 * resolve a family next (hm_genl_family_get()).
 *
 * Return: 0, or negative errno from socket(2)/bind(2).
 */
int hm_genl_socket(struct hm_genl *g);

/**
 * hm_genl_family_get() - ask the controller about a family
 * @g:		open socket (its @family_id is left alone)
 * @name:	family name ("hopmark", "nlctrl")
 * @fam:	filled: id, version, maxattr, multicast groups
 *
 * One CTRL_CMD_GETFAMILY request with CTRL_ATTR_FAMILY_NAME.
 *
 * Return: 0; -ENOENT if no such family is registered (for "hopmark": the
 * module is not loaded); -EBADMSG for a reply without a family id; other
 * negative errno from the socket.
 */
int hm_genl_family_get(struct hm_genl *g, const char *name, struct hm_genl_family *fam);

/**
 * hm_genl_group_id() - the id of a family's multicast group
 * @fam:	as hm_genl_family_get() filled it
 * @group:	group name ("events", "config", "notify")
 *
 * Return: the group id (> 0), or -ENOENT if the family has no such group.
 */
int hm_genl_group_id(const struct hm_genl_family *fam, const char *group);

/**
 * hm_genl_open() - open a socket and resolve the "hopmark" family on it
 * @g:	zeroed by the caller; filled, @g->family_id the module's family
 *
 * hm_genl_socket() then hm_genl_family_get() for %HOPMARK_GENL_NAME.
 *
 * Return: 0; -ENOENT if the family is not registered (module not
 * loaded); other negative errno from the socket. On failure @g is closed.
 */
int hm_genl_open(struct hm_genl *g);

/**
 * hm_genl_close() - close the socket and free the receive buffer
 * @g: socket, may be closed already
 */
void hm_genl_close(struct hm_genl *g);

/**
 * hm_genl_fd() - the socket's file descriptor, for poll(2)/epoll(7)
 * @g: open socket
 *
 * Return: the fd.
 */
int hm_genl_fd(const struct hm_genl *g);

/**
 * hm_genl_msg() - start a request of the family in @buf
 * @g:		socket with the family resolved (or GENL_ID_CTRL in
 *		@g->family_id to talk to the controller)
 * @buf:	%HM_GENL_BUF bytes
 * @cmd:	generic netlink command (HOPMARK_CMD_*, CTRL_CMD_*)
 * @flags:	NLM_F_* besides NLM_F_REQUEST: NLM_F_ACK for a change or a
 *		single read, NLM_F_DUMP for a dump
 *
 * The genetlink version is 1 for the controller and
 * %HOPMARK_GENL_VERSION for the hopmark family.
 *
 * Return: the message, to which the caller adds attributes.
 */
struct nlmsghdr *hm_genl_msg(struct hm_genl *g, void *buf, __u8 cmd, __u16 flags);

/**
 * hm_genl_talk() - send a request and read every reply up to its ack or end
 * @g:		socket (blocking)
 * @nlh:	the request (hm_genl_msg() + attributes)
 * @cb:		called for each reply message other than error/done, may be NULL
 * @data:	argument of @cb
 *
 * Replies are matched by sequence number and port; a doit with NLM_F_ACK
 * ends at its ack, a dump at NLMSG_DONE. On failure @g->ext_msg and
 * @g->ext_attr hold what the kernel's extended ack said (empty/0 if
 * nothing).
 *
 * Return: 0; negative errno from the kernel (EINVAL for an attribute the
 * family's policy rejects, EPERM without CAP_NET_ADMIN, ...) or from the
 * socket; the error @cb signalled with MNL_CB_ERROR and errno.
 */
int hm_genl_talk(struct hm_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/**
 * hm_genl_listen() - make the socket a non-blocking notification listener
 * @g:		open socket
 * @rcvbuf:	receive buffer to ask for (SO_RCVBUF), bytes; the kernel
 *		doubles it and caps it at net.core.rmem_max; 0 keeps the
 *		default
 *
 * Return: 0, or negative errno from fcntl(2)/setsockopt(2).
 */
int hm_genl_listen(struct hm_genl *g, int rcvbuf);

/**
 * hm_genl_join() - join a multicast group (NETLINK_ADD_MEMBERSHIP)
 * @g:		open socket
 * @group:	group id (hm_genl_group_id())
 *
 * Return: 0, or negative errno (EPERM for a group that needs a privilege
 * the caller lacks, EINVAL for an unknown id).
 */
int hm_genl_join(struct hm_genl *g, __u32 group);

/**
 * hm_genl_leave() - leave a multicast group (NETLINK_DROP_MEMBERSHIP)
 * @g:		open socket
 * @group:	group id
 *
 * Return: 0, or negative errno.
 */
int hm_genl_leave(struct hm_genl *g, __u32 group);

/**
 * hm_genl_recv() - read one datagram of notifications without blocking
 * @g:		listening socket (hm_genl_listen())
 * @cb:		called for every message of the datagram except netlink
 *		control messages (NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE,
 *		NLMSG_OVERRUN), which are skipped
 * @data:	argument of @cb
 *
 * A datagram larger than the receive buffer grows it (its size is peeked
 * first), so a message is never truncated. ENOBUFS means the kernel
 * dropped notifications because the socket's receive buffer was full:
 * the socket stays usable and the caller decides what the loss means
 * (state learned from notifications must be read again).
 *
 * Return: 1 after a datagram; 0 if none is waiting (EAGAIN); -ENOBUFS
 * after an overrun; -ENOMEM if the buffer cannot grow; the error @cb
 * signalled with MNL_CB_ERROR and errno, or -EPROTO; other negative
 * errno from recvmsg(2).
 */
int hm_genl_recv(struct hm_genl *g, mnl_cb_t cb, void *data);

/**
 * hm_genl_parse() - the top-level attributes of a family message
 * @nlh:	message of the family
 * @tb:		array of @max + 1 entries, filled by attribute type
 * @max:	highest attribute type kept; higher ones (a newer module) are
 *		skipped
 *
 * Return: MNL_CB_OK, or MNL_CB_ERROR with errno EBADMSG if the message
 * has no room for its genetlink header.
 */
int hm_genl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		  unsigned int max);

/**
 * hm_genl_parse_nested() - the attributes inside a nested attribute
 * @nest:	the nest (HOPMARK_ATTR_RECORD, HOPMARK_ATTR_COUNTERS, ...)
 * @tb:		array of @max + 1 entries, filled by attribute type
 * @max:	highest attribute type kept; higher ones are skipped
 *
 * Return: MNL_CB_OK.
 */
int hm_genl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			 unsigned int max);

/**
 * hm_genl_validate() - check parsed attributes against a policy
 * @tb:		as hm_genl_parse() filled it
 * @policy:	@max + 1 entries, indexed by attribute type
 * @max:	highest attribute type in @tb and @policy
 *
 * Return: 0 if every present attribute has the length and form its
 * policy entry asks for; -ERANGE (wrong length) or -EINVAL (string not
 * terminated) for the first that has not.
 */
int hm_genl_validate(const struct nlattr *const *tb, const struct hm_genl_policy *policy,
		     unsigned int max);

/**
 * hm_genl_attr_name() - printable name of a top-level hopmark attribute
 * @type: HOPMARK_ATTR_*
 *
 * Return: "HOPMARK_ATTR_X (word)" naming the command-line word of
 * hopmark(8) that sets it, or "type N" for one this library does not know
 * (in a static buffer, overwritten by the next call).
 */
const char *hm_genl_attr_name(__u16 type);

#endif /* __HOPMARK_COMMON_GENL_H */
