#!/bin/sh
# Each find-the-bug listing, submitted as the exercise, fails the hidden test that exposes it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

for l in $(lessons_of "any(t['kind'] == 'fix' for t in c['tests'])"); do
  for f in $(python3 -c "
import json, sys
c = next(c for c in json.load(open(sys.argv[1]))['chapters'] if c['lesson'] == sys.argv[2])
print(' '.join(t['id'][4:] + '=' + t['file'] for t in c['tests'] if t['kind'] == 'fix'))" "$tmp/plan.json" "$l"); do
    name=${f%%=*} file=${f#*=}
    rm -rf "$tmp/bug" && mkdir -p "$tmp/bug"
    put "$tmp/bug" "$l" "$root/exercises/$l/$file"
    "$bin" grade "$l" --dir "$tmp/bug" --seed 5 --timeout 3 --tests "bug.$name" --format json -o "$tmp/bug.json" 2>/dev/null
    check "$l: the '$name' listing fails the hidden test that exposes it" "$tmp/bug.json" \
      "test('$l', 'bug.$name')['outcome'] == 'fail' and ch('$l')['score'] < ch('$l')['max_score']"
  done
done

# A mended listing must also be right at another hidden size: a "fix" only
# for the input that exposed the bug fails as not_a_fix, and an honest fix
# passes, whether that second run is made ahead with the other chapters'
# work (a grade of several chapters on several threads) or in the chapter's
# own loop (one chapter). Oclgrind left out: the fix tests do not need it.
cheat="$here/../cheats/kernels/fix04-only-exposing-input.cl"
rm -rf "$tmp/fixes" && mkdir -p "$tmp/fixes"
make_correct "$tmp/fixes"
cp "$cheat" "$tmp/fixes/exercises/04-float4/bug-step-by-one.cl"
nomodel "$bin" grade 3 4 --dir "$tmp/fixes" --seed 5 --timeout 5 --format json -o "$tmp/fixes.json" 2>/dev/null
check "a fix only for the exposing input fails as not_a_fix in a grade of two chapters" "$tmp/fixes.json" \
  "test('04-float4', 'fix.step-by-one')['status'] == 'not_a_fix' and test('04-float4', 'fix.step-by-one')['score'] == 0"
check "the honest fix beside it passes" "$tmp/fixes.json" \
  "test('03-coalesced', 'fix.row-length')['outcome'] == 'pass'"
nomodel "$bin" grade 4 --dir "$tmp/fixes" --seed 5 --timeout 5 --tests fix.step-by-one --format json \
  -o "$tmp/fix4.json" 2>/dev/null
check "... and as not_a_fix when chapter 4 is graded alone" "$tmp/fix4.json" \
  "test('04-float4', 'fix.step-by-one')['status'] == 'not_a_fix'"

finish
