/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hm_genl_names.h - the names the VM tier's netlink test clients
 * (module/hm_genl_client.c, datapath/hm_dp_genl.c) print for the "hopmark"
 * family's counters and event record types (lib/common/hopmark_genl.h).
 * The tests match these strings; `hopmark` prints its own, longer names.
 * Include after hopmark_genl.h.
 */
#ifndef __HM_GENL_NAMES_H
#define __HM_GENL_NAMES_H

/* enum hopmark_counter -> name, NULL for an unnamed one. */
static const char *const hm_counter_names[__HOPMARK_CNT_MAX] = {
	[HOPMARK_CNT_INCR_INSERTED]	= "incr_inserted",
	[HOPMARK_CNT_INCR_OVERFLOW]	= "incr_overflow",
	[HOPMARK_CNT_INCR_OVERFLOW_SEEN] = "incr_overflow_seen",
	[HOPMARK_CNT_INCR_ENCAP]	= "incr_encap",
	[HOPMARK_CNT_E2E_ENCAP]		= "e2e_encap",
	[HOPMARK_CNT_E2E_DECAP]		= "e2e_decap",
	[HOPMARK_CNT_DEX_ENCAP]		= "dex_encap",
	[HOPMARK_CNT_DEX_EXPORT]	= "dex_export",
	[HOPMARK_CNT_OFLAG_EXPORT]	= "oflag_export",
	[HOPMARK_CNT_UNKNOWN_NS]	= "unknown_ns",
	[HOPMARK_CNT_MALFORMED]		= "malformed",
	[HOPMARK_CNT_FRAGMENT]		= "fragment",
	[HOPMARK_CNT_MTU]		= "mtu",
	[HOPMARK_CNT_ERROR]		= "error",
	[HOPMARK_CNT_EV_QUEUED]		= "ev_queued",
	[HOPMARK_CNT_EV_SENT]		= "ev_sent",
	[HOPMARK_CNT_EV_MESSAGES]	= "ev_messages",
	[HOPMARK_CNT_EV_RATE_LIMITED]	= "ev_rate_limited",
	[HOPMARK_CNT_EV_NO_LISTENER]	= "ev_no_listener",
	[HOPMARK_CNT_EV_NOMEM]		= "ev_nomem",
	[HOPMARK_CNT_EV_SEND_ERR]	= "ev_send_err",
};

/* enum hopmark_event_type -> name. */
static const char *const hm_event_names[__HOPMARK_EVENT_MAX] = {
	[HOPMARK_EVENT_DEX]	= "dex",
	[HOPMARK_EVENT_OFLAG]	= "oflag",
	[HOPMARK_EVENT_E2E]	= "e2e",
	[HOPMARK_EVENT_TRACE]	= "trace",
};

#endif /* __HM_GENL_NAMES_H */
