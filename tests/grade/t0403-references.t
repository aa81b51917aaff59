#!/bin/sh
# The references and honestly mended listings get full marks at several seeds, with and without the GPU model.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

make_correct "$tmp/correct"
for seed in 11 4242 987654321; do
  if [ $seed = 11 ]; then run=""; else run=nomodel; fi
  $run "$bin" grade --dir "$tmp/correct" --seed $seed --format json -o "$tmp/correct-$seed.json" 2> "$tmp/err.txt"
  check "reference solutions get full marks in every chapter (seed $seed${run:+, no GPU model})" "$tmp/correct-$seed.json" \
    "j['failed'] == 0 and j['seed'] == $seed and all(full(c) for c in j['chapters']) and j['error'] is None"
done
check "technique checks and race checks are measured and credited" "$tmp/correct-11.json" \
  "[t for c in j['chapters'] for t in c['tests'] if t['kind'] == 'technique' and t['outcome'] == 'pass'] and all(t['status'] == 'measured' and t['outcome'] == 'pass' for c in j['chapters'] for t in c['tests'] if t['kind'] in ('technique', 'safety'))"
check "without the GPU memory model its checks are skipped, neither passed nor failed, and leave the total" "$tmp/correct-4242.json" \
  "[t for c in j['chapters'] for t in c['tests'] if t['outcome'] == 'skip'] and all(t['detail'].startswith('skipped: GPU memory model unavailable') and t['max_score'] == 0 for c in j['chapters'] for t in c['tests'] if t['outcome'] == 'skip')"

finish
