/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * out_ipfix.h - hopmark-collector's IPFIX re-export (collector/out_ipfix.c,
 * --ipfix-out [udp:|tcp:]HOST:PORT): every postcard received, sent on to
 * another IPFIX collector with hopmarkd's exporter.
 */
#ifndef __HOPMARK_COLLECTOR_OUT_IPFIX_H
#define __HOPMARK_COLLECTOR_OUT_IPFIX_H

#include "collector/output.h"

/*
 * The longest a re-exported postcard waits in a partly filled Message:
 * well inside a downstream collector's default stitching window (500 ms).
 */
#define HMC_OUT_IPFIX_FLUSH_MS	100

extern const struct hmc_output_ops hmc_out_ipfix;

struct hm_ipfix_exp_stats;

/**
 * hmc_out_ipfix_stats() - the exporter's counters (agent/hopmarkd.h)
 * @ctx:	what hmc_out_ipfix.open stored
 *
 * Return: valid while the output is open.
 */
const struct hm_ipfix_exp_stats *hmc_out_ipfix_stats(const void *ctx);

#endif /* __HOPMARK_COLLECTOR_OUT_IPFIX_H */
