/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * out_json.h - hopmark-collector's JSON lines output, the default: one
 * object per stitched path, one line each (Documentation/collector.rst
 * gives every key). `hopmark-collector show` reads these lines back.
 */
#ifndef __HOPMARK_COLLECTOR_OUT_JSON_H
#define __HOPMARK_COLLECTOR_OUT_JSON_H

#include <stddef.h>

#include "collector/output.h"

/* The longest line a path can make (32 hops), octets. */
#define HMC_JSON_LINE_MAX	16384

/* The JSON lines output: open("-") is standard output, else a file
 * opened for appending (made 0644 when absent). */
extern const struct hmc_output_ops hmc_out_json;

/**
 * hmc_path_json() - one path as its JSON line, with the newline
 * @p:		the path
 * @buf:	output
 * @size:	octets at @buf (%HMC_JSON_LINE_MAX is always enough)
 *
 * Return: the line's length; more than @size when it did not fit (then
 * @buf holds a cut line that must not be written).
 */
size_t hmc_path_json(const struct hmc_path *p, char *buf, size_t size);

/**
 * hmc_drop_name() - the name of a drop location
 * @drop:	%HMC_DROP_*
 *
 * Return: "none", "in_node", "on_link" or "unknown".
 */
const char *hmc_drop_name(unsigned int drop);

#endif /* __HOPMARK_COLLECTOR_OUT_JSON_H */
