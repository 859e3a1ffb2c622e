#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_hbh_limit.py - hopmark.ko adds an option only to a Hop-by-Hop header
a Linux router keeps (net/ipv6/exthdrs.c ip6_parse_tlv(), default sysctls)

Topology A - R1 - R2 - R3 - B; A's egress encapsulates, R1 is a plain Linux
router (nothing enabled on it), B's socket receives the Hop-by-Hop header
as delivered. A's socket sends headers of N skippable options (type 0x1e:
act 00, chg 0, 2 data octets each). A Linux node drops a packet whose header
has more than net.ipv6.max_hbh_opts_number (8) options other than Pad1 and
PadN, a run of more than 7 padding octets or a PadN with non-zero data, so
hopmark.ko must not add an option that makes one. Checks:

  r1_sysctl_defaults            the limit R1 applies: 8 options, any length
  linux_router_drops_9_options  without hopmark, 9 options never reach B
                                (R1's Ip6InHdrErrors): what a 9th option
                                added by A would do
  linux_router_forwards_8_options  without hopmark, 8 options reach B
  MODE_8_options_forwarded_unchanged  for MODE = incremental, e2e, dex: the
                                header of 8 options reaches B as sent, R1
                                counts no header error
  MODE_8_options_counted_hbh_limit  A counts hbh_limit, not MODE_encap
  MODE_7_options_get_the_option the header of 7 options reaches B with the
                                option of MODE appended: 8 options, valid
                                layout (4n, runs of at most 7, PadN zero)
  MODE_7_options_counted        A counts MODE_encap, not hbh_limit
  all_three_*                   E2E, DEX and Incremental on one interface
                                (inserted in that order) with 6 options:
                                E2E and DEX are added, the Incremental
                                Trace, a 9th option, is not
  e2e_kept_*_refused            an 8-octet padding run, a non-zero PadN
                                between options: no option added, counted
                                hbh_limit (the packet leaves as sent; R1
                                drops it, as it would without hopmark)
  e2e_trailing_long_padding_replaced  an over-long run at the end is
                                replaced by the insertion: B gets a valid
                                header with the option
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

PORT = 5006
N = 3
TT = 0xf40000           # bits 0, 1, 2, 3, 5: 20 bytes of node data
E2E_TYPE = 0xf000
LINUX_OPTS_MAX = 8
# IOAM Option-Types (RFC 9197 §4.4, §4.6; RFC 9326 §3)
IOAM_INCR, IOAM_E2E, IOAM_DEX = 1, 3, 4
MODES = (("incremental", F_INCREMENTAL_ENCAP, IOAM_INCR, "incr_encap"),
         ("e2e", F_E2E_ENCAP, IOAM_E2E, "e2e_encap"),
         ("dex", F_DEX_ENCAP, IOAM_DEX, "dex_encap"))


def other(i):
    """The i-th skippable option: type 0x1e, data (i, 0xa0 + i)."""
    return bytes([0x1e, 2, i, 0xa0 + i])


def others(n):
    return [other(i) for i in range(n)]


def encap(features):
    genl("a", "if", "a-r1", "features", features, "encap-ns", NS_ID,
         "trace-type", TT, "remlen", 4 * 5, "e2e-type", E2E_TYPE)


def a_counts(names):
    c = counters("a")
    return [cnt(c, "a-r1", k) for k in names]


def exchange(hbh, expect_rx=True):
    """Send N packets with @hbh from A to B; return what B got (hbh bytes
    of each packet, intact payload) and R1's Ip6InHdrErrors increase."""
    err0 = snmp6("r1", "Ip6InHdrErrors")
    rx = Receiver("b", PORT, N, timeout=20 if expect_rx else 4)
    send("a", B_ADDR, PORT, count=N, hbh=hbh)
    pkts = rx.packets()
    got = [bytes.fromhex(p["hbh"]) for p in pkts if p["intact"]]
    return got, snmp6("r1", "Ip6InHdrErrors") - err0


def layout(hbh):
    """(other options in order, IOAM Option-Types in order, option count,
    layout errors) of a delivered header."""
    return ([d for _, t, d in hbh_options(hbh) if t not in (0, 1, 0x31)],
            [t for t, _ in ioam_options(hbh)], hbh_n_options(hbh), hbh_check(hbh))


def main():
    tap = Tap(3 + 4 * len(MODES) + 2 + 3)
    load_module()
    try:
        topology()
        configure_ids()
        sysctl = nsrun("r1", ["sysctl", "-n", "net.ipv6.max_hbh_opts_number",
                              "net.ipv6.max_hbh_length"]).stdout.split()
        tap.diag("R1: sysctl net.ipv6.max_hbh_opts_number net.ipv6.max_hbh_length: %s"
                 % " ".join(sysctl))
        tap.eq(sysctl, [str(LINUX_OPTS_MAX), "2147483647"],
               "r1_sysctl_defaults (net.ipv6.max_hbh_opts_number, max_hbh_length)")

        h8 = hbh_build(others(8))
        h9 = hbh_build(others(9))
        encap(0)
        got, errs = exchange(h9, expect_rx=False)
        tap.eq((len(got), errs), (0, N),
               "linux_router_drops_9_options (none delivered, R1 Ip6InHdrErrors +%d)" % N)
        got, errs = exchange(h8)
        tap.eq(([g.hex() for g in got], errs), (["11" + h8[2:]] * N, 0),
               "linux_router_forwards_8_options (delivered as sent, no header error)")

        h7 = hbh_build(others(7))
        for mode, feature, ioam_type, counter in MODES:
            encap(feature)
            names = (counter, "hbh_limit")
            c0 = a_counts(names)
            got, errs = exchange(h8)
            c1 = a_counts(names)
            tap.eq(([g.hex() for g in got], errs), (["11" + h8[2:]] * N, 0),
                   "%s_8_options_forwarded_unchanged (B gets %d packets as sent, "
                   "R1 no header error)" % (mode, N))
            tap.eq([b - a for a, b in zip(c0, c1)], [0, N],
                   "%s_8_options_counted_hbh_limit (%s, hbh_limit on a-r1)" % (mode, counter))
            got, errs = exchange(h7)
            c2 = a_counts(names)
            tap.eq(([layout(g) for g in got], errs),
                   ([([o[2:] for o in others(7)], [ioam_type], LINUX_OPTS_MAX, [])] * N, 0),
                   "%s_7_options_get_the_option (7 others kept, option type %d "
                   "appended, 8 options, valid layout, R1 no header error)"
                   % (mode, ioam_type))
            tap.eq([b - a for a, b in zip(c1, c2)], [N, 0],
                   "%s_7_options_counted (%s, hbh_limit on a-r1)" % (mode, counter))

        # Insertion order on one interface: E2E, DEX, Incremental Trace.
        encap(F_E2E_ENCAP | F_DEX_ENCAP | F_INCREMENTAL_ENCAP)
        names = ("e2e_encap", "dex_encap", "incr_encap", "hbh_limit")
        c0 = a_counts(names)
        got, errs = exchange(hbh_build(others(6)))
        c1 = a_counts(names)
        tap.eq(([layout(g) for g in got], errs),
               ([([o[2:] for o in others(6)], [IOAM_E2E, IOAM_DEX], LINUX_OPTS_MAX, [])] * N, 0),
               "all_three_6_options_get_e2e_and_dex_only (8 options, valid layout)")
        tap.eq([b - a for a, b in zip(c0, c1)], [N, N, 0, N],
               "all_three_counted (e2e_encap, dex_encap, incr_encap, hbh_limit)")

        # Padding Linux rejects in what the insertion keeps, and at the end,
        # which it replaces.
        encap(F_E2E_ENCAP)
        names = ("e2e_encap", "hbh_limit")
        for what, hbh in (
                ("pad_run_8", hbh_build([other(0), bytes([1, 6]) + bytes(6), other(1)])),
                ("padn_nonzero", hbh_build([other(0), bytes([1, 1, 0x5a]), other(1)]))):
            c0 = a_counts(names)
            got, errs = exchange(hbh, expect_rx=False)
            c1 = a_counts(names)
            tap.eq(([b - a for a, b in zip(c0, c1)], len(got), errs), ([0, N], 0, N),
                   "e2e_kept_%s_refused (e2e_encap, hbh_limit; none delivered, "
                   "R1 Ip6InHdrErrors +%d as without hopmark)" % (what, N))
        hbh = hbh_build([other(0), bytes([1, 8]) + bytes(8)])
        c0 = a_counts(names)
        got, errs = exchange(hbh)
        c1 = a_counts(names)
        tap.eq(([layout(g) for g in got], errs, [b - a for a, b in zip(c0, c1)]),
               ([([other(0)[2:]], [IOAM_E2E], 2, [])] * N, 0, [N, 0]),
               "e2e_trailing_long_padding_replaced (B gets the option, valid layout; "
               "e2e_encap, hbh_limit)")
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
