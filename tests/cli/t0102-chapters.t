#!/bin/sh
# cltutor list (text and JSON) and the ways to name a chapter.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

expect "list" 0 'Atomic histogram' -- "$bin" list
out=$("$bin" list 2>&1)
cols=$(printf '%s\n' "$out" | awk '/(not started|failing|passed) /{ print index($0, "not started") + index($0, "failing") + index($0, "passed") }' | sort -u | wc -l)
if [ "$cols" -eq 1 ] && printf '%s\n' "$out" | grep -q "edit $CLTUTOR_WORKSPACE/exercises/01-serial/histogram.cl"; then
  ok "list: one state column for every title, the exercise's full path"
else bad "list: one state column for every title, the exercise's full path" "$out"; fi
json_check "list --json" "j[0]['number']==1 and j[1]['id']=='02-atomic' and j[0]['next']" -- "$bin" list --json
expect "lookup by number" 0 'Chapter 2: Atomic' -- "$bin" run 2 --solution --no-timing --size 200x8
expect "lookup by zero-padded number" 0 'Chapter 2: Atomic' -- "$bin" run 02 --solution --no-timing --size 200x8
expect "lookup by folder name" 0 'Chapter 2: Atomic' -- "$bin" run 02-atomic --solution --no-timing --size 200x8
expect "lookup by slug" 0 'Chapter 1: Serial' -- "$bin" run serial --solution --no-timing --size 200x8
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" run 99

finish
