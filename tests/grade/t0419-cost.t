#!/bin/sh
# Technique judged by modelled GPU cost against the reference: chapter 7's starting file with only the
# merge done, or with copies but no padding, costs many times the reference and fails, naming the line
# and the mechanism; the same file with every step done, and the chapter's beyond kernel, pass.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan
cheats="$root/tests/cheats/kernels"

if ! "$bin" analyze 7 --solution --no-compare > "$tmp/probe.txt" 2>&1; then
  echo "1..0 # SKIP the GPU memory model is not available here: $(head -n 1 "$tmp/probe.txt")"
  exit 0
fi

# check: the verdict's line for the cost
"$bin" check 7 --kernel "$cheats/ch07-merge-only.cl" > "$tmp/merge.txt" 2>&1
rc=$?
merge_line=$(grep -n 'atomic_inc(&mine\[v.s0\])' "$cheats/ch07-merge-only.cl" | head -n 1 | cut -d: -f1)
if [ $rc -eq 1 ] && grep -q "FAIL technique .*costs a GPU no more than the reference: Not met: modelled GPU cost as a multiple of the reference.s = " "$tmp/merge.txt" &&
   grep -q "What costs most beyond it is __local atomics, at line $merge_line of kernel 'histogram': 32 passes an atomic request, where the reference's take 1" "$tmp/merge.txt"; then
  ok "check 7: the starting file with only the merge fails the cost, naming line $merge_line and its 32 passes a request"
else bad "check 7 of the merge-only kernel (exit $rc)" "$(cat "$tmp/merge.txt")"; fi
expect "check 7: 32 copies without the padding fail the cost (bank passes)" 1 \
  "FAIL technique .*Not met: modelled GPU cost as a multiple of the reference.s = " -- "$bin" check 7 --kernel "$cheats/ch07-copies-unpadded.cl"
expect "check 7: the starting file with every step done passes (written apart from the reference)" 0 \
  "ok   technique .*Met: modelled GPU cost as a multiple of the reference.s = " -- "$bin" check 7 --kernel "$k/ch07-copies-padded.cl"
expect "check 7: the chapter's beyond kernel (bin-major) passes" 0 "Chapter passed" -- \
  "$bin" check 7 --kernel "$root/kernels/07-bank-conflicts/bin-major.cl"

# grade: the cost test loses its points, the hidden tests do not
put "$tmp/m" 07-bank-conflicts "$cheats/ch07-merge-only.cl"
"$bin" grade 7 --dir "$tmp/m" --seed 6 --tests odd,technique.cost --format json -o "$tmp/m.json" 2>/dev/null
check "grade 7: the merge-only kernel passes its hidden test and loses technique.cost" "$tmp/m.json" \
  "test('07-bank-conflicts', 'odd')['outcome'] == 'pass' and test('07-bank-conflicts', 'technique.cost')['outcome'] == 'fail' and test('07-bank-conflicts', 'technique.cost')['score'] == 0 and 'passes an atomic request' in test('07-bank-conflicts', 'technique.cost')['detail']"
put "$tmp/p" 07-bank-conflicts "$k/ch07-copies-padded.cl"
"$bin" grade 7 --dir "$tmp/p" --seed 6 --tests odd,technique.cost --format json -o "$tmp/p.json" 2>/dev/null
check "grade 7: the honest padded kernel gets the cost test's points" "$tmp/p.json" \
  "test('07-bank-conflicts', 'technique.cost')['outcome'] == 'pass' and test('07-bank-conflicts', 'technique.cost')['score'] == test('07-bank-conflicts', 'technique.cost')['max_score'] > 0"

finish
