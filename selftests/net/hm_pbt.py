#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_pbt.py - traffic and capture checks of selftests/net/test_pbt_mark.sh.

  hm_pbt.py send FAMILY DST SPORT DPORT COUNT PPS [--ce-first] [--ecn E]
	COUNT UDP datagrams from SPORT to DST:DPORT (FAMILY 4 or 6), at PPS
	per second (paced on CLOCK_MONOTONIC), each with a payload naming
	its index ("pbt DPORT INDEX" padded to 64 octets), so that every
	packet differs; --ce-first sends the first with ECN CE (TOS /
	Traffic Class 0x03), --ecn E all with ECN codepoint E. Prints the
	seconds the sending took.
  hm_pbt.py check IN MID OUT METHOD BIT DPORT COUNT
	one "name<TAB>expected<TAB>observed" line per check (hm_checks_from)
	over three pcap files: IN, the domain's ingress (the head node's
	receiving interface), MID, a link inside the domain, OUT, the
	domain's egress (the end node's sending interface), for the UDP
	packets to DPORT. METHOD is v4rsvd, v4tos, v6tc or v6oflag, BIT the
	TOS / Traffic Class bit. Checks: COUNT packets at each point, every
	one marked inside (MID) and none outside (IN, OUT), the IPv4 header
	checksums valid, and OUT equal to IN octet for octet from the IP
	header on, once TTL / Hop Limit and the IPv4 header checksum (which
	forwarding changes) are set to 0 on both sides.
  hm_pbt.py marks MID DPORT METHOD BIT
	"MARKED TOTAL FIRST_NS LAST_NS" of the UDP packets to DPORT in MID:
	how many carry the mark, and the capture times of the first and last
	packet (marked or not).
  hm_pbt.py marked-flows MID METHOD BIT DPORT...
	per DPORT "DPORT MARKED TOTAL".
  hm_pbt.py meter MID DPORT METHOD BIT RATE BURST
	"name<TAB>expected<TAB>observed" lines (hm_checks_from) of the head's
	meter (RATE packets/s, BURST packets) over the UDP packets to DPORT
	in MID: the marked count is what the token bucket, replayed over the
	packets' capture times, allows (meter_replay()), and never more than
	BURST + RATE x the time from the first packet to the last.

Standard library only (Debian's python3). Where the mark is: lib/pbt/pbt_mark.h
(IPv4 Flags 0x8000 or a TOS bit; IPv6 Traffic Class bit; the SRH O-flag
0x20 of its Flags octet, RFC 9259).
"""
import socket
import struct
import sys
import time

SRH_FLAG_O = 0x20
IPPROTO_ROUTING = 43
IPPROTO_UDP = 17


def pcap_packets(path):
    """(ts_ns, ip_bytes) of every Ethernet frame of a pcap file."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return out
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = "<"
    else:
        end = ">"
        magic = struct.unpack(">I", data[:4])[0]
    nano = magic == 0xa1b23c4d
    linktype = struct.unpack(end + "I", data[20:24])[0]
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        frame = data[off:off + incl]
        off += incl
        ts = sec * 10**9 + (frac if nano else frac * 1000)
        if linktype == 1:		# Ethernet
            if len(frame) < 14:
                continue
            etype = struct.unpack(">H", frame[12:14])[0]
            ip = frame[14:]
        elif linktype == 113:		# Linux cooked (tcpdump -i any)
            etype = struct.unpack(">H", frame[14:16])[0]
            ip = frame[16:]
        else:
            continue
        if etype in (0x0800, 0x86dd):
            out.append((ts, ip))
    return out


def udp_of(ip):
    """(family, dport, srh_off or None, l4 offset) of a UDP packet, else None."""
    v = ip[0] >> 4
    if v == 4:
        ihl = (ip[0] & 0xf) * 4
        if ip[9] != IPPROTO_UDP or len(ip) < ihl + 8:
            return None
        return 4, struct.unpack(">H", ip[ihl + 2:ihl + 4])[0], None, ihl
    if v == 6:
        nh, off, srh = ip[6], 40, None
        while nh in (0, 43, 60) and len(ip) >= off + 8:
            if nh == IPPROTO_ROUTING and ip[off + 2] == 4:
                srh = off
            nh, off = ip[off], off + (ip[off + 1] + 1) * 8
        if nh != IPPROTO_UDP or len(ip) < off + 8:
            return None
        return 6, struct.unpack(">H", ip[off + 2:off + 4])[0], srh, off
    return None


def marked(ip, method, bit):
    u = udp_of(ip)
    if method == "v4rsvd":
        return bool(struct.unpack(">H", ip[6:8])[0] & 0x8000)
    if method == "v4tos":
        return bool(ip[1] & bit)
    tc = (struct.unpack(">H", ip[0:2])[0] >> 4) & 0xff
    if method == "v6oflag" and u and u[2] is not None:
        return bool(ip[u[2] + 5] & SRH_FLAG_O)
    return bool(tc & bit)


def csum16(data):
    if len(data) % 2:
        data += b"\x00"
    s = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def normalised(ip):
    """The packet with TTL / Hop Limit and the IPv4 header checksum at 0."""
    b = bytearray(ip)
    if b[0] >> 4 == 4:
        b[8] = 0
        b[10:12] = b"\x00\x00"
    else:
        b[7] = 0
    return bytes(b)


def of_port(path, dport):
    return [(ts, ip) for ts, ip in pcap_packets(path)
            if (udp_of(ip) or (0, -1))[1] == dport]


def cmd_send(a):
    fam, dst, sport, dport, count, pps = (int(a[0]), a[1], int(a[2]), int(a[3]),
                                          int(a[4]), float(a[5]))
    ce_first = "--ce-first" in a
    ecn = int(a[a.index("--ecn") + 1]) if "--ecn" in a else 0
    af = socket.AF_INET if fam == 4 else socket.AF_INET6
    s = socket.socket(af, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0" if fam == 4 else "::", sport))
    lvl, opt = ((socket.IPPROTO_IP, socket.IP_TOS) if fam == 4 else
                (socket.IPPROTO_IPV6, socket.IPV6_TCLASS))
    start = time.monotonic()
    for i in range(count):
        tos = 3 if (ce_first and i == 0) else ecn
        s.setsockopt(lvl, opt, tos)
        payload = ("pbt %d %d " % (dport, i)).encode().ljust(64, b".")
        s.sendto(payload, (dst, dport))
        nxt = start + (i + 1) / pps
        while time.monotonic() < nxt:
            d = nxt - time.monotonic()
            if d > 0.002:
                time.sleep(d - 0.001)
    print("%.6f" % (time.monotonic() - start))


def cmd_check(a):
    fin, fmid, fout, method, bit, dport, count = (a[0], a[1], a[2], a[3], int(a[4], 0),
                                                  int(a[5]), int(a[6]))
    pin, pmid, pout = (of_port(f, dport) for f in (fin, fmid, fout))
    tag = "%s_%d" % (method, dport)
    res = []
    res.append(("packets_at_ingress_mid_egress", "%d %d %d" % (count, count, count),
                "%d %d %d" % (len(pin), len(pmid), len(pout))))
    res.append(("every_packet_marked_inside", str(count),
                str(sum(marked(ip, method, bit) for _, ip in pmid))))
    res.append(("none_marked_entering", "0", str(sum(marked(ip, method, bit) for _, ip in pin))))
    res.append(("none_marked_leaving_the_domain", "0",
                str(sum(marked(ip, method, bit) for _, ip in pout))))
    if method.startswith("v4"):
        bad = sum(csum16(ip[:(ip[0] & 0xf) * 4]) != 0xffff for _, ip in pmid + pout)
        res.append(("ipv4_header_checksums_valid_inside_and_leaving", "0 bad", "%d bad" % bad))
    # The same packets in the same order, octet for octet but TTL and checksum.
    diff = []
    for i, ((_, x), (_, y)) in enumerate(zip(pin, pout)):
        if normalised(x) != normalised(y):
            nx, ny = normalised(x), normalised(y)
            at = next((j for j in range(min(len(nx), len(ny))) if nx[j] != ny[j]),
                      min(len(nx), len(ny)))
            diff.append("packet %d differs at octet %d (%d vs %d octets)" %
                        (i, at, len(nx), len(ny)))
    obs = "equal" if not diff and len(pin) == len(pout) else \
        "; ".join(diff[:3]) or "%d vs %d packets" % (len(pin), len(pout))
    res.append(("egress_equals_ingress_but_ttl_and_checksum", "equal", obs))
    # TTL / Hop Limit: the domain's three hops.
    hl = lambda ip: ip[8] if ip[0] >> 4 == 4 else ip[7]
    res.append(("ttl_decremented_by_the_domain_hops", "3",
                " ".join(sorted(set(str(hl(x) - hl(y)) for (_, x), (_, y) in zip(pin, pout))))
                or "none"))
    for name, exp, obs in res:
        print("pbt_mark_%s_%s\t%s\t%s" % (tag, name, exp, obs))


def cmd_marks(a):
    pk = of_port(a[0], int(a[1]))
    m = sum(marked(ip, a[2], int(a[3], 0)) for _, ip in pk)
    print(m, len(pk), pk[0][0] if pk else 0, pk[-1][0] if pk else 0)


def cmd_marked_flows(a):
    pk = pcap_packets(a[0])
    for p in a[3:]:
        sel = [ip for _, ip in pk if (udp_of(ip) or (0, -1))[1] == int(p)]
        print(p, sum(marked(ip, a[1], int(a[2], 0)) for ip in sel), len(sel))


PBT_TOKEN = 1024	# bpf/hopmark_pbt.bpf.c: a meter token is 1/1024 packet
METER_CLOCK_NS = 1000000	# the capture's time of a packet vs the meter's, at most


def meter_replay(times, rate, burst):
    """pbt_meter_take() (bpf/hopmark_pbt.bpf.c), its integer arithmetic
    included, over arrival times in ns of a bucket that starts full: the
    packets it marks and the arrivals whose refill overflowed the bucket."""
    cap = (burst or 1) * PBT_TOKEN
    tok, last, marks, overflows = cap, None, 0, 0
    for t in times:
        if last is not None and t > last:
            dt = t - last
            add = cap if dt > 4000000000 else dt * rate // 1000 * PBT_TOKEN // 1000000
            overflows += tok + add > cap
            tok = min(cap, tok + add)
        if last is None or t > last:
            last = t
        if tok >= PBT_TOKEN:
            tok -= PBT_TOKEN
            marks += 1
    return marks, overflows


def cmd_meter(a):
    pk = of_port(a[0], int(a[1]))
    method, bit, rate, burst = a[2], int(a[3], 0), int(a[4]), int(a[5])
    m = sum(marked(ip, method, bit) for _, ip in pk)
    want, over = meter_replay([t for t, _ in pk], rate, burst)
    # The marked count is no sample: given the arrival times it is what
    # the bucket allows, and the replay differs from the datapath only by
    # the times it uses. (1) At each of the N arrivals both truncate the
    # refill to a whole token, 1/1024 packet: less than N / 1024 packets
    # apart in all. (2) The capture's time of a packet differs from the
    # meter's clock by at most METER_CLOCK_NS (assumed; B's veth stamps
    # it as A's veth hands it over, microseconds after A's tc egress):
    # the refills between two overflows (a full bucket forgets what came
    # before) add up to the time between their ends, at most 2 x
    # METER_CLOCK_NS x RATE packets apart per stretch, over + 1
    # stretches. (3) 1 for the last token. No wider band: a sender
    # stalled under load (no packet for longer than BURST / RATE) makes
    # the full bucket forget tokens, and the replay sees the same stall.
    tol = len(pk) // PBT_TOKEN + 1 + -(-(over + 1) * 2 * METER_CLOCK_NS * rate // 10**9)
    obs = "yes" if abs(m - want) <= tol else \
        "no: %d marked, the bucket allows %d (+- %d, %d overflows)" % (m, want, tol, over)
    print("pbt_meter_marked_as_the_bucket_replayed_over_the_arrivals\tyes\t%s" % obs)
    span = (pk[-1][0] - pk[0][0]) if pk else 0
    most = burst + rate * span // 10**9 + 1
    obs = "yes" if m <= most else "no: %d marked in %.3f s, at most %d" % (m, span / 1e9, most)
    print("pbt_meter_at_most_the_burst_plus_%d_per_s\tyes\t%s" % (rate, obs))
    print("meter: %d of %d marked in %.3f s, the bucket replayed: %d (+- %d), %d overflows" %
          (m, len(pk), span / 1e9, want, tol, over), file=sys.stderr)


def main():
    cmds = {"send": cmd_send, "check": cmd_check, "marks": cmd_marks,
            "marked-flows": cmd_marked_flows, "meter": cmd_meter}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
