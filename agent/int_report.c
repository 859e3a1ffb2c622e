// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_report.c - hopmarkd's INT exporter: the records of the INT datapath
 * (ring buffer int_events, struct int_record) become Telemetry Report v2.0
 * datagrams (lib/int/report_encode.c) sent over UDP to the collector of
 * int_cfg[0].rpt_*.
 *
 * One more fd in hopmarkd's epoll loop (HM_EV_INT_RING): encoding is a
 * copy per record and sending is one sendmmsg(2) per batch, nothing that
 * would keep the IOAM records waiting. The INT maps are created by the INT
 * BPF object, which may be loaded after the agent started (or replaced):
 * they are looked for at start and on every tick. int_cfg[0] is read again
 * before every drain and on every tick, so a new collector, truncation or
 * coalescing applies from the next records on.
 *
 * Reports leave through a raw IPPROTO_UDP socket whose UDP header the
 * agent writes: the source port is int_cfg.rpt_sport or, when 0, a hash
 * of each datagram's first inner 5-tuple (Report §3.1), which one UDP
 * socket per port could not give. IPv4 reports have DF set (Report §3.1)
 * and DSCP 0, IPv6 reports Traffic Class 0: the datapath leaves UDP to
 * rpt_port alone, and the agent puts no INT mark on them. The UDP checksum
 * is computed (IPv4: over the source address the route gives, learned
 * with connect(2) on a UDP socket; IPv6: by the kernel, IPV6_CHECKSUM).
 * The raw socket takes in no packet (a socket filter that accepts none).
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/filter.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "int/int_maps.h"
#include "int/int_record.h"
#include "int/report_encode.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "postcard/pc_obs_from.h"

/* Datagrams per sendmmsg(2). */
#define HM_INT_BATCH		64
/* Send buffer of the report socket: a full ring buffer's worth of datagrams. */
#define HM_INT_SNDBUF		(4 * 1024 * 1024)
/* Hashed source ports are 0xc000 | 14 bits of the hash: in the dynamic range. */
#define HM_INT_SPORT_BASE	0xc000
/* Batches of JSON lines per drain before other events are served (hopmarkd.c). */
#define HM_INT_DRAIN_BATCHES	64

/**
 * struct hm_int_report - the exporter's state
 * @epfd:		hopmarkd's epoll instance
 * @src:		epoll tag of the ring buffer's fd
 * @cfg_fd:		int_cfg, -1 while not found
 * @stats_fd:		int_stats, -1 while not found
 * @events_fd:		int_events, -1 while not found
 * @events_id:		map ID of @events_fd (a replaced map has another)
 * @rb:			ring buffer consumer of @events_fd
 * @have_cfg:		@cfg holds int_cfg[0] as last read
 * @cfg:		the domain's settings
 * @enc:		the encoder's settings derived from @cfg
 * @sock:		raw report socket, -1 while none (no collector, or it
 *			could not be set up for this @cfg)
 * @sock_err:		why the socket for this @cfg could not be set up (0: it was)
 * @dst:		collector's address
 * @dst_len:		bytes of @dst
 * @saddr:		source address of the reports (checksum pseudo-header,
 *			IPv4), network order
 * @seqs:		Sequence Numbers per (Node ID, hw_id, destination)
 * @dg:			the batch's datagrams; @dg[@n_dg] is being filled
 *			when @open
 * @n_dg:		closed datagrams in @dg
 * @open:		@dg[@n_dg] is started
 * @udp:		UDP header of each datagram
 * @lost_prev:		INT_CNT_EVENTS_LOST summed at the last reading, -1
 *			before the first (the baseline)
 * @lost_total:		that sum as last read (since the maps were created),
 *			-1 when int_stats cannot be read
 * @out:		hopmarkd's output: every record's JSON line goes into
 *			its batch (NULL: no lines, --no-records)
 * @flush:		writes @out's batch to the output and the monitor
 *			socket's clients (hopmarkd.c)
 * @flush_ctx:		its argument
 * @sig:		signalling of @cfg, to decode the records' packets
 * @line:		buffer a line is formatted in, grown as needed
 * @line_cap:		bytes at @line
 * @exp:		the IPFIX exporter XD and MX records also go to
 *			(NULL: none)
 * @st:			counters
 * @reported:		@st as of the last log line
 */
struct hm_int_report {
	int epfd;
	struct hm_ev_src *src;
	int cfg_fd;
	int stats_fd;
	int events_fd;
	__u32 events_id;
	struct ring_buffer *rb;

	bool have_cfg;
	struct int_domain_cfg cfg;
	struct int_rpt_enc_cfg enc;
	int sock;
	int sock_err;
	struct sockaddr_storage dst;
	socklen_t dst_len;
	__u8 saddr[16];

	struct int_rpt_seqs seqs;
	struct int_rpt_dgram dg[HM_INT_BATCH];
	unsigned int n_dg;
	bool open;
	__u8 udp[HM_INT_BATCH][INT_RPT_UDP_HDR_LEN];

	long long lost_prev;
	long long lost_total;
	struct hm_output *out;
	int (*flush)(void *ctx);
	void *flush_ctx;
	struct int_signal sig;
	char *line;
	size_t line_cap;
	struct hm_ipfix_exp *exp;
	struct hm_int_report_stats st;
	struct hm_int_report_stats reported;
};

static void hm_int_close_maps(struct hm_int_report *ir)
{
	if (ir->rb) {
		epoll_ctl(ir->epfd, EPOLL_CTL_DEL, ring_buffer__epoll_fd(ir->rb), NULL);
		ring_buffer__free(ir->rb);
		ir->rb = NULL;
	}
	if (ir->events_fd >= 0)
		close(ir->events_fd);
	if (ir->cfg_fd >= 0)
		close(ir->cfg_fd);
	if (ir->stats_fd >= 0)
		close(ir->stats_fd);
	ir->events_fd = ir->cfg_fd = ir->stats_fd = -1;
	ir->events_id = 0;
}

static void hm_int_close_sock(struct hm_int_report *ir)
{
	if (ir->sock >= 0)
		close(ir->sock);
	ir->sock = -1;
}

static __u32 hm_map_id(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

static int hm_int_on_record(void *ctx, void *data, size_t size);
static void hm_int_send(struct hm_int_report *ir);

/*
 * Open the INT maps when they are pinned; follow a replaced int_events
 * (another map ID at the pin). Return true when the ring is being read.
 */
static bool hm_int_open_maps(struct hm_int_report *ir)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = ir->src };
	int fd = hm_map_open(INT_MAP_EVENTS);
	__u32 id;

	if (fd < 0) {
		if (ir->events_fd >= 0)
			hm_log("INT: %s is no longer pinned: no more reports until it is",
			       INT_MAP_EVENTS);
		hm_int_close_maps(ir);
		return false;
	}
	id = hm_map_id(fd);
	if (ir->events_fd >= 0 && id == ir->events_id) {
		close(fd);
		return true;
	}
	if (ir->events_fd >= 0)
		hm_log("INT: %s was replaced: reading the new one", INT_MAP_EVENTS);
	hm_int_close_maps(ir);
	ir->events_fd = fd;
	ir->events_id = id;
	ir->cfg_fd = hm_map_open(INT_MAP_CFG);
	ir->stats_fd = hm_map_open(INT_MAP_STATS);
	ir->rb = ring_buffer__new(fd, hm_int_on_record, ir, NULL);
	if (!ir->rb || epoll_ctl(ir->epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(ir->rb), &ev)) {
		hm_log("INT: ring buffer %s: %s", INT_MAP_EVENTS, strerror(errno));
		hm_int_close_maps(ir);
		return false;
	}
	/* A new map counts its losses from 0. */
	ir->lost_prev = -1;
	hm_log("INT: reading %s (map id %u)%s", INT_MAP_EVENTS, id,
	       ir->cfg_fd < 0 ? "; " INT_MAP_CFG " not pinned, records are not sent" : "");
	return true;
}

/* Learn the IPv4 source address the route to the collector gives. */
static int hm_int_route_src(const struct sockaddr_in *dst, __u8 *src)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)dst, sizeof(*dst)) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len))
		err = -errno;
	else
		memcpy(src, &sin.sin_addr, 4);
	close(fd);
	return err;
}

/* A raw UDP socket for the collector of @ir->cfg, or negative errno. */
static int hm_int_open_sock(struct hm_int_report *ir)
{
	static struct sock_filter none[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog prog = { .len = 1, .filter = none };
	const struct int_domain_cfg *c = &ir->cfg;
	bool have_src = false;
	int fd, one = 1, zero = 0, sndbuf = HM_INT_SNDBUF, i, err;

	for (i = 0; i < 16; i++)
		have_src |= c->rpt_src[i] != 0;
	memset(&ir->dst, 0, sizeof(ir->dst));
	memset(ir->saddr, 0, sizeof(ir->saddr));
	fd = socket(c->rpt_family == 4 ? AF_INET : AF_INET6, SOCK_RAW | SOCK_CLOEXEC,
		    IPPROTO_UDP);
	if (fd < 0)
		return -errno;
	/* Reports only leave: take nothing in (every UDP packet would be copied). */
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)))
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (c->rpt_family == 4) {
		struct sockaddr_in *d = (struct sockaddr_in *)&ir->dst;
		int pmtu = IP_PMTUDISC_DO;

		d->sin_family = AF_INET;
		memcpy(&d->sin_addr, c->rpt_addr, 4);
		/* The port of a raw socket's address is not used: 0. */
		ir->dst_len = sizeof(*d);
		if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) ||
		    setsockopt(fd, IPPROTO_IP, IP_TOS, &zero, sizeof(zero)))
			goto fail;
		if (have_src) {
			struct sockaddr_in s = { .sin_family = AF_INET };

			memcpy(&s.sin_addr, c->rpt_src, 4);
			if (bind(fd, (struct sockaddr *)&s, sizeof(s)))
				goto fail;
			memcpy(ir->saddr, c->rpt_src, 4);
		} else {
			struct sockaddr_in s = { .sin_family = AF_INET };

			/*
			 * Bound to the address the route gives now, so that the
			 * checksum's pseudo-header is the packet's; the tick
			 * follows a change of route (hm_int_check_src()).
			 */
			err = hm_int_route_src(d, ir->saddr);
			if (err) {
				close(fd);
				return err;
			}
			memcpy(&s.sin_addr, ir->saddr, 4);
			if (bind(fd, (struct sockaddr *)&s, sizeof(s)))
				goto fail;
		}
	} else {
		struct sockaddr_in6 *d = (struct sockaddr_in6 *)&ir->dst;
		int off = 6;	/* the UDP checksum field: the kernel fills it */

		d->sin6_family = AF_INET6;
		memcpy(&d->sin6_addr, c->rpt_addr, 16);
		ir->dst_len = sizeof(*d);
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_CHECKSUM, &off, sizeof(off)) ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &zero, sizeof(zero)) ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_DONTFRAG, &one, sizeof(one)))
			goto fail;
		if (have_src) {
			struct sockaddr_in6 s = { .sin6_family = AF_INET6 };

			memcpy(&s.sin6_addr, c->rpt_src, 16);
			if (bind(fd, (struct sockaddr *)&s, sizeof(s)))
				goto fail;
		}
	}
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/*
 * Read int_cfg[0]; on a change, send what was built for the old settings
 * and set up the new ones.
 */
static void hm_int_read_cfg(struct hm_int_report *ir)
{
	struct int_domain_cfg c;
	char addr[INET6_ADDRSTRLEN];
	__u32 zero = 0;
	bool same_dst;

	if (ir->cfg_fd < 0) {
		ir->cfg_fd = hm_map_open(INT_MAP_CFG);
		if (ir->cfg_fd < 0)
			return;
	}
	if (bpf_map_lookup_elem(ir->cfg_fd, &zero, &c))
		return;
	if (ir->have_cfg && !memcmp(&c, &ir->cfg, sizeof(c)))
		return;
	hm_int_send(ir);
	same_dst = ir->have_cfg && c.rpt_family == ir->cfg.rpt_family &&
		   c.rpt_port == ir->cfg.rpt_port &&
		   !memcmp(c.rpt_addr, ir->cfg.rpt_addr, sizeof(c.rpt_addr)) &&
		   !memcmp(c.rpt_src, ir->cfg.rpt_src, sizeof(c.rpt_src));
	ir->cfg = c;
	ir->have_cfg = true;
	int_record_signal(&c, &ir->sig);
	ir->st.cfg_changes++;
	ir->enc.trunc = c.report_trunc;
	ir->enc.coalesce = c.rpt_coalesce ? c.rpt_coalesce : 1;
	ir->enc.hw_id = c.hw_id & INT_RPT_HW_ID_MASK;
	ir->enc.ds_id = c.ds_id;
	ir->enc.max_len = int_rpt_dgram_max(c.rpt_family);
	if (same_dst && (ir->sock >= 0 || ir->sock_err))
		return;
	hm_int_close_sock(ir);
	ir->sock_err = 0;
	if (!(c.flags & INT_DOM_F_CONFIGURED) || (c.rpt_family != 4 && c.rpt_family != 6)) {
		hm_log("INT: no collector configured: records are counted, not sent");
		return;
	}
	inet_ntop(c.rpt_family == 4 ? AF_INET : AF_INET6, c.rpt_addr, addr, sizeof(addr));
	ir->sock = hm_int_open_sock(ir);
	if (ir->sock < 0) {
		ir->sock_err = -ir->sock;
		ir->st.last_send_err = ir->sock_err;
		hm_log("INT: cannot set up reports to %s port %u: %s; their records count as send_failed",
		       addr, c.rpt_port, strerror(ir->sock_err));
		return;
	}
	hm_log("INT: reports to %s port %u, truncation %u octets, up to %u per datagram of at most %u octets",
	       addr, c.rpt_port, int_rpt_enc_trunc(&ir->enc), ir->enc.coalesce,
	       ir->enc.max_len);
}

static __u32 csum_add(__u32 sum, const __u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (__u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (__u32)p[len - 1] << 8;
	return sum;
}

static __u16 csum_fold(__u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/* The UDP header of datagram @i (checksum: IPv4 here, IPv6 by the kernel). */
static void hm_int_udp_header(struct hm_int_report *ir, unsigned int i)
{
	const struct int_rpt_dgram *d = &ir->dg[i];
	__u8 *u = ir->udp[i];
	__u16 sport = ir->cfg.rpt_sport ? ir->cfg.rpt_sport :
		      HM_INT_SPORT_BASE | (d->sport_hash & 0x3fff);
	__u16 len = INT_RPT_UDP_HDR_LEN + d->len;

	u[0] = sport >> 8;
	u[1] = sport;
	u[2] = ir->cfg.rpt_port >> 8;
	u[3] = ir->cfg.rpt_port;
	u[4] = len >> 8;
	u[5] = len;
	u[6] = u[7] = 0;
	if (ir->cfg.rpt_family == 4) {
		__u32 sum = 0;
		__u16 c;

		sum = csum_add(sum, ir->saddr, 4);
		sum = csum_add(sum, ir->cfg.rpt_addr, 4);
		sum += 17 + len;
		sum = csum_add(sum, u, INT_RPT_UDP_HDR_LEN);
		sum = csum_add(sum, d->buf, d->len);
		c = csum_fold(sum);
		/* RFC 768: a computed 0 is sent as all-ones. */
		if (!c)
			c = 0xffff;
		u[6] = c >> 8;
		u[7] = c;
	}
}

static void hm_int_count_failed(struct hm_int_report *ir, unsigned int i, int err)
{
	ir->st.send_failed += ir->dg[i].n;
	ir->st.dgrams_failed++;
	ir->st.last_send_err = err;
}

/* Send the closed datagrams (and the open one) with sendmmsg(2). */
static void hm_int_send(struct hm_int_report *ir)
{
	struct mmsghdr msg[HM_INT_BATCH];
	struct iovec iov[HM_INT_BATCH][2];
	unsigned int i, n, done = 0;
	bool waited = false;

	if (ir->open) {
		/* An open datagram without reports is not sent. */
		if (ir->dg[ir->n_dg].n)
			ir->n_dg++;
		ir->open = false;
	}
	n = ir->n_dg;
	ir->n_dg = 0;
	if (!n)
		return;
	if (ir->sock < 0) {
		for (i = 0; i < n; i++)
			hm_int_count_failed(ir, i, ir->sock_err ? ir->sock_err : ENOTCONN);
		return;
	}
	memset(msg, 0, sizeof(msg[0]) * n);
	for (i = 0; i < n; i++) {
		hm_int_udp_header(ir, i);
		iov[i][0].iov_base = ir->udp[i];
		iov[i][0].iov_len = INT_RPT_UDP_HDR_LEN;
		iov[i][1].iov_base = ir->dg[i].buf;
		iov[i][1].iov_len = ir->dg[i].len;
		msg[i].msg_hdr.msg_name = &ir->dst;
		msg[i].msg_hdr.msg_namelen = ir->dst_len;
		msg[i].msg_hdr.msg_iov = iov[i];
		msg[i].msg_hdr.msg_iovlen = 2;
	}
	while (done < n) {
		int r = sendmmsg(ir->sock, msg + done, n - done, MSG_DONTWAIT);

		if (r > 0) {
			for (i = done; i < done + (unsigned int)r; i++) {
				ir->st.reports_sent += ir->dg[i].n;
				ir->st.coalesced += ir->dg[i].n - 1;
				ir->st.dgrams_sent++;
			}
			done += r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == ENOBUFS) && !waited) {
			struct pollfd p = { .fd = ir->sock, .events = POLLOUT };

			/* The socket buffer is full: wait once, briefly, then give up. */
			waited = true;
			poll(&p, 1, HM_INT_SEND_WAIT_MS);
			continue;
		}
		/* This datagram failed (EMSGSIZE, unreachable, full): go on with the next. */
		hm_int_count_failed(ir, done, r < 0 ? errno : EIO);
		done++;
	}
}

/*
 * The record's JSON line into the output's batch (int_record.h). Return
 * true when the batch is full: the drain writes it out before going on.
 */
static bool hm_int_line(struct hm_int_report *ir, const struct int_record *r)
{
	ssize_t len;
	int n;

	if (!ir->out)
		return false;
	len = int_record_write_json(ir->line, ir->line_cap, r, &ir->sig);
	if (len < 0) {
		ir->st.json_bad++;
		return false;
	}
	if ((size_t)len > ir->line_cap) {
		char *p = realloc(ir->line, len);

		if (!p) {
			hm_output_line_lost(ir->out);
			return false;
		}
		ir->line = p;
		ir->line_cap = len;
		int_record_write_json(ir->line, ir->line_cap, r, &ir->sig);
	}
	n = hm_output_line(ir->out, ir->line, len, false);
	if (n < 0)
		return false;
	ir->st.json_lines++;
	return n >= HM_OUTPUT_BATCH_LINES || hm_output_batch_bytes(ir->out) >= HM_OUTPUT_BATCH_BYTES;
}

static void hm_int_report_record(struct hm_int_report *ir, const struct int_record *r);

/*
 * An INT-XD or INT-MX record (a node's own metadata about one packet: a
 * postcard) as an IPFIX record of HM_TID_INT. Sink records carry a whole
 * stack, which is a Telemetry Report's business, not a postcard.
 */
static void hm_int_ipfix(struct hm_int_report *ir, const struct int_record *r)
{
	struct hm_ipfix_var var = { 0 };
	struct hm_pc_obs o;
	size_t hl;

	if (!hm_ipfix_exp_active(ir->exp) ||
	    (r->kind != INT_REC_XD && r->kind != INT_REC_MX && r->kind != INT_REC_DROP))
		return;
	if (hm_pc_obs_from_int(r, ir->have_cfg ? &ir->sig : NULL, 0, &o)) {
		ir->st.bad_records++;
		ir->st.last_bad_err = EPROTO;
		return;
	}
	var.int_md = r->md;
	var.int_md_len = r->md_len;
	var.int_md_bits = r->rep_md_bits;
	var.drop_reason = r->drop_reason;
	hl = r->pkt_len > INT_REC_PKT_MAX ? INT_REC_PKT_MAX : r->pkt_len;
	var.hdr = r->pkt;
	var.hdr_len = hl > PBT_REC_HDR_MAX ? PBT_REC_HDR_MAX : hl;
	hm_ipfix_exp_add(ir->exp, &o, &var);
}

/*
 * ring_buffer sample callback: one struct int_record, reported and shown.
 * A negative return stops ring_buffer__consume() after this record
 * (consumed): the drain writes the full batch and goes on.
 */
static int hm_int_on_record(void *ctx, void *data, size_t size)
{
	struct hm_int_report *ir = ctx;
	const struct int_record *r = data;
	bool full;

	ir->st.records++;
	if (size < sizeof(*r)) {
		ir->st.bad_records++;
		return 0;
	}
	full = hm_int_line(ir, r);
	hm_int_report_record(ir, r);
	hm_int_ipfix(ir, r);
	return full ? -EAGAIN : 0;
}

/* The record's Individual Report into the datagrams being built. */
static void hm_int_report_record(struct hm_int_report *ir, const struct int_record *r)
{
	struct int_rpt_dgram *d;
	int ret;

	if (!ir->have_cfg || !(ir->cfg.flags & INT_DOM_F_CONFIGURED) ||
	    (ir->cfg.rpt_family != 4 && ir->cfg.rpt_family != 6)) {
		ir->st.no_collector++;
		return;
	}
	for (;;) {
		d = &ir->dg[ir->n_dg];
		if (!ir->open) {
			int_rpt_dgram_start(d, ir->enc.hw_id, 0, r->node_id);
			ir->open = true;
		}
		ret = int_rpt_dgram_add(d, r, &ir->enc);
		if (ret == 1) {
			/*
			 * The sequence number is taken with the first report: a
			 * datagram that stays empty (bad records only) uses none.
			 */
			if (d->n == 1) {
				d->seq = int_rpt_seq_next(&ir->seqs, r->node_id, ir->enc.hw_id,
							  ir->cfg.rpt_family, ir->cfg.rpt_addr,
							  ir->cfg.rpt_port);
				int_rpt_group_encode(d->buf, d->hw_id, d->seq, d->node_id);
			}
			return;
		}
		if (ret < 0) {
			/* A record the encoder refuses; the datagram is as it was. */
			ir->st.bad_records++;
			ir->st.last_bad_err = -ret;
			return;
		}
		/* Full, closed by a 0xff report, or another node: the next datagram. */
		ir->open = false;
		if (++ir->n_dg == HM_INT_BATCH)
			hm_int_send(ir);
	}
}

/* See hopmarkd.h. */
struct hm_int_report *hm_int_report_new(int epfd, struct hm_ev_src *src)
{
	struct hm_int_report *ir = calloc(1, sizeof(*ir));

	if (!ir)
		return NULL;
	ir->epfd = epfd;
	ir->src = src;
	src->kind = HM_EV_INT_RING;
	ir->cfg_fd = ir->stats_fd = ir->events_fd = ir->sock = -1;
	ir->lost_prev = -1;
	ir->lost_total = -1;
	if (hm_int_open_maps(ir)) {
		hm_int_read_cfg(ir);
		hm_int_report_lost_check(ir, false);
	}
	return ir;
}

/* See hopmarkd.h. */
void hm_int_report_set_output(struct hm_int_report *ir, struct hm_output *out,
			      int (*flush)(void *ctx), void *ctx)
{
	ir->out = out;
	ir->flush = flush;
	ir->flush_ctx = ctx;
}

/* See hopmarkd.h. */
void hm_int_report_set_exporter(struct hm_int_report *ir, struct hm_ipfix_exp *exp)
{
	ir->exp = exp;
}

/* See hopmarkd.h. */
bool hm_int_report_active(const struct hm_int_report *ir)
{
	return ir && ir->rb;
}

/* After a batch: send its reports, export its records, write its lines. */
static int hm_int_after_batch(void *ctx)
{
	struct hm_int_report *ir = ctx;

	hm_int_send(ir);
	hm_ipfix_exp_flush(ir->exp);
	return ir->flush ? ir->flush(ir->flush_ctx) : 0;
}

/* See hopmarkd.h. */
int hm_int_report_drain(struct hm_int_report *ir)
{
	if (!ir || !ir->rb)
		return 0;
	hm_int_read_cfg(ir);
	/*
	 * A full batch of lines stops the consumer (-EAGAIN): written out,
	 * then the next, at most HM_INT_DRAIN_BATCHES before the other events
	 * get their turn (the ring's fd is level-triggered).
	 */
	return hm_ring_consume_batches(ir->rb, HM_INT_DRAIN_BATCHES, "INT", INT_MAP_EVENTS,
				       hm_int_after_batch, ir);
}

/* See hopmarkd.h. */
void hm_int_report_lost_check(struct hm_int_report *ir, bool report)
{
	long long cur = hm_percpu_cnt_sum(&ir->stats_fd, INT_MAP_STATS,
					  sizeof(struct int_link_stats),
					  offsetof(struct int_link_stats, cnt[INT_CNT_EVENTS_LOST]));
	__u64 delta;

	ir->lost_total = cur;
	delta = hm_lost_delta(&ir->lost_prev, cur);
	if (!delta)
		return;
	ir->st.ring_lost += delta;
	if (report)
		hm_log("INT: %llu record(s) lost in the last second: ring buffer %s full (datapath counter events_lost); %llu lost while this agent ran, %lld since the INT maps were created",
		       (unsigned long long)delta, INT_MAP_EVENTS,
		       (unsigned long long)ir->st.ring_lost, cur);
}

/*
 * IPv4 without rpt_src: when the route to the collector now gives another
 * source address, set the socket up again with it.
 */
static void hm_int_check_src(struct hm_int_report *ir)
{
	static const __u8 any[16];
	__u8 now[16] = {};
	char a[INET_ADDRSTRLEN];

	if (ir->sock < 0 || ir->cfg.rpt_family != 4 || memcmp(ir->cfg.rpt_src, any, 16))
		return;
	if (hm_int_route_src((const struct sockaddr_in *)&ir->dst, now) ||
	    !memcmp(now, ir->saddr, 4))
		return;
	hm_int_close_sock(ir);
	ir->sock = hm_int_open_sock(ir);
	if (ir->sock < 0) {
		ir->sock_err = -ir->sock;
		hm_log("INT: the route to the collector changed; cannot set up reports again: %s",
		       strerror(ir->sock_err));
		return;
	}
	ir->sock_err = 0;
	inet_ntop(AF_INET, ir->saddr, a, sizeof(a));
	hm_log("INT: the route to the collector changed: reports now from %s", a);
}

/* See hopmarkd.h. */
void hm_int_report_tick(struct hm_int_report *ir)
{
	struct hm_int_report_stats *s = &ir->st, *o = &ir->reported;

	if (hm_int_open_maps(ir))
		hm_int_read_cfg(ir);
	hm_int_check_src(ir);
	hm_int_report_lost_check(ir, true);
	if (s->send_failed != o->send_failed)
		hm_log("INT: %llu report(s) in %llu datagram(s) failed to send in the last second (last: %s), %llu in all",
		       (unsigned long long)(s->send_failed - o->send_failed),
		       (unsigned long long)(s->dgrams_failed - o->dgrams_failed),
		       strerror(s->last_send_err), (unsigned long long)s->send_failed);
	if (s->bad_records != o->bad_records)
		hm_log("INT: %llu record(s) not reportable in the last second (last: %s), %llu in all",
		       (unsigned long long)(s->bad_records - o->bad_records),
		       strerror(s->last_bad_err), (unsigned long long)s->bad_records);
	*o = *s;
}

/* See hopmarkd.h. */
const struct hm_int_report_stats *hm_int_report_stats(const struct hm_int_report *ir)
{
	return &ir->st;
}

/* See hopmarkd.h. */
long long hm_int_report_events_lost_total(const struct hm_int_report *ir)
{
	return ir->lost_total;
}

/* See hopmarkd.h. */
void hm_int_report_free(struct hm_int_report *ir)
{
	if (!ir)
		return;
	hm_int_close_maps(ir);
	hm_int_close_sock(ir);
	free(ir->line);
	free(ir);
}
