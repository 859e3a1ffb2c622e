// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * monitor_sock.c - the unix stream socket `hopmark monitor` reads records from.
 *
 * Protocol: the agent writes, the client reads. Every record the agent
 * decodes after the client connected is sent to it as one JSON line
 * (Documentation/json-record.rst), the same bytes the agent writes to its
 * output. Anything a client sends is read and ignored. The agent never
 * waits for a client: what the socket does not accept at once is queued,
 * up to HM_MONITOR_PENDING_MAX bytes per client, and a client further
 * behind is disconnected and counted, so a stuck reader costs memory
 * bounded per client and never delays the ring buffer.
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

#include "hopmarkd.h"

/**
 * struct hm_client - one connected monitor client
 * @src:	epoll tag, kind %HM_EV_CLIENT (must stay first)
 * @fd:		connected socket, non-blocking
 * @pend:	bytes the socket has not taken yet
 * @pend_len:	bytes queued in @pend
 * @pend_cap:	bytes allocated for @pend
 * @want_out:	EPOLLOUT is registered
 * @rd_closed:	the client shut down its sending side; input is not watched
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
	struct hm_client *next;
};

/**
 * struct hm_monitor - the listening socket and its clients
 * @src:	epoll tag, kind %HM_EV_LISTEN (must stay first)
 * @fd:		listening socket
 * @epfd:	epoll instance
 * @addr:	socket address; its path is unlinked on exit
 * @clients:	connected clients
 * @stats:	counters
 */
struct hm_monitor {
	struct hm_ev_src src;
	int fd;
	int epfd;
	struct sockaddr_un addr;
	struct hm_client *clients;
	struct hm_monitor_stats stats;
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

/* Write what is queued. Return 0, or -errno when the client must go. */
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

/* See hopmarkd.h. */
int hm_monitor_event(struct hm_monitor *m, struct hm_ev_src *src, __u32 events)
{
	struct hm_client *c;
	char sink[512];
	ssize_t n;

	if (src->kind == HM_EV_LISTEN) {
		hm_monitor_accept(m);
		return 0;
	}
	c = (struct hm_client *)src;
	if (events & (EPOLLERR | EPOLLHUP))
		goto gone;
	if (events & (EPOLLIN | EPOLLRDHUP) && !c->rd_closed) {
		/* The protocol is one-way: discard input. */
		do {
			n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
		} while (n > 0);
		if (n == 0) {
			if (hm_client_watch(m, c, c->want_out, 1))
				goto gone;
		} else if (errno != EAGAIN && errno != EWOULDBLOCK &&
			   errno != EINTR) {
			goto gone;
		}
	}
	if (events & EPOLLOUT && hm_client_flush(m, c))
		goto gone;
	return 0;
gone:
	m->stats.closed++;
	hm_client_close(m, c);
	return 1;
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

/* See hopmarkd.h. */
void hm_monitor_send(struct hm_monitor *m, const char *buf, size_t len)
{
	struct hm_client *c, *next;
	ssize_t n;

	for (c = m->clients; c; c = next) {
		next = c->next;
		n = 0;
		if (!c->pend_len) {
			n = send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n < 0) {
				if (errno != EAGAIN && errno != EWOULDBLOCK &&
				    errno != EINTR) {
					m->stats.closed++;
					hm_client_close(m, c);
					continue;
				}
				n = 0;
			}
		}
		if ((size_t)n == len)
			continue;
		if (hm_client_queue(c, buf + n, len - n)) {
			m->stats.dropped_slow++;
			hm_client_close(m, c);
			continue;
		}
		if (hm_client_set_out(m, c, 1)) {
			m->stats.closed++;
			hm_client_close(m, c);
		}
	}
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
