#!/bin/sh
# A Chinese learner's starting files: the comments in Chinese (from the
# catalogue), the code as shipped, judged as the English files are.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

zh="$tmp/zh" en="$tmp/en"
ex=exercises/02-atomic/histogram.cl
CLTUTOR_WORKSPACE="$zh" LANGUAGE=zh_CN expect "reset in Chinese makes the starting file" 0 '已经是起始文件' -- "$bin" reset 2
CLTUTOR_WORKSPACE="$en" LANGUAGE=en expect "reset in English makes the starting file" 0 'already is the starting file' -- "$bin" reset 2
if grep -q '工作项' "$zh/$ex" && grep -q '/\* TODO 1: ' "$zh/$ex" && ! grep -q 'responsible for' "$zh/$ex"; then
  ok "the Chinese learner's comments are Chinese, the TODO markers kept"; else bad "the Chinese learner's comments" "$(head -20 "$zh/$ex")"; fi
cmp -s "$en/$ex" "$root/$ex" && ok "the English learner's file is the shipped one" || bad "the English learner's file differs from the shipped one"
code_only() { python3 -c 'import re,sys; s=open(sys.argv[1]).read(); s=re.sub(r"/\*.*?\*/|//[^\n]*", " ", s, flags=re.S); print(re.sub(r"\s+", " ", s))' "$1"; }
same=0 all=0
for chapter in 1 2 3 4 5 6 7 8 9; do
  CLTUTOR_WORKSPACE="$zh" LANGUAGE=zh_CN "$bin" reset "$chapter" >/dev/null 2>&1
done
for f in "$zh"/exercises/*/*.cl; do
  all=$((all + 1))
  [ "$(code_only "$f")" = "$(code_only "$root/${f#"$zh/"}")" ] && same=$((same + 1))
done
[ "$all" -eq 9 ] && [ "$same" -eq "$all" ] && ok "every Chinese starting file has the shipped code ($same of $all)" || bad "Chinese starting files with other code: $((all - same)) of $all"

CLTUTOR_WORKSPACE="$en" LANGUAGE=en "$bin" check 2 --json > "$tmp/en.json" 2>/dev/null
CLTUTOR_WORKSPACE="$zh" LANGUAGE=zh_CN json_check "the untouched Chinese file is judged as the English one" \
  "(lambda e: [(r.get('status'), r.get('correct'), r.get('size')) for r in j] == [(r.get('status'), r.get('correct'), r.get('size')) for r in e] and len(j) > 0)(json.load(open('$tmp/en.json')))" -- "$bin" check 2 --json
json_check "an untouched Chinese file is no attempt: the chapter is not changed" "j[1]['state'] in ('failing', 'not started')" -- env CLTUTOR_WORKSPACE="$zh" "$bin" list --json

# a solution under the Chinese comments passes the whole checklist (the race check, the policy, the model)
{ sed -n '1,/^ \*\//p' "$zh/$ex"; sed '1,/\*\/$/d' "$root/kernels/02-atomic/histogram.cl"; } > "$tmp/solved.cl"
grep -q '工作项' "$tmp/solved.cl" && grep -q 'atomic' "$tmp/solved.cl" || bad "the solved file was not made" "$(head -12 "$tmp/solved.cl")"
cp "$tmp/solved.cl" "$zh/$ex"
CLTUTOR_WORKSPACE="$zh" LANGUAGE=zh_CN expect "a solution with Chinese comments passes" 0 '[0-9]+ 项通过，0 项失败' -- "$bin" check 2 --timeout 60
CLTUTOR_WORKSPACE="$zh" LANGUAGE=zh_CN expect "reset in Chinese gives the Chinese starting file back" 0 'histogram.cl.bak' -- "$bin" reset 2
grep -q '工作项' "$zh/$ex" && ok "the reset file's comments are Chinese" || bad "the reset file's comments are not Chinese"

finish
