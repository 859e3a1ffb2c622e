// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * qdisc_poll.c - queue depth of every interface from rtnetlink qdisc stats.
 *
 * RFC 9197 §4.4.2.7 defines queue depth as the egress queue's length,
 * "in buffers or in octets"; Linux's IOAM reports the root qdisc's backlog
 * in bytes, and so does hopmark. §4.4.2.12 buffer occupancy is the node's
 * total; hopmark stores it at key 0 of hopmark_qdepth, the sum over every
 * interface of the namespace.
 *
 * BPF cannot read another device's qdisc, so the agent dumps the qdiscs
 * (RTM_GETQDISC, like `tc -s qdisc show`) every --qdepth-interval and the
 * datapath uses an entry only while it is younger than
 * hopmark_node.qdepth_max_age_ns (CLOCK_MONOTONIC, the clock of
 * bpf_ktime_get_ns()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <bpf/bpf.h>

#include "hopmark.h"
#include "hopmarkd.h"

/* Room for a full dump message batch of the kernel (it sends up to 32 KiB). */
#define HM_NL_BUF_SIZE		32768

/* Sweep stale entries at least this often, ns. */
#define HM_QDISC_SWEEP_NS	1000000000ULL

/**
 * struct hm_qdisc_reading - one interface's root qdisc in the current dump
 * @ifindex:	interface
 * @backlog:	backlog, bytes
 * @qlen:	queue length, packets
 */
struct hm_qdisc_reading {
	__u32	ifindex;
	__u32	backlog;
	__u32	qlen;
};

/**
 * struct hm_qdisc_poll - the poller
 * @nl:		rtnetlink socket
 * @portid:	its netlink port ID
 * @seq:	sequence number of the last dump request
 * @qdepth_fd:	hopmark_qdepth
 * @cur:	readings of the dump in progress
 * @n_cur:	entries used in @cur
 * @cap:	entries allocated in @cur and @prev
 * @prev:	ifindexes written by the previous successful poll, sorted
 * @n_prev:	entries used in @prev, -1 before the first poll
 * @last_sweep_ns: CLOCK_MONOTONIC ns of the last sweep of stale entries
 * @buf:	receive buffer
 */
struct hm_qdisc_poll {
	struct mnl_socket *nl;
	unsigned int portid;
	unsigned int seq;
	int qdepth_fd;
	struct hm_qdisc_reading *cur;
	int n_cur;
	int cap;
	__u32 *prev;
	int n_prev;
	__u64 last_sweep_ns;
	char buf[HM_NL_BUF_SIZE];
};

/* See hopmarkd.h. */
struct hm_qdisc_poll *hm_qdisc_poll_new(int qdepth_fd)
{
	struct hm_qdisc_poll *qp;
	int err;

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	qp->qdepth_fd = qdepth_fd;
	qp->n_prev = -1;
	qp->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!qp->nl)
		goto err_free;
	if (mnl_socket_bind(qp->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err_close;
	qp->portid = mnl_socket_get_portid(qp->nl);
	qp->seq = (unsigned int)time(NULL);
	return qp;

err_close:
	err = errno;
	mnl_socket_close(qp->nl);
	errno = err;
err_free:
	err = errno;
	free(qp);
	errno = err;
	return NULL;
}

static int hm_qdisc_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, TCA_MAX) < 0)
		return MNL_CB_OK;	/* newer kernel attribute: ignore */
	tb[type] = attr;
	return MNL_CB_OK;
}

static int hm_qdisc_stats2_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, TCA_STATS_MAX) < 0)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

/*
 * The backlog of one qdisc message: TCA_STATS2/TCA_STATS_QUEUE (struct
 * gnet_stats_queue), which every kernel since 2.6.x sends, else the legacy
 * TCA_STATS (struct tc_stats). Returns 0, or -ENODATA without either.
 */
static int hm_qdisc_backlog(const struct nlattr **tb, __u32 *backlog, __u32 *qlen)
{
	if (tb[TCA_STATS2]) {
		const struct nlattr *st[TCA_STATS_MAX + 1] = {};

		if (mnl_attr_parse_nested(tb[TCA_STATS2], hm_qdisc_stats2_cb,
					  st) >= 0 && st[TCA_STATS_QUEUE] &&
		    mnl_attr_get_payload_len(st[TCA_STATS_QUEUE]) >=
		    sizeof(struct gnet_stats_queue)) {
			struct gnet_stats_queue q;

			memcpy(&q, mnl_attr_get_payload(st[TCA_STATS_QUEUE]),
			       sizeof(q));
			*backlog = q.backlog;
			*qlen = q.qlen;
			return 0;
		}
	}
	if (tb[TCA_STATS] &&
	    mnl_attr_get_payload_len(tb[TCA_STATS]) >= sizeof(struct tc_stats)) {
		struct tc_stats s;

		memcpy(&s, mnl_attr_get_payload(tb[TCA_STATS]), sizeof(s));
		*backlog = s.backlog;
		*qlen = s.qlen;
		return 0;
	}
	return -ENODATA;
}

static int hm_qdisc_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TCA_MAX + 1] = {};
	struct hm_qdisc_poll *qp = data;
	struct hm_qdisc_reading *r;
	const struct tcmsg *tcm;
	__u32 backlog, qlen;

	if (nlh->nlmsg_type != RTM_NEWQDISC ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*tcm)))
		return MNL_CB_OK;
	tcm = mnl_nlmsg_get_payload(nlh);
	/*
	 * Only the root qdisc: its backlog already includes its classes' and
	 * children's (mq, htb), and clsact/ingress hold no egress queue.
	 */
	if (tcm->tcm_parent != TC_H_ROOT || tcm->tcm_ifindex <= 0)
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, sizeof(*tcm), hm_qdisc_attr_cb, tb) < 0)
		return MNL_CB_OK;
	if (hm_qdisc_backlog(tb, &backlog, &qlen))
		return MNL_CB_OK;

	if (qp->n_cur == qp->cap) {
		int cap = qp->cap ? qp->cap * 2 : 16;
		struct hm_qdisc_reading *cur;
		__u32 *prev;

		cur = realloc(qp->cur, cap * sizeof(*cur));
		if (!cur)
			return MNL_CB_ERROR;
		qp->cur = cur;
		prev = realloc(qp->prev, cap * sizeof(*prev));
		if (!prev)
			return MNL_CB_ERROR;
		qp->prev = prev;
		qp->cap = cap;
	}
	r = &qp->cur[qp->n_cur++];
	r->ifindex = tcm->tcm_ifindex;
	r->backlog = backlog;
	r->qlen = qlen;
	return MNL_CB_OK;
}

/*
 * After a failed dump (interrupted by a qdisc change, NLM_F_DUMP_INTR, or
 * out of memory) the rest of its messages would meet the next request and
 * fail its sequence check: read them away. Each recv lets the kernel build
 * the next part of the dump, so the loop ends with the dump.
 */
static void hm_qdisc_drain(struct hm_qdisc_poll *qp)
{
	while (recv(mnl_socket_get_fd(qp->nl), qp->buf, sizeof(qp->buf),
		    MSG_DONTWAIT) > 0)
		;
}

static int hm_qdisc_dump(struct hm_qdisc_poll *qp)
{
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	ssize_t n;
	int ret;

	nlh = mnl_nlmsg_put_header(qp->buf);
	nlh->nlmsg_type = RTM_GETQDISC;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++qp->seq;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;

	if (mnl_socket_sendto(qp->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;

	qp->n_cur = 0;
	for (;;) {
		n = mnl_socket_recvfrom(qp->nl, qp->buf, sizeof(qp->buf));
		if (n < 0) {
			ret = -errno;
			hm_qdisc_drain(qp);
			return ret;
		}
		ret = mnl_cb_run(qp->buf, n, qp->seq, qp->portid,
				 hm_qdisc_msg_cb, qp);
		if (ret < 0) {
			ret = errno ? -errno : -EIO;
			hm_qdisc_drain(qp);
			return ret;
		}
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

static int hm_u32_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static int hm_reading_cmp(const void *a, const void *b)
{
	return hm_u32_cmp(&((const struct hm_qdisc_reading *)a)->ifindex,
			  &((const struct hm_qdisc_reading *)b)->ifindex);
}

/*
 * Clear the entries of interfaces absent from this dump (removed, moved
 * to another namespace, or down: a down interface has no queue); the map
 * is an array, so hm_map_delete_if() writes zeros (updated_ns 0: no
 * reading). The sweep
 * walks the whole map, so it runs when the set of interfaces changed and
 * otherwise once per HM_QDISC_SWEEP_NS, which also clears what an earlier
 * agent or a hand-made update left.
 */
static bool hm_qdisc_absent(int fd, const void *key, void *ctx)
{
	struct hm_qdisc_poll *qp = ctx;
	struct hm_qdisc_reading probe;

	memcpy(&probe.ifindex, key, sizeof(probe.ifindex));
	return probe.ifindex && !bsearch(&probe, qp->cur, qp->n_cur, sizeof(*qp->cur),
					 hm_reading_cmp);
}

static void hm_qdisc_sweep(struct hm_qdisc_poll *qp)
{
	hm_map_delete_if(qp->qdepth_fd, sizeof(__u32), hm_qdisc_absent, qp);
}

/* See hopmarkd.h. */
int hm_qdisc_poll_run(struct hm_qdisc_poll *qp)
{
	struct hopmark_qdepth val = {};
	__u64 backlog = 0, qlen = 0;
	struct timespec ts;
	__u32 key;
	int err, i, changed;

	err = hm_qdisc_dump(qp);
	if (err)
		return err;

	/* One timestamp for the whole reading: it is one snapshot. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	val.updated_ns = (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;

	/* The node totals first: every entry carries those of its reading. */
	for (i = 0; i < qp->n_cur; i++) {
		backlog += qp->cur[i].backlog;
		qlen += qp->cur[i].qlen;
	}
	val.node_backlog_bytes = backlog > UINT32_MAX ? UINT32_MAX : backlog;
	val.node_qlen = qlen > UINT32_MAX ? UINT32_MAX : qlen;

	qsort(qp->cur, qp->n_cur, sizeof(*qp->cur), hm_reading_cmp);
	for (i = 0; i < qp->n_cur; i++) {
		key = qp->cur[i].ifindex;
		/* Beyond the array (HM_MAX_IFINDEX): not an interface of ours. */
		if (key >= HM_MAX_IFINDEX)
			continue;
		val.backlog_bytes = qp->cur[i].backlog;
		val.qlen = qp->cur[i].qlen;
		if (bpf_map_update_elem(qp->qdepth_fd, &key, &val, BPF_ANY))
			err = -errno;
	}

	key = 0;
	val.backlog_bytes = val.node_backlog_bytes;
	val.qlen = val.node_qlen;
	if (bpf_map_update_elem(qp->qdepth_fd, &key, &val, BPF_ANY))
		err = -errno;

	changed = qp->n_prev != qp->n_cur;
	for (i = 0; !changed && i < qp->n_cur; i++)
		changed = qp->prev[i] != qp->cur[i].ifindex;
	if (changed || val.updated_ns - qp->last_sweep_ns >= HM_QDISC_SWEEP_NS) {
		hm_qdisc_sweep(qp);
		qp->last_sweep_ns = val.updated_ns;
		for (i = 0; i < qp->n_cur; i++)
			qp->prev[i] = qp->cur[i].ifindex;
		qp->n_prev = qp->n_cur;
	}
	return err ? err : qp->n_cur;
}

/* See hopmarkd.h. */
void hm_qdisc_poll_free(struct hm_qdisc_poll *qp)
{
	if (!qp)
		return;
	mnl_socket_close(qp->nl);
	free(qp->cur);
	free(qp->prev);
	free(qp);
}
