#!/bin/sh
# A lesson's sections, and the solution that opens after 3 failed runs.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

# ---- the solution opens after 3 failed runs
start
keys 3
wait_for "Lesson" 10
T send-keys -t ui -l '}'
sleep 0.3
if screen | sed -n 3p | grep -q "^ [A-Z]" && ! screen | sed -n 2p | grep -q " top "; then ok "lesson: } jumps to the next section"
else bad "lesson: } jumps to the next section"; fi
keys 7
check "solution: locked at first" "opens once you pass"
for i in 1 2 3; do
  keys r
  wait_for "   run $i   " 30
done
keys 7
check "solution: open after 3 failed runs" "+++ the reference"

finish
