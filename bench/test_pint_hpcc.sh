#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke test of build/bench/pint-hpcc (TAP), about two seconds: HPCC
# converges near eta = 0.95 on a long-lived flow with INT and with PINT's
# 8-bit feedback through the real sink, PINT's slowdowns stay within a
# stated factor of INT's on a short fat-tree run, and p = 1/16 puts the
# utilisation query on 1 packet in 16.
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/build/bench/pint-hpcc"

# in_range VALUE LO HI: LO <= VALUE <= HI
in_range() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'
}

echo "1..4"
if ! long=$("$bin" -L 2 -S int,pint,pintT,pint16T 2>&1); then
	echo "$long" | sed 's/^/# /'
	long=""
fi
# utilisation and max queue (KB) of one long-lived flow under scheme $1
util1() { echo "$long" | awk -v s="$1" '$1 == s && $2 == 1 { print $3 }'; }
queue1() { echo "$long" | awk -v s="$1" '$1 == s && $2 == 1 { print $4 }'; }

u=$(util1 int); q=$(queue1 int)
echo "# int: one flow, utilisation expected 0.93..0.97, observed ${u:-none}; max queue expected <= 5 KB, observed ${q:-none} KB"
if in_range "$u" 0.93 0.97 && in_range "$q" 0 5; then
	echo "ok 1 - hpcc_int_long_flow_converges_near_eta"
else
	echo "not ok 1 - hpcc_int_long_flow_converges_near_eta"
fi

ok=1
for s in pintT pint16T; do
	u=$(util1 $s); q=$(queue1 $s)
	echo "# $s (tx window T): utilisation expected 0.93..0.97, observed ${u:-none}; max queue expected <= 5 KB, observed ${q:-none} KB"
	in_range "$u" 0.93 0.97 && in_range "$q" 0 5 || ok=0
done
# The datapath's tx window (at least 100 us) settles lower: a known gap
# (Documentation/pint.rst), bounded here so that a broken encoder (code 0:
# full speed, a growing queue) or a stuck one (no sending) still fails.
u=$(util1 pint); q=$(queue1 pint)
echo "# pint (datapath tx window): utilisation expected 0.80..0.97, observed ${u:-none}; max queue expected <= 5 KB, observed ${q:-none} KB"
in_range "$u" 0.80 0.97 && in_range "$q" 0 5 || ok=0
if [ $ok = 1 ]; then
	echo "ok 2 - hpcc_pint_long_flow_converges_near_eta"
else
	echo "not ok 2 - hpcc_pint_long_flow_converges_near_eta"
fi

if ! fct=$("$bin" -T fattree -w websearch -l 50 -d 4 2>&1); then
	echo "$fct" | sed 's/^/# /'
	fct=""
fi
# p50 or p95 ($2: 3 or 4) of all flows under scheme $1
all() { echo "$fct" | awk -v s="$1" -v c="$2" '$1 == s && $2 == "all" { print $c }'; }
i50=$(all int 3); i95=$(all int 4)
ok=1
[ -n "$fct" ] && ! echo "$fct" | grep -q unfinished || ok=0
for s in pint pint16; do
	p50=$(all $s 3); p95=$(all $s 4)
	lim50=$(awk -v x="$i50" 'BEGIN { print x * 1.25 }')
	lim95=$(awk -v x="$i95" 'BEGIN { print x * 1.5 }')
	echo "# $s: p50 expected <= 1.25 x int's ($lim50), observed ${p50:-none}; p95 expected <= 1.5 x int's ($lim95), observed ${p95:-none}"
	in_range "$p50" 1 "$lim50" && in_range "$p95" 1 "$lim95" || ok=0
done
if [ $ok = 1 ]; then
	echo "ok 3 - hpcc_pint_slowdown_within_factor_of_int"
else
	echo "$fct" | sed 's/^/# /'
	echo "not ok 3 - hpcc_pint_slowdown_within_factor_of_int"
fi

fb() { echo "$fct" | awk -v s="$1" '$1 == s && $2 == "feedback" { print $3 }'; }
f1=$(fb pint); f16=$(fb pint16)
r=$(awk -v a="$f16" -v b="$f1" 'BEGIN { if (b > 0) print a / b }')
echo "# pint16 feedback / pint feedback: expected 0.055..0.070 (1/16 = 0.0625), observed ${r:-none} ($f16 / $f1)"
if in_range "$r" 0.055 0.070; then
	echo "ok 4 - pint16_utilisation_on_one_packet_in_16"
else
	echo "not ok 4 - pint16_utilisation_on_one_packet_in_16"
fi
