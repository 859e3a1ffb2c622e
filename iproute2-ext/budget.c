// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * budget.c - "hopmark budget": the in-band metadata budget model of seed
 * 000 (lib/budget/budget.h), its four panels with the seed's constants,
 * rows and numbers, then the same panels under INT v2.1 §5.3's 16-byte
 * convention, the IOAM pre-allocated trace and PINT; "hopmark budget node"
 * sets this node's configured traces against their devices' MTUs. Also
 * the MTU warning the configuring commands print
 * (budget_warn_ioam_prealloc(), budget_warn_int_md()).
 * Documentation/budget.rst shows the output.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"
#include "budget/budget.h"
#include "int/int.h"
#include "int/int_maps.h"
#include "ioam/ioam6.h"
#include "ipv4/ipv4.h"
#include "pint/pint_maps.h"

#define BUDGET_COLS_MAX		4	/* --mtu and --hops values */
#define BUDGET_SAMPLING_MAX	8	/* --sampling values */
#define BUDGET_LABEL_MAX	48
#define BUDGET_MODE_FMT		"  %-40s"	/* panel A's first column */

/* The seed's defaults. */
#define BUDGET_RATE_BPS		12.8e12
#define BUDGET_PKT_BYTES	800.0
#define BUDGET_HOP_ML		4	/* panels B and D: 4-word entries */

/**
 * struct budget_sampling - one row of panel C
 * @fraction:	share of packets exporting metadata, (0, 1]
 * @label:	what the row is called
 */
struct budget_sampling {
	double	fraction;
	char	label[BUDGET_LABEL_MAX];
};

/**
 * struct budget_opts - the model's parameters, the seed's unless an option
 * changes them
 * @mtu:	panel A's byte budgets (max-hops columns), bytes
 * @n_mtu:	how many
 * @hops:	panel A's hop counts (bytes columns); panels B and D use the
 *		last one
 * @n_hops:	how many
 * @hop_ml:	words per hop of panels B and D (4, or --bitmap's Hop ML)
 * @has_bitmap:	--bitmap given: @bitmap adds an INT-MD row
 * @bitmap:	INT Instruction Bitmap, host order
 * @has_tt:	--trace-type given: @trace_type adds IOAM rows
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @rate_bps:	panel C's switch rate, bit/s
 * @pkt_bytes:	panel C's average packet size, bytes
 * @sampling:	panel C's rows
 * @n_sampling:	how many
 */
struct budget_opts {
	__u32			mtu[BUDGET_COLS_MAX];
	int			n_mtu;
	__u32			hops[BUDGET_COLS_MAX];
	int			n_hops;
	__u32			hop_ml;
	bool			has_bitmap;
	__u16			bitmap;
	bool			has_tt;
	__u32			trace_type;
	double			rate_bps;
	double			pkt_bytes;
	struct budget_sampling	sampling[BUDGET_SAMPLING_MAX];
	int			n_sampling;
};

/* How a panel A row grows with the hop count. */
enum budget_kind {
	BUDGET_LINEAR,		/* fixed + hops x per-hop */
	BUDGET_PREALLOC,	/* IOAM pre-allocated: the whole Hop-by-Hop header */
};

/**
 * struct budget_row - one row of a panel A table
 * @mode:	what the row is
 * @kind:	%BUDGET_LINEAR or %BUDGET_PREALLOC
 * @per_hop:	bytes per hop
 * @fixed:	bytes whatever the hop count (%BUDGET_PREALLOC: unused, the
 *		header is hm_budget_ioam_prealloc_bytes())
 */
struct budget_row {
	char			mode[BUDGET_LABEL_MAX];
	enum budget_kind	kind;
	__u32			per_hop;
	__u32			fixed;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark [ -j ] budget [ OPTIONS ]\n"
		"       hopmark [ -j ] budget node [ --hops N ]\n"
		"       hopmark budget help\n"
		"where  OPTIONS := [ --mtu BYTES[,BYTES...] ] [ --hops N[,N...] ]\n"
		"                  [ --bitmap BITMAP ] [ --trace-type TYPE ]\n"
		"                  [ --rate RATE ] [ --pkt BYTES ] [ --sampling F[,F...] ] [ -j ]\n"
		"       --mtu       byte budgets of panel A's max-hops columns (default 1500,900)\n"
		"       --hops      hop counts of panel A's bytes columns (default 8,16);\n"
		"                   panels B and D use the last\n"
		"       --bitmap    INT Instruction Bitmap, 16 bits: adds its INT-MD row, and\n"
		"                   panels B and D use its Hop ML instead of 4 words\n"
		"       --trace-type 24-bit IOAM-Trace-Type: adds its incremental and\n"
		"                   pre-allocated rows\n"
		"       RATE := bit/s, with an optional k, M, G or T (default 12.8T)\n"
		"       --pkt       panel C's average packet size (default 800)\n"
		"       F := 1:N or a fraction in (0, 1] (default 1:1,1:1000,1e-5,1:1e6)\n"
		"       node        this node's INT domain and IOAM encapsulation rules\n"
		"                   against their devices' MTUs (--hops: INT hops, default\n"
		"                   the domain's max-hops)\n"
		"Up to %d values per list, %d for --sampling. Documentation/budget.rst\n"
		"describes the model.\n", BUDGET_COLS_MAX, BUDGET_SAMPLING_MAX);
}

/* A comma-separated list of numbers in [@min, @max]; names @opt when bad. */
static int parse_u32_list(const char *arg, const char *opt, __u32 min, __u32 max,
			  __u32 *out, int out_max)
{
	char buf[128], msg[96], *tok, *save = NULL;
	int n = 0;
	__u64 v;

	if (strlen(arg) >= sizeof(buf))
		invarg("the list is too long", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == out_max) {
			snprintf(msg, sizeof(msg), "%s takes at most %d values", opt, out_max);
			invarg(msg, arg);
		}
		if (get_u64_max(&v, tok, max) || v < min) {
			snprintf(msg, sizeof(msg), "%s needs numbers %u..%u", opt, min, max);
			invarg(msg, arg);
		}
		out[n++] = v;
	}
	if (!n) {
		snprintf(msg, sizeof(msg), "%s needs at least one number", opt);
		invarg(msg, arg);
	}
	return n;
}

/* A positive finite real; the whole word must be the number. */
static bool parse_real(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*v) && *v > 0;
}

/* RATE: bit/s with an optional SI prefix k, M, G or T (and "bit"/"bps"). */
static double parse_rate(const char *arg)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "", 1 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 },
	};
	char buf[64], *end;
	size_t len;
	double v;
	unsigned int i;

	if (strlen(arg) >= sizeof(buf))
		invarg("rate must be a number of bit/s, e.g. 12.8T or 100G", arg);
	strcpy(buf, arg);
	len = strlen(buf);
	if (len > 3 && (!strcmp(buf + len - 3, "bps") || !strcmp(buf + len - 3, "bit")))
		buf[len - 3] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || !isfinite(v) || v <= 0)
		invarg("rate must be a positive number of bit/s, e.g. 12.8T or 100G", arg);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].sfx))
			return v * units[i].mul;
	invarg("rate's unit must be k, M, G or T (bit/s)", arg);
}

/* --sampling: 1:N or a fraction, each in (0, 1]. */
static int parse_sampling(const char *arg, struct budget_sampling *out)
{
	char buf[128], msg[96], *tok, *save = NULL;
	double v, d;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		invarg("the list is too long", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (n == BUDGET_SAMPLING_MAX) {
			snprintf(msg, sizeof(msg), "--sampling takes at most %d values",
				 BUDGET_SAMPLING_MAX);
			invarg(msg, arg);
		}
		if (colon) {
			*colon = '\0';
			if (strcmp(tok, "1") || !parse_real(colon + 1, &d) || d < 1)
				invarg("sampling 1:N needs N >= 1", arg);
			v = 1.0 / d;
			snprintf(out[n].label, sizeof(out[n].label), "sampled 1:%s", colon + 1);
		} else {
			if (!parse_real(tok, &v) || v > 1)
				invarg("sampling needs 1:N or a fraction in (0, 1]", arg);
			snprintf(out[n].label, sizeof(out[n].label), "fraction %s", tok);
		}
		out[n++].fraction = v;
	}
	if (!n)
		invarg("--sampling needs at least one value", arg);
	return n;
}

static void default_opts(struct budget_opts *o)
{
	static const struct budget_sampling seed[] = {
		{ 1.0,	"full rate 1:1" },
		{ 1e-3,	"sampled 1:1000" },
		{ 1e-5,	"triggered, top 0.01 % of flows" },
		{ 1e-6,	"sampled 1:1e6" },
	};

	memset(o, 0, sizeof(*o));
	o->mtu[0] = 1500;
	o->mtu[1] = 900;
	o->n_mtu = 2;
	o->hops[0] = 8;
	o->hops[1] = 16;
	o->n_hops = 2;
	o->hop_ml = BUDGET_HOP_ML;
	o->rate_bps = BUDGET_RATE_BPS;
	o->pkt_bytes = BUDGET_PKT_BYTES;
	memcpy(o->sampling, seed, sizeof(seed));
	o->n_sampling = sizeof(seed) / sizeof(seed[0]);
}

/* Whether @word is option @name: "--mtu", "-mtu" and "mtu" alike. */
static bool is_opt(const char *word, const char *name)
{
	while (*word == '-')
		word++;
	return !strcmp(word, name);
}

static __u32 last_hops(const struct budget_opts *o)
{
	return o->hops[o->n_hops - 1];
}

/* Panel A's bytes at @hops hops; false when a pre-allocated trace cannot. */
static bool row_bytes(const struct budget_row *r, __u32 hops, __u64 *bytes)
{
	if (r->kind == BUDGET_LINEAR) {
		*bytes = hm_budget_bytes(r->fixed, r->per_hop, hops);
		return true;
	}
	/* One option's data area is at most 244 bytes (8-bit Opt Data Len). */
	if ((__u64)hops * r->per_hop > HM_IOAM_TRACE_DATA_MAX)
		return false;
	*bytes = hm_budget_ioam_prealloc_bytes(hops * r->per_hop);
	return true;
}

static long row_max_hops(const struct budget_row *r, __u32 budget)
{
	if (r->kind == BUDGET_LINEAR)
		return hm_budget_max_hops(r->fixed, r->per_hop, budget);
	return hm_budget_ioam_prealloc_max_hops(r->per_hop, budget);
}

static void print_rows(const struct budget_opts *o, const struct budget_row *rows, int n)
{
	char label[32];
	int i, j;

	print_text(BUDGET_MODE_FMT " %7s %5s", "mode", "per-hop", "fixed");
	for (j = 0; j < o->n_hops; j++) {
		snprintf(label, sizeof(label), "bytes@%u", o->hops[j]);
		print_text(" %9s", label);
	}
	for (j = 0; j < o->n_mtu; j++) {
		snprintf(label, sizeof(label), "max-hops@%u", o->mtu[j]);
		print_text(" %14s", label);
	}
	print_text("\n");
	open_json_array(PRINT_JSON, "rows");
	for (i = 0; i < n; i++) {
		const struct budget_row *r = &rows[i];
		__u32 fixed = r->kind == BUDGET_LINEAR ? r->fixed :
			      hm_budget_ioam_prealloc_bytes(0);
		__u64 bytes;
		long mh;

		open_json_object(NULL);
		print_string(PRINT_ANY, "mode", BUDGET_MODE_FMT, r->mode);
		print_uint(PRINT_ANY, "per_hop", " %7llu", r->per_hop);
		print_uint(PRINT_ANY, "fixed", " %5llu", fixed);
		open_json_array(PRINT_JSON, "bytes");
		for (j = 0; j < o->n_hops; j++) {
			open_json_object(NULL);
			print_uint(PRINT_JSON, "hops", NULL, o->hops[j]);
			if (row_bytes(r, o->hops[j], &bytes))
				print_uint(PRINT_ANY, "bytes", " %9llu", bytes);
			else
				print_null(PRINT_ANY, "bytes", " %9s", "-");
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
		open_json_array(PRINT_JSON, "max_hops");
		for (j = 0; j < o->n_mtu; j++) {
			open_json_object(NULL);
			print_uint(PRINT_JSON, "mtu", NULL, o->mtu[j]);
			mh = row_max_hops(r, o->mtu[j]);
			if (mh == HM_BUDGET_HOPS_UNLIMITED)
				print_null(PRINT_ANY, "max_hops", " %14s", "inf");
			else
				print_int(PRINT_ANY, "max_hops", " %14lld", mh);
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static void row_set(struct budget_row *r, enum budget_kind kind, __u32 per_hop, __u32 fixed,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void row_set(struct budget_row *r, enum budget_kind kind, __u32 per_hop, __u32 fixed,
		    const char *fmt, ...)
{
	va_list ap;

	r->kind = kind;
	r->per_hop = per_hop;
	r->fixed = fixed;
	va_start(ap, fmt);
	vsnprintf(r->mode, sizeof(r->mode), fmt, ap);
	va_end(ap);
}

/* The INT-MD rows of panel A under a fixed-length convention. */
static int int_rows(const struct budget_opts *o, __u32 fixed, struct budget_row *rows)
{
	int n = 0;

	row_set(&rows[n++], BUDGET_LINEAR, 2 * HM_BUDGET_WORD, fixed,
		"INT-MD spec example (node ID + queue)");
	row_set(&rows[n++], BUDGET_LINEAR, 4 * HM_BUDGET_WORD, fixed,
		"INT-MD ports + hop latency (4 words)");
	row_set(&rows[n++], BUDGET_LINEAR, INT_HOP_ML_MAX * HM_BUDGET_WORD, fixed,
		"INT-MD worst case (Hop ML %u)", INT_HOP_ML_MAX);
	if (o->has_bitmap)
		row_set(&rows[n++], BUDGET_LINEAR, int_bitmap_words(o->bitmap) * HM_BUDGET_WORD,
			fixed, "INT-MD bitmap 0x%04x (%u words)", o->bitmap,
			int_bitmap_words(o->bitmap));
	return n;
}

static void panel_open(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void panel_open(const char *key, const char *fmt, ...)
{
	char title[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	open_json_object(key);
	print_string(PRINT_JSON, "title", NULL, title);
	print_text("\n%s. %s\n", key, title);
}

static void panel_a(const struct budget_opts *o, const char *key, __u32 int_fixed, bool seed)
{
	struct budget_row rows[8];
	int n;

	panel_open(key, "In-band bytes against the MTU (INT fixed header %u B%s)", int_fixed,
		   seed ? ", the seed's convention" : ": INT v2.1 Section 5.3, shim + header");
	print_uint(PRINT_JSON, "int_fixed", NULL, int_fixed);
	n = int_rows(o, int_fixed, rows);
	if (seed) {
		row_set(&rows[n++], BUDGET_LINEAR, 2 * HM_BUDGET_WORD, HM_BUDGET_IOAM_FIXED,
			"IOAM incremental trace, 2 data fields");
		row_set(&rows[n++], BUDGET_LINEAR, 5 * HM_BUDGET_WORD, HM_BUDGET_IOAM_FIXED,
			"IOAM incremental trace, 5 data fields");
		if (o->has_tt)
			row_set(&rows[n++], BUDGET_LINEAR, hm_ioam6_node_data_len(o->trace_type),
				HM_BUDGET_IOAM_FIXED, "IOAM incremental, trace-type 0x%06x",
				o->trace_type);
		row_set(&rows[n++], BUDGET_LINEAR, 0, HM_BUDGET_POSTCARD, "Postcard (trigger)");
	}
	print_rows(o, rows, n);
	if (!seed)
		print_text("  (IOAM and postcard rows as in panel A)\n");
	close_json_object();
}

static void panel_b(const struct budget_opts *o, const char *key, __u32 int_fixed)
{
	static const __u32 sizes[] = { 1500, 900, 256, 64 };
	__u32 hops = last_hops(o);
	__u64 added = hm_budget_int_md_bytes(int_fixed, o->hop_ml, hops, 0);
	unsigned int i;

	panel_open(key, "Overhead of %u-hop INT-MD with %u-word entries on small packets",
		   hops, o->hop_ml);
	print_uint(PRINT_JSON, "int_fixed", NULL, int_fixed);
	print_uint(PRINT_JSON, "hops", NULL, hops);
	print_uint(PRINT_JSON, "hop_ml", NULL, o->hop_ml);
	print_text("  added = %u + %u x %u x %u = %llu B\n", int_fixed, hops, o->hop_ml,
		   HM_BUDGET_WORD, (unsigned long long)added);
	print_text("  %6s %6s %6s %9s\n", "packet", "added", "total", "overhead");
	open_json_array(PRINT_JSON, "rows");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		open_json_object(NULL);
		print_uint(PRINT_ANY, "packet", "  %6llu", sizes[i]);
		print_uint(PRINT_ANY, "added", " %6llu", added);
		print_uint(PRINT_ANY, "total", " %6llu", sizes[i] + added);
		print_float(PRINT_ANY, "overhead_pct", " %8.1f%%",
			    hm_budget_overhead_pct(added, sizes[i]));
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

/* 12.8e12 -> "12.8 Tbps": the largest SI prefix that leaves at least 1. */
static void rate_text(double bps, char *buf, size_t len)
{
	static const struct { const char *unit; double div; } units[] = {
		{ "Tbps", 1e12 }, { "Gbps", 1e9 }, { "Mbps", 1e6 }, { "kbps", 1e3 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (bps >= units[i].div) {
			snprintf(buf, len, "%g %s", bps / units[i].div, units[i].unit);
			return;
		}
	}
	snprintf(buf, len, "%g bps", bps);
}

static void panel_c(const struct budget_opts *o)
{
	char rate[48];
	__u64 pps = hm_budget_pps(o->rate_bps, o->pkt_bytes);
	int i;

	rate_text(o->rate_bps, rate, sizeof(rate));
	panel_open("C", "Metadata generation rate at one %s switch, %g B average packet",
		   rate, o->pkt_bytes);
	print_float(PRINT_JSON, "rate_bps", NULL, o->rate_bps);
	print_float(PRINT_JSON, "pkt_bytes", NULL, o->pkt_bytes);
	print_uint(PRINT_ANY, "pps", "  %llu packets/s", pps);
	print_uint(PRINT_ANY, "record", ", %llu B of metadata per exported packet",
		   HM_BUDGET_EXPORT_RECORD);
	print_float(PRINT_ANY, "broker_gbyte_s", ", one Kafka broker takes %.1f GB/s\n",
		    HM_BUDGET_BROKER_GBYTES);
	print_text("  %-32s %10s %10s %10s  %s\n", "sampling", "fraction", "Gbit/s", "GB/s",
		   "one broker keeps up");
	open_json_array(PRINT_JSON, "rows");
	for (i = 0; i < o->n_sampling; i++) {
		double gbps = hm_budget_export_gbps(pps, o->sampling[i].fraction,
						    HM_BUDGET_EXPORT_RECORD);
		double gbyte = gbps / 8;

		open_json_object(NULL);
		print_string(PRINT_ANY, "sampling", "  %-32s", o->sampling[i].label);
		print_float(PRINT_ANY, "fraction", " %10g", o->sampling[i].fraction);
		print_float(PRINT_ANY, "gbit_s", " %10.3f", gbps);
		print_float(PRINT_ANY, "gbyte_s", " %10.3f", gbyte);
		print_bool(PRINT_JSON, "keeps_up", NULL, gbyte <= HM_BUDGET_BROKER_GBYTES);
		print_text("  %s", gbyte <= HM_BUDGET_BROKER_GBYTES ? "yes" : "no");
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

static void panel_d_row(const char *what, __u32 hop_ml, __u32 hops, __u32 fixed)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "example", "  %-30s", what);
	print_uint(PRINT_ANY, "hop_ml", " %llu", hop_ml);
	print_uint(PRINT_ANY, "hops", " x 4 x %llu", hops);
	print_uint(PRINT_ANY, "fixed", " + %llu", fixed);
	print_uint(PRINT_ANY, "bytes", " = %llu B",
		   hm_budget_int_md_bytes(fixed, hop_ml, hops, 0));
	print_nl();
	close_json_object();
}

static void panel_d(const struct budget_opts *o, const char *key, __u32 int_fixed, bool seed)
{
	bool seed_trace = o->hop_ml == BUDGET_HOP_ML && last_hops(o) == 16;

	panel_open(key, "The spec's MTU differential: Hop ML x 4 x hops + fixed (%u B)",
		   int_fixed);
	open_json_array(PRINT_JSON, "rows");
	panel_d_row(seed_trace ? (seed ? "seed 000" : "seed 000, 16 B convention") :
		    "panel B's trace", o->hop_ml, last_hops(o), int_fixed);
	/* §5.3's own example: Hop ML 2 over 8 hops, 64 + 16 = 80 B. */
	if (!seed)
		panel_d_row("INT v2.1 Section 5.3 example", 2, 8, int_fixed);
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

static void panel_prealloc(const struct budget_opts *o)
{
	struct budget_row rows[3];
	int n = 0;

	panel_open("E", "IOAM pre-allocated trace: the whole Hop-by-Hop header, fixed at encapsulation");
	print_text("  header = 2 (Next Header, Hdr Ext Len) + 2 (PadN) + 4 (option) + 8 (trace)\n"
		   "           + hops x per-hop, padded to 8; data area at most %u B (\"-\": more)\n",
		   HM_IOAM_TRACE_DATA_MAX);
	row_set(&rows[n++], BUDGET_PREALLOC, 2 * HM_BUDGET_WORD, 0,
		"IOAM pre-allocated trace, 2 data fields");
	row_set(&rows[n++], BUDGET_PREALLOC, 5 * HM_BUDGET_WORD, 0,
		"IOAM pre-allocated trace, 5 data fields");
	if (o->has_tt)
		row_set(&rows[n++], BUDGET_PREALLOC, hm_ioam6_node_data_len(o->trace_type), 0,
			"IOAM pre-allocated, trace-type 0x%06x", o->trace_type);
	print_rows(o, rows, n);
	close_json_object();
}

static void panel_pint(const struct budget_opts *o)
{
	struct budget_row rows[4];
	int n = 0;

	panel_open("F", "PINT: a constant b-bit digest, whatever the path length");
	row_set(&rows[n++], BUDGET_LINEAR, 0, hm_budget_pint_bytes(8), "PINT digest, b = 8 bits");
	row_set(&rows[n++], BUDGET_LINEAR, 0, hm_budget_pint_bytes(PINT_WIRE_BITS),
		"PINT digest, b = %u bits", PINT_WIRE_BITS);
	row_set(&rows[n++], BUDGET_LINEAR, 0, 0, "PINT over IPv4 (in Identification)");
	row_set(&rows[n++], BUDGET_LINEAR, 0, PINT_IP6_HBH_LEN, "PINT over IPv6 (Hop-by-Hop)");
	print_rows(o, rows, n);
	close_json_object();
}

static void print_model(const struct budget_opts *o)
{
	new_json_obj_single();
	print_text("The in-band metadata budget model (seed 000); Documentation/budget.rst\n");
	panel_a(o, "A", HM_BUDGET_SEED_INT_FIXED, true);
	panel_b(o, "B", HM_BUDGET_SEED_INT_FIXED);
	panel_c(o);
	panel_d(o, "D", HM_BUDGET_SEED_INT_FIXED, true);
	print_text("\nUnder the spec's 16-byte convention (INT v2.1 Section 5.3: 4 B shim + 12 B header)\n");
	panel_a(o, "A16", HM_BUDGET_SPEC_INT_FIXED, false);
	panel_b(o, "B16", HM_BUDGET_SPEC_INT_FIXED);
	print_text("\nC16. Panel C counts exported metadata, no header: as panel C\n");
	panel_d(o, "D16", HM_BUDGET_SPEC_INT_FIXED, false);
	print_text("\nBeyond the seed\n");
	panel_prealloc(o);
	panel_pint(o);
	delete_json_obj();
}

/**
 * budget_dev_mtu() - the MTU of a network device
 * @ifindex:	the device
 * @mtu:	output, bytes
 *
 * SIOCGIFMTU on a socket of this network namespace (sysfs may be another
 * namespace's under nsenter --net).
 *
 * Return: 0, or -errno (-ENODEV when @ifindex names no device).
 */
int budget_dev_mtu(__u32 ifindex, __u32 *mtu)
{
	struct ifreq ifr;
	int fd, err = 0;

	memset(&ifr, 0, sizeof(ifr));
	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		err = -errno;
	else
		*mtu = ifr.ifr_mtu;
	close(fd);
	return err;
}

static void fit_hops_text(long hops, char *buf, size_t len)
{
	if (hops == HM_BUDGET_HOPS_UNLIMITED)
		snprintf(buf, len, "any number of");
	else
		snprintf(buf, len, "%ld", hops < 0 ? 0 : hops);
}

/**
 * budget_warn_ioam_prealloc() - warn when a Pre-allocated Trace cannot fit
 * the encapsulating device's MTU
 * @dev:	device name as typed, for the message
 * @ifindex:	the device
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @size:	pre-allocated data area, bytes (checked by the caller)
 *
 * Prints to stderr "Warning: ..." naming the trace's bytes (its whole
 * Hop-by-Hop header, hm_budget_ioam_prealloc_bytes()), the MTU of @dev and
 * the hops a trace of this Trace-Type fits at that MTU, when the IPv6
 * header and the trace exceed the MTU (hm_budget_ioam_prealloc_fit()).
 * The rule is configured all the same: the datapath sends such packets
 * without the trace and counts them (encap_skip_mtu).
 *
 * Return: 1 when it warned, 0 when the trace fits, -errno when the MTU
 * could not be read (nothing printed).
 */
int budget_warn_ioam_prealloc(const char *dev, __u32 ifindex, __u32 trace_type, __u32 size)
{
	struct hm_budget_fit fit;
	char hops[24];
	__u32 mtu, area;
	int err;

	err = budget_dev_mtu(ifindex, &mtu);
	if (err)
		return err;
	err = hm_budget_ioam_prealloc_fit(trace_type, size, mtu, &fit);
	if (err < 0)
		return err;
	if (err)
		return 0;
	/* The largest data area (4n) whose header fits beside the IPv6 header. */
	area = HM_IOAM_TRACE_DATA_MAX;
	while (area >= 4 && fit.carrier + hm_budget_ioam_prealloc_bytes(area) > mtu)
		area -= 4;
	fit_hops_text(fit.fit_hops, hops, sizeof(hops));
	fprintf(stderr,
		"Warning: the pre-allocated trace takes %llu bytes (Hop-by-Hop header, %u-byte data area for %u hops) and with the %u-byte IPv6 header cannot fit the MTU %u of %s; at that MTU a data area of %u bytes fits, %s hops of trace-type 0x%06x.\n",
		(unsigned long long)fit.bytes, size, fit.hops, fit.carrier, mtu, dev,
		area < 4 ? 0 : area, hops, trace_type);
	return 1;
}

/**
 * budget_warn_int_md() - warn when an INT-MD trace cannot fit a device's MTU
 * @dev:	device name, for the message
 * @mtu:	MTU the datapath holds packets to on @dev (int_if_cfg.mtu, or
 *		the device's when that is 0: budget_dev_mtu()), bytes
 * @bitmap:	Instruction Bitmap, host order
 * @max_hops:	Remaining Hop Count the source starts with
 * @npt:	shim Next Protocol Type the domain's signalling gives (0 DSCP,
 *		1 UDP, 2 TCP under UDP-port signalling: the worst case of a
 *		domain is 2 for %INT_SIG_UDP)
 * @carrier:	IP + L4 header bytes of the smallest packet considered (e.g.
 *		%HM_IPV4_HDR_LEN + 8)
 *
 * For the INT configuring commands (hopmark int set / enable): prints to
 * stderr "Warning: ..." naming the trace's bytes after @max_hops hops
 * (INT v2.1 §5.3: Hop ML x 4 x hops + 16, + 8 with NPT=2), the MTU and
 * @dev, and the hops this bitmap fits, when the carrier headers and the
 * trace exceed @mtu (hm_budget_int_md_fit()). Nodes past that hop set M.
 *
 * Return: 1 when it warned, 0 when the trace fits, -EINVAL for bad
 * arguments (nothing printed).
 */
int budget_warn_int_md(const char *dev, __u32 mtu, __u16 bitmap, __u32 max_hops, __u32 npt,
		       __u32 carrier)
{
	struct hm_budget_fit fit;
	char hops[24];
	int err;

	err = hm_budget_int_md_fit(bitmap, max_hops, npt, carrier, mtu, &fit);
	if (err < 0)
		return err;
	if (err)
		return 0;
	fit_hops_text(fit.fit_hops, hops, sizeof(hops));
	fprintf(stderr,
		"Warning: the INT-MD trace takes %llu bytes after %u hops (bitmap 0x%04x, Hop ML %u, NPT %u) and with %u bytes of headers cannot fit the MTU %u of %s; at that MTU it fits %s hops, later ones set M.\n",
		(unsigned long long)fit.bytes, max_hops, bitmap, int_bitmap_words(bitmap), npt,
		carrier, mtu, dev, hops);
	return 1;
}

/* Whether the map pinned at @fd holds values of @size bytes (our layout). */
static bool map_value_size_is(int fd, __u32 size)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return !bpf_obj_get_info_by_fd(fd, &info, &len) && info.value_size == size;
}

static void node_fit(const struct hm_budget_fit *fit)
{
	print_uint(PRINT_ANY, "bytes", " bytes %llu", fit->bytes);
	print_uint(PRINT_ANY, "mtu", " mtu %llu", fit->mtu);
	print_bool(PRINT_ANY, "fits", " fits %s", fit->fits);
	if (fit->fit_hops == HM_BUDGET_HOPS_UNLIMITED)
		print_null(PRINT_ANY, "fit_hops", " fit-hops %s", "inf");
	else
		print_int(PRINT_ANY, "fit_hops", " fit-hops %lld", fit->fit_hops);
}

/* This node's IOAM encapsulation rules against their devices' MTUs. */
static void node_ioam(void)
{
	struct hopmark_encap_key key, next;
	struct hopmark_encap_cfg cfg;
	struct hm_budget_fit fit;
	char pfx[INET6_ADDRSTRLEN + 8], dev[IF_NAMESIZE];
	__u32 mtu;
	int fd, err;

	open_json_array(PRINT_JSON, "ioam_encap");
	fd = hm_map_open(HM_MAP_ENCAP);
	if (fd < 0 || !map_value_size_is(fd, sizeof(cfg))) {
		if (fd >= 0)
			close(fd);
		close_json_array(PRINT_JSON, NULL);
		return;
	}
	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err) {
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &cfg) && cfg.ifindex &&
		    !budget_dev_mtu(cfg.ifindex, &mtu) &&
		    hm_budget_ioam_prealloc_fit(cfg.trace_type, cfg.size, mtu, &fit) >= 0) {
			format_ipv6_prefix(&key, pfx, sizeof(pfx));
			open_json_object(NULL);
			print_string(PRINT_ANY, "prefix", "ioam encap %s", pfx);
			print_string(PRINT_ANY, "dev", " dev %s", ifname_or_index(cfg.ifindex, dev));
			print_hex(PRINT_ANY, "trace_type", " trace-type 0x%06llx", cfg.trace_type);
			print_uint(PRINT_ANY, "size", " size %llu", cfg.size);
			print_uint(PRINT_ANY, "hops", " hops %llu", fit.hops);
			node_fit(&fit);
			print_nl();
			close_json_object();
			if (!fit.fits)
				budget_warn_ioam_prealloc(dev, cfg.ifindex, cfg.trace_type,
							  cfg.size);
		}
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	close(fd);
	close_json_array(PRINT_JSON, NULL);
}

/* This node's INT domain against the MTU of each INT source/transit device. */
static void node_int(__u32 hops_opt)
{
	struct int_domain_cfg dom;
	struct int_if_cfg ifc;
	struct hm_budget_fit fit;
	char dev[IF_NAMESIZE];
	__u32 key = 0, ifindex, next, mtu, hops, npt;
	int fd, ifd, err;

	open_json_array(PRINT_JSON, "int");
	fd = hm_map_open(INT_MAP_CFG);
	ifd = hm_map_open(INT_MAP_IFCFG);
	/* A layout other than this hopmark's is not read (nor overrun). */
	if (fd < 0 || ifd < 0 || !map_value_size_is(fd, sizeof(dom)) ||
	    !map_value_size_is(ifd, sizeof(ifc)) || bpf_map_lookup_elem(fd, &key, &dom) ||
	    !(dom.flags & INT_DOM_F_CONFIGURED) || dom.mode != INT_MODE_MD)
		goto out;
	hops = hops_opt ? hops_opt : dom.max_hops;
	/* UDP-port signalling puts TCP under a new UDP header: NPT=2's 8 bytes. */
	npt = dom.signal == INT_SIG_UDP ? 2 : 0;
	err = bpf_map_get_next_key(ifd, NULL, &next);
	while (!err) {
		ifindex = next;
		err = bpf_map_get_next_key(ifd, &ifindex, &next);
		if (bpf_map_lookup_elem(ifd, &ifindex, &ifc) ||
		    !(ifc.flags & (INT_IF_F_SOURCE | INT_IF_F_TRANSIT)))
			continue;
		mtu = ifc.mtu;
		if (!mtu && budget_dev_mtu(ifindex, &mtu))
			continue;
		if (hm_budget_int_md_fit(dom.bitmap, hops, npt, HM_IPV4_HDR_LEN + 8, mtu,
					 &fit) < 0)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "dev", "int dev %s", ifname_or_index(ifindex, dev));
		print_hex(PRINT_ANY, "bitmap", " bitmap 0x%04llx", dom.bitmap);
		print_uint(PRINT_ANY, "hop_ml", " hop-ml %llu", int_bitmap_words(dom.bitmap));
		print_uint(PRINT_ANY, "hops", " hops %llu", hops);
		print_uint(PRINT_ANY, "npt", " npt %llu", npt);
		node_fit(&fit);
		print_nl();
		close_json_object();
		if (!fit.fits)
			budget_warn_int_md(dev, mtu, dom.bitmap, hops, npt, HM_IPV4_HDR_LEN + 8);
	}
out:
	if (fd >= 0)
		close(fd);
	if (ifd >= 0)
		close(ifd);
	close_json_array(PRINT_JSON, NULL);
}

static int budget_node(int argc, char **argv)
{
	__u32 hops = 0;

	while (argc > 0) {
		if (is_opt(*argv, "hops")) {
			NEXT_ARG();
			hops = get_u32_arg(*argv, INT_MD_RHC_MASK, "--hops (INT hops, 1..255)");
			if (!hops)
				invarg("--hops needs 1..255", *argv);
		} else if (is_opt(*argv, "j") || is_opt(*argv, "json")) {
			json = 1;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("budget node", *argv);
		}
		argc--;
		argv++;
	}
	new_json_obj_single();
	node_ioam();
	node_int(hops);
	delete_json_obj();
	return HM_EXIT_OK;
}

/**
 * do_budget() - "hopmark budget [ OPTIONS ] | node | help"
 * @argc: words after "budget"
 * @argv: the words
 *
 * Prints the model's panels (text, or one JSON object with -j); "node"
 * prints this node's configured traces against their devices' MTUs.
 *
 * Return: exit status.
 */
int do_budget(int argc, char **argv)
{
	struct budget_opts o;
	__u64 v;

	default_opts(&o);
	if (argc > 0 && matches(*argv, "node") && **argv != '-')
		return budget_node(argc - 1, argv + 1);
	while (argc > 0) {
		if (is_opt(*argv, "mtu")) {
			NEXT_ARG();
			o.n_mtu = parse_u32_list(*argv, "--mtu", 1, 65535, o.mtu, BUDGET_COLS_MAX);
		} else if (is_opt(*argv, "hops")) {
			NEXT_ARG();
			o.n_hops = parse_u32_list(*argv, "--hops", 1, 255, o.hops, BUDGET_COLS_MAX);
		} else if (is_opt(*argv, "bitmap")) {
			NEXT_ARG();
			o.bitmap = get_u32_arg(*argv, 0xffff, "--bitmap (INT Instruction Bitmap, 16 bits)");
			o.has_bitmap = true;
			o.hop_ml = int_bitmap_words(o.bitmap);
			if (!o.hop_ml)
				invarg("--bitmap selects no metadata", *argv);
		} else if (is_opt(*argv, "trace-type")) {
			NEXT_ARG();
			o.trace_type = get_u32_arg(*argv, HM_IOAM_TT_MASK,
						   "--trace-type (IOAM-Trace-Type, 24 bits)");
			if (!hm_ioam6_node_data_len(o.trace_type))
				invarg("--trace-type selects no data field", *argv);
			o.has_tt = true;
		} else if (is_opt(*argv, "rate")) {
			NEXT_ARG();
			o.rate_bps = parse_rate(*argv);
		} else if (is_opt(*argv, "pkt")) {
			NEXT_ARG();
			if (get_u64_max(&v, *argv, 65535) || !v)
				invarg("--pkt needs a packet size of 1..65535 bytes", *argv);
			o.pkt_bytes = v;
		} else if (is_opt(*argv, "sampling")) {
			NEXT_ARG();
			o.n_sampling = parse_sampling(*argv, o.sampling);
		} else if (is_opt(*argv, "j") || is_opt(*argv, "json")) {
			json = 1;
		} else if (matches(*argv, "help") || is_opt(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("budget", *argv);
		}
		argc--;
		argv++;
	}
	print_model(&o);
	return HM_EXIT_OK;
}
