#!/bin/sh
# Every timed launch must give the checked answer and leave the input alone: no faked speed-up.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace and TMPDIR, nomodel, check, put

sub="$tmp/fake"
put "$sub" 03-coalesced "$k/fake_speedup.cl"
nomodel "$bin" grade 3 --dir "$sub" --seed 5 --device 0 --require-speedup 1.5 --tests speed --format json \
  -o "$tmp/fake.json" 2> "$tmp/fake.err"
check "a kernel that marks its input and returns early later loses the speed test, with the reason" "$tmp/fake.json" \
  "test('03-coalesced', 'speed')['outcome'] == 'fail' and \"wrote into its input 'descriptors'\" in test('03-coalesced', 'speed')['detail'] and 'must not write into its inputs' in test('03-coalesced', 'speed')['detail']"
put "$sub" 03-coalesced "$k/stash_answer.cl"
nomodel "$bin" grade 3 --dir "$sub" --seed 5 --device 0 --require-speedup 1.5 --tests speed --format json \
  -o "$tmp/stash.json" 2> "$tmp/stash.err"
check "a kernel that hides its answer in its input and copies it out later loses the speed test, with the reason" "$tmp/stash.json" \
  "test('03-coalesced', 'speed')['outcome'] == 'fail' and \"wrote into its input 'descriptors'\" in test('03-coalesced', 'speed')['detail']"
"$bin" run 3 --kernel "$k/fake_speedup.cl" --size 2000x64 --json > "$tmp/fake-run.json" 2> "$tmp/fake-run.err"
rc=$?
if [ $rc -eq 1 ] && python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j['status'] == 'wrong' and j['timing'] is None and j['verify']['ok'] and j['headline'] == 'Input overwritten' else 1)" "$tmp/fake-run.json"; then
  ok "run: the first output is right, but the kernel marked its input: a failure, and no timing"
else bad "run of the fake speed-up (exit $rc)" "$(cat "$tmp/fake-run.json" "$tmp/fake-run.err")"; fi
expect "run: a kernel that writes into its input is told so" 1 "^Input overwritten" -- \
  "$bin" run 3 --kernel "$k/stash_answer.cl" --size 2000x64 --no-timing
"$bin" run 2 --kernel "$root/tests/cli/kernels/wrong_bin.cl" --size 2000x32 --json > "$tmp/wrong.json" 2>/dev/null
if python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j['status'] == 'wrong' and j['timing'] is None else 1)" "$tmp/wrong.json"; then
  ok "a wrong kernel is not timed"
else bad "a wrong kernel is not timed" "$(cat "$tmp/wrong.json")"; fi
expect "the references still pass with every launch checked" 0 '^Correct' -- "$bin" run 8 --solution --size 100000

finish
