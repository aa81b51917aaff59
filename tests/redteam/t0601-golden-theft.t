#!/bin/sh
# A kernel that searches the worker's memory for the golden reference finds nothing to copy.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace and TMPDIR, nomodel, check, put

# (every hidden test but 'single': with one bin the answer is n_descriptors,
# which a kernel gets as an argument and so finds in memory without stealing)
b="$tmp/batch"
put "$b/thief" 02-atomic "$k/steal_golden.cl"
put "$b/honest" 02-atomic "$root/kernels/02-atomic/histogram.cl"
nomodel "$bin" grade 2 --batch "$b" -j 2 --seed 31 --timeout 5 --tests odd,input.onebin,input.ties,one,large \
  -o "$tmp/grades.csv" 2> "$tmp/batch.err"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/grades.csv" > "$tmp/batch.out" 2>&1 <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
thief, honest = (json.load(open(rows[s]["report"])) for s in ("thief", "honest"))
t = [x for x in thief["chapters"][0]["tests"] if x["kind"] == "hidden"]
h = honest["chapters"][0]
assert t and all(x["outcome"] == "fail" and x["score"] == 0 for x in t), [(x["id"], x["status"]) for x in t]
assert float(rows["thief"]["02-atomic"]) == 0, rows["thief"]
assert abs(h["score"] - h["max_score"]) < 1e-6 and h["max_score"] > 0, h["score"]
PY
then ok "a kernel that searches the worker's memory for the golden histogram scores 0, the reference in the same batch full marks"
else bad "golden theft in a batch (exit $rc)" "$(cat "$tmp/batch.out" "$tmp/batch.err" "$tmp/grades.csv")"; fi
"$bin" run 2 --kernel "$k/steal_golden.cl" --size 1000x16 --no-timing > "$tmp/theft.txt" 2>&1
if grep -Eq '^(Crashed|Wrong result)' "$tmp/theft.txt"; then
  ok "the theft finds nothing to copy: the run crashes or is wrong"
else bad "the theft run" "$(cat "$tmp/theft.txt")"; fi

finish
