// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_in.c - hopmark-collector's IPFIX input (collector/ipfix_in.h).
 *
 * Every message is walked twice with lib/ipfix/ipfix_decode.h (RFC 7011
 * §3: Message Header, Set Headers, template records): first only to check
 * its structure, for the checks ipfix_in.h lists, so that a message that
 * is dropped changes nothing; then in order, Set by Set, applying its
 * templates and withdrawals and decoding its Data Records. The templates
 * live per session and Observation Domain, each compiled once per
 * definition (hm_ipfix_tpl_compile()); a record of a postcard template
 * becomes a struct hm_pc_obs through hm_ipfix_decode_obs() (hopmark's
 * own PBT-M layouts take its fast path), a record of an RFC 5610 type
 * template teaches the session an element's name, any other record is
 * counted and skipped. No libfixbuf on this side: it stays the exporter's
 * (lib/ipfix/ipfix_export.c, the collector's IPFIX re-export).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "ipfix/ipfix_decode.h"
#include "ipfix/ipfix_ie.h"

#define IPFIX_VERSION		HM_IPFIX_VERSION
#define IPFIX_MSG_HDR_LEN	HM_IPFIX_MSG_HDR_LEN
#define IPFIX_SET_HDR_LEN	HM_IPFIX_SET_HDR_LEN
#define IPFIX_SET_TEMPLATE	HM_IPFIX_SET_TEMPLATE
#define IPFIX_SET_OPTIONS	HM_IPFIX_SET_OPTIONS
#define IPFIX_MIN_DATA_SET	HM_IPFIX_MIN_DATA_SET

#define HMC_DOMAINS		8	/* Sequence Numbers kept per session */
#define HMC_SEQ_GAPS		16	/* open gaps per Observation Domain */
#define HMC_SEQ_WINDOW		64	/* messages a gap waits for late ones */


/* A template of one Observation Domain of a session. */
struct hmc_tpl {
	__u32			domain;
	__u32			hash;		/* hm_ipfix_tpl_info.hash */
	struct hm_ipfix_tpl	c;		/* compiled once per definition */
};

/* An element name an RFC 5610 type record taught the session. */
struct hmc_ie_name {
	__u32	pen;
	__u16	id;
	char	name[HMC_IE_NAME_MAX];
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
	__u32			nr_tpl;
	struct hmc_tpl		*tpl;
	__u32			nr_names;
	struct hmc_ie_name	*names;		/* HMC_IE_NAMES of them */
	struct hmc_seq		seq[HMC_DOMAINS];
	char			name[64];
};

struct hmc_ipfix {
	struct hmc_ipfix_cfg	cfg;
	hmc_obs_fn		fn;
	void			*arg;
	struct hmc_exporter	*exp;		/* cfg.max_exporters of them */
	struct hmc_ipfix_stats	st;
};

#define rd16	hm_ipfix_rd16
#define rd32	hm_ipfix_rd32

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
	x->exp = calloc(x->cfg.max_exporters, sizeof(*x->exp));
	if (!x->exp) {
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
	for (d = 0; e->tpl && d < e->nr_tpl; d++)
		hm_ipfix_tpl_release(&e->tpl[d].c);
	free(e->tpl);
	free(e->names);
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
	e->tpl = calloc(x->cfg.max_templates, sizeof(*e->tpl));
	e->names = calloc(HMC_IE_NAMES, sizeof(*e->names));
	if (!e->tpl || !e->names)
		return -ENOMEM;
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
		if (e->tpl[i].c.tid == tid && e->tpl[i].domain == domain)
			return &e->tpl[i];
	return NULL;
}

static void hmc_tpl_forget(struct hmc_exporter *e, struct hmc_tpl *t)
{
	hm_ipfix_tpl_release(&t->c);
	*t = e->tpl[--e->nr_tpl];
	memset(&e->tpl[e->nr_tpl], 0, sizeof(e->tpl[0]));
}

/*
 * Check one Template Set or Options Template Set (RFC 7011 §3.4.1,
 * §3.4.2): -1 when a record is malformed (hm_ipfix_tpl_scan()); *@new
 * counts the templates it would add.
 */
static int hmc_check_templates(struct hmc_exporter *e, __u32 domain, __u16 set_id,
			       const __u8 *p, size_t len, __u32 *new)
{
	struct hm_ipfix_tpl_info ti;
	size_t off = 0;

	while (len - off >= 4) {
		if (hm_ipfix_tpl_scan(p + off, len - off, set_id, &ti))
			return -1;
		if (ti.nr_fields && !hmc_tpl_find(e, domain, ti.tid))
			(*new)++;
		off += ti.len;
	}
	return 0;
}

/* Apply one (checked) template Set: definitions, refreshes, withdrawals (§8.1). */
static void hmc_apply_templates(struct hmc_ipfix *x, struct hmc_exporter *e, __u32 domain,
				__u16 set_id, const __u8 *p, size_t len)
{
	struct hm_ipfix_tpl_info ti;
	size_t off = 0;

	while (len - off >= 4) {
		struct hmc_tpl *t;
		int err;

		hm_ipfix_tpl_scan(p + off, len - off, set_id, &ti);
		if (!ti.nr_fields) {
			/* §8.1 withdrawal; Template ID = the Set ID: all of them */
			__u32 i;

			if (ti.tid == set_id) {
				for (i = e->nr_tpl; i-- > 0;)
					if (e->tpl[i].domain == domain) {
						hmc_tpl_forget(e, &e->tpl[i]);
						x->st.tpl_withdrawn++;
					}
			} else if ((t = hmc_tpl_find(e, domain, ti.tid))) {
				hmc_tpl_forget(e, t);
				x->st.tpl_withdrawn++;
				hmc_log(HMC_LOG_TEMPLATE, "exporter %s domain %u: template %u withdrawn",
					e->name, domain, ti.tid);
			}
			off += ti.len;
			continue;
		}
		t = hmc_tpl_find(e, domain, ti.tid);
		if (t) {
			if (t->hash == ti.hash) {
				off += ti.len;
				continue;	/* a refresh (§8.1, UDP) */
			}
			x->st.tpl_changed++;
			hmc_log(HMC_LOG_TEMPLATE,
				"exporter %s domain %u: template %u redefined without a withdrawal",
				e->name, domain, ti.tid);
			hm_ipfix_tpl_release(&t->c);
		} else {
			if (e->nr_tpl == x->cfg.max_templates) {
				off += ti.len;
				continue;	/* cannot happen: the check refused it */
			}
			t = &e->tpl[e->nr_tpl++];
			x->st.tpl_added++;
		}
		t->domain = domain;
		t->hash = ti.hash;
		err = hm_ipfix_tpl_compile(p + off, &ti, set_id, x->cfg.pen, &t->c);
		if (err) {
			hmc_log(HMC_LOG_TEMPLATE, "exporter %s domain %u: template %u: %s",
				e->name, domain, ti.tid, strerror(-err));
			hmc_tpl_forget(e, t);
		}
		off += ti.len;
	}
}

/*
 * An RFC 5610 type record: the session learns the element's name (the
 * first HMC_IE_NAMES names; a later record for the same element renames it).
 */
static void hmc_ie_type(struct hmc_ipfix *x, struct hmc_exporter *e,
			const struct hm_ipfix_tpl *c, const __u8 *rec)
{
	struct hm_ipfix_ie_type ty;
	struct hmc_ie_name *n = NULL;
	size_t len;
	__u32 i;

	if ((c->elems & ((1U << HM_T_PEN) | (1U << HM_T_ID) | (1U << HM_T_NAME))) !=
	    ((1U << HM_T_PEN) | (1U << HM_T_ID) | (1U << HM_T_NAME)))
		return;
	hm_ipfix_decode_ie_type(c, rec, &ty);
	for (i = 0; i < e->nr_names; i++)
		if (e->names[i].pen == ty.pen && e->names[i].id == ty.id)
			n = &e->names[i];
	if (!n) {
		if (e->nr_names == HMC_IE_NAMES)
			return;
		n = &e->names[e->nr_names++];
		hmc_log(HMC_LOG_TEMPLATE, "exporter %s: element %u/%u is %.*s (RFC 5610)",
			e->name, ty.pen, ty.id, (int)(ty.name.len > 63 ? 63 : ty.name.len),
			(const char *)ty.name.buf);
	}
	len = ty.name.len < sizeof(n->name) - 1 ? ty.name.len : sizeof(n->name) - 1;
	n->pen = ty.pen;
	n->id = ty.id;
	memcpy(n->name, ty.name.buf, len);
	n->name[len] = 0;
}

const char *hmc_ipfix_ie_name(const struct hmc_exporter *e, __u32 pen, __u16 id)
{
	__u32 i;

	for (i = 0; i < e->nr_names; i++)
		if (e->names[i].pen == pen && e->names[i].id == id)
			return e->names[i].name;
	return NULL;
}

/*
 * One Data Set of a known template: every record decoded and counted.
 * Return: records in it, or -1 when a record runs past the Set (counted
 * decode_error: the rest of the message is not trusted).
 */
static long hmc_data_set(struct hmc_ipfix *x, struct hmc_exporter *e, struct hmc_tpl *t,
			 __u32 domain, const __u8 *p, size_t len, int *n)
{
	const struct hm_ipfix_tpl *c = &t->c;
	int postcards = c->set_id == IPFIX_SET_TEMPLATE && c->schema == HM_IPFIX_SCHEMA_POSTCARD &&
			(c->elems & ((1ULL << HM_E_PKT_ID) | (1ULL << HM_E_NODE_ID))) ==
			((1ULL << HM_E_PKT_ID) | (1ULL << HM_E_NODE_ID));
	size_t off = 0;
	long records = 0;

	for (;;) {
		long rlen = hm_ipfix_rec_next(c, p + off, len - off);
		struct hm_pc_obs o;

		if (rlen < 0) {
			x->st.decode_error++;
			hmc_log(HMC_LOG_IPFIX,
				"exporter %s domain %u: a record of template %u runs past its Set",
				e->name, domain, c->tid);
			return -1;
		}
		if (!rlen)
			return records;
		records++;
		x->st.records++;
		if (!postcards || hm_ipfix_decode_obs(c, p + off, domain, &o)) {
			if (c->schema == HM_IPFIX_SCHEMA_IE_TYPE)
				hmc_ie_type(x, e, c, p + off);
			x->st.not_postcard++;
		} else {
			x->st.postcards++;
			(*n)++;
			x->fn(x->arg, &o);
		}
		off += rlen;
	}
}

/*
 * A whole message: -1 when it is dropped (counted), else the postcards
 * it gave. *@records: data records in it (-1: unknown, a Data Set
 * skipped or refused).
 */
static int hmc_walk(struct hmc_ipfix *x, struct hmc_exporter *e, const __u8 *msg, size_t len,
		    long *records)
{
	__u32 domain, mlen, new = 0;
	size_t off;
	int n = 0;

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
		    hmc_check_templates(e, domain, set_id, msg + off + IPFIX_SET_HDR_LEN,
					slen - IPFIX_SET_HDR_LEN, &new)) {
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
	/* then every Set in order */
	for (off = IPFIX_MSG_HDR_LEN; mlen - off >= IPFIX_SET_HDR_LEN;) {
		__u16 set_id = rd16(msg + off), slen = rd16(msg + off + 2);
		const __u8 *body = msg + off + IPFIX_SET_HDR_LEN;
		struct hmc_tpl *t;
		long r;

		if (set_id == IPFIX_SET_TEMPLATE || set_id == IPFIX_SET_OPTIONS) {
			hmc_apply_templates(x, e, domain, set_id, body, slen - IPFIX_SET_HDR_LEN);
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
			r = hmc_data_set(x, e, t, domain, body, slen - IPFIX_SET_HDR_LEN, &n);
			if (r < 0) {
				*records = -1;
				break;
			}
			if (*records >= 0)
				*records += r;
		}
		off += slen;
	}
	return n;
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
 * count is unknown (a Data Set skipped before its template, or one whose
 * record ran past it) resynchronises the domain on the next message; its
 * open gaps stay. Records of variable-length templates are counted one
 * by one, so their messages count as any other.
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
	long records;
	int n;

	x->st.messages++;
	n = hmc_walk(x, e, msg, len, &records);
	if (n < 0)
		return -EBADMSG;
	hmc_seq_check(x, e, msg, records);
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
