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

# The phrase slips: each planted in a fresh copy of the lessons, each must fail on its own line.
slip() {  # slip FILE TEXT WHAT: append TEXT to FILE in a fresh copy; the check must name FILE's last line and WHAT
  cp -R "$root/lessons" "$tmp/c/"
  printf '\n%s\n' "$2" >> "$tmp/c/$1"
  line=$(wc -l < "$tmp/c/$1")
  if out=$(python3 "$root/scripts/check-terms.py" "$tmp/c" 2>&1); then bad "$1 with '$2' fails (the check passed)" "$out"
  elif printf '%s\n' "$out" | grep -q "^$1:$line: .*'$3'"; then ok "$1 with '$2' fails, on its line"
  else bad "$1 with '$2' fails, on its line" "$out"; fi
}
rm -rf "$tmp/c/lessons"
slip lessons/07-bank-conflicts/lesson.zh.md '先打开初始文件，按 TODO 的顺序改。' '初始文件'
slip lessons/09-integral-image/lesson.zh.md '初始文件里的转置直接读写全局内存。' '初始文件'
slip lessons/03-coalesced/lesson.zh.md '测试规模不要取整数：行长写错，往往在 2 的幂上看不出来。' '不要取整数'
slip lessons/08-scan/lesson.zh.md 'Blelloch 的扫描是高效的：总共只做 O(n) 次加法。' '高效'
slip lessons/09-integral-image/lesson.zh.md '行扫描用的是第 8 章那种高效的扫描。' '高效'
slip lessons/05-local/lesson.zh.md '要同步两个工作组，只能结束内核，或者使用原子操作。' '结束内核，或者使用原子操作'
slip lessons/06-constant/lesson.zh.md '质心的读取本来就是一致的：编译器看得出一个线程束读同一个地址。' '编译器看得出'
slip lessons/03-coalesced/lesson.zh.md '全局内存流量从 34.6 MB 降到 5.2 MB，约为原来的六分之一。' '六分之一'
slip lessons/07-bank-conflicts/lesson.zh.md '原书内核的计数器布局与此不同。' '原书'

# ... and the right words pass: 工作高效 across a line break, 高效地 in the scan chapter.
cp -R "$root/lessons" "$tmp/c/"
printf '\nBlelloch 的树是工作\n高效的扫描，也能高效地用上局部内存。\n' >> "$tmp/c/lessons/08-scan/lesson.zh.md"
if out=$(python3 "$root/scripts/check-terms.py" "$tmp/c" 2>&1); then ok "工作高效 split by a line break, and 高效地, pass"
else bad "工作高效 split by a line break, and 高效地, pass" "$out"; fi

finish
