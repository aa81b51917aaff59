#!/bin/sh
# Attacks on the grader from inside a kernel: stealing the golden reference
# from the worker's memory, faking a speed-up by changing the input between
# launches, and what a confined worker may do (sockets, exec, writes).
# Usage: tests/redteam/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"
export TMPDIR="$tmp/tmpdir"   # the workers' scratch folders: ours alone
mkdir -p "$TMPDIR"
# GPU-model checks are not under test here, and without Oclgrind they are quicker
nomodel() { CLTUTOR_OCLGRIND_ICD="$tmp/no-oclgrind.so" "$@"; }

# check NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j) holds
check() {
  if python3 - "$2" "$3" > "$tmp/check.out" 2>&1 <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
def ch(lesson):
    return next(c for c in j["chapters"] if c["lesson"] == lesson)
def test(lesson, tid):
    return next(t for t in ch(lesson)["tests"] if t["id"] == tid)
def hidden(lesson):
    return [t for t in ch(lesson)["tests"] if t["kind"] == "hidden"]
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(j, indent=1)[:3000])
sys.exit(0 if ok else 1)
EOF
  then ok "$1"; else bad "$1" "$(cat "$tmp/check.out")"; fi
}

# put DIR LESSON FILE: FILE as the chapter's exercise histogram.cl in submission DIR
put() {
  mkdir -p "$1/exercises/$2"
  cp "$3" "$1/exercises/$2/histogram.cl"
}

# ---- (a) the golden reference is nowhere in the worker's memory
# (every hidden test but 'single': with one bin the answer is n_descriptors,
# which a kernel gets as an argument and so finds in memory without stealing)
b="$tmp/batch"
put "$b/thief" 02-atomic "$k/steal_golden.cl"
put "$b/honest" 02-atomic "$root/kernels/02-atomic/histogram.cl"
nomodel "$bin" grade 2 --batch "$b" -j 2 --seed 31 --timeout 5 --tests odd,input.onebin,input.ties,one,large \
  -o "$tmp/grades.csv" 2> "$tmp/batch.err"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/grades.csv" > "$tmp/batch.out" 2>&1 <<'EOF'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
thief, honest = (json.load(open(rows[s]["report"])) for s in ("thief", "honest"))
t = [x for x in thief["chapters"][0]["tests"] if x["kind"] == "hidden"]
h = honest["chapters"][0]
assert t and all(x["outcome"] == "fail" and x["score"] == 0 for x in t), [(x["id"], x["status"]) for x in t]
assert float(rows["thief"]["02-atomic"]) == 0, rows["thief"]
assert abs(h["score"] - h["max_score"]) < 1e-6 and h["max_score"] > 0, h["score"]
EOF
then ok "a kernel that searches the worker's memory for the golden histogram scores 0, the reference in the same batch full marks"
else bad "golden theft in a batch (exit $rc)" "$(cat "$tmp/batch.out" "$tmp/batch.err" "$tmp/grades.csv")"; fi
"$bin" run 2 --kernel "$k/steal_golden.cl" --size 1000x16 --no-timing > "$tmp/theft.txt" 2>&1
if grep -Eq '^(Crashed|Wrong result)' "$tmp/theft.txt"; then
  ok "the theft finds nothing to copy: the run crashes or is wrong"
else bad "the theft run" "$(cat "$tmp/theft.txt")"; fi

# ---- (b) every timed launch must give the checked answer and leave the input alone
sub="$tmp/fake"
put "$sub" 03-coalesced "$k/fake_speedup.cl"
nomodel "$bin" grade 3 --dir "$sub" --seed 5 --device 0 --require-speedup 1.5 --tests speed --format json \
  -o "$tmp/fake.json" 2> "$tmp/fake.err"
check "a kernel that marks its input and returns early later loses the speed test, with the reason" "$tmp/fake.json" \
  "test('03-coalesced', 'speed')['outcome'] == 'fail' and \"The kernel's output changed between launches: launch 1 of \" in test('03-coalesced', 'speed')['detail'] and 'differs from the checked first run' in test('03-coalesced', 'speed')['detail'] and 'must not write into its inputs' in test('03-coalesced', 'speed')['detail']"
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
sys.exit(0 if j['status'] == 'wrong' and j['timing'] is None and j['verify']['ok'] and j['headline'] == 'Output changed' else 1)" "$tmp/fake-run.json"; then
  ok "run: the first output is right, the later ones are not: a failure, and no timing"
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

# ---- (c) a confined worker
mkdir -p "$tmp/outside"
CLTUTOR_SELFTEST_SECRET=hush "$bin" __worker-selftest "$tmp/outside" > "$tmp/self.txt" 2>&1
rc=$?
self() { grep -q "^$1" "$tmp/self.txt"; }
if [ $rc -eq 0 ]; then ok "the worker's self-test passes"; else bad "worker self-test (exit $rc)" "$(cat "$tmp/self.txt")"; fi
for p in "socket(AF_INET): refused" "socket(AF_UNIX): refused" "execve(/bin/sh): refused" "fork: refused" \
         "clone without CLONE_THREAD: refused" "ptrace the parent: refused" \
         "see the grader's environment (CLTUTOR_SELFTEST_SECRET): refused"; do
  if self "$p"; then ok "confined worker: $p"; else bad "confined worker: $p" "$(cat "$tmp/self.txt")"; fi
done
if self "thread: allowed" && self "kernel before the probes: ran" && self "kernel after the probes: ran" &&
   self "write inside the scratch folder: allowed"; then
  ok "confined worker: threads, its scratch folder and the kernel still work"
else bad "confined worker: what must still work" "$(cat "$tmp/self.txt")"; fi
if grep -q "Landlock ABI" "$tmp/self.txt"; then
  if self "write outside the scratch folder: refused" && [ ! -e "$tmp/outside/outside-the-scratch-folder" ] &&
     self "open the parent's memory (/proc/PID/mem): refused"; then
    ok "confined worker (Landlock): no write outside its folder, no reading the parent's memory"
  else bad "confined worker (Landlock)" "$(cat "$tmp/self.txt")"; fi
else
  ok "confined worker: Landlock is not available on this kernel, its checks skipped ($(grep '^confinement' "$tmp/self.txt"))"
fi

# ---- the worker program: found, replaceable, and gone when the run is
expect "a worker named by CLTUTOR_WORKER that is not a program: a clear error" 3 \
  'could not start a worker process \(CLTUTOR_WORKER=/nonexistent/cltutor is not a program' -- \
  env CLTUTOR_WORKER=/nonexistent/cltutor "$bin" run 2 --solution --size 100x4 --no-timing
mkdir -p "$tmp/elsewhere"
cp "$bin" "$tmp/elsewhere/tutor"
expect "a copy of cltutor under another name, with no cltutor beside it, says what to do" 3 \
  "no cltutor program in $tmp/elsewhere.*CLTUTOR_WORKER" -- \
  env CLTUTOR_DATA="$root" "$tmp/elsewhere/tutor" run 2 --solution --size 100x4 --no-timing
expect "... and runs kernels with CLTUTOR_WORKER" 0 '^Correct' -- \
  env CLTUTOR_DATA="$root" CLTUTOR_WORKER="$bin" "$tmp/elsewhere/tutor" run 2 --solution --size 100x4 --no-timing
# a worker program of its own, so that other runs on the machine do not count
mkdir -p "$tmp/own-worker" && cp "$bin" "$tmp/own-worker/cltutor"
expect "a kernel that never ends is stopped" 3 '^Timed out' -- \
  env CLTUTOR_WORKER="$tmp/own-worker/cltutor" "$bin" run 2 --kernel "$root/tests/cli/kernels/endless_loop.cl" \
  --size 100x4 --timeout 1 --no-timing
sleep 0.5
if ps -eo args= | awk -v w="$tmp/own-worker/cltutor __worker" '$0 == w { found = 1 } END { exit !found }'; then
  bad "no worker is left running" "$(ps -eo pid,pgid,args | grep '__worker')"
else ok "no worker is left running after a timeout"; fi
if ! ls -d "$TMPDIR"/cltutor-worker-* > /dev/null 2>&1; then ok "the workers' scratch folders are removed"
else bad "scratch folders left behind" "$(ls -d "$TMPDIR"/cltutor-worker-*)"; fi

finish
