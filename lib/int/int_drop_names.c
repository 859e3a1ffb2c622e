// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_drop_names.c - display names of hopmark's Drop Reason codes
 * (int/int_drop.h), for the agent, the CLI and the decoders.
 */
#include "int/int_drop.h"

static const char *const int_drop_reason_names[INT_DROP_NR_CODES] = {
	[INT_DROP_UNSPEC]	= "unspecified",
	[INT_DROP_QDISC]	= "qdisc",
	[INT_DROP_NETFILTER]	= "netfilter",
	[INT_DROP_NO_ROUTE]	= "no-route",
	[INT_DROP_TTL]		= "ttl-expired",
	[INT_DROP_TC]		= "tc",
	[INT_DROP_XDP]		= "xdp",
	[INT_DROP_HDR]		= "bad-header",
	[INT_DROP_NEIGH]	= "neighbour",
	[INT_DROP_TOO_BIG]	= "too-big",
	[INT_DROP_POLICY]	= "policy",
	[INT_DROP_SOCKET]	= "socket",
	[INT_DROP_NOMEM]	= "no-memory",
	[INT_DROP_DEV]		= "device",
	[INT_DROP_TCP]		= "tcp",
};

const char *int_drop_reason_name(__u32 code)
{
	if (code < INT_DROP_NR_CODES && int_drop_reason_names[code])
		return int_drop_reason_names[code];
	return "other";
}
