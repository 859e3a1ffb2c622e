#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""int_report_rx.py - a test receiver of Telemetry Report v2.0 datagrams.

Until hopmark has a collector, the selftests receive hopmarkd's INT
reports with this: it listens on a UDP address and port, and prints every
datagram it gets as one JSON line, decoded here from the specs
(telemetry_report.mdk §3, INT.mdk §5.7.2, §5.8), independently of the C
code in lib/int/:

  {"outer": {"family": 4, "src": ..., "sport": N, "dport": N, "len": N,
             "dscp": N, "ecn": N, "df": 0|1, "ip_id": N (IPv4),
             "udp_csum": N, "udp_csum_ok": true|false},
   "ver": 2, "hw_id": N, "seq": N, "node_id": N,
   "reports": [{"rep_type": N, "in_type": N, "len": N, "md_len": N,
                "d": 0, "q": 0, "f": 1, "i": 0, "rep_md_bits": "0x5000",
                "ds_id": N, "ds_md_bits": N, "ds_md_status": N,
                "md": {"l1_ingress": N, ...}, "drop_reason": N (bit 15),
                "inner_len": N, "inner_hex": "...",
                "inner": {"src": ..., "dst": ..., "proto": N, "sport": N,
                          "dport": N, "int": {...} (INT over UDP, NPT=2,
                          to --int-port)}}],
   "errors": ["..."]}   (only when the datagram breaks a rule)

IPv4 is received on a raw socket, which shows the IP header (DF, DSCP, ID)
and lets the UDP checksum be checked; a UDP socket bound to the same port
keeps the kernel from answering with ICMP port unreachable. IPv6 is
received on a raw IPv6 UDP socket with the Traffic Class and the
destination address as ancillary data.

usage: int_report_rx.py ADDR PORT [-o FILE] [--int-port PORT]
Prints "listening" on standard error when ready; SIGTERM ends it.
"""
import argparse
import ipaddress
import json
import signal
import socket
import struct
import sys

# RepMdBits / Instruction Bitmap fields, bit 0 = MSB (0x8000), in order.
FIELDS = [
    (0x8000, 4, ("node_id",)),
    (0x4000, 4, ("l1_ingress", "l1_egress")),
    (0x2000, 4, ("hop_latency",)),
    (0x1000, 4, ("queue_id", "queue_occupancy")),
    (0x0800, 8, ("ingress_ts",)),
    (0x0400, 8, ("egress_ts",)),
    (0x0200, 8, ("l2_ingress", "l2_egress")),
    (0x0100, 4, ("tx_util",)),
    (0x0080, 4, ("buffer_id", "buffer_occupancy")),
]


def split_field(names, b):
    """One metadata field into its named parts (big-endian)."""
    if len(names) == 1:
        return {names[0]: int.from_bytes(b, "big")}
    if len(b) == 8:
        return {names[0]: int.from_bytes(b[:4], "big"),
                names[1]: int.from_bytes(b[4:], "big")}
    v = int.from_bytes(b, "big")
    if names[0] in ("queue_id", "buffer_id"):
        return {names[0]: v >> 24, names[1]: v & 0xffffff}
    return {names[0]: v >> 16, names[1]: v & 0xffff}


def decode_md(bits, b, with_node_id):
    """Metadata in bitmap order; returns (dict, octets used, drop word)."""
    out, off, drop = {}, 0, None
    for bit, size, names in FIELDS:
        if not bits & bit:
            continue
        if bit == 0x8000 and not with_node_id:
            raise ValueError("RepMdBits bit 0 is reserved")
        out.update(split_field(names, b[off:off + size]))
        off += size
    for n in range(9, 15):
        if bits & (0x8000 >> n):
            out["rsvd_bit%d" % n] = int.from_bytes(b[off:off + 4], "big")
            off += 4
    if bits & 0x0001:
        w = b[off:off + 4]
        if with_node_id:
            out["csum_complement"] = int.from_bytes(w, "big")
        else:
            drop = {"queue_id": w[0], "drop_reason": w[1],
                    "padding": int.from_bytes(w[2:4], "big")}
        off += 4
    if off > len(b):
        raise ValueError("metadata runs past its length")
    return out, off, drop


def decode_int(b):
    """Shim + MD/MX header + stack (INT §5.7.2, §5.8) at the start of b."""
    if len(b) < 16:
        return {"error": "INT shim and header cut"}
    t, npt, length = b[0] >> 4, (b[0] >> 2) & 3, b[1]
    w0, bitmap, ds_id, ds_inst, ds_flags = struct.unpack(">IHHHH", b[4:16])
    r = {"type": {1: "md", 3: "mx"}.get(t, t), "npt": npt, "shim_len": length,
         "ver": w0 >> 28, "d": (w0 >> 27) & 1, "bitmap": "0x%04x" % bitmap,
         "ds_id": ds_id, "ds_instruction": ds_inst, "ds_flags": ds_flags}
    if npt == 2:
        r["orig_proto"] = b[3]
    if t != 1:
        return r
    hop_ml, rhc = (w0 >> 8) & 0x1f, w0 & 0xff
    r.update({"e": (w0 >> 26) & 1, "m": (w0 >> 25) & 1, "hop_ml": hop_ml, "rhc": rhc})
    stack = b[16:4 + length * 4]
    hops = []
    if hop_ml:
        for off in range(0, len(stack) - hop_ml * 4 + 1, hop_ml * 4):
            h, used, _ = decode_md(bitmap, stack[off:off + hop_ml * 4], True)
            hops.append(h)
    r["hops"] = hops
    return r


def decode_inner(in_type, b, int_port):
    """The truncated packet: addresses, protocol, ports, INT if present."""
    r = {}
    try:
        if in_type == 4 and len(b) >= 20:
            ihl = (b[0] & 15) * 4
            r = {"src": str(ipaddress.IPv4Address(b[12:16])),
                 "dst": str(ipaddress.IPv4Address(b[16:20])), "proto": b[9],
                 "total_len": int.from_bytes(b[2:4], "big")}
            l4 = ihl
        elif in_type == 5 and len(b) >= 40:
            r = {"src": str(ipaddress.IPv6Address(b[8:24])),
                 "dst": str(ipaddress.IPv6Address(b[24:40])), "proto": b[6],
                 "payload_len": int.from_bytes(b[4:6], "big")}
            l4 = 40
        else:
            return r
        if r["proto"] in (6, 17) and len(b) >= l4 + 4:
            r["sport"], r["dport"] = struct.unpack(">HH", b[l4:l4 + 4])
        if r["proto"] == 17 and int_port and r.get("dport") == int_port:
            r["int"] = decode_int(b[l4 + 8:])
    except (ValueError, IndexError, struct.error) as e:
        r["error"] = str(e)
    return r


def decode_payload(p, int_port):
    """Group header and Individual Reports (Report §3.2, §3.3)."""
    errors = []
    if len(p) < 8:
        return {"errors": ["shorter than the group header: %d octets" % len(p)]}
    w0, node_id = struct.unpack(">II", p[:8])
    out = {"ver": w0 >> 28, "hw_id": (w0 >> 22) & 0x3f, "seq": w0 & 0x3fffff,
           "node_id": node_id, "reports": []}
    off = 8
    while off < len(p):
        if len(p) - off < 4:
            errors.append("%d octets after the last report" % (len(p) - off))
            break
        h = p[off:off + 4]
        rep = {"rep_type": h[0] >> 4, "in_type": h[0] & 15, "len": h[1],
               "md_len": h[2], "d": h[3] >> 7, "q": (h[3] >> 6) & 1,
               "f": (h[3] >> 5) & 1, "i": (h[3] >> 4) & 1, "rsvd": h[3] & 15}
        to_end = h[1] == 0xff
        end = len(p) if to_end else off + 4 + h[1] * 4
        if end > len(p):
            errors.append("report at %d: Report Length %d runs past the payload" % (off, h[1]))
            end = len(p)
        body = p[off + 4:end]
        if rep["rep_type"] == 1 and len(body) >= 8:
            bits, ds_id, ds_bits, ds_status = struct.unpack(">HHHH", body[:8])
            rep.update({"rep_md_bits": "0x%04x" % bits, "ds_id": ds_id,
                        "ds_md_bits": ds_bits, "ds_md_status": ds_status})
            mdb = body[8:8 + h[2] * 4]
            try:
                md, used, drop = decode_md(bits, mdb, False)
                if used != len(mdb):
                    errors.append("report at %d: MD Length %d words, RepMdBits give %d octets"
                                  % (off, h[2], used))
                rep["md"] = md
                if drop:
                    rep["drop_queue_id"] = drop["queue_id"]
                    rep["drop_reason"] = drop["drop_reason"]
            except ValueError as e:
                errors.append("report at %d: %s" % (off, e))
            inner = body[8 + h[2] * 4:]
        else:
            inner = body
        rep["inner_len"] = len(inner)
        rep["inner_hex"] = inner.hex()
        rep["inner"] = decode_inner(rep["in_type"], inner, int_port)
        out["reports"].append(rep)
        if to_end:
            break
        off = end
    if errors:
        out["errors"] = errors
    return out


def csum16(b):
    if len(b) & 1:
        b += b"\0"
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def udp_csum_ok(pseudo, udp):
    if udp[6:8] == b"\0\0":
        return None		# IPv4: no checksum
    return csum16(pseudo + udp) == 0xffff


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("port", type=int)
    ap.add_argument("-o", "--output")
    ap.add_argument("--int-port", type=int, default=0,
                    help="UDP port of INT (NPT=2) inside the reported packets")
    a = ap.parse_args()
    out = open(a.output, "a") if a.output else sys.stdout
    v6 = ":" in a.addr
    fam = socket.AF_INET6 if v6 else socket.AF_INET
    # Bound, never read: no ICMP port unreachable for the reports.
    hold = socket.socket(fam, socket.SOCK_DGRAM)
    hold.bind((a.addr, a.port))
    raw = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_UDP)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    if v6:
        raw.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVTCLASS, 1)
        raw.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVPKTINFO, 1)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("listening", file=sys.stderr, flush=True)
    want = ipaddress.ip_address(a.addr).packed
    while True:
        data, anc, _, peer = raw.recvmsg(65536, 256)
        outer = {"family": 6 if v6 else 4}
        if v6:
            tclass, dst = None, None
            for lvl, typ, val in anc:
                if lvl == socket.IPPROTO_IPV6 and typ == socket.IPV6_TCLASS:
                    tclass = struct.unpack("i", val[:4])[0]
                if lvl == socket.IPPROTO_IPV6 and typ == socket.IPV6_PKTINFO:
                    dst = val[:16]
            if dst != want or len(data) < 8:
                continue
            udp = data
            src = ipaddress.IPv6Address(peer[0].split("%")[0]).packed
            pseudo = src + dst + struct.pack(">IxxxB", len(udp), 17)
            outer.update({"src": peer[0], "dscp": (tclass or 0) >> 2, "ecn": (tclass or 0) & 3})
        else:
            ihl = (data[0] & 15) * 4
            if data[16:20] != want:
                continue
            udp = data[ihl:]
            pseudo = data[12:20] + struct.pack(">xBH", 17, len(udp))
            frag = int.from_bytes(data[6:8], "big")
            outer.update({"src": str(ipaddress.IPv4Address(data[12:16])),
                          "dscp": data[1] >> 2, "ecn": data[1] & 3,
                          "df": (frag >> 14) & 1, "ip_id": int.from_bytes(data[4:6], "big")})
        sport, dport, ulen, csum = struct.unpack(">HHHH", udp[:8])
        if dport != a.port:
            continue
        outer.update({"sport": sport, "dport": dport, "len": ulen, "udp_csum": csum,
                      "udp_csum_ok": udp_csum_ok(pseudo, udp[:ulen])})
        rec = {"outer": outer}
        rec.update(decode_payload(udp[8:ulen], a.int_port))
        out.write(json.dumps(rec, sort_keys=True) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
