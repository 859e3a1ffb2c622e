// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_incremental.c - "hopmark ioam incremental": the IOAM Incremental
 * Trace (RFC 9197 §4.4, IOAM Option-Type 1) in the hopmark kernel module.
 *
 * Unlike the pre-allocated trace, the encapsulating node sends only the
 * trace header and room to grow (RemainingLen, 4-octet words); every
 * enabled transit node inserts its node data, growing the Hop-by-Hop header
 * (RFC 9486), as long as RemainingLen and the egress MTU allow (Overflow
 * flag otherwise).
 */
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"


static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam incremental { enable | disable } dev DEV\n"
		"       hopmark ioam incremental encap add dev DEV ns ID trace-type TYPE\n"
		"                                     { remlen WORDS | size BYTES }\n"
		"       hopmark ioam incremental encap del dev DEV\n"
		"       hopmark ioam incremental show [ dev DEV ]\n"
		"where  enable: insert this node's data into Incremental Traces arriving on DEV\n"
		"       encap:  add an Incremental Trace option to packets leaving through DEV\n"
		"       ID := 0..65534 (IOAM-Namespace)\n"
		"       TYPE := 24-bit IOAM-Trace-Type, bit 0 = 0x800000 (RFC 9197 Section 4.4.1)\n"
		"       WORDS := 0..%u, RemainingLen in 4-octet words (room for node data)\n"
		"       BYTES := 0..%u, a multiple of 4 (the same room in bytes)\n"
		"Needs the hopmark kernel module; the encapsulating namespace and Trace-Type of\n"
		"DEV are shared with \"hopmark ioam dex encap\".\n",
		HOPMARK_REMLEN_MAX, HOPMARK_REMLEN_MAX * 4);
}

static int incr_encap_add(int argc, char **argv)
{
	struct hm_if_state s = { .features = HOPMARK_IF_F_INCREMENTAL_ENCAP };
	const char *dev = NULL, *room = NULL;
	char msg[96];

	while (argc > 0) {
		if (hm_encap_arg(&argc, &argv, &dev, &s, true)) {
			argc--;
			argv++;
			continue;
		}
		if (matches(*argv, "remlen") && strlen(*argv) > 1) {
			NEXT_ARG();
			if (room)
				duparg(room, *argv);
			room = "remlen";
			s.remlen = get_u32_arg(*argv, HOPMARK_REMLEN_MAX,
					       "RemainingLen (4-octet words)");
			s.has_remlen = true;
		} else if (matches(*argv, "size")) {
			__u32 bytes;

			NEXT_ARG();
			if (room)
				duparg(room, *argv);
			room = "size";
			bytes = get_u32_arg(*argv, HOPMARK_REMLEN_MAX * 4,
					    "room for node data (bytes)");
			if (bytes % 4) {
				snprintf(msg, sizeof(msg),
					 "room for node data must be a multiple of 4 bytes (RemainingLen counts 4-octet words)");
				invarg(msg, *argv);
			}
			s.remlen = bytes / 4;
			s.has_remlen = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("ioam incremental encap add", *argv);
		}
		argc--;
		argv++;
	}
	hm_encap_require(dev, &s, "ioam incremental encap add");
	if (!s.has_trace_type)
		missing_arg("trace-type", "ioam incremental encap add");
	if (!room)
		missing_arg("remlen", "ioam incremental encap add");
	if (s.trace_type & HM_IOAM_TT_OPAQUE) {
		/* The snapshot's length is not in NodeLen: room is not checkable here. */
	} else if (s.remlen && s.remlen < hm_ioam6_trace_nodelen(s.trace_type)) {
		snprintf(msg, sizeof(msg),
			 "room for no node: one node's data takes %u words with trace-type 0x%06x",
			 hm_ioam6_trace_nodelen(s.trace_type), s.trace_type);
		invarg(msg, room);
	}
	return hm_encap_commit(dev, &s, HOPMARK_IF_F_INCREMENTAL_ENCAP, "Incremental Trace");
}

static int incr_encap(int argc, char **argv)
{
	int ret;

	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "add"))
		return incr_encap_add(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!matches(*argv, "delete")) {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam incremental help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	ret = hm_feature_toggle("ioam incremental encap del", "Incremental Trace encapsulation",
				HOPMARK_IF_F_INCREMENTAL_ENCAP, false, argc - 1, argv + 1);
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}

static void incr_print(const struct hm_if_state *s)
{
	bool encap = s->features & HOPMARK_IF_F_INCREMENTAL_ENCAP;

	print_bool(PRINT_ANY, "incremental", " incremental %s",
		   s->features & HOPMARK_IF_F_INCREMENTAL);
	print_bool(PRINT_ANY, "incremental_encap", " encap %s", encap);
	if (encap && s->has_encap_ns)
		print_uint(PRINT_ANY, "encap_ns", " ns %llu", s->encap_ns);
	if (encap && s->has_trace_type)
		print_hex(PRINT_ANY, "trace_type", " trace-type 0x%06llx", s->trace_type);
	if (encap && s->has_remlen)
		print_uint(PRINT_ANY, "remlen", " remlen %llu", s->remlen);
}

/**
 * do_ioam_incremental() - "hopmark ioam incremental { enable | disable |
 * encap | show | help }"
 * @argc: words after "incremental"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_incremental(int argc, char **argv)
{
	const __u32 mask = HOPMARK_IF_F_INCREMENTAL | HOPMARK_IF_F_INCREMENTAL_ENCAP;
	int ret;

	if (argc < 1)
		ret = hm_feature_show("ioam incremental", mask, 0, NULL, incr_print);
	else if (matches(*argv, "enable") || matches(*argv, "disable"))
		ret = hm_feature_toggle(matches(*argv, "enable") ? "ioam incremental enable" :
					"ioam incremental disable", "IOAM Incremental Trace",
					HOPMARK_IF_F_INCREMENTAL, matches(*argv, "enable"),
					argc - 1, argv + 1);
	else if (matches(*argv, "encap"))
		return incr_encap(argc - 1, argv + 1);
	else if (matches(*argv, "show") || matches(*argv, "list"))
		ret = hm_feature_show("ioam incremental", mask, argc - 1, argv + 1, incr_print);
	else if (matches(*argv, "help"))
		ret = -1;
	else {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam incremental help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}
