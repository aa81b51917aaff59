#!/bin/sh
# ch4-loads.sh: what chapter 4's centroid load becomes in NVIDIA PTX, from clang's
# NVPTX backend and libclc (Debian: clang-15, libclc-15; no GPU needed). Prints
# the global loads of the chapter 4 reference (vload4 from a float *) and of the
# same kernel reading the centroid through a float4 * (16-byte aligned).
# docs/results/ch4-ptx-loads-clang15.txt is its output.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
clc=/usr/lib/clc/nvptx64--nvidiacl.bc
[ -f "$clc" ] || { echo "ch4-loads.sh: $clc is missing: sudo apt-get install libclc-15" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ref="$root/kernels/04-float4/histogram.cl"
sed 's|vload4(k / 4, centroid)|((__global const float4 *)centroid)[k / 4]|' "$ref" > "$work/float4-pointer.cl"
grep -q 'float4 \*)centroid' "$work/float4-pointer.cl" || { echo "ch4-loads.sh: the reference's vload4 line changed" >&2; exit 1; }
echo "# $(clang-15 --version | head -n 1); target nvptx64-nvidia-nvcl, -O3, $clc"
for k in "$ref" "$work/float4-pointer.cl"; do
  clang-15 -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
    -Xclang -mlink-bitcode-file -Xclang "$clc" -Wno-linker-warnings -O3 -S "$k" -o "$work/k.ptx"
  case $k in "$ref") name="kernels/04-float4/histogram.cl (vload4 from a float *)" ;;
             *) name="the same, the centroid read as ((__global const float4 *)centroid)[k / 4]" ;; esac
  echo
  echo "## $name"
  echo "global loads in the PTX, by kind:"
  grep -o 'ld\.global[.a-z0-9]*' "$work/k.ptx" | sort | uniq -c
  echo "the loop's loads, as written:"
  grep 'ld\.global' "$work/k.ptx" | sed 's/^[[:space:]]*/    /'
done
