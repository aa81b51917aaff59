#!/bin/sh
# Settings files (a bad line, a lab's hidden solutions, the default device) and cltutor doctor.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

printf '[timing]\n\nbudget_s = lots\n' > "$tmp/bad.conf"
expect "a bad setting names the file, line and key" 0 'bad.conf:3: \[timing\] budget_s = lots: give seconds' -- \
  env CLTUTOR_CONFIG="$tmp/bad.conf" "$bin" list
printf '[course]\nsolutions = hidden\n' > "$tmp/lab.conf"
expect "a lab that hides the solutions: --solution says so" 64 'solutions are hidden' -- \
  env CLTUTOR_SYSTEM_CONFIG="$tmp/lab.conf" "$bin" run 2 --solution --no-timing
printf '[device]\ndefault = no-such-device\n' > "$tmp/dev.conf"
expect "a default device that names none: the run says which setting, and falls back to the default device" 0 \
  'default = no-such-device in .*dev.conf names no device here: the default device is used instead' -- \
  env CLTUTOR_CONFIG="$tmp/dev.conf" "$bin" run 2 --solution --size 200x8 --no-timing
expect "... and --device still blames the option the learner typed" 64 "device 'no-such-device'" -- \
  env CLTUTOR_CONFIG="$tmp/dev.conf" "$bin" run 2 --solution --size 200x8 --no-timing --device no-such-device
printf '[device]\ndefault = 0\n' > "$tmp/dev0.conf"
expect "a default device that names one is used" 0 'Correct' -- env CLTUTOR_CONFIG="$tmp/dev0.conf" "$bin" run 2 --solution --size 200x8 --no-timing
expect "doctor fails on a default device that names none, with the fix" 1 \
  'FAIL  default device .*no-such-device in .*dev.conf names no device here' -- env CLTUTOR_CONFIG="$tmp/dev.conf" "$bin" doctor
# settings fail closed: an unknown value of solutions hides them; every bad line is named
printf '[course]\nsolutions = hide\n[timing]\nbudget_s = lots\nqueue = maybe\n' > "$tmp/closed.conf"
expect "solutions = hide hides the solutions, and says so" 64 'solutions are hidden' -- \
  env CLTUTOR_SYSTEM_CONFIG="$tmp/closed.conf" "$bin" run 2 --solution --no-timing
out=$(env CLTUTOR_SYSTEM_CONFIG="$tmp/closed.conf" "$bin" doctor 2>/dev/null)
if printf '%s\n' "$out" | grep -q 'closed.conf:2: .*hidden until' && printf '%s\n' "$out" | grep -q 'closed.conf:4: .*budget_s' &&
   printf '%s\n' "$out" | grep -q 'closed.conf:5: .*queue'; then ok "doctor names every bad line of a settings file"
else bad "doctor names every bad line" "$out"; fi
# a lab's locked file: CLTUTOR_SYSTEM_CONFIG cannot stand in for it (the lock itself is tested in the unit tests,
# which can name the lab's file); unlocked, it can
printf '[course]\nsolutions = shown\n' > "$tmp/mine.conf"
expect "without a locked /etc/cltutor.conf, CLTUTOR_SYSTEM_CONFIG is the lab's file" 0 'Correct' -- \
  env CLTUTOR_SYSTEM_CONFIG="$tmp/mine.conf" "$bin" run 1 --solution --size 100x8 --no-timing
# a workspace and a queue folder that cannot be created (a file where a folder should be: true for root too)
: > "$tmp/a-file"
printf '[timing]\nqueue_dir = %s/a-file/queue\n' "$tmp" > "$tmp/queue.conf"
out=$(env CLTUTOR_CONFIG="$tmp/queue.conf" "$bin" --workspace "$tmp/a-file/ws" doctor 2>/dev/null); rc=$?
if [ $rc = 1 ] && printf '%s\n' "$out" | grep -q "FAIL  workspace .*a-file/ws .*does not exist, and .*a-file does not let cltutor create it" &&
   printf '%s\n' "$out" | grep -q "FAIL  queue .*a-file/queue does not exist"; then
  ok "doctor fails on a workspace and a queue folder that cannot be created"
else bad "doctor: uncreatable workspace and queue (exit $rc)" "$out"; fi

json_check "doctor --json: the course, the workspace, OpenCL and each device" "{'course','workspace','settings','opencl','device 0','oclgrind','terminal'} <= {f['check'] for f in j} and all(f['status'] in ('ok','warn','fail') for f in j)" -- "$bin" doctor --json
expect "doctor names a bad setting and what to do" 1 'what to do: mend each line named' -- env CLTUTOR_CONFIG="$tmp/bad.conf" "$bin" doctor
mkdir -p "$tmp/ws-dir/.cltutor/progress.json"
expect "doctor: a folder in place of the progress file" 1 'progress.json is not a file' -- "$bin" --workspace "$tmp/ws-dir" doctor
expect "a folder in place of the progress file: run says progress cannot be saved" 1 'cannot save progress.*not a file' -- "$bin" --workspace "$tmp/ws-dir" run 1 --no-timing

finish
