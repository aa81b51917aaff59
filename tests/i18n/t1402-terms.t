#!/bin/sh
# The Chinese texts (messages, lessons, hints) use the glossary's words, and the check catches a planted variant.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

if out=$(python3 "$root/scripts/check-terms.py" "$root" 2>&1); then ok "po/zh_CN.po, lesson.zh.md and lesson.ini use the glossary's Chinese terms"
else bad "po/zh_CN.po, lesson.zh.md and lesson.ini use the glossary's Chinese terms" "$(printf '%s\n' "$out" | head -n 30)"; fi

rm -rf "$tmp/c" && mkdir -p "$tmp/c/docs" && cp -R "$root/po" "$root/lessons" "$tmp/c/" && cp "$root/docs/glossary.md" "$tmp/c/docs/"
printf '\n多个工作项读连续地址，就是合并访存。\n' >> "$tmp/c/lessons/03-coalesced/lesson.zh.md"
line=$(wc -l < "$tmp/c/lessons/03-coalesced/lesson.zh.md")
if out=$(python3 "$root/scripts/check-terms.py" "$tmp/c" 2>&1); then bad "a lesson that says 合并访存 fails (the check passed)" "$out"
elif printf '%s\n' "$out" | grep -q "lessons/03-coalesced/lesson.zh.md:$line: uses '合并访存'"; then ok "a lesson that says 合并访存 fails, with its file and line"
else bad "a lesson that says 合并访存 fails, with its file and line" "$out"; fi

cp -R "$root/lessons" "$tmp/c/" 
sed -i 's/^zh\.1 = /zh.1 = 参考答案：/' "$tmp/c/lessons/02-atomic/lesson.ini"
if out=$(python3 "$root/scripts/check-terms.py" "$tmp/c" 2>&1); then bad "a hint that says 参考答案 fails (the check passed)" "$out"
elif printf '%s\n' "$out" | grep -q "lessons/02-atomic/lesson.ini:[0-9]*: uses '参考答案'"; then ok "a hint that says 参考答案 fails"
else bad "a hint that says 参考答案 fails" "$out"; fi

finish
