// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_table.c - decoded INT packets and Telemetry Reports as readable
 * text (int_print.h), the form `hopmark decode` prints without -j: a
 * header line per packet or report and a table per stack, like the IOAM
 * table of lib/ioam/record_table.c. A table has a column per field its
 * bitmap carries and no other; all-ones values print as numbers (they are
 * what the node wrote).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <sys/socket.h>

#include "common/hm_time.h"
#include "int/int_drop.h"
#include "int/int_print.h"
#include "int/int_record.h"
#include "int/report_encode.h"

static void put_u(FILE *f, int width, __u64 v)
{
	fprintf(f, " %*" PRIu64, width, (uint64_t)v);
}

static void put_pair(FILE *f, int width, __u64 a, __u64 b)
{
	char s[48];

	snprintf(s, sizeof(s), "%" PRIu64 "/%" PRIu64, (uint64_t)a, (uint64_t)b);
	fprintf(f, " %*s", width, s);
}

static void print_ip(FILE *f, const struct int_pkt *p)
{
	char src[INET6_ADDRSTRLEN] = "?", dst[INET6_ADDRSTRLEN] = "?";
	int af = p->ip_ver == 4 ? AF_INET : AF_INET6;

	inet_ntop(af, p->saddr, src, sizeof(src));
	inet_ntop(af, p->daddr, dst, sizeof(dst));
	fprintf(f, "%s", src);
	if (p->has_ports)
		fprintf(f, ".%u", p->sport);
	fprintf(f, " > %s", dst);
	if (p->has_ports)
		fprintf(f, ".%u", p->dport);
	fprintf(f, " proto %u dscp 0x%02x", p->proto, p->dscp);
}

/*
 * The columns of a table: one per field of the bitmap (two for the 8+24-bit
 * fields), so that a row only has what the hops carry. Bit 15 is a column
 * only for INT-MD (the checksum complement); a report's queue ID and drop
 * reason are on its header line.
 */
static bool col_on(__u16 bitmap, bool report, __u16 bit)
{
	if (bit == INT_BM_CSUM_COMPL)
		return (bitmap & bit) && !report;
	return bitmap & bit;
}

static void hop_header(FILE *f, const char *first, __u16 b, bool report)
{
	fprintf(f, "  %4s", first);
	if (col_on(b, report, INT_BM_NODE_ID))
		fprintf(f, " %10s", "node");
	if (col_on(b, report, INT_BM_L1_PORTS))
		fprintf(f, " %11s", "l1-in/out");
	if (col_on(b, report, INT_BM_HOP_LAT))
		fprintf(f, " %10s", "latency");
	if (col_on(b, report, INT_BM_QUEUE))
		fprintf(f, " %5s %10s", "qid", "qocc");
	if (col_on(b, report, INT_BM_INGRESS_TS))
		fprintf(f, " %20s", "ingress-ts");
	if (col_on(b, report, INT_BM_EGRESS_TS))
		fprintf(f, " %20s", "egress-ts");
	if (col_on(b, report, INT_BM_L2_PORTS))
		fprintf(f, " %21s", "l2-in/out");
	if (col_on(b, report, INT_BM_TX_UTIL))
		fprintf(f, " %10s", "tx-util");
	if (col_on(b, report, INT_BM_BUFFER))
		fprintf(f, " %5s %10s", "bid", "bocc");
	if (col_on(b, report, INT_BM_CSUM_COMPL))
		fprintf(f, " %10s", "csum-c");
	fputc('\n', f);
}

static void hop_row(FILE *f, const char *label, const struct int_hop *h)
{
	__u16 b = h->bitmap;
	bool r = h->report;

	fprintf(f, "  %4s", label);
	if (col_on(b, r, INT_BM_NODE_ID))
		put_u(f, 10, h->node_id);
	if (col_on(b, r, INT_BM_L1_PORTS))
		put_pair(f, 11, h->l1_ingress, h->l1_egress);
	if (col_on(b, r, INT_BM_HOP_LAT))
		put_u(f, 10, h->hop_latency);
	if (col_on(b, r, INT_BM_QUEUE)) {
		put_u(f, 5, h->queue_id);
		put_u(f, 10, h->queue_occupancy);
	}
	if (col_on(b, r, INT_BM_INGRESS_TS))
		put_u(f, 20, h->ingress_ts);
	if (col_on(b, r, INT_BM_EGRESS_TS))
		put_u(f, 20, h->egress_ts);
	if (col_on(b, r, INT_BM_L2_PORTS))
		put_pair(f, 21, h->l2_ingress, h->l2_egress);
	if (col_on(b, r, INT_BM_TX_UTIL))
		put_u(f, 10, h->tx_util);
	if (col_on(b, r, INT_BM_BUFFER)) {
		put_u(f, 5, h->buffer_id);
		put_u(f, 10, h->buffer_occupancy);
	}
	if (col_on(b, r, INT_BM_CSUM_COMPL))
		put_u(f, 10, h->csum_complement);
	fputc('\n', f);
	if (b & INT_BM_RSVD_MASK) {
		unsigned int i;

		fprintf(f, "       reserved bits 9-14:");
		for (i = 0; i < 6; i++)
			if (b & (0x0040 >> i))
				fprintf(f, " bit%u=0x%08x", 9 + i, h->rsvd[i]);
		fputc('\n', f);
	}
	if (h->ds_words) {
		__u32 i;

		fprintf(f, "       ds metadata:");
		for (i = 0; i < h->ds_words * 4; i++)
			fprintf(f, "%s%02x", i % 4 ? "" : " ", h->ds[i]);
		fputc('\n', f);
	}
}

static void print_src_data(FILE *f, const struct int_pkt *p)
{
	__u32 i;

	if (!p->src_words)
		return;
	fprintf(f, "  %s data:", p->type == INT_TYPE_MX ? "source-inserted" : "source-only");
	for (i = 0; i < p->src_words * 4; i++)
		fprintf(f, "%s%02x", i % 4 ? "" : " ", p->src_data[i]);
	fputc('\n', f);
}

void int_print_table(FILE *f, const struct int_pkt *p)
{
	struct int_hop h;
	char label[12];
	__u32 i;

	print_ip(f, p);
	fprintf(f, "\n  INT-%s npt %u shim-len %u %s %u ver %u d %u", p->type == INT_TYPE_MD ?
		"MD" : "MX", p->npt, p->shim_len, p->npt == INT_NPT_UDP ? "orig-dport" :
		p->npt == INT_NPT_L4 ? "orig-proto" : "orig-dscp", p->npt_field, p->ver, p->d);
	if (p->type == INT_TYPE_MD)
		fprintf(f, " e %u m %u hop-ml %u rhc %u", p->e, p->m, p->hop_ml, p->rhc);
	fprintf(f, " bitmap 0x%04x ds-id %u ds-instruction 0x%04x ds-flags 0x%04x\n",
		p->bitmap, p->ds_id, p->ds_inst, p->ds_flags);
	if (p->type == INT_TYPE_MD) {
		hop_header(f, "hop", p->bitmap, false);
		for (i = 0; i < p->n_hops; i++) {
			if (int_decode_hop(p, i, &h))
				break;
			/* Numbered in path order; the wire's first is the last. */
			snprintf(label, sizeof(label), "%u", p->n_hops - i);
			hop_row(f, label, &h);
		}
	}
	print_src_data(f, p);
}

static int print_inner(FILE *f, const struct int_rpt *r, const struct int_signal *sig)
{
	struct int_pkt ip;
	int err;

	if (!int_rpt_decode_inner(r, sig, &ip, &err))
		return 0;
	fprintf(f, "  inner: ");
	if (!err) {
		int_print_table(f, &ip);
		return 0;
	}
	print_ip(f, &ip);
	if (err == -INT_E_NONE) {
		fputc('\n', f);
		return 0;
	}
	fprintf(f, "\n  inner INT not decoded: %s\n", int_dec_strerror(err));
	return err;
}

int int_print_report_table(FILE *f, const __u8 *pl, size_t len, const struct int_signal *sig)
{
	struct int_rpt_group_hdr g;
	struct int_rpt r;
	size_t off = INT_RPT_GROUP_LEN;
	int err, rc, ret = 0;

	err = int_rpt_group_decode(pl, len, &g);
	if (err == -INT_E_RPT_GROUP) {
		fprintf(f, "Telemetry Report not decoded: %s\n", int_rpt_strerror(err));
		return err;
	}
	fprintf(f, "Telemetry Report ver %u hw-id %u seq %u node-id %u\n", g.ver, g.hw_id, g.seq,
		g.node_id);
	if (err) {
		fprintf(f, "Telemetry Report not decoded: %s\n", int_rpt_strerror(err));
		return err;
	}
	while ((rc = int_rpt_next(pl, len, &off, &r)) > 0) {
		fprintf(f, " report rep-type %u in-type %u len %u%s md-len %u flags%s%s%s%s%s",
			r.rep_type, r.in_type, r.len, r.to_end ? " (to the end)" : "", r.md_len,
			r.flags & INT_RPT_F_D ? " D" : "", r.flags & INT_RPT_F_Q ? " Q" : "",
			r.flags & INT_RPT_F_F ? " F" : "", r.flags & INT_RPT_F_I ? " I" : "",
			r.flags & 0xf0 ? "" : " none");
		if (r.rep_type == INT_REP_INT) {
			fprintf(f, " rep-md-bits 0x%04x ds-id %u ds-md-bits 0x%04x ds-md-status 0x%04x",
				r.rep_md_bits, r.ds_id, r.ds_md_bits, r.ds_md_status);
			if (r.rep_md_bits & INT_RPT_MD_DROP)
				fprintf(f, " drop-queue-id %u drop-reason %u", r.md.drop_queue_id,
					r.md.drop_reason);
		}
		fprintf(f, " inner-len %zu\n", r.inner_len);
		if (r.rep_type == INT_REP_INT) {
			hop_header(f, "", r.rep_md_bits, true);
			hop_row(f, "md", &r.md);
		}
		err = print_inner(f, &r, sig);
		if (err && !ret)
			ret = err;
	}
	if (rc < 0) {
		fprintf(f, " report not decoded: %s\n", int_rpt_strerror(rc));
		if (!ret)
			ret = rc;
	}
	return ret;
}

/* See int_record.h. */
int int_print_record_table(FILE *f, const struct int_record *r, const struct int_signal *sig)
{
	char ts[HM_TIME_RFC3339_LEN];
	struct int_rpt_md md;
	struct int_hop h;
	struct int_pkt p;
	int flags, err;

	flags = int_rpt_record_flags(r);
	if (!int_record_kind_name(r->kind) || flags < 0 || (r->family != 4 && r->family != 6) ||
	    r->pkt_len > INT_REC_PKT_MAX || int_rpt_record_md(r, &md) ||
	    int_md_parse(md.md, md.len / 4, md.rep_md_bits, true, &h))
		return -EINVAL;
	fprintf(f, "INT %s record %s node-id %u ifindex %u flags%s%s%s%s%s rep-md-bits 0x%04x md-len %u",
		int_record_kind_name(r->kind), hm_time_rfc3339(r->ts_ns, ts, sizeof(ts)),
		r->node_id, r->ifindex,
		flags & INT_RPT_F_D ? " D" : "", flags & INT_RPT_F_Q ? " Q" : "",
		flags & INT_RPT_F_F ? " F" : "", flags & INT_RPT_F_I ? " I" : "",
		flags & 0xf0 ? "" : " none", md.rep_md_bits, md.len / 4);
	if (md.rep_md_bits & INT_RPT_MD_DROP)
		fprintf(f, " drop-queue-id %u drop-reason %u (%s)", h.drop_queue_id,
			h.drop_reason, int_drop_reason_name(h.drop_reason));
	fprintf(f, " orig-len %u pkt-len %u\n", r->orig_len, r->pkt_len);
	if (md.rep_md_bits & ~INT_RPT_MD_DROP) {
		hop_header(f, "", md.rep_md_bits, true);
		hop_row(f, "md", &h);
	}
	if (!r->pkt_len)
		return 0;
	err = int_decode_ip(r->pkt, r->pkt_len, sig, &p);
	if (err == -INT_E_IP) {
		fprintf(f, "  packet not decoded: %s\n", int_dec_strerror(err));
		return 0;
	}
	fprintf(f, "  packet: ");
	if (!err) {
		int_print_table(f, &p);
		return 0;
	}
	print_ip(f, &p);
	fputc('\n', f);
	if (err != -INT_E_NONE)
		fprintf(f, "  INT not decoded: %s\n", int_dec_strerror(err));
	return 0;
}
