#!/bin/sh
# How long `cltutor analyze` takes on this machine: each chapter's reference at
# its analysis size, alone, with the comparison, and drawing its busiest
# instruction's warp picture (--draw). A benchmark, not a test.
#   bench/analyze.sh [BUILD_DIR] [CHAPTER...]     (default: build, every chapter)
# BENCH_REPEAT=N keeps the fastest of N runs of each (default 1): the
# machine's other work makes single runs noisy.
build=${1:-build}
[ $# -gt 0 ] && shift
bin="$build/cltutor"
repeat=${BENCH_REPEAT:-1}
chapters=${*:-$("$bin" list --json | python3 -c 'import json,sys; print(" ".join(str(c["number"]) for c in json.load(sys.stdin)))')}
now() { date +%s.%N; }
# fastest SECONDS-VARIABLE COMMAND...: the fastest of $repeat runs, output discarded
fastest() {
  best=
  i=0
  while [ $i -lt "$repeat" ]; do
    t0=$(now)
    "$@" > /dev/null 2>&1
    t1=$(now)
    best=$(python3 -c "import sys; a, b, c = sys.argv[1:]; d = float(b) - float(a); print(d if not c else min(d, float(c)))" "$t0" "$t1" "$best")
    i=$((i + 1))
  done
  echo "$best"
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), Oclgrind $(dpkg-query -W -f='${Version}' oclgrind 2>/dev/null), fastest of $repeat"
draws=$("$bin" analyze --help 2>/dev/null | grep -c -- '--draw')
printf '%-8s %-22s %12s %10s %14s %8s\n' chapter size simulated_s alone_s with_compare_s draw_s
for n in $chapters; do
  "$bin" analyze "$n" --solution --no-compare --json > /tmp/cltutor-bench-$$.json 2>/dev/null
  rc=$?
  alone=$(fastest "$bin" analyze "$n" --solution --no-compare)
  both=$(fastest "$bin" analyze "$n" --solution)
  if [ "$draws" -gt 0 ]; then drawn=$(fastest "$bin" analyze "$n" --solution --no-compare --draw); else drawn=-; fi
  python3 - "$n" "$rc" "$alone" "$both" "$drawn" /tmp/cltutor-bench-$$.json <<'PY'
import json, sys
n, rc, alone, both, drawn, f = sys.argv[1:]
try:
    j = json.load(open(f))
    size, sim = j.get("size", "?"), sum(k["simulated_s"] for k in j.get("kernels", []))
except Exception:
    size, sim = "(failed, exit %s)" % rc, 0
d = "%8.2f" % float(drawn) if drawn != "-" else "%8s" % "-"
print("%-8s %-22s %12.2f %10.2f %14.2f %s" % (n, size, sim, float(alone), float(both), d))
PY
done
rm -f /tmp/cltutor-bench-$$.json
