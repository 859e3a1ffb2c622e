// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * module.c - "hopmark module": the settings the hopmark kernel module owns
 * in this network namespace, over its generic netlink family: the node's
 * IOAM identity (RFC 9197 §4.4.2.1/9), its IOAM-Namespaces (mirroring the
 * kernel's own `ip ioam namespace`), interface IDs and features, and the
 * counters. The BPF datapath keeps its own settings in pinned maps
 * (hopmark node/link/ioam namespace); the module's are separate because it
 * is optional and may run without any BPF program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/genetlink.h>

#include "hopmark_cli.h"
#include "common/hopmark_genl_names.h"
#include "genl.h"

#define HM_NODE_ID_MAX		(HM_IOAM_U24_UNAVAILABLE - 1)
#define HM_NODE_ID_WIDE_MAX	(HM_IOAM_U56_UNAVAILABLE - 1)

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark module show\n"
		"       hopmark module node { set [ id ID ] [ wide-id ID ] | show }\n"
		"       hopmark module namespace { add NS [ data DATA32 ] [ wide DATA64 ] [ rate N ]\n"
		"                                | set NS [ data DATA32 ] [ wide DATA64 ] [ rate N ]\n"
		"                                | del NS | show [ NS ] }\n"
		"       hopmark module link { set dev DEV [ id IFID ] [ wide-id IFID ] | show [ dev DEV ] }\n"
		"       hopmark module counters [ show | reset ]\n"
		"where  ID (id) := 0..16777214, ID (wide-id) := 0..72057594037927934\n"
		"       NS := 0..65534 (IOAM-Namespace); rate := 0..%u events/s (0: no limit)\n"
		"       IFID (id) := 0..65534, IFID (wide-id) := 0..4294967294\n"
		"The settings of the hopmark kernel module in this network namespace; the BPF\n"
		"datapath has its own (hopmark node, link, ioam namespace).\n",
		HOPMARK_RATE_MAX);
}

/* ---- node ---- */

struct node_cfg {
	__u32 id;
	__u64 wide;
	bool has_id, has_wide;
};

static int node_get_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];
	struct node_cfg *n = data;

	if (hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (tb[HOPMARK_ATTR_NODE_ID] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_NODE_ID], MNL_TYPE_U32)) {
		n->id = mnl_attr_get_u32(tb[HOPMARK_ATTR_NODE_ID]);
		n->has_id = true;
	}
	if (tb[HOPMARK_ATTR_NODE_ID_WIDE] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_NODE_ID_WIDE], MNL_TYPE_U64)) {
		n->wide = mnl_attr_get_u64(tb[HOPMARK_ATTR_NODE_ID_WIDE]);
		n->has_wide = true;
	}
	return MNL_CB_OK;
}

/* Print the module's node IDs (null when unset); 0 or exit status. */
static int node_print(struct hm_genl *g)
{
	char buf[HM_GENL_BUF];
	struct node_cfg n = {};
	struct nlmsghdr *nlh;
	int err;

	nlh = hm_genl_msg(g, buf, HOPMARK_CMD_NODE_GET, NLM_F_ACK);
	err = hm_genl_talk(g, nlh, node_get_cb, &n);
	if (err)
		return hm_genl_errf(g, err, "cannot read the module's node IDs");
	if (n.has_id)
		print_uint(PRINT_ANY, "id", "id %llu", n.id);
	else
		print_null(PRINT_ANY, "id", "id %s", "unset");
	if (n.has_wide)
		print_uint(PRINT_ANY, "wide_id", " wide-id %llu", n.wide);
	else
		print_null(PRINT_ANY, "wide_id", " wide-id %s", "unset");
	return 0;
}

static int module_node(int argc, char **argv)
{
	char buf[HM_GENL_BUF];
	struct node_cfg n = {};
	struct hm_genl g = {};
	struct nlmsghdr *nlh;
	int err;

	if (argc < 1 || matches(*argv, "show") || matches(*argv, "list")) {
		if (argc > 1) {
			if (matches(argv[1], "help")) {
				usage(stdout);
				return HM_EXIT_OK;
			}
			unknown_arg("module node show", argv[1]);
		}
		if (hm_genl_connect(&g))
			return HM_EXIT_FAIL;
		new_json_obj();
		open_json_object(NULL);
		err = node_print(&g);
		print_nl();
		close_json_object();
		if (!err)
			delete_json_obj();
		hm_genl_close(&g);
		return err;
	}
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!matches(*argv, "set")) {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark module help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	argc--;
	argv++;
	while (argc > 0) {
		if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (n.has_id)
				duparg("id", *argv);
			n.id = get_u32_arg(*argv, HM_NODE_ID_MAX, "node id (24 bits)");
			n.has_id = true;
		} else if (matches(*argv, "wide-id")) {
			NEXT_ARG();
			if (n.has_wide)
				duparg("wide-id", *argv);
			n.wide = get_u64_arg(*argv, HM_NODE_ID_WIDE_MAX, "wide node id (56 bits)");
			n.has_wide = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("module node set", *argv);
		}
		argc--;
		argv++;
	}
	if (!n.has_id && !n.has_wide)
		missing_arg("id or wide-id", "module node set");
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	nlh = hm_genl_msg(&g, buf, HOPMARK_CMD_NODE_SET, NLM_F_ACK);
	if (n.has_id)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_NODE_ID, n.id);
	if (n.has_wide)
		mnl_attr_put_u64(nlh, HOPMARK_ATTR_NODE_ID_WIDE, n.wide);
	err = hm_genl_talk(&g, nlh, NULL, NULL);
	if (err)
		err = hm_genl_errf(&g, err, "cannot set the module's node IDs");
	hm_genl_close(&g);
	return err;
}

/* ---- counters ---- */

/*
 * Print a nested HOPMARK_ATTR_COUNTERS as "name value" pairs, named by
 * lib's table (common/hopmark_genl_names.h), "counter_N" when unnamed.
 */
static void counters_print(const struct nlattr *nest, const char *indent)
{
	const struct nlattr *a;

	open_json_object("counters");
	mnl_attr_for_each_nested(a, nest) {
		__u16 type = mnl_attr_get_type(a);
		char name[24];

		if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
			continue;
		if (hopmark_genl_counter_name(type))
			snprintf(name, sizeof(name), "%s", hopmark_genl_counter_name(type));
		else
			snprintf(name, sizeof(name), "counter_%u", type);
		print_text("%s%s ", indent, name);
		print_uint(PRINT_ANY, name, "%llu", mnl_attr_get_u64(a));
	}
	close_json_object();
}

static int counters_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];
	char name[IF_NAMESIZE];

	if (hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	open_json_object(NULL);
	if (tb[HOPMARK_ATTR_IFINDEX] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_IFINDEX], MNL_TYPE_U32)) {
		__u32 ifindex = mnl_attr_get_u32(tb[HOPMARK_ATTR_IFINDEX]);

		print_string(PRINT_ANY, "dev", "dev %s", ifname_or_index(ifindex, name));
		print_uint(PRINT_ANY, "ifindex", " ifindex %llu:", ifindex);
	} else {
		print_string(PRINT_ANY, "scope", "%s:", "netns");
	}
	if (tb[HOPMARK_ATTR_COUNTERS])
		counters_print(tb[HOPMARK_ATTR_COUNTERS], "\n    ");
	print_nl();
	close_json_object();
	return MNL_CB_OK;
}

static int module_counters(int argc, char **argv)
{
	char buf[HM_GENL_BUF];
	struct hm_genl g = {};
	struct nlmsghdr *nlh;
	bool reset = false;
	int err;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else if (matches(*argv, "reset")) {
			reset = true;
		} else if (!matches(*argv, "show") && !matches(*argv, "list")) {
			unknown_arg("module counters", *argv);
		}
		if (argc > 1)
			unknown_arg("module counters", argv[1]);
	}
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	if (reset) {
		nlh = hm_genl_msg(&g, buf, HOPMARK_CMD_COUNTERS_RESET, NLM_F_ACK);
		err = hm_genl_talk(&g, nlh, NULL, NULL);
		if (err)
			err = hm_genl_errf(&g, err, "cannot reset the module's counters");
	} else {
		nlh = hm_genl_msg(&g, buf, HOPMARK_CMD_COUNTERS_GET, NLM_F_DUMP);
		new_json_obj();
		err = hm_genl_talk(&g, nlh, counters_cb, NULL);
		if (err)
			err = hm_genl_errf(&g, err, "cannot read the module's counters");
		else
			delete_json_obj();
	}
	hm_genl_close(&g);
	return err;
}

/* ---- namespaces ---- */

static int ns_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];

	if (hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[HOPMARK_ATTR_NS_ID] || mnl_attr_validate(tb[HOPMARK_ATTR_NS_ID], MNL_TYPE_U16)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	open_json_object(NULL);
	print_uint(PRINT_ANY, "namespace", "namespace %llu",
		   mnl_attr_get_u16(tb[HOPMARK_ATTR_NS_ID]));
	if (tb[HOPMARK_ATTR_NS_DATA] && !mnl_attr_validate(tb[HOPMARK_ATTR_NS_DATA], MNL_TYPE_U32))
		print_uint(PRINT_ANY, "data", " data %llu", mnl_attr_get_u32(tb[HOPMARK_ATTR_NS_DATA]));
	if (tb[HOPMARK_ATTR_NS_DATA_WIDE] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_NS_DATA_WIDE], MNL_TYPE_U64))
		print_uint(PRINT_ANY, "wide", " wide %llu",
			   mnl_attr_get_u64(tb[HOPMARK_ATTR_NS_DATA_WIDE]));
	if (tb[HOPMARK_ATTR_RATE_LIMIT] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_RATE_LIMIT], MNL_TYPE_U32))
		print_uint(PRINT_ANY, "rate", " rate %llu",
			   mnl_attr_get_u32(tb[HOPMARK_ATTR_RATE_LIMIT]));
	if (show_stats && tb[HOPMARK_ATTR_COUNTERS])
		counters_print(tb[HOPMARK_ATTR_COUNTERS], " ");
	print_nl();
	close_json_object();
	return MNL_CB_OK;
}

static int module_ns(int argc, char **argv)
{
	char buf[HM_GENL_BUF], cmdname[8], what[32];
	bool have_id = false, have_data = false, have_wide = false, have_rate = false;
	__u32 id = 0, data = 0, rate = 0;
	struct hm_genl g = {};
	struct nlmsghdr *nlh;
	__u8 cmd;
	__u64 wide = 0;
	int err;

	if (argc < 1 || matches(*argv, "show") || matches(*argv, "list")) {
		cmd = HOPMARK_CMD_NS_GET;
		snprintf(cmdname, sizeof(cmdname), "show");
	} else if (matches(*argv, "add")) {
		cmd = HOPMARK_CMD_NS_ADD;
		snprintf(cmdname, sizeof(cmdname), "add");
	} else if (matches(*argv, "set")) {
		cmd = HOPMARK_CMD_NS_SET;
		snprintf(cmdname, sizeof(cmdname), "set");
	} else if (matches(*argv, "delete")) {
		cmd = HOPMARK_CMD_NS_DEL;
		snprintf(cmdname, sizeof(cmdname), "del");
	} else if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	} else {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark module help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	if (argc > 0) {
		argc--;
		argv++;
	}
	snprintf(what, sizeof(what), "module namespace %s", cmdname);
	while (argc > 0) {
		bool change = cmd == HOPMARK_CMD_NS_ADD || cmd == HOPMARK_CMD_NS_SET;

		if (change && !strcmp(*argv, "data")) {
			NEXT_ARG();
			if (have_data)
				duparg("data", *argv);
			data = get_u32_arg(*argv, 0xffffffffU, "namespace data (32 bits)");
			have_data = true;
		} else if (change && !strcmp(*argv, "wide")) {
			NEXT_ARG();
			if (have_wide)
				duparg("wide", *argv);
			wide = get_u64_arg(*argv, ~0ULL, "wide namespace data (64 bits)");
			have_wide = true;
		} else if (change && matches(*argv, "rate")) {
			NEXT_ARG();
			if (have_rate)
				duparg("rate", *argv);
			rate = get_u32_arg(*argv, HOPMARK_RATE_MAX, "rate limit (events/s)");
			have_rate = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else if (!have_id) {
			id = get_u32_arg(*argv, HM_NS_ID_MAX, "IOAM-Namespace ID");
			have_id = true;
		} else {
			unknown_arg(what, *argv);
		}
		argc--;
		argv++;
	}
	if (!have_id && cmd != HOPMARK_CMD_NS_GET)
		missing_arg("NS", what);
	if (cmd == HOPMARK_CMD_NS_SET && !have_data && !have_wide && !have_rate)
		missing_arg("data, wide or rate", what);

	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	if (cmd == HOPMARK_CMD_NS_GET) {
		nlh = hm_genl_msg(&g, buf, cmd, have_id ? NLM_F_ACK : NLM_F_DUMP);
		if (have_id)
			mnl_attr_put_u16(nlh, HOPMARK_ATTR_NS_ID, id);
		new_json_obj();
		err = hm_genl_talk(&g, nlh, ns_show_cb, NULL);
		if (err)
			err = hm_genl_errf(&g, err, "cannot read the module's IOAM-Namespaces");
		else
			delete_json_obj();
		goto out;
	}
	nlh = hm_genl_msg(&g, buf, cmd, NLM_F_ACK);
	mnl_attr_put_u16(nlh, HOPMARK_ATTR_NS_ID, id);
	if (have_data)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_NS_DATA, data);
	if (have_wide)
		mnl_attr_put_u64(nlh, HOPMARK_ATTR_NS_DATA_WIDE, wide);
	if (have_rate)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_RATE_LIMIT, rate);
	err = hm_genl_talk(&g, nlh, NULL, NULL);
	/* Without an explanation from the kernel, say what EEXIST/ENOENT mean here. */
	if (err == -EEXIST && !g.ext_msg[0])
		err = hm_errf(0, "IOAM-Namespace %u already exists in the module (del it, or use set)",
			      id);
	else if (err == -ENOENT && !g.ext_msg[0])
		err = hm_errf(0, "IOAM-Namespace %u does not exist in the module", id);
	else if (err)
		err = hm_genl_errf(&g, err, "cannot %s IOAM-Namespace %u", cmdname, id);
out:
	hm_genl_close(&g);
	return err;
}

/* ---- links ---- */

static const struct {
	__u32 bit;
	const char *name;
} feature_names[] = {
	{ HOPMARK_IF_F_INCREMENTAL,		"incremental" },
	{ HOPMARK_IF_F_INCREMENTAL_ENCAP,	"incremental-encap" },
	{ HOPMARK_IF_F_E2E_ENCAP,		"e2e-encap" },
	{ HOPMARK_IF_F_E2E_DECAP,		"e2e-decap" },
	{ HOPMARK_IF_F_DEX,			"dex" },
	{ HOPMARK_IF_F_DEX_ENCAP,		"dex-encap" },
	{ HOPMARK_IF_F_SRH_OFLAG,		"srh-oflag" },
};

static void link_print(const struct hm_if_state *s)
{
	unsigned int i;

	if (s->has_if_id)
		print_uint(PRINT_ANY, "id", " id %llu", s->if_id);
	if (s->has_if_id_wide)
		print_uint(PRINT_ANY, "wide_id", " wide-id %llu", s->if_id_wide);
	open_json_array(PRINT_JSON, "features");
	print_text(" features");
	for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		if (s->features & feature_names[i].bit)
			print_string(PRINT_ANY, NULL, " %s", feature_names[i].name);
	}
	if (!s->features)
		print_text(" none");
	close_json_array(PRINT_JSON, NULL);
}

static int module_link(int argc, char **argv)
{
	struct hm_if_state s = {};
	struct hm_genl g = {};
	const char *dev = NULL;
	int err;

	if (argc < 1 || matches(*argv, "show") || matches(*argv, "list")) {
		err = hm_feature_show("module link", ~0U, argc ? argc - 1 : 0,
				      argv ? argv + 1 : NULL, link_print);
		if (err < 0) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		return err;
	}
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!matches(*argv, "set")) {
		fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark module help\".\n",
			*argv);
		return HM_EXIT_USAGE;
	}
	argc--;
	argv++;
	while (argc > 0) {
		if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (s.has_if_id)
				duparg("id", *argv);
			s.if_id = get_u32_arg(*argv, HM_IOAM_U16_UNAVAILABLE - 1,
					      "interface id (16 bits)");
			s.has_if_id = true;
		} else if (matches(*argv, "wide-id")) {
			NEXT_ARG();
			if (s.has_if_id_wide)
				duparg("wide-id", *argv);
			s.if_id_wide = get_u32_arg(*argv, HM_IOAM_U32_UNAVAILABLE - 1,
						   "wide interface id (32 bits)");
			s.has_if_id_wide = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("module link set", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "module link set");
	if (!s.has_if_id && !s.has_if_id_wide)
		missing_arg("id or wide-id", "module link set");
	s.ifindex = get_ifindex_arg(dev);
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	err = hm_if_set(&g, &s, 0);
	if (err)
		err = hm_genl_errf(&g, err, "cannot set the module's IDs of dev %s", dev);
	hm_genl_close(&g);
	return err;
}

/* ---- module show ---- */

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(*(unsigned int *)data)++;
	return MNL_CB_OK;
}

static int module_show(int argc, char **argv)
{
	char buf[HM_GENL_BUF];
	unsigned int n_ns = 0, n_if = 0;
	struct hm_if_state *v = NULL;
	struct hm_genl g = {};
	struct nlmsghdr *nlh;
	int err;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("module show", *argv);
	}
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	nlh = hm_genl_msg(&g, buf, HOPMARK_CMD_NS_GET, NLM_F_DUMP);
	err = hm_genl_talk(&g, nlh, count_cb, &n_ns);
	if (err) {
		err = hm_genl_errf(&g, err, "cannot read the module's IOAM-Namespaces");
		goto out;
	}
	err = hm_if_dump(&g, &v, &n_if);
	if (err) {
		err = hm_genl_errf(&g, err, "cannot read the module's interfaces");
		goto out;
	}
	free(v);

	new_json_obj();
	open_json_object(NULL);
	print_string(PRINT_ANY, "family", "family %s", HOPMARK_GENL_NAME);
	print_uint(PRINT_ANY, "family_id", " id %llu", g.family_id);
	print_uint(PRINT_ANY, "version", " version %llu", g.version);
	print_uint(PRINT_ANY, "maxattr", " maxattr %llu", g.maxattr);
	print_text("\nnode ");
	open_json_object("node");
	err = node_print(&g);
	close_json_object();
	if (err)
		goto out;
	print_text("\nexport ");
	open_json_object("export");
	err = hm_export_print(&g);
	close_json_object();
	if (err)
		goto out;
	print_text("\n");
	print_uint(PRINT_ANY, "namespaces", "namespaces %llu", n_ns);
	print_uint(PRINT_ANY, "interfaces", " interfaces %llu", n_if);
	print_nl();
	close_json_object();
	delete_json_obj();
out:
	hm_genl_close(&g);
	return err;
}

/**
 * do_module() - "hopmark module { show | node | namespace | link | counters | help }"
 * @argc: words after "module"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_module(int argc, char **argv)
{
	if (argc < 1)
		return module_show(0, NULL);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return module_show(argc - 1, argv + 1);
	if (matches(*argv, "node"))
		return module_node(argc - 1, argv + 1);
	if (matches(*argv, "namespace"))
		return module_ns(argc - 1, argv + 1);
	if (matches(*argv, "link"))
		return module_link(argc - 1, argv + 1);
	if (matches(*argv, "counters") || matches(*argv, "statistics"))
		return module_counters(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: object \"%s\" is unknown, try \"hopmark module help\".\n", *argv);
	return HM_EXIT_USAGE;
}
