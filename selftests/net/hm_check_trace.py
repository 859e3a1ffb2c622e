#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_check_trace.py - what every hop of the demo topology must report.

Prints one check per line, "name<TAB>expected<TAB>observed", for the shell
side (selftests/lib.sh hm_check) to turn into TAP. A check passes when
expected == observed, so both are rendered as plain strings.

The expected values follow selftests/lib.sh's numbering: node N (A 1, R1 2,
R2 3, R3 4, B 5) has IOAM node_id N, wide node_id 0x10000000 + N, namespace
data 0xa0000000 + N (wide 0x0b00000000000000 + N); the interface of node N
towards A has ID 10N + 1, the one towards B 10N + 2 (wide: + 0x1000000).

  fields FILE --t0 NS --t1 NS [--count N] [--proto P] [--start-hlim 64]
	every field of every hop of every record of hopmarkd's JSON lines
  tshark FILE TSV		records vs tshark -T fields of a capture
  decode FILE DECODED		records vs `hopmark -j decode` of a capture
"""
import argparse
import json
import sys

NAMES = {1: "A", 2: "R1", 3: "R2", 4: "R3", 5: "B"}
U16, U32, U56 = 0xffff, 0xffffffff, 0xffffffffffffff

# Per-node truth. "pos" = a positive number; "agent" = 0 with hopmarkd
# running on the node (noqueue veth: backlog 0 bytes), else None.
# Unavailable is None (JSON null).


def expected_hop(node, start_hlim, agent_nodes):
    """Expected field values of node (1..4) for Trace-Type 0xfff000."""
    ifin = 10 * node + 1
    ifout = 10 * node + 2
    e = {
        "hop": node,
        "hop_limit": start_hlim - (node - 1),
        "node_id": node,
        "ingress_if": ifin,
        "egress_if": ifout,
        "namespace_data": 0xa0000000 + node,
        "checksum_complement": None,
        "node_id_wide": 0x10000000 + node,
        "ingress_if_wide": 0x1000000 + ifin,
        "egress_if_wide": 0x1000000 + ifout,
        "namespace_data_wide": 0x0b00000000000000 + node,
    }
    agent = 0 if node in agent_nodes else None
    if node == 1:
        # A, the encapsulating node (tc egress): writes its data as it sends
        # (Hop_Lim = the hop limit it sends with); no ingress interface, no
        # transit through it, so those fields are unavailable.
        e["ingress_if"] = None
        e["ingress_if_wide"] = None
        e["transit_delay_ns"] = None
        e["queue_depth"] = agent
        e["buffer_occupancy"] = agent
    elif node == 3:
        # R2, Linux (net/ipv6/ioam6.c): queue depth = the egress qdisc
        # backlog in bytes (noqueue on veth: 0); no transit delay, no
        # buffer occupancy.
        e["transit_delay_ns"] = None
        e["queue_depth"] = 0
        e["buffer_occupancy"] = None
    else:
        e["transit_delay_ns"] = "pos"
        e["queue_depth"] = agent
        e["buffer_occupancy"] = agent
    return e


def render(v):
    return "null" if v is None else str(v)


def out(name, exp, obs):
    print("%s\t%s\t%s" % (name, exp, obs))


def agg(values):
    """Observed values over records: one value, or the distinct ones."""
    vs = []
    for v in values:
        if v not in vs:
            vs.append(v)
    return vs[0] if len(vs) == 1 else "|".join(map(str, vs))


def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def cmd_fields(a):
    recs = load(a.file)
    if a.proto is not None:
        recs = [r for r in recs if r["packet"]["proto"] == a.proto]
    agents = [int(x) for x in a.agents.split(",") if x]
    out("records_reported", a.count, len(recs))
    if not recs:
        return
    recs = recs[:a.count]
    t0 = a.t0 - a.t0 % 1000		# timestamps are truncated to us
    t1 = a.t1
    # Record-level fields.
    for key, exp in (("namespace", 123), ("trace_type", "0xfff000"),
                     ("node_len", 15), ("remaining_len", 0),
                     ("data_len", 240), ("overflow", False)):
        out("trace_" + key, render(exp), render(agg(r[key] for r in recs)))
    out("trace_hops_count", 4, agg(len(r["hops"]) for r in recs))
    out("packet_src", a.src, agg(r["packet"]["src"] for r in recs))
    out("packet_dst", a.dst, agg(r["packet"]["dst"] for r in recs))
    out("packet_hop_limit_at_sink", a.start_hlim - 3,
        agg(r["packet"]["hop_limit"] for r in recs))
    out("sink_node_id", 5, agg(r["sink"]["node_id"] for r in recs))
    out("sink_if_id", 51, agg(r["sink"]["if_id"] for r in recs))
    out("sink_rx_ns_in_window", "True",
        agg(t0 <= r["rx_ns"] <= t1 for r in recs))
    # Every hop, every field.
    for node in (1, 2, 3, 4):
        e = expected_hop(node, a.start_hlim, agents)
        hops = [r["hops"][node - 1] if len(r["hops"]) >= node else {}
                for r in recs]
        pfx = "hop%d_%s_" % (node, NAMES[node])
        for key, exp in e.items():
            obs = [h.get(key, "missing") for h in hops]
            if exp == "pos":
                out(pfx + key + "_positive", "True",
                    agg(isinstance(v, int) and v > 0 for v in obs))
            else:
                out(pfx + key, render(exp), render(agg(obs)))
        ts = [h.get("timestamp_ns") for h in hops]
        out(pfx + "timestamp_in_test_window", "True",
            agg(isinstance(v, int) and t0 <= v <= t1 for v in ts))
        out(pfx + "timestamp_frac_below_1e6", "True",
            agg(isinstance(h.get("timestamp_frac"), int) and
                h["timestamp_frac"] < 1000000 for h in hops))
        out(pfx + "timestamp_ns_is_sec_frac", "True",
            agg(h.get("timestamp_ns") == h.get("timestamp_sec", -1) * 10**9 +
                h.get("timestamp_frac", -1) * 1000 for h in hops))
        # An opaque snapshot is not in 0xfff000: no key for it.
        out(pfx + "no_opaque_state", "True",
            agg("opaque_state" not in h for h in hops))
    # Order along the path: hop numbers, node IDs, hop limits, time.
    out("hops_in_path_order", "[1, 2, 3, 4]",
        agg(str([h.get("node_id") for h in r["hops"]]) for r in recs))
    out("hop_numbers", "[1, 2, 3, 4]",
        agg(str([h.get("hop") for h in r["hops"]]) for r in recs))
    out("timestamps_non_decreasing_to_sink", "True",
        agg(all(r["hops"][i]["timestamp_ns"] <= r["hops"][i + 1]["timestamp_ns"]
                for i in range(3)) and r["hops"][3]["timestamp_ns"] <= r["rx_ns"]
            for r in recs))
    # Transit delay is measured from the node's own (us-truncated)
    # timestamp to its egress, so it can exceed the true delay by < 1 us,
    # but never the time until the next node stamped the packet.
    for node in (2, 4):
        nxt = (lambda r: r["hops"][node]["timestamp_ns"]) if node < 4 else \
              (lambda r: r["rx_ns"])
        out("hop%d_%s_transit_delay_below_next_stamp" % (node, NAMES[node]),
            "True",
            agg(r["hops"][node - 1]["transit_delay_ns"] <=
                nxt(r) - r["hops"][node - 1]["timestamp_ns"] + 1000
                for r in recs))
    out("sink_latency_is_rx_minus_last_stamp", "True",
        agg(r["sink"]["latency_ns"] == r["rx_ns"] - r["hops"][3]["timestamp_ns"]
            for r in recs))


# tshark -T fields columns, in the order the shell asks for them.
TSHARK_FIELDS = [
    "ipv6.opt.ioam.trace.ns", "ipv6.opt.ioam.trace.nodelen",
    "ipv6.opt.ioam.trace.remlen", "ipv6.opt.ioam.trace.flag.o",
    "ipv6.opt.ioam.trace.type",
    "ipv6.opt.ioam.trace.node.hlim", "ipv6.opt.ioam.trace.node.id",
    "ipv6.opt.ioam.trace.node.iif", "ipv6.opt.ioam.trace.node.eif",
    "ipv6.opt.ioam.trace.node.tss", "ipv6.opt.ioam.trace.node.tsf",
    "ipv6.opt.ioam.trace.node.trdelay", "ipv6.opt.ioam.trace.node.nsdata",
    "ipv6.opt.ioam.trace.node.qdepth", "ipv6.opt.ioam.trace.node.csum",
    "ipv6.opt.ioam.trace.node.id_wide", "ipv6.opt.ioam.trace.node.iif_wide",
    "ipv6.opt.ioam.trace.node.eif_wide",
    "ipv6.opt.ioam.trace.node.nsdata_wide",
    "ipv6.opt.ioam.trace.node.bufoccup",
]

# JSON key -> (tshark column, all-ones value that JSON reports as null)
JSON_OF_TSHARK = [
    ("node_id", "ipv6.opt.ioam.trace.node.id", 0xffffff),
    ("ingress_if", "ipv6.opt.ioam.trace.node.iif", U16),
    ("egress_if", "ipv6.opt.ioam.trace.node.eif", U16),
    ("timestamp_sec", "ipv6.opt.ioam.trace.node.tss", U32),
    ("timestamp_frac", "ipv6.opt.ioam.trace.node.tsf", U32),
    ("namespace_data", "ipv6.opt.ioam.trace.node.nsdata", U32),
    ("queue_depth", "ipv6.opt.ioam.trace.node.qdepth", U32),
    ("checksum_complement", "ipv6.opt.ioam.trace.node.csum", U32),
    ("node_id_wide", "ipv6.opt.ioam.trace.node.id_wide", U56),
    ("ingress_if_wide", "ipv6.opt.ioam.trace.node.iif_wide", U32),
    ("egress_if_wide", "ipv6.opt.ioam.trace.node.eif_wide", U32),
    ("namespace_data_wide", "ipv6.opt.ioam.trace.node.nsdata_wide",
     0xffffffffffffffff),
    ("buffer_occupancy", "ipv6.opt.ioam.trace.node.bufoccup", U32),
]


def tshark_hops(row):
    """Hops in path order from one tshark row (wire order is reversed)."""
    cols = dict(zip(TSHARK_FIELDS, row.rstrip("\n").split("\t")))
    per = {k: [x for x in v.split(",") if x] for k, v in cols.items()}
    n = len(per["ipv6.opt.ioam.trace.node.id"])
    hops = []
    for i in range(n):
        h = {}
        # hlim occurs twice per node (short and wide node ID fields).
        hl = per["ipv6.opt.ioam.trace.node.hlim"]
        h["hop_limit"] = int(hl[2 * i], 0) if len(hl) == 2 * n else None
        for key, col, unav in JSON_OF_TSHARK:
            v = int(per[col][i], 0) if i < len(per[col]) else "missing"
            h[key] = None if v == unav else v
        td = per["ipv6.opt.ioam.trace.node.trdelay"]
        v = int(td[i], 0) if i < len(td) else "missing"
        h["transit_delay_ns"] = None if v == U32 else v & 0x7fffffff
        hops.append(h)
    hops.reverse()
    head = {"namespace": int(cols["ipv6.opt.ioam.trace.ns"], 0),
            "node_len": int(cols["ipv6.opt.ioam.trace.nodelen"], 0),
            "remaining_len": int(cols["ipv6.opt.ioam.trace.remlen"], 0),
            "overflow": cols["ipv6.opt.ioam.trace.flag.o"] in
            ("1", "True", "TRUE")}
    return head, hops


def hop_key(hops):
    return tuple((h.get("timestamp_sec"), h.get("timestamp_frac"))
                 for h in hops)


def strip(h, keys):
    return {k: h.get(k, "missing") for k in keys}


def compare(recs, others, what):
    """Match each record to the other source's entry by the hops' stamps
    (unique per packet) and compare every field."""
    keys = ["hop_limit"] + [k for k, _, _ in JSON_OF_TSHARK] + \
        ["transit_delay_ns"]
    idx = {hop_key(o[1]): o for o in others}
    matched = 0
    diffs = []
    for r in recs:
        o = idx.get(hop_key(r["hops"]))
        if o is None:
            continue
        matched += 1
        for k in ("namespace", "node_len", "remaining_len", "overflow"):
            if r[k] != o[0].get(k, r[k]):
                diffs.append("%s: json %s %s %s" % (k, r[k], what, o[0][k]))
        for i, (h, g) in enumerate(zip(r["hops"], o[1])):
            a, b = strip(h, keys), strip(g, keys)
            for k in keys:
                if a[k] != b[k]:
                    diffs.append("hop %d %s: json %s, %s %s" %
                                 (i + 1, k, a[k], what, b[k]))
        if len(r["hops"]) != len(o[1]):
            diffs.append("hops: json %d, %s %d" % (len(r["hops"]), what,
                                                   len(o[1])))
    out("%s_packets_matched_to_records" % what, len(recs), matched)
    out("%s_fields_equal_json" % what, "no difference",
        "; ".join(diffs[:6]) if diffs else "no difference")


def cmd_tshark(a):
    recs = load(a.file)
    rows = [tshark_hops(l) for l in open(a.tsv) if l.strip()]
    compare(recs, rows, "tshark")


def cmd_decode(a):
    recs = load(a.file)
    dec = [(d, d["hops"]) for d in load(a.decoded)]
    compare(recs, dec, "decode")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fields")
    f.add_argument("file")
    f.add_argument("--t0", type=int, required=True)
    f.add_argument("--t1", type=int, required=True)
    f.add_argument("--count", type=int, default=1)
    f.add_argument("--proto", type=int)
    f.add_argument("--start-hlim", type=int, default=64)
    f.add_argument("--agents", default="", help="node IDs running hopmarkd")
    f.add_argument("--src", default="2001:db8:1::1")
    f.add_argument("--dst", default="2001:db8:4::2")
    t = sub.add_parser("tshark")
    t.add_argument("file")
    t.add_argument("tsv")
    d = sub.add_parser("decode")
    d.add_argument("file")
    d.add_argument("decoded")
    a = p.parse_args()
    {"fields": cmd_fields, "tshark": cmd_tshark, "decode": cmd_decode}[a.cmd](a)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["tshark-fields"]:
        print(" ".join("-e " + f for f in TSHARK_FIELDS))
        sys.exit(0)
    sys.exit(main())
