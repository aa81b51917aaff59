#!/bin/sh
# What the simulator finds reaches a Chinese learner in Chinese: Oclgrind's race and
# invalid-access headings are turned into the program's own sentences (translated),
# not quoted in English inside Chinese ones.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
export CLTUTOR_WORKSPACE="$tmp/ws" CLTUTOR_RESULT_CACHE=off
# chapter 2's reference with its atomic taken out: a read-write race on the histogram
sed 's/atomic_inc(&histogram\[nearest\])/histogram[nearest]++/; s/atomic_add(&histogram\[nearest\], 1)/histogram[nearest]++/' \
  "$root/kernels/02-atomic/histogram.cl" > "$tmp/racy.cl"
grep -q 'histogram\[nearest\]++' "$tmp/racy.cl" || bad "the racy kernel (the reference changed?)"
LANGUAGE=zh_CN LANG=C.UTF-8 "$bin" check 2 --kernel "$tmp/racy.cl" > "$tmp/zh.out" 2>&1
if grep -q "全局内存上的读-写数据竞争" "$tmp/zh.out" && ! grep -q "data race" "$tmp/zh.out"; then
  ok "check in Chinese: the race is named in Chinese, with no English heading of the simulator's"
else bad "check in Chinese: the race named in Chinese" "$(grep -A2 '竞争检查' "$tmp/zh.out")"; fi
"$bin" check 2 --kernel "$tmp/racy.cl" > "$tmp/en.out" 2>&1
grep -q "Read-write data race in global memory" "$tmp/en.out" && ok "check in English: the same race in the program's words" \
  || bad "check in English: the race named" "$(grep -A2 'race check' "$tmp/en.out")"
finish
