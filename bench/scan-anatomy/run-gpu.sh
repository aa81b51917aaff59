#!/bin/sh
# Everything scan-anatomy measures on one NVIDIA GPU, in one go: the ladder
# and grid through OpenCL, then each rung's PTX through the CUDA driver (its
# footprint, the driver's resident groups per SM, the time once more) and
# through Nsight Compute (achieved occupancy, DRAM throughput, stall reasons).
# Run from the repository root (or a copy of bench/ and kernels/):
#   sh bench/scan-anatomy/run-gpu.sh [scan-anatomy options, e.g. --try FILE:OPTS]
# Writes anatomy.txt, between.txt, cuda.txt, ncu.txt, ncu-stalls.txt,
# sass-e.txt and ptx.tgz into $OUT (default /tmp/scan-anatomy-out).
# With CLTUTOR_DATA set to a cltutor checkout and a cltutor binary at
# $CLTUTOR_BIN (its libraries in $CLTUTOR_LIB), between.txt also holds
# cltutor's own bench 8 and run 8 on the same kernel, for comparison.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-/tmp/scan-anatomy-out}
start=$(date +%s)
n=${ANATOMY_ELEMENTS:-67108864}   # elements (a smaller count for a trial run on a CPU)
left() { echo $(( ${1} - ($(date +%s) - start) )); }
mkdir -p "$out" /tmp/icd
if [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] && [ -z "${OCL_ICD_VENDORS:-}" ]; then
    echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/icd
fi
ptxas=$(ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
gcc -O2 -std=c11 -o /tmp/scan-anatomy "$here/anatomy.c" -lOpenCL || exit 1
gcc -O2 -std=c11 -o /tmp/ptxrun "$here/ptxrun.c" -ldl || exit 1
cd "$root" || exit 1
rm -rf /tmp/ptx
px=""; [ -n "$ptxas" ] && px="--ptxas $ptxas"

{
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    echo "GPU, driver, max SM and memory clocks: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
    echo "ptxas: ${ptxas:-none} ($([ -n "$ptxas" ] && "$ptxas" --version 2>&1 | tail -1))"
    echo "command: sh bench/scan-anatomy/run-gpu.sh $*"
    echo "  which runs: scan-anatomy --grid --big-copy --elements $n --ptx /tmp/ptx $px $*"
    echo
    timeout 300 /tmp/scan-anatomy --grid --big-copy --elements $n --ptx /tmp/ptx $px "$@"
    echo "rc=$?"
} 2>&1 | tee "$out/anatomy.txt"

# What happens between two launches: back to back (above), the output read
# back (as cltutor run does after every launch), or the device idle.
{
    for mode in read sleep:50 sleep:5; do
        echo "\$ scan-anatomy --rungs abce --runs 20 --between $mode"
        timeout 120 /tmp/scan-anatomy --rungs abce --runs 20 --elements $n --between $mode
        echo "rc=$?"
        echo
    done
    if [ -n "${CLTUTOR_DATA:-}" ] && [ -x "${CLTUTOR_BIN:-}" ]; then
        export CLTUTOR_DATA NO_COLOR=1 CLTUTOR_WORKSPACE=/tmp/ws LD_LIBRARY_PATH="${CLTUTOR_LIB:-}"
        for k in kernels/08-scan/lookback.cl ${CLTUTOR_ALSO:-}; do   # CLTUTOR_ALSO: other kernel files
            for c in "bench 8" "run 8 --kernel $k --size 64M" "run 8 --kernel $k --size 64M"; do
                [ "$c" = "bench 8" ] && [ "$k" != kernels/08-scan/lookback.cl ] && continue
                echo "\$ cltutor $c --device nvidia"
                timeout 120 "$CLTUTOR_BIN" $c --device nvidia 2>&1 | grep -v "^$"
                echo
            done
        done
    fi
} 2>&1 | tee "$out/between.txt"

# The same PTX through the CUDA driver: what it says of each, and its time.
{
    echo "Each rung's PTX (as NVIDIA's OpenCL driver compiled it) loaded by the CUDA driver:"
    echo "its footprint, cuOccupancyMaxActiveBlocksPerMultiprocessor, and its time (CUDA events)."
    for f in /tmp/ptx/0[0-5]-*.ptx /tmp/ptx/*try*.ptx /tmp/ptx/*grid-e*.ptx; do
        [ -e "$f" ] || continue
        [ "$(left 420)" -gt 60 ] || { echo "(out of time: the rest not run)"; break; }
        k=scan_lookback; case $f in *a-copy*) k=copy ;; esac
        c=""; case $f in *e-full* | *e-anatomy4* | *grid-e* | *try*) c=check ;; esac
        timeout 60 /tmp/ptxrun "$f" $k $n 20 $c 2>&1
    done
} 2>&1 | tee "$out/cuda.txt"

# Nsight Compute on the ladder's rungs, the full kernel first, then the tries.
if [ -n "$ncu" ]; then
    {
        echo "$ncu --clock-control none, on the 4th launch of each rung (after 3 warm-up launches)"
        for f in /tmp/ptx/04-e-full.ptx /tmp/ptx/00-a-copy.ptx /tmp/ptx/01-b-loadstore.ptx /tmp/ptx/02-c-tilescan.ptx \
            /tmp/ptx/03-d-publish.ptx /tmp/ptx/*try*.ptx; do
            [ -e "$f" ] || continue
            [ "$(left 420)" -gt 90 ] || { echo "(out of time: the rest not profiled)"; break; }
            k=scan_lookback; case $f in *a-copy*) k=copy ;; esac
            echo "=== $f"
            timeout 90 "$ncu" --clock-control none -k "$k" --launch-skip 3 --launch-count 1 \
                --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
                --section MemoryWorkloadAnalysis /tmp/ptxrun "$f" $k $n 1
        done
    } > "$out/ncu.txt" 2>&1
    grep -E "^===|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Waves Per SM|Warp Cycles Per Issued" "$out/ncu.txt"
    if [ "$(left 420)" -gt 60 ]; then
        for f in /tmp/ptx/04-e-full.ptx /tmp/ptx/01-b-loadstore.ptx; do
            echo "=== $f"
            timeout 60 "$ncu" --clock-control none -k scan_lookback --launch-skip 3 --launch-count 1 \
                --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:smsp__average_warp_latency_issue_stalled_.*\.ratio" \
                /tmp/ptxrun "$f" scan_lookback $n 1
        done > "$out/ncu-stalls.txt" 2>&1
    fi
fi

if [ -n "$cuobjdump" ] && [ -n "$ptxas" ] && [ -e /tmp/ptx/04-e-full.ptx ]; then
    "$ptxas" -arch=sm_90 /tmp/ptx/04-e-full.ptx -o /tmp/e.cubin && "$cuobjdump" -sass /tmp/e.cubin > "$out/sass-e.txt" 2>&1
fi
tar -czf "$out/ptx.tgz" -C /tmp ptx 2>/dev/null
echo "done in $(( $(date +%s) - start )) s"
