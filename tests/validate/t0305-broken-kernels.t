#!/bin/sh
# A copy of chapter 3 with a reference, starting file or find-the-bug listing broken: each fails with its reason.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

fresh
printf 'this is not OpenCL C\n' > "$tmp/course/kernels/03-coalesced/histogram.cl"
expect "a reference that does not build fails" 1 'FAIL reference' -- v 3

fresh
printf '__kernel void histogram(__global const float *a, __global const float *b, __global int *h, int n, int c, int f) {\n' > "$tmp/course/exercises/03-coalesced/histogram.cl"
expect "a starting file that does not build fails" 1 'FAIL starting file' -- v 3

fresh
cp "$root/kernels/03-coalesced/histogram.cl" "$tmp/course/exercises/03-coalesced/histogram.cl"
expect "a starting file that already passes every visible test fails" 1 'FAIL starting file .*already passes all [0-9]+ visible tests' -- v 3

fresh
cp "$root/kernels/03-coalesced/histogram.cl" "$tmp/course/exercises/03-coalesced/bug-row-length.cl"
expect "a bug listing without its bug fails" 1 'the bug does not show' -- v 3

fresh
sed -i 's/^exposes = .*/exposes = 1024x16/' "$tmp/course/lessons/03-coalesced/lesson.ini"
expect "an input that does not expose the bug fails" 1 'passes on 1024x16x64' -- v 3

fresh
rm "$tmp/course/exercises/03-coalesced/bug-row-length.cl"
expect "a missing bug listing fails" 1 'bug-row-length.cl is missing' -- v 3 --static

finish
