// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * stats_names.c - display names of the datapath counters (enum
 * hopmark_counter in hopmark_maps.h), as `hopmark link show -s` and the
 * JSON output print them. The table is indexed by counter, so a counter
 * added to the enum without a name here fails to build (see the
 * static assertion below).
 */
#include "hopmark.h"

const char *const hopmark_counter_names[HM_CNT_MAX] = {
	[HM_CNT_ENCAP_OK]		= "encap_ok",
	[HM_CNT_ENCAP_SKIP_MTU]		= "encap_skip_mtu",
	[HM_CNT_ENCAP_SKIP_FREQ]	= "encap_skip_freq",
	[HM_CNT_ENCAP_ERR]		= "encap_err",
	[HM_CNT_ENCAP_HBH_MERGED]	= "encap_hbh_merged",
	[HM_CNT_TRANSIT_OK]		= "transit_ok",
	[HM_CNT_TRANSIT_EGRESS_OK]	= "transit_egress_ok",
	[HM_CNT_TRANSIT_OVERFLOW]	= "transit_overflow",
	[HM_CNT_TRANSIT_OVERFLOW_SEEN]	= "transit_overflow_seen",
	[HM_CNT_UNKNOWN_NS]		= "unknown_ns",
	[HM_CNT_MALFORMED]		= "malformed",
	[HM_CNT_FRAGMENT]		= "fragment",
	[HM_CNT_DECAP_OK]		= "decap_ok",
	[HM_CNT_DECAP_ERR]		= "decap_err",
	[HM_CNT_EVENTS_LOST]		= "events_lost",
	[HM_CNT_HBH_WALK_LIMIT]		= "hbh_walk_limit",
	[HM_CNT_ENCAP_SKIP_HBH_LIMIT]	= "encap_skip_hbh_limit",
};

/* One name per counter: a new enum value must get its name above. */
_Static_assert(HM_CNT_ENCAP_SKIP_HBH_LIMIT + 1 == HM_CNT_MAX,
	       "enum hopmark_counter changed: update hopmark_counter_names[]");
