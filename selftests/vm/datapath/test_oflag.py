#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_oflag.py - SRv6 SRH O-flag (RFC 8754 §2, RFC 9259 §2) through hopmark.ko

A sends UDP to B with an SRH (Linux's own SRv6 endpoint processing,
seg6_enabled): Segment List [B, R3, R1], Segments Left 2, Flags O (0x20).
R1 and R3 are segment endpoints (their addresses are segments), R2 only
forwards, B is the last segment. R1, R2, R3 and B have SRH_OFLAG on their
ingress. Checks:

  oflag_one_event_per_endpoint  N at R1, R3 and B, none at R2
  oflag_event_headers_*         each event's headers: the packet as it
                                reached that endpoint (DA, Segments Left)
  oflag_packet_delivered_unchanged  B's socket gets the SRH (O-flag still
                                set, segments intact) and the payload
  oflag_not_set_no_event        the same traffic without the O-flag: nothing
"""
import ipaddress
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

PORT = 5004
N = 5
R1 = "2001:db8:1::2"
R3 = "2001:db8:3::2"
NODES_IN = {"r1": "r1-a", "r2": "r2-r1", "r3": "r3-r2", "b": "b-r3"}
EXPECT = {"r1": (R1, 2), "r3": (R3, 1), "b": (B_ADDR, 0)}


def srh(flags):
    """SRH for IPV6_RTHDR: the kernel writes the destination in Segment List[0]."""
    segs = ["::", R3, R1]
    h = bytes([0, 2 * len(segs), 4, len(segs) - 1, len(segs) - 1, flags, 0, 0])
    for s in segs:
        h += ipaddress.IPv6Address(s).packed
    return h.hex()


def main():
    tap = Tap(8)
    load_module()
    try:
        topology()
        for n in ("r1", "r2", "r3", "b"):
            nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.all.seg6_enabled=1"])
            nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.%s.seg6_enabled=1" % NODES_IN[n]])
            genl(n, "if", NODES_IN[n], "features", F_SRH_OFLAG)

        lst = {n: Listener(n, 4 * N) for n in NODES_IN}
        rx = Receiver("b", PORT, N)
        sent = send("a", B_ADDR, PORT, count=N, rthdr=srh(0x20))
        pkts = rx.packets()
        ev = {n: l.records() for n, l in lst.items()}
        t_end = time.time_ns()

        tap.eq({n: len(e) for n, e in ev.items()}, {"r1": N, "r2": 0, "r3": N, "b": N},
               "oflag_one_event_per_endpoint (R1, R3, B; not R2)")
        bad = []
        for n, (da, sl) in EXPECT.items():
            for r in ev[n]:
                h = ipv6_headers(bytes.fromhex(r.get("headers", "")))
                rts = [srh_decode(x) for t, x in h["ext"] if t == 43]
                got = (r.get("type"), r.get("ifindex"), h["dst"],
                       [(s["sl"], s["flags"], s["segs"]) for s in rts])
                exp = ("oflag", ifindex(n, NODES_IN[n]), da,
                       [(sl, 0x20, [B_ADDR, R3, R1])])
                if got != exp:
                    bad.append((n, exp, got))
        tap.ok(not bad, "oflag_event_headers_identify_packet (DA, Segments Left, O-flag, segments)",
               "as at each endpoint", bad[:3])
        tss = [r.get("timestamp_ns", 0) for e in ev.values() for r in e]
        tap.ok(tss and all(sent["t0_ns"] <= t <= t_end for t in tss),
               "oflag_event_timestamped_within_send_window",
               "[%d, %d]" % (sent["t0_ns"], t_end), tss[:3])
        tap.eq(len(pkts), N, "oflag_packet_delivered")
        obs = [(p["intact"], srh_decode(bytes.fromhex(p["rthdr"])) if p["rthdr"] else None)
               for p in pkts]
        tap.eq(obs, [(True, {"type": 4, "sl": 0, "last": 2, "flags": 0x20,
                             "segs": [B_ADDR, R3, R1]})] * N,
               "oflag_packet_delivered_unchanged (SRH with O-flag, payload intact)")
        c = {n: counters(n) for n in NODES_IN}
        tap.eq({n: cnt(c[n], NODES_IN[n], "oflag_export") for n in NODES_IN},
               {"r1": N, "r2": 0, "r3": N, "b": N}, "oflag_counted_per_endpoint")

        lst = {n: Listener(n, 4 * N) for n in ("r1", "b")}
        rx = Receiver("b", PORT, N)
        send("a", B_ADDR, PORT, count=N, rthdr=srh(0))
        pkts = rx.packets()
        tap.eq(({n: len(l.records()) for n, l in lst.items()}, len(pkts)),
               ({"r1": 0, "b": 0}, N), "oflag_not_set_no_event (delivered, no event)")
        tap.eq(sum(cnt(counters(n), NODES_IN[n], "malformed") for n in NODES_IN), 0,
               "oflag_nothing_malformed")
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
