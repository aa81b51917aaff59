#!/bin/sh
# Two users timing one GPU: alone, at once through the queue, at once without
# it; and doctor. Each user has a HOME and workspace of their own.
#   CH=1 OUT=DIR sh docs/results/lab-queue/run.sh     (CLTUTOR: the program, default build/cltutor)
# The NVIDIA driver's OpenCL library is registered beside the system's ICDs.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mkdir -p /tmp/icd && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd CLTUTOR_DATA="$root" NO_COLOR=1
B="${CLTUTOR:-$root/build/cltutor}"
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/uA /tmp/uB
ch=${CH:-3}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$B" devices; } > "$out/device.txt" 2>&1
HOME=/tmp/uA CLTUTOR_WORKSPACE=/tmp/wsA "$B" doctor > "$out/doctor.txt" 2>&1; echo "rc=$?" >> "$out/doctor.txt"
printf '[device]\ndefault = nvidia\n[timing]\nbudget_s = 3\nqueue_dir = /tmp/q\n' > /tmp/q.conf
printf '[device]\ndefault = nvidia\n[timing]\nbudget_s = 3\nqueue = no\n' > /tmp/nq.conf
user() { # user NAME CONF FILE
  { date +%s.%N; HOME=/tmp/u$1 CLTUTOR_CONFIG=$2 CLTUTOR_WORKSPACE=/tmp/ws$1 "$B" run "$ch" --solution ${SIZE:+--size $SIZE}; echo "rc=$?"; date +%s.%N; } > "$3" 2>&1
}
user A /tmp/q.conf "$out/warm.txt"
user B /tmp/q.conf "$out/warm-B.txt"
for i in 1 2 3; do user A /tmp/q.conf "$out/alone-$i.txt"; done
for i in 1 2 3; do
  user A /tmp/q.conf "$out/queued-$i-A.txt" & sleep ${STAGGER:-0.2}; user B /tmp/q.conf "$out/queued-$i-B.txt"; wait
  user A /tmp/nq.conf "$out/unqueued-$i-A.txt" & sleep ${STAGGER:-0.2}; user B /tmp/nq.conf "$out/unqueued-$i-B.txt"; wait
done
cd "$out" && for f in alone-* queued-* unqueued-*; do printf '%-22s %s %s\n' "$f" "$(grep -o 'median *[0-9.]* [mu]*s ' "$f" | tr -s ' ')" "$(grep -o 'Timing (kernel, [0-9]* runs'  "$f" | sed 's/Timing (kernel, //'), $(grep -o 'standard error [0-9.]*%' "$f")$(grep -q waiting "$f" && echo ', waited its turn')"; done > summary.txt
mkdir -p keep && mv *.txt keep/ && mv keep/summary.txt keep/device.txt keep/doctor.txt . && tar czf runs.tar.gz keep && rm -rf keep; cat summary.txt
