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

finish
