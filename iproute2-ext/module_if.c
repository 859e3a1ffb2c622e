// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * module_if.c - per-interface state of the hopmark kernel module
 * (HOPMARK_CMD_IF_SET / HOPMARK_CMD_IF_GET): interface IDs, the feature
 * bits of enum hopmark_if_feature and what an interface encapsulates.
 *
 * Every module-backed feature object (ioam incremental, e2e, dex, srh
 * oflag) is a bit here: "enable dev X" sets it, "disable dev X" clears it,
 * "show" lists the interfaces that have it. IF_SET carries the bits as a
 * bitfield32 whose selector names the bits to change, so enabling one
 * feature never touches another.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "hopmark_cli.h"
#include "genl.h"

/**
 * hm_parse_dev() - the "dev DEV" of an enable/disable/show command
 * @argc:	words
 * @argv:	the words
 * @cmd:	the command, for messages ("ioam dex enable")
 *
 * "dev" may be omitted before a lone name, as in `ip link`.
 *
 * Return: the device name; NULL if the words ask for help. Exits with a
 * message naming the word for anything else.
 */
const char *hm_parse_dev(int argc, char **argv, const char *cmd)
{
	const char *dev = NULL;

	while (argc > 0) {
		if (matches(*argv, "help")) {
			return NULL;
		} else if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!dev && argc == 1) {
			dev = *argv;
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

/**
 * hm_encap_arg() - a word every module encapsulation takes
 * @argcp:	words left; advanced past the value of a word taken
 * @argvp:	the words; advanced likewise
 * @dev:	set by "dev DEV"
 * @s:		set by "ns ID" and, with @trace_type, "trace-type TYPE"
 * @trace_type:	whether this encapsulation takes a trace-type
 *
 * The words shared by `hopmark ioam { incremental | e2e | dex } encap add`.
 *
 * Return: true if the word was taken, false if the caller must read it.
 * Exits with a message naming the word on a duplicate or a bad value.
 */
bool hm_encap_arg(int *argcp, char ***argvp, const char **dev, struct hm_if_state *s,
		  bool trace_type)
{
	char **argv = *argvp;
	int argc = *argcp;

	if (!strcmp(*argv, "dev")) {
		NEXT_ARG();
		if (*dev)
			duparg("dev", *argv);
		*dev = *argv;
	} else if (!strcmp(*argv, "ns")) {
		NEXT_ARG();
		if (s->has_encap_ns)
			duparg("ns", *argv);
		s->encap_ns = get_u32_arg(*argv, HM_NS_ID_MAX, "IOAM-Namespace ID");
		s->has_encap_ns = true;
	} else if (trace_type && matches(*argv, "trace-type") && strlen(*argv) > 1) {
		NEXT_ARG();
		if (s->has_trace_type)
			duparg("trace-type", *argv);
		s->trace_type = hm_parse_trace_type(*argv);
		s->has_trace_type = true;
	} else {
		return false;
	}
	*argcp = argc;
	*argvp = argv;
	return true;
}

/**
 * hm_encap_require() - check the words every module encapsulation needs
 * @dev:	the "dev" value or NULL
 * @s:		the settings read
 * @cmd:	the command, for messages ("ioam dex encap add")
 *
 * Exits with a message naming the first missing word: dev, then ns.
 */
void hm_encap_require(const char *dev, const struct hm_if_state *s, const char *cmd)
{
	if (!dev)
		missing_arg("dev", cmd);
	if (!s->has_encap_ns)
		missing_arg("ns", cmd);
}

/**
 * hm_encap_commit() - send an encapsulation's settings to the module
 * @dev:	interface name
 * @s:		settings; @s->ifindex is filled from @dev
 * @feature:	the HOPMARK_IF_F_*_ENCAP bit to turn on
 * @what:	its name for messages ("DEX")
 *
 * Return: exit status (0, or HM_EXIT_FAIL with the kernel's explanation).
 */
int hm_encap_commit(const char *dev, struct hm_if_state *s, __u32 feature, const char *what)
{
	struct hm_genl g = {};
	int err;

	s->ifindex = get_ifindex_arg(dev);
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	err = hm_if_set(&g, s, feature);
	if (err)
		err = hm_genl_errf(&g, err, "cannot add %s encapsulation on dev %s", what, dev);
	hm_genl_close(&g);
	return err;
}

/**
 * hm_parse_trace_type() - an IOAM-Trace-Type an encapsulating node may send
 * @arg:	text, e.g. 0xf00000
 *
 * RFC 9197 §4.4.1: 24 bits, bits 12-21 undefined and bit 23 reserved (an
 * encapsulating node sets them to 0), at least one field selected.
 *
 * Return: the Trace-Type; exits with a message naming @arg otherwise.
 */
__u32 hm_parse_trace_type(const char *arg)
{
	__u32 type = get_u32_arg(arg, HM_IOAM_TT_MASK, "IOAM-Trace-Type (24 bits)");
	char msg[160];
	__u32 refused;

	/* Outside HM_IOAM_TT_ENCAP_MASK, the rule hopmark.ko applies too. */
	refused = type & ~HM_IOAM_TT_ENCAP_MASK;
	if (refused & HM_IOAM_TT_UNDEFINED_MASK) {
		snprintf(msg, sizeof(msg),
			 "bits 12-21 (mask 0x%06x) are undefined and must be 0 (RFC 9197 Section 4.4.1); here 0x%06x",
			 HM_IOAM_TT_UNDEFINED_MASK, refused & HM_IOAM_TT_UNDEFINED_MASK);
		invarg(msg, arg);
	}
	if (refused)	/* what is left of it: the reserved bit 23 */
		invarg("bit 23 (0x000001) is reserved and must be 0 (RFC 9197 Section 4.4.1)", arg);
	if (!type)
		invarg("the IOAM-Trace-Type selects no data field", arg);
	return type;
}

/**
 * hm_if_set() - send HOPMARK_CMD_IF_SET
 * @g:		connected socket
 * @s:		@s->ifindex, the bits of @s->features under @selector, and every
 *		field whose has_ flag is set
 * @selector:	feature bits to change (0: features untouched)
 *
 * Return: 0 or the kernel's negative errno (@g holds its explanation).
 */
int hm_if_set(struct hm_genl *g, const struct hm_if_state *s, __u32 selector)
{
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh = hm_genl_msg(g, buf, HOPMARK_CMD_IF_SET, NLM_F_ACK);

	mnl_attr_put_u32(nlh, HOPMARK_ATTR_IFINDEX, s->ifindex);
	if (selector) {
		struct nla_bitfield32 bf = { .value = s->features & selector,
					     .selector = selector };

		mnl_attr_put(nlh, HOPMARK_ATTR_IF_FEATURES, sizeof(bf), &bf);
	}
	if (s->has_if_id)
		mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ID, s->if_id);
	if (s->has_if_id_wide)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_IF_ID_WIDE, s->if_id_wide);
	if (s->has_encap_ns)
		mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ENCAP_NS, s->encap_ns);
	if (s->has_trace_type)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE, s->trace_type);
	if (s->has_remlen)
		mnl_attr_put_u8(nlh, HOPMARK_ATTR_IF_ENCAP_REMLEN, s->remlen);
	if (s->has_e2e_type)
		mnl_attr_put_u16(nlh, HOPMARK_ATTR_IF_ENCAP_E2E_TYPE, s->e2e_type);
	return hm_genl_talk(g, nlh, NULL, NULL);
}

/* Read one IF_GET reply into a struct hm_if_state. */
static int if_parse(const struct nlmsghdr *nlh, struct hm_if_state *s)
{
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];

	memset(s, 0, sizeof(*s));
	if (hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[HOPMARK_ATTR_IFINDEX] ||
	    mnl_attr_validate(tb[HOPMARK_ATTR_IFINDEX], MNL_TYPE_U32) < 0) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	s->ifindex = mnl_attr_get_u32(tb[HOPMARK_ATTR_IFINDEX]);
	if (tb[HOPMARK_ATTR_IFNAME] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IFNAME], MNL_TYPE_NUL_STRING) == 0)
		snprintf(s->ifname, sizeof(s->ifname), "%s",
			 mnl_attr_get_str(tb[HOPMARK_ATTR_IFNAME]));
	if (tb[HOPMARK_ATTR_IF_FEATURES] &&
	    mnl_attr_get_payload_len(tb[HOPMARK_ATTR_IF_FEATURES]) >= sizeof(struct nla_bitfield32)) {
		const struct nla_bitfield32 *bf = mnl_attr_get_payload(tb[HOPMARK_ATTR_IF_FEATURES]);

		s->features = bf->value;
	}
	if (tb[HOPMARK_ATTR_IF_ID] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ID], MNL_TYPE_U16) == 0) {
		s->if_id = mnl_attr_get_u16(tb[HOPMARK_ATTR_IF_ID]);
		s->has_if_id = true;
	}
	if (tb[HOPMARK_ATTR_IF_ID_WIDE] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ID_WIDE], MNL_TYPE_U32) == 0) {
		s->if_id_wide = mnl_attr_get_u32(tb[HOPMARK_ATTR_IF_ID_WIDE]);
		s->has_if_id_wide = true;
	}
	if (tb[HOPMARK_ATTR_IF_ENCAP_NS] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ENCAP_NS], MNL_TYPE_U16) == 0) {
		s->encap_ns = mnl_attr_get_u16(tb[HOPMARK_ATTR_IF_ENCAP_NS]);
		s->has_encap_ns = true;
	}
	if (tb[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE], MNL_TYPE_U32) == 0) {
		s->trace_type = mnl_attr_get_u32(tb[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE]);
		s->has_trace_type = true;
	}
	if (tb[HOPMARK_ATTR_IF_ENCAP_REMLEN] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ENCAP_REMLEN], MNL_TYPE_U8) == 0) {
		s->remlen = mnl_attr_get_u8(tb[HOPMARK_ATTR_IF_ENCAP_REMLEN]);
		s->has_remlen = true;
	}
	if (tb[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE] &&
	    mnl_attr_validate(tb[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE], MNL_TYPE_U16) == 0) {
		s->e2e_type = mnl_attr_get_u16(tb[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE]);
		s->has_e2e_type = true;
	}
	return MNL_CB_OK;
}

static int if_get_cb(const struct nlmsghdr *nlh, void *data)
{
	return if_parse(nlh, data);
}

/**
 * hm_if_get() - HOPMARK_CMD_IF_GET of one interface
 * @g:		connected socket
 * @ifindex:	interface
 * @s:		output
 *
 * Return: 0; -ENOENT (or -ENODEV) when the module has no entry for it;
 * other negative errno.
 */
int hm_if_get(struct hm_genl *g, __u32 ifindex, struct hm_if_state *s)
{
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh = hm_genl_msg(g, buf, HOPMARK_CMD_IF_GET, NLM_F_ACK);

	memset(s, 0, sizeof(*s));
	mnl_attr_put_u32(nlh, HOPMARK_ATTR_IFINDEX, ifindex);
	return hm_genl_talk(g, nlh, if_get_cb, s);
}

struct if_list {
	struct hm_if_state *v;
	unsigned int n, cap;
};

static int if_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct if_list *l = data;

	if (l->n == l->cap) {
		unsigned int cap = l->cap ? 2 * l->cap : 16;
		struct hm_if_state *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		l->v = v;
		l->cap = cap;
	}
	if (if_parse(nlh, &l->v[l->n]) != MNL_CB_OK)
		return MNL_CB_ERROR;
	l->n++;
	return MNL_CB_OK;
}

static int cmp_ifindex(const void *a, const void *b)
{
	const struct hm_if_state *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

/**
 * hm_if_dump() - every interface the module has an entry for
 * @g:		connected socket
 * @out:	array allocated here (free() it), sorted by ifindex
 * @n:		entries in @out
 *
 * Return: 0 or negative errno (then nothing to free).
 */
int hm_if_dump(struct hm_genl *g, struct hm_if_state **out, unsigned int *n)
{
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh = hm_genl_msg(g, buf, HOPMARK_CMD_IF_GET, NLM_F_DUMP);
	struct if_list l = {};
	int err;

	err = hm_genl_talk(g, nlh, if_dump_cb, &l);
	if (err) {
		free(l.v);
		return err;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_ifindex);
	*out = l.v;
	*n = l.n;
	return 0;
}

/**
 * hm_feature_toggle() - "{ enable | disable } dev DEV" of a feature bit
 * @cmd:	the command's words for messages, e.g. "ioam dex enable"
 * @what:	the feature for messages, e.g. "IOAM Direct Export"
 * @bit:	enum hopmark_if_feature bit
 * @on:		enable or disable
 * @argc:	words after enable/disable
 * @argv:	the words
 *
 * Disabling what is not enabled succeeds, as `ip link set ... down` on a
 * down link does.
 *
 * Return: exit status.
 */
int hm_feature_toggle(const char *cmd, const char *what, __u32 bit, bool on,
		      int argc, char **argv)
{
	struct hm_if_state s = {};
	struct hm_genl g = {};
	const char *dev;
	int err;

	dev = hm_parse_dev(argc, argv, cmd);
	if (!dev)
		return -1;	/* help: the caller prints its usage */
	s.ifindex = get_ifindex_arg(dev);
	s.features = on ? bit : 0;
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	err = hm_if_set(&g, &s, bit);
	if (err)
		err = hm_genl_errf(&g, err, "cannot %s %s on dev %s",
				   on ? "enable" : "disable", what, dev);
	hm_genl_close(&g);
	return err;
}

/**
 * hm_print_dev() - the "dev NAME" and ifindex of a show line
 * @s: the interface
 */
void hm_print_dev(const struct hm_if_state *s)
{
	char name[IF_NAMESIZE];

	print_string(PRINT_ANY, "dev", "dev %s",
		     s->ifname[0] ? s->ifname : ifname_or_index(s->ifindex, name));
	print_uint(PRINT_ANY, "ifindex", " ifindex %llu", s->ifindex);
}

/**
 * hm_feature_show() - "show [ dev DEV ]" of a feature object
 * @obj:	the object's words, for messages
 * @mask:	feature bits of the object; without "dev", interfaces with
 *		none of them are not listed (~0U: every interface is)
 * @argc:	words after "show"
 * @argv:	the words
 * @print:	prints one interface's fields (between open/close of its
 *		JSON object, before the end of its text line)
 *
 * Return: exit status; -1 when the words asked for help.
 */
int hm_feature_show(const char *obj, __u32 mask, int argc, char **argv,
		    void (*print)(const struct hm_if_state *s))
{
	struct hm_if_state *v = NULL, one;
	struct hm_genl g = {};
	unsigned int n = 0, i;
	char cmd[64];
	__u32 ifindex = 0;
	int err;

	snprintf(cmd, sizeof(cmd), "%s show", obj);
	if (argc > 0) {
		const char *dev = hm_parse_dev(argc, argv, cmd);

		if (!dev)
			return -1;
		ifindex = get_ifindex_arg(dev);
	}
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	if (ifindex) {
		err = hm_if_get(&g, ifindex, &one);
		if (err == -ENOENT || err == -ENODEV) {
			/* No entry: nothing enabled there. */
			memset(&one, 0, sizeof(one));
			one.ifindex = ifindex;
			err = 0;
		}
		v = &one;
		n = 1;
	} else {
		err = hm_if_dump(&g, &v, &n);
	}
	if (err) {
		err = hm_genl_errf(&g, err, "cannot read the module's interfaces");
		goto out;
	}
	new_json_obj();
	for (i = 0; i < n; i++) {
		if (!ifindex && mask != ~0U && !(v[i].features & mask))
			continue;
		open_json_object(NULL);
		hm_print_dev(&v[i]);
		print(&v[i]);
		print_nl();
		close_json_object();
	}
	delete_json_obj();
out:
	if (v != &one)
		free(v);
	hm_genl_close(&g);
	return err;
}
