#!/bin/sh
# The device queue: a timed run waits for the device another run holds; a correctness run does not.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

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

finish
