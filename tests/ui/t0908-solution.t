#!/bin/sh
# A lesson's sections, and the solution that opens after 3 versions of the kernel that fail
# (runs of the untouched starting file do not count).
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
# runs of the untouched starting file are no attempts
for i in 1 2 3; do
  keys r
  wait_for "   run $i   " 30
done
keys 7
check "solution: still locked after 3 runs of the untouched starting file" "opens once you pass"
# three versions that fail: each save reruns it (watch)
ex3="$ws/exercises/03-coalesced/histogram.cl"
for i in 4 5 6; do
  printf '\n/* attempt %s */\n' "$i" >> "$ex3"
  wait_for "   run $i   " 30
done
keys 7
check "solution: open after 3 versions that fail" "+++ the reference"

finish
