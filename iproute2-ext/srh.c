// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * srh.c - "hopmark srh": the SRv6 Segment Routing Header in the hopmark
 * kernel module. "oflag" enables the O-flag (RFC 8754 §2.1 flags, RFC 9259
 * §2): a node that is the segment endpoint of a packet arriving on the
 * interface with the O-flag set exports a timestamped event with the
 * packet's headers and forwards the packet unchanged.
 */
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark srh oflag { enable | disable } dev DEV\n"
		"       hopmark srh oflag show [ dev DEV ]\n"
		"where  enable: a packet arriving on DEV whose SRH has the O-flag set and for\n"
		"               which this node is the segment endpoint is exported as an\n"
		"               event (RFC 9259 Section 2); the packet is forwarded unchanged\n"
		"Needs the hopmark kernel module.\n");
}

static void oflag_print(const struct hm_if_state *s)
{
	print_bool(PRINT_ANY, "oflag", " oflag %s", s->features & HOPMARK_IF_F_SRH_OFLAG);
}

static int do_srh_oflag(int argc, char **argv)
{
	int ret;

	if (argc < 1)
		ret = hm_feature_show("srh oflag", HOPMARK_IF_F_SRH_OFLAG, 0, NULL, oflag_print);
	else if (matches(*argv, "enable") || matches(*argv, "disable"))
		ret = hm_feature_toggle(matches(*argv, "enable") ? "srh oflag enable" :
					"srh oflag disable", "the SRH O-flag",
					HOPMARK_IF_F_SRH_OFLAG, matches(*argv, "enable"),
					argc - 1, argv + 1);
	else if (matches(*argv, "show") || matches(*argv, "list"))
		ret = hm_feature_show("srh oflag", HOPMARK_IF_F_SRH_OFLAG, argc - 1, argv + 1,
				      oflag_print);
	else if (matches(*argv, "help"))
		ret = -1;
	else {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark srh oflag help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	if (ret < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return ret;
}

/**
 * do_srh() - "hopmark srh { oflag | help }"
 * @argc: words after "srh"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_srh(int argc, char **argv)
{
	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "oflag"))
		return do_srh_oflag(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: object \"%s\" is unknown, try \"hopmark srh help\".\n", *argv);
	return HM_EXIT_USAGE;
}
