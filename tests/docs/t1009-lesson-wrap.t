#!/bin/sh
# The lessons' Markdown has one line-wrapping style (scripts/wrap-md.py), and the check catches an unwrapped paragraph.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

if out=$(python3 "$root/scripts/wrap-md.py" --check "$root"/lessons/*/lesson.*.md 2>&1); then ok "every lesson is wrapped at 80 columns"
else bad "every lesson is wrapped at 80 columns" "$out"; fi

mkdir -p "$tmp/l"
cp "$root/lessons/02-atomic/lesson.zh.md" "$tmp/l/a.md"
printf '\n%s\n' "这是一个很长的段落，它一直写下去，没有换行，直到远远超过八十列的宽度，这样检查就应该发现它没有按照统一的方式换行。" >> "$tmp/l/a.md"
if python3 "$root/scripts/wrap-md.py" --check "$tmp/l/a.md" > "$tmp/out" 2>&1; then bad "a long Chinese paragraph is caught" "$(cat "$tmp/out")"
else ok "a long Chinese paragraph is caught"; fi
python3 "$root/scripts/wrap-md.py" "$tmp/l/a.md"
if python3 "$root/scripts/wrap-md.py" --check "$tmp/l/a.md" > "$tmp/out" 2>&1; then ok "wrapping it once is enough (the style is stable)"
else bad "wrapping it once is enough (the style is stable)" "$(cat "$tmp/out")"; fi
if tail -n 3 "$tmp/l/a.md" | tr -d '\n' | grep -q '这是一个很长的段落，它一直写下去，没有换行，直到远远超过八十列的宽度，这样检查就应该发现它没有按照统一的方式换行。'; then
  ok "the wrapped Chinese reads the same once its lines are joined"
else bad "the wrapped Chinese reads the same once its lines are joined" "$(tail -n 3 "$tmp/l/a.md")"; fi

finish
