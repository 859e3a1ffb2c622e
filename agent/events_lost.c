// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * events_lost.c - the records the datapath could not queue because the
 * ring buffer hopmark_events was full.
 *
 * Such records never reach the agent; the datapath counts them per
 * interface and CPU in hopmark_stats (HM_CNT_EVENTS_LOST), from the
 * creation of the maps on. A BPF ring buffer loses nothing it accepted,
 * so this is all that is lost between the datapath and the agent. The
 * agent reads the counters once a second and logs what was lost since the
 * previous reading: a flood of losses gives at most one line a second.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "hopmarkd.h"

/**
 * struct hm_lost_entry - one interface's datapath events_lost counter
 * @ifindex:	key of hopmark_stats
 * @lost:	HM_CNT_EVENTS_LOST summed over the CPUs
 */
struct hm_lost_entry {
	__u32	ifindex;
	__u64	lost;
};

/**
 * struct hm_events_lost - the loss watcher
 * @prev:	events_lost per interface at the last reading
 * @n_prev:	entries in @prev, -1 before the first reading
 * @ring_lost:	records lost while this agent ran (the increase of the
 *		events_lost counters since the first reading)
 */
struct hm_events_lost {
	struct hm_lost_entry *prev;
	int n_prev;
	__u64 ring_lost;
};

/*
 * Read every interface's events_lost summed over the CPUs into @out (room
 * for HM_MAX_IFINDEX, the array's size): the interfaces whose counters are
 * not all zero.
 * Return the number of entries, or negative errno.
 */
static int hm_events_lost_read(struct hm_lost_entry *out)
{
	struct hopmark_link_stats *vals;
	__u32 key, next, *prev = NULL;
	int fd, ncpu, i, n = 0;

	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	fd = hm_map_open(HM_MAP_STATS);
	if (fd < 0)
		return fd;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals) {
		close(fd);
		return -ENOMEM;
	}
	while (n < HM_MAX_IFINDEX && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;	/* interface removed meanwhile */
		out[n].ifindex = key;
		out[n].lost = 0;
		for (i = 0; i < ncpu; i++)
			out[n].lost += vals[i].cnt[HM_CNT_EVENTS_LOST];
		/* Every index of the array: an interface that lost nothing is left out. */
		if (out[n].lost)
			n++;
	}
	free(vals);
	close(fd);
	return n;
}

/* See hopmarkd.h. */
long long hm_events_lost_total(void)
{
	struct hm_lost_entry *cur;
	long long sum = 0;
	int i, n;

	cur = calloc(HM_MAX_IFINDEX, sizeof(*cur));
	if (!cur)
		return -1;
	n = hm_events_lost_read(cur);
	for (i = 0; i < n; i++)
		sum += cur[i].lost;
	free(cur);
	return n < 0 ? -1 : sum;
}

/* See hopmarkd.h. */
struct hm_events_lost *hm_events_lost_new(void)
{
	struct hm_events_lost *el;

	el = calloc(1, sizeof(*el));
	if (!el)
		return NULL;
	el->n_prev = -1;
	/* Losses before this run are the datapath's history, not this run's. */
	hm_events_lost_check(el, false);
	return el;
}

/* See hopmarkd.h. */
void hm_events_lost_check(struct hm_events_lost *el, bool report)
{
	struct hm_lost_entry *cur;
	__u64 delta = 0, total = 0;
	int i, j, n;

	cur = calloc(HM_MAX_IFINDEX, sizeof(*cur));
	if (!cur)
		return;
	n = hm_events_lost_read(cur);
	if (n < 0) {
		free(cur);
		return;
	}
	for (i = 0; i < n; i++) {
		__u64 prev = 0;

		total += cur[i].lost;
		if (el->n_prev < 0)
			continue;
		for (j = 0; j < el->n_prev; j++) {
			if (el->prev[j].ifindex == cur[i].ifindex) {
				prev = el->prev[j].lost;
				break;
			}
		}
		if (cur[i].lost > prev)
			delta += cur[i].lost - prev;
	}
	free(el->prev);
	el->prev = cur;
	el->n_prev = n;
	if (!delta)
		return;
	el->ring_lost += delta;
	if (report)
		hm_log("%llu record(s) lost in the last second: ring buffer %s full (datapath counter events_lost); %llu lost while this agent ran, %llu since the datapath was loaded",
		       (unsigned long long)delta, HM_MAP_EVENTS,
		       (unsigned long long)el->ring_lost, (unsigned long long)total);
}

/* See hopmarkd.h. */
__u64 hm_events_lost_ring_lost(const struct hm_events_lost *el)
{
	return el->ring_lost;
}

/* See hopmarkd.h. */
void hm_events_lost_free(struct hm_events_lost *el)
{
	if (!el)
		return;
	free(el->prev);
	free(el);
}
