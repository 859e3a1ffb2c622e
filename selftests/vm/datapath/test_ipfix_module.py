#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_ipfix_module.py - hopmark.ko's DEX and SRH O-flag postcards as IPFIX

The module's events leave through hopmarkd's IPFIX exporter
(agent/genl_events.c -> lib/postcard/pc_obs_from.c ->
lib/ipfix/ipfix_export.c, templates 260 and 261) and reach
hopmark-collector, on the five-node line A - R1 - R2 - R3 - B of the
datapath tests (namespaces "hmix-*"). Every exporting node (R1, R2, R3, B)
runs hopmark.ko's DEX / O-flag on its ingress and its own hopmarkd, which
exports over UDP, Observation Domain = node ID, through a management veth
to the VM's root namespace. There this test relays each exporter's
datagrams to hopmark-collector (JSON paths) and keeps them, one file per
exporter, for ipfixDump --rfc5610.

  phase 1, DEX: A's egress inserts the DEX option (RFC 9326; Trace-Type
    bits 0, 1, 2, 3, 5), two UDP flows of N packets; R1, R2, R3 and B
    export;
  phase 2, O-flag: A sends N UDP packets with an SRH (RFC 8754; Segment
    List [B, R3, R1], Segments Left 2, O-flag set, RFC 9259); R1, R3 and
    B are segment endpoints, R2 only forwards.

Checks (expected vs observed), against what the packets were:
  - the collector stitches every DEX packet (flow key, packet ID = the
    DEX Sequence Number 0..N-1 per flow) into the path R1 R2 R3 B (node
    IDs 2..5), with each node's ingress ifindex, the Hop Limit it
    received and an ingress time within the send window; every O-flag
    packet into R1 R3 B, its flow key's destination Segment List[0] (B);
  - ipfixDump reads each exporter's stream: template 260 records with the
    node ID, ingressInterface, IOAM-Namespace, Trace-Type, Sequence
    Number and ports; template 261 records with srhFlagsIPv6 0x20,
    srhSegmentsIPv6Left and srhActiveSegmentIPv6 as at that endpoint;
  - nothing was refused: the collector's no_template / not_postcard,
    hopmarkd's not_sent and postcards_not_ipfix are 0.

TAP; needs the VM tier (selftests/vm/run.sh: hopmark.ko on 6.1), the
built hopmark, hopmarkd, hopmark-collector, and ipfixDump (libfixbuf-tools).
"""
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hm_dp_lib  # noqa: E402
from hm_dp_lib import *  # noqa: E402,F401,F403

hm_dp_lib.PREFIX = "hmix-"	# namespaces of this test only

HM = os.path.join(REPO, "build/hopmark")
HMD = os.path.join(REPO, "build/hopmarkd")
COLL = os.path.join(REPO, "build/hopmark-collector")
PORT = 5007
N = 6
SPORTS = (42100, 42101)
TT = 0xf40000		# bits 0, 1, 2, 3, 5: 20 bytes of node data
EXPORTERS = ["r1", "r2", "r3", "b"]
IN_IF = {"r1": "r1-a", "r2": "r2-r1", "r3": "r3-r2", "b": "b-r3"}
A_ADDR = "2001:db8:1::1"
R1 = "2001:db8:1::2"
R3 = "2001:db8:3::2"
# Hop Limit in the headers each node saw (PRE_ROUTING: as received; A sends 64).
HLIM = {"r1": 64, "r2": 63, "r3": 62, "b": 61}
# O-flag: (active segment = destination on arrival, Segments Left) per endpoint.
OFLAG_AT = {"r1": (R1, 2), "r3": (R3, 1), "b": (B_ADDR, 0)}
# RFC 9487's elements (lib/ipfix/ipfix_ie.h): srhFlagsIPv6,
# srhSegmentsIPv6Left, srhActiveSegmentIPv6.
IE_SRH_FLAGS, IE_SRH_SL, IE_SRH_ACTIVE = 492, 498, 495
EXP_PORT = 4739
COLL_PORT = 4800


def mgmt_addr(node, side):
    """10.99.<node ID>.1 on the root side of the node's veth, .2 in it."""
    return "10.99.%d.%d" % (NODE_ID[node], side)


class Relay(threading.Thread):
    """UDP 0.0.0.0:EXP_PORT -> 127.0.0.1:COLL_PORT, one forwarding socket
    per exporter (so the collector sees one Transport Session each), and
    each exporter's datagrams appended to DIR/<address>.ipfix."""

    def __init__(self, d):
        super().__init__(daemon=True)
        self.d = d
        self.rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.rx.bind(("0.0.0.0", EXP_PORT))
        self.rx.settimeout(0.2)
        self.out = {}
        self.files = {}
        self.datagrams = 0
        self.stop = False

    def run(self):
        while not self.stop:
            try:
                data, src = self.rx.recvfrom(65535)
            except socket.timeout:
                continue
            if src[0] not in self.out:
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.connect(("127.0.0.1", COLL_PORT))
                self.out[src[0]] = s
                self.files[src[0]] = open(os.path.join(self.d, src[0] + ".ipfix"), "wb")
            self.files[src[0]].write(data)
            self.files[src[0]].flush()
            self.out[src[0]].send(data)
            self.datagrams += 1

    def close(self):
        self.stop = True
        self.join(5)
        for f in self.files.values():
            f.close()


def dump(path):
    """ipfixDump --rfc5610 of PATH: its data records as {IE name: value}."""
    r = run(["ipfixDump", "--rfc5610", "--hexdump=16", "-i", path], check=False)
    recs, cur = [], None
    for line in r.stdout.splitlines():
        if line.startswith("--- data record"):
            cur = {}
            recs.append(cur)
        elif line.startswith("---"):
            cur = None
        elif cur is not None:
            m = re.match(r"\s*\((\S+)\)\s+(\S+)\s*:\s*(.*)$", line)
            if m:
                cur[m.group(2)] = m.group(3).strip()
                cur["(%s)" % m.group(1)] = m.group(3).strip()
    return r.returncode, recs


def num(v):
    """An ipfixDump number: decimal or 0x hex."""
    try:
        return int(v, 0)
    except (TypeError, ValueError):
        return v


def addr(v):
    """An address as ipfixDump gives it, or an unnamed one's octets
    ("(len: 16) 0x2001...", with --hexdump)."""
    m = re.match(r"\(len: 16\) 0x([0-9a-f]{32})$", v or "")
    try:
        return str(ipaddress.ip_address(bytes.fromhex(m.group(1)) if m else v))
    except (TypeError, ValueError):
        return v


def srh(flags):
    """SRH for IPV6_RTHDR: the kernel writes the destination in Segment List[0]."""
    segs = ["::", R3, R1]
    h = bytes([0, 2 * len(segs), 4, len(segs) - 1, len(segs) - 1, flags, 0, 0])
    for s in segs:
        h += ipaddress.IPv6Address(s).packed
    return h.hex()


def wait_file(path, pattern, secs):
    end = time.time() + secs
    while time.time() < end:
        try:
            if re.search(pattern, open(path).read()):
                return True
        except OSError:
            pass
        time.sleep(0.1)
    return False


def main():
    if not os.environ.get("HM_VM"):
        skip("needs the VM tier (selftests/vm/run.sh): the host cannot load modules")
    for t in ("ipfixDump", "nsenter", "ss"):
        if not shutil.which(t):
            skip("needs %s" % t)
    for f in (HM, HMD, COLL):
        if not os.path.exists(f):
            skip("not built: %s (make all)" % f)
    tap = Tap(14)
    load_module()
    work = tempfile.mkdtemp(prefix="hmix.")
    procs = {}
    relay = None
    mounts = []
    try:
        topology()
        configure_ids()
        env = {}
        for n in EXPORTERS:
            i = NODE_ID[n]
            run(["ip", "link", "add", "hmix-m%d" % i, "type", "veth", "peer", "name", "mgmt",
                 "netns", ns(n)])
            run(["ip", "addr", "add", mgmt_addr(n, 1) + "/24", "dev", "hmix-m%d" % i])
            run(["ip", "link", "set", "hmix-m%d" % i, "up"])
            nsrun(n, ["ip", "addr", "add", mgmt_addr(n, 2) + "/24", "dev", "mgmt"])
            nsrun(n, ["ip", "link", "set", "mgmt", "up"])
            bpf = os.path.join(work, "bpf-" + n)
            rd = os.path.join(work, "run-" + n)
            os.makedirs(bpf)
            os.makedirs(rd)
            run(["mount", "-t", "bpf", "bpf", bpf])
            mounts.append(bpf)
            env[n] = dict(os.environ, TC_BPF_MNT=bpf, HOPMARK_RUNDIR=rd)
        t0 = time.time()
        for n in EXPORTERS:
            # Creates the node's pinned PBT-M maps (the 6.1 verifier loads
            # hopmark_pbt.bpf.o once), then pbt_cfg[0].exp_*.
            run(["nsenter", "--net=/run/netns/" + ns(n), HM, "postcard", "export", "set",
                 "collector", mgmt_addr(n, 1), "port", str(EXP_PORT), "transport", "udp",
                 "domain", str(NODE_ID[n]), "src", mgmt_addr(n, 2)], env=env[n], timeout=300)
        tap.diag("export configured on 4 nodes in %.1f s" % (time.time() - t0))

        relay = Relay(work)
        relay.start()
        paths = os.path.join(work, "paths.json")
        cstats = os.path.join(work, "collector-stats.json")
        clog = open(os.path.join(work, "collector.log"), "w")
        procs["collector"] = subprocess.Popen(
            [COLL, "-u", str(COLL_PORT), "-t", "0", "-w", "1000", "-o", paths, "-s", cstats],
            stdout=clog, stderr=subprocess.STDOUT)
        for _ in range(100):
            if run(["ss", "-Hlun", "sport = :%d" % COLL_PORT], check=False).stdout.strip():
                break
            time.sleep(0.1)
        for n in EXPORTERS:
            log = os.path.join(work, n + ".log")
            procs[n] = subprocess.Popen(
                ["nsenter", "--net=/run/netns/" + ns(n), HMD, "-i", "0",
                 "-o", os.path.join(work, n + ".jsonl")],
                env=env[n], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        started = {n: wait_file(os.path.join(work, n + ".log"), "started:", 30)
                   for n in EXPORTERS}
        tap.eq(started, {n: True for n in EXPORTERS}, "hopmarkd_started_on_every_exporter")
        time.sleep(1)	# the agents' first templates are out

        # -- phase 1: DEX
        genl("a", "if", "a-r1", "features", F_DEX_ENCAP, "encap-ns", NS_ID, "trace-type", TT)
        for n in EXPORTERS:
            genl(n, "if", IN_IF[n], "features", F_DEX)
        rx = Receiver("b", PORT, N * len(SPORTS))
        dex_sent = send("a", B_ADDR, PORT, count=N, sports=SPORTS, interval=0.01)
        dex_rx = rx.packets()
        dex_end = time.time_ns()

        # -- phase 2: SRH O-flag (A no longer inserts DEX)
        genl("a", "if", "a-r1", "features", 0)
        for n in EXPORTERS:
            nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.all.seg6_enabled=1"])
            nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.%s.seg6_enabled=1" % IN_IF[n]])
            genl(n, "if", IN_IF[n], "features", F_SRH_OFLAG)
        rx = Receiver("b", PORT + 1, N)
        of_sent = send("a", B_ADDR, PORT + 1, count=N, rthdr=srh(0x20), interval=0.01)
        of_rx = rx.packets()
        of_end = time.time_ns()
        tap.eq((len(dex_rx), len(of_rx)), (N * len(SPORTS), N),
               "packets_delivered (DEX, O-flag)")

        time.sleep(2.5)	# the module's flush, the agents' export, the collector's window
        agent_stats = {}
        for n in EXPORTERS:
            procs[n].send_signal(signal.SIGTERM)
            procs[n].wait(30)
            text = open(os.path.join(work, n + ".log")).read()
            m = re.findall(r"not_sent (\d+)", text)
            p = re.findall(r"postcards_not_ipfix (\d+)", text)
            agent_stats[n] = (int(m[-1]) if m else None, int(p[-1]) if p else None)
        time.sleep(0.5)
        procs["collector"].send_signal(signal.SIGTERM)
        procs["collector"].wait(30)
        relay.close()
        tap.diag("relay: %d datagrams" % relay.datagrams)

        ifidx = {n: ifindex(n, IN_IF[n]) for n in EXPORTERS}
        recs = [json.loads(l) for l in open(paths) if l.strip()]
        dex_p = [r for r in recs if r.get("dport") == PORT]
        of_p = [r for r in recs if r.get("dport") == PORT + 1]

        # Collector: DEX paths.
        exp = sorted((sp, i) for sp in SPORTS for i in range(N))
        got = sorted((r.get("sport"), r.get("pkt_id")) for r in dex_p)
        tap.eq(got, exp, "collector_dex_one_path_per_packet (sport, packet ID = DEX Sequence Number)")
        bad = []
        for r in dex_p:
            key = (r.get("family"), r.get("src"), r.get("dst"), r.get("proto"))
            hops = [(h.get("node"), h.get("in_if"), h.get("ttl")) for h in r.get("hops", [])]
            want = [(NODE_ID[n], ifidx[n], HLIM[n]) for n in EXPORTERS]
            if key != (6, A_ADDR, B_ADDR, 17) or hops != want:
                bad.append((r.get("pkt_id"), key, hops))
        tap.ok(not bad, "collector_dex_path_r1_r2_r3_b (flow key, node IDs, ingress ifindex, "
               "Hop Limit as received)",
               [(NODE_ID[n], ifidx[n], HLIM[n]) for n in EXPORTERS], bad[:3])
        ts = [h.get("in_ns") for r in dex_p for h in r.get("hops", [])]
        tap.ok(len(ts) == N * len(SPORTS) * 4 and
               all(isinstance(t, int) and dex_sent["t0_ns"] - 10**6 <= t <= dex_end for t in ts),
               "collector_dex_times_within_send_window",
               "[%d, %d]" % (dex_sent["t0_ns"], dex_end), [t for t in ts if not (
                   isinstance(t, int) and dex_sent["t0_ns"] - 10**6 <= t <= dex_end)][:3])

        # Collector: O-flag paths.
        bad = []
        for r in of_p:
            key = (r.get("family"), r.get("src"), r.get("dst"), r.get("proto"), r.get("sport"))
            hops = [(h.get("node"), h.get("in_if"), h.get("ttl")) for h in r.get("hops", [])]
            want = [(NODE_ID[n], ifidx[n], HLIM[n]) for n in ("r1", "r3", "b")]
            if key != (6, A_ADDR, B_ADDR, 17, 40000) or hops != want:
                bad.append((r.get("pkt_id"), key, hops))
        tap.ok(len(of_p) == N and len({r.get("pkt_id") for r in of_p}) == N and not bad,
               "collector_oflag_path_r1_r3_b (%d packets, distinct IDs, dst = Segment List[0], "
               "node IDs, ingress ifindex, Hop Limit)" % N, "%d paths, none bad" % N,
               "%d paths, %d IDs, bad %s" % (len(of_p), len({r.get("pkt_id") for r in of_p}),
                                              bad[:3]))
        ts = [h.get("in_ns") for r in of_p for h in r.get("hops", [])]
        tap.ok(ts and all(isinstance(t, int) and of_sent["t0_ns"] <= t <= of_end for t in ts),
               "collector_oflag_times_within_send_window",
               "[%d, %d]" % (of_sent["t0_ns"], of_end), ts[:3])
        try:
            cs = json.load(open(cstats))["ipfix"]
        except (OSError, ValueError, KeyError) as e:
            cs = {"error": str(e)}
        # Its not_postcard counts the RFC 5610 type and options records.
        tap.eq((cs.get("postcards"), cs.get("no_template"), cs.get("decode_error")),
               (4 * 2 * N + 3 * N, 0, 0),
               "collector_decoded_every_postcard (ipfix postcards, no_template, decode_error)")
        tap.eq(agent_stats, {n: (0, 0) for n in EXPORTERS},
               "hopmarkd_sent_every_postcard (ipfix not_sent, postcards_not_ipfix)")

        # ipfixDump, one stream per exporter.
        dumps = {n: dump(os.path.join(work, mgmt_addr(n, 2) + ".ipfix"))
                 if os.path.exists(os.path.join(work, mgmt_addr(n, 2) + ".ipfix")) else (None, [])
                 for n in EXPORTERS}
        tap.eq({n: d[0] for n, d in dumps.items()}, {n: 0 for n in EXPORTERS},
               "ipfixdump_reads_every_exporter_stream (exit status)")
        # hopmarkPostcardSource (lib/postcard/pc_obs.h): 2 DEX, 3 O-flag.
        dex_r = {n: [r for r in d[1] if num(r.get("hopmarkPostcardSource")) == 2]
                 for n, d in dumps.items()}
        of_r = {n: [r for r in d[1] if num(r.get("hopmarkPostcardSource")) == 3]
                for n, d in dumps.items()}
        tap.eq({n: (len(dex_r[n]), len(of_r[n])) for n in EXPORTERS},
               {"r1": (2 * N, N), "r2": (2 * N, 0), "r3": (2 * N, N), "b": (2 * N, N)},
               "ipfixdump_records_per_exporter (template 260 DEX, 261 O-flag)")
        bad = [] if all(dex_r[n] for n in EXPORTERS) else ["no DEX record"]
        for n in EXPORTERS:
            seqs = {}
            for r in dex_r[n]:
                got = (num(r.get("hopmarkNodeId")), num(r.get("ingressInterface")),
                       num(r.get("hopmarkIoamNamespace")), num(r.get("hopmarkIoamTraceType")),
                       num(r.get("hopmarkPostcardSource")), addr(r.get("sourceIPv6Address")),
                       addr(r.get("destinationIPv6Address")),
                       num(r.get("destinationTransportPort")), num(r.get("ipTTL")))
                want = (NODE_ID[n], ifidx[n], NS_ID, TT, 2, A_ADDR, B_ADDR, PORT, HLIM[n])
                if got != want:
                    bad.append((n, want, got))
                seqs.setdefault(num(r.get("sourceTransportPort")), []).append(
                    num(r.get("hopmarkPacketId")))
            if seqs != {sp: list(range(N)) for sp in SPORTS}:
                bad.append((n, "sequence numbers", seqs))
        tap.ok(not bad, "ipfixdump_dex_fields (node ID, ingressInterface, IOAM-Namespace, "
               "Trace-Type, source 2 DEX, addresses, port, ipTTL, packet ID 0..N-1 per flow)",
               "as sent", bad[:3])
        bad = [] if all(of_r[n] for n in OFLAG_AT) else ["no O-flag record"]
        for n, (active, sl) in OFLAG_AT.items():
            for r in of_r[n]:
                # ipfixDump names no IANA element from RFC 5610 records
                # (libfixbuf 2.4.1 predates RFC 9487's): by number.
                got = (num(r.get("(%d)" % IE_SRH_FLAGS)), num(r.get("(%d)" % IE_SRH_SL)),
                       addr(r.get("(%d)" % IE_SRH_ACTIVE)), addr(r.get("destinationIPv6Address")),
                       num(r.get("hopmarkNodeId")), num(r.get("ingressInterface")),
                       num(r.get("hopmarkPostcardSource")))
                want = (0x20, sl, active, B_ADDR, NODE_ID[n], ifidx[n], 3)
                if got != want:
                    bad.append((n, want, got))
        tap.ok(not bad, "ipfixdump_oflag_srh_fields (srhFlagsIPv6 0x20, srhSegmentsIPv6Left, "
               "srhActiveSegmentIPv6 as at each endpoint, destination Segment List[0], node ID, "
               "ingressInterface, source 3 O-flag)", "as at each endpoint", bad[:3])
        c = {n: counters(n) for n in EXPORTERS}
        tap.eq({n: (cnt(c[n], IN_IF[n], "dex_export"), cnt(c[n], IN_IF[n], "oflag_export"))
                for n in EXPORTERS},
               {"r1": (2 * N, N), "r2": (2 * N, 0), "r3": (2 * N, N), "b": (2 * N, N)},
               "module_counted_the_events_exported (dex_export, oflag_export)")
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        if relay and relay.is_alive():
            relay.close()
        if tap.failed or os.environ.get("HM_VERBOSE"):
            for f in sorted(os.listdir(work)):
                if f.endswith(".log"):
                    tap.diag("%s: %s" % (f, open(os.path.join(work, f)).read()[-2000:]))
        teardown()
        for n in EXPORTERS:
            run(["ip", "link", "del", "hmix-m%d" % NODE_ID[n]], check=False)
        for m in mounts:
            run(["umount", m], check=False)
        shutil.rmtree(work, ignore_errors=True)
    tap.finish()


if __name__ == "__main__":
    main()
