#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every core event of every x86 model of perf 6.1's JSON tree: the attr
`pmukit explain --json --events-dir TREE --cpuid ID --sysfs FIXTURE` gives
must equal the attr perf 6.1 itself opens for the same event name (perf's
tables are compiled from that same tree) under PERF_CPUID=ID on the same fake
PMU tree (tests/oracle/perf_attr.sh). Driven by
tests/integration/perf61_tree_oracle.sh; prints TAP, one test per model.

Usage: perf61_tree.py --tree ARCH --pmukit BIN --oracle perf_attr.sh
                      --fixtures DIR [--jobs N] [--chunk N] [--models a,b]

Models: the "core" rows of ARCH/x86/mapfile.csv, in file order. For each,
a CPU identifier in perf 6.1's x86 form (vendor-family-model-stepping,
family decimal, model and stepping upper-case hex) that the row's regular
expression matches and that no earlier row takes (perf and pmukit use the
first row that matches). Core events: the JSON objects with an EventName and
a Unit that is absent (the "cpu" PMU) or cpu_core / cpu_atom (hybrid),
deduplicated by (name, unit). Also the uncore events with an ExtSel (a key
perf 6.12 dropped; 6.1's jevents shifts it left by 8 into the event code),
in stat mode, on x86-skl plus an uncore PMU per Unit whose event format is
config:0-7,21 (see extsel_fixture).

Specs and fake PMU trees (tests/fixtures/sysfs), by vendor and Unit:
  Intel, no Unit         the bare name on x86-skl (a "cpu" PMU whose format
                         has every term the core files use: event, umask,
                         cmask, edge, inv, any, pc, in_tx, in_tx_cp, ldlat,
                         offcore_rsp, frontend);
  Intel, cpu_core/atom   "cpu_core/NAME/" or "cpu_atom/NAME/" on x86-hybrid
                         (perf 6.1 gives a Unit-less event no hybrid PMU);
  AMD                    the bare name on amd-zen3.
Both modes, stat and record (record: the table's period), by default. perf
runs in batches of CHUNK events (perf stat -e a,b,...; one private namespace
per batch list, JOBS lists in parallel) and pmukit explains the same lists,
one call each. A batch that either side refuses, or that does not give one
event per name, is split in halves and run again, down to single events.
Differences are listed as TAP comments, capped per model.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

SHOW = 12  # differing events listed per model


def cpuid_parts(pattern):
    """Expand a mapfile regex into candidate strings (alternations, bracket
    classes, '+' once or twice), lazily and in order."""
    pos = 0

    def parse_alt():
        nonlocal pos
        branches = [parse_seq()]
        while pos < len(pattern) and pattern[pos] == '|':
            pos += 1
            branches.append(parse_seq())
        return ('alt', branches)

    def parse_seq():
        nonlocal pos
        items = []
        while pos < len(pattern) and pattern[pos] not in '|)':
            c = pattern[pos]
            if c == '(':
                pos += 1
                node = parse_alt()
                pos += 1  # ')'
            elif c == '[':
                end = pos + 1
                while pattern[end] != ']' or end == pos + 1:
                    end = pattern.index(':]', end) + 2 if pattern.startswith('[:', end) else end + 1
                body = pattern[pos + 1:end]
                pos = end + 1
                node = ('set', expand_class(body))
            else:
                pos += 1
                node = ('set', [c])
            if pos < len(pattern) and pattern[pos] == '+':
                pos += 1
                node = ('alt', [('seq', [node]), ('seq', [node, node])])
            items.append(node)
        return ('seq', items)

    def expand_class(body):
        chars = []
        body = body.replace('[:xdigit:]', '0123456789ABCDEF')
        i = 0
        while i < len(body):
            if i + 2 < len(body) and body[i + 1] == '-':
                chars += [chr(x) for x in range(ord(body[i]), ord(body[i + 2]) + 1)]
                i += 3
            else:
                chars.append(body[i])
                i += 1
        return chars

    def gen(node):
        kind, val = node
        if kind == 'set':
            yield from val
        elif kind == 'alt':
            for b in val:
                yield from gen(b)
        else:
            def rec(i):
                if i == len(val):
                    yield ''
                    return
                for head in gen(val[i]):
                    for tail in rec(i + 1):
                        yield head + tail
            yield from rec(0)

    tree = parse_alt()
    return gen(tree)


def perf_match(regex, cpuid):
    """perf 6.1's x86 strcmp_cpuid_str: the whole identifier (less its
    stepping when the mapfile row has none) must match."""
    py = regex.replace('[[:xdigit:]]', '[0-9A-Fa-f]')
    full_row = regex.count('-') == 3
    full_id = cpuid.count('-') == 3
    s = cpuid.rsplit('-', 1)[0] if full_id and not full_row else cpuid
    return re.fullmatch(py, s) is not None


def canonical(cpuid):
    """Fields as perf prints them (no leading zeros in hex model/stepping)."""
    parts = cpuid.split('-')
    if len(parts) < 3:
        return False
    return all(p == '0' or not p.startswith('0') for p in parts[1:])


def choose_cpuid(rows, k):
    regex = rows[k][0]
    for n, cand in enumerate(cpuid_parts(regex)):
        if n > 5000:
            break
        cpuid = cand if cand.count('-') == 3 else cand + '-0'
        if not canonical(cpuid):
            continue
        first = next((j for j, r in enumerate(rows) if perf_match(r[0], cpuid)), None)
        if first == k:
            return cpuid
    return None


def model_events(model_dir):
    """(name, unit, ExtSel?) of every core event, and of every uncore event
    with an ExtSel; first occurrence order, no repeats."""
    seen, out = set(), []
    for f in sorted(os.listdir(model_dir)):
        if not f.endswith('.json'):
            continue
        with open(os.path.join(model_dir, f), encoding='utf-8') as fh:
            for e in json.load(fh):
                if not isinstance(e, dict) or not e.get('EventName'):
                    continue
                unit = e.get('Unit') or None
                if unit not in (None, 'cpu_core', 'cpu_atom') and 'ExtSel' not in e:
                    continue
                key = (e['EventName'].lower(), unit)
                if key not in seen:
                    seen.add(key)
                    out.append(key + (unit not in (None, 'cpu_core', 'cpu_atom'),))
    return out


# perf 6.1's PMU names of the Units that have ExtSel events (uncore_<lower> else).
EXTSEL_PMUS = {'QPI LL': 'uncore_qpi', 'CBO': 'uncore_cbox', 'SBO': 'uncore_sbox'}


def extsel_fixture(base, out, units):
    """x86-skl plus one uncore PMU per Unit, its event format 9 bits wide
    (config:0-7,21: the kernel's event_ext of the SNB-EP..BDX uncores) so that
    ExtSel, bit 8 of the event code, shows in the attr."""
    subprocess.run(['cp', '-r', base, out], check=True)
    for k, unit in enumerate(sorted(units)):
        pmu = EXTSEL_PMUS.get(unit, 'uncore_' + unit.lower()) + '_0'
        os.makedirs(os.path.join(out, pmu, 'format'))
        for f, v in (('type', str(40 + k)), ('cpumask', '0'), ('format/event', 'config:0-7,21'),
                     ('format/umask', 'config:8-15')):
            with open(os.path.join(out, pmu, f), 'w') as fh:
                fh.write(v + '\n')


def norm_attr(a):
    out = {}
    for k, v in a.items():
        if isinstance(v, str) and re.fullmatch(r'0x[0-9a-fA-F]+', v):
            v = int(v, 16)
        out[k] = v
    return out


def diff_attr(want, got):
    w, g = norm_attr(want), norm_attr(got)
    d = []
    for k in sorted(set(w) | set(g), key=lambda x: (x not in w, x)):
        a, b = w.get(k, '(absent)'), g.get(k, '(absent)')
        if a != b:
            fa = hex(a) if isinstance(a, int) and k.startswith('config') else a
            fb = hex(b) if isinstance(b, int) and k.startswith('config') else b
            d.append(f'{k}: perf {fa}, pmukit {fb}')
    return d


def run_perf(oracle, jobs, outdir, njobs, tmp, tag):
    """jobs: [(id, fixture_dir, cpuid, mode, [specs])]; perf_attr.sh --batch
    over njobs lists in parallel. Returns the processes to wait for."""
    lists = [[] for _ in range(max(1, min(njobs, len(jobs))))]
    # contiguous slices, so a list mounts few fixtures
    per = (len(jobs) + len(lists) - 1) // len(lists) if jobs else 0
    for i, j in enumerate(jobs):
        lists[i // per].append(j)
    procs = []
    for n, lst in enumerate(lists):
        if not lst:
            continue
        path = os.path.join(tmp, f'{tag}.{n}.list')
        with open(path, 'w') as f:
            for jid, fx, cpuid, mode, specs in lst:
                # one comma-separated -e: perf 6.1 takes three times longer
                # over 300 -e options than over one list of 300
                f.write('\t'.join([jid, fx, cpuid, mode, ','.join(specs)]) + '\n')
        err = open(os.path.join(tmp, f'{tag}.{n}.err'), 'w')
        procs.append((subprocess.Popen([oracle, '--batch', path, outdir],
                                       stdout=subprocess.DEVNULL, stderr=err), err, path,
                      [j[0] for j in lst]))
    return procs


def wait_perf(procs):
    """-> (messages, ids of the jobs of the lists perf_attr.sh failed on as a whole)"""
    errs, failed = [], set()
    for p, err, path, ids in procs:
        p.wait()
        err.close()
        if p.returncode != 0:
            failed.update(ids)
            with open(err.name) as f:
                errs.append(f'perf_attr.sh --batch {os.path.basename(path)}: exit '
                            f'{p.returncode}: {first_line(f.read())}')
    return errs, failed


def collect_perf(jobs, outdir):
    """{id: (rc, [events], err)} of perf_attr.sh's output files."""
    res = {}
    for job in jobs:
        jid = job[0]

        def rd(ext):
            try:
                with open(os.path.join(outdir, f'{jid}.{ext}'), encoding='utf-8') as f:
                    return f.read()
            except OSError:
                return None
        rc = rd('rc')
        rc = int(rc) if rc and rc.strip().isdigit() else 99
        out = rd('out') or ''
        evs = [json.loads(l) for l in out.splitlines() if l.strip()]
        err = '\n'.join(l for l in (rd('err') or '').splitlines()
                        if l.strip() and not l.startswith('Invalid CPUID'))
        res[jid] = (rc, evs, err)
    return res


def run_pmukit(pmukit, tree, cpuid, fixture, mode, specs):
    args = [pmukit, 'explain', '--json', '--mode', mode, '--events-dir', tree,
            '--cpuid', cpuid, '--sysfs', fixture]
    for s in specs:
        args += ['-e', s]
    env = dict(os.environ, PMUKIT_PERF_PARANOID='-1')
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        msg = [l for l in p.stderr.decode(errors='replace').splitlines() if l.strip()]
        return None, ' '.join(msg[-1:]) or f'exit {p.returncode}'
    try:
        got = json.loads(p.stdout)
    except ValueError:
        return None, 'not JSON'
    if not isinstance(got, list) or len(got) != len(specs):
        return None, f'{len(got) if isinstance(got, list) else "?"} objects for {len(specs)} specs'
    return got, None


def first_line(s):
    for l in (s or '').splitlines():
        l = l.strip()
        if l and not re.match(r'perf_attr\.sh: perf \w+ refused', l):
            return re.sub(r'\s+', ' ', l)
    return ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tree', required=True)
    ap.add_argument('--pmukit', required=True)
    ap.add_argument('--oracle', required=True)
    ap.add_argument('--fixtures', required=True)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--chunk', type=int, default=300)
    ap.add_argument('--models', default='')
    ap.add_argument('--modes', default='stat,record')
    args = ap.parse_args()
    t0 = time.monotonic()
    modes = [x for x in args.modes.split(',') if x in ('stat', 'record')] or ['stat']
    x86 = os.path.join(args.tree, 'x86')
    with open(os.path.join(x86, 'mapfile.csv'), newline='') as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith('Family-model')]
    want_models = set(filter(None, args.models.split(',')))

    # Models, their CPU identifiers, events and (fixture, spec) per event.
    models, extsel_units = [], set()
    for k, r in enumerate(rows):
        if len(r) < 4 or r[3] != 'core':
            continue
        if want_models and r[2] not in want_models:
            continue
        m = {'name': r[2], 'regex': r[0], 'cpuid': choose_cpuid(rows, k), 'groups': {},
             'problem': None}
        if not m['cpuid']:
            m['problem'] = f'no CPU identifier matches {r[0]} before an earlier row does'
        else:
            amd = m['cpuid'].startswith('AuthenticAMD')
            for name, unit, uncore in model_events(os.path.join(x86, r[2])):
                if uncore:
                    fx, spec = 'extsel', name
                    extsel_units.add(unit)
                elif amd:
                    fx, spec = 'amd-zen3', name
                elif unit:
                    fx, spec = 'x86-hybrid', f'{unit}/{name}/'
                else:
                    fx, spec = 'x86-skl', name
                m['groups'].setdefault(fx, []).append((name, spec))
        models.append(m)

    tmp = tempfile.mkdtemp(prefix='perf61-tree.')
    try:
        return run(args, t0, modes, models, extsel_units, tmp)
    finally:
        subprocess.run(['rm', '-rf', tmp])


def run(args, t0, modes, models, extsel_units, tmp):
    outdir = os.path.join(tmp, 'run')
    os.mkdir(outdir)
    fixtures = {fx: os.path.join(args.fixtures, fx) for fx in ('x86-skl', 'x86-hybrid', 'amd-zen3')}
    fixtures['extsel'] = os.path.join(tmp, 'extsel')
    extsel_fixture(fixtures['x86-skl'], fixtures['extsel'], extsel_units)

    # A group: (model index, fixture, mode). perf: batches of --chunk specs.
    # The uncore ExtSel events in stat mode only (no sampling on uncore PMUs).
    groups = [(mi, fx, mode) for mi, m in enumerate(models) for fx in sorted(m['groups'])
              for mode in modes if fx != 'extsel' or mode == 'stat']
    chunks = []  # (group, first index, [(name, spec)])
    for g in groups:
        evs = models[g[0]]['groups'][g[1]]
        chunks += [(g, c, evs[c:c + args.chunk]) for c in range(0, len(evs), args.chunk)]

    def pmukit(g, specs):
        mi, fx, mode = g
        return run_pmukit(args.pmukit, args.tree, models[mi]['cpuid'],
                          fixtures[fx], mode, specs)

    # Rounds: every chunk runs on both sides (perf in the background, pmukit
    # meanwhile). pmukit gets the same lists as perf: in record mode the
    # first event of a list carries the side-band bits and a list of several
    # events samples their ids. A chunk that does not map 1:1 on both sides
    # (perf or pmukit refuses an event, or opens several for one) is split in
    # two for the next round, down to single events.
    pr, po = {}, {}  # (group, index) -> perf's, pmukit's outcome
    rounds = runs = 0
    batch_err = []
    t_first = None
    while chunks:
        jobs = []
        for k, (g, c, part) in enumerate(chunks):
            jobs.append((f'r{rounds}.{k}', fixtures[g[1]],
                         models[g[0]]['cpuid'], g[2], [sp for _, sp in part]))
        procs = run_perf(args.oracle, jobs, outdir, args.jobs, tmp, f'r{rounds}')
        pm = [pmukit(g, [sp for _, sp in part]) for g, c, part in chunks]
        errs, failed = wait_perf(procs)
        batch_err += errs
        res = collect_perf(jobs, outdir)
        runs += len(jobs)
        if t_first is None:
            t_first = time.monotonic() - t0
        split = []
        for k, (g, c, part) in enumerate(chunks):
            rc, evs, err = res[jobs[k][0]]
            got, gerr = pm[k]
            if jobs[k][0] in failed:  # the oracle itself failed: no use splitting
                for i in range(len(part)):
                    pr[(g, c + i)] = ('error', 'perf_attr.sh --batch failed (below)')
                    po[(g, c + i)] = (None, 'not compared')
            elif rc == 0 and len(evs) == len(part) and got is not None:
                for i in range(len(part)):
                    pr[(g, c + i)] = ('ok', evs[i]['attr'])
                    po[(g, c + i)] = (got[i].get('attr', {}), None)
            elif len(part) > 1:
                h = len(part) // 2
                split += [(g, c, part[:h]), (g, c + h, part[h:])]
            else:
                po[(g, c)] = (got[0].get('attr', {}), None) if got else (None, gerr)
                if rc == 0 and len(evs) == 1:
                    pr[(g, c)] = ('ok', evs[0]['attr'])
                elif rc == 0:
                    pr[(g, c)] = ('multi', len(evs))
                elif rc == 1:
                    pr[(g, c)] = ('refused', first_line(err))
                else:
                    pr[(g, c)] = ('error', f'oracle exit {rc}: {first_line(err)}')
        chunks = split
        rounds += 1

    # TAP: one test per model, its events in every mode.
    print(f'1..{len(models)}')
    fails = total = total_ext = bad_total = 0
    for mi, m in enumerate(models):
        n = mi + 1
        if m['problem']:
            fails += 1
            print(f"not ok {n} - {m['name']}: {m['problem']}")
            continue
        nev = sum(len(v) for fx, v in m['groups'].items() if fx != 'extsel')
        next_ = len(m['groups'].get('extsel', []))
        total += nev
        total_ext += next_
        fxs = ', '.join(f'{fx} {len(v)}' for fx, v in sorted(m['groups'].items()) if fx != 'extsel')
        bad = []
        for g in (g for g in groups if g[0] == mi):
            _, fx, mode = g
            for i, (name, spec) in enumerate(m['groups'][fx]):
                kind, val = pr[(g, i)]
                gattr, gerr = po[(g, i)]
                what = f'{mode} {spec}'
                if kind == 'ok':
                    if gerr:
                        bad.append(f'{what}: perf opens it, pmukit explain fails: {gerr}')
                    else:
                        d = diff_attr(val, gattr)
                        if d:
                            bad.append(f'{what}: ' + '; '.join(d))
                elif kind == 'refused':
                    bad.append(f'{what}: perf 6.1 refuses it ({val}); pmukit '
                               + ('too' if gerr else 'accepts it'))
                elif kind == 'multi':
                    bad.append(f'{what}: perf 6.1 opens {val} events for it')
                else:
                    bad.append(f'{what}: {val}')
        bad_total += len(bad)
        desc = f"{m['name']} ({m['cpuid']}; {fxs}): {nev} core events, {'+'.join(modes)}"
        if next_:
            desc += f'; {next_} uncore events with ExtSel, stat'

        if bad:
            fails += 1
            print(f'not ok {n} - {desc}: {len(bad)} differ')
            for b in bad[:SHOW]:
                print(f'# {b}')
            if len(bad) > SHOW:
                print(f'# ... {len(bad) - SHOW} more')
        else:
            print(f'ok {n} - {desc}')
    for e in batch_err:
        print(f'# {e}')
    wall = time.monotonic() - t0
    print(f'# {len(models)} models, {total} core events x {len(modes)} modes and {total_ext} '
          f'uncore ExtSel events, {bad_total} differ; '
          f'{runs} perf runs in {rounds} round(s) (first round done at {t_first or 0:.1f} s); '
          f'wall {wall:.1f} s')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
