/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark.h - libhopmark, the userspace library every hopmark tool and test
 * links. This header only gathers the headers of its parts, one folder per
 * protocol (lib/ioam/, lib/ipv6/, lib/srv6/, lib/pint/, lib/postcard/) and
 * lib/common/ for what every part shares (pinned maps, generic netlink,
 * BPF loading, time formatting, run-time paths).
 *
 * Functions return 0 or a positive count on success and a negative errno on
 * failure, as the kernel does, unless their comment says otherwise.
 */
#ifndef __HOPMARK_H
#define __HOPMARK_H

#include "common/hopmark_maps.h"
#include "common/bpf_pin.h"
#include "common/encap_filter.h"
#include "ioam/ioam6.h"
#include "ioam/trace.h"
#include "ioam/record.h"
#include "ipv6/ipv6.h"
#include "ipv6/ipv6_parse.h"

#endif /* __HOPMARK_H */
