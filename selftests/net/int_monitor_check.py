#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""int_monitor_check.py - compare `hopmark -j monitor`'s INT record lines
(Documentation/int.rst, "Monitoring INT") with the records fed
(selftests/net/test_int_monitor.sh).

  int_monitor_check.py json CASE FILE UDP_PORT
      every line of FILE against CASE's records (int_report_case.py), in
      feed order, key by key: the record's own fields, the flags, RepMdBits
      and metadata its report carries, the signalling, the packet (hex and
      decoded) and its INT stack hop for hop
  int_monitor_check.py text CASE FILE
      the text tables: one header line per record with its kind, node ID,
      flags, RepMdBits and drop reason, the metadata row, the packet's
      addresses and its INT-MD stack, hops in path order

Prints "# expected ..., observed ..." for each difference and exits 1 on
any. The expected values are worked out from the records, not from the
agent's code.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from int_report_case import case, expect_report, hops_for  # noqa: E402

DROP_NAMES = {7: "bad-header"}


def rfc3339(ns):
    import datetime
    s = datetime.datetime.fromtimestamp(ns // 10**9, datetime.timezone.utc)
    return s.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % (ns % 10**9)


def expect(r, port):
    rep, _, _ = expect_report(r, 1280, 1)
    ts = 1700000000000000000 + r.k
    pkt = r.pkt[:r.pkt_len]
    e = {"int_record": r.kind, "ts_ns": ts, "time": rfc3339(ts), "ifindex": 7,
         "node_id": r.node_id, "family": r.family,
         "d": rep["d"], "q": rep["q"], "f": rep["f"], "i": rep["i"],
         "rep_md_bits": rep["rep_md_bits"], "md_len": rep["md_len"], "md": rep["md"]}
    if "drop_reason" in rep:
        e["drop_queue_id"] = rep["drop_queue_id"]
        e["drop_reason"] = rep["drop_reason"]
        e["drop_reason_name"] = DROP_NAMES[rep["drop_reason"]]
    e.update({"signal": {"udp_port": port}, "orig_len": len(r.pkt), "pkt_len": len(pkt)})
    src, dst = ("192.0.2.1", "198.51.100.2") if r.family == 4 else ("2001:db8::1", "2001:db8::2")
    udp_sport = int.from_bytes(pkt[20 if r.family == 4 else 40:][:2], "big")
    e["packet"] = {"ip_ver": r.family, "src": src, "dst": dst, "dscp": 0, "ttl": 64,
                   "ip_len": len(r.pkt), "proto": 17, "sport": udp_sport, "dport": port}
    e["int"] = {"type": "md", "npt": 2, "shim_len": 3 + 9, "orig_proto": 6, "ver": 2,
                "d": 0, "e": 0, "m": 0, "hop_ml": 3, "rhc": 5, "bitmap": "0xd000",
                "ds_id": 0, "ds_instruction": 0, "ds_flags": 0, "hops": hops_for(r.k)}
    e["pkt"] = pkt.hex()
    return e


def check_json(recs, lines, port):
    errs = []
    if len(lines) != len(recs):
        errs.append("lines: expected %d, observed %d" % (len(recs), len(lines)))
    for n, (r, line) in enumerate(zip(recs, lines)):
        got = json.loads(line)
        exp = expect(r, port)
        if list(got) != list(exp):
            errs.append("line %d: keys expected %s, observed %s" % (n + 1, list(exp), list(got)))
        for k, v in exp.items():
            if got.get(k) != v:
                errs.append("line %d (%s): %s expected %s, observed %s"
                            % (n + 1, r.kind, k, v, got.get(k)))
    return errs


def check_text(recs, text):
    errs = []
    blocks = [b for b in text.split("\n\n") if b.startswith("INT ")]
    if len(blocks) != len(recs):
        errs.append("tables: expected %d, observed %d" % (len(recs), len(blocks)))
    for n, (r, b) in enumerate(zip(recs, blocks)):
        rep, _, _ = expect_report(r, 1280, 1)
        ts = 1700000000000000000 + r.k
        flags = "".join(" " + f.upper() for f in "dqfi" if rep[f])
        head = "INT %s record %s node-id %d ifindex 7 flags%s rep-md-bits %s md-len %d" % (
            r.kind, rfc3339(ts), r.node_id, flags, rep["rep_md_bits"], rep["md_len"])
        if "drop_reason" in rep:
            head += " drop-queue-id %d drop-reason %d (%s)" % (
                rep["drop_queue_id"], rep["drop_reason"], DROP_NAMES[rep["drop_reason"]])
        head += " orig-len %d pkt-len %d" % (len(r.pkt), r.pkt_len)
        md = rep["md"]
        rows = b.splitlines()
        exp = [head,
               "         l1-in/out   qid       qocc",
               "    md %11s %5d %10d" % ("%d/%d" % (md["l1_ingress"], md["l1_egress"]),
                                          md["queue_id"], md["queue_occupancy"])]
        hops = hops_for(r.k)
        for i, h in enumerate(hops):
            exp.append("  %4d %10d %11s %5d %10d" % (
                len(hops) - i, h["node_id"], "%d/%d" % (h["l1_ingress"], h["l1_egress"]),
                h["queue_id"], h["queue_occupancy"]))
        got = [rows[0], rows[1], rows[2]] + rows[-3:] if len(rows) >= 6 else rows
        for i, (e, g) in enumerate(zip(exp, got)):
            if e != g:
                errs.append("table %d row %d: expected %r, observed %r" % (n + 1, i, e, g))
        if not any(x.startswith("  packet: ") and "> " in x and " proto 17 " in x for x in rows):
            errs.append("table %d: no packet line in %r" % (n + 1, rows))
    return errs


def main():
    mode, name, path = sys.argv[1:4]
    recs = case(name)
    data = open(path).read()
    if mode == "json":
        errs = check_json(recs, data.splitlines(), int(sys.argv[4]))
    else:
        errs = check_text(recs, data)
    for e in errs[:30]:
        print("# " + e)
    if errs:
        return 1
    print("# %d record(s) as fed" % len(recs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
