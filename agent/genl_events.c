// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * genl_events.c - hopmarkd's side of the hopmark kernel module's generic
 * netlink family "hopmark" (lib/common/hopmark_genl.h), over libhopmark's
 * generic netlink client (lib/common/genl.h, libmnl).
 *
 * One non-blocking socket in the agent's epoll set listens to three
 * multicast groups:
 *   - hopmark "events": HOPMARK_CMD_EVENT messages, each a batch of
 *     HOPMARK_ATTR_RECORD nests; every record becomes one postcard
 *     (lib/postcard/postcard.h) handed to the agent's output path;
 *   - hopmark "config": every change made with `hopmark module ...` or
 *     `hopmark export ...`, with the object's new state, so a running agent
 *     follows the configuration without a restart;
 *   - nlctrl "notify": the family appearing (module loaded) or going away
 *     (module unloaded).
 * A second, blocking socket dumps the configuration (node IDs, IOAM-
 * Namespaces, export settings) when the family is found: at start, or when
 * the module is loaded later. Subscribing before dumping means no change
 * can fall between the two.
 *
 * Without the module the agent runs as before: its settings (the node ID)
 * come from the pinned maps, and this file only waits for the family.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "hopmark.h"
#include "hopmarkd.h"
#include "postcard/postcard.h"
#include "common/genl.h"
#include "common/hopmark_genl.h"

/* Receive buffer of the event socket: room for bursts between wakeups. */
#define HM_GENL_RCVBUF		(4 * 1024 * 1024)
/* Datagrams handled per wakeup before the main loop gets a turn. */
#define HM_GENL_MSGS_MAX	256

/**
 * struct hm_genl_events - the agent's generic netlink state
 * @ev:		event socket (events, config, nlctrl notify), non-blocking,
 *		%HM_GENL_RCVBUF of kernel receive buffer; its read buffer
 *		grows to the largest message, so a batch of up to
 *		HOPMARK_BATCH_MAX records is never cut
 * @req:	request socket for family resolution and configuration
 *		dumps, blocking
 * @epfd:	the agent's epoll instance, @ev is registered there
 * @family_id:	resolved id of "hopmark", 0 while the module is absent
 * @grp_events:	multicast group ids, resolved with the family
 * @grp_config:	see @grp_events
 * @cfg:	the module's configuration as last dumped/notified
 * @emit:	agent callback for each postcard
 * @emit_ctx:	its argument
 * @stats:	counters
 * @resync:	the configuration must be dumped again (overrun)
 */
struct hm_genl_events {
	struct hm_genl ev;
	struct hm_genl req;
	int epfd;
	int family_id;
	int grp_events;
	int grp_config;
	struct hm_genl_cfg cfg;
	int (*emit)(void *ctx, const struct hm_postcard *pc);
	void *emit_ctx;
	struct hm_genl_stats stats;
	bool resync;
};

_Static_assert(HM_POSTCARD_FIELD_NODE == HOPMARK_EXPORT_F_NODE &&
	       HM_POSTCARD_FIELD_TIMESTAMP == HOPMARK_EXPORT_F_TIMESTAMP &&
	       HM_POSTCARD_FIELD_FLOW == HOPMARK_EXPORT_F_FLOW &&
	       HM_POSTCARD_FIELD_HEADERS == HOPMARK_EXPORT_F_HEADERS &&
	       HM_POSTCARD_FIELD_NODE_DATA == HOPMARK_EXPORT_F_NODE_DATA &&
	       HM_POSTCARD_FIELD_OPTION == HOPMARK_EXPORT_F_OPTION &&
	       HM_POSTCARD_FIELD_ALL == HOPMARK_EXPORT_F_ALL,
	       "postcard field bits are the module's HOPMARK_EXPORT_F_* bits");

/* ---- configuration ---- */

/* "all", or the names of the bits of @fields joined by ',', or "none". */
static const char *fields_str(__u32 fields, char *buf, size_t len)
{
	const char *name;
	unsigned int bit;
	size_t off = 0;

	if ((fields & HOPMARK_EXPORT_F_ALL) == HOPMARK_EXPORT_F_ALL)
		return "all";
	buf[0] = '\0';
	for (bit = 0; (name = hm_postcard_field_name(bit)); bit++) {
		if (!(fields & (1U << bit)) || off >= len)
			continue;
		off += snprintf(buf + off, len - off, "%s%s", off ? "," : "", name);
	}
	return buf[0] ? buf : "none";
}

static bool ns_find(const struct hm_genl_cfg *c, __u16 ns, unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < c->n_ns; i++) {
		if (c->ns[i].id == ns) {
			*idx = i;
			return true;
		}
	}
	return false;
}

static void ns_update(struct hm_genl_events *ge, const struct nlattr **tb, bool dumping)
{
	struct hm_genl_cfg *c = &ge->cfg;
	bool fresh = false;
	unsigned int i;
	__u16 id;

	if (!tb[HOPMARK_ATTR_NS_ID])
		return;
	id = mnl_attr_get_u16(tb[HOPMARK_ATTR_NS_ID]);
	if (!ns_find(c, id, &i)) {
		fresh = true;
		if (c->n_ns >= HM_GENL_NS_MAX) {
			ge->stats.ns_overflow++;
			return;
		}
		i = c->n_ns++;
		memset(&c->ns[i], 0, sizeof(c->ns[i]));
		c->ns[i].id = id;
	}
	if (tb[HOPMARK_ATTR_RATE_LIMIT]) {
		__u32 rate = mnl_attr_get_u32(tb[HOPMARK_ATTR_RATE_LIMIT]);

		if (!dumping && fresh)
			hm_log("config: IOAM-Namespace %u added, rate limit %u events/s (module)",
			       id, rate);
		else if (!dumping && c->ns[i].rate != rate)
			hm_log("config: IOAM-Namespace %u rate limit %u events/s (module)", id, rate);
		c->ns[i].rate = rate;
	}
}

static void ns_remove(struct hm_genl_events *ge, const struct nlattr **tb)
{
	struct hm_genl_cfg *c = &ge->cfg;
	unsigned int i;
	__u16 id;

	if (!tb[HOPMARK_ATTR_NS_ID])
		return;
	id = mnl_attr_get_u16(tb[HOPMARK_ATTR_NS_ID]);
	if (!ns_find(c, id, &i))
		return;
	c->ns[i] = c->ns[--c->n_ns];
	hm_log("config: IOAM-Namespace %u deleted (module)", id);
}

static void node_update(struct hm_genl_events *ge, const struct nlattr **tb, bool dumping)
{
	struct hm_genl_cfg *c = &ge->cfg;
	bool had = c->has_node_id;
	__u32 old = c->node_id;

	c->has_node_id = !!tb[HOPMARK_ATTR_NODE_ID];
	c->node_id = c->has_node_id ? mnl_attr_get_u32(tb[HOPMARK_ATTR_NODE_ID]) : 0;
	c->has_node_id_wide = !!tb[HOPMARK_ATTR_NODE_ID_WIDE];
	c->node_id_wide = c->has_node_id_wide ? mnl_attr_get_u64(tb[HOPMARK_ATTR_NODE_ID_WIDE]) : 0;
	if (dumping || (had == c->has_node_id && old == c->node_id))
		return;
	if (c->has_node_id)
		hm_log("config: node_id %u (module)", c->node_id);
	else
		hm_log("config: node_id unset (module)");
}

static void export_update(struct hm_genl_events *ge, const struct nlattr **tb, bool dumping)
{
	struct hm_genl_cfg *c = &ge->cfg;
	char buf[80];

	if (tb[HOPMARK_ATTR_RATE_LIMIT])
		c->rate = mnl_attr_get_u32(tb[HOPMARK_ATTR_RATE_LIMIT]);
	if (tb[HOPMARK_ATTR_BATCH_SIZE])
		c->batch = mnl_attr_get_u32(tb[HOPMARK_ATTR_BATCH_SIZE]);
	if (tb[HOPMARK_ATTR_FLUSH_MS])
		c->flush_ms = mnl_attr_get_u32(tb[HOPMARK_ATTR_FLUSH_MS]);
	if (tb[HOPMARK_ATTR_EXPORT_FIELDS])
		c->fields = mnl_attr_get_u32(tb[HOPMARK_ATTR_EXPORT_FIELDS]) & HOPMARK_EXPORT_F_ALL;
	if (!dumping)
		hm_log("config: export rate %u events/s, batch %u, flush %u ms, fields %s (module)",
		       c->rate, c->batch, c->flush_ms, fields_str(c->fields, buf, sizeof(buf)));
}

/* ---- events ---- */

/* The uapi's types and bounds (common/hopmark_genl.h, enum hopmark_rec_attr). */
static const struct hm_genl_policy rec_policy[HOPMARK_REC_ATTR_MAX + 1] = {
	[HOPMARK_REC_ATTR_TYPE]		= { MNL_TYPE_U8 },
	[HOPMARK_REC_ATTR_TIMESTAMP]	= { MNL_TYPE_U64 },
	[HOPMARK_REC_ATTR_IFINDEX]	= { MNL_TYPE_U32 },
	[HOPMARK_REC_ATTR_NS_ID]	= { MNL_TYPE_U16 },
	[HOPMARK_REC_ATTR_FLOW_ID]	= { MNL_TYPE_U32 },
	[HOPMARK_REC_ATTR_SEQ]		= { MNL_TYPE_U32 },
	[HOPMARK_REC_ATTR_TRACE_TYPE]	= { MNL_TYPE_U32 },
	[HOPMARK_REC_ATTR_NODE_DATA]	= { MNL_TYPE_BINARY, HOPMARK_REC_NODE_DATA_MAX },
	[HOPMARK_REC_ATTR_OPTION]	= { MNL_TYPE_BINARY, HOPMARK_REC_OPTION_MAX },
	[HOPMARK_REC_ATTR_HEADERS]	= { MNL_TYPE_BINARY, HOPMARK_REC_HEADERS_MAX },
	[HOPMARK_REC_ATTR_PKT_LEN]	= { MNL_TYPE_U32 },
};

static const enum hm_postcard_type event_types[HOPMARK_EVENT_MAX + 1] = {
	[HOPMARK_EVENT_DEX]	= HM_POSTCARD_DEX,
	[HOPMARK_EVENT_OFLAG]	= HM_POSTCARD_OFLAG,
	[HOPMARK_EVENT_E2E]	= HM_POSTCARD_E2E,
	[HOPMARK_EVENT_TRACE]	= HM_POSTCARD_TRACE,
};

/**
 * hm_genl_record_to_postcard() - fill a postcard from one HOPMARK_ATTR_RECORD
 * @nest:	the record's nest
 * @cfg:	the agent's configuration (exporting node's IDs, fields exported)
 * @pc:		output; its pointers point into @nest
 *
 * Return: 0; -EINVAL for a record that does not follow the uapi (bad
 * attribute length, no or unknown type).
 */
static int hm_genl_record_to_postcard(const struct nlattr *nest, const struct hm_genl_cfg *cfg,
				      struct hm_postcard *pc)
{
	const struct nlattr *tb[HOPMARK_REC_ATTR_MAX + 1];
	__u8 type;

	hm_genl_parse_nested(nest, tb, HOPMARK_REC_ATTR_MAX);
	if (hm_genl_validate(tb, rec_policy, HOPMARK_REC_ATTR_MAX))
		return -EINVAL;
	if (!tb[HOPMARK_REC_ATTR_TYPE])
		return -EINVAL;
	type = mnl_attr_get_u8(tb[HOPMARK_REC_ATTR_TYPE]);
	if (type > HOPMARK_EVENT_MAX || !event_types[type])
		return -EINVAL;
	memset(pc, 0, sizeof(*pc));
	pc->type = event_types[type];
	pc->omit = HOPMARK_EXPORT_F_ALL & ~cfg->fields;
	pc->node_id = cfg->has_node_id ? cfg->node_id : HM_IOAM_U24_UNAVAILABLE;
	if (cfg->has_node_id_wide) {
		pc->node_id_wide = cfg->node_id_wide;
		pc->present |= HM_POSTCARD_F_NODE_ID_WIDE;
	}
	if (tb[HOPMARK_REC_ATTR_TIMESTAMP]) {
		pc->ts_ns = mnl_attr_get_u64(tb[HOPMARK_REC_ATTR_TIMESTAMP]);
		pc->present |= HM_POSTCARD_F_TS;
	}
	if (tb[HOPMARK_REC_ATTR_IFINDEX]) {
		pc->ifindex = mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_IFINDEX]);
		pc->present |= HM_POSTCARD_F_IFINDEX;
	}
	if (tb[HOPMARK_REC_ATTR_NS_ID]) {
		pc->ns_id = mnl_attr_get_u16(tb[HOPMARK_REC_ATTR_NS_ID]);
		pc->present |= HM_POSTCARD_F_NS;
	}
	if (tb[HOPMARK_REC_ATTR_FLOW_ID]) {
		pc->flow_id = mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_FLOW_ID]);
		pc->present |= HM_POSTCARD_F_FLOW_ID;
	}
	if (tb[HOPMARK_REC_ATTR_SEQ]) {
		pc->seq = mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_SEQ]);
		pc->present |= HM_POSTCARD_F_SEQ;
	}
	if (tb[HOPMARK_REC_ATTR_TRACE_TYPE]) {
		pc->trace_type = mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_TRACE_TYPE]);
		pc->present |= HM_POSTCARD_F_TRACE_TYPE;
	}
	if (tb[HOPMARK_REC_ATTR_PKT_LEN]) {
		pc->pkt_len = mnl_attr_get_u32(tb[HOPMARK_REC_ATTR_PKT_LEN]);
		pc->present |= HM_POSTCARD_F_PKT_LEN;
	}
	if (tb[HOPMARK_REC_ATTR_NODE_DATA]) {
		pc->node_data = mnl_attr_get_payload(tb[HOPMARK_REC_ATTR_NODE_DATA]);
		pc->node_data_len = mnl_attr_get_payload_len(tb[HOPMARK_REC_ATTR_NODE_DATA]);
	}
	if (tb[HOPMARK_REC_ATTR_OPTION]) {
		pc->option = mnl_attr_get_payload(tb[HOPMARK_REC_ATTR_OPTION]);
		pc->option_len = mnl_attr_get_payload_len(tb[HOPMARK_REC_ATTR_OPTION]);
	}
	if (tb[HOPMARK_REC_ATTR_HEADERS]) {
		pc->headers = mnl_attr_get_payload(tb[HOPMARK_REC_ATTR_HEADERS]);
		pc->headers_len = mnl_attr_get_payload_len(tb[HOPMARK_REC_ATTR_HEADERS]);
	}
	return 0;
}

static void on_event(struct hm_genl_events *ge, const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	ge->stats.messages++;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		struct hm_postcard pc;
		unsigned int i;

		if (mnl_attr_get_type(a) != HOPMARK_ATTR_RECORD)
			continue;
		if (hm_genl_record_to_postcard(a, &ge->cfg, &pc)) {
			ge->stats.bad_records++;
			continue;
		}
		/* A record of a namespace deleted meanwhile: no longer exported. */
		if ((pc.present & HM_POSTCARD_F_NS) && !ns_find(&ge->cfg, pc.ns_id, &i)) {
			ge->stats.filtered++;
			continue;
		}
		if (ge->emit(ge->emit_ctx, &pc))
			ge->stats.emit_errors++;
		else
			ge->stats.postcards++;
	}
}

/* ---- message dispatch ---- */

/* What the agent reads of a configuration message (enum hopmark_attr). */
static const struct hm_genl_policy top_policy[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_NODE_ID]		= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_NODE_ID_WIDE]	= { MNL_TYPE_U64 },
	[HOPMARK_ATTR_NS_ID]		= { MNL_TYPE_U16 },
	[HOPMARK_ATTR_NS_DATA]		= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_NS_DATA_WIDE]	= { MNL_TYPE_U64 },
	[HOPMARK_ATTR_IFINDEX]		= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_RATE_LIMIT]	= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_BATCH_SIZE]	= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_FLUSH_MS]		= { MNL_TYPE_U32 },
	[HOPMARK_ATTR_EXPORT_FIELDS]	= { MNL_TYPE_U32 },
};

struct dispatch_ctx {
	struct hm_genl_events *ge;
	bool dumping;
};

static int family_appeared(struct hm_genl_events *ge);
static void family_gone(struct hm_genl_events *ge);

/* nlctrl notification: is it about our family? */
static void on_ctrl(struct hm_genl_events *ge, const struct nlmsghdr *nlh)
{
	static const struct hm_genl_policy pol[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_NAME]	= { MNL_TYPE_NUL_STRING, GENL_NAMSIZ },
	};
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (hm_genl_parse(nlh, tb, CTRL_ATTR_MAX) != MNL_CB_OK)
		return;
	if (gh->cmd != CTRL_CMD_NEWFAMILY && gh->cmd != CTRL_CMD_DELFAMILY)
		return;
	if (hm_genl_validate(tb, pol, CTRL_ATTR_MAX) || !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(mnl_attr_get_str(tb[CTRL_ATTR_FAMILY_NAME]), HOPMARK_GENL_NAME))
		return;
	if (gh->cmd == CTRL_CMD_NEWFAMILY && !ge->family_id)
		family_appeared(ge);
	else if (gh->cmd == CTRL_CMD_DELFAMILY && ge->family_id)
		family_gone(ge);
}

/*
 * Every message of either socket: notifications of the event socket,
 * replies to the request socket's dumps. Nothing here fails the read: what
 * cannot be used is counted.
 */
static int dispatch_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dispatch_ctx *d = arg;
	struct hm_genl_events *ge = d->ge;
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];
	const struct genlmsghdr *gh;

	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		on_ctrl(ge, nlh);
		return MNL_CB_OK;
	}
	if (!ge->family_id || nlh->nlmsg_type != ge->family_id ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return MNL_CB_OK;
	gh = mnl_nlmsg_get_payload(nlh);
	if (gh->cmd == HOPMARK_CMD_EVENT) {
		on_event(ge, nlh);
		return MNL_CB_OK;
	}
	hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX);
	if (hm_genl_validate(tb, top_policy, HOPMARK_ATTR_MAX)) {
		ge->stats.bad_config++;
		return MNL_CB_OK;
	}
	switch (gh->cmd) {
	case HOPMARK_CMD_NODE_GET:
	case HOPMARK_CMD_NODE_SET:
		node_update(ge, tb, d->dumping);
		break;
	case HOPMARK_CMD_NS_GET:
	case HOPMARK_CMD_NS_ADD:
	case HOPMARK_CMD_NS_SET:
		ns_update(ge, tb, d->dumping);
		break;
	case HOPMARK_CMD_NS_DEL:
		ns_remove(ge, tb);
		break;
	case HOPMARK_CMD_EXPORT_GET:
	case HOPMARK_CMD_EXPORT_SET:
		export_update(ge, tb, d->dumping);
		break;
	default:
		break;	/* interfaces and counters do not change what we export */
	}
	if (!d->dumping)
		ge->stats.config_changes++;
	return MNL_CB_OK;
}

/*
 * One request on the blocking socket; replies go through dispatch_cb().
 * A doit (NLM_F_ACK) ends at its ack, a dump (NLM_F_DUMP) at NLMSG_DONE,
 * so the next request never reads this one's answer.
 */
static int request(struct hm_genl_events *ge, __u8 cmd, __u16 flags)
{
	struct dispatch_ctx d = { .ge = ge, .dumping = true };
	char buf[HM_GENL_BUF];
	struct nlmsghdr *nlh;

	ge->req.family_id = ge->family_id;
	nlh = hm_genl_msg(&ge->req, buf, cmd, flags);
	return hm_genl_talk(&ge->req, nlh, dispatch_cb, &d);
}

/* Dump the whole configuration into a fresh struct hm_genl_cfg. */
static int config_dump(struct hm_genl_events *ge)
{
	char buf[80];
	unsigned int i;
	int err;

	memset(&ge->cfg, 0, sizeof(ge->cfg));
	ge->cfg.fields = HOPMARK_EXPORT_F_ALL;	/* a module without the setting */
	err = request(ge, HOPMARK_CMD_NODE_GET, NLM_F_ACK);
	if (!err)
		err = request(ge, HOPMARK_CMD_EXPORT_GET, NLM_F_ACK);
	if (!err)
		err = request(ge, HOPMARK_CMD_NS_GET, NLM_F_DUMP);
	if (err) {
		hm_log("cannot dump the hopmark module's configuration: %s", strerror(-err));
		return err;
	}
	ge->cfg.module = true;
	ge->resync = false;
	ge->stats.dumps++;
	fprintf(stderr, HOPMARKD_NAME ": config: from the hopmark module: node_id ");
	if (ge->cfg.has_node_id)
		fprintf(stderr, "%u", ge->cfg.node_id);
	else
		fprintf(stderr, "unset");
	fprintf(stderr, ", export rate %u events/s batch %u flush %u ms, namespaces",
		ge->cfg.rate, ge->cfg.batch, ge->cfg.flush_ms);
	for (i = 0; i < ge->cfg.n_ns; i++)
		fprintf(stderr, " %u", ge->cfg.ns[i].id);
	fprintf(stderr, "%s, fields %s\n", ge->cfg.n_ns ? "" : " none",
		fields_str(ge->cfg.fields, buf, sizeof(buf)));
	return 0;
}

/*
 * The family may exist: resolve it, join its groups, dump. Return what
 * resolving it returned (-ENOENT: the module is not loaded); a family
 * whose groups cannot be joined is logged and left alone.
 */
static int family_appeared(struct hm_genl_events *ge)
{
	struct hm_genl_family fam;
	int id, ev, cfg, err;

	err = hm_genl_family_get(&ge->req, HOPMARK_GENL_NAME, &fam);
	if (err)
		return err;
	id = fam.id;
	ev = hm_genl_group_id(&fam, HOPMARK_GENL_MCGRP_EVENTS);
	cfg = hm_genl_group_id(&fam, HOPMARK_GENL_MCGRP_CONFIG);
	if (ev < 0 || cfg < 0) {
		hm_log("hopmark module: multicast groups \"%s\"/\"%s\" not found; module events ignored",
		       HOPMARK_GENL_MCGRP_EVENTS, HOPMARK_GENL_MCGRP_CONFIG);
		return 0;
	}
	if (hm_genl_join(&ge->ev, ev)) {
		hm_log("hopmark module: cannot join its multicast groups");
		return 0;
	}
	if (hm_genl_join(&ge->ev, cfg)) {
		hm_genl_leave(&ge->ev, ev);
		hm_log("hopmark module: cannot join its multicast groups");
		return 0;
	}
	ge->family_id = id;
	ge->grp_events = ev;
	ge->grp_config = cfg;
	hm_log("hopmark module found (family %s id %d): postcards from its \"%s\" group",
	       HOPMARK_GENL_NAME, id, HOPMARK_GENL_MCGRP_EVENTS);
	if (config_dump(ge))
		ge->resync = true;
	return 0;
}

/* The module went away: back to the pinned maps' settings. */
static void family_gone(struct hm_genl_events *ge)
{
	/*
	 * Unregistering the family took every socket out of its groups;
	 * leave them anyway, so no membership can outlive the family.
	 */
	hm_genl_leave(&ge->ev, ge->grp_events);
	hm_genl_leave(&ge->ev, ge->grp_config);
	ge->family_id = 0;
	memset(&ge->cfg, 0, sizeof(ge->cfg));
	hm_log("hopmark module unloaded: settings from the pinned maps again");
}

/**
 * hm_genl_events_new() - open the agent's generic netlink sockets
 * @epfd:	epoll instance; the event socket is added with data.ptr @src
 * @src:	epoll tag, its kind is set to %HM_EV_GENL
 * @emit:	called with every postcard (returns 0, or non-zero when it
 *		could not be written, counted)
 * @ctx:	argument of @emit
 *
 * Works without the module: it then waits for the family on nlctrl's
 * "notify" group.
 *
 * Return: the state, or NULL with errno set (no memory, no generic
 * netlink, no nlctrl "notify" group).
 */
struct hm_genl_events *hm_genl_events_new(int epfd, struct hm_ev_src *src,
					  int (*emit)(void *ctx, const struct hm_postcard *pc),
					  void *ctx)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = src };
	struct hm_genl_family ctrl;
	struct hm_genl_events *ge;
	int notify, err;

	ge = calloc(1, sizeof(*ge));
	if (!ge)
		return NULL;
	ge->epfd = epfd;
	ge->emit = emit;
	ge->emit_ctx = ctx;
	err = hm_genl_socket(&ge->ev);
	if (!err)
		err = hm_genl_socket(&ge->req);
	if (!err)
		err = hm_genl_listen(&ge->ev, HM_GENL_RCVBUF);
	if (err)
		goto fail;
	err = hm_genl_family_get(&ge->req, HM_GENL_CTRL_NAME, &ctrl);
	if (err)
		goto fail;
	notify = hm_genl_group_id(&ctrl, HM_GENL_CTRL_GRP_NOTIFY);
	err = notify < 0 ? notify : hm_genl_join(&ge->ev, notify);
	if (err)
		goto fail;
	src->kind = HM_EV_GENL;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, hm_genl_fd(&ge->ev), &ev)) {
		err = -errno;
		goto fail;
	}
	if (family_appeared(ge))
		hm_log("the hopmark kernel module is not loaded: settings from the pinned maps; waiting for the module");
	return ge;
fail:
	hm_genl_events_free(ge);
	errno = -err;
	return NULL;
}

/**
 * hm_genl_events_run() - handle what the event socket has
 * @ge:	state
 *
 * Reads at most %HM_GENL_MSGS_MAX datagrams (the socket is level-triggered
 * in epoll, so the rest comes at the next wakeup). A receive buffer
 * overrun (ENOBUFS) loses events, which are counted, and possibly
 * configuration changes: the configuration is dumped again.
 *
 * Return: 0, or negative errno on a socket failure that will not go away.
 */
int hm_genl_events_run(struct hm_genl_events *ge)
{
	struct dispatch_ctx d = { .ge = ge, .dumping = false };
	int i, n;

	for (i = 0; i < HM_GENL_MSGS_MAX; i++) {
		n = hm_genl_recv(&ge->ev, dispatch_cb, &d);
		if (n == -ENOBUFS) {
			/* The kernel dropped messages for us. */
			ge->stats.overruns++;
			ge->resync = true;
			continue;
		}
		if (n == 0)
			break;
		if (n < 0) {
			ge->stats.recv_errors++;
			break;
		}
	}
	if (ge->resync && ge->family_id)
		config_dump(ge);
	return 0;
}

/**
 * hm_genl_events_cfg() - the module's configuration, if the module is there
 * @ge:	state, may be NULL
 *
 * Return: the configuration, or NULL without the module (then the pinned
 * maps hold the settings).
 */
const struct hm_genl_cfg *hm_genl_events_cfg(const struct hm_genl_events *ge)
{
	return ge && ge->family_id && ge->cfg.module ? &ge->cfg : NULL;
}

/**
 * hm_genl_events_stats() - counters
 * @ge: state
 *
 * Return: counters owned by @ge.
 */
const struct hm_genl_stats *hm_genl_events_stats(const struct hm_genl_events *ge)
{
	return &ge->stats;
}

/**
 * hm_genl_events_free() - leave the groups, close the sockets
 * @ge: state, may be NULL
 */
void hm_genl_events_free(struct hm_genl_events *ge)
{
	if (!ge)
		return;
	hm_genl_close(&ge->ev);
	hm_genl_close(&ge->req);
	free(ge);
}
