#!/bin/sh
# The grader run as root says what that lets a kernel do, unless the lab says it means it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
mkdir -p "$tmp/sub/exercises/01-serial"
cp "$root/kernels/01-serial/histogram.cl" "$tmp/sub/exercises/01-serial/"
grade_as() { # grade_as WRAPPER...: grades chapter 1 under WRAPPER, its standard error in $tmp/err
  "$@" "$bin" grade 1 --dir "$tmp/sub" --seed 3 -o "$tmp/out.txt" 2> "$tmp/err"
}
if [ "$(id -u)" = 0 ]; then as_root=""
elif unshare -r true 2>/dev/null; then as_root="unshare -r"   # root in a user namespace of its own
else as_root=none; fi
if [ "$as_root" = none ]; then
  for n in 1 2; do pass=$((pass + 1)); echo "ok $pass # SKIP no user namespace here can make the grader root"; done
else
  # shellcheck disable=SC2086  # the wrapper is a word list
  grade_as env -u CLTUTOR_GRADE_AS_ROOT $as_root
  if grep -q "runs as root" "$tmp/err" && grep -q "CLTUTOR_GRADE_AS_ROOT=1" "$tmp/err" && grep -q "100 / 100" "$tmp/out.txt"; then
    ok "as root: a warning that names the risk and how to say it is meant, and the grade still made"
  else bad "as root: no warning" "$(cat "$tmp/err" "$tmp/out.txt")"; fi
  # shellcheck disable=SC2086
  grade_as env CLTUTOR_GRADE_AS_ROOT=1 $as_root
  if ! grep -q "runs as root" "$tmp/err" && grep -q "100 / 100" "$tmp/out.txt"; then ok "CLTUTOR_GRADE_AS_ROOT=1 leaves the warning out"
  else bad "acknowledged, yet warned" "$(cat "$tmp/err")"; fi
fi
finish
