#!/bin/sh
# The course's loop, timed as a learner meets it: a new text of a chapter's
# kernel (its reference with a comment of its own, so nothing is cached for
# it) checked with `cltutor check N --kernel FILE`, which the course's
# checklist (key C, and after each passing run) runs the same way. Prints,
# per chapter, the seconds to the first test's verdict and to the whole
# checklist (tests, race check, technique), the median of ROUNDS new texts,
# after one round that fills the caches the chapter's reference needs.
#   bench/checklist-latency.sh [BUILD_DIR [ROUNDS [CHAPTER...]]]   (defaults: build 3 2 5 8)
build=$(cd "${1:-build}" && pwd)
rounds=${2:-3}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- 2 5 8
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $build/cltutor"
echo "chapter first_verdict_s checklist_s (median of $rounds new texts)"
for n in "$@"; do
  id=$(ls "$root/lessons" | grep "^0*$n-" | head -n 1)
  file=$(sed -n 's/^exercise *= *//p' "$root/lessons/$id/lesson.ini" | head -n 1)
  for r in $(seq 0 "$rounds"); do
    { cat "$root/kernels/$id/$file"; echo "/* $$ $n $r $(date +%s%N) */"; } > "$tmp/k$r.cl"
    python3 - "$build/cltutor" "$n" "$tmp/k$r.cl" >> "$tmp/times.$n.$r" <<'PY'
import re, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen([sys.argv[1], "check", sys.argv[2], "--kernel", sys.argv[3]], stdout=subprocess.PIPE, text=True)
first = None
for line in p.stdout:
    if first is None and re.match(r"\s+(ok|FAIL)\s", line):
        first = time.monotonic() - t0
p.wait()
print("%.2f %.2f %d" % (first or -1, time.monotonic() - t0, p.returncode))
PY
  done
  # round 0 filled the caches; the median of the others
  for r in $(seq 1 "$rounds"); do cat "$tmp/times.$n.$r"; done | python3 -c "
import statistics, sys
rows = [l.split() for l in sys.stdin if l.strip()]
first = statistics.median(float(r[0]) for r in rows)
whole = statistics.median(float(r[1]) for r in rows)
bad = any(r[2] != '0' for r in rows)
print('$n %.2f %.2f%s' % (first, whole, ' (a check failed)' if bad else ''))"
done
