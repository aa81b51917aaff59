#!/bin/sh
# bench/lessons/occupancy and host-cost (chapters 5 and 2's measured sections)
# on this machine's device: each builds with no warning, runs the chapters'
# own kernels through its script at a ragged size and checks every
# histogram; a kernel that counts wrong is caught and exits 1; bad options
# are refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

lb="$root/bench/lessons"
for prog in occupancy host-cost; do
  if gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/$prog" "$lb/$prog.c" -lOpenCL -lm -ldl 2> "$tmp/cc.txt"; then
    ok "$prog.c builds with no warning"
  else
    bad "$prog.c builds with no warning" "$(cat "$tmp/cc.txt")"
    finish
    exit
  fi
done

# The scripts build their own copy, find the kernels in the checkout and say how they ran.
expect "occupancy.sh runs and says its command" 0 "^command: sh bench/lessons/occupancy.sh --size 1000x16x8 --runs 1 --sizes 32,64 --local-features 64,96$" -- \
  sh "$lb/occupancy.sh" --size 1000x16x8 --runs 1 --sizes 32,64 --local-features 64,96
occ=$out
for row in '32 +64 +8192 B' '32 +96 +12288 B' '64 +64 +16384 B' '64 +96 +24576 B'; do
  name="occupancy: LOCAL_SIZE $(printf '%s' "$row" | sed 's/ +/, LOCAL_FEATURES /; s/ +/: a tile of /'), the histogram right"
  if printf '%s\n' "$occ" | grep -Eq "^  $row .* ok$"; then ok "$name"; else bad "$name" "$occ"; fi
done
if printf '%s\n' "$occ" | grep -q "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" &&
   printf '%s\n' "$occ" | grep -q "CL_KERNEL_LOCAL_MEM_SIZE" && printf '%s\n' "$occ" | grep -q "CL_DEVICE_LOCAL_MEM_SIZE"; then
  ok "occupancy: the queries the lesson names are printed"
else bad "occupancy: the queries the lesson names are printed" "$occ"; fi

expect "host-cost.sh runs and says its command" 0 "^command: sh bench/lessons/host-cost.sh --size 1000x16x8 --runs 1$" -- \
  sh "$lb/host-cost.sh" --size 1000x16x8 --runs 1
hc=$out
for step in "write descriptors \(malloc'd memory\)" 'write descriptors \(pinned memory\)' 'kernel \(chapter 2\)' \
            'read histogram' 'empty kernel, 1 group of 64' 'all of a run' "chapter 5's reference kernel"; do
  name="host-cost: a row for $(printf '%s' "$step" | sed 's/\\//g')"
  if printf '%s\n' "$hc" | grep -Eq "^  $step .* us"; then ok "$name"; else bad "$name" "$hc"; fi
done
if printf '%s\n' "$hc" | grep -q WRONG; then bad "host-cost: every histogram right" "$hc"; else ok "host-cost: every histogram right"; fi

# A kernel that counts wrong must lose: the chapters' files, each with its vote moved to bin 0.
mkdir -p "$tmp/root/kernels/02-atomic" "$tmp/root/kernels/05-local"
for k in 02-atomic 05-local; do
  sed 's/atomic_inc(&histogram\[nearest\])/atomic_inc(\&histogram[0])/' "$root/kernels/$k/histogram.cl" > "$tmp/root/kernels/$k/histogram.cl"
  if cmp -s "$root/kernels/$k/histogram.cl" "$tmp/root/kernels/$k/histogram.cl"; then bad "the broken $k kernel differs from the chapter's"; fi
done
CLBENCH_ROOT="$tmp/root"; export CLBENCH_ROOT
expect "occupancy: a wrong histogram is caught, exit 1" 1 "histogram WRONG" -- "$tmp/occupancy" --size 1000x16x8 --runs 1 --sizes 64
expect "host-cost: a wrong histogram is caught, exit 1" 1 "WRONG: the histogram of chapter 2's kernel" -- \
  "$tmp/host-cost" --size 1000x16x8 --runs 1
unset CLBENCH_ROOT

expect "occupancy: a size list with a stray word is refused" 64 "usage: .*--sizes" -- "$tmp/occupancy" --sizes 32,x
expect "occupancy: LOCAL_FEATURES not a multiple of 4 is refused" 64 "multiples of 4" -- "$tmp/occupancy" --local-features 6
expect "host-cost: a size that is not NxCxF is refused" 64 "usage: .*--size" -- "$tmp/host-cost" --size 12x
expect "host-cost: --runs 0 is refused" 64 "usage:" -- "$tmp/host-cost" --runs 0
expect "a device no one has is named" 1 "no OpenCL device matches no-such-device" -- "$tmp/occupancy" --device no-such-device

finish
