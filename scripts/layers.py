#!/usr/bin/env python3
"""layers: checks the shape of src/. Each folder (a layer) includes only itself
and the layers below it, only src/term sees curses, no function is over 100
lines and no file over 800. Function extents come from Universal Ctags.
Prints a FAIL line for each rule broken, and then exits 1.
Usage: scripts/layers.py SRC_DIR"""
import json, os, re, subprocess, sys
MAX_FUNC, MAX_FILE = 100, 800
src = sys.argv[1]
order = ['base', 'text', 'course', 'cl', 'problem', 'run', 'gpumodel', 'grade', 'ui', 'term', 'cli']
rank = {l: i for i, l in enumerate(order)}
fails = 0

def fail(msg):
    global fails
    fails += 1
    print('FAIL ' + msg)

def functions(paths):
    """(path, name, first line, last line) of each C function defined in paths, or None without Universal Ctags"""
    cmd = ['ctags', '--language-force=C', '--kinds-C=f', '--fields=+ne', '--output-format=json', '-f', '-', *paths]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tags = [json.loads(l) for l in out.splitlines()]
    return [(t['path'], t['name'], t['line'], t['end']) for t in tags if t.get('_type') == 'tag' and 'end' in t]

found = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
for d in found:
    if d not in rank: fail(f'src/{d}/ is not a known layer (add it to the order in scripts/layers.py and the Makefile)')
for f in sorted(os.listdir(src)):
    if f.endswith(('.c', '.h')): fail(f'src/{f}: every file belongs in a layer folder')

# includes: each one's layer, named, and never above the including file's
paths, sizes = [], {}
for d in found:
    for f in sorted(os.listdir(os.path.join(src, d))):
        if not f.endswith(('.c', '.h')): continue
        paths.append(os.path.join(src, d, f))
        text = open(paths[-1], encoding='utf-8').read()
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*[<"]([^">]+)[">]', line)
            if not m: continue
            inc = m.group(1)
            if re.match(r'(n?curses|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)', inc) and d != 'term':
                fail(f'src/{d}/{f}:{n}: includes <{inc}>: only src/term may see curses')
            layer = inc.split('/')[0] if '/' in inc and inc.split('/')[0] in rank else None
            if '"' in line and '/' not in inc and os.path.exists(os.path.join(src, d, inc)):
                fail(f'src/{d}/{f}:{n}: write "{d}/{inc}", naming the layer')
            if layer and rank[layer] > rank.get(d, -1):
                fail(f'src/{d}/{f}:{n}: the {d} layer includes {inc} from the {layer} layer above it')
        sizes[f'src/{d}/{f}'] = text.count('\n')
if not fails: print(f'ok   includes: {len(found)} layers, none reaches above itself')

# sizes: each file's lines, and each function's from the line of its name to its closing brace
big = [(name, n) for name, n in sizes.items() if n > MAX_FILE]
for name, n in big:
    fail(f'{name}: {n} lines, over {MAX_FILE}: move a cohesive group of functions into a file pair of its own')
funcs = functions(paths)
if funcs is None:
    fail('function sizes unknown: Universal Ctags (`ctags`) is missing: install the package universal-ctags')
    funcs = []
long = sorted((p, a, b, name) for p, name, a, b in funcs if b - a + 1 > MAX_FUNC)
for p, a, b, name in long:
    fail(f'src/{os.path.relpath(p, src)}:{a}: {name}() is {b - a + 1} lines, over {MAX_FUNC}: split it into helpers')
if funcs and not big and not long:
    print(f'ok   sizes: {len(sizes)} files, none over {MAX_FILE} lines; {len(funcs)} functions, none over {MAX_FUNC}')
sys.exit(1 if fails else 0)
