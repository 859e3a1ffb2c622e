#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""fwd_report.py - the table and the JSON of the forwarding benchmark.

Reads the samples bench/fwd_bench.sh wrote, one per line, tab-separated:

  rep gen kind mode sent seconds gen_tx forwarded sink_dropped router_ns [fwd_bytes]

(gen: xdp, live XDP frames, skb, an AF_PACKET socket, or tcp, an iperf3
TCP stream whose MSS segments the router's GRO merges into GSO skbs; sent: frames
the generator sent; gen_tx: fwdg0's tx_packets, frames the router's
receive ring took, the rest was dropped
there because the router was busy; forwarded: fwdr1's tx_packets, frames
the sink's NAPI took; sink_dropped: fwdr1's tx_dropped, frames the router
forwarded into a full sink ring; router_ns: run time of the router's NAPI
kthread, /proc/PID/schedstat; fwd_bytes: fwdr1's tx_bytes). veth counts a NAPI peer's frames on the
sender's tx counters, which is why both ends read the router's side.

A sample's rate is what the router forwarded, (forwarded + sink_dropped) /
seconds, or gen_tx / seconds for the ceiling mode, where the router drops
at XDP. Its CPU figure is router_ns / gen_tx: the router's CPU time per
frame it received, which does not depend on what else runs on its CPU.

Per generator, kind and mode: the median rate, its range and spread ((max - min) /
median), the median CPU time per frame, and the ratios to plain and to
kernel taken within each repetition (same repetition, adjacent runs) and
then their median and range: of the rate ("x plain") and of the CPU time,
as a speed (plain's ns / the mode's ns, "cpu x plain"). For the tcp
generator a frame is an MSS segment, and the rows add Mbit/s forwarded and
the router's ns per KB (1000 octets of fwd_bytes).

With --sink-agent (the hm-agent mode's sink hopmarkd: records, ring_lost,
events_lost, CPU ns per line), its records and losses; with
--sink-agent-samples (gen, kind, records, ring_lost per timed sample), the
same per generator and kind.

Exit status 1 when a sample moved no packet at all.
"""
import argparse
import json
import os
import statistics
import sys

MODE_ORDER = ["ceiling", "plain", "kernel", "hm-xdp", "B-hm-xdp", "hm-tc", "hm-agent", "noop-xdp",
              "noop-tc", "hm-int", "pbt-head", "pbt"]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("samples")
    ap.add_argument("--json")
    ap.add_argument("--router-cpu", default="?")
    ap.add_argument("--gen-cpu", default="?")
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--frames", type=int, default=0)
    ap.add_argument("--agent", help="the pbt mode's hopmarkd: records sent, octets, CPU ns per line")
    ap.add_argument("--sink-agent", help="the hm-agent mode's sink hopmarkd: records, ring_lost,"
                    " events_lost, CPU ns per line")
    ap.add_argument("--sink-agent-samples", help="gen, kind, records, ring_lost per timed sample")
    a = ap.parse_args()

    samples = []
    with open(a.samples) as f:
        for line in f:
            x = line.rstrip("\n").split("\t")
            rep, gen, kind, mode, sent, secs, gen_tx, fwd, sdrop, rt_ns = x[:10]
            fbytes = int(x[10]) if len(x) > 10 else 0
            secs = float(secs)
            pkts = int(gen_tx) if mode == "ceiling" else int(fwd) + int(sdrop)
            samples.append({
                "rep": int(rep), "gen": gen, "kind": kind, "mode": mode, "sent": int(sent),
                "seconds": secs, "gen_tx": int(gen_tx), "forwarded": int(fwd),
                "sink_dropped": int(sdrop), "router_ns": int(rt_ns), "fwd_bytes": fbytes,
                "mbit_s": fbytes * 8 / secs / 1e6 if secs > 0 else 0.0,
                "router_ns_per_kbyte": int(rt_ns) / (fbytes / 1e3) if fbytes else None,
                "pps": pkts / secs if secs > 0 else 0.0,
                "offered_pps": int(sent) / secs if secs > 0 else 0.0,
                "router_ns_per_pkt": int(rt_ns) / int(gen_tx) if int(gen_tx) else None,
            })
    bad = [s for s in samples if s["pps"] <= 0]

    kinds = []
    for s in samples:
        if (s["gen"], s["kind"]) not in kinds:
            kinds.append((s["gen"], s["kind"]))
    by = {}
    for s in samples:
        by.setdefault(((s["gen"], s["kind"]), s["mode"]), {})[s["rep"]] = s

    def ratios(kind, mode, base):
        num, den = by.get((kind, mode), {}), by.get((kind, base), {})
        return [num[r]["pps"] / den[r]["pps"] for r in num
                if r in den and den[r]["pps"] > 0]

    def cpu_ratios(kind, mode, base):
        num, den = by.get((kind, mode), {}), by.get((kind, base), {})
        return [den[r]["router_ns_per_pkt"] / num[r]["router_ns_per_pkt"] for r in num
                if r in den and num[r]["router_ns_per_pkt"] and den[r]["router_ns_per_pkt"]]

    rows = []
    for kind in kinds:
        for mode in MODE_ORDER:
            reps = by.get((kind, mode))
            if not reps:
                continue
            pps = [s["pps"] for s in reps.values()]
            ns = [s["router_ns_per_pkt"] for s in reps.values()
                  if s["router_ns_per_pkt"] is not None]
            med = statistics.median(pps)
            row = {
                "bench": "fwd", "gen": kind[0], "kind": kind[1], "mode": mode,
                "reps": len(pps),
                "pps_median": round(med), "pps_min": round(min(pps)),
                "pps_max": round(max(pps)),
                "spread_pct": round(100 * (max(pps) - min(pps)) / med, 1) if med else None,
                "offered_pps_median": round(statistics.median(
                    s["offered_pps"] for s in reps.values())),
                "sink_dropped": sum(s["sink_dropped"] for s in reps.values()),
                "router_ring_dropped": sum(max(0, s["sent"] - s["gen_tx"]) for s in reps.values()),
                "router_ring_lost_pct": round(100 * statistics.median(
                    max(0, s["sent"] - s["gen_tx"]) / s["sent"] if s["sent"] else 0
                    for s in reps.values()), 1),
                "router_ns_per_pkt_median": round(statistics.median(ns), 1) if ns else None,
                "router_ns_per_pkt_min": round(min(ns), 1) if ns else None,
                "router_ns_per_pkt_max": round(max(ns), 1) if ns else None,
                "samples": [{k: s[k] for k in ("rep", "sent", "seconds", "gen_tx",
                                               "forwarded", "sink_dropped", "router_ns",
                                               "fwd_bytes")}
                            for s in sorted(reps.values(), key=lambda s: s["rep"])],
            }
            if kind[0] == "tcp":
                kb = [s["router_ns_per_kbyte"] for s in reps.values()
                      if s["router_ns_per_kbyte"] is not None]
                row["mbit_s_median"] = round(statistics.median(
                    s["mbit_s"] for s in reps.values()), 1)
                row["router_ns_per_kbyte_median"] = round(statistics.median(kb), 1) if kb else None
            for base in ("plain", "kernel"):
                if mode in ("ceiling", base) or (mode == "plain" and base == "kernel"):
                    continue
                for key, r in (("x_" + base, ratios(kind, mode, base)),
                               ("cpu_x_" + base, cpu_ratios(kind, mode, base))):
                    if r:
                        row[key] = round(statistics.median(r), 3)
                        row[key + "_min"] = round(min(r), 3)
                        row[key + "_max"] = round(max(r), 3)
            # Against another build's hopmark transit (-B): its ns / ours.
            if mode in ("hm-xdp", "hm-tc"):
                r = cpu_ratios(kind, mode, "B-hm-xdp")
                if r:
                    row["cpu_x_before"] = round(statistics.median(r), 3)
                    row["cpu_x_before_min"] = round(min(r), 3)
                    row["cpu_x_before_max"] = round(max(r), 3)
            rows.append(row)

    reps = max([s["rep"] for s in samples] or [0])
    per = ("%d frames" % a.frames) if a.frames else ("%g s" % a.seconds)
    print("Forwarding on a veth line: router CPU %s (its NAPI kthread), generator and sink"
          " CPU %s; %d repetitions of %s per mode" % (a.router_cpu, a.gen_cpu, reps, per))

    def rng(row, key):
        if key not in row:
            return "-"
        return "%.2f (%.2f-%.2f)" % (row[key], row[key + "_min"], row[key + "_max"])

    gen = None
    for row in rows:
        if row["gen"] != gen:
            gen = row["gen"]
            print()
            print({"xdp": "Generator: live XDP frames (fwd-gen -X)",
                   "skb": "Generator: AF_PACKET skbs (fwd-gen)",
                   "tcp": "Generator: an iperf3 TCP stream, GSO skbs at the router"
                          " (kpps and ns/frame: MSS segments)"}.get(gen, gen))
            print("%-10s %-8s %6s %11s %6s %7s %5s %8s %16s %16s %16s %16s%s" % (
                "kind", "mode", "kpps", "min..max", "spread", "offered", "lost",
                "ns/frame", "x plain", "x kernel", "cpu x plain", "cpu x kernel",
                " Mbit/s ns/KB" if gen == "tcp" else ""))
        print("%-10s %-8s %6.0f %11s %5.1f%% %7.0f %4.0f%% %8s %16s %16s %16s %16s%s" % (
            row["kind"], row["mode"], row["pps_median"] / 1e3,
            "%.0f..%.0f" % (row["pps_min"] / 1e3, row["pps_max"] / 1e3),
            row["spread_pct"] or 0, row["offered_pps_median"] / 1e3,
            row["router_ring_lost_pct"],
            "%.0f" % row["router_ns_per_pkt_median"]
            if row["router_ns_per_pkt_median"] is not None else "-",
            rng(row, "x_plain"), rng(row, "x_kernel"),
            rng(row, "cpu_x_plain"), rng(row, "cpu_x_kernel"),
            " %6.0f %5s" % (row["mbit_s_median"], "%.0f" % row["router_ns_per_kbyte_median"]
                            if row["router_ns_per_kbyte_median"] is not None else "-")
            if row["gen"] == "tcp" else ""))
    before = [r for r in rows if "cpu_x_before" in r]
    if before:
        print()
        print("Against the -B build's transit (B-hm-xdp), router CPU time as a speed"
              " (its ns / this build's ns), median (min-max):")
        for r in before:
            print("  %-4s %-10s %-8s %s" % (r["gen"], r["kind"], r["mode"], rng(r, "cpu_x_before")))
    print()
    print("(lost: frames the router's ring refused, median share of those sent; near 0 %,"
          " the generator set the rate and only ns/frame compares the modes)")
    dropped = sum(r["sink_dropped"] for r in rows)
    if dropped:
        print("(%d frames forwarded into a full sink ring: counted as forwarded)" % dropped)

    agent = None
    if a.agent:
        sent = octets = ns = 0
        with open(a.agent) as f:
            for line in f:
                x = line.split()
                if len(x) == 3 and all(v.isdigit() for v in x):
                    sent, octets, ns = sent + int(x[0]), octets + int(x[1]), ns + int(x[2])
        agent = {"ipfix_records_sent": sent, "ipfix_octets_sent": octets, "cpu_ns": ns,
                 "records_per_s_per_core": round(sent / (ns / 1e9)) if ns else None}
        print()
        print("hopmarkd in the pbt mode: %d postcards sent as IPFIX records (%d octets) in %.3f s"
              " of its CPU time: %s postcards/s per core" % (
                  sent, octets, ns / 1e9,
                  "%.0f" % agent["records_per_s_per_core"] if ns else "-"))

    sink_agent = None
    if a.sink_agent:
        recs = lost = ns = runs = 0
        el = None
        with open(a.sink_agent) as f:
            for line in f:
                x = line.split()
                if len(x) == 4 and all(v.lstrip("-").isdigit() for v in x):
                    recs, lost, ns, runs = recs + int(x[0]), lost + int(x[1]), ns + int(x[3]), runs + 1
                    el = int(x[2])
        sink_agent = {"runs": runs, "records": recs, "ring_lost": lost,
                      "events_lost_since_load": el, "cpu_ns": ns,
                      "records_per_s_per_core": round(recs / (ns / 1e9)) if ns else None}
        print()
        print("hopmarkd at the sink in the hm-agent mode (%d runs): %d records, %d lost while it ran"
              " (ring_lost), datapath events_lost %s since load; %.3f s of its CPU time" % (
                  runs, recs, lost, el if el is not None else "-", ns / 1e9))
        per = {}
        if a.sink_agent_samples and os.path.exists(a.sink_agent_samples):
            with open(a.sink_agent_samples) as f:
                for line in f:
                    x = line.split()
                    if len(x) == 4 and all(v.lstrip("-").isdigit() for v in x[2:]):
                        p = per.setdefault("%s/%s" % (x[0], x[1]), [0, 0])
                        p[0] += int(x[2])
                        p[1] += int(x[3])
        sink_agent["timed_samples"] = {
            k: {"records": v[0], "ring_lost": v[1],
                "lost_pct": round(100 * v[1] / (v[0] + v[1]), 1) if v[0] + v[1] else None}
            for k, v in per.items()}
        for k, v in sink_agent["timed_samples"].items():
            print("  timed %-18s %9d records, %9d lost (%s %%)" % (
                k, v["records"], v["ring_lost"],
                "-" if v["lost_pct"] is None else "%.1f" % v["lost_pct"]))

    if a.json:
        doc = {
            "pbt_agent": agent,
            "sink_agent": sink_agent,
            "bench": "fwd", "kernel": os.uname().release, "cpu": cpu_model(),
            "router_cpu": a.router_cpu, "gen_cpu": a.gen_cpu, "reps": reps,
            "seconds_per_sample": a.seconds, "frames_per_sample": a.frames,
            "rows": rows,
        }
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    if bad:
        for s in bad:
            print("fwd: %s %s %s repetition %d moved no packet" % (
                s["gen"], s["kind"], s["mode"], s["rep"]),
                  file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
