#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_dp_pkt.py - UDP traffic with IPv6 extension headers for the datapath tests.

Runs inside one network namespace (ip netns exec). Standard library only.

  hm_dp_pkt.py send DST PORT [--count N] [--payload BYTES] [--sport P ...]
                    [--hbh HEX] [--rthdr HEX] [--interval S]
      Sends COUNT datagrams per source port, round robin over the ports.
      --hbh / --rthdr set a sticky Hop-by-Hop / Routing header (the kernel
      puts an SRH's DST in Segment List[0] and sends to the active segment).
      Payload: 4-byte source port index, 4-byte packet index, then a fixed
      pattern, so a receiver can tell it arrived unchanged.
      Prints {"sent": N, "t0_ns": .., "t1_ns": ..} on stdout.

  hm_dp_pkt.py recv PORT --count N [--timeout S]
      Prints "READY", then one JSON object per datagram: source address and
      port, payload length and whether the pattern is intact, the flow and
      packet index, the Hop-by-Hop and Routing headers as delivered (hex,
      "" when absent) and the receive time.

  hm_dp_pkt.py tcp-send DST PORT --bytes N
  hm_dp_pkt.py tcp-recv PORT --bytes N [--timeout S]
      One TCP connection carrying N bytes of a fixed pattern (the kernel
      sends it as GSO packets where the device allows). The receiver prints
      "READY", then {"bytes": received, "sha256": ..}; the sender
      {"sent": N, "sha256": ..}.

  hm_dp_pkt.py nd DST --dev IFNAME [--count N] [--link-local]
      Sends COUNT unicast Neighbor Solicitations for DST to DST (a NUD
      probe, RFC 4861 §7.3.3; hop limit 255) out of IFNAME, from the
      interface's link-local address with --link-local, else from the
      address the kernel picks. Prints {"sent": N}.
"""
import argparse
import hashlib
import json
import select
import socket
import struct
import sys
import time

IPV6_RECVHOPOPTS = 53
IPV6_HOPOPTS = 54
IPV6_RECVRTHDR = 56
IPV6_RTHDR = 57
SO_RCVBUFFORCE = 33


def payload(flow, index, size):
    head = struct.pack("!II", flow, index)
    pat = bytes((i * 7 + 3) & 0xff for i in range(max(size - 8, 0)))
    return (head + pat)[:max(size, 8)]


def cmd_send(a):
    socks = []
    for sport in a.sport:
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        s.bind(("::", sport))
        if a.hbh:
            s.setsockopt(socket.IPPROTO_IPV6, IPV6_HOPOPTS, bytes.fromhex(a.hbh))
        if a.rthdr:
            s.setsockopt(socket.IPPROTO_IPV6, IPV6_RTHDR, bytes.fromhex(a.rthdr))
        s.connect((a.dst, a.port))
        socks.append(s)
    t0 = time.time_ns()
    sent = 0
    for i in range(a.count):
        for f, s in enumerate(socks):
            while True:
                try:
                    s.send(payload(f, i, a.payload))
                    break
                except BlockingIOError:
                    time.sleep(0.001)
                except OSError as e:
                    # A full queue on a slow emulated link: wait, retry.
                    if e.errno == 105:
                        time.sleep(0.001)
                        continue
                    raise
            sent += 1
        if a.interval:
            time.sleep(a.interval)
    t1 = time.time_ns()
    print(json.dumps({"sent": sent, "t0_ns": t0, "t1_ns": t1}))


def tcp_pattern(n):
    block = bytes((i * 13 + 5) & 0xff for i in range(65536))
    return (block * (n // len(block) + 1))[:n]


def cmd_tcp_send(a):
    data = tcp_pattern(a.bytes)
    s = socket.create_connection((a.dst, a.port), timeout=60)
    s.sendall(data)
    s.close()
    print(json.dumps({"sent": len(data), "sha256": hashlib.sha256(data).hexdigest()}))


def cmd_tcp_recv(a):
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("::", a.port))
    ls.listen(1)
    ls.settimeout(a.timeout)
    print("READY", flush=True)
    h, got = hashlib.sha256(), 0
    try:
        c, _ = ls.accept()
        c.settimeout(a.timeout)
        while got < a.bytes:
            b = c.recv(1 << 20)
            if not b:
                break
            h.update(b)
            got += len(b)
    except socket.timeout:
        pass
    print(json.dumps({"bytes": got, "sha256": h.hexdigest()}))


def link_local(dev):
    """The fe80:: address of @dev, from /proc/net/if_inet6 (scope 0x20)."""
    with open("/proc/net/if_inet6") as f:
        for line in f:
            addr, _, _, scope, _, name = line.split()
            if name == dev and scope == "20":
                return socket.inet_ntop(socket.AF_INET6, bytes.fromhex(addr))
    raise RuntimeError("no link-local address on " + dev)


def cmd_nd(a):
    ifindex = socket.if_nametoindex(a.dev)
    s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 255)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, a.dev.encode())
    if a.link_local:
        s.bind((link_local(a.dev), 0, 0, ifindex))
    # Type 135, code 0, checksum (the kernel fills it), reserved, target.
    ns = struct.pack("!BBHI", 135, 0, 0, 0) + socket.inet_pton(socket.AF_INET6, a.dst)
    for _ in range(a.count):
        s.sendto(ns, (a.dst, 0, 0, ifindex))
    print(json.dumps({"sent": a.count}))


def cmd_recv(a):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 20)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVHOPOPTS, 1)
    s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVRTHDR, 1)
    s.bind(("::", a.port))
    print("READY", flush=True)
    got = 0
    deadline = time.time() + a.timeout
    while got < a.count:
        left = deadline - time.time()
        if left <= 0:
            break
        r, _, _ = select.select([s], [], [], left)
        if not r:
            break
        data, anc, _, src = s.recvmsg(65536, 4096)
        rx = time.time_ns()
        hbh = rthdr = ""
        for level, typ, val in anc:
            if level == socket.IPPROTO_IPV6 and typ == IPV6_HOPOPTS:
                hbh = val.hex()
            elif level == socket.IPPROTO_IPV6 and typ == IPV6_RTHDR:
                rthdr = val.hex()
        flow, index = struct.unpack("!II", data[:8]) if len(data) >= 8 else (-1, -1)
        intact = data == payload(flow, index, len(data))
        print(json.dumps({"src": src[0], "sport": src[1], "len": len(data),
                          "intact": intact, "flow": flow, "index": index,
                          "hbh": hbh, "rthdr": rthdr, "rx_ns": rx}),
              flush=True)
        got += 1


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    ps = sub.add_parser("send")
    ps.add_argument("dst")
    ps.add_argument("port", type=int)
    ps.add_argument("--count", type=int, default=1)
    ps.add_argument("--payload", type=int, default=64)
    ps.add_argument("--sport", type=int, action="append")
    ps.add_argument("--hbh")
    ps.add_argument("--rthdr")
    ps.add_argument("--interval", type=float, default=0.0)
    pr = sub.add_parser("recv")
    pr.add_argument("port", type=int)
    pr.add_argument("--count", type=int, required=True)
    pr.add_argument("--timeout", type=float, default=10.0)
    pt = sub.add_parser("tcp-send")
    pt.add_argument("dst")
    pt.add_argument("port", type=int)
    pt.add_argument("--bytes", type=int, required=True)
    pr2 = sub.add_parser("tcp-recv")
    pr2.add_argument("port", type=int)
    pr2.add_argument("--bytes", type=int, required=True)
    pr2.add_argument("--timeout", type=float, default=60.0)
    pn = sub.add_parser("nd")
    pn.add_argument("dst")
    pn.add_argument("--dev", required=True)
    pn.add_argument("--count", type=int, default=1)
    pn.add_argument("--link-local", action="store_true")
    a = p.parse_args()
    if a.cmd == "send":
        if not a.sport:
            a.sport = [40000]
        cmd_send(a)
    elif a.cmd == "nd":
        cmd_nd(a)
    elif a.cmd == "tcp-send":
        cmd_tcp_send(a)
    elif a.cmd == "tcp-recv":
        cmd_tcp_recv(a)
    else:
        cmd_recv(a)


if __name__ == "__main__":
    sys.exit(main())
