#!/bin/sh
# ch7-loads.sh: what chapter 7's 16-byte chunk load becomes in NVIDIA PTX, from
# clang's NVPTX backend and libclc (Debian: clang-15, libclc-15; no GPU needed).
# Prints the global loads of the starting file (a uchar16 read through a
# __global const uchar16 *), of the same file with vload16(c, data) in its place,
# and of the reference (a uint4 read through a __global const uint4 *).
# docs/results/ptx/ch7-chunk-loads-clang15.txt is its output.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
clc=/usr/lib/clc/nvptx64--nvidiacl.bc
[ -f "$clc" ] || { echo "ch7-loads.sh: $clc is missing: sudo apt-get install libclc-15" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start="$root/exercises/07-bank-conflicts/histogram.cl"
ref="$root/kernels/07-bank-conflicts/histogram.cl"
sed 's|((__global const uchar16 \*)data)\[c\]|vload16(c, data)|' "$start" > "$work/vload16.cl"
grep -q 'vload16(c, data)' "$work/vload16.cl" || { echo "ch7-loads.sh: the starting file's chunk load changed" >&2; exit 1; }
echo "# $(date +%F), $(clang-15 --version | head -n 1); target nvptx64-nvidia-nvcl, -O3, -DLOCAL_SIZE=128, $clc"
for k in "$start" "$work/vload16.cl" "$ref"; do
  clang-15 -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -DLOCAL_SIZE=128 -Xclang -finclude-default-header \
    -Xclang -mlink-bitcode-file -Xclang "$clc" -Wno-linker-warnings -O3 -S "$k" -o "$work/k.ptx"
  case $k in "$start") name="exercises/07-bank-conflicts/histogram.cl (a uchar16 read through a uchar16 *)" ;;
             "$ref") name="kernels/07-bank-conflicts/histogram.cl (uint4s read through a uint4 *)" ;;
             *) name="the starting file with vload16(c, data) in place of its load" ;; esac
  echo
  echo "## $name"
  echo "global loads in the PTX, by kind (the last, ld.global.u8, reads the n % 16 bytes at the end):"
  grep -o 'ld\.global[.a-z0-9]*' "$work/k.ptx" | sort | uniq -c
  echo "as written:"
  grep 'ld\.global' "$work/k.ptx" | sed 's/^[[:space:]]*/    /'
done
