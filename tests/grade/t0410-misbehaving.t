#!/bin/sh
# Misbehaving kernels (one that hangs on one input, one that prints, one that crashes) lose only their own tests
# (and, failing one, the race check and the technique, which count only with every hidden test passed).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$tmp/mixed" 02-atomic "$k/hang_on_one.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --timeout 6 --format json -o "$tmp/mixed.json" 2>/dev/null
check "a kernel that hangs on one input loses that test, and the race check and technique it no longer earns" "$tmp/mixed.json" \
  "full(ch('01-serial')) and [t['id'] for t in ch('02-atomic')['tests'] if t['outcome'] == 'fail' and t['kind'] == 'hidden'] == ['one'] and test('02-atomic', 'one')['status'] == 'timeout' and all(t['status'] in ('not_credited', 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] in ('safety', 'technique')) and all(t['outcome'] == 'pass' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden' and t['id'] != 'one')"
put "$tmp/mixed" 02-atomic "$k/prints.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format json -o "$tmp/out.json" 2>/dev/null
check "a kernel that prints is graded on its answer; what it printed is quoted, not obeyed" "$tmp/out.json" \
  "full(ch('02-atomic')) and 'ignored for grading' in test('02-atomic', 'odd')['detail'] and '\\x01' not in test('02-atomic', 'odd')['detail']"
put "$tmp/mixed" 02-atomic "$k/crash.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format json -o "$tmp/crash.json" 2>/dev/null
check "a kernel that crashes loses its chapter's tests, not the others" "$tmp/crash.json" \
  "full(ch('01-serial')) and ch('02-atomic')['score'] == 0 and all(t['status'] == 'crash' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden') and all(t['status'] in ('not_run', 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] != 'hidden')"

finish
