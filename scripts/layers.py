#!/usr/bin/env python3
"""layers: checks that each folder of src/ includes only itself and the layers
below it, and that only src/term sees curses; lists the functions over 100
lines and the files over 800. Prints FAIL lines for what breaks the rules.
Usage: scripts/layers.py SRC_DIR"""
import os, re, sys
src = sys.argv[1]
order = ['base', 'text', 'course', 'cl', 'problem', 'run', 'gpumodel', 'grade', 'ui', 'term', 'cli']
rank = {l: i for i, l in enumerate(order)}
found = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
for d in found:
    if d not in rank: print(f'FAIL src/{d}/ is not a known layer (add it to the order in scripts/layers.py and the Makefile)')
stray = [f for f in os.listdir(src) if f.endswith(('.c', '.h'))]
for f in stray: print(f'FAIL src/{f}: every file belongs in a layer folder')
bad = 0
long_funcs, long_files = [], []
for d in found:
    for f in sorted(os.listdir(os.path.join(src, d))):
        if not f.endswith(('.c', '.h')): continue
        path = os.path.join(src, d, f)
        text = open(path, encoding='utf-8').read()
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*[<"]([^">]+)[">]', line)
            if not m: continue
            inc = m.group(1)
            if re.match(r'(n?curses|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)', inc) and d != 'term':
                print(f'FAIL src/{d}/{f}:{n}: includes <{inc}>: only src/term may see curses'); bad += 1
            layer = inc.split('/')[0] if '/' in inc and inc.split('/')[0] in rank else None
            if '"' in line and '/' not in inc and os.path.exists(os.path.join(src, d, inc)):
                print(f'FAIL src/{d}/{f}:{n}: write "{d}/{inc}", naming the layer'); bad += 1
            if layer and rank[layer] > rank.get(d, -1):
                print(f'FAIL src/{d}/{f}:{n}: the {d} layer includes {inc} from the {layer} layer above it'); bad += 1
        lines = text.count('\n')
        if lines > 800: long_files.append(f'src/{d}/{f}: {lines} lines')
        # function bodies: a line opening a definition at column 0, to the closing brace at column 0
        start = None
        for n, line in enumerate(text.splitlines(), 1):
            if start is None and re.match(r'[A-Za-z_].*\)\s*\{\s*$', line) and not line.startswith(('if', 'for', 'while', 'switch')):
                start, name = n, re.sub(r'\(.*', '', line).split()[-1].lstrip('*')
            elif start is not None and line.startswith('}'):
                if n - start + 1 > 100: long_funcs.append(f'src/{d}/{f}:{start}: {name}, {n - start + 1} lines')
                start = None
print(f'ok   includes: {len(found)} layers, none reaches above itself' if not bad else f'FAIL {bad} include(s) across layers')
for x in long_funcs: print(f'     to split (over 100 lines): {x}')
for x in long_files: print(f'     to split (over 800 lines): {x}')
