// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * counters.c - hopmark-collector's counters by name (collector/counters.h).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "collector/counters.h"

struct hmc_ctr_def {
	const char	*name;
	size_t		off;
	int		gauge;
};

#define C(s, f)		{ #f, offsetof(struct s, f), 0 }
#define G(s, f)		{ #f, offsetof(struct s, f), 1 }

static const struct hmc_ctr_def hmc_ipfix_defs[] = {
	C(hmc_ipfix_stats, messages), C(hmc_ipfix_stats, records),
	C(hmc_ipfix_stats, postcards), C(hmc_ipfix_stats, short_msg),
	C(hmc_ipfix_stats, bad_version), C(hmc_ipfix_stats, bad_length),
	C(hmc_ipfix_stats, bad_set_length), C(hmc_ipfix_stats, bad_set_id),
	C(hmc_ipfix_stats, bad_template), C(hmc_ipfix_stats, no_template),
	C(hmc_ipfix_stats, tpl_added), C(hmc_ipfix_stats, tpl_withdrawn),
	C(hmc_ipfix_stats, tpl_changed), C(hmc_ipfix_stats, tpl_limit),
	C(hmc_ipfix_stats, not_postcard), C(hmc_ipfix_stats, decode_error),
	C(hmc_ipfix_stats, seq_lost), C(hmc_ipfix_stats, seq_reordered),
	C(hmc_ipfix_stats, seq_late), G(hmc_ipfix_stats, seq_pending),
	G(hmc_ipfix_stats, exporters),
	C(hmc_ipfix_stats, exporters_refused), C(hmc_ipfix_stats, exporters_denied),
	C(hmc_ipfix_stats, exporters_expired), C(hmc_ipfix_stats, tcp_closed),
};

static const struct hmc_ctr_def hmc_report_defs[] = {
	C(hmc_report_stats, payloads), C(hmc_report_stats, reports),
	C(hmc_report_stats, postcards), C(hmc_report_stats, bad),
	C(hmc_report_stats, no_packet),
};

static const struct hmc_ctr_def hmc_stitch_defs[] = {
	C(hmc_stitch_stats, postcards), C(hmc_stitch_stats, duplicates),
	C(hmc_stitch_stats, reordered), C(hmc_stitch_stats, packets),
	C(hmc_stitch_stats, complete), C(hmc_stitch_stats, drops_in_node),
	C(hmc_stitch_stats, drops_on_link), C(hmc_stitch_stats, drops_unknown),
	C(hmc_stitch_stats, evicted), C(hmc_stitch_stats, late),
	C(hmc_stitch_stats, path_changes), C(hmc_stitch_stats, too_many_hops),
	C(hmc_stitch_stats, lost), C(hmc_stitch_stats, flows_evicted),
	G(hmc_stitch_stats, tracked), G(hmc_stitch_stats, flows),
};

static const struct hmc_ctr_def hmc_output_defs[] = {
	C(hmc_output_stats, paths), C(hmc_output_stats, failures),
	C(hmc_output_stats, flush_errors),
};

static const struct hmc_ctr_def hmc_pg_defs[] = {
	C(hmc_pg_stats, paths), C(hmc_pg_stats, packets), C(hmc_pg_stats, hops),
	C(hmc_pg_stats, duplicates), C(hmc_pg_stats, flushes), C(hmc_pg_stats, failures),
	C(hmc_pg_stats, reconnects), C(hmc_pg_stats, lost),
};

static const struct hmc_ctr_def hmc_broker_defs[] = {
	C(hmc_broker_stats, published), C(hmc_broker_stats, publish_failed),
	C(hmc_broker_stats, broker_dups), C(hmc_broker_stats, received),
	C(hmc_broker_stats, bad), C(hmc_broker_stats, replayed),
	C(hmc_broker_stats, stitch_dropped), C(hmc_broker_stats, replay_done),
	C(hmc_broker_stats, acked),
	C(hmc_broker_stats, ack_failed),
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static void hmc_group(const char *group, const void *base, const struct hmc_ctr_def *d,
		      size_t n, hmc_counter_fn fn, void *arg)
{
	size_t i;
	__u64 v;

	if (!base)
		return;
	for (i = 0; i < n; i++) {
		memcpy(&v, (const char *)base + d[i].off, sizeof(v));
		fn(arg, group, d[i].name, v, d[i].gauge);
	}
}

void hmc_counters_each(const struct hmc_counters *c, hmc_counter_fn fn, void *arg)
{
	hmc_group("ipfix", c->ipfix, hmc_ipfix_defs, N(hmc_ipfix_defs), fn, arg);
	hmc_group("report", c->report, hmc_report_defs, N(hmc_report_defs), fn, arg);
	hmc_group("stitch", c->stitch, hmc_stitch_defs, N(hmc_stitch_defs), fn, arg);
	hmc_group("output", c->output, hmc_output_defs, N(hmc_output_defs), fn, arg);
	hmc_group("pg", c->pg, hmc_pg_defs, N(hmc_pg_defs), fn, arg);
	hmc_group("broker", c->broker, hmc_broker_defs, N(hmc_broker_defs), fn, arg);
}

struct hmc_json_walk {
	FILE		*f;
	const char	*group;
};

static void hmc_json_one(void *arg, const char *group, const char *name, __u64 v, int gauge)
{
	struct hmc_json_walk *w = arg;

	if (!w->group || strcmp(w->group, group))
		fprintf(w->f, "%s\"%s\":{", w->group ? "}," : "", group);
	else
		fputc(',', w->f);
	w->group = group;
	fprintf(w->f, "\"%s\":%llu", name, (unsigned long long)v);
}

int hmc_counters_json(const struct hmc_counters *c, FILE *f)
{
	struct hmc_json_walk w = { .f = f };

	fputc('{', f);
	hmc_counters_each(c, hmc_json_one, &w);
	fputs(w.group ? "}}\n" : "}\n", f);
	return ferror(f) ? -EIO : 0;
}
