#!/bin/sh
# Misbehaving kernels (one that hangs on one input, one that prints, one that crashes) lose only their own tests
# (and, failing one, the race check and the technique, which count only with every hidden test passed). A
# kernel that does not finish two tests is not run again in its chapter: every later test would wait as long.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$tmp/mixed" 02-atomic "$k/hang_on_one.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --timeout 6 --format json -o "$tmp/mixed.json" 2>/dev/null
check "a kernel that hangs on one input loses that test (one timeout may be the machine's load: the others run), and the race check and technique it no longer earns" "$tmp/mixed.json" \
  "full(ch('01-serial')) and [t['id'] for t in ch('02-atomic')['tests'] if t['outcome'] == 'fail' and t['kind'] == 'hidden'] == ['one'] and test('02-atomic', 'one')['status'] == 'timeout' and all(t['status'] in ('not_credited', 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] in ('safety', 'technique')) and all(t['outcome'] == 'pass' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden' and t['id'] != 'one')"
put "$tmp/mixed" 02-atomic "$k/crash_on_one.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format json -o "$tmp/crash1.json" 2>/dev/null
check "a kernel that crashes on one input, in a worker that runs several sizes, loses that test alone: the sizes before and after it keep their results" "$tmp/crash1.json" \
  "full(ch('01-serial')) and [t['id'] for t in ch('02-atomic')['tests'] if t['outcome'] == 'fail' and t['kind'] == 'hidden'] == ['one'] and test('02-atomic', 'one')['status'] == 'crash' and all(t['outcome'] == 'pass' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden' and t['id'] != 'one')"
put "$tmp/mixed" 02-atomic "$k/hang.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --timeout 3 --format json -o "$tmp/hang.json" 2>/dev/null
check "a kernel that never finishes times out twice (or as many as ran side by side then): its chapter's other tests are not run, and say why" "$tmp/hang.json" \
  "full(ch('01-serial')) and ch('02-atomic')['score'] == 0 and 2 <= len([t for t in ch('02-atomic')['tests'] if t['status'] == 'timeout']) < len([t for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden']) and all(t['status'] == 'not_run' and 'did not finish on earlier tests' in t['detail'] for t in ch('02-atomic')['tests'] if t['status'] != 'timeout' and t['kind'] != 'safety') and test('02-atomic', 'safety')['status'] == 'not_run'"
# a racy kernel cannot escape the race check by hanging: the check still runs, and fails
# (it hangs on two inputs, one descriptor and one centroid: its other tests are not run)
sed 's/atomic_inc(&histogram\[nearest\])/histogram[nearest]++/; s/atomic_add(&histogram\[nearest\], 1)/histogram[nearest]++/; s/if (n_descriptors == 1)/if (n_descriptors == 1 || n_centroids == 1)/' "$k/hang_on_one.cl" > "$tmp/racy_hang.cl"
grep -q 'n_centroids == 1' "$tmp/racy_hang.cl" || bad "the racy kernel hangs on two inputs (hang_on_one.cl changed?)"
put "$tmp/mixed" 02-atomic "$tmp/racy_hang.cl"
"$bin" grade 2 --dir "$tmp/mixed" --seed 21 --timeout 3 --format json -o "$tmp/racy.json" 2>/dev/null
check "a racy kernel that hangs on two inputs still fails the race check, and its passing tests are not credited" "$tmp/racy.json" \
  "test('02-atomic', 'safety')['outcome'] == 'fail' and test('02-atomic', 'safety')['status'] not in ('not_run',) and ch('02-atomic')['score'] == 0 and any(t['status'] == 'not_run' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden')"
put "$tmp/mixed" 02-atomic "$k/prints.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format json -o "$tmp/out.json" 2>/dev/null
check "a kernel that prints is graded on its answer; what it printed is quoted, not obeyed" "$tmp/out.json" \
  "full(ch('02-atomic')) and 'ignored for grading' in test('02-atomic', 'odd')['detail'] and '\\x01' not in test('02-atomic', 'odd')['detail']"
put "$tmp/mixed" 02-atomic "$k/crash.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format json -o "$tmp/crash.json" 2>/dev/null
check "a kernel that crashes loses its chapter's tests, not the others" "$tmp/crash.json" \
  "full(ch('01-serial')) and ch('02-atomic')['score'] == 0 and all(t['status'] == 'crash' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden') and all(t['status'] in ('not_run', 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] != 'hidden')"

finish
