#!/bin/sh
# run-gpu.sh OUT [CLTUTOR]: what holds chapter 6's beyond kernel below the FP32
# peak, on an NVIDIA GPU. For beyond.cl and the expanded-distance
# experiment beside this script (and its YY_LOCAL form): the driver's PTX and build log with
# -cl-nv-verbose (registers), the PTX's FP32 instructions, and three rounds
# of `cltutor bench 6` with each file as the beyond kernel (timed as the
# copy is; each round measures the device limits and the CPU baselines
# again, about two minutes a round).
# Run from the repository root; results in OUT.
out=${1:?usage: sh bench/ch6-anatomy/run-gpu.sh OUT [CLTUTOR]}
B=${2:-build/cltutor}
mkdir -p "$out"
if [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  icd=$(mktemp -d)
  echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
  export OCL_ICD_VENDORS="$icd"
fi
gcc -O2 -o "$out/ptxdump" bench/ptx/ptxdump.c -lOpenCL || exit 1
opts="-DLOCAL_SIZE=$(sed -n 's/^local_size *= *//p' lessons/06-constant/lesson.ini) $(sed -n 's/^build_options *= *//p' lessons/06-constant/lesson.ini) -cl-nv-verbose"
# expanded-local.cl: expanded.cl with each centroid's |y|^2 in local memory
{ echo '#define YY_LOCAL 1024'; cat bench/ch6-anatomy/expanded.cl; } > "$out/expanded-local.cl"
files="kernels/06-constant/beyond.cl bench/ch6-anatomy/expanded.cl $out/expanded-local.cl"
for f in $files; do
  n=$(basename "$f" .cl)
  "$out/ptxdump" "$f" "$opts" > "$out/$n.ptx" 2> "$out/$n.log"
  echo "== $f ($opts)"
  grep -i "registers\|spill" "$out/$n.log" | head -3
  for op in fma.rn.f32 sub.f32 add.f32 mul.f32 ld.const ld.global ld.shared; do
    printf '  %-12s %s\n' "$op" "$(grep -c "$op" "$out/$n.ptx")"
  done
done
data=$(mktemp -d)
cp -R lessons kernels exercises bench "$data/"
for round in 1 2 3; do
  for f in $files; do
    cp "$f" "$data/kernels/06-constant/beyond.cl"
    echo "== round $round: $f"
    CLTUTOR_DATA="$data" "$B" bench 6 --device nvidia --no-peers 2>/dev/null | grep -E '^(Device|Limits|6)'
  done
done
