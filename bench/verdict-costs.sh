#!/bin/sh
# The verdict's modelled cost of every kernel of the corpora against its chapter's reference, as
# `cltutor check N --kernel FILE` reports it (docs/results/verdict/modelled-costs.txt):
#   sh bench/verdict-costs.sh [BUILD_DIR [FILE...]] > docs/results/verdict/modelled-costs.txt
# (FILE...: those kernels only, else every one of the corpora)
# One line a kernel: FILE chN: cost = RATIO | what costs most beyond the reference | the lines that failed.
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
[ $# -gt 0 ] && shift
cd "$here" || exit 1
[ $# -gt 0 ] || set -- kernels/0[2-9]*/*.cl tests/honest/kernels/ch0[2-9]*.cl tests/cheats/kernels/ch0[2-9]*.cl bench/variants/0[2-9]*.cl
for f in "$@"; do
  case $f in
  kernels/*) c=$(echo "$f" | sed -E 's#kernels/0?([0-9])-.*#\1#') ;;
  *) c=$(basename "$f" | sed -E 's#(ch)?0?([0-9]).*#\2#') ;;
  esac
  out=$(timeout 900 "$build/cltutor" check "$c" --kernel "$f" 2>&1)
  cost=$(printf '%s\n' "$out" | grep -o "cost = [0-9.e+]*" | head -n 1)
  why=$(printf '%s\n' "$out" | grep -o "What costs most beyond it is [^,.]*" | head -n 1)
  fails=$(printf '%s\n' "$out" | grep -E "^ +FAIL" | sed -E 's/ +/ /g' | cut -c1-60 | tr '\n' '|')
  echo "$f ch$c: $cost | $why | $fails"
done
