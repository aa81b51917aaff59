#!/bin/sh
# The cost judged at a hidden test's size too: a kernel that keeps the reference's path only below a
# size (chapters 3 and 8) passes the analysis at the small size and fails at the large one, in check and
# in grade, where the message does not name the hidden size; the references and a look-back pass.
# `analyze --groups` simulates some work-groups of a large size and counts them for all: its predicted
# time agrees with the whole analysis, a header made by a macro is refused with its line, and the
# simulator's quick mode shows the kernel the chosen work-groups. Hidden shapes
# vary the feature counts a kernel could hard-wire.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan
cheats="$root/tests/cheats/kernels"

if ! "$bin" analyze 3 --solution --no-compare > "$tmp/probe.txt" 2>&1; then
  echo "1..0 # SKIP the GPU memory model is not available here: $(head -n 1 "$tmp/probe.txt")"
  exit 0
fi

# analyze --groups: the reference's predicted time at a large size, one group of 65, against the whole small run
predicted() { sed -n 's/.*measurement): \([0-9.]*\) ms at.*/\1/p' "$1" | head -n 1; }
"$bin" analyze 3 --solution --no-compare > "$tmp/whole.txt" 2>&1
"$bin" analyze 3 --solution --size 4131x256 --groups 1 --seed 5 > "$tmp/part.txt" 2>&1
a=$(predicted "$tmp/whole.txt") b=$(predicted "$tmp/part.txt")
if [ -n "$a" ] && [ -n "$b" ] && python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if abs(a / b - 1) < 0.05 else 1)" "$a" "$b"; then
  ok "analyze 3 --groups 1 at 4131x256: the predicted time ($b ms) within 5% of the whole analysis' ($a ms)"
else bad "analyze --groups against the whole analysis: $a ms and $b ms" "$(tail -n 5 "$tmp/part.txt")"; fi
expect "analyze --groups says how many groups it simulated" 0 \
  "4160 work-items in groups of 64" -- "$bin" analyze 3 --solution --size 4131x256 --groups 1 --seed 5
printf '#define BODY {\n__kernel void histogram(__global const float *d, __global const float *c, __global int *h,\n  int n, int m, int f)\nBODY }\n' > "$tmp/macro.cl"
expect "analyze --groups refuses a kernel whose brace a macro makes, naming the line" 3 \
  "line 2: the kernel's name, parameters and opening brace must be written out" -- \
  "$bin" analyze 3 --kernel "$tmp/macro.cl" --size 4131x256 --groups 1
# the simulator's quick mode runs the launch's first and last work-groups only, with the ids permuted:
# the kernel must see the groups chosen (in order: 0 and 1), never the launch's last one
awk '{ print } /const uint offset = block_offsets\[get_group_id\(0\)\];/ {
  print "    if (get_group_id(0) == 1 && get_local_id(0) == 0) data[0] = 1;"
  print "    if (get_group_id(0) + 1 == get_num_groups(0) && get_local_id(0) == 0) data[1] = 1;" }' \
  "$root/kernels/08-scan/scan.cl" > "$tmp/which.cl"
second=$(grep -n 'get_group_id(0) == 1 &&' "$tmp/which.cl" | cut -d: -f1)
"$bin" analyze 8 --kernel "$tmp/which.cl" --size 300001 --groups 2 --in-order --no-compare --no-predict > "$tmp/which.txt" 2>&1
if grep -q "^  $second:[0-9]* *global *store" "$tmp/which.txt" && ! grep -q "^  $((second + 1)):[0-9]* *global *store" "$tmp/which.txt"; then
  ok "analyze 8 --groups 2 --in-order: work-group 1 runs (line $second), the launch's last does not (line $((second + 1)))"
else bad "analyze 8 --groups 2 --in-order: the groups simulated" "$(grep -E "^  ($second|$((second + 1))):" "$tmp/which.txt"; tail -n 3 "$tmp/which.txt")"; fi
expect "analyze --in-order without --groups is a usage error" 64 "goes with --groups" -- \
  "$bin" analyze 3 --solution --in-order

# check: the gated kernels fail at the chapter's own size, naming it
expect "check 3: coalesced only below 3000 descriptors fails the cost at 4096x256x64" 1 \
  "at 4096x256x64 \\(1 of its 64 work-groups simulated\\), the kernel costs [0-9.]+ times" -- \
  "$bin" check 3 --kernel "$cheats/ch03-gated-by-size.cl"
expect "check 8: the tree only up to 70000 elements fails the cost at the chapter's size" 1 \
  "at 4194304:random \\(2 of its 1024 work-groups simulated\\), the kernel costs [0-9.]+ times" -- \
  "$bin" check 8 --kernel "$cheats/ch08-gated-by-size.cl"
expect "check 8: the look-back kernel passes at both sizes" 0 "Met: modelled GPU cost as a multiple of the reference.s = " -- \
  "$bin" check 8 --kernel "$root/kernels/08-scan/lookback.cl"

# grade: the same file loses technique.cost at the largest hidden test's size, which is not named
put "$tmp/g" 03-coalesced "$cheats/ch03-gated-by-size.cl"
"$bin" grade 3 --dir "$tmp/g" --seed 6 --tests large,technique.cost --format json -o "$tmp/g.json" 2>/dev/null
check "grade 3: the gated kernel passes the large test and loses technique.cost there, the size unnamed" "$tmp/g.json" \
  "test('03-coalesced', 'large')['outcome'] == 'pass' and test('03-coalesced', 'technique.cost')['outcome'] == 'fail' and \"a hidden test's size (1 of its\" in test('03-coalesced', 'technique.cost')['detail'] and test('03-coalesced', 'large')['size'] not in test('03-coalesced', 'technique.cost')['detail']"
put "$tmp/r" 03-coalesced "$root/kernels/03-coalesced/histogram.cl"
"$bin" grade 3 --dir "$tmp/r" --seed 6 --tests large,technique.cost --format json -o "$tmp/r.json" 2>/dev/null
check "grade 3: the reference gets technique.cost's points" "$tmp/r.json" \
  "test('03-coalesced', 'technique.cost')['outcome'] == 'pass' and test('03-coalesced', 'technique.cost')['score'] == test('03-coalesced', 'technique.cost')['max_score'] > 0"

# a student graded alone makes each chapter's first runs and analyses ahead, side by side (grade.c,
# run_first_ahead); in a batch of two at a time each student has one thread and makes none ahead: the
# same tests, outcomes and points either way
mkdir -p "$tmp/alone/ada"
put "$tmp/alone/ada" 03-coalesced "$root/kernels/03-coalesced/histogram.cl"
put "$tmp/alone/ada" 08-scan "$root/kernels/08-scan/scan.cl"
put "$tmp/alone/ada" 09-integral-image "$cheats/ch09-copy-transpose.cl"
cp -R "$tmp/alone/ada" "$tmp/alone/bob"
"$bin" grade 3 8 9 --dir "$tmp/alone/ada" --seed 6 --exercise-only --format json -o "$tmp/ahead.json" 2>/dev/null
"$bin" grade 3 8 9 --batch "$tmp/alone" --same-seed --seed 6 --exercise-only -j 2 --reports "$tmp/alone-reports" \
  -o "$tmp/alone.csv" 2>/dev/null
if python3 - "$tmp/ahead.json" "$tmp/alone-reports/ada.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
key = lambda j: [(t["id"], t.get("size"), t["outcome"], t["score"]) for c in j["chapters"] for t in c["tests"]]
assert key(a) == key(b), [x for x in zip(key(a), key(b)) if x[0] != x[1]]
assert any(t["id"] == "technique.cost" and t["outcome"] == "fail" for c in a["chapters"] for t in c["tests"])
PY
then ok "grade alone (work made ahead) and in a batch of two at a time (none): the same outcomes and points"
else bad "grade alone against a batch" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['score'])" "$tmp/ahead.json" 2>&1)"; fi

# hidden shapes: feature counts other than 64 in every histogram chapter, a narrow image in chapter 9
"$bin" grade --plan --format json --seed 6 > "$tmp/plan.json"
check "grade --plan: chapters 1-6 test feature counts below and above 64, chapter 9 an image narrower than a tile" "$tmp/plan.json" \
  "all(any(t['id'].startswith('shape') and int(t['size'].split('x')[2]) < 64 for t in ch(l)['tests']) and any(t['id'].startswith('shape') and int(t['size'].split('x')[2].split(':')[0]) > 64 for t in ch(l)['tests']) for l in ('01-serial', '02-atomic', '03-coalesced', '04-float4', '05-local', '06-constant')) and any(t['id'].startswith('shape') and int(t['size'].split('x')[0]) < 32 for t in ch('09-integral-image')['tests'])"
put "$tmp/h" 04-float4 "$cheats/ch04-hardwired-64-features.cl"
"$bin" grade 4 --dir "$tmp/h" --seed 6 --tests odd,shape.1,shape.2 --format json -o "$tmp/h.json" 2>/dev/null
check "grade 4: a kernel hard-wired to 64 features passes 'odd' and fails both shapes as wrong" "$tmp/h.json" \
  "test('04-float4', 'odd')['outcome'] == 'pass' and test('04-float4', 'shape.1')['status'] == 'wrong' and test('04-float4', 'shape.2')['status'] == 'wrong'"

finish
