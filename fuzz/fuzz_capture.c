// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_capture.c - libFuzzer harness over what `hopmark decode` does with
 * a captured frame before and besides the trace: hm_linktype_ipv6() (the
 * IPv6 header behind the link header, lib/common/linktype.c), then
 * hm_record_from_packet(), and for a packet without a pre-allocated trace
 * hm_ioam_next_option() over its Hop-by-Hop header and
 * hm_ioam_dex_decode() on each Direct Export option (lib/ioam/option.c).
 *
 * Octet 0 chooses (mode % 7):
 *   0-5  the rest is a frame of link type links[mode] (the last one is
 *        a type hopmark decode refuses)
 *   6    the rest is the data of a Direct Export option, after its IOAM
 *        Option-Type octet
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/dlt.h>

#include "common/linktype.h"
#include "hopmark.h"
#include "fuzz_input.h"
#include "ioam/option.h"

static const int links[] = {
	DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_RAW, DLT_IPV6, DLT_IEEE802_11,
};

static volatile __u8 sink;

static void dex(const __u8 *d, size_t len)
{
	struct hm_ioam_dex x;
	int ret = hm_ioam_dex_decode(d, len, &x);
	size_t i;

	if (ret == -EMSGSIZE) {
		if (len >= HM_IOAM_DEX_HDR_LEN)
			__builtin_trap();
		return;
	}
	/* What is left over lies inside the option data, right after what was read. */
	if (x.rest_off > len || x.rest_off + x.rest_len != len ||
	    x.need != HM_IOAM_DEX_HDR_LEN + 4 * (size_t)__builtin_popcount(x.ext_flags) ||
	    (!ret && len < x.need) ||
	    (ret && (ret != -EINVAL || len >= x.need)))
		__builtin_trap();
	/* Touch it as decode prints it, so that ASan checks the bounds. */
	for (i = 0; i < x.rest_len; i++)
		sink ^= d[x.rest_off + i];
}

static void packet(const __u8 *ip, size_t len)
{
	static struct hm_record r;
	size_t pos = 0, off, last = 0;
	int n = 0;

	if (hm_record_from_packet(ip, len, 1700000000000000000ULL, &r) != -ENOENT)
		return;
	while (hm_ioam_next_option(ip, len, &pos, &off) > 0) {
		__u8 olen = ip[off + 1];

		/* Options come in order, whole, inside the capture, each once. */
		if (off < last || off + 2 + olen > len || olen < 2 || ip[off] != HM_IPV6_TLV_IOAM ||
		    pos != off + 2 + olen || ++n > 2048 / 4)
			__builtin_trap();
		last = pos;
		if (ip[off + 3] == HM_IOAM_OPT_DEX)
			dex(ip + off + 4, olen - 2);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, off;
	__u8 *copy;
	int dlt, ret;

	copy = fuzz_tail_copy(data, size, &len);
	if (!copy)
		return 0;

	if (data[0] % 7 == 6) {
		dex(copy, len);
		free(copy);
		return 0;
	}
	dlt = links[data[0] % 7];
	ret = hm_linktype_ipv6(dlt, copy, len, &off);
	if (hm_linktype_supported(dlt) == (ret == -EPROTONOSUPPORT))
		__builtin_trap();
	if (!ret) {
		if (off + HM_IPV6_HDR_LEN > len || (copy[off] >> 4) != 6)
			__builtin_trap();
		packet(copy + off, len - off);
	}
	free(copy);
	return 0;
}
