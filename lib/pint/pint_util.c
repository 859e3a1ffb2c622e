// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_util.c - userspace half of PINT's per-path maximum link utilisation:
 * decoding the 8-bit code of pint_util.h back to HPCC's U.
 */

#include "pint/pint_fmath.h"
#include "pint/pint_util.h"

double pint_util_decode(__u8 code)
{
	if (!code)
		return 0.0;
	return pint_fm_exp((PINT_UTIL_MIN_LOG2 + (double)(code - 1) / PINT_UTIL_STEPS) *
			   PINT_FM_LN2);
}

double pint_util_error_factor(void)
{
	return pint_fm_exp((1.0 / (2 * PINT_UTIL_STEPS) + 1.0 / 8192) * PINT_FM_LN2);
}

__u32 pint_util_q16_from_double(double u)
{
	double q;

	if (!(u > 0.0))
		return 0;
	q = u * PINT_UTIL_ONE;
	return q >= 4294967295.0 ? 0xffffffffU : (__u32)pint_fm_round(q);
}
