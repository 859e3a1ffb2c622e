// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * monitor_sock.c - the unix stream socket `hopmark monitor` reads records from.
 *
 * Protocol (lib/common/monitor_proto.h, Documentation/agent.rst): the
 * agent writes, the client reads. Every record the agent decodes after the
 * client connected is sent to it as one JSON line
 * (Documentation/json-record.rst), the same bytes the agent writes to its
 * output, unless the client's first line asks for the binary stream
 * (%HM_MON_REQ_BINARY): from the end of the batch being sent, it gets the
 * acknowledgement line and then length-prefixed frames, the records in
 * the layout of lib/ioam/record_wire.h and every other line framed as it
 * is. A first line that is no request this agent speaks is answered with
 * one error line, counted, and the client closed once that line is out.
 * Anything a client sends after its request is read and ignored.
 *
 * The agent never waits for a client: what the socket does not accept at
 * once is queued, up to HM_MONITOR_PENDING_MAX bytes per client, in either
 * stream, and a client further behind is disconnected, counted and
 * logged (once a second), so a stuck reader costs memory bounded per
 * client and never delays the ring buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/monitor_proto.h"
#include "hopmarkd.h"

/**
 * enum hm_client_mode - what a client receives
 * @HM_CLIENT_JSON:	JSON lines (the default, before and without a request)
 * @HM_CLIENT_BINARY:	binary frames, after the acknowledgement line
 * @HM_CLIENT_CLOSING:	nothing more: its request was refused; it is closed
 *			once the error line (and what was queued before it)
 *			is out
 */
enum hm_client_mode {
	HM_CLIENT_JSON,
	HM_CLIENT_BINARY,
	HM_CLIENT_CLOSING,
};

/**
 * struct hm_client - one connected monitor client
 * @src:	epoll tag, kind %HM_EV_CLIENT (must stay first)
 * @fd:		connected socket, non-blocking
 * @pend:	bytes the socket has not taken yet
 * @pend_len:	bytes queued in @pend
 * @pend_cap:	bytes allocated for @pend
 * @want_out:	EPOLLOUT is registered
 * @rd_closed:	the client shut down its sending side; input is not watched
 * @mode:	what it receives
 * @req_done:	its request line was read (or refused): input is discarded
 * @req_len:	bytes of the request line read so far
 * @req:	the request line being read, '\0'-terminated
 * @next:	list link
 */
struct hm_client {
	struct hm_ev_src src;
	int fd;
	char *pend;
	size_t pend_len;
	size_t pend_cap;
	int want_out;
	int rd_closed;
	enum hm_client_mode mode;
	int req_done;
	size_t req_len;
	char req[HM_MON_REQ_MAX + 1];
	struct hm_client *next;
};

/**
 * struct hm_monitor - the listening socket and its clients
 * @src:	epoll tag, kind %HM_EV_LISTEN (must stay first)
 * @fd:		listening socket
 * @epfd:	epoll instance
 * @addr:	socket address; its path is unlinked on exit
 * @clients:	connected clients
 * @closing:	of which in %HM_CLIENT_CLOSING
 * @stats:	counters
 * @slow_reported: @stats.dropped_slow already logged (hm_monitor_report())
 * @bad_reported: @stats.bad_requests already logged
 * @last_bad:	why the latest request was refused, for the log
 */
struct hm_monitor {
	struct hm_ev_src src;
	int fd;
	int epfd;
	struct sockaddr_un addr;
	struct hm_client *clients;
	unsigned int closing;
	struct hm_monitor_stats stats;
	__u64 slow_reported;
	__u64 bad_reported;
	char last_bad[160];
};

/* mkdir -p for the socket's directory; the last component is the file. */
static int hm_mkdir_parents(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *p;

	strncpy(dir, path, sizeof(dir) - 1);
	dir[sizeof(dir) - 1] = '\0';
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * A socket file left by an agent that died is replaced; one somebody still
 * accepts on belongs to a running agent and is left alone.
 */
static int hm_claim_path(const struct sockaddr_un *addr)
{
	struct stat st;
	int fd, ret;

	if (lstat(addr->sun_path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = connect(fd, (const struct sockaddr *)addr, sizeof(*addr));
	close(fd);
	if (!ret)
		return -EADDRINUSE;
	if (unlink(addr->sun_path) && errno != ENOENT)
		return -errno;
	return 0;
}

/* See hopmarkd.h. */
struct hm_monitor *hm_monitor_new(const char *path, int epfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct hm_monitor *m;
	mode_t old_mask;
	int err;

	/* An empty path would bind an abstract socket no client looks for. */
	if (!*path) {
		errno = EINVAL;
		return NULL;
	}
	if (strlen(path) >= sizeof(m->addr.sun_path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->src.kind = HM_EV_LISTEN;
	m->epfd = epfd;
	m->fd = -1;
	m->addr.sun_family = AF_UNIX;
	strcpy(m->addr.sun_path, path);

	err = hm_mkdir_parents(path);
	if (!err)
		err = hm_claim_path(&m->addr);
	if (err)
		goto err_free;

	m->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (m->fd < 0)
		goto err_errno;
	/* Records say who talks to whom: owner and group only (0660). */
	old_mask = umask(0117);
	err = bind(m->fd, (struct sockaddr *)&m->addr, sizeof(m->addr));
	umask(old_mask);
	if (err)
		goto err_errno;
	if (listen(m->fd, 16))
		goto err_unlink;
	ev.data.ptr = &m->src;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, m->fd, &ev))
		goto err_unlink;
	return m;

err_unlink:
	err = -errno;
	unlink(m->addr.sun_path);
	goto err_free;
err_errno:
	err = -errno;
err_free:
	if (m->fd >= 0)
		close(m->fd);
	free(m);
	errno = -err;
	return NULL;
}

static void hm_client_close(struct hm_monitor *m, struct hm_client *c)
{
	struct hm_client **pp;

	for (pp = &m->clients; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	epoll_ctl(m->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->mode == HM_CLIENT_BINARY)
		m->stats.binary--;
	else if (c->mode == HM_CLIENT_CLOSING)
		m->closing--;
	free(c->pend);
	free(c);
	m->stats.connected--;
}

/*
 * Register the events @c needs: input until the client shut its sending
 * side down (a half-closed client may still read: it stays), output while
 * bytes are queued. EPOLLHUP, reported always, means it is gone entirely.
 */
static int hm_client_watch(struct hm_monitor *m, struct hm_client *c,
			   int want_out, int rd_closed)
{
	struct epoll_event ev = {
		.events = (rd_closed ? 0 : EPOLLIN | EPOLLRDHUP) |
			  (want_out ? EPOLLOUT : 0),
		.data.ptr = &c->src,
	};

	if (c->want_out == want_out && c->rd_closed == rd_closed)
		return 0;
	if (epoll_ctl(m->epfd, EPOLL_CTL_MOD, c->fd, &ev))
		return -errno;
	c->want_out = want_out;
	c->rd_closed = rd_closed;
	return 0;
}

static int hm_client_set_out(struct hm_monitor *m, struct hm_client *c, int on)
{
	return hm_client_watch(m, c, on, c->rd_closed);
}

/*
 * Write what is queued. Return 0, or -errno when the client must go: it
 * failed, or it is closing and its last line is out (-ESHUTDOWN).
 */
static int hm_client_flush(struct hm_monitor *m, struct hm_client *c)
{
	ssize_t n;

	while (c->pend_len) {
		n = send(c->fd, c->pend, c->pend_len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		memmove(c->pend, c->pend + n, c->pend_len - n);
		c->pend_len -= n;
	}
	if (c->mode == HM_CLIENT_CLOSING && !c->pend_len)
		return -ESHUTDOWN;
	return hm_client_set_out(m, c, c->pend_len != 0);
}

static void hm_monitor_accept(struct hm_monitor *m)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	struct hm_client *c;
	int fd;

	for (;;) {
		fd = accept4(m->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;	/* EAGAIN: all accepted; otherwise retried on the next event */
		if (m->stats.connected >= HM_MONITOR_MAX_CLIENTS) {
			close(fd);
			m->stats.refused++;
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			m->stats.refused++;
			continue;
		}
		c->src.kind = HM_EV_CLIENT;
		c->fd = fd;
		ev.data.ptr = &c->src;
		if (epoll_ctl(m->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			close(fd);
			free(c);
			m->stats.refused++;
			continue;
		}
		c->next = m->clients;
		m->clients = c;
		m->stats.connected++;
		m->stats.accepted++;
	}
}

/* Queue @len bytes for @c; return -ENOBUFS when it is too far behind. */
static int hm_client_queue(struct hm_client *c, const char *buf, size_t len)
{
	size_t need = c->pend_len + len;

	if (need > HM_MONITOR_PENDING_MAX)
		return -ENOBUFS;
	if (need > c->pend_cap) {
		size_t cap = c->pend_cap ? c->pend_cap : 4096;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(c->pend, cap);
		if (!p)
			return -ENOBUFS;
		c->pend = p;
		c->pend_cap = cap;
	}
	memcpy(c->pend + c->pend_len, buf, len);
	c->pend_len += len;
	return 0;
}

/*
 * A line of the agent's own (acknowledgement or error) after whatever is
 * queued, so it falls between whole lines or frames. Return 0, or -errno
 * when the client must go.
 */
static int hm_client_say(struct hm_monitor *m, struct hm_client *c, const char *line)
{
	if (hm_client_queue(c, line, strlen(line))) {
		m->stats.dropped_slow++;
		return -ENOBUFS;
	}
	return hm_client_flush(m, c);
}

/*
 * Refuse @c's request: one error line saying why, then nothing more, and
 * the connection closed once it is out. Counted, and logged once a second
 * (hm_monitor_report()). Return as hm_client_say().
 */
static int hm_client_refuse(struct hm_monitor *m, struct hm_client *c, const char *why)
{
	char line[sizeof(m->last_bad) + sizeof(HM_MON_ERROR_PFX) + 1];

	m->stats.bad_requests++;
	snprintf(m->last_bad, sizeof(m->last_bad), "%s", why);
	if (c->mode == HM_CLIENT_BINARY)
		m->stats.binary--;
	c->mode = HM_CLIENT_CLOSING;
	m->closing++;
	snprintf(line, sizeof(line), HM_MON_ERROR_PFX "%s\n", why);
	return hm_client_say(m, c, line);
}

/* @s for a log or error line: printable ASCII only, at most 48 bytes. */
static void hm_printable(char *out, size_t size, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size && i < 48; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' ? s[i] : '?';
	out[i] = '\0';
}

/*
 * The client's first line (without its '\n'): the one request there is,
 * HM_MON_REQ_BINARY. Return as hm_client_say().
 */
static int hm_client_request(struct hm_monitor *m, struct hm_client *c, char *line)
{
	static const char pfx[] = HM_MON_REQ_PFX "binary ";
	char why[sizeof(m->last_bad)], word[56];
	size_t len = strlen(line);

	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (strncmp(line, pfx, sizeof(pfx) - 1)) {
		hm_printable(word, sizeof(word), line);
		snprintf(why, sizeof(why), "unknown request \"%s\" (this hopmarkd knows \"%.*s\")",
			 word, (int)strlen(HM_MON_REQ_BINARY) - 1, HM_MON_REQ_BINARY);
		return hm_client_refuse(m, c, why);
	}
	if (strcmp(line + sizeof(pfx) - 1, "1")) {
		hm_printable(word, sizeof(word), line + sizeof(pfx) - 1);
		snprintf(why, sizeof(why), "binary stream version \"%s\" not spoken (this hopmarkd speaks %d)",
			 word, HM_MON_BINARY_VERSION);
		return hm_client_refuse(m, c, why);
	}
	/* Batches so far went out as JSON lines: the switch is at this line. */
	c->mode = HM_CLIENT_BINARY;
	m->stats.binary++;
	m->stats.binary_accepted++;
	return hm_client_say(m, c, HM_MON_ACK_BINARY);
}

/*
 * Read what the client sent: its request line first, then anything, which
 * is discarded. Return 0, or -errno when the client must go.
 */
static int hm_client_read(struct hm_monitor *m, struct hm_client *c)
{
	char sink[512];
	ssize_t n;
	int err;

	for (;;) {
		if (!c->req_done) {
			size_t old = c->req_len;
			char *nl;

			n = recv(c->fd, c->req + old, sizeof(c->req) - 1 - old, MSG_DONTWAIT);
			if (n > 0) {
				c->req_len += n;
				c->req[c->req_len] = '\0';
				nl = memchr(c->req + old, '\n', n);
				if (nl) {
					/* What follows the line is input after the request. */
					*nl = '\0';
					c->req_done = 1;
					err = hm_client_request(m, c, c->req);
				} else if (c->req_len == HM_MON_REQ_MAX) {
					c->req_done = 1;
					err = hm_client_refuse(m, c, "request line longer than 255 bytes");
					/* (HM_MON_REQ_MAX bytes and no '\n' among them) */
				} else {
					err = 0;
				}
				if (err)
					return err;
				continue;
			}
		} else {
			n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
			if (n > 0)
				continue;
		}
		if (n == 0) {
			if (!c->req_done && c->req_len) {
				c->req_done = 1;
				err = hm_client_refuse(m, c, "request line not ended by a newline");
				if (err)
					return err;
			}
			/* A half-closed client may still read: it stays. */
			return hm_client_watch(m, c, c->want_out, 1);
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return -errno;
	}
}

/* See hopmarkd.h. */
int hm_monitor_event(struct hm_monitor *m, struct hm_ev_src *src, __u32 events)
{
	struct hm_client *c;
	__u64 slow;

	if (src->kind == HM_EV_LISTEN) {
		hm_monitor_accept(m);
		return 0;
	}
	c = (struct hm_client *)src;
	slow = m->stats.dropped_slow;
	if (events & (EPOLLERR | EPOLLHUP))
		goto gone;
	if (events & (EPOLLIN | EPOLLRDHUP) && !c->rd_closed && hm_client_read(m, c))
		goto gone;
	if (events & EPOLLOUT && hm_client_flush(m, c))
		goto gone;
	return 0;
gone:
	/*
	 * A refused client may have sent more than its line: read it first,
	 * or closing with unread input resets the connection (ECONNRESET)
	 * and the client may never read the error line.
	 */
	if (c->mode == HM_CLIENT_CLOSING) {
		char sink[512];

		while (recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT) > 0)
			;
	}
	/* Dropped as too slow by its acknowledgement or error line: counted there. */
	if (m->stats.dropped_slow == slow)
		m->stats.closed++;
	hm_client_close(m, c);
	return 1;
}

/* Hand @buf to @c, or queue it; return -errno when the client must go. */
static int hm_client_send(struct hm_monitor *m, struct hm_client *c, const void *buf,
			  size_t len)
{
	ssize_t n = 0;

	if (!c->pend_len) {
		n = send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
				m->stats.closed++;
				return -errno;
			}
			n = 0;
		}
	}
	if ((size_t)n == len)
		return 0;
	if (hm_client_queue(c, (const char *)buf + n, len - n)) {
		m->stats.dropped_slow++;
		return -ENOBUFS;
	}
	if (hm_client_set_out(m, c, 1)) {
		m->stats.closed++;
		return -EIO;
	}
	return 0;
}

/* See hopmarkd.h. */
void hm_monitor_send(struct hm_monitor *m, const char *buf, size_t len,
		     const void *bin, size_t bin_len)
{
	struct hm_client *c, *next;

	for (c = m->clients; c; c = next) {
		next = c->next;
		if (c->mode == HM_CLIENT_CLOSING)
			continue;
		if (c->mode == HM_CLIENT_BINARY ? !bin_len : !len)
			continue;
		if (c->mode == HM_CLIENT_BINARY ? hm_client_send(m, c, bin, bin_len) :
						  hm_client_send(m, c, buf, len))
			hm_client_close(m, c);
	}
}

/* See hopmarkd.h. */
unsigned int hm_monitor_json_clients(const struct hm_monitor *m)
{
	return m ? m->stats.connected - m->stats.binary - m->closing : 0;
}

/* See hopmarkd.h. */
unsigned int hm_monitor_binary_clients(const struct hm_monitor *m)
{
	return m ? m->stats.binary : 0;
}

/* See hopmarkd.h. */
void hm_monitor_report(struct hm_monitor *m)
{
	__u64 n = m->stats.dropped_slow - m->slow_reported;

	if (n)
		hm_log("%llu monitor client(s) dropped as too slow in the last second (more than %u bytes queued), %llu in all",
		       (unsigned long long)n, HM_MONITOR_PENDING_MAX,
		       (unsigned long long)m->stats.dropped_slow);
	m->slow_reported = m->stats.dropped_slow;
	n = m->stats.bad_requests - m->bad_reported;
	if (n)
		hm_log("%llu monitor request(s) refused in the last second (last: %s), %llu in all",
		       (unsigned long long)n, m->last_bad,
		       (unsigned long long)m->stats.bad_requests);
	m->bad_reported = m->stats.bad_requests;
}

/* See hopmarkd.h. */
const struct hm_monitor_stats *hm_monitor_stats(const struct hm_monitor *m)
{
	return &m->stats;
}

/* See hopmarkd.h. */
__u64 hm_monitor_clients_gone(const struct hm_monitor *m)
{
	return m ? m->stats.closed + m->stats.dropped_slow : 0;
}

/* See hopmarkd.h. */
void hm_monitor_free(struct hm_monitor *m)
{
	if (!m)
		return;
	while (m->clients)
		hm_client_close(m, m->clients);
	epoll_ctl(m->epfd, EPOLL_CTL_DEL, m->fd, NULL);
	close(m->fd);
	unlink(m->addr.sun_path);
	free(m);
}
