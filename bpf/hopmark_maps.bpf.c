// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_maps.bpf.c - an object holding only hopmark's maps.
 *
 * hm_maps_create() loads it so that every map exists, pinned by name under
 * <bpffs>/tc/globals/, before any program is attached; the programs in the
 * other objects then reuse the pins (see hopmark_maps.bpf.h).
 */
#include "hopmark_maps.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";
