# tests/lib.sh — what every test script shares: counting, expectations,
# and TAP output (`ok N - NAME`, `not ok N - NAME` with its details as
# comments, the plan `1..N` at the end), so that `prove` reads any script.
# The scripts are tests/SUITE/tNNNN-topic.t; each runs alone, from any
# folder, or under prove from the repository root:
#   sh tests/cli/t0102-chapters.t [BUILD_DIR]
#   prove -r tests/                    (or prove -r tests/cli/ :: BUILD_DIR)
# A script sets `here` (its own folder), sources this file (and then its
# suite's lib.sh, if it has one), calls ok/bad/expect, and ends with
# `finish`, which prints the plan and "# N passed, N failed" and sets the
# exit status.
pass=0
fail=0

# What every script starts from: the source tree, the build folder (the
# script's first argument, else $CLTUTOR_TEST_BUILD, else the tree's build/)
# and the binary in it, a scratch folder removed on exit, and no colours.
root=$(cd "$here/../.." && pwd)
build=${1:-${CLTUTOR_TEST_BUILD:-$root/build}}
if ! build=$(cd "$build" 2>/dev/null && pwd); then
  echo "Bail out! no build folder ${1:-${CLTUTOR_TEST_BUILD:-$root/build}}: run make, or name one (SCRIPT BUILD_DIR, or CLTUTOR_TEST_BUILD=BUILD_DIR)"
  exit 1
fi
bin="$build/cltutor"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

# Hermetic: a HOME, temporary folder and timing queue of the script's own,
# so that scripts run side by side (tests/run_all.sh) never meet, and none
# reads the user's settings. The caches of compiled kernels and of run
# results (keyed by all that decides them) are the runner's shared
# $CLTUTOR_TEST_CACHE when it gives one, else the script's own.
# fresh_home: $tmp/home as a script starts with it (again, after a script removed it)
fresh_home() {
  mkdir -p "$tmp/home/.config/cltutor" "$tmp/tmp"
  if [ -n "${CLTUTOR_TEST_CACHE:-}" ] && mkdir -p "$CLTUTOR_TEST_CACHE"; then ln -sfn "$CLTUTOR_TEST_CACHE" "$tmp/home/.cache"; fi
  printf '[timing]\nqueue_dir = %s/queue\n' "$tmp" > "$tmp/home/.config/cltutor/config"
}
fresh_home
export HOME="$tmp/home" TMPDIR="$tmp/tmp"
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME CLTUTOR_CONFIG CLTUTOR_RESULT_CACHE
export CLTUTOR_WORKSPACE="$tmp/ws"   # not the source tree's workspace/, which every script would share
export CLTUTOR_GRADE_AS_ROOT=1       # CI runs as root: the grader's warning about it has a test of its own (t0426)

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
