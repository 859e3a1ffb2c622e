// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ring_consume.c - what the consumers of the per-family ring buffers
 * (int_report.c for int_events, pbt_events.c for pbt_events) share:
 * draining the ring a batch at a time and reading the datapath's
 * events_lost counter to log, once a second, what the ring could not take.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "hopmarkd.h"

/* See hopmarkd.h. */
int hm_ring_consume_batches(struct ring_buffer *rb, unsigned int batches, const char *who,
			    const char *map, int (*after)(void *ctx), void *ctx)
{
	unsigned int i;
	int n, err;

	for (i = 0; i < batches; i++) {
		n = ring_buffer__consume(rb);
		err = after(ctx);
		if (n < 0 && n != -EAGAIN && n != -EINTR) {
			hm_log("%s: ring buffer %s: %s", who, map, strerror(-n));
			return n;
		}
		if (err)
			return err;
		if (n != -EAGAIN)
			break;
	}
	return 0;
}

/* See hopmarkd.h. */
long long hm_percpu_cnt_sum(int *fd, const char *map, size_t val_size, size_t cnt_off)
{
	__u32 key, next, *prev = NULL;
	long long sum = 0;
	char *vals;
	int ncpu, i;

	if (*fd < 0) {
		*fd = hm_map_open(map);
		if (*fd < 0)
			return -1;
	}
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return -1;
	vals = calloc(ncpu, val_size);
	if (!vals)
		return -1;
	while (!bpf_map_get_next_key(*fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(*fd, &key, vals))
			continue;	/* interface removed meanwhile */
		for (i = 0; i < ncpu; i++) {
			__u64 v;

			memcpy(&v, vals + (size_t)i * val_size + cnt_off, sizeof(v));
			sum += v;
		}
	}
	free(vals);
	return sum;
}

/* See hopmarkd.h. */
__u64 hm_lost_delta(long long *prev, long long cur)
{
	__u64 delta;

	if (cur < 0)
		return 0;
	/* The first reading is the baseline: earlier losses are not this run's. */
	if (*prev < 0 || cur < *prev) {
		*prev = cur;
		return 0;
	}
	delta = cur - *prev;
	*prev = cur;
	return delta;
}
