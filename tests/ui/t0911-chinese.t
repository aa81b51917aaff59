#!/bin/sh
# In Chinese, no English sentence on the results of any chapter: each chapter's failing starting file and passing reference, every results tab (and the GPU model for the passing one), the header and the status line; english_left.py names any English word left outside code, paths, options and names.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # start, screen, keys, wait_for

# words that may stay: the kernels' identifiers and the device's name
cat "$root"/exercises/*/*.cl "$root"/kernels/*/*.cl 2>/dev/null | grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u > "$tmp/allowed"
"$bin" devices --json 2>/dev/null | python3 -c 'import json,sys
for d in json.load(sys.stdin): print(d["name"].replace("-", " ").replace("(", " ").replace(")", " "), d["platform"])' | tr ' ' '\n' >> "$tmp/allowed"

# look NAME: the header, the results pane and the status line (120x40: rows 25-40) say nothing in English,
# once the course has finished what it was doing (a run's check comes after the run)
look() {
  idle 60
  sleep 0.2
  screen > "$tmp/screen"
  { sed -n 1p "$tmp/screen"; sed -n '25,40p' "$tmp/screen"; } > "$tmp/part"
  if out=$(python3 "$here/english_left.py" "$tmp/part" "$tmp/allowed"); then ok "Chinese: $1"
  else bad "Chinese: $1 (English left)"; printf '%s\n' "$out" | sed 's/^/#   /'; fi
}

start LANGUAGE=zh_CN
T resize-window -t ui -x 120 -y 40 >/dev/null 2>&1
n=$("$bin" list --json | python3 -c 'import json,sys; print(" ".join(str(c["number"]) for c in json.load(sys.stdin)))')
for ch in $n; do
  id=$("$bin" list --json | python3 -c "import json,sys; print([c['id'] for c in json.load(sys.stdin) if c['number']==$ch][0])")
  ex=$(ls "$root/exercises/$id/" | grep -v '^bug-' | head -n 1)
  keys "$ch"
  wait_for "$id" 10
  keys r
  wait_for "第 1 次运行" 60 || wait_for "第 " 5
  for t in 1 2 3 4 5; do keys "$t"; look "chapter $ch, its starting file, tab $t"; done
  cp "$root/kernels/$id/$ex" "$ws/exercises/$id/$ex"
  wait_for "第 2 次运行" 60
  for t in 1 2 3 4 5; do keys "$t"; look "chapter $ch, its reference, tab $t"; done
  keys 8
  wait_for "GPU 内存模型" 120
  look "chapter $ch, its reference, the GPU model"
  keys q
done

# L after an analysis: the GPU model's report and its comparison change language too, with no new analysis
start LANGUAGE=en
T resize-window -t ui -x 120 -y 40 >/dev/null 2>&1
keys 3
wait_for "03-coalesced" 10
cp "$root/kernels/03-coalesced/histogram.cl" "$ws/exercises/03-coalesced/histogram.cl"
keys r
wait_any 60 "Run 1" "Correct"
keys 8
if wait_for "GPU memory model of" 120; then ok "English first: the GPU model's report"; else bad "English first: the GPU model's report"; fi
keys L
if wait_for "GPU 内存模型" 10; then ok "after L: the report in Chinese"; else bad "after L: the report in Chinese" "$(screen)"; fi
look "chapter 3, the GPU model after L"
keys z G
sleep 1
if screen | grep -q "与第 2 章的参考"; then ok "after L: the comparison names chapter 2's reference in Chinese"
else bad "after L: the comparison in Chinese" "$(screen)"; fi
finish
