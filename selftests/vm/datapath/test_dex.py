#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_dex.py - IOAM Direct Export (RFC 9326) through hopmark.ko

A's egress inserts the DEX option (DEX_ENCAP: IOAM-Namespace 123,
Trace-Type bits 0, 1, 2, 3, 5: hop limit + node ID, interface IDs,
timestamps, namespace data; Flow ID and Sequence Number). R1, R2, R3 and B
export (DEX on their ingress). Two flows interleaved. Checks:

  dex_one_event_per_packet_per_node   N per flow at every enabled node
  dex_flow_id_*                the same Flow ID at every node for a flow,
                               different between the flows, equal to the
                               one in the packet B receives
  dex_seq_per_flow             0, 1, 2, ... per flow at every node
  dex_node_data_*              each node's own data (RFC 9197 §4.4.2)
  dex_packet_not_grown         B receives exactly the option A inserted
  dex_nd_not_encapsulated      Neighbor Solicitations A sends out of its
                               DEX_ENCAP interface (from a global and a
                               link-local source) get no option: not counted
                               as dex_encap, no event at R1
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

PORT = 5003
N = 5
SPORTS = (42000, 42001)
TT = 0xf40000           # bits 0, 1, 2, 3, 5: 20 bytes of node data
EXPORTERS = ["r1", "r2", "r3", "b"]
IN_IF = {"r1": "r1-a", "r2": "r2-r1", "r3": "r3-r2", "b": "b-r3"}
# Hop_Lim on input: received hop limit - 1 (A sends with 64).
HOP_LIM = {"r1": 63, "r2": 62, "r3": 61, "b": 60}


def sport_of(headers_hex):
    d = ipv6_headers(bytes.fromhex(headers_hex))
    return struct.unpack("!H", d["l4"][:2])[0] if d["proto"] == 17 else None


def main():
    tap = Tap(11)
    load_module()
    try:
        topology()
        configure_ids()
        genl("a", "if", "a-r1", "features", F_DEX_ENCAP, "encap-ns", NS_ID,
             "trace-type", TT)
        for n in EXPORTERS:
            genl(n, "if", IN_IF[n], "features", F_DEX)
        total = N * len(SPORTS)
        lst = {n: Listener(n, total) for n in EXPORTERS}
        rx = Receiver("b", PORT, total)
        sent = send("a", B_ADDR, PORT, count=N, sports=SPORTS)
        pkts = rx.packets()
        ev = {n: l.records() for n, l in lst.items()}
        t_end = time.time_ns()

        tap.eq(len(pkts), total, "dex_all_delivered")
        tap.eq({n: len(e) for n, e in ev.items()}, {n: total for n in EXPORTERS},
               "dex_one_event_per_packet_per_node")
        # Flow ID and Sequence Number as B's socket saw them in the packet.
        in_pkt = {}
        layout = []
        for p in pkts:
            hbh = bytes.fromhex(p["hbh"])
            opts = ioam_options(hbh) if hbh else []
            layout.append((len(hbh), [t for t, _ in opts], hbh_check(hbh) if hbh else ["none"]))
            if opts and opts[0][0] == 4:
                body = opts[0][1]
                ns_id, flags, ext = struct.unpack("!HBB", body[:4])
                tt = int.from_bytes(body[4:7], "big")
                fid, seq = struct.unpack("!II", body[8:16])
                in_pkt.setdefault(p["sport"], []).append((ns_id, flags, ext, tt, fid, seq))
        tap.eq(layout, [(24, [4], [])] * total,
               "dex_packet_not_grown (B gets a 24-byte header with the DEX option only)")
        fids = {sp: {v[4] for v in vals} for sp, vals in in_pkt.items()}
        tap.ok(len(fids) == 2 and all(len(v) == 1 for v in fids.values()) and
               len(set().union(*fids.values())) == 2,
               "dex_flow_id_one_per_flow_in_packet", "one distinct Flow ID per flow", fids)
        tap.eq({sp: [(v[0], v[1], v[2], v[3], v[5]) for v in vals] for sp, vals in in_pkt.items()},
               {sp: [(NS_ID, 0, 0xc0, TT, i) for i in range(N)] for sp in SPORTS},
               "dex_option_fields_in_packet (ns, flags 0, ext Flow ID+Seq, Trace-Type, seq 0..)")
        fid_of = {sp: next(iter(v)) for sp, v in fids.items() if len(v) == 1}

        bad_fid, bad_seq, bad_data, bad_ts = [], [], [], []
        for n, recs in ev.items():
            per = {}
            for r in recs:
                sp = sport_of(r.get("headers", ""))
                per.setdefault(sp, []).append(r)
                if r.get("type") != "dex" or r.get("ns_id") != NS_ID or \
                        r.get("trace_type") != TT or r.get("flow_id") != fid_of.get(sp):
                    bad_fid.append((n, sp, r.get("type"), r.get("ns_id"),
                                    r.get("trace_type"), r.get("flow_id")))
                f = node_fields(TT, bytes.fromhex(r.get("node_data", "")))
                exp = {"hop_lim": HOP_LIM[n], "node_id": NODE_ID[n],
                       "in_if": IF_ID[IN_IF[n]], "out_if": 0xffff,
                       "ns_data": ns_data(n), "_len": 20}
                got = {k: f.get(k) for k in exp}
                if got != exp:
                    bad_data.append((n, exp, got))
                ts = f.get("ts_sec", 0) * 10**9 + f.get("ts_frac", 0) * 1000
                if not (sent["t0_ns"] - 10**6 <= ts <= t_end):
                    bad_ts.append((n, ts))
            for sp in SPORTS:
                seqs = [r.get("seq") for r in per.get(sp, [])]
                if seqs != list(range(N)):
                    bad_seq.append((n, sp, seqs))
        tap.ok(not bad_fid, "dex_flow_id_same_at_every_node (type dex, ns 123, Trace-Type)",
               "Flow ID of the packet", bad_fid[:4])
        tap.ok(not bad_seq, "dex_seq_per_flow (0..%d at every node)" % (N - 1), "0..", bad_seq[:4])
        tap.ok(not bad_data, "dex_node_data_each_node (Hop_Lim, node ID, ingress ID, "
               "egress unavailable, namespace data)", "as configured", bad_data[:3])
        tap.ok(not bad_ts, "dex_node_data_timestamps_within_send_window", "in window", bad_ts[:3])
        c = {n: counters(n) for n in ["a"] + EXPORTERS}
        tap.eq([cnt(c["a"], "a-r1", "dex_encap")] +
               [cnt(c[n], IN_IF[n], "dex_export") for n in EXPORTERS],
               [total] * 5, "dex_counted (a encap, every exporter)")

        # Neighbour discovery is link-scope: never part of the domain.
        nd_lst = Listener("r1", 1)
        for ll in (False, True):
            nsrun("a", ["python3", PKT, "nd", ADDR["r1-a"], "--dev", "a-r1",
                        "--count", "3"] + (["--link-local"] if ll else []))
        nd_ev = nd_lst.records(grace=1)
        tap.eq((cnt(counters("a"), "a-r1", "dex_encap"), len(nd_ev)), (total, 0),
               "dex_nd_not_encapsulated (dex_encap unchanged, no event at R1)")
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
