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
expect "the configured default device is used" 64 'no-such-device' -- env CLTUTOR_CONFIG="$tmp/dev.conf" "$bin" run 2 --solution

json_check "doctor --json: the course, the workspace, OpenCL and each device" "{'course','workspace','settings','opencl','device 0','oclgrind','terminal'} <= {f['check'] for f in j} and all(f['status'] in ('ok','warn','fail') for f in j)" -- "$bin" doctor --json
expect "doctor names a bad setting and what to do" 1 'what to do: mend the line named' -- env CLTUTOR_CONFIG="$tmp/bad.conf" "$bin" doctor
mkdir -p "$tmp/ws-dir/.cltutor/progress.json"
expect "doctor: a folder in place of the progress file" 1 'progress.json is not a file' -- "$bin" --workspace "$tmp/ws-dir" doctor
expect "a folder in place of the progress file: run says progress cannot be saved" 1 'cannot save progress.*not a file' -- "$bin" --workspace "$tmp/ws-dir" run 1 --no-timing

finish
