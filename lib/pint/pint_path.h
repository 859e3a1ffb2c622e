/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_path.h - PINT path tracing (static per-flow aggregation, PINT paper
 * §4.2): the per-hop encoder, shared by BPF and userspace, and the API of
 * the sink's decoder (lib/pint/pint_decode.c).
 *
 * A packet carries a b-bit digest (1 <= b <= 32; the datapath uses b <= 16).
 * The source sets it to 0. The decider hash puts each packet in one coding
 * layer; in a layer of kind
 *   Baseline  hop i overwrites the digest with h(ID_i, pid) when
 *             g(pid, i) <= floor(2^32 / i) - 1, i.e. with probability 1/i
 *             (reservoir sampling: the last writer is uniform on the path);
 *   XOR       hop i xors h(ID_i, pid) into the digest when
 *             g(pid, i) <= act_thresh, i.e. with probability p.
 * The interleaved schemes (PINT §4.2; pint_path_scheme()) mix one Baseline
 * layer and XOR layers of different p. The sink recomputes D and g for
 * every hop, so it knows which hops acted, and peels the xors.
 *
 * Full-ID digests (PINT_PATH_F_FULL_ID): h(ID, pid) = ID itself (every ID
 * must be < 2^b). Otherwise h is the seeded value hash of pint_hash.h.
 *
 * Independent instances (@nr_inst of struct pint_path_params, the paper's
 * "two 8-bit hashes" configuration of its 16-bit evaluation): the path
 * field is @nr_inst digests of b bits each, instance i in bits
 * [i * b, (i + 1) * b) -- for 2x8, instance 0 in the low octet and
 * instance 1 in the high octet of the 16-bit field. Instance i runs the
 * whole scheme above (layer, act and value hashes) with its own packet ID
 * pid_i = pint_path_inst_pid(pid, i): pid_0 = pid, so one instance is
 * exactly the scheme without instances, and pid_i = pint_hash32(seed.decider
 * ^ PINT_PATH_INST_SALT, pid, i) for i >= 1. A hash of the packet ID makes
 * every choice of instance 1 (its layer, the hops that act, the digests
 * they write) independent of instance 0's, so one packet gives the sink two
 * independent b-bit equations instead of one 2b-bit one.
 *
 * Everything up to "userspace API" is libc-free and safe in BPF: integer
 * thresholds only, bounded loops.
 */
#ifndef __HOPMARK_PINT_PATH_H
#define __HOPMARK_PINT_PATH_H

#include <linux/types.h>
#include "pint/pint_hash.h"

#define PINT_PATH_MAX_LAYERS	8
#define PINT_PATH_MAX_INST	2	/* independent instances per packet */

/* Salt of the per-instance packet IDs (pint_path_inst_pid()): "INST". */
#define PINT_PATH_INST_SALT	0x494e5354U

/* Coding layer kinds. */
#define PINT_LAYER_BASELINE	0
#define PINT_LAYER_XOR		1

/* Flags of struct pint_path_params. */
#define PINT_PATH_F_FULL_ID	0x01	/* digest = value (value < 2^bits) */

/**
 * struct pint_path_layer - one coding layer
 * @decide_max:	the packet is in this layer if it is the first layer with
 *		D(pid, PINT_DECIDE_PATH_LAYER) <= @decide_max (cumulative;
 *		the last layer has 0xffffffff)
 * @act_thresh:	XOR layer: a hop acts iff g(pid, hop) <= @act_thresh
 *		(probability (act_thresh + 1) / 2^32); unused for Baseline
 * @kind:	%PINT_LAYER_BASELINE or %PINT_LAYER_XOR
 * @pad:	zero
 */
struct pint_path_layer {
	__u32	decide_max;
	__u32	act_thresh;
	__u8	kind;
	__u8	pad[3];
};

/**
 * struct pint_path_params - a path-tracing scheme, identical at every node
 *			      and the sink (a BPF map value as is)
 * @seeds:	the domain's hash seeds
 * @bits:	digest width b in bits, 1..32
 * @flags:	%PINT_PATH_F_FULL_ID
 * @nr_layers:	number of valid entries in @layer, 1..%PINT_PATH_MAX_LAYERS
 * @nr_inst:	independent instances in the path field, each of @bits bits;
 *		0 and 1 both mean one (a zeroed field keeps older values
 *		valid), 2 = e.g. the paper's 2x8 configuration
 * @layer:	the coding layers, in decider order
 *
 * The path field is pint_path_width() = @bits * instances bits wide.
 * Build it with pint_path_params_init() and pint_path_set_layers() (or the
 * scheme helpers) and pint_path_set_instances(); pint_path_params_check()
 * validates one read from a map.
 */
struct pint_path_params {
	struct pint_seeds	seeds;
	__u8			bits;
	__u8			flags;
	__u8			nr_layers;
	__u8			nr_inst;
	struct pint_path_layer	layer[PINT_PATH_MAX_LAYERS];
};

/**
 * pint_path_layer_of() - the coding layer of a packet
 * @p:		scheme
 * @pid:	packet ID
 *
 * Return: the layer index, 0..nr_layers-1.
 */
static inline __u32 pint_path_layer_of(const struct pint_path_params *p, __u32 pid)
{
	__u32 d = pint_decide(&p->seeds, pid, PINT_DECIDE_PATH_LAYER);
	__u32 l;

	for (l = 0; l < PINT_PATH_MAX_LAYERS; l++) {
		if (l + 1 >= p->nr_layers || d <= p->layer[l].decide_max)
			return l;
	}
	return PINT_PATH_MAX_LAYERS - 1;
}

/**
 * pint_path_acts() - does hop @hop act on packet @pid in layer @l?
 * @p:		scheme
 * @l:		the packet's layer (pint_path_layer_of())
 * @pid:	packet ID
 * @hop:	hop number, >= 1 (hop 0 never acts)
 *
 * Return: 1 if the hop writes (Baseline) or xors (XOR) its value hash, else 0.
 */
static inline int pint_path_acts(const struct pint_path_params *p, __u32 l, __u32 pid,
				 __u32 hop)
{
	__u32 g, t;

	if (hop == 0 || l >= PINT_PATH_MAX_LAYERS)
		return 0;
	g = pint_act(&p->seeds, pid, hop);
	if (p->layer[l].kind == PINT_LAYER_BASELINE)
		t = pint_prob_thresh_baseline(hop);
	else
		t = p->layer[l].act_thresh;
	return g <= t;
}

/**
 * pint_path_value_digest() - h(value, pid) as this scheme encodes it
 * @p:		scheme
 * @value:	switch ID
 * @pid:	packet ID
 *
 * Return: @value itself (masked to b bits) for full-ID digests, else the
 * b-bit value hash.
 */
static inline __u32 pint_path_value_digest(const struct pint_path_params *p, __u32 value,
					   __u32 pid)
{
	if (p->flags & PINT_PATH_F_FULL_ID)
		return value & pint_bits_mask(p->bits);
	return pint_value_hash(&p->seeds, value, pid, p->bits);
}

/**
 * pint_path_hop_one() - what hop @hop does to one instance's digest
 * @p:		scheme
 * @pid:	the instance's packet ID (pint_path_inst_pid())
 * @hop:	this node's hop number on the path, 1 for the first PINT node
 * @value:	this node's switch ID
 * @digest:	the instance's digest as received (low b bits)
 *
 * The complete per-hop PINT path-tracing step: constant time, two or three
 * hashes, no floating point, no memory beyond @p.
 *
 * Return: the digest to forward (low b bits).
 */
static inline __u32 pint_path_hop_one(const struct pint_path_params *p, __u32 pid, __u32 hop,
				      __u32 value, __u32 digest)
{
	__u32 l = pint_path_layer_of(p, pid);
	__u32 v;

	digest &= pint_bits_mask(p->bits);
	if (!pint_path_acts(p, l, pid, hop))
		return digest;
	v = pint_path_value_digest(p, value, pid);
	if (p->layer[l].kind == PINT_LAYER_BASELINE)
		return v;
	return digest ^ v;
}

/**
 * pint_path_instances() - number of independent instances of a scheme
 * @p:		scheme
 *
 * Return: 1..%PINT_PATH_MAX_INST (@nr_inst, 0 read as 1).
 */
static inline __u32 pint_path_instances(const struct pint_path_params *p)
{
	return p->nr_inst > 1 ? p->nr_inst : 1;
}

/**
 * pint_path_width() - bits of the whole path field
 * @p:		scheme
 *
 * Return: b times the number of instances.
 */
static inline __u32 pint_path_width(const struct pint_path_params *p)
{
	return (__u32)p->bits * pint_path_instances(p);
}

/**
 * pint_path_inst_pid() - the packet ID instance @i uses
 * @p:		scheme (its decider seed salts the derivation)
 * @pid:	the packet's ID (pint_maps.h)
 * @i:		instance, 0..%PINT_PATH_MAX_INST-1
 *
 * Return: @pid for instance 0, else pint_hash32(seed.decider ^
 * %PINT_PATH_INST_SALT, @pid, @i).
 */
static inline __u32 pint_path_inst_pid(const struct pint_path_params *p, __u32 pid, __u32 i)
{
	if (i == 0)
		return pid;
	return pint_hash32(p->seeds.decider ^ PINT_PATH_INST_SALT, pid, i);
}

/**
 * pint_path_inst_digest() - instance @i's digest in the path field
 * @p:		scheme
 * @field:	the whole path field
 * @i:		instance
 *
 * Return: bits [i * b, (i + 1) * b) of @field, in the low b bits.
 */
static inline __u32 pint_path_inst_digest(const struct pint_path_params *p, __u32 field,
					  __u32 i)
{
	__u32 sh = i * p->bits;

	return sh >= 32 ? 0 : (field >> sh) & pint_bits_mask(p->bits);
}

/**
 * pint_path_hop() - what hop @hop does to the path field of packet @pid
 * @p:		scheme
 * @pid:	packet ID
 * @hop:	this node's hop number on the path, 1 for the first PINT node
 * @value:	this node's switch ID
 * @field:	the path field as received (low pint_path_width() bits)
 *
 * The complete per-hop PINT path-tracing step: pint_path_hop_one() on
 * every instance's digest with that instance's packet ID; constant time,
 * a bounded loop of at most %PINT_PATH_MAX_INST rounds, no floating point,
 * no memory beyond @p. Bits above pint_path_width() come out 0.
 *
 * Return: the path field to forward.
 */
static inline __u32 pint_path_hop(const struct pint_path_params *p, __u32 pid, __u32 hop,
				  __u32 value, __u32 field)
{
	__u32 n = pint_path_instances(p), out = 0, i, d, sh;

	for (i = 0; i < PINT_PATH_MAX_INST; i++) {
		if (i >= n)
			break;
		sh = i * p->bits;
		if (sh >= 32)
			break;
		d = pint_path_hop_one(p, pint_path_inst_pid(p, pid, i), hop, value,
				      pint_path_inst_digest(p, field, i));
		out |= d << sh;
	}
	return out;
}

/* ---------------- userspace API (lib/pint/pint_path.c, lib/pint/pint_decode.c) ---------------- */
#ifndef __bpf__

/**
 * struct pint_layer_spec - a coding layer as a user describes it
 * @kind:	%PINT_LAYER_BASELINE or %PINT_LAYER_XOR
 * @weight:	share of packets in this layer (weights are normalised)
 * @p:		XOR layer: probability that a hop acts, (0, 1]
 */
struct pint_layer_spec {
	int	kind;
	double	weight;
	double	p;
};

/**
 * pint_path_params_init() - an empty scheme
 * @p:		scheme to fill
 * @seeds:	hash seeds, or NULL for the defaults PINT_SEED_*
 * @bits:	digest width, 1..32
 * @flags:	%PINT_PATH_F_FULL_ID or 0
 *
 * Return: 0, or -EINVAL for a bad width or unknown flag.
 */
int pint_path_params_init(struct pint_path_params *p, const struct pint_seeds *seeds,
			  unsigned int bits, unsigned int flags);

/**
 * pint_path_set_layers() - set the coding layers from user specs
 * @p:		scheme (seeds, bits, flags already set)
 * @spec:	@n layer specs
 * @n:		1..%PINT_PATH_MAX_LAYERS
 *
 * Converts weights and probabilities to the integer thresholds the
 * datapath compares against (floating point stays here, in userspace).
 *
 * Return: 0, or -EINVAL (bad count, kind, weight <= 0, p outside (0, 1]).
 */
int pint_path_set_layers(struct pint_path_params *p, const struct pint_layer_spec *spec,
			 unsigned int n);

/**
 * pint_path_scheme() - one of the named schemes (PINT §4.2, path tracing)
 * @p:		scheme (pint_path_params_init() done)
 * @name:	the scheme and its parameters:
 *		"baseline"	Baseline on every packet;
 *		"xor"		XOR on every packet, p = 1/@d;
 *		"xor:P"		XOR on every packet, p = P;
 *		"hybrid:tau=T,p=P"
 *				the paper's interleaving: a packet is Baseline
 *				with probability T, else XOR with p = P; T in
 *				(0, 1), default 0.4; P in (0, 1] or "C/d" (C
 *				over @d, capped at 1), default min(5/@d, 1/2);
 *				either key may be left out, "hybrid" alone
 *				takes both defaults;
 *		"multilayer:tau=T,p=P1,p=P2,..."
 *				the paper's multi-layer form: Baseline with
 *				probability T (default 0.5), the other packets
 *				shared equally by one XOR layer per p given (at
 *				most %PINT_PATH_MAX_LAYERS - 1); without p, the
 *				layers p = e^^(l-1) / @d for l = 1, 2, ... that
 *				are below 1 (1/d, e/d, e^e/d: log* @d layers);
 *		"ladder5"	hopmark's older mixture: Baseline 0.15, XOR
 *				p = 1/@d, 2/@d, 4/@d, 8/@d with 0.25, 0.25,
 *				0.20, 0.15 (tuned at @d = 25 only)
 * @d:		the longest path length the scheme is tuned for, in hops
 *
 * Keys are separated by ',' and appear at most once (p: once for hybrid).
 *
 * Return: 0; or -EINVAL for an unknown name, a bad, repeated or missing
 * value, an empty key or @d = 0, @p then unchanged.
 */
int pint_path_scheme(struct pint_path_params *p, const char *name, unsigned int d);

/**
 * pint_path_set_instances() - carry @n independent instances per packet
 * @p:		scheme (pint_path_params_init() done; @bits is one instance's)
 * @n:		1..%PINT_PATH_MAX_INST
 *
 * Return: 0, or -EINVAL for a bad count or a field wider than 32 bits.
 */
int pint_path_set_instances(struct pint_path_params *p, unsigned int n);

/**
 * pint_path_params_check() - validate a scheme (e.g. read from a map)
 * @p:		scheme
 *
 * Return: 0 when usable by pint_path_hop() and the decoder, else -EINVAL.
 */
int pint_path_params_check(const struct pint_path_params *p);

/**
 * pint_path_encode() - run a whole path over one packet (simulation, tests)
 * @p:		scheme
 * @pid:	packet ID
 * @ids:	switch IDs of hops 1..@k, in path order
 * @k:		hop count
 *
 * Return: the path field the sink receives (source starts at 0), every
 * instance's digest in its place.
 */
__u32 pint_path_encode(const struct pint_path_params *p, __u32 pid, const __u32 *ids,
		       unsigned int k);

/**
 * struct pint_topo - what the decoder knows about the network
 * @nr_nodes:	number of switches (the candidate universe)
 * @node_id:	switch ID (the value hops encode) of each node index
 * @adj_off:	CSR offsets into @adj (nr_nodes + 1 entries), or NULL when no
 *		adjacency is known (topology-blind decoding only)
 * @adj:	neighbour node indices, undirected, no duplicates
 *
 * Borrowed by the decoder for its lifetime; gml_to_topo() fills one.
 */
struct pint_topo {
	unsigned int		nr_nodes;
	const __u32		*node_id;
	const unsigned int	*adj_off;
	const unsigned int	*adj;
};

/* Decoder options (pint_decoder_new()). */
#define PINT_DEC_F_TOPO_AWARE	0x01	/* consecutive hops must be adjacent */

/* Result bits of pint_decoder_add(). */
#define PINT_DEC_COMPLETE	0x01	/* every hop known (state after this packet) */
#define PINT_DEC_NEW_PATH	0x02	/* this packet completed the path */
#define PINT_DEC_ROUTE_CHANGE	0x04	/* inconsistency: inference restarted */
#define PINT_DEC_LOOP		0x08	/* path repeats a switch or is too long */
#define PINT_DEC_IGNORED	0x10	/* packet not usable (hop count 0 or too long) */

/**
 * struct pint_decoder_stats - counters of one decoder
 * @packets:		packets given to pint_decoder_add()
 * @packets_to_decode:	packets of the current path inference up to the
 *			one that completed it (0 while incomplete)
 * @route_changes:	restarts after an inconsistency or hop count change
 * @loops:		paths reported as loops (repeat or too many hops)
 * @ignored:		packets ignored (hop count 0 or above the maximum)
 * @dropped_eqs:	XOR equations not kept (too many unknowns or full table)
 */
struct pint_decoder_stats {
	unsigned long	packets;
	unsigned long	packets_to_decode;
	unsigned long	route_changes;
	unsigned long	loops;
	unsigned long	ignored;
	unsigned long	dropped_eqs;
};

struct pint_decoder;

/**
 * pint_decoder_new() - a decoder for one flow
 * @p:		the domain's scheme (copied)
 * @topo:	candidate switches (borrowed); with %PINT_DEC_F_TOPO_AWARE its
 *		adjacency must be given
 * @flags:	%PINT_DEC_F_TOPO_AWARE or 0
 * @max_hops:	hop counts above this are reported as loops (and ignored);
 *		at most %PINT_DECODE_MAX_HOPS
 *
 * Return: the decoder, or NULL with errno EINVAL (bad scheme, no nodes,
 * topology-aware without adjacency, max_hops 0 or too big) or ENOMEM.
 */
struct pint_decoder *pint_decoder_new(const struct pint_path_params *p,
				      const struct pint_topo *topo, unsigned int flags,
				      unsigned int max_hops);

#define PINT_DECODE_MAX_HOPS	64

/**
 * pint_decoder_free() - release a decoder
 * @d:		decoder or NULL
 */
void pint_decoder_free(struct pint_decoder *d);

/**
 * pint_decoder_reset() - forget the flow's inference (keep counters)
 * @d:		decoder
 */
void pint_decoder_reset(struct pint_decoder *d);

/**
 * pint_decoder_add() - feed one packet received by the sink
 * @d:		decoder
 * @pid:	packet ID
 * @digest:	the path field received (low pint_path_width() bits used)
 * @hops:	number of PINT hops the packet crossed (1..max_hops)
 *
 * With several instances (pint_path_set_instances()) each instance's
 * digest is one more equation, taken in instance order with its own
 * packet ID (pint_path_inst_pid()); a packet still counts once in
 * @packets and @packets_to_decode. When a later instance restarts the
 * inference, the earlier instances of the same packet are given again to
 * the new inference (they came over the same path). The result is the OR
 * of the instances' bits, except that %PINT_DEC_COMPLETE is the state
 * after the whole packet and %PINT_DEC_IGNORED is set only when no
 * instance's digest was used (@ignored counts digests).
 *
 * Candidate sets per hop are narrowed by every packet whose equation has
 * a single unknown hop (a Baseline packet, or an XOR packet once the other
 * acting hops are known); other XOR equations wait and are peeled as hops
 * become known. In topology-aware mode candidates of consecutive hops must
 * be adjacent (arc consistency along the path). An empty candidate set, an
 * equation with no unknown that does not hold, or a new hop count means
 * the route changed: the inference restarts from this packet.
 *
 * Return: an OR of PINT_DEC_* bits.
 */
unsigned int pint_decoder_add(struct pint_decoder *d, __u32 pid, __u32 digest,
			      unsigned int hops);

/**
 * pint_decoder_path() - the decoded path
 * @d:		decoder
 * @ids:	filled with the switch IDs of hops 1..k when complete
 * @max:	room in @ids
 *
 * Return: k when the whole path is known, 0 while incomplete, -ENOSPC if
 * @max < k.
 */
int pint_decoder_path(const struct pint_decoder *d, __u32 *ids, unsigned int max);

/**
 * pint_decoder_candidates() - size of hop @hop's candidate set
 * @d:		decoder
 * @hop:	1..k
 *
 * Return: the number of switches still possible at @hop, or -EINVAL.
 */
int pint_decoder_candidates(const struct pint_decoder *d, unsigned int hop);

/**
 * pint_decoder_stats() - the decoder's counters
 * @d:		decoder
 *
 * Return: pointer to its counters (valid until pint_decoder_free()).
 */
const struct pint_decoder_stats *pint_decoder_stats(const struct pint_decoder *d);

/**
 * pint_path_has_loop() - does a path repeat a switch?
 * @ids:	switch IDs
 * @k:		hop count
 *
 * Return: the 1-based hop of the first repeat, or 0.
 */
unsigned int pint_path_has_loop(const __u32 *ids, unsigned int k);

#endif /* !__bpf__ */
#endif /* __HOPMARK_PINT_PATH_H */
