// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom.c - the Prometheus text exposition format (version 0.0.4) and the
 * libmicrohttpd server of GET /metrics. See prom.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "common/prom.h"

/**
 * struct hm_prom_family - one metric family of an exposition
 * @name:	metric name (owned)
 * @help:	help text as given (owned)
 * @type:	its type
 * @buf:	its sample lines so far, in the order added
 * @len:	bytes at @buf
 * @cap:	bytes allocated at @buf
 */
struct hm_prom_family {
	char			*name;
	char			*help;
	enum hm_prom_type	type;
	char			*buf;
	size_t			len;
	size_t			cap;
};

/**
 * struct hm_prom_writer - one exposition being built
 * @fam:	families, in the order of their first sample
 * @n:		families at @fam
 * @cap:	room at @fam
 * @last:	index of the family of the previous sample (the next one is
 *		most often of the same family, or the next)
 * @refused:	samples refused (-EINVAL)
 * @why:	the first refusal, for the server's log line
 */
struct hm_prom_writer {
	struct hm_prom_family	*fam;
	unsigned int		n;
	unsigned int		cap;
	unsigned int		last;
	unsigned int		refused;
	char			why[160];
};

struct hm_prom_writer *hm_prom_writer_new(void)
{
	return calloc(1, sizeof(struct hm_prom_writer));
}

bool hm_prom_name_ok(const char *name, bool label)
{
	const char *p;

	if (!name || !*name)
		return false;
	if (label && name[0] == '_' && name[1] == '_')
		return false;
	for (p = name; *p; p++) {
		char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
			continue;
		if (!label && c == ':')
			continue;
		if (c >= '0' && c <= '9' && p != name)
			continue;
		return false;
	}
	return true;
}

/* Append @n bytes to the family's lines. */
static int fam_put(struct hm_prom_family *f, const char *s, size_t n)
{
	if (f->len + n + 1 > f->cap) {
		size_t cap = f->cap ? f->cap : 256;
		char *b;

		while (cap < f->len + n + 1)
			cap *= 2;
		b = realloc(f->buf, cap);
		if (!b)
			return -ENOMEM;
		f->buf = b;
		f->cap = cap;
	}
	memcpy(f->buf + f->len, s, n);
	f->len += n;
	return 0;
}

/*
 * A label value with '\\', '"' and newline escaped (the text format's
 * three escapes; every other byte, UTF-8 included, stands as it is).
 */
static int fam_put_escaped(struct hm_prom_family *f, const char *s, bool quote)
{
	const char *start = s;
	int err = 0;

	for (; *s && !err; s++) {
		const char *esc = NULL;

		if (*s == '\\')
			esc = "\\\\";
		else if (*s == '\n')
			esc = "\\n";
		else if (*s == '"' && quote)
			esc = "\\\"";
		if (!esc)
			continue;
		err = fam_put(f, start, s - start) ? : fam_put(f, esc, 2);
		start = s + 1;
	}
	return err ? : fam_put(f, start, s - start);
}

static int refuse(struct hm_prom_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(struct hm_prom_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->refused++) {
		va_start(ap, fmt);
		vsnprintf(w->why, sizeof(w->why), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static struct hm_prom_family *fam_find(struct hm_prom_writer *w, const char *name)
{
	unsigned int i, k;

	for (k = 0; k < w->n; k++) {
		i = (w->last + k) % w->n;
		if (!strcmp(w->fam[i].name, name)) {
			w->last = i;
			return &w->fam[i];
		}
	}
	return NULL;
}

static struct hm_prom_family *fam_new(struct hm_prom_writer *w, enum hm_prom_type type,
				      const char *name, const char *help)
{
	struct hm_prom_family *f;

	if (w->n == w->cap) {
		unsigned int cap = w->cap ? 2 * w->cap : 64;

		f = realloc(w->fam, cap * sizeof(*f));
		if (!f)
			return NULL;
		w->fam = f;
		w->cap = cap;
	}
	f = &w->fam[w->n];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->name = strdup(name);
	f->help = strdup(help);
	if (!f->name || !f->help) {
		free(f->name);
		free(f->help);
		return NULL;
	}
	w->last = w->n++;
	return f;
}

int hm_prom_add(struct hm_prom_writer *w, enum hm_prom_type type, const char *name,
		const char *help, const struct hm_prom_label *labels,
		unsigned int n_labels, const char *value)
{
	struct hm_prom_family *f;
	size_t mark, n;
	unsigned int i, j;
	int err;

	if (!hm_prom_name_ok(name, false))
		return refuse(w, "bad metric name \"%s\"", name ? name : "(null)");
	if (type != HM_PROM_COUNTER && type != HM_PROM_GAUGE)
		return refuse(w, "%s: unknown type %d", name, type);
	n = strlen(name);
	if (type == HM_PROM_COUNTER && (n < 6 || strcmp(name + n - 6, "_total")))
		return refuse(w, "counter %s: the name must end in _total", name);
	if (!help)
		help = "";
	if (n_labels > HM_PROM_MAX_LABELS)
		return refuse(w, "%s: %u labels, at most %d", name, n_labels,
			      HM_PROM_MAX_LABELS);
	for (i = 0; i < n_labels; i++) {
		if (!hm_prom_name_ok(labels[i].name, true) || !labels[i].value)
			return refuse(w, "%s: bad label \"%s\"", name,
				      labels[i].name ? labels[i].name : "(null)");
		for (j = 0; j < i; j++)
			if (!strcmp(labels[i].name, labels[j].name))
				return refuse(w, "%s: label %s twice", name, labels[i].name);
	}

	f = fam_find(w, name);
	if (f && (f->type != type || strcmp(f->help, help)))
		return refuse(w, "%s: added again with another type or help", name);
	if (!f) {
		f = fam_new(w, type, name, help);
		if (!f)
			return -ENOMEM;
	}

	/* A sample that does not fit whole is taken back: no torn line. */
	mark = f->len;
	err = fam_put(f, name, n);
	for (i = 0; i < n_labels && !err; i++) {
		err = fam_put(f, i ? "," : "{", 1) ? :
		      fam_put(f, labels[i].name, strlen(labels[i].name)) ? :
		      fam_put(f, "=\"", 2) ? :
		      fam_put_escaped(f, labels[i].value, true) ? :
		      fam_put(f, "\"", 1);
	}
	if (!err && n_labels)
		err = fam_put(f, "}", 1);
	if (!err)
		err = fam_put(f, " ", 1) ? : fam_put(f, value, strlen(value)) ? :
		      fam_put(f, "\n", 1);
	if (err)
		f->len = mark;
	return err;
}

int hm_prom_counter(struct hm_prom_writer *w, const char *name, const char *help,
		    const struct hm_prom_label *labels, unsigned int n_labels, __u64 value)
{
	char v[24];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)value);
	return hm_prom_add(w, HM_PROM_COUNTER, name, help, labels, n_labels, v);
}

int hm_prom_gauge(struct hm_prom_writer *w, const char *name, const char *help,
		  const struct hm_prom_label *labels, unsigned int n_labels, double value)
{
	char v[32];

	if (isnan(value))
		snprintf(v, sizeof(v), "NaN");
	else if (isinf(value))
		snprintf(v, sizeof(v), "%sInf", value > 0 ? "+" : "-");
	else if (value == floor(value) && fabs(value) < 9007199254740992.0)
		snprintf(v, sizeof(v), "%.0f", value);
	else
		snprintf(v, sizeof(v), "%.17g", value);
	return hm_prom_add(w, HM_PROM_GAUGE, name, help, labels, n_labels, v);
}

unsigned int hm_prom_writer_refused(const struct hm_prom_writer *w)
{
	return w->refused;
}

void hm_prom_writer_free(struct hm_prom_writer *w)
{
	unsigned int i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++) {
		free(w->fam[i].name);
		free(w->fam[i].help);
		free(w->fam[i].buf);
	}
	free(w->fam);
	free(w);
}

char *hm_prom_writer_finish(struct hm_prom_writer *w, size_t *len)
{
	static const char *const type_name[] = {
		[HM_PROM_COUNTER] = "counter", [HM_PROM_GAUGE] = "gauge",
	};
	struct hm_prom_family out = {};
	unsigned int i;
	int err = 0;

	for (i = 0; i < w->n && !err; i++) {
		struct hm_prom_family *f = &w->fam[i];

		err = fam_put(&out, "# HELP ", 7) ? :
		      fam_put(&out, f->name, strlen(f->name)) ? :
		      fam_put(&out, " ", 1) ? :
		      fam_put_escaped(&out, f->help, false) ? :
		      fam_put(&out, "\n# TYPE ", 8) ? :
		      fam_put(&out, f->name, strlen(f->name)) ? :
		      fam_put(&out, " ", 1) ? :
		      fam_put(&out, type_name[f->type], strlen(type_name[f->type])) ? :
		      fam_put(&out, "\n", 1) ? :
		      fam_put(&out, f->buf, f->len);
	}
	/* An empty exposition is valid: an empty body. */
	if (!err && !out.buf)
		err = fam_put(&out, "", 0);
	hm_prom_writer_free(w);
	if (err) {
		free(out.buf);
		return NULL;
	}
	out.buf[out.len] = '\0';
	*len = out.len;
	return out.buf;
}

/* ---- the server ---- */

/**
 * struct hm_prom_collector - one registered collector
 * @fn:		its function
 * @arg:	its argument
 */
struct hm_prom_collector {
	hm_prom_collect_fn	fn;
	void			*arg;
};

/**
 * struct hm_prom_snap - counters published by their owner's thread
 * @next:	next snapshot of the server
 * @lock:	held for the copy in and the copy out
 * @size:	bytes of the counters
 * @pub:	the latest published counters
 * @copy:	the scrape's copy of @pub (used in the server's thread only)
 * @published:	@pub holds something
 * @fn:		writes the samples of @copy
 * @arg:	its argument
 */
struct hm_prom_snap {
	struct hm_prom_snap	*next;
	pthread_mutex_t		lock;
	size_t			size;
	void			*pub;
	void			*copy;
	bool			published;
	hm_prom_snap_fn		fn;
	void			*arg;
};

/**
 * struct hm_prom_server - the HTTP server and its collectors
 * @d:		libmicrohttpd's daemon
 * @prog:	program name for log lines
 * @port:	port listened on
 * @lock:	protects the fields below (a scrape holds it)
 * @col:	collectors, in the order registered
 * @n_col:	collectors at @col
 * @snaps:	snapshots (also in @col), freed with the server
 * @scrapes:	GET/HEAD /metrics answered, this one included
 * @refused:	samples the writers refused, all scrapes
 * @logged:	a refusal was logged (only the first is)
 */
struct hm_prom_server {
	struct MHD_Daemon	*d;
	const char		*prog;
	unsigned int		port;
	pthread_mutex_t		lock;
	struct hm_prom_collector *col;
	unsigned int		n_col;
	struct hm_prom_snap	*snaps;
	__u64			scrapes;
	__u64			refused;
	bool			logged;
};

int hm_prom_parse_addr(const char *s, struct sockaddr_storage *ss, unsigned int *sslen)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon, *h = s;
	unsigned long port;
	size_t hl;
	char *end;

	if (!s)
		return -EINVAL;
	colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return -EINVAL;
	hl = colon - s;
	if (s[0] == '[') {
		if (s[hl - 1] != ']' || hl < 3)
			return -EINVAL;
		h = s + 1;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, h, hl);
	host[hl] = '\0';
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || colon[1] == '-' || colon[1] == '+' || port > 65535)
		return -EINVAL;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
			return -EINVAL;
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*sslen = sizeof(*a6);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
			return -EINVAL;
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		*sslen = sizeof(*a4);
	}
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One scrape: every collector, then the server's own counters. */
static char *scrape(struct hm_prom_server *srv, size_t *len)
{
	struct hm_prom_writer *w = hm_prom_writer_new();
	unsigned int i;
	double t0;
	char *text;

	if (!w)
		return NULL;
	pthread_mutex_lock(&srv->lock);
	t0 = mono_s();
	for (i = 0; i < srv->n_col; i++)
		srv->col[i].fn(w, srv->col[i].arg);
	srv->scrapes++;
	srv->refused += w->refused;
	if (w->refused && !srv->logged) {
		srv->logged = true;
		fprintf(stderr, "%s: metrics: refused a sample: %s (further refusals are only counted)\n",
			srv->prog, w->why);
	}
	hm_prom_gauge(w, HM_PROM_SELF_DURATION, HM_PROM_SELF_DURATION_HELP, NULL, 0,
		      mono_s() - t0);
	hm_prom_counter(w, HM_PROM_SELF_SCRAPES, HM_PROM_SELF_SCRAPES_HELP, NULL, 0, srv->scrapes);
	hm_prom_counter(w, HM_PROM_SELF_REFUSED, HM_PROM_SELF_REFUSED_HELP, NULL, 0, srv->refused);
	pthread_mutex_unlock(&srv->lock);
	text = hm_prom_writer_finish(w, len);
	return text;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *type, char *body, size_t len, bool must_free)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, must_free ? MHD_RESPMEM_MUST_FREE :
					    MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (must_free)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
			       const char *method, const char *version,
			       const char *upload_data, size_t *upload_size, void **con_cls)
{
	static char not_found[] = "not found: the metrics are at " HM_PROM_PATH "\n";
	static char no_method[] = "only GET and HEAD\n";
	static char no_memory[] = "no memory for the metrics\n";
	struct hm_prom_server *srv = cls;
	size_t len;
	char *text;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", no_method,
			     strlen(no_method), false);
	if (strcmp(url, HM_PROM_PATH))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found,
			     strlen(not_found), false);
	text = scrape(srv, &len);
	if (!text)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", no_memory,
			     strlen(no_memory), false);
	return reply(c, MHD_HTTP_OK, HM_PROM_CONTENT_TYPE, text, len, true);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct hm_prom_server *srv = cls;
	char line[256];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	fprintf(stderr, "%s: metrics: %s\n", srv->prog, line);
}

struct hm_prom_server *hm_prom_server_new(const char *addr, const char *prog,
					  char *err, size_t errlen)
{
	struct hm_prom_server *srv;
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *info;
	unsigned int sslen, flags;
	int e;

	if (hm_prom_parse_addr(addr, &ss, &sslen)) {
		snprintf(err, errlen, "\"%s\": expected IPV4:PORT or [IPV6]:PORT, PORT 0..65535",
			 addr ? addr : "");
		errno = EINVAL;
		return NULL;
	}
	srv = calloc(1, sizeof(*srv));
	if (!srv) {
		snprintf(err, errlen, "%s: %s", addr, strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	srv->prog = prog;
	pthread_mutex_init(&srv->lock, NULL);
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	errno = 0;
	srv->d = MHD_start_daemon(flags, 0, NULL, NULL, handler, srv,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, srv,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_CONNECTION_LIMIT, 16U,
				  MHD_OPTION_CONNECTION_TIMEOUT, 10U,
				  MHD_OPTION_END);
	if (!srv->d) {
		/* libmicrohttpd leaves bind(2)'s errno (it logged the call). */
		e = errno ? errno : EADDRNOTAVAIL;
		snprintf(err, errlen, "cannot listen on %s: %s", addr, strerror(e));
		pthread_mutex_destroy(&srv->lock);
		free(srv);
		errno = e;
		return NULL;
	}
	info = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_BIND_PORT);
	srv->port = info ? info->port : ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return srv;
}

unsigned int hm_prom_server_port(const struct hm_prom_server *srv)
{
	return srv->port;
}

int hm_prom_register(struct hm_prom_server *srv, hm_prom_collect_fn fn, void *arg)
{
	struct hm_prom_collector *c;
	int err = 0;

	pthread_mutex_lock(&srv->lock);
	c = realloc(srv->col, (srv->n_col + 1) * sizeof(*c));
	if (c) {
		srv->col = c;
		c[srv->n_col].fn = fn;
		c[srv->n_col].arg = arg;
		srv->n_col++;
	} else {
		err = -ENOMEM;
	}
	pthread_mutex_unlock(&srv->lock);
	return err;
}

/* The collector of a snapshot: copy it out, then write the copy unlocked. */
static void snap_collect(struct hm_prom_writer *w, void *arg)
{
	struct hm_prom_snap *s = arg;
	bool have;

	pthread_mutex_lock(&s->lock);
	have = s->published;
	if (have)
		memcpy(s->copy, s->pub, s->size);
	pthread_mutex_unlock(&s->lock);
	if (have)
		s->fn(w, s->copy, s->arg);
}

static void snap_free(struct hm_prom_snap *s)
{
	pthread_mutex_destroy(&s->lock);
	free(s->pub);
	free(s->copy);
	free(s);
}

struct hm_prom_snap *hm_prom_snap_new(struct hm_prom_server *srv, size_t size,
				      hm_prom_snap_fn fn, void *arg)
{
	struct hm_prom_snap *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->size = size;
	s->fn = fn;
	s->arg = arg;
	s->pub = calloc(1, size ? size : 1);
	s->copy = calloc(1, size ? size : 1);
	pthread_mutex_init(&s->lock, NULL);
	if (!s->pub || !s->copy || hm_prom_register(srv, snap_collect, s)) {
		snap_free(s);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&srv->lock);
	s->next = srv->snaps;
	srv->snaps = s;
	pthread_mutex_unlock(&srv->lock);
	return s;
}

void hm_prom_snap_publish(struct hm_prom_snap *snap, const void *data)
{
	if (!snap)
		return;
	pthread_mutex_lock(&snap->lock);
	memcpy(snap->pub, data, snap->size);
	snap->published = true;
	pthread_mutex_unlock(&snap->lock);
}

void hm_prom_server_free(struct hm_prom_server *srv)
{
	struct hm_prom_snap *s, *next;

	if (!srv)
		return;
	/* Joins the server's thread: a scrape in progress finishes first. */
	MHD_stop_daemon(srv->d);
	for (s = srv->snaps; s; s = next) {
		next = s->next;
		snap_free(s);
	}
	free(srv->col);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}
