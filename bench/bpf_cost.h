/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bpf_cost.h - what bench/bpf_cost.c and its wrapper programs
 * (bench/bpf_cost.bpf.c) share: the frame template a wrapper restores
 * before every run of the program under test.
 */
#ifndef __HM_BENCH_BPF_COST_H
#define __HM_BENCH_BPF_COST_H

#include <linux/types.h>

/* Largest frame a case runs on, bytes (a power of two: the wrapper masks). */
#define HM_COST_FRAME_MAX	1024

/* Bytes bench_tc_grow() inserts (the calibration row calib.tc_resize). */
#define HM_COST_GROW_BYTES	32

/*
 * The calibration lookups (calib.*_lookup): the key bench/bpf_cost.c
 * writes into bench_calib_hash and bench_calib_pcpu before the runs (a
 * __u32, as the ifindex keys of hopmark's per-interface maps), and the
 * entries of each calibration map.
 */
#define HM_COST_CALIB_KEY	7
#define HM_COST_CALIB_ENTRIES	256

/*
 * The wrapper's failure return: the tail call did not happen (empty
 * program array, or the target is not compatible). TC_ACT_SHOT (2) and
 * XDP_ABORTED (0) are values no hopmark program returns.
 */
#define HM_COST_TC_NO_TAIL	2
#define HM_COST_XDP_NO_TAIL	0

/**
 * struct hm_cost_frame - the frame of a case (bench_frame[0])
 * @len:	bytes valid in @b, 1..%HM_COST_FRAME_MAX
 * @b:		the frame, from the Ethernet header on
 */
struct hm_cost_frame {
	__u32	len;
	__u8	b[HM_COST_FRAME_MAX];
};

#endif /* __HM_BENCH_BPF_COST_H */
