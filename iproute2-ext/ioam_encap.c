// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_encap.c - "hopmark ioam encap": where this node, as IOAM
 * encapsulating node, inserts a Pre-allocated Trace (RFC 9197 §4.4) in a
 * Hop-by-Hop header (RFC 9486): rules of hopmark_encap, an LPM table on
 * the destination prefix, applied by hm_encap on tc egress of DEV.
 * After each change, hopmark_encap_filter, hm_encap's first test before
 * the rule lookup, is recomputed from all rules (encap_filter_update()).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

#define HM_FREQ_MAX		1000000	/* same bound as ip ioam's freq K/N */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam encap add PREFIX dev DEV ns ID trace-type TYPE size BYTES\n"
		"                              [ freq K/N ]\n"
		"       hopmark ioam encap del PREFIX\n"
		"       hopmark ioam encap show\n"
		"where  PREFIX := IPv6 destination ADDR[/LEN] (/128 without LEN)\n"
		"       ID := 0..65534 (IOAM-Namespace)\n"
		"       TYPE := 24-bit IOAM-Trace-Type, bit 0 = 0x800000; bits 0-11 and 22\n"
		"               (0x000002 opaque state snapshot) may be set\n"
		"       BYTES := pre-allocated data area, a multiple of 4, 4..244, holding\n"
		"                at least one node's data\n"
		"       K/N := insert the trace in K packets of every N, 1 <= K <= N <= %u\n",
		HM_FREQ_MAX);
}

/**
 * check_trace_type() - what an encapsulating node may put in IOAM-Trace-Type
 * @arg:	the value as typed, for the message
 * @type:	24-bit IOAM-Trace-Type
 *
 * RFC 9197 §4.4.1: bits 12-21 are undefined and bit 23 is reserved; an
 * encapsulating node sets them to 0. At least one data field must be
 * selected. Exits with a message naming @arg otherwise.
 */
static void check_trace_type(const char *arg, __u32 type)
{
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
}

static void parse_freq(const char *arg, __u32 *k, __u32 *n)
{
	char buf[32], *slash;
	__u64 vk, vn;

	if (strlen(arg) >= sizeof(buf))
		invarg("freq must be K/N", arg);
	strcpy(buf, arg);
	slash = strchr(buf, '/');
	if (!slash)
		invarg("freq must be K/N", arg);
	*slash = '\0';
	if (get_u64_max(&vk, buf, HM_FREQ_MAX) || get_u64_max(&vn, slash + 1, HM_FREQ_MAX))
		invarg("freq K/N needs numbers 1..1000000", arg);
	if (vk < 1 || vn < 1 || vk > vn)
		invarg("freq K/N needs 1 <= K <= N", arg);
	*k = vk;
	*n = vn;
}

/**
 * encap_filter_update() - hopmark_encap_filter after a change of the rules
 * @fd_encap: hopmark_encap
 *
 * hm_encap_filter_sync() from every rule in @fd_encap. Maps pinned by a
 * hopmark without the filter have nothing to update. When the update
 * fails, the filter is left untrusted (hm_encap asks the rules for every
 * packet, as it did without it): the rules are right all the same, so
 * this warns and the command succeeds.
 */
static void encap_filter_update(int fd_encap)
{
	int fd, err;

	fd = hm_map_open(HM_MAP_ENCAP_FILTER);
	if (fd == -ENOENT)
		return;
	err = fd < 0 ? fd : hm_encap_filter_sync(fd_encap, fd);
	if (err)
		fprintf(stderr, "Warning: cannot update %s (%s): hm_encap looks every packet up in %s.\n",
			HM_MAP_ENCAP_FILTER, strerror(-err), HM_MAP_ENCAP);
	if (fd >= 0)
		close(fd);
}

static int encap_add(int argc, char **argv)
{
	struct hopmark_encap_cfg cfg = { .freq_k = 1, .freq_n = 1 };
	struct hopmark_encap_key key;
	struct hm_attach_info info;
	const char *prefix = NULL, *dev = NULL, *ns = NULL, *tt = NULL, *size = NULL;
	const char *freq = NULL;
	char msg[128];
	__u32 need;
	int fd, err;

	while (argc > 0) {
		if (!strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (!strcmp(*argv, "ns") || !strcmp(*argv, "namespace")) {
			NEXT_ARG();
			if (ns)
				duparg("ns", *argv);
			ns = *argv;
		} else if (matches(*argv, "trace-type") && strlen(*argv) > 1) {
			NEXT_ARG();
			if (tt)
				duparg("trace-type", *argv);
			tt = *argv;
		} else if (!strcmp(*argv, "size")) {
			NEXT_ARG();
			if (size)
				duparg("size", *argv);
			size = *argv;
		} else if (!strcmp(*argv, "freq")) {
			NEXT_ARG();
			if (freq)
				duparg("freq", *argv);
			freq = *argv;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else if (!prefix) {
			prefix = *argv;
		} else {
			unknown_arg("ioam encap add", *argv);
		}
		argc--;
		argv++;
	}
	if (!prefix)
		missing_arg("PREFIX", "ioam encap add");
	if (!dev)
		missing_arg("dev", "ioam encap add");
	if (!ns)
		missing_arg("ns", "ioam encap add");
	if (!tt)
		missing_arg("trace-type", "ioam encap add");
	if (!size)
		missing_arg("size", "ioam encap add");

	parse_ipv6_prefix(prefix, &key);
	cfg.ns_id = get_u32_arg(ns, HM_NS_ID_MAX, "IOAM-Namespace ID");
	cfg.trace_type = get_u32_arg(tt, HM_IOAM_TT_MASK, "IOAM-Trace-Type (24 bits)");
	check_trace_type(tt, cfg.trace_type);
	cfg.size = get_u32_arg(size, HM_IOAM_TRACE_DATA_MAX, "size in bytes");
	if (cfg.size < 4 || cfg.size % 4)
		invarg("size must be a multiple of 4 between 4 and 244 bytes", size);
	need = hm_ioam6_trace_nodelen(cfg.trace_type) * 4;
	if (cfg.trace_type & HM_IOAM_TT_OPAQUE)
		need += 4;
	if (cfg.size < need) {
		snprintf(msg, sizeof(msg),
			 "one node's data takes %u bytes with trace-type 0x%06x (NodeLen %u)",
			 need, cfg.trace_type, hm_ioam6_trace_nodelen(cfg.trace_type));
		invarg(msg, size);
	}
	if (freq)
		parse_freq(freq, &cfg.freq_k, &cfg.freq_n);
	cfg.ifindex = ifindex_check(dev, get_ifindex_arg(dev));

	err = maps_prepare();
	if (err)
		return err;
	fd = map_open_existing(HM_MAP_ENCAP);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (bpf_map_update_elem(fd, &key, &cfg, BPF_NOEXIST)) {
		if (errno == EEXIST)
			err = hm_errf(0, "an encap rule for %s exists (del it first)", prefix);
		else if (errno == ENOSPC || errno == E2BIG)
			err = hm_errf(0, "the encap table is full (%u rules)", HM_MAX_ENCAP_ROUTES);
		else
			err = hm_errf(-errno, "cannot add the encap rule for %s", prefix);
		close(fd);
		return err;
	}
	/*
	 * Attach unless our hm_encap runs there on these very maps: one
	 * loaded with another pin directory would never see this rule.
	 */
	err = hm_role_query(HM_ROLE_ENCAP, cfg.ifindex, &info);
	if (err || !info.prog_id || !info.ours || prog_uses_pinned_maps(info.prog_id) != 1)
		err = role_attach(HM_ROLE_ENCAP, cfg.ifindex);
	if (!err) {
		err = ifcfg_set_flags(cfg.ifindex, HM_IF_F_ENCAP, 0);
		if (err)
			err = hm_errf(err, "cannot mark %s as encapsulating in %s", dev,
				      HM_MAP_IFCFG);
	}
	if (err)
		bpf_map_delete_elem(fd, &key);	/* no rule without its program */
	else
		/* Configured all the same: hm_encap counts what it leaves (encap_skip_mtu). */
		budget_warn_ioam_prealloc(dev, cfg.ifindex, cfg.trace_type, cfg.size);
	encap_filter_update(fd);
	close(fd);
	return err;
}

/* Whether any remaining rule sends encapsulated packets out of @ifindex. */
static bool ifindex_in_use(int fd, __u32 ifindex)
{
	struct hopmark_encap_key key, next;
	struct hopmark_encap_cfg cfg;
	int err;

	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err) {
		if (!bpf_map_lookup_elem(fd, &next, &cfg) && cfg.ifindex == ifindex)
			return true;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	return false;
}

/* Whether the table holds exactly this prefix (not just a covering one). */
static bool rule_exists(int fd, const struct hopmark_encap_key *want)
{
	struct hopmark_encap_key key, next;
	int err;

	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err) {
		if (next.prefixlen == want->prefixlen &&
		    !memcmp(next.addr, want->addr, sizeof(next.addr)))
			return true;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	return false;
}

static int encap_del(int argc, char **argv)
{
	struct hopmark_encap_key key;
	struct hopmark_encap_cfg cfg;
	char dev[IF_NAMESIZE];
	int fd, err = 0;

	if (argc < 1)
		missing_arg("PREFIX", "ioam encap del");
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	parse_ipv6_prefix(*argv, &key);
	if (argc > 1)
		unknown_arg("ioam encap del", argv[1]);
	fd = map_open_existing(HM_MAP_ENCAP);
	if (fd < 0)
		return HM_EXIT_FAIL;
	/*
	 * Lookup is longest match up to key.prefixlen: once the exact prefix
	 * is known to be in the table, it is what lookup returns.
	 */
	memset(&cfg, 0, sizeof(cfg));
	if (rule_exists(fd, &key) && bpf_map_lookup_elem(fd, &key, &cfg))
		cfg.ifindex = 0;
	if (bpf_map_delete_elem(fd, &key)) {
		if (errno == ENOENT)
			err = hm_errf(0, "no encap rule for %s", argv[0]);
		else
			err = hm_errf(-errno, "cannot delete the encap rule for %s", argv[0]);
		close(fd);
		return err;
	}
	encap_filter_update(fd);
	if (cfg.ifindex && !ifindex_in_use(fd, cfg.ifindex)) {
		ifname_or_index(cfg.ifindex, dev);
		err = role_detach(HM_ROLE_ENCAP, cfg.ifindex);
		if (!err && ifcfg_set_flags(cfg.ifindex, 0, HM_IF_F_ENCAP))
			err = hm_errf(0, "cannot clear the encap role of %s", dev);
	}
	close(fd);
	return err;
}

static int cmp_keys(const void *a, const void *b)
{
	const struct hopmark_encap_key *x = a, *y = b;
	int c = memcmp(x->addr, y->addr, sizeof(x->addr));

	if (c)
		return c;
	return x->prefixlen < y->prefixlen ? -1 : x->prefixlen > y->prefixlen;
}

static int encap_show(int argc, char **argv)
{
	struct hopmark_encap_key keys[HM_MAX_ENCAP_ROUTES], key, next;
	struct hopmark_encap_cfg cfg;
	char pfx[INET6_ADDRSTRLEN + 8], dev[IF_NAMESIZE], freq[32];
	unsigned int n = 0, i;
	int fd, err;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("ioam encap show", *argv);
	}
	fd = map_open_existing(HM_MAP_ENCAP);
	if (fd < 0)
		return HM_EXIT_FAIL;
	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err && n < HM_MAX_ENCAP_ROUTES) {
		keys[n++] = next;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	qsort(keys, n, sizeof(keys[0]), cmp_keys);

	new_json_obj();
	for (i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &keys[i], &cfg))
			continue;
		format_ipv6_prefix(&keys[i], pfx, sizeof(pfx));
		snprintf(freq, sizeof(freq), "%u/%u", cfg.freq_k, cfg.freq_n);
		open_json_object(NULL);
		print_string(PRINT_ANY, "prefix", "%s", pfx);
		print_string(PRINT_ANY, "dev", " dev %s", ifname_or_index(cfg.ifindex, dev));
		print_uint(PRINT_ANY, "ns", " ns %llu", cfg.ns_id);
		print_hex(PRINT_ANY, "trace_type", " trace-type 0x%06llx", cfg.trace_type);
		print_uint(PRINT_ANY, "size", " size %llu", cfg.size);
		print_string(PRINT_ANY, "freq", " freq %s", freq);
		print_uint(PRINT_ANY, "packets", " packets %llu", cfg.counter);
		print_nl();
		close_json_object();
	}
	delete_json_obj();
	close(fd);
	return HM_EXIT_OK;
}

/**
 * do_ioam_encap() - "hopmark ioam encap { add | del | show | help }"
 * @argc: words after "encap"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_encap(int argc, char **argv)
{
	if (argc < 1)
		return encap_show(0, NULL);
	if (matches(*argv, "add"))
		return encap_add(argc - 1, argv + 1);
	if (matches(*argv, "delete"))
		return encap_del(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return encap_show(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam encap help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}
