// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * out_json.c - the JSON lines output (collector/out_json.h).
 *
 * Lines are gathered in a buffer and written with write(2) at flush; a
 * line goes into the buffer whole or not at all, and what a write(2)
 * leaves unwritten (a full disk, a slow pipe) stays at the buffer's start
 * for the next flush: a reader never sees half a line followed by
 * another. When the buffer is full, new paths are refused (the collector
 * counts the failures) rather than cut.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "collector/log.h"
#include "collector/out_json.h"
#include "common/hm_time.h"
#include "common/json_write.h"
#include "pbt/pbt_maps.h"

#define HMC_JSON_BUF	(1U << 20)

struct hmc_json {
	int	fd;
	int	own_fd;
	size_t	len;
	char	name[256];
	char	buf[HMC_JSON_BUF];
};

const char *hmc_drop_name(unsigned int drop)
{
	switch (drop) {
	case HMC_DROP_NONE:	return "none";
	case HMC_DROP_IN_NODE:	return "in_node";
	case HMC_DROP_ON_LINK:	return "on_link";
	}
	return "unknown";
}

static void hmc_jw_addr(struct hm_jw *w, int family, const __u8 *a)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(family == 6 ? AF_INET6 : AF_INET, a, s, sizeof(s)))
		strcpy(s, "?");
	hm_jw_str(w, s);
}

static void hmc_jw_opt(struct hm_jw *w, __u64 v, int known)
{
	if (known)
		hm_jw_u64(w, v);
	else
		hm_jw_null(w);
}

static __u64 hmc_hop_first(const struct hmc_hop *h)
{
	return h->in_ns ? h->in_ns : h->out_ns;
}

static __u64 hmc_hop_last(const struct hmc_hop *h)
{
	return h->out_ns ? h->out_ns : h->in_ns;
}

size_t hmc_path_json(const struct hmc_path *p, char *buf, size_t size)
{
	char t[HM_TIME_RFC3339_LEN + 1];
	struct hm_jw w;
	unsigned int i;

	hm_jw_init(&w, buf, size);
	hm_jw_open(&w, '{');
	hm_jw_key(&w, "time");
	hm_jw_str(&w, hm_time_rfc3339(p->first_ns, t, sizeof(t)));
	hm_jw_key(&w, "family");
	hm_jw_u64(&w, p->key.family);
	hm_jw_key(&w, "src");
	hmc_jw_addr(&w, p->key.family, p->key.saddr);
	hm_jw_key(&w, "dst");
	hmc_jw_addr(&w, p->key.family, p->key.daddr);
	hm_jw_key(&w, "proto");
	hm_jw_u64(&w, p->key.proto);
	hm_jw_key(&w, "sport");
	hm_jw_u64(&w, ntohs(p->key.sport));
	hm_jw_key(&w, "dport");
	hm_jw_u64(&w, ntohs(p->key.dport));
	hm_jw_key(&w, "pkt_id");
	hm_jw_u64(&w, p->pkt_id);
	hm_jw_key(&w, "nr_hops");
	hm_jw_u64(&w, p->nr_hops);
	hm_jw_key(&w, "complete");
	hm_jw_bool(&w, p->drop == HMC_DROP_NONE);
	hm_jw_key(&w, "drop");
	hm_jw_str(&w, hmc_drop_name(p->drop));
	hm_jw_key(&w, "drop_node");
	hmc_jw_opt(&w, p->nr_hops ? p->hops[p->nr_hops - 1].node_id : 0,
		   p->drop != HMC_DROP_NONE && p->nr_hops);
	hm_jw_key(&w, "drop_text");
	if (p->drop == HMC_DROP_NONE || !p->nr_hops) {
		hm_jw_null(&w);
	} else {
		char d[96];

		snprintf(d, sizeof(d), p->drop == HMC_DROP_IN_NODE ? "dropped at node %u, in the node" :
			 p->drop == HMC_DROP_ON_LINK ? "dropped at node %u, on the link" :
			 "dropped at node %u, in the node or on the link",
			 p->hops[p->nr_hops - 1].node_id);
		hm_jw_str(&w, d);
	}
	hm_jw_key(&w, "lost");
	hm_jw_u64(&w, p->lost);
	hm_jw_key(&w, "dups");
	hm_jw_u64(&w, p->dups);
	hm_jw_key(&w, "path_change");
	hm_jw_bool(&w, p->flags & HMC_PATH_F_CHANGED);
	hm_jw_key(&w, "new_flow");
	hm_jw_bool(&w, p->flags & HMC_PATH_F_NEW_FLOW);
	hm_jw_key(&w, "evicted");
	hm_jw_bool(&w, p->flags & HMC_PATH_F_EVICTED);
	hm_jw_key(&w, "head_seen");
	hm_jw_bool(&w, p->flags & HMC_PATH_F_HEAD);
	hm_jw_key(&w, "e2e_ns");
	hmc_jw_opt(&w, p->nr_hops ? hmc_hop_last(&p->hops[p->nr_hops - 1]) - hmc_hop_first(&p->hops[0]) : 0,
		   p->nr_hops && hmc_hop_last(&p->hops[p->nr_hops - 1]) >= hmc_hop_first(&p->hops[0]));
	hm_jw_key(&w, "hops");
	hm_jw_open(&w, '[');
	for (i = 0; i < p->nr_hops && i < HMC_PATH_MAX_HOPS; i++) {
		const struct hmc_hop *h = &p->hops[i];
		const struct hmc_hop *n = i + 1 < p->nr_hops ? &p->hops[i + 1] : NULL;

		hm_jw_elem(&w);
		hm_jw_open(&w, '{');
		hm_jw_key(&w, "node");
		hm_jw_u64(&w, h->node_id);
		hm_jw_key(&w, "ttl");
		hm_jw_u64(&w, h->ttl);
		hm_jw_key(&w, "points");
		hm_jw_str(&w, h->points == (PBT_PT_INGRESS | PBT_PT_EGRESS) ? "ingress,egress" :
			  h->points == PBT_PT_INGRESS ? "ingress" : "egress");
		hm_jw_key(&w, "in_if");
		hmc_jw_opt(&w, h->in_if, h->in_if);
		hm_jw_key(&w, "out_if");
		hmc_jw_opt(&w, h->out_if, h->out_if);
		hm_jw_key(&w, "in_ns");
		hmc_jw_opt(&w, h->in_ns, h->in_ns);
		hm_jw_key(&w, "out_ns");
		hmc_jw_opt(&w, h->out_ns, h->out_ns);
		/* per hop: egress - ingress; per link: next ingress - egress */
		hm_jw_key(&w, "hop_ns");
		if (h->in_ns && h->out_ns)
			hm_jw_s64(&w, (__s64)(h->out_ns - h->in_ns));
		else
			hm_jw_null(&w);
		hm_jw_key(&w, "link_ns");
		if (n && h->out_ns && n->in_ns)
			hm_jw_s64(&w, (__s64)(n->in_ns - h->out_ns));
		else
			hm_jw_null(&w);
		hm_jw_key(&w, "qdepth");
		hmc_jw_opt(&w, h->qdepth, h->qdepth != PBT_UNKNOWN32);
		hm_jw_close(&w, '}');
	}
	hm_jw_close(&w, ']');
	hm_jw_close(&w, '}');
	hm_jw_char(&w, '\n');
	return hm_jw_len(&w);
}

static int hmc_json_open(void **ctx, const char *arg)
{
	struct hmc_json *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	if (!arg || !strcmp(arg, "-")) {
		j->fd = STDOUT_FILENO;
		snprintf(j->name, sizeof(j->name), "standard output");
	} else {
		j->fd = open(arg, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (j->fd < 0) {
			int err = errno;

			hmc_log(HMC_LOG_OUTPUT, "json: %s: %s", arg, strerror(err));
			free(j);
			return -err;
		}
		j->own_fd = 1;
		snprintf(j->name, sizeof(j->name), "%s", arg);
	}
	*ctx = j;
	return 0;
}

static int hmc_json_flush(void *ctx)
{
	struct hmc_json *j = ctx;
	size_t off = 0;
	int rc = 0;

	while (off < j->len) {
		ssize_t n = write(j->fd, j->buf + off, j->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			hmc_log(HMC_LOG_OUTPUT, "json: %s: %s (%zu octets kept for the next flush)",
				j->name, strerror(-rc), j->len - off);
			break;
		}
		off += n;
	}
	memmove(j->buf, j->buf + off, j->len - off);
	j->len -= off;
	return rc;
}

static int hmc_json_path(void *ctx, const struct hmc_path *p)
{
	struct hmc_json *j = ctx;
	size_t n;

	if (HMC_JSON_BUF - j->len < HMC_JSON_LINE_MAX)
		hmc_json_flush(j);
	if (HMC_JSON_BUF - j->len < HMC_JSON_LINE_MAX)
		return -ENOSPC;		/* the output is stuck: refuse whole lines */
	n = hmc_path_json(p, j->buf + j->len, HMC_JSON_LINE_MAX);
	if (n > HMC_JSON_LINE_MAX)
		return -EMSGSIZE;
	j->len += n;
	return 0;
}

static void hmc_json_close(void *ctx)
{
	struct hmc_json *j = ctx;

	if (!j)
		return;
	hmc_json_flush(j);
	if (j->own_fd)
		close(j->fd);
	free(j);
}

const struct hmc_output_ops hmc_out_json = {
	.name	= "json",
	.open	= hmc_json_open,
	.path	= hmc_json_path,
	.flush	= hmc_json_flush,
	.close	= hmc_json_close,
};
