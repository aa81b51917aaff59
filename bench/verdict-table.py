#!/usr/bin/env python3
"""verdict-table.py COSTS TIMES... > TABLE.md: the verdict's modelled cost ratio against the reference
beside the measured time ratio, per kernel and chapter, and how often they agree.

COSTS is bench/verdict-costs.sh's output; each TIMES file holds one JSON line per timed kernel
({"chapter", "file", "status", "median_ms", ...}) from `cltutor run N --kernel FILE --size BENCH --json`
on one GPU. A kernel's time is divided by its chapter's reference's from the same file. A kernel agrees when both ratios fall on the same side of the chapter's factor (lesson.ini's
cost<=F): the verdict calls it as cheap as the reference exactly when the stopwatch does."""
import glob, json, os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
factor = {}
for ini in glob.glob(os.path.join(root, "lessons", "0*", "lesson.ini")):
    m = re.search(r"^technique = .*cost<=([0-9.]+)", open(ini).read(), re.M)
    if m:
        factor[int(os.path.basename(os.path.dirname(ini))[:2])] = float(m.group(1))
costs = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) ch(\d): cost = ([0-9.e+]+)", line)
    if m:
        costs[m.group(1)] = (int(m.group(2)), float(m.group(3)))
# each kernel's time over its chapter's reference timed in the same file (one session), where that
# file timed the reference; a later file's line for a kernel replaces an earlier one's
times, refs = {}, {}
for path in sys.argv[2:]:
    for line in open(path):
        j = json.loads(line)
        j["source"] = path
        f = os.path.basename(j["file"]) if not j["file"].startswith("kernels/") else j["file"]
        times[f] = j
        if re.match(r"kernels/0\d-[^/]+/(histogram|scan|integral)\.cl$", f) and j.get("median_ms"):
            refs[(path, j["chapter"])] = j["median_ms"]
            refs.setdefault(j["chapter"], j["median_ms"])

def ref_ms(t):
    return refs.get((t["source"], t["chapter"]), refs.get(t["chapter"]))

def kind(f):
    if f.startswith("kernels/"): return "reference" if re.search(r"/(histogram|scan|integral)\.cl$", f) else "beyond"
    if "/honest/" in f: return "honest"
    if "/cheats/" in f: return "cheat"
    return "slow variant"

rows, agree, total = [], 0, 0
for f, (c, cost) in sorted(costs.items(), key=lambda x: (x[1][0], kind(x[0]), x[0])):
    key = f if f.startswith("kernels/") else os.path.basename(f)
    t = times.get(key)
    if not t or t.get("status") != "pass" or not t.get("median_ms") or not ref_ms(t) or c not in factor:
        rows.append("| %d | %s | `%s` | %.3g | - | - |" % (c, kind(f), key, cost))
        continue
    ratio = t["median_ms"] / ref_ms(t)
    same = (cost <= factor[c]) == (ratio <= factor[c])
    agree += same
    total += 1
    rows.append("| %d | %s | `%s` | %.3g | %.3g | %s |" % (c, kind(f), key, cost, ratio, "yes" if same else "**no**"))
print("| ch | kind | kernel | modelled cost / reference | measured time / reference | agree |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
print()
print("Agreement: %d of %d timed kernels (%.0f%%) fall on the same side of their chapter's factor "
      "(%s)." % (agree, total, 100.0 * agree / max(total, 1),
                 ", ".join("%d: %g" % (c, f) for c, f in sorted(factor.items()))))
