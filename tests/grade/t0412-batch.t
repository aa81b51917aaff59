#!/bin/sh
# grade --batch: one CSV row and one JSON report per student, in parallel, each losing only its own tests.
# (--timeout 4: a kernel that never ends is stopped soon, and a correct one is not, however loaded the machine)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

b="$tmp/batch"
mkdir -p "$b"
make_correct "$b/ada"
rm -rf "$b"/ada/exercises/0[4-9]*
mkdir -p "$b/bob" "$b/cy" "$b/dee" "$b/eve" "$b/=fay" "$b/-rf" "$b/-1+1"   # the last three hand in nothing
cp -R "$b/ada/exercises" "$b/bob/"; put "$b/bob" 02-atomic "$k/garbage.cl"
cp -R "$b/ada/exercises" "$b/cy/";  put "$b/cy" 02-atomic "$k/hang.cl"
cp -R "$b/ada/exercises" "$b/dee/"; put "$b/dee" 02-atomic "$k/crash.cl"
cp -R "$b/ada/exercises" "$b/eve/"
mkdir -p "$b/ADA" && cp -R "$b/ada/exercises" "$b/ADA/"   # ada's name in capitals: one file, where case is ignored
# eve hands in chapter 3's find-the-bug listing, unmended, as her chapter 3 kernel
put "$b/eve" 03-coalesced "$(ls "$root"/exercises/03-coalesced/bug-*.cl | head -n 1)"
start=$(date +%s)
nomodel "$bin" grade 1 2 3 --batch "$b" -j 2 --timeout 4 -o "$tmp/grades.csv" --seed 77 2> "$tmp/batch.err"
rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ] && grep -q 'none of the exercise files was found for: .*-rf =fay' "$tmp/batch.err" &&
   python3 - "$tmp/grades.csv" "$tmp/grades-reports" <<'PY'
import csv, json, os, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
# names a spreadsheet could run as formulas get a ' before them; "-rf" is a name, kept as it is (it matches its folder)
assert set(rows) == {"'=fay", "-rf", "'-1+1", "ADA", "ada", "bob", "cy", "dee", "eve"}, rows.keys()
assert len({r["seed"] for r in rows.values()}) == len(rows) and "77" not in {r["seed"] for r in rows.values()}
assert sorted(s for s, r in rows.items() if r["status"] != "ok") == ["'-1+1", "'=fay", "-rf"] and rows["'=fay"]["status"] == "no files", rows
f = lambda s, c: float(rows[s][c])
assert f("ada", "score") == f("ada", "max_score") > 0
assert len({r["max_score"] for r in rows.values()}) == 1, "every student has the same total"
for s in ("bob", "cy", "dee"):
    assert f(s, "01-serial") == 100 and f(s, "03-coalesced") == f("ada", "03-coalesced") and f(s, "02-atomic") == 0, s
assert f("eve", "03-coalesced") < f("ada", "03-coalesced") and f("eve", "02-atomic") == f("ada", "02-atomic")
assert f("'=fay", "score") == 0
for r in rows.values():
    j = json.load(open(r["report"]))
    assert j["seed"] == int(r["seed"]) and abs(j["score"] - float(r["score"])) < 0.01
names = os.listdir(sys.argv[2])  # each student's JSON report and, beside it, their feedback (Markdown, a web page)
assert sorted(n for n in names if n.endswith(".json")) == sorted(os.path.basename(r["report"]) for r in rows.values())
assert sorted(n[:-3] for n in names if n.endswith(".md")) == sorted(n[:-5] for n in names if n.endswith(".json"))
assert sorted(n[:-5] for n in names if n.endswith(".html") and n != "index.html") == \
    sorted(n[:-5] for n in names if n.endswith(".json"))
assert len(names) == 28 and "index.html" in names, names  # and the class summary
reports = [os.path.basename(r["report"]).lower() for r in rows.values()]
assert len(set(reports)) == len(reports), reports   # no two differ only in case
PY
then ok "batch -j 2: one CSV row and one JSON report per student (no two report names differ only in case), each loses only its own tests, an empty folder is named, a name like -rf kept and a formula-like one defused (${took}s)"
else bad "batch (exit $rc)" "$(cat "$tmp/batch.err" "$tmp/grades.csv")"; fi

finish
