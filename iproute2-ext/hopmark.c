// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark.c - the hopmark command: global options, object dispatch, help.
 *
 *	hopmark [ OPTIONS ] OBJECT { COMMAND | help }
 *
 * The grammar is iproute2's: objects and commands may be abbreviated,
 * every level answers "help", errors name the offending word. See
 * hopmark(8).
 */
#include <stdlib.h>
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"

#ifndef HM_VERSION
#define HM_VERSION "0.1"
#endif

int json;
int pretty;
int show_stats;

static int do_help(int argc, char **argv);
int do_pint(int argc, char **argv);	/* pint.c */
int do_int(int argc, char **argv);	/* int.c */

static const struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
} objects[] = {
	{ "node",	do_node },
	{ "link",	do_link },
	{ "ioam",	do_ioam },
	{ "srh",	do_srh },
	{ "module",	do_module },
	{ "export",	do_export },
	{ "pint",	do_pint },
	{ "budget",	do_budget },
	{ "int",	do_int },
	{ "postcard",	do_postcard },
	{ "monitor",	do_monitor },
	{ "decode",	do_decode },
	{ "help",	do_help },
	{ NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	/* The OBJECT list is the dispatch table's: help cannot miss one. */
	fputs("Usage: hopmark [ OPTIONS ] OBJECT { COMMAND | help }\n"
	      "where  OBJECT := {", f);
	for (c = objects; c->name; c++)
		if (c->func != do_help)
			fprintf(f, "%s %s", c == objects ? "" : " |", c->name);
	fprintf(f,
		" }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -V[ersion] | -h[elp] }\n"
		"\n"
		"       hopmark node { set [ id ID ] [ wide-id ID ] | show }\n"
		"       hopmark link { set dev DEV [ id ID ] [ wide-id ID ] | show [ dev DEV ] }\n"
		"       hopmark ioam namespace { add ID [ data DATA32 ] [ wide DATA64 ] | del ID | show }\n"
		"       hopmark ioam encap { add PREFIX dev DEV ns ID trace-type TYPE size BYTES [ freq K/N ]\n"
		"                          | del PREFIX | show }\n"
		"       hopmark ioam transit { enable dev DEV [ ingress { auto | xdp | tc } ] | disable dev DEV }\n"
		"       hopmark ioam decap { enable | disable } dev DEV\n"
		"       hopmark ioam { incremental | e2e | dex } help    (hopmark kernel module)\n"
		"       hopmark srh oflag { enable | disable } dev DEV   (hopmark kernel module)\n"
		"       hopmark module { show | node | namespace | link | counters | help }\n"
		"       hopmark export { set [ rate N ] [ batch N ] [ flush MS ] [ fields LIST ] | show }\n"
		"       hopmark pint { enable | disable | set | query | show | help }\n"
		"       hopmark budget [ --mtu BYTES ] [ --hops N ] [ --bitmap BITMAP ] [ --trace-type TYPE ]\n"
		"                      [ --rate RATE ] [ --pkt BYTES ] [ --sampling F ] | node | help\n"
		"       hopmark int { set | watch | sample | report | enable | disable | show | help }\n"
		"       hopmark postcard { set | watch | sample | export | enable | disable | template | show | help }\n"
		"       hopmark monitor [ file { PATH | - } | binary ] [ count N ] [ summary ]\n"
		"       hopmark decode FILE.pcap [ summary ] [ int-dscp VALUE[/MASK] ] [ int-port PORT ] [ int-source-only WORDS ] [ report-port PORT ]\n"
		"\n"
		"Pins: %s/%s (bpffs from $%s, else %s).\n",
		hm_bpffs_root(), HM_PIN_SUBDIR, HM_BPFFS_ENV, HM_BPFFS_DEFAULT);
}

static int do_help(int argc, char **argv)
{
	usage(stdout);
	return HM_EXIT_OK;
}

static int do_cmd(const char *word, int argc, char **argv)
{
	const struct cmd *c;

	for (c = objects; c->name; c++) {
		if (matches(word, c->name))
			return c->func(argc - 1, argv + 1);
	}
	fprintf(stderr, "Error: object \"%s\" is unknown, try \"hopmark help\".\n", word);
	return HM_EXIT_USAGE;
}

static void usage_ioam(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam OBJECT { COMMAND | help }\n"
		"where  OBJECT := { namespace | encap | transit | decap | incremental | e2e | dex }\n"
		"       hopmark ioam namespace { add ID [ data DATA32 ] [ wide DATA64 ] | del ID | show }\n"
		"       hopmark ioam encap { add PREFIX dev DEV ns ID trace-type TYPE size BYTES [ freq K/N ]\n"
		"                          | del PREFIX | show }\n"
		"       hopmark ioam transit { enable dev DEV [ ingress { auto | xdp | tc } ] | disable dev DEV }\n"
		"       hopmark ioam decap { enable | disable } dev DEV\n"
		"       hopmark ioam incremental { enable | disable | encap | show | help }\n"
		"       hopmark ioam e2e { encap | decap | show | help }\n"
		"       hopmark ioam dex { enable | disable | encap | show | help }\n"
		"(incremental, e2e and dex need the hopmark kernel module)\n");
}

/**
 * do_ioam() - "hopmark ioam OBJECT ...": the RFC 9197 datapath settings
 * @argc: words after "ioam"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam(int argc, char **argv)
{
	if (argc < 1) {
		usage_ioam(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "help")) {
		usage_ioam(stdout);
		return HM_EXIT_OK;
	}
	if (matches(*argv, "namespace"))
		return do_ioam_namespace(argc - 1, argv + 1);
	if (matches(*argv, "encap"))
		return do_ioam_encap(argc - 1, argv + 1);
	if (matches(*argv, "transit"))
		return do_ioam_transit(argc - 1, argv + 1);
	if (matches(*argv, "decap"))
		return do_ioam_decap(argc - 1, argv + 1);
	if (matches(*argv, "incremental"))
		return do_ioam_incremental(argc - 1, argv + 1);
	if (matches(*argv, "e2e"))
		return do_ioam_e2e(argc - 1, argv + 1);
	if (matches(*argv, "dex"))
		return do_ioam_dex(argc - 1, argv + 1);
	fprintf(stderr, "Error: object \"%s\" is unknown, try \"hopmark ioam help\".\n", *argv);
	return HM_EXIT_USAGE;
}

/*
 * -j anywhere among the options: known before any of them can fail, so that
 * an unknown option after it gets the JSON error object too.
 */
static void scan_json_option(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		const char *opt = argv[i] + 1;

		if (*opt == '-')
			opt++;
		if (*opt && matches(opt, "json"))
			json = 1;
	}
}

/* Options and dispatch; every exit status passes hm_exit_status(). */
static int run(int argc, char **argv)
{
	while (argc > 1 && argv[1][0] == '-') {
		const char *opt = argv[1] + 1;

		/* "--" ends the options; a lone "-" is no option at all. */
		if (!strcmp(argv[1], "--")) {
			argc--;
			argv++;
			break;
		}
		if (*opt == '-')
			opt++;
		if (!*opt) {
			fprintf(stderr, "Error: option \"%s\" is unknown, try \"hopmark -help\".\n",
				argv[1]);
			return HM_EXIT_USAGE;
		}
		if (matches(opt, "json")) {
			json = 1;
		} else if (matches(opt, "pretty")) {
			pretty = 1;
		} else if (matches(opt, "statistics") || matches(opt, "stats")) {
			show_stats++;
		} else if (matches(opt, "Version")) {
			printf("hopmark %s\n", HM_VERSION);
			return HM_EXIT_OK;
		} else if (matches(opt, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			fprintf(stderr, "Error: option \"%s\" is unknown, try \"hopmark -help\".\n",
				argv[1]);
			return HM_EXIT_USAGE;
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	return do_cmd(argv[1], argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	scan_json_option(argc, argv);
	hm_json_errors_begin();
	return hm_exit_status(run(argc, argv));
}
