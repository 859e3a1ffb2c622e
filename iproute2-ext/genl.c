// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * genl.c - what the hopmark command adds to libhopmark's generic netlink
 * client (lib/common/genl.c) for the "hopmark" family of
 * kernel/hopmark.ko: connecting with a message the user can act on, and
 * printing a rejected request the way the kernel explained it (the
 * module's extended ack message and the attribute it points at), as
 * iproute2 does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"

/**
 * hm_genl_connect() - hm_genl_open() for a command, explaining a failure
 * @g:	zeroed by the caller
 *
 * Without the module the family is unknown to the kernel; say so in the
 * words the user needs ("the hopmark kernel module is not loaded: ...").
 * A module whose family version is older than this command's is refused
 * too: its attributes would be misread.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why.
 */
int hm_genl_connect(struct hm_genl *g)
{
	int err = hm_genl_open(g);

	if (err == -ENOENT)
		return hm_errf(0, "the hopmark kernel module is not loaded: generic netlink family \"%s\" is unknown to this kernel (load it: modprobe hopmark, or insmod hopmark.ko)",
			       HOPMARK_GENL_NAME);
	if (err)
		return hm_errf(err, "cannot query generic netlink family \"%s\"",
			       HOPMARK_GENL_NAME);
	if (g->version < HOPMARK_GENL_VERSION) {
		hm_genl_close(g);
		return hm_errf(0, "the hopmark kernel module speaks version %u of family \"%s\", this command needs %u: load a matching hopmark.ko",
			       g->version, HOPMARK_GENL_NAME, HOPMARK_GENL_VERSION);
	}
	return 0;
}

/**
 * hm_genl_errf() - print a failed request the way the kernel explained it
 * @g:		socket whose last request failed
 * @err:	its negative errno
 * @fmt:	what was being done ("cannot set DEX on dev eth0")
 *
 * Prints "Error: <what>: <kernel's extack message> (attribute <name>):
 * <strerror>." Without CAP_NET_ADMIN the kernel says nothing more than
 * EPERM, so the hint is added here.
 *
 * Return: %HM_EXIT_FAIL.
 */
int hm_genl_errf(struct hm_genl *g, int err, const char *fmt, ...)
{
	const char *aname = hm_genl_attr_name(g->ext_attr);
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (g->ext_msg[0])
		fprintf(stderr, ": %s", g->ext_msg);
	if (g->ext_attr)
		fprintf(stderr, " (%s attribute %s)", g->ext_missing ? "missing" : "bad",
			aname);
	fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	if (err == -EPERM)
		fputs(" (changes need CAP_NET_ADMIN)", stderr);
	fputs(".\n", stderr);
	return HM_EXIT_FAIL;
}
