#!/bin/sh
# bench/lessons/aggregate (chapter 2's section "Sub-groups: one atomic for
# many votes") on this machine's device: it builds with no warning, runs
# through its script at a small size, prints what the device says about
# sub-groups, a row for each vote that ran on each input, whole and alone,
# and every histogram right; a vote that counts wrong (the leaders' counts
# planted one too high, or chapter 2's kernel voting into bin 0) is caught
# with exit 1; bad options are refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

lb="$root/bench/lessons"
for def in 0 1; do
  if gcc -O2 -std=c11 -Wall -Wextra -Werror -DAGGREGATE_PLANT=$def -o "$tmp/aggregate$def" "$lb/aggregate.c" \
       -lOpenCL -lm -ldl 2> "$tmp/cc.txt"; then
    ok "aggregate.c builds with no warning (AGGREGATE_PLANT=$def)"
  else
    bad "aggregate.c builds with no warning (AGGREGATE_PLANT=$def)" "$(cat "$tmp/cc.txt")"
    finish
    exit
  fi
done

# The script builds its own copy, finds chapter 2's kernel in the checkout and says how it ran.
expect "aggregate.sh runs and says its command" 0 "^command: sh bench/lessons/aggregate.sh --size 1000x16x8 --runs 1$" -- \
  sh "$lb/aggregate.sh" --size 1000x16x8 --runs 1
agg=$out
for q in 'CL_DEVICE_EXTENSIONS:' 'cl_khr_subgroups in the list: (yes|no)' 'CL_DEVICE_MAX_NUM_SUB_GROUPS: ' \
         'CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of chapter 2.s kernel: [0-9]+'; do
  name="the device's answer printed: $(printf '%s' "$q" | sed 's/ (yes|no)//; s/: .*//; s/:$//')"
  if printf '%s\n' "$agg" | grep -Eq "^  $q"; then ok "$name"; else bad "$name" "$agg"; fi
done
# Every vote the device can run has a row on each input, in both sections, and is right.
rows=$(printf '%s\n' "$agg" | grep -Ec '^  (random |one bin) .* ok$')
# (the whole kernel's atomic row is chapter 2's; the votes alone's is "atomic" and spaces)
for input in random 'one bin'; do
  for vote in 'atomic \(chapter 2\)' 'atomic  ' 'work-group \(local\)'; do
    n=$(printf '%s\n' "$agg" | grep -Ec "^  $input +$vote.* ok$")
    want=1; [ "$vote" = 'work-group \(local\)' ] && want=2
    name="a row for $input, $(printf '%s' "$vote" | sed 's/\\//g; s/ *$//'), its histograms right"
    if [ "$n" -eq "$want" ]; then ok "$name"; else bad "$name (found $n, wanted $want)" "$agg"; fi
  done
done
if printf '%s\n' "$agg" | grep -q WRONG; then bad "every histogram and count right" "$agg"
elif [ "$rows" -ge 8 ]; then ok "every histogram and count right ($rows rows)"
else bad "every histogram and count right (only $rows rows)" "$agg"; fi
# One vote for one bin per work-group of 64 when all descriptors vote for it: 1000 votes, 16 groups.
if printf '%s\n' "$agg" | grep -Eq '^  one bin +work-group \(local\) +16 '; then ok "one bin: 16 atomics for 16 work-groups"
else bad "one bin: 16 atomics for 16 work-groups" "$agg"; fi

# A vote that counts wrong must lose.
expect "a planted wrong count is caught, exit 1" 1 "WRONG \(3 of 3 histograms\)" -- \
  env CLBENCH_ROOT="$root" "$tmp/aggregate1" --size 1000x16x8 --runs 1
if printf '%s\n' "$out" | grep -Eq '^  random +atomic \(chapter 2\) .* ok$'; then ok "the planted count leaves chapter 2's kernel right"
else bad "the planted count leaves chapter 2's kernel right" "$out"; fi
mkdir -p "$tmp/root/kernels/02-atomic"
sed 's/atomic_inc(&histogram\[nearest\])/atomic_inc(\&histogram[0])/' "$root/kernels/02-atomic/histogram.cl" \
  > "$tmp/root/kernels/02-atomic/histogram.cl"
if cmp -s "$root/kernels/02-atomic/histogram.cl" "$tmp/root/kernels/02-atomic/histogram.cl"; then
  bad "the broken chapter 2 kernel differs from the chapter's"
fi
expect "chapter 2's kernel voting into bin 0 is caught, exit 1" 1 "^  random +atomic \(chapter 2\) .* WRONG" -- \
  env CLBENCH_ROOT="$tmp/root" "$tmp/aggregate0" --size 1000x16x8 --runs 1

expect "a size that is not NxCxF is refused" 64 "usage: .*--size" -- "$tmp/aggregate0" --size 12x
expect "features not a multiple of 4 are refused" 64 "usage: .*--size" -- "$tmp/aggregate0" --size 1000x16x6
expect "--runs 0 is refused" 64 "usage:" -- "$tmp/aggregate0" --runs 0
expect "an unknown option is refused" 64 "usage:" -- "$tmp/aggregate0" --votes 3
expect "a device no one has is named" 1 "no OpenCL device matches no-such-device" -- "$tmp/aggregate0" --device no-such-device

finish
