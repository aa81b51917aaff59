#!/bin/sh
# bench/lessons/scan-span and reduction (chapter 8's measured sections) on
# this machine's device: each builds with no warning, runs through its
# script, gives the right sums and counts the barriers and additions the
# lesson states; a broken tree is caught and exits 1; bad options are refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

lb="$root/bench/lessons"
for prog in scan-span reduction; do
  if gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/$prog" "$lb/$prog.c" -lOpenCL 2> "$tmp/cc.txt"; then
    ok "$prog.c builds with no warning"
  else
    bad "$prog.c builds with no warning" "$(cat "$tmp/cc.txt")"
    finish
    exit
  fi
done

# The scripts build their own copy and say how they ran; one device, few rounds.
expect "scan-span.sh runs and says its command" 0 "^command: sh bench/lessons/scan-span.sh --reps 2 --runs 1$" -- \
  sh "$lb/scan-span.sh" --reps 2 --runs 1
scan=$out
for row in '256 +hillis-steele +256 +9 +1793 ' '256 +blelloch +256 +17 +766 ' '256 +registers \(16 each\) +16 +9 +526 ' \
           '1024 +hillis-steele +1024 +11 +9217 ' '1024 +blelloch +1024 +21 +3070 ' '1024 +registers \(16 each\) +64 +13 +2110 '; do
  name="scan-span: $(printf '%s' "$row" | sed 's/ +/ /g; s/\\//g')(n, kernel, work-items, barriers, additions), the sums right"
  if printf '%s\n' "$scan" | grep -Eq "^$row.* ok$"; then ok "$name"; else bad "$name" "$scan"; fi
done

expect "reduction.sh runs on a ragged count" 0 "^command: sh bench/lessons/reduction.sh --n 70001 --runs 1$" -- \
  sh "$lb/reduction.sh" --n 70001 --runs 1
red=$out
for row in 'interleaved +9 +255 .* ok \(total' 'strided-index +9 +255 .* ok \(total' 'sequential +9 +255 .* ok \(total'; do
  name="reduction: $(printf '%s' "$row" | sed 's/ +/ /g; s/ \.\*.*//; s/ *$//') (barriers, additions), the total right"
  if printf '%s\n' "$red" | grep -Eq "^$row"; then ok "$name"; else bad "$name" "$red"; fi
done
if printf '%s\n' "$red" | grep -Eq '^load only +1 +0 .*no tree'; then ok "reduction: the floor, 1 barrier and no addition"
else bad "reduction: the floor, 1 barrier and no addition" "$red"; fi
# what the warps do, over the 8 steps: busy/divergent warps of 32 and wavefronts of 64, the worst conflict
totals=$(printf '%s\n' "$red" | grep -E '^  all ' | tr -s ' ')
want=" all 47/47 27/27 1-way
 all 12/5 9/6 8-way
 all 12/5 9/6 1-way"
if [ "$totals" = "$want" ]; then ok "reduction: the warps' counts the lesson quotes"; else bad "reduction: the warps' counts the lesson quotes" "$totals"; fi

# A broken tree must lose: Blelloch's root not cleared, the sequential tree one step short.
sed 's/active == 1 ? 0 :/active == 1 ? 1 :/' "$lb/scan-span.c" > "$tmp/scan-broken.c"
sed 's|for (uint s = LS / 2; s > 0; s >>= 1)|for (uint s = LS / 2; s > 1; s >>= 1)|' "$lb/reduction.c" > "$tmp/red-broken.c"
if cmp -s "$lb/scan-span.c" "$tmp/scan-broken.c" || cmp -s "$lb/reduction.c" "$tmp/red-broken.c"; then
  bad "the broken copies differ from the programs"
fi
for prog in scan-broken red-broken; do
  gcc -O2 -std=c11 -I"$lb" -o "$tmp/$prog" "$tmp/$prog.c" -lOpenCL || bad "$prog builds"
done
expect "a scan that is wrong is caught, exit 1" 1 "^256 +blelloch .* WRONG \(256 of 256 elements differ\)" -- \
  "$tmp/scan-broken" --reps 2 --runs 1
expect "a reduction that is wrong is caught, exit 1" 1 "^sequential .* WRONG \(total" -- "$tmp/red-broken" --n 70001 --runs 1

expect "scan-span: --runs 0 is refused" 64 "must be positive" -- "$tmp/scan-span" --runs 0
expect "scan-span: an unknown option shows the usage" 64 "usage: .*--device TEXT" -- "$tmp/scan-span" --frobnicate
expect "reduction: --n 0 is refused" 64 "must be positive" -- "$tmp/reduction" --n 0
expect "a device no one has is named" 1 "no OpenCL device matches no-such-device" -- "$tmp/reduction" --device no-such-device

finish
