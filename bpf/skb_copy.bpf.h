/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * skb_copy.bpf.h - copying packet bytes out of an skb without a helper
 * call when they are in its linear data, which headers nearly always are.
 */
#ifndef __HM_SKB_COPY_BPF_H
#define __HM_SKB_COPY_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Offsets hm_skb_copy() reads directly; beyond, the helper does. */
#define HM_SKB_COPY_OFF_MAX	0xfff

/**
 * hm_skb_copy() - @len bytes at offset @off of the packet into @dst
 * @skb:	the packet (tc)
 * @off:	offset from the start of the frame, bytes
 * @dst:	destination, @len bytes
 * @len:	bytes to copy, a compile-time constant
 *
 * The same bytes and the same outcome as bpf_skb_load_bytes(), which it
 * falls back to when the bytes are not all in the linear data (direct
 * packet access, no helper call, otherwise). Packet pointers taken before
 * a helper that changes the packet are invalid after it, so this reads
 * skb->data and skb->data_end afresh.
 *
 * Return: 0, or a negative error (-EFAULT: the packet is shorter).
 */
static __always_inline int hm_skb_copy(struct __sk_buff *skb, __u32 off, void *dst, __u32 len)
{
	__u8 *data = (__u8 *)(long)skb->data;
	__u8 *end = (__u8 *)(long)skb->data_end;

	if (off <= HM_SKB_COPY_OFF_MAX && data + off + len <= end) {
		__builtin_memcpy(dst, data + off, len);
		return 0;
	}
	return bpf_skb_load_bytes(skb, off, dst, len);
}

#endif /* __HM_SKB_COPY_BPF_H */
