// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_latency.c - userspace half of PINT latency compression: build the
 * scale R_c = min_ns * (1 + eps)^(2c) and its integer encoder table for the
 * BPF side, and decode codes back to nanoseconds. See pint_latency.h for
 * the encoding and its error bounds.
 */
#include <errno.h>
#include <string.h>

#include "pint/kll.h"
#include "pint/pint_fmath.h"
#include "pint/pint_latency.h"

int pint_lat_table_init(struct pint_lat_table *t, unsigned int bits, double eps,
			__u64 min_ns)
{
	unsigned int n, c;
	double base, r;

	if (!t || bits < 1 || bits > PINT_LAT_MAX_BITS || !(eps > 0.0) ||
	    !(eps <= PINT_LAT_EPS_MAX) || min_ns < 1 || min_ns > PINT_LAT_MAX_NS)
		return -EINVAL;
	n = 1U << bits;
	base = (1.0 + eps) * (1.0 + eps);
	/* A power rather than a running product: R_c does not drift with c. */
	if ((double)min_ns * pint_fm_powi(base, n - 1) > (double)PINT_LAT_MAX_NS)
		return -ERANGE;

	memset(t, 0, sizeof(*t));
	t->enc.bits = bits;
	t->enc.ncodes = n;
	t->eps = eps;
	for (c = 0; c < PINT_LAT_MAX_CODES; c++) {
		t->enc.thr_ns[c] = PINT_LAT_PAD;
		t->enc.rep_fp[c] = PINT_LAT_PAD;
	}
	for (c = 0; c < n; c++) {
		r = (double)min_ns * pint_fm_powi(base, c);
		t->rep_ns[c] = r;
		t->enc.rep_fp[c] = pint_fm_round(r * (1 << PINT_LAT_FP_SHIFT));
		/*
		 * v >= R_(c-1) (1 + eps) <=> v >= ceil(R_(c-1) (1 + eps)) for an
		 * integer v: the nearest code in log scale, decided exactly.
		 */
		t->enc.thr_ns[c] = c ? pint_fm_ceil(t->rep_ns[c - 1] * (1.0 + eps)) : 0;
	}
	t->min_ns = t->rep_ns[0];
	t->max_ns = t->rep_ns[n - 1];
	return 0;
}

int pint_lat_table_for_range(struct pint_lat_table *t, unsigned int bits,
			     __u64 min_ns, __u64 max_ns)
{
	double eps;

	if (bits < 1 || bits > PINT_LAT_MAX_BITS || min_ns < 1 || max_ns <= min_ns ||
	    max_ns > PINT_LAT_MAX_NS)
		return -EINVAL;
	eps = pint_fm_pow((double)max_ns / (double)min_ns,
			  1.0 / (2.0 * ((1U << bits) - 1))) - 1.0;
	/* The last ulps must not push R_max past the limit. */
	if ((double)min_ns * pint_fm_powi((1.0 + eps) * (1.0 + eps), (1U << bits) - 1) >
	    (double)PINT_LAT_MAX_NS)
		eps *= 1.0 - 1e-12;
	return pint_lat_table_init(t, bits, eps, min_ns);
}

int pint_lat_decode(const struct pint_lat_table *t, __u32 code, double *ns)
{
	if (code >= t->enc.ncodes)
		return -ERANGE;
	*ns = t->rep_ns[code];
	return 0;
}

double pint_lat_error_factor(const struct pint_lat_table *t, int randomized)
{
	return randomized ? (1.0 + t->eps) * (1.0 + t->eps) : 1.0 + t->eps;
}

int pint_lat_quantile_interp(const struct pint_lat_table *t, const struct kll_sketch *sk,
			     double q, double *ns)
{
	__u32 lo = 0, hi = t->enc.ncodes - 1, c;
	double target, r_lo, r_hi, f;
	__u64 n = kll_count(sk);

	if (!(q >= 0.0 && q <= 1.0))
		return -EINVAL;
	if (!n)
		return -ENOENT;
	target = q * (double)n;
	/* Smallest c with rank(R_c) >= target; the top code holds everything. */
	while (lo < hi) {
		c = lo + (hi - lo) / 2;
		if ((double)kll_rank(sk, t->rep_ns[c]) >= target)
			hi = c;
		else
			lo = c + 1;
	}
	c = lo;
	*ns = t->rep_ns[c];
	if (c == 0 || c == t->enc.ncodes - 1)
		return 0;
	r_lo = kll_rank(sk, t->rep_ns[c - 1]);
	r_hi = kll_rank(sk, t->rep_ns[c]);
	if (r_hi <= r_lo)
		return 0;
	f = (target - r_lo) / (r_hi - r_lo);
	*ns = t->rep_ns[c] * pint_fm_pow(1.0 + t->eps, 2.0 * f - 1.0);
	return 0;
}
