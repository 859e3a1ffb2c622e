#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_pkt.py - packets for the hopmark namespace selftests.

Sends UDP datagrams carrying a crafted IPv6 Hop-by-Hop header (IOAM
Pre-allocated Trace, RFC 9197 §4.4 / RFC 9486, valid or deliberately broken,
optionally after a Router Alert option; or an IOAM Direct Export option,
RFC 9326), receives them with the Hop-by-Hop header the stack delivered,
and decodes pcap captures into JSON lines.
Standard library only (Debian's python3).

  hm_pkt.py send DST PORT [--count N] [--size BYTES] [--exp-opts N] [--ra]
                [--ioam-...] [--ioam-dex]
  hm_pkt.py recv PORT --count N [--timeout S]
  hm_pkt.py pcap FILE
"""
import argparse
import json
import select
import socket
import struct
import sys
import time

IPV6_RECVHOPOPTS = 53
IPV6_HOPOPTS = 54
IOAM_OPT = 0x31

TT_UNDEFINED_BITS = range(12, 22)


def nodelen_of(tt):
    """NodeLen in 4-octet words implied by a 24-bit IOAM-Trace-Type."""
    words = 0
    for bit in range(22):
        if tt & (1 << (23 - bit)):
            words += 1
    for bit in (8, 9, 10):
        if tt & (1 << (23 - bit)):
            words += 1
    return words


def ioam_option(ns, tt, size, overflow=False, remlen=None, nodelen=None,
                data=None):
    """The IOAM option TLV, from its option type octet (0x31) on."""
    nl = nodelen_of(tt) if nodelen is None else nodelen
    rl = size // 4 if remlen is None else remlen
    flags = 0x04 if overflow else 0
    trace = struct.pack("!HBB", ns, (nl << 3) | flags, rl & 0x7f)
    trace += struct.pack("!I", tt << 8)[:3] + b"\x00"
    body = b"\x00\x00" + trace + (data if data is not None else bytes(size))
    return bytes([IOAM_OPT, len(body)]) + body


def dex_option(ns, tt, flow_id, seq):
    """An IOAM Direct Export option TLV (RFC 9326 §3.2), from 0x31 on:
    Namespace-ID, Flags 0, Extension-Flags 0xc0 in the RFC's bit order
    (bit 0 = 0x80 Flow ID, bit 1 = 0x40 Sequence Number), IOAM-Trace-Type,
    Reserved, then the Flow ID and the Sequence Number."""
    body = b"\x00\x04"			# Reserved, IOAM Option-Type 4 (DEX)
    body += struct.pack("!HBB", ns, 0, 0xc0)
    body += struct.pack("!I", tt << 8)[:3] + b"\x00"
    body += struct.pack("!II", flow_id, seq)
    return bytes([IOAM_OPT, len(body)]) + body


def padn(n):
    if n == 0:
        return b""
    if n == 1:
        return b"\x00"
    return bytes([1, n - 2]) + bytes(n - 2)


def hbh(options):
    """A Hop-by-Hop header (next header is filled by the kernel) holding
    the option bytes given, padded to a multiple of 8 octets."""
    raw = b"\x00\x00" + options
    raw += padn((-len(raw)) % 8)
    return bytes([0, len(raw) // 8 - 1]) + raw[2:]


def exp_opt(dlen):
    """An experimental option (RFC 4727, type 0x1e: action 00, skipped by
    nodes that do not know it) of dlen zero data bytes."""
    return bytes([0x1e, dlen]) + bytes(dlen)


def runs_hbh(nexp, ioam, run):
    """A Hop-by-Hop header of nexp experimental options and the IOAM
    option ioam (second to last), with run Pad1 before, between and after
    them; option lengths put the IOAM option at 4n and the end at 8n."""
    n = nexp + 1
    raw = bytearray(2)
    for i in range(n):
        raw += bytes(run)
        if i == n - 2:
            assert len(raw) % 4 == 0
            raw += ioam
            continue
        at = len(raw) + 2
        if i + 1 == n - 2:
            raw += exp_opt((-(at + run)) % 4)
        elif i + 1 == n:
            raw += exp_opt((-(at + run)) % 8)
        else:
            raw += exp_opt(i % 4)
    raw += bytes(run)
    assert len(raw) % 8 == 0
    raw[1] = len(raw) // 8 - 1
    return bytes(raw)


def build_hbh(a):
    opts = exp_opt(2) * a.exp_opts
    if a.ra:
        opts += b"\x05\x02\x00\x00"		# Router Alert, MLD value 0
    if a.ioam_ns is not None:
        # The IOAM option starts at a 4n offset of the header (RFC 9486
        # §2.1) unless --ioam-misalign asks for the wrong one.
        off = 2 + len(opts)
        pad = (-off) % 4
        if a.ioam_misalign:
            pad = (pad + 1) % 4
        opts += padn(pad)
        if a.ioam_dex:
            opts += dex_option(a.ioam_ns, int(a.ioam_type, 0), 21, 7)
            return hbh(opts)
        size = a.ioam_size
        data = None
        if a.ioam_data_len is not None:
            data = bytes(a.ioam_data_len)
        ioam = ioam_option(a.ioam_ns, int(a.ioam_type, 0), size,
                           a.ioam_overflow, a.ioam_remlen, a.ioam_nodelen,
                           data)
        if a.pad1_runs is not None:
            return runs_hbh(a.exp_opts, ioam, a.pad1_runs)
        opts += ioam
    if not opts:
        return None
    return hbh(opts)


def cmd_send(a):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    h = build_hbh(a)
    if h is not None:
        s.setsockopt(socket.IPPROTO_IPV6, IPV6_HOPOPTS, h)
    if a.hlim:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, a.hlim)
    payload = bytes((i & 0xff for i in range(a.size)))
    for i in range(a.count):
        s.sendto(payload, (a.dst, a.port))
        if a.interval:
            time.sleep(a.interval)
    if h is not None and a.show:
        print(h.hex())


def cmd_recv(a):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVHOPOPTS, 1)
    s.bind(("::", a.port))
    if a.ready:
        open(a.ready, "w").close()
    end = time.time() + a.timeout
    got = 0
    while got < a.count and time.time() < end:
        r, _, _ = select.select([s], [], [], max(0, end - time.time()))
        if not r:
            break
        data, anc, _, src = s.recvmsg(65535, 1024)
        hop = b""
        for lvl, typ, d in anc:
            if lvl == socket.IPPROTO_IPV6 and typ == IPV6_HOPOPTS:
                hop = d
        types = [t for _, t, _ in parse_tlvs(hop) if t > 1] if hop else []
        print(json.dumps({"src": src[0], "len": len(data), "hbh": hop.hex(),
                          "tlv_types": types}), flush=True)
        got += 1
    return 0 if got >= a.count else 1


def parse_tlvs(opts):
    """List of (offset in the header, type, bytes of the whole TLV)."""
    out = []
    i = 2
    while i < len(opts):
        t = opts[i]
        if t == 0:
            out.append((i, 0, opts[i:i + 1]))
            i += 1
            continue
        if i + 1 >= len(opts):
            break
        ln = opts[i + 1]
        out.append((i, t, opts[i:i + 2 + ln]))
        i += 2 + ln
    return out


def decode_ipv6(pkt):
    if len(pkt) < 40 or pkt[0] >> 4 != 6:
        return None
    plen, nh, hl = struct.unpack("!HBB", pkt[4:8])
    d = {"payload_len": plen, "hop_limit": hl, "ext": [],
         "len": len(pkt)}
    off = 40
    while nh in (0, 43, 44, 60) and off + 8 <= len(pkt):
        if nh == 44:
            nxt, _, fo = struct.unpack("!BBH", pkt[off:off + 4])
            d["ext"].append("frag")
            d["frag_offset"] = fo >> 3
            d["frag_more"] = fo & 1
            hdr_len = 8
        else:
            nxt, ln = pkt[off], pkt[off + 1]
            hdr_len = (ln + 1) * 8
            name = {0: "hbh", 43: "rh", 60: "dst"}[nh]
            d["ext"].append(name)
            raw = pkt[off:off + hdr_len]
            if nh == 0:
                d["hbh"] = raw.hex()
                d["hbh_tlvs"] = []
                for o, t, b in parse_tlvs(raw):
                    d["hbh_tlvs"].append({"off": o, "type": t})
                    if t == IOAM_OPT and len(b) >= 12:
                        d["ioam_off"] = o
                        d["ioam"] = decode_trace(b)
            if nh == 43:
                d["rh_type"] = raw[2]
        nh = nxt
        off += hdr_len
        if d["ext"][-1] == "frag":
            break
    d["proto"] = nh
    if nh in (6, 17) and off + 4 <= len(pkt) and "frag_offset" not in d:
        d["sport"], d["dport"] = struct.unpack("!HH", pkt[off:off + 4])
        if nh == 6 and off + 20 <= len(pkt):
            doff = (pkt[off + 12] >> 4) * 4
            d["tcp_len"] = len(pkt) - off - doff
    return d


def decode_trace(b):
    ns, nlf, rl = struct.unpack("!HBB", b[4:8])
    tt = int.from_bytes(b[8:11], "big")
    data = b[12:]
    return {"ns": ns, "nodelen": nlf >> 3, "overflow": bool(nlf & 4),
            "remlen": rl & 0x7f, "trace_type": "0x%06x" % tt,
            "data": data.hex()}


def cmd_pcap(a):
    f = open(a.file, "rb")
    gh = f.read(24)
    if len(gh) < 24:
        return 1
    magic = struct.unpack("<I", gh[:4])[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    nsec = magic in (0xa1b23c4d, 0x4d3cb2a1)
    linktype = struct.unpack(end + "I", gh[20:24])[0]
    while True:
        ph = f.read(16)
        if len(ph) < 16:
            break
        sec, frac, incl, orig = struct.unpack(end + "IIII", ph)
        pkt = f.read(incl)
        if linktype == 1:		# Ethernet
            if len(pkt) < 14 or pkt[12:14] != b"\x86\xdd":
                continue
            pkt = pkt[14:]
        elif linktype == 276:		# Linux SLL2
            pkt = pkt[20:]
        elif linktype == 113:		# Linux SLL
            pkt = pkt[16:]
        d = decode_ipv6(pkt)
        if d is None:
            continue
        d["ts_ns"] = sec * 10**9 + (frac if nsec else frac * 1000)
        d["orig_len"] = orig
        print(json.dumps(d))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("send")
    s.add_argument("dst")
    s.add_argument("port", type=int)
    s.add_argument("--count", type=int, default=1)
    s.add_argument("--size", type=int, default=64)
    s.add_argument("--interval", type=float, default=0.01)
    s.add_argument("--hlim", type=int)
    s.add_argument("--ra", action="store_true")
    s.add_argument("--exp-opts", type=int, default=0,
                   help="experimental options (type 0x1e) first")
    s.add_argument("--pad1-runs", type=int,
                   help="with --ioam-ns: this many Pad1 before, between and "
                        "after the options, the IOAM option second to last")
    s.add_argument("--show", action="store_true",
                   help="print the Hop-by-Hop header sent, in hex")
    s.add_argument("--ioam-ns", type=int)
    s.add_argument("--ioam-type", default="0xfff000")
    s.add_argument("--ioam-size", type=int, default=240)
    s.add_argument("--ioam-overflow", action="store_true")
    s.add_argument("--ioam-remlen", type=int)
    s.add_argument("--ioam-nodelen", type=int)
    s.add_argument("--ioam-data-len", type=int,
                   help="bytes of data area actually present (inconsistent "
                        "with --ioam-size on purpose)")
    s.add_argument("--ioam-misalign", action="store_true")
    s.add_argument("--ioam-dex", action="store_true",
                   help="an IOAM Direct Export option (RFC 9326) of "
                        "--ioam-ns and --ioam-type instead of a trace")
    r = sub.add_parser("recv")
    r.add_argument("port", type=int)
    r.add_argument("--count", type=int, default=1)
    r.add_argument("--timeout", type=float, default=5)
    r.add_argument("--ready", help="file created once bound")
    c = sub.add_parser("pcap")
    c.add_argument("file")
    a = p.parse_args()
    return {"send": cmd_send, "recv": cmd_recv, "pcap": cmd_pcap}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
