// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * metrics.c - hopmark-collector's Prometheus metrics (metrics.h): the
 * counters of counters.h, walked with hmc_counters_each() over a copy the
 * loop published, so a scrape never touches what the loop changes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/metrics.h"
#include "common/prom.h"

/**
 * struct hmc_metrics_snap - the published copy of the counters
 * @has_ipfix:	@ipfix is shown
 * @has_report:	@report is shown
 * @has_stitch:	@stitch is shown
 * @has_output:	@output is shown
 * @has_pg:	@pg is shown
 * @has_broker:	@broker is shown
 * @ipfix:	the IPFIX input's counters
 * @report:	the Telemetry Report input's
 * @stitch:	the stitcher's
 * @output:	the outputs'
 * @pg:		the PostgreSQL output's
 * @broker:	the broker client's
 */
struct hmc_metrics_snap {
	bool			has_ipfix;
	bool			has_report;
	bool			has_stitch;
	bool			has_output;
	bool			has_pg;
	bool			has_broker;
	struct hmc_ipfix_stats	ipfix;
	struct hmc_report_stats	report;
	struct hmc_stitch_stats	stitch;
	struct hmc_output_stats	output;
	struct hmc_pg_stats	pg;
	struct hmc_broker_stats	broker;
};

/**
 * struct hmc_metrics - the server and its snapshot
 * @srv:	HTTP server
 * @snap:	the loop's published counters
 */
struct hmc_metrics {
	struct hm_prom_server	*srv;
	struct hm_prom_snap	*snap;
};

/* The family of a counter: hopmark_collector_<group>_<name>[_total]. */
static void family(char *buf, size_t len, const char *group, const char *name, int gauge)
{
	snprintf(buf, len, "hopmark_collector_%s_%s%s", group, name, gauge ? "" : "_total");
}

static void help(char *buf, size_t len, const char *group, const char *name)
{
	snprintf(buf, len, "hopmark-collector %s counter %s (Documentation/collector.rst)",
		 group, name);
}

static void write_one(void *arg, const char *group, const char *name, __u64 v, int gauge)
{
	struct hm_prom_writer *w = arg;
	char fam[128], h[160];

	family(fam, sizeof(fam), group, name, gauge);
	help(h, sizeof(h), group, name);
	if (gauge)
		hm_prom_gauge(w, fam, h, NULL, 0, (double)v);
	else
		hm_prom_counter(w, fam, h, NULL, 0, v);
}

static void collect(struct hm_prom_writer *w, const void *data, void *arg)
{
	const struct hmc_metrics_snap *s = data;
	struct hmc_counters c = {
		.ipfix = s->has_ipfix ? &s->ipfix : NULL,
		.report = s->has_report ? &s->report : NULL,
		.stitch = s->has_stitch ? &s->stitch : NULL,
		.output = s->has_output ? &s->output : NULL,
		.pg = s->has_pg ? &s->pg : NULL,
		.broker = s->has_broker ? &s->broker : NULL,
	};

	hmc_counters_each(&c, write_one, w);
}

struct hmc_metrics *hmc_metrics_new(const char *addr)
{
	struct hmc_metrics *m = calloc(1, sizeof(*m));
	char err[256];
	int e;

	if (!m)
		return NULL;
	m->srv = hm_prom_server_new(addr, "hopmark-collector", err, sizeof(err));
	if (!m->srv) {
		e = errno;
		fprintf(stderr, "hopmark-collector: --metrics %s\n", err);
		free(m);
		errno = e;
		return NULL;
	}
	m->snap = hm_prom_snap_new(m->srv, sizeof(struct hmc_metrics_snap), collect, m);
	if (!m->snap) {
		fprintf(stderr, "hopmark-collector: --metrics: %s\n", strerror(ENOMEM));
		hm_prom_server_free(m->srv);
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

unsigned int hmc_metrics_port(const struct hmc_metrics *m)
{
	return hm_prom_server_port(m->srv);
}

void hmc_metrics_publish(struct hmc_metrics *m, const struct hmc_counters *c)
{
	struct hmc_metrics_snap s = { 0 };

	if (!m)
		return;
	if (c->ipfix) {
		s.has_ipfix = true;
		s.ipfix = *c->ipfix;
	}
	if (c->report) {
		s.has_report = true;
		s.report = *c->report;
	}
	if (c->stitch) {
		s.has_stitch = true;
		s.stitch = *c->stitch;
	}
	if (c->output) {
		s.has_output = true;
		s.output = *c->output;
	}
	if (c->pg) {
		s.has_pg = true;
		s.pg = *c->pg;
	}
	if (c->broker) {
		s.has_broker = true;
		s.broker = *c->broker;
	}
	hm_prom_snap_publish(m->snap, &s);
}

static void list_one(void *arg, const char *group, const char *name, __u64 v, int gauge)
{
	char fam[128];

	family(fam, sizeof(fam), group, name, gauge);
	fprintf(arg, "%-52s %-7s %s:%s\n", fam, gauge ? "gauge" : "counter", group, name);
}

void hmc_metrics_list(FILE *f)
{
	static const struct hmc_ipfix_stats ipfix;
	static const struct hmc_report_stats report;
	static const struct hmc_stitch_stats stitch;
	static const struct hmc_output_stats output;
	static const struct hmc_pg_stats pg;
	static const struct hmc_broker_stats broker;
	struct hmc_counters c = { &ipfix, &report, &stitch, &output, &pg, &broker };

	fprintf(f, "%-52s %-7s %s\n", "# family", "type", "source");
	hmc_counters_each(&c, list_one, f);
	fprintf(f, "%-52s %-7s %s\n", HM_PROM_SELF_DURATION, "gauge", "server");
	fprintf(f, "%-52s %-7s %s\n", HM_PROM_SELF_SCRAPES, "counter", "server");
	fprintf(f, "%-52s %-7s %s\n", HM_PROM_SELF_REFUSED, "counter", "server");
}

void hmc_metrics_free(struct hmc_metrics *m)
{
	if (!m)
		return;
	hm_prom_server_free(m->srv);
	free(m);
}
