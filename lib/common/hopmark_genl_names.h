/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark_genl_names.h - the names user space prints for the counters and
 * event record types of the "hopmark" generic netlink family
 * (common/hopmark_genl.h, the kernel module's uapi): one spelling for
 * `hopmark module counters`, its JSON keys and the VM tier's netlink test
 * clients (lib/common/hopmark_genl_names.c).
 */
#ifndef __HOPMARK_GENL_NAMES_H
#define __HOPMARK_GENL_NAMES_H

#include "common/hopmark_genl.h"

/*
 * enum hopmark_counter_attr -> name; NULL for HOPMARK_CNT_UNSPEC and
 * HOPMARK_CNT_PAD, every other counter has one (checked at build time).
 */
extern const char *const hopmark_genl_counter_names[__HOPMARK_CNT_MAX];

/* enum hopmark_event_type -> name ("dex", ...); NULL for UNSPEC. */
extern const char *const hopmark_genl_event_names[__HOPMARK_EVENT_MAX];

/**
 * hopmark_genl_counter_name() - the name of a counter attribute
 * @type: attribute type in HOPMARK_ATTR_COUNTERS (enum hopmark_counter_attr)
 *
 * Return: its name, or NULL for a type without one (PAD, or a counter of a
 * newer module than this program knows).
 */
const char *hopmark_genl_counter_name(unsigned int type);

/**
 * hopmark_genl_event_name() - the name of an event record type
 * @type: HOPMARK_REC_ATTR_TYPE (enum hopmark_event_type)
 *
 * Return: its name, or NULL for an unknown type.
 */
const char *hopmark_genl_event_name(unsigned int type);

#endif /* __HOPMARK_GENL_NAMES_H */
