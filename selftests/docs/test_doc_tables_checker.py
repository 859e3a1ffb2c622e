#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_doc_tables_checker.py - the doc-table checker (doc_tables.py) itself:
# it passes a document whose table is what its command prints, and fails
# one whose table was copied from another run (the k=200 table under a
# "-k 2000" command, issue 10), changed, left stale, unmarked or made by a
# program outside the repository. TAP; each point runs the checker on a
# document written to a temporary directory, with tables made at run time
# by build/bench/pint-latency-eval (a few ms), and prints the checker's
# output when its verdict is not the expected one.

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHECKER = os.path.join(HERE, 'doc_tables.py')
EVAL = 'build/bench/pint-latency-eval'

n = 0
failed = 0


def point(ok, name, diag=''):
    global n, failed
    n += 1
    failed += not ok
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
    for line in diag.rstrip('\n').split('\n') if diag and not ok else []:
        print('# ' + line)
    sys.stdout.flush()


def run_eval(args):
    p = subprocess.run([os.path.join(ROOT, EVAL)] + args.split(), cwd=ROOT,
               stdout=subprocess.PIPE, check=True)
    return p.stdout.decode().rstrip('\n').split('\n')


def block(cmd, out, marker='.. doc-check: exact', opts=()):
    text = marker + '\n' + ''.join('   %s\n' % o for o in opts)
    text += '\nThe table::\n\n    $ %s\n' % cmd
    return text + ''.join(('    ' + l).rstrip() + '\n' for l in out) + '\n'


def checker(tmp, name, doc, full=False):
    path = os.path.join(tmp, name + '.rst')
    with open(path, 'w') as f:
        f.write('Title\n=====\n\n' + doc)
    args = [CHECKER, '--root', ROOT] + (['--full'] if full else []) + [path]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode()


def expect(tmp, name, doc, status, must_print=(), full=False):
    """One point: the checker exits with status and prints each of must_print."""
    rc, out = checker(tmp, name, doc, full)
    missing = [m for m in must_print if m not in out]
    point(rc == status and not missing, name,
          'expected exit %d, observed %d%s\n%s' %
          (status, rc, ''.join('; output lacks "%s"' % m for m in missing), out))


def main():
    if not os.access(os.path.join(ROOT, EVAL), os.X_OK):
        print('1..0 # SKIP %s not built (make check-build)' % EVAL)
        return 4 if not os.environ.get('HARNESS_ACTIVE') else 0
    cmd2000 = EVAL + ' -t 2 -n 1000 -s 1 -k 2000'
    real = run_eval('-t 2 -n 1000 -s 1 -k 2000')
    copied = run_eval('-t 2 -n 1000 -s 1 -k 200')
    longer = run_eval('-t 2 -n 10000 -s 1 -k 2000')
    row = next(i for i, l in enumerate(real) if l.lstrip().startswith('1000  raw'))
    if real == copied:
        print('1..0 # SKIP k=200 and k=2000 print the same table at n=1000; '
              'the copied-table fixture needs them to differ')
        return 0
    changed = list(real)
    changed[row] = changed[row].replace('%', '#', 1)  # one cell's text
    stray = list(real)
    stray[row] += '0'  # issue 10: "27.7%0"
    nudged = list(real)
    cell = nudged[row].split()[3]  # "12.3%" -> one more
    num = float(cell.rstrip('%'))
    nudged[row] = nudged[row].replace(cell, '%.1f%%' % (num + 0.1), 1)
    timed = real + ['', '(4.1 s on 2 threads)']

    print('TAP version 13')
    with tempfile.TemporaryDirectory() as tmp:
        expect(tmp, 'right_table_passes', block(cmd2000, real), 0,
               ['ok 3 - '])
        expect(tmp, 'copied_k200_table_under_k2000_command_fails',
               block(cmd2000, copied), 1,
               ['not ok 3', '--- documented', '+++ rerun', '-5 hops', 'KLL k=200',
            '+5 hops', 'KLL k=2000'])
        expect(tmp, 'changed_cell_fails', block(cmd2000, changed), 1,
               ['not ok 3', '-' + changed[row], '+' + real[row]])
        expect(tmp, 'stray_character_after_a_row_fails', block(cmd2000, stray), 1,
               ['not ok 3', '-' + stray[row]])
        expect(tmp, 'number_off_by_0.1_fails_exact', block(cmd2000, nudged), 1,
               ['not ok 3', '-' + nudged[row]])
        expect(tmp, 'number_off_by_0.1_passes_tolerance',
               block(cmd2000, nudged, '.. doc-check: tolerance=5%'), 0)
        expect(tmp, 'changed_text_fails_tolerance',
               block(cmd2000, changed, '.. doc-check: tolerance=5%'), 1, ['not ok 3'])
        expect(tmp, 'timing_lines_are_ignored', block(cmd2000, timed), 0)
        expect(tmp, 'missing_last_row_fails', block(cmd2000, real[:row]), 1,
               ['+' + real[row]])
        quick = 'quick: ' + cmd2000
        expect(tmp, 'quick_run_matching_the_first_lines_passes',
               block(EVAL + ' -t 2 -n 10000 -s 1 -k 2000', longer, opts=[quick]), 0)
        copied_longer = run_eval('-t 2 -n 10000 -s 1 -k 200')
        expect(tmp, 'quick_run_against_a_copied_table_fails',
               block(EVAL + ' -t 2 -n 10000 -s 1 -k 2000', copied_longer, opts=[quick]),
               1, ['not ok 3', 'KLL k=200'])
        expect(tmp, 'full_run_ignores_quick',
               block(cmd2000, real, opts=['quick: ' + EVAL + ' -t 2 -n 1000 -s 2 -k 2000']),
               0, ['ok 3 - '], full=True)
        expect(tmp, 'full_only_block_is_skipped_beside_a_failing_one',
               block(cmd2000, real[:row]) + block(cmd2000, copied,
                                                  opts=['full: only minutes of CPU']),
               1, ['# SKIP rerun by make doc-tables-full: minutes of CPU'])
        expect(tmp, 'full_only_block_with_a_copied_table_passes_by_default',
               block(cmd2000, real) + block(cmd2000, copied,
                                            opts=['full: only minutes of CPU']),
               0, ['# SKIP rerun by make doc-tables-full'])
        expect(tmp, 'full_only_block_with_a_copied_table_fails_in_full',
               block(cmd2000, real) + block(cmd2000, copied,
                                            opts=['full: only minutes of CPU']),
               1, ['not ok 4'], full=True)
        expect(tmp, 'document_with_only_full_only_blocks_fails',
               block(cmd2000, real, opts=['full: only minutes of CPU']), 1, ['not ok 2'])
        expect(tmp, 'full_option_without_only_fails',
               block(cmd2000, real, opts=['full: yes']), 1, ['full: only REASON'])
        expect(tmp, 'command_block_without_marker_fails',
               '\nThe table::\n\n    $ %s\n    x\n\n' % cmd2000, 1,
               ['not ok 1', 'add ".. doc-check: exact"'])
        expect(tmp, 'document_without_checked_block_or_none_fails',
               'Measured: 12 ms.\n', 1, ['not ok 2'])
        expect(tmp, 'document_with_only_manual_blocks_fails',
               block(cmd2000, real, '.. doc-check: manual needs a VM'), 1, ['not ok 2'])
        expect(tmp, 'none_with_reason_passes',
               '.. doc-check: none a reference, no measurement\n\nText.\n', 0)
        expect(tmp, 'none_without_reason_fails', '.. doc-check: none\n\nText.\n', 1,
               ['needs a reason'])
        expect(tmp, 'none_beside_a_checked_block_fails',
               '.. doc-check: none no numbers\n\n' + block(cmd2000, real), 1,
               ['remove "none"'])
        expect(tmp, 'host_with_reason_passes',
               '.. doc-check: host timings of one machine\n\nIt took 3 s.\n', 0)
        expect(tmp, 'example_block_is_not_rerun',
               '.. doc-check: none a reference\n\n' +
               block('hopmark -j link show', ['{"links":[]}'],
                 '.. doc-check: example a usage'), 0)
        expect(tmp, 'unknown_mode_fails', '.. doc-check: exactly\n\nText.\n', 1,
               ['unknown doc-check mode'])
        expect(tmp, 'marker_without_block_fails', '.. doc-check: exact\n\nText.\n', 1,
               ['no command block after it'])
        expect(tmp, 'program_outside_the_repository_fails',
               block('/bin/echo hello', ['hello']), 1, ['not a path inside'])
        expect(tmp, 'program_from_PATH_fails', block('echo hello', ['hello']), 1,
               ['not a path inside'])
        expect(tmp, 'inline_python3_computation_passes',
               block("python3 -c 'print(6 * 7)'", ['42']), 0, ['ok 3 - '])
        expect(tmp, 'python3_running_a_file_fails',
               block('python3 /tmp/x.py', ['42']), 1, ['not a path inside'])
        expect(tmp, 'failing_command_fails', block(EVAL + ' -t 0', []), 1,
               ['exit status 2', 'expected 1 .. 100000'])
        expect(tmp, 'command_over_its_budget_fails',
               block(EVAL + ' -t 20 -n 1000000 -s 1', real, opts=['budget: 0.3']), 1,
               ['budget of 0.3 s'])
        expect(tmp, 'select_picks_one_command_of_a_block',
               '.. doc-check: exact\n   select: -k 2000\n\n::\n\n    $ %s\n%s\n    $ %s\n'
               '    not its output\n\n' % (cmd2000, ''.join('    %s\n' % l.rstrip() for l in real),
                          EVAL + ' -t 2 -n 100 -s 1'), 0)
        expect(tmp, 'select_matching_nothing_fails',
               block(cmd2000, real, opts=['select: -k 3000']), 1, ['not ok 3'])
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
