#!/bin/sh
# run-gpu.sh OUT [CLTUTOR]: chapter 9's look-back kernel with atomic and
# volatile status words, tiles of 16, 24 and 32 rows, timed at 8192x8192 on
# the first NVIDIA device, three rounds; one JSON line per run in OUT
# (docs/results/beyond-ch9-status-words-nvidia-h200.jsonl).
# lookback-lazy-aggregate.cl is the kernel as it was on 2026-11-27 (volatile
# by default, STATUS_ATOMIC for atomics), changed to look at the tile above
# before publishing its aggregates: an idea that did not pay.
set -eu
out=$1 bin=${2:-build/cltutor}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in 16 24 32; do
  for m in ATOMIC VOLATILE; do
    # the shipped kernel: atomics unless STATUS_VOLATILE
    { [ $m = VOLATILE ] && echo "#define STATUS_VOLATILE"; echo "#define TILE_H $t"; cat kernels/09-integral-image/lookback.cl; } > "$work/orig-$m-$t.cl"
    { [ $m = ATOMIC ] && echo "#define STATUS_ATOMIC"; echo "#define TILE_H $t"; cat "$here/lookback-lazy-aggregate.cl"; } > "$work/lazy-$m-$t.cl"
  done
done
for r in 1 2 3; do
  for f in kernels/09-integral-image/integral.cl kernels/09-integral-image/lookback.cl "$work"/*.cl; do
    timeout 90 "$bin" run 9 --kernel "$f" --device nvidia --size 8192x8192 --json > "$work/r.json" 2>/dev/null || true
    python3 - "$work/r.json" "$f" "$r" >> "$out" <<'PY'
import json, os, sys
try: j = json.load(open(sys.argv[1]))
except Exception: j = {}
t, d = j.get("timing") or {}, j.get("device") or {}
f = sys.argv[2] if sys.argv[2].startswith("kernels/") else "build-gpu/k9/" + os.path.basename(sys.argv[2])
print(json.dumps({"file": f, "round": sys.argv[3], "status": j.get("status"), "median_ms": t.get("median_ms"),
                  "runs": t.get("runs"), "device": d.get("name"), "driver": d.get("driver")}))
PY
  done
done
