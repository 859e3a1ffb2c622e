// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ioam6_rules.c - the IOAM wire rules of ioam/ioam6.h that the kernel
 * module, the CLI and the decoders share: which Trace-Type bits an
 * encapsulating node may send (RFC 9197 §4.4.1) and how many octets of
 * optional fields a DEX option's Extension-Flags announce (RFC 9326 §3.2).
 * Every value of each field is checked.
 */
#include "hm_test.h"

/*
 * RFC 9326 §3.2: each Extension-Flag set, assigned (bit 0 Flow ID, bit 1
 * Sequence Number) or not, announces one 4-octet optional field, so the
 * length an option must have does not depend on which flags the reader
 * knows. Every value of the octet is checked against a bit count.
 */
static void dex_ext_len_counts_every_flag_set(void **state)
{
	unsigned int ext, bit, set;

	for (ext = 0; ext < 256; ext++) {
		for (set = 0, bit = 0; bit < 8; bit++)
			set += (ext >> bit) & 1;
		if (hm_ioam6_dex_ext_len(ext) != 4 * set)
			fail_msg("Extension-Flags 0x%02x: expected %u octets, got %u",
				 ext, 4 * set, hm_ioam6_dex_ext_len(ext));
	}
	assert_int_equal(hm_ioam6_dex_ext_len(0), 0);
	assert_int_equal(hm_ioam6_dex_ext_len(HM_IOAM_DEX_EXT_FLOW_ID), 4);
	assert_int_equal(hm_ioam6_dex_ext_len(HM_IOAM_DEX_EXT_DEFINED), 8);
	/* Flow ID, Sequence Number and the unassigned bit 2. */
	assert_int_equal(hm_ioam6_dex_ext_len(0xe0), 12);
	/* Two unassigned flags (bits 6 and 7). */
	assert_int_equal(hm_ioam6_dex_ext_len(0x03), 8);
}

/*
 * RFC 9197 §4.4.1: an encapsulating node may set bits 0-11 and 22; the
 * undefined bits 12-21 and the reserved bit 23 it MUST send as 0. The CLI
 * and hopmark.ko refuse a Trace-Type outside HM_IOAM_TT_ENCAP_MASK.
 */
static void trace_type_encap_mask_is_bits_0_to_11_and_22(void **state)
{
	unsigned int n;

	assert_int_equal(HM_IOAM_TT_ENCAP_MASK, 0xfff002);
	for (n = 0; n < 24; n++)
		if (!!(HM_IOAM_TT_ENCAP_MASK & HM_IOAM_TT_BIT(n)) != (n <= 11 || n == 22))
			fail_msg("bit %u: expected %s", n,
				 n <= 11 || n == 22 ? "allowed" : "refused");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dex_ext_len_counts_every_flag_set),
		cmocka_unit_test(trace_type_encap_mask_is_bits_0_to_11_and_22),
	};

	return HM_RUN_TESTS(tests);
}
