#!/bin/sh
# The worker program: found, replaceable with CLTUTOR_WORKER, and gone, with its scratch folder, when the run is.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace and TMPDIR, nomodel, check, put

expect "a worker named by CLTUTOR_WORKER that is not a program: a clear error" 3 \
  'could not start a worker process \(CLTUTOR_WORKER=/nonexistent/cltutor is not a program' -- \
  env CLTUTOR_WORKER=/nonexistent/cltutor "$bin" run 2 --solution --size 100x4 --no-timing
mkdir -p "$tmp/elsewhere"
cp "$bin" "$tmp/elsewhere/tutor"
expect "a copy of cltutor under another name, with no cltutor beside it, says what to do" 3 \
  "no cltutor program in $tmp/elsewhere.*CLTUTOR_WORKER" -- \
  env -u CLTUTOR_WORKER CLTUTOR_DATA="$root" "$tmp/elsewhere/tutor" run 2 --solution --size 100x4 --no-timing
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
