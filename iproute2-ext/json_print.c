// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * json_print.c - the one print layer of the hopmark command.
 *
 * Every show command prints through these calls, as iproute2's
 * print_uint(PRINT_ANY, "key", "fmt", value) does: with -j the key and
 * value go into a json-c object tree that delete_json_obj() prints at the
 * end (pretty with -p); without -j the format prints the value as text.
 * One call decides both forms, so the JSON keys cannot drift from the text.
 *
 * The JSON document of a show command is an array of objects, one per
 * entry, as `ip -j` prints; a command that shows one state (pint show)
 * prints one object instead (new_json_obj_single()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

#define JSON_DEPTH_MAX	16

static struct json_object *stack[JSON_DEPTH_MAX];
static int depth = -1;

static bool want(enum output_type type)
{
	return json ? (type & PRINT_JSON) : (type & PRINT_FP);
}

static void json_add(const char *key, struct json_object *val)
{
	struct json_object *top;

	if (depth < 0) {
		json_object_put(val);
		return;
	}
	top = stack[depth];
	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, val);
	else
		json_object_object_add(top, key ? key : "", val);
}

static void json_push(const char *key, struct json_object *obj)
{
	if (depth + 1 >= JSON_DEPTH_MAX) {
		fputs("hopmark: JSON nesting too deep\n", stderr);
		abort();
	}
	if (depth >= 0)
		json_add(key, json_object_get(obj));
	stack[++depth] = obj;
}

static void json_pop(void)
{
	if (depth < 0)
		return;
	json_object_put(stack[depth--]);
}

/**
 * new_json_obj() - start a show command's output
 *
 * With -j opens the top-level array; in text mode does nothing.
 */
void new_json_obj(void)
{
	if (json)
		json_push(NULL, json_object_new_array());
}

/**
 * new_json_obj_single() - start a show command whose document is one object
 *
 * With -j opens the top-level object; in text mode does nothing.
 */
void new_json_obj_single(void)
{
	if (json)
		json_push(NULL, json_object_new_object());
}

/**
 * delete_json_obj() - finish the output: print the JSON document (-j)
 */
void delete_json_obj(void)
{
	int flags = pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			     JSON_C_TO_STRING_PLAIN;

	if (!json)
		return;
	while (depth > 0)
		json_pop();
	if (depth == 0) {
		puts(json_object_to_json_string_ext(stack[0], flags |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_pop();
	}
	fflush(stdout);
}

/** open_json_object() - open an object (@key NULL inside an array); JSON only */
void open_json_object(const char *key)
{
	if (json)
		json_push(key, json_object_new_object());
}

/** close_json_object() - close the innermost object; JSON only */
void close_json_object(void)
{
	if (json)
		json_pop();
}

/**
 * open_json_array() - open an array named @key (JSON) or print @key (text)
 * @type:	whether the text form prints anything
 * @key:	the array's key, also printed as text followed by a space
 */
void open_json_array(enum output_type type, const char *key)
{
	if (json) {
		if (type & PRINT_JSON)
			json_push(key, json_object_new_array());
	} else if (type & PRINT_FP) {
		printf("%s ", key);
	}
}

/**
 * close_json_array() - close the innermost array (JSON) or print @delim (text)
 * @type:	whether the text form prints anything
 * @delim:	text printed after the elements
 */
void close_json_array(enum output_type type, const char *delim)
{
	if (json) {
		if (type & PRINT_JSON)
			json_pop();
	} else if ((type & PRINT_FP) && delim) {
		fputs(delim, stdout);
	}
}

/**
 * print_string() - a string field
 * @type:	%PRINT_ANY, %PRINT_FP or %PRINT_JSON
 * @key:	JSON key (NULL inside an array)
 * @fmt:	printf format of the text form, taking one string
 * @value:	the value
 */
void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, json_object_new_string(value));
	else
		printf(fmt, value);
}

/** print_uint() - an unsigned field; @fmt takes an unsigned long long */
void print_uint(enum output_type type, const char *key, const char *fmt, __u64 value)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, json_object_new_uint64(value));
	else
		printf(fmt, (unsigned long long)value);
}

/** print_int() - a signed field; @fmt takes a long long */
void print_int(enum output_type type, const char *key, const char *fmt, __s64 value)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, json_object_new_int64(value));
	else
		printf(fmt, (long long)value);
}

/**
 * print_float() - a real number; @fmt takes a double
 *
 * The JSON form is json-c's (%.17g: the value read back is the same double).
 */
void print_float(enum output_type type, const char *key, const char *fmt, double value)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, json_object_new_double(value));
	else
		printf(fmt, value);
}

/**
 * print_hex() - an unsigned field shown in hex
 *
 * The text form uses @fmt; the JSON form is the string "0x..." (as iproute2
 * prints hex values), so that 56-bit IDs keep their exact value in any
 * JSON reader.
 */
void print_hex(enum output_type type, const char *key, const char *fmt, __u64 value)
{
	char buf[24];

	if (!want(type))
		return;
	if (json) {
		/* Same digits as the text: reuse its "0x%0Nllx" conversion. */
		const char *conv = strstr(fmt, "0x%");

		if (conv && !strchr(conv + 3, ' '))
			snprintf(buf, sizeof(buf), conv, (unsigned long long)value);
		else
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)value);
		json_add(key, json_object_new_string(buf));
	} else {
		printf(fmt, (unsigned long long)value);
	}
}

/** print_bool() - a boolean; text form prints @fmt with "true"/"false" */
void print_bool(enum output_type type, const char *key, const char *fmt, bool value)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, json_object_new_boolean(value));
	else
		printf(fmt, value ? "true" : "false");
}

/**
 * print_null() - a field whose value is unavailable
 *
 * JSON null, as the JSON records of libhopmark print unavailable values;
 * the text form prints @fmt with @text (e.g. "unavailable").
 */
void print_null(enum output_type type, const char *key, const char *fmt, const char *text)
{
	if (!want(type))
		return;
	if (json)
		json_add(key, NULL);
	else
		printf(fmt, text);
}

/**
 * print_percpu_counters() - one member per counter, summed over the CPUs
 * @per:	@ncpu blocks of @n counters, back to back: the value of a
 *		per-CPU map whose struct is { __u64 cnt[@n]; } (int_stats,
 *		pint_stats), cnt of its first element
 * @ncpu:	possible CPUs (libbpf_num_possible_cpus())
 * @n:		counters in a block
 * @names:	the counters' names: JSON key and text label (" NAME SUM")
 *
 * A counter at 0 is in the JSON only, so that text shows what happened.
 *
 * Return: whether any counter is non-zero.
 */
bool print_percpu_counters(const __u64 *per, int ncpu, int n, const char *const *names)
{
	bool any = false;
	char fmt[48];
	__u64 sum;
	int i, j;

	for (j = 0; j < n; j++) {
		for (sum = 0, i = 0; i < ncpu; i++)
			sum += per[(size_t)i * n + j];
		snprintf(fmt, sizeof(fmt), " %s %%llu", names[j]);
		print_uint(sum ? PRINT_ANY : PRINT_JSON, names[j], fmt, sum);
		any |= sum != 0;
	}
	return any;
}

/**
 * print_if_percpu_counters() - the "counters" line of one interface in
 *	`int show` and `postcard show`
 * @sfd:	the family's per-CPU stats map (int_stats, pbt_stats), keyed
 *		by ifindex, whose struct is { __u64 cnt[@n]; }
 * @ifindex:	the interface
 * @per:	room for @ncpu such structs (overwritten)
 * @ncpu:	possible CPUs (libbpf_num_possible_cpus())
 * @n:		counters per CPU
 * @names:	the counters' names (print_percpu_counters())
 *
 * An interface without an entry shows its counters at 0: text " all 0".
 */
void print_if_percpu_counters(int sfd, __u32 ifindex, __u64 *per, int ncpu, int n,
			      const char *const *names)
{
	memset(per, 0, (size_t)ncpu * n * sizeof(*per));
	bpf_map_lookup_elem(sfd, &ifindex, per);
	open_json_object("counters");
	print_text("    counters");
	if (!print_percpu_counters(per, ncpu, n, names))
		print_text(" all 0");
	print_nl();
	close_json_object();
}

/** print_nl() - end a text line; nothing in JSON */
void print_nl(void)
{
	if (!json)
		putchar('\n');
}

/** print_text() - text-only output (labels, indentation) */
void print_text(const char *fmt, ...)
{
	va_list ap;

	if (json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/**
 * print_summary_json() - the per-hop summary as one JSON line on stdout
 * @sum:	the summary (hm_summary_add() of every record)
 * @records:	how many records it sums up
 * @not_decoded: records read that could not be decoded (not in it)
 * @other_ioam:	decode: IOAM options that are not a Pre-allocated Trace
 *		(the text's "other IOAM options"); NULL: no such key
 *
 * Prints {"summary":{"records":N,"not_decoded":M,["other_ioam":O,]"hops":[...]}},
 * "hops" being the array of hm_summary_print()'s JSON form (latencies in
 * us; Documentation/json-record.rst), so that a reader of JSON record lines
 * tells the summary from a record by its only key, "summary".
 */
void print_summary_json(const struct hm_summary *sum, __u64 records, __u64 not_decoded,
			const __u64 *other_ioam)
{
	struct json_object *o = NULL, *inner = NULL, *lib = NULL, *hops = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		goto fail;
	hm_summary_print(sum, f, 1);
	if (fclose(f))
		goto fail;
	lib = json_tokener_parse(buf);
	if (!lib || !json_object_object_get_ex(lib, "hops", &hops))
		goto fail;
	o = json_object_new_object();
	inner = json_object_new_object();
	if (!o || !inner)
		goto fail;
	json_object_object_add(inner, "records", json_object_new_uint64(records));
	json_object_object_add(inner, "not_decoded", json_object_new_uint64(not_decoded));
	if (other_ioam)
		json_object_object_add(inner, "other_ioam", json_object_new_uint64(*other_ioam));
	json_object_object_add(inner, "hops", json_object_get(hops));
	json_object_object_add(o, "summary", inner);
	inner = NULL;
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	goto out;
fail:
	fputs("hopmark: cannot print the summary: out of memory\n", stderr);
out:
	json_object_put(inner);
	json_object_put(o);
	json_object_put(lib);
	free(buf);
}
