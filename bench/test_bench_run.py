#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_bench_run.py - make check's smoke run of `make bench` (bench/run.sh -q),
# so that the benchmarks cannot rot: every bench of bench/run.d/ runs a few
# iterations, and bpf-cost's table and JSON must hold every row that
# `bpf-cost --list` names, each with numbers that can be true (positive
# times, min <= median <= max, a work row costing more than nothing, goals
# marked met exactly when the median is within them). No figure is compared
# with a threshold: timings are not tests (issue 11). bpf-cost itself fails
# when a row's counters show its program took another path than the row's.
#
# TAP; needs root (BPF_PROG_TEST_RUN of tc and XDP programs): skips without.

import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('HM_BUILD', os.path.join(TOP, 'build'))
COST = os.path.join(BUILD, 'bench', 'bpf-cost')
ROW = re.compile(r'^(\S+)\s+([+-]\d+\.\d)\s+([+-]\d+\.\d)\s+([+-]\d+\.\d)\s+(\d+\.\d)\s+(.*)$')

TTS = ['tt800000', 'ttc00000', 'ttf80000', 'ttfff000']
# The PBT-M rows (bpf/hopmark_pbt.bpf.c) Documentation/performance-postcards.rst cites.
PBT = ['pbt_head.ipv4', 'pbt_head.ipv6', 'pbt_head.not_watched', 'pbt_ingress.ipv4',
       'pbt_ingress.ipv6', 'pbt_xdp.ipv4', 'pbt_egress.ipv4', 'pbt_egress.ipv6',
       'pbt_egress.transit_ipv4', 'pbt_end.ipv4', 'pbt_end.ipv6', 'pbt_ingress.not_marked',
       'pbt_xdp.not_marked', 'pbt_egress.not_marked', 'pbt_egress.no_role', 'pbt_router.ipv4']
CALIB = ['calib.tc_resize', 'calib.hash_lookup', 'calib.percpu_hash_lookup',
         'calib.array_lookup', 'calib.ktime_tai', 'calib.ktime_mono']

n = 0
failed = 0


def ok(cond, what, diag=()):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', n, what))
    if not cond:
        failed += 1
        for line in diag:
            print('# ' + line)
    return cond


def skip_all(why):
    print('1..0 # SKIP ' + why)
    sys.exit(0 if os.environ.get('HARNESS_ACTIVE') else 4)


def main():
    if os.geteuid() != 0:
        skip_all('needs root (BPF_PROG_TEST_RUN of tc and XDP programs, bpffs, netns)')
    if not os.access(COST, os.X_OK):
        print('1..1')
        ok(False, 'bpf-cost is built', ['%s: missing (make bench or make check-build)' % COST])
        return 1
    print('1..12')
    lst = subprocess.run([COST, '--list'], capture_output=True, text=True)
    rows = lst.stdout.split()
    ok(lst.returncode == 0 and len(rows) > 0, 'bpf-cost --list names the rows',
       ['exit %d, %d rows: %s' % (lst.returncode, len(rows), lst.stderr.strip())])
    # Rows other figures stand on: the tc ingress transit half, the
    # tc-ingress transit pair, and the calibration rows the performance
    # doc's reasons cite.
    need = (['transit_tcin.%s' % t for t in TTS + ['no_ioam']] +
            ['transit_tc.%s' % t for t in TTS + ['no_ioam']] + CALIB + PBT)
    missing = [r for r in need if r not in rows]
    ok(not missing, 'bpf-cost --list has the transit_tcin, transit_tc, calib and pbt rows',
       ['expected %d rows, missing: %s' % (len(need), ' '.join(missing))])

    with tempfile.TemporaryDirectory(prefix='hm-bench-') as out:
        run = subprocess.run([os.path.join(TOP, 'bench', 'run.sh'), '-q', '-o', out],
                             capture_output=True, text=True)
        ok(run.returncode == 0, 'bench/run.sh -q exits 0 (every bench ran or skipped)',
           ['expected exit 0, got %d' % run.returncode] +
           run.stdout.splitlines()[-5:] + run.stderr.splitlines()[-10:])

        # The table: each row once, in --list's order.
        seen = {}
        bad = []
        for line in run.stdout.splitlines():
            m = ROW.match(line)
            if not m or m.group(1) not in rows:
                continue
            med, lo, hi, noop = (float(m.group(i)) for i in (2, 3, 4, 5))
            seen.setdefault(m.group(1), []).append((med, lo, hi, noop, m.group(6)))
            if not lo <= med <= hi or noop <= 0:
                bad.append('%s: min %.1f median %.1f max %.1f no-op %.1f' %
                           (m.group(1), lo, med, hi, noop))
        missing = [r for r in rows if r not in seen]
        twice = [r for r in rows if len(seen.get(r, [])) > 1]
        ok(not missing and not twice, 'the table has every row of --list exactly once',
           ['missing: %s' % ' '.join(missing), 'more than once: %s' % ' '.join(twice)])
        ok(not bad, 'every table row: min <= median <= max, no-op time > 0', bad)

        try:
            with open(os.path.join(out, 'bench.json')) as f:
                merged = json.load(f)
            d = merged['benches']['bpf-cost']
        except (OSError, ValueError, KeyError) as e:
            ok(False, 'bench.json holds bpf-cost\'s JSON', [str(e)])
            return 1
        ok(True, 'bench.json holds bpf-cost\'s JSON')
        ok(d.get('kernel') and d.get('cpu') and d.get('repeat') == 200 and
           d.get('rounds') == 3, 'JSON: kernel, CPU, repeat 200 and 3 rounds',
           ['kernel %r cpu %r repeat %r rounds %r' %
            (d.get('kernel'), d.get('cpu'), d.get('repeat'), d.get('rounds'))])

        # The postcard collector bench: every generated packet stitched
        # complete in process, and both UDP receivers took postcards.
        pc = merged['benches'].get('pbt-collector')
        if pc is None:
            ok(False, 'bench.json holds pbt-collector\'s JSON', ['missing'])
        else:
            st = pc['stitch']
            rx = {u['rx']: u for u in pc['udp']}
            ok(st['postcards'] == pc['postcards'] and st['complete'] == st['paths'] ==
               pc['packets'] and all(rx.get(r, {}).get('postcards', 0) > 0 and
                                     rx[r]['cpu_ns'] > 0 for r in ('hopmark', 'nfacctd')),
               'pbt-collector: every packet stitched complete; hopmark-collector and nfacctd '
               'took postcards and used CPU time',
               ['postcards %r of %r, paths %r, complete %r, packets %r, udp %r' %
                (st['postcards'], pc['postcards'], st['paths'], st['complete'],
                 pc['packets'], pc['udp'])])

        jrows = {r['id']: r for r in d.get('rows', [])}
        bad = ['%s: not in the JSON' % r for r in rows if r not in jrows]
        for rid, r in jrows.items():
            c = r['cost_ns']
            rounds = [x for case in r['cases']
                      for x in case['prog_ns_rounds'] + case['noop_ns_rounds']]
            if len(r['cost_ns_rounds']) != 3 or any(x <= 0 for x in rounds):
                bad.append('%s: rounds %r' % (rid, rounds))
            if not c['min'] <= c['q1'] <= c['median'] <= c['q3'] <= c['max']:
                bad.append('%s: quantiles out of order %r' % (rid, c))
            if r['goal_ns'] is not None and r['met'] != (c['median'] <= r['goal_ns']):
                bad.append('%s: median %.1f, goal %r, met %r' %
                           (rid, c['median'], r['goal_ns'], r['met']))
            for case in r['cases']:
                if case['runs'] < 600 or case['events_lost']:
                    bad.append('%s: %d runs, %d records lost' %
                               (case['id'], case['runs'], case['events_lost']))
        ok(not bad, 'JSON: every row, 3 positive rounds per run, quantiles in order, '
           'met agrees with the goal, no ring record lost', bad)

        # A row whose counter proved the work costs more than the no-op.
        work = [r for r in jrows.values() if r['cases'][0]['counter'] and
                not r['id'].endswith('no_option')]
        cheap = ['%s: median %.1f ns' % (r['id'], r['cost_ns']['median'])
                 for r in work if r['cost_ns']['median'] <= 0]
        ok(work and not cheap, 'JSON: the %d rows doing counted work cost > 0 ns' % len(work),
           cheap)
        bad = ['%s: %r' % (case['id'], case.get('xlated_insns'))
               for r in jrows.values() for case in r['cases']
               if not (case.get('xlated_insns') or 0) > 0]
        ok(not bad, 'JSON: every program\'s instruction count (xlated_insns > 0)', bad)

        # --before: a second build in the same run; here the same objects.
        bj = os.path.join(out, 'before.json')
        cmd = [COST, '-n', '100', '-r', '3', '--only', 'transit.tt',
               '--before', os.path.join(BUILD, 'bpf'), '-o', bj]
        run = subprocess.run(cmd, capture_output=True, text=True)
        bad = ['%s exited %d: %s' % (' '.join(cmd), run.returncode, run.stderr.strip())]
        if run.returncode == 0:
            with open(bj) as f:
                b = json.load(f)
            bad = ['%s: before %r, x %r' % (r['id'], r.get('before', {}).get('cost_ns'),
                                             r.get('x_before'))
                   for r in b['rows']
                   if not (r.get('x_before') or 0) > 0 or
                   not r['before']['cost_ns']['median'] > 0]
            if len(b['rows']) != 4:
                bad.append('expected the 4 rows transit.tt*, got %d' % len(b['rows']))
        ok(not bad, '--before: the transit.tt* rows get the second build\'s median and x > 0',
           bad)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
