#!/bin/sh
# run-gpu.sh OUT [CLTUTOR] [BUDGET]: variants of the beyond kernels of
# chapters 7, 8 and 9, each timed by `cltutor bench N --no-peers` as the
# chapter's beyond kernel (timed as the copy is, checked after the series;
# a wrong variant is reported, not timed), on the first NVIDIA device, or on
# the default device where CLTUTOR_LADDER_DEVICE names another. Each variant
# is the shipped file, or a file of its own beside this script, with
# #defines put in front of it:
#   ch9-columns.cl   chapter 9's two passes with 1 or 2 columns a work-item
#                    (VEC) in tiles of TILE_H rows, where the shipped file has
#                    4 columns in tiles of 32 rows
# The reference's row, timed again in every run, shows what moves between
# runs. One line per variant in OUT/ladder.txt.
# Run from the repository root.
out=${1:?usage: sh bench/beyond-ladder/run-gpu.sh OUT [CLTUTOR] [BUDGET]}
B=${2:-build/cltutor}
budget=${3:-1}
dev=${CLTUTOR_LADDER_DEVICE-nvidia}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  icd=$(mktemp -d)
  echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
  cp /etc/OpenCL/vendors/*.icd "$icd/" 2>/dev/null
  export OCL_ICD_VENDORS="$icd"
fi
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
cp -R lessons kernels exercises "$data/"
# the variants: chapter|label|#defines|file (beside this script, or an
# absolute path; default: the shipped beyond kernel)
variants=${CLTUTOR_LADDER_VARIANTS:-"
9|4 columns x 32 rows (shipped)||
9|2 columns x 64 rows|VEC=2 TILE_H=64|ch9-columns.cl
9|2 columns x 48 rows|VEC=2 TILE_H=48|ch9-columns.cl
9|2 columns x 32 rows|VEC=2 TILE_H=32|ch9-columns.cl
9|1 column x 128 rows|VEC=1 TILE_H=128|ch9-columns.cl
9|1 column x 96 rows|VEC=1 TILE_H=96|ch9-columns.cl
9|1 column x 64 rows|VEC=1 TILE_H=64|ch9-columns.cl
8|window 32 (shipped)|
8|window 16|WINDOW=16
8|window 64|WINDOW=64
7|6 chunks a step (shipped)|
7|8 chunks a step|CHUNKS_PER_STEP=8
7|4 chunks a step|CHUNKS_PER_STEP=4
"}
beyond_of() { sed -n 's/^bench_beyond *= *//p' "$data"/lessons/0"$1"-*/lesson.ini; }
: > "$out/ladder.txt"
printf '%s\n' "$variants" | while IFS='|' read -r ch label defs vfile; do
  [ -n "$ch" ] || continue
  dir=$(ls -d "$data"/kernels/0"$ch"-*) file=$(beyond_of "$ch")
  src=$(ls -d kernels/0"$ch"-*)/$file
  from=$src
  case $vfile in
    '') ;;
    /*) from=$vfile ;;
    *) from=$here/$vfile ;;
  esac
  { for d in $defs; do printf '#define %s %s\n' "${d%%=*}" "${d#*=}"; done; cat "$from"; } > "$dir/$file"
  echo "== chapter $ch: $label (${defs:-no #define}${vfile:+, $vfile})" >> "$out/ladder.txt"
  if [ -n "$dev" ]; then set -- --device "$dev"; else set --; fi
  CLTUTOR_DATA="$data" "$B" bench "$ch" "$@" --no-peers --budget "$budget" > "$out/one.txt" 2>&1
  echo "rc=$?" >> "$out/one.txt"
  grep -E "^(Limits|$ch |$ch\+|rc=)|WRONG|wrong|rror" "$out/one.txt" >> "$out/ladder.txt"
  cp "$src" "$dir/$file"
done
rm -f "$out/one.txt"
cat "$out/ladder.txt"
