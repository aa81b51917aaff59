#!/usr/bin/env python3
"""draw_check.py REPORT.json DRAWING.txt: the picture analyze --draw printed
is of the busiest instruction of the report, and its figures agree with the
report's table (sectors, degree, contention, distinct addresses). Prints
what disagrees and exits 1, else exits 0."""
import json, re, sys

j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
flat = re.sub(r"\s+", " ", text)  # sentences wrap: read them joined


def cost(a):  # gpumodel_access_cost
    r = a["requests"]
    if a["space"] == "local":
        return a["bank_conflict_avg"] * r
    if a["kind"] == "atomic":
        return a["contention_avg"] * r
    if a["space"] == "constant":
        return a["distinct_addresses_avg"] * r
    return a["sectors_per_request"] * r


accs = [(k["name"], a) for k in j["kernels"] for a in k["accesses"]]
best = max(cost(a) for _, a in accs)
m = re.search(r"Kernel (\S+), line (\d+), column (\d+): (\w+) (\w+), (\d+) bytes per work-item", text)
if not m:
    sys.exit("no instruction heading in the drawing")
name, line, col, space, kind = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
mine = [a for n, a in accs if n == name and a["line"] == line and a["col"] == col and a["space"] == space and a["kind"] == kind]
if not mine:
    sys.exit("drawn %s line %d col %d %s %s: not in the report" % (name, line, col, space, kind))
a = mine[0]
problems = []
if cost(a) < best * (1 - 1e-9):
    problems.append("drawn line %d costs %g, the busiest costs %g" % (line, cost(a), best))


def fmt(v):  # gm_fmt_num
    return "%.0f" % v if abs(v - round(v)) < 0.05 else "%.1f" % v


def need(pattern, what):
    if not re.search(pattern, flat):
        problems.append("%s: no '%s'" % (what, pattern))


main = flat.split("Before →")[0]  # the learner's instruction, not the compared one
need(r"The table, over all %d requests" % a["requests"], "requests")
if a["kind"] == "atomic":
    need(r"contention %s on average, %d at worst" % (fmt(a["contention_avg"]), a["contention_max"]), "contention")
    c = re.search(r"Largest group: (\d+) lanes|no lane waits for another \(contention 1\)", main)
    drawn = int(c.group(1)) if c and c.group(1) else 1
    if drawn != a["contention_max"]:
        problems.append("worst request drawn with contention %d, the table's worst is %d" % (drawn, a["contention_max"]))
elif a["space"] == "local":
    need(r"degree %s on average, %d at worst" % (fmt(a["bank_conflict_avg"]), a["bank_conflict_max"]), "degree")
    c = re.search(r"Tallest stack: (\d+) distinct words", main)
    drawn = int(c.group(1)) if c else 1
    if drawn != a["bank_conflict_max"]:
        problems.append("worst request drawn with degree %d, the table's worst is %d" % (drawn, a["bank_conflict_max"]))
else:
    need(r"%s sectors? per request, %s efficient" % (fmt(a["sectors_per_request"]),
         ("%.0f%%" if abs(a["efficiency"] * 100 - round(a["efficiency"] * 100)) < 0.05 else "%.1f%%") % (a["efficiency"] * 100)),
         "sectors and efficiency")
    drawn = [int(x) for x in re.findall(r"(\d+) sectors? moves? \d+ bytes", main)]
    if not drawn or max(drawn) + 1e-9 < a["sectors_per_request"]:
        problems.append("the worst request drawn moves %s sectors, fewer than the table's average %g" % (drawn, a["sectors_per_request"]))
    if a["space"] == "constant":
        d = [int(x) for x in re.findall(r"Distinct addresses: (\d+)", main)]
        if not d or max(d) != a["distinct_addresses_max"]:
            problems.append("distinct addresses drawn %s, the table's worst %d" % (d, a["distinct_addresses_max"]))
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("line %d %s %s agrees" % (line, space, kind))
