#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_incremental.py - IOAM Incremental Trace (RFC 9197 §4.4) through hopmark.ko

Topology A - R1 - R2 - R3 - B (hm_dp_lib.py). A's egress inserts the option
(INCREMENTAL_ENCAP, with A's own node data), R1, R2 and R3 insert theirs on
forwarding (INCREMENTAL on their ingress), B's socket receives the
Hop-by-Hop header as delivered (IPV6_RECVHOPOPTS) and B's module reports
the trace (HOPMARK_EVENT_TRACE). Checks, each printing expected/observed:

  incr_full_trace_*        every node's data field by field, newest first
  incr_sets_overflow_when_remlen_short  RemainingLen for 2 nodes only
  incr_respects_egress_mtu a packet that fits R2's egress MTU but would not
                           with R2's data: Overflow, delivered, counted
  incr_sink_event_*        B's TRACE events equal the delivered option
  incr_untouched_and_counted_*  unknown IOAM-Namespace, NodeLen that does
                           not match the Trace-Type: forwarded as sent
  incr_gso_tcp_*           a TCP transfer A sends as GSO packets (veth
                           keeps them whole to B): every node adds its data
                           and lowers the segment size so segments still
                           fit the 1500-byte MTU; nothing is refused for
                           size (no Overflow, no Packet Too Big), B gets
                           every byte (A's full-size non-GSO segments
                           go without the option, counted as mtu)
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

# Bits 0-3, 5, 6 (4 octets each), 8-10 (8 octets each), 22 (opaque): 52 bytes.
TT = 0xf6e002
NDL = 52
PORT = 5001
N = 5

HOPS = ["r3", "r2", "r1", "a"]            # newest first
IN_IF = {"a": None, "r1": "r1-a", "r2": "r2-r1", "r3": "r3-r2"}
OUT_IF = {"a": "a-r1", "r1": "r1-r2", "r2": "r2-r3", "r3": "r3-b"}
HOP_LIM = {"a": 64, "r1": 63, "r2": 62, "r3": 61}
# A Hop-by-Hop header with an Incremental Trace sent by A's socket: PadN(0),
# IOAM option (Opt Data Len 10, Option-Type 1), IOAM-Namespace, NodeLen and
# flags, RemainingLen 52, Trace-Type TT, no node data yet.
CRAFTED = "00010100310a0001%04x%02x34f6e00200"


def enable(remlen):
    genl("a", "if", "a-r1", "features", F_INCREMENTAL_ENCAP, "encap-ns", NS_ID,
         "trace-type", TT, "remlen", remlen)
    for n in ("r1", "r2", "r3"):
        genl(n, "if", IN_IF[n], "features", F_INCREMENTAL)
    genl("b", "if", "b-r3", "features", F_INCREMENTAL)


def expected_fields(node):
    e = {"hop_lim": HOP_LIM[node], "node_id": NODE_ID[node],
         "in_if": IF_ID[IN_IF[node]] if IN_IF[node] else 0xffff,
         "out_if": IF_ID[OUT_IF[node]],
         "ns_data": ns_data(node), "queue_depth": 0,
         "hop_lim_wide": HOP_LIM[node], "node_id_wide": node_id_wide(node),
         "in_if_wide": if_id_wide(IN_IF[node]) if IN_IF[node] else 0xffffffff,
         "out_if_wide": if_id_wide(OUT_IF[node]),
         "ns_data_wide": ns_data_wide(node), "opaque": 0x00ffffff,
         "_len": NDL}
    return e


def delivered_trace(tap, pkts, what):
    """The Incremental Trace of every delivered packet, layout checked."""
    traces = []
    for p in pkts:
        hbh = bytes.fromhex(p["hbh"])
        errs = hbh_check(hbh) if hbh else ["no Hop-by-Hop header"]
        opts = ioam_options(hbh) if hbh else []
        incr = [b for t, b in opts if t == 1]
        if errs or len(incr) != 1 or not p["intact"]:
            tap.diag("%s: delivered packet: expected a valid HBH with one "
                     "incremental trace and an intact payload, observed errors "
                     "%s, %d traces, intact %s" % (what, errs, len(incr), p["intact"]))
            return []
        traces.append(trace_decode(incr[0]))
    return traces


def main():
    tap = Tap(24)
    load_module()
    try:
        topology()
        configure_ids()

        # 1. Room for all four nodes.
        enable(4 * NDL // 4)
        rx = Receiver("b", PORT, N)
        ev = Listener("b", N)
        sent = send("a", B_ADDR, PORT, count=N, payload=100)
        pkts = rx.packets()
        events = ev.records()
        t_end = time.time_ns()
        tap.eq(len(pkts), N, "incr_full_trace_all_delivered")
        traces = delivered_trace(tap, pkts, "full trace") or []
        hdr_ok = all(t["ns"] == NS_ID and t["nodelen"] == nodelen(TT) and
                     not t["overflow"] and t["remlen"] == 0 and
                     t["trace_type"] == TT and len(t["data"]) == 4 * NDL
                     for t in traces) and len(traces) == N
        tap.ok(hdr_ok, "incr_full_trace_header (ns 123, NodeLen 12, RemainingLen 0, 4 nodes)",
               "ns=123 nodelen=%d overflow=False remlen=0 data=%d" % (nodelen(TT), 4 * NDL),
               [dict((k, v) for k, v in t.items() if k != "data") | {"data": len(t["data"])}
                for t in traces[:1]])
        bad = []
        ts_bad = []
        for t in traces:
            prev = None
            for i, node in enumerate(reversed(HOPS)):
                k = len(HOPS) - 1 - i
                f = node_fields(TT, t["data"][k * NDL:(k + 1) * NDL])
                exp = expected_fields(node)
                for key, val in exp.items():
                    if f.get(key) != val:
                        bad.append("%s.%s: expected %s observed %s" %
                                   (node, key, val, f.get(key)))
                ts = f["ts_sec"] * 10**9 + f["ts_frac"] * 1000
                if not (sent["t0_ns"] - 10**6 <= ts <= t_end) or f["ts_frac"] >= 10**6:
                    ts_bad.append("%s: %d not in [%d, %d]" % (node, ts, sent["t0_ns"], t_end))
                if prev is not None and ts < prev:
                    ts_bad.append("%s: timestamp %d before previous hop's %d" % (node, ts, prev))
                prev = ts
        tap.ok(traces and not bad,
               "incr_full_trace_node_data (hop limit, node IDs, interface IDs, "
               "namespace data, queue depth, wide fields, opaque)",
               "every field as configured", bad[:6])
        tap.ok(traces and not ts_bad,
               "incr_full_trace_timestamps (POSIX s + us, within the send window, "
               "non-decreasing along the path)", "ok", ts_bad[:4])
        c = {n: counters(n) for n in NODES}
        tap.eq(cnt(c["a"], "a-r1", "incr_encap"), N, "incr_encap_counted_on_a")
        tap.eq([cnt(c[n], IN_IF[n], "incr_inserted") for n in ("r1", "r2", "r3")],
               [N, N, N], "incr_inserted_counted_on_r1_r2_r3")
        tap.eq(len(events), N, "incr_sink_event_one_per_packet")
        opts_rx = sorted(ioam_options(bytes.fromhex(p["hbh"]))[0][1].hex() for p in pkts)
        opts_ev = sorted(e.get("option", "")[8:] for e in events)
        tap.ok(opts_rx == opts_ev and all(e.get("type") == "trace" and
                                          e.get("ns_id") == NS_ID for e in events),
               "incr_sink_event_option_equals_delivered", opts_rx[:1], opts_ev[:1])

        # 2. RemainingLen for two nodes: A and R1 write, R2 sets Overflow.
        enable(2 * NDL // 4)
        rx = Receiver("b", PORT, N)
        send("a", B_ADDR, PORT, count=N, payload=100)
        pkts = rx.packets()
        tap.eq(len(pkts), N, "incr_overflow_all_delivered")
        traces = delivered_trace(tap, pkts, "overflow") or []
        obs = [(t["overflow"], t["remlen"], len(t["data"])) for t in traces]
        tap.eq(obs, [(True, 0, 2 * NDL)] * N,
               "incr_sets_overflow_when_remlen_short (Overflow, RemainingLen 0, A and R1 only)")
        ids = [[node_fields(TT, t["data"][k * NDL:(k + 1) * NDL])["node_id"]
                for k in range(2)] for t in traces]
        tap.eq(ids, [[2, 1]] * N, "incr_overflow_keeps_earlier_nodes (R1 then A)")
        c2 = {n: counters(n) for n in ("r2", "r3")}
        tap.eq((cnt(c2["r2"], "r2-r1", "incr_overflow") - cnt(c["r2"], "r2-r1", "incr_overflow"),
                cnt(c2["r3"], "r3-r2", "incr_overflow_seen") -
                cnt(c["r3"], "r3-r2", "incr_overflow_seen")),
               (N, N), "incr_overflow_counted (R2 overflow, R3 overflow already set)")

        # 3. Egress MTU: R2 -> R3 at 1300; a packet of 1280 bytes at R2
        # cannot take R2's 56 more bytes.
        for n, i in (("r2", "r2-r3"), ("r3", "r3-r2")):
            nsrun(n, ["ip", "link", "set", i, "mtu", "1300"])
        enable(4 * NDL // 4)
        c = {n: counters(n) for n in ("r2", "r3")}
        # IPv6 40 + HBH 120 after R1 + UDP 8 + payload = 1280
        rx = Receiver("b", PORT, 2 * N)
        send("a", B_ADDR, PORT, count=N, payload=1280 - 40 - 120 - 8)
        send("a", B_ADDR, PORT, count=N, payload=100, sports=(40001,))
        pkts = rx.packets()
        tap.eq(len(pkts), 2 * N, "incr_mtu_all_delivered (none dropped for size)")
        big = [p for p in pkts if p["sport"] == 40000]
        small = [p for p in pkts if p["sport"] == 40001]
        tb = delivered_trace(tap, big, "mtu big") or []
        ts = delivered_trace(tap, small, "mtu small") or []
        tap.eq([(t["overflow"], len(t["data"]) // NDL) for t in tb], [(True, 2)] * N,
               "incr_respects_egress_mtu (Overflow set by R2, A and R1 data only)")
        tap.eq([(t["overflow"], len(t["data"]) // NDL) for t in ts], [(False, 4)] * N,
               "incr_mtu_small_packets_still_traced")
        c2 = {n: counters(n) for n in ("r2", "r3")}
        tap.eq((cnt(c2["r2"], "r2-r1", "mtu") - cnt(c["r2"], "r2-r1", "mtu"),
                cnt(c2["r2"], "r2-r1", "incr_overflow") - cnt(c["r2"], "r2-r1", "incr_overflow")),
               (N, N), "incr_mtu_counted_on_r2 (mtu, incr_overflow)")
        tap.eq(cnt(c2["r2"], "r2-r1", "error") + cnt(c2["r2"], "r2-r1", "malformed"), 0,
               "incr_no_errors_on_r2")

        # 4. Options a transit node must leave alone, sent by A itself.
        genl("a", "if", "a-r1", "features", 0)
        c = {n: counters(n) for n in ("r1", "r2", "r3")}
        for name, hbh, counter in (
                ("unknown_namespace", CRAFTED % (124, 12 << 3), "unknown_ns"),
                ("nodelen_mismatch", CRAFTED % (NS_ID, 5 << 3), "malformed")):
            rx = Receiver("b", PORT, N)
            send("a", B_ADDR, PORT, count=N, hbh=hbh)
            pkts = rx.packets()
            c2 = {n: counters(n) for n in ("r1", "r2", "r3")}
            tap.eq(([p["hbh"] for p in pkts],
                    [cnt(c2[n], IN_IF[n], counter) - cnt(c[n], IN_IF[n], counter)
                     for n in ("r1", "r2", "r3")]),
                   (["11" + hbh[2:]] * N, [N, N, N]),   # Next Header: UDP
                   "incr_untouched_and_counted_%s (delivered as sent, %s at R1-R3)"
                   % (name, counter))
            c = c2

        # 5. TCP with GSO through every node, MTU 1500 everywhere.
        for n, i in (("r2", "r2-r3"), ("r3", "r3-r2")):
            nsrun(n, ["ip", "link", "set", i, "mtu", "1500"])
        enable(4 * NDL // 4)
        c = {n: counters(n) for n in NODES}
        ptb = {n: snmp6(n, "Icmp6OutPktTooBigs") for n in ("r1", "r2", "r3")}
        size = 4 << 20
        rx = Receiver("b", PORT + 1, 0, timeout=120, tcp_bytes=size)
        ev = Listener("b", 1 << 30)
        sent = json.loads(nsrun("a", ["python3", PKT, "tcp-send", B_ADDR, str(PORT + 1),
                                      "--bytes", str(size)]).stdout.splitlines()[-1])
        got = rx.packets(timeout=180)
        events = ev.records()
        tap.eq((got[0]["bytes"], got[0]["sha256"]) if got else None,
               (size, sent["sha256"]), "incr_gso_tcp_transfer_intact (4 MiB)")
        traced = [e for e in events if e.get("type") == "trace"]
        gso = [e for e in traced if e.get("pkt_len", 0) > 1500]
        tap.diag("TCP: %d trace events at B, %d of them GSO packets (largest %d bytes)"
                 % (len(traced), len(gso), max([e["pkt_len"] for e in gso] or [0])))
        tap.ok(len(gso) > 0, "incr_gso_tcp_gso_packets_traced (events for packets > MTU)",
               "> 0", len(gso))
        full = [e for e in traced
                if (lambda t: not t["overflow"] and len(t["data"]) == 4 * NDL)(
                    trace_decode(bytes.fromhex(e.get("option", ""))[4:]))]
        tap.eq(len(full), len(traced), "incr_gso_tcp_every_trace_complete (4 nodes, no Overflow)")
        c2 = {n: counters(n) for n in NODES}
        # A's full-size segments that are not GSO cannot grow (TCP chose
        # their size for the bare MTU): sent without the option, counted.
        tap.diag("TCP: A sent %d packets without the option (mtu)"
                 % (cnt(c2["a"], "a-r1", "mtu") - cnt(c["a"], "a-r1", "mtu")))
        tap.eq([cnt(c2[n], i, k) - cnt(c[n], i, k)
                for n, i in (("r1", "r1-a"), ("r2", "r2-r1"), ("r3", "r3-r2"))
                for k in ("mtu", "incr_overflow")], [0] * 6,
               "incr_gso_tcp_nothing_refused_for_size (mtu, incr_overflow on R1-R3)")
        tap.eq([snmp6(n, "Icmp6OutPktTooBigs") - ptb[n] for n in ("r1", "r2", "r3")], [0, 0, 0],
               "incr_gso_tcp_no_packet_too_big (segments fit the MTU)")
    except Exception as e:  # a set-up step failed: report, not crash
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
