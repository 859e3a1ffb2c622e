// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ioam_namespace.c - "hopmark ioam namespace": the IOAM-Namespaces this
 * node knows (hopmark_ns), with their namespace specific data, short
 * (RFC 9197 §4.4.2.6) and wide (§4.4.2.11). A transit node leaves traces
 * of an unknown namespace untouched, as Linux does (RFC 9197 §5.3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

/*
 * hopmark_ns is an array indexed by the IOAM-Namespace ID (0..65534, 0xffff
 * being "unavailable", as ip ioam takes them): a configured namespace is an
 * entry with HM_NS_F_KNOWN, deleting one writes zeros.
 */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark ioam namespace add ID [ data DATA32 ] [ wide DATA64 ]\n"
		"       hopmark ioam namespace del ID\n"
		"       hopmark ioam namespace show\n"
		"where  ID := 0..65534 (IOAM-Namespace)\n"
		"       DATA32 := 32-bit namespace data (default unavailable, 0xffffffff)\n"
		"       DATA64 := 64-bit wide namespace data (default unavailable)\n");
}

static __u32 parse_ns(const char *arg)
{
	return get_u32_arg(arg, HM_NS_ID_MAX, "IOAM-Namespace ID");
}

static int ns_add(int argc, char **argv)
{
	struct hopmark_ns_cfg cfg = {
		.flags = HM_NS_F_KNOWN,
		.data = HM_IOAM_U32_UNAVAILABLE,
		.data_wide = HM_IOAM_U64_UNAVAILABLE,
	}, old;
	bool have_id = false;
	__u32 id = 0;
	int fd, err = 0;

	while (argc > 0) {
		if (!strcmp(*argv, "data")) {
			NEXT_ARG();
			if (cfg.flags & HM_NS_F_DATA)
				duparg("data", *argv);
			cfg.data = get_u32_arg(*argv, 0xffffffffU, "namespace data (32 bits)");
			cfg.flags |= HM_NS_F_DATA;
		} else if (!strcmp(*argv, "wide")) {
			NEXT_ARG();
			if (cfg.flags & HM_NS_F_DATA_WIDE)
				duparg("wide", *argv);
			cfg.data_wide = get_u64_arg(*argv, ~0ULL, "wide namespace data (64 bits)");
			cfg.flags |= HM_NS_F_DATA_WIDE;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else if (!have_id) {
			id = parse_ns(*argv);
			have_id = true;
		} else {
			unknown_arg("ioam namespace add", *argv);
		}
		argc--;
		argv++;
	}
	if (!have_id)
		missing_arg("ID", "ioam namespace add");

	err = maps_prepare();
	if (err)
		return err;
	fd = map_open_existing(HM_MAP_NS);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (!bpf_map_lookup_elem(fd, &id, &old) && (old.flags & HM_NS_F_KNOWN))
		err = hm_errf(0, "IOAM-Namespace %u already exists (del it first)", id);
	else if (bpf_map_update_elem(fd, &id, &cfg, BPF_ANY))
		err = hm_errf(-errno, "cannot add IOAM-Namespace %u", id);
	close(fd);
	return err;
}

static int ns_del(int argc, char **argv)
{
	struct hopmark_ns_cfg cfg;
	__u32 id;
	int fd, err = 0;

	if (argc < 1)
		missing_arg("ID", "ioam namespace del");
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	id = parse_ns(*argv);
	if (argc > 1)
		unknown_arg("ioam namespace del", argv[1]);
	fd = map_open_existing(HM_MAP_NS);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (bpf_map_lookup_elem(fd, &id, &cfg) || !(cfg.flags & HM_NS_F_KNOWN))
		err = hm_errf(0, "IOAM-Namespace %u does not exist", id);
	else if ((err = hm_map_zero_elem(fd, &id)))
		err = hm_errf(err, "cannot delete IOAM-Namespace %u", id);
	close(fd);
	return err;
}

/*
 * Every entry of hopmark_ns into @cfg (HM_MAX_NAMESPACES of them), in
 * batches; one lookup per entry where the kernel has no batch operation.
 * Return: 0, or -1 with errno set.
 */
static int ns_read_all(int fd, struct hopmark_ns_cfg *cfg)
{
	static __u32 keys[HM_MAX_NAMESPACES];
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 batch = 0, count, done = 0, id;
	int err;

	while (done < HM_MAX_NAMESPACES) {
		count = HM_MAX_NAMESPACES - done;
		err = bpf_map_lookup_batch(fd, done ? &batch : NULL, &batch, keys + done,
					   cfg + done, &count, &opts);
		if (err && errno != ENOENT)
			break;
		done += count;
		if (err)
			return 0;	/* ENOENT: the end of the array */
	}
	if (done >= HM_MAX_NAMESPACES)
		return 0;
	for (id = 0; id < HM_MAX_NAMESPACES; id++)
		if (bpf_map_lookup_elem(fd, &id, &cfg[id]))
			return -1;
	return 0;
}

static int ns_show(int argc, char **argv)
{
	struct hopmark_ns_cfg *cfg;
	__u32 id;
	int fd;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("ioam namespace show", *argv);
	}
	fd = map_open_existing(HM_MAP_NS);
	if (fd < 0)
		return HM_EXIT_FAIL;
	/* The whole array in one read (1 MiB), instead of 65535 lookups. */
	cfg = calloc(HM_MAX_NAMESPACES, sizeof(*cfg));
	if (!cfg) {
		close(fd);
		return hm_errf(-ENOMEM, "cannot read %s", HM_MAP_NS);
	}
	if (ns_read_all(fd, cfg)) {
		free(cfg);
		close(fd);
		return hm_errf(-errno, "cannot read %s", HM_MAP_NS);
	}

	new_json_obj();
	for (id = 0; id < HM_MAX_NAMESPACES; id++) {
		if (!(cfg[id].flags & HM_NS_F_KNOWN))
			continue;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "namespace", "namespace %llu", id);
		if (cfg[id].flags & HM_NS_F_DATA)
			print_uint(PRINT_ANY, "data", " [data %llu]", cfg[id].data);
		if (cfg[id].flags & HM_NS_F_DATA_WIDE)
			print_uint(PRINT_ANY, "wide", " [wide %llu]", cfg[id].data_wide);
		print_nl();
		close_json_object();
	}
	delete_json_obj();
	free(cfg);
	close(fd);
	return HM_EXIT_OK;
}

/**
 * do_ioam_namespace() - "hopmark ioam namespace { add | del | show | help }"
 * @argc: words after "namespace"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_ioam_namespace(int argc, char **argv)
{
	if (argc < 1)
		return ns_show(0, NULL);
	if (matches(*argv, "add"))
		return ns_add(argc - 1, argv + 1);
	if (matches(*argv, "delete"))
		return ns_del(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return ns_show(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark ioam namespace help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}
