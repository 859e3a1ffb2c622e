/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * encap_filter.h - hopmark_encap_filter, the bits hm_encap tests before
 * its longest-prefix lookup in hopmark_encap, computed from the rules
 * (lib/common/encap_filter.c; struct hopmark_encap_filter in
 * hopmark_maps.h). hm_encap_filter_sync_pinned() (bpf_pin.h) applies it
 * to the pinned maps.
 */
#ifndef __HOPMARK_ENCAP_FILTER_H
#define __HOPMARK_ENCAP_FILTER_H

#include <stdbool.h>
#include <linux/types.h>
#include "common/hopmark_maps.h"

/**
 * hm_encap_filter_compute() - struct hopmark_encap_filter for a rule set
 * @keys:	the rules' prefixes (struct hopmark_encap_key, network order)
 * @n:		number of @keys, 0 for none
 * @f:		output: L = the shortest prefix length, at most
 *		%HM_ENCAP_FILTER_PLEN_MAX (%HM_ENCAP_FILTER_PLEN_MAX without
 *		rules), one bit per rule, %HM_ENCAP_FILTER_F_VALID
 *
 * See struct hopmark_encap_filter in hopmark_maps.h.
 */
void hm_encap_filter_compute(const struct hopmark_encap_key *keys, unsigned int n,
			     struct hopmark_encap_filter *f);

/**
 * hm_encap_filter_match() - what hm_encap's first test says of an address
 * @f:		the filter
 * @addr:	IPv6 destination, 16 bytes, network order
 *
 * Return: false when @f is trusted (%HM_ENCAP_FILTER_F_VALID) and rules
 * the address out, true when hopmark_encap is to be asked.
 */
bool hm_encap_filter_match(const struct hopmark_encap_filter *f, const __u8 *addr);

/**
 * hm_encap_filter_sync() - recompute hopmark_encap_filter from all rules
 * @fd_encap:	hopmark_encap (LPM trie of struct hopmark_encap_key)
 * @fd_filter:	hopmark_encap_filter (an array of one entry)
 *
 * Reads every rule's key, computes the filter with
 * hm_encap_filter_compute() and writes it, marked trusted: call it after
 * every change of hopmark_encap (rules written first, then the filter, so
 * that the bits always cover the rules but for the one being added). When
 * L changes, the value is written untrusted first (see the comment
 * inside). On failure the filter is written as zeros, untrusted, if it
 * can be: hm_encap then asks the rules for every packet.
 *
 * Return: 0, or negative errno: -E2BIG for more than %HM_MAX_ENCAP_ROUTES
 * rules, a map syscall's -errno.
 */
int hm_encap_filter_sync(int fd_encap, int fd_filter);

#endif /* __HOPMARK_ENCAP_FILTER_H */
