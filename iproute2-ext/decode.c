// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * decode.c - "hopmark decode FILE.pcap [summary]": the IOAM traces in a
 * capture, shown as `hopmark monitor` shows them (a table per record and the
 * per-hop summary, or with -j one JSON record per line and, with "summary",
 * the summary as one last JSON line).
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

#include "common/linktype.h"
#include "hopmark_cli.h"
#include "ioam/option.h"

struct decode_stats {
	unsigned long frames, ipv6, traces, other_ioam, malformed;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark [ -j ] decode FILE.pcap [ summary ]\n"
		"       link types: Ethernet (802.1Q/802.1ad tags), Linux cooked (SLL, SLL2),\n"
		"       raw IP (IPv6 packets; IPv4 ones are skipped); pcap and pcapng files.\n"
		"       Text: a table per trace, then the per-hop summary. -j: one JSON\n"
		"       record per line; with summary, then the summary as one last JSON\n"
		"       line {\"summary\":{...}}.\n");
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
		if (matches(*argv, "summary"))
			json_summary = json;
		else
			unknown_arg("decode", *argv);
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
		size_t off;

		st.frames++;
		if (hm_linktype_ipv6(dlt, p, h->caplen, &off))
			continue;
		st.ipv6++;
		decode_packet(st.frames, p + off, h->caplen - off, h->caplen < h->len, ts_ns,
			      sum, json_summary, &st);
	}
	if (rc == PCAP_ERROR) {
		ret = hm_errf(0, "reading %s after frame %lu: %s", file, st.frames,
			      pcap_geterr(pc));
	}
	if (!json) {
		printf("%lu frames, %lu IPv6, %lu IOAM traces, %lu other IOAM options, %lu not decoded\n",
			st.frames, st.ipv6, st.traces, st.other_ioam, st.malformed);
		if (st.traces)
			hm_summary_print(sum, stdout, 0);
	} else if (json_summary) {
		__u64 other_ioam = st.other_ioam;

		print_summary_json(sum, st.traces, st.malformed, &other_ioam);
	}
	hm_summary_free(sum);
	pcap_close(pc);
	return ret;
}
