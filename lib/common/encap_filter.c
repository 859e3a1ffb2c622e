// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * encap_filter.c - hopmark_encap_filter, the bits hm_encap tests before
 * its longest-prefix lookup in hopmark_encap, computed from the rules
 * (struct hopmark_encap_filter in hopmark_maps.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "common/hopmark_maps.h"
#include "common/encap_filter.h"

/* Bytes 0-7 of a network-order IPv6 address as a host-order number. */
static __u64 hm_addr_hi(const __u8 *addr)
{
	__u64 hi = 0;
	int i;

	for (i = 0; i < 8; i++)
		hi = (hi << 8) | addr[i];
	return hi;
}

/* See bpf_pin.h. */
void hm_encap_filter_compute(const struct hopmark_encap_key *keys, unsigned int n,
			     struct hopmark_encap_filter *f)
{
	__u32 plen = HM_ENCAP_FILTER_PLEN_MAX, bit;
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++)
		if (keys[i].prefixlen < plen)
			plen = keys[i].prefixlen;
	f->prefixlen = plen;
	for (i = 0; i < n; i++) {
		bit = hm_encap_filter_bit(hm_addr_hi(keys[i].addr), plen);
		f->bits[bit / 64] |= 1ULL << (bit % 64);
	}
	f->flags = HM_ENCAP_FILTER_F_VALID;
}

/* See bpf_pin.h. */
bool hm_encap_filter_match(const struct hopmark_encap_filter *f, const __u8 *addr)
{
	__u32 bit;

	if (!(f->flags & HM_ENCAP_FILTER_F_VALID) || f->prefixlen > HM_ENCAP_FILTER_PLEN_MAX)
		return true;
	bit = hm_encap_filter_bit(hm_addr_hi(addr), f->prefixlen);
	return f->bits[bit / 64] >> (bit % 64) & 1;
}

static int hm_filter_write(int fd, const struct hopmark_encap_filter *f)
{
	__u32 zero = 0;

	return bpf_map_update_elem(fd, &zero, f, BPF_ANY) ? -errno : 0;
}

/* See bpf_pin.h. */
int hm_encap_filter_sync(int fd_encap, int fd_filter)
{
	struct hopmark_encap_key *keys, key, next;
	struct hopmark_encap_filter *old, *f;
	unsigned int n = 0;
	__u32 zero = 0;
	int err;

	keys = calloc(HM_MAX_ENCAP_ROUTES, sizeof(*keys));
	old = calloc(1, sizeof(*old));
	f = calloc(1, sizeof(*f));
	if (!keys || !old || !f) {
		err = -ENOMEM;
		goto out;
	}
	err = bpf_map_get_next_key(fd_encap, NULL, &next);
	while (!err) {
		if (n == HM_MAX_ENCAP_ROUTES) {
			err = -E2BIG;	/* a larger map of another build */
			goto out;
		}
		keys[n++] = next;
		key = next;
		err = bpf_map_get_next_key(fd_encap, &key, &next);
	}
	if (errno != ENOENT) {
		err = -errno;
		goto out;
	}
	err = 0;
	hm_encap_filter_compute(keys, n, f);
	if (bpf_map_lookup_elem(fd_filter, &zero, old)) {
		err = -errno;
		goto out;
	}
	/*
	 * hm_encap reads the value while it is copied in, word by word. With
	 * the same L, a mix of old and new bits only delays a new rule or
	 * asks the rules about a deleted one. A new L is written with the
	 * flag clear first (the old value without it, then the new one), so
	 * that no packet combines one L with the other's bits.
	 */
	if ((old->flags & HM_ENCAP_FILTER_F_VALID) && old->prefixlen != f->prefixlen) {
		old->flags &= ~HM_ENCAP_FILTER_F_VALID;
		err = hm_filter_write(fd_filter, old);
		if (!err) {
			f->flags &= ~HM_ENCAP_FILTER_F_VALID;
			err = hm_filter_write(fd_filter, f);
			f->flags |= HM_ENCAP_FILTER_F_VALID;
		}
		if (err)
			goto out;
	}
	err = hm_filter_write(fd_filter, f);
out:
	if (err && err != -ENOMEM) {
		/* Not trusted then: hm_encap asks the rules for every packet. */
		memset(f, 0, sizeof(*f));
		hm_filter_write(fd_filter, f);
	}
	free(keys);
	free(old);
	free(f);
	return err;
}
