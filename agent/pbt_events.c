// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_events.c - hopmarkd's PBT-M consumer: the postcards the datapath
 * (bpf/hopmark_pbt.bpf.c) queues in the pbt_events ring buffer (struct
 * pbt_record) become JSON lines on the output and the monitor socket
 * ("postcard":"pbt", Documentation/postcards.rst) and, when pbt_cfg[0]
 * names a collector, IPFIX records (lib/ipfix/ipfix_export.c).
 *
 * Like int_report.c: one more fd in the epoll loop (HM_EV_PBT_RING); the
 * maps are created by the PBT-M object, which may be loaded after the
 * agent started (or replaced), so they are looked for at start and on
 * every tick; pbt_cfg[0] is read before every drain and on every tick.
 * The tick also removes the per-flow templates of pbt_tpl whose
 * expires_ns passed: the datapath ignores them already (counted there as
 * template_expired), the agent frees their entries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "postcard/pc_obs_from.h"
#include "postcard/postcard.h"

/* Batches of JSON lines per drain before other events are served. */
#define HM_PBT_DRAIN_BATCHES	64
/* A JSON line of a postcard with a full header section fits in this. */
#define HM_PBT_LINE_MAX		2048

/**
 * struct hm_pbt_events - the consumer's state
 * @epfd:		hopmarkd's epoll instance
 * @src:		epoll tag of the ring buffer's fd
 * @cfg_fd:		pbt_cfg, -1 while not found
 * @stats_fd:		pbt_stats, -1 while not found
 * @tpl_fd:		pbt_tpl, -1 while not found
 * @events_fd:		pbt_events, -1 while not found
 * @events_id:		map ID of @events_fd
 * @rb:			ring buffer consumer of @events_fd
 * @exp:		the IPFIX exporter
 * @have_cfg:		@cfg holds pbt_cfg[0] as last read
 * @cfg:		the domain's settings
 * @out:		hopmarkd's output (NULL: no lines)
 * @flush:		writes @out's batch out (hopmarkd.c)
 * @flush_ctx:		its argument
 * @lost_prev:		PBT_CNT_EVENTS_LOST summed at the last reading, -1
 *			before the first (the baseline)
 * @st:			counters
 * @reported:		@st as of the last log line
 */
struct hm_pbt_events {
	int epfd;
	struct hm_ev_src *src;
	int cfg_fd;
	int stats_fd;
	int tpl_fd;
	int events_fd;
	__u32 events_id;
	struct ring_buffer *rb;
	struct hm_ipfix_exp *exp;
	bool have_cfg;
	struct pbt_domain_cfg cfg;
	struct hm_output *out;
	int (*flush)(void *ctx);
	void *flush_ctx;
	long long lost_prev;
	struct hm_pbt_events_stats st;
	struct hm_pbt_events_stats reported;
};

static void close_maps(struct hm_pbt_events *pe)
{
	if (pe->rb) {
		epoll_ctl(pe->epfd, EPOLL_CTL_DEL, ring_buffer__epoll_fd(pe->rb), NULL);
		ring_buffer__free(pe->rb);
		pe->rb = NULL;
	}
	if (pe->events_fd >= 0)
		close(pe->events_fd);
	if (pe->cfg_fd >= 0)
		close(pe->cfg_fd);
	if (pe->stats_fd >= 0)
		close(pe->stats_fd);
	if (pe->tpl_fd >= 0)
		close(pe->tpl_fd);
	pe->events_fd = pe->cfg_fd = pe->stats_fd = pe->tpl_fd = -1;
	pe->events_id = 0;
}

static __u32 map_id(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

static int on_record(void *ctx, void *data, size_t size);

/* Open the maps when pinned; follow a replaced pbt_events. */
static bool open_maps(struct hm_pbt_events *pe)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = pe->src };
	int fd = hm_map_open(PBT_MAP_EVENTS);
	__u32 id;

	if (fd < 0) {
		if (pe->events_fd >= 0)
			hm_log("PBT-M: %s is no longer pinned: no postcards until it is",
			       PBT_MAP_EVENTS);
		close_maps(pe);
		return false;
	}
	id = map_id(fd);
	if (pe->events_fd >= 0 && id == pe->events_id) {
		close(fd);
		return true;
	}
	if (pe->events_fd >= 0)
		hm_log("PBT-M: %s was replaced: reading the new one", PBT_MAP_EVENTS);
	close_maps(pe);
	pe->events_fd = fd;
	pe->events_id = id;
	pe->cfg_fd = hm_map_open(PBT_MAP_CFG);
	pe->stats_fd = hm_map_open(PBT_MAP_STATS);
	pe->tpl_fd = hm_map_open(PBT_MAP_TEMPLATES);
	pe->rb = ring_buffer__new(fd, on_record, pe, NULL);
	if (!pe->rb || epoll_ctl(pe->epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(pe->rb), &ev)) {
		hm_log("PBT-M: ring buffer %s: %s", PBT_MAP_EVENTS, strerror(errno));
		close_maps(pe);
		return false;
	}
	pe->lost_prev = -1;
	hm_log("PBT-M: reading %s (map id %u)", PBT_MAP_EVENTS, id);
	return true;
}

/* pbt_cfg[0] into the exporter when it changed. */
static void read_cfg(struct hm_pbt_events *pe)
{
	struct hm_ipfix_exp_cfg e;
	struct pbt_domain_cfg c;
	__u32 zero = 0;

	if (pe->cfg_fd < 0) {
		pe->cfg_fd = hm_map_open(PBT_MAP_CFG);
		if (pe->cfg_fd < 0)
			return;
	}
	if (bpf_map_lookup_elem(pe->cfg_fd, &zero, &c))
		return;
	if (pe->have_cfg && !memcmp(&c, &pe->cfg, sizeof(c)))
		return;
	pe->cfg = c;
	pe->have_cfg = true;
	pe->st.cfg_changes++;
	memset(&e, 0, sizeof(e));
	e.transport = c.exp_transport;
	e.family = c.exp_family;
	e.port = c.exp_port;
	e.rate = c.exp_rate;
	e.refresh_s = c.exp_refresh_s;
	e.domain = c.exp_domain;
	memcpy(e.addr, c.exp_addr, sizeof(e.addr));
	memcpy(e.src, c.exp_src, sizeof(e.src));
	hm_ipfix_exp_set(pe->exp, &e);
}

/* The postcard's JSON line into the batch; true when the batch is full. */
static bool json_line(struct hm_pbt_events *pe, const struct pbt_record *r)
{
	char line[HM_PBT_LINE_MAX];
	size_t len;
	int n;

	if (!pe->out)
		return false;
	len = hm_pbt_postcard_write_json(line, sizeof(line), r);
	if (len > sizeof(line)) {
		/* HM_PBT_LINE_MAX holds the longest line: a bug if not. */
		hm_output_line_lost(pe->out);
		return false;
	}
	n = hm_output_line(pe->out, line, len, false);
	if (n < 0)
		return false;
	pe->st.json_lines++;
	return n >= HM_OUTPUT_BATCH_LINES ||
	       hm_output_batch_bytes(pe->out) >= HM_OUTPUT_BATCH_BYTES;
}

/* ring_buffer callback: one struct pbt_record, shown and exported. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct hm_pbt_events *pe = ctx;
	const struct pbt_record *r = data;
	struct hm_ipfix_var var = { 0 };
	struct hm_pc_obs o;
	bool full;

	pe->st.postcards++;
	if (size < sizeof(*r)) {
		pe->st.bad_records++;
		return 0;
	}
	full = json_line(pe, r);
	if (hm_pc_obs_from_pbt(r, pe->cfg.exp_domain, &o)) {
		pe->st.bad_records++;
		return full ? -EAGAIN : 0;
	}
	if (r->tpl_id && (r->tpl_fields & PBT_FLD_HEADER) && r->hdr_len) {
		var.hdr = r->hdr;
		var.hdr_len = r->hdr_len > PBT_REC_HDR_MAX ? PBT_REC_HDR_MAX : r->hdr_len;
	}
	var.id_kind = r->id_kind;
	hm_ipfix_exp_add(pe->exp, &o, &var);
	return full ? -EAGAIN : 0;
}

/* See hopmarkd.h. */
struct hm_pbt_events *hm_pbt_events_new(int epfd, struct hm_ev_src *src,
					struct hm_ipfix_exp *exp)
{
	struct hm_pbt_events *pe = calloc(1, sizeof(*pe));

	if (!pe)
		return NULL;
	pe->epfd = epfd;
	pe->src = src;
	src->kind = HM_EV_PBT_RING;
	pe->exp = exp;
	pe->cfg_fd = pe->stats_fd = pe->tpl_fd = pe->events_fd = -1;
	pe->lost_prev = -1;
	open_maps(pe);
	/* INT and the module's postcards are exported with pbt_cfg's collector too. */
	read_cfg(pe);
	return pe;
}

/* See hopmarkd.h. */
void hm_pbt_events_set_output(struct hm_pbt_events *pe, struct hm_output *out,
			      int (*flush)(void *ctx), void *ctx)
{
	pe->out = out;
	pe->flush = flush;
	pe->flush_ctx = ctx;
}

/* See hopmarkd.h. */
bool hm_pbt_events_active(const struct hm_pbt_events *pe)
{
	return pe && pe->rb;
}

/* After a batch: export its records, write its lines. */
static int after_batch(void *ctx)
{
	struct hm_pbt_events *pe = ctx;

	hm_ipfix_exp_flush(pe->exp);
	return pe->flush ? pe->flush(pe->flush_ctx) : 0;
}

/* See hopmarkd.h. */
int hm_pbt_events_drain(struct hm_pbt_events *pe)
{
	if (!pe || !pe->rb)
		return 0;
	read_cfg(pe);
	return hm_ring_consume_batches(pe->rb, HM_PBT_DRAIN_BATCHES, "PBT-M", PBT_MAP_EVENTS,
				       after_batch, pe);
}

static void lost_check(struct hm_pbt_events *pe)
{
	long long cur = hm_percpu_cnt_sum(&pe->stats_fd, PBT_MAP_STATS,
					  sizeof(struct pbt_link_stats),
					  offsetof(struct pbt_link_stats, cnt[PBT_CNT_EVENTS_LOST]));
	__u64 delta = hm_lost_delta(&pe->lost_prev, cur);

	if (!delta)
		return;
	pe->st.ring_lost += delta;
	hm_log("PBT-M: %llu postcard(s) lost in the last second: ring buffer %s full (datapath counter events_lost); %llu while this agent ran",
	       (unsigned long long)delta, PBT_MAP_EVENTS, (unsigned long long)pe->st.ring_lost);
}

/* Remove the per-flow templates whose time is up (CLOCK_MONOTONIC, as the datapath). */
static void expire_templates(struct hm_pbt_events *pe)
{
	struct hm_flow_key key, next, *prev = NULL;
	struct pbt_flow_tpl t;
	struct timespec ts;
	unsigned int n = 0;
	__u64 now;

	if (pe->tpl_fd < 0) {
		pe->tpl_fd = hm_map_open(PBT_MAP_TEMPLATES);
		if (pe->tpl_fd < 0)
			return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	while (!bpf_map_get_next_key(pe->tpl_fd, prev, &next)) {
		key = next;
		if (!bpf_map_lookup_elem(pe->tpl_fd, &key, &t) && t.expires_ns &&
		    t.expires_ns <= now && !bpf_map_delete_elem(pe->tpl_fd, &key)) {
			n++;
			/* The walk starts over: the deleted key has no successor. */
			prev = NULL;
			continue;
		}
		prev = &key;
	}
	if (!n)
		return;
	pe->st.tpl_expired += n;
	hm_log("PBT-M: removed %u expired per-flow template(s) from %s, %llu while this agent ran",
	       n, PBT_MAP_TEMPLATES, (unsigned long long)pe->st.tpl_expired);
}

/* See hopmarkd.h. */
void hm_pbt_events_tick(struct hm_pbt_events *pe)
{
	struct hm_pbt_events_stats *s = &pe->st, *o = &pe->reported;

	open_maps(pe);
	read_cfg(pe);
	lost_check(pe);
	expire_templates(pe);
	if (s->bad_records != o->bad_records)
		hm_log("PBT-M: %llu postcard record(s) malformed in the last second, %llu in all",
		       (unsigned long long)(s->bad_records - o->bad_records),
		       (unsigned long long)s->bad_records);
	*o = *s;
}

/* See hopmarkd.h. */
const struct hm_pbt_events_stats *hm_pbt_events_stats(const struct hm_pbt_events *pe)
{
	return &pe->st;
}

/* See hopmarkd.h. */
void hm_pbt_events_free(struct hm_pbt_events *pe)
{
	if (!pe)
		return;
	close_maps(pe);
	free(pe);
}
