#!/bin/sh
# The model's unit tests (Check, built with ASan/UBSan/LSan): one TAP line per Check test, written by Check itself.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

if [ ! -x "$build/unit-tests" ]; then
  bad "the unit tests are built ($build/unit-tests: make $build/unit-tests)"
  finish
  exit 1
fi
# Check (0.11 and later) writes TAP where CK_TAP_LOG_FILE_NAME says, "-" for
# standard output: "ok N - FILE:SUITE:TEST: MESSAGE" for each test, the plan
# last; its own summary lines ("Running suite(s)", "100%: Checks: ...") are
# not TAP, and prove passes over them. A leak or an error outside the tests
# makes the program exit non-zero, which prove counts as a failure.
unset NO_COLOR
ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_abort=0 \
LSAN_OPTIONS=suppressions=$here/lsan.supp CK_DEFAULT_TIMEOUT=300 CK_TAP_LOG_FILE_NAME=- \
  "$build/unit-tests"
