// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * bpf_cost.c - what each hopmark BPF program costs per packet
 * (build/bench/bpf-cost, issue 11).
 *
 * For every role of every protocol (IOAM encap, transit in and out, decap
 * with its ring buffer output; PINT source, transit, sink) and a few
 * representative frames each, the program runs under BPF_PROG_TEST_RUN
 * with a repeat count behind a wrapper (bench/bpf_cost.bpf.c) that restores
 * the frame before every run and tail-calls it; the same wrapper in front
 * of the no-op program of the same hook, on the same frame, in the same
 * round, is the baseline. A row's figure is the difference, in ns per
 * packet, as the kernel times the runs (time spent rescheduled excluded).
 * Rounds alternate the cases (and within a case, which of the two runs
 * first), and each row gives the median and the spread over the rounds.
 *
 * The objects come from --obj-dir (default: this tree's build/bpf), so the
 * tool measures any build; they are loaded as hopmark loads them, with
 * the pin root of the node (private bpffs, own network namespace), and the
 * maps are set by the selftests' setters (selftests/bpf/maps.c, the values
 * every BPF test starts from) and for PINT by the library calls `hopmark
 * pint` makes (pint_cfg_defaults(), pint_cfg_query_add()). After every
 * measured run the counters must show that the program took the path the
 * row names (e.g. transit_ok rose by the repeat count; nothing moved for a
 * frame that is not ours): otherwise the tool stops with an error.
 *
 * Output: one table on stdout, every figure in a JSON file (-o), with the
 * kernel release and the CPU model. Goals of issue 11 are printed beside
 * the rows they concern.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "common/hm_time.h"
#include "common/ether.h"
#include "ipv4/ipv4.h"
#include "pint/pint_maps.h"
#include "pint/pint_settings.h"
#include "pint/pint_sink.h"
#include "int/int_maps.h"
#include "int/int_names.h"
#include "pbt/pbt_maps.h"
#include "pbt/pbt_names.h"
#include "pbt/pbt_settings.h"
#include "bpf_test.h"
#include "bpf_cost.h"
#include "bench/bpf_cost.skel.h"

#ifndef HM_COST_OBJ_DIR
#define HM_COST_OBJ_DIR	"build/bpf"
#endif

#define COST_REPEAT_DEF	200000
#define COST_ROUNDS_DEF	21
#define COST_ROUNDS_MAX	1001
#define COST_CASES_MAX	128

/* Frames: hop limit as sent, and the PINT settings of the cases. */
#define COST_HLIM		64
#define COST_PAYLOAD		32
#define COST_PINT_RATE_BPS	10000000000ULL	/* 10 Gbit/s on the PINT transit device */
#define COST_PINT_HOP		5		/* hops before the measured PINT node */
/* Below PINT_EVENTS_WAKEUP_BYTES of struct pint_record (checked in rings_open()). */
#define COST_PINT_SMALL_BATCH	64
#define HM_STR_(x)		#x
#define HM_STR(x)		HM_STR_(x)

/* ---- what the selftests' code expects from its user ---- */

struct hm_env env = {
	.prog_encap = -1, .prog_transit_in = -1, .prog_transit_out = -1, .prog_decap = -1,
	.fd_node = -1, .fd_ifcfg = -1, .fd_ns = -1, .fd_encap = -1, .fd_encap_filter = -1,
	.fd_qdepth = -1,
	.fd_stats = -1, .fd_events = -1,
};

static bool setup_failed;

void hm_fail(const char *fmt, ...)
{
	va_list ap;

	setup_failed = true;
	fprintf(stderr, "bpf-cost: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bpf-cost: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- the objects under test ---- */

/* The objects of --obj-dir, then the bench's own (the calibration programs). */
enum cost_obj { OBJ_ENCAP, OBJ_TRANSIT, OBJ_DECAP, OBJ_PINT, OBJ_INT, OBJ_PBT, OBJ_MAX,
		OBJ_BENCH = OBJ_MAX };

static const char *const obj_names[OBJ_MAX + 1] = {
	[OBJ_ENCAP] = "hopmark_encap", [OBJ_TRANSIT] = "hopmark_transit",
	[OBJ_DECAP] = "hopmark_decap", [OBJ_PINT] = "pint", [OBJ_INT] = "hopmark_int",
	[OBJ_PBT] = "hopmark_pbt",
	[OBJ_BENCH] = "bpf_cost",
};

/**
 * struct cost_set - one build's objects, on a bpffs instance of their own
 * @dir:	directory of the objects (--obj-dir, or --before)
 * @name:	"obj-dir" or "before"
 * @bpffs:	mount point of its bpffs
 * @mounted:	@bpffs is mounted
 * @objs:	the objects, loaded
 * @env:	its pinned maps and the devices (env while its cases run)
 */
struct cost_set {
	const char		*dir;
	const char		*name;
	char			bpffs[64];
	bool			mounted;
	struct bpf_object	*objs[OBJ_MAX];
	struct hm_env		env;
};

static struct cost_set sets[2];
static int n_sets;
/* The set being built or run: its objects, and env holds its maps. */
static struct cost_set *cur;

static void use_set(struct cost_set *s)
{
	cur = s;
	env = s->env;
}

enum cost_hook { HOOK_XDP, HOOK_TC };

/* Which counters a case must move (struct cost_case.fam). */
enum cost_family { FAM_IOAM, FAM_PINT, FAM_INT, FAM_PBT };

/* PINT settings of a case (struct cost_case.pint). */
enum cost_pint { PINT_NONE, PINT_PATH8, PINT_ALL3 };

/**
 * struct cost_case - one program on one frame
 * @id:		row name, "ROLE.PACKET" (the smoke test and the JSON use it)
 * @prog:	BPF program name
 * @obj:	object holding it
 * @hook:	XDP or tc
 * @packet:	what the frame is, for the table's legend
 * @ifindex:	xdp_md.ingress_ifindex (XDP) or __sk_buff.ifindex (tc)
 * @iif:	__sk_buff.ingress_ifindex (tc ingress roles: @ifindex; the INT
 *		transit: the device its packets arrived on)
 * @pint:	PINT domain settings written before each run
 * @fam:	counters of @fam's map on @ifindex are checked
 * @cnt:	the counter that must rise by one per run, -1: none may move
 * @may:	counters allowed to move as well (HM_BIT() of each)
 * @goal_ns:	issue 11's goal for this row, < 0 for none
 * @goal:	what the goal is, for the JSON
 * @frame:	the frame
 * @set:	the build it belongs to
 * @twin:	the same case of the other build (--before), or NULL
 * @fd:		program fd, < 0 for a program the --before build does not have
 *		(its rows must be left out with --only)
 * @prog_ns:	per round: wrapper + program, ns per run
 * @base_ns:	per round: wrapper + no-op, ns per run
 * @ring:	the program writes a record to a ring buffer per run (ring_batch)
 * @int_bitmap:	INT cases: the domain's Instruction Bitmap (set_int())
 * @pbt_roles:	PBT-M cases: %PBT_IF_F_* of @ifindex (set_pbt())
 * @pbt_watch:	PBT-M cases: the head's watchlist has one rule the frame
 *		does not match (set_pbt())
 * @batch:	records between two drains of the rings, 0: ring_batch
 * @lost:	ring buffer records lost (events_lost) over all rounds
 * @runs:	program runs over all rounds
 */
struct cost_case {
	char			id[48];
	const char		*prog;
	enum cost_obj		obj;
	enum cost_hook		hook;
	char			packet[112];
	int			ifindex, iif;
	enum cost_pint		pint;
	enum cost_family	fam;
	int			cnt;
	__u32			may;
	double			goal_ns;
	const char		*goal;
	struct pkt		frame;
	struct cost_set		*set;
	struct cost_case	*twin;
	int			fd;
	bool			ring;
	__u32			batch;
	__u16			int_bitmap;
	__u32			pbt_roles;
	bool			pbt_watch;
	double			prog_ns[COST_ROUNDS_MAX];
	double			base_ns[COST_ROUNDS_MAX];
	__u64			lost;
	__u64			runs;
};

/**
 * struct cost_row - one row of the table: a case, or two cases summed
 * @id:		row name
 * @a:		the case
 * @b:		the second case summed per round with @a (transit in + out), or NULL
 * @goal_ns:	goal, < 0 for none
 * @goal:	what the goal is
 */
struct cost_row {
	char			id[48];
	struct cost_case	*a, *b;
	double			goal_ns;
	const char		*goal;
};

static struct cost_case cases[COST_CASES_MAX];
static int n_cases;
static struct cost_row rows[COST_CASES_MAX * 2];
static int n_rows;

/* Devices of the private network namespace (env.if_in/out/enc, and these). */
static int if_dec, if_psrc, if_psnk;

static struct bpf_cost *wrap;
static const char *only;

/*
 * The decap and PINT sink rows include the ring buffer output. A full ring
 * would turn them into the cheaper "record lost" path, so their runs are
 * cut into calls of at most ring_batch runs (half of what the smaller ring
 * holds) and the rings are drained between two calls, outside the timed
 * loop. Within a call the reader is behind, as a reader woken by batch is.
 */
static struct ring_buffer *rings;
static __u32 ring_batch;

static int pint_map(const char *name);
static int map_checked(int fd, const char *name, size_t size, const char *type);

static int rec_cb(void *ctx, void *data, size_t size)
{
	return 0;
}

/* ring_batch from the sizes of the rings (of every build) and of their records. */
static void rings_open(void)
{
	static const struct {
		enum cost_obj	obj;
		const char	*map;
		size_t		rec;
	} r[] = {
		{ OBJ_DECAP, HM_MAP_EVENTS, sizeof(struct hopmark_ioam_record) },
		{ OBJ_PINT, PINT_MAP_EVENTS, sizeof(struct pint_record) },
		{ OBJ_PBT, PBT_MAP_EVENTS, sizeof(struct pbt_record) },
	};
	unsigned int i;
	int k, fd;

	ring_batch = UINT_MAX;
	for (k = 0; k < n_sets; k++) {
		use_set(&sets[k]);
		for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
			struct bpf_object *o = cur->objs[r[i].obj];
			struct bpf_map *m;

			/* A --before build older than PBT-M has no hopmark_pbt.bpf.o. */
			if (!o && k > 0)
				continue;
			m = o ? bpf_object__find_map_by_name(o, r[i].map) : NULL;
			/* BPF_RINGBUF_HDR_SZ (8) before each record, 8-byte aligned. */
			__u32 slot = (r[i].rec + 8 + 7) / 8 * 8;
			__u32 n = m ? bpf_map__max_entries(m) / slot / 2 : 0;

			if (!n)
				die("%s/%s.bpf.o: no ring buffer %s", cur->dir,
				    obj_names[r[i].obj], r[i].map);
			if (n < ring_batch)
				ring_batch = n;
			fd = bpf_map__fd(m);
			if (rings ? ring_buffer__add(rings, fd, rec_cb, NULL) < 0 :
			    !(rings = ring_buffer__new(fd, rec_cb, NULL, NULL)))
				die("cannot read the ring buffer %s: %s", r[i].map,
				    strerror(errno));
		}
	}
	if (COST_PINT_SMALL_BATCH * ((sizeof(struct pint_record) + 8 + 7) / 8 * 8) >=
	    PINT_EVENTS_WAKEUP_BYTES)
		die("COST_PINT_SMALL_BATCH records reach PINT_EVENTS_WAKEUP_BYTES");
}

/* ---- environment ---- */

static void cleanup(void)
{
	int i;

	for (i = 0; i < n_sets; i++) {
		if (sets[i].mounted)
			umount2(sets[i].bpffs, MNT_DETACH);
		if (sets[i].bpffs[0])
			rmdir(sets[i].bpffs);
	}
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int make_veth(const char *a, int mtu)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "ip link add %s mtu %d type veth peer name %s-p mtu %d >/dev/null 2>&1",
		 a, mtu, a, mtu);
	if (system(cmd))
		die("cannot create veth %s (ip link add ... type veth)", a);
	return if_nametoindex(a);
}

static int open_pinned(const char *pin_root, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", pin_root, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return bpf_obj_get(path);
}

/*
 * A bpffs of its own for @set (TC_BPF_MNT points at it while it is set
 * up), then every object of @set->dir loaded with its pin root. The first
 * set's maps are made by hm_maps_create() as the CLI makes them; a
 * --before build's objects make their own (its map layouts may differ).
 */
static void load_set(struct cost_set *set, bool create_maps)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	char pin_root[PATH_MAX], path[PATH_MAX];
	int i, err;

	strcpy(set->bpffs, "/tmp/hm-cost-XXXXXX");
	if (!mkdtemp(set->bpffs)) {
		set->bpffs[0] = 0;
		die("mkdtemp: %s", strerror(errno));
	}
	if (mount("bpf", set->bpffs, "bpf", 0, NULL))
		die("cannot mount a bpffs instance: %s", strerror(errno));
	set->mounted = true;
	setenv(HM_BPFFS_ENV, set->bpffs, 1);
	if (hm_pin_dir(pin_root, sizeof(pin_root)))
		die("no pin directory");
	snprintf(path, sizeof(path), "%s/tc", set->bpffs);
	mkdir(path, 0700);
	mkdir(pin_root, 0700);
	if (create_maps) {
		err = hm_maps_create();
		if (err < 0)
			die("hm_maps_create(): %s", strerror(-err));
	}
	oo.pin_root_path = pin_root;
	for (i = 0; i < OBJ_MAX; i++) {
		snprintf(path, sizeof(path), "%s/%s.bpf.o", set->dir, obj_names[i]);
		/* A --before build older than INT has no hopmark_int: its rows are left out. */
		if ((i == OBJ_INT || i == OBJ_PBT) && !create_maps && access(path, F_OK))
			continue;
		set->objs[i] = bpf_object__open_file(path, &oo);
		if (!set->objs[i])
			die("cannot open %s: %s", path, strerror(errno));
		err = bpf_object__load(set->objs[i]);
		if (err)
			die("cannot load %s: %s", path, strerror(-err));
	}
	set->env = env;
	set->env.fd_node = open_pinned(pin_root, HM_MAP_NODE);
	set->env.fd_ifcfg = open_pinned(pin_root, HM_MAP_IFCFG);
	set->env.fd_ns = open_pinned(pin_root, HM_MAP_NS);
	set->env.fd_encap = open_pinned(pin_root, HM_MAP_ENCAP);
	/* Missing in a --before build older than the filter: rules alone then. */
	set->env.fd_encap_filter = open_pinned(pin_root, HM_MAP_ENCAP_FILTER);
	set->env.fd_qdepth = open_pinned(pin_root, HM_MAP_QDEPTH);
	set->env.fd_stats = open_pinned(pin_root, HM_MAP_STATS);
	set->env.fd_events = open_pinned(pin_root, HM_MAP_EVENTS);
	if (set->env.fd_node < 0 || set->env.fd_ifcfg < 0 || set->env.fd_ns < 0 ||
	    set->env.fd_encap < 0 || set->env.fd_qdepth < 0 || set->env.fd_stats < 0 ||
	    set->env.fd_events < 0)
		die("the pinned maps of %s are missing", pin_root);
	cur = set;
	map_checked(set->env.fd_node, HM_MAP_NODE, sizeof(struct hopmark_node_cfg),
		    "struct hopmark_node_cfg");
	map_checked(set->env.fd_ifcfg, HM_MAP_IFCFG, sizeof(struct hopmark_if_cfg),
		    "struct hopmark_if_cfg");
	map_checked(set->env.fd_ns, HM_MAP_NS, sizeof(struct hopmark_ns_cfg),
		    "struct hopmark_ns_cfg");
	map_checked(set->env.fd_encap, HM_MAP_ENCAP, sizeof(struct hopmark_encap_cfg),
		    "struct hopmark_encap_cfg");
	if (set->env.fd_encap_filter >= 0)
		map_checked(set->env.fd_encap_filter, HM_MAP_ENCAP_FILTER,
			    sizeof(struct hopmark_encap_filter), "struct hopmark_encap_filter");
	map_checked(set->env.fd_qdepth, HM_MAP_QDEPTH, sizeof(struct hopmark_qdepth),
		    "struct hopmark_qdepth");
	map_checked(set->env.fd_stats, HM_MAP_STATS, sizeof(struct hopmark_link_stats),
		    "struct hopmark_link_stats");
}

/*
 * The key the calib.*_lookup programs look up: present in the hash and
 * per-CPU hash maps (every CPU's value set), so that their rows measure a
 * hit (an array has every key).
 */
static void calib_maps_fill(void)
{
	__u32 key = HM_COST_CALIB_KEY;
	__u64 v = 0x5a5a, *per;
	int cpu;

	if (bpf_map_update_elem(bpf_map__fd(wrap->maps.bench_calib_hash), &key, &v, BPF_ANY))
		die("cannot write bench_calib_hash: %s", strerror(errno));
	per = calloc(env.ncpus, sizeof(*per));
	if (!per)
		die("out of memory");
	for (cpu = 0; cpu < env.ncpus; cpu++)
		per[cpu] = v;
	if (bpf_map_update_elem(bpf_map__fd(wrap->maps.bench_calib_pcpu), &key, per, BPF_ANY))
		die("cannot write bench_calib_pcpu: %s", strerror(errno));
	free(per);
}

/*
 * A node of its own, as selftests/bpf/test_run.c builds one: mount and
 * network namespaces, veths whose ifindexes the runs name, and for each
 * build a private bpffs with its maps and objects (load_set()).
 */
static void setup(void)
{
	struct timex tx = { 0 };
	int i;

	if (geteuid() != 0)
		die("needs root (BPF_PROG_TEST_RUN of tc and XDP programs, bpffs, netns)");
	if (unshare(CLONE_NEWNS | CLONE_NEWNET))
		die("unshare(CLONE_NEWNS|CLONE_NEWNET): %s", strerror(errno));
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("cannot make mounts private: %s", strerror(errno));
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, on_signal);
	signal(SIGHUP, on_signal);

	if (system("ip link set dev lo up >/dev/null 2>&1"))
		die("cannot bring up lo in the private network namespace");
	env.if_in = make_veth("hmc-in", 1500);
	env.if_out = make_veth("hmc-out", 1500);
	env.if_enc = make_veth("hmc-enc", HM_ENC_MTU);
	if_dec = make_veth("hmc-dec", 1500);
	if_psrc = make_veth("hmc-psrc", 1500);
	if_psnk = make_veth("hmc-psnk", 1500);
	if (adjtimex(&tx) >= 0)
		env.tai_offset_ns = (__s64)tx.tai * 1000000000LL;
	env.ncpus = libbpf_num_possible_cpus();

	libbpf_set_print(hm_libbpf_errors_only);
	for (i = 0; i < n_sets; i++)
		load_set(&sets[i], i == 0);

	wrap = bpf_cost__open_and_load();
	if (!wrap)
		die("cannot load the wrapper programs (bench/bpf_cost.bpf.c): %s",
		    strerror(errno));
	calib_maps_fill();
}

/*
 * The value of @fd's map must be @size bytes, the struct this tree writes
 * or reads (the syscall copies the map's value size): a build whose layout
 * differs cannot be configured by this one.
 */
static int map_checked(int fd, const char *name, size_t size, const char *type)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		die("%s: map %s cannot be read", cur->dir, name);
	if (info.value_size != size)
		die("%s: map %s holds %u-byte values, this tree's %s has %zu: run the "
		    "bpf-cost built from that tree", cur->dir, name, info.value_size, type, size);
	return fd;
}

/* An INT map of the current build (hopmark_int.bpf.o). */
static int int_map(const char *name)
{
	struct bpf_map *m = cur->objs[OBJ_INT] ?
			    bpf_object__find_map_by_name(cur->objs[OBJ_INT], name) : NULL;

	if (!m)
		die("%s.bpf.o has no map %s", obj_names[OBJ_INT], name);
	return bpf_map__fd(m);
}

/* A PBT-M map of the current build (hopmark_pbt.bpf.o). */
static int pbt_map(const char *name)
{
	struct bpf_map *m = cur->objs[OBJ_PBT] ?
			    bpf_object__find_map_by_name(cur->objs[OBJ_PBT], name) : NULL;

	if (!m)
		die("%s.bpf.o has no map %s", obj_names[OBJ_PBT], name);
	return bpf_map__fd(m);
}

/*
 * Whether @fd is a pint_cfg of the layout before the scheme's parameters
 * (commit 5bf01dc: struct pint_domain_cfg without @path_scheme_args, e.g.
 * the pre-issue-11 build 1f8ab08). Its other fields are this tree's, in
 * the same order and at the same offsets up to @path_scheme_args, so
 * pint_cfg_write() can write it for the cases bpf-cost sets (one path
 * instance, the scheme's default parameters).
 */
static int pint_cfg_before_args(int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return !bpf_obj_get_info_by_fd(fd, &info, &len) &&
	       info.value_size == sizeof(struct pint_domain_cfg) - PINT_SCHEME_ARGS_MAX;
}

/* A PINT map of the current build, checked against this tree's struct when it has one. */
static int pint_map(const char *name)
{
	struct bpf_map *m = bpf_object__find_map_by_name(cur->objs[OBJ_PINT], name);

	if (!m)
		die("%s.bpf.o has no map %s", obj_names[OBJ_PINT], name);
	if (!strcmp(name, PINT_MAP_CFG) && !pint_cfg_before_args(bpf_map__fd(m)))
		return map_checked(bpf_map__fd(m), name, sizeof(struct pint_domain_cfg),
				   "struct pint_domain_cfg");
	if (!strcmp(name, PINT_MAP_IFCFG))
		return map_checked(bpf_map__fd(m), name, sizeof(struct pint_if_cfg),
				   "struct pint_if_cfg");
	if (!strcmp(name, PINT_MAP_STATS))
		return map_checked(bpf_map__fd(m), name, sizeof(struct pint_link_stats),
				   "struct pint_link_stats");
	return bpf_map__fd(m);
}

/* ---- map settings of a case ---- */

/* The encap rules: 2001:db8:b::/48 (hm_addr_dst) on env.if_enc, freq 1/1. */
static const __u8 enc_prefix[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0b };
static const __u8 dst_no_rule[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0c, [15] = 1 };

static void set_encap_rule(__u32 type, __u8 size)
{
	struct hopmark_encap_cfg c = {
		.ifindex = env.if_enc, .ns_id = HM_T_NS, .size = size,
		.trace_type = type, .freq_k = 1, .freq_n = 1,
	};

	hm_set_encap(enc_prefix, 48, &c);
}

/*
 * pint_cfg_write() - write @cfg into the current build's pint_cfg[0], in
 * the older layout without @path_scheme_args when the build has that one
 * (pint_cfg_before_args()); dies if @cfg uses what that layout lacks.
 */
static void pint_cfg_write(const struct pint_domain_cfg *cfg)
{
	int fd = pint_map(PINT_MAP_CFG);
	__u8 old[sizeof(*cfg) - PINT_SCHEME_ARGS_MAX];
	size_t head = offsetof(struct pint_domain_cfg, path_scheme_args);
	__u32 zero = 0;
	const void *v = cfg;

	if (pint_cfg_before_args(fd)) {
		if (cfg->path_scheme_args[0] || cfg->path_inst > 1 || cfg->path.nr_inst > 1)
			die("%s: pint_cfg of the layout before the scheme's parameters cannot "
			    "hold this case's settings", cur->dir);
		memcpy(old, cfg, head);
		memcpy(old + head, (const __u8 *)cfg + head + PINT_SCHEME_ARGS_MAX,
		       sizeof(old) - head);
		v = old;
	}
	if (bpf_map_update_elem(fd, &zero, v, BPF_ANY))
		die("cannot write %s: %s", PINT_MAP_CFG, strerror(errno));
}

/* The PINT domain as `hopmark pint query add` leaves it. */
static void set_pint(enum cost_pint which)
{
	static const enum pint_kind kinds[] = { PINT_KIND_PATH, PINT_KIND_LATENCY, PINT_KIND_UTIL };
	struct pint_domain_cfg cfg;
	struct pint_if_cfg ic;
	char msg[256];
	__u32 key;
	unsigned int i, n = which == PINT_ALL3 ? 3 : 1;

	memset(&cfg, 0, sizeof(cfg));
	pint_cfg_defaults(&cfg);
	for (i = 0; i < n; i++) {
		struct pint_query_args q = { .kind = kinds[i], .bits = 8 };

		if (pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)))
			die("PINT query %s: %s", pint_kind_names[kinds[i]], msg);
	}
	pint_cfg_write(&cfg);

	memset(&ic, 0, sizeof(ic));
	pint_if_add_role(&ic, PINT_IF_F_SOURCE);
	key = if_psrc;
	bpf_map_update_elem(pint_map(PINT_MAP_IFCFG), &key, &ic, BPF_ANY);
	memset(&ic, 0, sizeof(ic));
	pint_if_add_role(&ic, PINT_IF_F_SINK);
	key = if_psnk;
	bpf_map_update_elem(pint_map(PINT_MAP_IFCFG), &key, &ic, BPF_ANY);
	memset(&ic, 0, sizeof(ic));
	pint_if_add_role(&ic, PINT_IF_F_TRANSIT);
	ic.rate_bps = COST_PINT_RATE_BPS;
	key = env.if_out;
	bpf_map_update_elem(pint_map(PINT_MAP_IFCFG), &key, &ic, BPF_ANY);
}

/*
 * Before every run: the selftests' defaults (which also refresh the queue
 * readings: older than HM_T_QDEPTH_MAX_AGE they would no longer be used),
 * the decap device, and the PINT domain of the case.
 */
static void case_rules(const struct cost_case *c);

/* INT cases: the frame's UDP port and the domain's settings. */
#define COST_INT_PORT		4242
#define COST_INT_ORIG_PORT	5001
#define COST_INT_RHC		7

/*
 * The INT domain of an INT case, as `hopmark int set` writes it: UDP-port
 * signalling on COST_INT_PORT, INT-MD, @bitmap, 8 hops; env.if_out is a
 * transit (int-transit role), env.if_in its ingress.
 */
static void set_int(__u16 bitmap)
{
	struct int_domain_cfg d = { 0 };
	struct int_if_cfg ic = { .flags = INT_IF_F_TRANSIT };
	__u32 zero = 0, key;

	d.flags = INT_DOM_F_CONFIGURED;
	d.signal = INT_SIG_UDP;
	d.mode = INT_MODE_MD;
	d.udp_port = COST_INT_PORT;
	d.bitmap = bitmap;
	d.hop_ml = int_bitmap_words(bitmap);
	d.max_hops = 8;
	d.report_trunc = 64;
	if (bpf_map_update_elem(int_map(INT_MAP_CFG), &zero, &d, BPF_ANY))
		hm_fail("int_cfg: %s", strerror(errno));
	key = env.if_out;
	if (bpf_map_update_elem(int_map(INT_MAP_IFCFG), &key, &ic, BPF_ANY))
		hm_fail("int_ifcfg: %s", strerror(errno));
}

static void set_pbt(const struct cost_case *c);

static void case_setup(const struct cost_case *c)
{
	use_set(c->set);
	hm_maps_defaults();
	hm_set_ifcfg(if_dec, HM_IF_F_DECAP, HM_T_IN_ID, HM_T_IN_ID_WIDE);
	if (c->pint != PINT_NONE)
		set_pint(c->pint);
	if (c->fam == FAM_INT)
		set_int(c->int_bitmap);
	if (c->fam == FAM_PBT)
		set_pbt(c);
	case_rules(c);
	if (setup_failed)
		die("cannot configure the maps for %s", c->id);
}

/* ---- counters ---- */

#define COST_CNT_MAX	64	/* at least HM_CNT_MAX, PINT_CNT_MAX, INT_CNT_MAX, PBT_CNT_MAX */
_Static_assert(HM_CNT_MAX <= COST_CNT_MAX && PINT_CNT_MAX <= COST_CNT_MAX &&
	       INT_CNT_MAX <= COST_CNT_MAX && PBT_CNT_MAX <= COST_CNT_MAX,
	       "COST_CNT_MAX too small");
_Static_assert(PBT_CNT_MAX <= 32, "HM_BIT() of a PBT-M counter in struct cost_case.may");

struct cost_counters {
	__u64	cnt[COST_CNT_MAX];
	int	n;
};


static void counters_read(const struct cost_case *c, struct cost_counters *out)
{
	struct hm_counters hc;
	int i, cpu;

	memset(out, 0, sizeof(*out));
	if (c->fam == FAM_IOAM) {
		hm_counters_read(c->ifindex, &hc);
		for (i = 0; i < HM_CNT_MAX; i++)
			out->cnt[i] = hc.cnt[i];
		out->n = HM_CNT_MAX;
	} else if (c->fam == FAM_PBT) {
		struct pbt_link_stats *per = calloc(env.ncpus, sizeof(*per));
		__u32 key = c->ifindex;

		if (!per)
			die("out of memory");
		if (!bpf_map_lookup_elem(pbt_map(PBT_MAP_STATS), &key, per))
			for (cpu = 0; cpu < env.ncpus; cpu++)
				for (i = 0; i < PBT_CNT_MAX; i++)
					out->cnt[i] += per[cpu].cnt[i];
		free(per);
		out->n = PBT_CNT_MAX;
	} else if (c->fam == FAM_INT) {
		struct int_link_stats *per = calloc(env.ncpus, sizeof(*per));
		__u32 key = c->ifindex;

		if (!per)
			die("out of memory");
		if (!bpf_map_lookup_elem(int_map(INT_MAP_STATS), &key, per))
			for (cpu = 0; cpu < env.ncpus; cpu++)
				for (i = 0; i < INT_CNT_MAX; i++)
					out->cnt[i] += per[cpu].cnt[i];
		free(per);
		out->n = INT_CNT_MAX;
	} else {
		struct pint_link_stats *per = calloc(env.ncpus, sizeof(*per));
		__u32 key = c->ifindex;

		if (!per)
			die("out of memory");
		if (!bpf_map_lookup_elem(pint_map(PINT_MAP_STATS), &key, per))
			for (cpu = 0; cpu < env.ncpus; cpu++)
				for (i = 0; i < PINT_CNT_MAX; i++)
					out->cnt[i] += per[cpu].cnt[i];
		free(per);
		out->n = PINT_CNT_MAX;
	}
}

/* An IOAM counter's name, "pint #N" for PINT's (their names are the CLI's). */
static const char *counter_name(const struct cost_case *c, int i)
{
	static char buf[32];

	if (c->fam == FAM_IOAM && hopmark_counter_names[i])
		return hopmark_counter_names[i];
	if (c->fam == FAM_INT && i < INT_CNT_MAX)
		return int_counter_names[i];
	if (c->fam == FAM_PBT && i < PBT_CNT_MAX)
		return pbt_counter_names[i];
	snprintf(buf, sizeof(buf), "%s #%d", c->fam == FAM_PINT ? "pint" : "ioam", i);
	return buf;
}

/* The counters moved as the row's path implies after @runs runs, else stop. */
static void counters_check(struct cost_case *c, const struct cost_counters *before, __u64 runs)
{
	struct cost_counters now;
	int i;

	counters_read(c, &now);
	for (i = 0; i < now.n; i++) {
		__u64 d = now.cnt[i] - before->cnt[i];

		if (i == c->cnt && d != runs)
			die("%s: counter %s rose by %llu over %llu runs, expected %llu: "
			    "the program did not take the path this row measures",
			    c->id, counter_name(c, i), (unsigned long long)d,
			    (unsigned long long)runs, (unsigned long long)runs);
		if (i != c->cnt && d && !(c->may & HM_BIT(i)))
			die("%s: counter %s rose by %llu over %llu runs, expected 0",
			    c->id, counter_name(c, i), (unsigned long long)d,
			    (unsigned long long)runs);
	}
	if (c->fam == FAM_IOAM)
		c->lost += now.cnt[HM_CNT_EVENTS_LOST] - before->cnt[HM_CNT_EVENTS_LOST];
	else if (c->fam == FAM_INT)
		c->lost += now.cnt[INT_CNT_EVENTS_LOST] - before->cnt[INT_CNT_EVENTS_LOST];
	else if (c->fam == FAM_PBT)
		c->lost += now.cnt[PBT_CNT_EVENTS_LOST] - before->cnt[PBT_CNT_EVENTS_LOST];
	else
		c->lost += now.cnt[PINT_CNT_EVENTS_LOST] - before->cnt[PINT_CNT_EVENTS_LOST];
}

/* ---- runs ---- */

/* One BPF_PROG_TEST_RUN of @fd on @frame, @repeat times; ns per run in *@ns. */
static int test_run(int fd, const struct cost_case *c, const struct pkt *frame, __u32 repeat,
		    __u32 *ns, __u32 *retval, void *out, __u32 *out_len)
{
	struct xdp_md xctx = { .data_end = frame->len, .ingress_ifindex = c->ifindex };
	struct __sk_buff sctx = { .ifindex = c->ifindex, .ingress_ifindex = c->iif };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame->b, .data_size_in = frame->len,
		.data_out = out, .data_size_out = out ? HM_PKT_MAX : 0,
		.repeat = repeat);
	int err;

	if (c->hook == HOOK_XDP) {
		o.ctx_in = &xctx;
		o.ctx_size_in = sizeof(xctx);
	} else {
		o.ctx_in = &sctx;
		o.ctx_size_in = sizeof(sctx);
	}
	err = bpf_prog_test_run_opts(fd, &o);
	if (err)
		return -errno;
	*ns = o.duration;
	*retval = o.retval;
	if (out_len)
		*out_len = o.data_size_out;
	return 0;
}

/* Wrapper + @target on the case's frame, @repeat times: ns per run. */
static double wrapped_run(struct cost_case *c, int target, __u32 repeat)
{
	__u32 zero = 0, ns, retval, no_tail, done = 0, n;
	int wrap_fd, arr_fd, err;
	double total = 0;

	if (c->hook == HOOK_XDP) {
		wrap_fd = bpf_program__fd(wrap->progs.bench_xdp_wrap);
		arr_fd = bpf_map__fd(wrap->maps.bench_xdp_prog);
		no_tail = HM_COST_XDP_NO_TAIL;
	} else {
		wrap_fd = bpf_program__fd(wrap->progs.bench_tc_wrap);
		arr_fd = bpf_map__fd(wrap->maps.bench_tc_prog);
		no_tail = HM_COST_TC_NO_TAIL;
	}
	if (bpf_map_update_elem(arr_fd, &zero, &target, BPF_ANY))
		die("%s: cannot put the program in the wrapper's program array: %s",
		    c->id, strerror(errno));
	while (done < repeat) {
		n = repeat - done;
		if (c->ring && n > (c->batch ? c->batch : ring_batch))
			n = c->batch ? c->batch : ring_batch;
		if (c->ring)
			ring_buffer__consume(rings);
		err = test_run(wrap_fd, c, &c->frame, n, &ns, &retval, NULL, NULL);
		if (err)
			die("%s: BPF_PROG_TEST_RUN: %s", c->id, strerror(-err));
		if (retval == no_tail)
			die("%s: the wrapper could not restore the frame or tail-call the "
			    "program", c->id);
		total += (double)ns * n;
		done += n;
	}
	if (c->ring)
		ring_buffer__consume(rings);
	return total / repeat;
}

static void frame_load(const struct cost_case *c)
{
	static struct hm_cost_frame f;
	__u32 zero = 0;

	if (c->frame.len < 1 || c->frame.len > HM_COST_FRAME_MAX)
		die("%s: frame of %zu bytes", c->id, c->frame.len);
	memset(&f, 0, sizeof(f));
	f.len = c->frame.len;
	memcpy(f.b, c->frame.b, c->frame.len);
	if (bpf_map_update_elem(bpf_map__fd(wrap->maps.bench_frame), &zero, &f, BPF_ANY))
		die("cannot write bench_frame: %s", strerror(errno));
}

static int noop_fd(const struct cost_case *c)
{
	return bpf_program__fd(c->hook == HOOK_XDP ? wrap->progs.bench_xdp_noop :
				wrap->progs.bench_tc_noop);
}

/* One measurement of a case: the no-op and the program, in the order @prog_first. */
static void measure(struct cost_case *c, int round, __u32 repeat, bool prog_first)
{
	struct cost_counters before;
	double p, b;

	case_setup(c);
	frame_load(c);
	if (prog_first) {
		counters_read(c, &before);
		p = wrapped_run(c, c->fd, repeat);
		counters_check(c, &before, repeat);
		b = wrapped_run(c, noop_fd(c), repeat);
	} else {
		b = wrapped_run(c, noop_fd(c), repeat);
		counters_read(c, &before);
		p = wrapped_run(c, c->fd, repeat);
		counters_check(c, &before, repeat);
	}
	if (c->obj == OBJ_BENCH && wrap->bss->bench_calib_miss)
		die("%s: the calibration lookup missed %llu times: the row would not "
		    "measure a hit", c->id, (unsigned long long)wrap->bss->bench_calib_miss);
	c->runs += repeat;
	if (round >= 0) {
		c->prog_ns[round] = p;
		c->base_ns[round] = b;
	}
}

/* ---- cases ---- */

static struct cost_case *add_case(const char *id, const char *prog, enum cost_obj obj,
				  enum cost_hook hook, int ifindex, int iif)
{
	struct bpf_object *o = obj == OBJ_BENCH ? wrap->obj : cur->objs[obj];
	struct bpf_program *p = o ? bpf_object__find_program_by_name(o, prog) : NULL;
	struct cost_case *c;

	/*
	 * A --before build older than a program (hm_transit_tcin) gets a
	 * placeholder twin; check_twins() refuses to measure its rows.
	 */
	if (!p && cur == &sets[0])
		die("%s.bpf.o has no program %s", obj_names[obj], prog);
	if (n_cases == COST_CASES_MAX)
		die("too many cases");
	c = &cases[n_cases++];
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->prog = prog;
	c->obj = obj;
	c->hook = hook;
	c->ifindex = ifindex;
	c->iif = iif;
	c->fam = obj == OBJ_PINT ? FAM_PINT : obj == OBJ_INT ? FAM_INT :
		 obj == OBJ_PBT ? FAM_PBT : FAM_IOAM;
	c->cnt = -1;
	c->goal_ns = -1;
	c->fd = p ? bpf_program__fd(p) : -1;
	c->set = cur;
	return c;
}

static void add_row(struct cost_case *a, struct cost_case *b, const char *id, double goal_ns,
		    const char *goal)
{
	struct cost_row *r;

	if (cur != &sets[0])
		return;		/* a --before build's cases are the rows' twins */
	r = &rows[n_rows++];
	snprintf(r->id, sizeof(r->id), "%s", id ? id : a->id);
	r->a = a;
	r->b = b;
	r->goal_ns = goal_ns;
	r->goal = goal;
}

/*
 * IPv4 UDP to COST_INT_PORT carrying INT-MD with NPT=1 (INT §5.7.2): the
 * shim keeps the original port, the MD header has @bitmap, RHC
 * COST_INT_RHC, and one earlier hop's metadata in the stack; a valid UDP
 * checksum (a transit updates it).
 */
static void frame_int4(struct pkt *p, __u16 bitmap)
{
	static const __u8 saddr[4] = { 10, 0, 1, 1 }, daddr[4] = { 10, 0, 9, 2 };
	__u32 hop_ml = int_bitmap_words(bitmap), i, sum, words = 3 + hop_ml;
	size_t ip, udp, ulen = 8 + INT_SHIM_LEN + words * 4 + COST_PAYLOAD;
	__u16 c;

	pkt_init(p);
	pkt_eth(p, 0x0800);
	ip = p->len;
	pkt_put_u8(p, 0x45);
	pkt_put_u8(p, 0);
	pkt_put_be16(p, HM_IPV4_HDR_LEN + ulen);
	pkt_put_be16(p, 0x1234);
	pkt_put_be16(p, HM_IPV4_F_DF);
	pkt_put_u8(p, COST_HLIM);
	pkt_put_u8(p, HM_NH_UDP);
	pkt_put_be16(p, 0);
	pkt_put(p, saddr, 4);
	pkt_put(p, daddr, 4);
	c = pkt_csum16(p->b + ip, HM_IPV4_HDR_LEN);
	p->b[ip + HM_IPV4_OFF_CSUM] = c >> 8;
	p->b[ip + HM_IPV4_OFF_CSUM + 1] = c;
	udp = p->len;
	pkt_put_be16(p, 40000);
	pkt_put_be16(p, COST_INT_PORT);
	pkt_put_be16(p, ulen);
	pkt_put_be16(p, 0);
	pkt_put_u8(p, int_shim_type_npt(INT_TYPE_MD, INT_NPT_UDP));
	pkt_put_u8(p, words);
	pkt_put_be16(p, COST_INT_ORIG_PORT);
	pkt_put_be32(p, int_md_w0(0, hop_ml, COST_INT_RHC));
	pkt_put_be16(p, bitmap);
	pkt_put_be16(p, 0);
	pkt_put_be32(p, 0);
	for (i = 0; i < hop_ml; i++)
		pkt_put_be32(p, 0x01000000 + i);	/* the earlier hop's words */
	for (i = 0; i < COST_PAYLOAD; i++)
		pkt_put_u8(p, 0x80 + i);
	/* UDP checksum over the pseudo-header and the datagram (RFC 768). */
	sum = (__u16)~pkt_csum16(p->b + udp, ulen);
	sum += (saddr[0] << 8 | saddr[1]) + (saddr[2] << 8 | saddr[3]);
	sum += (daddr[0] << 8 | daddr[1]) + (daddr[2] << 8 | daddr[3]);
	sum += HM_NH_UDP + ulen;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = ~sum & 0xffff;
	if (!c)
		c = 0xffff;
	p->b[udp + 6] = c >> 8;
	p->b[udp + 7] = c;
}

/* IPv6 + UDP to @dst (NULL: hm_addr_dst), no extension header. */
static void frame_v6_plain(struct pkt *p, const __u8 *dst)
{
	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, HM_NH_UDP, COST_HLIM, dst);
	pkt_udp(p, 40000, 5001, COST_PAYLOAD);
	pkt_finish(p);
}

/* IPv4 + UDP, Don't Fragment, TTL @ttl, Identification @id (RFC 791). */
static void frame_v4(struct pkt *p, __u8 ttl, __u16 id)
{
	static const __u8 saddr[4] = { 10, 0, 1, 1 }, daddr[4] = { 10, 0, 9, 2 };
	size_t ip, i;
	__u16 c;

	pkt_init(p);
	pkt_eth(p, 0x0800);
	ip = p->len;
	pkt_put_u8(p, 0x45);
	pkt_put_u8(p, 0);
	pkt_put_be16(p, HM_IPV4_HDR_LEN + 8 + COST_PAYLOAD);
	pkt_put_be16(p, id);
	pkt_put_be16(p, HM_IPV4_F_DF);
	pkt_put_u8(p, ttl);
	pkt_put_u8(p, HM_NH_UDP);
	pkt_put_be16(p, 0);
	pkt_put(p, saddr, 4);
	pkt_put(p, daddr, 4);
	c = pkt_csum16(p->b + ip, HM_IPV4_HDR_LEN);
	p->b[ip + HM_IPV4_OFF_CSUM] = c >> 8;
	p->b[ip + HM_IPV4_OFF_CSUM + 1] = c;
	pkt_put_be16(p, 40000);
	pkt_put_be16(p, 9);
	pkt_put_be16(p, 8 + COST_PAYLOAD);
	pkt_put_be16(p, 0);
	for (i = 0; i < COST_PAYLOAD; i++)
		pkt_put_u8(p, 0x80 + i);
}

/* IPv6 + the PINT Hop-by-Hop option (digest @digest after @count hops) + UDP. */
static void frame_v6_pint(struct pkt *p, __u8 hlim, __u16 digest, __u8 count)
{
	__u8 h[PINT_IP6_HBH_LEN] = { HM_NH_UDP, 0, PINT_IP6_OPT_TYPE, PINT_IP6_OPT_DATA_LEN,
				     digest >> 8, digest & 0xff, count, 0 };

	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, HM_NH_HBH, hlim, NULL);
	pkt_put(p, h, sizeof(h));
	pkt_udp(p, 40000, 5001, COST_PAYLOAD);
	pkt_finish(p);
}

/* Trace-Types of the IOAM rows and what the issue calls them. */
static const struct {
	__u32		type;
	const char	*what;
} tts[] = {
	{ 0x800000, "bit 0 (hop limit + node ID)" },
	{ 0xc00000, "bits 0-1 (+ interface IDs)" },
	{ 0xf80000, "bits 0-4 (+ timestamps, transit delay)" },
	{ 0xfff000, "bits 0-11 (full, 60 B per node)" },
};
#define N_TTS	(sizeof(tts) / sizeof(tts[0]))

/*
 * The output of hm_transit_in on @in with the Hop Limit lowered by one, as
 * the egress half sees it after forwarding.
 */
static void transit_out_frame(struct cost_case *in_case, struct pkt *out)
{
	__u32 ns, retval, len;
	int err;

	case_setup(in_case);
	pkt_init(out);
	err = test_run(in_case->fd, in_case, &in_case->frame, 1, &ns, &retval, out->b, &len);
	if (err)
		die("%s: BPF_PROG_TEST_RUN: %s", in_case->id, strerror(-err));
	out->len = len;
	if (len > HM_IP6_OFF + 7 && out->b[12] == 0x86 && out->b[13] == 0xdd)
		out->b[HM_IP6_OFF + 7]--;
}

/* The calibration rows of one map lookup or one clock read (bench/bpf_cost.bpf.c). */
static const struct {
	const char	*id, *prog, *what;
} calib[] = {
	{ "calib.hash_lookup", "bench_tc_hash_lookup",
	  "one hash map lookup, __u32 key present, value to skb->mark" },
	{ "calib.percpu_hash_lookup", "bench_tc_pcpu_lookup",
	  "one per-CPU hash lookup, __u32 key present, value to skb->mark" },
	{ "calib.array_lookup", "bench_tc_array_lookup",
	  "one array map lookup, value to skb->mark" },
	{ "calib.ktime_tai", "bench_tc_ktime_tai", "one bpf_ktime_get_tai_ns() to skb->mark" },
	{ "calib.ktime_mono", "bench_tc_ktime_mono", "one bpf_ktime_get_ns() to skb->mark" },
};

/* ---- PBT-M (bpf/hopmark_pbt.bpf.c) ---- */

/*
 * The PBT-M domain of a PBT-M case, as `hopmark postcard` leaves it with
 * its defaults (pbt_cfg_defaults()'s values, lib/pbt/pbt_settings.h:
 * IPv4 reserved flag bit, IPv6 Traffic Class bit 0x04, every packet
 * selected, no collector; that .c file's hm_fail() is not the selftests'),
 * and @c->pbt_roles on @c->ifindex, no role on the other devices. With
 * @c->pbt_watch the watchlist is one rule, UDP to 192.0.2.0/24, which the
 * frames (to 10.0.9.2) do not match.
 */
static void set_pbt(const struct cost_case *c)
{
	const int devs[] = { env.if_in, env.if_out };
	struct pbt_if_cfg ic = { .flags = c->pbt_roles };
	struct pbt_domain_cfg d;
	__u32 zero = 0, key;
	unsigned int i;

	memset(&d, 0, sizeof(d));
	d.flags = PBT_DOM_F_CONFIGURED;
	d.v4_mark = PBT_DEF_V4_MARK;
	d.v6_mark = PBT_DEF_V6_MARK;
	d.v4_tos_bit = PBT_DEF_TOS_BIT;
	d.v6_tc_bit = PBT_DEF_TOS_BIT;
	d.trig_hold_ns = PBT_DEF_HOLD_NS;
	d.exp_port = HM_IPFIX_PORT;
	d.exp_refresh_s = PBT_DEF_EXP_REFRESH_S;
	d.sel.sample = HM_SAMPLE_ALL;
	d.sel.sample_n = 1;
	if (c->pbt_watch) {
		d.sel.nr_rules = 1;
		d.sel.rules[0].family = 4;
		d.sel.rules[0].proto = HM_NH_UDP;
		d.sel.rules[0].dst_plen = 24;
		d.sel.rules[0].daddr[0] = 192;
		d.sel.rules[0].daddr[2] = 2;
	}
	if (bpf_map_update_elem(pbt_map(PBT_MAP_CFG), &zero, &d, BPF_ANY))
		hm_fail("%s: %s", PBT_MAP_CFG, strerror(errno));
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		struct pbt_if_cfg none = { 0 };

		key = devs[i];
		if (bpf_map_update_elem(pbt_map(PBT_MAP_IFCFG), &key,
					devs[i] == c->ifindex ? &ic : &none, BPF_ANY))
			hm_fail("%s: %s", PBT_MAP_IFCFG, strerror(errno));
	}
}

/*
 * @p with the domain's mark set: IPv4, the reserved flag bit (0x8000 of
 * Flags + Fragment Offset) with the header checksum computed afresh; IPv6,
 * Traffic Class bit 0x04 (0x40 of the header's second octet).
 */
static void frame_pbt_mark(struct pkt *p)
{
	__u16 c;

	if (p->b[12] == 0x08 && p->b[13] == 0x00) {
		p->b[HM_ETH_HLEN + HM_IPV4_OFF_FRAG] |= 0x80;
		p->b[HM_ETH_HLEN + HM_IPV4_OFF_CSUM] = 0;
		p->b[HM_ETH_HLEN + HM_IPV4_OFF_CSUM + 1] = 0;
		c = pkt_csum16(p->b + HM_ETH_HLEN, HM_IPV4_HDR_LEN);
		p->b[HM_ETH_HLEN + HM_IPV4_OFF_CSUM] = c >> 8;
		p->b[HM_ETH_HLEN + HM_IPV4_OFF_CSUM + 1] = c;
	} else {
		p->b[HM_ETH_HLEN + 1] |= 0x40;
	}
}

/*
 * The PBT-M rows (issue 9's datapath, measured as issue 11 asks): what
 * each role costs on an IPv4 and an IPv6 UDP frame. @prog, @hook and
 * @roles name the program, its hook and the roles of the device it runs
 * on; @marked: the frame arrives marked; @cnt the counter that must rise
 * per run (-1: none may move), @may others that may.
 */
static const struct {
	const char	*id, *prog, *what;
	enum cost_hook	hook;
	bool		ingress, v6, marked, ring, watch;
	__u32		roles;
	int		cnt;
	__u32		may;
	double		goal_ns;
} pbt_cases[] = {
	{ "pbt_head.ipv4", "hm_pbt_egress", "head: selected (sample all), mark set",
	  HOOK_TC, false, false, false, false, false, PBT_IF_F_HEAD, PBT_CNT_MARKED, 0, -1 },
	{ "pbt_head.ipv6", "hm_pbt_egress", "head: selected (sample all), mark set",
	  HOOK_TC, false, true, false, false, false, PBT_IF_F_HEAD, PBT_CNT_MARKED, 0, -1 },
	{ "pbt_head.not_watched", "hm_pbt_egress", "head: no watchlist rule matches, not marked",
	  HOOK_TC, false, false, false, false, true, PBT_IF_F_HEAD, PBT_CNT_NOT_WATCHED, 0, -1 },
	{ "pbt_ingress.ipv4", "hm_pbt_ingress", "marked: ingress postcard to the ring buffer",
	  HOOK_TC, true, false, true, true, false, PBT_IF_F_INGRESS, PBT_CNT_POSTCARD_INGRESS,
	  HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_ingress.ipv6", "hm_pbt_ingress", "marked: ingress postcard to the ring buffer",
	  HOOK_TC, true, true, true, true, false, PBT_IF_F_INGRESS, PBT_CNT_POSTCARD_INGRESS,
	  HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_xdp.ipv4", "hm_pbt_xdp", "marked: ingress postcard to the ring buffer",
	  HOOK_XDP, true, false, true, true, false, PBT_IF_F_INGRESS, PBT_CNT_POSTCARD_INGRESS,
	  HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_egress.ipv4", "hm_pbt_egress", "head + egress: mark set, egress postcard",
	  HOOK_TC, false, false, false, true, false, PBT_IF_F_HEAD | PBT_IF_F_EGRESS,
	  PBT_CNT_POSTCARD_EGRESS, HM_BIT(PBT_CNT_MARKED) | HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_egress.ipv6", "hm_pbt_egress", "head + egress: mark set, egress postcard",
	  HOOK_TC, false, true, false, true, false, PBT_IF_F_HEAD | PBT_IF_F_EGRESS,
	  PBT_CNT_POSTCARD_EGRESS, HM_BIT(PBT_CNT_MARKED) | HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_egress.transit_ipv4", "hm_pbt_egress", "marked: egress postcard",
	  HOOK_TC, false, false, true, true, false, PBT_IF_F_EGRESS, PBT_CNT_POSTCARD_EGRESS,
	  HM_BIT(PBT_CNT_EVENTS_LOST), -1 },
	{ "pbt_end.ipv4", "hm_pbt_egress", "marked, end: mark cleared",
	  HOOK_TC, false, false, true, false, false, PBT_IF_F_END, PBT_CNT_CLEARED, 0, -1 },
	{ "pbt_end.ipv6", "hm_pbt_egress", "marked, end: mark cleared",
	  HOOK_TC, false, true, true, false, false, PBT_IF_F_END, PBT_CNT_CLEARED, 0, -1 },
	{ "pbt_ingress.not_marked", "hm_pbt_ingress", "not marked, ingress + end roles: not ours",
	  HOOK_TC, true, false, false, false, false, PBT_IF_F_INGRESS | PBT_IF_F_END, -1, 0, 5 },
	{ "pbt_xdp.not_marked", "hm_pbt_xdp", "not marked, ingress + end roles: not ours",
	  HOOK_XDP, true, false, false, false, false, PBT_IF_F_INGRESS | PBT_IF_F_END, -1, 0, 5 },
	{ "pbt_egress.not_marked", "hm_pbt_egress", "not marked, egress + end roles: not ours",
	  HOOK_TC, false, false, false, false, false, PBT_IF_F_EGRESS | PBT_IF_F_END, -1, 0, 5 },
	{ "pbt_egress.no_role", "hm_pbt_egress", "a device without PBT-M roles: not ours",
	  HOOK_TC, false, false, false, false, false, 0, -1, 0, 5 },
};
#define N_PBT_CASES	(sizeof(pbt_cases) / sizeof(pbt_cases[0]))

static void build_pbt_cases(void)
{
	struct cost_case *c, *in4 = NULL, *eg4 = NULL;
	unsigned int i;

	for (i = 0; i < N_PBT_CASES; i++) {
		int dev = pbt_cases[i].ingress ? env.if_in : env.if_out;

		/* tc egress: the packet arrived on env.if_in (the postcard's in_ifindex). */
		c = add_case(pbt_cases[i].id, pbt_cases[i].prog, OBJ_PBT, pbt_cases[i].hook, dev,
			     pbt_cases[i].hook == HOOK_XDP ? 0 : env.if_in);
		if (pbt_cases[i].v6)
			frame_v6_plain(&c->frame, NULL);
		else
			frame_v4(&c->frame, COST_HLIM, 0x1234);
		if (pbt_cases[i].marked)
			frame_pbt_mark(&c->frame);
		snprintf(c->packet, sizeof(c->packet), "%s UDP, %s", pbt_cases[i].v6 ? "IPv6" : "IPv4",
			 pbt_cases[i].what);
		c->pbt_roles = pbt_cases[i].roles;
		c->pbt_watch = pbt_cases[i].watch;
		c->cnt = pbt_cases[i].cnt;
		c->may = pbt_cases[i].may;
		c->ring = pbt_cases[i].ring;
		add_row(c, NULL, NULL, pbt_cases[i].goal_ns,
			pbt_cases[i].goal_ns >= 0 ? "a packet that is not ours" : NULL);
		if (!strcmp(c->id, "pbt_ingress.not_marked"))
			in4 = c;
		if (!strcmp(c->id, "pbt_egress.ipv4"))
			eg4 = c;
	}
	/*
	 * The router of bench/fwd_bench.sh's pbt mode: its arriving packets
	 * are not marked (ingress + end roles look), it marks and sends an
	 * egress postcard of each.
	 */
	add_row(in4, eg4, "pbt_router.ipv4", -1, NULL);
}

/* Issue 11's goals for transit, both halves (transit.* and transit_tc.*). */
static const double transit_goal[N_TTS] = { -1, 25, 60, 100 };
static const char *const transit_why[N_TTS] = {
	NULL, "transit, both halves, Trace-Type bits 0-1",
	"transit, both halves, with timestamps and transit delay",
	"transit, both halves, full 0xfff000 trace",
};

static void build_cases(void)
{
	struct cost_case *in[N_TTS], *out[N_TTS], *tcin[N_TTS], *c, *a, *a4, *b, *b4;
	struct trace_spec ts;
	char id[48];
	unsigned int i;

	/* IOAM transit: 4 slots of which 1 filled by the previous node. */
	for (i = 0; i < N_TTS; i++) {
		snprintf(id, sizeof(id), "transit_in.tt%06x", tts[i].type);
		c = in[i] = add_case(id, "hm_transit_in", OBJ_TRANSIT, HOOK_XDP, env.if_in, 0);
		trace_init(&ts, HM_T_NS, tts[i].type, 4, 1);
		pkt_std_trace(&c->frame, &ts, COST_HLIM);
		snprintf(c->packet, sizeof(c->packet), "IPv6 UDP, Trace-Type 0x%06x %s, "
			 "4 slots, 1 filled", tts[i].type, tts[i].what);
		c->cnt = HM_CNT_TRANSIT_OK;
	}
	a = add_case("transit_in.no_ioam", "hm_transit_in", OBJ_TRANSIT, HOOK_XDP, env.if_in, 0);
	frame_v6_plain(&a->frame, NULL);
	snprintf(a->packet, sizeof(a->packet), "IPv6 UDP without Hop-by-Hop header");
	a4 = add_case("transit_in.ipv4", "hm_transit_in", OBJ_TRANSIT, HOOK_XDP, env.if_in, 0);
	frame_v4(&a4->frame, COST_HLIM, 0x1234);
	snprintf(a4->packet, sizeof(c->packet), "IPv4 UDP (IOAM is IPv6 only: not ours)");

	for (i = 0; i < N_TTS; i++) {
		snprintf(id, sizeof(id), "transit_out.tt%06x", tts[i].type);
		c = out[i] = add_case(id, "hm_transit_out", OBJ_TRANSIT, HOOK_TC, env.if_out, 0);
		transit_out_frame(in[i], &c->frame);
		snprintf(c->packet, sizeof(c->packet), "the transit_in output, Hop Limit - 1%s",
			 tts[i].type == 0x800000 ? " (no egress field to complete)" : "");
		/* Bit 0 alone has no egress field: the slot is found, nothing counted. */
		c->cnt = tts[i].type == 0x800000 ? -1 : HM_CNT_TRANSIT_EGRESS_OK;
	}
	b = add_case("transit_out.no_ioam", "hm_transit_out", OBJ_TRANSIT, HOOK_TC, env.if_out, 0);
	frame_v6_plain(&b->frame, NULL);
	snprintf(b->packet, sizeof(b->packet), "IPv6 UDP without Hop-by-Hop header");
	b4 = add_case("transit_out.ipv4", "hm_transit_out", OBJ_TRANSIT, HOOK_TC, env.if_out, 0);
	frame_v4(&b4->frame, COST_HLIM, 0x1234);
	snprintf(b4->packet, sizeof(b4->packet), "IPv4 UDP (not ours)");

	/* Rows: each half, then both summed per round, with the goals. */
	for (i = 0; i < N_TTS; i++)
		add_row(in[i], NULL, NULL, -1, NULL);
	add_row(a, NULL, NULL, 5, "a packet that is not ours");
	add_row(a4, NULL, NULL, 5, "a packet that is not ours");
	for (i = 0; i < N_TTS; i++)
		add_row(out[i], NULL, NULL, -1, NULL);
	add_row(b, NULL, NULL, 5, "a packet that is not ours");
	add_row(b4, NULL, NULL, 5, "a packet that is not ours");
	for (i = 0; i < N_TTS; i++) {
		snprintf(id, sizeof(id), "transit.tt%06x", tts[i].type);
		add_row(in[i], out[i], id, transit_goal[i], transit_why[i]);
	}
	add_row(a, b, "transit.no_ioam", 5, "a packet that is not ours");

	/*
	 * The same ingress half at tc ingress (hm_transit_tcin, what `hopmark
	 * ioam transit enable` attaches on a veth) on the transit_in frames,
	 * then with the egress half summed as above.
	 */
	for (i = 0; i < N_TTS; i++) {
		snprintf(id, sizeof(id), "transit_tcin.tt%06x", tts[i].type);
		c = tcin[i] = add_case(id, "hm_transit_tcin", OBJ_TRANSIT, HOOK_TC, env.if_in,
				       env.if_in);
		c->frame = in[i]->frame;
		snprintf(c->packet, sizeof(c->packet), "%s", in[i]->packet);
		c->cnt = HM_CNT_TRANSIT_OK;
		add_row(c, NULL, NULL, -1, NULL);
	}
	c = add_case("transit_tcin.no_ioam", "hm_transit_tcin", OBJ_TRANSIT, HOOK_TC, env.if_in,
		     env.if_in);
	c->frame = a->frame;
	snprintf(c->packet, sizeof(c->packet), "%s", a->packet);
	add_row(c, NULL, NULL, 5, "a packet that is not ours");
	for (i = 0; i < N_TTS; i++) {
		snprintf(id, sizeof(id), "transit_tc.tt%06x", tts[i].type);
		add_row(tcin[i], out[i], id, transit_goal[i], transit_why[i]);
	}
	add_row(c, b, "transit_tc.no_ioam", 5, "a packet that is not ours");

	/* IOAM encap on env.if_enc (tc egress). */
	c = add_case("encap.ttc00000_32B", "hm_encap", OBJ_ENCAP, HOOK_TC, env.if_enc, 0);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP, rule 0xc00000 size 32 (small trace)");
	c->cnt = HM_CNT_ENCAP_OK;
	add_row(c, NULL, NULL, 60, "encap, small trace");
	c = add_case("encap.ttfff000_240B", "hm_encap", OBJ_ENCAP, HOOK_TC, env.if_enc, 0);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP, rule 0xfff000 size 240");
	c->cnt = HM_CNT_ENCAP_OK;
	add_row(c, NULL, NULL, -1, NULL);
	c = add_case("encap.no_rule", "hm_encap", OBJ_ENCAP, HOOK_TC, env.if_enc, 0);
	frame_v6_plain(&c->frame, dst_no_rule);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP to a destination without a rule");
	add_row(c, NULL, NULL, 5, "a packet that is not ours");
	/*
	 * The same program on an interface no rule sends packets out of
	 * (env.if_out: no HM_IF_F_ENCAP), the covered destination: what
	 * hm_encap costs the interfaces it is attached to without rules.
	 */
	c = add_case("encap.no_rule_dev", "hm_encap", OBJ_ENCAP, HOOK_TC, env.if_out, 0);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet),
		 "IPv6 UDP out of a device without encap rules (the rule is on another)");
	add_row(c, NULL, NULL, 5, "a packet that is not ours");

	/* IOAM decap on its own device (tc ingress), 4 filled slots, ring buffer. */
	for (i = 1; i < N_TTS; i += 2) {
		snprintf(id, sizeof(id), "decap.tt%06x", tts[i].type);
		c = add_case(id, "hm_decap", OBJ_DECAP, HOOK_TC, if_dec, if_dec);
		trace_init(&ts, HM_T_NS, tts[i].type, 4, 4);
		pkt_std_trace(&c->frame, &ts, COST_HLIM);
		snprintf(c->packet, sizeof(c->packet),
			 "IPv6 UDP, Trace-Type 0x%06x, 4 slots filled, record to the ring buffer",
			 tts[i].type);
		c->cnt = HM_CNT_DECAP_OK;
		c->may = HM_BIT(HM_CNT_EVENTS_LOST);
		c->ring = true;
		add_row(c, NULL, NULL, -1, NULL);
	}
	c = add_case("decap.no_ioam", "hm_decap", OBJ_DECAP, HOOK_TC, if_dec, if_dec);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP without Hop-by-Hop header");
	add_row(c, NULL, NULL, 5, "a packet that is not ours");

	/* PINT, its three roles, IPv4 and IPv6. */
	c = add_case("pint_source.ipv4", "hm_pint_source", OBJ_PINT, HOOK_TC, if_psrc, if_psrc);
	frame_v4(&c->frame, 57, 0xbeef);
	snprintf(c->packet, sizeof(c->packet), "IPv4 UDP DF, path query 8 bits");
	c->pint = PINT_PATH8;
	c->cnt = PINT_CNT_SRC_OK;
	c->may = HM_BIT(PINT_CNT_SRC_TTL_SET);
	add_row(c, NULL, NULL, -1, NULL);
	c = add_case("pint_source.ipv6", "hm_pint_source", OBJ_PINT, HOOK_TC, if_psrc, if_psrc);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP, path query 8 bits (inserts 8 B)");
	c->pint = PINT_PATH8;
	c->cnt = PINT_CNT_SRC_OK;
	add_row(c, NULL, NULL, -1, NULL);
	for (i = 0; i < 4; i++) {
		bool v6 = i & 1, all = i & 2;

		snprintf(id, sizeof(id), "pint_transit.%s_%s", v6 ? "ipv6" : "ipv4",
			 all ? "path_lat_util" : "path");
		c = add_case(id, "hm_pint_transit", OBJ_PINT, HOOK_TC, env.if_out, 0);
		if (v6)
			frame_v6_pint(&c->frame, COST_HLIM - COST_PINT_HOP, 0x1234,
				      COST_PINT_HOP - 1);
		else
			frame_v4(&c->frame, PINT_DEF_HOP_LIMIT_START - COST_PINT_HOP, 0x1234);
		snprintf(c->packet, sizeof(c->packet), "%s UDP, hop %d, %s",
			 v6 ? "IPv6" : "IPv4 DF", COST_PINT_HOP,
			 all ? "path + latency + util, 8 bits each, budget 16" :
			 "path query 8 bits");
		c->pint = all ? PINT_ALL3 : PINT_PATH8;
		c->cnt = PINT_CNT_TRANSIT_OK;
		c->may = HM_BIT(PINT_CNT_LAT_UNAVAIL);
		add_row(c, NULL, NULL, -1, NULL);
	}
	c = add_case("pint_transit.ipv6_no_option", "hm_pint_transit", OBJ_PINT, HOOK_TC,
		     env.if_out, 0);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP without the PINT option");
	c->pint = PINT_PATH8;
	c->cnt = PINT_CNT_NO_OPTION;
	add_row(c, NULL, NULL, 5, "a packet that is not ours");
	/*
	 * The sink asks for a forced wakeup for every record once
	 * PINT_EVENTS_WAKEUP_BYTES are pending: with a reader behind by
	 * ring_batch records most calls cross it, by COST_PINT_SMALL_BATCH
	 * none does, which shows the program without the wakeups.
	 */
	for (i = 0; i < 4; i++) {
		bool v6 = i & 1, small = i & 2;

		snprintf(id, sizeof(id), "pint_sink.%s%s", v6 ? "ipv6" : "ipv4",
			 small ? "_drain64" : "");
		c = add_case(id, "hm_pint_sink", OBJ_PINT, HOOK_TC, if_psnk, if_psnk);
		if (v6)
			frame_v6_pint(&c->frame, COST_HLIM - COST_PINT_HOP, 0x00a5, COST_PINT_HOP);
		else
			frame_v4(&c->frame, PINT_DEF_HOP_LIMIT_START - COST_PINT_HOP, 0x00a5);
		snprintf(c->packet, sizeof(c->packet), "%s after %d hops%s, record to the ring "
			 "buffer%s", v6 ? "IPv6 UDP" : "IPv4 UDP DF", COST_PINT_HOP,
			 v6 ? " (removes 8 B)" : "",
			 small ? ", drained every " HM_STR(COST_PINT_SMALL_BATCH) " records" : "");
		c->pint = PINT_PATH8;
		c->cnt = PINT_CNT_SINK_OK;
		c->may = HM_BIT(PINT_CNT_EVENTS_LOST);
		c->ring = true;
		c->batch = small ? COST_PINT_SMALL_BATCH : 0;
		add_row(c, NULL, NULL, -1, NULL);
	}

	/*
	 * INT (bpf/hopmark_int.bpf.c): the transit's egress program alone for
	 * bitmap 0x9000 (node ID + queue: no arrival stamp needed), and with
	 * the ingress stamp (hm_int_ingress, tc ingress) for 0xfc00, whose hop
	 * latency and ingress timestamp need it; issue 8's goals.
	 */
	if (cur->objs[OBJ_INT] || cur == &sets[0]) {
		struct cost_case *ii, *t9, *tf;

		ii = add_case("int_ingress.stamp", "hm_int_ingress", OBJ_INT, HOOK_TC, env.if_in,
			      env.if_in);
		frame_int4(&ii->frame, 0xfc00);
		ii->int_bitmap = 0xfc00;
		snprintf(ii->packet, sizeof(ii->packet), "IPv4 UDP INT-MD NPT=1: arrival stamp");
		add_row(ii, NULL, NULL, -1, NULL);
		t9 = add_case("int_transit.bm9000", "hm_int_transit", OBJ_INT, HOOK_TC, env.if_out,
			      env.if_in);
		frame_int4(&t9->frame, 0x9000);
		t9->int_bitmap = 0x9000;
		t9->cnt = INT_CNT_TRANSIT_OK;
		snprintf(t9->packet, sizeof(t9->packet),
			 "IPv4 UDP INT-MD NPT=1, bitmap 0x9000, 1 hop: pushes 8 B");
		add_row(t9, NULL, NULL, 25, "INT transit, bitmap 0x9000 (issue 8)");
		tf = add_case("int_transit.bmfc00", "hm_int_transit", OBJ_INT, HOOK_TC, env.if_out,
			      env.if_in);
		frame_int4(&tf->frame, 0xfc00);
		tf->int_bitmap = 0xfc00;
		tf->cnt = INT_CNT_TRANSIT_OK;
		snprintf(tf->packet, sizeof(tf->packet),
			 "IPv4 UDP INT-MD NPT=1, bitmap 0xfc00, 1 hop: pushes 32 B");
		add_row(tf, NULL, NULL, -1, NULL);
		add_row(ii, tf, "int_transit_both.bmfc00", 60,
			"INT transit with timestamps, ingress stamp + egress, 0xfc00 (issue 8)");
		c = add_case("int_transit.no_int", "hm_int_transit", OBJ_INT, HOOK_TC, env.if_out,
			     env.if_in);
		frame_v4(&c->frame, COST_HLIM, 0x1234);
		c->int_bitmap = 0x9000;
		snprintf(c->packet, sizeof(c->packet), "IPv4 UDP without INT");
		add_row(c, NULL, NULL, 5, "a packet that is not ours");
	}

	if (cur->objs[OBJ_PBT] || cur == &sets[0])
		build_pbt_cases();

	/* What the wrapper's undoing of a size change adds to such rows. */
	c = add_case("calib.tc_resize", "bench_tc_grow", OBJ_BENCH, HOOK_TC, env.if_enc, 0);
	frame_v6_plain(&c->frame, NULL);
	snprintf(c->packet, sizeof(c->packet), "IPv6 UDP; inserts %d B that the wrapper removes",
		 HM_COST_GROW_BYTES);
	add_row(c, NULL, NULL, -1, NULL);

	/*
	 * What one map lookup or one clock read costs at tc (each program does
	 * that and stores the result in skb->mark): the unit costs the
	 * reasons of Documentation/performance.rst are counted in.
	 */
	for (i = 0; i < sizeof(calib) / sizeof(calib[0]); i++) {
		c = add_case(calib[i].id, calib[i].prog, OBJ_BENCH, HOOK_TC, env.if_enc, 0);
		frame_v6_plain(&c->frame, NULL);
		snprintf(c->packet, sizeof(c->packet), "IPv6 UDP; %s", calib[i].what);
		add_row(c, NULL, NULL, -1, NULL);
	}
}

/* Case-specific map state that case_setup() does not write. */
static void case_rules(const struct cost_case *c)
{
	/* hm_encap uses the rule matching the destination: one at a time. */
	if (!strcmp(c->id, "encap.ttc00000_32B"))
		set_encap_rule(0xc00000, 32);
	else if (!strcmp(c->id, "encap.ttfff000_240B"))
		set_encap_rule(0xfff000, 240);
	else if (!strcmp(c->id, "encap.no_rule_dev"))
		set_encap_rule(0xc00000, 32);	/* covers the destination, on env.if_enc */
	else if (!strcmp(c->id, "encap.no_rule"))
		set_encap_rule(0xc00000, 32);	/* 2001:db8:b::/48, not dst_no_rule's */
}

/* ---- statistics ---- */

struct cost_stats {
	double	median, min, max, q1, q3;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile @q of sorted @v (@n values), linear between neighbours. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static void stats(const double *vals, int n, struct cost_stats *s)
{
	double v[COST_ROUNDS_MAX];

	memcpy(v, vals, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = quantile(v, n, 0.5);
	s->q1 = quantile(v, n, 0.25);
	s->q3 = quantile(v, n, 0.75);
}

/*
 * Per round: the row's cost (program - no-op, summed over its cases) and
 * its baseline, of the --obj-dir build or, with @before, of the --before one.
 */
static void row_rounds(const struct cost_row *r, bool before, int rounds, double *cost,
		       double *base)
{
	const struct cost_case *a = before ? r->a->twin : r->a;
	const struct cost_case *b = r->b && before ? r->b->twin : r->b;
	int k;

	for (k = 0; k < rounds; k++) {
		cost[k] = a->prog_ns[k] - a->base_ns[k];
		base[k] = a->base_ns[k];
		if (b) {
			cost[k] += b->prog_ns[k] - b->base_ns[k];
			base[k] += b->base_ns[k];
		}
	}
}

/*
 * The row's cost of this build over the --before build's: the median over
 * the rounds of each round's ratio (both measured side by side in it), so
 * that what slows a whole round down cancels. < 0 when no round has a
 * positive cost on both sides.
 */
static double row_ratio(const struct cost_row *r, int rounds)
{
	double a[COST_ROUNDS_MAX], b[COST_ROUNDS_MAX], base[COST_ROUNDS_MAX];
	double x[COST_ROUNDS_MAX];
	struct cost_stats xs;
	int k, n = 0;

	row_rounds(r, false, rounds, a, base);
	row_rounds(r, true, rounds, b, base);
	for (k = 0; k < rounds; k++)
		if (a[k] > 0 && b[k] > 0)
			x[n++] = a[k] / b[k];
	if (!n)
		return -1;
	stats(x, n, &xs);
	return xs.median;
}

/* ---- output ---- */

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

/* /proc/loadavg's three averages: how busy the host was around the run. */
static void read_loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double a = 0, b = 0, c = 0;

	if (!f || fscanf(f, "%lf %lf %lf", &a, &b, &c) != 3)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%.2f %.2f %.2f", a, b, c);
	if (f)
		fclose(f);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_stats(FILE *f, const char *name, const struct cost_stats *s)
{
	fprintf(f, "\"%s\": {\"median\": %.2f, \"min\": %.2f, \"max\": %.2f, "
		"\"q1\": %.2f, \"q3\": %.2f}", name, s->median, s->min, s->max, s->q1, s->q3);
}

static void json_array(FILE *f, const char *name, const double *v, int n)
{
	int k;

	fprintf(f, "\"%s\": [", name);
	for (k = 0; k < n; k++)
		fprintf(f, "%s%.0f", k ? ", " : "", v[k]);
	fputc(']', f);
}

/* --only: the row's name starts with one of the comma-separated texts. */
static bool row_selected(const struct cost_row *r)
{
	const char *p = only, *end;

	if (!only)
		return true;
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (end > p && !strncmp(r->id, p, end - p))
			return true;
	}
	return false;
}

static bool case_selected(const struct cost_case *c)
{
	int i;

	if (c->set != &sets[0])
		c = c->twin;
	for (i = 0; i < n_rows; i++)
		if (row_selected(&rows[i]) && (rows[i].a == c || rows[i].b == c))
			return true;
	return false;
}

/* Every selected case of the --before build must exist there. */
static void check_twins(void)
{
	int i;

	for (i = 0; i < n_cases; i++)
		if (cases[i].set != &sets[0] && cases[i].fd < 0 && case_selected(&cases[i]))
			die("the --before build's %s.bpf.o has no program %s (row %s): leave its "
			    "rows out with --only", obj_names[cases[i].obj], cases[i].prog,
			    cases[i].twin->id);
}

static const char *hook_name(const struct cost_case *c)
{
	if (c->hook == HOOK_XDP)
		return "xdp";
	/* An egress case may name an ingress device too (INT transit: the stamp's). */
	return c->iif && c->iif == c->ifindex ? "tc ingress" : "tc egress";
}

static void print_table(int rounds, __u32 repeat, const char *kernel, const char *cpu,
			const char *load_before)
{
	double cost[COST_ROUNDS_MAX], base[COST_ROUNDS_MAX];
	struct cost_stats cs, bs;
	char load[64];
	int i;

	printf("hopmark BPF program cost: ns per packet over the no-op of the same hook "
	       "(median of %d rounds x %u runs)\n", rounds, repeat);
	printf("ring buffer rows: the rings are drained every %u records\n", ring_batch);
	if (n_sets > 1)
		printf("before: %s; x: median over the rounds of this build's cost over the "
		       "before build's\n", sets[1].dir);
	printf("%-34s %8s %8s %8s %8s  ", "row", "median", "min", "max", "no-op");
	if (n_sets > 1)
		printf("%8s %6s  ", "before", "x");
	printf("goal\n");
	for (i = 0; i < n_rows; i++) {
		const struct cost_row *r = &rows[i];
		char goal[48] = "-";

		if (!row_selected(r))
			continue;
		row_rounds(r, false, rounds, cost, base);
		stats(cost, rounds, &cs);
		stats(base, rounds, &bs);
		if (r->goal_ns >= 0)
			snprintf(goal, sizeof(goal), "<= %.0f ns: %s", r->goal_ns,
				 cs.median <= r->goal_ns ? "met" : "not met");
		printf("%-34s %+8.1f %+8.1f %+8.1f %8.1f  ", r->id, cs.median, cs.min, cs.max,
		       bs.median);
		if (n_sets > 1) {
			struct cost_stats before;
			double x = row_ratio(r, rounds);

			row_rounds(r, true, rounds, cost, base);
			stats(cost, rounds, &before);
			printf("%+8.1f ", before.median);
			if (x >= 0)
				printf("%5.2fx  ", x);
			else
				printf("%6s  ", "-");
		}
		printf("%s", goal);
		/* A full ring measures the cheaper "lost" path: say how often. */
		if (r->a->lost)
			printf("  ring full: %.1f %% of records lost",
			       100.0 * r->a->lost / r->a->runs);
		putchar('\n');
	}
	printf("rows:\n");
	for (i = 0; i < n_rows; i++) {
		const struct cost_row *r = &rows[i];

		if (!row_selected(r))
			continue;
		if (r->b)
			printf("  %-32s %s + %s, summed per round\n", r->id, r->a->id, r->b->id);
		else
			printf("  %-32s %s (%s): %s, %zu B\n", r->id, r->a->prog, hook_name(r->a),
			       r->a->packet, r->a->frame.len);
	}
	/* Timing context: a line starting with "(" (Documentation/doc-tables.rst). */
	read_loadavg(load, sizeof(load));
	printf("(kernel %s; CPU %s; load average %s before, %s after)\n", kernel, cpu,
	       load_before, load);
}

/*
 * The program's size as loaded: instructions after the verifier's rewrite,
 * bytes of JIT code, and the instructions the verifier walked (its
 * complexity; kernels before 5.16 report 0).
 */
static void json_prog_info(FILE *f, int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(f, ", \"xlated_insns\": null, \"jited_bytes\": null, "
			"\"verified_insns\": null");
		return;
	}
	fprintf(f, ", \"xlated_insns\": %u, \"jited_bytes\": %u, \"verified_insns\": %u",
		info.xlated_prog_len / 8, info.jited_prog_len, info.verified_insns);
}

/*
 * A row's figures for one build: cost and no-op statistics, the rounds, and
 * its cases with their raw rounds; @cs receives the cost statistics.
 */
static void json_figures(FILE *f, const struct cost_row *r, bool before, int rounds,
			 struct cost_stats *cs)
{
	const struct cost_case *p[2] = { r->a, r->b };
	double cost[COST_ROUNDS_MAX], base[COST_ROUNDS_MAX];
	struct cost_stats bs;
	int k;

	row_rounds(r, before, rounds, cost, base);
	stats(cost, rounds, cs);
	stats(base, rounds, &bs);
	fprintf(f, "\"obj_dir\": ");
	json_str(f, before ? sets[1].dir : sets[0].dir);
	fprintf(f, ", ");
	json_stats(f, "cost_ns", cs);
	fprintf(f, ", ");
	json_stats(f, "noop_ns", &bs);
	fprintf(f, ",\n     ");
	json_array(f, "cost_ns_rounds", cost, rounds);
	fprintf(f, ",\n     \"cases\": [");
	for (k = 0; k < 2 && p[k]; k++) {
		const struct cost_case *c = before ? p[k]->twin : p[k];

		fprintf(f, "%s{\"id\": ", k ? ", " : "");
		json_str(f, c->id);
		fprintf(f, ", \"program\": ");
		json_str(f, c->prog);
		fprintf(f, ", \"object\": \"%s.bpf.o\", \"hook\": ", obj_names[c->obj]);
		json_str(f, hook_name(c));
		fprintf(f, ", \"packet\": ");
		json_str(f, c->packet);
		fprintf(f, ", \"frame_bytes\": %zu, \"runs\": %llu, \"events_lost\": %llu,"
			" \"counter\": ", c->frame.len, (unsigned long long)c->runs,
			(unsigned long long)c->lost);
		if (c->cnt >= 0)
			json_str(f, counter_name(c, c->cnt));
		else
			fprintf(f, "null");
		json_prog_info(f, c->fd);
		fprintf(f, ",\n       ");
		json_array(f, "prog_ns_rounds", c->prog_ns, rounds);
		fprintf(f, ", ");
		json_array(f, "noop_ns_rounds", c->base_ns, rounds);
		fputc('}', f);
	}
	fprintf(f, "]");
}

static void write_json(const char *path, int rounds, __u32 repeat, const char *kernel,
		       const char *cpu, const char *load_before)
{
	char now[64], load[64];
	FILE *f = fopen(path, "w");
	int i, first = 1;

	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	hm_time_rfc3339(hm_now_ns(CLOCK_REALTIME), now, sizeof(now));
	fprintf(f, "{\n  \"bench\": \"bpf-cost\",\n  \"unit\": \"ns per packet\",\n  \"date\": ");
	json_str(f, now);
	fprintf(f, ",\n  \"kernel\": ");
	json_str(f, kernel);
	fprintf(f, ",\n  \"cpu\": ");
	json_str(f, cpu);
	fprintf(f, ",\n  \"cpus_online\": %ld,\n  \"loadavg_before\": ",
		sysconf(_SC_NPROCESSORS_ONLN));
	json_str(f, load_before);
	fprintf(f, ",\n  \"loadavg_after\": ");
	read_loadavg(load, sizeof(load));
	json_str(f, load);
	fprintf(f, ",\n  \"obj_dir\": ");
	json_str(f, sets[0].dir);
	fprintf(f, ",\n  \"before_obj_dir\": ");
	if (n_sets > 1)
		json_str(f, sets[1].dir);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"repeat\": %u,\n  \"rounds\": %d,\n  \"ring_batch\": %u,\n  \"rows\": [",
		repeat, rounds, ring_batch);
	for (i = 0; i < n_rows; i++) {
		const struct cost_row *r = &rows[i];
		struct cost_stats cs, bcs;

		if (!row_selected(r))
			continue;
		fprintf(f, "%s\n    {\"id\": ", first ? "" : ",");
		first = 0;
		json_str(f, r->id);
		fprintf(f, ", ");
		json_figures(f, r, false, rounds, &cs);
		if (r->goal_ns >= 0) {
			fprintf(f, ",\n     \"goal_ns\": %.0f, \"goal\": ", r->goal_ns);
			json_str(f, r->goal);
			fprintf(f, ", \"met\": %s", cs.median <= r->goal_ns ? "true" : "false");
		} else {
			fprintf(f, ",\n     \"goal_ns\": null, \"goal\": null, \"met\": null");
		}
		if (n_sets > 1 && (!r->a->twin || !r->a->twin->runs)) {
			/* A row the --before build does not run (calib, new programs). */
			fprintf(f, ",\n     \"before\": null, \"x_before\": null");
		} else if (n_sets > 1) {
			fprintf(f, ",\n     \"before\": {");
			json_figures(f, r, true, rounds, &bcs);
			fprintf(f, "}");
			fprintf(f, ",\n     \"x_before\": ");
			if (row_ratio(r, rounds) >= 0)
				fprintf(f, "%.3f", row_ratio(r, rounds));
			else
				fprintf(f, "null");
		}
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
	if (fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpf-cost [--obj-dir DIR] [--before DIR] [-n REPEAT] [-r ROUNDS]\n"
		"                [-o FILE.json] [--only TEXT] [--cpu N] [--list]\n"
		"  --obj-dir DIR  the BPF objects to measure (default %s)\n"
		"  --before DIR   also those of another build, in the same rounds: each row\n"
		"                 gets its median and the ratio of the two (x)\n"
		"  -n REPEAT      runs per BPF_PROG_TEST_RUN (default %d)\n"
		"  -r ROUNDS      rounds, each case once per round (default %d, at most %d)\n"
		"  -o FILE        every figure as JSON, with the kernel and the CPU model\n"
		"  --only TEXT    only the rows whose name starts with TEXT (TEXT,TEXT...: any)\n"
		"  --cpu N        run on CPU N (default: the last one allowed)\n"
		"  --list         print the row names and exit (needs root, like the runs)\n"
		"Needs root. Exit 1 when a program cannot be loaded or run, or when the\n"
		"counters show that a run did not take the path of its row.\n",
		HM_COST_OBJ_DIR, COST_REPEAT_DEF, COST_ROUNDS_DEF, COST_ROUNDS_MAX);
}

/* Pin the process to @cpu, -1: the last CPU it may run on. */
static void pin_cpu(int cpu)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	for (i = CPU_SETSIZE - 1; i >= 0 && cpu < 0; i--)
		if (CPU_ISSET(i, &set))
			cpu = i;
	if (cpu < 0 || !CPU_ISSET(cpu, &set))
		die("CPU %d is not allowed", cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%d): %s", cpu, strerror(errno));
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "obj-dir", required_argument, NULL, 'O' },
		{ "before", required_argument, NULL, 'B' },
		{ "only", required_argument, NULL, 'x' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *obj_dir = HM_COST_OBJ_DIR, *before = NULL, *json = NULL;
	long repeat = COST_REPEAT_DEF, rounds = COST_ROUNDS_DEF;
	char kernel[256], cpu_model[256], load_before[64];
	struct utsname un;
	bool list = false;
	int opt, i, k, cpu = -1, order[COST_CASES_MAX];
	char *end;

	while ((opt = getopt_long(argc, argv, "n:r:o:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'O':
			obj_dir = optarg;
			break;
		case 'B':
			before = optarg;
			break;
		case 'n':
			repeat = strtol(optarg, &end, 10);
			if (*end || repeat < 1 || repeat > 100000000)
				die("-n: a repeat count of 1..100000000, not \"%s\"", optarg);
			break;
		case 'r':
			rounds = strtol(optarg, &end, 10);
			if (*end || rounds < 1 || rounds > COST_ROUNDS_MAX)
				die("-r: 1..%d rounds, not \"%s\"", COST_ROUNDS_MAX, optarg);
			break;
		case 'o':
			json = optarg;
			break;
		case 'x':
			only = optarg;
			break;
		case 'c':
			cpu = strtol(optarg, &end, 10);
			if (*end || cpu < 0 || cpu >= CPU_SETSIZE)
				die("--cpu: a CPU number, not \"%s\"", optarg);
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	uname(&un);
	snprintf(kernel, sizeof(kernel), "%s %s %s", un.sysname, un.release, un.machine);
	read_cpu_model(cpu_model, sizeof(cpu_model));
	read_loadavg(load_before, sizeof(load_before));

	sets[n_sets].dir = obj_dir;
	sets[n_sets++].name = "obj-dir";
	if (before) {
		sets[n_sets].dir = before;
		sets[n_sets++].name = "before";
	}
	setup();
	for (k = 0; k < n_sets; k++) {
		int first = n_cases;

		use_set(&sets[k]);
		build_cases();
		/* Every build has the same cases, in the same order. */
		for (i = 0; k && i < first; i++) {
			cases[i].twin = &cases[first + i];
			cases[first + i].twin = &cases[i];
		}
	}
	check_twins();
	if (list) {
		for (i = 0; i < n_rows; i++)
			if (row_selected(&rows[i]))
				printf("%s\n", rows[i].id);
		return 0;
	}
	pin_cpu(cpu);

	rings_open();

	/* Warm-up (caches, first-run allocations, hash entries), then the rounds. */
	for (i = 0; i < n_cases; i++) {
		if (!case_selected(&cases[i]))
			continue;
		measure(&cases[i], -1, repeat < 10000 ? repeat : 10000, true);
	}
	/* A case of each build next to its twin, so that both see the same moment. */
	for (i = 0; i < n_cases; i++)
		order[i] = n_sets > 1 ? (i & 1) * (n_cases / 2) + i / 2 : i;
	for (k = 0; k < rounds; k++) {
		for (i = 0; i < n_cases; i++) {
			struct cost_case *c = &cases[order[k & 1 ? n_cases - 1 - i : i]];

			if (!case_selected(c))
				continue;
			measure(c, k, repeat, k & 1);
		}
	}
	ring_buffer__free(rings);

	print_table(rounds, repeat, kernel, cpu_model, load_before);
	if (json)
		write_json(json, rounds, repeat, kernel, cpu_model, load_before);
	return 0;
}
