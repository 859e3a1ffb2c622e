/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * genl.h - the hopmark command's side of the "hopmark" generic netlink
 * family (lib/common/hopmark_genl.h), over libmnl: family resolution,
 * request/ack and dump with the kernel's extended ack messages, and the
 * error reporting every module-backed object (ioam incremental, e2e, dex,
 * srh, module, export) shares.
 */
#ifndef __HOPMARK_GENL_CLI_H
#define __HOPMARK_GENL_CLI_H

#include <stdbool.h>
#include <linux/types.h>
#include <libmnl/libmnl.h>

#include "common/hopmark_genl.h"

/**
 * struct hm_genl - an open generic netlink socket bound to the family
 * @nl:		libmnl socket (NETLINK_GENERIC), extended acks enabled
 * @family_id:	the family's id in this kernel (CTRL_CMD_GETFAMILY)
 * @version:	the family's version as the module registered it
 * @maxattr:	highest attribute the module accepts
 * @seq:	sequence number of the last request
 * @portid:	our netlink port id
 * @ext_msg:	the extended ack message of the last failed request ("" if
 *		the kernel sent none)
 * @ext_attr:	attribute type the kernel pointed at with NLMSGERR_ATTR_OFFS
 *		or NLMSGERR_ATTR_MISS_TYPE, 0 if none
 * @ext_missing: @ext_attr is an attribute the request lacked
 */
struct hm_genl {
	struct mnl_socket *nl;
	__u16	family_id;
	__u32	version;
	__u32	maxattr;
	__u32	seq;
	__u32	portid;
	char	ext_msg[256];
	__u16	ext_attr;
	bool	ext_missing;
};

/* Room for one request; replies are read in MNL_SOCKET_BUFFER_SIZE pieces. */
#define HM_GENL_BUF	8192

int hm_genl_open(struct hm_genl *g);
void hm_genl_close(struct hm_genl *g);
struct nlmsghdr *hm_genl_msg(struct hm_genl *g, void *buf, __u8 cmd, __u16 flags);
int hm_genl_talk(struct hm_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
int hm_genl_errf(struct hm_genl *g, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int hm_genl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		  unsigned int max);
int hm_genl_connect(struct hm_genl *g);
const char *hm_genl_attr_name(__u16 type);

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
