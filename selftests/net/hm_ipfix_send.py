#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hm_ipfix_send.py - IPFIX messages for test_collector_input.sh, written
# octet by octet from RFC 7011 §3 (not with hopmark's code): hopmark's
# IPv4 postcard template (the layout of collector/tests/ipfix_craft.h:
# observationTimeNanoseconds, hopmarkNodeId, hopmarkPacketId,
# hopmarkObservationPoint, ipTTL, source/destinationIPv4Address,
# protocolIdentifier, source/destinationTransportPort, ingress/
# egressInterface, hopmarkQueueDepthOctets, hopmarkPostcardFlags,
# hopmarkPostcardSource) and the bad messages the test sends.
#
#   hm_ipfix_send.py CASE HOST PORT [SRC_PORT]
import socket
import struct
import sys
import time

PEN = 32473
NTP = 2208988800
HEAD, END = 4, 8
FIELDS = [(325, 8, 0), (2, 4, 1), (1, 4, 1), (3, 1, 1), (192, 1, 0), (8, 4, 0),
          (12, 4, 0), (4, 1, 0), (7, 2, 0), (11, 2, 0), (10, 4, 0), (14, 4, 0),
          (4, 4, 1), (6, 2, 1), (5, 1, 1)]


def msg(sets, seq=0, domain=7):
    body = b"".join(sets)
    return struct.pack(">HHIII", 10, 16 + len(body), 1764620000, seq, domain) + body


def set_(sid, body):
    return struct.pack(">HH", sid, 4 + len(body)) + body


def template(tid=256, n=15):
    b = struct.pack(">HH", tid, n)
    for fid, flen, ent in FIELDS[:n]:
        b += struct.pack(">HH", fid | 0x8000, flen) + struct.pack(">I", PEN) if ent \
            else struct.pack(">HH", fid, flen)
    return set_(2, b)


def record(node, pkt, point, ttl, flags, ts_ns, n=15):
    sec, ns = divmod(ts_ns, 10**9)
    frac = -(-(ns << 32) // 10**9)
    r = struct.pack(">IIIIBBIIBHHIIIHB", sec + NTP, frac, node, pkt, point, ttl,
                    0xc0000201, 0xc6336402, 17, 10001, 5201, 3, 4, 100, flags, 1)
    return r if n == 15 else r[:-1]


def packet(pkt, t0):
    """The 4 postcards of one packet: A (head) -> R -> B (end)."""
    return (record(1, pkt, 2, 64, HEAD, t0 + 100) + record(2, pkt, 1, 64, 0, t0 + 1000) +
            record(2, pkt, 2, 63, 0, t0 + 1500) + record(3, pkt, 1, 63, END, t0 + 2500))


def main():
    case, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    src = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    t0 = time.time_ns()
    dst = (host, port)

    def udp(data, sport=src):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", sport))
        s.sendto(data, dst)
        s.close()

    if case == "good":
        udp(msg([template(), set_(256, packet(int(sys.argv[5]), t0))]))
    elif case == "truncated":
        udp(msg([template(), set_(256, packet(99, t0))])[:-10])
    elif case == "huge_set":
        m = bytearray(msg([template(), set_(256, packet(98, t0))]))
        off = len(template()) + 16
        m[off + 2:off + 4] = b"\xff\xff"
        udp(bytes(m))
    elif case == "changed":
        # the same Template ID, without hopmarkPostcardSource
        udp(msg([template(256, 14), set_(256, record(1, 2, 2, 64, HEAD, t0, 14))]))
    elif case == "withdraw":
        udp(msg([set_(2, struct.pack(">HH", 256, 0))]))
        udp(msg([set_(256, packet(97, t0))]))
    elif case == "before_template":
        udp(msg([set_(256, packet(96, t0))]))
    elif case == "flood":
        for i in range(int(sys.argv[5])):
            udp(msg([set_(256, packet(1000 + i, t0))]), src + i)
    elif case == "tcp_good":
        s = socket.create_connection(dst)
        m = msg([template(), set_(256, packet(int(sys.argv[5]), t0))])
        s.sendall(m[:7])          # a message cut across two reads
        time.sleep(0.05)
        s.sendall(m[7:])
        time.sleep(0.1)
        s.close()
    elif case == "tcp_garbage":
        s = socket.create_connection(dst)
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        time.sleep(0.1)
        s.close()
    else:
        sys.exit("unknown case " + case)


main()
