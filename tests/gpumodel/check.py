#!/usr/bin/env python3
# check.py — checks figures in `cltutor analyze --json` output against what theory fixes.
#   check.py OUT.json KERNEL.cl 'MARK SPACE KIND FIELD OP VALUE' ...
#   check.py OUT.json KERNEL.cl 'issue KIND MARK'           an issue of KIND at the line marked MARK
#   check.py OUT.json KERNEL.cl 'noissues'                  no issue at all
# MARK names the source line that carries the comment /* @MARK */. Prints what
# failed and exits 1 when anything does.
import json, re, sys

out, kernel, checks = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    j = json.load(open(out))
except Exception as e:
    print("output is not JSON: %s" % e)
    sys.exit(1)
marks = {}
for n, line in enumerate(open(kernel), 1):
    for m in re.findall(r'@([A-Za-z0-9_]+)', line):
        marks[m] = n
accesses = [a for k in j.get("kernels", []) for a in k["accesses"]]
failed = 0
ops = {"=": lambda a, b: abs(a - b) <= 1e-6 * max(1, abs(b)), "<": lambda a, b: a < b, ">": lambda a, b: a > b,
       "~": lambda a, b: abs(a - b) <= 0.02 * max(1, abs(b))}
for c in checks:
    w = c.split()
    if w[0] == "noissues":
        if j.get("issues"):
            print("expected no issues, got: %s" % [i["what"] for i in j["issues"]])
            failed += 1
        continue
    if w[0] == "issue":
        kind, mark = w[1], w[2]
        line = marks[mark]
        hit = [i for i in j.get("issues", []) if i["kind"] == kind and i["line"] == line]
        if not hit:
            print("expected a %s issue at line %d (@%s), got: %s" % (kind, line, mark,
                  [(i["kind"], i["line"]) for i in j.get("issues", [])]))
            failed += 1
        elif not hit[0]["work_item"].startswith("global ("):
            print("issue at line %d names no work-item" % line)
            failed += 1
        continue
    mark, space, kind, field, op, value = w
    line = marks[mark]
    hit = [a for a in accesses if a["line"] == line and a["space"] == space and a["kind"] == kind]
    if len(hit) != 1:
        print("@%s (line %d): expected one %s %s, found %d" % (mark, line, space, kind, len(hit)))
        failed += 1
        continue
    got = hit[0].get(field)
    if got is None or not ops[op](got, float(value)):
        print("@%s (line %d) %s %s: %s is %s, expected %s %s" % (mark, line, space, kind, field, got, op, value))
        failed += 1
sys.exit(1 if failed else 0)
