// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_names.c - display names of the INT datapath counters (enum
 * int_counter in int/int_maps.h), as `hopmark int show -s` and its JSON
 * print them. The table is indexed by counter, so a counter added to the
 * enum without a name here fails to build (the static assertion below).
 * Documentation/int.rst, "Datapath", says what each one counts.
 */
#include "int/int_names.h"

const char *const int_counter_names[INT_CNT_MAX] = {
	[INT_CNT_SRC_OK]		= "src_ok",
	[INT_CNT_SRC_NOT_WATCHED]	= "src_not_watched",
	[INT_CNT_SRC_NOT_SAMPLED]	= "src_not_sampled",
	[INT_CNT_SRC_MTU_NO_INT]	= "src_mtu_no_int",
	[INT_CNT_SRC_MTU_M]		= "src_mtu_m",
	[INT_CNT_SRC_GSO]		= "src_gso",
	[INT_CNT_SRC_HAS_INT]		= "src_has_int",
	[INT_CNT_SRC_PROTO]		= "src_proto",
	[INT_CNT_TRANSIT_OK]		= "transit_ok",
	[INT_CNT_TRANSIT_E]		= "transit_e",
	[INT_CNT_TRANSIT_M]		= "transit_m",
	[INT_CNT_TRANSIT_FULL]		= "transit_full",
	[INT_CNT_MALFORMED]		= "malformed",
	[INT_CNT_SINK_OK]		= "sink_ok",
	[INT_CNT_SINK_DISCARD]		= "sink_discard",
	[INT_CNT_XD_REPORT]		= "xd_report",
	[INT_CNT_MX_REPORT]		= "mx_report",
	[INT_CNT_DROP_REPORT]		= "drop_report",
	[INT_CNT_QUEUE_REPORT]		= "queue_report",
	[INT_CNT_EVENTS_LOST]		= "events_lost",
	[INT_CNT_ERR]			= "err",
	[INT_CNT_NOT_CONFIGURED]	= "not_configured",
	[INT_CNT_SRC_REPORT]		= "src_report",
	[INT_CNT_CSUM_PARTIAL]		= "csum_partial",
	[INT_CNT_GSO]			= "gso",
};

/* One name per counter: a new enum value must get its name above. */
_Static_assert(INT_CNT_GSO + 1 == INT_CNT_MAX,
	       "enum int_counter changed: update int_counter_names[]");
