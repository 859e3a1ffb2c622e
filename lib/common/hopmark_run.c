// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_run.c - the run directory and its files (hopmark_run.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/hopmark_run.h"

const char *hm_run_dir(void)
{
	const char *dir = getenv(HM_RUNDIR_ENV);

	return dir && *dir ? dir : HM_RUNDIR_DEFAULT;
}

int hm_run_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", hm_run_dir(), name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
