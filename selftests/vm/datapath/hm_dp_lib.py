# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""hm_dp_lib.py - shared pieces of the hopmark.ko datapath VM tests.

TAP output (kselftest conventions: exit 4 = skip), the five-node topology of
the design (host A - R1 - R2 - R3 - host B, IPv6, static routes, one network
namespace each), loading hopmark.ko, the genetlink test client
(build/tests/hm_dp_genl), the traffic tool (hm_dp_pkt.py) and decoders of
the IOAM options (RFC 9197 §4.4, §4.6; RFC 9326 §3.2) and the SRH
(RFC 8754 §2) as they appear on the wire.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
GENL = os.environ.get("HM_DP_GENL") or os.path.join(REPO, "build/tests/hm_dp_genl")
KMOD = os.environ.get("HM_KMOD") or os.path.join(REPO, "build/kernel/hopmark.ko")
PKT = os.path.join(HERE, "hm_dp_pkt.py")

NS_ID = 123
NODES = ["a", "r1", "r2", "r3", "b"]
NODE_ID = {"a": 1, "r1": 2, "r2": 3, "r3": 4, "b": 5}
PREFIX = "hmdp-"

# enum hopmark_if_feature (lib/common/hopmark_genl.h)
F_INCREMENTAL = 1 << 0
F_INCREMENTAL_ENCAP = 1 << 1
F_E2E_ENCAP = 1 << 2
F_E2E_DECAP = 1 << 3
F_DEX = 1 << 4
F_DEX_ENCAP = 1 << 5
F_SRH_OFLAG = 1 << 6

# Links: (node, ifname, address) pairs; /64 per link.
LINKS = [
    (("a", "a-r1", "2001:db8:1::1"), ("r1", "r1-a", "2001:db8:1::2")),
    (("r1", "r1-r2", "2001:db8:2::1"), ("r2", "r2-r1", "2001:db8:2::2")),
    (("r2", "r2-r3", "2001:db8:3::1"), ("r3", "r3-r2", "2001:db8:3::2")),
    (("r3", "r3-b", "2001:db8:4::1"), ("b", "b-r3", "2001:db8:4::2")),
]
ADDR = {ifn: addr for link in LINKS for (_, ifn, addr) in link}
B_ADDR = "2001:db8:4::2"
# Interface IDs (short, wide) per interface.
IF_ID = {"a-r1": 11, "r1-a": 21, "r1-r2": 22, "r2-r1": 31, "r2-r3": 32,
         "r3-r2": 41, "r3-b": 42, "b-r3": 51}


def if_id_wide(ifn):
    return 0x10000 + IF_ID[ifn]


def node_id_wide(node):
    return 0xa0000000000 + NODE_ID[node]


def ns_data(node):
    return 0xd0000000 + NODE_ID[node]


def ns_data_wide(node):
    return 0xdd00000000000000 + NODE_ID[node]


class Tap:
    """kselftest-style TAP: plan, numbered points, diagnostics."""

    def __init__(self, plan):
        self.plan = plan
        self.n = 0
        self.failed = 0
        print("TAP version 13")
        print("1..%d" % plan, flush=True)

    def ok(self, cond, name, expected=None, observed=None):
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, name))
        if not cond:
            self.failed += 1
            if expected is not None or observed is not None:
                print("#   expected: %s" % (expected,))
                print("#   observed: %s" % (observed,))
        sys.stdout.flush()
        return cond

    def eq(self, observed, expected, name):
        return self.ok(observed == expected, name, expected, observed)

    def diag(self, msg):
        print("# " + msg, flush=True)

    def finish(self):
        while self.n < self.plan:
            self.ok(False, "not reached (an earlier step failed)")
        sys.exit(1 if self.failed else 0)


def skip(reason):
    print("1..0 # SKIP " + reason, flush=True)
    sys.exit(4)


def run(cmd, check=True, timeout=120, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=timeout, **kw)
    if check and r.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), r.returncode,
                                                r.stderr.strip()))
    return r


def ns(node):
    return PREFIX + node


def nsrun(node, cmd, check=True):
    return run(["ip", "netns", "exec", ns(node)] + cmd, check=check)


def genl(node, *args, check=True):
    return nsrun(node, [GENL] + [str(a) for a in args], check=check)


def load_module():
    """insmod hopmark.ko unless loaded; skip (exit 4) outside the VM."""
    if not os.environ.get("HM_VM"):
        skip("needs the VM tier (selftests/vm/run.sh): the host cannot load modules")
    if not os.path.exists(KMOD):
        raise RuntimeError("%s missing: make module" % KMOD)
    if not os.path.exists("/sys/module/hopmark"):
        run(kmod_tool("insmod") + [KMOD])


def kmod_tool(name):
    """insmod/rmmod from kmod, else busybox's (the VM shares the host's /)."""
    return [name] if shutil.which(name) else ["busybox", name]


def unload_module():
    run(kmod_tool("rmmod") + ["hopmark"], check=False)


def teardown():
    for n in NODES:
        run(["ip", "netns", "del", ns(n)], check=False)


def topology(mtu=None):
    """Build A - R1 - R2 - R3 - B with forwarding on the routers."""
    teardown()
    # A flood must not overflow the per-CPU input queues of the slow VM.
    run(["sysctl", "-qw", "net.core.netdev_max_backlog=50000"], check=False)
    for n in NODES:
        run(["ip", "netns", "add", ns(n)])
        nsrun(n, ["ip", "link", "set", "lo", "up"])
        nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.all.accept_dad=0"])
        nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0"])
        if n.startswith("r"):
            nsrun(n, ["sysctl", "-qw", "net.ipv6.conf.all.forwarding=1"])
    for (n1, i1, a1), (n2, i2, a2) in LINKS:
        run(["ip", "link", "add", i1, "netns", ns(n1), "type", "veth",
             "peer", "name", i2, "netns", ns(n2)])
        for n, i, a in ((n1, i1, a1), (n2, i2, a2)):
            nsrun(n, ["ip", "addr", "add", a + "/64", "dev", i, "nodad"])
            nsrun(n, ["ip", "link", "set", i, "up"])
    routes = {
        "a": [("default", "2001:db8:1::2")],
        "r1": [("2001:db8:3::/64", "2001:db8:2::2"), ("2001:db8:4::/64", "2001:db8:2::2")],
        "r2": [("2001:db8:1::/64", "2001:db8:2::1"), ("2001:db8:4::/64", "2001:db8:3::2")],
        "r3": [("2001:db8:1::/64", "2001:db8:3::1"), ("2001:db8:2::/64", "2001:db8:3::1")],
        "b": [("default", "2001:db8:4::1")],
    }
    for n, rs in routes.items():
        for dst, via in rs:
            nsrun(n, ["ip", "-6", "route", "add", dst, "via", via])
    # Resolve neighbours once so the first test packet is not queued.
    nsrun("a", ["ping", "-6", "-c", "1", "-W", "5", B_ADDR])
    nsrun("b", ["ping", "-6", "-c", "1", "-W", "5", "2001:db8:1::1"])


def configure_ids(rate=None):
    """Node IDs, IOAM-Namespace 123 and interface IDs on every node."""
    for n in NODES:
        genl(n, "node", NODE_ID[n], node_id_wide(n))
        args = ["ns", "add", NS_ID, "data", ns_data(n), "wide", ns_data_wide(n)]
        if rate is not None:
            args += ["rate", rate]
        genl(n, *args)
    for link in LINKS:
        for n, i, _ in link:
            genl(n, "if", i, "id", IF_ID[i], "wide", if_id_wide(i))


class Listener:
    """hm_dp_genl listen in a node, started before the traffic.

    It ends by itself after COUNT records; records() otherwise stops it
    after a grace period (the traffic is over by then: each test collects
    after its receiver has returned), so a node that must report nothing
    is checked as well as one that must report something.
    """

    def __init__(self, node, count, ms=600000):
        self.p = subprocess.Popen(["ip", "netns", "exec", ns(node), GENL, "listen",
                                   str(count), str(ms)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
        line = self.p.stdout.readline()
        if line.strip() != "READY":
            raise RuntimeError("listener in %s: %s %s" % (node, line,
                                                         self.p.stderr.read()))

    def records(self, grace=3):
        try:
            out, err = self.p.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            self.p.terminate()
            out, err = self.p.communicate(timeout=30)
        if err.strip():
            print("# listener: " + err.strip().replace("\n", "\n# "))
        return [json.loads(l) for l in out.splitlines() if l.startswith("{")]


class Receiver:
    """hm_dp_pkt.py recv in a node: COUNT datagrams, or with tcp_bytes one
    TCP connection of that many bytes (then packets() is one summary)."""

    def __init__(self, node, port, count, timeout=20, tcp_bytes=None):
        what = ["tcp-recv", str(port), "--bytes", str(tcp_bytes)] if tcp_bytes else \
            ["recv", str(port), "--count", str(count)]
        self.p = subprocess.Popen(["ip", "netns", "exec", ns(node), "python3", PKT] +
                                  what + ["--timeout", str(timeout)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
        line = self.p.stdout.readline()
        if line.strip() != "READY":
            raise RuntimeError("receiver in %s: %s %s" % (node, line,
                                                         self.p.stderr.read()))

    def packets(self, timeout=120):
        out, err = self.p.communicate(timeout=timeout)
        if err.strip():
            print("# receiver: " + err.strip().replace("\n", "\n# "))
        return [json.loads(l) for l in out.splitlines() if l.startswith("{")]


def send(node, dst, port, count=1, payload=64, sports=(40000,), hbh=None,
         rthdr=None, interval=0.0):
    cmd = ["python3", PKT, "send", dst, str(port), "--count", str(count),
           "--payload", str(payload), "--interval", str(interval)]
    for s in sports:
        cmd += ["--sport", str(s)]
    if hbh:
        cmd += ["--hbh", hbh]
    if rthdr:
        cmd += ["--rthdr", rthdr]
    return json.loads(nsrun(node, cmd).stdout.splitlines()[-1])


def counters(node):
    """{ifname or "netns": {counter: value}} of a node."""
    names = {}
    for line in nsrun(node, ["ip", "-o", "link", "show"]).stdout.splitlines():
        idx, name = line.split(":")[0:2]
        names[int(idx)] = name.strip().split("@")[0]
    out = {}
    for line in genl(node, "counters").stdout.splitlines():
        d = json.loads(line)
        idx = d.pop("ifindex")
        out[names.get(idx, str(idx)) if idx else "netns"] = d
    return out


def cnt(c, ifn, name):
    return c.get(ifn, {}).get(name, 0)


def snmp6(node, name):
    """A counter of the node's /proc/net/snmp6 (per network namespace)."""
    for line in nsrun(node, ["cat", "/proc/net/snmp6"]).stdout.splitlines():
        k, v = line.split()
        if k == name:
            return int(v)
    return 0


def ifindex(node, ifn):
    return int(nsrun(node, ["cat", "/sys/class/net/%s/ifindex" % ifn]).stdout)


# ---- wire decoders -------------------------------------------------------

def hbh_options(hbh):
    """[(offset, type, data bytes)] of a Hop-by-Hop header, pads included."""
    opts = []
    off = 2
    while off < len(hbh):
        t = hbh[off]
        if t == 0:
            opts.append((off, 0, b""))
            off += 1
            continue
        ln = hbh[off + 1]
        opts.append((off, t, hbh[off + 2:off + 2 + ln]))
        off += 2 + ln
    return opts


def hbh_check(hbh):
    """Errors of RFC 8200 §4.3 / RFC 9486 §2.1 layout, [] when valid."""
    errs = []
    if len(hbh) % 8 or (hbh[1] + 1) * 8 != len(hbh):
        errs.append("length %d vs Hdr Ext Len %d" % (len(hbh), hbh[1]))
    run_len = 0
    for off, t, data in hbh_options(hbh):
        if t in (0, 1):
            run_len += 1 if t == 0 else 2 + len(data)
            if t == 1 and any(data):
                errs.append("PadN with non-zero data at %d" % off)
            if run_len > 7:
                errs.append("padding run > 7 at %d" % off)
        else:
            run_len = 0
        if t == 0x31 and off % 4:
            errs.append("IOAM option at %d, not 4n" % off)
    return errs


def hbh_build(tlvs):
    """A Hop-by-Hop header (hex, Next Header 0: the kernel sets it) of the
    TLVs given as bytes, in order, then Pad1/PadN to 8n (RFC 8200 §4.3)."""
    body = b"".join(tlvs)
    pad = -(2 + len(body)) % 8
    if pad == 1:
        body += b"\x00"
    elif pad:
        body += bytes([1, pad - 2]) + bytes(pad - 2)
    return bytes([0, (2 + len(body)) // 8 - 1]).hex() + body.hex()


def hbh_n_options(hbh):
    """Options other than Pad1 and PadN: net.ipv6.max_hbh_opts_number's count."""
    return sum(1 for _, t, _ in hbh_options(hbh) if t not in (0, 1))


def ioam_options(hbh):
    """[(ioam option type, body bytes after the 4-octet option header)]."""
    return [(d[1], d[2:]) for _, t, d in hbh_options(hbh) if t == 0x31]


def trace_decode(body):
    """IOAM trace option (after the option header): dict and node data."""
    ns_id, nl_fl, rl = struct.unpack("!HBB", body[:4])
    tt = int.from_bytes(body[4:7], "big")
    return {"ns": ns_id, "nodelen": nl_fl >> 3, "overflow": bool(nl_fl & 4),
            "remlen": rl & 0x7f, "trace_type": tt, "data": body[8:]}


def node_fields(tt, data):
    """Decode one node's data for a Trace-Type (RFC 9197 §4.4.2)."""
    f = {}
    o = 0

    def u32():
        nonlocal o
        v = struct.unpack("!I", data[o:o + 4])[0]
        o += 4
        return v

    def bit(n):
        return tt & (1 << (23 - n))
    if bit(0):
        v = u32()
        f["hop_lim"], f["node_id"] = v >> 24, v & 0xffffff
    if bit(1):
        v = u32()
        f["in_if"], f["out_if"] = v >> 16, v & 0xffff
    if bit(2):
        f["ts_sec"] = u32()
    if bit(3):
        f["ts_frac"] = u32()
    if bit(4):
        f["transit_delay"] = u32()
    if bit(5):
        f["ns_data"] = u32()
    if bit(6):
        f["queue_depth"] = u32()
    if bit(7):
        f["csum_compl"] = u32()
    if bit(8):
        hi, lo = u32(), u32()
        f["hop_lim_wide"], f["node_id_wide"] = hi >> 24, ((hi & 0xffffff) << 32) | lo
    if bit(9):
        f["in_if_wide"], f["out_if_wide"] = u32(), u32()
    if bit(10):
        hi, lo = u32(), u32()
        f["ns_data_wide"] = (hi << 32) | lo
    if bit(11):
        f["buffer_occupancy"] = u32()
    for n in range(12, 22):
        if bit(n):
            f["undefined_%d" % n] = u32()
    if bit(22):
        f["opaque"] = u32()
    f["_len"] = o
    return f


def nodelen(tt):
    return sum(1 for n in range(22) if tt & (1 << (23 - n))) + \
        sum(1 for n in (8, 9, 10) if tt & (1 << (23 - n)))


def node_data_len(tt):
    return nodelen(tt) * 4 + (4 if tt & 2 else 0)


def ipv6_headers(raw):
    """Decode an IPv6 packet prefix: dict with addrs, hop limit, ext headers."""
    import ipaddress
    d = {"hlim": raw[7],
         "src": str(ipaddress.IPv6Address(raw[8:24])),
         "dst": str(ipaddress.IPv6Address(raw[24:40])),
         "ext": []}
    nh, off = raw[6], 40
    while nh in (0, 43, 60) and off + 2 <= len(raw):
        ln = (raw[off + 1] + 1) * 8
        d["ext"].append((nh, raw[off:off + ln]))
        nh, off = raw[off], off + ln
    d["proto"], d["l4"] = nh, raw[off:]
    return d


def srh_decode(rt):
    """SRH (RFC 8754 §2): dict of its fields and segments."""
    import ipaddress
    n = rt[4] + 1
    return {"type": rt[2], "sl": rt[3], "last": rt[4], "flags": rt[5],
            "segs": [str(ipaddress.IPv6Address(rt[8 + 16 * i:24 + 16 * i]))
                     for i in range(n)]}
