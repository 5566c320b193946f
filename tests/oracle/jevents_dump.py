#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Oracle for pmukit's JSON tree reader: what perf's own jevents.py makes of
an arch/ tree, one JSON object per line (events, metrics, metric groups).

Usage: PERF_PMU_EVENTS_PY=DIR jevents_dump.py ARCH_ROOT

DIR holds perf's jevents.py and metric.py (tools/perf/pmu-events). The
module is imported, not run: its JsonEvent class does the translation and its
read_json_events / preprocess_arch_std_files do the loading, so the output is
perf's view. Which files form which model follows jevents' walk (sorted
directory entries, files 1..4 levels below the arch, a new table at each
directory whose only sub-directories are "sys" ones). Strings are printed as
perf's C tables hold them at run time: jevents escapes newlines and quotes
for the generated C source and the compiler undoes that, so we undo it here;
an empty string is NULL there, null here.
"""
import json
import os
import sys


def c_unescape(s):
    """Undo the escapes jevents' fixdesc adds for the C source."""
    if s is None:
        return None
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s) and s[i + 1] in 'nr"':
            out.append({'n': '\n', 'r': '\r', '"': '"'}[s[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def nullable(s):
    return s if s else None


def flag(x):
    # perf stores the first character minus '0' (0 when absent or empty)
    return bool(x) and x[0] != '0'


def model_files(arch_path):
    """(model dir relative to the arch, [json paths]) in jevents' walk order."""
    tables = []
    current = None

    def is_leaf_ignoring_sys(path):
        return all(not (e.is_dir() and e.name != 'sys') for e in os.scandir(path))

    def ftw(path, parents):
        nonlocal current
        for item in sorted(os.scandir(path), key=lambda e: e.name):
            if item.is_dir() and is_leaf_ignoring_sys(item.path):
                current = ('/'.join(parents + [item.name]), [])
                tables.append(current)
            elif (item.is_file() and 1 <= len(parents) <= 4 and current
                  and item.name.endswith('.json')):
                current[1].append(item)
            if item.is_dir():
                ftw(item.path, parents + [item.name])

    ftw(arch_path, [])
    return [t for t in tables if t[1]]


def main():
    pydir = os.environ.get('PERF_PMU_EVENTS_PY')
    if not pydir or len(sys.argv) != 2:
        sys.exit('usage: PERF_PMU_EVENTS_PY=DIR jevents_dump.py ARCH_ROOT')
    root = sys.argv[1]
    sys.path.insert(0, pydir)
    import jevents  # perf's module, from PERF_PMU_EVENTS_PY

    out = sys.stdout
    for arch in sorted(os.listdir(root)):
        arch_path = os.path.join(root, arch)
        if arch == 'test' or arch.startswith('.') or not os.path.isdir(arch_path):
            continue
        # The standard events accumulate across arches in jevents too.
        jevents.preprocess_arch_std_files(arch_path)
        for rel, items in model_files(arch_path):
            model = f'{arch}/{rel}'
            for item in items:
                if item.name == 'metricgroups.json':
                    with open(item.path) as f:
                        for name, desc in json.load(f).items():
                            out.write(json.dumps({
                                'kind': 'group', 'model': model, 'name': name,
                                'desc': f'{desc}'}, ensure_ascii=False) + '\n')
                    continue
                topic = jevents.get_topic(item.name)
                for e in jevents.read_json_events(item.path, topic):
                    if e.name:
                        out.write(json.dumps({
                            'kind': 'event', 'model': model, 'name': e.name,
                            'pmu': e.pmu, 'topic': nullable(e.topic),
                            'encoding': nullable(e.event),
                            'desc': nullable(c_unescape(e.desc)),
                            'long_desc': nullable(c_unescape(e.long_desc)),
                            'compat': nullable(e.compat and f'{e.compat}'),
                            'unit': nullable(e.unit and f'{e.unit}'),
                            'deprecated': flag(e.deprecated),
                            'perpkg': flag(e.perpkg)}, ensure_ascii=False) + '\n')
                    if e.metric_name:
                        out.write(json.dumps({
                            'kind': 'metric', 'model': model, 'name': e.metric_name,
                            'pmu': e.pmu,
                            'groups': nullable(e.metric_group and f'{e.metric_group}'),
                            'desc': nullable(c_unescape(e.desc))},
                            ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
