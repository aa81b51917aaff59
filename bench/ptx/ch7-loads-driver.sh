#!/bin/sh
# ch7-loads-driver.sh: chapter 7's 16-byte chunk load as a device's own
# OpenCL driver compiles it (`cltutor asm --device`): the starting file (a
# uchar16 read through a __global const uchar16 *), the same file with
# vload16(c, data) in its place, and the reference (uint4s through a
# __global const uint4 *). ch7-loads.sh shows clang's PTX of the same three.
# docs/results/ptx/ch7-chunk-loads-driver-nvidia-h200.txt is its output on
# an NVIDIA H200.
#   sh bench/ptx/ch7-loads-driver.sh BUILD [DEVICE]   (default DEVICE: nvidia)
set -eu
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 64
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/$1/cltutor"
device=${2:-nvidia}
[ -x "$bin" ] || { echo "ch7-loads-driver.sh: $bin is not built" >&2; exit 66; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start="$root/exercises/07-bank-conflicts/histogram.cl"
ref="$root/kernels/07-bank-conflicts/histogram.cl"
sed 's|((__global const uchar16 \*)data)\[c\]|vload16(c, data)|' "$start" > "$work/vload16.cl"
grep -q 'vload16(c, data)' "$work/vload16.cl" || { echo "ch7-loads-driver.sh: the starting file's chunk load changed" >&2; exit 1; }
echo "# $(date -u '+%Y-%m-%d %H:%M') UTC; cltutor asm 7 --kernel FILE --device $device"
for k in "$start" "$work/vload16.cl" "$ref"; do
  case $k in "$start") name="exercises/07-bank-conflicts/histogram.cl (a uchar16 read through a uchar16 *)" ;;
             "$ref") name="kernels/07-bank-conflicts/histogram.cl (uint4s read through a uint4 *)" ;;
             *) name="the starting file with vload16(c, data) in place of its load" ;; esac
  echo
  echo "## $name"
  "$bin" asm 7 --kernel "$k" --device "$device" | sed -n '/^kernel /,/^  global memory/p'
done
