// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_ipfix.c - libFuzzer harness over hopmark-collector's IPFIX decode
 * path (collector/ipfix_in.c: the checking walk, libfixbuf's decoding
 * with lib/ipfix's model, hm_ipfix_rec_to_obs()), then the stitcher and
 * the JSON line of every path it emits.
 *
 * Input (fuzz/fuzz_input.h layout, FUZZ_IPFIX_HDR_LEN octets, then the bytes):
 *   octet 0    bit 0: 0 = UDP datagrams, 1 = one TCP stream
 *   octet 1    TCP: octets per read (0: 1)
 *   then       UDP: datagrams, each a 2-octet big-endian length and its
 *              octets; TCP: the stream
 * One input is one Transport Session from its start: its session is
 * closed and the stitcher flushed at the end (the information model and
 * the stitcher are made once, which libfixbuf's model makes slow).
 * Harness checks (__builtin_trap): a path never has more hops than
 * HMC_PATH_MAX_HOPS; every JSON line parses with json-c and ends in '\n'.
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
	struct hmc_exporter *e;
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
		while (size - off >= 2) {
			size_t n = (size_t)data[off] << 8 | data[off + 1];

			off += 2;
			if (n > size - off)
				n = size - off;
			/* libfixbuf reads in place: a copy it may not write past */
			memcpy(buf, data + off, n);
			hmc_ipfix_message(x, e, buf, n);
			off += n;
		}
	}
	hmc_stitch_expire(s, 1000000);
	hmc_stitch_flush(s);
	hmc_ipfix_exporter_close(x, e);
	return 0;
}
