#!/bin/sh
# cltutor run on kernels that hang, crash or print, and with bad arguments.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

start=$(date +%s)
expect "endless loop: exit 3, timed out" 3 'Timed out' -- "$bin" run 2 --kernel "$k/endless_loop.cl" --timeout 2 --size 1000x16
took=$(( $(date +%s) - start ))
if [ "$took" -le 20 ]; then ok "endless loop stopped in ${took}s (limit 2s + build)"; else bad "endless loop took ${took}s"; fi
expect "out-of-bounds write: exit 3, crashed" 3 'Crashed' -- "$bin" run 2 --kernel "$k/out_of_bounds.cl" --size 16384x16x4
expect "crash message says what to try" 3 'Try:' -- "$bin" run 2 --kernel "$k/out_of_bounds.cl" --size 16384x16x4
expect "barrier in divergent code: exit 3" 3 'Crashed|Timed out' -- "$bin" run 2 --kernel "$k/divergent_barrier.cl" --size 1000x16x4 --timeout 3
expect "a kernel's printf shows under a wrong result" 1 'debug: n_descriptors = 64, n_centroids = 16' -- "$bin" run 2 --kernel "$k/prints.cl" --size 64x16 --no-timing

# ---- bad arguments: exit 64 and a message that names the value
expect "missing kernel file: exit 64" 64 'no such file' -- "$bin" run 2 --kernel "$tmp/nope.cl"
expect "a folder given as the kernel: exit 64" 64 "a folder, not a file" -- "$bin" run 2 --kernel "$tmp"
expect "bad size names the value" 64 "size '12xq'" -- "$bin" run 2 --solution --size 12xq
expect "bad input kind lists the kinds" 64 'random, onebin, ties' -- "$bin" run 2 --solution --size 100:lumpy
expect "bad timeout" 64 "--timeout 'abc'" -- "$bin" run 2 --timeout abc
expect "bad seed" 64 "--seed 'x1'" -- "$bin" run 2 --seed x1

finish
