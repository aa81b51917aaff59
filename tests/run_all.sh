#!/bin/sh
# Runs every test script and prints one closing line: "N passed, N failed".
#   tests/run_all.sh [BUILD_DIR]          (make test runs it; default build/)
# The suites are the folders listed in tests/SUITES, in its order. Each holds
# scripts tNNNN-topic.t that print TAP (tests/lib.sh) and take BUILD_DIR as
# $1; here each runs under prove (under sh alone where prove is missing),
# and per suite this prints every script's count, its comments and its
# failures in full, and the suite's count. Counted as a failure: a suite
# listed with no script, a folder of scripts that tests/SUITES does not list,
# a script that prints no plan, and one that exits non-zero (or that prove
# fails) without a `not ok` line.
# Any script also runs alone, from any folder (sh tests/cli/t0102-chapters.t
# [BUILD_DIR]), and all of them under prove from the repository root:
#   prove -r tests/          (or: prove -r tests/cli/ :: BUILD_DIR)
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ -d "$build" ] && build=$(cd "$build" && pwd)
total_pass=0
total_fail=0
failed_suites=""

add_counts() { # $1 suite name, $2 passed, $3 failed
  total_pass=$((total_pass + $2))
  total_fail=$((total_fail + $3))
  [ "$3" -gt 0 ] && failed_suites="$failed_suites $1"
}

# run_script SCRIPT: its TAP, through prove where there is one; sets p and f
run_script() {
  if command -v prove >/dev/null 2>&1; then out=$(prove -v "$1" :: "$build" 2>&1)
  else out=$(sh "$1" "$build" 2>&1); fi
  rc=$?
  p=$(printf '%s\n' "$out" | grep -c '^ok ')
  f=$(printf '%s\n' "$out" | grep -c '^not ok ')
  echo "  $(basename "$1"): $p passed, $f failed"
  # passing tests in brief, everything else (failures and their details, comments) in full
  printf '%s\n' "$out" | grep -v -F -x -e "$1 .. " -e "$1 .." |
    grep -v -e '^ok ' -e '^ok$' -e '^All tests successful' -e '^Files=' -e '^Result: PASS' \
      -e '^1\.\.[0-9]' -e '^# [0-9]* passed, [0-9]* failed$' | tail -n 80 | sed 's/^/    /'
  # (prove shows a plan of 0, "1..0 # SKIP why", as "SCRIPT .. skipped: why")
  if ! printf '%s\n' "$out" | grep -Eq '^1\.\.[0-9]+( |$)' && ! printf '%s\n' "$out" | grep -qF "$1 .. skipped"; then
    echo "    $(basename "$1") printed no TAP plan (status $rc)"
    f=$((f + 1))
  elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "    $(basename "$1") failed (status $rc) without a 'not ok' line"
    f=1
  fi
}

suites=$(sed 's/#.*//' "$here/SUITES")
for suite in $suites; do
  echo "== $suite"
  sp=0 sf=0
  found=""
  for t in "$here/$suite"/*.t; do
    [ -f "$t" ] || continue
    found=yes
    run_script "$t"
    sp=$((sp + p)) sf=$((sf + f))
  done
  if [ -z "$found" ]; then
    echo "  suite $suite (tests/SUITES) has no script: tests/$suite/*.t"
    sf=$((sf + 1))
  fi
  echo "  ok: $sp"
  add_counts "$suite" "$sp" "$sf"
done

# scripts in a folder that tests/SUITES does not list would never run here
for d in "$here"/*/; do
  name=$(basename "$d")
  ls "$d"*.t > /dev/null 2>&1 || continue
  printf '%s\n' $suites | grep -qx "$name" && continue
  echo "== $name"
  echo "  tests/$name holds scripts but is not listed in tests/SUITES"
  add_counts "$name" 0 1
done

[ -n "$failed_suites" ] && echo "failing suites:$failed_suites"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
