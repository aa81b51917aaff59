#!/bin/sh
# A student install (NO_SOLUTIONS=1): no reference solution on disk, and the commands that need one say so.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a home in $tmp, install_to
cd "$tmp" || exit 1

install_to student DESTDIR="$tmp/student" PREFIX=/usr NO_SOLUTIONS=1
sbin="$tmp/student/usr/bin/cltutor"
found=""
for ref in "$root"/kernels/*/*; do
  sum=$(sha256sum < "$ref" | cut -c1-64)
  hit=$(find "$tmp/student" -type f -exec sha256sum {} + | grep "^$sum" | head -n 1)
  [ -n "$hit" ] && found="$found $ref -> $hit"
done
if [ ! -e "$tmp/student/usr/share/cltutor/kernels" ] && [ -z "$found" ]; then
  ok "a student install holds no reference solution"; else bad "a student install holds no reference solution" "$found"; fi
expect "a student install still runs the learner's kernel" 1 'Wrong result' -- "$sbin" run 1
if [ -f "$build/cltutor-gpumodel.so" ]; then
  # the technique checks that compare with the previous chapter's reference use the course's figures
  mkdir -p "$HOME/.local/share/cltutor/exercises/04-float4"
  cp "$root/kernels/04-float4/histogram.cl" "$HOME/.local/share/cltutor/exercises/04-float4/histogram.cl"
  # (exit 1: the chapter's find-the-bug listing is still the shipped, buggy one)
  expect "a student install can pass a chapter that compares with the previous reference" 1 'Chapter passed: every test' -- \
    "$sbin" check 4
  rm -f "$tmp/student/usr/share/cltutor/lessons/04-float4/previous-reference.ini"
  expect "... and without the figures, says what it could not compare" 1 'could not be analysed at the same size' -- \
    "$sbin" check 4
fi
expect "--solution says the instructor withheld the solutions" 64 'withheld' -- "$sbin" run 2 --solution
expect "check --solution says so too" 64 'withheld' -- "$sbin" check 2 --solution
expect "grade says it needs an instructor's install, and exits 69: the grader cannot run (not the student's fault)" 69 'withheld' -- "$sbin" grade 2

finish
