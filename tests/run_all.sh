#!/bin/sh
# Runs the test scripts side by side and prints one closing line: "N passed, N failed".
#   tests/run_all.sh [--list FILE] [-j N] [BUILD_DIR]   (make test; make check gives --list tests/CHECK)
# The suites are the folders listed in tests/SUITES. Each holds scripts
# tNNNN-topic.t that print TAP (tests/lib.sh) and take BUILD_DIR as $1.
# --list FILE runs only the scripts it names (one path from tests/ a line).
# Scripts run N at a time (-j, $CLTUTOR_TEST_JOBS, else one more than the
# CPUs), the slowest first by the times of the last run ($BUILD/test-times,
# else tests/test-times); each is hermetic (tests/lib.sh: its own HOME,
# TMPDIR, queue folder), and all share one cache of compiled kernels and run
# results, $BUILD/test-cache (whose entries are keyed by all they depend on).
# A line says each script's end as it comes (its wall time and its CPU); then, per suite in SUITES'
# order, every script's count, its comments and its failures in full, and
# the suite's count; then the slowest scripts and those that took the most CPU. Counted as a failure: a suite
# listed with no script, a folder of scripts that tests/SUITES does not list,
# a script that prints no plan, and one that exits non-zero without a
# `not ok` line.
# Any script also runs alone, from any folder (sh tests/cli/t0102-chapters.t
# [BUILD_DIR]), and all of them under prove: prove -r tests/ :: BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
list="" jobs=${CLTUTOR_TEST_JOBS:-}
while [ $# -gt 0 ]; do
  case $1 in
    --list) list=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,3p' "$0" | sed 's/^# *//'; exit 0 ;;
    *) break ;;
  esac
done
build=${1:-$here/../build}
[ -d "$build" ] && build=$(cd "$build" && pwd)
if [ -z "$jobs" ]; then
  cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  jobs=$((cpus + 1))
fi
case $jobs in ''|*[!0-9]*|0) echo "run_all.sh: -j '$jobs': give a number of scripts at a time" >&2; exit 64 ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
export CLTUTOR_TEST_CACHE="$build/test-cache"
mkdir -p "$CLTUTOR_TEST_CACHE"

# ---- what to run, slowest first
suites=$(sed 's/#.*//' "$here/SUITES")
: > "$out/scripts"
for suite in $suites; do
  for t in "$here/$suite"/*.t; do
    [ -f "$t" ] || continue
    rel="$suite/$(basename "$t")"
    if [ -n "$list" ] && ! sed 's/#.*//' "$list" | grep -qx "[[:space:]]*$rel[[:space:]]*"; then continue; fi
    echo "$rel" >> "$out/scripts"
  done
done
times="$build/test-times"
[ -f "$times" ] || times="$here/test-times"
awk 'NR == FNR { t[$1] = $2; next } { print (($1 in t) ? t[$1] : 60), $1 }' "$times" "$out/scripts" 2>/dev/null |
  sort -k1,1nr | awk '{ print $2 }' > "$out/order"
[ -s "$out/order" ] || cp "$out/scripts" "$out/order"
total=$(wc -l < "$out/order" | tr -d ' ')
echo "running $total scripts, $jobs at a time"

# ---- running them: each script's TAP in $out/NAME.out, its status and seconds in $out/NAME.end
cat > "$out/one.sh" <<'EOF'
# one.sh SCRIPT(rel) TESTS_DIR BUILD OUT TOTAL: runs one script, notes its end
rel=$1 dir=$2 build=$3 out=$4 total=$5
name=$(echo "$rel" | tr / _)
start=$(date +%s.%N)
if command -v prove >/dev/null 2>&1; then prove -v "$dir/$rel" :: "$build" > "$out/$name.out" 2>&1
else sh "$dir/$rel" "$build" > "$out/$name.out" 2>&1; fi
rc=$?
secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
# the CPU of the script's own processes, user and system ("times": this shell's children;
# what a UI script starts in its tmux server is not among them)
times > "$out/$name.cpu"
cpu=$(awk 'NR == 2 { n = split($1 " " $2, f, " "); s = 0
  for (i = 1; i <= n; i++) { split(f[i], ms, "m"); sub("s", "", ms[2]); s += ms[1] * 60 + ms[2] }
  printf "%.1f", s }' "$out/$name.cpu")
echo "$rc $secs ${cpu:-0}" > "$out/$name.end"
done=$(ls "$out"/*.end | wc -l | tr -d ' ')
p=$(grep -c '^ok ' "$out/$name.out")
f=$(grep -c '^not ok ' "$out/$name.out")
echo "[$done/$total] $rel: $p passed, $f failed, ${secs}s (CPU ${cpu:-0}s)"
EOF
xargs -P "$jobs" -I{} sh "$out/one.sh" {} "$here" "$build" "$out" "$total" < "$out/order"

# ---- the report, suite by suite
total_pass=0 total_fail=0 failed_suites=""
for suite in $suites; do
  sp=0 sf=0 found=""
  grep -q "^$suite/" "$out/scripts" || { [ -n "$list" ] && continue; }
  echo "== $suite"
  for rel in $(grep "^$suite/" "$out/scripts"); do
    found=yes
    name=$(echo "$rel" | tr / _) t="$here/$rel"
    read -r rc secs cpu < "$out/$name.end" 2>/dev/null || { rc=125; secs=0; cpu=0; }
    p=$(grep -c '^ok ' "$out/$name.out")
    f=$(grep -c '^not ok ' "$out/$name.out")
    echo "  $(basename "$rel"): $p passed, $f failed (${secs}s)"
    # passing tests in brief, everything else (failures and their details, comments) in full
    grep -v -F -x -e "$t .. " -e "$t .." "$out/$name.out" |
      grep -v -e '^ok ' -e '^ok$' -e '^All tests successful' -e '^Files=' -e '^Result: PASS' \
        -e '^1\.\.[0-9]' -e '^# [0-9]* passed, [0-9]* failed$' | tail -n 80 | sed 's/^/    /'
    # (prove shows a plan of 0, "1..0 # SKIP why", as "SCRIPT .. skipped: why")
    if ! grep -Eq '^1\.\.[0-9]+( |$)' "$out/$name.out" && ! grep -qF "$t .. skipped" "$out/$name.out"; then
      echo "    $(basename "$rel") printed no TAP plan (status $rc)"
      f=$((f + 1))
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
      echo "    $(basename "$rel") failed (status $rc) without a 'not ok' line"
      f=1
    fi
    sp=$((sp + p)) sf=$((sf + f))
    echo "$rel $secs" >> "$out/times"
    echo "$rel ${cpu:-0}" >> "$out/cpu"
  done
  if [ -z "$found" ]; then
    echo "  suite $suite (tests/SUITES) has no script: tests/$suite/*.t"
    sf=$((sf + 1))
  fi
  echo "  ok: $sp"
  total_pass=$((total_pass + sp)) total_fail=$((total_fail + sf))
  [ "$sf" -gt 0 ] && failed_suites="$failed_suites $suite"
done

# scripts in a folder that tests/SUITES does not list would never run here
for d in "$here"/*/; do
  name=$(basename "$d")
  ls "$d"*.t > /dev/null 2>&1 || continue
  printf '%s\n' $suites | grep -qx "$name" && continue
  echo "== $name"
  echo "  tests/$name holds scripts but is not listed in tests/SUITES"
  total_fail=$((total_fail + 1)) failed_suites="$failed_suites $name"
done

if [ -s "$out/times" ]; then
  echo "slowest: $(sort -k2,2nr "$out/times" | head -n 6 | awk '{ printf "%s%s %ss", sep, $1, $2; sep = ", " }')"
  echo "most CPU: $(sort -k2,2nr "$out/cpu" | head -n 6 | awk '{ printf "%s%s %ss", sep, $1, $2; sep = ", " }');" \
    "$(awk '{ s += $2 } END { printf "%.0f", s }' "$out/cpu")s in all"
  # the next run starts with the slowest: this run's times, over the last run's for scripts not run now
  { cat "$out/times"; [ -f "$build/test-times" ] && cat "$build/test-times"; } | awk '!seen[$1]++' > "$out/merged"
  cp "$out/merged" "$build/test-times" 2>/dev/null
fi
[ -n "$failed_suites" ] && echo "failing suites:$failed_suites"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
