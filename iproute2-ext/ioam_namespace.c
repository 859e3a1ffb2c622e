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

/* 0xffff is reserved for "unavailable"; ip ioam takes 0..65534 as well. */

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
		.data = HM_IOAM_U32_UNAVAILABLE,
		.data_wide = HM_IOAM_U64_UNAVAILABLE,
	};
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
	if (bpf_map_update_elem(fd, &id, &cfg, BPF_NOEXIST)) {
		if (errno == EEXIST)
			err = hm_errf(0, "IOAM-Namespace %u already exists (del it first)", id);
		else if (errno == E2BIG)
			err = hm_errf(0, "cannot add IOAM-Namespace %u: the table holds %u namespaces",
				      id, HM_MAX_NAMESPACES);
		else
			err = hm_errf(-errno, "cannot add IOAM-Namespace %u", id);
	}
	close(fd);
	return err;
}

static int ns_del(int argc, char **argv)
{
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
	if (bpf_map_delete_elem(fd, &id)) {
		if (errno == ENOENT)
			err = hm_errf(0, "IOAM-Namespace %u does not exist", id);
		else
			err = hm_errf(-errno, "cannot delete IOAM-Namespace %u", id);
	}
	close(fd);
	return err;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static int ns_show(int argc, char **argv)
{
	__u32 keys[HM_MAX_NAMESPACES], key, next;
	struct hopmark_ns_cfg cfg;
	unsigned int n = 0, i;
	int fd, err;

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
	err = bpf_map_get_next_key(fd, NULL, &next);
	while (!err && n < HM_MAX_NAMESPACES) {
		keys[n++] = next;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	qsort(keys, n, sizeof(keys[0]), cmp_u32);

	new_json_obj();
	for (i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &keys[i], &cfg))
			continue;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "namespace", "namespace %llu", keys[i]);
		if (cfg.flags & HM_NS_F_DATA)
			print_uint(PRINT_ANY, "data", " [data %llu]", cfg.data);
		if (cfg.flags & HM_NS_F_DATA_WIDE)
			print_uint(PRINT_ANY, "wide", " [wide %llu]", cfg.data_wide);
		print_nl();
		close_json_object();
	}
	delete_json_obj();
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
