#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_int_pkt.py - INT v2.1 over TCP/UDP and Telemetry Report v2.0 packets
for the selftests, written from the specs (INT.mdk §5.7.2, §5.8, §5.9;
telemetry_report.mdk §3) independently of lib/int/, and the JSON objects
`hopmark decode -j` must print for them (Documentation/int.rst,
"Decoding and JSON"). Standard library only (Debian's python3).

  hm_int_pkt.py cases DIR        write DIR/<case>.pcap, .args, .expect
  hm_int_pkt.py write CASE FILE  write only CASE's capture (Documentation/int.rst)
  hm_int_pkt.py compare EXPECT OBSERVED
                                 compare JSON lines field by field; print
                                 every difference, exit 1 if any
"""
import json
import socket
import struct
import sys

INT_PORT = 5000          # INT_TBD: the spec assigns none
REPORT_PORT = 32766
DSCP_INT = 0x17          # the spec examples' DSCP

# Instruction Bitmap bit -> (size in octets, [(key, width in bits)]), §5.8.
FIELDS = [
    (4, [("node_id", 32)]),
    (4, [("l1_ingress", 16), ("l1_egress", 16)]),
    (4, [("hop_latency", 32)]),
    (4, [("queue_id", 8), ("queue_occupancy", 24)]),
    (8, [("ingress_ts", 64)]),
    (8, [("egress_ts", 64)]),
    (8, [("l2_ingress", 32), ("l2_egress", 32)]),
    (4, [("tx_util", 32)]),
    (4, [("buffer_id", 8), ("buffer_occupancy", 24)]),
]


def csum16(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def bitmap_words(bm):
    """Hop ML implied by an Instruction Bitmap (§5.8)."""
    w = 0
    for bit in range(16):
        if bm & (0x8000 >> bit):
            w += 2 if bit in (4, 5, 6) else 1
    return w


def hop_values(seed):
    """Distinct values for every field of hop @seed."""
    return {
        "node_id": 0x100 + seed, "l1_ingress": 10 + seed, "l1_egress": 20 + seed,
        "hop_latency": 1000 * (seed + 1), "queue_id": seed, "queue_occupancy": 1500 * seed,
        "ingress_ts": 1700000000000000000 + seed, "egress_ts": 1700000000000001000 + seed,
        "l2_ingress": 0x20000 + seed, "l2_egress": 0x30000 + seed,
        "tx_util": 100 * seed, "buffer_id": seed + 1, "buffer_occupancy": 3000 + seed,
        "csum_complement": 0xffffffff, "reserved": 0xffffffff,
    }


def hop_bytes(bm, v, report=False):
    """One node's metadata block for @bm in ascending bit order; reserved
    bits 9-14 a word each; INT-MD bit 15 last (checksum complement), or in a
    report queue ID + drop reason + padding (RepMdBits bit 15)."""
    out = b""
    for bit in range(9):
        if not bm & (0x8000 >> bit):
            continue
        size, parts = FIELDS[bit]
        x = 0
        for key, width in parts:
            x = (x << width) | (v[key] & ((1 << width) - 1))
        out += x.to_bytes(size, "big")
    for bit in range(9, 15):
        if bm & (0x8000 >> bit):
            out += struct.pack("!I", v["reserved"])
    if bm & 1:
        if report:
            out += bytes([v["drop_queue_id"], v["drop_reason"], 0, 0])
        else:
            out += struct.pack("!I", v["csum_complement"])
    return out


def hop_json(bm, v, report=False):
    """The JSON object of a hop: only its bitmap's keys, in bit order."""
    o = {}
    for bit in range(9):
        if bm & (0x8000 >> bit):
            for key, _ in FIELDS[bit][1]:
                o[key] = v[key]
    rs = [v["reserved"] for bit in range(9, 15) if bm & (0x8000 >> bit)]
    if rs:
        o["reserved"] = rs
    if bm & 1 and not report:
        o["csum_complement"] = v["csum_complement"]
    return o


def int_data(kind, npt, npt_field, bm, hops, rhc=8, flags=0, ds=(0, 0, 0), src=b"",
             shim_len=None, ver=2, hop_ml=None):
    """Shim + MD/MX header + stack (+ source data); hops most recent first.
    flags: 4 = D, 2 = E, 1 = M (MD). Returns (bytes, expected "int" object)."""
    typ = 1 if kind == "md" else 3
    ml = bitmap_words(bm) if hop_ml is None else hop_ml
    stack = b"".join(hop_bytes(bm, h) for h in hops) if kind == "md" else b""
    body_len = 12 + len(stack) + len(src)
    sl = body_len // 4 if shim_len is None else shim_len
    if npt == 1:
        npt_bytes = struct.pack("!H", npt_field)
    elif npt == 2:
        npt_bytes = bytes([0, npt_field])
    else:
        npt_bytes = bytes([0, npt_field << 2])
    shim = bytes([typ << 4 | npt << 2, sl]) + npt_bytes
    if kind == "md":
        w0 = ver << 28 | flags << 25 | ml << 8 | (rhc - len(hops))
    else:
        w0 = ver << 28 | (flags & 4) << 25
    hdr = struct.pack("!IHHHH", w0, bm, ds[0], ds[1], ds[2])
    exp = {"type": kind, "npt": npt, "shim_len": sl,
           ("orig_dscp", "orig_dport", "orig_proto")[npt]: npt_field,
           "ver": ver, "d": flags >> 2 & 1}
    if kind == "md":
        exp.update({"e": flags >> 1 & 1, "m": flags & 1, "hop_ml": ml,
                    "rhc": rhc - len(hops)})
    exp.update({"bitmap": "0x%04x" % bm, "ds_id": ds[0], "ds_instruction": ds[1],
                "ds_flags": ds[2]})
    if kind == "md":
        exp["hops"] = [hop_json(bm, h) for h in hops]
    if src:
        exp["source_data"] = src.hex()
    return shim + hdr + stack + src, exp


def tcp_hdr(sport=1234, dport=80, opts=b""):
    doff = (20 + len(opts)) // 4
    return struct.pack("!HHIIBBHHH", sport, dport, 1, 0, doff << 4, 0x18, 65535, 0, 0) + opts


def udp_hdr(sport, dport, payload_len):
    return struct.pack("!HHHH", sport, dport, 8 + payload_len, 0)


def ipv4(proto, payload, dscp=0, src="10.0.1.1", dst="10.0.4.2", ttl=64):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, dscp << 2, 20 + len(payload), 7, 0x4000, ttl,
                    proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    h = h[:10] + struct.pack("!H", csum16(h)) + h[12:]
    pkt = {"ip_ver": 4, "src": src, "dst": dst, "dscp": dscp, "ttl": ttl,
           "ip_len": 20 + len(payload), "proto": proto}
    return h + payload, pkt


def ipv6(proto, payload, dscp=0, src="2001:db8:1::1", dst="2001:db8:4::2", hlim=64):
    h = struct.pack("!IHBB", 6 << 28 | dscp << 22, len(payload), proto, hlim)
    h += socket.inet_pton(socket.AF_INET6, src) + socket.inet_pton(socket.AF_INET6, dst)
    pkt = {"ip_ver": 6, "src": src, "dst": dst, "dscp": dscp, "ttl": hlim,
           "ip_len": 40 + len(payload), "proto": proto}
    return h + payload, pkt


def ether(ip):
    t = 0x0800 if ip[0] >> 4 == 4 else 0x86dd
    return bytes.fromhex("020000000002020000000001") + struct.pack("!H", t) + ip


def write_pcap(path, frames, linktype=1):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(fr), len(fr)) + fr)


def with_ports(pkt, sport, dport):
    pkt = dict(pkt)
    pkt["sport"], pkt["dport"] = sport, dport
    return pkt


def line(frame, pkt, key, obj):
    return {"frame": frame, "rx_ns": (1700000000 + frame - 1) * 10**9, "packet": pkt,
            key: obj}


def case_spec_6_3():
    """INT §6.3: a new UDP header (NPT=2, shim 18070006) and INT-MD with
    bitmap 0x9000 (node ID, queue) and two hops before the original TCP
    header, over IPv4."""
    hops = [hop_values(2), hop_values(1)]
    data, exp = int_data("md", 2, 6, 0x9000, hops)
    inner = tcp_hdr()
    ip, pkt = ipv4(17, udp_hdr(0xbeef, INT_PORT, len(data) + len(inner)) + data + inner)
    return [ether(ip)], ["int-port", str(INT_PORT)], \
        [line(1, with_ports(pkt, 0xbeef, INT_PORT), "int", exp)]


def case_spec_4_3():
    """Report §4.3's shape: one RepType 1 report (RepMdBits 0x1000, queue
    occupancy) whose inner IPv4 packet is case_spec_6_3's."""
    q = hop_values(3)
    md = hop_bytes(0x1000, q, report=True)
    hops = [hop_values(2), hop_values(1)]
    data, int_exp = int_data("md", 2, 6, 0x9000, hops)
    inner_tcp = tcp_hdr()
    inner, inner_pkt = ipv4(17, udp_hdr(0xbeef, INT_PORT, len(data) + len(inner_tcp)) +
                            data + inner_tcp)
    r, ln, ml, n = report(1, 4, 0x1000, md, inner, 0x20)
    payload = struct.pack("!II", 2 << 28 | 1 << 22 | 5, 3) + r
    ip, pkt = ipv4(17, udp_hdr(12345, REPORT_PORT, len(payload)) + payload,
                   src="10.0.9.1", dst="10.0.9.2")
    rep = {"rep_type": 1, "in_type": 4, "len": ln, "md_len": ml, "d": 0, "q": 0, "f": 1,
           "i": 0, "rep_md_bits": "0x1000", "ds_id": 0, "ds_md_bits": 0, "ds_md_status": 0,
           "md": hop_json(0x1000, q, report=True), "inner_len": n,
           "inner": {"packet": with_ports(inner_pkt, 0xbeef, INT_PORT), "int": int_exp}}
    exp = {"ver": 2, "hw_id": 1, "seq": 5, "node_id": 3, "reports": [rep]}
    return [ether(ip)], ["int-port", str(INT_PORT), "report-port", str(REPORT_PORT)], \
        [line(1, with_ports(pkt, 12345, REPORT_PORT), "report", exp)]


def case_md_tcp_ipv4_dscp():
    """NPT=0 over IPv4 TCP with 12 octets of options, bitmap 0xfc00, 3 hops."""
    hops = [hop_values(3), hop_values(2), hop_values(1)]
    data, exp = int_data("md", 0, 10, 0xfc00, hops)
    ip, pkt = ipv4(6, tcp_hdr(opts=b"\x01" * 12) + data + b"data", dscp=DSCP_INT)
    return [ether(ip)], ["int-dscp", "0x17"], [line(1, with_ports(pkt, 1234, 80), "int", exp)]


def case_md_udp_ipv6_dscp_mask():
    """NPT=0 over IPv6 UDP, DSCP 0x17 under mask 0x37, bitmap 0x9001."""
    hops = [hop_values(2), hop_values(1)]
    hops[0]["csum_complement"] = 0x1234abcd
    data, exp = int_data("md", 0, 0, 0x9001, hops)
    ip, pkt = ipv6(17, udp_hdr(4321, 7777, len(data) + 3) + data + b"abc", dscp=0x1f)
    return [ether(ip)], ["int-dscp", "0x17/0x37"], \
        [line(1, with_ports(pkt, 4321, 7777), "int", exp)]


def case_md_npt1_ipv4_udp_all_fields():
    """NPT=1 (UDP kept, original port 4789 in the shim), bitmap 0xff80."""
    hops = [hop_values(2), hop_values(1)]
    data, exp = int_data("md", 1, 4789, 0xff80, hops)
    ip, pkt = ipv4(17, udp_hdr(40000, INT_PORT, len(data)) + data)
    return [ether(ip)], ["int-port", str(INT_PORT)], \
        [line(1, with_ports(pkt, 40000, INT_PORT), "int", exp)]


def case_md_npt2_ipv6_tcp_reserved_e_m():
    """NPT=2 (new UDP before TCP), bitmap 0x8040 (reserved bit 9), E and M,
    RHC 0 after two hops of a maximum of 2."""
    hops = [hop_values(5), hop_values(4)]
    data, exp = int_data("md", 2, 6, 0x8040, hops, rhc=2, flags=3)
    inner = tcp_hdr()
    ip, pkt = ipv6(17, udp_hdr(0xbeef, INT_PORT, len(data) + len(inner)) + data + inner)
    return [ether(ip)], ["int-port", str(INT_PORT)], \
        [line(1, with_ports(pkt, 0xbeef, INT_PORT), "int", exp)]


def case_mx_npt2_ipv4_source_inserted():
    """INT §6.16: INT-MX with source-inserted data, DS ID 0xabcd."""
    data, exp = int_data("mx", 2, 6, 0x9000, [], ds=(0xabcd, 0xc000, 0),
                         src=bytes.fromhex("0000000f12345678"))
    inner = tcp_hdr()
    ip, pkt = ipv4(17, udp_hdr(0xbeef, INT_PORT, len(data) + len(inner)) + data + inner)
    return [ether(ip)], ["int-port", str(INT_PORT)], \
        [line(1, with_ports(pkt, 0xbeef, INT_PORT), "int", exp)]


def report(rep_type, in_type, md_bits, md, inner, flags, ds=(0, 0, 0), length=None):
    """An Individual Report: header, RepType 1 main contents + metadata,
    inner contents padded to a word; Report Length in words after the
    first (or @length, e.g. 0xff)."""
    body = b""
    if rep_type == 1:
        body = struct.pack("!HHHH", md_bits, ds[0], ds[1], ds[2]) + md
    padded = inner + bytes(-len(inner) % 4) if length is None else inner
    body += padded
    ln = len(body) // 4 if length is None else length
    md_len = len(md) // 4 if rep_type == 1 else 0
    hdr = bytes([rep_type << 4 | in_type, ln, md_len, flags])
    return hdr + body, ln, md_len, len(padded)


def case_report_coalesced():
    """Two coalesced reports: RepType 1 (drop, RepMdBits 0x5001) whose inner
    IPv4 packet carries INT-MD NPT=2, then a RepType 0 Inner Only."""
    sink = hop_values(9)
    sink.update({"drop_queue_id": 3, "drop_reason": 0x21})
    md = hop_bytes(0x5001, sink, report=True)
    hops = [hop_values(2), hop_values(1)]
    data, int_exp = int_data("md", 2, 6, 0x9000, hops)
    inner_tcp = tcp_hdr()
    inner, inner_pkt = ipv4(17, udp_hdr(0xbeef, INT_PORT, len(data) + len(inner_tcp)) +
                            data + inner_tcp)
    r1, l1, m1, n1 = report(1, 4, 0x5001, md, inner, 0x80 | 0x20)
    plain, plain_pkt = ipv6(6, tcp_hdr(5555, 443))
    r2, l2, m2, n2 = report(0, 5, 0, b"", plain, 0x20)
    payload = struct.pack("!II", 2 << 28 | 1 << 22 | 77, 0x0a0a0a0a) + r1 + r2
    ip, pkt = ipv4(17, udp_hdr(12345, REPORT_PORT, len(payload)) + payload,
                   src="10.0.9.1", dst="10.0.9.2")
    rep1 = {"rep_type": 1, "in_type": 4, "len": l1, "md_len": m1, "d": 1, "q": 0, "f": 1,
            "i": 0, "rep_md_bits": "0x5001", "ds_id": 0, "ds_md_bits": 0, "ds_md_status": 0,
            "md": hop_json(0x5001, sink, report=True), "drop_queue_id": 3,
            "drop_reason": 0x21, "inner_len": n1,
            "inner": {"packet": with_ports(inner_pkt, 0xbeef, INT_PORT), "int": int_exp}}
    rep2 = {"rep_type": 0, "in_type": 5, "len": l2, "md_len": 0, "d": 0, "q": 0, "f": 1,
            "i": 0, "inner_len": n2, "inner": {"packet": with_ports(plain_pkt, 5555, 443)}}
    exp = {"ver": 2, "hw_id": 1, "seq": 77, "node_id": 0x0a0a0a0a, "reports": [rep1, rep2]}
    return [ether(ip)], ["int-port", str(INT_PORT), "report-port", str(REPORT_PORT)], \
        [line(1, with_ports(pkt, 12345, REPORT_PORT), "report", exp)]


def case_report_length_0xff():
    """A Report Length 0xff report runs to the end of the payload: the
    octets after it (another report's worth) are its inner contents."""
    q = hop_values(4)
    md = hop_bytes(0x1000, q, report=True)
    inner, inner_pkt = ipv6(17, udp_hdr(1, 2, 1100) + bytes(1100))
    r, _, _, n = report(1, 5, 0x1000, md, inner, 0x40, length=0xff)
    payload = struct.pack("!II", 2 << 28 | 5, 9) + r
    ip, pkt = ipv6(17, udp_hdr(12345, REPORT_PORT, len(payload)) + payload,
                   src="2001:db8:9::1", dst="2001:db8:9::2")
    rep = {"rep_type": 1, "in_type": 5, "len": 255, "md_len": 1, "d": 0, "q": 1, "f": 0,
           "i": 0, "rep_md_bits": "0x1000", "ds_id": 0, "ds_md_bits": 0, "ds_md_status": 0,
           "md": hop_json(0x1000, q, report=True), "inner_len": n,
           "inner": {"packet": with_ports(inner_pkt, 1, 2)}}
    exp = {"ver": 2, "hw_id": 0, "seq": 5, "node_id": 9, "reports": [rep]}
    return [ether(ip)], ["report-port", str(REPORT_PORT)], \
        [line(1, with_ports(pkt, 12345, REPORT_PORT), "report", exp)]


def case_report_cut_in_second():
    """A report payload whose second report's Report Length runs past the
    end: the first is printed, then "error" (and a reason on stderr)."""
    q = hop_values(4)
    md = hop_bytes(0x1000, q, report=True)
    inner, inner_pkt = ipv4(6, tcp_hdr())
    r1, l1, m1, n1 = report(1, 4, 0x1000, md, inner, 0x20)
    r2 = bytes([0x14, 30, 1, 0x20]) + bytes(16)
    payload = struct.pack("!II", 2 << 28 | 6, 9) + r1 + r2
    ip, pkt = ipv4(17, udp_hdr(12345, REPORT_PORT, len(payload)) + payload,
                   src="10.0.9.1", dst="10.0.9.2")
    rep = {"rep_type": 1, "in_type": 4, "len": l1, "md_len": m1, "d": 0, "q": 0, "f": 1,
           "i": 0, "rep_md_bits": "0x1000", "ds_id": 0, "ds_md_bits": 0, "ds_md_status": 0,
           "md": hop_json(0x1000, q, report=True), "inner_len": n1,
           "inner": {"packet": with_ports(inner_pkt, 1234, 80)}}
    exp = {"ver": 2, "hw_id": 0, "seq": 6, "node_id": 9, "reports": [rep],
           "error": "Report Length runs past the end of the payload (Report 3.3)"}
    return [ether(ip)], ["report-port", str(REPORT_PORT)], \
        [line(1, with_ports(pkt, 12345, REPORT_PORT), "report", exp)]


def case_not_int_and_ioam_unchanged():
    """DSCP 0x1f and 0x37 contain 0x17's bits without being INT (mask
    0x3f); a UDP packet to another port is not INT either: no JSON line."""
    hops = [hop_values(1)]
    data, _ = int_data("md", 0, 0, 0x8000, hops)
    a, _ = ipv4(6, tcp_hdr() + data, dscp=0x1f)
    b, _ = ipv4(6, tcp_hdr() + data, dscp=0x37)
    c, _ = ipv4(17, udp_hdr(1, INT_PORT + 1, len(data)) + data)
    return [ether(a), ether(b), ether(c)], ["int-dscp", "0x17", "int-port", str(INT_PORT)], []


CASES = {
    "spec_6_3": case_spec_6_3,
    "spec_4_3": case_spec_4_3,
    "md_tcp_ipv4_dscp": case_md_tcp_ipv4_dscp,
    "md_udp_ipv6_dscp_mask": case_md_udp_ipv6_dscp_mask,
    "md_npt1_ipv4_udp_all_fields": case_md_npt1_ipv4_udp_all_fields,
    "md_npt2_ipv6_tcp_reserved_e_m": case_md_npt2_ipv6_tcp_reserved_e_m,
    "mx_npt2_ipv4_source_inserted": case_mx_npt2_ipv4_source_inserted,
    "report_coalesced": case_report_coalesced,
    "report_length_0xff": case_report_length_0xff,
    "report_cut_in_second": case_report_cut_in_second,
    "not_int": case_not_int_and_ioam_unchanged,
}

# Malformed INT: (name, shim+header hex, stack hex, error text decode prints).
BAD = [
    ("truncated_shim", "1007", "", "shim truncated"),
    ("shim_length_beyond_packet", "10090000 20000206 90000000 00000000",
     "00000002 02000200 00000001 01000100", "shim Length runs past the end"),
    ("hop_ml_inconsistent", "10050000 20000106 90000000 00000000",
     "00000002 00000001", "Hop ML inconsistent"),
    ("ver_not_2", "10030000 10000200 90000000 00000000", "", "Ver is not 2"),
    ("stack_not_multiple", "10060000 20000206 90000000 00000000",
     "00000002 02000200 00000001", "not a multiple of Hop ML"),
]


def cmd_cases(d):
    for name, fn in CASES.items():
        frames, args, exp = fn()
        write_pcap("%s/%s.pcap" % (d, name), frames)
        with open("%s/%s.args" % (d, name), "w") as f:
            f.write(" ".join(args) + "\n")
        with open("%s/%s.expect" % (d, name), "w") as f:
            for o in exp:
                f.write(json.dumps(o) + "\n")
    for name, hdr, stack, text in BAD:
        raw = bytes.fromhex(hdr.replace(" ", "") + stack.replace(" ", ""))
        ip, _ = ipv4(6, tcp_hdr() + raw, dscp=DSCP_INT)
        write_pcap("%s/bad_%s.pcap" % (d, name), [ether(ip)])
        with open("%s/bad_%s.text" % (d, name), "w") as f:
            f.write(text + "\n")
    return 0


def diff(path, e, o, out):
    if isinstance(e, dict) and isinstance(o, dict):
        for k in e:
            if k not in o:
                out.append("%s.%s: expected %s, observed no such key" % (path, k, json.dumps(e[k])))
            else:
                diff("%s.%s" % (path, k), e[k], o[k], out)
        for k in o:
            if k not in e:
                out.append("%s.%s: expected no such key, observed %s" % (path, k, json.dumps(o[k])))
        if set(e) == set(o) and list(e) != list(o):
            out.append("%s: keys in order %s, observed %s" % (path, list(e), list(o)))
    elif isinstance(e, list) and isinstance(o, list):
        if len(e) != len(o):
            out.append("%s: expected %d elements, observed %d" % (path, len(e), len(o)))
        for i, (a, b) in enumerate(zip(e, o)):
            diff("%s[%d]" % (path, i), a, b, out)
    elif e != o or type(e) != type(o):
        out.append("%s: expected %s, observed %s" % (path, json.dumps(e), json.dumps(o)))


def cmd_compare(exp_path, obs_path):
    with open(exp_path) as f:
        exp = [json.loads(x) for x in f if x.strip()]
    obs = []
    out = []
    with open(obs_path) as f:
        for n, x in enumerate(f, 1):
            try:
                obs.append(json.loads(x))
            except ValueError as err:
                out.append("line %d is not JSON: %s" % (n, err))
    if len(exp) != len(obs):
        out.append("expected %d lines, observed %d" % (len(exp), len(obs)))
    for i, (e, o) in enumerate(zip(exp, obs)):
        diff("line%d" % (i + 1), e, o, out)
    for x in out:
        print(x)
    return 1 if out else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "cases":
        return cmd_cases(sys.argv[2])
    if len(sys.argv) == 4 and sys.argv[1] == "write" and sys.argv[2] in CASES:
        write_pcap(sys.argv[3], CASES[sys.argv[2]]()[0])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return cmd_compare(sys.argv[2], sys.argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
