#!/bin/sh
# A kernel is native code on PoCL: inline assembly is refused by the grader, and where
# the source policy is not asked (cltutor run), the worker itself still cannot read
# another submission, fill the disk, replay an answer in its timed launches or flood
# the grader's memory.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace and TMPDIR, nomodel, check, put
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache"   # the kernel cache: ours alone, looked at below
mkdir -p "$HOME"

# a classmate's submission, outside this worker's scratch folder
mkdir -p "$tmp/batch/classmate/exercises/01-serial"
echo '__kernel void histogram() { /* the classmate s work */ }' > "$tmp/batch/classmate/exercises/01-serial/histogram.cl"
reader() { sed "s#PATH_TO_READ#$1#" "$k/native_read.cl" > "$2"; }
reader "$tmp/batch/classmate/exercises/01-serial/histogram.cl" "$tmp/read-sibling.cl"
reader /proc/version "$tmp/read-runtime.cl"

# 1. the grader refuses the file: inline assembly, with its line
asm_line=$(grep -n '__asm__' "$k/native_read.cl" | head -n 1 | cut -d: -f1)
sub="$tmp/batch/attacker"
put "$sub" 01-serial "$tmp/read-sibling.cl"
nomodel "$bin" grade 1 --dir "$sub" --seed 3 --tests odd --format json -o "$tmp/asm.json" 2> "$tmp/asm.err"
check "grade: a kernel with inline assembly is refused, naming the line and what to write instead" "$tmp/asm.json" \
  "ch('01-serial')['refused'] and not ch('01-serial')['submitted'] and all(t['status'] == 'refused' and 'histogram.cl:$asm_line:' in t['detail'] and 'is inline assembly' in t['detail'] and 'write the operation in OpenCL C' in t['detail'] for t in hidden('01-serial'))"
nomodel "$bin" grade 1 --dir "$sub" --seed 3 --tests odd > "$tmp/asm.txt" 2>&1
if grep -q "(refused: each test below says why)" "$tmp/asm.txt"; then ok "grade: the text report says the file was refused, not missing"
else bad "grade: the refused file's line" "$(head -n 8 "$tmp/asm.txt")"; fi

# a batch: the attacker's row says refused and why; the classmate gets exactly the solo grade
b="$tmp/class"
put "$b/ada" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$b/mallory" 01-serial "$tmp/read-sibling.cl"
nomodel "$bin" grade 1 --batch "$b" -j 2 --tests odd,even -o "$tmp/class.csv" --seed 11 2> "$tmp/class.err"
ada_seed=$(python3 -c "import csv,sys; print(next(r['seed'] for r in csv.DictReader(open(sys.argv[1])) if r['student'] == 'ada'))" "$tmp/class.csv" 2>/dev/null)
nomodel "$bin" grade 1 --dir "$b/ada" --tests odd,even --seed "${ada_seed:-0}" --format json -o "$tmp/ada-solo.json" 2>/dev/null
if python3 - "$tmp/class.csv" "$tmp/ada-solo.json" <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
solo = json.load(open(sys.argv[2]))
assert rows["mallory"]["status"].startswith("refused: 1 file refused by the source policy"), rows["mallory"]
assert float(rows["mallory"]["score"]) == 0, rows["mallory"]
assert rows["ada"]["status"] == "ok" and abs(float(rows["ada"]["score"]) - solo["score"]) < 0.01 and solo["score"] > 0, (rows["ada"], solo["score"])
PY
then ok "batch: the attacker's row says 'refused' and why; the classmate's grade is the solo grade"
else bad "batch with an attacker" "$(cat "$tmp/class.csv" "$tmp/class.err")"; fi

# 2. the worker cannot read outside its folder, even for native code (where Landlock is there;
# the attacks are x86-64 system calls, as PoCL compiles them on this processor)
mkdir -p "$tmp/probe"
if [ "$(uname -m)" != x86_64 ]; then
  ok "run: not an x86-64 machine, the native-code read checks skipped"
  ok "run: (skipped) a classmate's submission"
elif "$bin" __worker-selftest "$tmp/probe" 2>&1 | grep -q "Landlock ABI"; then
  expect "run: native code that opens the runtime's files still reads them (the probe works)" 3 "^Crashed" -- \
    "$bin" run 1 --kernel "$tmp/read-runtime.cl" --size 1000x16 --no-timing
  expect "run: native code cannot read a classmate's submission: the open fails and the kernel goes on" 0 "^Correct" -- \
    "$bin" run 1 --kernel "$tmp/read-sibling.cl" --size 1000x16 --no-timing
else
  ok "run: Landlock is not available on this kernel, the read checks skipped"
  ok "run: (skipped) a classmate's submission"
fi

[ "$(uname -m)" = x86_64 ] || { for i in 1 2 3 4 5 6 7 8 9 10; do ok "(skipped: not x86-64)"; done; finish; exit; }
# 3. one budget for what a worker writes: 1 GiB in files, or 100000 files, do not fit
# (the same kernel with goals inside the budget shows that its writes work)
if "$bin" __worker-selftest "$tmp/probe" 2>&1 | grep -q "writes: a tmpfs of"; then
  sed 's/^#define GOAL_BYTES .*/#define GOAL_BYTES (4L << 20)/' "$k/native_disk.cl" > "$tmp/disk-small.cl"
  sed 's/^#define GOAL_FILES .*/#define GOAL_FILES 100/' "$k/native_disk.cl" > "$tmp/files-small.cl"
  expect "run: native code writes 4 MiB in files within the budget (the probe works)" 3 "^Crashed" -- \
    "$bin" run 1 --kernel "$tmp/disk-small.cl" --size 1000x16 --no-timing
  expect "run: native code makes 100 files within the budget (the probe works)" 3 "^Crashed" -- \
    "$bin" run 1 --kernel "$tmp/files-small.cl" --size 1000x16 --no-timing
  expect "run: native code cannot write 1 GiB or make 100000 files: the budget stops it, the kernel goes on" 0 \
    "^Correct" -- "$bin" run 1 --kernel "$k/native_disk.cl" --size 1000x16 --no-timing
  left=$(find "$TMPDIR" "$HOME" -type f -size +1M 2>/dev/null | head -n 3)
  if [ -z "$left" ]; then ok "the disk attack leaves nothing behind"; else bad "the disk attack left files" "$left"; fi
else
  for i in 1 2 3 4; do ok "(skipped: no mount namespace for the worker here: $("$bin" __worker-selftest "$tmp/probe" 2>&1 | grep -o 'writes: .*'))"; done
fi

# 4. timed launches that no cache can help: each has inputs of its own, and its answer is checked
expect "run: native code that keeps its first answer and gives it again in the timed launches loses" 1 \
  "^Timed launch wrong" -- "$bin" run 1 --kernel "$k/native_replay.cl" --size 1000x16
expect "run: the same kernel untimed is right (the first launch does the work)" 0 "^Correct" -- \
  "$bin" run 1 --kernel "$k/native_replay.cl" --size 1000x16 --no-timing

# 5. a flooded result channel is not read: a clear failure, and the grader stays small
/usr/bin/time -f '%M' -o "$tmp/rss" "$bin" run 1 --kernel "$k/native_flood.cl" --size 1000x16 --no-timing \
  > "$tmp/flood.txt" 2>&1
rc=$?
rss=$(tail -n 1 "$tmp/rss")
if [ $rc -eq 3 ] && grep -q "^Flooded the grader" "$tmp/flood.txt" &&
   grep -q "The kernel sent the grader more than [0-9]* bytes" "$tmp/flood.txt"; then
  ok "run: a kernel that floods the result channel fails with the reason"
else bad "run: the flood (exit $rc)" "$(cat "$tmp/flood.txt")"; fi
if [ -n "$rss" ] && [ "$rss" -lt $((300 * 1024)) ]; then ok "the grader stays under 300 MB while a kernel sends 1.5 GB: ${rss} KB at the most"
else bad "the flood's memory: ${rss:-?} KB" "$(cat "$tmp/flood.txt")"; fi
leftover=$(find "$TMPDIR" -type f -size +1M 2>/dev/null | head -n 3)
if [ -z "$leftover" ]; then ok "the flood leaves nothing behind in TMPDIR"
else bad "the flood left files" "$leftover"; fi
expect "the reference still runs, checked and timed" 0 '^Correct' -- "$bin" run 1 --solution --size 1000x16

finish
