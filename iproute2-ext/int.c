// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int.c - "hopmark int ...": the INT v2.1 datapath's domain settings,
 * watchlist, sampling, report destination and per-interface roles (see
 * hopmark-int(8), Documentation/int.rst, "Operating INT").
 *
 *	hopmark int set [ mode { md | mx | xd } ] [ signal { dscp VALUE[/MASK] | udp PORT } ]
 *			[ instructions BITMAP ] [ max-hops N ] [ ds-id N ] [ ds-instruction N ]
 *			[ hw-id N ] [ report-trunc BYTES ] [ queue-threshold BYTES ]
 *	hopmark int watch add [ src PREFIX ] [ dst PREFIX ] [ proto { tcp | udp | NUM } ]
 *			      [ sport PORT[/MASK] ] [ dport PORT[/MASK] ] [ synthetic ]
 *	hopmark int watch { del INDEX | flush }
 *	hopmark int sample { all | packet N | flow N [ seed S ] }
 *	hopmark int report { set collector ADDR port PORT [ src ADDR ] [ sport PORT ]
 *			     [ coalesce N ] | del }
 *	hopmark int enable dev DEV role { source | transit | sink | xd | xdp-source }
 *			   [ mtu N ] [ rate RATE ]
 *	hopmark int disable dev DEV [ role { source | transit | sink | xd | xdp-source } ]
 *	hopmark int drops { on | off }
 *	hopmark [ -j ] [ -p ] [ -s ] int show
 *
 * Settings live in the pinned maps of lib/int/int_maps.h (int_cfg[0], the
 * domain; int_ifcfg[ifindex], the roles); the rules and text forms of the
 * settings are libhopmark's (int/int_settings.h), so that every node given
 * the same commands holds the same bytes. Programs are loaded from
 * bpf/hopmark_int.bpf.c (hopmark_int_xdp.bpf.c for xdp-source,
 * hopmark_int_drop.bpf.c for drops) and attached by libhopmark's roles layer
 * (common/bpf_attach.h, through attach.c); output goes through the print
 * layer (json_print.c): text and -j come from the same calls.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark_cli.h"
#include "common/bpf_pin.h"
#include "budget/budget.h"
#include "int/int_names.h"
#include "int/int_settings.h"
#include "pbt/pbt_settings.h"	/* pbt_int_dscp_check() */
#include "ipv4/ipv4.h"

#define MSG_LEN		320

/*
 * The roles of `int enable`: the interface flag each sets (int_ifcfg) and
 * the programs it needs, at tc egress, at tc ingress and at XDP of the
 * device (%HM_ROLE_MAX: none). A transit hop stamps the arrival at ingress
 * (hm_int_ingress) and pushes its metadata at egress; an INT-XD node runs
 * the same two programs: the arrival stamp gives its reports hop latency
 * and ingress timestamp, the transit program reports the watched packets
 * without INT (%INT_IF_F_XD); with both flags it does each to its own
 * packets. At the domain's end host the sink role reports in INT-XD mode
 * (hm_int_sink, %INT_REC_XD, the packet left alone). The
 * XDP source (hm_int_xdp_src) gives INT-MD to TCP segments as they arrive
 * on the first INT node's ingress device (Documentation/int.rst, "GSO and
 * TSO").
 */
static const struct int_role {
	const char	*name;
	__u32		flag;
	enum hm_role	egress;
	enum hm_role	ingress;
	enum hm_role	xdp;
} int_roles[] = {
	{ "source",	INT_IF_F_SOURCE,	HM_ROLE_INT_SOURCE,	HM_ROLE_MAX,	HM_ROLE_MAX },
	{ "transit",	INT_IF_F_TRANSIT,	HM_ROLE_INT_TRANSIT,	HM_ROLE_INT_INGRESS,
	  HM_ROLE_MAX },
	{ "sink",	INT_IF_F_SINK,		HM_ROLE_MAX,		HM_ROLE_INT_SINK, HM_ROLE_MAX },
	{ "xd",		INT_IF_F_XD,		HM_ROLE_INT_TRANSIT,	HM_ROLE_INT_INGRESS,
	  HM_ROLE_MAX },
	{ "xdp-source",	INT_IF_F_XDP_SOURCE,	HM_ROLE_MAX,		HM_ROLE_MAX,
	  HM_ROLE_INT_XDP_SOURCE },
};
#define NR_INT_ROLES	(sizeof(int_roles) / sizeof(int_roles[0]))

/* Every per-interface INT program, in the order show lists them. */
static const enum hm_role int_progs[] = {
	HM_ROLE_INT_XDP_SOURCE, HM_ROLE_INT_INGRESS, HM_ROLE_INT_SINK, HM_ROLE_INT_SOURCE,
	HM_ROLE_INT_TRANSIT,
};
#define NR_INT_PROGS	(sizeof(int_progs) / sizeof(int_progs[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark int set [ mode { md | mx | xd } ] [ signal { dscp VALUE[/MASK] | udp PORT } ]\n"
		"                       [ instructions BITMAP ] [ max-hops N ] [ ds-id N ] [ ds-instruction N ]\n"
		"                       [ hw-id N ] [ report-trunc BYTES ] [ queue-threshold BYTES ]\n"
		"       hopmark int watch add [ src PREFIX ] [ dst PREFIX ] [ proto { tcp | udp | NUM } ]\n"
		"                             [ sport PORT[/MASK] ] [ dport PORT[/MASK] ] [ synthetic ]\n"
		"       hopmark int watch { del INDEX | flush }\n"
		"       hopmark int sample { all | packet N | flow N [ seed S ] }\n"
		"       hopmark int report set collector ADDR port PORT [ src ADDR ] [ sport PORT ]\n"
		"                              [ coalesce N ]\n"
		"       hopmark int report del\n"
		"       hopmark int enable dev DEV role { source | transit | sink | xd | xdp-source }\n"
		"                          [ mtu N ] [ rate RATE ]\n"
		"       hopmark int disable dev DEV [ role { source | transit | sink | xd | xdp-source } ]\n"
		"       hopmark int drops { on | off }\n"
		"       hopmark [ -j ] [ -p ] [ -s ] int show\n"
		"BITMAP := { 0xNNNN | NAME[,NAME...] }\n"
		"NAME := { node-id | l1-ports | hop-latency | queue | ingress-ts | egress-ts |\n"
		"          l2-ports | tx-util | buffer | csum-complement }\n"
		"PREFIX := IPv4 or IPv6 ADDR[/LEN]\n"
		"RATE := bits per second, with an optional k, m or g suffix (e.g. 10m)\n");
}

/* ---------------- maps ---------------- */

/*
 * cfg_open() - fd of int_cfg, created with every INT map when missing (one
 * object holds every INT program and map).
 */
static int cfg_open(void)
{
	return map_open_or_create(INT_MAP_CFG, HM_ROLE_INT_SOURCE);
}

static int cfg_read(int fd, struct int_domain_cfg *cfg)
{
	return map_read_single(fd, INT_MAP_CFG, cfg);
}

static int cfg_write(int fd, const struct int_domain_cfg *cfg)
{
	return map_write_single(fd, INT_MAP_CFG, cfg);
}

/* The MTU the datapath holds a source's packets to: the configured one, else the device's. */
static __u32 if_mtu(__u32 ifindex, const struct int_if_cfg *ic)
{
	__u32 mtu = 0;

	if (!ic->mtu && budget_dev_mtu(ifindex, &mtu))
		return 0;
	return ic->mtu ? ic->mtu : mtu;
}

/* The shim's NPT the domain's signalling gives at worst: 2 (TCP under UDP-port signalling). */
static __u32 cfg_npt(const struct int_domain_cfg *cfg)
{
	return cfg->signal == INT_SIG_UDP ? INT_NPT_L4 : INT_NPT_DSCP;
}

/*
 * The budget model's warning (budget_warn_int_md(), hm_budget_int_md_fit())
 * when the INT-MD trace at max-hops, beside the smallest instrumented
 * packet's headers (IPv4 + UDP), cannot fit @mtu. INT-MX carries 16 (+ 8)
 * octets whatever the path, INT-XD nothing: neither can pass an MTU of
 * at least 68.
 */
static void warn_mtu_dev(const struct int_domain_cfg *cfg, const char *dev, __u32 mtu)
{
	if (cfg->mode == INT_MODE_MD && mtu)
		budget_warn_int_md(dev, mtu, cfg->bitmap, cfg->max_hops, cfg_npt(cfg),
				   HM_IPV4_HDR_LEN + 8);
}

/*
 * A warning for every source interface whose MTU the domain's full trace
 * does not fit (INT v2.1 §5.3: such packets get M, or no INT). Never an
 * error: the operator may raise the MTU afterwards.
 */
static void warn_mtu(const struct int_domain_cfg *cfg)
{
	int fd = hm_map_open(INT_MAP_IFCFG);
	__u32 key, next, *prev = NULL;
	char name[IF_NAMESIZE];
	struct int_if_cfg ic;

	if (fd < 0)
		return;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &ic) ||
		    !(ic.flags & (INT_IF_F_SOURCE | INT_IF_F_XDP_SOURCE)))
			continue;
		warn_mtu_dev(cfg, ifname_or_index(key, name), if_mtu(key, &ic));
	}
	close(fd);
}

/*
 * xdp_source_misfit() - why the domain @cfg cannot run the XDP source
 * @cfg:	the domain (its defaults when not configured)
 * @msg:	output, the reason
 * @len:	size of @msg
 *
 * hm_int_xdp_src writes INT-MD with NPT=2 (a new UDP header before the TCP
 * header, which stays where it was): it needs mode md and UDP-port
 * signalling; with others it would only count its packets
 * (xdp_unsupported). Return: true when it cannot apply, with @msg.
 */
static bool xdp_source_misfit(const struct int_domain_cfg *cfg, char *msg, size_t len)
{
	if (cfg->mode != INT_MODE_MD) {
		snprintf(msg, len, "the XDP source writes INT-MD only and the domain's mode is %s",
			 cfg->mode <= INT_MODE_XD ? int_mode_names[cfg->mode] : "unknown");
		return true;
	}
	if (cfg->signal != INT_SIG_UDP) {
		snprintf(msg, len,
			 "the XDP source gives TCP NPT=2 INT, which needs UDP-port signalling, and the domain signals by DSCP%s",
			 cfg->flags & INT_DOM_F_CONFIGURED ? "" :
			 " (not configured yet: \"hopmark int set signal udp PORT\" first)");
		return true;
	}
	return false;
}

/* The first interface with role xdp-source (its name in @name), 0 if none. */
static __u32 xdp_source_dev(char *name)
{
	int fd = hm_map_open(INT_MAP_IFCFG);
	__u32 key, next, *prev = NULL, found = 0;
	struct int_if_cfg ic;

	if (fd < 0)
		return 0;
	while (!found && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &ic) && (ic.flags & INT_IF_F_XDP_SOURCE))
			found = key;
	}
	close(fd);
	if (found)
		ifname_or_index(found, name);
	return found;
}

/*
 * Read int_cfg[0] (with the defaults when nobody configured the domain),
 * for a command to change; cfg_commit() checks and writes it back.
 */
static int cfg_begin(struct int_domain_cfg *cfg)
{
	int fd = cfg_open();

	if (fd < 0)
		return -1;
	if (cfg_read(fd, cfg)) {
		close(fd);
		return -1;
	}
	int_cfg_defaults(cfg);
	return fd;
}

/*
 * Check, write and close; @arg, when given, is the word an invalid value is
 * blamed on. `int set` (the only command that changes the trace's size)
 * then warns about source MTUs the trace cannot fit.
 */
static int cfg_commit(int fd, struct int_domain_cfg *cfg, const char *arg, bool mtu_warn)
{
	char msg[MSG_LEN];
	int ret;

	if (int_cfg_commit(cfg, msg, sizeof(msg))) {
		close(fd);
		if (arg)
			invarg(msg, arg);
		return hm_errf(0, "%s", msg);
	}
	ret = cfg_write(fd, cfg);
	close(fd);
	if (!ret && mtu_warn)
		warn_mtu(cfg);
	return ret;
}

/* ---------------- set ---------------- */

/* The words of `int set`: their index in do_set()'s seen[]. */
enum {
	SET_MODE, SET_SIGNAL, SET_BITMAP, SET_MAX_HOPS, SET_DS_ID, SET_DS_INST, SET_HW_ID,
	SET_TRUNC, SET_Q_THRESHOLD, SET_MAX,
};

/*
 * do_set() - parse every word first, so that a command line that does not
 * parse touches nothing (no map is created for it); then read, change the
 * settings given, check (int_cfg_commit()) and write.
 */
static int do_set(int argc, char **argv)
{
	const char *blame = NULL;	/* the last word a cross-check may refuse */
	const char *mode_word = NULL, *signal_word = NULL;
	struct int_domain_cfg v = { 0 }, cfg;
	char dev[IF_NAMESIZE];
	bool seen[SET_MAX] = { 0 };
	char msg[MSG_LEN];
	int fd;

	if (argc > 0 && matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (argc < 1)
		missing_arg("a setting", "int set");
/* After NEXT_ARG(): the value is *argv. */
#define ONCE(i, key) do { if (seen[i]) duparg(key, *argv); seen[i] = true; } while (0)
	while (argc > 0) {
		if (matches(*argv, "mode")) {
			NEXT_ARG();
			ONCE(SET_MODE, "mode");
			if (!strcmp(*argv, "md"))
				v.mode = INT_MODE_MD;
			else if (!strcmp(*argv, "mx"))
				v.mode = INT_MODE_MX;
			else if (!strcmp(*argv, "xd"))
				v.mode = INT_MODE_XD;
			else
				invarg("mode is md, mx or xd", *argv);
			blame = mode_word = *argv;
		} else if (matches(*argv, "signal")) {
			NEXT_ARG();
			ONCE(SET_SIGNAL, "signal");
			if (matches(*argv, "dscp")) {
				NEXT_ARG();
				if (int_dscp_parse(*argv, &v.dscp, &v.dscp_mask, msg, sizeof(msg)))
					invarg(msg, *argv);
				v.signal = INT_SIG_DSCP;
			} else if (matches(*argv, "udp")) {
				NEXT_ARG();
				v.udp_port = get_u32_arg(*argv, 0xffff, "the INT UDP port");
				if (!v.udp_port)
					invarg("the INT UDP port is 1..65535", *argv);
				v.signal = INT_SIG_UDP;
			} else {
				invarg("signal is dscp VALUE[/MASK] or udp PORT", *argv);
			}
			blame = signal_word = *argv;
		} else if (matches(*argv, "instructions")) {
			NEXT_ARG();
			ONCE(SET_BITMAP, "instructions");
			if (int_bitmap_parse(*argv, &v.bitmap, msg, sizeof(msg)))
				invarg(msg, *argv);
			blame = *argv;
		} else if (matches(*argv, "max-hops")) {
			NEXT_ARG();
			ONCE(SET_MAX_HOPS, "max-hops");
			v.max_hops = get_u32_arg(*argv, 255, "max-hops (the Remaining Hop Count)");
			if (!v.max_hops)
				invarg("max-hops is 1..255", *argv);
			blame = *argv;
		} else if (matches(*argv, "ds-id")) {
			NEXT_ARG();
			ONCE(SET_DS_ID, "ds-id");
			v.ds_id = get_u32_arg(*argv, 0xffff, "ds-id");
		} else if (matches(*argv, "ds-instruction")) {
			NEXT_ARG();
			ONCE(SET_DS_INST, "ds-instruction");
			v.ds_inst = get_u32_arg(*argv, 0xffff, "ds-instruction");
		} else if (matches(*argv, "hw-id")) {
			NEXT_ARG();
			ONCE(SET_HW_ID, "hw-id");
			v.hw_id = get_u32_arg(*argv, INT_HW_ID_MAX, "hw-id (6 bits)");
		} else if (matches(*argv, "report-trunc")) {
			NEXT_ARG();
			ONCE(SET_TRUNC, "report-trunc");
			v.report_trunc = get_u32_arg(*argv, INT_REC_PKT_MAX, "report-trunc (bytes)");
		} else if (matches(*argv, "queue-threshold")) {
			NEXT_ARG();
			ONCE(SET_Q_THRESHOLD, "queue-threshold");
			v.q_threshold = get_u32_arg(*argv, INT_Q_THRESHOLD_MAX,
						    "queue-threshold (bytes, the 24-bit occupancy)");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("int set", *argv);
		}
		argc--;
		argv++;
	}
#undef ONCE
	fd = cfg_begin(&cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (seen[SET_MODE])
		cfg.mode = v.mode;
	if (seen[SET_SIGNAL]) {
		cfg.signal = v.signal;
		if (v.signal == INT_SIG_DSCP) {
			cfg.dscp = v.dscp;
			cfg.dscp_mask = v.dscp_mask;
		} else {
			cfg.udp_port = v.udp_port;
		}
	}
	if (seen[SET_BITMAP])
		cfg.bitmap = v.bitmap;
	if (seen[SET_MAX_HOPS])
		cfg.max_hops = v.max_hops;
	if (seen[SET_DS_ID])
		cfg.ds_id = v.ds_id;
	if (seen[SET_DS_INST])
		cfg.ds_inst = v.ds_inst;
	if (seen[SET_HW_ID])
		cfg.hw_id = v.hw_id;
	if (seen[SET_TRUNC])
		cfg.report_trunc = v.report_trunc;
	if (seen[SET_Q_THRESHOLD])
		cfg.q_threshold = v.q_threshold;
	/* An XDP source keeps the domain to what it can do (xdp_source_misfit()). */
	if ((mode_word || signal_word) && xdp_source_misfit(&cfg, msg, sizeof(msg)) &&
	    xdp_source_dev(dev)) {
		char why[MSG_LEN + 2 * IF_NAMESIZE + 128];

		close(fd);
		snprintf(why, sizeof(why), "%s runs the XDP source: %s (\"hopmark int disable dev %s role xdp-source\" first)",
			 dev, msg, dev);
		invarg(why, cfg.mode != INT_MODE_MD && mode_word ? mode_word :
		       signal_word ? signal_word : mode_word);
	}
	/* A DSCP signal leaves PBT-M's configured mark bits clear. */
	if (seen[SET_SIGNAL] && v.signal == INT_SIG_DSCP) {
		struct int_domain_cfg chk = cfg;
		struct pbt_domain_cfg pc;
		int pfd = hm_map_open(PBT_MAP_CFG);
		__u32 zero = 0;
		__u8 bits = 0;

		if (pfd >= 0) {
			if (!bpf_map_lookup_elem(pfd, &zero, &pc))
				bits = pbt_mark_tos_bits(&pc);
			close(pfd);
		}
		chk.flags |= INT_DOM_F_CONFIGURED;	/* as cfg_commit() will make it */
		if (pbt_int_dscp_check(bits, &chk, msg, sizeof(msg))) {
			close(fd);
			invarg(msg, signal_word);
		}
	}
	return cfg_commit(fd, &cfg, blame, true);
}

/* ---------------- watch ---------------- */

static int sel_begin(void *cfg)
{
	return cfg_begin(cfg);
}

static int sel_commit(int fd, void *cfg)
{
	return cfg_commit(fd, cfg, NULL, false);
}

static struct hm_sel_cfg *sel_of(void *cfg)
{
	return &((struct int_domain_cfg *)cfg)->sel;
}

/* `int watch` and `int sample` (sel_cmd.c) on int_cfg's selection. */
static const struct hm_sel_ops int_sel_ops = {
	.name		= "int",
	.sel_words	= HM_SEL_W_SYNTHETIC,
	.usage		= usage,
	.begin		= sel_begin,
	.commit		= sel_commit,
	.sel		= sel_of,
};

static int do_watch(int argc, char **argv)
{
	struct int_domain_cfg cfg;

	return hm_sel_cmd_watch(&int_sel_ops, &cfg, argc, argv);
}

/* ---------------- sample ---------------- */

static int do_sample(int argc, char **argv)
{
	struct int_domain_cfg cfg;

	return hm_sel_cmd_sample(&int_sel_ops, &cfg, argc, argv);
}

/* ---------------- report ---------------- */

static int report_set(int argc, char **argv)
{
	struct int_domain_cfg cfg;
	__u8 family = 0, src_family = 0, addr[16], src[16] = { 0 };
	__u32 port = 0, sport = 0, coalesce = INT_DEF_COALESCE;
	const char *src_word = NULL, *port_word = NULL;
	bool have_port = false, have_sport = false, have_coalesce = false;
	int fd;

	while (argc > 0) {
		if (matches(*argv, "collector")) {
			NEXT_ARG();
			if (family)
				duparg("collector", *argv);
			if (hm_sel_addr_parse(*argv, &family, addr))
				invarg("the collector is an IPv4 or IPv6 address", *argv);
		} else if (matches(*argv, "port")) {
			NEXT_ARG();
			if (have_port)
				duparg("port", *argv);
			port = get_u32_arg(*argv, 0xffff, "the collector's port");
			if (!port)
				invarg("the collector's port is 1..65535", *argv);
			have_port = true;
			port_word = *argv;
		} else if (matches(*argv, "src")) {
			NEXT_ARG();
			if (src_word)
				duparg("src", *argv);
			if (hm_sel_addr_parse(*argv, &src_family, src))
				invarg("src is an IPv4 or IPv6 address", *argv);
			src_word = *argv;
		} else if (matches(*argv, "sport")) {
			NEXT_ARG();
			if (have_sport)
				duparg("sport", *argv);
			sport = get_u32_arg(*argv, 0xffff, "sport (0: a hash of the inner 5-tuple)");
			have_sport = true;
		} else if (matches(*argv, "coalesce")) {
			NEXT_ARG();
			if (have_coalesce)
				duparg("coalesce", *argv);
			coalesce = get_u32_arg(*argv, INT_RPT_COALESCE_MAX, "coalesce (reports per datagram)");
			if (!coalesce)
				invarg("coalesce is at least 1", *argv);
			have_coalesce = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("int report set", *argv);
		}
		argc--;
		argv++;
	}
	if (!family)
		missing_arg("collector", "int report set");
	if (!have_port)
		missing_arg("port", "int report set");
	if (src_word && src_family != family)
		invarg("src is not of the collector's family", src_word);
	fd = cfg_begin(&cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (cfg.signal == INT_SIG_UDP && cfg.udp_port == port) {
		close(fd);
		invarg("the collector's port is the INT UDP port: reports are never instrumented",
		       port_word);
	}
	cfg.rpt_family = family;
	cfg.rpt_port = port;
	cfg.rpt_sport = sport;
	cfg.rpt_coalesce = coalesce;
	memcpy(cfg.rpt_addr, addr, 16);
	memcpy(cfg.rpt_src, src, 16);
	return cfg_commit(fd, &cfg, NULL, false);
}

static int do_report(int argc, char **argv)
{
	struct int_domain_cfg cfg;
	int fd;

	if (argc < 1 || matches(*argv, "help")) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "set"))
		return report_set(argc - 1, argv + 1);
	if (matches(*argv, "delete")) {
		if (argc > 1) {
			if (matches(argv[1], "help")) {
				usage(stdout);
				return HM_EXIT_OK;
			}
			unknown_arg("int report del", argv[1]);
		}
		fd = cfg_begin(&cfg);
		if (fd < 0)
			return HM_EXIT_FAIL;
		cfg.rpt_family = 0;
		cfg.rpt_port = 0;
		cfg.rpt_sport = 0;
		cfg.rpt_coalesce = INT_DEF_COALESCE;
		memset(cfg.rpt_addr, 0, sizeof(cfg.rpt_addr));
		memset(cfg.rpt_src, 0, sizeof(cfg.rpt_src));
		return cfg_commit(fd, &cfg, NULL, false);
	}
	unknown_arg("int report", *argv);
}

/* ---------------- enable / disable ---------------- */

static const struct int_role *parse_role(const char *word)
{
	size_t i;

	for (i = 0; i < NR_INT_ROLES; i++)
		if (!strcmp(word, int_roles[i].name))
			return &int_roles[i];
	invarg("role is source, transit, sink, xd or xdp-source", word);
}

/* Whether interface flags @flags need the program of @role. */
static bool flags_need(__u32 flags, enum hm_role role)
{
	size_t i;

	for (i = 0; i < NR_INT_ROLES; i++)
		if ((flags & int_roles[i].flag) &&
		    (int_roles[i].egress == role || int_roles[i].ingress == role ||
		     int_roles[i].xdp == role))
			return true;
	return false;
}

/* Attach what @flags need and @old did not have; on failure detach those again. */
static int attach_new(__u32 ifindex, __u32 old, __u32 flags)
{
	enum hm_role done[NR_INT_PROGS];
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < NR_INT_PROGS && !ret; i++) {
		if (!flags_need(flags, int_progs[i]))
			continue;
		/* Attached again when already needed: repairs a filter removed with tc. */
		ret = role_attach(int_progs[i], ifindex);
		if (!ret && !flags_need(old, int_progs[i]))
			done[n++] = int_progs[i];
	}
	if (ret)
		while (n--)
			role_detach(done[n], ifindex);
	return ret;
}

static int do_enable(int argc, char **argv)
{
	const struct int_role *role = NULL;
	struct int_domain_cfg cfg;
	struct int_if_cfg ic, old;
	const char *dev = NULL, *role_word = NULL;
	char msg[MSG_LEN], why[MSG_LEN + 2 * IF_NAMESIZE + 96];
	bool have_rate = false, have_mtu = false, had;
	__u64 rate = 0;
	__u32 ifindex, mtu = 0;
	int fd, cfd, ret;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (matches(*argv, "role")) {
			NEXT_ARG();
			if (role)
				duparg("role", *argv);
			role = parse_role(*argv);
			role_word = *argv;
		} else if (matches(*argv, "mtu")) {
			NEXT_ARG();
			if (have_mtu)
				duparg("mtu", *argv);
			mtu = get_u32_arg(*argv, 65535, "mtu (bytes; 0: the device's)");
			if (mtu && mtu < 68)
				invarg("mtu is 68..65535, or 0 for the device's", *argv);
			have_mtu = true;
		} else if (matches(*argv, "rate")) {
			NEXT_ARG();
			if (have_rate)
				duparg("rate", *argv);
			if (get_rate_bps(*argv, &rate))
				invarg("a rate in bit/s, e.g. 10m or 1g", *argv);
			have_rate = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("int enable", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "int enable");
	if (!role)
		missing_arg("role", "int enable");
	ifindex = get_ifindex_arg(dev);
	cfd = cfg_open();
	if (cfd < 0)
		return HM_EXIT_FAIL;
	fd = map_open_existing(INT_MAP_IFCFG);
	if (fd < 0) {
		close(cfd);
		return HM_EXIT_FAIL;
	}
	had = map_lookup_or_zero(fd, &ifindex, &old, sizeof(old));
	ic = old;
	ic.flags |= role->flag;
	if (cfg_read(cfd, &cfg)) {
		ret = HM_EXIT_FAIL;
		goto out;
	}
	int_cfg_defaults(&cfg);
	why[0] = '\0';
	if ((role->flag & INT_IF_F_XDP_SOURCE) && xdp_source_misfit(&cfg, msg, sizeof(msg)))
		snprintf(why, sizeof(why), "%s", msg);
	/* XDP runs first: the sink at tc ingress would take the INT the XDP source just added. */
	else if ((ic.flags & INT_IF_F_XDP_SOURCE) && (ic.flags & INT_IF_F_SINK))
		snprintf(why, sizeof(why),
			 "%s cannot be both the XDP source and a sink: its tc ingress sink would remove the INT its XDP adds",
			 dev);
	if (why[0]) {
		close(fd);
		close(cfd);
		invarg(why, role_word);
	}
	if (have_mtu)
		ic.mtu = mtu;
	if (have_rate)
		ic.rate_bps = rate;
	if (bpf_map_update_elem(fd, &ifindex, &ic, BPF_ANY)) {
		ret = hm_errf(-errno, "cannot write %s", INT_MAP_IFCFG);
		goto out;
	}
	ret = attach_new(ifindex, had ? old.flags : 0, ic.flags);
	if (ret) {
		/* No role without its programs: the entry goes back to what it was. */
		map_restore_elem(fd, &ifindex, &old, had);
		goto out;
	}
	if (!(cfg.flags & INT_DOM_F_CONFIGURED))
		/* The programs run, but do nothing until the domain is configured. */
		fprintf(stderr, "Warning: the INT domain is not configured: %s counts its packets as %s until \"hopmark int set\" (or watch, sample, report) configures it.\n",
			dev, int_counter_names[INT_CNT_NOT_CONFIGURED]);
	else if (ic.flags & (INT_IF_F_SOURCE | INT_IF_F_XDP_SOURCE))
		warn_mtu_dev(&cfg, dev, if_mtu(ifindex, &ic));
out:
	close(fd);
	close(cfd);
	return ret;
}

static int do_disable(int argc, char **argv)
{
	const struct int_role *role = NULL;
	const char *dev = NULL;
	__u32 ifindex, left;
	size_t i;
	int ret;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (matches(*argv, "role")) {
			NEXT_ARG();
			if (role)
				duparg("role", *argv);
			role = parse_role(*argv);
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("int disable", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "int disable");
	ifindex = get_ifindex_arg(dev);
	_Static_assert(offsetof(struct int_if_cfg, flags) == 0, "hm_ifcfg_drop_roles()'s layout");
	ret = hm_ifcfg_drop_roles(INT_MAP_IFCFG, sizeof(struct int_if_cfg), ifindex,
				  role ? role->flag : ~0U, &left);
	for (i = 0; i < NR_INT_PROGS; i++)
		if (!flags_need(left, int_progs[i]))
			ret |= role_detach(int_progs[i], ifindex);
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

/* ---------------- drops ---------------- */

/*
 * do_drops() - "int drops { on | off }": the node-wide drop reports of
 * hm_int_drop (bpf/hopmark_int_drop.bpf.c), a tracing program on
 * kfree_skb whose link is pinned in the pin directory (the int-drop role
 * of common/bpf_attach.h). On again replaces the link; off when off is
 * not an error.
 */
static int do_drops(int argc, char **argv)
{
	struct int_domain_cfg cfg;
	int fd, ret;
	bool on;

	if (argc < 1)
		missing_arg("on or off", "int drops");
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!strcmp(*argv, "on"))
		on = true;
	else if (!strcmp(*argv, "off"))
		on = false;
	else
		invarg("drops is on or off", *argv);
	if (argc > 1) {
		if (matches(argv[1], "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("int drops", argv[1]);
	}
	if (!on)
		return role_detach(HM_ROLE_INT_DROP, 0) ? HM_EXIT_FAIL : HM_EXIT_OK;
	/* The program shares the INT maps: they exist, pinned, first. */
	fd = cfg_open();
	if (fd < 0)
		return HM_EXIT_FAIL;
	ret = role_attach(HM_ROLE_INT_DROP, 0);
	if (!ret && !cfg_read(fd, &cfg) && !(cfg.flags & INT_DOM_F_CONFIGURED))
		fprintf(stderr, "Warning: the INT domain is not configured: no drop is reported until \"hopmark int set\" (or watch, sample, report) configures it.\n");
	close(fd);
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

/* ---------------- show ---------------- */

static void print_addr(const char *key, const char *fmt, __u8 family, const __u8 *addr)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, a, sizeof(a));
	print_string(PRINT_ANY, key, fmt, a);
}

/*
 * Octets of INT data at the sink (the budget model, INT v2.1 §5.3): INT-MD
 * max-hops x Hop ML x 4 + 16, INT-MX 16, + 8 for NPT=2; INT-XD none.
 */
static __u64 trace_bytes(const struct int_domain_cfg *cfg, __u32 npt)
{
	if (cfg->mode == INT_MODE_XD)
		return 0;
	return hm_budget_int_md_bytes(INT_FIXED_LEN, int_bitmap_words(cfg->bitmap),
				      cfg->mode == INT_MODE_MD ? cfg->max_hops : 0, npt);
}

static void print_cfg(const struct int_domain_cfg *cfg)
{
	bool configured = cfg->flags & INT_DOM_F_CONFIGURED;
	char words[MSG_LEN];
	__u32 i;

	open_json_object("config");
	print_bool(PRINT_JSON, "configured", NULL, configured);
	print_text("int set %s\n", int_cfg_format_set(cfg, words, sizeof(words)));
	print_string(PRINT_JSON, "mode", NULL, cfg->mode <= INT_MODE_XD ?
		     int_mode_names[cfg->mode] : "unknown");
	print_string(PRINT_JSON, "signal", NULL, cfg->signal == INT_SIG_UDP ? "udp" : "dscp");
	if (cfg->signal == INT_SIG_UDP) {
		print_uint(PRINT_JSON, "udp_port", NULL, cfg->udp_port);
	} else {
		print_uint(PRINT_JSON, "dscp", NULL, cfg->dscp);
		print_uint(PRINT_JSON, "dscp_mask", NULL, cfg->dscp_mask);
	}
	print_text("  %s", configured ? "configured" : "not configured (defaults)");
	print_hex(PRINT_ANY, "bitmap", " bitmap 0x%04llx", cfg->bitmap);
	open_json_array(PRINT_JSON, "instructions");
	for (i = 0; i < 16; i++)
		if (cfg->bitmap & (0x8000U >> i))
			print_string(PRINT_JSON, NULL, NULL, int_bm_names[i] ? int_bm_names[i] :
				     "reserved");
	close_json_array(PRINT_JSON, NULL);
	print_uint(PRINT_ANY, "hop_ml", " hop-ml %llu", int_bitmap_words(cfg->bitmap));
	print_uint(PRINT_JSON, "max_hops", NULL, cfg->max_hops);
	print_uint(PRINT_JSON, "ds_id", NULL, cfg->ds_id);
	print_uint(PRINT_JSON, "ds_instruction", NULL, cfg->ds_inst);
	print_uint(PRINT_JSON, "hw_id", NULL, cfg->hw_id);
	print_uint(PRINT_JSON, "report_trunc", NULL, cfg->report_trunc);
	print_uint(PRINT_JSON, "queue_threshold", NULL, cfg->q_threshold);
	print_uint(PRINT_ANY, "trace_bytes", " trace %llu bytes", trace_bytes(cfg, 0));
	if (cfg->signal == INT_SIG_UDP && cfg->mode != INT_MODE_XD)
		print_uint(PRINT_ANY, "trace_bytes_npt2", " (%llu with NPT=2)",
			   trace_bytes(cfg, INT_NPT_L4));
	print_nl();
	close_json_object();
}

static void print_sel(const struct hm_sel_cfg *sel)
{
	static const char *const modes[] = { "all", "packet", "flow" };

	hm_sel_print_watch(sel, true);
	open_json_object("sample");
	print_string(PRINT_ANY, "mode", "sample %s", sel->sample <= HM_SAMPLE_FLOW ?
		     modes[sel->sample] : "unknown");
	if (sel->sample != HM_SAMPLE_ALL)
		print_uint(PRINT_FP, NULL, " %llu", sel->sample_n);
	print_uint(PRINT_JSON, "n", NULL, sel->sample_n);
	print_uint(sel->sample == HM_SAMPLE_FLOW ? PRINT_ANY : PRINT_JSON, "seed", " seed %llu",
		   sel->seed);
	print_nl();
	close_json_object();
}

static void print_report(const struct int_domain_cfg *cfg)
{
	static const __u8 none[16];

	if (!cfg->rpt_family) {
		print_null(PRINT_ANY, "report", "report %s\n", "none (records counted by hopmarkd)");
		return;
	}
	open_json_object("report");
	print_text("report set");
	print_addr("collector", " collector %s", cfg->rpt_family, cfg->rpt_addr);
	print_uint(PRINT_ANY, "port", " port %llu", cfg->rpt_port);
	if (memcmp(cfg->rpt_src, none, 16))
		print_addr("src", " src %s", cfg->rpt_family, cfg->rpt_src);
	else
		print_null(PRINT_JSON, "src", NULL, NULL);
	print_uint(PRINT_ANY, "sport", " sport %llu", cfg->rpt_sport);
	print_uint(PRINT_ANY, "coalesce", " coalesce %llu", cfg->rpt_coalesce);
	print_nl();
	close_json_object();
}

/* With -s: the interface's counters summed over the CPUs; text shows the non-zero ones. */
static void print_if_counters(int sfd, __u32 ifindex, struct int_link_stats *per, int ncpu)
{
	print_if_percpu_counters(sfd, ifindex, per->cnt, ncpu, INT_CNT_MAX, int_counter_names);
}

/* The programs an interface's roles need, and what runs in their hooks. */
static void print_if_programs(__u32 ifindex, __u32 flags)
{
	struct hm_attach_info info;
	size_t i;

	open_json_array(PRINT_JSON, "programs");
	for (i = 0; i < NR_INT_PROGS; i++) {
		enum hm_role r = int_progs[i];

		if (!flags_need(flags, r))
			continue;
		if (hm_role_query(r, ifindex, &info))
			memset(&info, 0, sizeof(info));
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "    %s", hm_roles[r].prog);
		print_string(PRINT_ANY, "hook", " %s", hm_roles[r].hook == HM_HOOK_XDP ? "xdp" :
			     hm_roles[r].hook == HM_HOOK_TC_INGRESS ? "tc ingress" : "tc egress");
		print_bool(PRINT_JSON, "attached", NULL, info.prog_id && info.ours);
		if (info.prog_id && info.ours)
			print_uint(PRINT_ANY, "id", " id %llu", info.prog_id);
		else
			print_null(PRINT_ANY, "id", " %s", "not attached");
		if (hm_roles[r].hook == HM_HOOK_XDP) {
			if (info.prog_id && info.ours)
				print_string(PRINT_ANY, "xdp_mode", " mode %s", info.xdp_mode);
			else
				print_null(PRINT_JSON, "xdp_mode", NULL, NULL);
			if (info.prog_id && !info.ours)
				print_string(PRINT_ANY, "xdp_other", " (XDP runs %s)", info.name);
		}
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static void print_ifaces(void)
{
	int fd = hm_map_open(INT_MAP_IFCFG), sfd = hm_map_open(INT_MAP_STATS);
	int ncpu = libbpf_num_possible_cpus();
	struct int_link_stats *per = NULL;
	__u32 key, next, *prev = NULL;
	char name[IF_NAMESIZE];
	struct int_if_cfg ic;
	size_t r;

	if (ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	open_json_array(PRINT_JSON, "interfaces");
	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &ic))
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "dev", "dev %s", ifname_or_index(key, name));
		print_uint(PRINT_JSON, "ifindex", NULL, key);
		print_text(" roles");
		open_json_array(PRINT_JSON, "roles");
		for (r = 0; r < NR_INT_ROLES; r++)
			if (ic.flags & int_roles[r].flag)
				print_string(PRINT_ANY, NULL, " %s", int_roles[r].name);
		close_json_array(PRINT_JSON, NULL);
		print_uint(PRINT_ANY, "mtu", " mtu %llu", if_mtu(key, &ic));
		print_uint(PRINT_JSON, "mtu_configured", NULL, ic.mtu);
		print_uint(ic.rate_bps ? PRINT_ANY : PRINT_JSON, "rate_bps", " rate %llubit",
			   ic.rate_bps);
		print_nl();
		print_if_programs(key, ic.flags);
		if (show_stats && per && sfd >= 0)
			print_if_counters(sfd, key, per, ncpu);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	free(per);
	if (fd >= 0)
		close(fd);
	if (sfd >= 0)
		close(sfd);
}

/*
 * The drop reports: on when the pinned link runs hm_int_drop. With -s, the
 * counters only hm_int_drop counts, summed over the devices and CPUs
 * (int_stats, keyed by the device the skb was on; 0 for none).
 */
static void print_drops(void)
{
	static const int cnts[] = { INT_CNT_DROP_REPORT, INT_CNT_DROP_SINK_DISCARD };
	int sfd, ncpu = libbpf_num_possible_cpus(), c;
	__u64 sum[sizeof(cnts) / sizeof(cnts[0])] = { 0 };
	struct int_link_stats *per = NULL;
	struct hm_attach_info info;
	__u32 key, next, *prev = NULL;
	char dir[4096], fmt[48];
	size_t i;
	bool on;

	if (hm_role_query(HM_ROLE_INT_DROP, 0, &info))
		memset(&info, 0, sizeof(info));
	on = info.prog_id && info.ours;
	open_json_object("drops");
	print_bool(PRINT_JSON, "enabled", NULL, on);
	print_string(PRINT_FP, NULL, "drops %s", on ? "on" : "off");
	print_string(PRINT_ANY, "name", " %s", hm_roles[HM_ROLE_INT_DROP].prog);
	print_string(PRINT_ANY, "hook", " %s", "tracing kfree_skb");
	if (on)
		print_uint(PRINT_ANY, "id", " id %llu", info.prog_id);
	else
		print_null(PRINT_JSON, "id", NULL, NULL);
	if (!hm_pin_dir(dir, sizeof(dir))) {
		char link[4200];

		snprintf(link, sizeof(link), "%s/%s", dir, HM_INT_DROP_LINK);
		print_string(PRINT_JSON, "link", NULL, link);
	}
	print_nl();
	sfd = show_stats ? hm_map_open(INT_MAP_STATS) : -1;
	if (sfd >= 0 && ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	if (per) {
		while (!bpf_map_get_next_key(sfd, prev, &next)) {
			key = next;
			prev = &key;
			if (bpf_map_lookup_elem(sfd, &key, per))
				continue;
			for (c = 0; c < ncpu; c++)
				for (i = 0; i < sizeof(cnts) / sizeof(cnts[0]); i++)
					sum[i] += per[c].cnt[cnts[i]];
		}
		open_json_object("counters");
		print_text("    counters");
		for (i = 0; i < sizeof(cnts) / sizeof(cnts[0]); i++) {
			snprintf(fmt, sizeof(fmt), " %s %%llu", int_counter_names[cnts[i]]);
			print_uint(PRINT_ANY, int_counter_names[cnts[i]], fmt, sum[i]);
		}
		print_nl();
		close_json_object();
		free(per);
	}
	if (sfd >= 0)
		close(sfd);
	close_json_object();
}

static int do_show(int argc, char **argv)
{
	struct int_domain_cfg cfg;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("int show", *argv);
	}
	if (map_read_existing(INT_MAP_CFG, &cfg))
		return HM_EXIT_FAIL;
	/* An unconfigured domain shows the defaults a first command would start from. */
	int_cfg_defaults(&cfg);
	new_json_obj_single();
	print_cfg(&cfg);
	print_sel(&cfg.sel);
	print_report(&cfg);
	print_ifaces();
	print_drops();
	delete_json_obj();
	return HM_EXIT_OK;
}

static const struct hm_subcmd int_cmds[] = {
	{ "set",	do_set },
	{ "watch",	do_watch },
	{ "sample",	do_sample },
	{ "report",	do_report },
	{ "enable",	do_enable },
	{ "disable",	do_disable },
	{ "drops",	do_drops },
	{ "show",	do_show },
	{ "list",	do_show },
	{ NULL, NULL },
};

/**
 * do_int() - "hopmark int ...": INT domain settings, watchlist, sampling,
 * report destination, roles, drop reports
 * @argc:	words after "int"
 * @argv:	the words
 *
 * Return: exit status.
 */
int do_int(int argc, char **argv)
{
	return hm_subcmd_run("int", int_cmds, usage, argc, argv);
}
