#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_check_budget.py - `hopmark budget` against the budget model, recomputed.

Prints one check per line, "name<TAB>expected<TAB>observed", for the shell
side (selftests/lib.sh hm_checks_from) to turn into TAP.

The expected numbers are computed here from the model's formulas
(Documentation/budget.rst, seed 000's in-band metadata budget model), not
taken from hopmark:

  panel A  bytes at n hops f + n*p; max hops at budget B (B - f) // p, -1
           when B < f, "inf" when p = 0 (the postcard's constant 8 bytes)
  panel B  added = fixed + hops * HopML * 4; total = size + added;
           overhead = added / size * 100, one decimal
  panel C  pps = int(rate / 8 / pkt); Gbit/s = pps * f * 16 * 8 / 1e9,
           GB/s = that / 8, three decimals; "yes" when GB/s <= 1.0
  panel D  HopML * 4 * hops + fixed
  panel E  IOAM pre-allocated trace in a Hop-by-Hop header: 2 (Next Header,
           Hdr Ext Len) + 2 (PadN) + 4 (IOAM option header, RFC 9486 §2) +
           8 (trace header, RFC 9197 §4.4) + data, rounded up to 8 (RFC 8200
           §4.3); one option holds at most 244 data bytes (Opt Data Len 255
           minus 11): more is "-"
  panel F  PINT b bits -> ceil(b / 8) bytes, constant; IPv4 carries it in
           the Identification field (0 added), IPv6 in an 8-byte Hop-by-Hop
           header

  text HOPMARK [ARGS...]   check every panel's text, in the panels' order
  json HOPMARK [ARGS...]   the same numbers from `hopmark -j budget`
Options understood in ARGS (the model's parameters): --mtu, --hops,
--bitmap (the INT bitmap's words: bits 0-3 and 7-8 one word, 4-6 two, the
rest one each), --trace-type (IOAM: bits 0-11 one word, 8-10 two), --rate,
--pkt, --sampling.
"""
import json
import math
import re
import subprocess
import sys

WORD = 4
SEED_INT_FIXED, SPEC_INT_FIXED, IOAM_FIXED, POSTCARD = 12, 16, 12, 8
RECORD, BROKER = 16, 1.0
HOP_ML_MAX = 31
IOAM_DATA_MAX = 244

checks = []


def check(name, exp, obs):
    checks.append((name, str(exp), str(obs)))


def int_words(bitmap):
    """INT v2.1 §5.8: one word per bit, two for bits 4-6 (8-octet fields)."""
    words = 0
    for bit in range(16):
        if bitmap & (0x8000 >> bit):
            words += 2 if bit in (4, 5, 6) else 1
    return words


def ioam_node_bytes(tt):
    """RFC 9197 §4.4.1: bits 0-21 one 4-octet word, bits 8-10 two."""
    words = 0
    for bit in range(22):
        if tt & (1 << (23 - bit)):
            words += 2 if bit in (8, 9, 10) else 1
    return words * 4 + (4 if tt & 2 else 0)


def parse_args(args):
    p = {"mtu": [1500, 900], "hops": [8, 16], "bitmap": None, "tt": None,
         "rate": 12.8e12, "pkt": 800.0,
         "sampling": [("full rate 1:1", 1.0), ("sampled 1:1000", 1e-3),
                      ("triggered, top 0.01 % of flows", 1e-5),
                      ("sampled 1:1e6", 1e-6)]}
    it = iter(args)
    for a in it:
        if a == "--mtu":
            p["mtu"] = [int(x) for x in next(it).split(",")]
        elif a == "--hops":
            p["hops"] = [int(x) for x in next(it).split(",")]
        elif a == "--bitmap":
            p["bitmap"] = int(next(it), 0)
        elif a == "--trace-type":
            p["tt"] = int(next(it), 0)
        elif a == "--rate":
            v = next(it)
            mul = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(v[-1], 1)
            p["rate"] = float(v[:-1] if v[-1] in "kMGT" else v) * mul
        elif a == "--pkt":
            p["pkt"] = float(next(it))
        elif a == "--sampling":
            p["sampling"] = []
            for s in next(it).split(","):
                if ":" in s:
                    p["sampling"].append(("sampled " + s, 1 / float(s.split(":")[1])))
                else:
                    p["sampling"].append(("fraction " + s, float(s)))
    return p


def max_hops(f, per_hop, budget):
    if budget < f:
        return -1
    if per_hop == 0:
        return "inf"
    return (budget - f) // per_hop


def prealloc(data):
    return (2 + 2 + 4 + 8 + data + 7) // 8 * 8


def prealloc_max(per_hop, budget):
    if prealloc(0) > budget:
        return -1
    n = IOAM_DATA_MAX // per_hop
    while n > 0 and prealloc(n * per_hop) > budget:
        n -= 1
    return n


def linear_row(p, label, per_hop, fixed):
    return (label, [per_hop, fixed] + [fixed + n * per_hop for n in p["hops"]] +
            [max_hops(fixed, per_hop, b) for b in p["mtu"]])


def prealloc_row(p, label, per_hop):
    return (label, [per_hop, prealloc(0)] +
            [prealloc(n * per_hop) if n * per_hop <= IOAM_DATA_MAX else "-"
             for n in p["hops"]] +
            [prealloc_max(per_hop, b) for b in p["mtu"]])


def int_rows(p, fixed):
    rows = [linear_row(p, "INT-MD spec example (node ID + queue)", 8, fixed),
            linear_row(p, "INT-MD ports + hop latency (4 words)", 16, fixed),
            linear_row(p, "INT-MD worst case (Hop ML 31)", HOP_ML_MAX * WORD, fixed)]
    if p["bitmap"] is not None:
        w = int_words(p["bitmap"])
        rows.append(linear_row(p, "INT-MD bitmap 0x%04x (%d words)" % (p["bitmap"], w),
                               w * WORD, fixed))
    return rows


def hop_ml(p):
    return int_words(p["bitmap"]) if p["bitmap"] is not None else 4


def model(p):
    """Every panel: (key, rows), rows = [(label, [numbers as printed])]."""
    panels = []
    a = int_rows(p, SEED_INT_FIXED)
    a.append(linear_row(p, "IOAM incremental trace, 2 data fields", 2 * WORD, IOAM_FIXED))
    a.append(linear_row(p, "IOAM incremental trace, 5 data fields", 5 * WORD, IOAM_FIXED))
    if p["tt"] is not None:
        a.append(linear_row(p, "IOAM incremental, trace-type 0x%06x" % p["tt"],
                            ioam_node_bytes(p["tt"]), IOAM_FIXED))
    a.append(linear_row(p, "Postcard (trigger)", 0, POSTCARD))
    panels.append(("A", a))
    hops, ml = p["hops"][-1], hop_ml(p)
    for key, fixed in (("B", SEED_INT_FIXED),):
        panels.append((key, panel_b(hops, ml, fixed)))
    pps = int(p["rate"] / 8 / p["pkt"])
    c = [("pps", [pps])]
    for label, f in p["sampling"]:
        gbps = pps * f * RECORD * 8 / 1e9
        c.append((label, ["%g" % f, "%.3f" % gbps, "%.3f" % (gbps / 8),
                          "yes" if gbps / 8 <= BROKER else "no"]))
    panels.append(("C", c))
    panels.append(("D", [("differential", [ml, hops, SEED_INT_FIXED,
                                           ml * 4 * hops + SEED_INT_FIXED])]))
    panels.append(("A16", int_rows(p, SPEC_INT_FIXED)))
    panels.append(("B16", panel_b(hops, ml, SPEC_INT_FIXED)))
    panels.append(("D16", [("differential", [ml, hops, SPEC_INT_FIXED,
                                             ml * 4 * hops + SPEC_INT_FIXED]),
                           ("spec example", [2, 8, SPEC_INT_FIXED, 2 * 4 * 8 + SPEC_INT_FIXED])]))
    e = [prealloc_row(p, "IOAM pre-allocated trace, 2 data fields", 2 * WORD),
         prealloc_row(p, "IOAM pre-allocated trace, 5 data fields", 5 * WORD)]
    if p["tt"] is not None:
        e.append(prealloc_row(p, "IOAM pre-allocated, trace-type 0x%06x" % p["tt"],
                              ioam_node_bytes(p["tt"])))
    panels.append(("E", e))
    panels.append(("F", [linear_row(p, "PINT digest, b = 8 bits", 0, math.ceil(8 / 8)),
                         linear_row(p, "PINT digest, b = 16 bits", 0, math.ceil(16 / 8)),
                         linear_row(p, "PINT over IPv4 (in Identification)", 0, 0),
                         linear_row(p, "PINT over IPv6 (Hop-by-Hop)", 0, 8)]))
    return panels


def panel_b(hops, ml, fixed):
    added = fixed + hops * ml * WORD
    rows = [("added", [added])]
    for size in (1500, 900, 256, 64):
        rows.append(("packet %d" % size,
                     [size, added, size + added, "%.1f%%" % (added / size * 100)]))
    return rows


def run(hopmark, args, j=False):
    cmd = [hopmark] + (["-j"] if j else []) + ["budget"] + args
    r = subprocess.run(cmd, capture_output=True, text=True)
    check("budget_%s_exit_status" % ("json" if j else "text"), 0, r.returncode)
    return r.stdout


def text_panels(out):
    """Panel key -> its lines, and the keys in the order printed."""
    order, lines, key = [], {}, None
    for line in out.splitlines():
        m = re.match(r"^([A-Z]\d*)\. ", line)
        if m:
            key = m.group(1)
            order.append(key)
            lines[key] = []
        elif key and line.startswith("  "):
            lines[key].append(line[2:])
    return order, lines


def tokens(s):
    return s.split()


def check_text(hopmark, args):
    p = parse_args(args)
    order, lines = text_panels(run(hopmark, args))
    check("panels_in_order", " ".join(["A", "B", "C", "D", "A16", "B16", "C16", "D16", "E", "F"]),
          " ".join(order))
    for key, rows in model(p):
        got = lines.get(key, [])
        if key in ("A", "A16", "E", "F"):
            data = [l for l in got if re.match(r"^\S.*?\s{2,}-?\d", l) and
                    not l.startswith("mode") and not l.startswith("(")]
            check("%s_row_count" % key, len(rows), len(data))
            for i, (label, nums) in enumerate(rows):
                obs = data[i] if i < len(data) else ""
                m = re.match(r"^(.+?)\s{2,}(.*)$", obs)
                check("%s_%d_%s" % (key, i + 1, re.sub(r"\W+", "_", label).strip("_")),
                      label + " | " + " ".join(str(n) for n in nums),
                      (m.group(1) + " | " + " ".join(tokens(m.group(2)))) if m else obs)
        elif key in ("B", "B16"):
            added = rows[0][1][0]
            hdr = [l for l in got if l.startswith("added = ")]
            check("%s_added" % key, added,
                  hdr[0].split("=")[-1].split()[0] if hdr else "missing")
            data = [l for l in got if re.match(r"^\s*\d", l)]
            check("%s_row_count" % key, len(rows) - 1, len(data))
            for i, (label, nums) in enumerate(rows[1:]):
                check("%s_%s" % (key, label.replace(" ", "_")),
                      " ".join(str(n) for n in nums),
                      " ".join(tokens(data[i])) if i < len(data) else "missing")
        elif key == "C":
            head = [l for l in got if "packets/s" in l]
            check("C_pps", rows[0][1][0], head[0].split()[0] if head else "missing")
            data = [l for l in got if not l.startswith("sampling") and "packets/s" not in l]
            check("C_row_count", len(rows) - 1, len(data))
            for i, (label, nums) in enumerate(rows[1:]):
                obs = data[i] if i < len(data) else ""
                m = re.match(r"^(.+?)\s{2,}(.*)$", obs)
                check("C_%s" % re.sub(r"\W+", "_", label).strip("_"),
                      label + " | " + " ".join(nums),
                      (m.group(1) + " | " + " ".join(tokens(m.group(2)))) if m else obs)
        else:
            for i, (label, nums) in enumerate(rows):
                obs = got[i] if i < len(got) else ""
                ml, hops, fixed, total = nums
                check("%s_%s" % (key, label.replace(" ", "_")),
                      "%d x 4 x %d + %d = %d B" % (ml, hops, fixed, total),
                      re.sub(r"^.*?\s{2,}", "", obs).strip() if obs else "missing")


def jnum(v):
    if v is None:
        return "inf"
    return v


def check_json(hopmark, args):
    p = parse_args(args)
    out = run(hopmark, args, j=True)
    try:
        doc = json.loads(out)
    except ValueError as e:
        check("json_parses", "one JSON object", "%s: %r" % (e, out[:200]))
        return
    want = [k for k, _ in model(p)]
    check("json_panels_in_order", " ".join(want), " ".join(doc))
    for key, rows in model(p):
        d = doc.get(key, {})
        name = "json_" + key
        if key in ("A", "A16", "E", "F"):
            got = d.get("rows", [])
            check(name + "_row_count", len(rows), len(got))
            for i, (label, nums) in enumerate(rows):
                r = got[i] if i < len(got) else {}
                obs = [r.get("per_hop"), r.get("fixed")]
                obs += [("-" if b["bytes"] is None else b["bytes"]) for b in r.get("bytes", [])]
                obs += [jnum(m["max_hops"]) for m in r.get("max_hops", [])]
                hops = [b["hops"] for b in r.get("bytes", [])]
                mtus = [m["mtu"] for m in r.get("max_hops", [])]
                check("%s_%d" % (name, i + 1),
                      "%s %s hops %s mtu %s" % (label, nums, p["hops"], p["mtu"]),
                      "%s %s hops %s mtu %s" % (r.get("mode"), obs, hops, mtus))
        elif key in ("B", "B16"):
            added = rows[0][1][0]
            got = d.get("rows", [])
            for i, (label, nums) in enumerate(rows[1:]):
                r = got[i] if i < len(got) else {}
                size = nums[0]
                check("%s_%d" % (name, size),
                      [size, added, size + added, added / size * 100],
                      [r.get("packet"), r.get("added"), r.get("total"), r.get("overhead_pct")])
        elif key == "C":
            pps = int(p["rate"] / 8 / p["pkt"])
            check(name + "_pps", pps, d.get("pps"))
            got = d.get("rows", [])
            for i, (label, f) in enumerate(p["sampling"]):
                r = got[i] if i < len(got) else {}
                gbps = pps * f * RECORD * 8 / 1e9
                check("%s_%d" % (name, i + 1),
                      [label, f, gbps, gbps / 8, gbps / 8 <= BROKER],
                      [r.get("sampling"), r.get("fraction"), r.get("gbit_s"),
                       r.get("gbyte_s"), r.get("keeps_up")])
        else:
            got = d.get("rows", [])
            for i, (label, nums) in enumerate(rows):
                r = got[i] if i < len(got) else {}
                check("%s_%d" % (name, i + 1), nums,
                      [r.get("hop_ml"), r.get("hops"), r.get("fixed"), r.get("bytes")])


def main():
    mode, hopmark, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if mode == "text":
        check_text(hopmark, args)
    elif mode == "json":
        check_json(hopmark, args)
    else:
        sys.exit("usage: hm_check_budget.py { text | json } HOPMARK [ARGS...]")
    for name, exp, obs in checks:
        print("%s\t%s\t%s" % (name, exp, obs))


if __name__ == "__main__":
    main()
