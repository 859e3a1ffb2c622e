#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""test_ratelimit.py - a flood of Direct Export events is rate limited and counted

A inserts DEX options (DEX_ENCAP) into a flood of UDP packets; R1 exports
(DEX) with IOAM-Namespace 123 limited to RATE events/s (token bucket, burst
one second). Checks:

  flood_every_packet_produces_a_record   dex_export == packets
  flood_rate_limited                     records sent <= RATE * (1 + time)
  flood_drops_counted                    sent + rate limited + no listener
                                         + no memory + send errors == packets
  flood_listener_got_every_sent_record   records received == events_sent
  flood_batched                          fewer messages than records
  datapath_module_unloads_after_traffic, dmesg_clean_after_datapath_tests
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hm_dp_lib import *  # noqa: E402,F401,F403

PORT = 5005
RATE = 50
N = 1500


def main():
    tap = Tap(8)
    load_module()
    try:
        topology()
        configure_ids(rate=RATE)
        genl("a", "if", "a-r1", "features", F_DEX_ENCAP, "encap-ns", NS_ID,
             "trace-type", 0xf00000)
        genl("r1", "if", "r1-a", "features", F_DEX)
        before = counters("r1")
        lst = Listener("r1", N)
        rx = Receiver("b", PORT, N, timeout=60)
        sent = send("a", B_ADDR, PORT, count=N, payload=32)
        got = rx.packets()
        recs = lst.records()
        c = counters("r1")

        def d(name, ifn="netns"):
            return cnt(c, ifn, name) - cnt(before, ifn, name)
        secs = (sent["t1_ns"] - sent["t0_ns"]) / 1e9
        tap.diag("flood: %d packets in %.2f s, %d delivered, %d records received"
                 % (sent["sent"], secs, len(got), len(recs)))
        tap.eq(d("dex_export", "r1-a"), N, "flood_every_packet_produces_a_record")
        limit = RATE * (1 + secs + 1) + 5
        tap.ok(0 < d("events_sent") <= limit and d("events_rate_limited") > 0,
               "flood_rate_limited (sent <= %d events/s * (1 s burst + %.1f s + 1 s slack))"
               % (RATE, secs), "0 < sent <= %d, rate_limited > 0" % limit,
               "sent %d, rate_limited %d" % (d("events_sent"), d("events_rate_limited")))
        lost = (d("events_rate_limited") + d("events_no_listener") + d("events_nomem") +
                d("events_send_err"))
        # A record whose multicast failed is in events_send_err, and may be in
        # events_sent as well when another listener got it.
        acc = d("events_sent") + lost
        tap.ok(N in (acc, acc - d("events_send_err")),
               "flood_drops_counted (sent + rate_limited + no_listener + nomem "
               "+ send_err == records)", N, acc)
        tap.eq(len(recs), d("events_sent"), "flood_listener_got_every_sent_record")
        tap.ok(0 < d("event_messages") < d("events_sent"), "flood_batched (messages < records)",
               "0 < messages < %d" % d("events_sent"), d("event_messages"))
        tap.eq(len(got), N, "flood_packets_all_forwarded (the limit drops events, never packets)")
        teardown()
        # Last of the datapath tests: the module leaves cleanly and the
        # kernel log holds no warning from anything the datapath did.
        unload_module()
        tap.ok(not os.path.exists("/sys/module/hopmark"),
               "datapath_module_unloads_after_traffic")
        log = run(kmod_tool("dmesg") if not shutil.which("dmesg") else ["dmesg"]).stdout
        bad = [l for l in log.splitlines()
               if any(w in l for w in ("WARNING:", "BUG:", "Oops", "general protection",
                                       "refcount_t", "KASAN", "UBSAN", "stack-protector"))]
        tap.ok(not bad, "dmesg_clean_after_datapath_tests (no WARNING, BUG, Oops)",
               "none", bad[:5])
    except Exception as e:
        tap.diag("error: %s" % e)
    finally:
        teardown()
    tap.finish()


if __name__ == "__main__":
    main()
