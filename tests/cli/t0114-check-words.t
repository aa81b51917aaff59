#!/bin/sh
# cltutor check names each technique's figure in the learner's words and language, never by its metric's name,
# and the bound the chapter asks for beside it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

# chapter 5's kernel in chapter 6: correct and race-free, but its centroids are not in __constant memory
ch5="$root/kernels/05-local/histogram.cl"
expect "en: the figure in words" 1 \
  "FAIL technique .*Not met: share of loaded bytes broadcast from __constant memory = 0 .the chapter asks for at least 0.3.$" \
  -- "$bin" check 6 --kernel "$ch5"
printf '%s\n' "$out" | grep -q "constant_broadcasts" && bad "en: no metric name" "$out" || ok "en: no metric name"
printf '%s\n' "$out" | grep -q "The chapter asks for share of loaded bytes broadcast from __constant memory >= 0.3" &&
  ok "en: what the chapter asks for, in the same words" || bad "en: what the chapter asks for, in the same words" "$out"
expect "zh: the figure in words" 1 \
  "失败 技术 .*未达到：从 __constant 内存广播读取的字节占比 = 0（本章要求至少 0.3）$" \
  -- env LANGUAGE=zh_CN "$bin" check 6 --kernel "$ch5"
printf '%s\n' "$out" | grep -q "constant_broadcasts" && bad "zh: no metric name" "$out" || ok "zh: no metric name"
printf '%s\n' "$out" | grep -q "本章要求 从 __constant 内存广播读取的字节占比 >= 0.3" &&
  ok "zh: what the chapter asks for, in the same words" || bad "zh: what the chapter asks for, in the same words" "$out"
# machines keep the metric's name
json_check "json: the headline keeps the metric's name" \
  "any(i.get('headline','').startswith('Not met: constant_broadcasts = ') for i in j)" -- \
  "$bin" check 6 --kernel "$ch5" --json

finish
