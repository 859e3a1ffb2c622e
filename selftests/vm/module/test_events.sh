#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_events.sh - event export: batching, per-namespace rate limit, counts
#
# Inside the VM with hopmark.ko: namespace A sends UDP packets to B, each
# with an IOAM Direct Export option (RFC 9326, Option-Type 4) of
# IOAM-Namespace 123 carrying a Flow ID and a Sequence Number (set with the
# IPV6_HOPOPTS socket option); B has DEX enabled on its interface, so every
# packet makes one event (kernel/hopmark_events.c via the datapath).
# Checks: unlimited, every record arrives once with its Flow ID and
# Sequence Number, several records per EVENT message; limited to 10/s, a
# burst of 100 is cut to the bucket and every record not sent is counted
# (queued + rate_limited = produced, per netns and per namespace); with no
# listener, every record is counted as no_listener. Extension-Flags (RFC
# 9326 §3.2): an unassigned flag's 4-octet field is skipped, an option
# shorter than the fields its flags announce is malformed.
# Exit 0 passed, 1 failed, 4 skip.

. "$(dirname "$0")/lib.sh"
hm_require_module
command -v python3 >/dev/null || hm_skip_all "needs python3"

a=hm-core-ea-$$
b=hm-core-eb-$$
tmp=$(mktemp -d)
cleanup()
{
	[ -n "${mon:-}" ] && kill "$mon" 2>/dev/null
	ip netns del "$a" 2>/dev/null
	ip netns del "$b" 2>/dev/null
	rm -rf "$tmp"
	hm_unload 2>/dev/null
}
trap cleanup EXIT
hm_unload 2>/dev/null
hm_load || hm_skip_all "insmod failed"
hm_dmesg_mark events
hm_plan 15

ip netns add "$a" && ip netns add "$b" &&
ip link add hmc-ea type veth peer name hmc-eb &&
ip link set hmc-ea netns "$a" && ip link set hmc-eb netns "$b" &&
ip -n "$a" link set lo up && ip -n "$b" link set lo up &&
ip -n "$a" addr add 2001:db8:c1::1/64 dev hmc-ea nodad &&
ip -n "$b" addr add 2001:db8:c1::2/64 dev hmc-eb nodad &&
ip -n "$a" link set hmc-ea up && ip -n "$b" link set hmc-eb up ||
	hm_skip_all "cannot build the topology"
inb() { nsenter --net=/run/netns/"$b" "$@"; }
ifx=$(ip -n "$b" -o link show hmc-eb | cut -d: -f1)
inb "$HM_CLIENT" node_set node_id=5 >/dev/null
inb "$HM_CLIENT" ns_add ns_id=123 rate_limit=0 >/dev/null
inb "$HM_CLIENT" if_set ifindex="$ifx" features=0x10/0x10 >/dev/null
inb "$HM_CLIENT" export_set batch_size=8 flush_ms=50 >/dev/null

# send N FIRST_SEQ [EXT FIELDS]: N UDP packets A -> B, DEX of namespace 123
# with Extension-Flags EXT (default 0xc0: Flow ID, Sequence Number) and
# FIELDS 4-octet optional fields (default 2): Flow ID 0xabcd, the Sequence
# Number, then 0x5a5a5a5a.
send()
{
	nsenter --net=/run/netns/"$a" python3 - "$1" "$2" "${3:-0xc0}" "${4:-2}" <<'EOF'
import socket, struct, sys
n, first, ext, fields = (int(v, 0) for v in sys.argv[1:5])
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for i in range(n):
    # RFC 9326 §3.2: Namespace-ID, Flags, Extension-Flags, IOAM-Trace-Type
    # (bit 0: hop limit + node_id), Reserved, the optional fields.
    opt_fields = [0xabcd, first + i] + [0x5a5a5a5a] * (fields - 2)
    dex = struct.pack("!HBB", 123, 0, ext) + bytes([0x80, 0, 0, 0]) + \
          struct.pack("!%dI" % fields, *opt_fields)
    opt = bytes([0x31, 2 + len(dex), 0, 4]) + dex     # IOAM, type DEX
    hbh = bytes([0, 0, 0x01, 0x00]) + opt             # PadN(0): 4n alignment
    if len(hbh) % 8:
        hbh += bytes([0x01, 0x02, 0, 0])              # PadN(2): 8n length
    hbh = bytes([0, len(hbh) // 8 - 1]) + hbh[2:]     # Hdr Ext Len
    s.setsockopt(socket.IPPROTO_IPV6, 54, hbh)       # IPV6_HOPOPTS
    s.sendto(b"hopmark", ("2001:db8:c1::2", 9999))
EOF
}
counter() { inb "$HM_CLIENT" -d counters_get | head -n 1 | grep -o " $1=[0-9]*" | cut -d= -f2; }

# ---- unlimited: every record, batched ----
inb "$HM_CLIENT" monitor events 0 10000 >"$tmp/mon1" &
mon=$!
for _ in $(seq 50); do grep -q subscribed "$tmp/mon1" && break; sleep 0.1; done
send 100 0
wait $mon
mon=
recs=$(grep -o 'record={' "$tmp/mon1" | wc -l)
msgs=$(grep -c '^event ' "$tmp/mon1")
hm_check "unlimited_every_dex_packet_exported_once" 100 "$recs"
hm_check "records_carry_flow_id_and_seq_0_to_99" "$(seq 0 99 | tr '\n' ' ')" \
	"$(grep -o 'flow_id=43981 seq=[0-9]*' "$tmp/mon1" | cut -d= -f3 | sort -n | tr '\n' ' ')"
if [ "$msgs" -ge 1 ] && [ "$msgs" -lt "$recs" ]; then
	hm_ok "records_batched_several_per_message ($recs records in $msgs messages)"
else
	hm_not_ok "records_batched_several_per_message" "expected: fewer than $recs messages" "observed: $msgs"
fi
hm_check_match "record_has_type_dex_namespace_and_ifindex" \
	"record=\{ type=1 ts=[0-9]+ ifindex=$ifx ns_id=123 flow_id=43981 seq=[0-9]+ trace_type=8388608 node_data=[0-9a-f]+ headers=6[0-9a-f]+ pkt_len=[0-9]+ \}" \
	"$(head -n 2 "$tmp/mon1" | tail -n 1)"
hm_check "counter_events_queued_100" 100 "$(counter events_queued)"
hm_check "counter_events_sent_100" 100 "$(counter events_sent)"
hm_check "counter_event_messages_equals_messages_seen" "$msgs" "$(counter event_messages)"

# ---- limited to 10 events/s: a burst of 100 ----
inb "$HM_CLIENT" counters_reset
inb "$HM_CLIENT" ns_set ns_id=123 rate_limit=10 >/dev/null
inb "$HM_CLIENT" monitor events 0 8000 >"$tmp/mon2" &
mon=$!
for _ in $(seq 50); do grep -q subscribed "$tmp/mon2" && break; sleep 0.1; done
t0=$(date +%s%N)
send 100 1000
t1=$(date +%s%N)
wait $mon
mon=
recs=$(grep -o 'record={' "$tmp/mon2" | wc -l)
# Bucket: 10 at start, plus 10/s while the burst was being sent.
max=$(( 10 + (t1 - t0) * 10 / 1000000000 + 1 ))
if [ "$recs" -ge 10 ] && [ "$recs" -le "$max" ]; then
	hm_ok "rate_limit_10_per_s_cuts_burst_to_bucket ($recs records, at most $max)"
else
	hm_not_ok "rate_limit_10_per_s_cuts_burst_to_bucket" "expected: 10..$max" "observed: $recs"
fi
q=$(counter events_queued)
rl=$(counter events_rate_limited)
hm_check "every_record_queued_or_counted_rate_limited" 100 "$((q + rl))"
hm_check "queued_records_all_received" "$recs" "$q"
hm_check "namespace_counters_match" "counters={ events_queued=$q events_rate_limited=$rl }" \
	"$(inb "$HM_CLIENT" ns_get ns_id=123 | grep -o 'counters={.*}')"

# ---- no listener ----
inb "$HM_CLIENT" counters_reset
inb "$HM_CLIENT" ns_set ns_id=123 rate_limit=0 >/dev/null
send 20 2000
sleep 0.3
hm_check "no_listener_every_record_counted" 20 "$(counter events_no_listener)"

# ---- Extension-Flags: one 4-octet field per flag set (RFC 9326 §3.2) ----
# 0xe0 = Flow ID, Sequence Number and the unassigned bit 2: with its field
# the option is exported (the field skipped), without it it is truncated.
inb "$HM_CLIENT" counters_reset
inb "$HM_CLIENT" monitor events 1 5000 >"$tmp/mon3" &
mon=$!
for _ in $(seq 50); do grep -q subscribed "$tmp/mon3" && break; sleep 0.1; done
send 1 3000 0xe0 3
wait $mon
mon=
hm_check "dex_unassigned_extension_flag_field_skipped" "flow_id=43981 seq=3000" \
	"$(grep -o 'flow_id=[0-9]* seq=[0-9]*' "$tmp/mon3")"
send 1 3001 0xe0 2
sleep 0.3
hm_check "dex_option_short_of_its_extension_flags_malformed" "malformed=1 events_queued=1" \
	"malformed=$(counter malformed) events_queued=$(counter events_queued)"

hm_unload
hm_check "dmesg_free_of_warnings" "" "$(hm_dmesg_bad events)"
hm_done
