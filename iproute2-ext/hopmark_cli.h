/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark_cli.h - internals of the hopmark command: the object handlers,
 * argument helpers (utils.c), the text/JSON print layer (json_print.c),
 * pinned map access (maps.c) and the printing side of program attachment
 * (attach.c).
 *
 * Exit status of the command (documented in hopmark.8): 0 on success,
 * %HM_EXIT_FAIL when the operation failed (kernel, bpffs, missing entry),
 * %HM_EXIT_USAGE for a command line that does not parse.
 */
#ifndef __HOPMARK_CLI_H
#define __HOPMARK_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#include "hopmark.h"
#include "common/hopmark_run.h"
#include "common/bpf_attach.h"
#include "common/bpf_hooks.h"

#define HM_EXIT_OK	0
#define HM_EXIT_FAIL	1
#define HM_EXIT_USAGE	2

/* Global options. */
extern int json;		/* -j: JSON output */
extern int pretty;		/* -p: pretty JSON */
extern int show_stats;		/* -s: counters */

/*
 * Argument walking, as iproute2 does it: argc/argv are advanced in place,
 * NEXT_ARG() fails with a message naming the word that lacks a value.
 */
#define NEXT_ARG() do { argv++; if (--argc <= 0) incomplete_command(argv[-1]); } while (0)
#define NEXT_ARG_OK() (argc - 1 > 0)
#define PREV_ARG() do { argv--; argc++; } while (0)

/* Object handlers; each takes the words after its own name. */
int do_node(int argc, char **argv);
int do_link(int argc, char **argv);
int do_ioam(int argc, char **argv);
int do_ioam_namespace(int argc, char **argv);
int do_ioam_encap(int argc, char **argv);
int do_ioam_transit(int argc, char **argv);
int do_ioam_decap(int argc, char **argv);
int do_monitor(int argc, char **argv);
int do_decode(int argc, char **argv);
int do_budget(int argc, char **argv);

/* sel_cmd.c: the words of a watch rule (select/sel_text.h), usage errors exit */
struct hm_sel_rule;
struct hm_sel_words;
struct hm_sel_cfg;
int sel_words_or_exit(int argc, char **argv, __u32 opts, struct hm_sel_rule *r,
		      struct hm_sel_words *w);

/**
 * struct hm_sel_ops - how the shared selection commands (sel_cmd.c) reach
 *	one family's pinned domain configuration (int_cfg, pbt_cfg)
 * @name:		the family's command word ("int", "postcard"), in the
 *			"unknown argument" errors
 * @sel_words:		the hm_sel_words_parse() options of `watch add`
 * @usage:		prints the family's usage
 * @begin:		opens the config map and reads its entry into the
 *			caller's buffer (defaults when unconfigured); returns
 *			the map's fd, or negative with the error printed
 * @commit:		checks, writes and closes @fd; 0 or the exit code
 * @sel:		the struct hm_sel_cfg inside the caller's buffer
 * @set_interval:	when the family samples by time (`sample interval
 *			MS`), stores the interval in ms (0: not that mode);
 *			NULL when it does not
 * @interval_mode:	the hm_sel_cfg.sample value of `sample interval`
 * @interval_max_ms:	the largest interval accepted, ms
 */
struct hm_sel_ops {
	const char *name;
	__u32 sel_words;
	void (*usage)(FILE *f);
	int (*begin)(void *cfg);
	int (*commit)(int fd, void *cfg);
	struct hm_sel_cfg *(*sel)(void *cfg);
	void (*set_interval)(void *cfg, __u64 ms);
	__u32 interval_mode;
	__u64 interval_max_ms;
};

/**
 * hm_sel_cmd_watch() - `<family> watch { add RULE | del INDEX | flush | help }`
 * @ops:	the family's configuration access
 * @cfg:	a buffer for the family's domain configuration
 * @argc:	words after "watch"
 * @argv:	those words
 *
 * Return: the command's exit code; usage errors exit.
 */
int hm_sel_cmd_watch(const struct hm_sel_ops *ops, void *cfg, int argc, char **argv);

/**
 * hm_sel_cmd_sample() - `<family> sample { all | packet N | flow N [ seed S ]
 *	| interval MS }` (interval only when @ops->set_interval is set)
 * @ops:	the family's configuration access
 * @cfg:	a buffer for the family's domain configuration
 * @argc:	words after "sample"
 * @argv:	those words
 *
 * Return: the command's exit code; usage errors exit.
 */
int hm_sel_cmd_sample(const struct hm_sel_ops *ops, void *cfg, int argc, char **argv);

/**
 * hm_sel_print_watch() - the watchlist of `<family> show`: one line per rule
 *	(text), the array "watch" (JSON)
 * @sel:	the family's selection
 * @synthetic:	each rule's object has the key "synthetic" (INT, whose rules
 *		may match synthetic packets)
 */
void hm_sel_print_watch(const struct hm_sel_cfg *sel, bool synthetic);

/* The largest per-interface config value hm_ifcfg_drop_roles() takes, bytes. */
#define HM_IFCFG_MAX_SIZE	64

/**
 * hm_ifcfg_drop_roles() - the per-interface part of `<family> disable`:
 *	clear roles in the family's interface map, delete the entry when none
 *	is left (zero it in an array such as pbt_ifcfg: all zeros is an
 *	interface without a role, map_delete_ifindex())
 * @map:	the pinned map (int_ifcfg, pbt_ifcfg), keyed by ifindex, whose
 *		value starts with the __u32 role flags (host order)
 * @val_size:	its value size in bytes, at most %HM_IFCFG_MAX_SIZE
 * @ifindex:	the interface
 * @drop:	the role flags to clear (~0U: every role)
 * @left:	the flags left (0 when the map or the entry is missing)
 *
 * Done before the programs are detached, so that no program runs with a
 * role it lost. A missing map is not an error: nothing is enabled.
 *
 * Return: 0, or the error (printed) writing or deleting the entry.
 */
int hm_ifcfg_drop_roles(const char *map, size_t val_size, __u32 ifindex, __u32 drop,
			__u32 *left);

/* postcard.c: `hopmark postcard`, and the PBT-M part of `hopmark link show` */
int do_postcard(int argc, char **argv);
void pbt_print_roles(__u32 flags, bool xdp);
void pbt_print_link_counters(__u32 ifindex);
bool pbt_link_roles(__u32 ifindex, __u32 *flags, bool *xdp);
unsigned int pbt_link_ifindexes(__u32 *keys, unsigned int max);

/* budget.c: the MTU warnings of configuring commands (lib/budget/budget.h) */
int budget_dev_mtu(__u32 ifindex, __u32 *mtu);
int budget_warn_ioam_prealloc(const char *dev, __u32 ifindex, __u32 trace_type, __u32 size);
int budget_warn_int_md(const char *dev, __u32 mtu, __u16 bitmap, __u32 max_hops, __u32 npt,
		       __u32 carrier);

/* utils.c */
bool matches(const char *prefix, const char *word);

/**
 * struct hm_subcmd - one COMMAND of an OBJECT (hm_subcmd_run())
 * @name:	its keyword, which may be abbreviated
 * @func:	its handler, given the words after the keyword; returns an
 *		exit status (%HM_EXIT_*)
 */
struct hm_subcmd {
	const char *name;
	int (*func)(int argc, char **argv);
};

int hm_subcmd_run(const char *object, const struct hm_subcmd *cmds, void (*usage)(FILE *f),
		  int argc, char **argv);
void __attribute__((noreturn)) invarg(const char *msg, const char *arg);
void __attribute__((noreturn)) incomplete_command(const char *word);
void __attribute__((noreturn)) duparg(const char *key, const char *arg);
void __attribute__((noreturn)) unknown_arg(const char *obj, const char *arg);
void __attribute__((noreturn)) missing_arg(const char *what, const char *cmd);
int get_u64_max(__u64 *val, const char *arg, __u64 max);
int get_rate_bps(const char *arg, __u64 *bps);
__u32 get_u32_arg(const char *arg, __u32 max, const char *what);
__u64 get_u64_arg(const char *arg, __u64 max, const char *what);
__u32 get_ifindex_arg(const char *dev);
int parse_ipv6_prefix(const char *arg, struct hopmark_encap_key *key);
void format_ipv6_prefix(const struct hopmark_encap_key *key, char *buf, size_t len);
const char *ifname_or_index(__u32 ifindex, char *buf);
int hm_errf(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hm_errf_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hm_json_errors_begin(void);
int hm_exit_status(int status);

/* json_print.c: the one print layer; PRINT_ANY prints text or JSON. */
enum output_type {
	PRINT_FP = 1,	/* text output only */
	PRINT_JSON = 2,	/* JSON output only */
	PRINT_ANY = 3,	/* either, whichever -j selects */
};

void new_json_obj(void);
void new_json_obj_single(void);
void delete_json_obj(void);
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(enum output_type type, const char *key);
void close_json_array(enum output_type type, const char *delim);
void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type type, const char *key, const char *fmt,
		__u64 value);
void print_int(enum output_type type, const char *key, const char *fmt,
	       __s64 value);
void print_float(enum output_type type, const char *key, const char *fmt,
		 double value);
void print_hex(enum output_type type, const char *key, const char *fmt,
	       __u64 value);
void print_bool(enum output_type type, const char *key, const char *fmt,
		bool value);
void print_null(enum output_type type, const char *key, const char *fmt,
		const char *text);
bool print_percpu_counters(const __u64 *per, int ncpu, int n, const char *const *names);
void print_if_percpu_counters(int sfd, __u32 ifindex, __u64 *per, int ncpu, int n,
			      const char *const *names);
void print_nl(void);
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_summary_json(const struct hm_summary *sum, __u64 records, __u64 not_decoded,
			const __u64 *other_ioam);

/* maps.c */
int maps_prepare(void);
int map_open_existing(const char *name);
int map_open_or_create(const char *name, enum hm_role role);
int map_read_single(int fd, const char *name, void *val);
int map_write_single(int fd, const char *name, const void *val);
int map_read_existing(const char *name, void *val);
bool map_lookup_or_zero(int fd, const void *key, void *val, size_t size);
void map_restore_elem(int fd, const void *key, const void *old, bool had);
int map_delete_ifindex(int fd, const char *name, __u32 ifindex);
int hm_ifindex_bound_check(const char *dev, __u32 ifindex, const char *what,
			   const char *doc);
__u32 ifindex_check(const char *dev, __u32 ifindex);
int ifcfg_get(int fd, __u32 ifindex, struct hopmark_if_cfg *cfg);
int ifcfg_set_flags(__u32 ifindex, __u16 set, __u16 clear);
int node_get(struct hopmark_node_cfg *cfg);
int prog_uses_pinned_maps(__u32 prog_id);

/* attach.c: libhopmark's roles layer (common/bpf_attach.h), errors printed */
int role_load(enum hm_role role, struct hm_role_prog *p);
int role_attach_prog(const struct hm_role_prog *p, __u32 ifindex);
int role_attach(enum hm_role role, __u32 ifindex);
int role_detach(enum hm_role role, __u32 ifindex);

#endif /* __HOPMARK_CLI_H */
