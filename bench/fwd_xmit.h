/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * fwd_xmit.h - the template map of the live-frame generator, shared by
 * bench/fwd_xmit.bpf.c and bench/fwd_gen.c.
 */
#ifndef __HOPMARK_FWD_XMIT_H
#define __HOPMARK_FWD_XMIT_H

#include <linux/types.h>

#define HM_FWD_TMPL_MAX	512

/**
 * struct hm_fwd_tmpl - the frame every run sends (map hm_fwd_tmpl, key 0)
 * @len:	octets of @b in use, the frame's length (1..%HM_FWD_TMPL_MAX)
 * @b:		the frame, from its Ethernet header on
 */
struct hm_fwd_tmpl {
	__u32	len;
	__u8	b[HM_FWD_TMPL_MAX];
};

#endif /* __HOPMARK_FWD_XMIT_H */
