// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_budget.c - the budget model (lib/budget/budget.h): seed 000's
 * formulas at their edges (a budget below the fixed bytes, exactly at it,
 * a constant-cost row), INT v2.1 §5.3's own MTU example, the Pre-allocated
 * Trace's Hop-by-Hop header against the layout hopmark_encap writes for
 * every data area size, and the MTU fit of INT-MD and IOAM traces at and
 * around their boundaries, with the bad arguments each refuses.
 */
#include <errno.h>
#include <stdio.h>

#include "hm_test.h"
#include "budget/budget.h"
#include "int/int.h"
#include "ioam/ioam6.h"

static void budget_max_hops_edges(void **state)
{
	/* Panel A: (B - f) div p; -1 below f; 0 at f; no limit at p = 0. */
	assert_int_equal(hm_budget_max_hops(12, 8, 1500), 186);
	assert_int_equal(hm_budget_max_hops(12, 16, 1500), 93);
	assert_int_equal(hm_budget_max_hops(12, 124, 900), 7);
	assert_int_equal(hm_budget_max_hops(12, 8, 11), -1);
	assert_int_equal(hm_budget_max_hops(12, 8, 12), 0);
	assert_int_equal(hm_budget_max_hops(12, 8, 19), 0);
	assert_int_equal(hm_budget_max_hops(12, 8, 20), 1);
	assert_int_equal(hm_budget_max_hops(8, 0, 1500), HM_BUDGET_HOPS_UNLIMITED);
	assert_int_equal(hm_budget_max_hops(8, 0, 7), -1);
	assert_int_equal(hm_budget_bytes(12, 124, 16), 1996);
}

static void budget_overhead_and_rate(void **state)
{
	__u64 pps = hm_budget_pps(12.8e12, 800);

	/* 268 / 64 = 4.1875 exactly: 418.75 %. */
	assert_true(hm_budget_overhead_pct(268, 64) == 418.75);
	assert_true(hm_budget_overhead_pct(268, 0) == 0);
	assert_int_equal(pps, 2000000000ULL);
	assert_true(hm_budget_export_gbps(pps, 1.0, 16) == 256.0);
	assert_int_equal(hm_budget_pps(100e9, 64), 195312500ULL);
	assert_int_equal(hm_budget_pps(1e9, 0), 0);
}

static void budget_int_md_bytes_is_section_5_3(void **state)
{
	/* §5.3: Hop ML 2 over 8 hops, 64 + 16 = 80 B. */
	assert_int_equal(hm_budget_int_md_bytes(INT_FIXED_LEN, 2, 8, 0), 80);
	assert_int_equal(hm_budget_int_md_bytes(INT_HDR_LEN, 4, 16, 0), 268);
	assert_int_equal(hm_budget_int_md_bytes(INT_FIXED_LEN, 2, 8, 1), 80);
	/* NPT=2: the UDP header inserted before the shim. */
	assert_int_equal(hm_budget_int_md_bytes(INT_FIXED_LEN, 2, 8, 2), 88);
}

static void budget_prealloc_matches_the_encap_layout_for_every_size(void **state)
{
	__u32 size;

	/*
	 * hopmark_encap (bpf/hopmark_encap.bpf.c) writes 8 bytes of header
	 * and PadN, 4 of option header, 8 of trace header, the area, and a
	 * 4-byte PadN when the area is 4 mod 8: 16 + size (+ 4).
	 */
	for (size = 4; size <= HM_IOAM_TRACE_DATA_MAX; size += 4) {
		__u32 want = 16 + size + ((size & 7) ? 4 : 0);

		if (hm_budget_ioam_prealloc_bytes(size) != want)
			fail_msg("area %u: expected %u bytes, observed %u", size, want,
				 hm_budget_ioam_prealloc_bytes(size));
	}
	/* selftests/lib.sh's HM_ENCAP_GROWTH: 240-byte area, 256 bytes. */
	assert_int_equal(hm_budget_ioam_prealloc_bytes(240), 256);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(8, 1500), 30);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(20, 1500), 12);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(20, 15), -1);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(20, 16), 0);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(20, 39), 0);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(20, 40), 1);
	assert_int_equal(hm_budget_ioam_prealloc_max_hops(0, 1500), -1);
}

static void budget_int_md_fit_at_the_boundary(void **state)
{
	struct hm_budget_fit fit;
	/* 0xfc00: node ID, L1 ports, hop latency, queue, 2 timestamps: 8 words. */
	const __u16 bm = 0xfc00;
	__u32 mtu;

	assert_int_equal(int_bitmap_words(bm), 8);
	/* 28 (IPv4 + UDP) + 16 + 32 x 10 = 364. */
	assert_int_equal(hm_budget_int_md_fit(bm, 10, 0, 28, 364, &fit), 1);
	assert_int_equal(fit.bytes, 336);
	assert_true(fit.fits);
	assert_int_equal(fit.fit_hops, 10);
	assert_int_equal(hm_budget_int_md_fit(bm, 10, 0, 28, 363, &fit), 0);
	assert_false(fit.fits);
	assert_int_equal(fit.fit_hops, 9);
	assert_int_equal(fit.mtu, 363);
	assert_int_equal(fit.hops, 10);
	/* NPT=2 takes 8 more. */
	assert_int_equal(hm_budget_int_md_fit(bm, 10, 2, 28, 371, &fit), 0);
	assert_int_equal(fit.bytes, 344);
	assert_int_equal(fit.fit_hops, 9);
	/* 255 hops at 1500: (1500 - 28 - 16) / 32 = 45 hops fit. */
	assert_int_equal(hm_budget_int_md_fit(bm, 255, 0, 28, 1500, &fit), 0);
	assert_int_equal(fit.fit_hops, 45);
	/* Not even the fixed headers: -1. */
	assert_int_equal(hm_budget_int_md_fit(bm, 1, 0, 60, 68, &fit), 0);
	assert_int_equal(fit.fit_hops, -1);
	/* Every MTU from 68 to 2000: fits exactly when carrier + bytes <= mtu. */
	for (mtu = 68; mtu <= 2000; mtu++) {
		int r = hm_budget_int_md_fit(0x9000, 40, 0, 40, mtu, &fit);

		if (r != (40 + 16 + 8 * 40 <= mtu) || fit.fit_hops !=
		    (mtu < 56 ? -1 : (long)(mtu - 56) / 8))
			fail_msg("mtu %u: fit %d fit_hops %ld", mtu, r, fit.fit_hops);
	}
	assert_int_equal(hm_budget_int_md_fit(bm, 10, 3, 28, 1500, &fit), -EINVAL);
	assert_int_equal(hm_budget_int_md_fit(bm, 10, 0, 28, 67, &fit), -EINVAL);
}

static void budget_ioam_prealloc_fit_at_the_boundary(void **state)
{
	struct hm_budget_fit fit;

	/* 244-byte area: 264-byte header, + 40 for IPv6 = 304. */
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 244, 304, &fit), 1);
	assert_int_equal(fit.bytes, 264);
	assert_int_equal(fit.carrier, 40);
	assert_int_equal(fit.hops, 15);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 244, 303, &fit), 0);
	assert_int_equal(fit.fit_hops, 15);	/* a 240-byte area still fits */
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 244, 295, &fit), 0);
	assert_int_equal(fit.fit_hops, 14);
	/* One node: 32-byte header, 72 with IPv6. */
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 16, 72, &fit), 1);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 16, 71, &fit), 0);
	assert_int_equal(fit.fit_hops, 0);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 2, 1500, &fit), -EINVAL);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 248, 1500, &fit), -EINVAL);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0, 244, 1500, &fit), -EINVAL);
	assert_int_equal(hm_budget_ioam_prealloc_fit(0xf00000, 244, 67, &fit), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(budget_max_hops_edges),
		cmocka_unit_test(budget_overhead_and_rate),
		cmocka_unit_test(budget_int_md_bytes_is_section_5_3),
		cmocka_unit_test(budget_prealloc_matches_the_encap_layout_for_every_size),
		cmocka_unit_test(budget_int_md_fit_at_the_boundary),
		cmocka_unit_test(budget_ioam_prealloc_fit_at_the_boundary),
	};

	return HM_RUN_TESTS(tests);
}
