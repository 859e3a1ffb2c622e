/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * output.h - where hopmark-collector's stitched paths go. Each output
 * (JSON lines, PostgreSQL, IPFIX re-export) implements these operations
 * in its own file; the collector calls them for every path, in order.
 */
#ifndef __HOPMARK_COLLECTOR_OUTPUT_H
#define __HOPMARK_COLLECTOR_OUTPUT_H

#include "collector/path.h"

/**
 * struct hmc_output_ops - one kind of output
 * @name:	"json", "pg", "ipfix"
 * @open:	start the output with its argument (a file name, a libpq
 *		connection string, HOST:PORT); store its state in *@ctx.
 *		Return 0 or a negative errno, with the reason logged.
 * @path:	one path; may buffer. Return 0 or a negative errno (the
 *		collector counts the failure and goes on).
 * @flush:	write what is buffered (called at least once a second and
 *		at exit). Return 0 or a negative errno.
 * @close:	flush and free.
 * @obs:	optional (NULL for most outputs): every postcard received, as
 *		decoded, before it is stitched (the IPFIX re-export's
 *		fan-out; a broker front calls it too). Return 0 or a
 *		negative errno (counted by the collector like @path's).
 * @flush_ms:	optional: the longest time, in milliseconds, that what the
 *		output buffers may wait for @flush (0: once a second, with
 *		every output). The IPFIX re-export asks for
 *		%HMC_OUT_IPFIX_FLUSH_MS so that a downstream collector's
 *		stitching window (500 ms by default) does not expire a packet
 *		whose postcards straddle two Messages, the second still held.
 */
struct hmc_output_ops {
	const char	*name;
	int		(*open)(void **ctx, const char *arg);
	int		(*path)(void *ctx, const struct hmc_path *p);
	int		(*flush)(void *ctx);
	void		(*close)(void *ctx);
	int		(*obs)(void *ctx, const struct hm_pc_obs *o);
	unsigned int	flush_ms;
};

#endif /* __HOPMARK_COLLECTOR_OUTPUT_H */
