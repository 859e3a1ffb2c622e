/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark_run.h - run-time conventions every hopmark program shares: the
 * run directory and the files in it, and where on an interface's tc hooks
 * hopmark attaches its filters. Defined here once; the CLI, the agent and
 * the tests include it.
 */
#ifndef __HOPMARK_RUN_H
#define __HOPMARK_RUN_H

#include <stddef.h>

/*
 * Run directory: $HOPMARK_RUNDIR when set and not empty, else /run/hopmark.
 * hopmarkd's monitor socket and the PINT sink's state file live there.
 */
#define HM_RUNDIR_ENV		"HOPMARK_RUNDIR"
#define HM_RUNDIR_DEFAULT	"/run/hopmark"
#define HM_SOCK_NAME		"hopmarkd.sock"		/* monitor socket */
#define HM_PINT_STATE_NAME	"pint.json"		/* PINT sink state */

/**
 * hm_run_dir() - the run directory of this node
 *
 * Return: $HOPMARK_RUNDIR if set and non-empty, else %HM_RUNDIR_DEFAULT.
 */
const char *hm_run_dir(void);

/**
 * hm_run_path() - a file of the run directory
 * @buf:	output
 * @len:	size of @buf
 * @name:	file name, e.g. %HM_SOCK_NAME
 *
 * Return: 0, or -ENAMETOOLONG when "<run dir>/@name" does not fit @buf.
 */
int hm_run_path(char *buf, size_t len, const char *name);

/*
 * tc filters hopmark attaches: one handle per family of programs and one
 * priority (tc's "pref") per role, so that enabling again replaces our
 * filter in place, disabling removes exactly ours, and `hopmark link show`
 * tells ours apart from filters added with tc(8) (which default to pref
 * 49152, handle 1).
 */
#define HM_TC_HANDLE		0x686d	/* "hm": IOAM roles */
#define HM_TC_PRIO_ENCAP	0x4801	/* before transit out on a shared egress */
#define HM_TC_PRIO_TRANSIT_OUT	0x4802
#define HM_TC_PRIO_DECAP	0x4803
#define HM_TC_PRIO_TRANSIT_IN	0x4800	/* tc ingress half (veth): before decap */
#define HM_PINT_TC_HANDLE	0x7069	/* "pi": PINT roles */
#define HM_PINT_TC_PRIO_SOURCE	0x4811
#define HM_PINT_TC_PRIO_SINK	0x4812
#define HM_PINT_TC_PRIO_TRANSIT	0x4813
#define HM_INT_TC_HANDLE	0x696e	/* "in": INT roles */
#define HM_INT_TC_PRIO_INGRESS	0x4820	/* arrival stamp of a transit hop */
#define HM_INT_TC_PRIO_SOURCE	0x4821
#define HM_INT_TC_PRIO_TRANSIT	0x4822
#define HM_INT_TC_PRIO_SINK	0x4823
#define HM_PBT_TC_HANDLE	0x7062	/* "pb": PBT-M roles */
#define HM_PBT_TC_PRIO_INGRESS	0x4830	/* postcard, then the end node's clear */
#define HM_PBT_TC_PRIO_EGRESS	0x4831	/* head's mark, postcard, end's clear */

/* IPFIX (RFC 7011 §10): the IANA port of a collector, UDP and TCP. */
#define HM_IPFIX_PORT		4739

#endif /* __HOPMARK_RUN_H */
