#!/bin/sh
# The GPU model tab ends with the kernel compiled for NVIDIA PTX (clang and
# libclc, as `cltutor asm` lists it): chapter 4's centroid read is one
# 16-byte load on its own line, in English and in Chinese; without clang the
# section says what to install.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, idle, the fake editor, $ws

ex4="$ws/exercises/04-float4/histogram.cl"
ref="$root/kernels/04-float4/histogram.cl"
line=$(grep -n 'x - centroid\[k / 4\]' "$ref" | cut -d: -f1)
mkdir -p "$(dirname "$ex4")"
cp "$ref" "$ex4"
# the report's end: the results pane zoomed, scrolled down
report_end() {
  n=0
  while [ $n -lt 3 ] && ! screen | grep -q "▶ 1 "; do keys Tab; n=$((n + 1)); done
  keys z
  for i in 1 2 3 4 5 6 7 8 9 10; do keys NPage; done
}

start LANGUAGE=en
keys 4
check "chapter 4 opens" "histogram.cl"
keys 8
idle 120
report_end
check "the GPU model tab ends with the compiled code" "Compiled for NVIDIA PTX (clang and libclc"
screen | grep -Eq "^ +$line +global load, 16 bytes a work-item: ld\.global\.v4\.f32" &&
  ok "the centroid's float4 read: one 16-byte load on line $line" || bad "the centroid's float4 read: one 16-byte load on line $line"
screen | grep -Eq "global load, 4 bytes a work-item: ld\.global\.f32" && ok "the descriptors: 4-byte loads" ||
  bad "the descriptors: 4-byte loads"
keys z
keys L
for i in 1 2 3 4 5 6 7 8 9 10; do keys NPage; done
keys z
check "in Chinese: the section's heading" "编译为 NVIDIA PTX 后的样子"
screen | grep -Eq "全局读取，每个工作项 16 字节：ld\.global\.v4\.f32" && ok "in Chinese: the 16-byte load" ||
  bad "in Chinese: the 16-byte load"

# no clang: the section says what to install, the rest of the report stands (in Chinese: the language chosen above stays)
start LANGUAGE=en CLTUTOR_CLANG=/nonexistent/clang
keys 4
keys 8
idle 120
report_end
check "without clang: the section names the missing program" "编译为 NVIDIA PTX" "CLTUTOR_CLANG=/nonexistent/clang 不是可以运行的程序"
check "without clang: the simulator's report is still there" "Oclgrind 没有发现内存错误"
finish
