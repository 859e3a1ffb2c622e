#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""ipfix_gate.py - an IPFIX-over-UDP gate for selftests/net/test_ipfix_refresh.sh
(standard library only; the RFC 7011 decoder is pbt_e2e.py's Ipfix).

  ipfix_gate.py LISTEN_PORT TO_HOST:TO_PORT --stats FILE [--bind ADDR]

Receives an exporter's messages on LISTEN_PORT and starts closed: it reads
them (learning the templates) but forwards nothing, as if no collector
listened. SIGUSR1 opens it: from then on every message goes to
TO_HOST:TO_PORT unchanged, from one socket, so the collector behind sees
one Transport Session that started in the middle of the exporter's. SIGUSR2
closes it again and ends the phase (the collector behind is replaced
before the next SIGUSR1). SIGTERM: write FILE and exit.

For each phase (one opening) the gate computes what a collector that
received exactly the forwarded messages must count (RFC 7011 §8: a Data
Set whose template that collector has not received cannot be decoded):
  no_template_sets	Data Sets forwarded before their Template Record,
			the Sets it must skip (hopmark-collector's
			ipfix.no_template)
  dropped_records	the Data Records in those Sets (the gate knows their
			templates from before the opening)
  postcards		Data Records it can decode of hopmark's postcard
			templates (256-262, lib/ipfix/ipfix_ie.h), its
			ipfix.postcards
  postcard_ids		their (domain, hopmarkPacketId) pairs
  opened, first_template, first_decoded	POSIX times of the opening, of
			the first Template Set forwarded and of the first
			decodable postcard
and, over the whole run, template_times: the POSIX times of every message
with a Template Set the exporter sent (its refreshes, RFC 7011 §8.4).
"""
import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbt_e2e import Ipfix, SET_TEMPLATE, SET_OPTIONS_TEMPLATE  # noqa: E402

POSTCARD_TIDS = range(256, 263)


def sets_of(msg):
    """[(set ID, body)] of an IPFIX Message, in order."""
    out = []
    if len(msg) < 16:
        return out
    length = struct.unpack("!H", msg[2:4])[0]
    off = 16
    while off + 4 <= min(length, len(msg)):
        sid, slen = struct.unpack("!HH", msg[off:off + 4])
        if slen < 4 or off + slen > length:
            break
        out.append((sid, msg[off + 4:off + slen]))
        off += slen
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("to")
    p.add_argument("--bind", default="0.0.0.0")
    p.add_argument("--stats", required=True)
    a = p.parse_args()
    host, port = a.to.rsplit(":", 1)
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    rx.bind((a.bind, a.port))
    tx = None
    full = Ipfix()		# every message: the exporter's templates
    view = None		# the messages of this phase: the collector's templates
    state = {"open": False, "stop": False, "changed": False}
    phases, tpl_times = [], []
    ph = None

    def on(sig, _f):
        if sig == signal.SIGUSR1:
            state["open"] = True
        elif sig == signal.SIGUSR2:
            state["open"] = False
        else:
            state["stop"] = True
        state["changed"] = True
    for s in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT):
        signal.signal(s, on)

    while not state["stop"]:
        if state["changed"]:
            state["changed"] = False
            if state["open"] and ph is None:
                tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                view = Ipfix()
                ph = {"opened": time.time(), "first_template": None, "first_decoded": None,
                      "messages": 0, "no_template_sets": 0, "dropped_records": 0,
                      "postcards": 0, "postcard_ids": []}
                phases.append(ph)
            elif not state["open"] and ph is not None:
                tx.close()
                tx, view, ph = None, None, None
        try:
            r, _, _ = select.select([rx], [], [], 0.05)
        except InterruptedError:
            continue
        if not r:
            continue
        try:
            msg = rx.recv(65536)
        except InterruptedError:
            continue
        now = time.time()
        sets = sets_of(msg)
        if any(sid in (SET_TEMPLATE, SET_OPTIONS_TEMPLATE) for sid, _ in sets):
            tpl_times.append(now)
        full.parse(msg)
        if ph is None:
            continue
        tx.sendto(msg, (host, int(port)))
        ph["messages"] += 1
        dom = struct.unpack("!I", msg[12:16])[0]
        # The collector's walk: Sets in order, templates learnt as they come.
        for sid, body in sets:
            if sid in (SET_TEMPLATE, SET_OPTIONS_TEMPLATE):
                view._templates(dom, sid, body)
                if ph["first_template"] is None:
                    ph["first_template"] = now
            elif sid >= 256:
                n = full._count(dom, sid, body)
                if (dom, sid) not in view.templates:
                    ph["no_template_sets"] += 1
                    ph["dropped_records"] += n
                elif sid in POSTCARD_TIDS:
                    ph["postcards"] += n
                    if n and ph["first_decoded"] is None:
                        ph["first_decoded"] = now
        ids = [[dom, i] for i, _pt in view.postcards(msg)]
        ph["postcard_ids"] += ids
    with open(a.stats, "w") as f:
        json.dump({"phases": phases, "template_times": tpl_times}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
