#!/bin/sh
# bench/scan-anatomy on this machine's device (PoCL here): the harness builds,
# its ladder runs on a small input, the full kernel's output is checked (a
# kernel that adds one to a tile's prefix loses), its options are checked,
# and ptxrun builds without CUDA and says what it needs.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

sa="$root/bench/scan-anatomy"
if gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/scan-anatomy" "$sa/anatomy.c" -lOpenCL 2> "$tmp/cc.txt" &&
   gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/ptxrun" "$sa/ptxrun.c" -ldl 2>> "$tmp/cc.txt"; then
  ok "anatomy.c and ptxrun.c build with no warning"
else
  bad "anatomy.c and ptxrun.c build with no warning" "$(cat "$tmp/cc.txt")"
  finish
  exit
fi

cd "$root" || exit 1
run() { "$tmp/scan-anatomy" --elements 70001 --runs 2 --warmup 1 "$@"; }
expect "the ladder runs and the full kernels give the CPU's scan" 0 "every checked rung gave the CPU's scan" -- run
for rung in 'a copy' 'b load\+store' 'c \+ in-tile scan' 'd \+ publish status' "e full \(course kernel\) .*output ok" "e' full \(anatomy copy\) .*output ok"; do
  if printf '%s\n' "$out" | grep -Eq "^  $rung"; then ok "rung: $rung"; else bad "rung: $rung" "$out"; fi
done

# a tile's prefix one too large from tile 1 on: the check must catch it
sed 's/before += (uint)s;/before += (uint)s + 1;/' kernels/08-scan/lookback.cl > "$tmp/off-by-one.cl"
if cmp -s kernels/08-scan/lookback.cl "$tmp/off-by-one.cl"; then bad "the broken copy differs from the kernel"; fi
expect "a wrong kernel is caught, with the first wrong element" 1 "WRONG at [0-9]+: " -- run --rungs e --kernel "$tmp/off-by-one.cl"
expect "a wrong --try is caught too" 1 "a checked rung failed" -- run --rungs a --try "$tmp/off-by-one.cl:"
expect "a try stopped at rung c is timing only" 0 "timing only" -- run --rungs a --try "$sa/lookback-anatomy.cl:-DANATOMY=2"
expect "the copy's variants are correct" 0 "every checked rung" -- \
  run --rungs a --try "$sa/lookback-anatomy.cl:-DANATOMY_TILE_LOCAL -DELEMENTS=32" --try "$sa/lookback-anatomy.cl:-DANATOMY_LB_LANE0"
expect "the output read back between launches" 0 "read back to the host" -- run --rungs e --between read

expect "--help" 0 "--between MODE" -- "$tmp/scan-anatomy" --help
expect "an unknown option is named" 64 "unknown option '--frobnicate'" -- "$tmp/scan-anatomy" --frobnicate
expect "--elements 0 is refused" 64 "--elements" -- "$tmp/scan-anatomy" --elements 0
expect "--rungs takes a to e only" 64 "letters among a b c d e, not 'x'" -- "$tmp/scan-anatomy" --rungs x
expect "--between sleep:0 is refused" 64 "sleep:MS" -- "$tmp/scan-anatomy" --between sleep:0
expect "--try needs FILE:OPTS" 64 "FILE:OPTS" -- "$tmp/scan-anatomy" --try nocolon
expect "--ptxas needs --ptx" 64 "needs --ptx" -- "$tmp/scan-anatomy" --ptxas /bin/true
expect "a kernel file that is not there" 1 "cannot read $tmp/none.cl" -- run --rungs e --kernel "$tmp/none.cl"
expect "a device that is not there" 69 "no device has 'no-such-device'" -- run --device no-such-device

expect "ptxrun --help" 0 "usage: ptxrun" -- "$tmp/ptxrun" --help
expect "ptxrun without arguments" 64 "usage: ptxrun" -- "$tmp/ptxrun"
expect "ptxrun on a file that is not there" 66 "cannot read" -- "$tmp/ptxrun" "$tmp/none.ptx" scan_lookback
finish
