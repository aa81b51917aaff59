#!/bin/sh
# run-gpu.sh OUT [CLTUTOR]: chapter 4's centroid load as NVIDIA's driver compiles it (its own PTX,
# through ptxdump.c), and the chapter 3 and 4 references and the float4 * variant timed
# at the bench size, three rounds (docs/results/ch4-loads-nvidia-h200.txt).
out=$1
B=${2:-build/cltutor}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's|vload4(k / 4, centroid)|((__global const float4 *)centroid)[k / 4]|' kernels/04-float4/histogram.cl > "$work/float4-pointer.cl"
gcc -O2 -o "$work/ptxdump" bench/ptx/ptxdump.c -lOpenCL || exit 1
for k in kernels/04-float4/histogram.cl "$work/float4-pointer.cl"; do
  n=$(basename "$k" .cl)
  "$work/ptxdump" "$k" "-DLOCAL_SIZE=64" > "$out/ch4-$n.ptx" 2> "$out/ch4-$n.err"
  echo "== $k"; grep -a -o 'ld\.global[.a-z0-9]*' "$out/ch4-$n.ptx" | sort | uniq -c
done
size=$(sed -n 's/^bench_size = //p' lessons/04-float4/lesson.ini)
for r in 1 2 3; do
  for x in 3:kernels/03-coalesced/histogram.cl 4:kernels/04-float4/histogram.cl 4:"$work/float4-pointer.cl"; do
    c=${x%%:*}; f=${x#*:}
    timeout 120 $B run $c --kernel "$f" --device nvidia --size "$size" --json > /tmp/r.json 2>/dev/null
    python3 -c "
import json,sys
try: j=json.load(open('/tmp/r.json'))
except Exception: j={}
t=j.get('timing') or {}; d=j.get('device') or {}
print(json.dumps({'chapter':int(sys.argv[1]),'file':sys.argv[2],'round':sys.argv[3],'size':sys.argv[4],'status':j.get('status'),'median_ms':t.get('median_ms'),'runs':t.get('runs'),'device':d.get('name'),'driver':d.get('driver')}))" $c "$f" $r "$size" >> "$out/ch4-times.jsonl"
  done
done
cat "$out/ch4-times.jsonl"
