// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_ipfix.c - libFuzzer harness over hopmark-collector's IPFIX decode
 * path (collector/ipfix_in.c: the checking walk and lib/ipfix's own
 * decoder, lib/ipfix/ipfix_decode.c), then the stitcher and the JSON line
 * of every path it emits; and, on every UDP datagram, the decoder itself:
 * each template record it accepts compiled, each record of a Data Set
 * decoded by the fast path and by the general path.
 *
 * Input (fuzz/fuzz_input.h layout, FUZZ_IPFIX_HDR_LEN octets, then the bytes):
 *   octet 0    bit 0: 0 = UDP datagrams, 1 = one TCP stream
 *   octet 1    TCP: octets per read (0: 1)
 *   then       UDP: datagrams, each a 2-octet big-endian length and its
 *              octets; TCP: the stream
 * One input is one Transport Session from its start: its session is
 * closed and the stitcher flushed at the end (the input and the stitcher
 * are made once).
 * Harness checks (__builtin_trap): a path never has more hops than
 * HMC_PATH_MAX_HOPS; every JSON line parses with json-c and ends in '\n';
 * the decoder's two paths give the same result and the same postcard;
 * hm_ipfix_rec_next() never gives a record longer than what is left of its
 * Set. The decoder reads each datagram from a copy of exactly its size,
 * so that AddressSanitizer sees a read past it.
 */
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <json-c/json.h>

#include "fuzz_input.h"
#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "collector/out_json.h"
#include "collector/stitch.h"
#include "ipfix/ipfix_decode.h"

#define CHECK_TPLS	16	/* templates the direct check keeps (Template ID % 16) */

/* The decoder directly, on one message: its own template table. */
static void check_codec(const __u8 *msg, size_t len, struct hm_ipfix_tpl *tpl)
{
	size_t off, mlen;

	if (len < HM_IPFIX_MSG_HDR_LEN)
		return;
	mlen = hm_ipfix_rd16(msg + 2);
	if (mlen > len || mlen < HM_IPFIX_MSG_HDR_LEN)
		return;
	for (off = HM_IPFIX_MSG_HDR_LEN; mlen - off >= HM_IPFIX_SET_HDR_LEN;) {
		__u16 set_id = hm_ipfix_rd16(msg + off), slen = hm_ipfix_rd16(msg + off + 2);
		const __u8 *p = msg + off + HM_IPFIX_SET_HDR_LEN;
		size_t o = 0, n;

		if (slen < HM_IPFIX_SET_HDR_LEN || slen > mlen - off)
			return;
		n = slen - HM_IPFIX_SET_HDR_LEN;
		if (set_id == HM_IPFIX_SET_TEMPLATE || set_id == HM_IPFIX_SET_OPTIONS) {
			struct hm_ipfix_tpl_info ti;

			while (n - o >= 4 && !hm_ipfix_tpl_scan(p + o, n - o, set_id, &ti)) {
				if (ti.len > n - o)
					__builtin_trap();
				if (ti.nr_fields) {
					struct hm_ipfix_tpl *t = &tpl[ti.tid % CHECK_TPLS];

					hm_ipfix_tpl_release(t);
					if (hm_ipfix_tpl_compile(p + o, &ti, set_id, 0x7e57, t))
						__builtin_trap();
				}
				o += ti.len;
			}
		} else if (set_id >= HM_IPFIX_MIN_DATA_SET &&
			   tpl[set_id % CHECK_TPLS].tid == set_id) {
			const struct hm_ipfix_tpl *t = &tpl[set_id % CHECK_TPLS];
			__u32 domain = hm_ipfix_rd32(msg + 12);
			long rl;

			while ((rl = hm_ipfix_rec_next(t, p + o, n - o)) > 0) {
				struct hm_pc_obs a, b;
				struct hm_ipfix_ie_type ty;

				if ((size_t)rl > n - o)
					__builtin_trap();
				if (t->schema == HM_IPFIX_SCHEMA_IE_TYPE) {
					hm_ipfix_decode_ie_type(t, p + o, &ty);
					if (ty.name.len && (ty.name.buf < p + o ||
							    ty.name.buf + ty.name.len > p + o + rl))
						__builtin_trap();
				} else {
					int ra = hm_ipfix_decode_obs(t, p + o, domain, &a);
					int rb = hm_ipfix_decode_obs_general(t, p + o, domain, &b);

					if (ra != rb || (!ra && memcmp(&a, &b, sizeof(a))))
						__builtin_trap();
				}
				o += rl;
			}
		}
		off += slen;
	}
}

static void check_path(void *arg, const struct hmc_path *p)
{
	static char line[HMC_JSON_LINE_MAX];
	struct json_object *o;
	size_t n;

	if (p->nr_hops > HMC_PATH_MAX_HOPS)
		__builtin_trap();
	n = hmc_path_json(p, line, sizeof(line) - 1);
	if (n >= sizeof(line) - 1 || line[n - 1] != '\n')
		__builtin_trap();
	line[n] = 0;
	o = json_tokener_parse(line);
	if (!o)
		__builtin_trap();
	json_object_put(o);
}

static void to_stitch(void *arg, const struct hm_pc_obs *o)
{
	hmc_stitch_add(arg, o, 1000);
}

int LLVMFuzzerTestOneInput(const __u8 *data, size_t size)
{
	static __u8 buf[65536 + 4096];
	struct hmc_stitch_cfg scfg = { .window_ns = 1000, .max_packets = 64 };
	struct hmc_ipfix_cfg icfg = { .max_templates = 16 };
	struct sockaddr_storage peer;
	struct sockaddr_in *s4 = (void *)&peer;
	static struct hmc_stitch *s;
	static struct hmc_ipfix *x;
	struct hm_ipfix_tpl tpl[CHECK_TPLS];
	struct hmc_exporter *e;
	unsigned int i;
	size_t off = FUZZ_IPFIX_HDR_LEN;

	if (size < FUZZ_IPFIX_HDR_LEN)
		return 0;
	hmc_log_quiet(1);
	memset(&peer, 0, sizeof(peer));
	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(0x7f000001);
	s4->sin_port = htons(4739);
	if (!s)
		s = hmc_stitch_new(&scfg, check_path, NULL);
	if (!x)
		x = hmc_ipfix_new(&icfg, to_stitch, s);
	if (!s || !x)
		__builtin_trap();
	e = hmc_ipfix_exporter(x, &peer, data[0] & 1, 1);
	if (!e)
		__builtin_trap();
	if (data[0] & 1) {
		size_t chunk = data[1] ? data[1] : 1, have = 0;

		while (off < size) {
			size_t n = size - off < chunk ? size - off : chunk;
			long used;

			if (have + n > sizeof(buf))
				break;
			memcpy(buf + have, data + off, n);
			have += n;
			off += n;
			used = hmc_ipfix_stream(x, e, buf, have);
			if (used < 0)
				break;
			memmove(buf, buf + used, have - used);
			have -= used;
		}
	} else {
		memset(tpl, 0, sizeof(tpl));
		while (size - off >= 2) {
			size_t n = (size_t)data[off] << 8 | data[off + 1];

			off += 2;
			if (n > size - off)
				n = size - off;
			memcpy(buf, data + off, n);
			hmc_ipfix_message(x, e, buf, n);
			if (n) {
				__u8 *exact = malloc(n);

				if (!exact)
					__builtin_trap();
				memcpy(exact, data + off, n);
				check_codec(exact, n, tpl);
				free(exact);
			}
			off += n;
		}
		for (i = 0; i < CHECK_TPLS; i++)
			hm_ipfix_tpl_release(&tpl[i]);
	}
	hmc_stitch_expire(s, 1000000);
	hmc_stitch_flush(s);
	hmc_ipfix_exporter_close(x, e);
	return 0;
}
