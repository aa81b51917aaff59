#!/bin/sh
# cltutor asm: a chapter's kernel compiled for NVIDIA PTX with clang and
# libclc, no GPU: chapter 4's reference reads its centroid in one 16-byte
# load and its descriptors in 4-byte ones; the same centroid read with vload4
# from a float pointer is four 4-byte loads; a build error names the learner's
# file and line; a missing compiler or libclc says what to install; a crashing
# compiler is named as the fault; 64-bit atomics compile as on NVIDIA.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
export CLTUTOR_WORKSPACE="$tmp/ws"
ref="$root/kernels/04-float4/histogram.cl"
line=$(grep -n 'x - centroid\[k / 4\]' "$ref" | cut -d: -f1)
[ -n "$line" ] || bad "chapter 4's reference reads its centroid as centroid[k / 4] (update this test)"

expect "asm 4 --solution: the centroid's float4 read is one 16-byte load" 0 \
  "^ +$line +global load +16 +ld\.global\.v4\.f32$" -- "$bin" asm 4 --solution
printf '%s\n' "$out" | grep -Eq "^ +[0-9]+ +global load +4 +ld\.global\.f32" &&
  ok "asm 4 --solution: the descriptors' loads are 4 bytes each" || bad "asm 4 --solution: 4-byte descriptor loads" "$out"
printf '%s\n' "$out" | grep -q "global memory: 5 loads, 0 stores, 1 atomics; barriers: 0" &&
  ok "asm 4 --solution: the totals" || bad "asm 4 --solution: the totals" "$out"

# the same kernel, the centroid read with vload4 from a float pointer: no 16-byte load on that line
sed "${line}s|centroid\[k / 4\]|vload4(k / 4, (__global const float *)centroid)|" "$ref" > "$tmp/vload4.cl"
expect "a vload4 from a float pointer: four 4-byte loads on its line" 0 \
  "^ +$line +global load +4 +ld\.global\.f32 +x4$" -- "$bin" asm 4 --kernel "$tmp/vload4.cl"
printf '%s\n' "$out" | grep -q "ld.global.v4" && bad "a vload4 from a float pointer: no vector load" "$out" ||
  ok "a vload4 from a float pointer: no vector load"

expect "--json: the instructions with their lines and widths" 0 "" -- "$bin" asm 4 --solution --json
printf '%s' "$out" | python3 -c "
import json, sys
o = json.load(sys.stdin)
m = o['kernels'][0]['memory']
assert o['lesson'] == '04-float4' and o['target'] == 'nvptx64-nvidia-nvcl', o
assert any(a['line'] == $line and a['bytes'] == 16 and a['vector'] == 4 and a['space'] == 'global' for a in m), m
assert any(a['op'] == 'atomic' and a['space'] == 'global' for a in m), m
" 2> "$tmp/json.err" && ok "--json: parses, the 16-byte load and the atomic in it" || bad "--json" "$(cat "$tmp/json.err")"
expect "--ptx: the whole PTX" 0 "\.entry histogram\(" -- "$bin" asm 4 --solution --ptx

# chapter 7: local atomics and barriers are counted too
expect "asm 7 --solution: local atomics and two barriers" 0 "barriers: 2$" -- "$bin" asm 7 --solution
printf '%s\n' "$out" | grep -Eq "local atomic +4 +atom\.shared\.add\.u32" && ok "asm 7: local atomics listed" ||
  bad "asm 7: local atomics listed" "$out"

# a build error: the learner's file and line, never the scratch copy's path
printf '__kernel void histogram(__global int *h) {\n  h[0] = undefined_name;\n}\n' > "$tmp/broken.cl"
expect "a kernel that does not compile: exit 2, the file and line" 2 "$tmp/broken.cl:2:.*undefined_name" -- \
  "$bin" asm 4 --kernel "$tmp/broken.cl"
printf '%s\n' "$out" | grep -q "cltutor-worker-" && bad "the build error names no scratch path" "$out" ||
  ok "the build error names no scratch path"

# chapter 9's reference (clang 15 crashed on it with line tables) and the look-back scan's 64-bit atomics
expect "asm 9 --solution: compiles, its row scan listed" 0 "^kernel row_scan_bytes$" -- "$bin" asm 9 --solution
expect "asm 8 on the look-back scan: its 64-bit status words are atomics" 0 \
  "global atomic +8 +call atom_xchg" -- "$bin" asm 8 --kernel "$root/kernels/08-scan/lookback.cl"

# a compiler that crashes: said to be the compiler's fault, not a build error of the kernel
printf '#!/bin/sh\necho "PLEASE submit a bug report to https://example.org/ and include the crash backtrace" >&2\nkill -SEGV $$\n' \
  > "$tmp/crashing-clang"
chmod +x "$tmp/crashing-clang"
expect "a crashing clang: exit 69, its fault named" 69 "crashing-clang crashed while compiling .*histogram.cl: a fault of that compiler, not a build error" -- \
  env CLTUTOR_CLANG="$tmp/crashing-clang" "$bin" asm 4 --solution
printf '%s\n' "$out" | grep -q "does not compile" && bad "a crashing clang: not called a build error" "$out" ||
  ok "a crashing clang: not called a build error"

# what is missing, and what to install
expect "no clang: exit 69, says which variable names one" 69 "CLTUTOR_CLANG=/nonexistent/clang is not a program" -- \
  env CLTUTOR_CLANG=/nonexistent/clang "$bin" asm 4 --solution
expect "no libclc: exit 69, says what to install" 69 "apt-get install libclc-15" -- \
  env CLTUTOR_LIBCLC=/nonexistent/nvptx.bc "$bin" asm 4 --solution
expect "a --kernel that does not exist" 64 "no such file" -- "$bin" asm 4 --kernel "$tmp/none.cl"
expect "no chapter" 64 "which chapter" -- "$bin" asm
expect "--kernel and --solution together" 64 "cannot be used together" -- "$bin" asm 4 --solution --kernel "$ref"
expect "--ptx and --json together" 64 "cannot be used together" -- "$bin" asm 4 --solution --ptx --json
expect "an unknown chapter" 64 "" -- "$bin" asm 42
expect "--help" 0 "^Usage: cltutor asm LESSON" -- "$bin" asm --help

# --device: the device's own driver compiles it in a worker; only NVIDIA's gives PTX (its runs on an H200 are in
# docs/results/ptx/asm-driver-nvidia-h200.txt), so here (PoCL) it says so, and what to use instead
expect "--device on PoCL: exit 69, no PTX from its compiler, clang's without --device" 69 \
  "gives no PTX: its compiler's program binary \([0-9]+ bytes\) is a format of its own.*Without --device" -- \
  "$bin" asm 4 --solution --device 0
expect "--device naming no device: exit 69, says where to look" 69 "matches no device.*cltutor devices" -- \
  "$bin" asm 4 --solution --device no-such-gpu
expect "--device with a kernel that does not build there: exit 2, the file and line" 2 \
  "does not build on that device:|$tmp/broken.cl:2:.*undefined_name" -- "$bin" asm 4 --kernel "$tmp/broken.cl" --device 0
printf '%s\n' "$out" | grep -q "$tmp/broken.cl:2:" && ok "--device build error: the learner's file and line" ||
  bad "--device build error: the learner's file and line" "$out"
"$bin" asm 4 --solution --json > "$tmp/clang.json" 2>&1
python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
assert j['compiled_by'] == 'clang' and 'device' not in j, j
" "$tmp/clang.json" 2> "$tmp/by.err" && ok "--json says which compiler made the PTX (clang, no device)" ||
  bad "--json says which compiler made the PTX" "$(cat "$tmp/by.err")"
expect "in Chinese" 0 "NVIDIA PTX" -- env LANGUAGE=zh_CN LANG=C.UTF-8 "$bin" asm 4 --solution

finish
