# tests/lib.sh — what every shell test suite shares: counting, expectations,
# and TAP output (`ok N - NAME`, `not ok N - NAME` with its details as
# comments, the plan `1..N` at the end), so that `prove` reads any suite:
#   prove -v --exec sh tests/cli/run.sh
# Source it, then call ok/bad/expect, and finish with `finish`, which prints
# the plan and "# N passed, N failed" and sets the exit status.
pass=0
fail=0

# What every suite starts from: the build folder (its first argument,
# default build) and the binary in it, the source tree, a scratch folder
# removed on exit, and no colours. The suite sets `here` (its own folder)
# before sourcing this file.
build=$(cd "${1:-build}" && pwd)
bin="$build/cltutor"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }

# bad NAME [DETAILS]: a failure, with up to 20 lines of details below as TAP comments
bad() {
  fail=$((fail + 1))
  echo "not ok $((pass + fail)) - $1"
  if [ -n "$2" ]; then printf '%s\n' "$2" | head -n 20 | sed 's/^/#     /'; fi
}

# expect NAME STATUS PATTERN -- COMMAND...: the exit status, and a line of
# output (stdout and stderr) matching PATTERN (grep -E; empty: any output)
expect() {
  name=$1 want=$2 pattern=$3
  shift 4
  out=$("$@" 2>&1)
  got=$?
  if [ "$got" -ne "$want" ]; then bad "$name (exit $got, wanted $want)" "$out"; return; fi
  if [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    bad "$name (no line matching: $pattern)" "$out"; return
  fi
  ok "$name"
}

finish() {
  echo "1..$((pass + fail))"
  echo "# $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
