#!/bin/sh
# What Oclgrind finds (out of bounds, races, uninitialised reads) with the source line; build errors; --timeout.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin

figures "out-of-bounds write, data race, uninitialised local read" 1 errors.cl 1024x16 \
  "issue memory oob" "issue race race" "issue uninitialised uninit"
figures "the same kernel without its errors: nothing reported" 0 clean.cl 1024x16 noissues
expect "errors in the text report, with the source line" 1 '9 \| histogram\[n_centroids \+ 3\] = 1;' -- \
  course analyze 1 --kernel "$k/errors.cl" --no-compare
expect "build error: exit 2 and the compiler's message" 2 'broken.cl:4' -- \
  course analyze 1 --kernel "$k/broken.cl" --no-compare
expect "a simulation past --timeout: exit 3, an endless loop named first, then a smaller size" 3 'never ends.*analyse a smaller size \(this was 8192x64x64' -- \
  course analyze 1 --solution --size 8192x64 --timeout 1 --no-compare

finish
