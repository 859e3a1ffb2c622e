/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * byteorder.h - network byte order reads and writes at any alignment,
 * shared by every wire format of lib/ and by bpf/, kernel/ and the tests.
 *
 * Header-only and libc-free: byte order is handled with explicit shifts,
 * never htonl(), so the same code builds for BPF, the kernel and userspace.
 * Every helper takes a byte pointer with no alignment requirement.
 */
#ifndef __HOPMARK_BYTEORDER_H
#define __HOPMARK_BYTEORDER_H

#include <linux/types.h>

/** hm_put_be16() - store @v at @p, most significant octet first */
static inline void hm_put_be16(__u8 *p, __u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

/** hm_put_be32() - store @v at @p, most significant octet first */
static inline void hm_put_be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/** hm_get_be16() - the 16-bit big-endian value at @p, in host order */
static inline __u16 hm_get_be16(const __u8 *p)
{
	return ((__u16)p[0] << 8) | p[1];
}

/** hm_get_be24() - the 24-bit big-endian value at @p, in host order */
static inline __u32 hm_get_be24(const __u8 *p)
{
	return ((__u32)p[0] << 16) | ((__u32)p[1] << 8) | p[2];
}

/** hm_get_be32() - the 32-bit big-endian value at @p, in host order */
static inline __u32 hm_get_be32(const __u8 *p)
{
	return ((__u32)p[0] << 24) | ((__u32)p[1] << 16) | ((__u32)p[2] << 8) | p[3];
}

/** hm_get_be64() - the 64-bit big-endian value at @p, in host order */
static inline __u64 hm_get_be64(const __u8 *p)
{
	return ((__u64)hm_get_be32(p) << 32) | hm_get_be32(p + 4);
}

#endif /* __HOPMARK_BYTEORDER_H */
