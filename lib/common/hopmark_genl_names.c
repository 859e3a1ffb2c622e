// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_genl_names.c - the one table of names of the "hopmark" generic
 * netlink family's counters and event record types (API:
 * hopmark_genl_names.h), used by `hopmark module counters` and by the VM
 * tier's netlink test clients, which are built with this file alone.
 *
 * The list below names each counter once; the build fails when a counter
 * of enum hopmark_counter_attr has no name here (the count of names must
 * equal the number of counters) or when a name is given an index outside
 * the enum (array bound). A counter named twice is an -Woverride-init
 * warning (-Wextra).
 */
#include <stddef.h>

#include "common/hopmark_genl_names.h"

/* X(COUNTER, name): every counter after HOPMARK_CNT_PAD, in enum order. */
#define HM_GENL_COUNTERS(X)						\
	X(INCR_INSERTED,	"incr_inserted")			\
	X(INCR_OVERFLOW,	"incr_overflow")			\
	X(INCR_OVERFLOW_SEEN,	"incr_overflow_seen")			\
	X(INCR_ENCAP,		"incr_encap")				\
	X(E2E_ENCAP,		"e2e_encap")				\
	X(E2E_DECAP,		"e2e_decap")				\
	X(DEX_ENCAP,		"dex_encap")				\
	X(DEX_EXPORT,		"dex_export")				\
	X(OFLAG_EXPORT,		"oflag_export")				\
	X(UNKNOWN_NS,		"unknown_ns")				\
	X(MALFORMED,		"malformed")				\
	X(FRAGMENT,		"fragment")				\
	X(MTU,			"mtu")					\
	X(ERROR,		"error")				\
	X(EV_QUEUED,		"events_queued")			\
	X(EV_SENT,		"events_sent")				\
	X(EV_MESSAGES,		"event_messages")			\
	X(EV_RATE_LIMITED,	"events_rate_limited")			\
	X(EV_NO_LISTENER,	"events_no_listener")			\
	X(EV_NOMEM,		"events_nomem")				\
	X(EV_SEND_ERR,		"events_send_err")			\
	X(HBH_LIMIT,		"hbh_limit")

#define HM_GENL_COUNTER_NAME(cnt, name)	[HOPMARK_CNT_##cnt] = name,
#define HM_GENL_COUNTER_ONE(cnt, name)	+ 1

const char *const hopmark_genl_counter_names[__HOPMARK_CNT_MAX] = {
	HM_GENL_COUNTERS(HM_GENL_COUNTER_NAME)
};

/* As many names as counters after PAD: with distinct indexes, all named. */
_Static_assert(0 HM_GENL_COUNTERS(HM_GENL_COUNTER_ONE) ==
	       __HOPMARK_CNT_MAX - HOPMARK_CNT_INCR_INSERTED,
	       "enum hopmark_counter_attr changed: name the new counter in HM_GENL_COUNTERS");

const char *const hopmark_genl_event_names[__HOPMARK_EVENT_MAX] = {
	[HOPMARK_EVENT_DEX]	= "dex",
	[HOPMARK_EVENT_OFLAG]	= "oflag",
	[HOPMARK_EVENT_E2E]	= "e2e",
	[HOPMARK_EVENT_TRACE]	= "trace",
};

_Static_assert(HOPMARK_EVENT_TRACE + 1 == __HOPMARK_EVENT_MAX,
	       "enum hopmark_event_type changed: name the new type in hopmark_genl_event_names[]");

const char *hopmark_genl_counter_name(unsigned int type)
{
	return type < __HOPMARK_CNT_MAX ? hopmark_genl_counter_names[type] : NULL;
}

const char *hopmark_genl_event_name(unsigned int type)
{
	return type < __HOPMARK_EVENT_MAX ? hopmark_genl_event_names[type] : NULL;
}
