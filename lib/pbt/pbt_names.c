// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_names.c - display names of the PBT-M datapath counters (enum
 * pbt_counter in pbt/pbt_maps.h), as `hopmark postcard show -s` and
 * `hopmark -s link show` print them, and of the per-flow template fields
 * (PBT_FLD_*), the sampling modes and the interface roles, as `hopmark
 * postcard` takes and prints them (pbt_settings.h). The table is indexed by counter, so
 * a counter added to the enum without a name here fails to build (the
 * static assertion below). Documentation/pbt.rst, "Datapath", says what
 * each one counts.
 */
#include "pbt/pbt_names.h"
#include "pbt/pbt_settings.h"

const char *const pbt_counter_names[PBT_CNT_MAX] = {
	[PBT_CNT_MARKED]		= "marked",
	[PBT_CNT_NOT_WATCHED]		= "not_watched",
	[PBT_CNT_NOT_SAMPLED]		= "not_sampled",
	[PBT_CNT_METERED]		= "metered",
	[PBT_CNT_TRIGGERED]		= "triggered",
	[PBT_CNT_ALREADY_MARKED]	= "already_marked",
	[PBT_CNT_UNSUPPORTED]		= "unsupported",
	[PBT_CNT_EXPORT]		= "export",
	[PBT_CNT_POSTCARD_INGRESS]	= "postcard_ingress",
	[PBT_CNT_POSTCARD_EGRESS]	= "postcard_egress",
	[PBT_CNT_EVENTS_LOST]		= "events_lost",
	[PBT_CNT_CLEARED]		= "cleared",
	[PBT_CNT_TEMPLATE]		= "template",
	[PBT_CNT_TEMPLATE_EXPIRED]	= "template_expired",
	[PBT_CNT_MALFORMED]		= "malformed",
	[PBT_CNT_ERR]			= "err",
	[PBT_CNT_NOT_CONFIGURED]	= "not_configured",
	[PBT_CNT_ALTMARK]		= "altmark",
	[PBT_CNT_GSO]			= "gso",
	[PBT_CNT_BAD_BIT]		= "bad_bit",
	[PBT_CNT_NOT_TRIGGERED]		= "not_triggered",
	[PBT_CNT_NO_NEXTHOP]		= "no_nexthop",
	[PBT_CNT_NO_SOJOURN]		= "no_sojourn",
	[PBT_CNT_NOT_UNICAST]		= "not_unicast",
};

/* One name per counter: a new enum value must get its name above. */
_Static_assert(PBT_CNT_NOT_UNICAST + 1 == PBT_CNT_MAX,
	       "enum pbt_counter changed: update pbt_counter_names[]");

/* By bit number of PBT_FLD_*: bit 0 is PBT_FLD_NEXTHOP. */
const char *const pbt_fld_names[PBT_FLD_BITS] = {
	"nexthop", "tos", "length", "srh", "header", "sojourn",
};

_Static_assert(PBT_FLD_ALL == (1U << PBT_FLD_BITS) - 1,
	       "PBT_FLD_* changed: update pbt_fld_names[]");

const char *const pbt_sample_names[PBT_SAMPLE_INTERVAL + 1] = {
	[HM_SAMPLE_ALL]		= "all",
	[HM_SAMPLE_PACKET]	= "packet",
	[HM_SAMPLE_FLOW]	= "flow",
	[PBT_SAMPLE_INTERVAL]	= "interval",
};

const struct pbt_role_name pbt_role_names[PBT_NR_ROLES] = {
	{ "head",	PBT_IF_F_HEAD },
	{ "ingress",	PBT_IF_F_INGRESS },
	{ "egress",	PBT_IF_F_EGRESS },
	{ "end",	PBT_IF_F_END },
};
