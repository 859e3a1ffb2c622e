/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bpf_attach.h - load hopmark's BPF programs and attach them where each
 * role runs (bpf_attach.c). One table of roles, the IOAM ones (RFC 9197
 * encapsulating, transit and decapsulating nodes, bpf/hopmark_*.bpf.c) and
 * the PINT ones (bpf/pint.bpf.c), the INT ones (bpf/hopmark_int*.bpf.c) and
 * the PBT-M ones (bpf/hopmark_pbt.bpf.c):
 *
 *	role		program		hook		tc handle, priority
 *	encap		hm_encap	tc egress	0x686d, 0x4801
 *	transit-in	hm_transit_in	XDP (driver mode, else generic)
 *	transit-in-tc	hm_transit_tcin	tc ingress	0x686d, 0x4800
 *	transit-out	hm_transit_out	tc egress	0x686d, 0x4802
 *	decap		hm_decap	tc ingress	0x686d, 0x4803
 *	source		hm_pint_source	tc ingress	0x7069, 0x4811
 *	sink		hm_pint_sink	tc ingress	0x7069, 0x4812
 *	transit		hm_pint_transit	tc egress	0x7069, 0x4813
 *	int-source	hm_int_source	tc egress	0x696e, 0x4821
 *	int-ingress	hm_int_ingress	tc ingress	0x696e, 0x4820
 *	int-transit	hm_int_transit	tc egress	0x696e, 0x4822
 *	int-sink	hm_int_sink	tc ingress	0x696e, 0x4823
 *	int-drop	hm_int_drop	tracing (kfree_skb), a link pinned at
 *					<pin dir>/%HM_INT_DROP_LINK
 *	int-xdp-source	hm_int_xdp_src	XDP (INT-MD source of GSO'd TCP, on the
 *					first INT node's ingress veth)
 *	pbt-xdp		hm_pbt_xdp	XDP (PBT-M ingress postcard, end clear)
 *	pbt-ingress	hm_pbt_ingress	tc ingress	0x7062, 0x4830 (the same, veths)
 *	pbt-egress	hm_pbt_egress	tc egress	0x7062, 0x4831 (head mark,
 *					egress postcard, end clear)
 *
 * (handles and priorities: common/hopmark_run.h). Programs are loaded from
 * the skeletons embedded in libhopmark (build/bpf/NAME.skel.h) with
 * pin_root_path = hm_pin_dir(), so their maps are the node's pinned maps
 * (LIBBPF_PIN_BY_NAME), shared with stock ip/tc. A tc filter goes to the
 * role's fixed handle and priority: attaching again replaces it in place
 * and detaching removes exactly it, never a filter added with tc(8).
 *
 * Every program parses a 14-byte Ethernet header first, so a role is only
 * attached to a device whose frames start with one (hm_dev_check_ether()).
 *
 * Nothing here prints. Functions return 0 or a negative errno; those that
 * take @msg write the whole reason there on failure (one line, strerror
 * included where it helps, no "Error: " and no final period), for the
 * caller to print.
 */
#ifndef __HOPMARK_BPF_ATTACH_H
#define __HOPMARK_BPF_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* A message of this module fits this many bytes (with its NUL). */
#define HM_ATTACH_MSG_MAX	256

/* What hopmark runs, and where. */
enum hm_role {
	HM_ROLE_ENCAP,		/* IOAM encapsulating node, tc egress hm_encap */
	HM_ROLE_TRANSIT_IN,	/* IOAM transit, ingress half, XDP hm_transit_in */
	HM_ROLE_TRANSIT_OUT,	/* IOAM transit, egress half, tc egress hm_transit_out */
	HM_ROLE_DECAP,		/* IOAM decapsulating node, tc ingress hm_decap */
	HM_ROLE_TRANSIT_IN_TC,	/* IOAM transit, ingress half, tc ingress hm_transit_tcin */
	HM_ROLE_PINT_SOURCE,	/* PINT source, tc ingress hm_pint_source */
	HM_ROLE_PINT_TRANSIT,	/* PINT transit, tc egress hm_pint_transit */
	HM_ROLE_PINT_SINK,	/* PINT sink, tc ingress hm_pint_sink */
	HM_ROLE_INT_SOURCE,	/* INT source, tc egress hm_int_source */
	HM_ROLE_INT_INGRESS,	/* INT transit arrival stamp, tc ingress hm_int_ingress */
	HM_ROLE_INT_TRANSIT,	/* INT transit (MD, MX, XD), tc egress hm_int_transit */
	HM_ROLE_INT_SINK,	/* INT sink, tc ingress hm_int_sink */
	HM_ROLE_INT_DROP,	/* INT drop reports, tracing hm_int_drop on kfree_skb */
	HM_ROLE_INT_XDP_SOURCE,	/* INT-MD source at XDP (NPT=2 TCP), hm_int_xdp_src */
	HM_ROLE_PBT_XDP,	/* PBT-M ingress postcard / end clear, XDP hm_pbt_xdp */
	HM_ROLE_PBT_INGRESS,	/* the same at tc ingress, hm_pbt_ingress */
	HM_ROLE_PBT_EGRESS,	/* PBT-M head / egress postcard / end, tc egress hm_pbt_egress */
	HM_ROLE_MAX,
};

/* Where a role's program runs. */
enum hm_hook {
	HM_HOOK_XDP,
	HM_HOOK_TC_INGRESS,
	HM_HOOK_TC_EGRESS,
	HM_HOOK_TRACING,	/* a kernel tracepoint, node-wide: no device */
};

/*
 * Pin name of the int-drop role's link, in the pin directory: a tracing
 * program stays attached as long as its link exists, and the pin is what
 * keeps it after the loading process exits.
 */
#define HM_INT_DROP_LINK	"hm_int_drop_link"

/* Which telemetry a role belongs to. */
enum hm_role_family {
	HM_FAMILY_IOAM,
	HM_FAMILY_PINT,
	HM_FAMILY_INT,
	HM_FAMILY_PBT,
};

/**
 * struct hm_role_desc - one role of the table
 * @name:	the role as printed ("transit-in", "source", ...)
 * @prog:	its BPF program's name (at most 15 characters, BPF_OBJ_NAME_LEN)
 * @family:	IOAM, PINT, INT or PBT-M
 * @hook:	where the program runs
 * @tc_handle:	the tc filter's handle (0 for XDP)
 * @tc_prio:	the tc filter's priority, tc(8)'s "pref" (0 for XDP)
 */
struct hm_role_desc {
	const char		*name;
	const char		*prog;
	enum hm_role_family	family;
	enum hm_hook		hook;
	__u32			tc_handle;
	__u32			tc_prio;
};

/* The roles table, indexed by enum hm_role. */
extern const struct hm_role_desc hm_roles[HM_ROLE_MAX];

/**
 * hm_role_of_prog() - the role a program plays, by its name
 * @prog_name:	BPF program name, as bpf_prog_info.name gives it
 *
 * Return: the role whose program is named @prog_name, %HM_ROLE_MAX if none.
 */
enum hm_role hm_role_of_prog(const char *prog_name);

/**
 * struct hm_role_prog - a role's program, loaded (hm_role_load())
 * @role:	the role
 * @fd:		the program's fd, valid until hm_role_unload()
 * @skel:	the skeleton holding it (private)
 */
struct hm_role_prog {
	enum hm_role	role;
	int		fd;
	void		*skel;
};

/**
 * hm_role_load() - load the BPF object of a role through its skeleton
 * @role:	the role
 * @p:		output; hm_role_unload() it
 * @msg:	the reason on failure
 * @len:	size of @msg (%HM_ATTACH_MSG_MAX is enough)
 *
 * Loads the whole object (every program and map of it) with the node's pin
 * root: missing maps are created and pinned, existing pins reused. The
 * tracing role's object learns the caller's network namespace here (the
 * inode of /proc/self/ns/net): it reports the drops of that namespace only. libbpf's
 * log goes to its print callback (libbpf_set_print()), the caller's.
 *
 * Return: 0; -EINVAL for an unknown role; -ENAMETOOLONG for a pin
 * directory beyond PATH_MAX; else libbpf's error (the verifier's -EACCES,
 * -EINVAL for an incompatible pinned map, -EPERM without CAP_BPF, ...).
 */
int hm_role_load(enum hm_role role, struct hm_role_prog *p, char *msg, size_t len);

/* Where the transit role's ingress half goes (hm_transit_in_role()). */
enum hm_ingress_hook {
	HM_INGRESS_AUTO,	/* by device type: veth at tc, the others at XDP */
	HM_INGRESS_XDP,		/* hm_transit_in at XDP */
	HM_INGRESS_TC,		/* hm_transit_tcin at tc ingress */
};

/**
 * hm_dev_is_veth() - whether a device is a veth
 * @ifindex:	the device, in the caller's network namespace
 *
 * By the driver name of ETHTOOL_GDRVINFO ("veth").
 *
 * Return: 1 for a veth, 0 for another device or one whose driver cannot
 * be read (ethtool not supported, device gone).
 */
int hm_dev_is_veth(__u32 ifindex);

/**
 * hm_transit_in_role() - the role of the transit ingress half on a device
 * @ifindex:	the device
 * @want:	the operator's choice; %HM_INGRESS_AUTO chooses by device type
 *
 * On a veth, XDP costs its receive path more than the program costs: the
 * skb becomes an xdp_buff and back, copied when its headroom is short, and
 * the peer loses TSO. The same program at tc ingress forwards faster there
 * (Documentation/performance-forwarding.rst gives the numbers and the
 * command). On other devices (native NICs with a driver XDP path) XDP runs
 * before any skb is built and stays the choice.
 *
 * Return: %HM_ROLE_TRANSIT_IN_TC or %HM_ROLE_TRANSIT_IN.
 */
enum hm_role hm_transit_in_role(__u32 ifindex, enum hm_ingress_hook want);

/**
 * hm_role_unload() - close a loaded object; what is attached stays
 * @p:		from hm_role_load(), or zeroed
 */
void hm_role_unload(struct hm_role_prog *p);

/**
 * hm_dev_check_ether() - whether a device's frames start with an Ethernet header
 * @ifindex:	the device, in the caller's network namespace
 * @msg:	the reason on refusal
 * @len:	size of @msg
 *
 * hopmark's programs read a 14-byte Ethernet header (struct ethhdr) before
 * the IP header; on a device of another link type (tun, ipip, ip6tnl, sit,
 * gre, wireguard: link/none, link/tunnel6, ...) they would read the IP
 * header as one. The device's type (SIOCGIFHWADDR's sa_family, the ARPHRD_*
 * `ip link` prints as link/TYPE) must be ARPHRD_ETHER, or ARPHRD_LOOPBACK,
 * whose frames carry an Ethernet header too (eth_header_ops).
 *
 * Return: 0; -EOPNOTSUPP for another link type, with @msg
 * "DEV is not an Ethernet device (link/TYPE): hopmark's BPF programs
 * parse Ethernet frames"; -ENODEV when @ifindex names no device; -errno
 * of socket(2) or ioctl(2).
 */
int hm_dev_check_ether(__u32 ifindex, char *msg, size_t len);

/**
 * hm_link_type_name() - `ip link`'s name of an ARPHRD_* link type
 * @type:	ARPHRD_* (linux/if_arp.h)
 * @buf:	output for a type without a name here, "[TYPE]"
 * @len:	size of @buf, 16 is enough
 *
 * Return: "ether", "loopback", "none", "tunnel6", ... or @buf.
 */
const char *hm_link_type_name(unsigned int type, char *buf, size_t len);

/**
 * hm_role_attach() - attach a loaded role's program to a device
 * @p:		from hm_role_load()
 * @ifindex:	the device
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * A tracing role (%HM_HOOK_TRACING) ignores @ifindex: its program is
 * linked to its tracepoint and the link pinned at <pin dir>/%HM_INT_DROP_LINK,
 * replacing (rename(2), atomically) a link pinned there before.
 *
 * Refuses a device without Ethernet frames (hm_dev_check_ether()) before
 * touching any hook. tc: creates the clsact qdisc if missing and attaches
 * at the role's handle and priority with BPF_TC_F_REPLACE (again is a
 * replacement). XDP: replaces our own program in the mode it runs in
 * (XDP_FLAGS_REPLACE: only if it is still the program seen), else attaches
 * in driver mode, generic if the driver has none; never replaces another
 * program (XDP_FLAGS_UPDATE_IF_NOEXIST).
 *
 * Return: 0; -EOPNOTSUPP (not Ethernet); -EBUSY when another XDP program
 * runs there; -EEXIST/-EBUSY when one was attached meanwhile; else the
 * error of the netlink request.
 */
int hm_role_attach(const struct hm_role_prog *p, __u32 ifindex, char *msg, size_t len);

/* hm_role_detach(): the XDP program there is not ours and stays (@msg says which). */
#define HM_DETACH_FOREIGN	1

/**
 * hm_role_detach() - remove a role's program from a device
 * @role:	the role
 * @ifindex:	the device
 * @msg:	the reason on failure, or the warning of %HM_DETACH_FOREIGN
 * @len:	size of @msg
 *
 * Removes only hopmark's own program: the tc filter at the role's handle
 * and priority, or the XDP program if it is the role's; for a tracing
 * role, its pinned link (@ifindex ignored), which detaches the program. Nothing attached is
 * not an error (disabling is idempotent); the clsact qdisc stays, since
 * other filters may use it.
 *
 * Return: 0; %HM_DETACH_FOREIGN when another XDP program runs there (left
 * attached); or negative errno of the query or the detach.
 */
int hm_role_detach(enum hm_role role, __u32 ifindex, char *msg, size_t len);

/**
 * struct hm_attach_info - what runs in one role's hook on a device
 * @prog_id:	id of the program attached there, 0 if none
 * @ours:	the program is the role's own (by name)
 * @xdp_mode:	"driver", "generic" or "offload" for an XDP role, else NULL
 * @name:	program name, empty if it could not be read
 */
struct hm_attach_info {
	__u32		prog_id;
	bool		ours;
	const char	*xdp_mode;
	char		name[16];
};

/**
 * hm_role_query() - which program runs in a role's hook on a device
 * @role:	the role
 * @ifindex:	the device
 * @info:	output; @info->prog_id 0 when nothing is attached
 *
 * For tc it looks at the role's own handle and priority only: filters
 * added with tc(8) elsewhere in the chain are not reported. For a tracing
 * role, the program of its pinned link (@ifindex ignored).
 *
 * Return: 0, or negative errno of the XDP query.
 */
int hm_role_query(enum hm_role role, __u32 ifindex, struct hm_attach_info *info);

#endif /* __HOPMARK_BPF_ATTACH_H */
