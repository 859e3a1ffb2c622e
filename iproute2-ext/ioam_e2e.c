// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_e2e.c - "hopmark ioam e2e": the IOAM Edge-to-Edge option (RFC 9197
 * §4.6, IOAM Option-Type 3) in the hopmark kernel module.
 *
 * The encapsulating interface writes what the IOAM-E2E-Type selects
 * (sequence number, 64 or 32 bits; timestamp seconds and subseconds); the
 * decapsulating interface reads it, reports it as an event and removes it.
 */
#include <stdlib.h>
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"


/* IOAM-E2E-Type bits (RFC 9197 §4.6), bit 0 = most significant. */
static const struct {
	const char *name;
	__u16 bit;
} e2e_bits[] = {
	{ "seq64",	0x8000 },	/* bit 0: 64-bit Sequence Number */
	{ "seq32",	0x4000 },	/* bit 1: 32-bit Sequence Number */
	{ "ts-sec",	0x2000 },	/* bit 2: Timestamp Seconds */
	{ "ts-frac",	0x1000 },	/* bit 3: Timestamp Subseconds */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam e2e encap add dev DEV ns ID type TYPE\n"
		"       hopmark ioam e2e encap del dev DEV\n"
		"       hopmark ioam e2e decap { enable | disable } dev DEV\n"
		"       hopmark ioam e2e show [ dev DEV ]\n"
		"where  encap: add an E2E option to packets leaving through DEV\n"
		"       decap: read, report and remove E2E options arriving on DEV\n"
		"       ID := 0..65534 (IOAM-Namespace)\n"
		"       TYPE := IOAM-E2E-Type (RFC 9197 Section 4.6): a 16-bit number using only\n"
		"               bits 0-3 (mask 0x%04x), or names joined by commas:\n"
		"               seq64 (0x8000) | seq32 (0x4000) | ts-sec (0x2000) | ts-frac (0x1000)\n"
		"Needs the hopmark kernel module.\n", HOPMARK_E2E_TYPE_MASK);
}

/* "0xf000" or "seq32,ts-sec,ts-frac"; exits naming @arg when wrong. */
static __u16 parse_e2e_type(const char *arg)
{
	char buf[128], *tok, *save;
	__u64 v;
	__u16 type = 0;
	unsigned int i;

	if (!get_u64_max(&v, arg, 0xffff)) {
		if (v & ~HOPMARK_E2E_TYPE_MASK)
			invarg("IOAM-E2E-Type bits 4-15 are undefined (RFC 9197 Section 4.6): only mask 0xf000 may be set",
			       arg);
		if (!v)
			invarg("the IOAM-E2E-Type selects no data field", arg);
		return v;
	}
	if (strlen(arg) >= sizeof(buf))
		invarg("not an IOAM-E2E-Type", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(e2e_bits) / sizeof(e2e_bits[0]); i++) {
			if (!strcmp(tok, e2e_bits[i].name))
				break;
		}
		if (i == sizeof(e2e_bits) / sizeof(e2e_bits[0]))
			invarg("not an IOAM-E2E-Type: a number or seq64, seq32, ts-sec, ts-frac joined by commas",
			       arg);
		type |= e2e_bits[i].bit;
	}
	if (!type)
		invarg("the IOAM-E2E-Type selects no data field", arg);
	return type;
}

static int e2e_encap_add(int argc, char **argv)
{
	struct hm_if_state s = { .features = HOPMARK_IF_F_E2E_ENCAP };
	const char *dev = NULL;

	while (argc > 0) {
		if (hm_encap_arg(&argc, &argv, &dev, &s, false)) {
			argc--;
			argv++;
			continue;
		}
		if (!strcmp(*argv, "type")) {
			NEXT_ARG();
			if (s.has_e2e_type)
				duparg("type", *argv);
			s.e2e_type = parse_e2e_type(*argv);
			s.has_e2e_type = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("ioam e2e encap add", *argv);
		}
		argc--;
		argv++;
	}
	hm_encap_require(dev, &s, "ioam e2e encap add");
	if (!s.has_e2e_type)
		missing_arg("type", "ioam e2e encap add");
	return hm_encap_commit(dev, &s, HOPMARK_IF_F_E2E_ENCAP, "E2E");
}

static void e2e_print(const struct hm_if_state *s)
{
	bool encap = s->features & HOPMARK_IF_F_E2E_ENCAP;
	unsigned int i;

	print_bool(PRINT_ANY, "e2e_encap", " encap %s", encap);
	if (encap && s->has_encap_ns)
		print_uint(PRINT_ANY, "encap_ns", " ns %llu", s->encap_ns);
	if (encap && s->has_e2e_type) {
		print_hex(PRINT_ANY, "e2e_type", " type 0x%04llx", s->e2e_type);
		open_json_array(PRINT_JSON, "e2e_fields");
		for (i = 0; i < sizeof(e2e_bits) / sizeof(e2e_bits[0]); i++) {
			if (s->e2e_type & e2e_bits[i].bit)
				print_string(PRINT_JSON, NULL, NULL, e2e_bits[i].name);
		}
		close_json_array(PRINT_JSON, NULL);
	}
	print_bool(PRINT_ANY, "e2e_decap", " decap %s", s->features & HOPMARK_IF_F_E2E_DECAP);
}

static int finish(int ret)
{
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}

/**
 * do_ioam_e2e() - "hopmark ioam e2e { encap | decap | show | help }"
 * @argc: words after "e2e"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_e2e(int argc, char **argv)
{
	const __u32 mask = HOPMARK_IF_F_E2E_ENCAP | HOPMARK_IF_F_E2E_DECAP;

	if (argc < 1)
		return finish(hm_feature_show("ioam e2e", mask, 0, NULL, e2e_print));
	if (matches(*argv, "encap")) {
		argc--;
		argv++;
		if (argc < 1) {
			usage(stderr);
			return HM_EXIT_USAGE;
		}
		if (matches(*argv, "add"))
			return e2e_encap_add(argc - 1, argv + 1);
		if (matches(*argv, "delete"))
			return finish(hm_feature_toggle("ioam e2e encap del", "E2E encapsulation",
							HOPMARK_IF_F_E2E_ENCAP, false,
							argc - 1, argv + 1));
	} else if (matches(*argv, "decap")) {
		argc--;
		argv++;
		if (argc < 1) {
			usage(stderr);
			return HM_EXIT_USAGE;
		}
		if (matches(*argv, "enable") || matches(*argv, "disable"))
			return finish(hm_feature_toggle(matches(*argv, "enable") ?
							"ioam e2e decap enable" :
							"ioam e2e decap disable",
							"E2E decapsulation",
							HOPMARK_IF_F_E2E_DECAP,
							matches(*argv, "enable"),
							argc - 1, argv + 1));
	} else if (matches(*argv, "show") || matches(*argv, "list")) {
		return finish(hm_feature_show("ioam e2e", mask, argc - 1, argv + 1, e2e_print));
	}
	if (matches(*argv, "help"))
		return finish(-1);
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam e2e help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}
