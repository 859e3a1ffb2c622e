// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_transit.c - "hopmark ioam transit" and "hopmark ioam decap": turn
 * the transit role (RFC 9197 §4.4: write this node's data into traces
 * arriving on DEV) and the decapsulating role (remove our trace on DEV's
 * ingress and report it) on and off per interface.
 *
 * transit enable dev X: the ingress half on X, XDP hm_transit_in or, on a
 * veth or with "ingress tc", tc ingress hm_transit_tcin (the other one is
 * removed first: never both), and tc egress hm_transit_out on X (egress
 * half, completes the slot of packets this node forwards out of X), then
 * HM_IF_F_TRANSIT in hopmark_ifcfg.
 * decap enable dev X: tc ingress hm_decap on X, then HM_IF_F_DECAP.
 * disable reverses both; the interface IDs stay.
 */
#include <errno.h>
#include <string.h>

#include "hopmark_cli.h"

static void usage_transit(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam transit enable dev DEV [ ingress { auto | xdp | tc } ]\n"
		"       hopmark ioam transit disable dev DEV\n"
		"       enable: the ingress half on DEV (XDP hm_transit_in, or tc ingress\n"
		"               hm_transit_tcin; auto, the default: tc on a veth, else XDP)\n"
		"               and tc egress hm_transit_out on DEV; IOAM data arriving on\n"
		"               DEV is processed\n");
}

static void usage_decap(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam decap { enable | disable } dev DEV\n"
		"       enable: tc ingress hm_decap on DEV; traces of configured namespaces\n"
		"               are removed and reported on the hopmark_events ring buffer\n");
}

/* Where "transit enable" puts the ingress half ("ingress HOOK"). */
static enum hm_ingress_hook transit_ingress = HM_INGRESS_AUTO;

/* "[dev] DEV", and "ingress HOOK" when @ingress is set (transit enable). */
static const char *parse_dev(int argc, char **argv, const char *cmd, bool ingress)
{
	const char *dev = NULL;

	while (argc > 0) {
		if (matches(*argv, "help")) {
			return NULL;
		} else if (ingress && !strcmp(*argv, "ingress")) {
			NEXT_ARG();
			if (!strcmp(*argv, "auto"))
				transit_ingress = HM_INGRESS_AUTO;
			else if (!strcmp(*argv, "xdp"))
				transit_ingress = HM_INGRESS_XDP;
			else if (!strcmp(*argv, "tc"))
				transit_ingress = HM_INGRESS_TC;
			else
				invarg("ingress must be auto, xdp or tc", *argv);
		} else if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!dev && argc == 1) {
			dev = *argv;	/* "dev" may be omitted, as in ip link */
		} else {
			unknown_arg(cmd, *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", cmd);
	return dev;
}

static int transit_enable(const char *dev)
{
	__u32 ifindex = ifindex_check(dev, get_ifindex_arg(dev));
	enum hm_role in, other;
	int err;

	err = maps_prepare();
	if (err)
		return err;
	in = hm_transit_in_role(ifindex, transit_ingress);
	other = in == HM_ROLE_TRANSIT_IN ? HM_ROLE_TRANSIT_IN_TC : HM_ROLE_TRANSIT_IN;
	/* Both ingress halves at once would write two slots per packet. */
	err = role_detach(other, ifindex);
	if (err)
		return err;
	err = role_attach(in, ifindex);
	if (err)
		return err;
	err = role_attach(HM_ROLE_TRANSIT_OUT, ifindex);
	if (err) {
		role_detach(in, ifindex);
		return err;
	}
	err = ifcfg_set_flags(ifindex, HM_IF_F_TRANSIT, 0);
	if (err)
		return hm_errf(err, "cannot enable transit on %s in %s", dev, HM_MAP_IFCFG);
	return HM_EXIT_OK;
}

static int transit_disable(const char *dev)
{
	__u32 ifindex = get_ifindex_arg(dev);
	int err;

	/* Flag first: the datapath stops writing before the programs go. */
	err = ifcfg_set_flags(ifindex, 0, HM_IF_F_TRANSIT);
	if (err && err != -ENOENT)
		return hm_errf(err, "cannot disable transit on %s in %s", dev, HM_MAP_IFCFG);
	err = role_detach(HM_ROLE_TRANSIT_IN, ifindex);
	err |= role_detach(HM_ROLE_TRANSIT_IN_TC, ifindex);
	err |= role_detach(HM_ROLE_TRANSIT_OUT, ifindex);
	return err ? HM_EXIT_FAIL : HM_EXIT_OK;
}

static int decap_enable(const char *dev)
{
	__u32 ifindex = ifindex_check(dev, get_ifindex_arg(dev));
	int err;

	err = maps_prepare();
	if (err)
		return err;
	err = role_attach(HM_ROLE_DECAP, ifindex);
	if (err)
		return err;
	err = ifcfg_set_flags(ifindex, HM_IF_F_DECAP, 0);
	if (err)
		return hm_errf(err, "cannot enable decap on %s in %s", dev, HM_MAP_IFCFG);
	return HM_EXIT_OK;
}

static int decap_disable(const char *dev)
{
	__u32 ifindex = get_ifindex_arg(dev);
	int err;

	err = ifcfg_set_flags(ifindex, 0, HM_IF_F_DECAP);
	if (err && err != -ENOENT)
		return hm_errf(err, "cannot disable decap on %s in %s", dev, HM_MAP_IFCFG);
	return role_detach(HM_ROLE_DECAP, ifindex);
}

/* Run @fn on the device of "[dev] DEV", or print @usage for "help". */
static int with_dev(int (*fn)(const char *dev), int argc, char **argv, const char *cmd,
		    void (*usage)(FILE *f))
{
	const char *dev = parse_dev(argc, argv, cmd, fn == transit_enable);

	if (!dev) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	return fn(dev);
}

/**
 * do_ioam_transit() - "hopmark ioam transit { enable | disable } dev DEV"
 * @argc: words after "transit"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_transit(int argc, char **argv)
{
	if (argc < 1 || matches(*argv, "help")) {
		usage_transit(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "enable"))
		return with_dev(transit_enable, argc - 1, argv + 1, "ioam transit enable",
				usage_transit);
	if (matches(*argv, "disable"))
		return with_dev(transit_disable, argc - 1, argv + 1, "ioam transit disable",
				usage_transit);
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam transit help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}

/**
 * do_ioam_decap() - "hopmark ioam decap { enable | disable } dev DEV"
 * @argc: words after "decap"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_decap(int argc, char **argv)
{
	if (argc < 1 || matches(*argv, "help")) {
		usage_decap(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "enable"))
		return with_dev(decap_enable, argc - 1, argv + 1, "ioam decap enable",
				usage_decap);
	if (matches(*argv, "disable"))
		return with_dev(decap_disable, argc - 1, argv + 1, "ioam decap disable",
				usage_decap);
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam decap help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}
