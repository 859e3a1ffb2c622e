#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_int_pcap.py - INT v2.1 and Telemetry Report v2.0 captures for
selftests/net/test_int_dissector.sh, and the decodings it compares.

  hm_int_pcap.py write DIR
	writes DIR/CASE.pcap (Ethernet) and DIR/CASE.expect.json (what the
	generator put in, one JSON object per frame, in the schema of
	`hopmark decode -j`: {"int": {...}} or {"report": {...}} or {}) for
	every case; DIR/all-N.pcap, the frames of every case with N words of
	source-only metadata, one after the other; DIR/groups ("N FRAMES"
	per line) and DIR/cases ("CASE KIND N FIRST COUNT" per line: the
	case's frames in all-N.pcap)
  hm_int_pcap.py from-tshark FILE.json
	tshark -T json of the hopmark-int.lua dissector -> the same schema,
	plus "expert" (the dissector's expert messages) and "lua_errors";
	malformed INT becomes "error": the reason hopmark decode gives for
	the first of the dissector's expert infos hopmark checks first
  hm_int_pcap.py from-hopmark FRAMES STDOUT STDERR
	`hopmark decode -j` lines and its "frame N: INT not decoded: REASON"
	lines -> the same schema, one object per frame ("error": REASON);
	"packet" and "rx_ns" come from the stock IP/TCP/UDP dissectors' and
	the frame's fields on the tshark side
  hm_int_pcap.py diff EXPECTED OBSERVED [KEYS [FIRST COUNT [--skip-withheld]]]
	every field (of the top-level KEYS, comma-separated) that differs,
	as "frame N PATH: expected X observed Y", comparing EXPECTED with
	COUNT frames of OBSERVED from FIRST (0-based), leaving out with
	--skip-withheld the frames whose TCP/UDP payload tshark's dissector
	did not hand on (withheld()); exit status 1 when one does

Standard library only (Debian's python3). Signalling of every capture:
DSCP 0x17 (mask 0x3f), INT UDP port 42100, report UDP port 42101.
"""
import json
import struct
import sys

INT_DSCP = 0x17
INT_PORT = 42100
RPT_PORT = 42101
APP_SPORT = 41000
APP_DPORT = 41001
HASH_SPORT = 43210

# ------------------------------------------------------------------ packets


def csum16(data):
    if len(data) % 2:
        data += b"\x00"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


class Ip:
    """An IPv4 or IPv6 header builder: addresses and the DSCP."""

    def __init__(self, v6, dscp=0, n=0):
        self.v6 = v6
        self.dscp = dscp
        if v6:
            self.src = bytes.fromhex("20010db8000100000000000000000001")
            self.dst = bytes.fromhex("20010db8000400000000000000000002")
        else:
            self.src = bytes([192, 0, 2, 1 + n])
            self.dst = bytes([198, 51, 100, 2 + n])

    def pseudo(self, proto, length):
        if self.v6:
            return self.src + self.dst + struct.pack("!IxxxB", length, proto)
        return self.src + self.dst + struct.pack("!xBH", proto, length)

    def header(self, proto, payload):
        if self.v6:
            w0 = 6 << 28 | (self.dscp << 2) << 20
            return struct.pack("!IHBB", w0, len(payload), proto, 64) + \
                self.src + self.dst + payload
        h = struct.pack("!BBHHHBBH", 0x45, self.dscp << 2, 20 + len(payload),
                        0x1234, 0x4000, 64, proto, 0) + self.src + self.dst
        h = h[:10] + struct.pack("!H", csum16(h)) + h[12:]
        return h + payload


def tcp(ip, sport, dport, data, opts=b""):
    """A TCP header (with options opts, padded to 4n) and data; valid checksum."""
    opts += b"\x01" * ((-len(opts)) % 4)
    off = (20 + len(opts)) // 4
    h = struct.pack("!HHIIBBHHH", sport, dport, 1000, 2000, off << 4, 0x18,
                    65535, 0, 0) + opts
    seg = h + data
    c = csum16(ip.pseudo(6, len(seg)) + seg)
    return seg[:16] + struct.pack("!H", c) + seg[18:]


def udp(ip, sport, dport, data, zero_csum=False):
    seg = struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data
    if zero_csum:
        return seg
    c = csum16(ip.pseudo(17, len(seg)) + seg) or 0xffff
    return seg[:6] + struct.pack("!H", c) + seg[8:]


def frame(ip_pkt, v6):
    eth = bytes.fromhex("020000000002020000000001") + \
        struct.pack("!H", 0x86dd if v6 else 0x0800)
    return eth + ip_pkt


def pcap(path, frames):
    """A pcap file of (frame, index) pairs, the index giving the time
    (1764600000 + index s); a frame given as (octets, caplen) is cut to
    caplen."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for fr, i in frames:
            cap = len(fr)
            if isinstance(fr, tuple):
                fr, cap = fr
                cap = min(cap, len(fr))
            f.write(struct.pack("<IIII", 1764600000 + i, 0, cap, len(fr)))
            f.write(fr[:cap])

# -------------------------------------------------------------- INT fields

# Bitmap bits 0-8 (INT §5.8): (keys, octets); a pair splits its octets.
BASELINE = [
    (("node_id",), 4), (("l1_ingress", "l1_egress"), 4), (("hop_latency",), 4),
    (("queue_id", "queue_occupancy"), 4), (("ingress_ts",), 8),
    (("egress_ts",), 8), (("l2_ingress", "l2_egress"), 8), (("tx_util",), 4),
    (("buffer_id", "buffer_occupancy"), 4),
]
ALL_ONES = {"hop_latency", "ingress_ts", "l1_egress", "queue_occupancy"}


def bitmap_words(bm):
    return sum((2 if 4 <= b <= 6 else 1) for b in range(16) if bm & (0x8000 >> b))


def hop_values(n, salt):
    """Distinct values for hop n; hop 1 of every case says 'unknown'
    (all-ones) for a few fields, as a node that cannot know them does."""
    b = 1000 * salt + 10 * n
    v = {
        "node_id": 0x0a000000 + b + 1, "l1_ingress": b + 2, "l1_egress": b + 3,
        "hop_latency": 100000 + b, "queue_id": (n + salt) & 0xff,
        "queue_occupancy": 0x12340 + b, "ingress_ts": 1764600000123456789 + b,
        "egress_ts": 1764600000123460000 + b, "l2_ingress": 0x1000000 + b,
        "l2_egress": 0x2000000 + b, "tx_util": 2500 + n, "buffer_id": n,
        "buffer_occupancy": 0x45600 + b,
    }
    if n == 1:
        for k in ALL_ONES:
            v[k] = (1 << 64) - 1 if k.endswith("_ts") else \
                (0xffffff if k == "queue_occupancy" else
                 (0xffff if k == "l1_egress" else 0xffffffff))
    return v


def pack_fields(bm, v):
    """Bits 0-14 of bm in ascending order: octets and the JSON fields."""
    out, js, rsvd = b"", {}, []
    for bit in range(15):
        if not bm & (0x8000 >> bit):
            continue
        if bit >= 9:
            out += b"\xff" * 4
            rsvd.append(0xffffffff)
            continue
        keys, size = BASELINE[bit]
        if len(keys) == 1:
            out += v[keys[0]].to_bytes(size, "big")
            js[keys[0]] = v[keys[0]]
        elif size == 8:
            out += struct.pack("!II", v[keys[0]], v[keys[1]])
            js[keys[0]], js[keys[1]] = v[keys[0]], v[keys[1]]
        elif keys[0] == "l1_ingress":
            out += struct.pack("!HH", v[keys[0]], v[keys[1]])
            js[keys[0]], js[keys[1]] = v[keys[0]], v[keys[1]]
        else:
            out += struct.pack("!I", v[keys[0]] << 24 | v[keys[1]])
            js[keys[0]], js[keys[1]] = v[keys[0]], v[keys[1]]
    if rsvd:
        js["reserved"] = rsvd
    return out, js


def int_md(bm, nhops, hop_ml=None, rhc=5, flags=0, ds_id=0, ds_inst=0,
           ds_flags=0, ds_words=0, source_only=b"", salt=1):
    """INT-MD header + stack of nhops hops (index 0 = most recent)."""
    hop_ml = bitmap_words(bm) + ds_words if hop_ml is None else hop_ml
    w0 = 2 << 28 | flags << 25 | (hop_ml & 0x1f) << 8 | rhc
    raw = struct.pack("!IHHHH", w0, bm, ds_id, ds_inst, ds_flags)
    js = {"type": "md", "ver": 2, "d": flags >> 2 & 1, "e": flags >> 1 & 1,
          "m": flags & 1, "hop_ml": hop_ml, "rhc": rhc,
          "bitmap": "0x%04x" % bm, "ds_id": ds_id, "ds_instruction": ds_inst,
          "ds_flags": ds_flags, "hops": []}
    for i in range(nhops):
        v = hop_values(nhops - i, salt)
        o, hj = pack_fields(bm, v)
        if ds_words:
            ds = bytes([0xd0 + i]) * (4 * ds_words)
            o += ds
            hj["ds_md"] = ds.hex()
        if bm & 1:
            cc = 0xc0de0000 + i if i else 0xffffffff
            o += struct.pack("!I", cc)
            hj["csum_complement"] = cc
        raw += o
        js["hops"].append(hj)
    raw += source_only
    if source_only:
        js["source_data"] = source_only.hex()
    return raw, js


def int_mx(bm, flags=0, ds_id=0, ds_inst=0, ds_flags=0, inserted=b""):
    w0 = 2 << 28 | flags << 27
    raw = struct.pack("!IHHHH", w0, bm, ds_id, ds_inst, ds_flags) + inserted
    js = {"type": "mx", "ver": 2, "d": flags, "bitmap": "0x%04x" % bm,
          "ds_id": ds_id, "ds_instruction": ds_inst, "ds_flags": ds_flags}
    if inserted:
        js["source_data"] = inserted.hex()
    return raw, js


def shim(itype, npt, body, nptval, length=None):
    """The shim before body; Length counts body unless given."""
    ln = len(body) // 4 if length is None else length
    if npt == 1:
        tail = struct.pack("!H", nptval)
    elif npt == 2:
        tail = bytes([0, nptval])
    else:
        tail = bytes([0, nptval << 2])
    return bytes([itype << 4 | npt << 2, ln]) + tail + body


def int_js(js, npt, body_len, nptval):
    out = {"type": js["type"], "npt": npt, "shim_len": body_len // 4}
    out[{0: "orig_dscp", 1: "orig_dport", 2: "orig_proto"}[npt]] = nptval
    out.update((k, v) for k, v in js.items() if k != "type")
    return out


APP = b"hopmark INT payload\n"


def int_packet(v6, l4, npt, body, js, opts=b"", orig_dscp=0x0a, zero=False,
               app=APP):
    """A TCP or UDP packet carrying the INT data body: INT after the L4
    header (NPT 0, DSCP signalling; NPT 1, UDP port), or a new UDP header
    + INT before the original L4 header (NPT 2). Returns (frame, json)."""
    if npt == 0:
        ip = Ip(v6, INT_DSCP)
        sh = shim(js["type"] == "mx" and 3 or 1, 0, body, orig_dscp)
        data = sh + app
        seg = tcp(ip, APP_SPORT, APP_DPORT, data, opts) if l4 == 6 else \
            udp(ip, APP_SPORT, APP_DPORT, data, zero)
        return frame(ip.header(l4, seg), v6), int_js(js, 0, len(body), orig_dscp)
    ip = Ip(v6, 0x0a)
    if npt == 1:
        sh = shim(js["type"] == "mx" and 3 or 1, 1, body, APP_DPORT)
        seg = udp(ip, APP_SPORT, INT_PORT, sh + app, zero)
        return frame(ip.header(17, seg), v6), int_js(js, 1, len(body), APP_DPORT)
    sh = shim(js["type"] == "mx" and 3 or 1, 2, body, l4)
    inner = tcp(ip, APP_SPORT, APP_DPORT, app, opts) if l4 == 6 else \
        udp(ip, APP_SPORT, APP_DPORT, app)
    seg = udp(ip, HASH_SPORT, INT_PORT, sh + inner, True)
    return frame(ip.header(17, seg), v6), int_js(js, 2, len(body), l4)

# --------------------------------------------------------- Telemetry Report


def rpt_group(hw_id, seq, node_id):
    return struct.pack("!II", 2 << 28 | hw_id << 22 | seq, node_id)


def rpt_one(rep_type, in_type, flags, rep_md_bits=0, ds_id=0, ds_md_bits=0,
            ds_md_status=0, md_vals=None, drop=None, inner=b"", inner_js=None,
            ds_md=b"", to_end=False):
    """One Individual Report (Report §3.3) and its JSON."""
    js = {"rep_type": rep_type, "in_type": in_type}
    main = b""
    md = b""
    if rep_type == 1:
        md, mj = pack_fields(rep_md_bits, md_vals or {})
        if rep_md_bits & 1:
            md += struct.pack("!BBH", drop[0], drop[1], 0)
        md += ds_md
        main = struct.pack("!HHHH", rep_md_bits, ds_id, ds_md_bits, ds_md_status)
    body = main + md + inner
    assert len(body) % 4 == 0
    rlen = 0xff if to_end else len(body) // 4
    js.update({"len": rlen, "md_len": len(md) // 4, "d": flags >> 3 & 1,
               "q": flags >> 2 & 1, "f": flags >> 1 & 1, "i": flags & 1})
    if rep_type == 1:
        js.update({"rep_md_bits": "0x%04x" % rep_md_bits, "ds_id": ds_id,
                   "ds_md_bits": ds_md_bits, "ds_md_status": ds_md_status,
                   "md": mj})
        if rep_md_bits & 1:
            js["drop_queue_id"] = drop[0]
            js["drop_reason"] = drop[1]
        if ds_md:
            js["md"]["ds_md"] = ds_md.hex()
    js["inner_len"] = len(inner)
    if inner_js is not None:
        js["inner"] = dict(inner_js, packet=pkt_info(inner))
    raw = bytes([rep_type << 4 | in_type, rlen, len(md) // 4, flags << 4]) + body
    return raw, js


def report_packet(v6, group, reports, rjs_list):
    ip = Ip(v6, 0)
    payload = group + b"".join(reports)
    seg = udp(ip, 50000, RPT_PORT, payload)
    g = struct.unpack("!II", group)
    js = {"ver": g[0] >> 28, "hw_id": g[0] >> 22 & 0x3f, "seq": g[0] & 0x3fffff,
          "node_id": g[1], "reports": rjs_list}
    return frame(ip.header(17, seg), v6), {"report": js}


def ip_of(fr):
    """The IP packet of an Ethernet frame."""
    return fr[14:]


def pkt_info(ip):
    """The "packet" object of an IP packet this file built (no extension
    headers, no options): what its headers were given."""
    import ipaddress
    if ip[0] >> 4 == 4:
        l4 = ip[20:24]
        pk = {"ip_ver": 4, "src": str(ipaddress.ip_address(ip[12:16])),
              "dst": str(ipaddress.ip_address(ip[16:20])), "dscp": ip[1] >> 2,
              "ttl": ip[8], "ip_len": struct.unpack("!H", ip[2:4])[0], "proto": ip[9]}
    else:
        l4 = ip[40:44]
        pk = {"ip_ver": 6, "src": str(ipaddress.ip_address(ip[8:24])),
              "dst": str(ipaddress.ip_address(ip[24:40])),
              "dscp": (struct.unpack("!I", ip[0:4])[0] >> 20 & 0xff) >> 2,
              "ttl": ip[7], "ip_len": 40 + struct.unpack("!H", ip[4:6])[0], "proto": ip[6]}
    pk["sport"], pk["dport"] = struct.unpack("!HH", l4) if len(l4) == 4 else (None, None)
    return pk

# ---------------------------------------------------------------- the cases


def cases():
    """(name, kind, [(frame, expected json)]) for every case."""
    out = []
    tcp_opts = bytes([2, 4, 0x05, 0xb4, 4, 2, 8, 10]) + bytes(8)  # MSS, SACK-perm, TS

    def md_case(name, v6, l4, npt, bm, nhops, **kw):
        opts = kw.pop("opts", b"")
        zero = kw.pop("zero", False)
        body, js = int_md(bm, nhops, **kw)
        fr, j = int_packet(v6, l4, npt, body, js, opts=opts, zero=zero)
        out.append((name, "int", [(fr, {"int": j})]))

    # The spec's §6.1 setup: bitmap 0x9000, Hop ML 2, RHC 8 - 3 hops.
    md_case("md_tcp4_dscp_0x9000_3hops", False, 6, 0, 0x9000, 3, rhc=5, opts=tcp_opts)
    md_case("md_udp6_dscp_0xfc00_2hops", True, 17, 0, 0xfc00, 2, rhc=6)
    md_case("md_udp4_port_npt1_0xff80", False, 17, 1, 0xff80, 4, rhc=4)
    md_case("md_tcp6_port_npt2_0x9001", True, 6, 2, 0x9001, 2, rhc=3, opts=tcp_opts)
    md_case("md_tcp4_port_npt2_0xfc01", False, 6, 2, 0xfc01, 1, rhc=7)
    md_case("md_udp6_port_npt2_0x8040", True, 17, 2, 0x8040, 3, rhc=0, flags=0b010)
    md_case("md_udp4_dscp_reserved_0xc07f", False, 17, 0, 0xc07f, 2, zero=True)
    md_case("md_tcp6_dscp_every_bit_0xffff", True, 6, 0, 0xffff, 2, rhc=1, flags=0b101)
    md_case("md_udp4_port_ds_metadata", False, 17, 1, 0x8800, 2, ds_id=0x0101,
            ds_inst=0x8000, ds_flags=0x0003, ds_words=2)
    md_case("md_udp6_port_hop_ml31", True, 17, 1, 0x8000, 2, ds_words=30, ds_id=7)
    md_case("md_tcp4_dscp_no_hops", False, 6, 0, 0xfc00, 0, rhc=8)
    # TCP to a port Wireshark gives HTTP: INT only with heuristics first.
    body, js = int_md(0x9000, 2)
    ip = Ip(False, INT_DSCP)
    fr = frame(ip.header(6, tcp(ip, APP_SPORT, 80, shim(1, 0, body, 0x0a) + APP)), False)
    out.append(("md_tcp4_dscp_to_port_80", "int",
                [(fr, {"int": int_js(js, 0, len(body), 0x0a)})]))
    # §6.17: source-only metadata after the stack (not in Hop ML).
    # §6.17: 3 hops of Hop ML 1, then 2 words of source-only metadata;
    # the decoders are told the 2 (the header does not say).
    md_case("md_udp4_port_source_only_2", False, 17, 1, 0x8000, 3, rhc=5,
            ds_id=0x5453, ds_inst=0x8000, ds_flags=0x4000,
            source_only=bytes.fromhex("a61af6b1647d0000"))
    out[-1] = out[-1] + (2,)

    def mx_case(name, v6, l4, npt, bm, **kw):
        body, js = int_mx(bm, **kw)
        fr, j = int_packet(v6, l4, npt, body, js)
        out.append((name, "int", [(fr, {"int": j})]))

    mx_case("mx_tcp4_dscp_0x9000", False, 6, 0, 0x9000)
    mx_case("mx_udp6_dscp_0xfc00", True, 17, 0, 0xfc00, flags=1)
    mx_case("mx_udp4_port_npt1", False, 17, 1, 0xff80)
    # §6.16: source-inserted DS metadata (sequence 15, flow ID 0x12345678).
    mx_case("mx_tcp6_port_npt2_source_inserted", True, 6, 2, 0x9000, ds_id=0xabcd,
            ds_inst=0xc000, inserted=bytes.fromhex("0000000f12345678"))

    # Not INT: a DSCP holding the INT bits (0x1f, 0x37) under mask 0x3f.
    for d in (0x1f, 0x37):
        ip = Ip(False, d)
        seg = udp(ip, APP_SPORT, APP_DPORT, APP)
        out.append(("not_int_dscp_0x%02x" % d, "int",
                    [(frame(ip.header(17, seg), False), {})]))

    # Telemetry Reports. Inner packets: INT packets as a sink sees them.
    f1, j1 = int_packet(False, 6, 0, *int_md(0x9000, 2, rhc=6), opts=tcp_opts)
    f2, j2 = int_packet(True, 17, 2, *int_md(0xfc00, 3, rhc=5, salt=2))
    f3, j3 = int_packet(False, 17, 1, *int_mx(0x5000))
    in1 = ip_of(f1)
    in1 += bytes((-len(in1)) % 4)
    r, rj = rpt_one(1, 4, 0b0010, rep_md_bits=0x5000,
                    md_vals=hop_values(2, 7), inner=in1, inner_js={"int": j1})
    fr, j = report_packet(False, rpt_group(1, 5, 3), [r], [rj])
    out.append(("report_single_ipv4_inner", "report", [(fr, j)]))

    # Coalesced: a tracked flow (IPv6 inner truncated to 64 octets, its
    # INT stack cut short), a drop report with RepMdBits bit 15, a
    # congested-queue report, and an Inner Only report.
    in2 = ip_of(f2)[:72]
    j2cut = {"error": ERR["capture"]}
    ra, ja = rpt_one(1, 5, 0b0010, rep_md_bits=0x7f00, ds_id=9,
                     ds_md_bits=0x8000, ds_md_status=1, md_vals=hop_values(3, 8),
                     ds_md=bytes.fromhex("00c0ffee"), inner=in2,
                     inner_js=j2cut)
    in3 = ip_of(f3)
    in3 += bytes((-len(in3)) % 4)
    rb, jb = rpt_one(1, 4, 0b1000, rep_md_bits=0x1001, md_vals=hop_values(4, 9),
                     drop=(3, 71), inner=in3, inner_js={"int": j3})
    rc, jc = rpt_one(1, 0, 0b0100, rep_md_bits=0x1000, md_vals=hop_values(5, 9))
    rd, jd = rpt_one(0, 4, 0b0010, inner=in1, inner_js={"int": j1})
    fr, j = report_packet(True, rpt_group(63, 0x3fffff, 0xfffffffe),
                          [ra, rb, rc, rd], [ja, jb, jc, jd])
    out.append(("report_coalesced_4", "report", [(fr, j)]))

    # Report Length 0xff: an inner packet of more than 255 words.
    big, bj = int_packet(False, 17, 1, *int_md(0xffff, 6, rhc=2, salt=3),
                         app=bytes(range(256)) * 3)
    inner = ip_of(big)
    inner += bytes((-len(inner)) % 4)
    assert len(inner) > 255 * 4
    rf, jf = rpt_one(1, 4, 0b0010, rep_md_bits=0x0c00, md_vals=hop_values(6, 3),
                     inner=inner, inner_js={"int": bj}, to_end=True)
    fr, j = report_packet(False, rpt_group(2, 100, 77), [rf], [jf])
    out.append(("report_len_0xff", "report", [(fr, j)]))
    out += malformed_cases()
    out.append(mutations([f for c in out if c[1] != "malformed" and c[3:] in ((), (0,))
                          for f, _ in c[2]]))
    return out


def mutations(frames, per_frame=12, seed=None):
    """("mutations", "fuzz", ...): each frame cut short or with octets
    after its IP header replaced, from a fixed seed; the IP header stays
    (what a decoder is told past it is what matters here). Nothing is
    expected of them but that the dissector raises no Lua error and agrees
    with hopmark decode."""
    import os
    import random
    if seed is None:	# HM_INT_MUTATION_SEED explores other mutations
        seed = int(os.environ.get("HM_INT_MUTATION_SEED", "8"))
    rnd = random.Random(seed)
    out = []
    for fr in frames:
        ihl = 20 if fr[14] >> 4 == 4 else 40
        start = 14 + ihl
        for _ in range(per_frame):
            m = bytearray(fr)
            how = rnd.randrange(3)
            if how == 0:	# capture cut anywhere after the IP header
                out.append(((bytes(m), rnd.randrange(start, len(m) + 1)), {}))
                continue
            for _ in range(rnd.randrange(1, 4)):
                at = rnd.randrange(start, len(m))
                m[at] = rnd.randrange(256) if how == 1 else m[at] ^ (1 << rnd.randrange(8))
            out.append((bytes(m), {}))
    return ("mutations", "fuzz", out)


# The reasons `hopmark decode` gives (lib/int/int_decode.c,
# report_decode.c), by the expert info hopmark-int.lua gives the same case,
# in the order hopmark checks them (it names the first).
ERR_ORDER = [
    ("hopmark_int.shim_truncated", "shim_trunc",
     "shim truncated (fewer than 4 octets after the L4 header, INT 5.7.2)"),
    ("hopmark_int.bad_type", "type",
     "shim Type is neither 1 (INT-MD) nor 3 (INT-MX) (INT 5.7.2)"),
    ("hopmark_int.len_short", "shim_len",
     "shim Length below the 3 words of the INT header (INT 5.7.2)"),
    ("hopmark_int.len_beyond_packet", "beyond",
     "shim Length runs past the end of the IP packet (INT 5.7.2)"),
    ("hopmark_int.capture_short", "capture",
     "INT data cut short (capture shorter than the shim Length)"),
    ("hopmark_int.bad_version", "ver", "INT header Ver is not 2 (INT 5.8, 5.9)"),
    ("hopmark_int.hop_ml_bad", "hop_ml",
     "Hop ML inconsistent with the Instruction Bitmap (INT 5.8)"),
    ("hopmark_int.stack_bad", "stack",
     "metadata stack is not a multiple of Hop ML words (INT 5.8)"),
    ("hopmark_int.npt_mismatch", "npt",
     "shim NPT disagrees with the signalling (INT 5.7.2)"),
    ("hopmark_int_report.group_truncated", "rpt_group",
     "payload shorter than the 8-octet Telemetry Group Header (Report 3.2)"),
    ("hopmark_int_report.bad_version", "rpt_ver",
     "Telemetry Group Header Ver is not 2 (Report 3.2)"),
    ("hopmark_int_report.hdr_truncated", "rpt_hdr",
     "Individual Report Header truncated (fewer than 4 octets, Report 3.3)"),
    ("hopmark_int_report.len_beyond_packet", "rpt_len",
     "Report Length runs past the end of the payload (Report 3.3)"),
    ("hopmark_int_report.main_short", "rpt_main",
     "RepType 1 report shorter than its main contents and MD Length (Report 3.3.1)"),
    ("hopmark_int_report.md_len_bad", "rpt_md_len",
     "MD Length inconsistent with RepMdBits or RepType (Report 3.3, 3.3.1)"),
]
ERR = {short: text for _, short, text in ERR_ORDER}


def malformed_cases():
    """Broken INT and reports: (name, "malformed", [(frame, {"expert": [...],
    "error": ...})]) with the expert messages hopmark-int.lua gives them and
    the reason hopmark decode gives."""
    out = []

    def add(name, fr, expert, err, rpt=None):
        js = {"expert": expert}
        if rpt is not None:
            js["report"] = rpt
        else:
            js["error"] = ERR[err]
        out.append((name, "malformed", [(fr, js)]))

    def dscp_tcp(name, payload, expert, err, v6=False, cut=None):
        ip = Ip(v6, INT_DSCP)
        fr = frame(ip.header(6, tcp(ip, APP_SPORT, APP_DPORT, payload)), v6)
        add(name, fr if cut is None else (fr, len(fr) - cut), expert, err)

    def port_udp(name, payload, expert, err, v6=False):
        ip = Ip(v6, 0)
        fr = frame(ip.header(17, udp(ip, APP_SPORT, INT_PORT, payload)), v6)
        add(name, fr, expert, err)

    def report(name, payload, expert, rpt):
        ip = Ip(False, 0)
        fr = frame(ip.header(17, udp(ip, 50000, RPT_PORT, payload)), False)
        add(name, fr, expert, None, rpt)

    md, _ = int_md(0x9000, 2)
    for n in (1, 2, 3):
        dscp_tcp("bad_tcp_shim_truncated_%d" % n, shim(1, 0, md, 0)[:n],
                 ["INT shim truncated: %d of 4 octets" % n], "shim_trunc")
    port_udp("bad_udp_len_beyond_packet", shim(1, 1, md, APP_DPORT, length=20),
             ["INT Length 20 words (80 octets) runs past the 28 octets after the shim"],
             "beyond")
    dscp_tcp("bad_tcp6_len_beyond_packet", shim(1, 0, md[:12], 0, length=255),
             ["INT Length 255 words (1020 octets) runs past the 12 octets after the shim"],
             "beyond", v6=True)
    dscp_tcp("bad_tcp_capture_cut_in_the_stack", shim(1, 0, md, 0) + APP,
             ["INT Length 7 words (28 octets): only 14 octets after the shim captured"],
             "capture", cut=len(APP) + 14)
    dscp_tcp("bad_tcp_len_below_header", shim(1, 0, md[:8], 0),
             ["INT Length 2 words is shorter than the 3 of the INT-MD header"], "shim_len")
    dscp_tcp("bad_tcp_len_zero_mx", shim(3, 0, b"", 0),
             ["INT Length 0 words is shorter than the 3 of the INT-MX header"], "shim_len")
    port_udp("bad_udp_npt0_under_port_signalling", shim(1, 0, md, 5),
             ["NPT 0 in a packet signalled by UDP port"], "npt")
    hm, _ = int_md(0xfc00, 2, hop_ml=2)
    port_udp("bad_udp_hop_ml_below_bitmap", shim(1, 1, hm, APP_DPORT),
             ["Hop ML 2 is inconsistent with the 8 words bitmap 0xfc00 asks for (DS ID 0)"],
             "hop_ml")
    hm, _ = int_md(0x9000, 2, hop_ml=3)
    port_udp("bad_udp_hop_ml_above_bitmap_ds_id_0", shim(1, 1, hm, APP_DPORT),
             ["Hop ML 3 is inconsistent with the 2 words bitmap 0x9000 asks for (DS ID 0)",
              "Stack of 16 octets is not a multiple of Hop ML 3 words"], "hop_ml")
    port_udp("bad_udp_stack_not_whole_hops", shim(1, 1, md[:-4], APP_DPORT),
             ["Stack of 12 octets is not a multiple of Hop ML 2 words"], "stack")
    bad = bytearray(md)
    bad[0] = 0x30
    port_udp("bad_udp_version_3", shim(1, 1, bytes(bad), APP_DPORT),
             ["INT-MD Ver 3, not 2"], "ver")
    port_udp("bad_udp_type_2", shim(2, 1, bytes(8), APP_DPORT),
             ["INT shim Type 2"], "type")
    g = rpt_group(1, 1, 1)
    report("bad_report_group_truncated", g[:5],
           ["Telemetry Group Header truncated: 5 of 8 octets"],
           {"error": ERR["rpt_group"]})
    report("bad_report_version_1", struct.pack("!II", 1 << 28 | 1 << 22 | 9, 4),
           ["Telemetry Report Ver 1, not 2"],
           {"ver": 1, "hw_id": 1, "seq": 9, "node_id": 4, "error": ERR["rpt_ver"]})
    gj = {"ver": 2, "hw_id": 1, "seq": 1, "node_id": 1, "reports": []}
    report("bad_report_header_truncated", g + b"\x14\x00",
           ["Individual Report Header truncated: 2 of 4 octets"],
           dict(gj, error=ERR["rpt_hdr"]))
    r, _ = rpt_one(1, 4, 2, rep_md_bits=0x4000, md_vals=hop_values(2, 1))
    r = r[:1] + bytes([40]) + r[2:]
    report("bad_report_len_beyond", g + r,
           ["Report Length 40 words runs past the 12 octets left in the datagram"],
           dict(gj, error=ERR["rpt_len"]))
    r, _ = rpt_one(1, 4, 2, rep_md_bits=0x4000, md_vals=hop_values(2, 1))
    r = r[:2] + bytes([9]) + r[3:]
    report("bad_report_md_len_beyond", g + r,
           ["RepType 1 report of 12 octets is shorter than its 8-octet main contents and MD Length 9 words"],
           dict(gj, error=ERR["rpt_main"]))
    r, _ = rpt_one(1, 4, 2, rep_md_bits=0x0c00, md_vals=hop_values(2, 1))
    r = r[:1] + bytes([4, 2]) + r[3:-8]
    report("bad_report_md_len_below_bits", g + r,
           ["MD Length 2 words is less than RepMdBits 0x0c00 asks for"],
           dict(gj, error=ERR["rpt_md_len"]))
    r, _ = rpt_one(0, 4, 2, inner=bytes(8))
    r = r[:2] + bytes([1]) + r[3:]
    report("bad_report_inner_only_with_md_len", g + r,
           ["MD Length 1 words in an Inner Only report"],
           dict(gj, error=ERR["rpt_md_len"]))
    return out


# ------------------------------------------------------------ from tshark


def load_pairs(text):
    """JSON with every object as a list of (key, value) pairs: tshark
    repeats keys (one hopmark_int.hop_tree per hop)."""
    return json.loads(text, object_pairs_hook=lambda p: p)


def is_obj(v):
    return isinstance(v, list) and (not v or isinstance(v[0], tuple))


def num(s):
    return int(s, 0)


def get(p, key, default=None):
    for k, v in p:
        if k == key:
            return v
    return default


class Walk:
    """Collect, from a tshark -T json frame, the expert messages of the
    dissector's own trees (not those of the stock dissectors it calls for
    inner packets) and any Lua error anywhere."""

    def __init__(self):
        self.expert = []
        self.lua_errors = []

    def scan(self, p, ours=False):
        for k, v in p:
            if "Lua Error" in k or k == "_ws.lua.error" or \
                    (isinstance(v, str) and "Lua Error" in v):
                self.lua_errors.append(k)
            if not is_obj(v) or not v:
                continue
            if k == "_ws.expert":
                msg = get(v, "_ws.expert.message")
                if ours and msg:
                    self.expert.append(msg)
                continue
            self.scan(v, k.startswith("hopmark_int"))


def experts(p, out=None):
    """The expert info IDs in tree p, not descending into other protocols."""
    out = [] if out is None else out
    for k, v in p:
        if not is_obj(v):
            continue
        if k == "_ws.expert":
            out += [ek for ek, _ in v if ek.startswith("hopmark_int")]
        elif k.startswith("hopmark_int") and k.endswith("_tree"):
            experts(v, out)
    return out


def first_error(ids):
    """hopmark's reason for the first of the expert IDs it checks first."""
    for eid, _, text in ERR_ORDER:
        if eid in ids:
            return text
    return None


def md_fields(p, prefix, out):
    for k, v in p:
        if not k.startswith(prefix) or not isinstance(v, str):
            continue
        key = k[len(prefix):]
        if key in ("index", "data", "drop_queue_id", "drop_reason", "drop_pad"):
            continue
        if key == "reserved":
            out.setdefault("reserved", []).append(num(v))
        elif key == "ds_md":
            out[key] = v.replace(":", "")
        else:
            out[key] = num(v)
    return out


def int_from_tree(t):
    """The "int" object of a hopmark_int tree, or {"error": reason}."""
    err = first_error(experts(t))
    if err:
        return {"error": err}
    js = {}
    shim_t = get(t, "hopmark_int.shim_tree", [])
    typ = num(get(shim_t, "hopmark_int.shim.type", "0"))
    js["type"] = {1: "md", 3: "mx"}.get(typ, "unknown")
    js["npt"] = num(get(shim_t, "hopmark_int.shim.npt", "0"))
    js["shim_len"] = num(get(shim_t, "hopmark_int.shim.len", "0"))
    for k in ("orig_dport", "orig_proto", "orig_dscp"):
        v = get(shim_t, "hopmark_int.shim." + k)
        if v is not None:
            js[k] = num(v)
    for hdr in ("md", "mx"):
        h = get(t, "hopmark_int.%s_tree" % hdr)
        if h is None:
            continue
        for k, v in h:
            key = k[len("hopmark_int.%s." % hdr):]
            if not k.startswith("hopmark_int.") or not isinstance(v, str) or \
                    key == "reserved":
                continue
            js[key] = ("0x%04x" % num(v)) if key == "bitmap" else num(v)
        if hdr == "md":
            js["hops"] = []
    for k, v in t:
        if k == "hopmark_int.hop_tree":
            js["hops"].append(md_fields(v, "hopmark_int.hop.", {}))
        elif k == "hopmark_int.source_data":
            js["source_data"] = v.replace(":", "")
    return js


def packet_from(p):
    """hopmark's "packet" object from the stock dissectors' trees in p:
    the first IPv4 or IPv6 header and the first TCP or UDP header after it."""
    pk, l4 = None, None
    for k, v in p:
        if not is_obj(v):
            continue
        if pk is None and k == "ip":
            d = get(get(v, "ip.dsfield_tree", []), "ip.dsfield.dscp", "0")
            pk = {"ip_ver": 4, "src": get(v, "ip.src"), "dst": get(v, "ip.dst"),
                  "dscp": num(d), "ttl": num(get(v, "ip.ttl")),
                  "ip_len": num(get(v, "ip.len")), "proto": num(get(v, "ip.proto"))}
        elif pk is None and k == "ipv6":
            d = get(get(v, "ipv6.tclass_tree", []), "ipv6.tclass.dscp", "0")
            pk = {"ip_ver": 6, "src": get(v, "ipv6.src"), "dst": get(v, "ipv6.dst"),
                  "dscp": num(d), "ttl": num(get(v, "ipv6.hlim")),
                  "ip_len": 40 + num(get(v, "ipv6.plen")), "proto": num(get(v, "ipv6.nxt"))}
        elif pk is not None and l4 is None and k in ("tcp", "udp"):
            l4 = (num(get(v, k + ".srcport")), num(get(v, k + ".dstport")))
    if pk is None:
        return None
    pk["sport"], pk["dport"] = l4 if l4 else (None, None)
    return pk


def rx_ns(layers):
    t = get(get(layers, "frame", []), "frame.time_epoch", "0")
    sec, _, frac = t.partition(".")
    return int(sec) * 10**9 + int((frac + "000000000")[:9])


def inner_from(r):
    """The inner packet of a report tree: {"int": ...}, {"error": ...} or
    {} for an IP packet without INT; None when there is no IP packet."""
    pk = packet_from(r)
    if pk is None:
        return None
    out = {"packet": pk}
    for k, v in r:
        if k == "hopmark_int" and is_obj(v):
            i = int_from_tree(v)
            out.update(i if "error" in i else {"int": i})
            break
    return out


REPORT_ERRORS = ("hopmark_int_report.hdr_truncated", "hopmark_int_report.len_beyond_packet",
                 "hopmark_int_report.main_short", "hopmark_int_report.md_len_bad")


def report_from_tree(t):
    ids = [e for k, v in t if k == "_ws.expert" for e, _ in v]
    if "hopmark_int_report.group_truncated" in ids:
        return {"error": first_error(ids)}
    g = get(t, "hopmark_int_report.group_tree", [])
    js = {"ver": num(get(g, "hopmark_int_report.group.ver", "0")),
          "hw_id": num(get(g, "hopmark_int_report.group.hw_id", "0")),
          "seq": num(get(g, "hopmark_int_report.group.seq", "0")),
          "node_id": num(get(g, "hopmark_int_report.group.node_id", "0"))}
    if "hopmark_int_report.bad_version" in experts(g):
        js["error"] = first_error(["hopmark_int_report.bad_version"])
        return js
    js["reports"] = []
    for k, r in t:
        if k != "hopmark_int_report.rep_tree":
            continue
        bad = [e for e in experts(r) if e in REPORT_ERRORS]
        if bad:
            js["error"] = first_error(bad)
            break
        rj = {}
        for rk, rv in r:
            key = rk[len("hopmark_int_report.rep."):]
            if rk == "hopmark_int_report.md_tree":
                rj["md"] = md_fields(rv, "hopmark_int_report.md.", {})
                for dk in ("drop_queue_id", "drop_reason"):
                    dv = get(rv, "hopmark_int_report.md." + dk)
                    if dv is not None:
                        rj[dk] = num(dv)
            elif rk.startswith("hopmark_int_report.rep.") and isinstance(rv, str) \
                    and key not in ("rsvd", "inner", "contents"):
                rj[key] = ("0x%04x" % num(rv)) if key == "rep_md_bits" else num(rv)
        if rj.get("rep_type") == 1 and "md" not in rj:
            rj["md"] = {}
        if "drop_queue_id" in rj:	# after "md", as hopmark prints them
            rj["drop_queue_id"] = rj.pop("drop_queue_id")
            rj["drop_reason"] = rj.pop("drop_reason")
        rj["inner_len"] = rj.pop("inner_len", 0)
        inner = inner_from(r)
        if inner is not None:
            rj["inner"] = inner
        js["reports"].append(rj)
    return js


def withheld(layers):
    """Why tshark's TCP or UDP dissector handed no payload on (so neither
    INT nor a report can be shown): the snapshot length cut the frame
    ("_ws.short") or the segment is a TCP RST (its data is a reset cause).
    None when it did hand it on."""
    def walk(p):
        for k, v in p:
            if k == "_ws.short":
                return "cut by the snapshot length"
            if k == "tcp.flags.reset" and v == "1":
                return "TCP RST"
            if is_obj(v) and v:
                r = walk(v)
                if r:
                    return r
        return None
    return walk(layers)


def from_tshark(path):
    frames = load_pairs(open(path).read())
    out = []
    for fr in frames:
        layers = get(get(fr, "_source"), "layers")
        w = Walk()
        w.scan(layers)
        js = {}
        for k, v in layers:
            if not is_obj(v):	# a protocol item without its tree
                if k in ("hopmark_int", "hopmark_int_report"):
                    js.setdefault("untreed", []).append(k)
                continue
            if k == "hopmark_int" and "int" not in js and "error" not in js:
                i = int_from_tree(v)
                if "error" in i:
                    js["error"] = i["error"]
                else:
                    js["int"] = i
            elif k == "hopmark_int_report":
                js["report"] = report_from_tree(v)
        if "int" in js or "report" in js:
            js["rx_ns"] = rx_ns(layers)
            js["packet"] = packet_from(layers)
        elif "error" not in js and withheld(layers):
            js["withheld"] = withheld(layers)
        if w.expert:
            js["expert"] = w.expert
        if w.lua_errors:
            js["lua_errors"] = w.lua_errors
        out.append(js)
    return out

# ----------------------------------------------------------- from hopmark


def from_hopmark(nframes, out_path, err_path):
    res = [{} for _ in range(nframes)]
    for line in open(out_path):
        o = json.loads(line)
        i = o["frame"] - 1
        for k in ("int", "report", "packet", "rx_ns"):
            if k in o:
                res[i][k] = o[k]
    for line in open(err_path):
        m = line.rstrip("\n").split(": ", 2)
        if len(m) == 3 and m[0].startswith("frame ") and m[1] == "INT not decoded":
            text = m[2].replace(" (snapshot length)", "")
            res[int(m[0][6:]) - 1]["error"] = text
    return res

# ------------------------------------------------------------------- diff


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append("%s.%s: expected absent, observed %s" % (path, k, json.dumps(b[k])))
            elif k not in b:
                out.append("%s.%s: expected %s, observed absent" % (path, k, json.dumps(a[k])))
            else:
                diff(a[k], b[k], "%s.%s" % (path, k), out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: expected %d entries, observed %d" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: expected %s, observed %s" % (path, json.dumps(a), json.dumps(b)))


def main():
    cmd = sys.argv[1]
    if cmd == "write":
        # One capture per case, and the cases of each source-only word
        # count together in all-N.pcap (one tshark run decodes them all).
        d = sys.argv[2]
        groups = {}
        with open(d + "/cases", "w") as cf:
            for c in cases():
                name, kind, pk = c[:3]
                src_words = c[3] if len(c) > 3 else 0
                for i, (f, j) in enumerate(pk):
                    if "int" in j or "report" in j:
                        j["packet"] = pkt_info(ip_of(f if not isinstance(f, tuple) else f[0]))
                        j["rx_ns"] = (1764600000 + i) * 10**9
                frames = [(f, i) for i, (f, _) in enumerate(pk)]
                pcap("%s/%s.pcap" % (d, name), frames)
                with open("%s/%s.expect.json" % (d, name), "w") as f:
                    json.dump([j for _, j in pk], f)
                g = groups.setdefault(src_words, [])
                cf.write("%s %s %d %d %d\n" % (name, kind, src_words, len(g), len(pk)))
                g += frames
        for n, frames in groups.items():
            pcap("%s/all-%d.pcap" % (d, n), frames)
        with open(d + "/groups", "w") as gf:
            for n, frames in groups.items():
                gf.write("%d %d\n" % (n, len(frames)))
    elif cmd == "from-tshark":
        json.dump(from_tshark(sys.argv[2]), sys.stdout)
    elif cmd == "from-hopmark":
        json.dump(from_hopmark(int(sys.argv[2]), sys.argv[3], sys.argv[4]), sys.stdout)
    elif cmd == "diff":
        a = json.load(open(sys.argv[2]))
        b = json.load(open(sys.argv[3]))
        keys = sys.argv[4].split(",") if len(sys.argv) > 4 else None
        if len(sys.argv) > 6:	# frames FIRST (0-based), COUNT of OBSERVED
            first, count = int(sys.argv[5]), int(sys.argv[6])
            b = b[first:first + count]
        out = []
        skip = "--skip-withheld" in sys.argv
        if skip:	# frames tshark's TCP/UDP kept to itself: not compared
            n = sum(1 for y in b if "withheld" in y)
            a = [x for x, y in zip(a, b) if "withheld" not in y]
            b = [y for y in b if "withheld" not in y]
            print("# %d frames compared, %d whose payload tshark's TCP/UDP dissector "
                  "withheld skipped" % (len(b), n), file=sys.stderr)
        if len(a) != len(b):
            out.append("expected %d frames, observed %d" % (len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            if keys:
                x = {k: v for k, v in x.items() if k in keys}
                y = {k: v for k, v in y.items() if k in keys}
            diff(x, y, "frame %d" % (i + 1), out)
        for line in out:
            print(line)
        sys.exit(1 if out else 0)
    else:
        sys.exit("usage: see the docstring")


if __name__ == "__main__":
    main()
