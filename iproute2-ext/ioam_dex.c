// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_dex.c - "hopmark ioam dex": IOAM Direct Export (RFC 9326) in the
 * hopmark kernel module.
 *
 * An encapsulating interface adds a DEX option (IOAM Option-Type 4) with
 * an IOAM-Namespace, an IOAM-Trace-Type, a Flow ID and a per-flow Sequence
 * Number (RFC 9326 §3.2) to the packets leaving through it; a node with DEX
 * enabled on the ingress interface exports the node data the Trace-Type
 * selects as an event on the "events" group (hopmarkd turns it into a
 * postcard), and the packet is not grown.
 */
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"


static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam dex { enable | disable } dev DEV\n"
		"       hopmark ioam dex encap add dev DEV ns ID trace-type TYPE\n"
		"       hopmark ioam dex encap del dev DEV\n"
		"       hopmark ioam dex show [ dev DEV ]\n"
		"where  enable: export an event for every DEX option arriving on DEV (RFC 9326)\n"
		"       encap:  add a DEX option to packets leaving through DEV\n"
		"       ID := 0..65534 (IOAM-Namespace)\n"
		"       TYPE := 24-bit IOAM-Trace-Type, bit 0 = 0x800000 (RFC 9197 Section 4.4.1)\n"
		"Needs the hopmark kernel module; the encapsulating namespace and Trace-Type of\n"
		"DEV are shared with \"hopmark ioam incremental encap\".\n");
}

static int dex_encap_add(int argc, char **argv)
{
	struct hm_if_state s = { .features = HOPMARK_IF_F_DEX_ENCAP };
	const char *dev = NULL;

	while (argc > 0) {
		if (!hm_encap_arg(&argc, &argv, &dev, &s, true)) {
			if (matches(*argv, "help")) {
				usage(stdout);
				return HM_EXIT_OK;
			}
			unknown_arg("ioam dex encap add", *argv);
		}
		argc--;
		argv++;
	}
	hm_encap_require(dev, &s, "ioam dex encap add");
	if (!s.has_trace_type)
		missing_arg("trace-type", "ioam dex encap add");
	return hm_encap_commit(dev, &s, HOPMARK_IF_F_DEX_ENCAP, "DEX");
}

static int dex_encap(int argc, char **argv)
{
	int ret;

	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "add"))
		return dex_encap_add(argc - 1, argv + 1);
	if (matches(*argv, "delete")) {
		ret = hm_feature_toggle("ioam dex encap del", "DEX encapsulation",
					HOPMARK_IF_F_DEX_ENCAP, false, argc - 1, argv + 1);
		goto help;
	}
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam dex help\".\n",
		*argv);
	return HM_EXIT_USAGE;
help:
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}

static void dex_print(const struct hm_if_state *s)
{
	bool encap = s->features & HOPMARK_IF_F_DEX_ENCAP;

	print_bool(PRINT_ANY, "dex", " dex %s", s->features & HOPMARK_IF_F_DEX);
	print_bool(PRINT_ANY, "dex_encap", " encap %s", encap);
	if (encap && s->has_encap_ns)
		print_uint(PRINT_ANY, "encap_ns", " ns %llu", s->encap_ns);
	if (encap && s->has_trace_type)
		print_hex(PRINT_ANY, "trace_type", " trace-type 0x%06llx", s->trace_type);
}

/**
 * do_ioam_dex() - "hopmark ioam dex { enable | disable | encap | show | help }"
 * @argc: words after "dex"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_dex(int argc, char **argv)
{
	int ret;

	if (argc < 1)
		ret = hm_feature_show("ioam dex", HOPMARK_IF_F_DEX | HOPMARK_IF_F_DEX_ENCAP,
				      0, NULL, dex_print);
	else if (matches(*argv, "enable") || matches(*argv, "disable"))
		ret = hm_feature_toggle(matches(*argv, "enable") ? "ioam dex enable" :
					"ioam dex disable", "IOAM Direct Export", HOPMARK_IF_F_DEX,
					matches(*argv, "enable"), argc - 1, argv + 1);
	else if (matches(*argv, "encap"))
		return dex_encap(argc - 1, argv + 1);
	else if (matches(*argv, "show") || matches(*argv, "list"))
		ret = hm_feature_show("ioam dex", HOPMARK_IF_F_DEX | HOPMARK_IF_F_DEX_ENCAP,
				      argc - 1, argv + 1, dex_print);
	else if (matches(*argv, "help"))
		ret = -1;
	else {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam dex help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}
