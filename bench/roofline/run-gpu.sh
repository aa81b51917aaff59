#!/bin/sh
# run-gpu.sh OUT [N...]: chapters 2, 3 and 4's kernels, ported to CUDA
# (surf.cu), timed and measured by Nsight Compute on one NVIDIA GPU, with
# 256 centroids of 64 features and N descriptors (default: the bench size,
# 262144, then 131072, whose descriptors fit in an H200's L2): the bytes
# each level of the memory hierarchy moved (DRAM, L2, L1), the FP32
# instructions, and each level's peak as Nsight Compute knows it.
# Run from the repository root; writes into OUT:
#   roofline-ncu.txt  per size, the times, then one block of metrics per kernel
#   ncu-full.txt      `ncu --set full` on each kernel at the first size
# bench/lessons/roofline.py reads roofline-ncu.txt
# (docs/results/lessons/roofline-ncu-nvidia-h200.txt is one such run).
set -u
out=${1:?usage: run-gpu.sh OUT [N...]}
shift
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
nvcc=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc 2>/dev/null | head -1)
sizes=${*:-262144 131072}
nvcc_v=$("$nvcc" --version | tail -1)
"$nvcc" -O3 -arch=sm_90 -o /tmp/surf "$here/surf.cu" || exit 1

metrics="gpu__time_duration.sum
dram__bytes_read.sum
dram__bytes_write.sum
lts__t_sectors_srcunit_tex_op_read.sum
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum
l1tex__m_xbar2l1tex_read_bytes.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
sm__warps_active.avg.pct_of_peak_sustained_active
smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
dram__bytes.sum.peak_sustained
dram__cycles_elapsed.avg.per_second
lts__t_bytes.sum.peak_sustained
lts__cycles_elapsed.avg.per_second
l1tex__t_bytes.sum.peak_sustained
l1tex__cycles_elapsed.avg.per_second
sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained
sm__cycles_elapsed.avg.per_second
dram__throughput.avg.pct_of_peak_sustained_elapsed
lts__throughput.avg.pct_of_peak_sustained_elapsed
l1tex__throughput.avg.pct_of_peak_sustained_active
breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active
breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed"

# An unknown metric name stops ncu: where the whole list fails, keep the
# names this ncu lists (--query-metrics) and say which were left out.
all=$(echo $metrics | tr ' ' ',')
"$ncu" --query-metrics --csv 2>/dev/null | cut -d, -f1 | tr -d '"' > /tmp/known-metrics
known=""; unknown=""
for m in $metrics; do
    if grep -qx "${m%%.*}" /tmp/known-metrics; then known="$known${known:+,}$m"; else unknown="$unknown $m"; fi
done
prof() {   # prof KERNEL METRICS
    timeout 300 "$ncu" --clock-control none --print-units base -k "$1" --launch-skip 3 --launch-count 1 \
        --metrics "$2" /tmp/surf $size 4 > /tmp/prof.txt 2>&1
    rc=$?
    grep -v '^==PROF==' /tmp/prof.txt | grep -v '^[a-z ]*:\|^chapter\|^kernel\|^check'
    echo "rc=$rc"
    return $rc
}

{
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    echo "GPU, driver, max SM and memory clocks: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
    echo "nvcc: $nvcc_v"
    echo "ncu: $("$ncu" --version 2>&1 | tail -1)"
    echo "command: sh bench/roofline/run-gpu.sh OUT"
    echo
    for n in $sizes; do
        size="$n 256 64"
        echo "\$ nvcc -O3 -arch=sm_90 -o surf bench/roofline/surf.cu && ./surf $size 20"
        /tmp/surf $size 20
        echo "rc=$?"
        for k in gpu1 gpu2 gpu3; do
            echo
            echo "\$ ncu --clock-control none --print-units base -k $k --launch-skip 3 --launch-count 1 --metrics METRICS ./surf $size 4"
            if ! prof $k "$all"; then
                echo "(the whole list failed: again with the metrics ncu --query-metrics lists; left out:${unknown:- none})"
                prof $k "$known"
            fi
        done
        echo
    done
} 2>&1 | tee "$out/roofline-ncu.txt"

size="${sizes%% *} 256 64"
{
    for k in gpu1 gpu2 gpu3; do
        echo "\$ ncu --set full --clock-control none -k $k --launch-skip 3 --launch-count 1 ./surf $size 4"
        timeout 300 "$ncu" --set full --clock-control none -k "$k" --launch-skip 3 --launch-count 1 /tmp/surf $size 4 \
            > /tmp/full.txt 2>&1
        rc=$?
        # surf's own lines: its times under the profiler, which replays the launch, mean nothing
        grep -v '^==PROF==\|^[a-z ]*:\|^chapter\|^kernel\|^check' /tmp/full.txt
        echo "rc=$rc"
        echo
    done
} > "$out/ncu-full.txt" 2>&1
grep -E "^\\\$|Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per" "$out/ncu-full.txt"
