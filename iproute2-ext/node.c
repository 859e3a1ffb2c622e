// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * node.c - "hopmark node": this node's IOAM identity (hopmark_node[0]):
 * the short node_id (24 bits, RFC 9197 §4.4.2.1) and the wide node_id
 * (56 bits, §4.4.2.9), plus the clock offset the datapath needs to write
 * POSIX timestamps (§4.4.2.3/4) from CLOCK_TAI.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/timex.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

/* Largest settable IDs: the all-ones value means "unavailable". */
#define HM_NODE_ID_MAX		(HM_IOAM_U24_UNAVAILABLE - 1)
#define HM_NODE_ID_WIDE_MAX	(HM_IOAM_U56_UNAVAILABLE - 1)
/* Queue readings older than this are not written (hopmark_node.qdepth_max_age_ns). */
#define HM_QDEPTH_MAX_AGE_DEFAULT_NS	1000000000ULL

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark node set [ id ID ] [ wide-id ID ]\n"
		"       hopmark node show\n"
		"where  ID (id) := 0..16777214 (0xfffffe; 0xffffff means unavailable)\n"
		"       ID (wide-id) := 0..72057594037927934 (0xfffffffffffffe)\n");
}

/**
 * tai_offset_ns() - CLOCK_TAI - CLOCK_REALTIME as the kernel keeps it
 * @off: output, ns
 *
 * adjtimex(2) with modes 0 reads the kernel's TAI offset in seconds
 * (struct timex.tai), the value CLOCK_TAI is derived from.
 *
 * Return: 0 or negative errno.
 */
static int tai_offset_ns(__s64 *off)
{
	struct timex tx;

	memset(&tx, 0, sizeof(tx));
	if (adjtimex(&tx) < 0)
		return -errno;
	*off = (__s64)tx.tai * 1000000000LL;
	return 0;
}

static int node_set(int argc, char **argv)
{
	struct hopmark_node_cfg cfg;
	bool have_id = false, have_wide = false;
	__u64 id = 0, wide = 0;
	__u32 key = 0;
	int fd, err;

	while (argc > 0) {
		if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (have_id)
				duparg("id", *argv);
			id = get_u32_arg(*argv, HM_NODE_ID_MAX, "node id (24 bits)");
			have_id = true;
		} else if (matches(*argv, "wide-id")) {
			NEXT_ARG();
			if (have_wide)
				duparg("wide-id", *argv);
			wide = get_u64_arg(*argv, HM_NODE_ID_WIDE_MAX,
					   "wide node id (56 bits)");
			have_wide = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("node set", *argv);
		}
		argc--;
		argv++;
	}

	err = maps_prepare();
	if (err)
		return err;
	fd = map_open_existing(HM_MAP_NODE);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (bpf_map_lookup_elem(fd, &key, &cfg)) {
		err = hm_errf(-errno, "cannot read %s", HM_MAP_NODE);
		goto out;
	}
	if (have_id) {
		cfg.node_id = id;
		cfg.flags |= HM_NODE_F_ID;
	}
	if (have_wide) {
		cfg.node_id_wide = wide;
		cfg.flags |= HM_NODE_F_ID_WIDE;
	}
	err = tai_offset_ns(&cfg.tai_offset_ns);
	if (err) {
		err = hm_errf(err, "cannot read the TAI offset (adjtimex)");
		goto out;
	}
	if (!cfg.qdepth_max_age_ns)
		cfg.qdepth_max_age_ns = HM_QDEPTH_MAX_AGE_DEFAULT_NS;
	if (bpf_map_update_elem(fd, &key, &cfg, BPF_ANY))
		err = hm_errf(-errno, "cannot write %s", HM_MAP_NODE);
out:
	close(fd);
	return err;
}

static int node_show(int argc, char **argv)
{
	struct hopmark_node_cfg cfg;
	char dir[PATH_MAX];
	__u32 key = 0;
	int fd, err;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("node show", *argv);
	}
	fd = map_open_existing(HM_MAP_NODE);
	if (fd < 0)
		return HM_EXIT_FAIL;
	err = bpf_map_lookup_elem(fd, &key, &cfg) ? -errno : 0;
	close(fd);
	if (err)
		return hm_errf(err, "cannot read %s", HM_MAP_NODE);
	hm_pin_dir(dir, sizeof(dir));

	new_json_obj();
	open_json_object(NULL);
	print_text("node ");
	if (cfg.flags & HM_NODE_F_ID)
		print_uint(PRINT_ANY, "id", "id %llu ", cfg.node_id);
	else
		print_null(PRINT_ANY, "id", "id %s ", "unavailable");
	if (cfg.flags & HM_NODE_F_ID_WIDE)
		print_uint(PRINT_ANY, "wide_id", "wide-id %llu ", cfg.node_id_wide);
	else
		print_null(PRINT_ANY, "wide_id", "wide-id %s ", "unavailable");
	print_nl();
	print_int(PRINT_ANY, "tai_offset_ns", "    tai-offset %lld ns", cfg.tai_offset_ns);
	print_uint(PRINT_ANY, "qdepth_max_age_ns", " qdepth-max-age %llu ns",
		   cfg.qdepth_max_age_ns);
	print_nl();
	print_string(PRINT_ANY, "pin_dir", "    pins %s", dir);
	print_nl();
	close_json_object();
	delete_json_obj();
	return HM_EXIT_OK;
}

/**
 * do_node() - "hopmark node { set | show | help }"
 * @argc: words after "node"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_node(int argc, char **argv)
{
	if (argc < 1)
		return node_show(0, NULL);
	if (matches(*argv, "set"))
		return node_set(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return node_show(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark node help\".\n", *argv);
	return HM_EXIT_USAGE;
}
