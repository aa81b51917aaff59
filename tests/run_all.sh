#!/bin/sh
# Runs every test suite and prints one closing line: "N passed, N failed".
#   tests/run_all.sh BUILD_DIR
# Suites: the unit tests (Check, built with ASan/UBSan/LSan) and every
# tests/*/run.sh, which gets BUILD_DIR as $1 and prints TAP (tests/lib.sh);
# each also runs alone, or under prove: prove --exec sh tests/*/run.sh
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
total_pass=0
total_fail=0
failed_suites=""

add_counts() { # $1 suite name, $2 passed, $3 failed
  total_pass=$((total_pass + $2))
  total_fail=$((total_fail + $3))
  [ "$3" -gt 0 ] && failed_suites="$failed_suites $1"
}

echo "== unit tests (ASan/UBSan)"
out=$(ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_abort=0 LSAN_OPTIONS=suppressions=$here/unit/lsan.supp CK_DEFAULT_TIMEOUT=300 "$build/unit-tests" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^Running suite' | tail -n 25
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
if [ -n "$line" ]; then
  checks=$(printf '%s' "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
  fails=$(printf '%s' "$line" | sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1+\2/')
  fails=$(( $fails ))
  add_counts unit $((checks - fails)) "$fails"
else
  add_counts unit 0 1
fi
[ $rc -ne 0 ] && [ -z "$line" ] && echo "unit tests exited with status $rc"

for suite in "$here"/*/run.sh; do
  name=$(basename "$(dirname "$suite")")
  [ "$name" = unit ] && continue
  echo "== $name"
  # prove checks the TAP itself (numbering, plan); sh alone where it is missing
  if command -v prove >/dev/null 2>&1; then out=$(prove -v --exec sh "$suite" :: "$build" 2>&1)
  else out=$(sh "$suite" "$build" 2>&1); fi
  rc=$?
  # TAP (tests/lib.sh): passing tests in brief, everything else (failures and their details) in full
  p=$(printf '%s\n' "$out" | grep -c '^ok ')
  f=$(printf '%s\n' "$out" | grep -c '^not ok ')
  echo "  ok: $p"
  printf '%s\n' "$out" | grep -v -e '^ok ' -e '^All tests successful' -e '^Files=' -e '^Result: PASS' | tail -n 80
  if ! printf '%s\n' "$out" | grep -Eq '^1\.\.[0-9]+$'; then
    echo "suite $name printed no TAP plan (status $rc)"
    f=$((f + 1))
  fi
  [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
  add_counts "$name" "$p" "$f"
done

[ -n "$failed_suites" ] && echo "failing suites:$failed_suites"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
