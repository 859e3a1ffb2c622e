#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# doc_tables.py - rerun the commands of Documentation/*.rst and compare
# their output with the text printed beside them (Documentation/doc-tables.rst).
#
# Usage: selftests/docs/doc_tables.py [--full] [--root DIR] FILE.rst...
#
# A command block is a literal block whose first line starts with "$ ":
# each "$ command" line is followed by what the command printed. An rst
# comment ".. doc-check: MODE" before a command block says what to do with
# it (the next command block after the comment is the one it selects):
#
#   .. doc-check: exact              rerun, the output must be the text
#   .. doc-check: tolerance=N%       rerun, numbers within N % (relative)
#   .. doc-check: manual REASON      not rerun (needs a VM, minutes, ...)
#   .. doc-check: example REASON     shows a usage, states no measurement
#
# and, anywhere in a document, one of
#
#   .. doc-check: none REASON        the document states no measured number
#   .. doc-check: host REASON        its measured numbers are of one host and
#                                    moment (timings, delays), each with its
#                                    command; nothing can compare a rerun
#
# Indented lines under a block marker give options:
#
#   select: TEXT     rerun only the block's commands that contain TEXT
#                    (--full reruns them all)
#   quick: COMMAND   rerun COMMAND instead (unless --full): its output must
#                    be the first lines of the documented output
#   budget: SECONDS  time allowed to each rerun (default 60, at most 120)
#
# Standard output is compared (standard error is shown when the command
# fails); lines starting with "(" (timings) and trailing white space are
# ignored on both sides. Commands run with sh from DIR (default: the
# repository this script is in), LC_ALL=C and TZ=UTC; the program must be a
# path inside the repository (build/..., bench/..., selftests/...), or
# "python3 -c CODE", a computation given whole in the command. With
# --full every command of every checked block runs as documented (no
# select:, no quick:, budget BUDGET_FULL: minutes).
#
# Rules, each a TAP test point: every command block has a marker; every
# document has at least one exact or tolerance block, or says "none" or
# "host" with a reason (and "none" never beside a checked block); every
# rerun exits 0 within its budget and matches (a unified diff shows how it
# does not). Exit status: 0 when every point passed, 1 otherwise, 2 on bad
# usage.

import difflib
import os
import re
import shlex
import signal
import subprocess
import sys
import time

MODES = ('exact', 'tolerance', 'manual', 'example', 'none', 'host')
DOC_MODES = ('none', 'host')
BUDGET_DEFAULT = 60.0
BUDGET_MAX = 120.0
BUDGET_FULL = 1800.0
MARKER = re.compile(r'^\.\. doc-check:\s*(.*)$')
NUMBER = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?')


class DocError(Exception):
    """A document that breaks the marker grammar (file:line: why)."""


class Marker:
    def __init__(self, path, line, mode, arg, opts):
        self.path, self.line, self.mode, self.arg, self.opts = path, line, mode, arg, opts
        self.block = None


class Block:
    """A command block: its first line number and [(line, command, [output])]."""

    def __init__(self, line, runs):
        self.line, self.runs = line, runs


def indent_of(s):
    return len(s) - len(s.lstrip(' '))


def parse_marker(path, lines, i):
    """The marker at lines[i] and its indented option lines; (marker, next i)."""
    m = MARKER.match(lines[i])
    words = m.group(1).split(None, 1)
    if not words:
        raise DocError('%s:%d: doc-check marker without a mode' % (path, i + 1))
    mode, arg = words[0], words[1].strip() if len(words) > 1 else ''
    tol = None
    if mode.startswith('tolerance='):
        t = re.fullmatch(r'tolerance=(\d+(?:\.\d+)?)%', mode)
        if not t:
            raise DocError('%s:%d: "%s": expected tolerance=N%%' % (path, i + 1, mode))
        mode, tol = 'tolerance', float(t.group(1)) / 100.0
    if mode not in MODES:
        raise DocError('%s:%d: unknown doc-check mode "%s" (%s)' %
                   (path, i + 1, mode, ', '.join(MODES)))
    j = i + 1
    if mode in ('manual', 'example') + DOC_MODES:
        # the reason, continued on indented lines
        while j < len(lines) and lines[j].strip() and indent_of(lines[j]) > 0:
            arg = (arg + ' ' + lines[j].strip()).strip()
            j += 1
        if not arg:
            raise DocError('%s:%d: doc-check: %s needs a reason' % (path, i + 1, mode))
        mk = Marker(path, i + 1, mode, arg, {})
        mk.tolerance = None
        return mk, j
    if arg:
        raise DocError('%s:%d: doc-check: %s takes no text after it ("%s"); '
                   'options go on indented lines' % (path, i + 1, mode, arg))
    opts = {}
    while j < len(lines) and lines[j].strip() and indent_of(lines[j]) > 0:
        o = re.match(r'^\s+(select|quick|budget|full):\s*(\S.*?)\s*$', lines[j])
        if not o:
            raise DocError('%s:%d: doc-check option "%s": expected select:, quick:, '
                       'budget: or full:' % (path, j + 1, lines[j].strip()))
        if o.group(1) == 'full' and not o.group(2).startswith('only '):
            raise DocError('%s:%d: doc-check option "%s": expected "full: only REASON"' %
                       (path, j + 1, lines[j].strip()))
        opts[o.group(1)] = o.group(2)
        j += 1
    if 'budget' in opts:
        try:
            b = float(opts['budget'])
        except ValueError:
            b = -1
        if not 0 < b <= BUDGET_MAX:
            raise DocError('%s:%d: budget "%s": expected 0 < seconds <= %g' %
                       (path, i + 1, opts['budget'], BUDGET_MAX))
        opts['budget'] = b
    mk = Marker(path, i + 1, mode, arg, opts)
    mk.tolerance = tol
    return mk, j


def literal_blocks(lines):
    """Yield (first line index, dedented lines) of every literal block."""
    i = 0
    while i < len(lines):
        s = lines[i].rstrip()
        opener = (s.endswith('::') and not MARKER.match(s)) or \
            re.match(r'^\s*\.\. (code-block|code|sourcecode)::', s)
        if not opener:
            i += 1
            continue
        base = indent_of(lines[i])
        j = i + 1
        # directive options (":linenos:") belong to the directive
        while j < len(lines) and re.match(r'^\s+:[\w-]+:', lines[j]) and \
              indent_of(lines[j]) > base:
            j += 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or indent_of(lines[j]) <= base:
            i = j
            continue
        ind = indent_of(lines[j])
        start, body = j, []
        while j < len(lines) and (not lines[j].strip() or indent_of(lines[j]) >= ind):
            body.append(lines[j][ind:].rstrip())
            j += 1
        while body and not body[-1]:
            body.pop()
        yield start, body
        i = j


def command_block(start, body):
    """A Block if body starts with "$ command", else None."""
    if not body or not body[0].startswith('$ '):
        return None
    runs = []
    k = 0
    while k < len(body):
        line = body[k]
        if line.startswith('$ '):
            cmd, first = line[2:], start + k + 1
            while cmd.endswith('\\') and k + 1 < len(body):
                k += 1
                cmd = cmd[:-1] + ' ' + body[k].strip()
            runs.append((first, cmd.strip(), []))
        else:
            runs[-1][2].append(line)
        k += 1
    return Block(start + 1, runs)


def parse(path):
    """(markers, blocks) of one document; markers[i].block set for block markers."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    markers, pending = [], None
    items = []  # (line index, kind, object) in document order
    i = 0
    while i < len(lines):
        if MARKER.match(lines[i]):
            mk, i = parse_marker(path, lines, i)
            items.append((mk.line - 1, 'marker', mk))
            markers.append(mk)
            continue
        i += 1
    for start, body in literal_blocks(lines):
        b = command_block(start, body)
        if b:
            items.append((start, 'block', b))
    items.sort(key=lambda t: t[0])
    blocks = []
    for _, kind, obj in items:
        if kind == 'marker':
            if obj.mode in DOC_MODES:
                continue
            if pending:
                raise DocError('%s:%d: doc-check marker followed by another marker '
                           '(line %d) before any command block' %
                           (path, pending.line, obj.line))
            pending = obj
        else:
            blocks.append(obj)
            obj.marker = pending
            if pending:
                pending.block = obj
            pending = None
    if pending:
        raise DocError('%s:%d: doc-check marker with no command block after it' %
                   (path, pending.line))
    return markers, blocks


def kept(lines):
    """Lines compared: no timing lines, no trailing blanks."""
    out = [l.rstrip() for l in lines if not l.startswith('(')]
    while out and not out[-1]:
        out.pop()
    return out


def same_within(want, got, tol):
    """Whether got equals want with each number within tol (relative)."""
    wt, gt = NUMBER.split(want), NUMBER.split(got)
    wn, gn = NUMBER.findall(want), NUMBER.findall(got)
    if len(wn) != len(gn) or [re.sub(r'\s+', ' ', s) for s in wt] != \
       [re.sub(r'\s+', ' ', s) for s in gt]:
        return False
    for a, b in zip(wn, gn):
        a, b = float(a), float(b)
        if abs(a - b) > tol * max(abs(a), abs(b)):
            return False
    return True


def compare(want, got, tol, prefix):
    """Lines of a unified diff, empty when got matches want."""
    if prefix:
        if not got:
            return ['quick command printed nothing to compare']
        want = want[:len(got)]
    if tol is None:
        ok = want == got
    else:
        ok = len(want) == len(got) and all(same_within(a, b, tol) for a, b in zip(want, got))
    if ok:
        return []
    return list(difflib.unified_diff(want, got, 'documented', 'rerun', lineterm=''))


def program_problem(root, cmd):
    """Why cmd is not one the repository runs itself, or None."""
    try:
        words = shlex.split(cmd)
    except ValueError as e:
        return 'cannot split "%s": %s' % (cmd, e)
    if not words:
        return 'empty command'
    while len(words) > 1 and re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', words[0]):
        words.pop(0)  # VAR=value before the program
    prog = words[0]
    if prog == 'python3' and len(words) > 2 and words[1] == '-c':
        return None  # a computation given in full in the command itself
    if os.path.isabs(prog) or '..' in prog.split('/') or '/' not in prog:
        return ('program "%s" is not a path inside the repository (build/..., '
            'bench/..., selftests/...)' % prog)
    path = os.path.join(root, prog)
    if not os.access(path, os.X_OK):
        return 'program "%s" is not built or not executable (make check-build)' % prog
    return None


def rerun(root, cmd, budget):
    """(status, standard output lines, standard error lines, seconds).

    status is None when cmd ran out of its budget (it is killed then).
    """
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    t0 = time.monotonic()
    # its own process group, so that a timeout stops every process of it
    p = subprocess.Popen(['sh', '-c', cmd], cwd=root, env=env, stdin=subprocess.DEVNULL,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 start_new_session=True)
    try:
        out, err = p.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, [], [], time.monotonic() - t0
    return p.returncode, out.decode('utf-8', 'replace').split('\n'), \
        err.decode('utf-8', 'replace').split('\n'), time.monotonic() - t0


class Tap:
    def __init__(self):
        self.n, self.failed = 0, 0

    def point(self, ok, name, diag=()):
        self.n += 1
        if not ok:
            self.failed += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, name))
        for d in diag:
            print('# ' + d)
        sys.stdout.flush()


def check_block(tap, root, rel, b, full):
    mk = b.marker
    budget = mk.opts.get('budget', BUDGET_DEFAULT) if not full else BUDGET_FULL
    runs = b.runs
    if 'select' in mk.opts and not full:
        runs = [r for r in runs if mk.opts['select'] in r[1]]
        if not runs:
            tap.point(False, '%s:%d: select "%s" matches a command of the block' %
                  (rel, b.line, mk.opts['select']))
            return
    quick = mk.opts.get('quick') if not full else None
    if quick and len(runs) != 1:
        tap.point(False, '%s:%d: quick: applies to one command; select one' % (rel, b.line))
        return
    for line, cmd, doc_out in runs:
        run_cmd = quick or cmd
        name = '%s:%d: "%s" prints the documented output' % (rel, line, cmd)
        if 'full' in mk.opts and not full:
            tap.point(True, '%s # SKIP rerun by make doc-tables-full: %s' %
                  (name, mk.opts['full'][len('only '):]))
            continue
        if quick:
            name = '%s:%d: "%s" prints the first lines of "%s"' % (rel, line, quick, cmd)
        why = program_problem(root, run_cmd)
        if why:
            tap.point(False, name, [why])
            continue
        status, out, err, secs = rerun(root, run_cmd, budget)
        if status is None:
            tap.point(False, name, ['did not finish within its budget of %g s: make '
                        'check reruns only commands of seconds (quick:)' % budget])
            continue
        diag = ['%.1f s' % secs]
        if status != 0:
            tap.point(False, name, ['exit status %d; its standard error ends:' % status] +
                  kept(err)[-20:])
            continue
        diff = compare(kept(doc_out), kept(out), mk.tolerance, bool(quick))
        tap.point(not diff, name, diag + diff)


def main(argv):
    args = argv[1:]
    full, root = False, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    while args and args[0].startswith('--'):
        a = args.pop(0)
        if a == '--full':
            full = True
        elif a == '--root' and args:
            root = os.path.abspath(args.pop(0))
        else:
            print('usage: doc_tables.py [--full] [--root DIR] FILE.rst...',
                  file=sys.stderr)
            return 2
    if not args:
        print('usage: doc_tables.py [--full] [--root DIR] FILE.rst...', file=sys.stderr)
        return 2
    tap = Tap()
    print('TAP version 13')
    for path in args:
        rel = os.path.relpath(os.path.abspath(path), root)
        try:
            markers, blocks = parse(path)
        except (DocError, OSError, UnicodeDecodeError) as e:
            tap.point(False, '%s: parses' % rel, [str(e)])
            continue
        docm = [m for m in markers if m.mode in DOC_MODES]
        checked = [b for b in blocks if b.marker and b.marker.mode in ('exact', 'tolerance')
                   and 'full' not in b.marker.opts]
        unmarked = [b for b in blocks if not b.marker]
        tap.point(not unmarked, '%s: every command block has a doc-check marker' % rel,
              ['line %d: "$ %s": add ".. doc-check: exact" (or tolerance=N%%, manual '
               'REASON, example REASON) before it' % (b.line, b.runs[0][1])
               for b in unmarked])
        if len(docm) > 1:
            tap.point(False, '%s: has one document marker (none or host)' % rel,
                  ['line %d: doc-check: %s' % (m.line, m.mode) for m in docm])
        elif docm and docm[0].mode == 'none':
            tap.point(not checked, '%s: states no measured number (%s)' %
                  (rel, docm[0].arg),
                  ['but it has %d checked block(s) (line %d): remove "none"' %
                   (len(checked), checked[0].line)] if checked else [])
        elif docm:
            tap.point(True, '%s: measured numbers of one host, not rerun (%s)%s' %
                  (rel, docm[0].arg, '; %d checked block(s) besides' % len(checked)
                   if checked else ''))
        else:
            tap.point(bool(checked), '%s: has a table make check reruns' % rel,
                  [] if checked else
                  ['no ".. doc-check: exact" or "tolerance=N%" block, and no ".. '
                   'doc-check: none REASON" (the document measures nothing) or '
                   '"host REASON"'])
        for b in blocks:
            if b.marker and b.marker.mode in ('exact', 'tolerance'):
                check_block(tap, root, rel, b, full)
    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
