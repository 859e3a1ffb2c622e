// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_dp_genl.c - small libmnl client of the "hopmark" generic netlink family
 * for the datapath VM tests (selftests/vm/datapath/)
 *
 * Acts on the network namespace it runs in.
 *
 *   hm_dp_genl node ID [WIDE]
 *   hm_dp_genl ns add ID [data U32] [wide U64] [rate EVENTS_PER_S]
 *   hm_dp_genl if DEV [id U16] [wide U32] [features MASK] [encap-ns ID]
 *                     [trace-type TT] [remlen WORDS] [e2e-type TYPE]
 *   hm_dp_genl export [rate EVENTS_PER_S] [batch N] [flush MS]
 *   hm_dp_genl counters           one JSON object per line: the netns
 *                                 (ifindex 0), then each interface
 *   hm_dp_genl listen COUNT MS    subscribe to "events"; print "READY" on
 *                                 stdout, then one JSON object per record,
 *                                 until COUNT records or MS ms of silence
 *
 * Numbers take C syntax (0x...). Exit status 0, or 1 with the kernel's
 * error and extended-ACK message on stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "common/hopmark_genl.h"
#include "common/hopmark_genl_names.h"

static struct mnl_socket *nl;
static uint16_t family_id;
static uint32_t events_grp;
static unsigned int seq_no;

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: hm_dp_genl node ID [WIDE]\n"
		"       hm_dp_genl ns add ID [data U32] [wide U64] [rate R]\n"
		"       hm_dp_genl if DEV [id U16] [wide U32] [features MASK] [encap-ns ID]\n"
		"                         [trace-type TT] [remlen WORDS] [e2e-type TYPE]\n"
		"       hm_dp_genl export [rate R] [batch N] [flush MS]\n"
		"       hm_dp_genl counters\n"
		"       hm_dp_genl listen COUNT MS\n");
	exit(2);
}

static unsigned long long num(const char *word, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "hm_dp_genl: %s: not a number: \"%s\"\n", word, s);
		exit(2);
	}
	return v;
}

/* Print the error of an ACK with its extended-ACK message. */
static int ack_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	const char *msg = NULL;
	size_t off;

	if (nlh->nlmsg_type != NLMSG_ERROR)
		return MNL_CB_OK;
	if (!err->error)
		return MNL_CB_STOP;
	off = sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		mnl_attr_for_each(a, nlh, off) {
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
				msg = mnl_attr_get_str(a);
		}
	}
	fprintf(stderr, "hm_dp_genl: kernel: %s%s%s\n", strerror(-err->error),
		msg ? ": " : "", msg ? msg : "");
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE ends a dump; an error in it is reported like an ACK's. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	const int *err = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*err) && *err < 0) {
		fprintf(stderr, "hm_dp_genl: kernel: dump: %s\n", strerror(-*err));
		errno = -*err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static int run_cb(const struct nlmsghdr *nlh, mnl_cb_t cb)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = noop_cb,
		[NLMSG_ERROR] = ack_cb,
		[NLMSG_DONE] = done_cb,
		[NLMSG_OVERRUN] = noop_cb,
	};
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(nl);
	int ret;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("hm_dp_genl: sendto");
		return -1;
	}
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret <= 0)
			break;
		ret = mnl_cb_run2(buf, ret, nlh->nlmsg_seq, portid, cb, NULL,
				  ctl, NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	return ret < 0 ? -1 : 0;
}

static struct nlmsghdr *msg_start(char *buf, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++seq_no;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : HOPMARK_GENL_VERSION;
	return nlh;
}

static int family_grp_cb(const struct nlattr *a, void *data)
{
	const struct nlattr *n;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(n, a) {
		if (mnl_attr_get_type(n) == CTRL_ATTR_MCAST_GRP_NAME)
			name = mnl_attr_get_str(n);
		else if (mnl_attr_get_type(n) == CTRL_ATTR_MCAST_GRP_ID)
			id = mnl_attr_get_u32(n);
	}
	if (name && !strcmp(name, HOPMARK_GENL_MCGRP_EVENTS))
		events_grp = id;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *g;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			family_id = mnl_attr_get_u16(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(g, a)
				family_grp_cb(g, NULL);
	}
	return MNL_CB_OK;
}

static void resolve_family(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = msg_start(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
					 NLM_F_ACK);

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, HOPMARK_GENL_NAME);
	if (run_cb(nlh, family_cb) || !family_id) {
		fprintf(stderr, "hm_dp_genl: generic netlink family \"%s\" not found (module not loaded?)\n",
			HOPMARK_GENL_NAME);
		exit(1);
	}
}

static int do_node(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (argc < 1)
		usage();
	nlh = msg_start(buf, family_id, HOPMARK_CMD_NODE_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, HOPMARK_ATTR_NODE_ID, num("ID", argv[0]));
	if (argc > 1)
		mnl_attr_put_u64(nlh, HOPMARK_ATTR_NODE_ID_WIDE, num("WIDE", argv[1]));
	return run_cb(nlh, NULL);
}

static int do_ns(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int i;

	if (argc < 2 || strcmp(argv[0], "add"))
		usage();
	nlh = msg_start(buf, family_id, HOPMARK_CMD_NS_ADD, NLM_F_ACK);
	mnl_attr_put_u16(nlh, HOPMARK_ATTR_NS_ID, num("ID", argv[1]));
	for (i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "data"))
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_NS_DATA, num("data", argv[i + 1]));
		else if (!strcmp(argv[i], "wide"))
			mnl_attr_put_u64(nlh, HOPMARK_ATTR_NS_DATA_WIDE, num("wide", argv[i + 1]));
		else if (!strcmp(argv[i], "rate"))
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_RATE_LIMIT, num("rate", argv[i + 1]));
		else
			usage();
	}
	if (i != argc)
		usage();
	return run_cb(nlh, NULL);
}

static int do_if(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int ifindex;
	int i;

	if (argc < 1)
		usage();
	ifindex = if_nametoindex(argv[0]);
	if (!ifindex) {
		fprintf(stderr, "hm_dp_genl: %s: no such device\n", argv[0]);
		return -1;
	}
	nlh = msg_start(buf, family_id, HOPMARK_CMD_IF_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, HOPMARK_ATTR_IFINDEX, ifindex);
	for (i = 1; i + 1 < argc; i += 2) {
		const char *w = argv[i], *v = argv[i + 1];

		if (!strcmp(w, "id")) {
			mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ID, num(w, v));
		} else if (!strcmp(w, "wide")) {
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_IF_ID_WIDE, num(w, v));
		} else if (!strcmp(w, "features")) {
			struct nla_bitfield32 bf = {
				.value = num(w, v), .selector = HOPMARK_IF_F_ALL,
			};

			mnl_attr_put(nlh, HOPMARK_ATTR_IF_FEATURES, sizeof(bf), &bf);
		} else if (!strcmp(w, "encap-ns")) {
			mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ENCAP_NS, num(w, v));
		} else if (!strcmp(w, "trace-type")) {
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE, num(w, v));
		} else if (!strcmp(w, "remlen")) {
			mnl_attr_put_u8(nlh, HOPMARK_ATTR_IF_ENCAP_REMLEN, num(w, v));
		} else if (!strcmp(w, "e2e-type")) {
			mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ENCAP_E2E_TYPE, num(w, v));
		} else {
			usage();
		}
	}
	if (i != argc)
		usage();
	return run_cb(nlh, NULL);
}

static int do_export(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int i;

	nlh = msg_start(buf, family_id, HOPMARK_CMD_EXPORT_SET, NLM_F_ACK);
	for (i = 0; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "rate"))
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_RATE_LIMIT, num("rate", argv[i + 1]));
		else if (!strcmp(argv[i], "batch"))
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_BATCH_SIZE, num("batch", argv[i + 1]));
		else if (!strcmp(argv[i], "flush"))
			mnl_attr_put_u32(nlh, HOPMARK_ATTR_FLUSH_MS, num("flush", argv[i + 1]));
		else
			usage();
	}
	if (i != argc)
		usage();
	return run_cb(nlh, NULL);
}

static int counters_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *c;
	uint32_t ifindex = 0;
	const char *sep = "";

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == HOPMARK_ATTR_IFINDEX)
			ifindex = mnl_attr_get_u32(a);
	printf("{\"ifindex\":%u,", ifindex);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != HOPMARK_ATTR_COUNTERS)
			continue;
		mnl_attr_for_each_nested(c, a) {
			unsigned int t = mnl_attr_get_type(c);

			if (!hopmark_genl_counter_name(t) ||
			    mnl_attr_get_payload_len(c) != 8)
				continue;
			printf("%s\"%s\":%" PRIu64, sep, hopmark_genl_counter_name(t),
			       mnl_attr_get_u64(c));
			sep = ",";
		}
	}
	printf("}\n");
	return MNL_CB_OK;
}

static int do_counters(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = msg_start(buf, family_id, HOPMARK_CMD_COUNTERS_GET,
			NLM_F_DUMP);
	return run_cb(nlh, counters_cb);
}

static void print_hex(const char *key, const struct nlattr *a)
{
	const uint8_t *p = mnl_attr_get_payload(a);
	uint16_t i, n = mnl_attr_get_payload_len(a);

	printf(",\"%s\":\"", key);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\"");
}

static unsigned long records;

static void print_record(const struct nlattr *rec)
{
	const struct nlattr *a;

	printf("{\"record\":%lu", records);
	mnl_attr_for_each_nested(a, rec) {
		switch (mnl_attr_get_type(a)) {
		case HOPMARK_REC_ATTR_TYPE: {
			uint8_t t = mnl_attr_get_u8(a);

			printf(",\"type\":\"%s\"", hopmark_genl_event_name(t) ?
			       hopmark_genl_event_name(t) : "unknown");
			break;
		}
		case HOPMARK_REC_ATTR_TIMESTAMP:
			printf(",\"timestamp_ns\":%" PRIu64, mnl_attr_get_u64(a));
			break;
		case HOPMARK_REC_ATTR_IFINDEX:
			printf(",\"ifindex\":%u", mnl_attr_get_u32(a));
			break;
		case HOPMARK_REC_ATTR_NS_ID:
			printf(",\"ns_id\":%u", mnl_attr_get_u16(a));
			break;
		case HOPMARK_REC_ATTR_FLOW_ID:
			printf(",\"flow_id\":%u", mnl_attr_get_u32(a));
			break;
		case HOPMARK_REC_ATTR_SEQ:
			printf(",\"seq\":%u", mnl_attr_get_u32(a));
			break;
		case HOPMARK_REC_ATTR_TRACE_TYPE:
			printf(",\"trace_type\":%u", mnl_attr_get_u32(a));
			break;
		case HOPMARK_REC_ATTR_NODE_DATA:
			print_hex("node_data", a);
			break;
		case HOPMARK_REC_ATTR_OPTION:
			print_hex("option", a);
			break;
		case HOPMARK_REC_ATTR_HEADERS:
			print_hex("headers", a);
			break;
		case HOPMARK_REC_ATTR_PKT_LEN:
			printf(",\"pkt_len\":%u", mnl_attr_get_u32(a));
			break;
		default:
			break;
		}
	}
	printf("}\n");
	records++;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	if (nlh->nlmsg_type != family_id || g->cmd != HOPMARK_CMD_EVENT)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*g))
		if (mnl_attr_get_type(a) == HOPMARK_ATTR_RECORD)
			print_record(a);
	fflush(stdout);
	return MNL_CB_OK;
}

static int do_listen(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long count;
	int ms, fd, rcvbuf = 8 << 20;
	struct pollfd pfd;

	if (argc < 2)
		usage();
	count = num("COUNT", argv[0]);
	ms = num("MS", argv[1]);
	if (!events_grp) {
		fprintf(stderr, "hm_dp_genl: no \"events\" group\n");
		return -1;
	}
	fd = mnl_socket_get_fd(nl);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &events_grp,
				  sizeof(events_grp)) < 0) {
		perror("hm_dp_genl: NETLINK_ADD_MEMBERSHIP");
		return -1;
	}
	printf("READY\n");
	fflush(stdout);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (records < count) {
		int n = poll(&pfd, 1, ms);

		if (n < 0) {
			perror("hm_dp_genl: poll");
			return -1;
		}
		if (!n)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == ENOBUFS) {
				fprintf(stderr, "hm_dp_genl: receive buffer overrun\n");
				continue;
			}
			perror("hm_dp_genl: recv");
			return -1;
		}
		mnl_cb_run(buf, n, 0, 0, event_cb, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int one = 1, ret;

	if (argc < 2)
		usage();
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("hm_dp_genl: netlink socket");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	resolve_family();

	if (!strcmp(argv[1], "node"))
		ret = do_node(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "ns"))
		ret = do_ns(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "if"))
		ret = do_if(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "export"))
		ret = do_export(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "counters"))
		ret = do_counters();
	else if (!strcmp(argv[1], "listen"))
		ret = do_listen(argc - 2, argv + 2);
	else
		usage();
	mnl_socket_close(nl);
	return ret ? 1 : 0;
}
