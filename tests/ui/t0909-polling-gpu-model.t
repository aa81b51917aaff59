#!/bin/sh
# Watching by polling (no inotify), and the GPU memory model tab: a report or what to install.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

solved_ex1

# ---- watch by polling (no inotify)
start "CLTUTOR_UI_POLL=1"
keys 1
wait_for "Lesson" 10
edit_action ":"
cp "$root/exercises/01-serial/histogram.cl" "$ex1"
check "polling watch: a save reruns it" "Wrong result"

# ---- the GPU memory model (Oclgrind): the report, or what to install
start
keys 2
wait_for "Lesson" 10
keys 8
if wait_any 90 "GPU memory model of" "could not analyse"; then ok "GPU model tab: a report or what to install"
else bad "GPU model tab: a report or what to install"; fi
capture gpu-model
finish
