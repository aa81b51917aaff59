#!/bin/sh
# An assignment's own weights (--weights): groups' points over every chapter graded, each chapter still worth 100,
# a group a chapter lacks taking nothing; a test's id or a malformed list is refused with what to write.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

# points of GROUP (a test id's prefix: technique, fix, ...) in chapter N's plan, and the chapter's total
plan() { "$bin" grade "$1" --plan --seed 5 ${2:+--weights "$2"} 2>&1; }
points() { awk -v g="$2" '$1 ~ /^[0-9.]+$/ && (g == "" || index($2, g) == 1) { s += $1 } END { printf "%.0f\n", s }' "$1"; }  # the plan shows 2 decimals

plan 3 "tests:50 technique:50 fixes:0" > "$tmp/p3"
t=$(points "$tmp/p3" technique) f=$(points "$tmp/p3" fix.) all=$(points "$tmp/p3" "")
[ "$t" = "50" ] && [ "$f" = "0" ] && [ "$all" = "100" ] &&
  ok "chapter 3 with tests:50 technique:50 fixes:0: technique 50, fixes 0, 100 in all" ||
  bad "chapter 3's points with --weights" "technique $t, fixes $f, all $all"
plan 3 > "$tmp/p3d"
t=$(points "$tmp/p3d" technique) f=$(points "$tmp/p3d" fix.)
[ "$t" = "30" ] && [ "$f" = "10" ] && ok "without --weights, the course's: technique 30, fixes 10" ||
  bad "chapter 3's default points" "technique $t, fixes $f"

# chapter 1 has no technique check: the 40 points named for it go nowhere, the tests keep 100
plan 1 "technique:40" > "$tmp/p1"
all=$(points "$tmp/p1" "")
[ "$all" = "100" ] && ok "a group a chapter lacks takes nothing from it: chapter 1 still 100" ||
  bad "chapter 1 with technique:40" "all $all"

expect "a test's id is refused: its points belong in lesson.ini" 64 "--weights: 'odd' is not a group of tests" -- \
  "$bin" grade 3 --plan --weights "odd:5"
expect "a malformed list is refused with an example" 64 "'technique' is not NAME:POINTS \(for example" -- \
  "$bin" grade 3 --plan --weights "technique"
expect "negative points are refused" 64 "'tests:-5' is not NAME:POINTS" -- "$bin" grade 3 --plan --weights "tests:-5"
expect "in Chinese too" 64 "不是测试分组" -- env LANGUAGE=zh_CN "$bin" grade 3 --plan --weights "odd:5"
expect "--help names it" 0 "--weights LIST" -- "$bin" grade --help

# a real grade: chapter 3's reference and fixed listing get the full 100 under the assignment's weights
put "$tmp/s" 03-coalesced "$root/kernels/03-coalesced/histogram.cl"
put "$tmp/s" 03-coalesced "$here/fixes/03-coalesced/bug-row-length.cl" bug-row-length.cl
"$bin" grade 3 --dir "$tmp/s" --seed 5 --weights "tests:70 technique:20 fixes:10" --format json -o "$tmp/g.json" 2>/dev/null
got=$(python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
tech = sum(t["max_score"] for c in j["chapters"] for t in c["tests"] if t["id"].startswith("technique"))
print("%g %g %.0f" % (j["score"], j["max_score"], tech))' "$tmp/g.json" 2>&1)
[ "$got" = "100 100 20" ] && ok "graded with --weights: 100 of 100, 20 of them technique" || bad "a grade with --weights" "$got"
finish
