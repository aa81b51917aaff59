#!/bin/sh
# cltutor bench: the machine's limits, the references' times, the table's rows.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

json_check "bench --json measures limits and a reference" "j['limits']['copy_gb_per_s']>0 and j['limits']['fp32_gflop_per_s']>0 and j['chapters'][0]['status']=='pass' and j['chapters'][0]['median_ms']>0 and j['chapters'][0]['openmp_ms']>0" -- "$bin" bench 2 --budget 0.2 --json
expect "bench text table" 0 'Limits: +copy [0-9.]+ GB/s' -- "$bin" bench 1 --budget 0.2
out=$("$bin" bench 7 --budget 0.2 2>/dev/null)
if printf '%s\n' "$out" | grep -Eq '^7 +Byte histogram, padded +16M:uniform +[0-9.]+ ms' &&
   printf '%s\n' "$out" | grep -Eq '^7\+ +bin-major, no conflicts +16M:uniform' &&
   printf '%s\n' "$out" | grep -Eq '^7 +Byte histogram, padded +16M:equal +[0-9.]+ ms' &&
   printf '%s\n' "$out" | grep -Eq '^7\+ +bin-major, no conflicts +16M:equal +[0-9.]+ ms' &&
   [ "$(printf '%s\n' "$out" | awk '/^(#|[0-9])/ { if (length($0) > w) w = length($0) } END { print w }')" -le 120 ]; then
  ok "bench rows: short titles, sizes in M, each of bench_inputs, the table at most 120 columns"
else bad "bench rows: short titles, sizes in M, at most 120 columns (the device's own name may be longer)" "$out"; fi
# bench times a ring of instances back to back, as the copy; each is checked after the series
mkdir -p "$tmp/cc"
cp -R "$root/lessons" "$root/kernels" "$root/exercises" "$root/bench" "$tmp/cc/"
sed -i '$d' "$tmp/cc/kernels/08-scan/lookback.cl"
printf '    if (epoch > 1 && tile == 0 && lid == 0)\n        out[0] += 1;   /* right the first time only */\n}\n' \
  >> "$tmp/cc/kernels/08-scan/lookback.cl"
out=$(CLTUTOR_DATA="$tmp/cc" "$bin" bench 8 --budget 0.2 --no-peers 2>&1); rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -Eq '^8 +Blelloch scan +4M:random +[0-9.]+ ms' &&
   printf '%s\n' "$out" | grep -q '^8+ .*Timed launch wrong: After the timed series, instance 1 of 3'; then
  ok "bench: a kernel right on its first launch only is caught after the series"
else bad "bench: a kernel right on its first launch only is caught after the series" "rc=$rc $out"; fi
expect "bench of an unknown chapter" 64 "no chapter '42'" -- "$bin" bench 42

finish
