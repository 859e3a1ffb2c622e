#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""int_report_case.py - records for hopmarkd's INT exporter and what the
collector must receive for them (selftests/net/test_int_report.sh).

  int_report_case.py gen CASE OUT
      write CASE's records (struct int_record, lib/int/int_maps.h, host
      byte order, 1376 octets each) to OUT, for int_feed run
  int_report_case.py frames CASE OUT
      write CASE's packets as Ethernet frames (each a 4-octet
      little-endian length, then the frame) to OUT, for int_feed sink: the
      INT datapath's sink program makes the records
  int_report_case.py check CASE RX FIRST SEQ0 [--trunc N] [--coalesce N]
                     [--hw-id N] [--sport N] [--family 4|6] [--repeat N]
      compare the JSON lines of int_report_rx.py in RX, from line FIRST
      (0-based) on, with CASE's records fed REPEAT times (default 1): every
      report's fields and metadata, the inner packet octet for octet (the
      truncation and its zero padding, or the exact octets of a Report
      Length 0xff report), the INT stack of the inner packet hop for hop,
      the grouping of reports into datagrams (at most --coalesce, never
      past a 0xff report, never beyond the 1500-octet path), the sequence
      numbers from SEQ0 on, the outer headers (DF, DSCP 0, UDP checksum,
      source port). With --sink-node ID the records came from the sink
      program: the Node ID is ID and the sink's own metadata (L1
      interfaces, queue: RepMdBits 0x5000, the packet's bits 1-8) is
      checked for its fields, not its values. Prints "# ..." lines for
      each difference, exits 1 on any, else prints a summary and exits 0.

The expected datagrams are worked out here from the spec, not from the
agent's code: greedy packing in feed order, which is what one drain of a
ring that holds every record gives (the test stops the agent while
feeding).
"""
import argparse
import json
import struct
import sys

REC_FMT = "<QIBBBBHHHHIB3x64s1280s"
REC_SIZE = struct.calcsize(REC_FMT)
INT_PORT = 5555
KIND = {"sink": 0, "xd": 1, "mx": 2, "drop": 3, "queue": 4}
F_D, F_Q, F_F, F_I = 0x80, 0x40, 0x20, 0x10
BITMAP = 0xd000		# node ID, L1 interfaces, queue: Hop ML 3


def csum16(b):
    if len(b) & 1:
        b += b"\0"
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def hops_for(k):
    """Three hops, most recent first: node IDs 4, 3, 2."""
    return [{"node_id": n, "l1_ingress": n * 10 + 1, "l1_egress": n * 10 + 2,
             "queue_id": n & 7, "queue_occupancy": 1000 * n + k} for n in (4, 3, 2)]


def int_packet(family, k, sport, payload):
    """IP / UDP to INT_PORT (NPT=2) / shim / MD / 3 hops / TCP / payload.

    The sink reports the packet as received: the 5-tuple an exporter can
    see is the IP addresses and the inserted UDP header's ports.
    """
    stack = b"".join(struct.pack(">IHHI", h["node_id"], h["l1_ingress"], h["l1_egress"],
                                 h["queue_id"] << 24 | h["queue_occupancy"])
                     for h in hops_for(k))
    md = struct.pack(">IHHHH", 2 << 28 | 3 << 8 | 5, BITMAP, 0, 0, 0)
    shim = bytes([1 << 4 | 2 << 2, (12 + len(stack)) // 4, 0, 6])
    tcp = struct.pack(">HHIIBBHHH", sport, 80, k, 0, 0x50, 0x18, 512, 0, 0)
    l4 = shim + md + stack + tcp + payload
    # the INT source's UDP source port: a function of the flow (entropy)
    udp = struct.pack(">HHHH", 0xc000 | (sport * 2654435761 >> 7) & 0x3fff, INT_PORT,
                      8 + len(l4), 0) + l4
    if family == 4:
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), k, 0x4000, 64, 17, 0,
                         bytes([192, 0, 2, 1]), bytes([198, 51, 100, 2]))
        ip = ip[:10] + struct.pack(">H", csum16(ip)) + ip[12:]
    else:
        ip = struct.pack(">IHBB16s16s", 6 << 28, len(udp), 17, 64,
                         bytes.fromhex("20010db8000000000000000000000001"),
                         bytes.fromhex("20010db8000000000000000000000002"))
    return ip + udp


class Rec:
    def __init__(self, kind, k, family=4, sport=None, payload=10, flags=F_F,
                 bits=0x5000, md=None, pkt_len=None, drop_reason=0, queue_id=0, node_id=5):
        self.kind, self.flags, self.family = kind, flags, family
        self.k, self.node_id, self.bits = k, node_id, bits
        self.drop_reason, self.queue_id = drop_reason, queue_id
        self.tuple = (family, 1000 + k if sport is None else sport)
        self.pkt = int_packet(family, k, self.tuple[1], bytes(payload))
        self.pkt_len = len(self.pkt) if pkt_len is None else pkt_len
        # L1 ingress/egress of the sink, then its queue ID + occupancy
        self.md_fields = {"l1_ingress": 51, "l1_egress": 50 + k,
                          "queue_id": 1, "queue_occupancy": 7000 + k}
        self.md = md if md is not None else struct.pack(
            ">HHI", 51, 50 + k, 1 << 24 | (7000 + k))

    def pack(self):
        return struct.pack(REC_FMT, 1700000000000000000 + self.k, 7, KIND[self.kind],
                           self.flags, self.family, self.drop_reason, self.bits,
                           len(self.md), self.pkt_len, len(self.pkt), self.node_id,
                           self.queue_id, self.md, self.pkt)

    def valid(self):
        return len(self.md) == 8 + 4 * (self.bits & 1) and not self.bits & 0x8000


def case(name):
    if name == "basic":
        # record 4 has the 5-tuple of record 0: the same hashed source port
        return [Rec("sink", k, sport=1000 if k == 4 else None, payload=10 + 10 * k)
                for k in range(5)]
    if name == "kinds":
        return [Rec("xd", 0), Rec("mx", 1, flags=F_F | F_I),
                Rec("drop", 2, drop_reason=7, queue_id=2),
                Rec("queue", 3, flags=0), Rec("sink", 4, bits=0x5001,
                                              md=struct.pack(">HHIBBH", 51, 54, 1 << 24 | 7004,
                                                             1, 9, 0))]
    if name == "coalesce":
        return [Rec("sink", k) for k in range(7)]
    if name == "big":
        return [Rec("sink", 0), Rec("sink", 1), Rec("sink", 2, payload=1200 - 128),
                Rec("sink", 3)]
    if name == "size":
        return [Rec("sink", k, payload=600 - 128) for k in range(5)]
    if name == "trunc":
        return [Rec("sink", 0, payload=200), Rec("sink", 1, payload=2)]
    if name == "flood":
        return [Rec("sink", 0)]
    if name == "v6":
        return [Rec("sink", k, family=6) for k in range(3)]
    if name == "sinkpath":
        return [Rec("sink", k, payload=20 * k) for k in range(4)] + [Rec("sink", 4, family=6)]
    if name == "bad":
        return [Rec("sink", 0), Rec("sink", 1, md=b"\0\0\0\1"), Rec("sink", 2)]
    raise SystemExit("unknown case %s" % name)


def expect_report(r, trunc, coalesce):
    """What the spec makes of record r: the report's fields and inner octets."""
    t = min(trunc, 1280, 1016 if coalesce > 1 else 1280)
    pkt = r.pkt[:min(r.pkt_len, t)]
    bits, md = r.bits, dict(r.md_fields)
    flags = r.flags & 0xf0 | {"sink": F_F, "xd": F_F, "mx": F_F, "drop": F_D, "queue": F_Q}[r.kind]
    drop = None
    if r.kind == "drop":
        bits |= 1
        drop = (r.queue_id, r.drop_reason)
    else:
        bits &= ~1
    md_len = 2 + (1 if bits & 1 else 0)
    pad = (-len(pkt)) % 4
    words = 2 + md_len + (len(pkt) + pad) // 4
    to_end = words >= 255
    inner = pkt if to_end else pkt + bytes(pad)
    e = {"rep_type": 1, "in_type": (4 if r.family == 4 else 5) if pkt else 0,
         "len": 0xff if to_end else words, "md_len": md_len,
         "d": flags >> 7, "q": (flags >> 6) & 1, "f": (flags >> 5) & 1, "i": (flags >> 4) & 1,
         "rsvd": 0, "rep_md_bits": "0x%04x" % bits, "ds_id": 0, "ds_md_bits": 0,
         "ds_md_status": 0, "md": md, "inner_len": len(inner), "inner_hex": inner.hex()}
    if drop:
        e["drop_queue_id"], e["drop_reason"] = drop
    size = 4 + 8 + md_len * 4 + len(inner)
    return e, size, to_end


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["gen", "frames", "check"])
    ap.add_argument("case")
    ap.add_argument("file")
    ap.add_argument("first", nargs="?", type=int, default=0)
    ap.add_argument("seq0", nargs="?", type=int, default=0)
    ap.add_argument("--trunc", type=int, default=1280)
    ap.add_argument("--coalesce", type=int, default=1)
    ap.add_argument("--hw-id", type=int, default=0)
    ap.add_argument("--sport", type=int, default=0)
    ap.add_argument("--family", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--sink-node", type=int)
    a = ap.parse_args()
    recs = case(a.case)
    if a.cmd == "gen":
        with open(a.file, "wb") as f:
            for r in recs:
                f.write(r.pack())
        return 0
    if a.cmd == "frames":
        with open(a.file, "wb") as f:
            for r in recs:
                eth = bytes.fromhex("020000000002020000000001") + \
                    (b"\x08\x00" if r.family == 4 else b"\x86\xdd")
                f.write(struct.pack("<I", 14 + len(r.pkt)) + eth + r.pkt)
        return 0
    if a.sink_node is not None:
        for r in recs:
            r.node_id = a.sink_node

    max_len = 1500 - (20 if a.family == 4 else 40) - 8
    # expected datagrams: greedy packing in feed order
    dgrams, cur, cur_len, closed = [], None, 0, False
    for r in (r for r in recs for _ in range(a.repeat)):
        if not r.valid():
            continue
        e, size, to_end = expect_report(r, a.trunc, a.coalesce)
        if cur is None or closed or len(cur["reports"]) >= a.coalesce or \
           cur_len + size > max_len or cur["node_id"] != r.node_id:
            cur = {"node_id": r.node_id, "reports": [], "recs": []}
            dgrams.append(cur)
            cur_len, closed = 8, False
        cur["reports"].append(e)
        cur["recs"].append(r)
        cur_len += size
        closed = to_end

    lines = open(a.file).read().splitlines()[a.first:]
    got = [json.loads(x) for x in lines]
    errs = []
    if len(got) != len(dgrams):
        errs.append("datagrams: expected %d, observed %d (reports per datagram expected %s, observed %s)"
                    % (len(dgrams), len(got), [len(d["reports"]) for d in dgrams],
                       [len(g.get("reports", [])) for g in got]))
    sports = {}
    for i, (d, g) in enumerate(zip(dgrams, got)):
        o = g["outer"]
        exp_hdr = {"ver": 2, "hw_id": a.hw_id, "seq": (a.seq0 + i) & 0x3fffff, "node_id": d["node_id"]}
        for k, v in exp_hdr.items():
            if g.get(k) != v:
                errs.append("datagram %d: %s expected %s, observed %s" % (i, k, v, g.get(k)))
        if g.get("errors"):
            errs.append("datagram %d: receiver found %s" % (i, g["errors"]))
        if o["dscp"] != 0 or o["ecn"] != 0:
            errs.append("datagram %d: DSCP/ECN expected 0/0, observed %d/%d" % (i, o["dscp"], o["ecn"]))
        if a.family == 4 and o.get("df") != 1:
            errs.append("datagram %d: DF expected 1, observed %s" % (i, o.get("df")))
        if o["udp_csum_ok"] is not True:
            errs.append("datagram %d: UDP checksum 0x%04x not valid (%s)" % (i, o["udp_csum"], o["udp_csum_ok"]))
        if 8 + o["len"] > max_len + 8 or o["len"] - 8 > max_len:
            errs.append("datagram %d: %d octets of UDP payload, above %d" % (i, o["len"] - 8, max_len))
        if a.sport:
            if o["sport"] != a.sport:
                errs.append("datagram %d: source port expected %d, observed %d" % (i, a.sport, o["sport"]))
        else:
            if not 0xc000 <= o["sport"] <= 0xffff:
                errs.append("datagram %d: hashed source port %d outside 49152-65535" % (i, o["sport"]))
            sports.setdefault(d["recs"][0].tuple, set()).add(o["sport"])
        for j, (e, gr) in enumerate(zip(d["reports"], g.get("reports", []))):
            for k, v in e.items():
                if k == "md" and a.sink_node is not None:
                    if sorted(gr.get("md", {})) != sorted(v):
                        errs.append("datagram %d report %d: sink metadata fields expected %s, observed %s"
                                    % (i, j, sorted(v), sorted(gr.get("md", {}))))
                    continue
                if gr.get(k) != v:
                    vv = gr.get(k)
                    if k == "inner_hex":
                        v, vv = v[:64] + "...", (vv or "")[:64] + "..."
                    errs.append("datagram %d report %d: %s expected %s, observed %s" % (i, j, k, v, vv))
            r = d["recs"][j]
            inner_int = gr.get("inner", {}).get("int", {})
            if e["inner_len"] >= 20 + 8 + 16 + 36 and inner_int.get("hops") != hops_for(r.k):
                errs.append("datagram %d report %d: INT hops expected %s, observed %s"
                            % (i, j, hops_for(r.k), inner_int.get("hops")))
        if len(g.get("reports", [])) != len(d["reports"]):
            errs.append("datagram %d: reports expected %d, observed %d"
                        % (i, len(d["reports"]), len(g.get("reports", []))))
    if a.case == "basic" and not a.sport:
        if len(sports.get((4, 1000), ())) != 1:
            errs.append("the same 5-tuple gave source ports %s" % sorted(sports.get((4, 1000), ())))
        if len(set().union(*sports.values())) < 3:
            errs.append("5 tuples gave only source ports %s" % sorted(set().union(*sports.values())))
    for e in errs[:20]:
        print("# " + e)
    if len(errs) > 20:
        print("# ... %d more" % (len(errs) - 20))
    if errs:
        return 1
    print("# %d datagram(s), %d report(s), seq %d..%d as expected" %
          (len(dgrams), sum(len(d["reports"]) for d in dgrams), a.seq0,
           a.seq0 + len(dgrams) - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
