#!/bin/sh
# Across machines: four shards graded by separate processes and joined by `grade merge` give the CSV (and
# the JSON) of one whole-class run with the same seed; merge refuses a student twice and names the missing.
# Each student's seed comes from the batch seed and the name: reproducible, different for each.
# (--timeout 60: the shards run side by side, and no test here is about time.)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

b="$tmp/class"
mkdir -p "$b"
for s in ada bob cy dee eve fay gus; do put "$b/$s" 01-serial "$root/kernels/01-serial/histogram.cl"; done
put "$b/bob" 02-atomic "$k/crash.cl"
put "$b/cy" 02-atomic "$root/kernels/02-atomic/histogram.cl"
put "$b/eve" 02-atomic "$k/garbage.cl"
(cd "$b" && python3 -c "
import shutil; shutil.make_archive('hal', 'zip', 'ada')")  # one student as a zip
printf 'x' > "$b/readme.md"                                  # and a refused entry
mkdir -p "$tmp/whole" "$tmp/shards"
(cd "$tmp/whole" && nomodel "$bin" grade 1 2 --batch "$b" --seed 99 --timeout 60 --reports reports -o grades.csv 2> err)
rc=$?
(cd "$tmp/whole" && nomodel "$bin" grade 1 2 --batch "$b" --seed 99 --timeout 60 --reports reports --format json -o grades.json 2> /dev/null)
pids=""
for i in 1 2 3 4; do
  (cd "$tmp/shards" && nomodel "$bin" grade 1 2 --batch "$b" --seed 99 --timeout 60 --shard $i/4 --reports reports -o s$i.csv 2> err$i &&
   nomodel "$bin" grade 1 2 --batch "$b" --seed 99 --timeout 60 --shard $i/4 --reports reports --format json -o s$i.json 2>> err$i) &
  pids="$pids $!"
done
for p in $pids; do wait $p || bad "a shard exited with $?"; done
[ $rc -eq 0 ] && ok "the whole class graded in one run" || bad "whole class (exit $rc)" "$(cat "$tmp/whole/err")"
if [ "$(head -n 1 "$tmp/whole/reports/ada.md" 2>/dev/null)" = "# Feedback for ada" ] &&
   [ "$(ls "$tmp/whole/reports"/*.md | wc -l)" -eq "$(ls "$tmp/whole/reports"/*.json | wc -l)" ]; then
  ok "the batch writes each student's feedback (NAME.md) beside their JSON report"
else bad "the batch's feedback files" "$(ls "$tmp/whole/reports" 2>&1)"; fi
if python3 - "$tmp/shards" <<'PY'
import csv, sys
seen = []
for i in range(1, 5):
    names = [r["student"] for r in csv.DictReader(open("%s/s%d.csv" % (sys.argv[1], i)))]
    assert names == sorted(names) and names, (i, names)
    seen += names
assert sorted(seen) == sorted(set(seen)) and len(seen) == 9, seen
PY
then ok "four shards: disjoint slices that together hold every entry"
else bad "shard slices" "$(cat "$tmp/shards"/s*.csv)"; fi

# shards dealt by work: two students handed in every chapter, two one kernel; by name (every other
# student) the first shard would hold both heavy ones
w="$tmp/weighed"
for s in a b c d; do put "$w/$s" 01-serial "$k/garbage.cl"; done
for c in 02 03 04 05 06 07 08 09; do
  for s in a c; do mkdir -p "$w/$s/exercises/$c-x" && cp "$k/garbage.cl" "$w/$s/exercises/$c-x/k.cl"; done
done
(cd "$w/.." && python3 -c "import shutil; shutil.make_archive('weighed/e', 'zip', 'weighed/a')")  # e: heavy, as an archive
for i in 1 2; do
  (cd "$tmp" && nomodel "$bin" grade 1 --batch "$w" --seed 5 --timeout 60 --shard $i/2 --reports wr -o w$i.csv 2> werr$i)
done
got=$(for i in 1 2; do cut -d, -f1 "$tmp/w$i.csv" | sed 1d | tr '\n' ' '; echo; done)
# heaviest first (a, c, e: 9 kernels; then b, d: 1), each to the lighter shard: a 1, c 2, e 1, b 2, d 2
if [ "$got" = "a e 
b c d " ]; then ok "shards dealt by the kernels handed in: 18 and 11 kernels, not 27 and 2 by name"
else bad "shards by work" "$got $(cat "$tmp/werr1")"; fi

(cd "$tmp/shards" && "$bin" grade merge s3.csv s1.csv s4.csv s2.csv -o merged.csv 2> merge.err)
rc=$?
if [ $rc -eq 0 ] && cmp -s "$tmp/shards/merged.csv" "$tmp/whole/grades.csv"; then
  ok "grade merge of the four shards' CSV is the whole-class CSV, byte for byte"
else bad "merged CSV differs from the whole class's (exit $rc)" "$(cat "$tmp/shards/merge.err"; diff "$tmp/shards/merged.csv" "$tmp/whole/grades.csv")"; fi
# the merged class's summary page, beside merged.csv: the whole class's figures, and a link that
# works to each graded student's feedback in the shards' reports folder
if python3 - "$tmp/shards/merged.html" "$tmp/whole/reports/index.html" <<'PY'
import os, re, sys
m, w = open(sys.argv[1]).read(), open(sys.argv[2]).read()
def figures(t): return t[t.index("<h2>"):t.rindex("<h2>")]   # scores, chapters, tests failed most often
assert figures(m) == figures(w), "the figures differ"
links = re.findall(r'<a href="([^"]+)">feedback</a>', m)
assert links and len(links) == len(re.findall(r'">feedback</a>', w)), links
here = os.path.dirname(os.path.abspath(sys.argv[1]))
assert all(l.startswith("reports/") and os.path.isfile(os.path.join(here, l)) for l in links), links
PY
then ok "grade merge writes the class summary (merged.html): the whole class's figures, a working link for each student"
else bad "the merged class summary" "$(cat "$tmp/shards/merge.err")"; fi
mkdir -p "$tmp/elsewhere"
(cd "$tmp/shards" && "$bin" grade merge s1.csv s2.csv s3.csv s4.csv -o "$tmp/elsewhere/class.csv" --html "$tmp/elsewhere/class.html" 2> /dev/null)
if grep -q 'href="../shards/reports/ada.html"' "$tmp/elsewhere/class.html" 2> /dev/null; then
  ok "--html FILE elsewhere: the links lead from there to the reports"
else bad "grade merge --html elsewhere" "$(grep -o 'href="[^"]*"' "$tmp/elsewhere/class.html" 2>&1 | head -n 3)"; fi
(cd "$tmp/shards" && "$bin" grade merge s1.json s2.json s3.json s4.json -o merged.json 2> mergej.err)
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/shards/merged.json" "$tmp/whole/grades.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["students"] == b["students"] and a["seed"] == b["seed"] == 99 and a["chapters"] == b["chapters"]
assert sorted(a["class"]) == sorted(b["class"]) and a["shard"] is None
PY
then ok "grade merge of the shards' JSON gives the whole class's students"
else bad "merged JSON (exit $rc)" "$(cat "$tmp/shards/mergej.err")"; fi

(cd "$tmp/shards" && "$bin" grade merge s1.json s2.json s3.json s4.json -o fromjson.csv 2> /dev/null)
if cmp -s "$tmp/shards/fromjson.csv" "$tmp/whole/grades.csv"; then ok "grade merge of the JSON shards into a .csv gives the whole-class CSV"
else bad "JSON shards merged into CSV differ" "$(diff "$tmp/shards/fromjson.csv" "$tmp/whole/grades.csv")"; fi

# a regraded student: the class's CSV, then a report of that student alone (here their row with another
# score): the later row replaces theirs, and merge says so; the others stay as they were
(cd "$tmp/shards" && { head -n 1 "$tmp/whole/grades.csv"; sed -n 2p "$tmp/whole/grades.csv" | awk -F, 'BEGIN{OFS=","} {$2="1"; print}'; } > regrade.csv)
who=$(sed -n 2p "$tmp/whole/grades.csv" | cut -d, -f1)
(cd "$tmp/shards" && "$bin" grade merge "$tmp/whole/grades.csv" regrade.csv -o regraded.csv 2> regrade.err)
rc=$?
if [ $rc -eq 0 ] && grep -q "$who: the row from regrade.csv replaces the one from .*grades.csv" "$tmp/shards/regrade.err" &&
   [ "$(sed -n 2p "$tmp/shards/regraded.csv")" = "$(sed -n 2p "$tmp/shards/regrade.csv")" ] &&
   [ "$(sed 2d "$tmp/shards/regraded.csv")" = "$(sed 2d "$tmp/whole/grades.csv")" ]; then
  ok "merge takes a regraded student's later row in place of the class's, and says so"
else bad "merge of a regraded student (exit $rc)" "$(cat "$tmp/shards/regrade.err"; diff "$tmp/shards/regraded.csv" "$tmp/whole/grades.csv")"; fi
expect "merge of JSON names the students no shard has" 1 'in no report:.* (bob|cy)' -- \
  sh -c "cd '$tmp/shards' && '$bin' grade merge s1.json s3.json s4.json -o part.json"
expect "merge of CSV with --batch names the students no shard has" 1 'in no report:' -- \
  sh -c "cd '$tmp/shards' && '$bin' grade merge --batch '$b' s1.csv s2.csv -o part.csv"
expect "merge refuses CSV and JSON together" 64 'only CSV files or only JSON' -- \
  sh -c "cd '$tmp/shards' && '$bin' grade merge s1.csv s2.json"
expect "merge refuses shards of other chapters" 64 'other chapters' -- \
  sh -c "cd '$tmp/shards' && sed '1s/,02-atomic//' s2.csv > other.csv && '$bin' grade merge s1.csv other.csv"
expect "--shard needs --seed" 64 'needs --seed' -- "$bin" grade 1 --batch "$b" --shard 1/4
expect "--shard 5/4 is refused" 64 "shard '5/4'" -- "$bin" grade 1 --batch "$b" --seed 1 --shard 5/4

# per-student seeds: different for each, the same in both runs, and each reproduces its student's grade
if python3 - "$tmp/whole/grades.csv" "$tmp/shards/merged.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
seeds = [r["seed"] for r in rows]
assert len(set(seeds)) == len(seeds), seeds
assert "99" not in seeds
PY
then ok "each student has a seed of their own, drawn from the batch seed"
else bad "per-student seeds" "$(cat "$tmp/whole/grades.csv")"; fi
nomodel "$bin" grade 1 --batch "$b" --seed 99 --same-seed --timeout 60 -o "$tmp/same.csv" 2>/dev/null
if python3 -c "
import csv, sys
sys.exit(0 if {r['seed'] for r in csv.DictReader(open(sys.argv[1]))} == {'99'} else 1)" "$tmp/same.csv"; then
  ok "--same-seed grades every student on the batch seed itself"
else bad "--same-seed" "$(cat "$tmp/same.csv")"; fi
expect "--same-seed needs --batch" 64 'same-seed needs --batch' -- "$bin" grade 1 --same-seed
seed=$(awk -F, '$1 == "eve" { print $(NF-2) }' "$tmp/whole/grades.csv")
nomodel "$bin" grade 1 2 --dir "$b/eve" --seed "$seed" --analysis-seed 99 --timeout 60 --format json -o "$tmp/eve.json" 2>/dev/null
if python3 - "$tmp/eve.json" "$tmp/whole/reports/eve.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
key = lambda j: [(t["id"], t.get("size"), t["score"]) for c in j["chapters"] for t in c["tests"]]
assert a["seed"] == b["seed"] and b["analysis_seed"] == 99 and a["analysis_seed"] == 99, (a["seed"], b["analysis_seed"])
assert key(a) == key(b), (key(a), key(b))
PY
then ok "grade --dir with a student's seed from the CSV and the batch's analysis seed gives the same tests and points"
else bad "reproducing a student's grade with the CSV's seed ($seed) and --analysis-seed 99"; fi

# the race and technique checks: every student of a batch measured at the same size, drawn from the batch seed
if python3 - "$tmp/whole/reports" <<'PY'
import json, os, sys
d = sys.argv[1]
sizes = {}
for f in os.listdir(d):
    if not f.endswith(".json"):
        continue  # the students' feedback (NAME.md) lies beside their reports
    j = json.load(open(os.path.join(d, f)))
    for c in j["chapters"]:
        for t in c["tests"]:
            if t["kind"] == "technique" or t["id"] == "safety":
                sizes.setdefault((c["lesson"], t["id"]), set()).add((t.get("size"), t["seed"]))
assert sizes and all(len(v) == 1 for v in sizes.values()), sizes
PY
then ok "a batch measures every student's race and technique checks at one size and seed"
else bad "the checks' sizes differ between students of one batch"; fi

finish
