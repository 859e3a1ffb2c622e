// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ioam_option.c - the IOAM options that are not a trace
 * (lib/ioam/option.c): hm_ioam_dex_decode() on every Extension-Flags value
 * at every option data length from 0 to 24 octets (RFC 9326 §3.2), and
 * hm_ioam_next_option() over Hop-by-Hop headers with Pad1, PadN, several
 * IOAM options, options cut by the header's or the capture's end.
 */
#include <errno.h>

#include "hm_test.h"
#include "ioam/option.h"

/*
 * A Direct Export option's data, 24 octets (RFC 9326 §3.2):
 *   00 7b     IOAM-Namespace 123
 *   5a        Flags
 *   EE        Extension-Flags (set per case)
 *   c0 00 01  IOAM-Trace-Type 0xc00001
 *   00        Reserved
 *   11 22 33 44   first optional field
 *   55 66 77 88   second optional field
 *   99 aa bb cc dd ee ff 00   more octets
 */
static void dex_data(__u8 *d, __u8 ext)
{
	static const __u8 v[24] = {
		0x00, 0x7b, 0x5a, 0x00, 0xc0, 0x00, 0x01, 0x00,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,
	};

	memcpy(d, v, sizeof(v));
	d[3] = ext;
}

static void dex_decode_every_extension_flags_value_at_every_length(void **state)
{
	struct hm_ioam_dex x;
	unsigned int ext, len;
	__u8 d[24];

	for (ext = 0; ext < 256; ext++) {
		/*
		 * What RFC 9326 §3.2 says, counted here without the library:
		 * every Extension-Flag set announces a 4-octet field, Flow ID
		 * (bit 0) and Sequence Number (bit 1) first; a node ignores
		 * the fields of unassigned flags but they are there.
		 */
		unsigned int flow = !!(ext & 0x80), seq = !!(ext & 0x40);
		size_t need = 8 + 4 * __builtin_popcount(ext);

		dex_data(d, ext);
		for (len = 0; len <= sizeof(d); len++) {
			int ret = hm_ioam_dex_decode(d, len, &x);
			int exp = len < 8 ? -EMSGSIZE : len < need ? -EINVAL : 0;
			unsigned int exp_flow = flow && len >= 12;
			unsigned int exp_seq = seq && len >= 8 + 4 * flow + 4;
			size_t exp_rest = 8 + 4 * exp_flow + 4 * exp_seq;

			if (ret != exp)
				fail_msg("ext 0x%02x, %u octets: expected %d, observed %d", ext, len,
					 exp, ret);
			if (len < 8) {
				if (x.ns_id || x.present || x.need != 8)
					fail_msg("ext 0x%02x, %u octets: expected nothing decoded",
						 ext, len);
				continue;
			}
			if (x.ns_id != 123 || x.flags != 0x5a || x.ext_flags != ext ||
			    x.trace_type != 0xc00001 || x.need != need)
				fail_msg("ext 0x%02x, %u octets: header: expected ns 123 flags 0x5a tt 0xc00001 need %zu, observed ns %u flags 0x%02x tt 0x%06x need %zu",
					 ext, len, need, x.ns_id, x.flags, x.trace_type, x.need);
			if (!!(x.present & HM_IOAM_DEX_HAS_FLOW_ID) != exp_flow ||
			    !!(x.present & HM_IOAM_DEX_HAS_SEQ) != exp_seq)
				fail_msg("ext 0x%02x, %u octets: expected flow-id %d seq %d, observed present 0x%x",
					 ext, len, exp_flow, exp_seq, x.present);
			if (exp_flow && x.flow_id != 0x11223344)
				fail_msg("ext 0x%02x: expected flow-id 0x11223344, observed 0x%08x",
					 ext, x.flow_id);
			/* The Sequence Number follows the Flow ID only if that is present. */
			if (exp_seq && x.seq != (flow ? 0x55667788U : 0x11223344U))
				fail_msg("ext 0x%02x: observed sequence 0x%08x", ext, x.seq);
			if (x.rest_off != exp_rest || x.rest_len != len - exp_rest)
				fail_msg("ext 0x%02x, %u octets: expected rest %zu+%zu, observed %zu+%zu",
					 ext, len, exp_rest, len - exp_rest, x.rest_off, x.rest_len);
		}
	}
}

/* IPv6 header (40 octets, Next Header Hop-by-Hop) then a Hop-by-Hop header of @hbh_len. */
static size_t pkt_with_hbh(__u8 *p, const __u8 *tlvs, size_t tlv_len, size_t hbh_len)
{
	memset(p, 0, 40 + hbh_len);
	p[0] = 0x60;
	p[6] = HM_NEXTHDR_HOP;
	p[40] = 17;				/* Next Header: UDP */
	p[41] = hbh_len / 8 - 1;		/* Hdr Ext Len, 8-octet units beyond the first */
	memcpy(p + 42, tlvs, tlv_len);
	return 40 + hbh_len;
}

/* Every IOAM option the walk finds: offsets in @offs, count returned. */
static unsigned int walk(const __u8 *p, size_t len, size_t *offs, unsigned int max)
{
	size_t pos = 0, off;
	unsigned int n = 0;

	while (n < max && hm_ioam_next_option(p, len, &pos, &off) > 0) {
		if (off + 2 + p[off + 1] > len)
			fail_msg("option at %zu runs past the %zu octets", off, len);
		offs[n++] = off;
	}
	return n;
}

static void next_option_finds_each_ioam_option_past_padding(void **state)
{
	/*
	 * 00                Pad1
	 * 01 01 00          PadN of 1
	 * 31 06 00 04 ...   IOAM DEX, 4 octets of its data
	 * 05 02 00 00       Router Alert (RFC 2711), stepped over
	 * 31 02 00 03       IOAM E2E with no data
	 * 31 01 00          IOAM option too short for an Option-Type: stepped over
	 * 31 04 00 00 ..    IOAM pre-allocated trace head (reported: the caller decides)
	 */
	static const __u8 tlvs[] = {
		0x00, 0x01, 0x01, 0x00,
		0x31, 0x06, 0x00, 0x04, 0x00, 0x7b, 0x00, 0x00,
		0x05, 0x02, 0x00, 0x00,
		0x31, 0x02, 0x00, 0x03,
		0x31, 0x01, 0x00,
		0x31, 0x04, 0x00, 0x00, 0x00, 0x7b,
	};
	__u8 p[40 + 32];
	size_t offs[8], len;
	unsigned int n;

	len = pkt_with_hbh(p, tlvs, sizeof(tlvs), 32);
	n = walk(p, len, offs, 8);
	assert_int_equal(n, 3);
	assert_int_equal(offs[0], 42 + 4);
	assert_int_equal(offs[1], 42 + 16);
	assert_int_equal(offs[2], 42 + 23);
	assert_int_equal(p[offs[0] + 3], HM_IOAM_OPT_DEX);
	assert_int_equal(p[offs[1] + 3], HM_IOAM_OPT_E2E);
	assert_int_equal(p[offs[2] + 3], HM_IOAM_OPT_PREALLOC_TRACE);
}

static void next_option_stops_at_the_header_or_capture_end(void **state)
{
	/* 31 0a 00 04 + 10 octets: runs past a 16-octet header (TLVs end at 56). */
	static const __u8 tlvs[] = {
		0x01, 0x00, 0x31, 0x0a, 0x00, 0x04, 0, 0x7b, 0, 0, 0x80, 0, 0, 0,
	};
	static const __u8 ok[] = { 0x01, 0x00, 0x31, 0x02, 0x00, 0x04 };
	__u8 p[40 + 24];
	size_t offs[4], len, cut;

	len = pkt_with_hbh(p, tlvs, sizeof(tlvs), 16);
	p[41] = 0;	/* 8 octets: the option runs past the header's end */
	assert_int_equal(walk(p, len, offs, 4), 0);
	p[41] = 1;	/* 16 octets: it fits */
	assert_int_equal(walk(p, len, offs, 4), 1);
	/* Cut by the capture: found only when whole. */
	for (cut = 0; cut <= len; cut++)
		assert_int_equal(walk(p, cut, offs, 4), cut >= 42 + 2 + 12 ? 1 : 0);

	/* No Hop-by-Hop header, or one shorter than 8 octets captured. */
	len = pkt_with_hbh(p, ok, sizeof(ok), 8);
	assert_int_equal(walk(p, len, offs, 4), 1);
	assert_int_equal(walk(p, 47, offs, 4), 0);
	p[6] = 17;
	assert_int_equal(walk(p, len, offs, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dex_decode_every_extension_flags_value_at_every_length),
		cmocka_unit_test(next_option_finds_each_ioam_option_past_padding),
		cmocka_unit_test(next_option_stops_at_the_header_or_capture_end),
	};

	return HM_RUN_TESTS(tests);
}
