/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * genl.h - the hopmark command's side of the "hopmark" generic netlink
 * family (lib/common/hopmark_genl.h). The client itself (socket, family
 * resolution, request/ack and dump with the kernel's extended ack
 * messages, attribute parsing) is libhopmark's, lib/common/genl.h; here
 * are what the command adds: connecting with a message the user can act
 * on, the error reporting every module-backed object (ioam incremental,
 * e2e, dex, srh, module, export) shares, and the objects' functions.
 */
#ifndef __HOPMARK_GENL_CLI_H
#define __HOPMARK_GENL_CLI_H

#include <stdbool.h>
#include <linux/types.h>

#include "common/genl.h"

int hm_genl_connect(struct hm_genl *g);
int hm_genl_errf(struct hm_genl *g, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * struct hm_if_state - one interface as the module knows it (IF_SET/IF_GET)
 * @ifindex:	interface index (HOPMARK_ATTR_IFINDEX)
 * @ifname:	its name as the module reports it, "" if not reported
 * @features:	enabled enum hopmark_if_feature bits
 * @if_id:	short interface ID (RFC 9197 §4.4.2.2), valid with @has_if_id
 * @if_id_wide:	wide interface ID (§4.4.2.10), valid with @has_if_id_wide
 * @encap_ns:	IOAM-Namespace encapsulated here, valid with @has_encap_ns
 * @trace_type:	24-bit IOAM-Trace-Type encapsulated here (bit 0 = 0x800000)
 * @remlen:	RemainingLen of an Incremental Trace encapsulated here,
 *		4-octet words
 * @e2e_type:	IOAM-E2E-Type encapsulated here (bits 0-3, mask 0xf000)
 * @has_if_id:	@if_id is present (and, in a change, to be sent)
 * @has_if_id_wide: see @has_if_id
 * @has_encap_ns: see @has_if_id
 * @has_trace_type: see @has_if_id
 * @has_remlen:	see @has_if_id
 * @has_e2e_type: see @has_if_id
 */
struct hm_if_state {
	__u32	ifindex;
	char	ifname[16];
	__u32	features;
	__u16	if_id;
	__u32	if_id_wide;
	__u16	encap_ns;
	__u32	trace_type;
	__u8	remlen;
	__u16	e2e_type;
	bool	has_if_id;
	bool	has_if_id_wide;
	bool	has_encap_ns;
	bool	has_trace_type;
	bool	has_remlen;
	bool	has_e2e_type;
};

/* module_if.c: per-interface state of the module */
int hm_if_set(struct hm_genl *g, const struct hm_if_state *s, __u32 selector);
int hm_if_get(struct hm_genl *g, __u32 ifindex, struct hm_if_state *s);
int hm_if_dump(struct hm_genl *g, struct hm_if_state **out, unsigned int *n);
const char *hm_parse_dev(int argc, char **argv, const char *cmd);
int hm_feature_toggle(const char *cmd, const char *what, __u32 bit, bool on,
		      int argc, char **argv);
int hm_feature_show(const char *obj, __u32 mask, int argc, char **argv,
		    void (*print)(const struct hm_if_state *s));
__u32 hm_parse_trace_type(const char *arg);
bool hm_encap_arg(int *argcp, char ***argvp, const char **dev, struct hm_if_state *s,
		  bool trace_type);
void hm_encap_require(const char *dev, const struct hm_if_state *s, const char *cmd);
int hm_encap_commit(const char *dev, struct hm_if_state *s, __u32 feature, const char *what);
void hm_print_dev(const struct hm_if_state *s);

/* export.c */
int hm_export_print(struct hm_genl *g);

/* module.c, export.c, ioam_*.c, srh.c: the module's objects */
int do_module(int argc, char **argv);
int do_export(int argc, char **argv);
int do_srh(int argc, char **argv);
int do_ioam_incremental(int argc, char **argv);
int do_ioam_e2e(int argc, char **argv);
int do_ioam_dex(int argc, char **argv);

#endif /* __HOPMARK_GENL_CLI_H */
