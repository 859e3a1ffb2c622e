// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libbpf_log.c - the libbpf message callback of the programs that load the
 * datapath objects outside the CLI: build/tests/bpf_test_run and
 * build/bench/bpf-cost.
 */
#include <stdio.h>

#include "bpf_test.h"

int hm_libbpf_errors_only(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static size_t printed;
	char line[1024];
	int n;

	/*
	 * Loader errors go to stderr, outside the TAP stream or the table;
	 * only the first 8 KiB, enough for the error, not every line of a
	 * verifier log.
	 */
	if (level != LIBBPF_WARN || printed > 8192)
		return 0;
	n = vsnprintf(line, sizeof(line), fmt, ap);
	printed += n > 0 ? n : 0;
	return fputs(line, stderr);
}
