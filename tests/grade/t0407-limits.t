#!/bin/sh
# Limits on a graded kernel: CPU time, memory, wall time.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
make_course

put "$tmp/own" 91-one "$k/hang.cl" histogram.cl
start=$(date +%s)
C grade 91 --dir "$tmp/own" --seed 3 --timeout 60 --cpu-limit 2 --format json -o "$tmp/cpu.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a CPU-time limit stops an endless loop (${took}s, wall limit 60s)" "$tmp/cpu.json" \
  "test('91-one', 'hidden.1')['status'] == 'timeout' and 'CPU time' in test('91-one', 'hidden.1')['detail']"  # the CPU limit's own words: not the wall limit's
cat > "$tmp/membomb.cl" <<'CL'
/* Expands to 10^8 tokens: the compiler's memory grows until a limit stops it. */
#define A(x) x x x x x x x x x x
#define B(x) A(A(x))
#define C(x) B(B(x))
#define D(x) C(C(x))
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int s = 0 D(+ 1);
    if (get_global_id(0) == 0) histogram[0] = s;
}
CL
put "$tmp/own" 91-one "$tmp/membomb.cl" histogram.cl
start=$(date +%s)
POCL_KERNEL_CACHE=0 C grade 91 --dir "$tmp/own" --seed 3 --memory-limit 384 --format json -o "$tmp/mem.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a memory limit stops a kernel that makes the compiler allocate without end (${took}s)" "$tmp/mem.json" \
  "test('91-one', 'hidden.1')['outcome'] == 'fail' and test('91-one', 'hidden.1')['status'] in ('crash', 'runtime_error', 'build_error') and $took < 300"  # a bound far above any load: the limit must stop it, not the test
put "$tmp/own" 91-one "$k/hang.cl" histogram.cl
start=$(date +%s)
C grade 91 --dir "$tmp/own" --seed 3 --timeout 1 --format json -o "$tmp/wall.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a wall-time limit stops a hanging kernel (${took}s)" "$tmp/wall.json" \
  "test('91-one', 'hidden.1')['status'] == 'timeout' and $took < 120"  # likewise

finish
