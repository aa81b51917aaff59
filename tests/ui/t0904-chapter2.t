#!/bin/sh
# Chapter 2: hints, changes, the solution locked, a run from the command line, a race, a crash, a hang, cancel.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

start

# ---- chapter 2: hints, changes, solution locked, crash, hang, cancel
keys 2
check "chapter 2 opens" "Atomic histogram (GPU1)" "histogram.cl"
keys n
check "hints: the first" "Hints" "1. Each work-item now handles one descriptor" "hint 2 of"
keys n
check "hints: the second" "hint 3 of"
keys Escape
grep -q '"hints_seen":[[:space:]]*2' "$ws/.cltutor/progress.json" && ok "hints: saved in the progress" || bad "hints: saved in the progress"
keys 6
check "changes: the learner's edits, and the key for the previous stage" "What you changed" "p: your kernel against chapter 1's reference"
keys p
check "changes after p: against the previous stage of the problem, chapter 1's reference" "previous stage of this problem: chapter 1" "--- chapter 1's reference" "+++ yours"
keys p
keys 7
check "solution: locked before passing" "opens once you pass"
# a run from another terminal shows in the open course's History, marked as such
env CLTUTOR_WORKSPACE="$ws" "$bin" run 2 --no-timing >/dev/null 2>&1
keys 5
check "history: a run from the command line appears, with where it came from" "  run   " "wrong"
# a race that never changes the result (a plain read of a bin others add to
# atomically), so the run is right on every machine and only the race check fails;
# a lost update (histogram[nearest] += 1) would make the run wrong on some machines;
# the race check can take long on a loaded machine: wait for the course to finish
busy=$(busies)
sed 's/^    atomic_inc(&histogram\[nearest\]);/    if (histogram[nearest] < 0)\n        return;\n    atomic_inc(\&histogram[nearest]);/' "$root/kernels/02-atomic/histogram.cl" > "$ex2"
grep -q 'if (histogram\[nearest\] < 0)' "$ex2" || bad "race: the racy kernel (the reference changed?)"
ran "$busy" || bad "race: the check ends"
keys 1
check "race: right on this CPU, but the race check fails and the chapter is not passed" "Data race" "not passed yet" "Not timed"
check_not "race: no time for a racy kernel" "GB/s"
check "race: the status line agrees with the Result tab" "Correct here, but the race check failed"
check_not "race: no time in the status line" "Correct ·"
keys 4
check "race: the Timing tab gives no time either" "Not timed: the race check failed"
keys 5
check_not "race: the History's best time leaves the racy run out" "   best "
# the bounds guard left out: right at the chapter's size (a multiple of the work-group), wrong at the
# visible tests' ragged sizes; one status everywhere, and no time
busy=$(busies)
sed '/if (d >= n_descriptors)/{N;d}' "$root/kernels/02-atomic/histogram.cl" > "$ex2"
grep -q 'd >= n_descriptors' "$ex2" && bad "no guard: the kernel still has its guard (the reference changed?)"
ran "$busy" || bad "no guard: the check ends"
keys 1
check "no guard: the status line says the chapter is not passed" "Correct at this size, but" "✗ 1 of 5 visible tests"
check_not "no guard: no time in the status line" "Correct ·"
keys 4
check "no guard: the Timing tab gives no time" "Not timed: a visible test gives a wrong answer"
keys 1
cp "$here/../cli/kernels/out_of_bounds.cl" "$ex2"
check "crash: the engine's message, the UI lives" "Crashed"
keys '?'
check "crash: keys still work" "this help"
keys Escape
# the hang alone runs with a short time limit: every other run has the 300 s of lib.sh, so load cannot time it out
cp "$here/../cli/kernels/endless_loop.cl" "$ex2"
start CLTUTOR_UI_TIMEOUT=3
keys 2
wait_for "histogram.cl" 10
keys r
check "hang: timed out" "Timed out" "did not finish"
capture hang
start
keys 2
wait_for "histogram.cl" 10
keys r
check "cancel: running" "c: cancel"
keys c
check "cancel: stopped" "Cancelled"
keys Escape

finish
