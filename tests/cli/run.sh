#!/bin/sh
# Command-line tests: exit statuses, messages, JSON, lookup, devices,
# workspaces. Usage: tests/cli/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"

# json_check NAME PYTHON_EXPR -- COMMAND...: the output parses and EXPR (over j) holds
json_check() {
  name=$1 expr=$2
  shift 3
  "$@" > "$tmp/out.json" 2> "$tmp/err.txt"
  if python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$tmp/out.json"; then
    ok "$name"
  else
    bad "$name" "$(cat "$tmp/out.json" "$tmp/err.txt")"
  fi
}

# ---- help and version
expect "--version" 0 '^cltutor [0-9]+\.[0-9]+' -- "$bin" --version
expect "--help" 0 'Usage: cltutor' -- "$bin" --help
for c in list devices run check reset bench; do
  expect "$c --help" 0 "Usage: cltutor $c" -- "$bin" "$c" --help
done
expect "unknown command" 64 "unknown command 'frobnicate'" -- "$bin" frobnicate
expect "unknown option" 64 'unknown option --frob' -- "$bin" run 2 --frob
expect "run without a chapter" 64 'which chapter' -- "$bin" run

# ---- chapters
expect "list" 0 'Atomic histogram' -- "$bin" list
out=$("$bin" list 2>&1)
cols=$(printf '%s\n' "$out" | awk '/(not started|failing|passed) /{ print index($0, "not started") + index($0, "failing") + index($0, "passed") }' | sort -u | wc -l)
if [ "$cols" -eq 1 ] && printf '%s\n' "$out" | grep -q "edit $CLTUTOR_WORKSPACE/exercises/01-serial/histogram.cl"; then
  ok "list: one state column for every title, the exercise's full path"
else bad "list: one state column for every title, the exercise's full path" "$out"; fi
json_check "list --json" "j[0]['number']==1 and j[1]['id']=='02-atomic' and j[0]['next']" -- "$bin" list --json
expect "lookup by number" 0 'Chapter 2: Atomic' -- "$bin" run 2 --solution --no-timing --size 200x8
expect "lookup by zero-padded number" 0 'Chapter 2: Atomic' -- "$bin" run 02 --solution --no-timing --size 200x8
expect "lookup by folder name" 0 'Chapter 2: Atomic' -- "$bin" run 02-atomic --solution --no-timing --size 200x8
expect "lookup by slug" 0 'Chapter 1: Serial' -- "$bin" run serial --solution --no-timing --size 200x8
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" run 99

# ---- devices
expect "devices" 0 '^ \* 0 ' -- "$bin" devices
json_check "devices --json" "len(j)>=1 and j[0]['index']==0 and sum(d['default'] for d in j)==1" -- "$bin" devices --json
expect "device by index" 0 'Correct' -- "$bin" run 2 --solution --no-timing --size 200x8 --device 0
name=$("$bin" devices --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['name'][:6].upper())")
expect "device by part of its name, any case" 0 'Correct' -- "$bin" run 2 --solution --no-timing --size 200x8 --device "$name"
expect "device index out of range" 64 'only [0-9]+ device' -- "$bin" run 2 --solution --device 99
expect "device name that matches nothing" 64 "matches no device" -- "$bin" run 2 --solution --device nosuchgpu
mkdir -p "$tmp/no-icd"
expect "no OpenCL device: exit 69" 69 'No OpenCL device|no OpenCL device' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" run 2 --solution
expect "devices without any: exit 69" 69 'No OpenCL device' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" devices

# ---- a correct run, text and JSON
expect "reference of chapter 2 is correct with timing" 0 'median +[0-9.]+ (ms|us|s)' -- "$bin" run 2 --kernel "$root/kernels/02-atomic/histogram.cl" --size 4096x64
json_check "run --json" "j['status']=='pass' and j['exit_code']==0 and j['timing']['median_ms']>0 and j['timing']['runs']>=3 and j['verify']['ok'] and j['verify']['actual_total']==2000 and j['device']['name'] and j['size']=='2000x32x64' and j['seed']==9" -- "$bin" run 2 --solution --size 2000x32 --seed 9 --json
expect "--compare times the references beside yours" 0 'chapter 1 reference +[0-9.]+ ms' -- "$bin" run 2 --solution --compare --size 2000x64
expect "a file with one kernel runs whatever its name" 0 'Correct' -- "$bin" run 2 --kernel "$k/any_name.cl" --size 500x16 --no-timing

# ---- each failure class: its own message and exit status, within the limit
expect "wrong result: exit 1 and the diff" 1 'bin +expected +actual' -- "$bin" run 2 --kernel "$k/wrong_bin.cl" --size 1000x16
json_check "wrong result in JSON" "j['status']=='wrong' and j['exit_code']==1 and not j['verify']['ok'] and j['verify']['wrong']>0 and len(j['verify']['diff'])>0" -- "$bin" run 2 --kernel "$k/wrong_bin.cl" --size 1000x16 --json
expect "syntax error: exit 2, the learner's file and line" 2 'syntax_error\.cl:4:[0-9]+: error' -- "$bin" run 2 --kernel "$k/syntax_error.cl"
out=$("$bin" run 2 --kernel "$k/syntax_error.cl" 2>&1)
if printf '%s' "$out" | grep -q -e 'tempfile' -e 'errors\? generated'; then bad "build log hides the runtime's temporary file" "$out"; else ok "build log hides the runtime's temporary file"; fi
json_check "syntax error in JSON" "j['status']=='build_error' and j['exit_code']==2 and j['error_location']['line']==4" -- "$bin" run 2 --kernel "$k/syntax_error.cl" --json
start=$(date +%s)
expect "endless loop: exit 3, timed out" 3 'Timed out' -- "$bin" run 2 --kernel "$k/endless_loop.cl" --timeout 2 --size 1000x16
took=$(( $(date +%s) - start ))
if [ "$took" -le 20 ]; then ok "endless loop stopped in ${took}s (limit 2s + build)"; else bad "endless loop took ${took}s"; fi
expect "out-of-bounds write: exit 3, crashed" 3 'Crashed' -- "$bin" run 2 --kernel "$k/out_of_bounds.cl" --size 16384x16x4
expect "crash message says what to try" 3 'Try:' -- "$bin" run 2 --kernel "$k/out_of_bounds.cl" --size 16384x16x4
expect "barrier in divergent code: exit 3" 3 'Crashed|Timed out' -- "$bin" run 2 --kernel "$k/divergent_barrier.cl" --size 1000x16x4 --timeout 3
expect "a kernel's printf shows under a wrong result" 1 'debug: n_descriptors = 64, n_centroids = 16' -- "$bin" run 2 --kernel "$k/prints.cl" --size 64x16 --no-timing
expect "missing kernel file: exit 64" 64 'no such file' -- "$bin" run 2 --kernel "$tmp/nope.cl"
expect "a folder given as the kernel: exit 64" 64 "a folder, not a file" -- "$bin" run 2 --kernel "$tmp"
expect "bad size names the value" 64 "size '12xq'" -- "$bin" run 2 --solution --size 12xq
expect "bad input kind lists the kinds" 64 'random, onebin, ties' -- "$bin" run 2 --solution --size 100:lumpy
expect "bad timeout" 64 "--timeout 'abc'" -- "$bin" run 2 --timeout abc
expect "bad seed" 64 "--seed 'x1'" -- "$bin" run 2 --seed x1

# ---- check and the workspace
expect "check --solution passes chapters 1-2" 0 '[0-9]+ passed, 0 failed' -- "$bin" check 2 --solution
json_check "check takes several chapters" "sorted({r['chapter'] for r in j})==[1,2]" -- "$bin" check 2 1 --solution --json
expect "check --kernel needs exactly one chapter" 64 'needs exactly one chapter' -- "$bin" check 1 2 --kernel "$k/wrong_bin.cl"
expect "check of a starting file fails with a message" 1 'Wrong result' -- "$bin" check 1
[ -f "$tmp/ws/exercises/01-serial/histogram.cl" ] && ok "the workspace got a copy of the starting file" || bad "no copy of the starting file in the workspace"
json_check "list shows the failing chapter" "j[0]['state']=='failing'" -- "$bin" list --json
"$bin" check all >/dev/null 2>&1
json_check "a bare check leaves chapters never worked on alone" "j[0]['state']=='failing' and all(c['state']=='not started' for c in j[1:])" -- "$bin" list --json
cp "$root/kernels/01-serial/histogram.cl" "$tmp/ws/exercises/01-serial/histogram.cl"
expect "check passes once solved" 0 ' 0 failed' -- "$bin" check 1
json_check "progress remembers it" "j[0]['state']=='passed' and j[1]['next']" -- "$bin" list --json
expect "reset puts the starting file back" 0 'Reset' -- "$bin" reset 1
if grep -q TODO "$tmp/ws/exercises/01-serial/histogram.cl" && [ -f "$tmp/ws/exercises/01-serial/histogram.cl.bak" ]; then
  ok "reset kept the old file as .bak"; else bad "reset did not keep a .bak"; fi
expect "reset of the starting file does nothing" 0 'already is the starting file' -- "$bin" reset 1
ex="$tmp/ws/exercises/01-serial/histogram.cl"
echo "/* second try */" >> "$ex"
expect "a second reset keeps the first backup" 0 'histogram.cl.bak.2' -- "$bin" reset 1
if [ "$(tail -n 1 "$ex.bak.2")" = "/* second try */" ] && ! grep -q "second try" "$ex.bak" && ! grep -q "second try" "$ex"; then
  ok "both earlier versions kept, each in its own backup"; else bad "both earlier versions kept, each in its own backup"; fi
expect "--workspace overrides the environment" 0 'Atomic' -- "$bin" --workspace "$tmp/ws2" list

# ---- bench
json_check "bench --json measures limits and a reference" "j['limits']['copy_gb_per_s']>0 and j['limits']['fp32_gflop_per_s']>0 and j['chapters'][0]['status']=='pass' and j['chapters'][0]['median_ms']>0 and j['chapters'][0]['openmp_ms']>0" -- "$bin" bench 2 --budget 0.2 --json
expect "bench text table" 0 'Limits: +copy [0-9.]+ GB/s' -- "$bin" bench 1 --budget 0.2
out=$("$bin" bench 7 --budget 0.2 2>/dev/null)
if printf '%s\n' "$out" | grep -Eq '^7 +Byte histogram, padded +16M:uniform +[0-9.]+ ms' &&
   printf '%s\n' "$out" | grep -Eq '^7\+ +bin-major, no conflicts +16M:uniform' &&
   [ "$(printf '%s\n' "$out" | awk '{ if (length($0) > w) w = length($0) } END { print w }')" -le 120 ]; then
  ok "bench rows: short titles, sizes in M, at most 120 columns"
else bad "bench rows: short titles, sizes in M, at most 120 columns" "$out"; fi
expect "bench of an unknown chapter" 64 "no chapter '42'" -- "$bin" bench 42

# ---- settings, the device queue, doctor
printf '[timing]\n\nbudget_s = lots\n' > "$tmp/bad.conf"
expect "a bad setting names the file, line and key" 0 'bad.conf:3: \[timing\] budget_s = lots: give seconds' -- \
  env CLTUTOR_CONFIG="$tmp/bad.conf" "$bin" list
printf '[course]\nsolutions = hidden\n' > "$tmp/lab.conf"
expect "a lab that hides the solutions: --solution says so" 64 'solutions are hidden' -- \
  env CLTUTOR_SYSTEM_CONFIG="$tmp/lab.conf" "$bin" run 2 --solution --no-timing
printf '[device]\ndefault = no-such-device\n' > "$tmp/dev.conf"
expect "the configured default device is used" 64 'no-such-device' -- env CLTUTOR_CONFIG="$tmp/dev.conf" "$bin" run 2 --solution
printf '[timing]\nqueue_dir = %s/queue\nbudget_s = 0.2\n' "$tmp" > "$tmp/q.conf"
env CLTUTOR_CONFIG="$tmp/q.conf" "$bin" run 2 --solution --size 200x8 >/dev/null 2>&1
lockfile=$(ls "$tmp"/queue/*.lock 2>/dev/null | head -n 1)
if [ -n "$lockfile" ] && command -v flock >/dev/null 2>&1; then
  # another user's timing holds the device for 4 s: this run waits its turn, says so, and then times
  flock "$lockfile" sleep 4 &
  holder=$!
  sleep 0.5
  start=$(date +%s)
  out=$(env CLTUTOR_CONFIG="$tmp/q.conf" "$bin" run 2 --solution --size 200x8 2>&1)
  took=$(( $(date +%s) - start ))
  wait $holder
  if printf '%s\n' "$out" | grep -q 'waiting for the device (1 ahead)' && printf '%s\n' "$out" | grep -q 'median' && [ "$took" -ge 3 ]; then
    ok "timing waits for the device another run holds, and says so"
  else bad "timing waits for the device another run holds, and says so (took ${took}s)" "$out"; fi
  flock "$lockfile" sleep 4 &
  holder=$!
  sleep 0.5
  start=$(date +%s)
  out=$(env CLTUTOR_CONFIG="$tmp/q.conf" "$bin" run 2 --solution --size 200x8 --no-timing 2>&1)
  took=$(( $(date +%s) - start ))
  wait $holder
  if ! printf '%s\n' "$out" | grep -q 'waiting' && [ "$took" -lt 4 ]; then ok "a correctness run does not wait for the device"
  else bad "a correctness run does not wait for the device (took ${took}s)" "$out"; fi
else
  bad "the timing queue made its lock file in $tmp/queue" "$(ls -la "$tmp/queue" 2>&1)"
fi
json_check "doctor --json: the course, the workspace, OpenCL and each device" "{'course','workspace','settings','opencl','device 0','oclgrind','terminal'} <= {f['check'] for f in j} and all(f['status'] in ('ok','warn','fail') for f in j)" -- "$bin" doctor --json
expect "doctor names a bad setting and what to do" 1 'what to do: mend the line named' -- env CLTUTOR_CONFIG="$tmp/bad.conf" "$bin" doctor
mkdir -p "$tmp/ws-dir/.cltutor/progress.json"
expect "doctor: a folder in place of the progress file" 1 'progress.json is not a file' -- "$bin" --workspace "$tmp/ws-dir" doctor
expect "a folder in place of the progress file: run says progress cannot be saved" 1 'cannot save progress.*not a file' -- "$bin" --workspace "$tmp/ws-dir" run 1 --no-timing

expect "the worker mode without a request says so" 64 'got no request' -- "$bin" __worker

finish
