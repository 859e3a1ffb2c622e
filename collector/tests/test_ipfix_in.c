// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ipfix_in.c - hopmark-collector's IPFIX input (collector/ipfix_in.h)
 * on messages written octet by octet (ipfix_craft.h, RFC 7011 §3): the
 * fields of a decoded postcard, and every kind of bad input the input
 * counts: truncated messages, a Data Set before its template, template
 * withdrawal, a template changed under its ID, a huge Set Length, a bad
 * Version, TCP framing, the exporter session limit, idle expiry and the
 * allowed prefixes, Sequence Number gaps, records that are not postcards
 * and the template limit. And the Messages hopmark's own exporter
 * (lib/ipfix/ipfix_export.c) sends over UDP: every postcard back as it
 * went in, the RFC 5610 names learned, no Sequence Number gap.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hm_test.h"
#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "ipfix/ipfix_export.h"
#include "ipfix/ipfix_ie.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "ipfix_craft.h"

#define PEN	HM_IPFIX_PEN_DEFAULT
#define TID	256

struct got {
	unsigned int		n;
	struct hm_pc_obs	o[64];
};

static void got_obs(void *arg, const struct hm_pc_obs *o)
{
	struct got *g = arg;

	if (g->n < 64)
		g->o[g->n] = *o;
	g->n++;
}

static struct sockaddr_storage peer(__u32 a, __u16 port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (void *)&ss;

	memset(&ss, 0, sizeof(ss));
	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(a);
	s4->sin_port = htons(port);
	return ss;
}

static struct craft_rec rec(__u32 node, __u32 pkt)
{
	struct craft_rec r = {
		.ts_ns = 1764620000123456789ULL, .node = node, .pkt = pkt,
		.point = PBT_PT_EGRESS, .ttl = 63, .src = 0xc0000201, .dst = 0xc6336402,
		.proto = 17, .sport = 10001, .dport = 5201, .in_if = 3, .out_if = 4,
		.qdepth = 1500, .flags = PBT_REC_F_HEAD, .source = HM_PC_SRC_PBT,
	};
	return r;
}

/* Template Set and a Data Set of @n records in one message. */
static size_t msg_tpl_data(struct craft *c, __u32 seq, unsigned int n)
{
	unsigned int i;

	craft_msg(c, seq, 7);
	craft_set(c, 2);
	craft_template(c, TID, PEN, 15);
	craft_set_end(c);
	craft_set(c, TID);
	for (i = 0; i < n; i++) {
		struct craft_rec r = rec(11 + i, 0x1000 + i);

		craft_record(c, &r);
	}
	craft_set_end(c);
	return craft_end(c);
}

static size_t msg_data(struct craft *c, __u32 seq, unsigned int n)
{
	unsigned int i;

	craft_msg(c, seq, 7);
	craft_set(c, TID);
	for (i = 0; i < n; i++) {
		struct craft_rec r = rec(21 + i, 0x2000 + i);

		craft_record(c, &r);
	}
	craft_set_end(c);
	return craft_end(c);
}

struct fix {
	struct hmc_ipfix	*x;
	struct hmc_exporter	*e;
	struct got		g;
	struct craft		c;
};

static struct fix *fix_new(struct hmc_ipfix_cfg *cfg)
{
	struct hmc_ipfix_cfg dflt = { 0 };
	struct fix *f = calloc(1, sizeof(*f));
	struct sockaddr_storage p = peer(0x7f000001, 40000);

	assert_non_null(f);
	hmc_log_quiet(getenv("HMC_TEST_LOG") == NULL);
	f->x = hmc_ipfix_new(cfg ? cfg : &dflt, got_obs, &f->g);
	assert_non_null(f->x);
	f->e = hmc_ipfix_exporter(f->x, &p, 0, 100);
	assert_non_null(f->e);
	return f;
}

static void fix_free(struct fix *f)
{
	hmc_ipfix_free(f->x);
	free(f);
}

#define ST(f)	hmc_ipfix_stats((f)->x)

static void ipfix_template_and_data_decode_every_field(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct hm_pc_obs *o = &f->g.o[0];
	size_t len = msg_tpl_data(&f->c, 0, 2);
	__u32 a;

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	assert_int_equal(f->g.n, 2);
	assert_int_equal(o->ts_ns, 1764620000123456789ULL);
	assert_int_equal(o->node_id, 11);
	assert_int_equal(o->pkt_id, 0x1000);
	assert_int_equal(f->g.o[1].node_id, 12);
	assert_int_equal(o->point, PBT_PT_EGRESS);
	assert_int_equal(o->ttl, 63);
	assert_int_equal(o->key.family, 4);
	assert_int_equal(o->key.proto, 17);
	assert_int_equal(ntohs(o->key.sport), 10001);
	assert_int_equal(ntohs(o->key.dport), 5201);
	memcpy(&a, o->key.saddr, 4);
	assert_int_equal(ntohl(a), 0xc0000201);	/* network order in the key */
	memcpy(&a, o->key.daddr, 4);
	assert_int_equal(ntohl(a), 0xc6336402);
	assert_int_equal(o->in_if, 3);
	assert_int_equal(o->out_if, 4);
	assert_int_equal(o->qdepth, 1500);
	assert_int_equal(o->flags, PBT_REC_F_HEAD);
	assert_int_equal(o->source, HM_PC_SRC_PBT);
	assert_int_equal(o->obs_domain, 7);
	assert_int_equal(o->present, HM_PC_HAS_TTL | HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF |
				     HM_PC_HAS_QDEPTH);
	assert_int_equal(ST(f)->tpl_added, 1);
	assert_int_equal(ST(f)->records, 2);
	assert_int_equal(ST(f)->postcards, 2);
	/* the same template again (a UDP refresh) is no change */
	len = msg_tpl_data(&f->c, 2, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	assert_int_equal(ST(f)->tpl_changed, 0);
	assert_int_equal(ST(f)->seq_lost, 0);
	fix_free(f);
}

static void ipfix_data_before_template_is_skipped_and_counted(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_data(&f->c, 0, 3);

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 0);
	assert_int_equal(ST(f)->no_template, 1);
	assert_int_equal(f->g.n, 0);
	len = msg_tpl_data(&f->c, 3, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	len = msg_data(&f->c, 4, 3);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 3);
	assert_int_equal(ST(f)->no_template, 1);
	fix_free(f);
}

static void ipfix_withdrawn_template_stops_decoding(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, 0, 1);

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	/* §8.1: a template record with Field Count 0 */
	craft_msg(&f->c, 1, 7);
	craft_set(&f->c, 2);
	craft_u16(&f->c, TID);
	craft_u16(&f->c, 0);
	craft_set_end(&f->c);
	len = craft_end(&f->c);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 0);
	assert_int_equal(ST(f)->tpl_withdrawn, 1);
	len = msg_data(&f->c, 1, 2);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 0);
	assert_int_equal(ST(f)->no_template, 1);
	assert_int_equal(f->g.n, 1);
	fix_free(f);
}

static void ipfix_template_changed_under_its_id_is_counted_and_used(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, 0, 1);
	struct craft_rec r = rec(31, 0x3100);

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	/* the same ID, without hopmarkPostcardSource: 49-octet records */
	craft_msg(&f->c, 1, 7);
	craft_set(&f->c, 2);
	craft_template(&f->c, TID, PEN, 14);
	craft_set_end(&f->c);
	craft_set(&f->c, TID);
	r.source = HM_PC_SRC_DEX;
	craft_record(&f->c, &r);
	f->c.len--;			/* no source octet in this layout */
	craft_set_end(&f->c);
	len = craft_end(&f->c);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	assert_int_equal(ST(f)->tpl_changed, 1);
	assert_int_equal(f->g.o[1].node_id, 31);
	assert_int_equal(f->g.o[1].pkt_id, 0x3100);
	assert_int_equal(f->g.o[1].flags, PBT_REC_F_HEAD);
	assert_int_equal(f->g.o[1].source, HM_PC_SRC_PBT);	/* absent: the default */
	fix_free(f);
}

static void ipfix_truncated_and_bad_headers_are_dropped(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, 0, 2);

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len - 1), -EBADMSG);
	assert_int_equal(ST(f)->short_msg, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, 15), -EBADMSG);
	assert_int_equal(ST(f)->short_msg, 2);
	f->c.b[1] = 9;				/* NetFlow v9's version */
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->bad_version, 1);
	f->c.b[1] = 10;
	f->c.b[2] = 0;
	f->c.b[3] = 12;				/* Length below the header's 16 */
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->bad_length, 1);
	assert_int_equal(ST(f)->tpl_added, 0);
	assert_int_equal(f->g.n, 0);
	/* the input goes on */
	len = msg_tpl_data(&f->c, 0, 2);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	fix_free(f);
}

static void ipfix_huge_set_length_drops_the_whole_message(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, 0, 2);
	size_t data_set = 16 + 4 + 4 + 15 * 4 + 6 * 4;	/* after the Template Set */

	f->c.b[data_set + 2] = 0xff;		/* Set Length 65535 */
	f->c.b[data_set + 3] = 0xff;
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->bad_set_length, 1);
	/* the template before the bad Set is not learned either */
	assert_int_equal(ST(f)->tpl_added, 0);
	f->c.b[data_set + 2] = 0;
	f->c.b[data_set + 3] = 2;		/* Set Length below its header */
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->bad_set_length, 2);
	/* a template record whose fields run past its Set */
	len = msg_tpl_data(&f->c, 0, 1);
	f->c.b[16 + 4 + 3] = 40;		/* Field Count 40 of 15 */
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->bad_template, 1);
	assert_int_equal(f->g.n, 0);
	fix_free(f);
}

/*
 * A template whose records have no octets (one field of Field Length 0):
 * libfixbuf 2.4.1 would loop for ever on its Data Set, so the input
 * refuses the template (bad_template) and the message, and the next
 * message is decoded as usual.
 */
static void ipfix_zero_length_template_is_refused(void **state)
{
	static __u8 m[] = {
		0x00, 0x0a, 0x00, 0x48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
		0x00, 0x02, 0x00, 0x0c, 0x01, 0x2e, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
		0x01, 0x2e, 0x00, 0x2c,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct fix *f = fix_new(NULL);
	size_t len;

	assert_int_equal(sizeof(m), 0x48);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, m, sizeof(m)), -EBADMSG);
	assert_int_equal(ST(f)->bad_template, 1);
	assert_int_equal(ST(f)->tpl_added, 0);
	len = msg_tpl_data(&f->c, 0, 2);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	assert_int_equal(f->g.n, 2);
	fix_free(f);
}

static void ipfix_tcp_stream_is_cut_into_messages(void **state)
{
	struct fix *f = fix_new(NULL);
	static __u8 s[3 * 2048];
	size_t a = msg_tpl_data(&f->c, 0, 2), b, n = 0;
	struct sockaddr_storage p = peer(0x7f000001, 40001);
	struct hmc_exporter *t = hmc_ipfix_exporter(f->x, &p, 1, 100);

	assert_non_null(t);
	memcpy(s, f->c.b, a);
	n = a;
	b = msg_data(&f->c, 2, 3);
	memcpy(s + n, f->c.b, b);
	n += b;
	memcpy(s + n, f->c.b, 20);		/* the start of a third */
	n += 20;
	assert_int_equal(hmc_ipfix_stream(f->x, t, s, n), a + b);
	assert_int_equal(f->g.n, 5);
	s[0] = 0x47;				/* "GET / HTTP": no message boundary */
	assert_int_equal(hmc_ipfix_stream(f->x, t, s, n), -EPROTO);
	assert_int_equal(ST(f)->tcp_closed, 1);
	hmc_ipfix_exporter_close(f->x, t);
	assert_int_equal(ST(f)->exporters, 1);
	fix_free(f);
}

static void ipfix_exporter_limit_idle_expiry_and_allowed_prefixes(void **state)
{
	struct hmc_ipfix_cfg cfg = { .max_exporters = 2, .idle_s = 30 };
	struct fix *f = fix_new(&cfg);
	struct sockaddr_storage p2 = peer(0x7f000001, 40002), p3 = peer(0x7f000001, 40003);
	struct sockaddr_storage p = peer(0x7f000001, 40004);
	struct hmc_ipfix *x;
	struct got g = { 0 };

	struct hmc_exporter *e2, *e3;
	size_t len;

	/* sessions that taught a template are kept until idle */
	len = msg_tpl_data(&f->c, 0, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	e2 = hmc_ipfix_exporter(f->x, &p2, 0, 110);
	assert_non_null(e2);
	assert_int_equal(hmc_ipfix_message(f->x, e2, f->c.b, len), 1);
	assert_null(hmc_ipfix_exporter(f->x, &p3, 0, 111));
	assert_int_equal(ST(f)->exporters_refused, 1);
	/* the first session (last heard at 100) is idle 30 s at 130 */
	assert_null(hmc_ipfix_exporter(f->x, &p3, 0, 129));
	e3 = hmc_ipfix_exporter(f->x, &p3, 0, 130);
	assert_non_null(e3);
	assert_int_equal(ST(f)->exporters_expired, 1);
	assert_int_equal(ST(f)->exporters, 2);
	/*
	 * p3 sent only junk (no template): a newcomer takes its place at
	 * once, not after 30 s, and the session with a template stays.
	 */
	f->c.b[0] = 0;
	assert_int_equal(hmc_ipfix_message(f->x, e3, f->c.b, 1), -EBADMSG);
	f->c.b[0] = 0;
	assert_non_null(hmc_ipfix_exporter(f->x, &p, 0, 131));
	assert_int_equal(ST(f)->exporters_expired, 2);
	assert_non_null(hmc_ipfix_exporter(f->x, &p2, 0, 131));
	assert_int_equal(ST(f)->exporters_refused, 2);	/* at 111 and 129 */
	fix_free(f);

	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_allow = 1;
	cfg.allow[0][10] = cfg.allow[0][11] = 0xff;
	cfg.allow[0][12] = 10;			/* 10.0.0.0/8 */
	cfg.allow_plen[0] = 96 + 8;
	x = hmc_ipfix_new(&cfg, got_obs, &g);
	assert_non_null(x);
	p2 = peer(0x0a010203, 4739);
	p3 = peer(0x0b010203, 4739);
	assert_non_null(hmc_ipfix_exporter(x, &p2, 0, 1));
	assert_null(hmc_ipfix_exporter(x, &p3, 0, 1));
	assert_int_equal(hmc_ipfix_stats(x)->exporters_denied, 1);
	hmc_ipfix_free(x);
}

static void ipfix_sequence_gap_counts_lost_records(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, 0, 2);
	unsigned int i;

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	len = msg_data(&f->c, 5, 1);		/* 2 expected: records 2-4 missing */
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	/* not lost yet: a late message may still bring them */
	assert_int_equal(ST(f)->seq_lost, 0);
	assert_int_equal(ST(f)->seq_pending, 3);
	/* 64 messages of the domain later, the gap is given up */
	for (i = 0; i < 64; i++) {
		len = msg_data(&f->c, 6 + i, 1);
		assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	}
	assert_int_equal(ST(f)->seq_lost, 0);
	len = msg_data(&f->c, 70, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	assert_int_equal(ST(f)->seq_lost, 3);
	assert_int_equal(ST(f)->seq_pending, 0);
	/* now too late: counted late, not reordered, and not lost twice */
	len = msg_data(&f->c, 2, 3);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 3);
	assert_int_equal(ST(f)->seq_lost, 3);
	assert_int_equal(ST(f)->seq_late, 1);
	assert_int_equal(ST(f)->seq_reordered, 0);
	fix_free(f);
}

/*
 * Messages reordered on UDP (RFC 7011 §10.3.2): a late message fills its
 * gap, is counted reordered, and nothing is lost; a gap left open at the
 * session's end is lost then.
 */
static void ipfix_sequence_reordered_messages_are_not_lost(void **state)
{
	/* 7 messages; the exporter's order 0..6, received 0 1 3 2 6 5 4 */
	static const unsigned int seq[] = { 0, 2, 3, 5, 7, 10, 11 };
	static const unsigned int nrec[] = { 2, 1, 2, 2, 3, 1, 4 };
	static const unsigned int order[] = { 1, 3, 2, 6, 5, 4 };
	struct fix *f = fix_new(NULL);
	size_t len = msg_tpl_data(&f->c, seq[0], nrec[0]);
	unsigned int i;

	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	for (i = 0; i < 6; i++) {
		len = msg_data(&f->c, seq[order[i]], nrec[order[i]]);
		assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len),
				 (int)nrec[order[i]]);
	}
	printf("# reordered: expected 3, observed %llu; lost: expected 0, observed %llu\n",
	       (unsigned long long)ST(f)->seq_reordered, (unsigned long long)ST(f)->seq_lost);
	assert_int_equal(ST(f)->seq_reordered, 3);
	assert_int_equal(ST(f)->seq_lost, 0);
	assert_int_equal(ST(f)->seq_pending, 0);
	assert_int_equal(ST(f)->seq_late, 0);
	/* 15 was expected: 19 opens the gap 15-18 */
	len = msg_data(&f->c, 19, 1);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 1);
	/* 16-17 arrive late: the gap splits, 15 and 18 still missing */
	len = msg_data(&f->c, 16, 2);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	assert_int_equal(ST(f)->seq_reordered, 4);
	assert_int_equal(ST(f)->seq_pending, 2);
	assert_int_equal(ST(f)->seq_lost, 0);
	/* a duplicate fills nothing */
	len = msg_data(&f->c, 16, 2);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 2);
	assert_int_equal(ST(f)->seq_late, 1);
	hmc_ipfix_end_sessions(f->x);
	assert_int_equal(ST(f)->seq_lost, 2);
	assert_int_equal(ST(f)->seq_pending, 0);
	fix_free(f);
}

static void ipfix_records_without_ids_are_not_postcards(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t len;

	/* observationTimeNanoseconds and hopmarkNodeId only */
	craft_msg(&f->c, 0, 7);
	craft_set(&f->c, 2);
	craft_template(&f->c, 300, PEN, 2);
	craft_set_end(&f->c);
	craft_set(&f->c, 300);
	craft_u64(&f->c, 0);
	craft_u32(&f->c, 5);
	craft_set_end(&f->c);
	len = craft_end(&f->c);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 0);
	assert_int_equal(ST(f)->records, 1);
	assert_int_equal(ST(f)->not_postcard, 1);
	/* hopmark's elements under another PEN are not hopmark's */
	craft_msg(&f->c, 1, 7);
	craft_set(&f->c, 2);
	craft_template(&f->c, 301, 9999, 15);
	craft_set_end(&f->c);
	len = craft_end(&f->c);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), 0);
	fix_free(f);
}

static void ipfix_template_limit_refuses_the_message(void **state)
{
	struct hmc_ipfix_cfg cfg = { .max_templates = 2 };
	struct fix *f = fix_new(&cfg);
	size_t len;

	craft_msg(&f->c, 0, 7);
	craft_set(&f->c, 2);
	craft_template(&f->c, 256, PEN, 15);
	craft_template(&f->c, 257, PEN, 15);
	craft_template(&f->c, 258, PEN, 15);
	craft_set_end(&f->c);
	len = craft_end(&f->c);
	assert_int_equal(hmc_ipfix_message(f->x, f->e, f->c.b, len), -EBADMSG);
	assert_int_equal(ST(f)->tpl_limit, 1);
	assert_int_equal(ST(f)->tpl_added, 0);
	fix_free(f);
}

static void quiet_log(const char *fmt, ...)
{
}

/*
 * hopmark's exporter sends 40 postcards (PBT-M IPv4 and IPv6, basic and
 * per-flow sets, DEX with its variable-length fields) to a UDP socket;
 * every datagram goes through the input as from one exporter.
 */
static void ipfix_exporter_messages_decode_and_name_elements(void **state)
{
	static __u8 dgram[65536], hdr[300];
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct hm_ipfix_exp_cfg cfg = { 0 };
	struct hm_pc_obs in[40];
	struct hm_ipfix_var v = { .hdr = hdr, .hdr_len = sizeof(hdr) };
	socklen_t sl = sizeof(sin);
	struct fix *f = fix_new(NULL);
	struct hm_ipfix_exp *x;
	const struct hm_ipfix_ie_def *d;
	int rx = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned int i, msgs = 0;
	ssize_t n;
	size_t nd;

	assert_true(rx >= 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(rx, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(rx, (struct sockaddr *)&sin, &sl), 0);
	cfg.transport = PBT_EXP_UDP;
	cfg.family = 4;
	cfg.port = ntohs(sin.sin_port);
	cfg.domain = 77;
	cfg.refresh_s = 3600;
	memcpy(cfg.addr, &sin.sin_addr, 4);
	hm_ipfix_log = quiet_log;
	x = hm_ipfix_exp_new(PEN);
	assert_non_null(x);
	hm_ipfix_exp_set(x, &cfg);
	for (i = 0; i < 40; i++) {
		struct hm_pc_obs *o = &in[i];

		memset(o, 0, sizeof(*o));
		o->ts_ns = 1764620000123456789ULL + i;
		o->node_id = 1 + i % 5;
		o->pkt_id = 0x5000 + i;
		o->point = PBT_PT_EGRESS;
		o->ttl = 64 - i % 5;
		o->in_if = 2;
		o->out_if = 3;
		o->qdepth = 100 * i;
		o->obs_domain = 77;
		o->present = HM_PC_HAS_TTL | HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH;
		o->source = i % 4 == 3 ? HM_PC_SRC_DEX : HM_PC_SRC_PBT;
		o->key.family = i % 2 || o->source == HM_PC_SRC_DEX ? 6 : 4;
		o->key.proto = 17;
		o->key.sport = htons(1000 + i);
		o->key.dport = htons(5201);
		o->key.saddr[0] = 10;
		o->key.daddr[0] = 11;
		o->key.daddr[3] = i;
		if (o->source == HM_PC_SRC_DEX) {
			o->present |= HM_PC_HAS_LENGTH;
			o->length = 1280;
		} else if (i % 8 == 4) {
			o->tpl_id = 3;
			o->present |= HM_PC_HAS_TOS;
			o->tos = 4;
		}
		hm_ipfix_exp_add(x, o, o->source == HM_PC_SRC_DEX ? &v : NULL);
		if (i % 10 == 9)
			hm_ipfix_exp_flush(x);		/* several Messages */
	}
	hm_ipfix_exp_flush(x);
	while ((n = recv(rx, dgram, sizeof(dgram), MSG_DONTWAIT)) > 0) {
		assert_true(hmc_ipfix_message(f->x, f->e, dgram, n) >= 0);
		msgs++;
	}
	hm_ipfix_exp_free(x);
	close(rx);
	printf("# %u messages; postcards: expected 40, observed %u\n", msgs, f->g.n);
	assert_true(msgs >= 4);
	assert_int_equal(f->g.n, 40);
	for (i = 0; i < 40; i++)
		if (memcmp(&f->g.o[i], &in[i], sizeof(in[i])))
			fail_msg("postcard %u differs from the one exported", i);
	/* the type records named every element hopmark adds (RFC 5610) */
	d = hm_ipfix_ie_defs(&nd);
	for (i = 0; i < nd; i++) {
		const char *name = hmc_ipfix_ie_name(f->e, d[i].enterprise ? PEN : 0, d[i].id);

		if (!name || strcmp(name, d[i].name))
			fail_msg("element %u: expected name %s, learned %s", d[i].id, d[i].name,
				 name ? name : "none");
	}
	assert_null(hmc_ipfix_ie_name(f->e, PEN, 999));
	/* the Sequence Numbers count every Data Record, type records too */
	hmc_ipfix_end_sessions(f->x);
	printf("# seq_lost: expected 0, observed %llu; decode_error %llu\n",
	       (unsigned long long)ST(f)->seq_lost, (unsigned long long)ST(f)->decode_error);
	assert_int_equal(ST(f)->seq_lost, 0);
	assert_int_equal(ST(f)->seq_late, 0);
	assert_int_equal(ST(f)->decode_error, 0);
	assert_int_equal(ST(f)->postcards, 40);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipfix_template_and_data_decode_every_field),
		cmocka_unit_test(ipfix_data_before_template_is_skipped_and_counted),
		cmocka_unit_test(ipfix_withdrawn_template_stops_decoding),
		cmocka_unit_test(ipfix_template_changed_under_its_id_is_counted_and_used),
		cmocka_unit_test(ipfix_truncated_and_bad_headers_are_dropped),
		cmocka_unit_test(ipfix_huge_set_length_drops_the_whole_message),
		cmocka_unit_test(ipfix_zero_length_template_is_refused),
		cmocka_unit_test(ipfix_tcp_stream_is_cut_into_messages),
		cmocka_unit_test(ipfix_exporter_limit_idle_expiry_and_allowed_prefixes),
		cmocka_unit_test(ipfix_sequence_gap_counts_lost_records),
		cmocka_unit_test(ipfix_sequence_reordered_messages_are_not_lost),
		cmocka_unit_test(ipfix_records_without_ids_are_not_postcards),
		cmocka_unit_test(ipfix_template_limit_refuses_the_message),
		cmocka_unit_test(ipfix_exporter_messages_decode_and_name_elements),
	};

	return HM_RUN_TESTS(tests);
}
