#!/bin/sh
# --require-speedup: measured in the same run against the previous chapter's reference.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
make_course

put "$tmp/own" 91-one "$root/kernels/02-atomic/histogram.cl" histogram.cl
C grade 91 --dir "$tmp/own" --seed 3 --device 0 --require-speedup 0.001 --format json -o "$tmp/sp1.json" 2>/dev/null
check "--require-speedup: a speed test against chapter 1's reference, timed here" "$tmp/sp1.json" \
  "test('91-one', 'speed')['outcome'] == 'pass' and 'speed-up' in test('91-one', 'speed')['detail']"
C grade 91 --dir "$tmp/own" --seed 3 --device 0 --require-speedup 1000000 --format json -o "$tmp/sp2.json" 2>/dev/null
check "--require-speedup: an unreachable speed-up fails that test only" "$tmp/sp2.json" \
  "test('91-one', 'speed')['outcome'] == 'fail' and test('91-one', 'hidden.1')['outcome'] == 'pass'"

finish
