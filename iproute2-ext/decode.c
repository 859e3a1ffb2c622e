// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * decode.c - "hopmark decode FILE.pcap [summary] [INT options]": the IOAM
 * traces in a capture, shown as `hopmark monitor` shows them (a table per
 * record and the per-hop summary, or with -j one JSON record per line and,
 * with "summary", the summary as one last JSON line); with the INT
 * domain's signalling given (int-dscp, int-port, report-port), also the
 * INT v2.1 stacks and Telemetry Reports v2.0 of IPv4 and IPv6 packets, a
 * table each or one JSON object per line ({"frame","rx_ns","packet",
 * "int"} or {"frame","rx_ns","packet","report"}, Documentation/int.rst).
 *
 * Link types: Ethernet (with any number of 802.1Q/802.1ad tags), Linux
 * cooked capture v1 (SLL) and v2 (SLL2), raw IP (LINKTYPE_RAW, whose IPv4
 * packets are skipped, and LINKTYPE_IPV6). Every IPv6
 * packet carrying an IOAM Pre-allocated Trace (RFC 9197 §4.4, RFC 9486)
 * becomes a record via hm_record_from_packet(). A packet with another IOAM
 * option (incremental trace, POT, E2E, Direct Export) is reported as such;
 * a malformed trace is reported with the reason. Those reports go to stdout
 * in text mode and to stderr with -j, so that stdout stays JSON records.
 */
#include <errno.h>
#include <string.h>
#include <pcap/pcap.h>

#include <stdlib.h>

#include "common/byteorder.h"
#include "common/linktype.h"
#include "hopmark_cli.h"
#include "int/int_print.h"
#include "ioam/option.h"

struct decode_stats {
	unsigned long frames, ipv6, traces, other_ioam, malformed;
	unsigned long ipv4, int_pkts, int_bad, reports, reports_bad;
};

/*
 * The INT domain's signalling (INT §5.7.2): none is assumed, as the spec
 * assigns neither a DSCP nor a port; without any, decode is IOAM only.
 */
struct decode_int {
	struct int_signal	sig;
	__u16			report_port;
	bool			on;
	char			*line;
	size_t			line_size;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark [ -j ] decode FILE.pcap [ summary ] [ int-dscp VALUE[/MASK] ]\n"
		"                      [ int-port PORT ] [ int-source-only WORDS ] [ report-port PORT ]\n"
		"       link types: Ethernet (802.1Q/802.1ad tags), Linux cooked (SLL, SLL2),\n"
		"       raw IP (IPv6 packets; IPv4 ones are skipped unless INT is asked for);\n"
		"       pcap and pcapng files.\n"
		"       Text: a table per trace, then the per-hop summary. -j: one JSON\n"
		"       record per line; with summary, then the summary as one last JSON\n"
		"       line {\"summary\":{...}}.\n"
		"       INT v2.1 over TCP/UDP, IPv4 and IPv6: int-dscp marks INT by DSCP\n"
		"       (NPT 0; MASK defaults to 0x3f, exact), int-port by UDP destination\n"
		"       port (NPT 1 and 2); int-source-only: words of source-only metadata\n"
		"       after the stack. report-port: UDP destination port of Telemetry\n"
		"       Reports v2.0. Each INT packet or report: a table, or with -j a JSON\n"
		"       line with an \"int\" or \"report\" object.\n");
}

static FILE *report_stream(void)
{
	return json ? stderr : stdout;
}

static const char *ioam_type_name(__u8 type)
{
	switch (type) {
	case HM_IOAM_OPT_PREALLOC_TRACE:
		return "Pre-allocated Trace";
	case HM_IOAM_OPT_INCREMENTAL_TRACE:
		return "Incremental Trace";
	case HM_IOAM_OPT_POT:
		return "Proof of Transit";
	case HM_IOAM_OPT_E2E:
		return "Edge-to-Edge";
	case HM_IOAM_OPT_DEX:
		return "Direct Export";
	default:
		return "unknown";
	}
}

static void hex(FILE *f, const __u8 *p, size_t n)
{
	while (n--)
		fprintf(f, "%02x", *p++);
}

/* The fields of a Direct Export option (hm_ioam_dex_decode(), RFC 9326 §3.2). */
static void report_dex(FILE *f, const __u8 *d, size_t len)
{
	struct hm_ioam_dex dex;
	int err;

	err = hm_ioam_dex_decode(d, len, &dex);
	if (err == -EMSGSIZE) {
		fprintf(f, " (option data of %zu bytes is shorter than the 8 of RFC 9326 Section 3.2)",
			len);
		return;
	}
	fprintf(f, ": namespace %u flags 0x%02x extension-flags 0x%02x trace-type 0x%06x",
		dex.ns_id, dex.flags, dex.ext_flags, dex.trace_type);
	if (dex.present & HM_IOAM_DEX_HAS_FLOW_ID)
		fprintf(f, " flow-id %u", dex.flow_id);
	if (dex.present & HM_IOAM_DEX_HAS_SEQ)
		fprintf(f, " sequence %u", dex.seq);
	if (dex.ext_flags & ~HM_IOAM_DEX_EXT_DEFINED)
		fprintf(f, "; extension-flags bits 0x%02x are unassigned in RFC 9326 (Flow ID is 0x80, Sequence Number 0x40)",
			dex.ext_flags & ~HM_IOAM_DEX_EXT_DEFINED);
	if (!err && dex.rest_len) {
		/* RFC 9326 §3.2: each unassigned flag set announces a field, ignored. */
		size_t ignored = 4 * (size_t)__builtin_popcount(dex.ext_flags & ~HM_IOAM_DEX_EXT_DEFINED);

		if (ignored) {
			fprintf(f, "; %zu bytes of the fields the unassigned flags announce, ignored: ",
				ignored);
			hex(f, d + dex.rest_off, ignored);
		}
		/* A known non-RFC encoder numbers the flags from the low bit. */
		if (!(dex.ext_flags & HM_IOAM_DEX_EXT_DEFINED) && (dex.ext_flags & 0x03) == 0x03 &&
		    ignored == 8)
			fprintf(f, " (read least-significant-bit first, 0x03 would give flow-id %u sequence %u)",
				hm_get_be32(d + dex.rest_off), hm_get_be32(d + dex.rest_off + 4));
		if (dex.rest_len > ignored) {
			fprintf(f, "; %zu trailing bytes not interpreted: ", dex.rest_len - ignored);
			hex(f, d + dex.rest_off + ignored, dex.rest_len - ignored);
		}
	} else if (err) {
		fprintf(f, "; option too short for its extension-flags (%zu of %zu bytes)", len,
			dex.need);
	}
}

/*
 * Report the IOAM options of a Hop-by-Hop header that are not a
 * Pre-allocated Trace. Return: how many were found.
 */
static unsigned int report_other_ioam(unsigned long frame, const __u8 *ip, size_t len)
{
	FILE *f = report_stream();
	unsigned int found = 0;
	size_t pos = 0, off;

	while (hm_ioam_next_option(ip, len, &pos, &off) > 0) {
		__u8 itype = ip[off + 3], olen = ip[off + 1];

		if (itype == HM_IOAM_OPT_PREALLOC_TRACE)
			continue;
		fprintf(f, "frame %lu: IOAM %s option (Option-Type %u), not a trace",
			frame, ioam_type_name(itype), itype);
		if (itype == HM_IOAM_OPT_DEX)
			report_dex(f, ip + off + 4, olen - 2);
		else if (olen >= 4)
			fprintf(f, ": namespace %u", hm_get_be16(ip + off + 4));
		fputc('\n', f);
		found++;
	}
	return found;
}

static void decode_packet(unsigned long frame, const __u8 *ip, size_t len, bool cut,
			  __u64 ts_ns, struct hm_summary *sum, bool json_summary,
			  struct decode_stats *st)
{
	struct hm_record r;
	int err;

	err = hm_record_from_packet(ip, len, ts_ns, &r);
	if (err == -ENOENT) {
		st->other_ioam += report_other_ioam(frame, ip, len);
		return;
	}
	if (err) {
		st->malformed++;
		fprintf(report_stream(), "frame %lu: IOAM trace not decoded: %s\n", frame,
			cut ? "frame cut short by the capture's snapshot length" :
			err == -EMSGSIZE ? "truncated (capture shorter than the option)" :
			err == -EINVAL ? "malformed or inconsistent (RFC 9197 Section 4.4)" :
			strerror(-err));
		return;
	}
	st->traces++;
	if (json) {
		hm_record_print_json(stdout, &r);
		if (json_summary)
			hm_summary_add(sum, &r);
		return;
	}
	printf("frame %lu: ", frame);
	hm_record_print_table(stdout, &r);
	putchar('\n');
	hm_summary_add(sum, &r);
}

/*
 * Print the JSON line in @di->line, growing it when the object did not fit.
 * Return: 0, or for a report the first error int_json_report() met.
 */
static int int_json_line(struct decode_int *di, unsigned long frame, __u64 ts_ns,
			  const struct int_pkt *p, const __u8 *report, size_t report_len)
{
	struct hm_jw w;
	int pass, err = 0;

	for (pass = 0; pass < 2; pass++) {
		hm_jw_init(&w, di->line, di->line_size);
		hm_jw_open(&w, '{');
		hm_jw_key(&w, "frame");
		hm_jw_u64(&w, frame);
		hm_jw_key(&w, "rx_ns");
		hm_jw_u64(&w, ts_ns);
		hm_jw_key(&w, "packet");
		int_json_packet(&w, p);
		if (report) {
			hm_jw_key(&w, "report");
			err = int_json_report(&w, report, report_len, &di->sig);
		} else {
			hm_jw_key(&w, "int");
			int_json_int(&w, p);
		}
		hm_jw_close(&w, '}');
		hm_jw_char(&w, '\n');
		if (hm_jw_len(&w) <= di->line_size)
			break;
		free(di->line);
		di->line_size = hm_jw_len(&w);
		di->line = malloc(di->line_size);
		if (!di->line) {
			di->line_size = 0;
			fprintf(stderr, "frame %lu: no memory for its JSON line\n", frame);
			return err;
		}
	}
	fwrite(di->line, 1, hm_jw_len(&w), stdout);
	return err;
}

/*
 * A Telemetry Report (UDP to report-port) or an INT packet. Return: true
 * when the packet was one of them (nothing else is to be said about it).
 */
static bool decode_int_packet(struct decode_int *di, unsigned long frame, const __u8 *ip,
			      size_t len, bool cut, __u64 ts_ns, struct decode_stats *st)
{
	struct int_signal none = {};
	struct int_pkt p;
	int err;

	if (di->report_port) {
		err = int_decode_ip(ip, len, &none, &p);
		if (err == -INT_E_NONE && p.proto == HM_IPPROTO_UDP && p.has_ports &&
		    p.dport == di->report_port && p.avail >= p.l4_off + 8) {
			size_t udp_len = hm_get_be16(ip + p.l4_off + 4), pl_len;
			const __u8 *pl = ip + p.l4_off + 8;

			/* The payload is what both UDP Length and the capture hold. */
			pl_len = p.avail - p.l4_off - 8;
			if (udp_len >= 8 && udp_len - 8 < pl_len)
				pl_len = udp_len - 8;
			st->reports++;
			if (json) {
				err = int_json_line(di, frame, ts_ns, &p, pl, pl_len);
			} else {
				printf("frame %lu: ", frame);
				err = int_print_report_table(stdout, pl, pl_len, &di->sig);
				putchar('\n');
			}
			if (err) {
				st->reports_bad++;
				fprintf(report_stream(), "frame %lu: Telemetry Report not fully decoded: %s%s\n",
					frame, int_rpt_strerror(err),
					cut ? " (frame cut short by the capture's snapshot length)" : "");
			}
			return true;
		}
	}
	if (!di->sig.udp_port && !di->sig.dscp_mask)
		return false;
	err = int_decode_ip(ip, len, &di->sig, &p);
	if (err == -INT_E_NONE || err == -INT_E_IP)
		return false;
	if (err) {
		st->int_bad++;
		fprintf(report_stream(), "frame %lu: INT not decoded: %s%s\n", frame,
			int_dec_strerror(err),
			cut && err == -INT_E_CAPTURE ? " (snapshot length)" : "");
		return true;
	}
	st->int_pkts++;
	if (json) {
		int_json_line(di, frame, ts_ns, &p, NULL, 0);
		return true;
	}
	printf("frame %lu: ", frame);
	int_print_table(stdout, &p);
	putchar('\n');
	return true;
}

/* "int-dscp VALUE[/MASK]": DSCP 0-63 under a mask, 0x3f by default. */
static void parse_int_dscp(const char *arg, struct int_signal *sig)
{
	char buf[32], *slash;
	__u64 v, m = 0x3f;

	if (strlen(arg) >= sizeof(buf))
		invarg("int-dscp must be VALUE[/MASK], DSCP values 0-63", arg);
	strcpy(buf, arg);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		if (get_u64_max(&m, slash + 1, 0x3f))
			invarg("int-dscp MASK must be a number 1-63 (0x3f: exact match)", arg);
	}
	if (get_u64_max(&v, buf, 0x3f))
		invarg("int-dscp VALUE must be a number 0-63", arg);
	if (!m)
		invarg("int-dscp MASK 0 would match every packet", arg);
	if (v & ~m)
		invarg("int-dscp VALUE has bits outside MASK", arg);
	sig->dscp = v;
	sig->dscp_mask = m;
}

/**
 * do_decode() - "hopmark decode FILE.pcap [summary]"
 * @argc: words after "decode"
 * @argv: the words
 *
 * Return: exit status: 0 when the file was read to its end (whatever it
 * held), %HM_EXIT_FAIL if it cannot be opened, its link type is not one
 * of those above, or it is cut short.
 */
int do_decode(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct decode_stats st = {};
	struct pcap_pkthdr *h;
	struct hm_summary *sum;
	const char *file;
	const __u8 *p;
	bool json_summary = false;
	struct decode_int di = {};
	pcap_t *pc;
	int dlt, rc, ret = HM_EXIT_OK;

	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (!strcmp(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	file = *argv;
	for (argc--, argv++; argc > 0; argc--, argv++) {
		/* Text output always ends with the summary. */
		if (matches(*argv, "summary")) {
			json_summary = json;
		} else if (!strcmp(*argv, "int-dscp")) {
			NEXT_ARG();
			parse_int_dscp(*argv, &di.sig);
			di.on = true;
		} else if (!strcmp(*argv, "int-port")) {
			NEXT_ARG();
			di.sig.udp_port = get_u32_arg(*argv, 0xffff, "int-port");
			if (!di.sig.udp_port)
				invarg("int-port must be a UDP port 1-65535", *argv);
			di.on = true;
		} else if (!strcmp(*argv, "int-source-only")) {
			NEXT_ARG();
			di.sig.src_only_words = get_u32_arg(*argv, INT_SHIM_LEN_MAX - 3,
							    "int-source-only (words)");
		} else if (!strcmp(*argv, "report-port")) {
			NEXT_ARG();
			di.report_port = get_u32_arg(*argv, 0xffff, "report-port");
			if (!di.report_port)
				invarg("report-port must be a UDP port 1-65535", *argv);
			di.on = true;
		} else {
			unknown_arg("decode", *argv);
		}
	}

	pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		fprintf(stderr, "Error: argument \"%s\" is wrong: %s\n", file, errbuf);
		return HM_EXIT_FAIL;
	}
	dlt = pcap_datalink(pc);
	if (!hm_linktype_supported(dlt)) {
		fprintf(stderr, "Error: argument \"%s\" is wrong: link type %s (%d) is not supported (Ethernet, Linux SLL/SLL2 or raw IP)\n",
			file, pcap_datalink_val_to_name(dlt) ?: "unknown", dlt);
		pcap_close(pc);
		return HM_EXIT_FAIL;
	}
	sum = hm_summary_new();
	if (!sum) {
		pcap_close(pc);
		return hm_errf(-ENOMEM, "decode");
	}

	while ((rc = pcap_next_ex(pc, &h, &p)) == 1) {
		__u64 ts_ns = (__u64)h->ts.tv_sec * 1000000000ULL + h->ts.tv_usec;
		bool cut = h->caplen < h->len;
		size_t off;
		int ver;

		st.frames++;
		if (hm_linktype_ip(dlt, p, h->caplen, &off, &ver))
			continue;
		if (ver == 4) {
			if (!di.on)
				continue;
			st.ipv4++;
			decode_int_packet(&di, st.frames, p + off, h->caplen - off, cut, ts_ns, &st);
			continue;
		}
		st.ipv6++;
		if (di.on && decode_int_packet(&di, st.frames, p + off, h->caplen - off, cut, ts_ns,
					       &st))
			continue;
		decode_packet(st.frames, p + off, h->caplen - off, cut, ts_ns, sum, json_summary,
			      &st);
	}
	if (rc == PCAP_ERROR) {
		ret = hm_errf(0, "reading %s after frame %lu: %s", file, st.frames,
			      pcap_geterr(pc));
	}
	if (!json) {
		printf("%lu frames, %lu IPv6, %lu IOAM traces, %lu other IOAM options, %lu not decoded\n",
			st.frames, st.ipv6, st.traces, st.other_ioam, st.malformed);
		if (di.on)
			printf("%lu IPv4, %lu INT packets, %lu INT not decoded, %lu Telemetry Reports, %lu reports not fully decoded\n",
				st.ipv4, st.int_pkts, st.int_bad, st.reports, st.reports_bad);
		if (st.traces)
			hm_summary_print(sum, stdout, 0);
	} else if (json_summary) {
		__u64 other_ioam = st.other_ioam;

		print_summary_json(sum, st.traces, st.malformed, &other_ioam);
	}
	hm_summary_free(sum);
	free(di.line);
	pcap_close(pc);
	return ret;
}
