#!/bin/sh
# A build error marked in the kernel and its log, the editor at its line; an outside save reruns it; watch on and off.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

solved_ex1
start
keys Enter
wait_for "histogram.cl · watching" 10

# ---- a build error: marker, log, editor at the line
edit_action "sed -i 's/float best = FLT_MAX;/float best = FLT_MAX/' \"\$f\""
keys e
check "build error: message and line" "Build failed" "error" "edit at line"
check "build error: the line is marked" "▶1"
capture build-error
keys 3
check "build tab: the compiler's message" "histogram.cl:"
: > "$tmp/editor.log"
edit_action ":"
keys Enter
sleep 0.5
grep -q "^+1[0-9] " "$tmp/editor.log" && ok "build tab: Enter edits at the error's line" || { bad "build tab: Enter edits at the error's line"; cat "$tmp/editor.log"; }

# ---- watch: a save from elsewhere reruns it
cp "$root/kernels/01-serial/histogram.cl" "$ex1"
check "watch: an outside save reruns it" "✓ Correct"
check "verdict: a correct run checks the whole chapter, and only that passes it" "✓ passed" "Chapter passed" "visible tests"
keys w
check "watch: off" "Watch off"
keys w
check "watch: on again" "Watch on"
keys q
check "back home: passed" "✓ passed" "1 of "

finish
