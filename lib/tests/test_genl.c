// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_genl.c - libhopmark's generic netlink client (lib/common/genl.c).
 *
 * Attribute parsing and validation on messages built here, byte by byte
 * through libmnl; family resolution against the running kernel's
 * controller (nlctrl, present in every network namespace, no privilege
 * needed); and the notification receive path - multi-message datagrams,
 * netlink control messages skipped, a message larger than the first
 * buffer, and a receive buffer overrun reported as -ENOBUFS - with
 * messages multicast by a second socket of this test. Multicasting from
 * user space needs CAP_NET_ADMIN, and the test does it in a network
 * namespace of its own so no other listener sees it: without the
 * privilege that test is skipped.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "hm_test.h"
#include "common/genl.h"

/* A genetlink message of @type, @cmd in @buf (at least HM_GENL_BUF). */
static struct nlmsghdr *msg_start(void *buf, __u16 type, __u8 cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = type;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = 1;
	return nlh;
}

static void parse_keeps_attributes_up_to_max(void **state)
{
	char buf[HM_GENL_BUF];
	const struct nlattr *tb[HOPMARK_ATTR_NS_ID + 1];
	struct nlmsghdr *nlh = msg_start(buf, 0x20, HOPMARK_CMD_NODE_GET);

	mnl_attr_put_u32(nlh, HOPMARK_ATTR_NODE_ID, 7);
	mnl_attr_put_u16(nlh, HOPMARK_ATTR_NS_ID, 123);
	mnl_attr_put_u32(nlh, HOPMARK_ATTR_RATE_LIMIT, 5);	/* above max: skipped */
	assert_int_equal(hm_genl_parse(nlh, tb, HOPMARK_ATTR_NS_ID), MNL_CB_OK);
	assert_non_null(tb[HOPMARK_ATTR_NODE_ID]);
	assert_int_equal(mnl_attr_get_u32(tb[HOPMARK_ATTR_NODE_ID]), 7);
	assert_int_equal(mnl_attr_get_u16(tb[HOPMARK_ATTR_NS_ID]), 123);
	assert_null(tb[HOPMARK_ATTR_NODE_ID_WIDE]);
}

static void parse_refuses_a_message_without_genl_header(void **state)
{
	char buf[HM_GENL_BUF];
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = 0x20;
	nlh->nlmsg_len += 2;	/* 2 of the 4 bytes of struct genlmsghdr */
	errno = 0;
	assert_int_equal(hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX), MNL_CB_ERROR);
	assert_int_equal(errno, EBADMSG);
}

static void parse_nested_reads_a_record(void **state)
{
	char buf[HM_GENL_BUF];
	const struct nlattr *tb[HOPMARK_REC_ATTR_MAX + 1], *a;
	struct nlmsghdr *nlh = msg_start(buf, 0x20, HOPMARK_CMD_EVENT);
	struct nlattr *nest;
	unsigned int n = 0;

	nest = mnl_attr_nest_start(nlh, HOPMARK_ATTR_RECORD);
	mnl_attr_put_u8(nlh, HOPMARK_REC_ATTR_TYPE, HOPMARK_EVENT_DEX);
	mnl_attr_put_u32(nlh, HOPMARK_REC_ATTR_SEQ, 42);
	mnl_attr_put_u32(nlh, HOPMARK_REC_ATTR_MAX + 5, 1);	/* newer uapi */
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		n++;
		assert_int_equal(hm_genl_parse_nested(a, tb, HOPMARK_REC_ATTR_MAX), MNL_CB_OK);
	}
	assert_int_equal(n, 1);
	assert_int_equal(mnl_attr_get_u8(tb[HOPMARK_REC_ATTR_TYPE]), HOPMARK_EVENT_DEX);
	assert_int_equal(mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_SEQ]), 42);
	assert_null(tb[HOPMARK_REC_ATTR_FLOW_ID]);
}

enum { T_UNSET, T_U8, T_U16, T_U32, T_U64, T_STR, T_BIN, T_MAX = T_BIN };

static const struct hm_genl_policy test_policy[T_MAX + 1] = {
	[T_U8]	= { MNL_TYPE_U8 },
	[T_U16]	= { MNL_TYPE_U16 },
	[T_U32]	= { MNL_TYPE_U32 },
	[T_U64]	= { MNL_TYPE_U64 },
	[T_STR]	= { MNL_TYPE_NUL_STRING, 8 },
	[T_BIN]	= { MNL_TYPE_BINARY, 4 },
};

/* hm_genl_validate() of a message holding one attribute @type of @len bytes. */
static int validate_one(__u16 type, const void *data, size_t len)
{
	char buf[HM_GENL_BUF];
	const struct nlattr *tb[T_MAX + 1];
	struct nlmsghdr *nlh = msg_start(buf, 0x20, 1);

	mnl_attr_put(nlh, type, len, data);
	assert_int_equal(hm_genl_parse(nlh, tb, T_MAX), MNL_CB_OK);
	return hm_genl_validate(tb, test_policy, T_MAX);
}

static void validate_wants_exact_integer_sizes(void **state)
{
	const __u8 z[16] = {};
	static const struct { __u16 type; size_t len; } ok[] = {
		{ T_U8, 1 }, { T_U16, 2 }, { T_U32, 4 }, { T_U64, 8 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(validate_one(ok[i].type, z, ok[i].len), 0);
		assert_int_equal(validate_one(ok[i].type, z, ok[i].len - 1), -ERANGE);
		assert_int_equal(validate_one(ok[i].type, z, ok[i].len + 1), -ERANGE);
	}
}

static void validate_bounds_strings_and_binaries(void **state)
{
	assert_int_equal(validate_one(T_STR, "abc", 4), 0);
	assert_int_equal(validate_one(T_STR, "abcdefg", 8), 0);
	assert_int_equal(validate_one(T_STR, "abcdefgh", 9), -ERANGE);
	assert_int_equal(validate_one(T_STR, "abc", 3), -EINVAL);	/* no NUL */
	assert_int_equal(validate_one(T_STR, "", 0), -EINVAL);
	assert_int_equal(validate_one(T_BIN, "\1\2\3\4", 4), 0);
	assert_int_equal(validate_one(T_BIN, "", 0), 0);
	assert_int_equal(validate_one(T_BIN, "\1\2\3\4\5", 5), -ERANGE);
	/* No policy entry: anything goes. */
	assert_int_equal(validate_one(T_UNSET, "\1\2\3\4\5\6\7", 7), 0);
}

static void group_id_by_name(void **state)
{
	struct hm_genl_family fam = {
		.id = 0x20, .n_groups = 2,
		.groups = { { 5, "config" }, { 6, "events" } },
	};

	assert_int_equal(hm_genl_group_id(&fam, "events"), 6);
	assert_int_equal(hm_genl_group_id(&fam, "config"), 5);
	assert_int_equal(hm_genl_group_id(&fam, "notify"), -ENOENT);
	assert_int_equal(hm_genl_group_id(&fam, "event"), -ENOENT);
}

static void attr_names_name_the_command_word(void **state)
{
	char unknown[24];

	assert_string_equal(hm_genl_attr_name(HOPMARK_ATTR_NS_ID), "HOPMARK_ATTR_NS_ID (namespace)");
	assert_string_equal(hm_genl_attr_name(HOPMARK_ATTR_EXPORT_FIELDS),
			    "HOPMARK_ATTR_EXPORT_FIELDS (fields)");
	snprintf(unknown, sizeof(unknown), "type %u", HOPMARK_ATTR_MAX + 1);
	assert_string_equal(hm_genl_attr_name(HOPMARK_ATTR_MAX + 1), unknown);
	assert_string_equal(hm_genl_attr_name(0), "type 0");
}

/* An open socket, or the test skipped where there is no generic netlink. */
static void socket_or_skip(struct hm_genl *g)
{
	memset(g, 0, sizeof(*g));
	if (hm_genl_socket(g)) {
		print_message("# no generic netlink socket: %s\n", strerror(errno));
		skip();
	}
}

static void family_get_resolves_nlctrl_and_its_notify_group(void **state)
{
	struct hm_genl_family fam;
	struct hm_genl g;

	socket_or_skip(&g);
	assert_int_equal(g.family_id, GENL_ID_CTRL);
	assert_int_equal(hm_genl_family_get(&g, HM_GENL_CTRL_NAME, &fam), 0);
	assert_int_equal(fam.id, GENL_ID_CTRL);
	assert_true(fam.version >= 1);
	assert_true(hm_genl_group_id(&fam, HM_GENL_CTRL_GRP_NOTIFY) > 0);
	assert_int_equal(g.family_id, GENL_ID_CTRL);	/* left alone */
	hm_genl_close(&g);
	hm_genl_close(&g);				/* twice is harmless */
}

static void family_get_unknown_family_is_enoent(void **state)
{
	struct hm_genl_family fam;
	struct hm_genl g;

	socket_or_skip(&g);
	/* (The controller's policy caps names at GENL_NAMSIZ - 1 bytes.) */
	assert_int_equal(hm_genl_family_get(&g, "hm-nosuch", &fam), -ENOENT);
	/* The socket is still good for the next request. */
	assert_int_equal(hm_genl_family_get(&g, HM_GENL_CTRL_NAME, &fam), 0);
	hm_genl_close(&g);
}

static void recv_without_notifications_is_0(void **state)
{
	struct hm_genl_family fam;
	struct hm_genl g;

	socket_or_skip(&g);
	assert_int_equal(hm_genl_family_get(&g, HM_GENL_CTRL_NAME, &fam), 0);
	assert_int_equal(hm_genl_listen(&g, 65536), 0);
	assert_int_equal(hm_genl_join(&g, hm_genl_group_id(&fam, HM_GENL_CTRL_GRP_NOTIFY)), 0);
	assert_int_equal(hm_genl_recv(&g, NULL, NULL), 0);
	assert_int_equal(hm_genl_leave(&g, hm_genl_group_id(&fam, HM_GENL_CTRL_GRP_NOTIFY)), 0);
	hm_genl_close(&g);
}

/**
 * struct seen - what the receive callback saw
 * @n:		messages handed to it
 * @cmds:	their genetlink commands, in order
 * @last_len:	payload bytes of the last one
 */
struct seen {
	unsigned int n;
	__u8 cmds[16];
	unsigned int last_len;
};

static int seen_cb(const struct nlmsghdr *nlh, void *data)
{
	struct seen *s = data;
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(nlh);

	if (s->n < sizeof(s->cmds))
		s->cmds[s->n] = gh->cmd;
	s->n++;
	s->last_len = mnl_nlmsg_get_payload_len(nlh);
	return MNL_CB_OK;
}

/* Multicast @len bytes at @buf to @group from @tx (a bound netlink socket). */
static void mcast(int tx, __u32 group, const void *buf, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_groups = 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr m = { .msg_name = &to, .msg_namelen = sizeof(to),
			    .msg_iov = &iov, .msg_iovlen = 1 };

	/* nl_groups is a 32-bit mask of groups 1..32: the group's bit. */
	assert_true(group >= 1 && group <= 32);
	to.nl_groups = 1U << (group - 1);
	assert_int_equal(sendmsg(tx, &m, 0), (ssize_t)len);
}

static void recv_datagrams_big_ones_and_overruns(void **state)
{
	/* An unused genetlink id: the kernel's copy of each message is refused. */
	const __u16 type = 0x7ff0;
	static char big[3 * 8192], pattern[3 * 8192];
	char buf[HM_GENL_BUF * 2];
	struct sockaddr_nl self = { .nl_family = AF_NETLINK };
	struct hm_genl_family fam;
	struct nlmsghdr *nlh;
	struct seen s = {};
	struct hm_genl g;
	int tx, group, i, ret, off;

	if (unshare(CLONE_NEWNET)) {
		print_message("# cannot make a network namespace (%s): needs CAP_SYS_ADMIN\n",
			      strerror(errno));
		skip();
	}
	socket_or_skip(&g);
	assert_int_equal(hm_genl_family_get(&g, HM_GENL_CTRL_NAME, &fam), 0);
	group = hm_genl_group_id(&fam, HM_GENL_CTRL_GRP_NOTIFY);
	/* The smallest receive buffer the kernel grants (SOCK_MIN_RCVBUF). */
	assert_int_equal(hm_genl_listen(&g, 1), 0);
	assert_int_equal(hm_genl_join(&g, group), 0);
	tx = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	assert_true(tx >= 0);
	assert_int_equal(bind(tx, (struct sockaddr *)&self, sizeof(self)), 0);

	/* One datagram: NOOP (skipped), message cmd 1, message cmd 2. */
	off = 0;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_NOOP;
	off += nlh->nlmsg_len;
	nlh = msg_start(buf + off, type, 1);
	mnl_attr_put_u32(nlh, 1, 11);
	off += nlh->nlmsg_len;
	nlh = msg_start(buf + off, type, 2);
	off += nlh->nlmsg_len;
	mcast(tx, group, buf, off);
	ret = hm_genl_recv(&g, seen_cb, &s);
	if (ret == 0) {
		close(tx);
		hm_genl_close(&g);
		print_message("# multicast from user space refused: needs CAP_NET_ADMIN\n");
		skip();
	}
	assert_int_equal(ret, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.cmds[0], 1);
	assert_int_equal(s.cmds[1], 2);
	assert_int_equal(hm_genl_recv(&g, seen_cb, &s), 0);

	/* A message larger than the buffer so far: read whole, not cut. */
	nlh = msg_start(big, type, 3);
	memset(pattern, 0x5a, sizeof(pattern));
	mnl_attr_put(nlh, 2, sizeof(big) - 64, pattern);
	memset(&s, 0, sizeof(s));
	mcast(tx, group, big, nlh->nlmsg_len);
	assert_int_equal(hm_genl_recv(&g, seen_cb, &s), 1);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.last_len, nlh->nlmsg_len - NLMSG_HDRLEN);
	assert_true(g.rx_len >= nlh->nlmsg_len);

	/* More than the receive buffer holds: the next read says so, once. */
	nlh = msg_start(buf, type, 4);
	mnl_attr_put(nlh, 2, 1024, pattern);
	for (i = 0; i < 64; i++)
		mcast(tx, group, buf, nlh->nlmsg_len);
	assert_int_equal(hm_genl_recv(&g, seen_cb, &s), -ENOBUFS);
	/* What was queued before the overrun is still there, then nothing. */
	memset(&s, 0, sizeof(s));
	while ((ret = hm_genl_recv(&g, seen_cb, &s)) == 1)
		;
	assert_int_equal(ret, 0);
	assert_true(s.n >= 1 && s.n < 64);
	print_message("# %u of 64 messages fit before the overrun\n", s.n);
	close(tx);
	hm_genl_close(&g);
	assert_null(g.rx_buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_keeps_attributes_up_to_max),
		cmocka_unit_test(parse_refuses_a_message_without_genl_header),
		cmocka_unit_test(parse_nested_reads_a_record),
		cmocka_unit_test(validate_wants_exact_integer_sizes),
		cmocka_unit_test(validate_bounds_strings_and_binaries),
		cmocka_unit_test(group_id_by_name),
		cmocka_unit_test(attr_names_name_the_command_word),
		cmocka_unit_test(family_get_resolves_nlctrl_and_its_notify_group),
		cmocka_unit_test(family_get_unknown_family_is_enoent),
		cmocka_unit_test(recv_without_notifications_is_0),
		/* Last: it moves the process into a network namespace of its own. */
		cmocka_unit_test(recv_datagrams_big_ones_and_overruns),
	};

	return HM_RUN_TESTS(tests);
}
