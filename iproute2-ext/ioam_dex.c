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

#define HM_NS_ID_MAX	0xfffe	/* as "hopmark ioam namespace" */

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
	struct hm_genl g = {};
	int err;

	while (argc > 0) {
		if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!strcmp(*argv, "ns")) {
			NEXT_ARG();
			if (s.has_encap_ns)
				duparg("ns", *argv);
			s.encap_ns = get_u32_arg(*argv, HM_NS_ID_MAX, "IOAM-Namespace ID");
			s.has_encap_ns = true;
		} else if (matches(*argv, "trace-type") && strlen(*argv) > 1) {
			NEXT_ARG();
			if (s.has_trace_type)
				duparg("trace-type", *argv);
			s.trace_type = hm_parse_trace_type(*argv);
			s.has_trace_type = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("ioam dex encap add", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "ioam dex encap add");
	if (!s.has_encap_ns)
		missing_arg("ns", "ioam dex encap add");
	if (!s.has_trace_type)
		missing_arg("trace-type", "ioam dex encap add");
	s.ifindex = get_ifindex_arg(dev);
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	err = hm_if_set(&g, &s, HOPMARK_IF_F_DEX_ENCAP);
	if (err)
		err = hm_genl_errf(&g, err, "cannot add DEX encapsulation on dev %s", dev);
	hm_genl_close(&g);
	return err;
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
