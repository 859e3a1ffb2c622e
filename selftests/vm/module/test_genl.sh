#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_genl.sh - the "hopmark" generic netlink family (kernel/hopmark_genl.c)
#
# Inside the VM (selftests/vm/run.sh), with build/kernel/hopmark.ko loaded:
# - the family, its version and its "config" and "events" groups exist;
# - every attribute of every command is rejected when malformed (wrong
#   length), out of range, misplaced (not in the command's policy), unknown,
#   or missing, with the errno, an extack message and the offending (or
#   missing) attribute named; the state is unchanged after a rejection;
# - every range boundary and every feature bit is accepted and read back;
# - changes are denied without CAP_NET_ADMIN (setpriv to nobody; a user
#   namespace that does not own the network namespace) and allowed to the
#   owner of a network namespace (unshare -U -r -n); reads are free;
# - dump round trip: 64 namespaces added, dumped, compared, deleted;
# - every change is notified on "config" (seen by a subscribed listener);
# - state is per network namespace; an interface's configuration goes away
#   with its device.
# Exit 0 all passed, 1 a failure, 4 skip (not in a VM with the module).

. "$(dirname "$0")/lib.sh"
hm_require_module

hm_unload 2>/dev/null
hm_load || hm_skip_all "insmod $HM_KO failed"
hm_dmesg_mark genl

ns_a=hm-core-a-$$
ns_b=hm-core-b-$$
mon_out=$(mktemp)
cleanup()
{
	ip netns del "$ns_a" 2>/dev/null
	ip netns del "$ns_b" 2>/dev/null
	ip link del hmc-dummy0 2>/dev/null
	rm -f "$mon_out"
	hm_unload 2>/dev/null
}
trap cleanup EXIT

hm_plan 153

# ---- family ----
out=$(hm_gc family)
hm_check_match "family_registered_with_version_1_and_two_groups" \
	'^family id=[0-9]+ version=1 config=[1-9][0-9]* events=[1-9][0-9]*$' "$out"

# ---- rejections ----
# reject NAME ERRNO WHERE MSGREGEX -- CLIENT ARGS: the request fails with
# errno ERRNO, the extack names the attribute WHERE ("attr=X" offending,
# "miss=X" missing) and its message matches MSGREGEX.
reject()
{
	local name=$1 errno=$2 where=$3 msg=$4 out rc
	shift 5
	out=$(hm_gc "$@")
	rc=$?
	if [ "$rc" != 1 ]; then
		hm_not_ok "$name" "expected: rejected with errno $errno" \
			"observed: exit $rc: $out"
		return
	fi
	if [ -n "$msg" ]; then
		hm_check_match "$name" "^error errno=$errno .*msg=\"[^\"]*($msg)[^\"]*\".*$where" "$out"
	else
		hm_check_match "$name" "^error errno=$errno " "$out"
	fi
}

ERANGE=34
EINVAL=22
# Range errors from the policy: "integer out of range", attribute pointed at.
reject node_id_above_24_bits_rejected $ERANGE 'attr=node_id( |$)' 'out of range' -- node_set node_id=0x1000000
reject node_id_wide_above_56_bits_rejected $ERANGE 'attr=node_id_wide( |$)' 'out of range' -- node_set node_id_wide=0x100000000000000
reject ifindex_zero_rejected $ERANGE 'attr=ifindex( |$)' 'out of range' -- if_set ifindex=0
reject ifindex_negative_rejected $ERANGE 'attr=ifindex( |$)' 'out of range' -- if_set ifindex=0x80000000
reject encap_trace_type_above_24_bits_rejected $ERANGE 'attr=encap_trace_type( |$)' 'out of range' -- if_set ifindex=1 encap_trace_type=0x1000000
reject encap_remlen_above_127_rejected $ERANGE 'attr=encap_remlen( |$)' 'out of range' -- if_set ifindex=1 encap_remlen=128
reject rate_limit_above_max_rejected_on_export $ERANGE 'attr=rate_limit( |$)' 'out of range' -- export_set rate_limit=10000001
reject rate_limit_above_max_rejected_on_ns_add $ERANGE 'attr=rate_limit( |$)' 'out of range' -- ns_add ns_id=1 rate_limit=10000001
reject rate_limit_above_max_rejected_on_ns_set $ERANGE 'attr=rate_limit( |$)' 'out of range' -- ns_set ns_id=1 rate_limit=4294967295
reject batch_size_zero_rejected $ERANGE 'attr=batch_size( |$)' 'out of range' -- export_set batch_size=0
reject batch_size_above_64_rejected $ERANGE 'attr=batch_size( |$)' 'out of range' -- export_set batch_size=65
reject flush_ms_zero_rejected $ERANGE 'attr=flush_ms( |$)' 'out of range' -- export_set flush_ms=0
reject flush_ms_above_1000_rejected $ERANGE 'attr=flush_ms( |$)' 'out of range' -- export_set flush_ms=1001
# Masks and bitfields.
reject e2e_type_bits_beyond_0_3_rejected $EINVAL 'attr=encap_e2e_type( |$)' '.' -- if_set ifindex=1 encap_e2e_type=0x0800
reject e2e_type_low_bits_rejected $EINVAL 'attr=encap_e2e_type( |$)' '.' -- if_set ifindex=1 encap_e2e_type=0xf001
reject feature_value_bit_7_rejected $EINVAL 'attr=features( |$)' '.' -- if_set ifindex=1 features=0x80/0x80
reject feature_selector_bit_31_rejected $EINVAL 'attr=features( |$)' '.' -- if_set ifindex=1 features=0x1/0x80000001
reject feature_value_outside_selector_rejected $EINVAL 'attr=features( |$)' '.' -- if_set ifindex=1 features=0x3/0x1
reject features_short_rejected $ERANGE 'attr=features( |$)' '.' -- if_set ifindex=1 hex:10=01000000
reject export_fields_undefined_bit_6_rejected $EINVAL 'attr=export_fields( |$)' '.' -- export_set export_fields=0x40
reject export_fields_bit_31_rejected $EINVAL 'attr=export_fields( |$)' '.' -- export_set export_fields=0x8000003f
# Wrong lengths, one per attribute of each integer width.
reject node_id_2_bytes_rejected $EINVAL 'attr=node_id( |$)' 'length' -- node_set hex:2=0100
reject node_id_8_bytes_rejected $EINVAL 'attr=node_id( |$)' 'length' -- node_set u64:2=1
reject node_id_wide_4_bytes_rejected $EINVAL 'attr=node_id_wide( |$)' 'length' -- node_set u32:3=1
reject ns_id_4_bytes_rejected $EINVAL 'attr=ns_id( |$)' 'length' -- ns_add u32:4=1
reject ns_id_1_byte_rejected $EINVAL 'attr=ns_id( |$)' 'length' -- ns_del u8:4=1
reject ns_data_2_bytes_rejected $EINVAL 'attr=ns_data( |$)' 'length' -- ns_add ns_id=1 u16:5=1
reject ns_data_wide_4_bytes_rejected $EINVAL 'attr=ns_data_wide( |$)' 'length' -- ns_add ns_id=1 u32:6=1
reject ifindex_2_bytes_rejected $EINVAL 'attr=ifindex( |$)' 'length' -- if_get u16:7=1
reject if_id_4_bytes_rejected $EINVAL 'attr=if_id( |$)' 'length' -- if_set ifindex=1 u32:8=1
reject if_id_wide_8_bytes_rejected $EINVAL 'attr=if_id_wide( |$)' 'length' -- if_set ifindex=1 u64:9=1
reject encap_ns_4_bytes_rejected $EINVAL 'attr=encap_ns( |$)' 'length' -- if_set ifindex=1 u32:11=1
reject encap_remlen_2_bytes_rejected $EINVAL 'attr=encap_remlen( |$)' 'length' -- if_set ifindex=1 u16:13=1
reject batch_size_empty_rejected $EINVAL 'attr=batch_size( |$)' 'length' -- export_set hex:17=
reject flush_ms_2_bytes_rejected $EINVAL 'attr=flush_ms( |$)' 'length' -- export_set u16:18=5
reject export_fields_2_bytes_rejected $EINVAL 'attr=export_fields( |$)' 'length' -- export_set u16:21=1
# Attributes a command does not take, reply-only attributes, unknown types.
reject ns_id_not_taken_by_node_set $EINVAL 'attr=ns_id( |$)' 'Unsupported|not' -- node_set node_id=1 ns_id=1
reject node_id_not_taken_by_ns_add $EINVAL 'attr=node_id( |$)' 'Unsupported|not' -- ns_add ns_id=1 node_id=1
reject rate_limit_not_taken_by_if_set $EINVAL 'attr=rate_limit( |$)' 'Unsupported|not' -- if_set ifindex=1 rate_limit=1
reject export_fields_not_taken_by_ns_set $EINVAL 'attr=export_fields( |$)' 'Unsupported|not' -- ns_set ns_id=1 export_fields=1
reject attribute_not_taken_by_node_get $EINVAL 'attr=node_id( |$)' 'Unsupported|not' -- node_get node_id=1
reject attribute_not_taken_by_counters_get $EINVAL 'attr=ifindex( |$)' 'Unsupported|not' -- -d counters_get ifindex=1
reject reply_only_ifname_rejected $EINVAL 'attr=ifname( |$)' 'Unsupported|not' -- if_set ifindex=1 hex:15=6c6f00
reject reply_only_counters_rejected $EINVAL 'attr=counters( |$)' 'Unsupported|not' -- export_set nest:19=
reject reply_only_record_rejected $EINVAL 'attr=record( |$)' 'Unsupported|not' -- export_set nest:20=
reject pad_attribute_rejected $EINVAL 'attr=1( |$)' 'Unsupported|not' -- node_set hex:1=00000000
reject unknown_attribute_type_rejected $EINVAL 'attr=99( |$)' 'Unknown|type' -- node_set node_id=1 u32:99=1
# Missing required attributes: the ACK carries the missing type.
reject node_set_without_ids_rejected $EINVAL 'miss=node_id' 'missing HOPMARK_ATTR_NODE_ID' -- node_set
reject ns_add_without_ns_id_rejected $EINVAL 'miss=ns_id' 'missing HOPMARK_ATTR_NS_ID' -- ns_add ns_data=1
reject ns_del_without_ns_id_rejected $EINVAL 'miss=ns_id' 'missing HOPMARK_ATTR_NS_ID' -- ns_del
reject ns_set_without_ns_id_rejected $EINVAL 'miss=ns_id' 'missing HOPMARK_ATTR_NS_ID' -- ns_set rate_limit=5
reject ns_get_without_ns_id_rejected $EINVAL 'miss=ns_id' 'missing HOPMARK_ATTR_NS_ID' -- ns_get
reject if_set_without_ifindex_rejected $EINVAL 'miss=ifindex' 'missing HOPMARK_ATTR_IFINDEX' -- if_set if_id=1
reject if_get_without_ifindex_rejected $EINVAL 'miss=ifindex' 'missing HOPMARK_ATTR_IFINDEX' -- if_get
reject export_set_without_settings_rejected $EINVAL 'miss=rate_limit' 'missing HOPMARK_ATTR_RATE_LIMIT' -- export_set
# Semantic errors name the attribute in the message.
reject if_set_unknown_device_rejected 19 'attr=ifindex( |$)' 'HOPMARK_ATTR_IFINDEX: no such device' -- if_set ifindex=99999 if_id=1
reject if_get_unconfigured_rejected 2 'attr=ifindex( |$)' 'HOPMARK_ATTR_IFINDEX: interface not configured' -- if_get ifindex=1
reject ns_del_unknown_rejected 2 'attr=ns_id( |$)' 'HOPMARK_ATTR_NS_ID: no such IOAM-Namespace' -- ns_del ns_id=999
reject ns_set_unknown_rejected 2 'attr=ns_id( |$)' 'HOPMARK_ATTR_NS_ID: no such IOAM-Namespace' -- ns_set ns_id=999 ns_data=1
reject ns_get_unknown_rejected 2 'attr=ns_id( |$)' 'HOPMARK_ATTR_NS_ID: no such IOAM-Namespace' -- ns_get ns_id=999
hm_gc ns_add ns_id=7 >/dev/null
reject ns_add_existing_rejected 17 'attr=ns_id( |$)' 'HOPMARK_ATTR_NS_ID: IOAM-Namespace already configured' -- ns_add ns_id=7 ns_data=5
hm_check "ns_add_existing_leaves_namespace_unchanged" \
	"ns_get ns_id=7 rate_limit=1000 counters={ events_queued=0 events_rate_limited=0 }" \
	"$(hm_gc ns_get ns_id=7)"
reject unknown_command_rejected 95 '' '' -- 99
reject event_command_not_accepted 95 '' '' -- event

# A rejected set changes nothing.
hm_gc node_set node_id=5 node_id_wide=6 >/dev/null
hm_gc node_set node_id=0x1000000 >/dev/null
hm_gc node_set node_id=9 u32:99=1 >/dev/null
hm_check "rejected_node_set_leaves_node_ids" "node_get node_id=5 node_id_wide=6" "$(hm_gc node_get)"

# ---- boundaries accepted and read back ----
accept() # NAME EXPECTED-LINE -- SET-ARGS -- GET-ARGS
{
	local name=$1 exp=$2 set=() get=() out
	shift 3
	while [ "$1" != -- ]; do set+=("$1"); shift; done
	shift
	get=("$@")
	out=$(hm_gc "${set[@]}")
	if [ $? != 0 ]; then
		hm_not_ok "$name" "expected: accepted" "observed: $out"
		return
	fi
	hm_check "$name" "$exp" "$(hm_gc "${get[@]}")"
}
accept node_id_0_accepted "node_get node_id=0 node_id_wide=6" -- node_set node_id=0 -- node_get
accept node_id_max_accepted "node_get node_id=16777215 node_id_wide=6" -- node_set node_id=0xffffff -- node_get
accept node_id_wide_max_accepted "node_get node_id=16777215 node_id_wide=72057594037927935" -- node_set node_id_wide=0xffffffffffffff -- node_get
accept ns_id_0_accepted "ns_get ns_id=0 rate_limit=1000 counters={ events_queued=0 events_rate_limited=0 }" -- ns_add ns_id=0 -- ns_get ns_id=0
accept ns_id_65535_with_data_accepted "ns_get ns_id=65535 ns_data=4294967295 ns_data_wide=18446744073709551615 rate_limit=0 counters={ events_queued=0 events_rate_limited=0 }" \
	-- ns_add ns_id=65535 ns_data=0xffffffff ns_data_wide=0xffffffffffffffff rate_limit=0 -- ns_get ns_id=65535
accept ns_set_changes_data_and_rate "ns_get ns_id=65535 ns_data=1 ns_data_wide=18446744073709551615 rate_limit=10000000 counters={ events_queued=0 events_rate_limited=0 }" \
	-- ns_set ns_id=65535 ns_data=1 rate_limit=10000000 -- ns_get ns_id=65535
accept export_minimum_accepted "export_get rate_limit=0 batch_size=1 flush_ms=1 export_fields=0" -- export_set rate_limit=0 batch_size=1 flush_ms=1 export_fields=0 -- export_get
accept export_maximum_accepted "export_get rate_limit=10000000 batch_size=64 flush_ms=1000 export_fields=63" -- export_set rate_limit=10000000 batch_size=64 flush_ms=1000 export_fields=0x3f -- export_get
accept export_fields_alone_accepted "export_get rate_limit=10000000 batch_size=64 flush_ms=1000 export_fields=18" -- export_set export_fields=0x12 -- export_get
hm_gc export_set export_fields=0x40 >/dev/null
hm_check "rejected_export_fields_leave_fields" "export_fields=18" "$(hm_gc export_get | grep -o 'export_fields=[0-9]*')"
hm_gc export_set export_fields=0x3f >/dev/null
accept export_partial_set_keeps_others "export_get rate_limit=10000000 batch_size=16 flush_ms=1000 export_fields=63" -- export_set batch_size=16 -- export_get
hm_gc ns_add ns_id=8 >/dev/null
hm_check "new_namespace_takes_default_rate" "rate_limit=10000000" \
	"$(hm_gc ns_get ns_id=8 | grep -o 'rate_limit=[0-9]*')"

ip link add hmc-dummy0 type dummy 2>/dev/null || ip link add hmc-dummy0 type veth peer name hmc-dummy1
ifx=$(cat /sys/class/net/hmc-dummy0/ifindex)
accept if_set_defaults_ids_unavailable \
	"if_get ifname=hmc-dummy0 ifindex=$ifx if_id=65535 if_id_wide=4294967295 features=0x0/0x7f encap_ns=0 encap_trace_type=0 encap_remlen=0 encap_e2e_type=0" \
	-- if_set ifindex=$ifx -- if_get ifindex=$ifx
# The largest Trace-Type an encapsulating node may send: every bit but the
# undefined 12-21 and the reserved 23 (0xfff002 = 16773122).
accept if_set_all_fields_at_maximum \
	"if_get ifname=hmc-dummy0 ifindex=$ifx if_id=65535 if_id_wide=4294967295 features=0x7f/0x7f encap_ns=65535 encap_trace_type=16773122 encap_remlen=127 encap_e2e_type=61440" \
	-- if_set ifindex=$ifx if_id=0xffff if_id_wide=0xffffffff features=0x7f/0x7f encap_ns=0xffff encap_trace_type=0xfff002 encap_remlen=127 encap_e2e_type=0xf000 \
	-- if_get ifindex=$ifx
# RFC 9197 §4.4.1: an encapsulating node MUST send the undefined bits 12-21
# and the reserved bit 23 as 0. Each one alone (with bit 0) is refused, the
# extack naming the attribute and the bit; several name the first.
for bit in 12 13 14 15 16 17 18 19 20 21 23; do
	b=$(printf '0x%06x' $((1 << (23 - bit))))
	what=undefined
	[ "$bit" = 23 ] && what=reserved
	reject "encap_trace_type_bit_${bit}_${what}_rejected" $EINVAL 'attr=encap_trace_type( |$)' \
		"HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE: bit $bit \\($b\\) is $what" \
		-- if_set ifindex=$ifx encap_trace_type=$((0x800000 | 1 << (23 - bit)))
done
reject encap_trace_type_refused_bits_name_the_first $EINVAL 'attr=encap_trace_type( |$)' \
	'HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE: bit 12 \(0x000800\) is undefined' \
	-- if_set ifindex=$ifx if_id=5 encap_trace_type=0x000ffd
hm_check "refused_trace_type_leaves_the_interface_unchanged" "if_id=65535 encap_trace_type=16773122" \
	"$(hm_gc if_get ifindex=$ifx | grep -o 'if_id=[0-9]*\|encap_trace_type=[0-9]*' | tr '\n' ' ' | sed 's/ $//')"
# Every bit an encapsulating node may set, alone: accepted and read back.
for bit in 0 1 2 3 4 5 6 7 8 9 10 11 22; do
	v=$((1 << (23 - bit)))
	hm_gc if_set ifindex=$ifx encap_trace_type=$v >/dev/null
	hm_check "encap_trace_type_bit_${bit}_accepted" "encap_trace_type=$v" \
		"$(hm_gc if_get ifindex=$ifx | grep -o 'encap_trace_type=[0-9]*')"
done
# Every feature bit alone: set it, clear the others with the selector.
for bit in 0 1 2 3 4 5 6; do
	v=$(printf '0x%x' $((1 << bit)))
	hm_gc if_set ifindex=$ifx features=$v/0x7f >/dev/null
	hm_check "feature_bit_${bit}_alone_set_and_read_back" "features=$v/0x7f" \
		"$(hm_gc if_get ifindex=$ifx | grep -o 'features=[^ ]*')"
done
# The selector limits the change: bit 0 set, bit 6 kept.
hm_gc if_set ifindex=$ifx features=0x1/0x1 >/dev/null
hm_check "feature_selector_changes_only_selected_bits" "features=0x41/0x7f" \
	"$(hm_gc if_get ifindex=$ifx | grep -o 'features=[^ ]*')"
hm_check "if_dump_lists_the_interface" "1" "$(hm_gc -d if_get | grep -c "ifindex=$ifx ")"

# The configuration goes away with the device.
ip link del hmc-dummy0
reject if_config_removed_with_device 2 'attr=ifindex( |$)' 'not configured' -- if_get ifindex=$ifx

# ---- counters ----
out=$(hm_gc -d counters_get)
hm_check_match "counters_dump_starts_with_netns_totals" \
	'^counters_get counters=\{ incr_inserted=0 .* events_send_err=0 hbh_limit=0 \}$' "$(echo "$out" | head -n 1)"
hm_check "counters_reset_accepted" "" "$(hm_gc counters_reset)"

# ---- permissions ----
EPERM=1
for cmd in "node_set node_id=1" "ns_add ns_id=77" "ns_del ns_id=7" "ns_set ns_id=7 ns_data=1" \
	   "if_set ifindex=1 if_id=1" "export_set batch_size=2" "counters_reset"; do
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all "$HM_CLIENT" $cmd)
	hm_check_match "${cmd%% *}_denied_without_cap_net_admin" "^error errno=$EPERM " "$out"
done
for cmd in node_get "ns_get ns_id=7" export_get "-d ns_get" "-d if_get" "-d counters_get"; do
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all "$HM_CLIENT" $cmd >/dev/null
	hm_check "${cmd// /_}_allowed_without_privileges" 0 $?
done
# CAP_NET_ADMIN in a user namespace that does not own this netns: denied.
out=$(unshare -U -r "$HM_CLIENT" node_set node_id=1234)
hm_check_match "node_set_denied_from_user_namespace_not_owning_netns" "^error errno=$EPERM " "$out"
# The owner of a new netns configures it; the initial netns is untouched.
out=$(unshare -U -r -n sh -c "'$HM_CLIENT' node_set node_id=4321 && '$HM_CLIENT' node_get")
hm_check "node_set_allowed_to_owner_of_netns" "node_get node_id=4321" "$out"
hm_check "node_set_in_child_netns_leaves_initial_netns" \
	"node_get node_id=16777215 node_id_wide=72057594037927935" "$(hm_gc node_get)"

# ---- per network namespace state ----
ip netns add "$ns_a"
ip netns add "$ns_b"
nsenter --net=/run/netns/"$ns_a" "$HM_CLIENT" ns_add ns_id=123 ns_data=1 >/dev/null
nsenter --net=/run/netns/"$ns_a" "$HM_CLIENT" node_set node_id=2 >/dev/null
hm_check "namespace_visible_in_its_netns" "1" \
	"$(nsenter --net=/run/netns/"$ns_a" "$HM_CLIENT" -d ns_get | grep -c 'ns_id=123 ')"
hm_check "namespace_invisible_in_other_netns" "0" \
	"$(nsenter --net=/run/netns/"$ns_b" "$HM_CLIENT" -d ns_get | grep -c 'ns_id=123 ')"
hm_check "fresh_netns_has_no_node_id" "node_get" \
	"$(nsenter --net=/run/netns/"$ns_b" "$HM_CLIENT" node_get)"
hm_check "fresh_netns_has_default_export" "export_get rate_limit=1000 batch_size=16 flush_ms=10 export_fields=63" \
	"$(nsenter --net=/run/netns/"$ns_b" "$HM_CLIENT" export_get)"
ip netns del "$ns_a"

# ---- dump round trip: 64 namespaces ----
for i in $(seq 1000 1063); do
	hm_gc ns_add ns_id=$i ns_data=$((i * 7)) ns_data_wide=$((i * 1000003)) rate_limit=$i >/dev/null || echo "add $i failed"
done >"$mon_out"
hm_check "64_namespaces_added" "" "$(cat "$mon_out")"
exp=$(for i in $(seq 1000 1063); do
	echo "ns_get ns_id=$i ns_data=$((i * 7)) ns_data_wide=$((i * 1000003)) rate_limit=$i counters={ events_queued=0 events_rate_limited=0 }"
done)
got=$(hm_gc -d ns_get | awk '$2 ~ /^ns_id=10[0-6][0-9]$/')
if [ "$exp" = "$got" ]; then
	hm_ok "dump_returns_every_namespace_in_order_with_its_values"
else
	hm_not_ok "dump_returns_every_namespace_in_order_with_its_values" \
		"expected $(echo "$exp" | wc -l) lines, observed $(echo "$got" | wc -l)" \
		"first difference: $(diff <(echo "$exp") <(echo "$got") | sed -n 2p)"
fi
for i in $(seq 1000 1063); do hm_gc ns_del ns_id=$i >/dev/null || echo "del $i failed"; done >"$mon_out"
hm_check "64_namespaces_deleted" "" "$(cat "$mon_out")"
hm_check "dump_empty_after_delete" "0" "$(hm_gc -d ns_get | grep -c 'ns_id=10[0-6][0-9] ')"

# ---- notifications on "config" ----
"$HM_CLIENT" monitor config 6 5000 >"$mon_out" &
mon=$!
for _ in $(seq 50); do grep -q subscribed "$mon_out" && break; sleep 0.1; done
hm_gc node_set node_id=42 >/dev/null
hm_gc ns_add ns_id=500 ns_data=9 >/dev/null
hm_gc ns_set ns_id=500 rate_limit=77 >/dev/null
hm_gc ns_del ns_id=500 >/dev/null
hm_gc if_set ifindex=1 if_id=3 >/dev/null
hm_gc export_set flush_ms=20 >/dev/null
wait $mon
hm_check "monitor_saw_six_changes" 0 $?
hm_check_match "node_set_notified" '^node_set node_id=42 ' "$(sed -n 2p "$mon_out")"
hm_check "ns_add_notified" "ns_add ns_id=500 ns_data=9 rate_limit=10000000 counters={ events_queued=0 events_rate_limited=0 }" "$(sed -n 3p "$mon_out")"
hm_check_match "ns_set_notified" '^ns_set ns_id=500 ns_data=9 rate_limit=77 ' "$(sed -n 4p "$mon_out")"
hm_check_match "ns_del_notified" '^ns_del ns_id=500 ' "$(sed -n 5p "$mon_out")"
hm_check_match "if_set_notified" '^if_set ifname=lo ifindex=1 if_id=3 ' "$(sed -n 6p "$mon_out")"
hm_check "export_set_notified" "export_set rate_limit=10000000 batch_size=16 flush_ms=20 export_fields=63" "$(sed -n 7p "$mon_out")"

# Rejected changes are not notified.
"$HM_CLIENT" monitor config 1 700 >"$mon_out" &
mon=$!
for _ in $(seq 50); do grep -q subscribed "$mon_out" && break; sleep 0.1; done
hm_gc node_set node_id=0x1000000 >/dev/null
hm_gc ns_del ns_id=4242 >/dev/null
wait $mon
hm_check "rejected_changes_not_notified" "subscribed config" "$(cat "$mon_out")"

# ---- unload ----
hm_unload
hm_check "module_unloads_with_state_in_place" 0 $?
hm_check "family_gone_after_unload" 1 "$(hm_gc family >/dev/null 2>&1; echo $?)"
hm_check "dmesg_free_of_warnings" "" "$(hm_dmesg_bad genl)"
hm_done
