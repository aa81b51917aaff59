#!/bin/sh
# vload-vs-float4-pointer.sh: the global loads clang's NVPTX backend makes of two
# small kernels, vload4 from a float * (bench/ptx/vload/vload4-float.cl) and a read
# through a float4 * (bench/ptx/vload/float4-pointer.cl). No GPU needed; Debian:
# clang-15 and libclc-15. docs/results/ptx/vload-vs-float4-pointer.txt is its output.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
clc=/usr/lib/clc/nvptx64--nvidiacl.bc
[ -f "$clc" ] || { echo "vload-vs-float4-pointer.sh: $clc is missing: apt-get install libclc-15" >&2; exit 69; }
cd "$root"
echo "# $(date +%F), clang 15, NVPTX backend, no GPU"
echo "# $(clang-15 --version | head -n 1)"
for k in bench/ptx/vload/vload4-float.cl bench/ptx/vload/float4-pointer.cl; do
  cmd="clang-15 -target nvptx64-nvidia-nvcl -cl-std=CL1.2 -O2 -Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang $clc -Wno-linker-warnings -S -o - $k"
  echo
  echo "## $k"
  echo
  sed 's/^/    /' "$k"
  echo
  echo "\$ $cmd | grep ld.global"
  $cmd | grep 'ld\.global' | sed 's/^[[:space:]]*/    /'
done
