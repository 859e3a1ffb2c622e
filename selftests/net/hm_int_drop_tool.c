// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_int_drop_tool.c - what selftests/net/test_int_drop.sh needs of the
 * INT drop reports that `hopmark int` does not do: read the records of
 * int_events and print them one JSON object per line. (Attaching the
 * roles, the domain and the counters are `hopmark int`'s: drops on/off,
 * set, watch, report, enable, show -s.)
 *
 * Usage (in the node's namespace, TC_BPF_MNT set as hm_on does):
 *   hm_int_drop_tool events COUNT TIMEOUT_MS
 *
 * events prints the records that arrive within TIMEOUT_MS, stopping after
 * COUNT; exit 0. Errors go to stderr with exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/bpf_pin.h"
#include "int/int_maps.h"
#include "int/int_drop.h"

static int fail(const char *what, int err)
{
	fprintf(stderr, "hm_int_drop_tool: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

static int open_pinned(const char *name)
{
	char dir[4096], path[4200];
	int err = hm_pin_dir(dir, sizeof(dir));

	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = bpf_obj_get(path);
	return err < 0 ? -errno : err;
}

static int on_record(void *ctx, void *data, size_t size)
{
	const struct int_record *r = data;
	unsigned int *left = ctx;
	char dev[IF_NAMESIZE] = "";
	__u32 i;

	if (size < sizeof(*r))
		return 0;
	if (r->ifindex && !if_indextoname(r->ifindex, dev))
		dev[0] = '\0';
	printf("{\"kind\":%u,\"flags\":%u,\"drop_reason\":%u,\"reason\":\"%s\",\"family\":%u,"
	       "\"dev\":\"%s\",\"queue_id\":%u,\"node_id\":%u,\"rep_md_bits\":\"0x%04x\","
	       "\"md_len\":%u,\"md\":\"", r->kind, r->flags, r->drop_reason,
	       int_drop_reason_name(r->drop_reason), r->family, dev, r->queue_id, r->node_id,
	       r->rep_md_bits, r->md_len);
	for (i = 0; i < r->md_len && i < INT_REC_MD_MAX; i++)
		printf("%02x", r->md[i]);
	printf("\",\"pkt_len\":%u,\"orig_len\":%u,\"pkt\":\"", r->pkt_len, r->orig_len);
	for (i = 0; i < r->pkt_len && i < INT_REC_PKT_MAX; i++)
		printf("%02x", r->pkt[i]);
	printf("\",\"ts_ns\":%llu}\n", (unsigned long long)r->ts_ns);
	fflush(stdout);
	if (*left && !--*left)
		return 1;	/* stop ring_buffer__poll() */
	return 0;
}

static int do_events(unsigned int count, unsigned int timeout_ms)
{
	struct ring_buffer *rb;
	unsigned int left = count, waited = 0;
	int fd, err = 0;

	fd = open_pinned(INT_MAP_EVENTS);
	if (fd < 0)
		return fail(INT_MAP_EVENTS, fd);
	rb = ring_buffer__new(fd, on_record, &left, NULL);
	if (!rb)
		return fail("ring_buffer__new", errno);
	while (waited < timeout_ms && (!count || left)) {
		err = ring_buffer__poll(rb, 50);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		waited += 50;
	}
	ring_buffer__free(rb);
	close(fd);
	return err ? fail("ring_buffer__poll", err) : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "events"))
		return do_events(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	fprintf(stderr, "usage: hm_int_drop_tool events COUNT TIMEOUT_MS\n");
	return 1;
}
