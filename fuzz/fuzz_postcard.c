// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_postcard.c - libFuzzer harness over the JSON form of a postcard
 * (lib/postcard/postcard_json.c): what hopmarkd does with a hopmark
 * module event. The IOAM option, the node data and the packet headers come
 * from the wire; the input fills every field of a struct hm_postcard as
 * fuzz/fuzz_input.h lays it out. Each buffer is an exact-size heap copy so
 * that AddressSanitizer sees a read past any of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fuzz_input.h"
#include "postcard/postcard.h"

static FILE *null_file(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* @n octets of @p in a heap block of exactly that size (1 for none). */
static __u8 *copy(const __u8 *p, size_t n)
{
	__u8 *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_postcard pc = {};
	__u8 *nd, *opt, *hdr;
	const __u8 *p = data + FUZZ_PC_HDR_LEN;
	size_t left, nd_len, opt_len;
	struct json_object *o;
	__u8 which;

	if (size < FUZZ_PC_HDR_LEN)
		return 0;
	pc.type = data[0];
	which = data[1];
	pc.present = fuzz_be(data + 2, 2);
	pc.omit = data[4];
	pc.trace_type = fuzz_be(data + 7, 3);
	pc.ns_id = fuzz_be(data + 10, 2);
	pc.flow_id = fuzz_be(data + 12, 4);
	pc.seq = fuzz_be(data + 16, 4);
	pc.ts_ns = fuzz_be(data + 20, 8);
	pc.ifindex = fuzz_be(data + 28, 4);
	pc.node_id = fuzz_be(data + 32, 4);
	pc.node_id_wide = fuzz_be(data + 36, 8);
	pc.pkt_len = fuzz_be(data + 44, 4);

	left = size - FUZZ_PC_HDR_LEN;
	nd_len = data[5] < left ? data[5] : left;
	left -= nd_len;
	opt_len = data[6] < left ? data[6] : left;
	left -= opt_len;
	nd = copy(p, nd_len);
	opt = copy(p + nd_len, opt_len);
	hdr = copy(p + nd_len + opt_len, left);
	if (!nd || !opt || !hdr)
		goto out;
	if (which & FUZZ_PC_HAS_NODE_DATA) {
		pc.node_data = nd;
		pc.node_data_len = nd_len;
	}
	if (which & FUZZ_PC_HAS_OPTION) {
		pc.option = opt;
		pc.option_len = opt_len;
	}
	if (which & FUZZ_PC_HAS_HEADERS) {
		pc.headers = hdr;
		pc.headers_len = left;
	}

	o = hm_postcard_to_json(&pc);
	/* NULL only for an unknown type (or out of memory, which ASan would report). */
	if (!o && hm_postcard_type_name(pc.type))
		__builtin_trap();
	if (o) {
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), null_file());
		json_object_put(o);
	}
	if (hm_postcard_print_json(null_file(), &pc) == -EIO && hm_postcard_type_name(pc.type))
		__builtin_trap();
out:
	free(nd);
	free(opt);
	free(hdr);
	return 0;
}
