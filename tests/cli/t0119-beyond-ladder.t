#!/bin/sh
# bench/beyond-ladder on this machine's device (PoCL here): its variants run as
# the chapter's beyond kernel in `cltutor bench`, which checks them; chapter
# 9's rungs with 1 and 2 columns a work-item are right, and a rung whose
# look-back adds one too many is reported wrong, not timed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

cd "$root" || exit 1
ladder() { CLTUTOR_LADDER_DEVICE= sh bench/beyond-ladder/run-gpu.sh "$tmp/out" "$bin" 0.1; }

if sh -n bench/beyond-ladder/run-gpu.sh; then ok "run-gpu.sh parses"; else bad "run-gpu.sh parses"; fi

export CLTUTOR_LADDER_VARIANTS="
9|1 column x 64 rows|VEC=1 TILE_H=64|ch9-columns.cl
9|2 columns x 16 rows|VEC=2 TILE_H=16|ch9-columns.cl"
expect "two of chapter 9's rungs run" 0 "== chapter 9: 2 columns x 16 rows" -- ladder
n=$(grep -c '^9+  two passes, look-back  .* us\|^9+  two passes, look-back  .* ms' "$tmp/out/ladder.txt")
expect "both rungs are right and timed" 0 "^2$" -- echo "$n"
if grep -q "Wrong result" "$tmp/out/ladder.txt"; then bad "no rung is wrong" "$(cat "$tmp/out/ladder.txt")"; else ok "no rung is wrong"; fi

# the look-back adds one to every aggregate it passes: the bench must say so
sed 's/above\[c\] += (uint)s\[c\];/above[c] += (uint)s[c] + 1;/' bench/beyond-ladder/ch9-columns.cl > "$tmp/broken.cl"
if cmp -s bench/beyond-ladder/ch9-columns.cl "$tmp/broken.cl"; then bad "the broken copy differs from the rung"; fi
export CLTUTOR_LADDER_VARIANTS="
9|broken|VEC=2 TILE_H=16|$tmp/broken.cl"
expect "a wrong rung is reported, not timed" 0 "9\+  two passes, look-back  .*Wrong result" -- ladder
expect "and its bench's exit status is kept" 0 "rc=1" -- cat "$tmp/out/ladder.txt"

# four columns a work-item are the shipped kernel's, not this file's
export CLTUTOR_LADDER_VARIANTS="
9|four|VEC=4 TILE_H=32|ch9-columns.cl"
expect "VEC=4 is refused by the rung's file" 0 "rc=1" -- ladder
finish
