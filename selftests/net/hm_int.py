#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_int.py - INT v2.1 and Telemetry Report v2.0 for the namespace selftest
selftests/net/test_int.sh: an independent decoder (written from the spec
text, sharing no code with lib/int/), the test's traffic and its checks.
Standard library only (Debian's python3).

  hm_int.py pcap FILE --signal SIG          one JSON line per IP packet
  hm_int.py collect PORT OUT                Telemetry Report receiver
  hm_int.py sink PORT OUT                   application at D (UDP PORT, TCP PORT+1)
  hm_int.py udp-send FAM DST PORT FLOW COUNT SIZE [--tos T]
  hm_int.py tcp-send FAM DST PORT FLOW BYTES
  hm_int.py check MODE --topo T --dir D ... TSV checks: name, expected, observed

SIG is dscp:VALUE/MASK or udp:PORT (INT §5.7.2). Byte order: every field
is big-endian on the wire (the spec's IETF-style diagrams). Units are the
ones Documentation/int.rst gives: ns for timestamps and latency, bytes for
occupancy, 0.01 % for TX utilisation.
"""
import argparse
import hashlib
import json
import os
import select
import signal
import socket
import struct
import sys
import time

MAGIC = b"HMIT"

# Instruction Bitmap bits 0..15 (bit 0 = MSB): (name(s), octets).
BM_FIELDS = [
    (0x8000, "node_id", 4),
    (0x4000, "l1", 4),
    (0x2000, "hop_latency", 4),
    (0x1000, "queue", 4),
    (0x0800, "ingress_ts", 8),
    (0x0400, "egress_ts", 8),
    (0x0200, "l2", 8),
    (0x0100, "tx_util", 4),
    (0x0080, "buffer", 4),
]
RSVD_BITS = [(1 << (15 - b), "rsvd%d" % b) for b in range(9, 15)]
BM_CSUM = 0x0001
ALL1_32 = 0xffffffff
ALL1_64 = 0xffffffffffffffff


def bitmap_words(bm):
    """Hop ML implied by a bitmap: one word per bit, two for bits 4-6."""
    w = bin(bm & 0xffff).count("1")
    return w + bin(bm & 0x0e00).count("1")


def parse_fields(bm, b, with_node=True):
    """One node's metadata block in bitmap order -> dict of the keys of
    `hopmark decode -j`. bm: Instruction Bitmap or RepMdBits."""
    d = {}
    o = 0
    for bit, name, n in BM_FIELDS:
        if not bm & bit:
            continue
        if bit == 0x8000 and not with_node:
            continue
        v = b[o:o + n]
        if len(v) < n:
            raise ValueError("metadata truncated at %s" % name)
        o += n
        if name == "node_id":
            d["node_id"] = struct.unpack("!I", v)[0]
        elif name == "l1":
            d["l1_ingress"], d["l1_egress"] = struct.unpack("!HH", v)
        elif name == "hop_latency":
            d["hop_latency"] = struct.unpack("!I", v)[0]
        elif name == "queue":
            d["queue_id"] = v[0]
            d["queue_occupancy"] = int.from_bytes(v[1:4], "big")
        elif name == "ingress_ts":
            d["ingress_ts"] = struct.unpack("!Q", v)[0]
        elif name == "egress_ts":
            d["egress_ts"] = struct.unpack("!Q", v)[0]
        elif name == "l2":
            d["l2_ingress"], d["l2_egress"] = struct.unpack("!II", v)
        elif name == "tx_util":
            d["tx_util"] = struct.unpack("!I", v)[0]
        elif name == "buffer":
            d["buffer_id"] = v[0]
            d["buffer_occupancy"] = int.from_bytes(v[1:4], "big")
    for bit, name in RSVD_BITS:
        if bm & bit:
            d[name] = struct.unpack("!I", b[o:o + 4])[0]
            o += 4
    return d, o


def csum16(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def l4_ok(fam, src, dst, proto, seg):
    """True when the L4 checksum of seg (header + data) is valid."""
    if fam == 4:
        ph = src + dst + struct.pack("!BBH", 0, proto, len(seg))
    else:
        ph = src + dst + struct.pack("!IxxxB", len(seg), proto)
    return csum16(ph + seg) == 0xffff


def decode_int(b, npt_expected=None):
    """Shim + MD/MX header + stack at b[0:]. Returns (dict, octets used)."""
    if len(b) < 16:
        raise ValueError("shorter than shim + header")
    t, ln, hi, lo = b[0], b[1], b[2], b[3]
    typ, npt = t >> 4, (t >> 2) & 3
    if typ not in (1, 3):
        raise ValueError("shim type %d" % typ)
    total = 4 + ln * 4
    if total > len(b):
        raise ValueError("shim length %d beyond the packet" % ln)
    d = {"type": "md" if typ == 1 else "mx", "npt": npt, "shim_len": ln}
    if npt == 0:
        d["orig_dscp"] = lo >> 2
    elif npt == 1:
        d["orig_dport"] = hi << 8 | lo
    elif npt == 2:
        d["orig_proto"] = lo
    w0, bm, dsid, dsin, dsfl = struct.unpack("!IHHHH", b[4:16])
    d["ver"] = w0 >> 28
    d["d"] = (w0 >> 27) & 1
    if typ == 1:
        d["e"] = (w0 >> 26) & 1
        d["m"] = (w0 >> 25) & 1
        d["hop_ml"] = (w0 >> 8) & 0x1f
        d["rhc"] = w0 & 0xff
        d["rsvd"] = (w0 >> 13) & 0xfff
    else:
        d["rsvd"] = w0 & 0x7ffffff
    d["bitmap"] = "0x%04x" % bm
    d["ds_id"], d["ds_instruction"], d["ds_flags"] = dsid, dsin, dsfl
    hops = []
    if typ == 1:
        stack = b[16:total]
        hl = d["hop_ml"] * 4
        if hl == 0 and stack:
            raise ValueError("Hop ML 0 with a stack")
        if hl and len(stack) % hl:
            raise ValueError("stack %d octets not a multiple of Hop ML" % len(stack))
        for i in range(0, len(stack), hl or 1):
            blk = stack[i:i + hl]
            h, _ = parse_fields(bm, blk)
            if bm & BM_CSUM:
                h["csum_complement"] = struct.unpack("!I", blk[-4:])[0]
            h["raw"] = blk.hex()
            hops.append(h)
    d["hops"] = hops
    return d, total


def ip_parse(pkt):
    """L3/L4 view of a packet from its IP header. Raises ValueError."""
    v = pkt[0] >> 4
    r = {"family": v}
    if v == 4:
        ihl = (pkt[0] & 15) * 4
        tl = struct.unpack("!H", pkt[2:4])[0]
        r["iplen"] = tl
        pkt = pkt[:tl]
        r.update(tos=pkt[1], dscp=pkt[1] >> 2, proto=pkt[9], ttl=pkt[8],
                 df=bool(pkt[6] & 0x40),
                 ipid=struct.unpack("!H", pkt[4:6])[0], srcb=pkt[12:16],
                 dstb=pkt[16:20], l4off=ihl,
                 ip_ok=csum16(pkt[:ihl]) == 0xffff)
    elif v == 6:
        plen = struct.unpack("!H", pkt[4:6])[0]
        r["iplen"] = 40 + plen
        pkt = pkt[:40 + plen]
        tc = (struct.unpack("!I", pkt[0:4])[0] >> 20) & 0xff
        nh, off = pkt[6], 40
        while nh in (0, 43, 60):
            nh, off = pkt[off], off + (pkt[off + 1] + 1) * 8
        r.update(tos=tc, dscp=tc >> 2, proto=nh, ttl=pkt[7], ipid=None, df=None,
                 srcb=pkt[8:24], dstb=pkt[24:40], l4off=off, ip_ok=True)
    else:
        raise ValueError("not IP")
    r["src"] = socket.inet_ntop(socket.AF_INET if v == 4 else socket.AF_INET6, r["srcb"])
    r["dst"] = socket.inet_ntop(socket.AF_INET if v == 4 else socket.AF_INET6, r["dstb"])
    r["pkt"] = pkt
    return r


def l4_ports(seg, proto):
    if proto in (6, 17) and len(seg) >= 4:
        return struct.unpack("!HH", seg[:4])
    return None, None


def decode_packet(pkt, sig, report_port=None):
    """Everything the checks need about one captured packet (from IP)."""
    r = ip_parse(pkt)
    pkt = r["pkt"]
    fam, proto, off = r["family"], r["proto"], r["l4off"]
    seg = pkt[off:]
    sport, dport = l4_ports(seg, proto)
    out = {"family": fam, "src": r["src"], "dst": r["dst"], "proto": proto,
           "sport": sport, "dport": dport, "dscp": r["dscp"], "ttl": r["ttl"],
           "ipid": r["ipid"], "df": r["df"], "len": len(pkt), "ip_ok": r["ip_ok"]}
    if proto not in (6, 17) or sport is None:
        return out
    if proto == 17 and report_port and dport == report_port:
        out["kind"] = "report"
        return out
    # The L4 checksum on the wire (the packet's own protocol).
    if proto == 17 and struct.unpack("!H", seg[6:8])[0] == 0:
        out["l4_csum"] = "zero"
    else:
        out["l4_csum"] = "ok" if l4_ok(fam, r["srcb"], r["dstb"], proto, seg) else "bad"
    kind, sval = sig
    intoff = None
    if kind == "dscp":
        val, mask = sval
        if r["dscp"] & mask == val:
            intoff = (seg[12] >> 4) * 4 if proto == 6 else 8
    elif proto == 17 and dport == sval:
        intoff = 8
    oproto, osport, odport, app = proto, sport, dport, None
    if intoff is not None:
        try:
            d, used = decode_int(seg[intoff:])
        except (ValueError, IndexError, struct.error) as e:
            out["int_error"] = str(e)
            return out
        out["int"] = d
        rest = seg[intoff + used:]
        if d["npt"] == 0:
            l4hdr = seg[:intoff]
            app = rest
        elif d["npt"] == 1:
            odport = d["orig_dport"]
            l4hdr = seg[:8]
            app = rest
        else:
            oproto = d["orig_proto"]
            # The original L4 header follows the INT data; its checksum
            # covers it and its payload only (INT §5.7.2, NPT=2).
            osport, odport = l4_ports(rest, oproto)
            out["inner_l4_csum"] = "ok" if l4_ok(fam, r["srcb"], r["dstb"], oproto, rest) else "bad"
            if oproto == 6:
                l4hdr = rest[:(rest[12] >> 4) * 4]
            else:
                l4hdr = rest[:8]
            app = rest[len(l4hdr):]
        out["l4hdr"] = l4hdr.hex()
        # The IP length before INT: the same on every link.
        out["orig_iplen"] = r["iplen"] - used - (8 if d["npt"] == 2 else 0)
    else:
        l4hdr = seg[:(seg[12] >> 4) * 4] if proto == 6 else seg[:8]
        app = seg[len(l4hdr):]
    out.setdefault("orig_iplen", r["iplen"])
    out.update(oproto=oproto, osport=osport, odport=odport, app_len=len(app))
    if oproto == 6:
        out["tcp_seq"] = struct.unpack("!I", l4hdr[4:8])[0]
        out["tcp_flags"] = l4hdr[13]
        # The IP total length without INT, not the payload's: a report's
        # inner packet is truncated, its IP header is not.
        out["key"] = "%d/%s/%s/%d/%d/tcp/%d/%d/%d" % (fam, r["src"], r["dst"], osport, odport,
                                                   out["tcp_seq"], out["orig_iplen"], l4hdr[13])
    else:
        if app[:4] == MAGIC and len(app) >= 12:
            flow, seq = struct.unpack("!II", app[4:12])
            out["flow"], out["seq"] = flow, seq
        out["key"] = "%d/%s/%s/%d/%d/udp/%s" % (fam, r["src"], r["dst"], osport, odport,
                                                app[:12].hex())
    return out


def read_pcap(path):
    """(timestamp ns, frame) of a pcap file (Ethernet or Linux SLL)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("%s: not a pcap file" % path)
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    lt = struct.unpack(e + "I", data[20:24])[0]
    o, out = 24, []
    while o + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(e + "IIII", data[o:o + 16])
        fr = data[o + 16:o + 16 + incl]
        o += 16 + incl
        ts = sec * 10**9 + (frac if nano else frac * 1000)
        if lt == 1:
            et, l2 = struct.unpack("!H", fr[12:14])[0], 14
            while et == 0x8100 and len(fr) >= l2 + 4:
                et, l2 = struct.unpack("!H", fr[l2 + 2:l2 + 4])[0], l2 + 4
        elif lt == 113:
            et, l2 = struct.unpack("!H", fr[14:16])[0], 16
        else:
            continue
        if et in (0x0800, 0x86dd):
            out.append((ts, fr[l2:], len(fr)))
    return out


def parse_sig(s):
    kind, v = s.split(":", 1)
    if kind == "dscp":
        val, _, mask = v.partition("/")
        return ("dscp", (int(val, 0), int(mask or "0x3f", 0)))
    return ("udp", int(v, 0))


def decode_pcap(path, sig, report_port=None):
    out = []
    for ts, pkt, flen in read_pcap(path):
        try:
            d = decode_packet(pkt, sig, report_port)
        except (ValueError, IndexError, struct.error) as e:
            d = {"error": str(e)}
        d["ts"] = ts
        d["frame_len"] = flen
        d["ipraw"] = pkt.hex()
        out.append(d)
    return out


def cmd_pcap(a):
    for d in decode_pcap(a.file, parse_sig(a.signal), a.report_port):
        d.pop("ipraw", None)
        print(json.dumps(d))
    return 0


# ----------------------------------------------------- Telemetry Report

def decode_report(b, sig):
    """Telemetry Report v2.0 (Report §3): group header + Individual Reports."""
    if len(b) < 8:
        raise ValueError("shorter than the group header")
    w0, node = struct.unpack("!II", b[:8])
    r = {"ver": w0 >> 28, "hw_id": (w0 >> 22) & 0x3f, "seq": w0 & 0x3fffff,
         "node_id": node, "reports": []}
    o = 8
    while o + 4 <= len(b):
        rt, ln, mdl, fl = b[o], b[o + 1], b[o + 2], b[o + 3]
        rep = {"rep_type": rt >> 4, "in_type": rt & 15, "len": ln, "md_len": mdl,
               "d": fl >> 7 & 1, "q": fl >> 6 & 1, "f": fl >> 5 & 1, "i": fl >> 4 & 1,
               "rsvd": fl & 15}
        end = len(b) if ln == 0xff else o + 4 + ln * 4
        if end > len(b):
            raise ValueError("Report Length %d beyond the datagram" % ln)
        body = b[o + 4:end]
        if rep["rep_type"] == 1:
            rmb, dsid, dsmb, dsst = struct.unpack("!HHHH", body[:8])
            rep.update(rep_md_bits="0x%04x" % rmb, ds_id=dsid, ds_md_bits=dsmb,
                       ds_md_status=dsst)
            md = body[8:8 + mdl * 4]
            m, used = parse_fields(rmb, md, with_node=False)
            if rmb & 0x0001:
                rep["queue_id_drop"], rep["drop_reason"] = md[used], md[used + 1]
                used += 4
            if used != len(md):
                rep["md_len_mismatch"] = "%d octets of metadata, MD Length %d" % (used, mdl)
            rep["md"] = m
            inner = body[8 + mdl * 4:]
        else:
            inner = body
        rep["inner_len"] = len(inner)
        rep["inner_hex"] = inner.hex()
        if rep["in_type"] in (4, 5) and inner:
            try:
                rep["inner"] = decode_packet(inner, sig)
            except (ValueError, IndexError, struct.error) as e:
                rep["inner"] = {"error": str(e)}
        r["reports"].append(rep)
        o = end
        if ln == 0xff:
            break
    return r


def cmd_collect(a):
    """Receive Telemetry Reports on UDP a.port (IPv4 and IPv6) until SIGTERM;
    one JSON line per datagram: source, raw hex."""
    socks = []
    for fam, addr in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        s = socket.socket(fam, socket.SOCK_DGRAM)
        if fam == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.bind((addr, a.port))
        socks.append(s)
    out = open(a.out, "w", buffering=1)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    open(a.out + ".ready", "w").close()
    while not stop:
        try:
            rd, _, _ = select.select(socks, [], [], 0.2)
        except InterruptedError:
            continue
        for s in rd:
            b, src = s.recvfrom(65535)
            out.write(json.dumps({"ts": time.time_ns(), "src": src[0],
                                  "sport": src[1], "hex": b.hex()}) + "\n")
    # Drain what is already queued.
    for s in socks:
        s.setblocking(False)
        while True:
            try:
                b, src = s.recvfrom(65535)
            except BlockingIOError:
                break
            out.write(json.dumps({"ts": time.time_ns(), "src": src[0],
                                  "sport": src[1], "hex": b.hex()}) + "\n")
    out.close()
    return 0


# ------------------------------------------------------------- traffic

def cmd_sink(a):
    """The application at D: UDP on a.port and TCP on a.port + 1, IPv4 and
    IPv6; at SIGTERM writes per-flow byte counts, SHA-256 and the DSCPs
    (Traffic Class) UDP datagrams arrived with."""
    socks, udp = {}, []
    for fam, addr in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        u = socket.socket(fam, socket.SOCK_DGRAM)
        if fam == socket.AF_INET6:
            u.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            u.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVTCLASS, 1)
        else:
            u.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
        u.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        u.bind((addr, a.port))
        t = socket.socket(fam, socket.SOCK_STREAM)
        if fam == socket.AF_INET6:
            t.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        t.bind((addr, a.port + 1))
        t.listen(16)
        udp.append(u)
        socks[u] = ("udp", fam)
        socks[t] = ("listen", fam)
    flows = {}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    open(a.out + ".ready", "w").close()

    def flow(key):
        return flows.setdefault(key, {"bytes": 0, "packets": 0, "h": hashlib.sha256(),
                                      "dscp": set(), "seqs": []})
    while not stop:
        try:
            rd, _, _ = select.select(list(socks), [], [], 0.2)
        except InterruptedError:
            continue
        for s in rd:
            kind, fam = socks[s]
            if kind == "udp":
                b, anc, _, src = s.recvmsg(65535, 64)
                tos = None
                for lvl, typ, v in anc:
                    if typ in (socket.IP_TOS, socket.IPV6_TCLASS) and v:
                        tos = v[0] if len(v) == 1 else struct.unpack("=i", v[:4])[0]
                if b[:4] != MAGIC:
                    continue
                fid, seq = struct.unpack("!II", b[4:12])
                f = flow("udp%d-%d" % (4 if fam == socket.AF_INET else 6, fid))
                f["packets"] += 1
                f["bytes"] += len(b)
                f["seqs"].append((seq, hashlib.sha256(b).hexdigest()))
                if tos is not None:
                    f["dscp"].add(tos >> 2)
            elif kind == "listen":
                c, _ = s.accept()
                socks[c] = ("tcp", fam)
                flows.setdefault(("conn", c.fileno()), {"buf": b""})
            else:
                b = s.recv(1 << 16)
                st = flows[("conn", s.fileno())]
                if "key" not in st:
                    st["buf"] += b
                    if len(st["buf"]) < 8:
                        continue
                    fid = struct.unpack("!I", st["buf"][4:8])[0]
                    st["key"] = "tcp%d-%d" % (4 if fam == socket.AF_INET else 6, fid)
                    b, st["buf"] = st["buf"], b""
                f = flow(st["key"])
                if not b:
                    del socks[s]
                    del flows[("conn", s.fileno())]
                    s.close()
                    f["closed"] = True
                    continue
                f["bytes"] += len(b)
                f["h"].update(b)
    res = {}
    for k, f in flows.items():
        if not isinstance(k, str):
            continue
        if k.startswith("udp"):
            h = hashlib.sha256()
            for _, d in sorted(f["seqs"]):
                h.update(d.encode())
            f["h"] = h
        res[k] = {"bytes": f["bytes"], "packets": f["packets"], "sha256": f["h"].hexdigest(),
                  "dscp": sorted(f["dscp"]), "closed": f.get("closed", False)}
    with open(a.out, "w") as o:
        json.dump(res, o)
    return 0


def udp_payload(fid, seq, size):
    head = MAGIC + struct.pack("!II", fid, seq)
    body = hashlib.sha256(head).digest() * (size // 32 + 1)
    return head + body[:max(0, size - len(head))]


def cmd_udp_send(a):
    fam = socket.AF_INET if a.family == "4" else socket.AF_INET6
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if a.tos is not None:
        if fam == socket.AF_INET:
            s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, a.tos)
        else:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, a.tos)
    if a.sport:
        s.bind(("0.0.0.0" if fam == socket.AF_INET else "::", a.sport))
    if a.no_check:
        s.setsockopt(socket.SOL_SOCKET, 11, 1)	# SO_NO_CHECK: UDP checksum 0
    h = hashlib.sha256()
    for i in range(a.count):
        p = udp_payload(a.flow, i, a.size)
        s.sendto(p, (a.dst, a.port))
        h.update(hashlib.sha256(p).hexdigest().encode())
        if a.interval:
            time.sleep(a.interval)
    print(json.dumps({"flow": "udp%s-%d" % (a.family, a.flow), "packets": a.count,
                      "bytes": a.count * a.size, "sha256": h.hexdigest(),
                      "sport": s.getsockname()[1]}))
    return 0


def cmd_tcp_send(a):
    s = socket.create_connection((a.dst, a.port), timeout=10)
    head = MAGIC + struct.pack("!I", a.flow)
    blk, chunks, n = hashlib.sha256(head).digest(), [head], len(head)
    while n < min(a.bytes, 1 << 16):
        blk = hashlib.sha256(blk).digest()
        chunks.append(blk)
        n += len(blk)
    data = b"".join(chunks)
    data = (data * (a.bytes // len(data) + 1))[:a.bytes]
    sport = s.getsockname()[1]
    t0 = time.monotonic()
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(10)
    while s.recv(4096):
        pass
    secs = time.monotonic() - t0
    s.close()
    print(json.dumps({"flow": "tcp%s-%d" % (a.family, a.flow), "bytes": len(data),
                      "sha256": hashlib.sha256(data).hexdigest(), "sport": sport,
                      "secs": secs}))
    return 0


# -------------------------------------------------------------- checks

class Checks:
    def __init__(self):
        self.lines = []

    def add(self, name, exp, obs):
        clean = lambda s: str(s).replace("\t", " ").replace("\n", " ")
        self.lines.append("%s\t%s\t%s" % (name, clean(exp), clean(obs)))

    def emit(self):
        for ln in self.lines:
            print(ln)


def hop_public(h):
    """A hop without this decoder's private keys (raw octets, reserved)."""
    return {k: v for k, v in h.items() if k != "raw" and not k.startswith("rsvd")}


def first_diff(items, limit=2):
    return "; ".join(items[:limit]) + (" (+%d more)" % (len(items) - limit) if len(items) > limit else "")


def expected_path(topo, m_at=None, max_hops=None):
    """Nodes that push metadata, in path order, and where E/M get set."""
    pushing, e_from, m_from = [], None, None
    rhc = max_hops
    for i, n in enumerate(topo["path"][:-1]):
        if n == m_at:
            m_from = i
            continue
        if rhc == 0:
            if e_from is None:
                e_from = i
            continue
        pushing.append((i, n))
        rhc -= 1
    return pushing, e_from, m_from


def md_expect_link(topo, k, a):
    """Expected header and hop list on link k (0-based: after node k)."""
    pushing, e_from, m_from = expected_path(topo, a.m_at, a.max_hops)
    hops = [n for i, n in pushing if i <= k]
    e = 1 if e_from is not None and e_from <= k else 0
    m = 1 if m_from is not None and m_from <= k else 0
    return list(reversed(hops)), e, m


def node_hop_expect(topo, name, bm, forwarded=False):
    """The exact per-node fields: IDs from the configuration; all-ones for
    what the node cannot know (the source's ingress side for its own
    packets; its arrival time, which no ingress program stamps there). The
    sink's egress side is not checked: the packet ends there."""
    n = topo["nodes"][name]
    src = name == topo["path"][0]
    fin = n.get("fwd_in") if src and forwarded else None
    d = {}
    if bm & 0x8000:
        d["node_id"] = n["node_id"]
    if bm & 0x4000:
        d["l1_ingress"] = fin["l1"] if fin else 0xffff if src else n["in"]["l1"]
        if "out" in n:
            d["l1_egress"] = n["out"]["l1"]
    if bm & 0x0200:
        d["l2_ingress"] = fin["l2"] if fin else ALL1_32 if src else n["in"]["l2"]
        if "out" in n:
            d["l2_egress"] = n["out"]["l2"]
    if src and bm & 0x2000:
        d["hop_latency"] = ALL1_32
    if src and bm & 0x0800:
        d["ingress_ts"] = ALL1_64
    return d


def load_caps(a, sig):
    caps = []
    for k, ln in enumerate(a.topo_d["links"]):
        p = os.path.join(a.dir, "%s.pcap" % ln)
        caps.append(decode_pcap(p, sig, a.report_port) if os.path.exists(p) else [])
    return caps


def app_pkts(cap, flow):
    """Packets of one application flow S -> D on a capture."""
    fam, proto = flow["family"], flow["proto"]
    out = []
    for d in cap:
        if d.get("family") != fam or d.get("dst") != flow["dst"] or "key" not in d:
            continue
        if d.get("oproto") != proto or d.get("odport") != flow["port"]:
            continue
        if flow.get("sport") and d.get("osport") != flow["sport"]:
            continue
        # UDP datagrams name their flow (udp_payload()): two flows of one
        # family may share the ports.
        if proto == 17 and flow.get("id") and d.get("flow") not in (None, flow["id"]):
            continue
        out.append(d)
    return out


def ip_same_but_forwarding(x, y):
    """Two captures of one IP packet equal except what forwarding changes:
    the IPv4 TTL and header checksum, the IPv6 Hop Limit."""
    x, y = bytearray(x), bytearray(y)
    if len(x) != len(y) or not x:
        return False
    if x[0] >> 4 == 4:
        for b in (x, y):
            b[8] = 0
            b[10:12] = b"\0\0"
    else:
        for b in (x, y):
            b[7] = 0
    return x == y


def check_own_tcp(a, C, fn, fl, sig, per_link):
    """S's own TCP (a GSO or CHECKSUM_PARTIAL skb at its tc egress): every
    packet the source left without INT goes out as the stack made it and
    no node downstream changes it; the ones with INT (NPT=2 on a single
    CHECKSUM_PARTIAL segment: UDP-port signalling only) are the same
    packets on every link. True when the INT checks apply (some INT
    expected)."""
    topo = a.topo_d
    links = topo["links"]
    expect_int = sig[0] != "dscp"
    int0 = {d["key"] for d in per_link[0] if "int" in d}
    plain0 = {d["key"]: d for d in per_link[0] if "int" not in d}
    exp, obs = [], []
    for k, pk in enumerate(per_link):
        wi = ("some" if expect_int else "0") if k == 0 else str(len(int0))
        wp = "some" if k == 0 else str(len(plain0))
        exp.append("%s:%s INT/%s left" % (links[k], wi, wp))
        gi = sum(1 for d in pk if "int" in d and d["key"] in int0)
        gp = sum(1 for d in pk if "int" not in d and d["key"] in plain0)
        if k == 0:
            gi = "some" if gi and wi == "some" else str(gi)
            gp = "some" if gp else "0"
        obs.append("%s:%s INT/%s left" % (links[k], gi, gp))
    C.add(fn + "_source_instruments_only_what_it_can", " ".join(exp), " ".join(obs))
    bad = []
    for key, d in plain0.items():
        if d["proto"] != 6 or d["dscp"] != fl.get("tos", 0) >> 2 or d.get("l4_csum") != "ok" \
                or not d["ip_ok"]:
            bad.append("%s: proto %d dscp %d checksum %s" % (links[0], d["proto"], d["dscp"],
                                                              d.get("l4_csum")))
    for k in range(1, len(per_link)):
        there = {}
        for d in per_link[k]:
            there.setdefault(d["key"], []).append(d)
        for key, d in plain0.items():
            got = there.get(key, [])
            if not got:
                bad.append("%s: missing" % links[k])
            elif not any(ip_same_but_forwarding(bytes.fromhex(d["ipraw"]), bytes.fromhex(g["ipraw"]))
                         for g in got):
                bad.append("%s: octets differ from %s" % (links[k], links[0]))
    C.add(fn + "_left_by_source_unchanged_every_link", "some packets, 0 changed",
          "%s packets, %d changed%s" % ("some" if plain0 else "no", len(bad),
                                        (": " + first_diff(sorted(set(bad)))) if bad else ""))
    return expect_int



def check_csum_app(a, C, fn, fl, sig, per_link):
    """Checksums at every capture point; the application's bytes at D."""
    topo = a.topo_d
    # -- checksums at every capture point
    bad_c, n_c = [], 0
    for k, pk in enumerate(per_link):
        for d in pk:
            n_c += 1
            if not d["ip_ok"]:
                bad_c.append("%s IPv4 header checksum" % topo["links"][k])
            c = d.get("l4_csum")
            if d.get("int", {}).get("npt") == 2:
                if c == "bad":
                    bad_c.append("%s outer UDP checksum bad" % topo["links"][k])
                if d.get("inner_l4_csum") != "ok":
                    bad_c.append("%s inner L4 checksum %s" % (topo["links"][k], d.get("inner_l4_csum")))
            elif fl.get("zero_csum"):
                # A zero UDP checksum stays zero (INT §5.6, RFC 768).
                if c != "zero":
                    bad_c.append("%s UDP checksum %s, sent as 0" % (topo["links"][k], c))
            elif c != "ok":
                bad_c.append("%s L4 checksum %s" % (topo["links"][k], c))
    C.add(fn + "_checksums_valid_every_link", "%d packets, 0 bad" % max(n_c, 1),
          "%d packets, %d bad%s" % (n_c, len(bad_c), (": " + first_diff(sorted(set(bad_c)))) if bad_c else ""))
    # -- the application at D
    if a.sent and a.received:
        sent = {json.loads(l)["flow"]: json.loads(l) for l in open(a.sent) if l.strip()}
        try:
            recv = json.load(open(a.received))
        except (OSError, ValueError):
            recv = {}
        s, r = sent.get(fl["app"], {}), recv.get(fl["app"], {})
        C.add(fn + "_application_receives_original_bytes",
              "%s bytes sha256 %s" % (s.get("bytes"), str(s.get("sha256"))[:16]),
              "%s bytes sha256 %s" % (r.get("bytes"), str(r.get("sha256"))[:16]))
        if fl["proto"] == 17 and sig[0] == "dscp":
            C.add(fn + "_sink_restores_dscp", "[%d]" % (fl.get("tos", 0) >> 2), str(r.get("dscp")))


def check_md(a, C):
    topo = a.topo_d
    sig = parse_sig(a.signal)
    bm = int(a.bitmap, 0)
    hop_ml = bitmap_words(bm)
    caps = load_caps(a, sig)
    flows = json.load(open(a.flows))
    P = a.prefix
    for fl in flows:
        fn = "%s_%s" % (P, fl["name"])
        per_link = [app_pkts(caps[k], fl) for k in range(len(caps))]
        npkts = [len(x) for x in per_link]
        if fl["proto"] == 6 and not a.forwarded:
            # S's own TCP is GSO or CHECKSUM_PARTIAL at its tc egress
            # (Documentation/int.rst, "GSO and TSO"): left without INT
            # and counted (the script compares the counters), except that
            # NPT=2 instruments a single CHECKSUM_PARTIAL segment.
            if not check_own_tcp(a, C, fn, fl, sig, per_link):
                check_csum_app(a, C, fn, fl, sig, per_link)
                continue
        # -- INT on every app packet of every link
        exp, obs = [], []
        for k, pk in enumerate(per_link):
            if fl["proto"] == 6 and not a.forwarded:
                break
            nint = sum(1 for d in pk if "int" in d)
            if fl["proto"] == 17:
                exp.append("%s:%d/%d" % (topo["links"][k], fl["count"], fl["count"]))
            else:
                exp.append("%s:all/some" % topo["links"][k])
            if fl["proto"] != 17 and pk and nint == len(pk):
                obs.append("%s:all/some" % topo["links"][k])
            else:
                obs.append("%s:%d/%d" % (topo["links"][k], nint, len(pk)))
        if exp:
            C.add(fn + "_int_on_every_packet_every_link", " ".join(exp), " ".join(obs))
        # -- header fields per link
        want_h, got_h = [], []
        for k, pk in enumerate(per_link):
            hops, e, m = md_expect_link(topo, k, a)
            npt = 0 if sig[0] == "dscp" else (1 if fl["proto"] == 17 else 2)
            rhc = a.max_hops - len(hops)
            w = "ver 2 d 0 e %d m %d hop_ml %d rhc %d bitmap 0x%04x shim_len %d npt %d" % (
                e, m, hop_ml, rhc, bm, 3 + hop_ml * len(hops), npt)
            if npt == 0:
                w += " orig_dscp %d" % (fl.get("tos", 0) >> 2)
            elif npt == 1:
                w += " orig_dport %d" % fl["port"]
            else:
                w += " orig_proto %d" % fl["proto"]
            want_h.append("%s:[%s]" % (topo["links"][k], w))
            seen = set()
            for d in pk:
                i = d.get("int")
                if not i:
                    continue
                g = "ver %d d %d e %d m %d hop_ml %d rhc %d bitmap %s shim_len %d npt %d" % (
                    i["ver"], i["d"], i.get("e", -1), i.get("m", -1), i.get("hop_ml", -1),
                    i.get("rhc", -1), i["bitmap"], i["shim_len"], i["npt"])
                for key in ("orig_dscp", "orig_dport", "orig_proto"):
                    if key in i:
                        g += " %s %d" % (key, i[key])
                if i["rsvd"]:
                    g += " rsvd 0x%x" % i["rsvd"]
                seen.add(g)
            got_h.append("%s:[%s]" % (topo["links"][k], "|".join(sorted(seen)) or "no INT"))
        C.add(fn + "_md_header_per_link", " ".join(want_h), " ".join(got_h))
        # -- stack order (node IDs, most recent first) and the exact IDs
        want_s, got_s, want_f, bad_f = [], [], [], []
        for k, pk in enumerate(per_link):
            hops, _, _ = md_expect_link(topo, k, a)
            want_s.append("%s:%s" % (topo["links"][k], [topo["nodes"][n]["node_id"] for n in hops]))
            seen = set()
            for d in pk:
                if "int" not in d:
                    continue
                seen.add(str([h.get("node_id") for h in d["int"]["hops"]]))
                if len(d["int"]["hops"]) != len(hops):
                    continue
                for n, h in zip(hops, d["int"]["hops"]):
                    ex = node_hop_expect(topo, n, bm, a.forwarded)
                    for key, v in ex.items():
                        if h.get(key) != v:
                            bad_f.append("%s %s %s: %s != %s" % (topo["links"][k], n, key,
                                                                  h.get(key), v))
            got_s.append("%s:%s" % (topo["links"][k], "|".join(sorted(seen)) or "none"))
        C.add(fn + "_stack_order_most_recent_first", " ".join(want_s), " ".join(got_s))
        C.add(fn + "_node_and_interface_ids_exact", "0 mismatches",
              "%d mismatches%s" % (len(bad_f), (": " + first_diff(sorted(set(bad_f)), 4)) if bad_f else ""))
        # -- earlier hops are carried unchanged to later links
        keyed = [{d["key"]: d for d in pk if "int" in d} for pk in per_link]
        chg, ncmp = [], 0
        for k in range(1, len(keyed)):
            for key, d in keyed[k].items():
                prev = keyed[k - 1].get(key)
                if not prev:
                    continue
                ncmp += 1
                ph = [h["raw"] for h in prev["int"]["hops"]]
                ch = [h["raw"] for h in d["int"]["hops"]]
                if ch[len(ch) - len(ph):] != ph:
                    chg.append("%s vs %s" % (topo["links"][k - 1], topo["links"][k]))
        own = fl["proto"] == 6 and not a.forwarded
        C.add(fn + "_earlier_hops_unchanged_downstream",
              "%d compared, 0 changed" % max(1, sum(len(x) for x in (keyed[1:] if own else per_link[1:]))),
              "%d compared, %d changed%s" % (ncmp, len(chg), (": " + first_diff(chg)) if chg else ""))
        # -- timestamps and latency along the whole path (last link)
        last = per_link[-1]
        hops_last, _, _ = md_expect_link(topo, len(caps) - 1, a)
        bad_t, bad_l, bad_q, bad_u, n_t, qmax, util_seen = [], [], [], [], 0, 0, set()
        for d in sorted(last, key=lambda x: x["ts"]):
            if "int" not in d or len(d["int"]["hops"]) != len(hops_last):
                continue
            n_t += 1
            path_order = list(zip(reversed(hops_last), reversed(d["int"]["hops"])))
            prev_eg = None
            for n, h in path_order:
                src = n == topo["path"][0]
                ing, eg, lat = h.get("ingress_ts"), h.get("egress_ts"), h.get("hop_latency")
                if eg is not None:
                    if eg == ALL1_64 or not (a.t0 <= eg <= d["ts"] + 1000000):
                        bad_t.append("%s egress_ts %s outside [%d, capture %d]" % (n, eg, a.t0, d["ts"]))
                    if prev_eg is not None and ing is not None and not src and ing != ALL1_64 \
                            and ing < prev_eg:
                        bad_t.append("%s ingress_ts %d < previous egress_ts %d" % (n, ing, prev_eg))
                    if ing is not None and not src and (ing == ALL1_64 or ing > eg):
                        bad_t.append("%s ingress_ts %s > egress_ts %d" % (n, ing, eg))
                    prev_eg = eg
                if lat is not None and not src:
                    if lat == ALL1_32 or lat > 50 * 10**6:
                        bad_l.append("%s hop_latency %s" % (n, lat))
                    elif ing not in (None, ALL1_64) and eg is not None and \
                            abs((eg - ing) - lat) > 100000:
                        bad_l.append("%s hop_latency %d vs egress-ingress %d" % (n, lat, eg - ing))
                if "queue_id" in h:
                    qo, bo = h["queue_occupancy"], h.get("buffer_occupancy")
                    agent = topo["nodes"][n].get("agent", False)
                    if h["queue_id"] != 0:
                        bad_q.append("%s queue_id %d (one TX queue)" % (n, h["queue_id"]))
                    if agent and qo == 0xffffff:
                        bad_q.append("%s queue_occupancy unavailable with hopmarkd running" % n)
                    if not agent and qo != 0xffffff:
                        bad_q.append("%s queue_occupancy %d without hopmarkd" % (n, qo))
                    if agent and qo != 0xffffff:
                        if n == a.qnode:
                            # a tbf: whole queued frames (+ a few control
                            # packets), never past its limit
                            qmax = max(qmax, qo)
                            if qo % a.qpkt >= 256 or qo > a.qlimit:
                                bad_q.append("%s queue_occupancy %d, not whole %d-octet frames under %d" % (
                                    n, qo, a.qpkt, a.qlimit))
                        elif qo != 0:
                            # a veth's noqueue never holds a packet
                            bad_q.append("%s queue_occupancy %d on a noqueue egress" % (n, qo))
                    if bo is not None and qo != 0xffffff and (bo == 0xffffff or bo < qo):
                        bad_q.append("%s buffer_occupancy %s < queue_occupancy %d" % (n, bo, qo))
                if "tx_util" in h:
                    u = h["tx_util"]
                    # all-ones until the node's first rate window is
                    # complete (Documentation/int.rst), then never again
                    if topo["nodes"][n].get("rate") and u == ALL1_32:
                        if n in util_seen:
                            bad_u.append("%s tx_util all-ones after a value" % n)
                    elif topo["nodes"][n].get("rate") and not (0 <= u <= 10000):
                        bad_u.append("%s tx_util %d (0.01 %% units)" % (n, u))
                    elif topo["nodes"][n].get("rate"):
                        util_seen.add(n)
                    if not topo["nodes"][n].get("rate") and u != ALL1_32:
                        bad_u.append("%s tx_util %d without a rate" % (n, u))
        C.add(fn + "_timestamps_plausible_monotone", "%d packets, 0 violations" % max(n_t, 1),
              "%d packets, %d violations%s" % (n_t, len(bad_t), (": " + first_diff(bad_t)) if bad_t else ""))
        if bm & 0x2000:
            C.add(fn + "_hop_latency_plausible", "0 violations",
                  "%d violations%s" % (len(bad_l), (": " + first_diff(bad_l)) if bad_l else ""))
        if bm & 0x1000:
            C.add(fn + "_queue_fields_hopmark_qdepth", "0 violations",
                  "%d violations%s" % (len(bad_q), (": " + first_diff(bad_q)) if bad_q else ""))
        if bm & 0x1000 and a.qnode:
            C.add(fn + "_queue_occupancy_builds_up_at_" + a.qnode, "at least %d octets" % (3 * a.qpkt),
                  "at least %d octets" % (3 * a.qpkt) if qmax >= 3 * a.qpkt else "only %d octets" % qmax)
        if bm & 0x0100:
            C.add(fn + "_tx_util_unit", "0 violations",
                  "%d violations%s" % (len(bad_u), (": " + first_diff(bad_u)) if bad_u else ""))
        check_csum_app(a, C, fn, fl, sig, per_link)
    return caps


def check_decode(a, C, caps):
    """`hopmark decode -j` of every capture against this decoder's hops."""
    if not a.hopmark_decode:
        return
    for k, ln in enumerate(a.topo_d["links"]):
        p = os.path.join(a.dir, "%s.decode.json" % ln)
        name = "%s_%s_hopmark_decode_agrees" % (a.prefix, ln)
        mine = [d for d in caps[k] if "int" in d]
        try:
            theirs = [json.loads(l) for l in open(p) if l.strip()]
        except (OSError, ValueError) as e:
            C.add(name, "%d INT packets, 0 differences" % len(mine), "unreadable: %s" % e)
            continue
        theirs = [t for t in theirs if isinstance(t, dict) and "int" in t]
        diffs = []
        for m, t in zip(mine, theirs):
            ti, mi = t["int"], m["int"]
            for key in ("type", "npt", "shim_len", "ver", "d", "e", "m", "hop_ml", "rhc",
                        "bitmap", "ds_id", "ds_instruction", "ds_flags",
                        "orig_dscp", "orig_dport", "orig_proto"):
                if key in mi and ti.get(key) != mi[key]:
                    diffs.append("%s %s != %s" % (key, ti.get(key), mi[key]))
            mh = [hop_public(h) for h in mi["hops"]]
            if ti.get("hops") != mh:
                diffs.append("hops %s != %s" % (json.dumps(ti.get("hops"))[:200], json.dumps(mh)[:200]))
        C.add(name, "%d INT packets, 0 differences" % len(mine),
              "%d INT packets, %d differences%s" % (len(theirs), len(diffs),
                                                    (": " + first_diff(diffs, 1)) if diffs else ""))


def load_reports(path, sig):
    out = []
    try:
        lines = [json.loads(l) for l in open(path) if l.strip()]
    except OSError:
        return out
    for l in lines:
        try:
            r = decode_report(bytes.fromhex(l["hex"]), sig)
        except (ValueError, IndexError, struct.error) as e:
            r = {"error": str(e)}
        r["src"] = l["src"]
        r["rx_ts"] = l["ts"]
        out.append(r)
    return out


def seq_gaps(reps, node_id):
    """Gaps in one node's group-header sequence numbers (Report §3.2), as
    "some datagrams, N gaps" or "no datagrams"."""
    seqs = [r["seq"] for r in reps if r.get("node_id") == node_id]
    if not seqs:
        return "no datagrams"
    return "some datagrams, %d gaps" % sum(1 for x, y in zip(seqs, seqs[1:]) if y != (x + 1) & 0x3fffff)


def check_md_reports(a, C, caps):
    if not a.reports:
        return
    topo = a.topo_d
    sig = parse_sig(a.signal)
    bm = int(a.bitmap, 0)
    reps = load_reports(a.reports, sig)
    sink = topo["path"][-1]
    sid = topo["nodes"][sink]["node_id"]
    flows = json.load(open(a.flows))
    errs = [r["error"] for r in reps if "error" in r]
    C.add(a.prefix + "_reports_decode", "0 undecodable datagrams",
          "%d undecodable datagrams%s" % (len(errs), (": " + first_diff(errs)) if errs else ""))
    mine = [r for r in reps if r.get("node_id") == sid]
    ind = [(g, x) for g in mine for x in g["reports"]]
    hdr = set()
    for g, x in ind:
        hdr.add("ver %d hw_id %d rep_type %d in_type %d d %d q %d f %d i %d rep_md_bits %s" % (
            g["ver"], g["hw_id"], x["rep_type"], x["in_type"], x["d"], x["q"], x["f"], x["i"],
            x.get("rep_md_bits")))
    want = set()
    for fam in sorted(set(f["family"] for f in flows)):
        want.add("ver 2 hw_id %d rep_type 1 in_type %d d 0 q 0 f 1 i 0 rep_md_bits 0x%04x" % (
            a.hw_id, 4 if fam == 4 else 5, bm & 0x7f80))
    C.add(a.prefix + "_sink_report_headers", "|".join(sorted(want)), "|".join(sorted(hdr)) or "no reports")
    C.add(a.prefix + "_sink_report_sequence_no_gaps", "some datagrams, 0 gaps", seq_gaps(reps, sid))
    last = caps[-1]
    for fl in flows:
        fn = "%s_%s" % (a.prefix, fl["name"])
        pk = {d["key"]: d for d in app_pkts(last, fl) if "int" in d}
        got = {}
        for g, x in ind:
            inn = x.get("inner", {})
            if "key" in inn and inn["key"] in pk:
                got[inn["key"]] = (g, x)
        C.add(fn + "_sink_reports_one_per_packet", "%d reports" % len(pk), "%d reports" % len(got))
        bad, bad_md = [], []
        for key, (g, x) in got.items():
            cd = pk[key]
            ch = [hop_public(h) for h in cd["int"]["hops"]]
            rh = [hop_public(h) for h in x["inner"].get("int", {}).get("hops", [])]
            if ch != rh:
                bad.append("stack %s != captured %s" % (json.dumps(rh)[:160], json.dumps(ch)[:160]))
            inner = bytes.fromhex(x["inner_hex"])
            raw = bytes.fromhex(cd["ipraw"])
            n = min(len(raw), a.trunc)
            if inner[:n] != raw[:n] or len(inner) - n not in (0, 1, 2, 3) or any(inner[n:]):
                bad.append("inner %d octets, not the captured packet's first %d" % (len(inner), n))
            exp_len = 2 + x["md_len"] + (n + 3) // 4
            if x["len"] != min(exp_len, 0xff):
                bad.append("Report Length %d, expected %d" % (x["len"], exp_len))
            md = x.get("md", {})
            ex = node_hop_expect(topo, sink, bm & 0x7f80)
            for k2, v in ex.items():
                if md.get(k2) != v:
                    bad_md.append("%s %s != %s" % (k2, md.get(k2), v))
            r3 = cd["int"]["hops"][0] if cd["int"]["hops"] else {}
            if "ingress_ts" in md and "egress_ts" in r3 and not (r3["egress_ts"] <= md["ingress_ts"] <= x_rx(g)):
                bad_md.append("sink ingress_ts %d not after last hop's egress_ts %d" % (md["ingress_ts"], r3["egress_ts"]))
        C.add(fn + "_sink_reports_match_captured_stack", "0 mismatches",
              "%d mismatches%s" % (len(bad), (": " + first_diff(bad, 1)) if bad else ""))
        C.add(fn + "_sink_report_own_metadata", "0 mismatches",
              "%d mismatches%s" % (len(bad_md), (": " + first_diff(sorted(set(bad_md)), 3)) if bad_md else ""))


def x_rx(g):
    return g.get("rx_ts", 1 << 63)


def check_export(a, C):
    """INT-MX / INT-XD: every node reports each app packet; the wire carries
    instructions only (MX) or nothing (XD)."""
    topo = a.topo_d
    sig = parse_sig(a.signal)
    bm = int(a.bitmap, 0)
    caps = load_caps(a, sig)
    reps = load_reports(a.reports, sig) if a.reports else []
    flows = json.load(open(a.flows))
    P = a.prefix
    for fl in flows:
        fn = "%s_%s" % (P, fl["name"])
        per_link = [app_pkts(caps[k], fl) for k in range(len(caps))]
        want, got = [], []
        for k, pk in enumerate(per_link):
            want.append("%s:%d/%s" % (topo["links"][k], fl["count"],
                                      "mx len 3 bitmap 0x%04x no stack" % bm if a.mode == "mx" else "no INT"))
            kinds = set()
            for d in pk:
                i = d.get("int")
                if not i:
                    kinds.add("no INT")
                else:
                    kinds.add("%s len %d bitmap %s %s" % (i["type"], i["shim_len"], i["bitmap"],
                                                          "no stack" if not i["hops"] else "stack"))
            got.append("%s:%d/%s" % (topo["links"][k], len(pk), "|".join(sorted(kinds))))
        C.add(fn + "_wire_format_every_link", " ".join(want), " ".join(got))
        bad_c = [topo["links"][k] for k, pk in enumerate(per_link) for d in pk
                 if not d["ip_ok"] or (d.get("l4_csum") != "ok" and not
                                       (d.get("l4_csum") == "zero" and d.get("inner_l4_csum") == "ok"))]
        C.add(fn + "_checksums_valid_every_link", "0 bad", "%d bad%s" % (len(bad_c), (": " + first_diff(bad_c)) if bad_c else ""))
        if a.mode == "xd" and per_link and per_link[0]:
            # Untouched: the payload octets on the last link are those of the first.
            first = {d["key"]: d for d in per_link[0]}
            diff = sum(1 for d in per_link[-1] if d["key"] in first and
                       (d["len"] != first[d["key"]]["len"] or d["dscp"] != first[d["key"]]["dscp"]))
            C.add(fn + "_xd_packet_untouched", "0 changed", "%d changed" % diff)
        keys = {d["key"] for d in per_link[0]} if per_link else set()
        count = {}
        badmd = []
        for g in reps:
            for x in g.get("reports", []):
                inn = x.get("inner", {})
                if inn.get("key") in keys:
                    nm = [n for n, v in topo["nodes"].items() if v["node_id"] == g["node_id"]]
                    nm = nm[0] if nm else "id%d" % g["node_id"]
                    count[nm] = count.get(nm, 0) + 1
                    if nm in topo["nodes"]:
                        md = x.get("md", {})
                        ex = node_hop_expect(topo, nm, bm & 0x7f80)
                        ex.pop("hop_latency", None)
                        ex.pop("ingress_ts", None)
                        for k2, v in ex.items():
                            if md.get(k2) != v:
                                badmd.append("%s %s %s != %s" % (nm, k2, md.get(k2), v))
                        if x["f"] != 1 or x["rep_type"] != 1:
                            badmd.append("%s rep_type %d f %d" % (nm, x["rep_type"], x["f"]))
                        # A transit's ingress interface stamps arrivals:
                        # hop latency and ingress timestamp are known, so
                        # RepMdBits keeps them (MX clears only what is not).
                        if nm in topo["path"][1:-1] and bm & 0x2800 and \
                                int(x.get("rep_md_bits", "0"), 16) & 0x2800 != bm & 0x2800:
                            badmd.append("%s rep_md_bits %s without hop latency/ingress timestamp" % (
                                nm, x.get("rep_md_bits")))
        C.add(fn + "_reports_from_every_node",
              " ".join("%s:%d" % (n, fl["count"]) for n in topo["path"]),
              " ".join("%s:%d" % (n, count.get(n, 0)) for n in topo["path"]) +
              "".join(" %s:%d" % (n, c) for n, c in count.items() if n not in topo["path"]))
        C.add(fn + "_report_metadata_per_node", "some reports, 0 mismatches",
              "%s reports, %d mismatches%s" % ("some" if count else "no", len(badmd),
                                               (": " + first_diff(sorted(set(badmd)), 3)) if badmd else ""))
    # Reports crossing the links: never instrumented, IPv4 with DF (Report §3.1).
    nrep, inst, nodf = 0, [], 0
    for k, cap in enumerate(caps):
        for d in cap:
            if d.get("kind") != "report":
                continue
            nrep += 1
            if sig[0] == "dscp" and d["dscp"] & sig[1][1] == sig[1][0]:
                inst.append("%s DSCP 0x%x" % (topo["links"][k], d["dscp"]))
            if d["family"] == 4 and not d["df"]:
                nodf += 1
    C.add(P + "_reports_on_links_not_instrumented", "some reports, 0 with INT",
          "%s reports, %d with INT%s" % ("some" if nrep else "no", len(inst), (": " + first_diff(inst)) if inst else ""))
    C.add(P + "_ipv4_reports_set_df", "0 without DF", "%d without DF" % nodf)
    for n in topo["path"]:
        C.add("%s_%s_report_sequence_no_gaps" % (P, n), "some datagrams, 0 gaps",
              seq_gaps(reps, topo["nodes"][n]["node_id"]))


def cmd_selftest(a):
    """The decoder against the spec's own example vectors (INT §6, Report
    §4, the digest's hex) and packets built here: TSV checks."""
    C = Checks()
    # INT §6.1: MD over TCP, DSCP; shim 10 07 00 (origDSCP << 2), MD
    # 20000206 90000000 00000000 and 4 words (2 hops of node ID + queue).
    stack = bytes.fromhex("00000002" "00123456" "00000001" "01000010")
    d, used = decode_int(bytes.fromhex("10070028" "20000206" "90000000" "00000000") + stack)
    C.add("decoder_spec_6_1_md_header",
          "md npt 0 len 7 dscp 10 ver 2 hop_ml 2 rhc 6 bitmap 0x9000 used 32",
          "%s npt %d len %d dscp %d ver %d hop_ml %d rhc %d bitmap %s used %d" % (
              d["type"], d["npt"], d["shim_len"], d["orig_dscp"], d["ver"], d["hop_ml"],
              d["rhc"], d["bitmap"], used))
    C.add("decoder_spec_6_1_stack_most_recent_first",
          "[(2, 0, 1193046), (1, 1, 16)]",
          str([(h["node_id"], h["queue_id"], h["queue_occupancy"]) for h in d["hops"]]))
    d, _ = decode_int(bytes.fromhex("18070006" "20000206" "90000000" "00000000") + stack)
    C.add("decoder_spec_6_3_npt2_orig_proto", "npt 2 orig_proto 6",
          "npt %d orig_proto %d" % (d["npt"], d["orig_proto"]))
    d, _ = decode_int(bytes.fromhex("140712b5" "20000206" "90000000" "00000000") + stack)
    C.add("decoder_spec_6_5_npt1_orig_dport", "npt 1 orig_dport 4789",
          "npt %d orig_dport %d" % (d["npt"], d["orig_dport"]))
    d, _ = decode_int(bytes.fromhex("38030006" "20000000" "90000000" "00000000"))
    C.add("decoder_spec_6_4_mx", "mx len 3 hops 0", "%s len %d hops %d" % (d["type"], d["shim_len"], len(d["hops"])))
    C.add("decoder_hop_ml_of_bitmaps", "12 8 13", "%d %d %d" % (
        bitmap_words(0xff80), bitmap_words(0xfc00), bitmap_words(0xff81)))
    # A whole IPv4/UDP packet with NPT=1 INT, checksummed here.
    src, dst = socket.inet_aton("192.0.2.1"), socket.inet_aton("192.0.2.2")
    body = bytes.fromhex("140712b5" "20000206" "90000000" "00000000") + stack + b"hello"
    udp = struct.pack("!HHHH", 1234, 15999, 8 + len(body), 0) + body
    ck = 0xffff - csum16(src + dst + struct.pack("!BBH", 0, 17, len(udp)) + udp)
    udp = udp[:6] + struct.pack("!H", ck or 0xffff) + udp[8:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x5c, 20 + len(udp), 7, 0x4000, 64, 17, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", 0xffff - csum16(ip)) + ip[12:]
    pk = decode_packet(ip + udp, ("udp", 15999))
    C.add("decoder_ipv4_udp_npt1_packet", "ip_ok True l4 ok dport 4789 app 5 hops 2",
          "ip_ok %s l4 %s dport %s app %s hops %d" % (pk["ip_ok"], pk.get("l4_csum"), pk.get("odport"),
                                                       pk.get("app_len"), len(pk.get("int", {}).get("hops", []))))
    bad = bytearray(ip + udp)
    bad[-1] ^= 1
    pk = decode_packet(bytes(bad), ("udp", 15999))
    C.add("decoder_detects_bad_l4_checksum", "bad", pk.get("l4_csum"))
    # Report §4.1: 140E0220, RepMdBits 5000 (L1 ports + queue), 2 words of
    # metadata, then 40 octets of IPv4 + TCP; group header hw_id 1 seq 5.
    inner = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 1, 0, 64, 6, 0, src, dst) + bytes(20)
    rep = bytes.fromhex("20400005" "00000063" "140e0220" "50000000" "00000000"
                        "00030004" "01000200") + inner
    r = decode_report(rep, ("dscp", (0x17, 0x3f)))
    x = r["reports"][0]
    C.add("decoder_report_4_1", "ver 2 hw_id 1 seq 5 node 99 rep 1 in 4 len 14 md 2 f 1 "
          "l1 3/4 q 1/512 inner 40",
          "ver %d hw_id %d seq %d node %d rep %d in %d len %d md %d f %d l1 %d/%d q %d/%d inner %d" % (
              r["ver"], r["hw_id"], r["seq"], r["node_id"], x["rep_type"], x["in_type"], x["len"],
              x["md_len"], x["f"], x["md"]["l1_ingress"], x["md"]["l1_egress"], x["md"]["queue_id"],
              x["md"]["queue_occupancy"], x["inner_len"]))
    C.emit()
    return 0


def write_pcap(path, frames):
    """frames: (ts ns, IP packet) -> a nanosecond pcap of Ethernet frames."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))
        for ts, p in frames:
            fr = b"\x02" * 6 + b"\x04" * 6 + (b"\x08\x00" if p[0] >> 4 == 4 else b"\x86\xdd") + p
            f.write(struct.pack("<IIII", ts // 10**9, ts % 10**9, len(fr), len(fr)) + fr)


def cmd_reports_pcap(a):
    """The collector's datagrams as IPv4/UDP frames to a.port, so that
    `hopmark decode report-port` can read what the receiver got."""
    frames = []
    for l in open(a.jsonl):
        if not l.strip():
            continue
        r = json.loads(l)
        pl = bytes.fromhex(r["hex"])
        udp = struct.pack("!HHHH", r.get("sport", 1), a.port, 8 + len(pl), 0) + pl
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                         socket.inet_aton("192.0.2.1"), socket.inet_aton("192.0.2.2"))
        ip = ip[:10] + struct.pack("!H", 0xffff - csum16(ip)) + ip[12:]
        frames.append((r["ts"], ip + udp))
    write_pcap(a.out, frames)
    return 0


def check_reports_decode(a, C):
    """`hopmark -j decode report-port` of the received reports against this
    decoder's reading of the same datagrams."""
    p = os.path.join(a.dir, "reports.decode.json")
    sig = parse_sig(a.signal)
    mine = load_reports(a.reports, sig)
    name = a.prefix + "_hopmark_decode_reports_agrees"
    try:
        theirs = [json.loads(l) for l in open(p) if l.strip()]
    except (OSError, ValueError) as e:
        C.add(name, "%d reports, 0 differences" % len(mine), "unreadable: %s" % e)
        return
    theirs = [t["report"] for t in theirs if isinstance(t, dict) and "report" in t]
    diffs = []
    for m, t in zip(mine, theirs):
        for key in ("ver", "hw_id", "seq", "node_id"):
            if t.get(key) != m.get(key):
                diffs.append("%s %s != %s" % (key, t.get(key), m.get(key)))
        for mr, tr in zip(m.get("reports", []), t.get("reports", [])):
            for key in ("rep_type", "in_type", "len", "md_len", "d", "q", "f", "i",
                        "rep_md_bits", "ds_id", "ds_md_bits", "ds_md_status", "inner_len"):
                if key in mr and tr.get(key) != mr[key]:
                    diffs.append("%s %s != %s" % (key, tr.get(key), mr[key]))
            if "md" in mr and tr.get("md") != mr["md"]:
                diffs.append("md %s != %s" % (json.dumps(tr.get("md"))[:120], json.dumps(mr["md"])[:120]))
            mh = [hop_public(h) for h in mr.get("inner", {}).get("int", {}).get("hops", [])]
            th = (tr.get("inner") or {}).get("int", {}).get("hops", [])
            if mh and th != mh:
                diffs.append("inner hops %s != %s" % (json.dumps(th)[:120], json.dumps(mh)[:120]))
        if len(m.get("reports", [])) != len(t.get("reports", [])):
            diffs.append("%d reports != %d" % (len(t.get("reports", [])), len(m.get("reports", []))))
    C.add(name, "%d reports, 0 differences" % len(mine),
          "%d reports, %d differences%s" % (len(theirs), len(diffs),
                                            (": " + first_diff(diffs, 1)) if diffs else ""))


def cmd_check(a):
    a.topo_d = json.load(open(a.topo))
    C = Checks()
    if a.mode == "md":
        caps = check_md(a, C)
        check_decode(a, C, caps)
        check_md_reports(a, C, caps)
    else:
        check_export(a, C)
    if a.reports and a.hopmark_decode:
        check_reports_decode(a, C)
    C.emit()
    return 0


def cmd_count(a):
    """Data segments (payload > 0) of one flow on a capture: with INT, all."""
    sig = parse_sig(a.signal)
    fl = {"family": a.family, "dst": a.dst, "proto": a.proto, "port": a.port}
    pk = [d for d in app_pkts(decode_pcap(a.file, sig), fl) if d.get("app_len", 0) > 0]
    print("%d %d" % (sum(1 for d in pk if "int" in d), len(pk)))
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("pcap")
    s.add_argument("file")
    s.add_argument("--signal", required=True)
    s.add_argument("--report-port", type=int)
    s = sub.add_parser("collect")
    s.add_argument("port", type=int)
    s.add_argument("out")
    s = sub.add_parser("sink")
    s.add_argument("port", type=int)
    s.add_argument("out")
    s = sub.add_parser("udp-send")
    for n in ("family", "dst"):
        s.add_argument(n)
    for n in ("port", "flow", "count", "size"):
        s.add_argument(n, type=int)
    s.add_argument("--tos", type=lambda x: int(x, 0))
    s.add_argument("--sport", type=int, default=0)
    s.add_argument("--no-check", action="store_true")
    s.add_argument("--interval", type=float, default=0.0005)
    s = sub.add_parser("tcp-send")
    for n in ("family", "dst"):
        s.add_argument(n)
    for n in ("port", "flow", "bytes"):
        s.add_argument(n, type=int)
    s = sub.add_parser("count")
    s.add_argument("file")
    s.add_argument("--signal", required=True)
    s.add_argument("--family", type=int, required=True)
    s.add_argument("--dst", required=True)
    s.add_argument("--proto", type=int, required=True)
    s.add_argument("--port", type=int, required=True)
    s = sub.add_parser("selftest")
    s = sub.add_parser("reports-pcap")
    s.add_argument("jsonl")
    s.add_argument("out")
    s.add_argument("--port", type=int, required=True)
    s = sub.add_parser("check")
    s.add_argument("mode", choices=("md", "mx", "xd"))
    s.add_argument("--topo", required=True)
    s.add_argument("--dir", required=True)
    s.add_argument("--flows", required=True)
    s.add_argument("--prefix", required=True)
    s.add_argument("--signal", required=True)
    s.add_argument("--bitmap", required=True)
    s.add_argument("--max-hops", type=int, default=8)
    s.add_argument("--m-at")
    s.add_argument("--t0", type=int, default=0)
    s.add_argument("--sent")
    s.add_argument("--received")
    s.add_argument("--reports")
    s.add_argument("--report-port", type=int)
    s.add_argument("--hw-id", type=int, default=0)
    s.add_argument("--trunc", type=int, default=256)
    s.add_argument("--hopmark-decode", action="store_true")
    s.add_argument("--forwarded", action="store_true",
                   help="the flows come from H, forwarded by S")
    s.add_argument("--qnode")
    s.add_argument("--qpkt", type=int, default=1)
    s.add_argument("--qlimit", type=int, default=0)
    a = p.parse_args()
    return {"pcap": cmd_pcap, "collect": cmd_collect, "sink": cmd_sink,
            "udp-send": cmd_udp_send, "tcp-send": cmd_tcp_send, "check": cmd_check,
            "count": cmd_count, "selftest": cmd_selftest,
            "reports-pcap": cmd_reports_pcap}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
