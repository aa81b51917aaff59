#!/bin/sh
# timed-alike.sh OUT [CLTUTOR]: on a machine with an NVIDIA GPU, one `cltutor
# bench all` with every peer (PyTorch, NPP, CUB) into OUT/bench.txt, then the
# beyond kernels and chapter 9's reference timed as `cltutor run` times them
# (every launch on new inputs, set up and read back) into OUT/run-times.jsonl,
# to set the two ways of timing side by side. Run from the repository root.
# NVIDIA's OpenCL driver is registered for this run only where the machine
# has it but no ICD file for it.
out=${1:?usage: sh bench/timed-alike.sh OUT [CLTUTOR]}
B=${2:-build/cltutor}
mkdir -p "$out"
if [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  icd=$(mktemp -d)
  echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
  cp /etc/OpenCL/vendors/*.icd "$icd/" 2>/dev/null
  export OCL_ICD_VENDORS="$icd"
fi
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
start=$(date +%s.%N)
{ echo '$ cltutor bench all'; "$B" bench all --device nvidia; echo "rc=$?"; } > "$out/bench.txt" 2> "$out/bench.err"
echo "$start $(date +%s.%N)" | awk '{ printf "%.2f s\n", $2 - $1 }' >> "$out/bench.txt"
: > "$out/run-times.jsonl"
for x in 7:kernels/07-bank-conflicts/bin-major.cl:256M:uniform 8:kernels/08-scan/lookback.cl:64M:random \
         9:kernels/09-integral-image/integral.cl:8192x8192:random 9:kernels/09-integral-image/lookback.cl:8192x8192:random; do
  c=${x%%:*} rest=${x#*:}
  f=${rest%%:*} size=${rest#*:}
  "$B" run "$c" --kernel "$f" --device nvidia --size "$size" --json > "$out/r.json" 2>/dev/null
  python3 -c "
import json, sys
j = json.load(open(sys.argv[4])); t = j.get('timing') or {}
print(json.dumps({'chapter': int(sys.argv[1]), 'file': sys.argv[2], 'size': sys.argv[3], 'status': j.get('status'),
                  'median_ms': t.get('median_ms'), 'runs': t.get('runs')}))" "$c" "$f" "$size" "$out/r.json" >> "$out/run-times.jsonl"
done
rm -f "$out/r.json"
cat "$out/gpu.txt" "$out/bench.txt" "$out/run-times.jsonl"
