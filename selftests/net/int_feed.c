// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_feed.c - feed hopmarkd's INT exporter without the INT datapath, for
 * selftests/net/test_int_report.sh.
 *
 *   int_feed OBJ size
 *	print sizeof(struct int_record), the record size of FILE below
 *   int_feed OBJ cfg none | collector ADDR port PORT [src ADDR] [sport N]
 *		[coalesce N] [trunc N] [hw-id N] [ds-id N] [udp-port N]
 *		[sink-if IFINDEX]
 *	write int_cfg[0]: configured, with that report destination (none:
 *	no collector, rpt_family 0); fields not named are 0 (coalesce: 1).
 *	udp-port: INT-MD signalled by that UDP destination port; sink-if:
 *	int_ifcfg[IFINDEX] gets the sink role
 *   int_feed OBJ sink INT_OBJ FRAMES
 *	run the INT datapath's hm_int_sink (INT_OBJ, bpf/hopmark_int.bpf.c,
 *	loaded with the same pin root) once on each Ethernet frame of FRAMES
 *	(each a 4-octet little-endian length, then the frame), on the
 *	loopback device (ifindex 1), and print "runs N ok K" (K passed the
 *	packet on: TC_ACT_UNSPEC, Documentation/int.rst "Return codes")
 *   int_feed OBJ run FILE [REPEAT]
 *	put every struct int_record of FILE on int_events, each REPEAT times
 *	(BPF_PROG_TEST_RUN of int_feed.bpf.o's hm_int_feed), and print
 *	"runs N lost L": L records the full ring refused (the increase of
 *	int_stats' INT_CNT_EVENTS_LOST, summed over interfaces and CPUs)
 *
 * OBJ is build/tests/net/int_feed.bpf.o, loaded with the pin root of
 * hm_pin_dir() ($TC_BPF_MNT/tc/globals): its maps are the node's pinned
 * INT maps, created if the INT object has not been loaded. Needs root.
 * Exit 0, 1 on failure, 2 on bad usage, 4 when BPF is not available.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/pkt_cls.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "int/int_maps.h"

static int usage(void)
{
	fprintf(stderr, "usage: int_feed OBJ { size | cfg ... | run FILE [REPEAT] }\n");
	return 2;
}

static long long lost_sum(int fd)
{
	struct int_link_stats *v;
	__u32 key, next, *prev = NULL;
	long long sum = 0;
	int ncpu = libbpf_num_possible_cpus(), i;

	if (ncpu <= 0)
		return -1;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -1;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, v))
			continue;
		for (i = 0; i < ncpu; i++)
			sum += v[i].cnt[INT_CNT_EVENTS_LOST];
	}
	free(v);
	return sum;
}

static int parse_addr(const char *s, __u8 *out, __u8 *family)
{
	if (inet_pton(AF_INET, s, out) == 1) {
		*family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out) == 1) {
		*family = 6;
		return 0;
	}
	fprintf(stderr, "int_feed: \"%s\" is not an address\n", s);
	return -1;
}

static int cmd_cfg(struct bpf_object *obj, int argc, char **argv)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, INT_MAP_CFG);
	struct int_domain_cfg c = {};
	__u32 zero = 0;
	__u8 fam;
	int i;

	c.flags = INT_DOM_F_CONFIGURED;
	c.rpt_coalesce = 1;
	for (i = 0; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(k, "none"))
			continue;
		if (!v)
			return usage();
		i++;
		if (!strcmp(k, "collector")) {
			if (parse_addr(v, c.rpt_addr, &c.rpt_family))
				return 2;
		} else if (!strcmp(k, "src")) {
			if (parse_addr(v, c.rpt_src, &fam))
				return 2;
		} else if (!strcmp(k, "port")) {
			c.rpt_port = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "sport")) {
			c.rpt_sport = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "coalesce")) {
			c.rpt_coalesce = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "trunc")) {
			c.report_trunc = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "hw-id")) {
			c.hw_id = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "ds-id")) {
			c.ds_id = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "udp-port")) {
			c.signal = INT_SIG_UDP;
			c.mode = INT_MODE_MD;
			c.udp_port = strtoul(v, NULL, 0);
		} else if (!strcmp(k, "sink-if")) {
			struct bpf_map *im = bpf_object__find_map_by_name(obj, INT_MAP_IFCFG);
			struct int_if_cfg ic = { .flags = INT_IF_F_SINK };
			__u32 ifx = strtoul(v, NULL, 0);

			if (!im || bpf_map_update_elem(bpf_map__fd(im), &ifx, &ic, BPF_ANY)) {
				fprintf(stderr, "int_feed: %s: %s\n", INT_MAP_IFCFG, strerror(errno));
				return 1;
			}
		} else {
			fprintf(stderr, "int_feed: unknown cfg key \"%s\"\n", k);
			return 2;
		}
	}
	if (!m || bpf_map_update_elem(bpf_map__fd(m), &zero, &c, BPF_ANY)) {
		fprintf(stderr, "int_feed: %s: %s\n", INT_MAP_CFG, strerror(errno));
		return 1;
	}
	return 0;
}

static int cmd_run(struct bpf_object *obj, const char *path, unsigned int repeat)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, "hm_int_feed");
	struct bpf_map *st = bpf_object__find_map_by_name(obj, INT_MAP_STATS);
	struct int_record rec;
	long long before, after;
	unsigned long runs = 0;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f || !p || !st) {
		fprintf(stderr, "int_feed: %s: %s\n", path, strerror(errno));
		return 1;
	}
	before = lost_sum(bpf_map__fd(st));
	while ((n = fread(&rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &rec, .data_size_in = sizeof(rec),
			    .repeat = repeat);

		if (bpf_prog_test_run_opts(bpf_program__fd(p), &o)) {
			fprintf(stderr, "int_feed: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
			fclose(f);
			return 1;
		}
		if (o.retval != TC_ACT_OK) {
			fprintf(stderr, "int_feed: hm_int_feed returned %u\n", o.retval);
			fclose(f);
			return 1;
		}
		runs += repeat;
	}
	fclose(f);
	if (n) {
		fprintf(stderr, "int_feed: %s: %zu trailing octets, not a whole record of %zu\n",
			path, n, sizeof(rec));
		return 1;
	}
	after = lost_sum(bpf_map__fd(st));
	printf("runs %lu lost %lld\n", runs, after - before);
	return 0;
}

static int cmd_sink(const char *obj_path, const char *pin_dir, const char *path)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = pin_dir);
	struct bpf_program *p;
	struct bpf_object *obj;
	static __u8 frame[4096];
	unsigned long runs = 0, ok = 0;
	FILE *f;
	__u32 len;
	int ret = 0;

	obj = bpf_object__open_file(obj_path, &opts);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "int_feed: loading %s: %s\n", obj_path, strerror(errno));
		bpf_object__close(obj);
		return 1;
	}
	p = bpf_object__find_program_by_name(obj, "hm_int_sink");
	f = fopen(path, "rb");
	if (!p || !f) {
		fprintf(stderr, "int_feed: %s: %s\n", p ? path : "hm_int_sink", strerror(errno));
		ret = 1;
		goto out;
	}
	while (fread(&len, sizeof(len), 1, f) == 1) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = len, .repeat = 1);

		if (len > sizeof(frame) || fread(frame, 1, len, f) != len) {
			fprintf(stderr, "int_feed: %s: a frame cut short\n", path);
			ret = 1;
			break;
		}
		if (bpf_prog_test_run_opts(bpf_program__fd(p), &o)) {
			fprintf(stderr, "int_feed: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
			ret = 1;
			break;
		}
		runs++;
		ok += (int)o.retval == TC_ACT_UNSPEC;
	}
	if (!ret)
		printf("runs %lu ok %lu\n", runs, ok);
out:
	if (f)
		fclose(f);
	bpf_object__close(obj);
	return ret;
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct bpf_object *obj;
	char dir[256];
	int ret;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[2], "size")) {
		printf("%zu\n", sizeof(struct int_record));
		return 0;
	}
	if (hm_pin_dir(dir, sizeof(dir)))
		return 1;
	/* The pin directory of a fresh bpffs: <bpffs>/tc, then globals. */
	{
		char tc[sizeof(dir)];

		snprintf(tc, sizeof(tc), "%s", dir);
		*strrchr(tc, '/') = 0;
		mkdir(tc, 0700);
		mkdir(dir, 0700);
	}
	opts.pin_root_path = dir;
	obj = bpf_object__open_file(argv[1], &opts);
	if (!obj) {
		fprintf(stderr, "int_feed: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "int_feed: loading %s: %s\n", argv[1], strerror(errno));
		bpf_object__close(obj);
		return errno == EPERM ? 4 : 1;
	}
	if (!strcmp(argv[2], "sink") && argc == 5)
		ret = cmd_sink(argv[3], dir, argv[4]);
	else if (!strcmp(argv[2], "cfg"))
		ret = cmd_cfg(obj, argc - 3, argv + 3);
	else if (!strcmp(argv[2], "run") && argc >= 4)
		ret = cmd_run(obj, argv[3], argc > 4 ? strtoul(argv[4], NULL, 0) : 1);
	else
		ret = usage();
	bpf_object__close(obj);
	return ret;
}
