#!/bin/sh
# An install under a PREFIX the binary was not built for, run from another folder.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a home in $tmp, install_to

install_to prefix PREFIX="$tmp/p"
cd "$tmp" || exit 1
expect "PREFIX install: run from another folder, the course is found" 0 'Atomic histogram' -- "$tmp/p/bin/cltutor" list
expect "PREFIX install runs a kernel in a worker of its own" 0 '^Correct' -- \
  "$tmp/p/bin/cltutor" run 2 --solution --size 200x8 --no-timing
[ -f "$HOME/.local/share/cltutor/exercises/02-atomic/histogram.cl" ] || "$tmp/p/bin/cltutor" run 2 >/dev/null 2>&1
if [ -f "$HOME/.local/share/cltutor/exercises/02-atomic/histogram.cl" ] && [ -f "$HOME/.local/share/cltutor/.cltutor/progress.json" ]; then
  ok "an installed course keeps the learner's work in ~/.local/share/cltutor"
  mode=$(stat -c %a "$HOME/.local/share/cltutor")
  [ "$mode" = 700 ] && ok "the new workspace is the learner's alone (mode 700), classmates cannot read it" ||
    bad "the new workspace's mode is $mode (classmates can read it where homes are 755)"
else bad "an installed course keeps the learner's work in ~/.local/share/cltutor" "$(ls -laR "$HOME" 2>&1 | head -20)"; fi
if [ -f "$tmp/p/share/man/man1/cltutor.1" ] && [ -f "$tmp/p/share/doc/cltutor/user-guide.md" ] && [ -f "$tmp/p/share/doc/cltutor/LICENSE" ]; then
  ok "the man page and the docs are installed"; else bad "the man page and the docs are installed" "$(find "$tmp/p" -maxdepth 4)"; fi
d="$tmp/p/share/doc/cltutor"
if [ -x "$d/gradescope/run_autograder" ] && [ -f "$d/github-classroom/.github/workflows/classroom.yml" ] &&
   [ -f "$d/shards/grade-array.slurm" ] && [ -x "$d/prairielearn/run" ] && [ -f "$d/cltutor.conf" ]; then
  ok "the platforms' templates the instructor guide names are installed beside it, with an example cltutor.conf"
else bad "the templates are installed" "$(find "$d" -maxdepth 3 | head -40)"; fi
out=$(CLTUTOR_SYSTEM_CONFIG="$d/cltutor.conf" "$tmp/p/bin/cltutor" doctor 2>&1)
if printf '%s\n' "$out" | grep -q "^  ok    settings .*cltutor.conf" && ! printf '%s\n' "$out" | grep -q "FAIL  settings"; then
  ok "the installed example cltutor.conf is a good settings file"
else bad "the example cltutor.conf" "$out"; fi
if [ -f "$build/cltutor-gpumodel.so" ]; then
  expect "PREFIX install finds its Oclgrind plugin in ../lib/cltutor" 0 'coalesc' -- "$tmp/p/bin/cltutor" analyze 3 --solution --size 64x16x4
fi

finish
