#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""pbt_e2e.py - tools of the PBT-M end-to-end test and the demo's postcard
phase (selftests/net/test_pbt_e2e.sh, selftests/demo.sh). Standard library
only (Debian's python3).

  pbt_e2e.py send DST PORT --count N --rate PPS [--size B] [--sport P]
      UDP over IPv4, N datagrams at PPS, each carrying its sequence number
      (so no two are alike: the packet ID hashes payload octets too).

  pbt_e2e.py relay LISTEN_PORT TO_HOST:TO_PORT --stats FILE [--drop F]
                   [--reorder F] [--depth D] [--seed S] [--log FILE]
      An IPFIX-over-UDP relay that, while lossy, drops the fraction F of
      the messages that carry Data Sets only and sends the fraction
      --reorder of the others late (held back behind up to D later ones).
      Messages with a Template or Options Template Set are never dropped
      or held: a collector cannot decode records whose template it never
      got, and that loss would not be the postcard loss under test. It
      starts lossless; SIGUSR1 turns lossy mode on, SIGUSR2 off. Every
      message is parsed (RFC 7011 §3) to count the Data Records it holds,
      per Observation Domain and Template ID. SIGTERM: flush, write the
      counts as JSON to FILE, exit. --log: one line per message (time,
      domain, sequence number, records, "drop"/"late"/"pass").

  pbt_e2e.py ipfix-count LOG --domain D [--since T] [--until T]
      Data Records of domain D the relay passed between T and T (POSIX s).

  pbt_e2e.py nflog-compare HEAD.pcap END.pcap --hops N
      The head node's input (NFLOG at its egress hook, before tc) against
      the end node's output (NFLOG at its ingress hook, after tc): every
      IPv4 packet of HEAD must appear in END identical byte for byte, but
      for the TTL, N less (the N routers between), and the header checksum
      RFC 1624 gives for that. Prints "matched M of H, END has E, bad B"
      and the first differences.

  pbt_e2e.py check --nodes DIR --paths FILE --path-ids 1,2,3,4,5
                   [--complete PORT]... [--in-node PORT:NODE:N]...
                   [--on-link PORT:NODE:N]... [--lossy PORT --relay STATS]
      The checks of the test, one "name<TAB>expected<TAB>observed" line
      each (selftests/lib.sh hm_checks_from). The truth is what every
      node's hopmarkd wrote (DIR/NODE.json, its "postcard":"pbt" lines:
      which node saw which packet where); FILE is hopmark-collector's JSON
      lines. --complete: every packet of the flow to UDP/TCP port PORT
      that A marked is one path, in the order of --path-ids, not dropped.
      --in-node / --on-link: N of the flow's packets were dropped inside
      node NODE / on the link after it (N from nft's or the drop program's
      counter), and exactly those paths say so, ending at NODE; the others
      are complete. --lossy: the relay dropped some of the flow's postcards
      (STATS names them); a packet that lost none has its complete path,
      one that lost some has the nodes left, in order.
"""
import argparse
import json
import os
import random
import select
import signal
import socket
import struct
import sys
import time


# ------------------------------------------------------------------ send

def cmd_send(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if a.sport:
        s.bind(("0.0.0.0", a.sport))
    pad = bytes(max(0, a.size - 8))
    gap = 1.0 / a.rate
    t0 = time.monotonic()
    for i in range(a.count):
        wait = t0 + i * gap - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        s.sendto(struct.pack("!II", a.tag, i) + pad, (a.dst, a.port))
    print("sent %d" % a.count)
    return 0


# ----------------------------------------------------------------- IPFIX

IPFIX_VERSION = 10
HM_PEN = 32473			# lib/ipfix/ipfix_ie.h HM_IPFIX_PEN_DEFAULT
HM_IE_PACKET_ID = 1		# hopmarkPacketId
HM_IE_OBSERVATION_POINT = 3	# hopmarkObservationPoint
SET_TEMPLATE = 2
SET_OPTIONS_TEMPLATE = 3


class Ipfix:
    """Enough of an RFC 7011 decoder to count Data Records: the templates
    of every (domain, template ID) and the record lengths they imply."""

    def __init__(self, pen=HM_PEN):
        self.pen = pen
        self.templates = {}	# (domain, tid) -> [field lengths]
        self.fields = {}	# (domain, tid) -> [(element ID, PEN, length)]

    def parse(self, msg):
        """Return (domain, seq, has_templates, {tid: records}) or None."""
        if len(msg) < 16:
            return None
        ver, length, _t, seq, dom = struct.unpack("!HHIII", msg[:16])
        if ver != IPFIX_VERSION or length > len(msg):
            return None
        off, tmpl, recs = 16, False, {}
        while off + 4 <= length:
            sid, slen = struct.unpack("!HH", msg[off:off + 4])
            if slen < 4 or off + slen > length:
                break
            body = msg[off + 4:off + slen]
            if sid in (SET_TEMPLATE, SET_OPTIONS_TEMPLATE):
                tmpl = True
                self._templates(dom, sid, body)
            elif sid >= 256:
                recs[sid] = recs.get(sid, 0) + self._count(dom, sid, body)
            off += slen
        return dom, seq, tmpl, recs

    def _templates(self, dom, sid, b):
        off = 0
        while off + 4 <= len(b):
            tid, n = struct.unpack("!HH", b[off:off + 4])
            off += 4
            if sid == SET_OPTIONS_TEMPLATE:
                off += 2	# scope field count
            if tid < 256:
                break		# padding
            if n == 0:
                self.templates.pop((dom, tid), None)	# withdrawal
                continue
            lens, flds = [], []
            for _ in range(n):
                if off + 4 > len(b):
                    return
                ie, ln = struct.unpack("!HH", b[off:off + 4])
                off += 4
                pen = 0
                if ie & 0x8000:
                    pen = struct.unpack("!I", b[off:off + 4])[0]
                    off += 4
                lens.append(ln)
                flds.append((ie & 0x7fff, pen, ln))
            self.templates[(dom, tid)] = lens
            self.fields[(dom, tid)] = flds

    def postcards(self, msg):
        """(packet ID, observation point) of every Data Record of msg whose
        template has hopmarkPacketId and hopmarkObservationPoint at fixed
        offsets (hopmark's postcard templates)."""
        out = []
        if len(msg) < 16:
            return out
        dom = struct.unpack("!I", msg[12:16])[0]
        off, length = 16, struct.unpack("!H", msg[2:4])[0]
        while off + 4 <= length:
            sid, slen = struct.unpack("!HH", msg[off:off + 4])
            if slen < 4:
                break
            flds = self.fields.get((dom, sid))
            if sid >= 256 and flds and all(f[2] != 0xffff for f in flds):
                pos, o = {}, 0
                for ie, pen, ln in flds:
                    if pen == self.pen and ie in (HM_IE_PACKET_ID, HM_IE_OBSERVATION_POINT):
                        pos[ie] = (o, ln)
                    o += ln
                if len(pos) == 2 and o:
                    body = msg[off + 4:off + slen]
                    for r in range(0, len(body) - o + 1, o):
                        rec = body[r:r + o]
                        (po, pl), (qo, ql) = pos[HM_IE_PACKET_ID], pos[HM_IE_OBSERVATION_POINT]
                        out.append((int.from_bytes(rec[po:po + pl], "big"),
                                    int.from_bytes(rec[qo:qo + ql], "big")))
            off += slen
        return out

    def _count(self, dom, tid, b):
        lens = self.templates.get((dom, tid))
        if lens is None:
            return 0
        fixed = sum(1 if ln == 0xffff else ln for ln in lens)
        off, n = 0, 0
        while len(b) - off >= max(fixed, 1):
            for ln in lens:
                if ln == 0xffff:
                    if off >= len(b):
                        return n
                    ln = b[off]
                    off += 1
                    if ln == 255:
                        ln = struct.unpack("!H", b[off:off + 2])[0]
                        off += 2
                off += ln
            if off > len(b):
                break
            n += 1
        return n


# ----------------------------------------------------------------- relay

def cmd_relay(a):
    rnd = random.Random(a.seed)
    host, port = a.to.rsplit(":", 1)
    dst = (host, int(port))
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    rx.bind((a.bind, a.port))
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    dec = Ipfix()
    log = open(a.log, "w", buffering=1) if a.log else None
    state = {"lossy": False, "stop": False}
    st = {"messages": 0, "records": 0, "dropped_messages": 0, "dropped_records": 0,
          "late_messages": 0, "late_records": 0, "template_messages": 0,
          "undecoded_messages": 0, "lossy_messages": 0, "lossy_records": 0,
          "domains": {}, "dropped_postcards": []}
    held = []	# [messages still to pass before it, msg, domain, recs]

    def dom_st(d):
        return st["domains"].setdefault(str(d), {
            "records": 0, "dropped_records": 0, "late_records": 0, "messages": 0,
            "dropped_messages": 0})

    def on(sig, _f):
        if sig == signal.SIGUSR1:
            state["lossy"] = True
        elif sig == signal.SIGUSR2:
            state["lossy"] = False
        else:
            state["stop"] = True
    for sig in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on)

    def out(msg):
        tx.sendto(msg, dst)

    def release(all_=False):
        keep = []
        for h in held:
            h[0] -= 1
            if all_ or h[0] < 0:
                out(h[1])
            else:
                keep.append(h)
        held[:] = keep

    while not state["stop"]:
        try:
            r, _, _ = select.select([rx], [], [], 0.05)
        except InterruptedError:
            continue
        if not r:
            release(True)	# idle: nothing is held longer than 50 ms
            continue
        try:
            msg = rx.recv(65536)
        except InterruptedError:
            continue
        p = dec.parse(msg)
        st["messages"] += 1
        if p is None:
            st["undecoded_messages"] += 1
            out(msg)
            continue
        dom, seq, tmpl, recs = p
        nrec = sum(recs.values())
        ds = dom_st(dom)
        ds["messages"] += 1
        ds["records"] += nrec
        st["records"] += nrec
        what = "pass"
        if tmpl:
            st["template_messages"] += 1
            release(True)
            out(msg)
        elif state["lossy"]:
            st["lossy_messages"] += 1
            st["lossy_records"] += nrec
            if rnd.random() < a.drop:
                what = "drop"
                st["dropped_messages"] += 1
                st["dropped_records"] += nrec
                ds["dropped_messages"] += 1
                ds["dropped_records"] += nrec
                st["dropped_postcards"] += [[dom, i, pt] for i, pt in dec.postcards(msg)]
            elif rnd.random() < a.reorder:
                what = "late"
                st["late_messages"] += 1
                st["late_records"] += nrec
                ds["late_records"] += nrec
                held.append([rnd.randint(1, a.depth), msg, dom, nrec])
            else:
                release()
                out(msg)
        else:
            release(True)
            out(msg)
        if log:
            log.write("%.6f %d %d %d %s\n" % (time.time(), dom, seq, nrec, what))
    release(True)
    with open(a.stats, "w") as f:
        json.dump(st, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


def cmd_ipfix_count(a):
    n = 0
    with open(a.log) as f:
        for line in f:
            t, dom, _seq, nrec, what = line.split()
            t = float(t)
            if int(dom) != a.domain or what == "drop":
                continue
            if a.since is not None and t < a.since:
                continue
            if a.until is not None and t > a.until:
                continue
            n += int(nrec)
    print(n)
    return 0


# ----------------------------------------------------------- nflog pcaps

LINKTYPE_NFLOG = 239
NFULA_PAYLOAD = 9


def pcap_packets(path):
    """The IP packets of an NFLOG pcap (tcpdump -i nflog:N)."""
    with open(path, "rb") as f:
        d = f.read()
    if len(d) < 24:
        return []
    magic = struct.unpack("<I", d[:4])[0]
    e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    link = struct.unpack(e + "I", d[20:24])[0]
    if link != LINKTYPE_NFLOG:
        raise SystemExit("%s: link type %d, not NFLOG" % (path, link))
    off, pkts = 24, []
    while off + 16 <= len(d):
        _s, _u, incl, _orig = struct.unpack(e + "IIII", d[off:off + 16])
        rec = d[off + 16:off + 16 + incl]
        off += 16 + incl
        p = 4
        while p + 4 <= len(rec):
            tl, tt = struct.unpack("<HH", rec[p:p + 4])	# host order (x86)
            if tl < 4:
                break
            if tt & 0x7fff == NFULA_PAYLOAD:
                pkts.append(ip_of(rec[p + 4:p + tl]))
            p += (tl + 3) & ~3
    return [x for x in pkts if x]


def ip_of(b):
    """The IPv4 packet in an NFLOG payload: at egress the payload starts
    with the Ethernet header, at ingress with the IP header."""
    for o in (0, 14):
        if len(b) >= o + 20 and b[o] >> 4 == 4 and \
           struct.unpack("!H", b[o + 2:o + 4])[0] == len(b) - o:
            return b[o:]
    return None


def csum(b):
    s = 0
    for i in range(0, len(b), 2):
        s += (b[i] << 8) + (b[i + 1] if i + 1 < len(b) else 0)
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def forwarded(p, hops):
    """p as it leaves N routers: TTL - N, header checksum recomputed."""
    ihl = (p[0] & 0xf) * 4
    h = bytearray(p[:ihl])
    h[8] -= hops
    h[10:12] = b"\0\0"
    h[10:12] = struct.pack("!H", csum(bytes(h)))
    return bytes(h) + p[ihl:]


def cmd_nflog_compare(a):
    head = pcap_packets(a.head)
    end = pcap_packets(a.end)
    # Key: IP ID + protocol + the first 24 octets after the IP header.
    def key(p):
        ihl = (p[0] & 0xf) * 4
        return (p[4:6], p[9], p[ihl:ihl + 24])
    ends = {}
    for p in end:
        ends.setdefault(key(p), []).append(p)
    matched, bad, missing, diags = 0, 0, 0, []
    for p in head:
        cands = ends.get(key(p))
        if not cands:
            missing += 1
            if len(diags) < 3:
                diags.append("not at the end node: %s" % p[:28].hex())
            continue
        q = cands.pop(0)
        want = forwarded(p, a.hops)
        if q == want:
            matched += 1
        else:
            bad += 1
            if len(diags) < 3:
                i = next((i for i in range(min(len(q), len(want))) if q[i] != want[i]),
                         min(len(q), len(want)))
                diags.append("octet %d differs: expected %s, end node %s" %
                             (i, want[i:i + 8].hex(), q[i:i + 8].hex()))
    print("matched %d of %d, end has %d, bad %d, missing %d" %
          (matched, len(head), len(end), bad, missing))
    for d in diags:
        print("# " + d)
    return 0 if head and matched == len(head) and len(end) == len(head) else 1



# ---------------------------------------------------------------- checks
#
# Field names of the two JSON formats: hopmarkd's postcard lines
# (Documentation/postcards.rst, "postcard":"pbt") and hopmark-collector's
# path lines (Documentation/collector.rst). One place to read them.

POINTS = {"ingress": 1, "egress": 2, 1: 1, 2: 2}


def node_of(x):
    """A node ID given as "node_id": N, "node": N or "node": {"node_id": N}."""
    n = x.get("node_id", x.get("node"))
    return n.get("node_id") if isinstance(n, dict) else n


def pc_key(r):
    """(proto, dport, pkt_id, node_id, point) of a hopmarkd postcard line
    (its flow key in "packet": {...})."""
    f = r.get("packet", r)
    return (f.get("proto"), f.get("dport"), r["pkt_id"], node_of(r), POINTS[r["point"]])


def path_flow(p):
    f = p.get("flow", p)
    return f.get("proto"), f.get("dport")


def path_nodes(p):
    return [node_of(h) for h in p["hops"]]


def hop_points(h):
    pts = h.get("points")
    if isinstance(pts, list):
        return sum(POINTS[x] for x in set(pts))
    if isinstance(pts, str):
        return sum(POINTS.get(x, 0) for x in pts.split(",") if x)
    if isinstance(pts, int):
        return pts
    return (1 if h.get("in_ns") else 0) | (2 if h.get("out_ns") else 0)


def path_drop(p):
    """("none" | "in_node" | "on_link" | "unknown", the node it names)."""
    d = p.get("drop") or "none"
    if isinstance(d, dict):
        return d.get("where", "none"), node_of(d)
    return d, p.get("drop_node", node_of(p["hops"][-1]) if p["hops"] else None)


def load_lines(path, want=None):
    out = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    out.append({"_bad": line})
                    continue
                if want is None or want(r):
                    out.append(r)
    except OSError:
        pass
    return out


def cmd_check(a):
    ids = [int(x) for x in a.path_ids.split(",")]
    truth = {}	# (proto, dport) -> {pkt_id: {node_id: points}}
    bad_pc = 0
    for fn in sorted(os.listdir(a.nodes)):
        if not fn.endswith(".json"):
            continue
        for r in load_lines(os.path.join(a.nodes, fn), lambda r: r.get("postcard") == "pbt"):
            try:
                proto, dport, pid, node, pt = pc_key(r)
            except (KeyError, TypeError):
                bad_pc += 1
                continue
            truth.setdefault((proto, dport), {}).setdefault(pid, {})
            t = truth[(proto, dport)][pid]
            t[node] = t.get(node, 0) | pt
    paths = load_lines(a.paths)
    torn = [p for p in paths if "_bad" in p]
    paths = [p for p in paths if "_bad" not in p and "hops" in p]
    byflow = {}
    for p in paths:
        byflow.setdefault(path_flow(p), {}).setdefault(p["pkt_id"], []).append(p)
    res = []

    def check(name, exp, obs):
        res.append("%s\t%s\t%s" % (name, exp, obs))

    check("every hopmarkd postcard line has proto, dport, pkt_id, node_id, point", 0, bad_pc)
    check("the collector's output has no torn or invalid line", 0, len(torn))
    full = {ids[0]: 2, ids[-1]: 1}
    full.update({n: 3 for n in ids[1:-1]})

    def flows_of(port):
        return [k for k in truth if k[1] == port] or [("?", port)]

    def want_path(hops):
        return " ".join("%d:%d" % (n, hops[n]) for n in ids if n in hops)

    def got_path(p):
        return " ".join("%d:%d" % (node_of(h), hop_points(h)) for h in p["hops"])

    for port in a.complete:
        for fk in flows_of(port):
            t = truth.get(fk, {})
            marked = [pid for pid, h in t.items() if ids[0] in h]
            got = byflow.get(fk, {})
            check("port %d: packets A marked (hopmarkd on A) > 0" % port, True, len(marked) > 0)
            check("port %d: every node reported every packet A marked" % port,
                  "%d x %s" % (len(marked), want_path(full)),
                  "; ".join(sorted(set("%d x %s" % (sum(1 for p in marked if t[p] == h), want_path(h))
                                        for h in (t[p] for p in marked)))) or "none")
            check("port %d: one stitched path per marked packet" % port,
                  len(marked), sum(1 for p in marked if len(got.get(p, [])) == 1))
            wrong = [p for p in marked for q in got.get(p, [])
                     if got_path(q) != want_path(full) or path_drop(q)[0] != "none"]
            check("port %d: every path is A R1 R2 R3 B with their points, not dropped" % port,
                  "0 wrong", "%d wrong%s" % (len(wrong), "" if not wrong else ": " +
                  "; ".join(got_path(q) + " drop " + str(path_drop(q)) for p in wrong[:3]
                            for q in got[p][:1])))
            extra = [p for p in got if p not in t]
            check("port %d: no path for a packet no node reported" % port, 0, len(extra))

    for kind, specs in (("in_node", a.in_node), ("on_link", a.on_link)):
        for spec in specs:
            port, node, n = (int(x) for x in spec.split(":"))
            for fk in flows_of(port):
                t = truth.get(fk, {})
                got = byflow.get(fk, {})
                cut = ids[:ids.index(node) + 1]
                last = 1 if kind == "in_node" else 3
                want_cut = {x: full[x] for x in cut}
                want_cut[node] = last if node != ids[0] else 2
                dropped = [pid for pid, ps in got.items()
                           if len(ps) == 1 and path_drop(ps[0])[0] != "none"]
                check("port %d: paths located as dropped %s at node %d" % (port, kind, node),
                      "%d x %s at %d" % (n, kind, node),
                      "; ".join(sorted(set("%d x %s at %s" % (
                          sum(1 for q in dropped if path_drop(got[q][0]) == path_drop(got[p][0])),
                          path_drop(got[p][0])[0], path_drop(got[p][0])[1]) for p in dropped))) or
                      "0 x %s at %d" % (kind, node))
                check("port %d: each such path is %s" % (port, want_path(want_cut)),
                      n, sum(1 for p in dropped if got_path(got[p][0]) == want_path(want_cut)))
                check("port %d: the nodes' own postcards agree: %d packets end at node %d" %
                      (port, n, node), n, sum(1 for h in t.values() if h == want_cut))
                rest = [p for p in t if t[p] == full]
                check("port %d: the other packets are complete paths" % port, len(rest),
                      sum(1 for p in rest if len(got.get(p, [])) == 1 and
                          got_path(got[p][0]) == want_path(full) and
                          path_drop(got[p][0])[0] == "none"))

    if a.lossy is not None:
        with open(a.relay) as f:
            st = json.load(f)
        lost = {}
        for dom, pid, pt in st.get("dropped_postcards", []):
            lost.setdefault(pid, {})
            lost[pid][dom] = lost[pid].get(dom, 0) | pt
        check("relay: postcards dropped in lossy mode > 0", True, st["dropped_records"] > 0)
        check("relay: messages sent late (reordered) > 0", True, st["late_messages"] > 0)
        check("relay: every dropped record named (packet ID, point)", st["dropped_records"],
              len(st.get("dropped_postcards", [])))
        for fk in flows_of(a.lossy):
            t = truth.get(fk, {})
            got = byflow.get(fk, {})
            whole = [p for p in t if t[p] == full and p not in lost]
            check("port %d: packets that lost no postcard: complete, in order" % a.lossy,
                  len(whole), sum(1 for p in whole if len(got.get(p, [])) == 1 and
                                  got_path(got[p][0]) == want_path(full) and
                                  path_drop(got[p][0])[0] == "none"))
            part = [p for p in t if t[p] == full and p in lost]
            left = {}
            for p in part:
                h = {n: full[n] & ~lost[p].get(n, 0) for n in ids}
                left[p] = {n: v for n, v in h.items() if v}
            ok_part = [p for p in part if (not left[p] and not got.get(p)) or
                       (len(got.get(p, [])) == 1 and got_path(got[p][0]) == want_path(left[p]))]
            check("port %d: packets that lost postcards (%d): the hops left, in order" %
                  (a.lossy, len(part)), len(part), len(ok_part))
    print("\n".join(res))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("send")
    p.add_argument("dst")
    p.add_argument("port", type=int)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--rate", type=float, required=True)
    p.add_argument("--size", type=int, default=200)
    p.add_argument("--sport", type=int, default=0)
    p.add_argument("--tag", type=int, default=0x68707063)
    p = sub.add_parser("relay")
    p.add_argument("port", type=int)
    p.add_argument("to")
    p.add_argument("--bind", default="0.0.0.0")
    p.add_argument("--stats", required=True)
    p.add_argument("--drop", type=float, default=0.05)
    p.add_argument("--reorder", type=float, default=0.2)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--seed", type=int, default=9)
    p.add_argument("--log")
    p = sub.add_parser("ipfix-count")
    p.add_argument("log")
    p.add_argument("--domain", type=int, required=True)
    p.add_argument("--since", type=float)
    p.add_argument("--until", type=float)
    p = sub.add_parser("nflog-compare")
    p.add_argument("head")
    p.add_argument("end")
    p.add_argument("--hops", type=int, required=True)
    p = sub.add_parser("check")
    p.add_argument("--nodes", required=True)
    p.add_argument("--paths", required=True)
    p.add_argument("--path-ids", default="1,2,3,4,5")
    p.add_argument("--complete", type=int, action="append", default=[])
    p.add_argument("--in-node", action="append", default=[])
    p.add_argument("--on-link", action="append", default=[])
    p.add_argument("--lossy", type=int)
    p.add_argument("--relay")
    a = ap.parse_args()
    return {"check": cmd_check, "send": cmd_send, "relay": cmd_relay, "ipfix-count": cmd_ipfix_count,
            "nflog-compare": cmd_nflog_compare}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
