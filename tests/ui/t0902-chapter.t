#!/bin/sh
# A chapter: a wrong run and its tabs, then the editor fixes it: correct, timed, in the history, the solution open.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

start

# ---- chapter 1: lesson, kernel, results
keys Enter
check "chapter: lesson, kernel, results" "Lesson" "histogram.cl · watching" "__kernel void histogram" "1 Result" "Not run yet"
capture chapter
keys r
check "run: a wrong result with the diff, largest difference first" "Wrong result" "expected" "actual" "▶       166" "the first is bin 0"
check_not "run: a wrong result is not timed" "GB/s"
capture results-fail
keys 2
keys G
check "check tab: scrollable diff" "total" "4096"
keys 3
check "build tab: nothing from the compiler" "The compiler printed nothing"

# ---- the editor fixes the kernel: saved, rerun, correct
edit_action "cp '$root/kernels/01-serial/histogram.cl' \"\$f\""
keys e
check "edit: saved and rerun, correct" "✓ Correct" "median" "vs serial C"
capture results-pass
grep -q "$ex1" "$tmp/editor.log" && ok "edit: the editor got the kernel" || bad "edit: the editor got the kernel"
keys 4
check "timing tab" "Kernel time" "spread" "bandwidth" "serial C on this CPU" "this chapter's reference"
wait_any 20 "x faster" "x slower" "about as fast"
check "timing: the reference measured once" "this chapter's reference"
keys 5
check "history: every run as a bar" "✓ pass" "2 runs, oldest first" "✗ wrong" "█"   # the check's verdict comes last
capture history
keys 7
check "solution: open after passing" "The whole reference solution"

finish
