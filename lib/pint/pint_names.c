// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_names.c - display names of the PINT datapath counters (enum
 * pint_counter in pint/pint_maps.h), as `hopmark pint show -s` and its
 * JSON print them and hopmarkd's metrics name them. The table is indexed
 * by counter, so a counter added to the enum without a name here fails to
 * build (the static assertion below).
 */
#include "pint/pint_names.h"

const char *const pint_counter_names[PINT_CNT_MAX] = {
	[PINT_CNT_SRC_OK]		= "source_ok",
	[PINT_CNT_SRC_TTL_SET]		= "source_ttl_set",
	[PINT_CNT_TRANSIT_OK]		= "transit_ok",
	[PINT_CNT_SINK_OK]		= "sink_ok",
	[PINT_CNT_NO_DF]		= "no_df",
	[PINT_CNT_FRAGMENT]		= "fragment",
	[PINT_CNT_NO_OPTION]		= "no_option",
	[PINT_CNT_HBH_PRESENT]		= "hbh_present",
	[PINT_CNT_MTU]			= "mtu",
	[PINT_CNT_HOP_RANGE]		= "hop_range",
	[PINT_CNT_LAT_UNAVAIL]		= "latency_unavailable",
	[PINT_CNT_ERR]			= "error",
	[PINT_CNT_EVENTS_LOST]		= "events_lost",
	[PINT_CNT_NOT_CONFIGURED]	= "not_configured",
};

/* One name per counter: a new enum value must get its name above. */
_Static_assert(PINT_CNT_NOT_CONFIGURED + 1 == PINT_CNT_MAX,
	       "enum pint_counter changed: update pint_counter_names[]");
