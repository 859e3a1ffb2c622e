// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_hpcc.c - build/bench/pint-hpcc: HPCC congestion control fed by
 * exact INT or by hopmark's 8-bit PINT utilisation, in a packet-level
 * simulation of a dumbbell and a k=4 fat-tree (PINT paper, Ben Basat et
 * al., SIGCOMM 2020, §5 congestion control and §6 Figures 7 and 8; HPCC,
 * Li et al., SIGCOMM 2019, Algorithm 1).
 *
 * The model (Documentation/pint.rst, "Congestion control (HPCC) with PINT
 * feedback"):
 *
 *  - discrete events per packet; every directed link is an output-queued
 *    FIFO of unbounded buffer (lossless, no PFC), described by the time its
 *    transmitter is busy until: a packet arriving at t waits
 *    max(0, busy - t), and the egress backlog is (busy - t) * rate;
 *  - 1000-byte payloads, 48 bytes of headers per packet; INT adds 42 bytes
 *    (5 hops of 8 bytes plus 2, the HPCC authors' ns-3 header); PINT rides
 *    in the IPv4 Identification field and adds none;
 *  - ACKs return along a queue-free reverse path (propagation plus one
 *    64-byte serialisation per link);
 *  - HPCC's sender (eta 0.95, maxStage 0, additive increase 50 Mb/s,
 *    minimum rate 1 Gb/s, line-rate start, per-ACK reaction against the
 *    reference rate updated once per RTT, window = rate * T, T the largest
 *    base RTT of the network: the PINT authors' run scripts);
 *  - INT: every switch egress stamps (time, bytes sent, backlog) and the
 *    sender computes U = min(qlen, qlen') / (B T) + txRate / B per hop,
 *    keeps the largest and smooths it over tau / T (HPCC Algorithm 1);
 *  - PINT: every switch egress runs hopmark's datapath step as
 *    bpf/pint.bpf.c does: the tx window of struct pint_txrate (base RTT, at
 *    least PINT_TX_WIN_MIN_NS), U = pint_util_q16(backlog, B T, last window
 *    bytes, its capacity), the 8-bit code pint_util_encode(), the maximum
 *    along the path in the packet's query field; a packet carries the
 *    field only when its query subset (pint_query_select() on its packet
 *    ID, pint_pid_v4()) has it; the receiver feeds each packet's struct
 *    pint_record to the real sink (pint_sink_add()) and echoes
 *    pint_sink_last_util(); the sender decodes it (pint_util_decode()) and
 *    smooths it as HPCC does, over the time since the previous sample.
 *
 * Flows arrive as a Poisson process with sizes drawn from a published
 * distribution; the metric is the slowdown, FCT over the FCT the flow
 * would have alone (at least 1, as the PINT authors' fct_analysis.py),
 * by flow size. The same flows (same seed) run under every scheme.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pint/pint_maps.h"
#include "pint/pint_sink.h"

#include "bench_rand.h"

/* ---------------- constants of the model ---------------- */

#define PS_PER_NS	1000ULL
#define PS_PER_US	1000000ULL
#define PS_PER_MS	1000000000ULL
#define PS_PER_S	1000000000000ULL

#define LINK_BPS	100000000000ULL	/* every link: 100 Gb/s */
#define LINK_PROP_PS	(1 * PS_PER_US)	/* 1 us per link (HPCC's topologies) */
#define PS_PER_BYTE	(8 * PS_PER_S / LINK_BPS)	/* 80 ps; no overflow below 2^57 B */
#define MTU_PAYLOAD	1000U		/* payload bytes per packet */
#define HDR_BYTES	48U		/* Ethernet 14, IPv4 20, UDP 8, sequence 6 */
#define INT_BYTES	42U		/* ns-3 HPCC INT header: 5 hops * 8 + 2 */
#define ACK_BYTES	64U
#define MAX_LINKS_PATH	6		/* fat-tree inter-pod: 6 links */
#define MAX_TEL		5		/* switch egress hops on a path */

/* HPCC parameters (PINT authors' run scripts: --utgt 95 --hpai 50, mi 0). */
#define HPCC_ETA	0.95
#define HPCC_MAX_STAGE	0
#define HPCC_RAI_BPS	50e6
#define HPCC_MIN_BPS	1e9

#define MAX_SCHEMES	6
#define MAX_LOADS	8
#define NR_BUCKETS	4

/* ---------------- flow size distributions ---------------- */

/*
 * CDF points (bytes, cumulative percent), sizes in between interpolated
 * linearly. Web search: Alizadeh et al., "Data Center TCP", SIGCOMM 2010;
 * Hadoop: Roy et al., "Inside the Social Network's (Datacenter) Network",
 * SIGCOMM 2015; both as tabulated by the HPCC authors
 * (traffic_gen/WebSearch_distribution.txt, FbHdp_distribution.txt) and
 * used by the PINT paper's Figures 7 and 8.
 */
struct cdf_pt {
	double	bytes;
	double	pct;
};

static const struct cdf_pt cdf_websearch[] = {
	{ 0, 0 }, { 10000, 15 }, { 20000, 20 }, { 30000, 30 }, { 50000, 40 },
	{ 80000, 53 }, { 200000, 60 }, { 1000000, 70 }, { 2000000, 80 },
	{ 5000000, 90 }, { 10000000, 97 }, { 30000000, 100 },
};

static const struct cdf_pt cdf_hadoop[] = {
	{ 0, 0 }, { 100, 1 }, { 200, 2 }, { 300, 5 }, { 350, 15 }, { 400, 20 },
	{ 500, 30 }, { 600, 40 }, { 700, 50 }, { 1000, 60 }, { 2000, 67 },
	{ 7000, 70 }, { 30000, 72 }, { 50000, 82 }, { 80000, 87 },
	{ 120000, 90 }, { 300000, 95 }, { 1000000, 97.5 }, { 2000000, 99 },
	{ 10000000, 100 },
};

struct workload {
	const char		*name;
	const char		*desc;
	const struct cdf_pt	*cdf;
	unsigned int		n;
};

static const struct workload workloads[] = {
	{ "websearch", "web search (DCTCP paper)", cdf_websearch,
	  sizeof(cdf_websearch) / sizeof(cdf_websearch[0]) },
	{ "hadoop", "Hadoop (Facebook, Roy et al.)", cdf_hadoop,
	  sizeof(cdf_hadoop) / sizeof(cdf_hadoop[0]) },
};

static double cdf_mean(const struct workload *w)
{
	double m = 0;
	unsigned int i;

	for (i = 1; i < w->n; i++)
		m += (w->cdf[i].pct - w->cdf[i - 1].pct) / 100 *
		     (w->cdf[i].bytes + w->cdf[i - 1].bytes) / 2;
	return m;
}

static double cdf_draw(const struct workload *w, double u)
{
	double pct = u * 100;
	unsigned int i;

	for (i = 1; i < w->n; i++)
		if (pct <= w->cdf[i].pct && w->cdf[i].pct > w->cdf[i - 1].pct)
			return w->cdf[i - 1].bytes + (w->cdf[i].bytes - w->cdf[i - 1].bytes) *
			       (pct - w->cdf[i - 1].pct) / (w->cdf[i].pct - w->cdf[i - 1].pct);
	return w->cdf[w->n - 1].bytes;
}

/* ---------------- random numbers ---------------- */

/* ---------------- the network ---------------- */

/**
 * struct link - one direction of a link, its egress port
 * @busy_ps:	the transmitter is busy until then
 * @enq_bytes:	wire bytes ever given to the port
 * @tel:	the port is a switch egress (INT stamps, PINT transit hop)
 * @tx:		PINT datapath's tx window of the port (struct pint_txrate)
 * @max_backlog: largest backlog a packet found, bytes
 * @meas_bytes:	bytes that finished transmission in the measurement window
 */
struct link {
	__u64			busy_ps;
	__u64			enq_bytes;
	int			tel;
	struct pint_txrate	tx;
	__u64			max_backlog;
	__u64			meas_bytes;
};

enum topo_kind { TOPO_DUMBBELL, TOPO_FATTREE };

/**
 * struct net - hosts, links, and how a flow's path is routed
 * @kind:	dumbbell (@n_left senders, @n_left receivers) or k=4 fat-tree
 * @n_hosts:	hosts
 * @links:	directed links, @n_links of them
 * @T_ps:	the largest base RTT of a full-size packet, HPCC's T
 */
struct net {
	enum topo_kind	kind;
	const char	*name;
	unsigned int	n_hosts;
	unsigned int	n_left;
	struct link	*links;
	unsigned int	n_links;
	__u64		T_ps;
};

/*
 * Fat-tree k=4 (Al-Fares et al. 2008): 4 pods of 2 edge and 2 aggregation
 * switches, 4 core switches, 2 hosts per edge switch, 16 hosts. Link
 * numbering (each a pair up/down):
 *   host h <-> edge h/2:			up 2h, down 2h+1     (0..31)
 *   edge e <-> agg (pod(e), a):		32 + 4(2e+a) + {0 up, 1 down}
 *   agg g=2p+a <-> core 2a+c:			64 + 4(2g+c) + {0 up, 1 down}
 */
#define FT_HOST_UP(h)		(2 * (h))
#define FT_HOST_DOWN(h)		(2 * (h) + 1)
#define FT_EA_UP(e, a)		(32 + 2 * (2 * (e) + (a)))
#define FT_EA_DOWN(e, a)	(32 + 2 * (2 * (e) + (a)) + 1)
#define FT_AC_UP(g, c)		(64 + 2 * (2 * (g) + (c)))
#define FT_AC_DOWN(g, c)	(64 + 2 * (2 * (g) + (c)) + 1)
#define FT_LINKS		96

/*
 * Dumbbell: hosts 0..n-1 on the left, n..2n-1 on the right, switches A and
 * B, one 100 Gb/s link A->B that every flow crosses:
 *   left host h -> A: link h; A -> B: link n; B -> right host n+j: n+1+j.
 */

static void net_init(struct net *n, enum topo_kind kind)
{
	unsigned int i;

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	if (kind == TOPO_FATTREE) {
		n->name = "fat-tree k=4 (16 hosts, 20 switches)";
		n->n_hosts = 16;
		n->n_links = FT_LINKS;
	} else {
		n->name = "dumbbell (8 senders, 8 receivers, one A->B bottleneck)";
		n->n_left = 8;
		n->n_hosts = 16;
		n->n_links = 2 * n->n_left + 1;
	}
	n->links = calloc(n->n_links, sizeof(*n->links));
	if (!n->links) {
		perror("calloc");
		exit(1);
	}
	for (i = 0; i < n->n_links; i++) {
		if (kind == TOPO_FATTREE)
			n->links[i].tel = !(i < 32 && !(i & 1));	/* all but host uplinks */
		else
			n->links[i].tel = i >= n->n_left;
	}
}

static void net_reset(struct net *n)
{
	unsigned int i;
	int tel;

	for (i = 0; i < n->n_links; i++) {
		tel = n->links[i].tel;
		memset(&n->links[i], 0, sizeof(n->links[i]));
		n->links[i].tel = tel;
	}
}

/* The links a flow from @src to @dst crosses; ECMP choices from @hash. */
static unsigned int net_route(const struct net *n, unsigned int src, unsigned int dst,
			      __u32 hash, unsigned int *path)
{
	unsigned int k = 0, es, ed, ps, pd, a, c;

	if (n->kind == TOPO_DUMBBELL) {
		path[k++] = src;
		path[k++] = n->n_left;
		path[k++] = n->n_left + 1 + (dst - n->n_left);
		return k;
	}
	es = src / 2;
	ed = dst / 2;
	ps = es / 2;
	pd = ed / 2;
	a = hash & 1;
	c = (hash >> 1) & 1;
	path[k++] = FT_HOST_UP(src);
	if (es != ed) {
		path[k++] = FT_EA_UP(es, a);
		if (ps != pd) {
			path[k++] = FT_AC_UP(2 * ps + a, c);
			path[k++] = FT_AC_DOWN(2 * pd + a, c);
		}
		path[k++] = FT_EA_DOWN(ed, a);
	}
	path[k++] = FT_HOST_DOWN(dst);
	return k;
}

static __u64 ser_ps(__u64 bytes)
{
	return bytes * PS_PER_BYTE;
}

/* Round trip of one packet of @wire bytes over @nl links, alone. */
static __u64 base_rtt_ps(unsigned int nl, unsigned int wire)
{
	return 2 * nl * LINK_PROP_PS + nl * ser_ps(wire) + nl * ser_ps(ACK_BYTES);
}

/* ---------------- schemes ---------------- */

enum fb_kind { FB_INT, FB_PINT };

/**
 * struct scheme - how the sender learns U
 * @name:	table label
 * @kind:	exact INT or PINT through the sink
 * @p_inv:	PINT: 1 of @p_inv packets carries the utilisation query
 * @win_T:	PINT: the tx window is T, without the datapath's floor
 * @cfg:	PINT: the domain's settings the sink is built from
 */
struct scheme {
	char			name[16];
	enum fb_kind		kind;
	unsigned int		p_inv;
	int			win_T;
	struct pint_domain_cfg	cfg;
};

static int scheme_parse(struct scheme *sc, const char *word, __u64 T_ps)
{
	struct pint_query q[2] = { { PINT_Q_UTIL, 8, 1 }, { PINT_Q_PATH, 8, 1 } };
	unsigned int masks[2] = { 1, 2 };
	double probs[2];
	char *end;
	int err;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", word);
	if (!strcmp(word, "int")) {
		sc->kind = FB_INT;
		return 0;
	}
	if (strncmp(word, "pint", 4))
		return -EINVAL;
	sc->kind = FB_PINT;
	sc->p_inv = 1;
	end = (char *)word + 4;
	if (*end >= '0' && *end <= '9') {
		sc->p_inv = strtoul(word + 4, &end, 10);
		if (sc->p_inv < 1 || sc->p_inv > 65536)
			return -EINVAL;
	}
	if (*end == 'T') {
		sc->win_T = 1;
		end++;
	}
	if (*end)
		return -EINVAL;
	sc->cfg.flags = PINT_DOM_F_CONFIGURED;
	sc->cfg.hop_limit_start = 64;
	sc->cfg.q_path = PINT_QUERY_NONE;
	sc->cfg.q_lat = PINT_QUERY_NONE;
	sc->cfg.q_util = 0;
	sc->cfg.base_rtt_ns = T_ps / PS_PER_NS;
	/*
	 * 8 bits per packet. With p < 1 the other packets carry another
	 * 8-bit query (path tracing), which this sink does not decode.
	 */
	if (sc->p_inv == 1) {
		err = pint_query_plan_build(&sc->cfg.plan, NULL, 8, q, 1);
	} else {
		probs[0] = 1.0 / sc->p_inv;
		probs[1] = 1.0 - probs[0];
		err = pint_query_plan_explicit(&sc->cfg.plan, NULL, 8, q, 2, masks, probs, 2);
	}
	return err ? err : pint_domain_cfg_check(&sc->cfg);
}

/* ---------------- flows, packets, events ---------------- */

/**
 * struct int_hop - one switch's INT stamp (HPCC)
 * @ts_ps:	time of the stamp
 * @tx_bytes:	bytes the port had sent by then
 * @qlen:	its backlog then, bytes
 */
struct int_hop {
	__u64	ts_ps;
	__u64	tx_bytes;
	__u64	qlen;
};

struct flow {
	unsigned int	src, dst;
	__u64		size;
	__u64		start_ps;
	unsigned int	path[MAX_LINKS_PATH];
	unsigned int	nl;		/* links */
	unsigned int	ntel;		/* switch egress hops */
	__u32		ecmp;
	__u32		isn;
	unsigned int	slot;		/* sink flow key while active */
	/* sender */
	__u64		snd_nxt, snd_una;
	double		rate, rc, u;
	int		stage;
	__u64		last_update_seq;
	int		started_fb;
	__u64		last_fb_ps;
	struct int_hop	prev[MAX_TEL];
	__u64		next_avail_ps;
	int		send_pending;
	int		blocked;
	/* result */
	__u64		meas_bytes;	/* long-lived mode: acked in the window */
	int		done;
	__u64		fct_ps;
	__u64		ideal_ps;
};

struct pkt {
	unsigned int	flow;
	unsigned int	payload;
	unsigned int	wire;
	unsigned int	hop;		/* index into the flow's path */
	__u64		seq;
	__u32		pid;
	__u32		digest;
	int		fb;		/* PINT: echoed code, -1 none */
	unsigned int	nst;
	struct int_hop	st[MAX_TEL];
	unsigned int	next_free;
};

enum ev_type { EV_START, EV_SEND, EV_HOP, EV_RECV, EV_ACK };

struct ev {
	__u64		t;
	__u64		seq;
	unsigned int	type;
	unsigned int	idx;
};

struct heap {
	struct ev	*e;
	size_t		n, cap;
	__u64		seq;
};

static void heap_push(struct heap *h, __u64 t, unsigned int type, unsigned int idx)
{
	size_t i, p;
	struct ev x = { t, h->seq++, type, idx };

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 4096;
		h->e = realloc(h->e, h->cap * sizeof(*h->e));
		if (!h->e) {
			perror("realloc");
			exit(1);
		}
	}
	i = h->n++;
	while (i) {
		p = (i - 1) / 2;
		if (h->e[p].t < x.t || (h->e[p].t == x.t && h->e[p].seq < x.seq))
			break;
		h->e[i] = h->e[p];
		i = p;
	}
	h->e[i] = x;
}

static int ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static struct ev heap_pop(struct heap *h)
{
	struct ev top = h->e[0], x = h->e[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && ev_less(&h->e[c + 1], &h->e[c]))
			c++;
		if (!ev_less(&h->e[c], &x))
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	if (h->n)
		h->e[i] = x;
	return top;
}

/**
 * struct sim - one run: a network, a set of flows, one scheme
 * @stop_ps:	0, or the time the run ends (long-lived mode)
 * @meas_from_ps: measurement window start (long-lived mode)
 * @win_ns:	PINT tx window of this run
 * @win_dp_ns:	the datapath's (max(T, PINT_TX_WIN_MIN_NS) or -W)
 */
struct sim {
	struct net		*net;
	const struct scheme	*sc;
	struct flow		*flows;
	unsigned int		n_flows;
	struct pkt		*pkts;
	unsigned int		n_pkts, cap_pkts, free_pkt;
	struct heap		h;
	struct pint_sink	*sink;
	unsigned int		*free_slots;
	unsigned int		n_free_slots;
	__u64			stop_ps, meas_from_ps;
	__u64			win_ns, win_dp_ns;
	unsigned long		packets, fb_samples;
	unsigned int		done;
};

#define MAX_SLOTS	PINT_SINK_MAX_FLOWS

static unsigned int pkt_alloc(struct sim *s)
{
	unsigned int i;

	if (s->free_pkt != ~0U) {
		i = s->free_pkt;
		s->free_pkt = s->pkts[i].next_free;
		return i;
	}
	if (s->n_pkts == s->cap_pkts) {
		s->cap_pkts = s->cap_pkts ? 2 * s->cap_pkts : 65536;
		s->pkts = realloc(s->pkts, s->cap_pkts * sizeof(*s->pkts));
		if (!s->pkts) {
			perror("realloc");
			exit(1);
		}
	}
	return s->n_pkts++;
}

static void pkt_free(struct sim *s, unsigned int i)
{
	s->pkts[i].next_free = s->free_pkt;
	s->free_pkt = i;
}

static __u64 backlog_bytes(const struct link *l, __u64 t)
{
	return l->busy_ps > t ? (l->busy_ps - t) / PS_PER_BYTE : 0;
}

/*
 * The datapath's pint_tx_account() (bpf/pint.bpf.c): add @len to the
 * window, return the last complete window's bytes and length.
 */
static void tx_account(struct pint_txrate *t, __u64 len, __u64 win_ns, __u64 now,
		       __u64 *bytes, __u64 *ns)
{
	if (!t->win_start_ns)
		t->win_start_ns = now;
	if (now > t->win_start_ns && now - t->win_start_ns >= win_ns) {
		t->last_bytes = t->win_bytes;
		t->last_ns = now - t->win_start_ns;
		t->win_start_ns = now;
		t->win_bytes = 0;
	}
	t->win_bytes += len;
	*bytes = t->last_bytes;
	*ns = t->last_ns;
}

static void addr_of_slot(unsigned int slot, __u8 *saddr, __u8 *daddr)
{
	saddr[0] = 10, saddr[1] = 1, saddr[2] = slot >> 8, saddr[3] = slot & 0xff;
	daddr[0] = 10, daddr[1] = 2, daddr[2] = slot >> 8, daddr[3] = slot & 0xff;
}

#define FLOW_PORT	4791	/* RoCEv2's UDP port, both ends */

static __u32 pkt_pid(const struct flow *f, unsigned int wire, __u64 seq)
{
	__u8 sa[4], da[4], l4[PINT_PID_L4_LEN] = { 0 };
	__u32 sn = f->isn + (__u32)seq;
	unsigned int udp_len = wire - 14 - 20;

	addr_of_slot(f->slot, sa, da);
	l4[0] = FLOW_PORT >> 8, l4[1] = FLOW_PORT & 0xff;
	l4[2] = FLOW_PORT >> 8, l4[3] = FLOW_PORT & 0xff;
	l4[4] = udp_len >> 8, l4[5] = udp_len & 0xff;
	l4[8] = sn >> 24, l4[9] = sn >> 16, l4[10] = sn >> 8, l4[11] = sn;
	return pint_pid_v4(sa, da, 17, (__u16)(wire - 14), l4);
}

static void flow_try_send(struct sim *s, unsigned int fi, __u64 now)
{
	struct flow *f = &s->flows[fi];
	double win;
	unsigned int pi;
	struct pkt *p;

	if (f->snd_nxt >= f->size || f->send_pending)
		return;
	win = f->rate * (double)s->net->T_ps / PS_PER_S / 8;
	if ((double)(f->snd_nxt - f->snd_una) >= win) {
		f->blocked = 1;
		return;
	}
	f->blocked = 0;
	if (now < f->next_avail_ps) {
		f->send_pending = 1;
		heap_push(&s->h, f->next_avail_ps, EV_SEND, fi);
		return;
	}
	pi = pkt_alloc(s);
	p = &s->pkts[pi];
	p->flow = fi;
	p->seq = f->snd_nxt;
	p->payload = f->size - f->snd_nxt < MTU_PAYLOAD ? f->size - f->snd_nxt : MTU_PAYLOAD;
	p->wire = p->payload + HDR_BYTES + (s->sc->kind == FB_INT ? INT_BYTES : 0);
	p->hop = 0;
	p->digest = 0;	/* the PINT source starts the digest at 0 */
	p->fb = -1;
	p->nst = 0;
	p->pid = s->sc->kind == FB_PINT ? pkt_pid(f, p->wire, p->seq) : 0;
	f->snd_nxt += p->payload;
	s->packets++;
	heap_push(&s->h, now, EV_HOP, pi);
	f->next_avail_ps = now + (__u64)(p->wire * 8.0 * PS_PER_S / f->rate);
	if (f->snd_nxt < f->size) {
		f->send_pending = 1;
		heap_push(&s->h, f->next_avail_ps, EV_SEND, fi);
	}
}

/* One switch egress: INT stamp, or hopmark's PINT transit step. */
static void egress_telemetry(struct sim *s, struct link *l, struct pkt *p, __u64 now)
{
	const struct pint_domain_cfg *cfg = &s->sc->cfg;
	__u64 q = backlog_bytes(l, now), txb, txns, bdp, cap;
	__u32 set, off, bits, f;

	if (q > l->max_backlog)
		l->max_backlog = q;
	if (s->sc->kind == FB_INT) {
		if (p->nst < MAX_TEL) {
			p->st[p->nst].ts_ps = now;
			p->st[p->nst].tx_bytes = l->enq_bytes - q;
			p->st[p->nst].qlen = q;
			p->nst++;
		}
		return;
	}
	tx_account(&l->tx, p->wire, s->win_ns, now / PS_PER_NS, &txb, &txns);
	set = pint_query_select(&cfg->plan, p->pid);
	off = cfg->plan.set[set].offset[cfg->q_util];
	if (off == PINT_QUERY_NONE)
		return;
	bits = cfg->plan.bits[cfg->q_util];
	bdp = pint_util_link_bytes(LINK_BPS, cfg->base_rtt_ns);
	cap = pint_util_link_bytes(LINK_BPS, txns);
	f = pint_util_field(pint_util_encode(pint_util_q16(q, bdp, txb, cap)), bits);
	if (f > pint_field_get(p->digest, off, bits))
		p->digest = pint_field_set(p->digest, off, bits, f);
}

static void ev_hop(struct sim *s, unsigned int pi, __u64 now)
{
	struct pkt *p = &s->pkts[pi];
	struct flow *f = &s->flows[p->flow];
	struct link *l = &s->net->links[f->path[p->hop]];
	__u64 start;

	if (l->tel)
		egress_telemetry(s, l, p, now);
	start = l->busy_ps > now ? l->busy_ps : now;
	l->busy_ps = start + ser_ps(p->wire);
	l->enq_bytes += p->wire;
	if (s->stop_ps && l->busy_ps >= s->meas_from_ps && l->busy_ps < s->stop_ps)
		l->meas_bytes += p->wire;
	if (++p->hop < f->nl)
		heap_push(&s->h, l->busy_ps + LINK_PROP_PS, EV_HOP, pi);
	else
		heap_push(&s->h, l->busy_ps + LINK_PROP_PS, EV_RECV, pi);
}

/* The receiver: PINT's sink, then the ACK back to the sender. */
static void ev_recv(struct sim *s, unsigned int pi, __u64 now)
{
	struct pkt *p = &s->pkts[pi];
	struct flow *f = &s->flows[p->flow];
	struct pint_record r;
	int ret;

	if (s->sc->kind == FB_PINT) {
		memset(&r, 0, sizeof(r));
		r.rx_ns = now / PS_PER_NS;
		r.pid = p->pid;
		r.digest = p->digest;
		r.hops = f->ntel;
		r.family = 4;
		r.proto = 17;
		r.qset = pint_query_select(&s->sc->cfg.plan, p->pid);
		r.sport = FLOW_PORT;
		r.dport = FLOW_PORT;
		addr_of_slot(f->slot, r.saddr, r.daddr);
		ret = pint_sink_add(s->sink, &r, sizeof(r));
		if (ret < 0) {
			fprintf(stderr, "pint-hpcc: pint_sink_add: %s\n", strerror(-ret));
			exit(1);
		}
		p->fb = pint_sink_last_util(s->sink);
	}
	heap_push(&s->h, now + f->nl * (LINK_PROP_PS + ser_ps(ACK_BYTES)), EV_ACK, pi);
}

/* HPCC's window computation on one feedback sample (Algorithm 1). */
static void hpcc_update(struct sim *s, struct flow *f, double u, __u64 dt_ps)
{
	double T = (double)s->net->T_ps, max_c, nr;
	int stage;

	if (!f->last_update_seq) {	/* first feedback: reference only */
		f->last_update_seq = f->snd_nxt;
		return;
	}
	if (dt_ps > s->net->T_ps)
		dt_ps = s->net->T_ps;
	f->u = (f->u * (T - dt_ps) + u * dt_ps) / T;
	max_c = f->u / HPCC_ETA;
	if (max_c >= 1 || f->stage >= HPCC_MAX_STAGE) {
		/* U = 0 (an idle path): as fast as the line allows. */
		nr = max_c > 0 ? f->rc / max_c + HPCC_RAI_BPS : LINK_BPS;
		stage = 0;
	} else {
		nr = f->rc + HPCC_RAI_BPS;
		stage = f->stage + 1;
	}
	if (nr < HPCC_MIN_BPS)
		nr = HPCC_MIN_BPS;
	if (nr > LINK_BPS)
		nr = LINK_BPS;
	f->rate = nr;
	if (f->snd_una > f->last_update_seq) {	/* once per RTT: new reference */
		f->rc = nr;
		f->stage = stage;
		f->last_update_seq = f->snd_nxt;
	}
}

static void ev_ack(struct sim *s, unsigned int pi, __u64 now)
{
	struct pkt *p = &s->pkts[pi];
	unsigned int fi = p->flow, i;
	struct flow *f = &s->flows[fi];
	double umax = 0, u, rate;
	__u64 dt = 0, tau;

	f->snd_una += p->payload;
	if (s->stop_ps && now >= s->meas_from_ps)
		f->meas_bytes += p->payload;
	if (s->sc->kind == FB_INT) {
		if (f->started_fb) {
			for (i = 0; i < p->nst; i++) {
				tau = p->st[i].ts_ps - f->prev[i].ts_ps;
				if (!tau)
					continue;
				rate = (double)(p->st[i].tx_bytes - f->prev[i].tx_bytes) * 8 *
				       PS_PER_S / tau;
				u = rate / LINK_BPS +
				    (double)(p->st[i].qlen < f->prev[i].qlen ? p->st[i].qlen :
					     f->prev[i].qlen) * 8 * PS_PER_S /
				    ((double)LINK_BPS * s->net->T_ps);
				if (u > umax) {
					umax = u;
					dt = tau;
				}
			}
		}
		memcpy(f->prev, p->st, sizeof(p->st[0]) * p->nst);
		f->started_fb = 1;
		s->fb_samples++;
		hpcc_update(s, f, umax, dt);
	} else if (p->fb >= 0) {
		u = pint_util_decode((__u8)p->fb);
		dt = f->started_fb ? now - f->last_fb_ps : s->net->T_ps;
		f->last_fb_ps = now;
		f->started_fb = 1;
		s->fb_samples++;
		hpcc_update(s, f, u, dt);
	}
	pkt_free(s, pi);
	if (f->snd_una >= f->size) {
		f->done = 1;
		f->fct_ps = now - f->start_ps;
		s->free_slots[s->n_free_slots++] = f->slot;
		s->done++;
		return;
	}
	if (f->blocked)
		flow_try_send(s, fi, now);
}

static void ev_start(struct sim *s, unsigned int fi, __u64 now)
{
	struct flow *f = &s->flows[fi];

	if (!s->n_free_slots) {
		fprintf(stderr, "pint-hpcc: more than %u flows at once\n", MAX_SLOTS);
		exit(1);
	}
	f->slot = s->free_slots[--s->n_free_slots];
	f->rate = f->rc = LINK_BPS;	/* HPCC starts at line rate */
	flow_try_send(s, fi, now);
}

/**
 * sim_run() - run every flow of @s to completion (or to @s->stop_ps)
 * @s:		simulation, flows set up
 *
 * Return: flows not completed.
 */
static unsigned int sim_run(struct sim *s)
{
	unsigned int i;
	struct ev e;

	s->free_pkt = ~0U;
	s->n_pkts = 0;
	s->h.n = 0;
	s->h.seq = 0;
	s->done = 0;
	s->packets = s->fb_samples = 0;
	s->n_free_slots = 0;
	for (i = MAX_SLOTS; i-- > 0;)
		s->free_slots[s->n_free_slots++] = i;
	net_reset(s->net);
	s->win_ns = s->sc->win_T ? s->net->T_ps / PS_PER_NS : s->win_dp_ns;
	if (s->sc->kind == FB_PINT) {
		s->sink = pint_sink_new(&s->sc->cfg);
		if (!s->sink) {
			perror("pint_sink_new");
			exit(1);
		}
	}
	for (i = 0; i < s->n_flows; i++) {
		struct flow *f = &s->flows[i];

		f->snd_nxt = f->snd_una = 0;
		f->u = 0;
		f->stage = 0;
		f->last_update_seq = 0;
		f->started_fb = 0;
		f->next_avail_ps = 0;
		f->send_pending = f->blocked = 0;
		f->done = 0;
		heap_push(&s->h, f->start_ps, EV_START, i);
	}
	while (s->h.n) {
		e = heap_pop(&s->h);
		if (s->stop_ps && e.t >= s->stop_ps)
			break;
		switch (e.type) {
		case EV_START:
			ev_start(s, e.idx, e.t);
			break;
		case EV_SEND:
			s->flows[e.idx].send_pending = 0;
			flow_try_send(s, e.idx, e.t);
			break;
		case EV_HOP:
			ev_hop(s, e.idx, e.t);
			break;
		case EV_RECV:
			ev_recv(s, e.idx, e.t);
			break;
		case EV_ACK:
			ev_ack(s, e.idx, e.t);
			break;
		}
	}
	pint_sink_free(s->sink);
	s->sink = NULL;
	return s->n_flows - s->done;
}

/* ---------------- workload ---------------- */

static void flow_setup(struct sim *s, struct flow *f, __u64 *rng)
{
	unsigned int npk, last, wire_all;

	f->nl = net_route(s->net, f->src, f->dst, f->ecmp, f->path);
	f->ntel = f->nl - 1;
	npk = (f->size + MTU_PAYLOAD - 1) / MTU_PAYLOAD;
	last = f->size - (npk - 1) * MTU_PAYLOAD;
	wire_all = f->size + npk * HDR_BYTES;
	/*
	 * Alone (no INT bytes): the last packet leaves the host after all the
	 * flow's bytes, crosses the path store-and-forward, and its ACK returns.
	 */
	f->ideal_ps = ser_ps(wire_all) + (f->nl - 1) * ser_ps(last + HDR_BYTES) +
		      2 * f->nl * LINK_PROP_PS + f->nl * ser_ps(ACK_BYTES);
	f->isn = (__u32)bench_rand64(rng);
}

/* Poisson arrivals over @dur_ps at @load of the reference capacity. */
static unsigned int gen_flows(struct sim *s, const struct workload *w, double load,
			      __u64 dur_ps, __u64 seed)
{
	double mean = cdf_mean(w), cap, lambda, t = 0;
	__u64 rng = seed;
	unsigned int n = 0, cap_n = 0;
	struct flow *f;

	/* Dumbbell: of the bottleneck; fat-tree: of all host links. */
	cap = s->net->kind == TOPO_DUMBBELL ? LINK_BPS : (double)LINK_BPS * s->net->n_hosts;
	lambda = load * cap / 8 / mean;	/* flows per second */
	s->flows = NULL;
	for (;;) {
		t += -log(bench_unif01(&rng)) / lambda;
		if (t * PS_PER_S >= dur_ps)
			break;
		if (n == cap_n) {
			cap_n = cap_n ? 2 * cap_n : 1024;
			s->flows = realloc(s->flows, cap_n * sizeof(*s->flows));
			if (!s->flows) {
				perror("realloc");
				exit(1);
			}
		}
		f = &s->flows[n++];
		memset(f, 0, sizeof(*f));
		f->start_ps = (__u64)(t * PS_PER_S);
		f->size = (__u64)(cdf_draw(w, bench_unif01(&rng)) + 0.5);
		if (f->size < 1)
			f->size = 1;
		if (s->net->kind == TOPO_DUMBBELL) {
			f->src = bench_rand64(&rng) % s->net->n_left;
			f->dst = s->net->n_left + bench_rand64(&rng) % s->net->n_left;
		} else {
			f->src = bench_rand64(&rng) % s->net->n_hosts;
			f->dst = bench_rand64(&rng) % (s->net->n_hosts - 1);
			if (f->dst >= f->src)
				f->dst++;
		}
		f->ecmp = (__u32)bench_rand64(&rng);
		flow_setup(s, f, &rng);
	}
	s->n_flows = n;
	return n;
}

/* ---------------- statistics ---------------- */

static const char *const bucket_name[NR_BUCKETS] = {
	"<10KB", "10K-100K", "100K-1M", ">=1MB",
};

static unsigned int bucket_of(__u64 size)
{
	if (size < 10000)
		return 0;
	if (size < 100000)
		return 1;
	if (size < 1000000)
		return 2;
	return 3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the value at index floor(n * q) of the sorted values. */
static double pctl(const double *v, size_t n, double q)
{
	size_t i = (size_t)(n * q);

	return n ? v[i < n ? i : n - 1] : 0;
}

struct summary {
	size_t	n[NR_BUCKETS + 1];
	double	p50[NR_BUCKETS + 1], p95[NR_BUCKETS + 1], p99[NR_BUCKETS + 1];
};

static void summarize(const struct sim *s, struct summary *out)
{
	double *v[NR_BUCKETS + 1], sd;
	unsigned int i, b;

	memset(out, 0, sizeof(*out));
	for (b = 0; b <= NR_BUCKETS; b++) {
		v[b] = malloc((s->n_flows + 1) * sizeof(double));
		if (!v[b]) {
			perror("malloc");
			exit(1);
		}
	}
	for (i = 0; i < s->n_flows; i++) {
		const struct flow *f = &s->flows[i];

		if (!f->done)
			continue;
		sd = (double)f->fct_ps / f->ideal_ps;
		if (sd < 1)
			sd = 1;
		b = bucket_of(f->size);
		v[b][out->n[b]++] = sd;
		v[NR_BUCKETS][out->n[NR_BUCKETS]++] = sd;
	}
	for (b = 0; b <= NR_BUCKETS; b++) {
		qsort(v[b], out->n[b], sizeof(double), cmp_double);
		out->p50[b] = pctl(v[b], out->n[b], 0.50);
		out->p95[b] = pctl(v[b], out->n[b], 0.95);
		out->p99[b] = pctl(v[b], out->n[b], 0.99);
		free(v[b]);
	}
}

static __u64 max_backlog(const struct net *n)
{
	__u64 m = 0;
	unsigned int i;

	for (i = 0; i < n->n_links; i++)
		if (n->links[i].max_backlog > m)
			m = n->links[i].max_backlog;
	return m;
}

/* ---------------- the runs ---------------- */

struct opts {
	enum topo_kind	topos[2];
	unsigned int	n_topos;
	const struct workload *wl[2];
	unsigned int	n_wl;
	double		loads[MAX_LOADS];
	unsigned int	n_loads;
	char		*scheme_words[MAX_SCHEMES];
	unsigned int	n_schemes;
	double		dur_ms;
	__u64		seed;
	double		long_ms;
	__u64		win_ns;		/* 0: the datapath's */
};

static __u64 datapath_win_ns(const struct opts *o, __u64 T_ps)
{
	__u64 w = o->win_ns ? o->win_ns : T_ps / PS_PER_NS;

	/* pint_tx_account(): never below PINT_TX_WIN_MIN_NS unless overridden. */
	if (!o->win_ns && w < PINT_TX_WIN_MIN_NS)
		w = PINT_TX_WIN_MIN_NS;
	return w;
}

static void net_T(struct net *n)
{
	unsigned int full = MTU_PAYLOAD + HDR_BYTES;

	n->T_ps = base_rtt_ps(n->kind == TOPO_FATTREE ? 6 : 3, full);
}

static void print_header(const struct net *n, const struct opts *o)
{
	printf("# %s; 100 Gb/s links, 1 us each; T = %.2f us; PINT tx window %.1f us"
	       " (schemes ending in T: %.2f us)\n", n->name, n->T_ps / 1e6,
	       datapath_win_ns(o, n->T_ps) / 1e3, n->T_ps / 1e6);
}

static void run_fct(const struct opts *o, enum topo_kind tk, const struct workload *w,
		    struct scheme *sc, unsigned int n_sc)
{
	static struct summary sum[MAX_LOADS][MAX_SCHEMES];
	unsigned int left[MAX_LOADS][MAX_SCHEMES], nfl[MAX_LOADS], i, b, li;
	__u64 maxq[MAX_LOADS][MAX_SCHEMES];
	unsigned long fb[MAX_LOADS][MAX_SCHEMES];
	double dur_ms;
	struct net net;
	struct sim s;

	net_init(&net, tk);
	net_T(&net);
	memset(&s, 0, sizeof(s));
	s.net = &net;
	s.free_slots = calloc(MAX_SLOTS, sizeof(*s.free_slots));
	if (!s.free_slots) {
		perror("calloc");
		exit(1);
	}
	s.win_dp_ns = datapath_win_ns(o, net.T_ps);
	/* About the same number of flows on both: the fat-tree has 16 sources. */
	dur_ms = o->dur_ms ? o->dur_ms : tk == TOPO_FATTREE ? 20 : 200;
	for (li = 0; li < o->n_loads; li++) {
		nfl[li] = gen_flows(&s, w, o->loads[li], (__u64)(dur_ms * PS_PER_MS), o->seed);
		for (i = 0; i < n_sc; i++) {
			s.sc = &sc[i];
			left[li][i] = sim_run(&s);
			summarize(&s, &sum[li][i]);
			maxq[li][i] = max_backlog(&net);
			fb[li][i] = s.fb_samples;
		}
		free(s.flows);
		s.flows = NULL;
	}
	print_header(&net, o);
	printf("%s, flows arriving over %.0f ms, seed %llu; slowdown p50 / p95\n", w->desc,
	       dur_ms, (unsigned long long)o->seed);
	printf("%-7s %-9s", "scheme", "size");
	for (li = 0; li < o->n_loads; li++)
		printf("  %5.0f%% load", o->loads[li] * 100);
	printf("\n");
	for (i = 0; i < n_sc; i++)
		for (b = 0; b <= NR_BUCKETS; b++) {
			printf("%-7s %-9s", sc[i].name, b < NR_BUCKETS ? bucket_name[b] : "all");
			for (li = 0; li < o->n_loads; li++)
				printf("  %5.2f %5.2f", sum[li][i].p50[b], sum[li][i].p95[b]);
			printf("\n");
		}
	printf("%-17s", "flows (all sizes)");
	for (li = 0; li < o->n_loads; li++)
		printf("  %11zu", sum[li][0].n[NR_BUCKETS]);
	printf("\n");
	for (i = 0; i < n_sc; i++) {
		printf("%-7s %-9s", sc[i].name, "p99 all");
		for (li = 0; li < o->n_loads; li++)
			printf("  %11.2f", sum[li][i].p99[NR_BUCKETS]);
		printf("\n");
	}
	for (i = 0; i < n_sc; i++) {
		printf("%-7s %-9s", sc[i].name, "max q KB");
		for (li = 0; li < o->n_loads; li++)
			printf("  %11.1f", maxq[li][i] / 1000.0);
		printf("\n");
	}
	for (i = 0; i < n_sc; i++) {
		printf("%-7s %-9s", sc[i].name, "feedback");
		for (li = 0; li < o->n_loads; li++)
			printf("  %11lu", fb[li][i]);
		printf("\n");
	}
	for (li = 0; li < o->n_loads; li++)
		for (i = 0; i < n_sc; i++)
			if (left[li][i] || sum[li][i].n[NR_BUCKETS] != nfl[li])
				printf("%s at %.0f %%: %u of %u flows unfinished\n", sc[i].name,
				       o->loads[li] * 100, left[li][i], nfl[li]);
	printf("\n");
	free(s.pkts);
	free(s.h.e);
	free(s.free_slots);
	free(net.links);
}

/*
 * Long-lived flows on the dumbbell: one flow of unbounded size (and then
 * two flows sharing the bottleneck) run for @o->long_ms; the bottleneck's
 * utilisation over the second half should settle near eta.
 */
static void run_long(const struct opts *o, struct scheme *sc, unsigned int n_sc)
{
	struct net net;
	struct sim s;
	struct flow fl[2];
	unsigned int i, nf;
	__u64 rng;
	double util;

	net_init(&net, TOPO_DUMBBELL);
	net_T(&net);
	memset(&s, 0, sizeof(s));
	s.net = &net;
	s.free_slots = calloc(MAX_SLOTS, sizeof(*s.free_slots));
	if (!s.free_slots) {
		perror("calloc");
		exit(1);
	}
	s.win_dp_ns = datapath_win_ns(o, net.T_ps);
	s.stop_ps = (__u64)(o->long_ms * PS_PER_MS);
	s.meas_from_ps = s.stop_ps / 2;
	print_header(&net, o);
	printf("long-lived flows for %.1f ms; bottleneck A->B over the last half (eta %.2f)\n",
	       o->long_ms, HPCC_ETA);
	printf("%-9s %5s %12s %12s %12s\n", "scheme", "flows", "utilisation", "max queue",
	       "first's share");
	for (nf = 1; nf <= 2; nf++) {
		for (i = 0; i < n_sc; i++) {
			rng = o->seed;	/* the same flows under every scheme */
			memset(fl, 0, sizeof(fl));
			fl[0].src = 0;
			fl[0].dst = net.n_left;
			fl[1].src = 1;
			fl[1].dst = net.n_left + 1;
			fl[0].size = fl[1].size = 1ULL << 50;
			fl[1].start_ps = 10 * PS_PER_US;
			flow_setup(&s, &fl[0], &rng);
			flow_setup(&s, &fl[1], &rng);
			s.flows = fl;
			s.n_flows = nf;
			s.sc = &sc[i];
			sim_run(&s);
			util = (double)net.links[net.n_left].meas_bytes * 8 /
			       ((double)(s.stop_ps - s.meas_from_ps) / PS_PER_S * LINK_BPS);
			printf("%-9s %5u %12.3f %9.1f KB %12.3f\n", sc[i].name, nf, util,
			       max_backlog(&net) / 1000.0, (double)fl[0].meas_bytes /
			       (fl[0].meas_bytes + (nf == 2 ? fl[1].meas_bytes : 0)));
		}
	}
	s.flows = NULL;
	free(s.pkts);
	free(s.h.e);
	free(s.free_slots);
	free(net.links);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pint-hpcc [-T dumbbell,fattree] [-w websearch,hadoop] [-l 30,50,70]\n"
		"                 [-S int,pint,pint16] [-d ms] [-s seed] [-W window_ns]\n"
		"       pint-hpcc -L ms [-S ...]   long-lived flows on the dumbbell\n");
	exit(2);
}

static void parse_list(char *arg, char **words, unsigned int *n, unsigned int max)
{
	char *tok, *save = NULL;

	*n = 0;
	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == max)
			usage();
		words[(*n)++] = tok;
	}
	if (!*n)
		usage();
}

int main(int argc, char **argv)
{
	static char def_schemes[] = "int,pint,pint16";
	struct opts o = { .seed = 1 };
	char *words[MAX_SCHEMES > MAX_LOADS ? MAX_SCHEMES : MAX_LOADS], *end;
	struct scheme sc[MAX_SCHEMES];
	unsigned int i, n, t, wi;
	struct timespec t0, t1;
	int c, err;

	o.topos[0] = TOPO_DUMBBELL;
	o.topos[1] = TOPO_FATTREE;
	o.n_topos = 2;
	o.wl[0] = &workloads[0];
	o.wl[1] = &workloads[1];
	o.n_wl = 2;
	o.loads[0] = 0.3, o.loads[1] = 0.5, o.loads[2] = 0.7;
	o.n_loads = 3;
	parse_list(def_schemes, o.scheme_words, &o.n_schemes, MAX_SCHEMES);
	while ((c = getopt(argc, argv, "T:w:l:S:d:s:L:W:h")) != -1) {
		switch (c) {
		case 'T':
			parse_list(optarg, words, &n, 2);
			for (i = 0; i < n; i++) {
				if (!strcmp(words[i], "dumbbell"))
					o.topos[i] = TOPO_DUMBBELL;
				else if (!strcmp(words[i], "fattree"))
					o.topos[i] = TOPO_FATTREE;
				else
					usage();
			}
			o.n_topos = n;
			break;
		case 'w':
			parse_list(optarg, words, &n, 2);
			for (i = 0; i < n; i++) {
				if (!strcmp(words[i], "websearch"))
					o.wl[i] = &workloads[0];
				else if (!strcmp(words[i], "hadoop"))
					o.wl[i] = &workloads[1];
				else
					usage();
			}
			o.n_wl = n;
			break;
		case 'l':
			parse_list(optarg, words, &n, MAX_LOADS);
			for (i = 0; i < n; i++) {
				o.loads[i] = strtod(words[i], &end) / 100;
				if (*end || !(o.loads[i] > 0) || o.loads[i] >= 1)
					usage();
			}
			o.n_loads = n;
			break;
		case 'S':
			parse_list(optarg, o.scheme_words, &o.n_schemes, MAX_SCHEMES);
			break;
		case 'd':
			o.dur_ms = strtod(optarg, &end);
			if (*end || !(o.dur_ms > 0) || o.dur_ms > 10000)
				usage();
			break;
		case 's':
			o.seed = strtoull(optarg, &end, 0);
			if (*end)
				usage();
			break;
		case 'L':
			o.long_ms = strtod(optarg, &end);
			if (*end || !(o.long_ms > 0) || o.long_ms > 1000)
				usage();
			break;
		case 'W':
			o.win_ns = strtoull(optarg, &end, 0);
			if (*end || !o.win_ns)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (o.long_ms) {
		struct net tmp;

		net_init(&tmp, TOPO_DUMBBELL);
		net_T(&tmp);
		for (i = 0; i < o.n_schemes; i++) {
			err = scheme_parse(&sc[i], o.scheme_words[i], tmp.T_ps);
			if (err) {
				fprintf(stderr, "pint-hpcc: scheme %s: %s\n", o.scheme_words[i],
					strerror(-err));
				return 2;
			}
		}
		free(tmp.links);
		run_long(&o, sc, o.n_schemes);
	} else {
		for (t = 0; t < o.n_topos; t++) {
			struct net tmp;

			net_init(&tmp, o.topos[t]);
			net_T(&tmp);
			for (i = 0; i < o.n_schemes; i++) {
				err = scheme_parse(&sc[i], o.scheme_words[i], tmp.T_ps);
				if (err) {
					fprintf(stderr, "pint-hpcc: scheme %s: %s\n",
						o.scheme_words[i], strerror(-err));
					return 2;
				}
			}
			free(tmp.links);
			for (wi = 0; wi < o.n_wl; wi++)
				run_fct(&o, o.topos[t], o.wl[wi], sc, o.n_schemes);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("(%.1f s on 1 thread)\n",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
