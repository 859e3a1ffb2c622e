// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * postcard.c - "hopmark postcard ...": the PBT-M (marking-based postcards)
 * domain's marking settings, watchlist, sampling, IPFIX export, per-flow
 * templates and per-interface roles (see hopmark-postcard(8),
 * Documentation/pbt.rst, "CLI").
 *
 *	hopmark postcard set [ mark-ipv4 { reserved | tos BIT } ]
 *			     [ mark-ipv6 { tc BIT | oflag [ tc BIT ] } ] [ altmark { TOSBITS | none } ]
 *			     [ meter { RATE [ burst N ] | off } ]
 *			     [ trigger { ce | qdepth BYTES | off } ]... [ hold MS ]
 *	hopmark postcard watch add [ src PREFIX ] [ dst PREFIX ] [ proto P ]
 *				   [ sport P[/M] ] [ dport P[/M] ]
 *	hopmark postcard watch { del INDEX | flush }
 *	hopmark postcard sample { all | packet N | flow N [ seed S ] | interval MS }
 *	hopmark postcard export set collector ADDR [ port PORT ] [ transport { udp | tcp } ]
 *				    [ rate N ] [ refresh S ] [ domain ID ] [ src ADDR ]
 *	hopmark postcard export del
 *	hopmark postcard enable dev DEV role { head | ingress | egress | end } [ xdp ]
 *	hopmark postcard disable dev DEV [ role ROLE ]
 *	hopmark postcard template add FLOW fields F[,F...] [ timeout S ] [ id N ]
 *	hopmark postcard template { del { FLOW | id N } | flush | show }
 *	hopmark [ -j ] [ -s ] postcard show
 *
 * Settings live in the pinned maps of lib/pbt/pbt_maps.h (pbt_cfg[0], the
 * domain; pbt_ifcfg[ifindex], the roles; pbt_tpl[flow], the templates);
 * their rules and text forms are libhopmark's (pbt/pbt_settings.h, and
 * select/sel_text.h for watch rules, the same words as `hopmark int
 * watch`), so that every node given the same commands holds the same
 * bytes. The programs come from bpf/hopmark_pbt.bpf.c and are attached by
 * libhopmark's roles layer (common/bpf_attach.h, through attach.c):
 * hm_pbt_egress at tc egress (head, egress, end), hm_pbt_ingress at tc
 * ingress or hm_pbt_xdp at XDP (ingress, end). Output goes through the
 * print layer (json_print.c): text and -j come from the same calls.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark_cli.h"
#include "pbt/pbt_names.h"
#include "pbt/pbt_settings.h"

#define MSG_LEN		320
#define TPL_TIMEOUT_MAX	31536000U	/* a year, in seconds */

/* The roles that need the tc egress program, and those that need an ingress one. */
#define PBT_IF_EGRESS_ROLES	(PBT_IF_F_HEAD | PBT_IF_F_EGRESS | PBT_IF_F_END)
#define PBT_IF_INGRESS_ROLES	(PBT_IF_F_INGRESS | PBT_IF_F_END)

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark postcard set [ mark-ipv4 { reserved | tos BIT } ]\n"
		"                            [ mark-ipv6 { tc BIT | oflag [ tc BIT ] } ] [ altmark { TOSBITS | none } ]\n"
		"                            [ meter { RATE [ burst N ] | off } ]\n"
		"                            [ trigger { ce | qdepth BYTES | off } ]... [ hold MS ]\n"
		"       hopmark postcard watch add [ src PREFIX ] [ dst PREFIX ] [ proto { tcp | udp | NUM } ]\n"
		"                                  [ sport PORT[/MASK] ] [ dport PORT[/MASK] ]\n"
		"       hopmark postcard watch { del INDEX | flush }\n"
		"       hopmark postcard sample { all | packet N | flow N [ seed S ] | interval MS }\n"
		"       hopmark postcard export set collector ADDR [ port PORT ] [ transport { udp | tcp } ]\n"
		"                                   [ rate N ] [ refresh S ] [ domain ID ] [ src ADDR ]\n"
		"       hopmark postcard export del\n"
		"       hopmark postcard enable dev DEV role { head | ingress | egress | end } [ xdp ]\n"
		"       hopmark postcard disable dev DEV [ role { head | ingress | egress | end } ]\n"
		"       hopmark postcard template add FLOW fields FIELDS [ timeout S ] [ id N ]\n"
		"       hopmark postcard template { del { FLOW | id N } | flush | show }\n"
		"       hopmark [ -j ] [ -p ] [ -s ] postcard show\n"
		"BIT := one bit of the TOS / Traffic Class octet outside ECN: 0x04, 0x08, ..., 0x80\n"
		"TOSBITS := the Alternate Marking bits (RFC 9341), a mask of 0xfc\n"
		"RATE := marked packets per second (0 or off: no meter)\n"
		"PREFIX := IPv4 or IPv6 ADDR[/LEN]\n"
		"FLOW := src ADDR dst ADDR proto { tcp | udp | NUM } [ sport PORT dport PORT ]\n"
		"FIELDS := { all | FIELD[,FIELD...] }\n"
		"FIELD := { nexthop | tos | length | srh | header | sojourn }\n");
}

/* "help" as the next word: usage on stdout, exit 0. */
#define HELP_OR_UNKNOWN(cmd) do {					\
		if (matches(*argv, "help")) {				\
			usage(stdout);					\
			return HM_EXIT_OK;				\
		}							\
		unknown_arg(cmd, *argv);				\
	} while (0)

/* ---------------- maps ---------------- */

/*
 * fd of pbt_cfg, created with every PBT-M map when missing (one object
 * holds them all). As every configuring command, it first forgets what
 * deleted interfaces left in the maps (hm_prune_gone_ifaces()), so that
 * pbt_ifcfg never fills up with dead devices; failing to is reported, not
 * fatal.
 */
static int cfg_open(void)
{
	int fd = map_open_or_create(PBT_MAP_CFG, HM_ROLE_PBT_EGRESS), err;

	if (fd >= 0) {
		err = hm_prune_gone_ifaces();
		if (err < 0)
			hm_errf(err, "warning: cannot forget the settings of deleted interfaces");
	}
	return fd;
}

/*
 * Read pbt_cfg[0] (with the defaults when nobody configured the domain),
 * for a command to change; cfg_commit() checks and writes it back.
 */
static int cfg_begin(struct pbt_domain_cfg *cfg)
{
	int fd = cfg_open();

	if (fd < 0)
		return -1;
	if (map_read_single(fd, PBT_MAP_CFG, cfg)) {
		close(fd);
		return -1;
	}
	pbt_cfg_defaults(cfg);
	return fd;
}

/* Check, write and close; @arg, when given, is the word a refusal is blamed on. */
static int cfg_commit(int fd, struct pbt_domain_cfg *cfg, const char *arg)
{
	char msg[MSG_LEN];
	int ret;

	if (pbt_cfg_commit(cfg, msg, sizeof(msg))) {
		close(fd);
		if (arg)
			invarg(msg, arg);
		return hm_errf(0, "%s", msg);
	}
	ret = map_write_single(fd, PBT_MAP_CFG, cfg);
	close(fd);
	return ret;
}

/* CLOCK_MONOTONIC now, ns: the clock of pbt_flow_tpl.expires_ns (bpf_ktime_get_ns()). */
static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---------------- set ---------------- */

/*
 * INT's domain settings when its map is pinned on this node (NULL when
 * not, or unreadable): a PBT-M mark bit must stay clear of INT's DSCP
 * signal (pbt_int_dscp_check()).
 */
static const struct int_domain_cfg *int_cfg_pinned(struct int_domain_cfg *ic)
{
	int fd = hm_map_open(INT_MAP_CFG);
	__u32 zero = 0;
	bool ok;

	if (fd < 0)
		return NULL;
	ok = !bpf_map_lookup_elem(fd, &zero, ic);
	close(fd);
	return ok ? ic : NULL;
}

static __u8 mark_bit_or_exit(const char *s)
{
	char msg[MSG_LEN];
	__u8 bit;

	if (pbt_mark_bit_parse(s, &bit, msg, sizeof(msg)))
		invarg(msg, s);
	return bit;
}

/*
 * do_set() - parse every word first, so that a command line that does not
 * parse touches nothing (no map is created for it); then read, change the
 * settings given, check (pbt_cfg_commit()) and write.
 */
static int do_set(int argc, char **argv)
{
	bool v4 = false, v6 = false, tc_bit = false, alt = false, meter = false, hold = false;
	bool trig = false, trig_off = false, burst = false;
	struct pbt_domain_cfg v = { 0 }, cfg;
	const char *blame = NULL, *word4 = NULL, *word6 = NULL;
	struct int_domain_cfg ic;
	char msg[MSG_LEN];
	__u8 bits4 = 0, bits6 = 0;
	int fd;

	if (argc < 1)
		missing_arg("a setting", "postcard set");
	while (argc > 0) {
		if (matches(*argv, "mark-ipv4")) {
			NEXT_ARG();
			if (v4)
				duparg("mark-ipv4", *argv);
			v4 = true;
			if (matches(*argv, "reserved")) {
				v.v4_mark = PBT_V4_RSVD;
			} else if (!strcmp(*argv, "tos")) {
				v.v4_mark = PBT_V4_TOS;
				NEXT_ARG();
				v.v4_tos_bit = mark_bit_or_exit(*argv);
				word4 = *argv;
			} else {
				invarg("mark-ipv4 is reserved or tos BIT", *argv);
			}
			blame = *argv;
		} else if (matches(*argv, "mark-ipv6")) {
			NEXT_ARG();
			if (v6)
				duparg("mark-ipv6", *argv);
			v6 = true;
			if (!strcmp(*argv, "tc")) {
				v.v6_mark = PBT_V6_TC;
				NEXT_ARG();
				v.v6_tc_bit = mark_bit_or_exit(*argv);
				tc_bit = true;
			} else if (matches(*argv, "oflag")) {
				v.v6_mark = PBT_V6_OFLAG;
				/* The bit a packet without an SRH gets. */
				if (NEXT_ARG_OK() && !strcmp(argv[1], "tc")) {
					NEXT_ARG();
					NEXT_ARG();
					v.v6_tc_bit = mark_bit_or_exit(*argv);
					tc_bit = true;
				}
			} else {
				invarg("mark-ipv6 is tc BIT or oflag", *argv);
			}
			blame = word6 = *argv;
		} else if (matches(*argv, "altmark")) {
			NEXT_ARG();
			if (alt)
				duparg("altmark", *argv);
			if (pbt_altmark_parse(*argv, &v.altmark_tos, msg, sizeof(msg)))
				invarg(msg, *argv);
			alt = true;
			blame = *argv;
		} else if (matches(*argv, "meter")) {
			NEXT_ARG();
			if (meter)
				duparg("meter", *argv);
			meter = true;
			if (!strcmp(*argv, "off"))
				v.meter_rate = 0;
			else
				v.meter_rate = get_u32_arg(*argv, PBT_METER_RATE_MAX,
							   "the meter's rate (marked packets per second)");
			blame = *argv;
			if (NEXT_ARG_OK() && matches(argv[1], "burst")) {
				NEXT_ARG();
				NEXT_ARG();
				if (!v.meter_rate)
					invarg("a burst needs a meter rate", *argv);
				v.meter_burst = get_u32_arg(*argv, PBT_METER_BURST_MAX,
							    "the meter's burst (packets)");
				if (!v.meter_burst)
					invarg("the meter's burst is at least 1 packet", *argv);
				burst = true;
				blame = *argv;
			}
		} else if (matches(*argv, "trigger")) {
			NEXT_ARG();
			if (trig_off || (trig && !strcmp(*argv, "off")))
				invarg("trigger off goes alone: no other trigger beside it", *argv);
			if (!strcmp(*argv, "off")) {
				trig_off = true;
			} else if (!strcmp(*argv, "ce")) {
				if (v.trig_flags & PBT_TRIG_CE)
					duparg("trigger ce", *argv);
				v.trig_flags |= PBT_TRIG_CE;
			} else if (matches(*argv, "qdepth")) {
				if (v.trig_flags & PBT_TRIG_QDEPTH)
					duparg("trigger qdepth", *argv);
				NEXT_ARG();
				v.trig_qdepth = get_u32_arg(*argv, 0xffffffffU,
							    "the queue depth trigger (bytes)");
				if (!v.trig_qdepth)
					invarg("the queue depth trigger is at least 1 byte", *argv);
				v.trig_flags |= PBT_TRIG_QDEPTH;
			} else {
				invarg("trigger is ce, qdepth BYTES or off", *argv);
			}
			trig = true;
			blame = *argv;
		} else if (matches(*argv, "hold")) {
			NEXT_ARG();
			if (hold)
				duparg("hold", *argv);
			v.trig_hold_ns = get_u64_arg(*argv, PBT_TRIG_HOLD_MAX_NS / 1000000,
						     "hold (ms a triggered flow stays marked)") *
					 1000000ULL;
			if (!v.trig_hold_ns)
				invarg("hold is at least 1 ms", *argv);
			hold = true;
			blame = *argv;
		} else {
			HELP_OR_UNKNOWN("postcard set");
		}
		argc--;
		argv++;
	}
	fd = cfg_begin(&cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (v4) {
		cfg.v4_mark = v.v4_mark;
		if (v.v4_mark == PBT_V4_TOS)
			cfg.v4_tos_bit = v.v4_tos_bit;
	}
	if (v6)
		cfg.v6_mark = v.v6_mark;
	if (tc_bit)
		cfg.v6_tc_bit = v.v6_tc_bit;
	if (alt)
		cfg.altmark_tos = v.altmark_tos;
	if (meter) {
		cfg.meter_rate = v.meter_rate;
		cfg.meter_burst = !v.meter_rate ? 0 : burst ? v.meter_burst :
				  pbt_meter_burst_default(v.meter_rate);
	}
	if (trig) {
		cfg.trig_flags = v.trig_flags;
		cfg.trig_qdepth = v.trig_qdepth;
	}
	if (hold)
		cfg.trig_hold_ns = v.trig_hold_ns;
	/*
	 * The mark bits this command names (mark-ipv6's method marks a packet
	 * without an SRH with the Traffic Class bit) stay clear of INT's DSCP
	 * signal.
	 */
	if (word4)
		bits4 = cfg.v4_tos_bit;
	if (word6)
		bits6 = cfg.v6_tc_bit;
	if (bits4 | bits6) {
		const struct int_domain_cfg *icp = int_cfg_pinned(&ic);

		if (pbt_int_dscp_check(bits4, icp, msg, sizeof(msg)) ||
		    pbt_int_dscp_check(bits6, icp, msg, sizeof(msg))) {
			close(fd);
			invarg(msg, pbt_int_dscp_check(bits4, icp, NULL, 0) ? word4 : word6);
		}
	}
	return cfg_commit(fd, &cfg, blame);
}

/* ---------------- watch ---------------- */

static int sel_begin(void *cfg)
{
	return cfg_begin(cfg);
}

static int sel_commit(int fd, void *cfg)
{
	return cfg_commit(fd, cfg, NULL);
}

static struct hm_sel_cfg *sel_of(void *cfg)
{
	return &((struct pbt_domain_cfg *)cfg)->sel;
}

static void sel_set_interval(void *cfg, __u64 ms)
{
	((struct pbt_domain_cfg *)cfg)->interval_ns = ms * 1000000ULL;
}

/* `postcard watch` and `postcard sample` (sel_cmd.c) on pbt_cfg's selection. */
static const struct hm_sel_ops pbt_sel_ops = {
	.name		= "postcard",
	.usage		= usage,
	.begin		= sel_begin,
	.commit		= sel_commit,
	.sel		= sel_of,
	.set_interval	= sel_set_interval,
	.interval_mode	= PBT_SAMPLE_INTERVAL,
	.interval_max_ms = PBT_INTERVAL_MAX_NS / 1000000,
};

static int do_watch(int argc, char **argv)
{
	struct pbt_domain_cfg cfg;

	return hm_sel_cmd_watch(&pbt_sel_ops, &cfg, argc, argv);
}

/* ---------------- sample ---------------- */

static int do_sample(int argc, char **argv)
{
	struct pbt_domain_cfg cfg;

	return hm_sel_cmd_sample(&pbt_sel_ops, &cfg, argc, argv);
}

/* ---------------- export ---------------- */

static int export_set(int argc, char **argv)
{
	__u8 family = 0, src_family = 0, addr[16], src[16] = { 0 };
	__u32 port = HM_IPFIX_PORT, rate = 0, refresh = PBT_DEF_EXP_REFRESH_S, domain = 0;
	bool have_port = false, have_tr = false, have_rate = false, have_refresh = false;
	bool have_domain = false;
	const char *src_word = NULL, *refresh_word = NULL;
	__u8 transport = PBT_EXP_UDP;
	char msg[128];
	struct pbt_domain_cfg cfg;
	int fd;

	while (argc > 0) {
		if (matches(*argv, "collector")) {
			NEXT_ARG();
			if (family)
				duparg("collector", *argv);
			if (pbt_exp_addr_parse(*argv, "collector", &family, addr, msg,
					       sizeof(msg)))
				invarg(msg, *argv);
		} else if (matches(*argv, "port")) {
			NEXT_ARG();
			if (have_port)
				duparg("port", *argv);
			port = get_u32_arg(*argv, 0xffff, "the collector's port");
			if (!port)
				invarg("the collector's port is 1..65535", *argv);
			have_port = true;
		} else if (matches(*argv, "transport")) {
			NEXT_ARG();
			if (have_tr)
				duparg("transport", *argv);
			if (!strcmp(*argv, "udp"))
				transport = PBT_EXP_UDP;
			else if (!strcmp(*argv, "tcp"))
				transport = PBT_EXP_TCP;
			else
				invarg("transport is udp or tcp", *argv);
			have_tr = true;
		} else if (matches(*argv, "rate")) {
			NEXT_ARG();
			if (have_rate)
				duparg("rate", *argv);
			rate = get_u32_arg(*argv, 0xffffffffU,
					   "rate (IPFIX records per second; 0: no limit)");
			have_rate = true;
		} else if (matches(*argv, "refresh")) {
			NEXT_ARG();
			if (have_refresh)
				duparg("refresh", *argv);
			refresh = get_u32_arg(*argv, 86400, "refresh (seconds between UDP templates)");
			have_refresh = true;
			refresh_word = *argv;
		} else if (matches(*argv, "domain")) {
			NEXT_ARG();
			if (have_domain)
				duparg("domain", *argv);
			domain = get_u32_arg(*argv, 0xffffffffU, "domain (Observation Domain ID)");
			have_domain = true;
		} else if (matches(*argv, "src")) {
			NEXT_ARG();
			if (src_word)
				duparg("src", *argv);
			if (pbt_exp_addr_parse(*argv, "src", &src_family, src, msg, sizeof(msg)))
				invarg(msg, *argv);
			src_word = *argv;
		} else {
			HELP_OR_UNKNOWN("postcard export set");
		}
		argc--;
		argv++;
	}
	if (!family)
		missing_arg("collector", "postcard export set");
	if (src_word && src_family != family)
		invarg("src is not of the collector's family", src_word);
	fd = cfg_begin(&cfg);
	if (fd < 0)
		return HM_EXIT_FAIL;
	cfg.exp_transport = transport;
	cfg.exp_family = family;
	cfg.exp_port = port;
	cfg.exp_rate = rate;
	cfg.exp_refresh_s = refresh;
	cfg.exp_domain = domain;
	memcpy(cfg.exp_addr, addr, 16);
	memcpy(cfg.exp_src, src, 16);
	return cfg_commit(fd, &cfg, refresh_word);
}

static int do_export(int argc, char **argv)
{
	struct pbt_domain_cfg cfg;
	int fd;

	if (argc < 1 || matches(*argv, "help")) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "set"))
		return export_set(argc - 1, argv + 1);
	if (matches(*argv, "delete")) {
		if (argc > 1) {
			argv++;
			HELP_OR_UNKNOWN("postcard export del");
		}
		fd = cfg_begin(&cfg);
		if (fd < 0)
			return HM_EXIT_FAIL;
		cfg.exp_transport = 0;
		cfg.exp_family = 0;
		cfg.exp_port = HM_IPFIX_PORT;
		cfg.exp_rate = 0;
		cfg.exp_refresh_s = PBT_DEF_EXP_REFRESH_S;
		cfg.exp_domain = 0;
		memset(cfg.exp_addr, 0, sizeof(cfg.exp_addr));
		memset(cfg.exp_src, 0, sizeof(cfg.exp_src));
		return cfg_commit(fd, &cfg, NULL);
	}
	unknown_arg("postcard export", *argv);
}

/* ---------------- enable / disable ---------------- */

static __u32 parse_role(const char *word)
{
	__u32 flag = pbt_role_flags_parse(word);

	if (!flag)
		invarg("role is head, ingress, egress or end", word);
	return flag;
}

/* Whether our XDP program runs on @ifindex: its ingress roles run there, not at tc. */
static bool ingress_at_xdp(__u32 ifindex)
{
	struct hm_attach_info info;

	return !hm_role_query(HM_ROLE_PBT_XDP, ifindex, &info) && info.prog_id && info.ours;
}

/*
 * The programs roles @flags need on a device: tc egress for head, egress
 * and end; for ingress and end the ingress program, at XDP when @xdp.
 * @roles gets up to 2; returns how many.
 */
static int progs_needed(__u32 flags, bool xdp, enum hm_role roles[2])
{
	int n = 0;

	if (flags & PBT_IF_INGRESS_ROLES)
		roles[n++] = xdp ? HM_ROLE_PBT_XDP : HM_ROLE_PBT_INGRESS;
	if (flags & PBT_IF_EGRESS_ROLES)
		roles[n++] = HM_ROLE_PBT_EGRESS;
	return n;
}

static bool role_in(enum hm_role r, const enum hm_role *roles, int n)
{
	while (n--)
		if (roles[n] == r)
			return true;
	return false;
}

/*
 * Attach what @flags need (again where already attached: that repairs a
 * filter removed with tc); then detach what @old needed and @flags no
 * longer does (the ingress program moving between tc and XDP). On failure,
 * what this call attached new is detached again.
 */
static int progs_sync(__u32 ifindex, __u32 old, bool old_xdp, __u32 flags, bool xdp)
{
	enum hm_role want[2], had[2], done[2];
	int nw = progs_needed(flags, xdp, want), nh = progs_needed(old, old_xdp, had);
	int i, n = 0, ret = 0;

	for (i = 0; i < nw && !ret; i++) {
		ret = role_attach(want[i], ifindex);
		if (!ret && !role_in(want[i], had, nh))
			done[n++] = want[i];
	}
	if (ret) {
		while (n--)
			role_detach(done[n], ifindex);
		return ret;
	}
	for (i = 0; i < nh; i++)
		if (!role_in(had[i], want, nw))
			ret |= role_detach(had[i], ifindex);
	return ret;
}

/*
 * The words of "postcard enable" (@xdp_word given) and "postcard disable"
 * (@xdp_word NULL): "dev DEV" into @dev, "role ROLE" into @flag, and for
 * enable the word "xdp" into @xdp_word, each at most once. Any other word
 * is refused with its command named (exit). Returns 1 when the word was
 * "help" (the usage printed on stdout), else 0.
 */
static int dev_role_args(int argc, char **argv, const char *cmd, const char **dev,
			 __u32 *flag, const char **xdp_word)
{
	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			if (*dev)
				duparg("dev", *argv);
			*dev = *argv;
		} else if (matches(*argv, "role")) {
			NEXT_ARG();
			if (*flag)
				duparg("role", *argv);
			*flag = parse_role(*argv);
		} else if (xdp_word && !strcmp(*argv, "xdp")) {
			if (*xdp_word)
				duparg("xdp", *argv);
			*xdp_word = *argv;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return 1;
		} else {
			unknown_arg(cmd, *argv);
		}
		argc--;
		argv++;
	}
	return 0;
}

static int do_enable(int argc, char **argv)
{
	const char *dev = NULL, *xdp_word = NULL;
	struct pbt_if_cfg ic, old;
	struct pbt_domain_cfg cfg;
	__u32 ifindex, flag = 0;
	bool had, old_xdp, xdp;
	int fd, cfd, ret;

	if (dev_role_args(argc, argv, "postcard enable", &dev, &flag, &xdp_word))
		return HM_EXIT_OK;
	if (!dev)
		missing_arg("dev", "postcard enable");
	if (!flag)
		missing_arg("role", "postcard enable");
	if (xdp_word && !(flag & PBT_IF_INGRESS_ROLES))
		invarg("xdp places the ingress program: it goes with role ingress or end", xdp_word);
	ifindex = get_ifindex_arg(dev);
	if (hm_ifindex_bound_check(dev, ifindex, "PBT-M", "Documentation/pbt.rst"))
		return HM_EXIT_FAIL;
	cfd = cfg_open();
	if (cfd < 0)
		return HM_EXIT_FAIL;
	if (map_read_single(cfd, PBT_MAP_CFG, &cfg)) {
		close(cfd);
		return HM_EXIT_FAIL;
	}
	close(cfd);
	fd = map_open_existing(PBT_MAP_IFCFG);
	if (fd < 0)
		return HM_EXIT_FAIL;
	had = map_lookup_or_zero(fd, &ifindex, &old, sizeof(old));
	old_xdp = ingress_at_xdp(ifindex);
	xdp = xdp_word || old_xdp;
	ic = old;
	ic.flags |= flag;
	if (bpf_map_update_elem(fd, &ifindex, &ic, BPF_ANY)) {
		ret = hm_errf(-errno, "cannot write %s", PBT_MAP_IFCFG);
		close(fd);
		return ret;
	}
	ret = progs_sync(ifindex, had ? old.flags : 0, old_xdp, ic.flags, xdp);
	if (ret)
		/* No role without its programs: the entry goes back to what it was. */
		map_restore_elem(fd, &ifindex, &old, had);
	else if (!(cfg.flags & PBT_DOM_F_CONFIGURED))
		fprintf(stderr, "Warning: the PBT-M domain is not configured: %s counts its packets as %s until \"hopmark postcard set\" (or watch, sample, export) configures it.\n",
			dev, pbt_counter_names[PBT_CNT_NOT_CONFIGURED]);
	close(fd);
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

static int do_disable(int argc, char **argv)
{
	const char *dev = NULL;
	__u32 ifindex, flag = 0, left;
	bool xdp;
	int ret;

	if (dev_role_args(argc, argv, "postcard disable", &dev, &flag, NULL))
		return HM_EXIT_OK;
	if (!dev)
		missing_arg("dev", "postcard disable");
	ifindex = get_ifindex_arg(dev);
	_Static_assert(offsetof(struct pbt_if_cfg, flags) == 0, "hm_ifcfg_drop_roles()'s layout");
	xdp = ingress_at_xdp(ifindex);
	ret = hm_ifcfg_drop_roles(PBT_MAP_IFCFG, sizeof(struct pbt_if_cfg), ifindex,
				  flag ? flag : ~0U, &left);
	if (!(left & PBT_IF_INGRESS_ROLES)) {
		/* Both: a program left by an older command on the other hook goes too. */
		ret |= role_detach(HM_ROLE_PBT_XDP, ifindex);
		ret |= role_detach(HM_ROLE_PBT_INGRESS, ifindex);
	} else if (xdp) {
		ret |= role_detach(HM_ROLE_PBT_INGRESS, ifindex);
	}
	if (!(left & PBT_IF_EGRESS_ROLES))
		ret |= role_detach(HM_ROLE_PBT_EGRESS, ifindex);
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

/* ---------------- template ---------------- */

/* The value of @key among the rule words argv[0..used) (key value pairs), NULL if absent. */
static const char *rule_value(char **argv, int used, const char *key)
{
	int i;

	for (i = 0; i + 1 < used; i += 2)
		if (matches(argv[i], key))
			return argv[i + 1];
	return NULL;
}

/*
 * flow_or_exit() - the exact flow the rule words at the start of argv
 * name (a template is keyed by one flow, pbt_tpl), exiting with the
 * error naming the word; returns the words used, -1 when "help" follows
 * the rule words (the caller prints the usage).
 */
static int flow_or_exit(int argc, char **argv, const char *cmd, struct hm_flow_key *k)
{
	struct hm_sel_words w;
	struct hm_sel_rule r;
	char msg[MSG_LEN];
	const char *word;

	sel_words_or_exit(argc, argv, 0, &r, &w);
	if (w.used < argc && matches(argv[w.used], "help"))
		return -1;
	if (!(w.seen & HM_SEL_SEEN_SRC))
		missing_arg("src", cmd);
	if (!(w.seen & HM_SEL_SEEN_DST))
		missing_arg("dst", cmd);
	if (!(w.seen & HM_SEL_SEEN_PROTO))
		missing_arg("proto", cmd);
	if (hm_sel_rule_to_key(&r, k, msg, sizeof(msg))) {
		__u32 max = r.family == 4 ? 32 : 128;

		if (r.src_plen != max)
			word = rule_value(argv, w.used, "src");
		else if (r.dst_plen != max)
			word = rule_value(argv, w.used, "dst");
		else if (w.port_word)
			word = w.port_word;
		else
			word = rule_value(argv, w.used, "proto");
		invarg(msg, word);
	}
	return w.used;
}

static int tpl_open(void)
{
	int fd = hm_map_open(PBT_MAP_TEMPLATES);

	if (fd >= 0)
		return fd;
	/* Created with the others. */
	fd = cfg_open();
	if (fd < 0)
		return -1;
	close(fd);
	return map_open_existing(PBT_MAP_TEMPLATES);
}

/* The largest template ID in use, 0 if none. */
static __u32 tpl_max_id(int fd)
{
	struct hm_flow_key key, next, *prev = NULL;
	struct pbt_flow_tpl t;
	__u32 max = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &t) && t.id > max)
			max = t.id;
	}
	return max;
}

static int tpl_add(int argc, char **argv)
{
	bool have_fields = false, have_timeout = false, have_id = false;
	__u32 fields = 0, timeout = 0, id = 0;
	struct pbt_flow_tpl t, old;
	char msg[MSG_LEN], text[192];
	struct hm_sel_rule r;
	struct hm_flow_key k;
	int used, fd, ret;

	used = flow_or_exit(argc, argv, "postcard template add", &k);
	if (used < 0) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	argc -= used;
	argv += used;
	while (argc > 0) {
		if (matches(*argv, "fields")) {
			NEXT_ARG();
			if (have_fields)
				duparg("fields", *argv);
			if (pbt_fields_parse(*argv, &fields, msg, sizeof(msg)))
				invarg(msg, *argv);
			have_fields = true;
		} else if (matches(*argv, "timeout")) {
			NEXT_ARG();
			if (have_timeout)
				duparg("timeout", *argv);
			timeout = get_u32_arg(*argv, TPL_TIMEOUT_MAX,
					      "timeout (seconds; 0: until deleted)");
			have_timeout = true;
		} else if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (have_id)
				duparg("id", *argv);
			id = get_u32_arg(*argv, 0xfffffffeU, "the template's id");
			if (!id)
				invarg("the template's id is 1..4294967294 (0: the basic data set)",
				       *argv);
			have_id = true;
		} else {
			HELP_OR_UNKNOWN("postcard template add");
		}
		argc--;
		argv++;
	}
	if (!have_fields)
		missing_arg("fields", "postcard template add");
	fd = tpl_open();
	if (fd < 0)
		return HM_EXIT_FAIL;
	hm_sel_key_to_rule(&k, &r);
	hm_sel_rule_format(&r, text, sizeof(text));
	if (!bpf_map_lookup_elem(fd, &k, &old)) {
		close(fd);
		return hm_errf_errno(-EEXIST, "the flow %s has template %u already "
				     "(\"hopmark postcard template del %s\" first)", text, old.id,
				     text);
	}
	t.id = have_id ? id : tpl_max_id(fd) + 1;
	t.fields = fields;
	t.expires_ns = timeout ? mono_ns() + (__u64)timeout * 1000000000ULL : 0;
	ret = 0;
	if (bpf_map_update_elem(fd, &k, &t, BPF_NOEXIST)) {
		if (errno == E2BIG)
			ret = hm_errf_errno(-errno, "%s is full (%u templates)", PBT_MAP_TEMPLATES,
					    PBT_MAX_TEMPLATES);
		else
			ret = hm_errf(-errno, "cannot write %s", PBT_MAP_TEMPLATES);
	}
	close(fd);
	if (!ret && !json)
		printf("template %u: %s\n", t.id, text);
	return ret;
}

static int tpl_del(int argc, char **argv)
{
	struct hm_flow_key key, next, *prev = NULL, k;
	__u32 id = 0, n = 0;
	struct pbt_flow_tpl t;
	int fd, ret = 0;

	if (argc < 1)
		missing_arg("a flow or id N", "postcard template del");
	if (!strcmp(*argv, "id")) {
		NEXT_ARG();
		id = get_u32_arg(*argv, 0xfffffffeU, "the template's id");
		if (!id)
			invarg("the template's id is 1..4294967294", *argv);
		if (argc > 1) {
			argv++;
			HELP_OR_UNKNOWN("postcard template del");
		}
	} else {
		int used = flow_or_exit(argc, argv, "postcard template del", &k);

		if (used < 0) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		if (used < argc) {
			argv += used;
			HELP_OR_UNKNOWN("postcard template del");
		}
	}
	fd = tpl_open();
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (!id) {
		if (bpf_map_delete_elem(fd, &k))
			ret = errno == ENOENT ?
			      hm_errf_errno(-ENOENT, "the flow has no template") :
			      hm_errf(-errno, "cannot delete from %s", PBT_MAP_TEMPLATES);
		close(fd);
		return ret;
	}
	/* By id: every flow with it (the collector may give one id to several flows). */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &t) && t.id == id) {
			if (bpf_map_delete_elem(fd, &key) && errno != ENOENT) {
				ret = hm_errf(-errno, "cannot delete from %s", PBT_MAP_TEMPLATES);
				break;
			}
			n++;
			/* The walk starts again: the deleted key cannot lead to the next. */
			prev = NULL;
			continue;
		}
		prev = &key;
	}
	close(fd);
	if (!ret && !n)
		ret = hm_errf_errno(-ENOENT, "no template has id %u", id);
	return ret;
}

static int tpl_flush(void)
{
	struct hm_flow_key next;
	int fd, ret = 0;

	fd = hm_map_open(PBT_MAP_TEMPLATES);
	if (fd < 0)
		return fd == -ENOENT ? HM_EXIT_OK : hm_errf(fd, "cannot open %s", PBT_MAP_TEMPLATES);
	while (!bpf_map_get_next_key(fd, NULL, &next))
		if (bpf_map_delete_elem(fd, &next) && errno != ENOENT) {
			ret = hm_errf(-errno, "cannot delete from %s", PBT_MAP_TEMPLATES);
			break;
		}
	close(fd);
	return ret;
}

static void print_key_addr(const char *key, const struct hm_flow_key *k, const __u8 *addr)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(k->family == 4 ? AF_INET : AF_INET6, addr, a, sizeof(a));
	print_string(PRINT_JSON, key, NULL, a);
}

/* The templates; text: "template ID: FLOW fields F timeout S" (words of template add). */
static void print_templates(void)
{
	struct hm_flow_key key, next, *prev = NULL;
	int fd = hm_map_open(PBT_MAP_TEMPLATES);
	struct pbt_flow_tpl t;
	char text[192], f[96];
	struct hm_sel_rule r;
	__u64 now = mono_ns();

	open_json_array(PRINT_JSON, "templates");
	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &t))
			continue;
		hm_sel_key_to_rule(&key, &r);
		open_json_object(NULL);
		print_uint(PRINT_ANY, "id", "template %llu:", t.id);
		print_string(PRINT_FP, NULL, " %s", hm_sel_rule_format(&r, text, sizeof(text)));
		print_uint(PRINT_JSON, "family", NULL, key.family);
		print_key_addr("src", &key, key.saddr);
		print_key_addr("dst", &key, key.daddr);
		print_uint(PRINT_JSON, "proto", NULL, key.proto);
		print_uint(PRINT_JSON, "sport", NULL, ntohs(key.sport));
		print_uint(PRINT_JSON, "dport", NULL, ntohs(key.dport));
		print_string(PRINT_ANY, "fields", " fields %s",
			     pbt_fields_format(t.fields, f, sizeof(f)));
		print_uint(PRINT_JSON, "expires_ns", NULL, t.expires_ns);
		print_bool(PRINT_JSON, "expired", NULL, t.expires_ns && t.expires_ns <= now);
		if (!t.expires_ns)
			print_null(PRINT_ANY, "expires_in_ms", " %s", "no timeout");
		else if (t.expires_ns <= now) {
			print_uint(PRINT_JSON, "expires_in_ms", NULL, 0);
			print_text(" expired");
		} else
			print_uint(PRINT_ANY, "expires_in_ms", " expires in %llu ms",
				   (t.expires_ns - now) / 1000000);
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	if (fd >= 0)
		close(fd);
}

static int do_template(int argc, char **argv)
{
	int fd;

	if (argc < 1 || matches(*argv, "help")) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "add"))
		return tpl_add(argc - 1, argv + 1);
	if (matches(*argv, "delete"))
		return tpl_del(argc - 1, argv + 1);
	if (matches(*argv, "flush") || matches(*argv, "show") || matches(*argv, "list")) {
		bool flush = matches(*argv, "flush");

		if (argc > 1) {
			argv++;
			HELP_OR_UNKNOWN(flush ? "postcard template flush" : "postcard template show");
		}
		if (flush)
			return tpl_flush();
		fd = map_open_existing(PBT_MAP_TEMPLATES);
		if (fd < 0)
			return HM_EXIT_FAIL;
		close(fd);
		new_json_obj_single();
		print_templates();
		delete_json_obj();
		return HM_EXIT_OK;
	}
	unknown_arg("postcard template", *argv);
}

/* ---------------- show ---------------- */

static void print_cfg(const struct pbt_domain_cfg *cfg)
{
	static const char *const v4[] = { "reserved", "tos" }, *const v6[] = { "tc", "oflag" };
	bool configured = cfg->flags & PBT_DOM_F_CONFIGURED;
	char words[MSG_LEN];

	open_json_object("config");
	print_bool(PRINT_JSON, "configured", NULL, configured);
	print_text("postcard set %s\n", pbt_cfg_format_set(cfg, words, sizeof(words)));
	print_text("  %s\n", configured ? "configured" : "not configured (defaults)");
	print_string(PRINT_JSON, "mark_ipv4", NULL, cfg->v4_mark <= PBT_V4_TOS ?
		     v4[cfg->v4_mark] : "unknown");
	print_hex(PRINT_JSON, "ipv4_tos_bit", "0x%02llx", cfg->v4_tos_bit);
	print_string(PRINT_JSON, "mark_ipv6", NULL, cfg->v6_mark <= PBT_V6_OFLAG ?
		     v6[cfg->v6_mark] : "unknown");
	print_hex(PRINT_JSON, "ipv6_tc_bit", "0x%02llx", cfg->v6_tc_bit);
	print_hex(PRINT_JSON, "altmark", "0x%02llx", cfg->altmark_tos);
	print_uint(PRINT_JSON, "meter_rate", NULL, cfg->meter_rate);
	print_uint(PRINT_JSON, "meter_burst", NULL, cfg->meter_burst);
	open_json_array(PRINT_JSON, "triggers");
	if (cfg->trig_flags & PBT_TRIG_CE)
		print_string(PRINT_JSON, NULL, NULL, "ce");
	if (cfg->trig_flags & PBT_TRIG_QDEPTH)
		print_string(PRINT_JSON, NULL, NULL, "qdepth");
	close_json_array(PRINT_JSON, NULL);
	print_uint(PRINT_JSON, "trigger_qdepth", NULL, cfg->trig_qdepth);
	print_uint(PRINT_JSON, "hold_ms", NULL, cfg->trig_hold_ns / 1000000);
	close_json_object();
}

static void print_sel(const struct pbt_domain_cfg *cfg)
{
	const struct hm_sel_cfg *sel = &cfg->sel;
	char words[48];

	hm_sel_print_watch(sel, false);
	open_json_object("sample");
	print_text("sample %s", pbt_sample_format(cfg, words, sizeof(words)));
	print_string(PRINT_JSON, "mode", NULL, sel->sample <= PBT_SAMPLE_INTERVAL ?
		     pbt_sample_names[sel->sample] : "unknown");
	print_uint(PRINT_JSON, "n", NULL, sel->sample_n);
	print_uint(sel->sample == HM_SAMPLE_FLOW ? PRINT_ANY : PRINT_JSON, "seed", " seed %llu",
		   sel->seed);
	print_uint(PRINT_JSON, "interval_ms", NULL, cfg->interval_ns / 1000000);
	print_nl();
	close_json_object();
}

static void print_exp_addr(const char *key, const char *fmt, __u8 family, const __u8 *addr)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, a, sizeof(a));
	print_string(PRINT_ANY, key, fmt, a);
}

static void print_export(const struct pbt_domain_cfg *cfg)
{
	static const __u8 none[16];

	if (!cfg->exp_transport) {
		print_null(PRINT_ANY, "export", "export %s\n",
			   "none (postcards are JSON lines of hopmarkd only)");
		return;
	}
	open_json_object("export");
	print_text("export set");
	print_exp_addr("collector", " collector %s", cfg->exp_family, cfg->exp_addr);
	print_uint(PRINT_ANY, "port", " port %llu", cfg->exp_port);
	print_string(PRINT_ANY, "transport", " transport %s",
		     cfg->exp_transport == PBT_EXP_TCP ? "tcp" : "udp");
	print_uint(PRINT_ANY, "rate", " rate %llu", cfg->exp_rate);
	print_uint(PRINT_ANY, "refresh", " refresh %llu", cfg->exp_refresh_s);
	print_uint(PRINT_ANY, "domain", " domain %llu", cfg->exp_domain);
	if (memcmp(cfg->exp_src, none, 16))
		print_exp_addr("src", " src %s", cfg->exp_family, cfg->exp_src);
	else
		print_null(PRINT_JSON, "src", NULL, NULL);
	print_nl();
	close_json_object();
}

/* With -s: an interface's counters summed over the CPUs; text shows the non-zero ones. */
static void print_if_counters(int sfd, __u32 ifindex, struct pbt_link_stats *per, int ncpu)
{
	print_if_percpu_counters(sfd, ifindex, per->cnt, ncpu, PBT_CNT_MAX, pbt_counter_names);
}

/* The programs an interface's roles need, and what runs in their hooks. */
static void print_if_programs(__u32 ifindex, __u32 flags)
{
	enum hm_role need[2];
	struct hm_attach_info info;
	int i, n = progs_needed(flags, ingress_at_xdp(ifindex), need);

	open_json_array(PRINT_JSON, "programs");
	for (i = 0; i < n; i++) {
		enum hm_role r = need[i];

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
		}
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/**
 * pbt_print_roles() - the PBT-M roles of an interface, as words and a JSON array
 * @flags:	struct pbt_if_cfg.flags
 * @xdp:	its ingress program runs at XDP
 *
 * Text: " head egress" (and " xdp"); JSON: "roles": ["head", "egress"],
 * "xdp": false. Shared with `hopmark link show` (link.c).
 */
void pbt_print_roles(__u32 flags, bool xdp)
{
	int i;

	open_json_array(PRINT_JSON, "roles");
	for (i = 0; i < PBT_NR_ROLES; i++)
		if (flags & pbt_role_names[i].flag)
			print_string(PRINT_ANY, NULL, " %s", pbt_role_names[i].name);
	close_json_array(PRINT_JSON, NULL);
	print_bool(PRINT_JSON, "xdp", NULL, xdp);
	if (xdp)
		print_text(" xdp");
}

static void print_ifaces(void)
{
	int fd = hm_map_open(PBT_MAP_IFCFG), sfd = hm_map_open(PBT_MAP_STATS);
	int ncpu = libbpf_num_possible_cpus(), n = 0, k;
	__u32 keys[PBT_IFINDEX_LIMIT], key;
	struct pbt_link_stats *per = NULL;
	char name[IF_NAMESIZE];
	struct pbt_if_cfg ic;

	if (ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	/* The array's entries with a role (all zeros: none), in ifindex order. */
	if (fd >= 0)
		n = hm_stats_ifindexes(fd, keys, PBT_IFINDEX_LIMIT);
	open_json_array(PRINT_JSON, "interfaces");
	for (k = 0; k < n; k++) {
		key = keys[k];
		if (bpf_map_lookup_elem(fd, &key, &ic) || !ic.flags)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "dev", "dev %s", ifname_or_index(key, name));
		print_uint(PRINT_JSON, "ifindex", NULL, key);
		print_text(" roles");
		pbt_print_roles(ic.flags, ingress_at_xdp(key));
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

/**
 * pbt_print_link_counters() - an interface's PBT-M counters for `hopmark -s link show`
 * @ifindex:	the interface
 *
 * JSON: "pbt_stats": { "marked": N, ... } (every counter); text: a line
 * "pbt counters:" with every counter. Nothing when pbt_stats does not
 * exist (PBT-M never set up) or the interface's entry is all zeros
 * (nothing counted on it, or an ifindex at or above PBT_IFINDEX_LIMIT).
 */
void pbt_print_link_counters(__u32 ifindex)
{
	int sfd = hm_map_open(PBT_MAP_STATS), ncpu = libbpf_num_possible_cpus(), c, i;
	struct pbt_link_stats *per = NULL, sum = { 0 };
	bool any = false;

	if (sfd < 0)
		return;
	if (ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	if (!per || bpf_map_lookup_elem(sfd, &ifindex, per)) {
		free(per);
		close(sfd);
		return;
	}
	for (c = 0; c < ncpu; c++)
		for (i = 0; i < PBT_CNT_MAX; i++)
			sum.cnt[i] += per[c].cnt[i];
	free(per);
	close(sfd);
	for (i = 0; i < PBT_CNT_MAX; i++)
		any |= sum.cnt[i] != 0;
	if (!any)
		return;
	open_json_object("pbt_stats");
	print_text("    pbt counters:");
	for (i = 0; i < PBT_CNT_MAX; i++) {
		if (i % 3 == 0)
			print_text("\n      ");
		print_text("%-22s", pbt_counter_names[i]);
		print_uint(PRINT_ANY, pbt_counter_names[i], " %-10llu", sum.cnt[i]);
	}
	print_nl();
	close_json_object();
}

/**
 * pbt_link_roles() - an interface's PBT-M roles, for `hopmark link show`
 * @ifindex:	the interface
 * @flags:	output, struct pbt_if_cfg.flags
 * @xdp:	output, whether its ingress program runs at XDP
 *
 * Return: true when the interface's pbt_ifcfg entry has a role (an
 * all-zero entry is an interface without one).
 */
bool pbt_link_roles(__u32 ifindex, __u32 *flags, bool *xdp)
{
	int fd = hm_map_open(PBT_MAP_IFCFG);
	struct pbt_if_cfg ic;
	bool ok;

	if (fd < 0)
		return false;
	ok = !bpf_map_lookup_elem(fd, &ifindex, &ic) && ic.flags;
	close(fd);
	if (ok) {
		*flags = ic.flags;
		*xdp = ingress_at_xdp(ifindex);
	}
	return ok;
}

/**
 * pbt_link_ifindexes() - the interfaces with PBT-M roles
 * @keys:	output
 * @max:	room in @keys
 *
 * Return: how many were written.
 */
unsigned int pbt_link_ifindexes(__u32 *keys, unsigned int max)
{
	int fd = hm_map_open(PBT_MAP_IFCFG), n;

	if (fd < 0)
		return 0;
	/* pbt_ifcfg is an array: the entries that are not all zeros have a role. */
	n = hm_stats_ifindexes(fd, keys, max);
	close(fd);
	return n < 0 ? 0 : n;
}

static int do_show(int argc, char **argv)
{
	struct pbt_domain_cfg cfg;

	if (argc > 0)
		HELP_OR_UNKNOWN("postcard show");
	if (map_read_existing(PBT_MAP_CFG, &cfg))
		return HM_EXIT_FAIL;
	/* An unconfigured domain shows the defaults a first command would start from. */
	pbt_cfg_defaults(&cfg);
	new_json_obj_single();
	print_cfg(&cfg);
	print_sel(&cfg);
	print_export(&cfg);
	print_templates();
	print_ifaces();
	delete_json_obj();
	return HM_EXIT_OK;
}

static const struct hm_subcmd postcard_cmds[] = {
	{ "set",	do_set },
	{ "watch",	do_watch },
	{ "sample",	do_sample },
	{ "export",	do_export },
	{ "enable",	do_enable },
	{ "disable",	do_disable },
	{ "template",	do_template },
	{ "show",	do_show },
	{ "list",	do_show },
	{ NULL, NULL },
};

/**
 * do_postcard() - "hopmark postcard ...": PBT-M marking settings, watchlist,
 * sampling, IPFIX export, per-flow templates, roles
 * @argc:	words after "postcard"
 * @argv:	the words
 *
 * Return: exit status.
 */
int do_postcard(int argc, char **argv)
{
	return hm_subcmd_run("postcard", postcard_cmds, usage, argc, argv);
}
