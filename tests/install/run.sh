#!/bin/sh
# Installs: under any PREFIX and DESTDIR without a rebuild, run from another
# folder; a student install (NO_SOLUTIONS=1) with no reference solution on
# disk. Usage: tests/install/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
unset CLTUTOR_WORKSPACE CLTUTOR_DATA XDG_DATA_HOME
export HOME="$tmp/home"
mkdir -p "$HOME"

install_to() { # install_to NAME MAKE-ARGS...: make install into a fresh folder
  name=$1
  shift
  if make -s -C "$root" install BUILD="$build" "$@" > "$tmp/$name.log" 2>&1; then ok "make install $*"
  else bad "make install $*" "$(cat "$tmp/$name.log")"; fi
}

# ---- a prefix the binary was not built for, and a staged (DESTDIR) install
install_to prefix PREFIX="$tmp/p"
cd "$tmp" || exit 1
expect "PREFIX install: run from another folder, the course is found" 0 'Atomic histogram' -- "$tmp/p/bin/cltutor" list
expect "PREFIX install runs a kernel in a worker of its own" 0 '^Correct' -- \
  "$tmp/p/bin/cltutor" run 2 --solution --size 200x8 --no-timing
[ -f "$HOME/.local/share/cltutor/exercises/02-atomic/histogram.cl" ] || "$tmp/p/bin/cltutor" run 2 >/dev/null 2>&1
if [ -f "$HOME/.local/share/cltutor/exercises/02-atomic/histogram.cl" ] && [ -f "$HOME/.local/share/cltutor/.cltutor/progress.json" ]; then
  ok "an installed course keeps the learner's work in ~/.local/share/cltutor"
else bad "an installed course keeps the learner's work in ~/.local/share/cltutor" "$(ls -laR "$HOME" 2>&1 | head -20)"; fi
if [ -f "$tmp/p/share/man/man1/cltutor.1" ] && [ -f "$tmp/p/share/doc/cltutor/user-guide.md" ] && [ -f "$tmp/p/share/doc/cltutor/LICENSE" ]; then
  ok "the man page and the docs are installed"; else bad "the man page and the docs are installed" "$(find "$tmp/p" -maxdepth 4)"; fi
if [ -f "$build/cltutor-gpumodel.so" ]; then
  expect "PREFIX install finds its Oclgrind plugin in ../lib/cltutor" 0 'coalesc' -- "$tmp/p/bin/cltutor" analyze 3 --solution --size 64x16x4
fi

install_to staged DESTDIR="$tmp/stage" PREFIX=/usr
expect "DESTDIR install, moved into place, finds its course" 0 'Atomic histogram' -- "$tmp/stage/usr/bin/cltutor" list
if [ -d /usr/local/share/cltutor/lessons ]; then
  ok "an absent course names where it looked (skipped: a course is installed in /usr/local, the built-in prefix)"
else
  expect "an absent course names where it looked and what to do" 64 'cannot find the course.*CLTUTOR_DATA' -- \
    sh -c "cp '$tmp/stage/usr/bin/cltutor' '$tmp/lonely' && '$tmp/lonely' list"
fi

# ---- a student install: no reference solution anywhere on disk
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
expect "grade says it needs an instructor's install" 64 'withheld' -- "$sbin" grade 2

finish
