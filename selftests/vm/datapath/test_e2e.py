#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_e2e.py - IOAM Edge-to-Edge option (RFC 9197 §4.6) through hopmark.ko

A's egress inserts the E2E option (E2E_ENCAP, E2E-Type 0xf000: 64-bit and
32-bit Sequence Number, timestamp seconds and subseconds); B's ingress
reads it, reports it (HOPMARK_EVENT_E2E) and removes it (E2E_DECAP).
Two flows (source ports) interleaved, several packets each. Checks:

  e2e_seq_increases_per_flow   each flow's events carry 0, 1, 2, ... in order
  e2e_timestamps_*             the encapsulation time, within the send window
  e2e_decap_removes_option     B's socket sees no Hop-by-Hop header
  e2e_decap_keeps_other_options  with an unrelated option already present,
                               only ours is removed, the other one arrives
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

PORT = 5002
N = 6
E2E_TYPE = 0xf000
SPORTS = (41000, 41001)
# An unrelated skippable option (act 00, chg 0, type 0x1e) with 2 data octets.
OTHER_HBH = "0000" + "1e02abcd" + "0100"   # nexthdr, len 0, opt, PadN(0) = 8 bytes


def e2e_fields(opt_hex):
    """(ns, type, seq64, seq32, sec, usec) of an E2E option TLV (hex)."""
    b = bytes.fromhex(opt_hex)
    ns_id, typ = struct.unpack("!HH", b[4:8])
    seq64, seq32, sec, usec = struct.unpack("!QIII", b[8:28])
    return ns_id, typ, seq64, seq32, sec, usec


def sport_of(headers_hex):
    d = ipv6_headers(bytes.fromhex(headers_hex))
    return struct.unpack("!H", d["l4"][:2])[0] if d["proto"] == 17 else None


def main():
    tap = Tap(11)
    load_module()
    try:
        topology()
        configure_ids()
        genl("a", "if", "a-r1", "features", F_E2E_ENCAP, "encap-ns", NS_ID,
             "e2e-type", E2E_TYPE)
        genl("b", "if", "b-r3", "features", F_E2E_DECAP)

        rx = Receiver("b", PORT, N * len(SPORTS))
        ev = Listener("b", N * len(SPORTS))
        sent = send("a", B_ADDR, PORT, count=N, sports=SPORTS)
        pkts = rx.packets()
        events = ev.records()
        t_end = time.time_ns()
        tap.eq(len(pkts), N * len(SPORTS), "e2e_all_delivered")
        tap.eq(len(events), N * len(SPORTS), "e2e_one_event_per_packet")
        per_flow = {}
        bad = []
        for e in events:
            if e.get("type") != "e2e" or e.get("ns_id") != NS_ID or "option" not in e:
                bad.append(e)
                continue
            ns_id, typ, s64, s32, sec, usec = e2e_fields(e["option"])
            if (ns_id, typ, s64) != (NS_ID, E2E_TYPE, s32) or s32 != e.get("seq"):
                bad.append((ns_id, typ, s64, s32, e.get("seq")))
            per_flow.setdefault(sport_of(e["headers"]), []).append((s32, sec, usec))
        tap.ok(not bad, "e2e_event_fields (type e2e, ns 123, E2E-Type 0xf000, "
               "64-bit = 32-bit = record seq)", "none bad", bad[:3])
        tap.eq({k: [s for s, _, _ in v] for k, v in per_flow.items()},
               {sp: list(range(N)) for sp in SPORTS},
               "e2e_seq_increases_per_flow (0..%d for each of 2 flows)" % (N - 1))
        tss = [sec * 10**9 + usec * 1000 for v in per_flow.values() for _, sec, usec in v]
        tap.ok(tss and all(sent["t0_ns"] - 10**6 <= t <= t_end for t in tss) and
               all(u < 10**6 for v in per_flow.values() for _, _, u in v),
               "e2e_timestamps_within_send_window (POSIX s + us)",
               "[%d, %d]" % (sent["t0_ns"], t_end), tss[:3])
        tap.ok(all(p["hbh"] == "" and p["intact"] for p in pkts) and pkts,
               "e2e_decap_removes_option (no Hop-by-Hop header at B, payload intact)",
               "hbh '' intact", [(p["hbh"], p["intact"]) for p in pkts[:2]])
        c = {n: counters(n) for n in ("a", "b")}
        tap.eq((cnt(c["a"], "a-r1", "e2e_encap"), cnt(c["b"], "b-r3", "e2e_decap")),
               (N * len(SPORTS), N * len(SPORTS)), "e2e_counted (a encap, b decap)")

        # With another option in the header, only ours goes away.
        rx = Receiver("b", PORT, N)
        ev = Listener("b", N)
        send("a", B_ADDR, PORT, count=N, sports=(41002,), hbh=OTHER_HBH)
        pkts = rx.packets()
        events = ev.records()
        tap.eq(len(pkts), N, "e2e_with_other_option_all_delivered")
        hbhs = [bytes.fromhex(p["hbh"]) for p in pkts]
        obs = [([(t, d.hex()) for _, t, d in hbh_options(h) if t not in (0, 1)],
                hbh_check(h)) for h in hbhs]
        tap.eq(obs, [([(0x1e, "abcd")], [])] * N,
               "e2e_decap_keeps_other_options (only the 0x1e option, valid padding)")
        tap.eq([(sport_of(e.get("headers", "")), e2e_fields(e["option"])[3])
                for e in events if "option" in e], [(41002, i) for i in range(N)],
               "e2e_new_flow_numbered_from_0 (third flow, after an existing header)")
        c2 = counters("b")
        tap.eq(cnt(c2, "b-r3", "e2e_decap") - cnt(c["b"], "b-r3", "e2e_decap"), N,
               "e2e_decap_counted_with_other_option")
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
