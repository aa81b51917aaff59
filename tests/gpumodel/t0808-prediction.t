#!/bin/sh
# The predicted time: labelled a prediction with its device and accuracy in
# analyze and run, in JSON; --gpu picks a profile; a broken profile is named
# by file and line; bench --profile writes one that the prediction reads.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin
small="--size 256x16x64"

expect "analyze: a labelled prediction at the bench size" 0 \
  '^Predicted on NVIDIA H100( 80GB HBM3)? \(a model, not a measurement\): .* at 262144x256, (memory|load/store|local-memory|compute)-bound' -- \
  "$bin" analyze 3 --solution $small
expect "analyze: the previous stage predicted too" 0 "the previous stage, chapter 2's reference: .* predicted" -- \
  "$bin" analyze 3 --solution $small
expect "analyze: the accuracy is said" 0 'Accuracy: measured error [0-9]+% \(geometric mean over [0-9]+ kernels, [0-9]+ within 2x; [0-9]+ of [0-9]+ speed-ups in the right direction; [0-9-]+\)' -- \
  "$bin" analyze 3 --solution $small
# the shipped profile by its place in the course, not the folder the course sits in
expect "analyze: the profile named as devices/NAME.ini" 0 'Accuracy: .*\) \(devices/nvidia-h100\.ini\)\.$' -- \
  "$bin" analyze 3 --solution $small
out=$("$bin" analyze 3 --solution $small --no-predict 2>&1)
if printf '%s\n' "$out" | grep -q 'Predicted on'; then bad "--no-predict: no prediction" "$out"; else ok "--no-predict: no prediction"; fi

# a profile not yet checked against the GPU says so
sed '/^\[accuracy\]/,$d' "$root/devices/nvidia-h100.ini" > "$tmp/unvalidated.ini"
expect "analyze: a profile without [accuracy] is said to be not yet validated" 0 'Accuracy: not yet validated on this GPU' -- \
  "$bin" analyze 3 --solution $small --gpu "$tmp/unvalidated.ini"

"$bin" analyze 3 --solution $small --gpu nvidia-h200 --json > "$tmp/p.json" 2> "$tmp/err.txt"
if python3 - "$tmp/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["prediction"]
assert p["is_prediction"] is True and p["device"].startswith("NVIDIA H200"), p
assert p["predicted_ms"] > 0 and p["limit"] in ("memory", "load_store", "local", "compute"), p
assert p["validated"] is True and p["accuracy"].startswith("measured error "), p  # devices/nvidia-h200.ini, validated
assert p["previous"]["predicted_ms"] > p["predicted_ms"], p   # chapter 2 is slower
assert p["size"] == "262144x256" and p["from_size"] == "256x16x64", p
PY
then ok "analyze --json --gpu nvidia-h200: the prediction object"; else bad "analyze --json --gpu nvidia-h200" "$(cat "$tmp/p.json" "$tmp/err.txt")"; fi

expect "--gpu that names no profile: said, with what exists" 0 'No predicted time: no device profile .*amd-mi300.ini .*nvidia-h100.ini' -- \
  "$bin" analyze 3 --solution $small --no-compare --gpu amd-mi300
printf '[device]\nname = Broken\n[limits]\ncopy_gb_per_s = 3000\nfp32_gflop_per_s = lots\n' > "$tmp/broken.ini"
expect "a broken profile: named by file and line" 0 "No predicted time: $tmp/broken.ini:5: fp32_gflop_per_s = 'lots' is not a number" -- \
  "$bin" analyze 3 --solution $small --no-compare --gpu "$tmp/broken.ini"

expect "bench --profile writes a profile (PoCL here)" 0 "Written to $tmp/cpu.ini" -- \
  "$bin" bench --profile "$tmp/cpu.ini"
expect "the written profile predicts" 0 "^Predicted on .* \(a model, not a measurement\)" -- \
  "$bin" analyze 3 --solution $small --no-compare --gpu "$tmp/cpu.ini"
expect "bench --profile with a chapter: usage error" 64 'not chapters' -- "$bin" bench 3 --profile "$tmp/x.ini"
if awk -F' = ' '$1 == "dram_latency_ns" && $2 > 0 { d = 1 } $1 == "scattered_store_sectors_g_per_s" && $2 > 0 { s = 1 }
                END { exit !(d && s) }' "$tmp/cpu.ini"
then ok "bench --profile: the DRAM latency and the scattered stores' rate measured"
else bad "bench --profile: dram_latency_ns and scattered_store_sectors_g_per_s above 0" "$(cat "$tmp/cpu.ini")"; fi

# the DRAM waits (they need clang's PTX, for the loads a loop issues together) and the scattered stores,
# where the profile has their figures (the H200's) and not where it has not (the H100's)
if command -v clang-15 > /dev/null 2>&1 || command -v clang > /dev/null 2>&1; then
  expect "a byte read, used, then the next, no loop unrolled: latency-bound on DRAM waits" 0 \
    'latency-bound: [0-9.]+ k DRAM loads of each warp in turn at [0-9]+ ns each' -- \
    "$bin" analyze 7 --kernel "$root/bench/heldout/ch07-one-shared.cl" --no-compare --gpu nvidia-h200
  expect "the same in Chinese: a time each, not a rate" 0 '受延迟限制：.*每次 [0-9]+ ns' -- \
    env LANGUAGE=zh_CN LANG=C.UTF-8 "$bin" analyze 7 --kernel "$root/bench/heldout/ch07-one-shared.cl" --no-compare --gpu nvidia-h200
  expect "register-tiled distances: bound by the warp instructions the compiled code issues" 0 \
    'compute-bound: [0-9.]+ M warp instructions at [0-9]+ G/s' -- \
    "$bin" analyze 6 --kernel "$root/bench/heldout/ch06-registers-unrolled.cl" --no-compare --gpu nvidia-h200
  out=$("$bin" analyze 7 --kernel "$root/bench/variants/07-byte-loads.cl" --no-compare --gpu nvidia-h200 2>&1)
  if printf '%s\n' "$out" | grep -q 'DRAM loads of each warp'; then bad "bytes read by a loop unrolled 16 times: no DRAM waits bound" "$out"
  else ok "bytes read by a loop unrolled 16 times: not bound by DRAM waits"; fi
else
  ok "# SKIP no clang: the DRAM waits need the compiled code"
  ok "# SKIP no clang"
  ok "# SKIP no clang"
  ok "# SKIP no clang"
fi
expect "the same on a profile without the compiled code (the H100's): the problem's flops" 0 \
  'Predicted on NVIDIA H100' -- \
  "$bin" analyze 6 --kernel "$root/bench/heldout/ch06-registers-unrolled.cl" --no-compare --gpu nvidia-h100
printf '%s\n' "$out" | grep -q 'warp instructions' && bad "the H100's profile: no warp instructions" "$out" ||
  ok "the H100's profile: no warp instructions"
out=$("$bin" analyze 7 --kernel "$root/bench/heldout/ch07-one-shared.cl" --no-compare --gpu nvidia-h100 2>&1)
if printf '%s\n' "$out" | grep -q 'DRAM loads of each warp'; then bad "a profile without dram_latency_ns: no DRAM waits" "$out"
else ok "a profile without dram_latency_ns: no DRAM waits"; fi
expect "a transpose without a tile: bound by its scattered stores" 0 \
  'memory-bound: [0-9.]+ M sectors of scattered stores at [0-9.]+ G/s' -- \
  "$bin" analyze 9 --kernel "$root/bench/variants/09-naive-transpose.cl" --no-compare --gpu nvidia-h200
expect "the chapter's tiled transpose: its bytes, not scattered stores" 0 'Predicted on NVIDIA H200 .*: .* at 8192x8192' -- \
  "$bin" analyze 9 --solution --no-compare --gpu nvidia-h200
if "$bin" analyze 9 --solution --no-compare --gpu nvidia-h200 2>&1 | grep -q 'scattered stores'
then bad "the tiled transpose is not bound by scattered stores" ""; else ok "the tiled transpose is not bound by scattered stores"; fi

expect "run --predict: the prediction beside the measured run" 0 '^Predicted on NVIDIA H100( 80GB HBM3)? \(a model, not a measurement\): .* at 2000x16x64' -- \
  "$bin" run 3 --solution --size 2000x16 --no-timing --predict
"$bin" run 3 --solution --size 2000x16 --no-timing --gpu nvidia-h200 --json > "$tmp/r.json" 2> "$tmp/err.txt"
if python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["prediction"]; assert p["is_prediction"] and p["device"].startswith("NVIDIA H200") and p["predicted_ms"]>0, p' "$tmp/r.json"
then ok "run --gpu --json: the prediction object"; else bad "run --gpu --json" "$(cat "$tmp/r.json" "$tmp/err.txt")"; fi
out=$("$bin" run 3 --solution --size 2000x16 --no-timing 2>&1)
if printf '%s\n' "$out" | grep -q 'Predicted on'; then bad "run without --predict: no prediction" "$out"; else ok "run without --predict: no prediction"; fi

# chapter 9: the host's geometry, not the pixels, grows the row scans' work
# inside a work-group, and column_scan's tiles come from column_tile's answer
"$bin" analyze 9 --kernel "$root/kernels/09-integral-image/integral.cl" --no-compare --json > "$tmp/i.json" 2> "$tmp/err.txt"
"$bin" analyze 9 --kernel "$root/kernels/09-integral-image/lookback.cl" --no-compare --json > "$tmp/l.json" 2>> "$tmp/err.txt"
if python3 - "$tmp/i.json" "$tmp/l.json" <<'PY'
import json, sys
ref, look = (json.load(open(f)) for f in sys.argv[1:3])
p, q = ref["prediction"], look["prediction"]
# measured on the H100 (docs/results/nvidia-h100-prediction.md): 0.73 ms and 0.43 ms;
# the pixels' growth alone predicted 8.8 ms and 5.6 ms
assert 0.3 < p["predicted_ms"] < 1.5 and 0.2 < q["predicted_ms"] < 0.9, (p["predicted_ms"], q["predicted_ms"])
assert q["predicted_ms"] < p["predicted_ms"], "the two-pass look-back is the faster, as measured"
names = [k["name"] for k in look["kernels"]]
assert "column_tile" not in names and "column_scan" in names, names   # the helper is left out
col = next(k for k in look["kernels"] if k["name"] == "column_scan")
args = {a.get("argument") for a in col["accesses"] if a["space"] == "global"}
assert {0, 1, 2} <= args, args   # in, out and the status words, each found
PY
then ok "chapter 9: predicted from the host's geometry and column_tile's answer"; else bad "chapter 9 prediction" "$(cat "$tmp/err.txt")"; fi

finish
