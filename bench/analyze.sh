#!/bin/sh
# How long `cltutor analyze` takes on this machine: each chapter's reference at
# its analysis size, alone and with the comparison. A benchmark, not a test.
#   bench/analyze.sh [BUILD_DIR] [CHAPTER...]     (default: build, every chapter)
build=${1:-build}
[ $# -gt 0 ] && shift
bin="$build/cltutor"
chapters=${*:-$("$bin" list --json | python3 -c 'import json,sys; print(" ".join(str(c["number"]) for c in json.load(sys.stdin)))')}
now() { date +%s.%N; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), Oclgrind $(dpkg-query -W -f='${Version}' oclgrind 2>/dev/null)"
printf '%-8s %-22s %12s %10s %14s\n' chapter size simulated_s alone_s with_compare_s
for n in $chapters; do
  t0=$(now)
  "$bin" analyze "$n" --solution --no-compare --json > /tmp/cltutor-bench-$$.json 2>/dev/null
  rc=$?
  t1=$(now)
  "$bin" analyze "$n" --solution > /dev/null 2>&1
  t2=$(now)
  python3 - "$n" "$rc" "$t0" "$t1" "$t2" /tmp/cltutor-bench-$$.json <<'PY'
import json, sys
n, rc, t0, t1, t2, f = sys.argv[1:]
try:
    j = json.load(open(f))
    size, sim = j.get("size", "?"), sum(k["simulated_s"] for k in j.get("kernels", []))
except Exception:
    size, sim = "(failed, exit %s)" % rc, 0
print("%-8s %-22s %12.2f %10.2f %14.2f" % (n, size, sim, float(t1) - float(t0), float(t2) - float(t1)))
PY
done
rm -f /tmp/cltutor-bench-$$.json
