// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_path.c - PINT path-tracing schemes in userspace: turning a user's
 * layer description into the integer thresholds of struct pint_path_params,
 * the named schemes (Baseline, XOR, the paper's interleaving "hybrid" and
 * "multilayer", hopmark's older "ladder5"), and a whole-path
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
 * ladder5: the five-layer mixture hopmark used as "hybrid" before it had
 * the paper's interleaving: a Baseline layer and XOR layers of p = c/d for
 * c = 1, 2, 4, 8. While u hops are still unknown, the layer with p ~ 1/u
 * is the one whose packets most often hold exactly one unknown hop
 * (probability about 1/e); the spread of p keeps some layer near that in
 * every phase of the decoding. The weights were tuned with
 * build/bench/pint-eval at k = d = 25 only; at other path lengths they are
 * not optimal, and the paper's interleaving beats them (Documentation/
 * pint.rst, "Coding schemes compared").
 */
static const struct {
	double weight;
	double c;	/* XOR layers: p = min(1, c / d); Baseline: 0 */
} ladder5_layers[] = {
	{ 0.15, 0 },
	{ 0.25, 1.0 },
	{ 0.25, 2.0 },
	{ 0.20, 4.0 },
	{ 0.15, 8.0 },
};

/*
 * Defaults of "hybrid" (PINT §4.2, interleaving Baseline and XOR): each
 * packet is a Baseline packet with probability tau, an XOR packet of
 * probability p otherwise. tau = 0.4 and p = min(5/d, 1/2) were measured
 * with build/bench/pint-eval over k = d = 5..59 and b = 1..16
 * (Documentation/pint.rst, "Coding schemes compared"): p near 5/d leaves
 * the XOR packets with few enough acting hops that, once Baseline packets
 * have pinned most hops, most XOR packets peel; above 1/2 (d < 10) an XOR
 * packet would hold most of the path and rarely peel.
 */
#define HYBRID_DEF_TAU	0.4
#define HYBRID_DEF_C	5.0
#define HYBRID_DEF_P_MAX 0.5

/* Default Baseline share of "multilayer" (Documentation/pint.rst). */
#define MULTILAYER_DEF_TAU	0.5

/*
 * A probability value of a scheme string: "X" (0 < X <= 1) or, when
 * @allow_d, "C/d": the constant C over the tuned path length @d (capped at
 * 1), so that one string tunes itself to every path length.
 * Return: 0 with *out set, or -EINVAL.
 */
static int parse_prob(const char *s, size_t len, unsigned int d, int allow_d, double *out)
{
	char buf[32], *end;
	double x;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	x = strtod(buf, &end);
	if (end == buf || !(x > 0))
		return -EINVAL;
	if (allow_d && !strcmp(end, "/d")) {
		x /= d;
		if (x > 1)
			x = 1;
	} else if (*end || x > 1) {
		return -EINVAL;
	}
	*out = x;
	return 0;
}

/*
 * "hybrid[:tau=T,p=P]" and "multilayer[:tau=T,p=P,...]": a Baseline layer
 * of weight tau, then the XOR layers of the p values given (multilayer:
 * each p adds a layer, the layers share 1 - tau equally; hybrid: one p at
 * most). @args is what follows the ':' (NULL: defaults only).
 * Return: the number of layers written to @spec, or -EINVAL.
 */
static int parse_interleaved(const char *args, unsigned int d, int multi,
			     struct pint_layer_spec *spec)
{
	static const double tower[] = { 1.0, 2.718281828459045, 15.154262241479262 };
	double tau = multi ? MULTILAYER_DEF_TAU : HYBRID_DEF_TAU, p[PINT_PATH_MAX_LAYERS - 1];
	unsigned int np = 0, i, have_tau = 0;
	const char *s = args;

	while (s && *s) {
		size_t len = strcspn(s, ",");

		if (len > 4 && !strncmp(s, "tau=", 4)) {
			if (have_tau++ || parse_prob(s + 4, len - 4, d, 0, &tau) || !(tau < 1))
				return -EINVAL;
		} else if (len > 2 && !strncmp(s, "p=", 2)) {
			if (np == (multi ? PINT_PATH_MAX_LAYERS - 1u : 1u) ||
			    parse_prob(s + 2, len - 2, d, 1, &p[np]))
				return -EINVAL;
			np++;
		} else {
			return -EINVAL;
		}
		s += len;
		if (*s == ',' && !*++s)
			return -EINVAL;		/* trailing comma */
	}
	if (s && s == args)
		return -EINVAL;			/* "hybrid:" with nothing after */
	if (!np && !multi) {
		p[0] = HYBRID_DEF_C / d;
		if (p[0] > HYBRID_DEF_P_MAX)
			p[0] = HYBRID_DEF_P_MAX;
		np = 1;
	}
	/*
	 * multilayer's default XOR layers: p_l = e^^(l-1) / d for l = 1, 2, ...
	 * (e^^0 = 1, e^^1 = e, e^^2 = e^e), every layer with p < 1: log* d
	 * layers, 3 for 16 <= d <= 64.
	 */
	for (i = 0; !np && i < sizeof(tower) / sizeof(tower[0]) && tower[i] < d; i++)
		p[i] = tower[i] / d;
	if (!np)
		np = i;
	if (!np)
		p[np++] = 1;	/* d = 1: the only hop, xored alone */
	spec[0].kind = PINT_LAYER_BASELINE;
	spec[0].weight = tau;
	for (i = 0; i < np; i++) {
		spec[i + 1].kind = PINT_LAYER_XOR;
		spec[i + 1].weight = (1 - tau) / np;
		spec[i + 1].p = p[i];
	}
	return np + 1;
}

int pint_path_scheme(struct pint_path_params *p, const char *name, unsigned int d)
{
	struct pint_layer_spec spec[PINT_PATH_MAX_LAYERS];
	unsigned int i, n;
	char *end;
	double x;
	int r;

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
	} else if (!strcmp(name, "ladder5")) {
		n = sizeof(ladder5_layers) / sizeof(ladder5_layers[0]);
		for (i = 0; i < n; i++) {
			spec[i].weight = ladder5_layers[i].weight;
			if (ladder5_layers[i].c == 0) {
				spec[i].kind = PINT_LAYER_BASELINE;
			} else {
				spec[i].kind = PINT_LAYER_XOR;
				spec[i].p = ladder5_layers[i].c / d;
				if (spec[i].p > 1)
					spec[i].p = 1;
			}
		}
	} else if (!strcmp(name, "hybrid") || !strncmp(name, "hybrid:", 7)) {
		r = parse_interleaved(name[6] ? name + 7 : NULL, d, 0, spec);
		if (r < 0)
			return r;
		n = r;
	} else if (!strcmp(name, "multilayer") || !strncmp(name, "multilayer:", 11)) {
		r = parse_interleaved(name[10] ? name + 11 : NULL, d, 1, spec);
		if (r < 0)
			return r;
		n = r;
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
