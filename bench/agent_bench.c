// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * agent_bench.c - how many decap records per second hopmarkd turns into
 * JSON lines and monitor socket lines, per core, and what it loses at
 * twice that rate (issue 11, Documentation/performance-agent.rst).
 *
 *   agent-bench [-n RECORDS] [-r ROUNDS] [-l MS] [-t small,full] [-F] [-o FILE]
 *
 * Records come from a real kernel ring buffer: bench/agent_bench.bpf.c
 * puts a template struct hopmark_ioam_record on it once per run of
 * BPF_PROG_TEST_RUN (repeat N puts N), with hm_decap's wakeup policy; the
 * ring has hopmark_events' size (hm_events_bytes()). The consumer is the
 * agent's own code (agent/output.c, agent/monitor_sock.c linked in): an
 * epoll loop like hopmarkd's, libbpf's ring_buffer, hm_output_ring_record()
 * per record, batches written out with hm_output_flush() and sent with
 * hm_monitor_send(). The producer runs on one CPU, the consumer on another
 * (the last two online), the monitor client beside the producer.
 *
 * Per trace (small: Trace-Type 0xc00000, 4 hops, 32-octet data; full:
 * 0xfff000, 4 hops, 240 octets), rows:
 *   format json-c   the former path, no ring: json-c's object tree
 *                   printed into an open_memstream batch (the baseline)
 *   format direct   the same records through hm_output_ring_record()
 *   ring decode     ring -> hm_record_from_ring() only: the ceiling of a
 *                   binary path
 *   ring json -o    ring -> JSON lines -> write(2) to /dev/null
 *   ring monitor -q ring -> JSON lines -> one monitor socket client
 *   ring monitor binary  ring -> binary frames (lib/ioam/record_wire.h)
 *                   -> one monitor socket client of the binary stream,
 *                   hopmarkd -q: no JSON is written
 * The throughput rows are flow-controlled (the producer keeps the ring at
 * most half full): nothing is lost and the consumer never waits for
 * records it could handle. records/s per core = records / the consumer
 * thread's CPU time (user + system, CLOCK_THREAD_CPUTIME_ID), so another
 * load on its CPU does not count against it. Then each ring path is fed
 * for -l MS at twice its median rate, and at the goal rate (1 M/s for the
 * decode and binary paths, 300k/s for JSON lines), paced every millisecond; loss =
 * records the full ring refused / records offered.
 *
 * With -F the three threads run SCHED_FIFO: on a machine other loads
 * share, the consumer then runs whenever it has work (the kernel's
 * real-time throttling still leaves 5 % to the others).
 *
 * Median and spread (min-max) over ROUNDS. The table goes to standard
 * output, every figure to -o FILE as JSON with the kernel and CPU model.
 * Needs root (BPF_PROG_TEST_RUN); exits 4 with "SKIP: ..." without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "common/json_write.h"
#include "common/monitor_proto.h"
#include "ioam/record_wire.h"
#include "agent_bench.skel.h"

#define ROUNDS_MAX	64
#define CHUNK		512		/* records per BPF_PROG_TEST_RUN call */
#define REC_BYTES	(sizeof(struct hopmark_ioam_record) + BPF_RINGBUF_HDR_SZ)
#define GOAL_BINARY	1000000.0	/* issue 11: records/s per core */
#define GOAL_JSON	300000.0	/* issue 11: JSON lines/s per core */

/* See hopmarkd.h: the agent's log line, for output.c and monitor_sock.c. */
void hm_log(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agent-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agent-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

enum path { P_JSONC, P_DIRECT, P_DECODE, P_JSON, P_MONITOR, P_MONBIN, P_MAX };

static const char *const path_name[P_MAX] = {
	"format json-c", "format direct", "ring decode", "ring json -o", "ring monitor -q",
	"ring monitor binary",
};

static const char *const path_key[P_MAX] = {
	"format_jsonc", "format_direct", "ring_decode", "ring_json", "ring_monitor",
	"ring_monitor_binary",
};

/* The paths whose goal is issue 11's binary one. */
static int binary_path(enum path p)
{
	return p == P_DECODE || p == P_MONBIN;
}

struct trace_kind {
	const char *name;
	__u32 trace_type;
	unsigned int hops;
};

static const struct trace_kind kinds[] = {
	{ "small", 0xc00000, 4 },
	{ "full", 0xfff000, 4 },
};
#define N_KINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* Results of one trace kind. */
struct result {
	double rate[P_MAX][ROUNDS_MAX];	/* records/s per core */
	double wall[P_MAX][ROUNDS_MAX];	/* records/s, wall clock */
	double loss2x[P_MAX];		/* fraction lost at twice the median */
	double loss2x_rate[P_MAX];	/* records/s the producer achieved */
	double loss_goal[P_MAX];	/* fraction lost at the goal rate */
	double goal_rate[P_MAX];	/* records/s the producer achieved */
	double loss2x_cpu[P_MAX];	/* consumer CPU time / wall time */
	double goal_cpu[P_MAX];
	int dropped_slow[P_MAX];	/* monitor clients dropped as too slow, */
	int dropped_loss[P_MAX];	/* in the throughput runs, in the loss runs */
	size_t line_bytes;
};

static struct {
	struct agent_bench *skel;
	int prog_fd, ring_fd, lost_fd, tmpl_fd;
	long ring_bytes;
	int cpu_prod, cpu_cons;
	char sock_path[108];
} B;

/* ---------------------------------------------------------------- time */

static double now_s(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int fifo_prio;		/* -F: SCHED_FIFO priority of the bench's threads */

/* Run the calling thread on @cpu (and at -F's real-time priority). */
static void pin_cpu(int cpu)
{
	struct sched_param sp = { .sched_priority = fifo_prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (fifo_prio && pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		die("SCHED_FIFO: %s", strerror(errno));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double med, min, max;
};

static struct stats stats_of(const double *v, int n)
{
	double s[ROUNDS_MAX];
	struct stats r;

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	r.min = s[0];
	r.max = s[n - 1];
	r.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

/* ------------------------------------------------------------- records */

/* A sink's record: @k's trace written by hops 1..n, every field set. */
static void make_record(struct hopmark_ioam_record *rec, const struct trace_kind *k)
{
	__u32 nodelen = hm_ioam6_trace_nodelen(k->trace_type);
	__u32 data_len = 4 * nodelen * k->hops;
	__u8 *opt = rec->opt, *data = rec->opt + 12;
	unsigned int i;

	memset(rec, 0, sizeof(*rec));
	rec->rx_ns = 1700000000ULL * 1000000000ULL + 345000;
	rec->ifindex = 7;
	rec->if_id = 51;
	rec->payload_len = 1000;
	rec->hop_limit = 60;
	rec->proto = 17;
	rec->flow_label = 0x12345;
	rec->sport = 40000;
	rec->dport = 5201;
	inet_pton(AF_INET6, "2001:db8:1::1", rec->saddr);
	inet_pton(AF_INET6, "2001:db8:5::1", rec->daddr);
	/* Wire order: the most recent node first. */
	for (i = 0; i < k->hops; i++) {
		struct hm_ioam6_node_values v;

		memset(&v, 0, sizeof(v));
		v.hop_limit = 64 - i;
		v.node_id = i + 1;
		v.ingress_if = 10 * i + 1;
		v.egress_if = 10 * i + 2;
		v.ts_sec = 1700000000;
		v.ts_frac = 100 + 50 * i;
		v.transit_delay = 12000 + i;
		v.ns_data = 0xffffffff;
		v.queue_depth = 1500 * i;
		v.csum_compl = 0xffffffff;
		v.node_id_wide = 0x00ffffffffffffffULL;
		v.ingress_if_wide = 0xffffffff;
		v.egress_if_wide = 0xffffffff;
		v.ns_data_wide = ~0ULL;
		v.buffer_occupancy = 4096 + i;
		hm_ioam6_node_data_encode(data + (k->hops - 1 - i) * 4 * nodelen,
					  k->trace_type, &v);
	}
	/* RFC 9486 §2 option header, RFC 9197 §4.4 trace header. */
	opt[0] = 0x31;
	opt[1] = 10 + data_len;
	opt[4] = 0;
	opt[5] = 123;
	opt[6] = nodelen << 3;
	opt[7] = 0;
	opt[8] = k->trace_type >> 16;
	opt[9] = k->trace_type >> 8;
	opt[10] = k->trace_type;
	rec->opt_len = 12 + data_len;
}

/* ------------------------------------------------------------ producer */

static __u64 lost_count(void)
{
	__u32 zero = 0;
	__u64 v = 0;

	bpf_map_lookup_elem(B.lost_fd, &zero, &v);
	return v;
}

/* @n records onto the ring, in calls of up to CHUNK. */
static void produce(unsigned int n)
{
	static const __u8 frame[64] = { [12] = 0x86, [13] = 0xdd };

	while (n) {
		unsigned int k = n < CHUNK ? n : CHUNK;
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = sizeof(frame),
			    .repeat = k);

		if (bpf_prog_test_run_opts(B.prog_fd, &o))
			die("BPF_PROG_TEST_RUN: %s", strerror(errno));
		n -= k;
	}
}

struct prod_ctx {
	unsigned long total;		/* records to offer */
	double rate;			/* records/s; 0: flow-controlled */
	_Atomic unsigned long *consumed;	/* records handled downstream */
	unsigned long window;		/* at most this many offered, not handled */
	_Atomic int done;
	unsigned long offered;
	double elapsed;			/* seconds the producer took */
};

static void *producer_main(void *arg)
{
	struct prod_ctx *p = arg;
	unsigned long cap = B.ring_bytes / REC_BYTES;
	double t0;

	pin_cpu(B.cpu_prod);
	t0 = now_s(CLOCK_MONOTONIC);
	while (p->offered < p->total) {
		unsigned long want;

		if (p->rate > 0) {
			double t = now_s(CLOCK_MONOTONIC) - t0;

			want = (unsigned long)(p->rate * t) + 1;
			if (want > p->total)
				want = p->total;
			if (want <= p->offered) {
				usleep(1000);
				continue;
			}
			want -= p->offered;
		} else {
			unsigned long inflight = p->offered - atomic_load(p->consumed);
			unsigned long window = p->window ? p->window : cap / 2;

			/* Keep the ring at most half full: nothing is lost. */
			if (inflight + CHUNK / 2 > window) {
				usleep(100);
				continue;
			}
			want = window - inflight;
			if (want > 8 * CHUNK)
				want = 8 * CHUNK;
			if (want > p->total - p->offered)
				want = p->total - p->offered;
		}
		produce(want);
		p->offered += want;
	}
	p->elapsed = now_s(CLOCK_MONOTONIC) - t0;
	atomic_store(&p->done, 1);
	return NULL;
}

/* ------------------------------------------------------ monitor client */

struct client_ctx {
	_Atomic int stop;
	int binary;			/* asks for the binary stream */
	size_t frame_len;		/* the records' frame payload, bytes */
	unsigned long bytes;
	_Atomic unsigned long lines;	/* whole lines (binary: record frames) received */
};

/*
 * The binary stream: the acknowledgement line, then frames. Count the
 * record frames; a frame of another length or type is a bench failure.
 */
static void client_binary(struct client_ctx *c, int fd)
{
	static __u8 buf[1 << 18];
	size_t used = 0, off;
	int acked = 0;

	if (send(fd, HM_MON_REQ_BINARY, strlen(HM_MON_REQ_BINARY), MSG_NOSIGNAL) < 0)
		die("monitor client: request: %s", strerror(errno));
	while (!atomic_load(&c->stop)) {
		ssize_t n = recv(fd, buf + used, sizeof(buf) - used, 0);
		unsigned long frames = 0;

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			break;
		if (n < 0)
			continue;
		c->bytes += n;
		used += n;
		off = 0;
		if (!acked) {
			__u8 *nl = memchr(buf, '\n', used);

			if (!nl)
				continue;
			if ((size_t)(nl + 1 - buf) != strlen(HM_MON_ACK_BINARY) ||
			    memcmp(buf, HM_MON_ACK_BINARY, nl + 1 - buf))
				die("monitor client: expected the acknowledgement, got \"%.*s\"",
				    (int)(nl - buf), buf);
			acked = 1;
			off = nl + 1 - buf;
		}
		while (used - off >= HM_MON_FRAME_HDR_LEN) {
			__u32 len = hm_get_be32(buf + off);
			__u16 type = hm_get_be16(buf + off + 4);

			if (type != HM_MON_FRAME_IOAM_RECORD || len != c->frame_len)
				die("monitor client: frame type %u length %u, expected %u and %zu",
				    type, len, HM_MON_FRAME_IOAM_RECORD, c->frame_len);
			if (used - off < HM_MON_FRAME_HDR_LEN + len)
				break;
			off += HM_MON_FRAME_HDR_LEN + len;
			frames++;
		}
		memmove(buf, buf + off, used - off);
		used -= off;
		atomic_fetch_add(&c->lines, frames);
	}
}

static void *client_main(void *arg)
{
	struct client_ctx *c = arg;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static char buf[1 << 18];
	int fd;

	pin_cpu(B.cpu_prod);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", B.sock_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("monitor client: %s", strerror(errno));
	/* Blocking reads, woken every 50 ms to look at @stop. */
	{
		struct timeval tv = { .tv_usec = 50000 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (c->binary) {
		client_binary(c, fd);
		close(fd);
		return NULL;
	}
	while (!atomic_load(&c->stop)) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n > 0) {
			const char *q = buf, *end = buf + n;
			unsigned long l = 0;

			while ((q = memchr(q, '\n', end - q))) {
				l++;
				q++;
			}
			c->bytes += n;
			atomic_fetch_add(&c->lines, l);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			break;
	}
	close(fd);
	return NULL;
}

/* ------------------------------------------------------------ consumer */

struct cons {
	enum path path;
	struct hm_output *out;
	struct hm_monitor *mon;
	_Atomic unsigned long consumed;
	unsigned long decode_errors;
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct cons *c = ctx;
	struct hm_record rec;
	int ret;

	atomic_store_explicit(&c->consumed, c->consumed + 1, memory_order_relaxed);
	if (c->path == P_DECODE) {
		if (hm_record_from_ring(data, size, 5, &rec))
			c->decode_errors++;
		return 0;
	}
	/* hopmarkd.c's hm_on_record(). */
	ret = hm_output_ring_record(c->out, data, size, 5);
	if (ret < 0) {
		c->decode_errors++;
		return 0;
	}
	return ret ? -EAGAIN : 0;
}

static void batch_flush(struct cons *c)
{
	const void *bin;
	const char *buf;
	size_t len, bin_len;

	if (!c->out)
		return;
	hm_output_flush(c->out, &buf, &len, &bin, &bin_len);
	if (c->mon && (len || bin_len))
		hm_monitor_send(c->mon, buf, len, bin, bin_len);
	/* hopmarkd.c's hm_batch_forms(): a client dropped takes its form along. */
	if (c->mon)
		hm_output_set_forms(c->out, hm_monitor_json_clients(c->mon) > 0,
				    hm_monitor_binary_clients(c->mon) > 0);
}

/* hopmarkd.c's hm_ring_drain(). */
static void drain(struct cons *c, struct ring_buffer *rb)
{
	int i, n;

	for (i = 0; i < 64; i++) {
		n = ring_buffer__consume(rb);
		batch_flush(c);
		if (n != -EAGAIN)
			return;
	}
}

/*
 * One run of the consumer over @total records offered at @rate (0: flow-
 * controlled). Return the consumer's CPU seconds; *@wall the wall clock
 * seconds from the first record offered to the last consumed, *@lost the
 * records the ring refused.
 */
static double run_ring(const struct trace_kind *k, enum path path, unsigned long total,
		       double rate, double *wall, unsigned long *lost, int *dropped,
		       double *offered_rate)
{
	struct cons c = { .path = path };
	struct prod_ctx p = { .total = total, .rate = rate, .consumed = &c.consumed };
	struct client_ctx cl = { 0 };
	struct epoll_event ev = { .events = EPOLLIN }, evs[16];
	struct hm_ev_src ring_src = { .kind = HM_EV_RING };
	pthread_t prod, client;
	struct ring_buffer *rb;
	__u64 lost0;
	double c0, t0, t1;
	int epfd, i, n;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	rb = ring_buffer__new(B.ring_fd, on_record, &c, NULL);
	if (epfd < 0 || !rb)
		die("ring buffer: %s", strerror(errno));
	ev.data.ptr = &ring_src;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(rb), &ev))
		die("epoll: %s", strerror(errno));
	if (path == P_JSON) {
		c.out = hm_output_new("/dev/null", false);
	} else if (path == P_MONITOR || path == P_MONBIN) {
		c.out = hm_output_new(NULL, true);
		unlink(B.sock_path);
		c.mon = hm_monitor_new(B.sock_path, epfd);
		if (!c.mon)
			die("monitor socket %s: %s", B.sock_path, strerror(errno));
		cl.binary = path == P_MONBIN;
		cl.frame_len = HM_RECORD_WIRE_HDR_LEN + k->hops * HM_RECORD_WIRE_NODE_LEN;
		pthread_create(&client, NULL, client_main, &cl);
		/*
		 * Flow control by what the client received, with fewer lines
		 * in flight than the agent queues for a client before it
		 * drops it as too slow (HM_MONITOR_PENDING_MAX).
		 */
		if (!rate) {
			p.consumed = &cl.lines;
			p.window = HM_MONITOR_PENDING_MAX / 2 /
				   (cl.binary ? HM_MON_FRAME_HDR_LEN + cl.frame_len :
				    k->trace_type == 0xfff000 ? 2048 : 700);
		}
		/*
		 * Accept the client (and read its request) before the records
		 * come; then the forms hopmarkd's hm_batch_forms() would set.
		 */
		while (!hm_monitor_stats(c.mon)->connected ||
		       hm_monitor_binary_clients(c.mon) != (unsigned int)cl.binary) {
			n = epoll_wait(epfd, evs, 16, 100);
			for (i = 0; i < n; i++)
				if (evs[i].data.ptr != &ring_src &&
				    hm_monitor_event(c.mon, evs[i].data.ptr, evs[i].events))
					break;	/* a freed client may own a later entry */
		}
		hm_output_set_forms(c.out, hm_monitor_json_clients(c.mon) > 0,
				    hm_monitor_binary_clients(c.mon) > 0);
	}
	if ((path == P_JSON || path == P_MONITOR || path == P_MONBIN) && !c.out)
		die("output: %s", strerror(errno));
	ring_buffer__consume(rb);
	c.consumed = 0;
	lost0 = lost_count();

	pin_cpu(B.cpu_cons);
	c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_s(CLOCK_MONOTONIC);
	pthread_create(&prod, NULL, producer_main, &p);
	for (;;) {
		n = epoll_wait(epfd, evs, 16, 10);
		for (i = 0; i < n; i++) {
			__u64 gone = hm_monitor_clients_gone(c.mon);

			if (evs[i].data.ptr == &ring_src)
				drain(&c, rb);
			else
				hm_monitor_event(c.mon, evs[i].data.ptr, evs[i].events);
			/* as hopmarkd does: a freed client may own a later entry */
			if (hm_monitor_clients_gone(c.mon) != gone)
				break;
		}
		if (!n)
			drain(&c, rb);
		if (atomic_load(&p.done) &&
		    c.consumed + (lost_count() - lost0) >= p.offered) {
			drain(&c, rb);
			break;
		}
	}
	t1 = now_s(CLOCK_MONOTONIC);
	c0 = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	pthread_join(prod, NULL);
	*wall = t1 - t0;
	if (offered_rate)
		*offered_rate = p.offered / p.elapsed;
	*lost = lost_count() - lost0;
	if (c.decode_errors)
		die("%s %s: %lu records did not decode", k->name, path_name[path],
		    c.decode_errors);
	if (c.mon) {
		*dropped = hm_monitor_stats(c.mon)->dropped_slow;
		atomic_store(&cl.stop, 1);
		pthread_join(client, NULL);
		hm_monitor_free(c.mon);
	}
	hm_output_free(c.out);
	ring_buffer__free(rb);
	close(epfd);
	return c0;
}

/* ------------------------------------------------------ format only */

/* The former path: json-c's tree, printed into a memory stream batch. */
static double run_format_jsonc(const struct hopmark_ioam_record *rec, unsigned long total)
{
	char *buf = NULL;
	size_t len = 0;
	struct hm_record r;
	unsigned long i;
	double c0;
	FILE *f = NULL;

	c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < total; i++) {
		struct json_object *o;

		if (!f) {
			f = open_memstream(&buf, &len);
			if (!f)
				die("open_memstream: %s", strerror(errno));
		}
		if (hm_record_from_ring(rec, sizeof(*rec), 5, &r))
			die("template record does not decode");
		o = hm_record_to_json(&r);
		if (!o || fprintf(f, "%s\n", json_object_to_json_string_ext(o,
				  JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0 ||
		    fflush(f))
			die("json-c: no memory");
		json_object_put(o);
		if (i % HM_OUTPUT_BATCH_LINES == HM_OUTPUT_BATCH_LINES - 1 || i + 1 == total) {
			fclose(f);
			free(buf);
			f = NULL;
			buf = NULL;
		}
	}
	return now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
}

static double run_format_direct(const struct hopmark_ioam_record *rec, unsigned long total,
				size_t *line_bytes)
{
	struct hm_output *o = hm_output_new(NULL, true);
	const char *buf;
	const void *bin;
	unsigned long i;
	size_t len, bin_len;
	double c0;

	if (!o)
		die("output: %s", strerror(errno));
	c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < total; i++) {
		int ret = hm_output_ring_record(o, rec, sizeof(*rec), 5);

		if (ret < 0)
			die("template record does not decode");
		if (ret || i + 1 == total) {
			if (line_bytes && !*line_bytes)
				*line_bytes = hm_output_batch_bytes(o) / (i + 1);
			hm_output_flush(o, &buf, &len, &bin, &bin_len);
		}
	}
	c0 = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	hm_output_free(o);
	return c0;
}

/* ---------------------------------------------------------------- setup */

static void setup(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int cpus[2] = { 0, 0 }, k = 0, i;

	B.ring_bytes = hm_events_bytes();
	if (B.ring_bytes < 0)
		die("$%s: a power of two from %u to %u", HM_EVENTS_BYTES_ENV,
		    HM_EVENTS_BYTES_MIN, HM_EVENTS_BYTES_MAX);
	B.skel = agent_bench__open();
	if (!B.skel)
		die("agent_bench.bpf.o: %s", strerror(errno));
	bpf_map__set_max_entries(B.skel->maps.bench_events, B.ring_bytes);
	if (agent_bench__load(B.skel))
		die("agent_bench.bpf.o did not load: %s", strerror(errno));
	B.prog_fd = bpf_program__fd(B.skel->progs.hm_bench_produce);
	B.ring_fd = bpf_map__fd(B.skel->maps.bench_events);
	B.lost_fd = bpf_map__fd(B.skel->maps.bench_lost);
	B.tmpl_fd = bpf_map__fd(B.skel->maps.bench_tmpl);
	/* The last two CPUs this process may use: producer, consumer. */
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (i = 0; i < CPU_SETSIZE && i < n * 2 + 64; i++)
			if (CPU_ISSET(i, &set)) {
				cpus[0] = cpus[1];
				cpus[1] = i;
				k++;
			}
	B.cpu_prod = k > 1 ? cpus[0] : cpus[1];
	B.cpu_cons = cpus[1];
	snprintf(B.sock_path, sizeof(B.sock_path), "/tmp/hm-agent-bench-%d.sock", (int)getpid());
}

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			snprintf(buf, len, "%s", c + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
}

static void read_loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");

	snprintf(buf, len, "unknown");
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static void json_str(FILE *f, const char *s)
{
	char buf[512];
	struct hm_jw w;

	hm_jw_init(&w, buf, sizeof(buf));
	hm_jw_str(&w, s);
	fwrite(buf, 1, hm_jw_len(&w) < sizeof(buf) ? hm_jw_len(&w) : sizeof(buf), f);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: agent-bench [-n RECORDS] [-r ROUNDS] [-l MS] [-t small,full] [-F] [-o FILE]\n"
"  -n RECORDS  records per round and path (default 100000)\n"
"  -r ROUNDS   rounds (default 5, at most %d)\n"
"  -l MS       how long each loss run offers records (default 1000)\n"
"  -t KINDS    traces: small (0xc00000, 4 hops), full (0xfff000, 4 hops)\n"
"  -o FILE     every figure as JSON\n"
"  -F          run the producer, consumer and client SCHED_FIFO (priority 10):\n"
"              on a shared machine, the consumer then gets its CPU when it has work\n"
"Ring size: $%s (default %u bytes). Needs root.\n", ROUNDS_MAX, HM_EVENTS_BYTES_ENV,
		HM_EVENTS_BYTES);
}

int main(int argc, char **argv)
{
	unsigned long total = 100000, loss_ms = 1000;
	static struct result res[N_KINDS];
	const char *json_path = NULL, *want = "small,full";
	char cpu[256], kernel[300], load0[64], load1[64];
	struct utsname u;
	int rounds = 5, c, r;
	size_t ki;
	double t_start = now_s(CLOCK_MONOTONIC);

	while ((c = getopt(argc, argv, "n:r:l:t:o:Fh")) != -1) {
		switch (c) {
		case 'F': fifo_prio = 10; break;
		case 'n': total = strtoul(optarg, NULL, 10); break;
		case 'r': rounds = atoi(optarg); break;
		case 'l': loss_ms = strtoul(optarg, NULL, 10); break;
		case 't': want = optarg; break;
		case 'o': json_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (rounds < 1 || rounds > ROUNDS_MAX || total < 1 || loss_ms < 1) {
		usage(stderr);
		return 2;
	}
	if (geteuid()) {
		printf("SKIP: agent-bench needs root (BPF_PROG_TEST_RUN)\n");
		return 4;
	}
	signal(SIGPIPE, SIG_IGN);
	setup();
	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s %s", u.sysname, u.release);
	read_cpu_model(cpu, sizeof(cpu));
	read_loadavg(load0, sizeof(load0));

	for (ki = 0; ki < N_KINDS; ki++) {
		const struct trace_kind *k = &kinds[ki];
		struct result *rs = &res[ki];
		struct hopmark_ioam_record rec;
		__u32 zero = 0;
		enum path p;

		if (!strstr(want, k->name))
			continue;
		make_record(&rec, k);
		if (bpf_map_update_elem(B.tmpl_fd, &zero, &rec, 0))
			die("bench_tmpl: %s", strerror(errno));
		/* Rounds alternate the paths, so a slow moment hits them all. */
		for (r = 0; r < rounds; r++) {
			pin_cpu(B.cpu_cons);
			rs->rate[P_JSONC][r] = total / run_format_jsonc(&rec, total);
			rs->rate[P_DIRECT][r] = total / run_format_direct(&rec, total,
									&rs->line_bytes);
			rs->wall[P_JSONC][r] = rs->wall[P_DIRECT][r] = 0;
			for (p = P_DECODE; p < P_MAX; p++) {
				unsigned long lost;
				double wall, cpu_s;
				int dropped = 0;

				cpu_s = run_ring(k, p, total, 0, &wall, &lost, &dropped, NULL);
				if (lost)
					die("%s %s: %lu records lost while flow-controlled", k->name,
					    path_name[p], lost);
				rs->rate[p][r] = total / cpu_s;
				rs->wall[p][r] = total / wall;
				rs->dropped_slow[p] += dropped;
			}
		}
		for (p = P_DECODE; p < P_MAX; p++) {
			struct stats s = stats_of(rs->rate[p], rounds);
			double rates[2] = { 2 * s.med, binary_path(p) ? GOAL_BINARY : GOAL_JSON };
			double *loss[2] = { &rs->loss2x[p], &rs->loss_goal[p] };
			double *offered[2] = { &rs->loss2x_rate[p], &rs->goal_rate[p] };
			double *share[2] = { &rs->loss2x_cpu[p], &rs->goal_cpu[p] };
			int j;

			for (j = 0; j < 2; j++) {
				unsigned long n = rates[j] * loss_ms / 1000, lost;
				double wall;
				int dropped = 0;

				if (n < 1)
					n = 1;
				*share[j] = run_ring(k, p, n, rates[j], &wall, &lost, &dropped,
						     offered[j]) / wall;
				*loss[j] = (double)lost / n;
				rs->dropped_loss[p] += dropped;
			}
		}
	}

	printf("agent-bench: records from a %ld-byte ring buffer (%lu records), %d round(s) of %lu records per path;\n"
	       "producer on CPU %d, consumer on CPU %d; per core = records / consumer CPU time; median [min-max];\n"
	       "loss runs: fraction lost, rate offered, consumer CPU time / wall time\n",
	       B.ring_bytes, (unsigned long)(B.ring_bytes / REC_BYTES), rounds, total,
	       B.cpu_prod, B.cpu_cons);
	printf("%-6s %-19s %10s %22s %9s %24s %22s\n", "trace", "path", "ns/record",
	       "records/s per core", "vs json-c", "loss at 2x (rate, cpu)", "loss at goal (rate, cpu)");
	for (ki = 0; ki < N_KINDS; ki++) {
		struct result *rs = &res[ki];
		enum path p;

		if (!strstr(want, kinds[ki].name))
			continue;
		for (p = 0; p < P_MAX; p++) {
			struct stats s = stats_of(rs->rate[p], rounds);
			struct stats base = stats_of(rs->rate[P_JSONC], rounds);
			char range[32], l2[40] = "-", lg[40] = "-";

			snprintf(range, sizeof(range), "%.0fk [%.0f-%.0f]", s.med / 1e3,
				 s.min / 1e3, s.max / 1e3);
			if (p >= P_DECODE) {
				snprintf(l2, sizeof(l2), "%.1f %% %.0fk %.0f%%", 100 * rs->loss2x[p],
					 rs->loss2x_rate[p] / 1e3, 100 * rs->loss2x_cpu[p]);
				snprintf(lg, sizeof(lg), "%.1f %% %.0fk %.0f%%", 100 * rs->loss_goal[p],
					 rs->goal_rate[p] / 1e3, 100 * rs->goal_cpu[p]);
			}
			printf("%-6s %-19s %10.0f %22s %8.1fx %24s %22s\n", kinds[ki].name,
			       path_name[p], 1e9 / s.med, range, s.med / base.med, l2, lg);
		}
	}
	read_loadavg(load1, sizeof(load1));
	printf("(load average before %s, after %s%s)\n", load0, load1,
	       fifo_prio ? "; threads SCHED_FIFO" : "");
	printf("(%.1f s; JSON lines:", now_s(CLOCK_MONOTONIC) - t_start);
	for (ki = 0; ki < N_KINDS; ki++)
		if (strstr(want, kinds[ki].name))
			printf(" %s %zu bytes,", kinds[ki].name, res[ki].line_bytes);
	printf(" binary frames %u bytes (4 hops);", HM_MON_FRAME_HDR_LEN + HM_RECORD_WIRE_HDR_LEN +
	       4 * HM_RECORD_WIRE_NODE_LEN);
	printf(" monitor client dropped as too slow in %d throughput and %d loss runs,"
	       " binary in %d and %d)\n",
	       res[0].dropped_slow[P_MONITOR] + res[1].dropped_slow[P_MONITOR],
	       res[0].dropped_loss[P_MONITOR] + res[1].dropped_loss[P_MONITOR],
	       res[0].dropped_slow[P_MONBIN] + res[1].dropped_slow[P_MONBIN],
	       res[0].dropped_loss[P_MONBIN] + res[1].dropped_loss[P_MONBIN]);

	if (json_path) {
		FILE *f = fopen(json_path, "w");
		int first = 1;

		if (!f)
			die("cannot write %s: %s", json_path, strerror(errno));
		fprintf(f, "{\n  \"bench\": \"agent\",\n  \"unit\": \"records per second per core\",\n  \"kernel\": ");
		json_str(f, kernel);
		fprintf(f, ",\n  \"cpu\": ");
		json_str(f, cpu);
		fprintf(f, ",\n  \"loadavg_before\": ");
		json_str(f, load0);
		fprintf(f, ",\n  \"loadavg_after\": ");
		json_str(f, load1);
		fprintf(f, ",\n  \"cpus_online\": %ld,\n  \"cpu_producer\": %d,\n  \"cpu_consumer\": %d,\n"
			"  \"ring_bytes\": %ld,\n  \"record_bytes\": %zu,\n  \"rounds\": %d,\n"
			"  \"records_per_round\": %lu,\n  \"loss_ms\": %lu,\n  \"sched_fifo\": %s,\n"
			"  \"goal_binary\": %.0f,\n  \"goal_json\": %.0f,\n  \"rows\": [",
			sysconf(_SC_NPROCESSORS_ONLN), B.cpu_prod, B.cpu_cons, B.ring_bytes,
			REC_BYTES, rounds, total, loss_ms, fifo_prio ? "true" : "false",
			GOAL_BINARY, GOAL_JSON);
		for (ki = 0; ki < N_KINDS; ki++) {
			struct result *rs = &res[ki];
			enum path p;

			if (!strstr(want, kinds[ki].name))
				continue;
			for (p = 0; p < P_MAX; p++) {
				struct stats s = stats_of(rs->rate[p], rounds);

				fprintf(f, "%s\n    {\"trace\": \"%s\", \"trace_type\": \"0x%06x\", \"hops\": %u,"
					" \"path\": \"%s\", \"per_core\": {\"median\": %.0f, \"min\": %.0f,"
					" \"max\": %.0f, \"rounds\": [", first ? "" : ",", kinds[ki].name,
					kinds[ki].trace_type, kinds[ki].hops, path_key[p], s.med, s.min, s.max);
				first = 0;
				for (r = 0; r < rounds; r++)
					fprintf(f, "%s%.0f", r ? ", " : "", rs->rate[p][r]);
				fprintf(f, "]}, \"vs_jsonc\": %.3f",
					s.med / stats_of(rs->rate[P_JSONC], rounds).med);
				if (p >= P_DECODE)
					fprintf(f, ", \"wall_median\": %.0f, \"loss_2x\": {\"rate\": %.0f,"
						" \"fraction\": %.6f, \"consumer_cpu_share\": %.3f},"
						" \"loss_goal\": {\"rate\": %.0f, \"fraction\": %.6f,"
						" \"consumer_cpu_share\": %.3f}, \"monitor_dropped_slow\": %d,"
						" \"monitor_dropped_slow_loss_runs\": %d",
						stats_of(rs->wall[p], rounds).med, rs->loss2x_rate[p],
						rs->loss2x[p], rs->loss2x_cpu[p], rs->goal_rate[p],
						rs->loss_goal[p], rs->goal_cpu[p], rs->dropped_slow[p],
						rs->dropped_loss[p]);
				fprintf(f, "}");
			}
		}
		fprintf(f, "\n  ]\n}\n");
		if (fclose(f))
			die("cannot write %s: %s", json_path, strerror(errno));
	}
	agent_bench__destroy(B.skel);
	unlink(B.sock_path);
	return 0;
}
