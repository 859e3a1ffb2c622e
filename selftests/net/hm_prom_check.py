#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hm_prom_check.py - compare hopmarkd's Prometheus metrics with the CLI.
#
#   hm_prom_check.py link METRICS LINK_JSON NODE LIST
#	Every interface of `hopmark -j -s link show` (LINK_JSON) has, for each
#	counter of its "stats", the sample of the counter's family
#	{dev="<ifname>",node="NODE"} in the exposition METRICS with the same
#	value, and METRICS has no hopmark_ioam_* sample of another interface.
#	The family of a counter is the one `hopmarkd --list-metrics` (LIST)
#	gives it in its source column, "hopmark_stats:<counter>". The same
#	for the PBT-M counters of the interfaces that have them ("pbt_stats",
#	pbt_stats:<counter>, hopmark_pbt_*).
#   hm_prom_check.py int METRICS INT_JSON NODE LIST
#	The same for `hopmark -j -s int show` (its "interfaces", each with its
#	"counters"), int_stats and the hopmark_int_* samples; when the CLI
#	finds no INT maps (its JSON error, errno ENOENT), METRICS must have no
#	hopmark_int_* sample.
#   hm_prom_check.py coll METRICS STATS_JSON LIST
#	Every counter of hopmark-collector's statistics file (-s, STATS_JSON:
#	{"group": {"name": N}}) equals its sample in METRICS, the family
#	`hopmark-collector --list-metrics` (LIST) gives "<group>:<name>", and
#	METRICS has no hopmark_collector_* sample the file does not have.
#   hm_prom_check.py value METRICS NAME [LABEL=VALUE...]
#	Print the value of one sample ("missing" when there is none).
#
# Prints one line per mismatch ("# expected ... observed ...") and a count;
# exits 1 when anything differs. The parser reads the text format 0.0.4
# (name, optional {labels} with \\, \" and \n escapes, value).
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def unescape(v):
    return re.sub(r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), v)


def parse(path):
    """Samples as {(name, frozenset(labels.items())): value}."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            m = SAMPLE.match(line)
            if not m:
                raise SystemExit('unparsable line: %r' % line)
            labels = {}
            if m.group(3):
                pos = 0
                body = m.group(3)
                while pos < len(body):
                    lm = LABEL.match(body, pos)
                    if not lm:
                        raise SystemExit('unparsable labels: %r' % line)
                    labels[lm.group(1)] = unescape(lm.group(2))
                    pos = lm.end()
            out[(m.group(1), frozenset(labels.items()))] = float(m.group(4))
    return out


def families(path, stats_map):
    """{counter: family} from hopmarkd --list-metrics' source column."""
    out = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 4 and w[3].startswith(stats_map + ':'):
                out[w[3].split(':', 1)[1]] = w[0]
    if not out:
        raise SystemExit('%s: no family of %s' % (path, stats_map))
    return out


def compare(samples, prefix, ifaces, node, fam):
    """ifaces: {ifname: {counter: value}}; returns the mismatch count."""
    bad = 0
    seen = set()
    for dev, counters in sorted(ifaces.items()):
        for name, want in sorted(counters.items()):
            if name not in fam:
                print('# %s: counter %s of the CLI has no metric family' % (dev, name))
                bad += 1
                continue
            key = (fam[name], frozenset({'dev': dev, 'node': node}.items()))
            seen.add(key)
            got = samples.get(key)
            if got is None or got != want:
                print('# %s{dev="%s",node="%s"}: expected %s (CLI) observed %s (metrics)'
                      % (key[0], dev, node, want, 'missing' if got is None else '%d' % got))
                bad += 1
    for key in sorted(k for k in samples if k[0].startswith(prefix) and k not in seen):
        print('# %s%s: in the metrics, not in the CLI\'s output' % (key[0], dict(key[1])))
        bad += 1
    print('# %s: %d samples compared, %d differ' % (prefix, len(seen), bad))
    return bad


def main():
    mode = sys.argv[1]
    samples = parse(sys.argv[2])
    if mode == 'value':
        want = dict(a.split('=', 1) for a in sys.argv[4:])
        for (name, labels), v in samples.items():
            if name == sys.argv[3] and all(dict(labels).get(k) == x for k, x in want.items()):
                print('%d' % v if v == int(v) else v)
                return 0
        print('missing')
        return 0
    with open(sys.argv[3]) as f:
        doc = json.load(f)
    if mode == 'coll':
        fam = {}
        with open(sys.argv[4]) as f:
            for line in f:
                w = line.split()
                if len(w) == 3 and ':' in w[2]:
                    fam[w[2]] = w[0]
        bad = 0
        seen = set()
        for group, counters in sorted(doc.items()):
            for name, want in sorted(counters.items()):
                key = (fam.get(group + ':' + name, '?'), frozenset())
                seen.add(key)
                got = samples.get(key)
                if got is None or got != want:
                    print('# %s (%s:%s): expected %s (statistics file) observed %s (metrics)'
                          % (key[0], group, name, want, 'missing' if got is None else '%d' % got))
                    bad += 1
        for key in sorted(k for k in samples if k[0].startswith('hopmark_collector_') and k not in seen):
            print('# %s: in the metrics, not in the statistics file' % key[0])
            bad += 1
        print('# hopmark_collector_: %d samples compared, %d differ' % (len(seen), bad))
        return 1 if bad else 0
    node = sys.argv[4]
    if mode == 'link':
        ifaces = {i['ifname']: i['stats'] for i in doc}
        fam = families(sys.argv[5], 'hopmark_stats')
        bad = compare(samples, 'hopmark_ioam_', ifaces, node, fam)
        # PBT-M's counters, of the interfaces that show them ("pbt_stats")
        ifaces = {i['ifname']: i['pbt_stats'] for i in doc if 'pbt_stats' in i}
        fam = families(sys.argv[5], 'pbt_stats')
        bad += compare(samples, 'hopmark_pbt_', ifaces, node, fam)
        return 1 if bad else 0
    if mode == 'int':
        if isinstance(doc, dict) and 'error' in doc:
            if doc['error'].get('errno') != 2:
                raise SystemExit('hopmark int show: %s' % doc['error'].get('message'))
            print('# no INT maps on this node (the CLI: errno 2)')
            ifaces = {}
        else:
            ifaces = {i['dev']: i['counters'] for i in doc.get('interfaces', [])}
        fam = families(sys.argv[5], 'int_stats')
        return 1 if compare(samples, 'hopmark_int_', ifaces, node, fam) else 0
    raise SystemExit('unknown mode ' + mode)


if __name__ == '__main__':
    sys.exit(main())
