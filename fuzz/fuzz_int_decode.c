// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_int_decode.c - libFuzzer harness over the INT v2.1 and Telemetry
 * Report v2.0 decoders (lib/int/) and everything `hopmark decode` prints
 * of what they decode: int_decode_ip(), every hop, int_json_int(),
 * int_print_table(); int_rpt_next() over a payload, int_json_report(),
 * int_print_report_table() (inner packets included).
 *
 * Input (fuzz/fuzz_input.h layout, FUZZ_INT_HDR_LEN octets, then the bytes):
 *   octet 0    bit 0: 0 = the rest is an IP packet, 1 = a report payload
 *   octet 1    DSCP value, octet 2 DSCP mask (struct int_signal)
 *   octet 3-4  INT UDP port, big-endian; octet 5 source-only words
 * Harness checks (__builtin_trap): a decoded stack lies inside the bytes
 * given; every JSON object printed parses with json-c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fuzz_input.h"
#include "int/int_print.h"

static FILE *sink_file(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* The JSON text must parse, as a consumer of decode -j parses it. */
static void check_json(const char *s, size_t n)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;

	if (!tok)
		return;
	o = json_tokener_parse_ex(tok, s, (int)n);
	if (!o || json_tokener_get_error(tok) != json_tokener_success)
		__builtin_trap();
	json_object_put(o);
	json_tokener_free(tok);
}

static void packet(const __u8 *b, size_t n, const struct int_signal *sig)
{
	static char out[65536];
	struct int_pkt p;
	struct int_hop h;
	struct hm_jw w;
	__u32 i;

	if (int_decode_ip(b, n, sig, &p))
		return;
	if (p.end_off > n || p.end_off > p.avail ||
	    p.shim_off + INT_FIXED_LEN + (size_t)p.n_hops * p.hop_ml * 4 > p.end_off)
		__builtin_trap();
	for (i = 0; i < p.n_hops; i++)
		if (int_decode_hop(&p, i, &h))
			__builtin_trap();
	hm_jw_init(&w, out, sizeof(out));
	int_json_int(&w, &p);
	if (hm_jw_len(&w) < sizeof(out))
		check_json(out, hm_jw_len(&w));
	int_print_table(sink_file(), &p);
}

static void report(const __u8 *b, size_t n, const struct int_signal *sig)
{
	static char out[1 << 20];
	struct int_rpt_group_hdr g;
	struct int_rpt r;
	size_t off = INT_RPT_GROUP_LEN;
	struct hm_jw w;

	if (!int_rpt_group_decode(b, n, &g)) {
		while (int_rpt_next(b, n, &off, &r) > 0)
			if (r.off + r.total > n || r.inner + r.inner_len > b + n)
				__builtin_trap();
	}
	hm_jw_init(&w, out, sizeof(out));
	int_json_report(&w, b, n, sig);
	if (hm_jw_len(&w) < sizeof(out))
		check_json(out, hm_jw_len(&w));
	int_print_report_table(sink_file(), b, n, sig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct int_signal sig = {};
	__u8 *copy;

	if (size < FUZZ_INT_HDR_LEN)
		return 0;
	sig.dscp = data[1] & 0x3f;
	sig.dscp_mask = data[2] & 0x3f;
	sig.udp_port = (__u16)(data[3] << 8 | data[4]);
	sig.src_only_words = data[5];
	size -= FUZZ_INT_HDR_LEN;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + FUZZ_INT_HDR_LEN, size);
	if (data[0] & 1)
		report(copy, size, &sig);
	else
		packet(copy, size, &sig);
	free(copy);
	return 0;
}
