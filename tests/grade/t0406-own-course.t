#!/bin/sh
# A course of our own: hidden_sizes, weights and technique checks from lesson.ini, on both sides.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
make_course

put "$tmp/own" 90-technique "$k/local_constant.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own.json" 2>/dev/null
check "local memory and __constant arguments measured through the OpenCL API" "$tmp/own.json" \
  "full(ch('90-technique')) and test('90-technique', 'technique.local_memory')['status'] == 'measured' and 'CL_KERNEL_LOCAL_MEM_SIZE' in test('90-technique', 'technique.local_memory')['detail'] and 'centroids' in test('90-technique', 'technique.constant_args')['detail']"
check "hidden_sizes and weights from lesson.ini" "$tmp/own.json" \
  "[t['size'] for t in ch('90-technique')['tests'] if t['kind'] == 'hidden'][:2] == ['333x17x64', '1x256x64'] and abs(sum(t['max_score'] for t in ch('90-technique')['tests'] if t['kind'] == 'technique') - 60) < 1e-6"
put "$tmp/own" 90-technique "$root/kernels/02-atomic/histogram.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own2.json" 2>/dev/null
check "the right answer without the techniques: hidden tests pass, both technique checks fail, and say why" "$tmp/own2.json" \
  "all(t['outcome'] == 'pass' for t in ch('90-technique')['tests'] if t['kind'] == 'hidden') and test('90-technique', 'technique.local_memory')['outcome'] == 'fail' and test('90-technique', 'technique.constant_args')['outcome'] == 'fail' and 'uses 0 bytes of __local memory' in test('90-technique', 'technique.local_memory')['detail'] and abs(ch('90-technique')['score'] - 40) < 1e-6"
put "$tmp/own" 90-technique "$k/garbage.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own3.json" 2>/dev/null
check "no technique credit without a correct run" "$tmp/own3.json" \
  "ch('90-technique')['score'] == 0 and test('90-technique', 'technique.local_memory')['outcome'] == 'fail'"
expect "a misspelt technique names lesson.ini" 64 '92-bad/lesson.ini: technique .coalesing' -- C grade 92 --plan
C grade 93 --plan --format json > "$tmp/w.json" 2>/dev/null
check "weights: a group split evenly, a named test on top" "$tmp/w.json" \
  "[t['max_score'] for t in ch('93-weights')['tests']] == [5, 30, 5]"

finish
