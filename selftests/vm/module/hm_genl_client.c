// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_genl_client.c - test client of the "hopmark" generic netlink family
 *
 * Sends one request built from the command line and prints every reply as
 * one line of "name=value" words, or, on error, the errno and the whole
 * extended ACK: message, the type of the attribute it points at (decoded
 * from NLMSGERR_ATTR_OFFS against the request we sent), the missing
 * attribute type and the policy range. With "monitor" it subscribes to a
 * multicast group and prints what arrives. Test code for the VM tier
 * (selftests/vm/module/); the operator's tool is hopmark(8).
 *
 * Usage:
 *   hm_genl_client [-d] CMD [ATTR...]       -d: NLM_F_DUMP
 *   hm_genl_client monitor GROUP [COUNT [TIMEOUT_MS]]
 *   hm_genl_client family                   family ID, version, groups
 * CMD: node_set node_get ns_add ns_del ns_get ns_set if_set if_get
 *      export_set export_get counters_get counters_reset, or a number.
 * ATTR: NAME=VALUE for a named attribute (its uapi type: node_id=5,
 *       features=VALUE/SELECTOR, ifname not accepted), or raw forms to
 *       build malformed input: u8:T=V u16:T=V u32:T=V u64:T=V
 *       hex:T=BYTES (any length, e.g. hex:2=0102) flag:T nest:T=HEXBYTES
 *
 * Exit: 0 ok; 1 the kernel answered with an error (printed as
 * "error errno=N name=... msg=... attr=T miss=T ..."); 2 usage or local
 * failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "common/hopmark_genl.h"
#include "common/hopmark_genl_names.h"

enum hm_t { T_U8, T_U16, T_U32, T_U64, T_STR, T_BF32, T_NEST, T_BIN };

struct hm_attr_desc {
	const char *name;
	int type;
	enum hm_t t;
};

static const struct hm_attr_desc top_attrs[] = {
	{ "node_id", HOPMARK_ATTR_NODE_ID, T_U32 },
	{ "node_id_wide", HOPMARK_ATTR_NODE_ID_WIDE, T_U64 },
	{ "ns_id", HOPMARK_ATTR_NS_ID, T_U16 },
	{ "ns_data", HOPMARK_ATTR_NS_DATA, T_U32 },
	{ "ns_data_wide", HOPMARK_ATTR_NS_DATA_WIDE, T_U64 },
	{ "ifindex", HOPMARK_ATTR_IFINDEX, T_U32 },
	{ "if_id", HOPMARK_ATTR_IF_ID, T_U16 },
	{ "if_id_wide", HOPMARK_ATTR_IF_ID_WIDE, T_U32 },
	{ "features", HOPMARK_ATTR_IF_FEATURES, T_BF32 },
	{ "encap_ns", HOPMARK_ATTR_IF_ENCAP_NS, T_U16 },
	{ "encap_trace_type", HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE, T_U32 },
	{ "encap_remlen", HOPMARK_ATTR_IF_ENCAP_REMLEN, T_U8 },
	{ "encap_e2e_type", HOPMARK_ATTR_IF_ENCAP_E2E_TYPE, T_U16 },
	{ "ifname", HOPMARK_ATTR_IFNAME, T_STR },
	{ "rate_limit", HOPMARK_ATTR_RATE_LIMIT, T_U32 },
	{ "batch_size", HOPMARK_ATTR_BATCH_SIZE, T_U32 },
	{ "flush_ms", HOPMARK_ATTR_FLUSH_MS, T_U32 },
	{ "counters", HOPMARK_ATTR_COUNTERS, T_NEST },
	{ "record", HOPMARK_ATTR_RECORD, T_NEST },
	{ "export_fields", HOPMARK_ATTR_EXPORT_FIELDS, T_U32 },
	{ NULL, 0, 0 }
};

static const struct hm_attr_desc rec_attrs[] = {
	{ "type", HOPMARK_REC_ATTR_TYPE, T_U8 },
	{ "ts", HOPMARK_REC_ATTR_TIMESTAMP, T_U64 },
	{ "ifindex", HOPMARK_REC_ATTR_IFINDEX, T_U32 },
	{ "ns_id", HOPMARK_REC_ATTR_NS_ID, T_U16 },
	{ "flow_id", HOPMARK_REC_ATTR_FLOW_ID, T_U32 },
	{ "seq", HOPMARK_REC_ATTR_SEQ, T_U32 },
	{ "trace_type", HOPMARK_REC_ATTR_TRACE_TYPE, T_U32 },
	{ "node_data", HOPMARK_REC_ATTR_NODE_DATA, T_BIN },
	{ "option", HOPMARK_REC_ATTR_OPTION, T_BIN },
	{ "headers", HOPMARK_REC_ATTR_HEADERS, T_BIN },
	{ "pkt_len", HOPMARK_REC_ATTR_PKT_LEN, T_U32 },
	{ NULL, 0, 0 }
};

static const char *const cmd_names[__HOPMARK_CMD_MAX] = {
	[HOPMARK_CMD_NODE_SET] = "node_set",
	[HOPMARK_CMD_NODE_GET] = "node_get",
	[HOPMARK_CMD_NS_ADD] = "ns_add",
	[HOPMARK_CMD_NS_DEL] = "ns_del",
	[HOPMARK_CMD_NS_GET] = "ns_get",
	[HOPMARK_CMD_NS_SET] = "ns_set",
	[HOPMARK_CMD_IF_SET] = "if_set",
	[HOPMARK_CMD_IF_GET] = "if_get",
	[HOPMARK_CMD_EXPORT_SET] = "export_set",
	[HOPMARK_CMD_EXPORT_GET] = "export_get",
	[HOPMARK_CMD_COUNTERS_GET] = "counters_get",
	[HOPMARK_CMD_COUNTERS_RESET] = "counters_reset",
	[HOPMARK_CMD_EVENT] = "event",
};

static struct mnl_socket *nl;
static uint16_t family_id;
static uint32_t grp_config, grp_events;
static char sent[8192];

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static const struct hm_attr_desc *desc_by_type(const struct hm_attr_desc *d, int type)
{
	for (; d->name; d++)
		if (d->type == type)
			return d;
	return NULL;
}

static const struct hm_attr_desc *desc_by_name(const char *name)
{
	const struct hm_attr_desc *d;

	for (d = top_attrs; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static void print_hex(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
}

/* Print one attribute as name=value; nests recurse with braces. */
static void print_attr(const struct nlattr *a, const struct hm_attr_desc *set)
{
	int type = mnl_attr_get_type(a);
	const struct hm_attr_desc *d = set ? desc_by_type(set, type) : NULL;
	uint16_t len = mnl_attr_get_payload_len(a);
	const struct nlattr *n;

	if (set == NULL) {	/* counters */
		if (hopmark_genl_counter_name(type) && len == 8)
			printf(" %s=%" PRIu64, hopmark_genl_counter_name(type),
			       mnl_attr_get_u64(a));
		return;
	}
	if (!d) {
		printf(" attr%d=", type);
		print_hex(mnl_attr_get_payload(a), len);
		return;
	}
	printf(" %s=", d->name);
	switch (d->t) {
	case T_U8:
		printf("%u", mnl_attr_get_u8(a));
		break;
	case T_U16:
		printf("%u", mnl_attr_get_u16(a));
		break;
	case T_U32:
		printf("%u", mnl_attr_get_u32(a));
		break;
	case T_U64:
		printf("%" PRIu64, mnl_attr_get_u64(a));
		break;
	case T_STR:
		printf("%s", mnl_attr_get_str(a));
		break;
	case T_BF32: {
		const uint32_t *v = mnl_attr_get_payload(a);

		printf("0x%x/0x%x", v[0], v[1]);
		break;
	}
	case T_BIN:
		print_hex(mnl_attr_get_payload(a), len);
		break;
	case T_NEST:
		printf("{");
		mnl_attr_for_each_nested(n, a)
			print_attr(n, type == HOPMARK_ATTR_RECORD ? rec_attrs : NULL);
		printf(" }");
		break;
	}
}

static int print_msg(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	if (nlh->nlmsg_type != family_id)
		return MNL_CB_OK;
	if (g->cmd < __HOPMARK_CMD_MAX && cmd_names[g->cmd])
		printf("%s", cmd_names[g->cmd]);
	else
		printf("cmd%u", g->cmd);
	mnl_attr_for_each(a, nlh, sizeof(*g))
		print_attr(a, top_attrs);
	printf("\n");
	fflush(stdout);
	if (data)
		(*(int *)data)++;
	return MNL_CB_OK;
}

/* Type of the attribute starting at byte @offs of the request we sent. */
static int attr_type_at(uint32_t offs)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)sent;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if ((const char *)a - sent == (long)offs)
			return mnl_attr_get_type(a);
	return -1;
}

/* Name of a top-level attribute type, or its number. */
static const char *attr_name(int type)
{
	const struct hm_attr_desc *d = desc_by_type(top_attrs, type);
	static char b[16];

	if (d)
		return d->name;
	snprintf(b, sizeof(b), "%d", type);
	return b;
}

static int ack_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	if (type <= NLMSGERR_ATTR_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

/* Print an error ACK with its extended attributes; return the errno. */
static int print_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	const struct nlattr *p;
	unsigned int hlen = sizeof(*e);

	if (!e->error)
		return 0;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_parse(nlh, hlen, ack_attr_cb, tb);

	printf("error errno=%d name=%s", -e->error, strerror(-e->error));
	if (tb[NLMSGERR_ATTR_MSG])
		printf(" msg=\"%s\"", mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS]) {
		uint32_t offs = mnl_attr_get_u32(tb[NLMSGERR_ATTR_OFFS]);

		printf(" offs=%u attr=%s", offs, attr_name(attr_type_at(offs)));
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		printf(" miss=%s",
		       attr_name(mnl_attr_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE])));
	if (tb[NLMSGERR_ATTR_POLICY]) {
		printf(" policy{");
		mnl_attr_for_each_nested(p, tb[NLMSGERR_ATTR_POLICY]) {
			uint16_t l = mnl_attr_get_payload_len(p);

			printf(" %u=", mnl_attr_get_type(p));
			if (l == 8)
				printf("%" PRIu64, mnl_attr_get_u64(p));
			else if (l == 4)
				printf("%u", mnl_attr_get_u32(p));
			else
				print_hex(mnl_attr_get_payload(p), l);
		}
		printf(" }");
	}
	printf("\n");
	fflush(stdout);
	return -e->error;
}

static int family_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_get_type(a) <= CTRL_ATTR_MAX)
		tb[mnl_attr_get_type(a)] = a;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	const struct nlattr *g, *ga;
	int *version = data;

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, tb);
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return MNL_CB_ERROR;
	family_id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		*version = mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(g, tb[CTRL_ATTR_MCAST_GROUPS]) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(ga, g) {
			if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_NAME)
				name = mnl_attr_get_str(ga);
			else if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_ID)
				id = mnl_attr_get_u32(ga);
		}
		if (name && !strcmp(name, HOPMARK_GENL_MCGRP_CONFIG))
			grp_config = id;
		else if (name && !strcmp(name, HOPMARK_GENL_MCGRP_EVENTS))
			grp_events = id;
	}
	return MNL_CB_OK;
}

/* Send the message in @sent and run replies through @cb until the ACK. */
static int transact(int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	const struct nlmsghdr *req = (const struct nlmsghdr *)sent;
	char buf[32768];
	unsigned int portid = mnl_socket_get_portid(nl);
	int ret;

	if (mnl_socket_sendto(nl, sent, req->nlmsg_len) < 0)
		die("mnl_socket_sendto");
	for (;;) {
		const struct nlmsghdr *nlh;
		int len;

		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			die("mnl_socket_recvfrom");
		len = ret;
		for (nlh = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq ||
			    nlh->nlmsg_pid != portid)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				return e->error ? print_error(nlh) : 0;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				const int *err = mnl_nlmsg_get_payload(nlh);

				if (*err < 0 && nlh->nlmsg_len >= NLMSG_LENGTH(4))
					return print_error(nlh);
				return 0;
			}
			if (cb(nlh, data) < 0)
				return 0;
		}
	}
}

static struct nlmsghdr *start_msg(uint16_t type, uint8_t cmd, uint16_t flags,
				  uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(sent);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = (uint32_t)time(NULL);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int resolve_family(void)
{
	struct nlmsghdr *nlh = start_msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 1);
	int version = 0;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, HOPMARK_GENL_NAME);
	if (transact(family_cb, &version))
		return -1;
	return version;
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "hm_genl_client: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

static void put_hex(struct nlmsghdr *nlh, int type, const char *hex)
{
	unsigned char b[512];
	size_t n = strlen(hex) / 2, i;

	if (strlen(hex) % 2 || n > sizeof(b)) {
		fprintf(stderr, "hm_genl_client: bad hex \"%s\"\n", hex);
		exit(2);
	}
	for (i = 0; i < n; i++) {
		unsigned int v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			exit(2);
		b[i] = v;
	}
	mnl_attr_put(nlh, type, n, b);
}

static void put_attr(struct nlmsghdr *nlh, const char *arg)
{
	char name[64], *eq, *colon;
	const struct hm_attr_desc *d;
	const char *val;
	int type;

	snprintf(name, sizeof(name), "%s", arg);
	eq = strchr(name, '=');
	val = eq ? arg + (eq - name) + 1 : NULL;
	if (eq)
		*eq = 0;
	colon = strchr(name, ':');
	if (colon) {
		*colon = 0;
		type = (int)num(colon + 1);
		if (!strcmp(name, "flag"))
			mnl_attr_put(nlh, type, 0, NULL);
		else if (!val)
			goto bad;
		else if (!strcmp(name, "u8"))
			mnl_attr_put_u8(nlh, type, num(val));
		else if (!strcmp(name, "u16"))
			mnl_attr_put_u16(nlh, type, num(val));
		else if (!strcmp(name, "u32"))
			mnl_attr_put_u32(nlh, type, num(val));
		else if (!strcmp(name, "u64"))
			mnl_attr_put_u64(nlh, type, num(val));
		else if (!strcmp(name, "hex"))
			put_hex(nlh, type, val);
		else if (!strcmp(name, "nest"))
			put_hex(nlh, type | NLA_F_NESTED, val);
		else
			goto bad;
		return;
	}
	d = desc_by_name(name);
	if (!d || !val)
		goto bad;
	switch (d->t) {
	case T_U8:
		mnl_attr_put_u8(nlh, d->type, num(val));
		break;
	case T_U16:
		mnl_attr_put_u16(nlh, d->type, num(val));
		break;
	case T_U32:
		mnl_attr_put_u32(nlh, d->type, num(val));
		break;
	case T_U64:
		mnl_attr_put_u64(nlh, d->type, num(val));
		break;
	case T_BF32: {
		char v[64], *slash;
		uint32_t bf[2];

		snprintf(v, sizeof(v), "%s", val);
		slash = strchr(v, '/');
		if (!slash)
			goto bad;
		*slash = 0;
		bf[0] = num(v);
		bf[1] = num(slash + 1);
		mnl_attr_put(nlh, d->type, sizeof(bf), bf);
		break;
	}
	default:
		goto bad;
	}
	return;
bad:
	fprintf(stderr, "hm_genl_client: cannot build attribute \"%s\"\n", arg);
	exit(2);
}

static int monitor(const char *group, int count, int timeout_ms)
{
	char buf[65536];
	uint32_t grp = !strcmp(group, "events") ? grp_events :
		       !strcmp(group, "config") ? grp_config : 0;
	int got = 0, fd = mnl_socket_get_fd(nl);
	struct timespec t0, t;

	if (!grp) {
		fprintf(stderr, "hm_genl_client: no group \"%s\"\n", group);
		return 2;
	}
	if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		die("NETLINK_ADD_MEMBERSHIP");
	/* Tell a waiting test we are subscribed. */
	printf("subscribed %s\n", group);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (count <= 0 || got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = -1;
		int ret;

		if (timeout_ms > 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			left = timeout_ms - ((t.tv_sec - t0.tv_sec) * 1000 +
					     (t.tv_nsec - t0.tv_nsec) / 1000000);
			if (left <= 0)
				break;
		}
		ret = poll(&pfd, 1, (int)left);
		if (ret < 0)
			die("poll");
		if (!ret)
			break;
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0) {
			if (errno == ENOBUFS) {
				printf("overrun\n");
				continue;
			}
			die("recv");
		}
		mnl_cb_run(buf, ret, 0, 0, print_msg, &got);
	}
	return count > 0 && got < count ? 1 : 0;
}

static int cmd_by_name(const char *s)
{
	int i;

	for (i = 1; i < __HOPMARK_CMD_MAX; i++)
		if (cmd_names[i] && !strcmp(cmd_names[i], s))
			return i;
	return (int)num(s);
}

int main(int argc, char **argv)
{
	struct nlmsghdr *nlh;
	int one = 1, dump = 0, version, cmd, i;

	if (argc > 1 && !strcmp(argv[1], "-d")) {
		dump = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: hm_genl_client [-d] CMD [ATTR...] | monitor GROUP [COUNT [TIMEOUT_MS]] | family\n");
		return 2;
	}
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl)
		die("mnl_socket_open");
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("mnl_socket_bind");
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));

	version = resolve_family();
	if (version < 0) {
		fprintf(stderr, "hm_genl_client: no generic netlink family \"%s\" (module not loaded?)\n",
			HOPMARK_GENL_NAME);
		return 1;
	}
	if (!strcmp(argv[1], "family")) {
		printf("family id=%u version=%d config=%u events=%u\n",
		       family_id, version, grp_config, grp_events);
		return 0;
	}
	if (!strcmp(argv[1], "monitor")) {
		if (argc < 3)
			return 2;
		return monitor(argv[2], argc > 3 ? (int)num(argv[3]) : 0,
			       argc > 4 ? (int)num(argv[4]) : 0);
	}
	cmd = cmd_by_name(argv[1]);
	nlh = start_msg(family_id, cmd, dump ? NLM_F_DUMP : 0,
			HOPMARK_GENL_VERSION);
	for (i = 2; i < argc; i++)
		put_attr(nlh, argv[i]);
	return transact(print_msg, NULL) ? 1 : 0;
}
