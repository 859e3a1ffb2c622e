// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_sink.c - hopmarkd's PINT sink: one thread reads the pint_events
 * ring buffer (records come in batches, the datapath wakes the reader only
 * every PINT_EVENTS_WAKEUP_BYTES, so the thread also polls with a
 * timeout), feeds lib/pint/pint_sink.c and rewrites $HOPMARK_RUNDIR/pint.json
 * (atomically: a temporary file renamed over it) every
 * HM_PINT_STATE_INTERVAL_MS. `hopmark pint show` reads that file.
 *
 * A thread rather than one more fd in hopmarkd's epoll loop: the loop's
 * ring buffer handler and this one would share nothing, and the inference
 * (decoder peeling, sketch compaction, JSON of every flow) may take
 * milliseconds that the IOAM records should not wait for.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "pint_agent.h"
#include "pint/pint_sink.h"

static pthread_t pint_thread;
static const struct pint_topo *pint_topology;
static atomic_int pint_stop;
static int pint_started;

struct pint_agent {
	int			cfg_fd;
	int			events_fd;
	struct ring_buffer	*rb;
	struct pint_sink	*sink;
	struct pint_domain_cfg	cfg;
	char			path[PATH_MAX];
	char			tmp[PATH_MAX];
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct pint_agent *pa = ctx;

	if (pa->sink)
		pint_sink_add(pa->sink, data, size);
	return 0;
}

static void state_write(struct pint_agent *pa)
{
	struct json_object *o;
	FILE *f;

	if (!pa->sink)
		return;
	o = pint_sink_to_json(pa->sink);
	if (!o)
		return;
	f = fopen(pa->tmp, "w");
	if (f) {
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), f);
		fputc('\n', f);
		if (fclose(f) == 0)
			rename(pa->tmp, pa->path);
		else
			unlink(pa->tmp);
	}
	json_object_put(o);
}

/* Open the maps when they exist; (re)start the inference on new settings. */
static void refresh(struct pint_agent *pa)
{
	struct pint_domain_cfg cfg;
	__u32 zero = 0;

	if (pa->cfg_fd < 0) {
		pa->cfg_fd = hm_map_open(PINT_MAP_CFG);
		if (pa->cfg_fd < 0)
			return;
	}
	if (pa->events_fd < 0) {
		pa->events_fd = hm_map_open(PINT_MAP_EVENTS);
		if (pa->events_fd < 0)
			return;
		pa->rb = ring_buffer__new(pa->events_fd, on_record, pa, NULL);
		if (!pa->rb) {
			close(pa->events_fd);
			pa->events_fd = -1;
			return;
		}
	}
	if (bpf_map_lookup_elem(pa->cfg_fd, &zero, &cfg))
		return;
	if (pa->sink && !memcmp(&cfg, &pa->cfg, sizeof(cfg)))
		return;
	pint_sink_free(pa->sink);
	pa->sink = NULL;
	pa->cfg = cfg;
	if (!(cfg.flags & PINT_DOM_F_CONFIGURED))
		return;
	pa->sink = pint_sink_new(&cfg);
	if (!pa->sink) {
		fprintf(stderr, "%s: PINT settings not usable: %s\n", HOPMARKD_NAME,
			strerror(errno));
		return;
	}
	if (pint_topology && pint_sink_set_topology(pa->sink, pint_topology))
		fprintf(stderr, "%s: PINT topology not usable: decoding topology-blind\n",
			HOPMARKD_NAME);
}

static __u64 now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *pint_main(void *arg)
{
	struct pint_agent pa = { .cfg_fd = -1, .events_fd = -1 };
	const char *dir = hm_run_dir();
	__u64 next = 0;

	(void)arg;
	mkdir(dir, 0755);
	snprintf(pa.path, sizeof(pa.path), "%s/%s", dir, HM_PINT_STATE_NAME);
	snprintf(pa.tmp, sizeof(pa.tmp), "%s/.%s.tmp", dir, HM_PINT_STATE_NAME);
	while (!atomic_load(&pint_stop)) {
		if (now_ms() >= next) {
			refresh(&pa);
			state_write(&pa);
			next = now_ms() + HM_PINT_STATE_INTERVAL_MS;
		}
		/*
		 * The sink wakes this thread once per PINT_EVENTS_WAKEUP_BYTES
		 * of records: what waits below that is read on the timeout.
		 */
		if (pa.rb && !ring_buffer__poll(pa.rb, 100))
			ring_buffer__consume(pa.rb);
		else if (!pa.rb)
			usleep(100 * 1000);
	}
	if (pa.rb)
		ring_buffer__consume(pa.rb);
	state_write(&pa);
	ring_buffer__free(pa.rb);
	pint_sink_free(pa.sink);
	if (pa.cfg_fd >= 0)
		close(pa.cfg_fd);
	if (pa.events_fd >= 0)
		close(pa.events_fd);
	return NULL;
}

int hm_pint_agent_start(const struct pint_topo *topo)
{
	int err;

	pint_topology = topo;
	atomic_store(&pint_stop, 0);
	err = pthread_create(&pint_thread, NULL, pint_main, NULL);
	if (err) {
		fprintf(stderr, "%s: PINT sink thread not started: %s\n", HOPMARKD_NAME,
			strerror(err));
		return -err;
	}
	pint_started = 1;
	return 0;
}

void hm_pint_agent_stop(void)
{
	if (!pint_started)
		return;
	atomic_store(&pint_stop, 1);
	pthread_join(pint_thread, NULL);
	pint_started = 0;
}
