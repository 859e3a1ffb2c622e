// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_ioam_decode.c - libFuzzer harness over everything libhopmark does
 * with bytes from the wire: hm_ipv6_find_ioam(), hm_ioam_trace_decode(),
 * hm_record_from_packet() / hm_record_from_ring(), and the renderings of
 * whatever decodes (JSON, table, summary).
 *
 * The first input octet chooses the entry point (mode % 3):
 *   0  the rest is an IPv6 packet (what `hopmark decode` reads from pcap)
 *   1  the rest is an IOAM option from its option type octet on
 *   2  the rest is a sink's ring buffer record (what hopmarkd reads)
 * Build and run: make fuzz-run FUZZ_SECS=60 (fuzz/build.mk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "hopmark.h"
#include "fuzz_input.h"

static FILE *sink_file(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void render(const struct hm_record *r)
{
	struct json_object *o = hm_record_to_json(r);
	struct hm_summary *s = hm_summary_new();
	FILE *f = sink_file();

	if (o) {
		/* Walk the whole object as a consumer would. */
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), f);
		json_object_put(o);
	}
	hm_record_print_json(f, r);
	hm_record_print_table(f, r);
	if (s) {
		hm_summary_add(s, r);
		hm_summary_add(s, r);
		hm_summary_print(s, f, 0);
		hm_summary_print(s, f, 1);
		hm_summary_free(s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hm_record r;
	struct hm_pkt_info info;
	size_t off, opt_len, len;
	__u8 *copy;

	copy = fuzz_tail_copy(data, size, &len);
	if (!copy)
		return 0;

	switch (data[0] % 3) {
	case 0:
		if (!hm_ipv6_find_ioam(copy, len, &info, &off, &opt_len) &&
		    (off + opt_len > len || off < 40))
			__builtin_trap();	/* the option must lie inside the packet */
		if (!hm_record_from_packet(copy, len, 1700000000000000000ULL, &r))
			render(&r);
		break;
	case 1:
		memset(&r, 0, sizeof(r));
		r.sink_if_id = 0xffff;
		r.sink_node_id = 0xffffff;
		if (!hm_ioam_trace_decode(copy, len, &r.trace)) {
			if (r.trace.n_nodes > HM_MAX_HOPS)
				__builtin_trap();
			render(&r);
		}
		break;
	default:
		if (len >= sizeof(struct hopmark_ioam_record) &&
		    !hm_record_from_ring(copy, len, 5, &r))
			render(&r);
		break;
	}
	free(copy);
	return 0;
}
