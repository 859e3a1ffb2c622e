#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_monitor_bin.py - a client of hopmarkd's monitor socket written from
its documentation alone (lib/common/monitor_proto.h, lib/ioam/record_wire.h,
Documentation/agent.rst "Monitor socket protocol"), so that a test checks
the bytes against the document, not against the C code that made them.

  hm_monitor_bin.py read SOCK N OUT      binary stream: N records, decoded by
                                         the documented layout, to OUT as one
                                         JSON object per line ({"lines": [...]}
                                         first, the JSON lines before the ack)
  hm_monitor_bin.py request SOCK LINE    send LINE (Python escapes, e.g.
                                         'hopmark-monitor binary 2\\n') as the
                                         first line, print what comes back
                                         until EOF (5 s at most) as JSON
  hm_monitor_bin.py stall SOCK GO OUT    ask for the binary stream, read the
                                         ack, then read nothing until file GO
                                         exists; then read to EOF and write
                                         {"ack": .., "frames": N, "tail": B,
                                         "eof": bool} to OUT
"""
import json
import os
import socket
import struct
import sys
import time

REQ = b"hopmark-monitor binary 1\n"
ACK = b"hopmark-monitor binary 1 ok\n"
FRAME = struct.Struct(">IHH")              # len, type, reserved
HDR = struct.Struct(">QIIHHBBBBII16s16sIHBBHHI")   # 80 octets
NODE = struct.Struct(">IBBHHHIIIIIIIIIIIQQ")       # 72 octets
T_RECORD, T_JSON_LINE = 1, 2
HDR_KEYS = ("rx_ns", "ifindex", "sink_node_id", "sink_if_id", "ns_id", "nodelen",
            "remlen", "overflow", "n_nodes", "trace_type", "data_len", "saddr",
            "daddr", "flow_label", "payload_len", "hop_limit", "proto", "sport",
            "dport", "reserved")
NODE_KEYS = ("present", "hop_limit", "opaque_len", "ingress_if", "egress_if",
             "reserved", "node_id", "ts_sec", "ts_frac", "transit_delay", "ns_data",
             "queue_depth", "csum_compl", "ingress_if_wide", "egress_if_wide",
             "buffer_occupancy", "opaque_schema", "node_id_wide", "ns_data_wide")


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def decode_record(b):
    assert HDR.size == 80 and NODE.size == 72
    h = dict(zip(HDR_KEYS, HDR.unpack_from(b, 0)))
    if len(b) != 80 + 72 * h["n_nodes"]:
        raise ValueError("record of %d bytes for %d nodes" % (len(b), h["n_nodes"]))
    h["saddr"] = socket.inet_ntop(socket.AF_INET6, h["saddr"])
    h["daddr"] = socket.inet_ntop(socket.AF_INET6, h["daddr"])
    h["nodes"] = [dict(zip(NODE_KEYS, NODE.unpack_from(b, 80 + 72 * i)))
                  for i in range(h["n_nodes"])]
    return h


class Reader:
    def __init__(self, s):
        self.s = s
        self.buf = b""
        self.eof = False

    def fill(self):
        d = self.s.recv(1 << 16)
        if not d:
            self.eof = True
        self.buf += d
        return bool(d)

    def line(self):
        while b"\n" not in self.buf:
            if not self.fill():
                return None
        l, _, self.buf = self.buf.partition(b"\n")
        return l + b"\n"

    def frame(self):
        while len(self.buf) < FRAME.size or \
                len(self.buf) < FRAME.size + FRAME.unpack_from(self.buf)[0]:
            if not self.fill():
                return None
        n, t, r = FRAME.unpack_from(self.buf)
        p = self.buf[FRAME.size:FRAME.size + n]
        self.buf = self.buf[FRAME.size + n:]
        return t, r, p


def cmd_read(path, n, out):
    s = connect(path)
    s.settimeout(20)
    s.sendall(REQ)
    r = Reader(s)
    lines = []
    while True:
        l = r.line()
        if l is None:
            sys.exit("EOF before the acknowledgement")
        if l == ACK:
            break
        lines.append(l.decode())
    with open(out, "w") as f:
        f.write(json.dumps({"lines": lines}) + "\n")
        got = 0
        while got < n:
            fr = r.frame()
            if fr is None:
                sys.exit("EOF after %d records" % got)
            t, res, p = fr
            if res:
                sys.exit("frame reserved field %#x" % res)
            if t == T_RECORD:
                f.write(json.dumps(decode_record(p)) + "\n")
                got += 1
            elif t == T_JSON_LINE:
                f.write(json.dumps({"json_line": p.decode()}) + "\n")


def cmd_request(path, line):
    s = connect(path)
    s.settimeout(5)
    s.sendall(line.encode().decode("unicode_escape").encode("latin-1"))
    r = Reader(s)
    t0 = time.time()
    try:
        while not r.eof and time.time() - t0 < 5:
            r.fill()
    except socket.timeout:
        pass
    except ConnectionResetError:
        r.eof = "reset"
    print(json.dumps({"reply": r.buf.decode("latin-1"), "eof": r.eof}))


def cmd_stall(path, go, out):
    s = connect(path)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(30)
    s.sendall(REQ)
    r = Reader(s)
    ack = r.line()
    while not os.path.exists(go):
        time.sleep(0.05)
    frames = 0
    while True:
        fr = r.frame()
        if fr is None:
            break
        frames += 1
    print(json.dumps({"ack": ack == ACK, "frames": frames, "tail": len(r.buf),
                      "eof": r.eof}), file=open(out, "w"))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "read":
        cmd_read(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "request":
        cmd_request(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "stall":
        cmd_stall(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
