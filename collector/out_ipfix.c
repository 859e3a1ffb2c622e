// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * out_ipfix.c - hopmark-collector's IPFIX re-export (--ipfix-out
 * [udp:|tcp:]HOST:PORT): a fan-out of every postcard the collector
 * receives, as decoded (struct hm_pc_obs), to one more IPFIX collector
 * (nfacctd, another hopmark-collector, a tool that reads IPFIX). It is
 * hopmarkd's exporter (lib/ipfix/ipfix_export.c, on lib/ipfix/'s model and
 * templates), so the re-exported records have the templates, RFC 5610 type
 * records, template refresh (UDP, 60 s) and TCP reconnection hopmarkd's
 * have, and every record that does not leave is counted by reason. The
 * re-export is one Transport Session of Observation Domain 0: switching
 * the exporter's domain per record would start a new session each time.
 *
 * Stitched paths are not re-exported (@path does nothing): the paths'
 * outputs are the JSON lines and PostgreSQL.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipfix/ipfix_export.h"
#include "collector/out_ipfix.h"
#include "ipfix/ipfix_ie.h"
#include "pbt/pbt_maps.h"

struct hmc_ipfix_out {
	struct hm_ipfix_exp	*x;
	struct hm_ipfix_exp_cfg	cfg;
	__u64			last_tick;	/* CLOCK_MONOTONIC s of the last tick */
};

/* The exporter's log lines, in the collector: the re-export's. */
static void hmc_ipfix_out_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void hmc_ipfix_out_log(const char *fmt, ...)
{
	va_list ap;

	fputs("hopmark-collector: ipfix-out: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static __u64 mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* [udp:|tcp:]HOST:PORT, HOST an IPv4 address or [IPv6] */
static int parse_dest(const char *arg, struct hm_ipfix_exp_cfg *c)
{
	char host[INET6_ADDRSTRLEN + 2], *end;
	const char *p = arg, *colon;
	unsigned long port;
	size_t n;

	memset(c, 0, sizeof(*c));
	c->transport = PBT_EXP_UDP;
	if (!strncmp(p, "udp:", 4)) {
		p += 4;
	} else if (!strncmp(p, "tcp:", 4)) {
		c->transport = PBT_EXP_TCP;
		p += 4;
	}
	if (*p == '[') {
		const char *close = strchr(p, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		n = close - p - 1;
		colon = close + 1;
		p++;
	} else {
		colon = strrchr(p, ':');
		if (!colon)
			return -EINVAL;
		n = colon - p;
	}
	if (!n || n >= sizeof(host))
		return -EINVAL;
	memcpy(host, p, n);
	host[n] = 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || !port || port > 65535)
		return -EINVAL;
	c->port = port;
	if (inet_pton(AF_INET, host, c->addr) == 1)
		c->family = 4;
	else if (inet_pton(AF_INET6, host, c->addr) == 1)
		c->family = 6;
	else
		return -EINVAL;
	return 0;
}

static int ipfix_open(void **ctx, const char *arg)
{
	struct hmc_ipfix_out *o;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	err = parse_dest(arg ? arg : "", &o->cfg);
	if (err) {
		fprintf(stderr, "hopmark-collector: --ipfix-out \"%s\": not [udp:|tcp:]HOST:PORT\n",
			arg ? arg : "");
		free(o);
		return err;
	}
	hm_ipfix_log = hmc_ipfix_out_log;
	o->x = hm_ipfix_exp_new(HM_IPFIX_PEN_DEFAULT);
	if (!o->x) {
		err = -errno;
		free(o);
		return err ? err : -ENOMEM;
	}
	hm_ipfix_exp_set(o->x, &o->cfg);
	o->last_tick = mono_s();
	*ctx = o;
	return 0;
}

static int ipfix_obs(void *ctx, const struct hm_pc_obs *pc)
{
	struct hmc_ipfix_out *o = ctx;

	hm_ipfix_exp_add(o->x, pc, NULL);
	return 0;
}

static int ipfix_path(void *ctx, const struct hmc_path *p)
{
	return 0;
}

static int ipfix_flush(void *ctx)
{
	struct hmc_ipfix_out *o = ctx;
	__u64 now = mono_s();

	hm_ipfix_exp_flush(o->x);
	if (now != o->last_tick) {
		hm_ipfix_exp_tick(o->x);	/* template refresh, not-sent log */
		o->last_tick = now;
	}
	return 0;
}

static void ipfix_close(void *ctx)
{
	struct hmc_ipfix_out *o = ctx;

	if (!o)
		return;
	hm_ipfix_exp_free(o->x);
	free(o);
}

const struct hm_ipfix_exp_stats *hmc_out_ipfix_stats(const void *ctx)
{
	return hm_ipfix_exp_stats(((const struct hmc_ipfix_out *)ctx)->x);
}

const struct hmc_output_ops hmc_out_ipfix = {
	.name	= "ipfix",
	.open	= ipfix_open,
	.path	= ipfix_path,
	.flush	= ipfix_flush,
	.close	= ipfix_close,
	.obs	= ipfix_obs,
	.flush_ms = HMC_OUT_IPFIX_FLUSH_MS,
};
