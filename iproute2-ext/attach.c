// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * attach.c - the hopmark command's side of loading and attaching BPF
 * programs: libhopmark's roles layer (common/bpf_attach.h) does the work,
 * this file routes libbpf's messages and prints what went wrong.
 *
 * libbpf's messages: while loading, warnings (the verifier log above all)
 * are kept and only their tail is printed if the load fails; everything
 * else, e.g. the extack of a tc query that finds no filter, is dropped.
 * HOPMARK_VERBOSE=1 in the environment prints all of it as it comes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "hopmark_cli.h"

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap);

/* Route libbpf's messages through libbpf_print() from the first call on. */
static void __attribute__((constructor)) attach_init(void)
{
	libbpf_set_print(libbpf_print);
}

#define HM_LOG_KEEP	4096
#define HM_LOG_TAIL	12	/* lines printed after a failed load */

static char load_log[HM_LOG_KEEP];
static size_t load_log_len;
static bool keep_log;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg, *line;
	size_t n;

	if (getenv("HOPMARK_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	if (!keep_log || level == LIBBPF_DEBUG)
		return 0;
	/* The verifier log comes as one message: keep only its end. */
	if (vasprintf(&msg, fmt, ap) < 0)
		return 0;
	n = strlen(msg);
	line = msg;
	if (n >= sizeof(load_log)) {
		line += n - (sizeof(load_log) - 1);
		n = sizeof(load_log) - 1;
	}
	if (load_log_len + n >= sizeof(load_log)) {
		size_t drop = load_log_len + n - sizeof(load_log) + 1;

		memmove(load_log, load_log + drop, load_log_len - drop);
		load_log_len -= drop;
	}
	memcpy(load_log + load_log_len, line, n);
	load_log_len += n;
	load_log[load_log_len] = '\0';
	free(msg);
	return 0;
}

static void print_log_tail(void)
{
	const char *p = load_log + load_log_len;
	int lines = 0;

	while (p > load_log && lines <= HM_LOG_TAIL)
		if (*--p == '\n')
			lines++;
	if (p > load_log)
		p++;
	if (*p)
		fprintf(stderr, "%s%s(last lines of the libbpf log; HOPMARK_VERBOSE=1 prints all)\n",
			p, load_log_len && load_log[load_log_len - 1] == '\n' ? "" : "\n");
}

/**
 * role_load() - load the BPF object of a role (hm_role_load())
 * @role:	the role
 * @p:		output; hm_role_unload() it
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why, the tail of libbpf's log
 * (the verifier's) first.
 */
int role_load(enum hm_role role, struct hm_role_prog *p)
{
	char msg[HM_ATTACH_MSG_MAX];
	int err;

	load_log_len = 0;
	load_log[0] = '\0';
	keep_log = true;
	err = hm_role_load(role, p, msg, sizeof(msg));
	keep_log = false;
	if (err) {
		print_log_tail();
		return hm_errf(0, "%s", msg);
	}
	return 0;
}

/**
 * role_attach_prog() - attach a loaded role's program (hm_role_attach())
 * @p:		from role_load()
 * @ifindex:	the device
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why (a device that is not
 * Ethernet among others).
 */
int role_attach_prog(const struct hm_role_prog *p, __u32 ifindex)
{
	char msg[HM_ATTACH_MSG_MAX];

	if (hm_role_attach(p, ifindex, msg, sizeof(msg)))
		return hm_errf(0, "%s", msg);
	return 0;
}

/**
 * role_attach() - load a role's program and attach it on a device
 * @role:	which program and hook
 * @ifindex:	the device
 *
 * Idempotent: attaching again replaces our program in place.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int role_attach(enum hm_role role, __u32 ifindex)
{
	struct hm_role_prog p;
	int err;

	err = role_load(role, &p);
	if (err)
		return err;
	err = role_attach_prog(&p, ifindex);
	hm_role_unload(&p);
	return err;
}

/**
 * role_detach() - remove a role's program from a device (hm_role_detach())
 * @role:	which program and hook
 * @ifindex:	the device
 *
 * Another XDP program where ours would run is left attached, with a
 * warning; that is not a failure.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int role_detach(enum hm_role role, __u32 ifindex)
{
	char msg[HM_ATTACH_MSG_MAX];
	int err;

	err = hm_role_detach(role, ifindex, msg, sizeof(msg));
	if (err == HM_DETACH_FOREIGN) {
		fprintf(stderr, "Warning: %s.\n", msg);
		return 0;
	}
	if (err)
		return hm_errf(0, "%s", msg);
	return 0;
}
