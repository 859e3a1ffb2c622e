// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_in.c - hopmark-collector's IPFIX input (collector/ipfix_in.h).
 *
 * Every message is walked once before libfixbuf sees it (RFC 7011 §3:
 * Message Header, Set Headers, template records), for the checks the
 * header lists: libfixbuf would refuse most of these messages too, but
 * only with a log line, and it keeps no account of what it refused. The
 * walk also keeps, per session and Observation Domain, each template's
 * elements: a decoded record's template then says which of struct
 * hm_pc_obs's fields it carried (libfixbuf's transcoding zeroes the
 * absent ones, which cannot be told from a zero).
 *
 * libfixbuf decodes the records: one fbSession_t (the templates of one
 * Transport Session) and one fBuf_t per exporter, fed with fBufSetBuffer()
 * what the walk accepted (the message without the Sets it skips and
 * without withdrawals, which it applies itself), transcoding into the
 * shared model's internal template (lib/ipfix/ipfix_model.h, struct
 * hm_ipfix_rec), turned into a postcard by hm_ipfix_rec_to_obs().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include <fixbuf/public.h>

#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "ipfix/ipfix_ie.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"

#define IPFIX_VERSION		10
#define IPFIX_MSG_HDR_LEN	16
#define IPFIX_SET_HDR_LEN	4
#define IPFIX_SET_TEMPLATE	2
#define IPFIX_SET_OPTIONS	3
#define IPFIX_MIN_DATA_SET	256
#define IPFIX_VARLEN		65535
#define IPFIX_ENTERPRISE_BIT	0x8000

#define HMC_DOMAINS		8	/* Sequence Numbers kept per session */
#define HMC_SEQ_GAPS		16	/* open gaps per Observation Domain */
#define HMC_SEQ_WINDOW		64	/* messages a gap waits for late ones */


/* What a template carries: HM_PC_HAS_* and these. */
#define TPL_PKT_ID		(1U << 16)
#define TPL_NODE_ID		(1U << 17)
#define TPL_V4			(1U << 18)
#define TPL_V6			(1U << 19)
#define TPL_SOURCE		(1U << 20)
#define TPL_POINT		(1U << 21)
#define TPL_TIME		(1U << 22)
#define TPL_PORTS		(1U << 23)
#define TPL_PROTO		(1U << 24)
#define TPL_FLAGS		(1U << 25)

struct hmc_tpl {
	__u32	domain;
	__u16	tid;
	__u16	rec_len;	/* 0: variable length */
	__u32	hash;
	__u32	carries;	/* HM_PC_HAS_* | TPL_* */
	__u32	has_elems;	/* @elems is computed (once per definition) */
	__u64	elems;		/* hm_ipfix_tpl_elems() of libfixbuf's template */
};

/*
 * One gap in a domain's Sequence Numbers: records [@start, @start + @len)
 * not received yet; @opened is the domain's message count when it opened.
 */
struct hmc_seq_gap {
	__u32	start;
	__u32	len;
	__u64	opened;
};

/*
 * A domain's Sequence Numbers: @next is the number after the highest
 * record received (valid when @synced), @gap[] the ranges below it still
 * missing, oldest first, @msgs the messages counted in the domain.
 */
struct hmc_seq {
	__u32			domain;
	__u32			next;
	__u8			used;
	__u8			synced;
	__u8			nr_gaps;
	__u64			msgs;
	struct hmc_seq_gap	gap[HMC_SEQ_GAPS];
};

struct hmc_exporter {
	struct sockaddr_storage	peer;
	__u8			addr[16];
	__u16			port;
	__u8			tcp;
	__u8			used;
	__u64			last_s;
	fBuf_t			*fbuf;		/* owns the fbSession_t */
	fbSession_t		*session;
	__u32			nr_tpl;
	struct hmc_tpl		*tpl;
	struct hmc_seq		seq[HMC_DOMAINS];
	char			name[64];
};

struct hmc_ipfix {
	struct hmc_ipfix_cfg	cfg;
	hmc_obs_fn		fn;
	void			*arg;
	fbInfoModel_t		*model;
	struct hmc_exporter	*exp;		/* cfg.max_exporters of them */
	struct hmc_ipfix_stats	st;
	__u8			clean[65536];	/* the message as libfixbuf gets it */
};

static inline __u16 rd16(const __u8 *p)
{
	return (__u16)p[0] << 8 | p[1];
}

static inline __u32 rd32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

/* libfixbuf's own warnings (a set it skips) go through the rate limit. */
static void hmc_glib_log(const gchar *domain, GLogLevelFlags level, const gchar *msg, gpointer u)
{
	hmc_log(HMC_LOG_IPFIX, "libfixbuf: %s", msg);
}

struct hmc_ipfix *hmc_ipfix_new(const struct hmc_ipfix_cfg *cfg, hmc_obs_fn fn, void *arg)
{
	struct hmc_ipfix *x = calloc(1, sizeof(*x));

	if (!x) {
		errno = ENOMEM;
		return NULL;
	}
	x->cfg = *cfg;
	if (!x->cfg.pen)
		x->cfg.pen = HM_IPFIX_PEN_DEFAULT;
	if (!x->cfg.max_exporters)
		x->cfg.max_exporters = 64;
	if (!x->cfg.idle_s)
		x->cfg.idle_s = 600;
	if (!x->cfg.max_templates)
		x->cfg.max_templates = 256;
	x->fn = fn;
	x->arg = arg;
	g_log_set_handler(NULL, G_LOG_LEVEL_MASK, hmc_glib_log, NULL);
	x->model = hm_ipfix_model_new(x->cfg.pen);
	x->exp = calloc(x->cfg.max_exporters, sizeof(*x->exp));
	if (!x->model || !x->exp) {
		hmc_ipfix_free(x);
		errno = ENOMEM;
		return NULL;
	}
	return x;
}

const struct hmc_ipfix_stats *hmc_ipfix_stats(const struct hmc_ipfix *x)
{
	return &x->st;
}

/* A gap that can no longer be filled: its records are lost. */
static void hmc_seq_gap_lost(struct hmc_ipfix *x, struct hmc_seq *q, unsigned int i)
{
	x->st.seq_lost += q->gap[i].len;
	x->st.seq_pending -= q->gap[i].len;
	memmove(&q->gap[i], &q->gap[i + 1], (q->nr_gaps - i - 1) * sizeof(q->gap[0]));
	q->nr_gaps--;
}

static void hmc_exporter_drop(struct hmc_ipfix *x, struct hmc_exporter *e)
{
	unsigned int d;

	/* the session ends: nothing can fill its gaps any more */
	for (d = 0; d < HMC_DOMAINS; d++)
		while (e->seq[d].nr_gaps)
			hmc_seq_gap_lost(x, &e->seq[d], 0);
	if (e->fbuf)
		fBufFree(e->fbuf);	/* frees the session too */
	else if (e->session)
		fbSessionFree(e->session);
	free(e->tpl);
	memset(e, 0, sizeof(*e));
	x->st.exporters--;
}

void hmc_ipfix_free(struct hmc_ipfix *x)
{
	__u32 i;

	if (!x)
		return;
	for (i = 0; x->exp && i < x->cfg.max_exporters; i++)
		if (x->exp[i].used)
			hmc_exporter_drop(x, &x->exp[i]);
	free(x->exp);
	if (x->model)
		fbInfoModelFree(x->model);
	free(x);
}

static void hmc_peer_addr(const struct sockaddr_storage *peer, __u8 *addr, __u16 *port)
{
	memset(addr, 0, 16);
	*port = 0;
	if (peer->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)peer;

		addr[10] = addr[11] = 0xff;
		memcpy(addr + 12, &s4->sin_addr, 4);
		*port = ntohs(s4->sin_port);
	} else if (peer->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)peer;

		memcpy(addr, &s6->sin6_addr, 16);
		*port = ntohs(s6->sin6_port);
	}
}

static int hmc_allowed(const struct hmc_ipfix_cfg *cfg, const __u8 *addr)
{
	__u32 i;

	if (!cfg->nr_allow)
		return 1;
	for (i = 0; i < cfg->nr_allow; i++) {
		unsigned int plen = cfg->allow_plen[i], full = plen / 8, rest = plen % 8;

		if (memcmp(addr, cfg->allow[i], full))
			continue;
		if (rest && ((addr[full] ^ cfg->allow[i][full]) & (0xff00 >> rest)))
			continue;
		return 1;
	}
	return 0;
}

static int hmc_exporter_init(struct hmc_ipfix *x, struct hmc_exporter *e)
{
	GError *err = NULL;
	fbTemplate_t *t;

	e->tpl = calloc(x->cfg.max_templates, sizeof(*e->tpl));
	e->session = fbSessionAlloc(x->model);
	if (!e->tpl || !e->session)
		return -ENOMEM;
	t = hm_ipfix_tpl_new(x->model, HM_IPFIX_TID_INTERNAL, &err);
	if (!t || !fbSessionAddTemplate(e->session, TRUE, HM_IPFIX_TID_INTERNAL, t, &err)) {
		hmc_log(HMC_LOG_IPFIX, "internal template: %s", err ? err->message : "?");
		g_clear_error(&err);
		if (t)
			fbTemplateFreeUnused(t);
		return -EINVAL;
	}
	e->fbuf = fBufAllocForCollection(e->session, NULL);
	if (!e->fbuf || !fBufSetInternalTemplate(e->fbuf, HM_IPFIX_TID_INTERNAL, &err)) {
		g_clear_error(&err);
		return -ENOMEM;
	}
	fBufSetAutomaticMode(e->fbuf, FALSE);
	return 0;
}

struct hmc_exporter *hmc_ipfix_exporter(struct hmc_ipfix *x, const struct sockaddr_storage *peer,
					int tcp, __u64 now_s)
{
	struct hmc_exporter *e, *free_e = NULL, *idle = NULL;
	char a[INET6_ADDRSTRLEN];
	__u8 addr[16];
	__u16 port;
	int err;
	__u32 i;

	hmc_peer_addr(peer, addr, &port);
	if (!hmc_allowed(&x->cfg, addr)) {
		x->st.exporters_denied++;
		inet_ntop(AF_INET6, addr, a, sizeof(a));
		hmc_log(HMC_LOG_EXPORTER, "exporter [%s]:%u denied: outside the allowed prefixes",
			a, port);
		return NULL;
	}
	for (i = 0; i < x->cfg.max_exporters; i++) {
		e = &x->exp[i];
		if (!e->used) {
			if (!free_e)
				free_e = e;
			continue;
		}
		if (!tcp && !e->tcp && e->port == port && !memcmp(e->addr, addr, 16)) {
			e->last_s = now_s;
			return e;
		}
		/*
		 * A UDP session that has taught no template holds nothing
		 * worth keeping: junk from many ports must not lock real
		 * exporters out, so such a session is replaced at once.
		 */
		if (!e->tcp && (!e->nr_tpl || now_s - e->last_s >= x->cfg.idle_s) &&
		    (!idle || (idle->nr_tpl && (!e->nr_tpl || e->last_s < idle->last_s))))
			idle = e;
	}
	if (!free_e && idle) {
		hmc_log(HMC_LOG_EXPORTER, "exporter %s %s: its session is replaced", idle->name,
			idle->nr_tpl ? "idle" : "without a template");
		hmc_exporter_drop(x, idle);
		x->st.exporters_expired++;
		free_e = idle;
	}
	inet_ntop(AF_INET6, addr, a, sizeof(a));
	if (!free_e) {
		x->st.exporters_refused++;
		hmc_log(HMC_LOG_EXPORTER, "exporter [%s]:%u refused: %u sessions busy (--max-exporters)",
			a, port, x->cfg.max_exporters);
		return NULL;
	}
	e = free_e;
	memset(e, 0, sizeof(*e));
	e->used = 1;
	e->tcp = !!tcp;
	e->peer = *peer;
	memcpy(e->addr, addr, 16);
	e->port = port;
	e->last_s = now_s;
	snprintf(e->name, sizeof(e->name), "[%s]:%u/%s", a, port, tcp ? "tcp" : "udp");
	x->st.exporters++;
	if ((err = hmc_exporter_init(x, e))) {
		hmc_log(HMC_LOG_EXPORTER, "exporter %s: no session: %s", e->name, strerror(-err));
		hmc_exporter_drop(x, e);
		x->st.exporters_refused++;
		return NULL;
	}
	return e;
}

void hmc_ipfix_exporter_close(struct hmc_ipfix *x, struct hmc_exporter *e)
{
	if (e && e->used)
		hmc_exporter_drop(x, e);
}

/* --- the walk --------------------------------------------------------- */

static struct hmc_tpl *hmc_tpl_find(struct hmc_exporter *e, __u32 domain, __u16 tid)
{
	__u32 i;

	for (i = 0; i < e->nr_tpl; i++)
		if (e->tpl[i].tid == tid && e->tpl[i].domain == domain)
			return &e->tpl[i];
	return NULL;
}

static void hmc_tpl_forget(struct hmc_exporter *e, struct hmc_tpl *t)
{
	*t = e->tpl[--e->nr_tpl];
}

static __u32 hmc_carries(__u32 pen, __u32 ent, __u16 id)
{
	if (ent == pen) {
		switch (id) {
		case HM_IE_PACKET_ID:		return TPL_PKT_ID;
		case HM_IE_NODE_ID:		return TPL_NODE_ID;
		case HM_IE_OBSERVATION_POINT:	return TPL_POINT;
		case HM_IE_QUEUE_DEPTH:		return HM_PC_HAS_QDEPTH;
		case HM_IE_POSTCARD_SOURCE:	return TPL_SOURCE;
		case HM_IE_POSTCARD_FLAGS:	return TPL_FLAGS;
		case HM_IE_SOJOURN_NS:		return HM_PC_HAS_SOJOURN;
		}
		return 0;
	}
	if (ent)
		return 0;
	switch (id) {
	case IPFIX_IE_INGRESS_INTERFACE:	return HM_PC_HAS_IN_IF;
	case IPFIX_IE_EGRESS_INTERFACE:		return HM_PC_HAS_OUT_IF;
	case IPFIX_IE_IP_NEXT_HOP_IPV4_ADDRESS:
	case IPFIX_IE_IP_NEXT_HOP_IPV6_ADDRESS:	return HM_PC_HAS_NEXTHOP;
	case IPFIX_IE_IP_CLASS_OF_SERVICE:	return HM_PC_HAS_TOS;
	case IPFIX_IE_IP_TOTAL_LENGTH:		return HM_PC_HAS_LENGTH;
	case IPFIX_IE_SRH_FLAGS_IPV6:
	case IPFIX_IE_SRH_ACTIVE_SEGMENT_IPV6:
	case IPFIX_IE_SRH_SEGMENTS_IPV6_LEFT:	return HM_PC_HAS_SRH;
	case IPFIX_IE_IP_TTL:			return HM_PC_HAS_TTL;
	case IPFIX_IE_SOURCE_IPV4_ADDRESS:
	case IPFIX_IE_DESTINATION_IPV4_ADDRESS:	return TPL_V4;
	case IPFIX_IE_SOURCE_IPV6_ADDRESS:
	case IPFIX_IE_DESTINATION_IPV6_ADDRESS:	return TPL_V6;
	case IPFIX_IE_OBSERVATION_TIME_NANOSECONDS: return TPL_TIME;
	case IPFIX_IE_SOURCE_TRANSPORT_PORT:
	case IPFIX_IE_DESTINATION_TRANSPORT_PORT: return TPL_PORTS;
	case IPFIX_IE_PROTOCOL_IDENTIFIER:	return TPL_PROTO;
	}
	return 0;
}

/*
 * One Template Set or Options Template Set (RFC 7011 §3.4.1, §3.4.2):
 * record every template; -1 when a record runs past the Set. With @dry,
 * only check, and add to *@new the templates it would add.
 */
static void hmc_fb_withdraw(struct hmc_exporter *e, __u32 domain, __u16 tid)
{
	GError *err = NULL;

	fbSessionSetDomain(e->session, domain);
	if (!fbSessionRemoveTemplate(e->session, FALSE, tid, &err))
		g_clear_error(&err);
}

static int hmc_walk_templates(struct hmc_ipfix *x, struct hmc_exporter *e, __u32 domain,
			      __u16 set_id, const __u8 *p, size_t len, int dry, __u32 *new,
			      __u8 *out, size_t *olen)
{
	size_t off = 0;

	while (len - off >= 4) {
		__u16 tid = rd16(p + off), count = rd16(p + off + 2), scope = 0;
		size_t start = off, hdr = set_id == IPFIX_SET_OPTIONS ? 6 : 4;
		__u32 carries = 0, hash = 2166136261U, rec_len = 0, f;
		struct hmc_tpl *t;

		if (count == 0) {
			/* §8.1 withdrawal; Template ID = the Set ID: all of them */
			__u32 i;

			off += 4;
			if (dry)
				continue;
			if (tid == set_id) {
				for (i = e->nr_tpl; i-- > 0;)
					if (e->tpl[i].domain == domain) {
						hmc_fb_withdraw(e, domain, e->tpl[i].tid);
						hmc_tpl_forget(e, &e->tpl[i]);
						x->st.tpl_withdrawn++;
					}
				continue;
			}
			t = hmc_tpl_find(e, domain, tid);
			if (t) {
				hmc_fb_withdraw(e, domain, tid);
				hmc_tpl_forget(e, t);
				x->st.tpl_withdrawn++;
				hmc_log(HMC_LOG_TEMPLATE, "exporter %s domain %u: template %u withdrawn",
					e->name, domain, tid);
			}
			continue;
		}
		if (len - off < hdr)
			return -1;
		if (set_id == IPFIX_SET_OPTIONS) {
			scope = rd16(p + off + 4);
			if (!scope || scope > count)
				return -1;
		}
		if (tid < IPFIX_MIN_DATA_SET)
			return -1;
		off += hdr;
		for (f = 0; f < count; f++) {
			__u16 id, flen;
			__u32 ent = 0;

			if (len - off < 4)
				return -1;
			id = rd16(p + off);
			flen = rd16(p + off + 2);
			off += 4;
			if (id & IPFIX_ENTERPRISE_BIT) {
				if (len - off < 4)
					return -1;
				ent = rd32(p + off);
				off += 4;
				id &= ~IPFIX_ENTERPRISE_BIT;
			}
			carries |= hmc_carries(x->cfg.pen, ent, id);
			if (flen == IPFIX_VARLEN || rec_len == 0xffffffff)
				rec_len = 0xffffffff;
			else
				rec_len += flen;
		}
		/*
		 * Records of no octets cannot be told apart or counted, and
		 * libfixbuf 2.4.1 loops for ever on a Data Set of them: such a
		 * template is malformed (bad_template, the message dropped).
		 */
		if (!rec_len)
			return -1;
		for (f = start; f < off; f++)
			hash = (hash ^ p[f]) * 16777619U;
		if (rec_len > 0xffff)
			rec_len = 0;		/* variable length */

		t = hmc_tpl_find(e, domain, tid);
		if (dry) {
			*new += !t;
			continue;
		}
		/* what libfixbuf is given: the definitions, never a withdrawal */
		memcpy(out + *olen, p + start, off - start);
		*olen += off - start;
		if (t) {
			if (t->hash == hash)
				continue;	/* a refresh (§8.1, UDP) */
			x->st.tpl_changed++;
			hmc_log(HMC_LOG_TEMPLATE,
				"exporter %s domain %u: template %u redefined without a withdrawal",
				e->name, domain, tid);
		} else {
			if (e->nr_tpl == x->cfg.max_templates)
				continue;	/* cannot happen: the dry walk refused it */
			t = &e->tpl[e->nr_tpl++];
			x->st.tpl_added++;
		}
		t->domain = domain;
		t->tid = tid;
		t->hash = hash;
		t->rec_len = rec_len;
		t->carries = set_id == IPFIX_SET_OPTIONS ? 0 : carries;
		t->has_elems = 0;
	}
	return 0;
}

/*
 * Walk a whole message: 0 when libfixbuf may decode it, -1 when it is
 * dropped (counted). *@records: data records in it (-1: unknown, a
 * variable-length or missing template).
 */
static int hmc_walk(struct hmc_ipfix *x, struct hmc_exporter *e, const __u8 *msg, size_t len,
		    long *records, __u8 *clean, size_t *clen)
{
	__u32 domain, mlen, new = 0;
	size_t off;

	*records = 0;
	if (len < IPFIX_MSG_HDR_LEN) {
		x->st.short_msg++;
		hmc_log(HMC_LOG_IPFIX, "exporter %s: %zu octets: shorter than a message header",
			e->name, len);
		return -1;
	}
	if (rd16(msg) != IPFIX_VERSION) {
		x->st.bad_version++;
		hmc_log(HMC_LOG_IPFIX, "exporter %s: version %u, not 10", e->name, rd16(msg));
		return -1;
	}
	mlen = rd16(msg + 2);
	if (mlen < IPFIX_MSG_HDR_LEN) {
		x->st.bad_length++;
		hmc_log(HMC_LOG_IPFIX, "exporter %s: message Length %u below 16", e->name, mlen);
		return -1;
	}
	if (mlen > len) {
		x->st.short_msg++;
		hmc_log(HMC_LOG_IPFIX, "exporter %s: truncated message: Length %u, %zu octets",
			e->name, mlen, len);
		return -1;
	}
	domain = rd32(msg + 12);
	/* first the structure, so that a message dropped changes nothing */
	for (off = IPFIX_MSG_HDR_LEN; mlen - off >= IPFIX_SET_HDR_LEN;) {
		__u16 set_id = rd16(msg + off), slen = rd16(msg + off + 2);

		if (slen < IPFIX_SET_HDR_LEN || slen > mlen - off) {
			x->st.bad_set_length++;
			hmc_log(HMC_LOG_IPFIX,
				"exporter %s: Set %u Length %u at offset %zu: past the message's %u",
				e->name, set_id, slen, off, mlen);
			return -1;
		}
		if ((set_id == IPFIX_SET_TEMPLATE || set_id == IPFIX_SET_OPTIONS) &&
		    hmc_walk_templates(x, e, domain, set_id, msg + off + IPFIX_SET_HDR_LEN,
				       slen - IPFIX_SET_HDR_LEN, 1, &new, NULL, NULL)) {
			x->st.bad_template++;
			hmc_log(HMC_LOG_TEMPLATE,
				"exporter %s: malformed template record in Set %u at offset %zu",
				e->name, set_id, off);
			return -1;
		}
		off += slen;
	}
	if (e->nr_tpl + new > x->cfg.max_templates) {
		x->st.tpl_limit++;
		hmc_log(HMC_LOG_TEMPLATE, "exporter %s: over %u templates (--max-templates)",
			e->name, x->cfg.max_templates);
		return -1;
	}
	memcpy(clean, msg, IPFIX_MSG_HDR_LEN);
	*clen = IPFIX_MSG_HDR_LEN;
	for (off = IPFIX_MSG_HDR_LEN; mlen - off >= IPFIX_SET_HDR_LEN;) {
		__u16 set_id = rd16(msg + off), slen = rd16(msg + off + 2);
		const __u8 *body = msg + off + IPFIX_SET_HDR_LEN;
		struct hmc_tpl *t;

		if (set_id == IPFIX_SET_TEMPLATE || set_id == IPFIX_SET_OPTIONS) {
			size_t hdr = *clen;

			*clen += IPFIX_SET_HDR_LEN;
			hmc_walk_templates(x, e, domain, set_id, body, slen - IPFIX_SET_HDR_LEN, 0,
					   &new, clean, clen);
			if (*clen == hdr + IPFIX_SET_HDR_LEN) {
				*clen = hdr;	/* withdrawals only */
			} else {
				clean[hdr] = set_id >> 8;
				clean[hdr + 1] = set_id;
				clean[hdr + 2] = (*clen - hdr) >> 8;
				clean[hdr + 3] = *clen - hdr;
			}
		} else if (set_id < IPFIX_MIN_DATA_SET) {
			x->st.bad_set_id++;
			hmc_log(HMC_LOG_IPFIX, "exporter %s: reserved Set ID %u skipped", e->name,
				set_id);
		} else if (!(t = hmc_tpl_find(e, domain, set_id))) {
			x->st.no_template++;
			*records = -1;
			hmc_log(HMC_LOG_TEMPLATE,
				"exporter %s domain %u: Data Set %u before its template: skipped",
				e->name, domain, set_id);
		} else {
			memcpy(clean + *clen, msg + off, slen);
			*clen += slen;
			if (*records >= 0 && t->rec_len)
				*records += (slen - IPFIX_SET_HDR_LEN) / t->rec_len;
			else
				*records = -1;
		}
		off += slen;
	}
	clean[2] = *clen >> 8;
	clean[3] = *clen;
	return 0;
}

/*
 * A late message's records [@seq, @seq + @n) fill what they overlap of
 * the open gaps. Return: records that filled a gap.
 */
static __u32 hmc_seq_fill(struct hmc_ipfix *x, struct hmc_seq *q, __u32 seq, __u32 n)
{
	__u32 filled = 0;
	unsigned int i;

	for (i = 0; i < q->nr_gaps && filled < n;) {
		struct hmc_seq_gap *g = &q->gap[i];
		/* offsets from the gap's start, serial arithmetic (RFC 1982) */
		__u32 lo = seq - g->start, hi;

		if (lo >= g->len && (__u32)(g->start - seq) >= n) {
			i++;
			continue;	/* no overlap */
		}
		if (lo >= g->len) {
			/* starts before the gap */
			hi = seq + n - g->start;
			lo = 0;
		} else {
			hi = lo + n;
		}
		if (hi > g->len)
			hi = g->len;
		filled += hi - lo;
		x->st.seq_pending -= hi - lo;
		if (lo == 0 && hi == g->len) {
			memmove(g, g + 1, (q->nr_gaps - i - 1) * sizeof(*g));
			q->nr_gaps--;
			continue;
		}
		if (lo == 0) {
			g->start += hi;
			g->len -= hi;
		} else if (hi == g->len) {
			g->len = lo;
		} else if (q->nr_gaps == HMC_SEQ_GAPS) {
			/* no room to split: the older part is given up as lost */
			x->st.seq_lost += lo;
			x->st.seq_pending -= lo;
			g->start += hi;
			g->len -= hi;
		} else {
			memmove(g + 2, g + 1, (q->nr_gaps - i - 1) * sizeof(*g));
			q->nr_gaps++;
			g[1].start = g->start + hi;
			g[1].len = g->len - hi;
			g[1].opened = g->opened;
			g->len = lo;
			i++;
		}
		i++;
	}
	return filled;
}

/*
 * RFC 7011 §3.1, §10.3.2: the Sequence Number is the number of Data
 * Records sent in the Observation Domain before this message, so a
 * message that starts above the next one expected opens a gap of the
 * records between. UDP may reorder: a gap is only counted lost
 * (seq_lost) when HMC_SEQ_WINDOW later messages of the domain came and
 * did not fill it, when more than HMC_SEQ_GAPS gaps are open (the oldest
 * goes), or when the session ends; a message that fills a gap, wholly
 * or in part, is counted reordered (seq_reordered), one below the next
 * number that fills no gap (a duplicate, or later than the window)
 * seq_late. Records in open gaps are the gauge seq_pending, so at any
 * time lost + pending = the records missing. A message whose record
 * count is unknown (a Data Set skipped, a variable-length template)
 * resynchronises the domain on the next message; its open gaps stay.
 */
static void hmc_seq_check(struct hmc_ipfix *x, struct hmc_exporter *e, const __u8 *msg,
			  long records)
{
	__u32 domain = rd32(msg + 12), seq = rd32(msg + 8), n;
	struct hmc_seq *q = NULL;
	unsigned int i;

	if (e->tcp)
		return;
	for (i = 0; i < HMC_DOMAINS; i++) {
		if (e->seq[i].used && e->seq[i].domain == domain) {
			q = &e->seq[i];
			break;
		}
		if (!e->seq[i].used && !q)
			q = &e->seq[i];
	}
	if (!q)
		return;
	if (!q->used) {
		memset(q, 0, sizeof(*q));
		q->used = 1;
		q->domain = domain;
	}
	q->msgs++;
	while (q->nr_gaps && q->msgs - q->gap[0].opened > HMC_SEQ_WINDOW)
		hmc_seq_gap_lost(x, q, 0);
	if (records < 0) {
		q->synced = 0;
		return;
	}
	n = (__u32)records;
	if (!q->synced) {
		/* the first message, or after one of unknown size */
		q->synced = 1;
		q->next = seq + n;
		if (n)
			hmc_seq_fill(x, q, seq, n);
		return;
	}
	if (seq - q->next < 0x80000000U) {
		/* at or above the next expected */
		if (seq != q->next) {
			if (q->nr_gaps == HMC_SEQ_GAPS)
				hmc_seq_gap_lost(x, q, 0);
			q->gap[q->nr_gaps].start = q->next;
			q->gap[q->nr_gaps].len = seq - q->next;
			q->gap[q->nr_gaps].opened = q->msgs;
			q->nr_gaps++;
			x->st.seq_pending += seq - q->next;
		}
		q->next = seq + n;
		return;
	}
	/* below it: late */
	if (n && hmc_seq_fill(x, q, seq, n))
		x->st.seq_reordered++;
	else
		x->st.seq_late++;
}

void hmc_ipfix_end_sessions(struct hmc_ipfix *x)
{
	__u32 i, d;

	for (i = 0; i < x->cfg.max_exporters; i++)
		for (d = 0; x->exp[i].used && d < HMC_DOMAINS; d++)
			while (x->exp[i].seq[d].nr_gaps)
				hmc_seq_gap_lost(x, &x->exp[i].seq[d], 0);
}

int hmc_ipfix_message(struct hmc_ipfix *x, struct hmc_exporter *e, __u8 *msg, size_t len)
{
	struct hm_ipfix_rec rec;
	GError *err = NULL;
	long records;
	int n = 0;

	x->st.messages++;
	if (hmc_walk(x, e, msg, len, &records, x->clean, &len))
		return -EBADMSG;
	hmc_seq_check(x, e, msg, records);
	if (len == IPFIX_MSG_HDR_LEN)
		return 0;	/* nothing left for libfixbuf */
	fBufSetBuffer(e->fbuf, x->clean, len);
	for (;;) {
		size_t rlen = sizeof(rec);
		struct hmc_tpl *t;
		fbTemplate_t *ext;
		uint16_t ext_tid = 0;
		struct hm_pc_obs o;
		__u32 domain;

		if (!fBufNext(e->fbuf, (uint8_t *)&rec, &rlen, &err)) {
			if (!g_error_matches(err, FB_ERROR_DOMAIN, FB_ERROR_BUFSZ) &&
			    !g_error_matches(err, FB_ERROR_DOMAIN, FB_ERROR_EOM)) {
				x->st.decode_error++;
				hmc_log(HMC_LOG_IPFIX, "exporter %s: libfixbuf: %s", e->name,
					err ? err->message : "?");
			}
			g_clear_error(&err);
			break;
		}
		x->st.records++;
		domain = fbSessionGetDomain(e->session);
		ext = fBufGetCollectionTemplate(e->fbuf, &ext_tid);
		t = hmc_tpl_find(e, domain, ext_tid);
		if (t && ext && !t->has_elems) {
			/* by element name: costly, so once per template definition */
			t->elems = hm_ipfix_tpl_elems(ext);
			t->has_elems = 1;
		}
		if (!t || !ext ||
		    (t->carries & (TPL_PKT_ID | TPL_NODE_ID)) != (TPL_PKT_ID | TPL_NODE_ID) ||
		    hm_ipfix_rec_to_obs(&rec, t->elems, domain, &o, NULL)) {
			x->st.not_postcard++;
			continue;
		}
		x->st.postcards++;
		n++;
		x->fn(x->arg, &o);
	}
	return n;
}

long hmc_ipfix_stream(struct hmc_ipfix *x, struct hmc_exporter *e, __u8 *buf, size_t len)
{
	size_t off = 0;

	while (len - off >= 4) {
		__u16 ver = rd16(buf + off), mlen = rd16(buf + off + 2);

		if (ver != IPFIX_VERSION || mlen < IPFIX_MSG_HDR_LEN) {
			if (ver != IPFIX_VERSION)
				x->st.bad_version++;
			else
				x->st.bad_length++;
			x->st.messages++;
			x->st.tcp_closed++;
			hmc_log(HMC_LOG_IPFIX,
				"exporter %s: version %u, Length %u: no message boundary, closing",
				e->name, ver, mlen);
			return -EPROTO;
		}
		if (len - off < mlen)
			break;
		hmc_ipfix_message(x, e, buf + off, mlen);
		off += mlen;
	}
	return off;
}
