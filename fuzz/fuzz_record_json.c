// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_record_json.c - libFuzzer harness over the JSON record reader:
 * what `hopmark monitor` does with a line of hopmarkd's monitor socket or
 * of its -o file (Documentation/json-record.rst). The input is the line;
 * json-c parses it, hm_record_from_json() turns an object into a struct
 * hm_record, which is rendered as the monitor renders it (table, summary)
 * and printed again; the line hm_record_write_json() writes must be the
 * bytes json-c prints for the same record.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "hopmark.h"

static FILE *null_file(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hm_record r;
	struct json_tokener *tok;
	struct json_object *obj, *again;
	struct hm_summary *s;
	FILE *f = null_file();

	tok = json_tokener_new();
	if (!tok)
		return 0;
	obj = json_tokener_parse_ex(tok, (const char *)data, size);
	json_tokener_free(tok);
	if (!obj)
		return 0;
	if (!hm_record_from_json(obj, &r)) {
		/* A record read back prints as the line it was read from. */
		again = hm_record_to_json(&r);
		if (again && !json_object_equal(obj, again))
			__builtin_trap();
		/* The DOM-free writer's line is json-c's, byte for byte. */
		if (again) {
			const char *want = json_object_to_json_string_ext(again,
					JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
			size_t n = hm_record_write_json(NULL, 0, &r), wl = strlen(want);
			char *line = malloc(n + 1);

			if (line) {
				if (hm_record_write_json(line, n + 1, &r) != n || n != wl + 1 ||
				    memcmp(line, want, wl) || line[wl] != '\n')
					__builtin_trap();
				free(line);
			}
		}
		json_object_put(again);
		if (r.trace.n_nodes > HM_MAX_HOPS)
			__builtin_trap();
		hm_record_print_table(f, &r);
		hm_record_print_json(f, &r);
		s = hm_summary_new();
		if (s) {
			hm_summary_add(s, &r);
			hm_summary_add(s, &r);
			hm_summary_print(s, f, 0);
			hm_summary_print(s, f, 1);
			hm_summary_free(s);
		}
	}
	json_object_put(obj);
	return 0;
}
