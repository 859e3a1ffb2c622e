// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_path.c - PINT path-tracing schemes in userspace: turning a user's
 * layer description into the integer thresholds of struct pint_path_params,
 * the named schemes (Baseline, XOR, the multi-layer hybrid), and a whole-path
 * encoder for simulation. The per-hop step itself is pint_path_hop() in
 * pint_path.h, shared with BPF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pint/pint_path.h"

int pint_path_params_init(struct pint_path_params *p, const struct pint_seeds *seeds,
			  unsigned int bits, unsigned int flags)
{
	static const struct pint_seeds def = {
		.decider = PINT_SEED_DECIDER,
		.act = PINT_SEED_ACT,
		.value = PINT_SEED_VALUE,
	};

	if (bits < 1 || bits > 32 || (flags & ~PINT_PATH_F_FULL_ID))
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->seeds = seeds ? *seeds : def;
	p->bits = bits;
	p->flags = flags;
	p->nr_inst = 1;
	/* A valid scheme from the start: Baseline alone. */
	p->nr_layers = 1;
	p->layer[0].kind = PINT_LAYER_BASELINE;
	p->layer[0].decide_max = 0xffffffffU;
	return 0;
}

/* floor(x * 2^32) - 1 clamped to [0, 2^32 - 1]: the inclusive threshold of probability x. */
static __u32 prob_to_thresh(double x)
{
	double y = x * 4294967296.0;
	__u64 t;

	if (!(y >= 1.0))
		return 0;
	if (y >= 4294967296.0)
		return 0xffffffffU;
	t = (__u64)y;		/* floor, y > 0 */
	return (__u32)(t - 1);
}

int pint_path_set_layers(struct pint_path_params *p, const struct pint_layer_spec *spec,
			 unsigned int n)
{
	double total = 0, cum = 0;
	unsigned int i;

	if (n < 1 || n > PINT_PATH_MAX_LAYERS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (spec[i].kind != PINT_LAYER_BASELINE && spec[i].kind != PINT_LAYER_XOR)
			return -EINVAL;
		if (!(spec[i].weight > 0))
			return -EINVAL;
		if (spec[i].kind == PINT_LAYER_XOR && !(spec[i].p > 0 && spec[i].p <= 1))
			return -EINVAL;
		total += spec[i].weight;
	}
	memset(p->layer, 0, sizeof(p->layer));
	for (i = 0; i < n; i++) {
		cum += spec[i].weight;
		p->layer[i].kind = spec[i].kind;
		p->layer[i].decide_max = i + 1 == n ? 0xffffffffU : prob_to_thresh(cum / total);
		p->layer[i].act_thresh = spec[i].kind == PINT_LAYER_XOR ? prob_to_thresh(spec[i].p) : 0;
	}
	p->nr_layers = n;
	return 0;
}

/*
 * The multi-layer scheme (PINT §4.2, "multi-layer"): a Baseline layer, whose
 * packets each pin one hop directly, and XOR layers of p = c/d for c = 1, 2,
 * 4, 8. While u hops are still unknown, the layer with p ~ 1/u is the one
 * whose packets most often hold exactly one unknown hop (probability about
 * 1/e); a spread of p keeps some layer near that optimum in every phase of
 * the decoding, and the peeled equations of the denser layers (like an LT
 * code's) finish the last hops. The weights were tuned with
 * build/bench/pint-eval for k = 25 and hold for other d (Documentation/
 * pint.rst records the tables).
 */
static const struct {
	double weight;
	double c;	/* XOR layers: p = min(1, c / d); Baseline: 0 */
} hybrid_layers[] = {
	{ 0.15, 0 },
	{ 0.25, 1.0 },
	{ 0.25, 2.0 },
	{ 0.20, 4.0 },
	{ 0.15, 8.0 },
};

int pint_path_scheme(struct pint_path_params *p, const char *name, unsigned int d)
{
	struct pint_layer_spec spec[PINT_PATH_MAX_LAYERS];
	unsigned int i, n;
	char *end;
	double x;

	if (!name || d == 0)
		return -EINVAL;
	memset(spec, 0, sizeof(spec));
	if (!strcmp(name, "baseline")) {
		spec[0].kind = PINT_LAYER_BASELINE;
		spec[0].weight = 1;
		n = 1;
	} else if (!strcmp(name, "xor")) {
		spec[0].kind = PINT_LAYER_XOR;
		spec[0].weight = 1;
		spec[0].p = 1.0 / d;
		n = 1;
	} else if (!strncmp(name, "xor:", 4)) {
		x = strtod(name + 4, &end);
		if (end == name + 4 || *end || !(x > 0 && x <= 1))
			return -EINVAL;
		spec[0].kind = PINT_LAYER_XOR;
		spec[0].weight = 1;
		spec[0].p = x;
		n = 1;
	} else if (!strcmp(name, "hybrid")) {
		n = sizeof(hybrid_layers) / sizeof(hybrid_layers[0]);
		for (i = 0; i < n; i++) {
			spec[i].weight = hybrid_layers[i].weight;
			if (hybrid_layers[i].c == 0) {
				spec[i].kind = PINT_LAYER_BASELINE;
			} else {
				spec[i].kind = PINT_LAYER_XOR;
				spec[i].p = hybrid_layers[i].c / d;
				if (spec[i].p > 1)
					spec[i].p = 1;
			}
		}
	} else {
		return -EINVAL;
	}
	return pint_path_set_layers(p, spec, n);
}

int pint_path_set_instances(struct pint_path_params *p, unsigned int n)
{
	if (n < 1 || n > PINT_PATH_MAX_INST || p->bits * n > 32)
		return -EINVAL;
	p->nr_inst = n;
	return 0;
}

int pint_path_params_check(const struct pint_path_params *p)
{
	unsigned int i;

	if (p->bits < 1 || p->bits > 32 || (p->flags & ~PINT_PATH_F_FULL_ID))
		return -EINVAL;
	if (p->nr_inst > PINT_PATH_MAX_INST || pint_path_width(p) > 32)
		return -EINVAL;
	if (p->nr_layers < 1 || p->nr_layers > PINT_PATH_MAX_LAYERS)
		return -EINVAL;
	for (i = 0; i < p->nr_layers; i++) {
		if (p->layer[i].kind != PINT_LAYER_BASELINE && p->layer[i].kind != PINT_LAYER_XOR)
			return -EINVAL;
		if (i && p->layer[i].decide_max < p->layer[i - 1].decide_max)
			return -EINVAL;
	}
	if (p->layer[p->nr_layers - 1].decide_max != 0xffffffffU)
		return -EINVAL;
	return 0;
}

__u32 pint_path_encode(const struct pint_path_params *p, __u32 pid, const __u32 *ids,
		       unsigned int k)
{
	__u32 digest = 0;
	unsigned int i;

	for (i = 0; i < k; i++)
		digest = pint_path_hop(p, pid, i + 1, ids[i], digest);
	return digest;
}

unsigned int pint_path_has_loop(const __u32 *ids, unsigned int k)
{
	unsigned int i, j;

	for (i = 1; i < k; i++)
		for (j = 0; j < i; j++)
			if (ids[i] == ids[j])
				return i + 1;
	return 0;
}
