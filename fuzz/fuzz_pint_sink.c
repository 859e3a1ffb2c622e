// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_pint_sink.c - libFuzzer harness over the PINT sink in userspace:
 * pint_frame_parse() (the datapath's parsing of a frame), and hopmarkd's
 * sink thread: the domain settings read from the pint_cfg map checked by
 * pint_domain_cfg_check() and taken by pint_sink_new(), optionally a
 * topology (pint_sink_set_topology(), through gml_parse()), then ring
 * buffer records fed to pint_sink_add() (lib/pint/pint_sink.c), whose path
 * field goes to the decoder (lib/pint/pint_decode.c), and the state as
 * JSON; and the byte form of the latency sketches (kll_deserialize(),
 * lib/pint/kll.c). fuzz/fuzz_input.h says how the input is cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fuzz_input.h"
#include "pint/gml.h"
#include "pint/kll.h"
#include "pint/pint_path.h"
#include "pint/pint_sink.h"

static FILE *null_file(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void frame(const __u8 *data, size_t size)
{
	struct pint_frame_info fi;
	__u8 *copy = malloc(size ? size : 1);

	if (!copy)
		return;
	memcpy(copy, data, size);
	if (!pint_frame_parse(copy, size, &fi) && fi.family != 4 && fi.family != 6)
		__builtin_trap();
	free(copy);
}

static void sink(const __u8 *data, size_t size)
{
	static struct pint_domain_cfg cfg;
	const struct pint_sink_stats *st;
	struct gml_graph g = {};
	struct pint_topo topo;
	struct pint_sink *s;
	struct json_object *o;
	char gml[16384], err[128];	/* 64 nodes, 127 edges: about 5 KB */
	size_t off, n;
	__u8 *rec;

	if (size < FUZZ_PINT_CFG_LEN + 1)
		return;
	memset(&cfg, 0, sizeof(cfg));
	memcpy(&cfg, data, FUZZ_PINT_CFG_LEN);
	s = pint_sink_new(&cfg);
	if (!s) {
		/* Refused settings are refused by the check, not by luck. */
		if (errno == EINVAL && !pint_domain_cfg_check(&cfg) &&
		    (cfg.q_lat == PINT_QUERY_NONE))
			__builtin_trap();
		return;
	}
	if (data[FUZZ_PINT_CFG_LEN]) {
		n = fuzz_pint_topo_gml(gml, sizeof(gml), data[FUZZ_PINT_CFG_LEN], cfg.id_min,
				       cfg.id_max);
		if (gml_parse(gml, n, &g, err, sizeof(err)))
			__builtin_trap();	/* the text is ours */
		gml_to_topo(&g, &topo);
		if (pint_sink_set_topology(s, &topo))
			__builtin_trap();
	}
	for (off = FUZZ_PINT_CFG_LEN + 1; off < size; off += sizeof(struct pint_record)) {
		n = size - off;
		if (n > sizeof(struct pint_record))
			n = sizeof(struct pint_record);
		rec = malloc(n);	/* exact size: ASan sees a read past the record */
		if (!rec)
			break;
		memcpy(rec, data + off, n);
		pint_sink_add(s, rec, n);
		free(rec);
	}
	st = pint_sink_stats(s);
	if (st->bad_records > st->records || st->flows > PINT_SINK_MAX_FLOWS)
		__builtin_trap();
	o = pint_sink_to_json(s);
	if (!o)
		__builtin_trap();
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), null_file());
	json_object_put(o);
	pint_sink_free(s);
	gml_free(&g);
}

/*
 * A sketch that deserialises serialises back to the same bytes, answers
 * quantiles, and keeps working: updates, a merge.
 */
static void sketch(const __u8 *data, size_t size)
{
	static const double qs[3] = { 0.5, 0.9, 0.99 };
	struct kll_sketch *sk, *sk2;
	double out[3];
	__u8 *copy, *again;
	ssize_t n;
	int err, i;

	copy = malloc(size ? size : 1);
	if (!copy)
		return;
	memcpy(copy, data, size);
	sk = kll_deserialize(copy, size, &err);
	if (!sk) {
		/* Malformed or truncated: an input this small never runs out of memory. */
		if (err != -EINVAL && err != -EMSGSIZE)
			__builtin_trap();
		free(copy);
		return;
	}
	again = malloc(size ? size : 1);
	if (!again || kll_serialized_size(sk) != size ||
	    (n = kll_serialize(sk, again, size)) != (ssize_t)size || memcmp(copy, again, size))
		__builtin_trap();
	kll_quantiles(sk, qs, 3, out);
	sk2 = kll_deserialize(copy, size, &err);
	if (!sk2)
		__builtin_trap();
	for (i = 0; i < 16; i++)
		kll_update(sk, i * 1000.0);
	kll_merge(sk, sk2);
	kll_quantiles(sk, qs, 3, out);
	kll_free(sk2);
	kll_free(sk);
	free(again);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		frame(data + 1, size - 1);
		break;
	case 1:
		sink(data + 1, size - 1);
		break;
	default:
		sketch(data + 1, size - 1);
		break;
	}
	return 0;
}
