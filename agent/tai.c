// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tai.c - keep hopmark_node.tai_offset_ns equal to the kernel's TAI offset.
 *
 * The datapath timestamps with bpf_ktime_get_tai_ns() (CLOCK_TAI) and
 * subtracts hopmark_node.tai_offset_ns so that the IOAM timestamp fields
 * (RFC 9197 §4.4.2.3, §4.4.2.4) carry POSIX time, as Linux's own IOAM
 * does. CLOCK_TAI - CLOCK_REALTIME is exactly the offset adjtimex(2)
 * reports in struct timex.tai (whole seconds, set by an NTP or PTP daemon,
 * 0 until one does), so reading it once a second follows leap-second
 * updates without any clock arithmetic.
 */
#include <errno.h>
#include <string.h>
#include <sys/timex.h>

#include <bpf/bpf.h>

#include "hopmark.h"
#include "hopmarkd.h"

#define NSEC_PER_SEC	1000000000LL

/* See hopmarkd.h. */
int hm_tai_refresh(int node_fd, struct hm_node_view *view)
{
	struct hopmark_node_cfg cfg;
	struct timex tx;
	__u32 key = 0;
	__s64 offset_ns;
	int updated = 0;

	memset(&tx, 0, sizeof(tx));
	if (adjtimex(&tx) < 0)
		return -errno;
	offset_ns = (__s64)tx.tai * NSEC_PER_SEC;

	if (bpf_map_lookup_elem(node_fd, &key, &cfg))
		return -errno;

	/*
	 * Write only on a change: the CLI may be updating the node's IDs
	 * right now, and a read-modify-write of unchanged data could undo
	 * its update for no gain.
	 */
	if (cfg.tai_offset_ns != offset_ns) {
		cfg.tai_offset_ns = offset_ns;
		if (bpf_map_update_elem(node_fd, &key, &cfg, BPF_ANY))
			return -errno;
		updated = 1;
	}

	view->node_id = (cfg.flags & HM_NODE_F_ID) ?
			(cfg.node_id & HM_IOAM_U24_UNAVAILABLE) :
			HM_IOAM_U24_UNAVAILABLE;
	view->tai_offset_ns = cfg.tai_offset_ns;
	view->qdepth_max_age_ns = cfg.qdepth_max_age_ns;
	return updated;
}
