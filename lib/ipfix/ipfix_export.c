// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_export.c - the IPFIX exporter of postcards (RFC 7011), hopmarkd's
 * (and hopmark-collector's re-export, collector/out_ipfix.c): every postcard
 * the agent handles (PBT-M records from pbt_events.c, the module's DEX and
 * O-flag postcards from genl_events.c, INT-XD/MX records from
 * int_report.c) becomes a Data Record of one of lib/ipfix's templates,
 * several per IPFIX Message, sent to the collector of pbt_cfg[0].exp_*.
 *
 * libfixbuf encodes (lib/ipfix/ipfix_model.c; a buffer exporter in manual
 * mode, so every Message is at most HM_IPFIX_MTU octets and is handed to
 * us whole); the agent owns the socket, so that nothing blocks the ring
 * consumers: UDP datagrams and TCP writes are non-blocking, a TCP connect
 * is non-blocking and retried with backoff, and a TCP stream that does
 * not drain queues whole Messages up to HM_IPFIX_TCP_QUEUE octets. Every
 * record that is not sent is counted once, by reason, and logged at most
 * once a second; the count also leaves in an options record
 * (hopmarkRecordsNotSent, HM_TID_STATS).
 *
 * The export's socket has DSCP 0 (IP_TOS / IPV6_TCLASS 0): the datapath
 * never marks traffic to exp_port, and the agent does not either.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "ipfix/ipfix_export.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"

static void hm_ipfix_log_stderr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void hm_ipfix_log_stderr(const char *fmt, ...)
{
	va_list ap;

	fputs("ipfix: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void (*hm_ipfix_log)(const char *fmt, ...) = hm_ipfix_log_stderr;

/* Octets of one IPFIX Message: an Ethernet MTU less IPv6 and UDP headers, with room. */
#define HM_IPFIX_MTU		1400
/* Whole Messages a slow TCP collector may fall behind by, octets. */
#define HM_IPFIX_TCP_QUEUE	(4 * 1024 * 1024)
#define HM_IPFIX_TCP_QMSGS	(HM_IPFIX_TCP_QUEUE / 64)
/* TCP reconnect backoff, ms: doubles from MIN to MAX. */
#define HM_IPFIX_BACKOFF_MIN_MS	250
#define HM_IPFIX_BACKOFF_MAX_MS	8000
/* Template refresh over UDP when pbt_cfg says 0, s (RFC 7011 §8.4). */
#define HM_IPFIX_REFRESH_DEFAULT 60

/* External templates every session exports (RFC 7011 §8). */
static const __u16 ext_tids[] = {
	HM_TID_PBT_V4, HM_TID_PBT_V6, HM_TID_PBT_V4_EXT, HM_TID_PBT_V6_EXT,
	HM_TID_DEX, HM_TID_OFLAG, HM_TID_INT, HM_TID_STATS,
};

/**
 * struct hm_ipfix_exp - the exporter
 * @pen:		PEN of hopmark's elements (--pen)
 * @model:		information model with hopmark's elements
 * @fb:			export buffer (owns its session and exporter); NULL
 *			while no collector is configured
 * @sess:		its session
 * @xp:			its buffer exporter, writing into @msg
 * @type_tid:		Template ID of the RFC 5610 type records
 * @msg:		the Message libfixbuf emitted last
 * @cur_int:		internal template set on @fb
 * @cur_ext:		export template set on @fb
 * @msg_recs:		Data Records in the Message being built
 * @msg_open:		something was appended since the last emit
 * @have_cfg:		@cfg is the configuration in use
 * @cfg:		pbt_cfg[0]'s exp_* fields as configured
 * @sock:		socket to the collector, -1 while none
 * @connecting:		TCP: connect(2) in progress
 * @connected:		TCP: connected (templates went first)
 * @next_connect_ns:	TCP: CLOCK_MONOTONIC ns of the next attempt
 * @backoff_ms:		TCP: the delay after the next failure
 * @q:			TCP: queued octets of whole Messages
 * @q_head:		TCP: first unsent octet in @q
 * @q_len:		TCP: octets in @q from @q_head
 * @qm:			TCP: per queued Message, its length and records
 * @qm_head:		index of the first queued Message in @qm
 * @qm_n:		Messages queued
 * @tokens:		token bucket, records (rate limit)
 * @tb_last_ns:		CLOCK_MONOTONIC ns of its last refill
 * @last_tpl_ns:	UDP: when templates were last sent
 * @last_opts_not_sent:	@st.not_sent as of the last options record
 * @st:			counters
 * @rep:		@st as of the last log line
 */
struct hm_ipfix_exp {
	__u32			pen;
	fbInfoModel_t		*model;
	fBuf_t			*fb;
	fbSession_t		*sess;
	fbExporter_t		*xp;
	__u16			type_tid;
	__u8			msg[HM_IPFIX_MTU];
	__u16			cur_int;
	__u16			cur_ext;
	__u32			msg_recs;
	bool			msg_open;

	bool			have_cfg;
	struct hm_ipfix_exp_cfg	cfg;
	int			sock;
	bool			connecting;
	bool			connected;
	__u64			next_connect_ns;
	__u32			backoff_ms;
	__u8			*q;
	size_t			q_head;
	size_t			q_len;
	struct {
		__u32	len;
		__u32	recs;
	}			*qm;
	size_t			qm_head;
	size_t			qm_n;

	double			tokens;
	__u64			tb_last_ns;
	__u64			last_tpl_ns;
	__u64			last_opts_not_sent;
	struct hm_ipfix_exp_stats st;
	struct hm_ipfix_exp_stats rep;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void count_not_sent(struct hm_ipfix_exp *x, __u64 *reason, __u64 n)
{
	*reason += n;
	x->st.not_sent += n;
}

static void close_sock(struct hm_ipfix_exp *x)
{
	if (x->sock >= 0)
		close(x->sock);
	x->sock = -1;
	x->connecting = x->connected = false;
	/* Queued Messages die with the stream: their records were not sent. */
	while (x->qm_n) {
		count_not_sent(x, &x->st.down, x->qm[x->qm_head].recs);
		x->st.sent -= x->qm[x->qm_head].recs;
		x->qm_head = (x->qm_head + 1) % HM_IPFIX_TCP_QMSGS;
		x->qm_n--;
	}
	x->q_head = x->q_len = 0;
}

/* The address of the configured collector (or source, @src). */
static socklen_t cfg_sockaddr(const struct hm_ipfix_exp_cfg *c, bool src,
			      struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (c->family == 4) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_port = src ? 0 : htons(c->port);
		memcpy(&s->sin_addr, src ? c->src : c->addr, 4);
		return sizeof(*s);
	}
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	s6->sin6_family = AF_INET6;
	s6->sin6_port = src ? 0 : htons(c->port);
	memcpy(&s6->sin6_addr, src ? c->src : c->addr, 16);
	return sizeof(*s6);
}

static bool is_zero(const __u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * A non-blocking socket to the collector, DSCP 0, bound to exp_src when
 * set, connected (UDP) or connecting (TCP). Return fd or negative errno.
 */
static int open_sock(struct hm_ipfix_exp *x)
{
	const struct hm_ipfix_exp_cfg *c = &x->cfg;
	struct sockaddr_storage ss;
	int fd, zero = 0, one = 1, err;
	socklen_t len;

	fd = socket(c->family == 4 ? AF_INET : AF_INET6,
		    (c->transport == PBT_EXP_TCP ? SOCK_STREAM : SOCK_DGRAM) |
		    SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (c->family == 4) {
		if (setsockopt(fd, IPPROTO_IP, IP_TOS, &zero, sizeof(zero)))
			goto fail;
	} else if (setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &zero, sizeof(zero))) {
		goto fail;
	}
	if (c->transport == PBT_EXP_TCP)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (!is_zero(c->src, c->family == 4 ? 4 : 16)) {
		len = cfg_sockaddr(c, true, &ss);
		if (bind(fd, (struct sockaddr *)&ss, len))
			goto fail;
	}
	len = cfg_sockaddr(c, false, &ss);
	if (connect(fd, (struct sockaddr *)&ss, len) && errno != EINPROGRESS)
		goto fail;
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/* Queue (TCP) or send (UDP) one Message of @recs Data Records. */
static void transmit(struct hm_ipfix_exp *x, const __u8 *m, size_t len, __u32 recs)
{
	ssize_t n;

	if (x->sock < 0 || (x->cfg.transport == PBT_EXP_TCP && !x->connected)) {
		count_not_sent(x, &x->st.down, recs);
		return;
	}
	if (x->cfg.transport == PBT_EXP_UDP) {
		n = send(x->sock, m, len, MSG_DONTWAIT);
		if (n == (ssize_t)len) {
			x->st.messages++;
			x->st.bytes += len;
			x->st.sent += recs;
			return;
		}
		x->st.last_err = n < 0 ? errno : EMSGSIZE;
		x->st.send_errors++;
		count_not_sent(x, &x->st.send_failed, recs);
		return;
	}
	/* TCP: whole Messages into the queue, or none of it. */
	if (x->q_head + x->q_len + len > HM_IPFIX_TCP_QUEUE) {
		memmove(x->q, x->q + x->q_head, x->q_len);
		x->q_head = 0;
	}
	if (x->q_len + len > HM_IPFIX_TCP_QUEUE || x->qm_n == HM_IPFIX_TCP_QMSGS) {
		count_not_sent(x, &x->st.queue_full, recs);
		return;
	}
	memcpy(x->q + x->q_head + x->q_len, m, len);
	x->q_len += len;
	x->qm[(x->qm_head + x->qm_n) % HM_IPFIX_TCP_QMSGS].len = len;
	x->qm[(x->qm_head + x->qm_n) % HM_IPFIX_TCP_QMSGS].recs = recs;
	x->qm_n++;
	/* Counted sent when queued; close_sock() takes back what never left. */
	x->st.sent += recs;
}

/* TCP: write what the socket takes; retire the Messages written whole. */
static void tcp_push(struct hm_ipfix_exp *x)
{
	ssize_t n;

	while (x->connected && x->q_len) {
		n = send(x->sock, x->q + x->q_head, x->q_len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			x->st.last_err = errno;
			x->st.send_errors++;
			hm_ipfix_log("IPFIX: TCP to the collector: %s; reconnecting", strerror(errno));
			x->st.disconnects++;
			close_sock(x);
			x->next_connect_ns = now_ns() + (__u64)x->backoff_ms * 1000000ULL;
			return;
		}
		x->q_head += n;
		x->q_len -= n;
		x->st.bytes += n;
		while (x->qm_n && (size_t)n >= x->qm[x->qm_head].len) {
			n -= x->qm[x->qm_head].len;
			x->st.messages++;
			x->qm_head = (x->qm_head + 1) % HM_IPFIX_TCP_QMSGS;
			x->qm_n--;
		}
		/* A Message partly written: what is left of it stays first. */
		if (x->qm_n && n)
			x->qm[x->qm_head].len -= n;
		if (!x->q_len)
			x->q_head = 0;
	}
}

/* Emit the Message being built (if any) and hand it to the transport. */
static void emit(struct hm_ipfix_exp *x)
{
	GError *err = NULL;
	size_t len;

	if (!x->fb || !x->msg_open)
		return;
	x->msg_open = false;
	if (!fBufEmit(x->fb, &err)) {
		x->st.encode_errors++;
		count_not_sent(x, &x->st.bad, x->msg_recs);
		x->msg_recs = 0;
		g_clear_error(&err);
		return;
	}
	len = fbExporterGetMsgLen(x->xp);
	if (len > 16)
		transmit(x, x->msg, len, x->msg_recs);
	x->msg_recs = 0;
}

/* Run @op; when the Message is full (FB_ERROR_EOM), emit and run it again. */
#define WITH_ROOM(x, op, err)						\
	({								\
		gboolean __ok = (op);					\
		if (!__ok && g_error_matches(*(err), FB_ERROR_DOMAIN, FB_ERROR_EOM)) { \
			g_clear_error(err);				\
			emit(x);					\
			__ok = (op);					\
		}							\
		if (__ok)						\
			(x)->msg_open = true;				\
		__ok;							\
	})

/*
 * Templates (RFC 7011 §8), then the RFC 5610 type records of hopmark's
 * elements (so a collector can name them), in Messages of their own.
 */
static void send_stats(struct hm_ipfix_exp *x);

static void send_templates(struct hm_ipfix_exp *x)
{
	const struct hm_ipfix_ie_def *d;
	GError *err = NULL;
	size_t i, n;

	emit(x);
	/*
	 * Type records first: a collector that reads them (ipfixDump
	 * --rfc5610) then knows the names when the templates arrive. The
	 * IANA elements libfixbuf 2.4.1 lacks (RFC 9487's) are described too.
	 */
	if (x->type_tid &&
	    !WITH_ROOM(x, fbSessionExportTemplate(x->sess, x->type_tid, &err), &err)) {
		hm_ipfix_log("IPFIX: RFC 5610 template: %s", err->message);
		g_clear_error(&err);
	}
	d = hm_ipfix_ie_defs(&n);
	for (i = 0; x->type_tid && i < n; i++) {
		const fbInfoElement_t *ie = fbInfoModelGetElementByName(x->model, d[i].name);

		if (!ie)
			continue;
		if (!WITH_ROOM(x, fbInfoElementWriteOptionsRecord(x->fb, ie, x->type_tid,
								  x->type_tid, &err), &err)) {
			hm_ipfix_log("IPFIX: RFC 5610 record of %s: %s", d[i].name, err->message);
			g_clear_error(&err);
		}
	}
	for (i = 0; i < sizeof(ext_tids) / sizeof(ext_tids[0]); i++)
		if (!WITH_ROOM(x, fbSessionExportTemplate(x->sess, ext_tids[i], &err), &err)) {
			hm_ipfix_log("IPFIX: template %u: %s", ext_tids[i], err->message);
			g_clear_error(&err);
		}
	/* The next Data Record sets its templates again. */
	x->cur_int = x->cur_ext = 0;
	emit(x);
	x->st.template_sends++;
	x->last_tpl_ns = now_ns();
	/* The options record goes with every template send, so a collector always has it. */
	send_stats(x);
}

static void free_session(struct hm_ipfix_exp *x)
{
	if (x->fb)
		fBufFree(x->fb);	/* frees its session and exporter */
	x->fb = NULL;
	x->sess = NULL;
	x->xp = NULL;
	x->msg_open = false;
	x->msg_recs = 0;
}

static int new_session(struct hm_ipfix_exp *x)
{
	static const __u16 int_tids[] = { HM_IPFIX_TID_INTERNAL, HM_IPFIX_TID_STATS_INTERNAL };
	GError *err = NULL;
	fbTemplate_t *t;
	size_t i;

	x->sess = fbSessionAlloc(x->model);
	/* External templates live in a domain: set it before adding them. */
	fbSessionSetDomain(x->sess, x->cfg.domain);
	for (i = 0; i < 2; i++) {
		t = hm_ipfix_tpl_new(x->model, int_tids[i], &err);
		if (!t || !fbSessionAddTemplate(x->sess, TRUE, int_tids[i], t, &err))
			goto fail;
	}
	for (i = 0; i < sizeof(ext_tids) / sizeof(ext_tids[0]); i++) {
		t = hm_ipfix_tpl_new(x->model, ext_tids[i], &err);
		if (!t || !fbSessionAddTemplate(x->sess, FALSE, ext_tids[i], t, &err))
			goto fail;
	}
	/*
	 * RFC 5610 type records: the template is the session's; the records
	 * are written one per element by send_templates(), so that they
	 * split across Messages of HM_IPFIX_MTU.
	 */
	x->type_tid = fbSessionSetMetadataExportElements(x->sess, FALSE,
							 HM_IPFIX_TID_RFC5610, &err);
	if (!x->type_tid) {
		hm_ipfix_log("IPFIX: no RFC 5610 type records: %s", err ? err->message : "?");
		g_clear_error(&err);
	}
	x->xp = fbExporterAllocBuffer(x->msg, sizeof(x->msg));
	x->fb = fBufAllocForExport(x->sess, x->xp);
	fBufSetAutomaticMode(x->fb, FALSE);
	x->cur_int = x->cur_ext = 0;
	return 0;
fail:
	hm_ipfix_log("IPFIX: cannot build the templates: %s", err ? err->message : "?");
	g_clear_error(&err);
	fbSessionFree(x->sess);
	x->sess = NULL;
	return -EINVAL;
}

/* TCP: start or finish a connect; templates go first on a new stream. */
static void tcp_connect_step(struct hm_ipfix_exp *x)
{
	__u64 now = now_ns();
	int e = 0;
	socklen_t el = sizeof(e);
	struct pollfd p;

	if (x->connected)
		return;
	if (x->sock < 0) {
		if (now < x->next_connect_ns)
			return;
		x->sock = open_sock(x);
		if (x->sock < 0) {
			x->st.last_err = -x->sock;
			x->sock = -1;
			goto failed;
		}
		x->connecting = true;
	}
	p.fd = x->sock;
	p.events = POLLOUT;
	if (poll(&p, 1, 0) <= 0)
		return;		/* still connecting */
	if (getsockopt(x->sock, SOL_SOCKET, SO_ERROR, &e, &el) || e) {
		x->st.last_err = e ? e : errno;
		close_sock(x);
		goto failed;
	}
	x->connecting = false;
	x->connected = true;
	x->st.connects++;
	x->backoff_ms = HM_IPFIX_BACKOFF_MIN_MS;
	hm_ipfix_log("IPFIX: connected to the collector over TCP");
	/* A new Transport Session: templates first (RFC 7011 §8.1). */
	send_templates(x);
	tcp_push(x);
	return;
failed:
	if (!x->st.connect_failures++ || x->backoff_ms >= HM_IPFIX_BACKOFF_MAX_MS)
		hm_ipfix_log("IPFIX: cannot connect to the collector: %s; retrying in %u ms",
		       strerror(x->st.last_err), x->backoff_ms);
	x->next_connect_ns = now + (__u64)x->backoff_ms * 1000000ULL;
	if (x->backoff_ms < HM_IPFIX_BACKOFF_MAX_MS)
		x->backoff_ms *= 2;
}

/* See ipfix/ipfix_export.h. */
struct hm_ipfix_exp *hm_ipfix_exp_new(__u32 pen)
{
	struct hm_ipfix_exp *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->pen = pen;
	x->sock = -1;
	x->backoff_ms = HM_IPFIX_BACKOFF_MIN_MS;
	x->model = hm_ipfix_model_new(pen);
	x->q = malloc(HM_IPFIX_TCP_QUEUE);
	x->qm = calloc(HM_IPFIX_TCP_QMSGS, sizeof(*x->qm));
	if (!x->model || !x->q || !x->qm) {
		int e = x->model ? ENOMEM : EINVAL;

		hm_ipfix_exp_free(x);
		errno = e;
		return NULL;
	}
	return x;
}

/* See ipfix/ipfix_export.h. */
void hm_ipfix_exp_set(struct hm_ipfix_exp *x, const struct hm_ipfix_exp_cfg *c)
{
	char a[INET6_ADDRSTRLEN];
	bool on = c && (c->transport == PBT_EXP_UDP || c->transport == PBT_EXP_TCP) &&
		  (c->family == 4 || c->family == 6) && c->port;
	int fd;

	if (!on && !x->have_cfg)
		return;
	if (on && x->have_cfg && !memcmp(c, &x->cfg, sizeof(*c)))
		return;
	/* What was built for the old collector goes to it first. */
	emit(x);
	if (x->cfg.transport == PBT_EXP_TCP)
		tcp_push(x);
	close_sock(x);
	free_session(x);
	x->have_cfg = false;
	if (!on) {
		hm_ipfix_log("IPFIX: no collector configured: postcards are counted, not exported");
		return;
	}
	x->cfg = *c;
	x->have_cfg = true;
	x->tokens = c->rate ? (c->rate / 10 ? c->rate / 10 : 1) : 0;
	x->tb_last_ns = now_ns();
	inet_ntop(c->family == 4 ? AF_INET : AF_INET6, c->addr, a, sizeof(a));
	if (new_session(x))
		return;
	hm_ipfix_log("IPFIX: exporting to %s port %u over %s, observation domain %u, rate limit %u records/s (0: none), PEN %u",
	       a, c->port, c->transport == PBT_EXP_TCP ? "TCP" : "UDP", c->domain,
	       c->rate, x->pen);
	x->next_connect_ns = 0;
	x->backoff_ms = HM_IPFIX_BACKOFF_MIN_MS;
	if (c->transport == PBT_EXP_TCP) {
		tcp_connect_step(x);
		return;
	}
	fd = open_sock(x);
	if (fd < 0) {
		x->st.last_err = -fd;
		hm_ipfix_log("IPFIX: cannot open the UDP socket: %s; records count as not sent",
		       strerror(-fd));
		return;
	}
	x->sock = fd;
	send_templates(x);
}

/* See ipfix/ipfix_export.h. */
bool hm_ipfix_exp_active(const struct hm_ipfix_exp *x)
{
	return x && x->have_cfg && x->fb;
}

/* Token bucket (records/s, depth a tenth of a second): may this record go? */
static bool rate_ok(struct hm_ipfix_exp *x)
{
	double depth;
	__u64 now;

	if (!x->cfg.rate)
		return true;
	now = now_ns();
	depth = x->cfg.rate / 10 ? x->cfg.rate / 10 : 1;
	x->tokens += (double)(now - x->tb_last_ns) * x->cfg.rate / 1e9;
	x->tb_last_ns = now;
	if (x->tokens > depth)
		x->tokens = depth;
	if (x->tokens < 1.0)
		return false;
	x->tokens -= 1.0;
	return true;
}

/* See ipfix/ipfix_export.h. */
void hm_ipfix_exp_add(struct hm_ipfix_exp *x, const struct hm_pc_obs *o,
		      const struct hm_ipfix_var *var)
{
	struct hm_ipfix_fields r;
	GError *err = NULL;
	__u16 tid;

	if (!x)
		return;
	x->st.records++;
	if (!hm_ipfix_exp_active(x)) {
		count_not_sent(x, &x->st.no_collector, 1);
		return;
	}
	tid = hm_ipfix_obs_tid(o);
	if (!tid) {
		count_not_sent(x, &x->st.bad, 1);
		return;
	}
	if (!rate_ok(x)) {
		count_not_sent(x, &x->st.rate_limited, 1);
		return;
	}
	if (x->cfg.transport == PBT_EXP_TCP && !x->connected) {
		count_not_sent(x, &x->st.down, 1);
		return;
	}
	hm_ipfix_fields_from_obs(&r, o, var);
	if (x->cur_int != HM_IPFIX_TID_INTERNAL) {
		if (!fBufSetInternalTemplate(x->fb, HM_IPFIX_TID_INTERNAL, &err))
			goto bad;
		x->cur_int = HM_IPFIX_TID_INTERNAL;
	}
	if (x->cur_ext != tid) {
		if (!fBufSetExportTemplate(x->fb, tid, &err))
			goto bad;
		x->cur_ext = tid;
	}
	if (!WITH_ROOM(x, fBufAppend(x->fb, (uint8_t *)&r, sizeof(r), &err), &err))
		goto bad;
	x->msg_recs++;
	return;
bad:
	x->st.encode_errors++;
	count_not_sent(x, &x->st.bad, 1);
	g_clear_error(&err);
}

/* The options record of what was not sent (HM_TID_STATS). */
static void send_stats(struct hm_ipfix_exp *x)
{
	struct hm_ipfix_stats_rec s = {
		.obs_domain = x->cfg.domain,
		.not_sent = x->st.not_sent,
		.messages = x->st.messages,
		.records = x->st.sent,
	};
	GError *err = NULL;

	if (!hm_ipfix_exp_active(x) ||
	    (x->cfg.transport == PBT_EXP_TCP && !x->connected))
		return;
	if (!fBufSetInternalTemplate(x->fb, HM_IPFIX_TID_STATS_INTERNAL, &err) ||
	    !fBufSetExportTemplate(x->fb, HM_TID_STATS, &err) ||
	    !WITH_ROOM(x, fBufAppend(x->fb, (uint8_t *)&s, sizeof(s), &err), &err)) {
		x->st.encode_errors++;
		g_clear_error(&err);
	} else {
		x->st.options_sent++;
	}
	x->cur_int = x->cur_ext = 0;
	x->last_opts_not_sent = x->st.not_sent;
	emit(x);
}

/* See ipfix/ipfix_export.h. */
void hm_ipfix_exp_flush(struct hm_ipfix_exp *x)
{
	if (!x)
		return;
	emit(x);
	if (x->have_cfg && x->cfg.transport == PBT_EXP_TCP) {
		tcp_connect_step(x);
		tcp_push(x);
	}
}

/* See ipfix/ipfix_export.h. */
void hm_ipfix_exp_tick(struct hm_ipfix_exp *x)
{
	struct hm_ipfix_exp_stats *s = &x->st, *r = &x->rep;
	__u32 refresh;

	hm_ipfix_exp_flush(x);
	if (hm_ipfix_exp_active(x) && x->cfg.transport == PBT_EXP_UDP && x->sock >= 0) {
		refresh = x->cfg.refresh_s ? x->cfg.refresh_s : HM_IPFIX_REFRESH_DEFAULT;
		if (now_ns() - x->last_tpl_ns >= (__u64)refresh * 1000000000ULL)
			send_templates(x);
	}
	/* The collector learns the not-sent count as it changes, once a second. */
	if (x->st.not_sent != x->last_opts_not_sent)
		send_stats(x);
	hm_ipfix_exp_flush(x);
	if (s->not_sent != r->not_sent)
		hm_ipfix_log("IPFIX: %llu record(s) not sent in the last second (rate_limited %llu, no_collector %llu, down %llu, send_failed %llu, queue_full %llu, bad %llu%s%s), %llu in all",
		       (unsigned long long)(s->not_sent - r->not_sent),
		       (unsigned long long)(s->rate_limited - r->rate_limited),
		       (unsigned long long)(s->no_collector - r->no_collector),
		       (unsigned long long)(s->down - r->down),
		       (unsigned long long)(s->send_failed - r->send_failed),
		       (unsigned long long)(s->queue_full - r->queue_full),
		       (unsigned long long)(s->bad - r->bad),
		       s->last_err ? "; last error: " : "",
		       s->last_err ? strerror(s->last_err) : "",
		       (unsigned long long)s->not_sent);
	*r = *s;
}

/* See ipfix/ipfix_export.h. */
const struct hm_ipfix_exp_stats *hm_ipfix_exp_stats(const struct hm_ipfix_exp *x)
{
	return &x->st;
}

/* See ipfix/ipfix_export.h. */
void hm_ipfix_exp_free(struct hm_ipfix_exp *x)
{
	if (!x)
		return;
	hm_ipfix_exp_flush(x);
	close_sock(x);
	free_session(x);
	if (x->model)
		fbInfoModelFree(x->model);
	free(x->q);
	free(x->qm);
	free(x);
}
