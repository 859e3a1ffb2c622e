// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_collector.c - hopmark-collector's main (Documentation/collector.rst):
 *
 *   hopmark-collector [ -u PORT ] [ -t PORT ] [ -r PORT ] [ -o FILE ] [ -w MS ]
 *                     [ -s FILE ] [ --pen N ] [ --max-packets N ] [ --max-flows N ]
 *                     [ --max-exporters N ] [ --allow PREFIX ]... [ --metrics ADDR:PORT ]
 *                     [ --pg CONNINFO ] [ --ipfix-out [udp:|tcp:]HOST:PORT ]
 *                     [ --broker nats://HOST:PORT --role { front | worker N }
 *                       [ --partitions P ] [ --workers W ] ]
 *   hopmark-collector --list-metrics
 *   hopmark-collector show [ --paths | --flows ] [ FILE | - ]
 *   hopmark-collector { help | -h | --help }
 *
 * (the same as hmc_usage(), which explains each option; long forms of the
 * short ones: --udp, --tcp, --reports, --output, --window, --stats)
 *
 * One thread, one epoll loop. The inputs (IPFIX on UDP and TCP, Telemetry
 * Reports on UDP) turn what they receive into struct hm_pc_obs and hand
 * every postcard to one sink, hmc_obs_sink(); the sink feeds the stitcher,
 * whose paths go to every output (collector/output.h). In broker mode the
 * roles split there: a front's sink publishes the postcards instead, and a
 * worker feeds the stitcher with what it consumes (hmc_worker_obs()).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "collector/broker.h"
#include "collector/counters.h"
#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "collector/metrics.h"
#include "collector/out_ipfix.h"
#include "collector/out_json.h"
#include "collector/out_pg.h"
#include "collector/output.h"
#include "collector/report_in.h"
#include "collector/show.h"
#include "collector/stitch.h"
#include "common/hopmark_run.h"
#include "common/prom.h"
#include "ipfix/ipfix_ie.h"

#define HMC_MAX_OUTPUTS		4
#define HMC_UDP_BATCH		32
#define HMC_MSG_MAX		65536
#define HMC_TCP_BUF		(2 * HMC_MSG_MAX)
#define HMC_TICK_MS		50

struct hmc_tcp_conn {
	int			fd;
	size_t			len;
	struct hmc_exporter	*exp;
	__u8			buf[HMC_TCP_BUF];
};

struct hmc_out {
	const struct hmc_output_ops	*ops;
	void				*ctx;
	const char			*arg;
	__u64				last_flush_ns;	/* for ops->flush_ms */
};

struct hmc_main {
	/* settings */
	int			udp_port;
	int			tcp_port;
	int			rpt_port;
	const char		*stats_file;
	const char		*metrics_addr;
	struct hmc_ipfix_cfg	icfg;
	struct hmc_stitch_cfg	scfg;
	const char		*pg;		/* --pg CONNINFO */
	const char		*ipfix_out;	/* --ipfix-out [udp:|tcp:]HOST:PORT */
	struct hmc_broker_cfg	bcfg;		/* --broker, --role: .url NULL = standalone */
	struct hmc_broker	*broker;

	/* inputs, the stitcher, the outputs */
	struct hmc_ipfix	*ipfix;
	struct hmc_report_stats	rpt;
	struct hmc_stitch	*stitch;
	struct hmc_out		out[HMC_MAX_OUTPUTS];
	unsigned int		nr_out;
	struct hmc_output_stats	ost;
	void			*pg_ctx;	/* the --pg output while open */
	struct hmc_pg_stats	pg_final;	/* its counters once closed */
	int			has_pg;
	struct hmc_metrics	*metrics;

	/* where every postcard goes (the stitcher; a broker front's publisher) */
	hmc_obs_fn		sink;
	void			*sink_arg;

	int			ep;
	int			udp_fd;
	int			tcp_fd;
	int			rpt_fd;
	struct hmc_tcp_conn	**conns;
	unsigned int		nr_conns;
	__u64			now_ns;
};

static volatile sig_atomic_t hmc_stop;

static void hmc_on_signal(int sig)
{
	hmc_stop = 1;
}

static __u64 hmc_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* --- stitched paths to the outputs ------------------------------------ */

static void hmc_emit_path(void *arg, const struct hmc_path *p)
{
	struct hmc_main *m = arg;
	unsigned int i;

	m->ost.paths++;
	for (i = 0; i < m->nr_out; i++)
		if (m->out[i].ops->path(m->out[i].ctx, p) < 0) {
			m->ost.failures++;
			hmc_log(HMC_LOG_OUTPUT, "%s output refused a path", m->out[i].ops->name);
		}
	/* a broker worker: its postcards are acknowledged after the next flush */
	if (m->broker)
		hmc_broker_emitted(m->broker, p);
}

/* A broker front's sink: every postcard to its partition. */
static void hmc_front_obs(void *arg, const struct hm_pc_obs *o)
{
	struct hmc_main *m = arg;

	hmc_broker_publish(m->broker, o);	/* a failure is counted */
}

/**
 * hmc_worker_obs() - a postcard for this process's stitcher
 * @arg:	struct hmc_main
 * @o:		the postcard
 *
 * The sink of a standalone collector, and what a broker worker calls for
 * every postcard it consumes.
 */
static void hmc_worker_obs(void *arg, const struct hm_pc_obs *o)
{
	struct hmc_main *m = arg;

	hmc_stitch_add(m->stitch, o, m->now_ns);
}

/* Every input hands its postcards here. */
static void hmc_obs_sink(void *arg, const struct hm_pc_obs *o)
{
	struct hmc_main *m = arg;
	unsigned int i;

	/* the outputs that take postcards as received (the IPFIX re-export) */
	for (i = 0; i < m->nr_out; i++)
		if (m->out[i].ops->obs && m->out[i].ops->obs(m->out[i].ctx, o) < 0)
			m->ost.failures++;
	m->sink(m->sink_arg, o);
}

/* --- sockets ------------------------------------------------------------- */

static int hmc_socket(int type, int port, const char *what)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd, one = 1, zero = 0, bufsz = 8 << 20;

	fd = socket(AF_INET6, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, (struct sockaddr *)&a6, sizeof(a6)))
			goto bound;
		close(fd);
	}
	/* no IPv6 on this host: IPv4 only */
	fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a4, sizeof(a4))) {
		int err = errno;

		fprintf(stderr, "hopmark-collector: %s port %d: %s\n", what, port, strerror(err));
		close(fd);
		return -err;
	}
bound:
	if (type == SOCK_DGRAM)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	if (type == SOCK_STREAM && listen(fd, 64)) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

static int hmc_ep_add(struct hmc_main *m, int fd, void *ptr)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = ptr };

	return epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev);
}

/* Tags for the listening sockets in epoll_event.data.ptr. */
static char hmc_tag_udp, hmc_tag_tcp, hmc_tag_rpt;

static void hmc_udp_read(struct hmc_main *m, int fd, int reports)
{
	static __u8 bufs[HMC_UDP_BATCH][HMC_MSG_MAX];
	struct sockaddr_storage peers[HMC_UDP_BATCH];
	struct mmsghdr msgs[HMC_UDP_BATCH];
	struct iovec iov[HMC_UDP_BATCH];
	int round, n, i;

	/* a bounded number of batches, so that one socket cannot starve the rest */
	for (round = 0; round < 8; round++) {
		memset(msgs, 0, sizeof(msgs));
		for (i = 0; i < HMC_UDP_BATCH; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = HMC_MSG_MAX;
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &peers[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(peers[i]);
		}
		n = recvmmsg(fd, msgs, HMC_UDP_BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return;
		m->now_ns = hmc_now_ns();
		for (i = 0; i < n; i++) {
			struct hmc_exporter *e;

			if (reports) {
				hmc_report_payload(bufs[i], msgs[i].msg_len, hmc_obs_sink, m, &m->rpt);
				continue;
			}
			e = hmc_ipfix_exporter(m->ipfix, &peers[i], 0, hmc_mono_s());
			if (e)
				hmc_ipfix_message(m->ipfix, e, bufs[i], msgs[i].msg_len);
		}
		if (n < HMC_UDP_BATCH)
			return;
	}
}

static void hmc_tcp_close(struct hmc_main *m, struct hmc_tcp_conn *c)
{
	unsigned int i;

	epoll_ctl(m->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	hmc_ipfix_exporter_close(m->ipfix, c->exp);
	for (i = 0; i < m->nr_conns; i++)
		if (m->conns[i] == c) {
			m->conns[i] = m->conns[--m->nr_conns];
			break;
		}
	free(c);
}

static void hmc_tcp_accept(struct hmc_main *m)
{
	for (;;) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		struct hmc_tcp_conn *c, **cs;
		struct hmc_exporter *e;
		int fd;

		fd = accept4(m->tcp_fd, (struct sockaddr *)&peer, &plen, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		e = hmc_ipfix_exporter(m->ipfix, &peer, 1, hmc_mono_s());
		if (!e) {
			close(fd);	/* refused or denied: counted */
			continue;
		}
		c = calloc(1, sizeof(*c));
		cs = realloc(m->conns, (m->nr_conns + 1) * sizeof(*cs));
		if (!c || !cs) {
			free(c);
			if (cs)
				m->conns = cs;
			hmc_ipfix_exporter_close(m->ipfix, e);
			close(fd);
			continue;
		}
		m->conns = cs;
		c->fd = fd;
		c->exp = e;
		m->conns[m->nr_conns++] = c;
		hmc_ep_add(m, fd, c);
	}
}

static void hmc_tcp_read(struct hmc_main *m, struct hmc_tcp_conn *c)
{
	for (;;) {
		ssize_t n = read(c->fd, c->buf + c->len, HMC_TCP_BUF - c->len);
		long used;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			hmc_tcp_close(m, c);
			return;
		}
		m->now_ns = hmc_now_ns();
		c->len += n;
		used = hmc_ipfix_stream(m->ipfix, c->exp, c->buf, c->len);
		if (used < 0) {
			hmc_tcp_close(m, c);
			return;
		}
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
}

/* --- the loop ---------------------------------------------------------- */

static void hmc_counters_of(struct hmc_main *m, struct hmc_counters *c)
{
	c->ipfix = m->ipfix ? hmc_ipfix_stats(m->ipfix) : NULL;
	c->report = m->rpt_fd >= 0 ? &m->rpt : NULL;
	c->stitch = m->stitch ? hmc_stitch_stats(m->stitch) : NULL;
	c->output = &m->ost;
	c->pg = m->pg_ctx ? hmc_pg_stats(m->pg_ctx) : m->has_pg ? &m->pg_final : NULL;
	c->broker = m->broker ? hmc_broker_stats(m->broker) : NULL;
}

/* --metrics: the counters as they are after this iteration of the loop. */
static void hmc_publish_metrics(struct hmc_main *m)
{
	struct hmc_counters c;

	if (!m->metrics)
		return;
	hmc_counters_of(m, &c);
	hmc_metrics_publish(m->metrics, &c);
}

static void hmc_write_stats(struct hmc_main *m)
{
	struct hmc_counters c;
	char tmp[4096];
	FILE *f;

	hmc_counters_of(m, &c);
	if (!m->stats_file)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", m->stats_file);
	f = fopen(tmp, "w");
	if (!f)
		return;
	if (hmc_counters_json(&c, f) || fclose(f))
		return;
	rename(tmp, m->stats_file);	/* a reader sees a whole file */
}

/* Return: 0 when every output flushed. */
static int hmc_flush_outputs(struct hmc_main *m)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < m->nr_out; i++)
		if (m->out[i].ops->flush(m->out[i].ctx) < 0) {
			m->ost.flush_errors++;
			err = -EIO;
		}
	return err;
}

/*
 * The outputs that ask to be flushed more often than once a second
 * (@flush_ms of struct hmc_output_ops), when their time has come.
 */
static void hmc_flush_due(struct hmc_main *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_out; i++) {
		struct hmc_out *o = &m->out[i];

		if (!o->ops->flush_ms ||
		    m->now_ns - o->last_flush_ns < o->ops->flush_ms * 1000000ULL)
			continue;
		if (o->ops->flush(o->ctx) < 0)
			m->ost.flush_errors++;
		o->last_flush_ns = m->now_ns;
	}
}

/* A broker worker: acknowledge only what every output has written. */
static void hmc_flush_commit(struct hmc_main *m)
{
	if (!hmc_flush_outputs(m) && m->broker && m->bcfg.index >= 0)
		hmc_broker_commit(m->broker);
}

static int hmc_run(struct hmc_main *m)
{
	__u64 last_flush = 0, last_commit = 0;
	int worker = m->broker && m->bcfg.index >= 0;

	while (!hmc_stop) {
		struct epoll_event ev[64];
		int n, i;

		n = epoll_wait(m->ep, ev, 64, worker ? 0 : HMC_TICK_MS);
		if (n < 0 && errno != EINTR) {
			perror("hopmark-collector: epoll_wait");
			return 1;
		}
		for (i = 0; i < n; i++) {
			void *p = ev[i].data.ptr;

			if (p == &hmc_tag_udp)
				hmc_udp_read(m, m->udp_fd, 0);
			else if (p == &hmc_tag_rpt)
				hmc_udp_read(m, m->rpt_fd, 1);
			else if (p == &hmc_tag_tcp)
				hmc_tcp_accept(m);
			else
				hmc_tcp_read(m, p);
		}
		m->now_ns = hmc_now_ns();
		if (worker) {
			/* the broker's clock: a replay is not expired early */
			if (hmc_broker_poll(m->broker, m->stitch, HMC_TICK_MS) < 0)
				usleep(HMC_TICK_MS * 1000);
			hmc_stitch_expire(m->stitch, hmc_broker_now(m->broker));
			if (m->now_ns - last_commit >= 200000000ULL) {
				hmc_flush_commit(m);
				last_commit = m->now_ns;
			}
		} else {
			hmc_stitch_expire(m->stitch, m->now_ns);
		}
		if (m->now_ns - last_flush >= 1000000000ULL) {
			hmc_flush_commit(m);
			hmc_write_stats(m);
			last_flush = m->now_ns;
		} else {
			hmc_flush_due(m);
		}
		hmc_publish_metrics(m);
	}
	return 0;
}

/* --- options ------------------------------------------------------------ */

static void hmc_usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark-collector [ -u PORT ] [ -t PORT ] [ -r PORT ] [ -o FILE ] [ -w MS ]\n"
		"                         [ -s FILE ] [ --pen N ] [ --max-packets N ] [ --max-flows N ]\n"
		"                         [ --max-exporters N ] [ --allow PREFIX ]... [ --metrics ADDR:PORT ]\n"
		"                         [ --pg CONNINFO ] [ --ipfix-out [udp:|tcp:]HOST:PORT ]\n"
		"                         [ --broker nats://HOST:PORT --role { front | worker N }\n"
		"                           [ --partitions P ] [ --workers W ] ]\n"
		"       hopmark-collector --list-metrics\n"
		"       hopmark-collector show [ --paths | --flows ] [ FILE | - ]\n"
		"  -u PORT   IPFIX over UDP (default %d; 0: off)\n"
		"  -t PORT   IPFIX over TCP (default %d; 0: off)\n"
		"  -r PORT   Telemetry Reports over UDP (default: off)\n"
		"  -o FILE   JSON lines of the stitched paths (default: standard output)\n"
		"  -w MS     how long a packet's postcards are waited for (default 500)\n"
		"  -s FILE   every counter as JSON, rewritten each second and at exit\n"
		"  --pen N   Private Enterprise Number of hopmark's IPFIX elements (default %d)\n"
		"  --max-packets N    packets stitched at once (default 262144)\n"
		"  --max-flows N      flows whose last path is kept (default 4 x max-packets)\n"
		"  --max-exporters N  IPFIX Transport Sessions at once (default 64)\n"
		"  --allow PREFIX     accept IPFIX only from these sources (up to %d)\n"
		"  --metrics ADDR:PORT  Prometheus metrics at http://ADDR:PORT/metrics\n"
		"                     (IPV4:PORT or [IPV6]:PORT; PORT 0: any free port)\n"
		"  --list-metrics     print every metric family and exit\n"
		"  --pg CONNINFO      also store the paths in PostgreSQL (libpq connection string)\n"
		"  --ipfix-out [udp:|tcp:]HOST:PORT  re-export every postcard received as IPFIX\n"
		"  --broker URL       scale-out on NATS JetStream (Documentation/collector-scaleout.rst)\n"
		"  --role front       publish the postcards received, by flow, to the broker\n"
		"  --role worker N    stitch partitions p %% W == N from the broker (no IPFIX input)\n"
		"  --partitions P     partitions of the stream (default 3), the same everywhere\n"
		"  --workers W        worker indexes (default 3, at most P)\n",
		HM_IPFIX_PORT, HM_IPFIX_PORT, HM_IPFIX_PEN_DEFAULT, HMC_IPFIX_MAX_ALLOW);
}

static int hmc_num(const char *opt, const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *v > max || s[0] == '-') {
		fprintf(stderr, "hopmark-collector: %s: \"%s\" is not a number from 0 to %lu\n",
			opt, s, max);
		return -1;
	}
	return 0;
}

static int hmc_prefix(struct hmc_ipfix_cfg *c, const char *s)
{
	char a[INET6_ADDRSTRLEN + 8], *slash;
	unsigned long plen;
	struct in_addr v4;
	__u8 *d;

	if (c->nr_allow == HMC_IPFIX_MAX_ALLOW) {
		fprintf(stderr, "hopmark-collector: --allow: more than %d prefixes\n",
			HMC_IPFIX_MAX_ALLOW);
		return -1;
	}
	snprintf(a, sizeof(a), "%s", s);
	slash = strchr(a, '/');
	if (slash)
		*slash++ = 0;
	d = c->allow[c->nr_allow];
	memset(d, 0, 16);
	if (inet_pton(AF_INET, a, &v4) == 1) {
		d[10] = d[11] = 0xff;
		memcpy(d + 12, &v4, 4);
		plen = 32;
		if (slash && hmc_num("--allow", slash, 32, &plen))
			return -1;
		plen += 96;
	} else if (inet_pton(AF_INET6, a, d) == 1) {
		plen = 128;
		if (slash && hmc_num("--allow", slash, 128, &plen))
			return -1;
	} else {
		fprintf(stderr, "hopmark-collector: --allow: \"%s\" is not an address or prefix\n", s);
		return -1;
	}
	c->allow_plen[c->nr_allow++] = plen;
	return 0;
}

enum {
	OPT_PEN = 256,
	OPT_MAX_PACKETS,
	OPT_MAX_FLOWS,
	OPT_MAX_EXPORTERS,
	OPT_ALLOW,
	OPT_METRICS,
	OPT_LIST_METRICS,
	OPT_PG,
	OPT_IPFIX_OUT,
	OPT_BROKER,
	OPT_ROLE,
	OPT_PARTITIONS,
	OPT_WORKERS,
};

static const struct option hmc_opts[] = {
	{ "udp", required_argument, NULL, 'u' },
	{ "tcp", required_argument, NULL, 't' },
	{ "reports", required_argument, NULL, 'r' },
	{ "output", required_argument, NULL, 'o' },
	{ "window", required_argument, NULL, 'w' },
	{ "stats", required_argument, NULL, 's' },
	{ "pen", required_argument, NULL, OPT_PEN },
	{ "max-packets", required_argument, NULL, OPT_MAX_PACKETS },
	{ "max-flows", required_argument, NULL, OPT_MAX_FLOWS },
	{ "max-exporters", required_argument, NULL, OPT_MAX_EXPORTERS },
	{ "allow", required_argument, NULL, OPT_ALLOW },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "list-metrics", no_argument, NULL, OPT_LIST_METRICS },
	{ "pg", required_argument, NULL, OPT_PG },
	{ "ipfix-out", required_argument, NULL, OPT_IPFIX_OUT },
	{ "broker", required_argument, NULL, OPT_BROKER },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "partitions", required_argument, NULL, OPT_PARTITIONS },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int hmc_parse(struct hmc_main *m, int argc, char **argv, const char **json)
{
	unsigned long v;
	int c;

	while ((c = getopt_long(argc, argv, "u:t:r:o:w:s:h", hmc_opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 't':
		case 'r':
			if (hmc_num(c == 'u' ? "-u" : c == 't' ? "-t" : "-r", optarg, 65535, &v))
				return -1;
			if (c == 'u')
				m->udp_port = v;
			else if (c == 't')
				m->tcp_port = v;
			else
				m->rpt_port = v;
			break;
		case 'o':
			*json = optarg;
			break;
		case 'w':
			if (hmc_num("-w", optarg, 3600000, &v))
				return -1;
			m->scfg.window_ns = v * 1000000ULL;
			break;
		case 's':
			m->stats_file = optarg;
			break;
		case OPT_PEN:
			if (hmc_num("--pen", optarg, 0xffffffffUL, &v))
				return -1;
			m->icfg.pen = v;
			break;
		case OPT_MAX_PACKETS:
			if (hmc_num("--max-packets", optarg, 1UL << 24, &v) || !v)
				return v ? -1 : (fprintf(stderr, "hopmark-collector: --max-packets: 0\n"), -1);
			m->scfg.max_packets = v;
			break;
		case OPT_MAX_FLOWS:
			if (hmc_num("--max-flows", optarg, 1UL << 26, &v))
				return -1;
			m->scfg.max_flows = v;
			break;
		case OPT_MAX_EXPORTERS:
			if (hmc_num("--max-exporters", optarg, 65536, &v) || !v)
				return v ? -1 : (fprintf(stderr, "hopmark-collector: --max-exporters: 0\n"), -1);
			m->icfg.max_exporters = v;
			break;
		case OPT_ALLOW:
			if (hmc_prefix(&m->icfg, optarg))
				return -1;
			break;
		case OPT_METRICS: {
			struct sockaddr_storage ss;
			unsigned int sslen;

			if (hm_prom_parse_addr(optarg, &ss, &sslen)) {
				fprintf(stderr, "hopmark-collector: --metrics \"%s\": expected IPV4:PORT or [IPV6]:PORT, PORT 0..65535\n",
					optarg);
				return -1;
			}
			m->metrics_addr = optarg;
			break;
		}
		case OPT_LIST_METRICS:
			hmc_metrics_list(stdout);
			exit(0);
		case OPT_PG:
			m->pg = optarg;
			break;
		case OPT_IPFIX_OUT:
			m->ipfix_out = optarg;
			break;
		case OPT_BROKER:
			m->bcfg.url = optarg;
			break;
		case OPT_ROLE:
			if (!strcmp(optarg, "front")) {
				m->bcfg.index = -1;
			} else if (!strcmp(optarg, "worker") && optind < argc) {
				if (hmc_num("--role worker", argv[optind++], HMC_BROKER_MAX_PART - 1, &v))
					return -1;
				m->bcfg.index = (int)v;
			} else {
				fprintf(stderr, "hopmark-collector: --role: \"%s\": front or worker N\n",
					optarg);
				return -1;
			}
			break;
		case OPT_PARTITIONS:
		case OPT_WORKERS:
			if (hmc_num(c == OPT_PARTITIONS ? "--partitions" : "--workers", optarg,
				    HMC_BROKER_MAX_PART, &v) || !v)
				return v ? -1 : (fprintf(stderr, "hopmark-collector: %s: 0\n",
						 c == OPT_PARTITIONS ? "--partitions" : "--workers"), -1);
			if (c == OPT_PARTITIONS)
				m->bcfg.partitions = v;
			else
				m->bcfg.workers = v;
			break;
		case 'h':
			hmc_usage(stdout);
			exit(0);
		default:
			hmc_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hopmark-collector: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return 0;
}

static int hmc_open_output(struct hmc_main *m, const struct hmc_output_ops *ops, const char *arg)
{
	struct hmc_out *o = &m->out[m->nr_out];
	int rc;

	if (m->nr_out == HMC_MAX_OUTPUTS)
		return -ENOSPC;
	rc = ops->open(&o->ctx, arg);
	if (rc) {
		fprintf(stderr, "hopmark-collector: %s output \"%s\": %s\n", ops->name,
			arg ? arg : "-", strerror(-rc));
		return rc;
	}
	o->ops = ops;
	o->arg = arg;
	m->nr_out++;
	return 0;
}

static void hmc_cleanup(struct hmc_main *m)
{
	unsigned int i;

	if (m->broker && m->bcfg.index >= 0) {
		/*
		 * A worker leaves what is still waiting unacknowledged: the
		 * next worker of its index replays it whole.
		 */
		hmc_flush_commit(m);
	} else if (m->stitch) {
		hmc_stitch_flush(m->stitch);	/* what is still waiting: emitted */
	}
	if (m->broker && m->bcfg.index < 0 && hmc_broker_sync(m->broker, 5000))
		fprintf(stderr, "hopmark-collector: broker: publishes not all confirmed at exit\n");
	for (i = 0; i < m->nr_out; i++)
		m->out[i].ops->close(m->out[i].ctx);
	m->nr_out = 0;
	m->pg_ctx = NULL;	/* its last counters are in pg_final */
	if (m->ipfix)
		hmc_ipfix_end_sessions(m->ipfix);	/* open gaps: lost now */
	hmc_write_stats(m);
	hmc_metrics_free(m->metrics);
	m->metrics = NULL;
	while (m->nr_conns)
		hmc_tcp_close(m, m->conns[0]);
	free(m->conns);
	hmc_broker_close(m->broker);
	hmc_stitch_free(m->stitch);
	hmc_ipfix_free(m->ipfix);
	if (m->udp_fd >= 0)
		close(m->udp_fd);
	if (m->tcp_fd >= 0)
		close(m->tcp_fd);
	if (m->rpt_fd >= 0)
		close(m->rpt_fd);
	if (m->ep >= 0)
		close(m->ep);
}

int main(int argc, char **argv)
{
	struct hmc_main m = {
		.udp_port = HM_IPFIX_PORT, .tcp_port = HM_IPFIX_PORT, .rpt_port = 0,
		.scfg = { .window_ns = 500000000ULL, .max_packets = 262144 },
		.bcfg = { .partitions = 3, .workers = 3, .index = -2 },
		.udp_fd = -1, .tcp_fd = -1, .rpt_fd = -1, .ep = -1,
	};
	struct sigaction sa = { .sa_handler = hmc_on_signal };
	const char *json = "-";
	int rc = 1;

	if (argc > 1 && !strcmp(argv[1], "show"))
		return hmc_show_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "help")) {
		hmc_usage(stdout);
		return 0;
	}
	if (hmc_parse(&m, argc, argv, &json))
		return 2;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	m.stitch = hmc_stitch_new(&m.scfg, hmc_emit_path, &m);
	if (!m.stitch) {
		fprintf(stderr, "hopmark-collector: stitcher: %s\n", strerror(errno));
		goto out;
	}
	m.sink = hmc_worker_obs;
	m.sink_arg = &m;
	if (m.bcfg.url || m.bcfg.index != -2) {
		int err;

		if (!m.bcfg.url || m.bcfg.index == -2) {
			fprintf(stderr, "hopmark-collector: --broker and --role go together\n");
			rc = 2;
			goto out;
		}
		m.bcfg.window_ns = m.scfg.window_ns;
		m.broker = hmc_broker_open(&m.bcfg, &err);
		if (!m.broker)
			goto out;
		if (m.bcfg.index < 0) {
			m.sink = hmc_front_obs;
		} else {
			/* a worker's postcards come from the broker */
			m.udp_port = m.tcp_port = m.rpt_port = 0;
		}
	}
	m.ipfix = hmc_ipfix_new(&m.icfg, hmc_obs_sink, &m);
	if (!m.ipfix) {
		fprintf(stderr, "hopmark-collector: IPFIX input: %s\n", strerror(errno));
		goto out;
	}
	if (hmc_open_output(&m, &hmc_out_json, json))
		goto out;
	if (m.pg) {
		if (hmc_open_output(&m, &hmc_out_pg, m.pg))
			goto out;
		m.pg_ctx = m.out[m.nr_out - 1].ctx;
		m.has_pg = 1;
		hmc_pg_stats_at_close(m.pg_ctx, &m.pg_final);
	}
	if (m.ipfix_out && hmc_open_output(&m, &hmc_out_ipfix, m.ipfix_out))
		goto out;

	m.ep = epoll_create1(EPOLL_CLOEXEC);
	if (m.ep < 0)
		goto out;
	if (m.udp_port) {
		m.udp_fd = hmc_socket(SOCK_DGRAM, m.udp_port, "-u");
		if (m.udp_fd < 0 || hmc_ep_add(&m, m.udp_fd, &hmc_tag_udp))
			goto out;
	}
	if (m.tcp_port) {
		m.tcp_fd = hmc_socket(SOCK_STREAM, m.tcp_port, "-t");
		if (m.tcp_fd < 0 || hmc_ep_add(&m, m.tcp_fd, &hmc_tag_tcp))
			goto out;
	}
	if (m.rpt_port) {
		m.rpt_fd = hmc_socket(SOCK_DGRAM, m.rpt_port, "-r");
		if (m.rpt_fd < 0 || hmc_ep_add(&m, m.rpt_fd, &hmc_tag_rpt))
			goto out;
	}
	hmc_log(HMC_LOG_INFO, "IPFIX udp %d tcp %d, reports udp %d, window %llu ms, output %s",
		m.udp_port, m.tcp_port, m.rpt_port,
		(unsigned long long)(m.scfg.window_ns / 1000000), json);
	if (m.metrics_addr) {
		m.metrics = hmc_metrics_new(m.metrics_addr);
		if (!m.metrics)
			goto out;
		hmc_publish_metrics(&m);
		hmc_log(HMC_LOG_INFO, "metrics: http://%.*s:%u%s",
			(int)(strrchr(m.metrics_addr, ':') - m.metrics_addr), m.metrics_addr,
			hmc_metrics_port(m.metrics), HM_PROM_PATH);
	}
	hmc_write_stats(&m);
	rc = hmc_run(&m);
out:
	hmc_cleanup(&m);
	return rc;
}
