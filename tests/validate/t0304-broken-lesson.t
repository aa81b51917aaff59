#!/bin/sh
# A copy of chapter 3 with its texts or lesson.ini broken, one thing at a time: each fails with its reason.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

fresh
expect "an intact chapter passes" 0 '^0 passed|[1-9][0-9]* passed, 0 failed' -- v 3

fresh
rm "$tmp/course/lessons/03-coalesced/lesson.zh.md"
expect "a missing Chinese text fails" 1 'FAIL text' -- v 3 --static

fresh
: > "$tmp/course/lessons/03-coalesced/lesson.en.md"
expect "an empty English text fails" 1 'lesson.en.md is empty' -- v 3 --static

ini_case "a missing Chinese hint fails" 1 'zh.3 is missing' '/^zh\.3 = /,/^[a-z\[]/{/^zh\.3 = /d;/^    /d}'
ini_case "a missing required key fails" 1 "has no 'title_zh' key" '/^title_zh = /d'
ini_case "a size that does not parse fails" 1 "check_sizes '12x34x5'" 's/^check_sizes = .*/check_sizes = 1000x16 12x34x5/'
ini_case "an unknown problem fails" 1 'no such problem' 's/^problem = .*/problem = nosuch/'
ini_case "a later previous chapter fails" 1 'previous = 7' 's/^previous = .*/previous = 7/'
ini_case "a short title too wide for the bench table fails" 1 "short_title: .* has 37 characters; .cltutor bench. shows 24" 's/^short_title = .*/short_title = Coalesced reads of descriptors (GPU2)/'
ini_case "without short_title the title must fit" 0 '^  ok   metadata' '/^short_title = /d'
sed -i 's/^title = .*/title = Coalesced reads of the descriptors (GPU2)/' "$tmp/course/lessons/03-coalesced/lesson.ini"
expect "... and fails when it does not" 1 "short_title: 'Coalesced reads of the descriptors" -- v 3 --static

# a listing of its own in the copy, so that its hints are the only ones named
extra_listing() {
  fresh
  cp "$tmp/course/exercises/03-coalesced/histogram.cl" "$tmp/course/exercises/03-coalesced/bug-extra.cl"
  printf '\n[bug.extra]\nfile = bug-extra.cl\nexposes = 999x16\ntitle = t\ntitle_zh = t\n' >> "$tmp/course/lessons/03-coalesced/lesson.ini"
}
extra_listing
expect "a find-the-bug listing without hints fails" 1 '\[bug.extra\] 0 English hints: give at least 3' -- v 3 --static
extra_listing
for i in 1 2 3; do printf 'en.%s = Look at line %s.\nzh.%s = 看第 %s 行。\n' $i $i $i $i >> "$tmp/course/lessons/03-coalesced/lesson.ini"; done
out=$(v 3 --static 2>&1)
if printf '%s\n' "$out" | grep -q 'bug.extra'; then bad "a listing's hints are read from its section" "$out"; else ok "a listing's hints are read from its section"; fi
extra_listing
printf 'en.1 = Write hist[q * 7 + r] first.\nzh.1 = 先写 hist[q*7+r]。\nen.2 = b\nzh.2 = b\nen.3 = c\nzh.3 = c\n' >> "$tmp/course/lessons/03-coalesced/lesson.ini"
printf '/* hist[q*7 + r] */\n' >> "$tmp/course/exercises/03-coalesced/bug-extra.cl"
expect "a listing's hint that quotes code the listing has fails" 1 '\[bug.extra\] en.1 quotes hist\[q\*7\+r\], which bug-extra.cl already has' -- v 3 --static
expect "... in Chinese too" 1 '\[bug.extra\] zh.1 quotes hist\[q\*7\+r\]' -- v 3 --static
fresh
sed -i 's/^en\.1 = .*/en.1 = Try out_of_the_box[z + 1] now./' "$tmp/course/lessons/03-coalesced/lesson.ini"
printf '// out_of_the_box[ z+1 ]\n' >> "$tmp/course/exercises/03-coalesced/histogram.cl"
expect "a chapter hint that quotes code the starting file has fails, white space aside" 1 'en.1 quotes out_of_the_box\[z\+1\], which histogram.cl already has' -- v 3 --static
extra_listing
sed -i "s/^exposes = 999x16$/exposes = $(sed -n 's/^exposes = //p' "$tmp/course/lessons/03-coalesced/lesson.ini" | head -n 1)/" "$tmp/course/lessons/03-coalesced/lesson.ini"
expect "two listings exposed by the same input fail" 1 'are exposed by the same input' -- v 3 --static
ini_case "a line longer than inih reads is named as such" 64 "lesson.ini:[0-9]+: the line is longer than inih reads" "s/^en\.1 = /en.1 = $(printf '%0250d' 0) /"
ini_case "a bad hint key in a listing's section stops the chapter from loading" 64 "lesson.ini:[0-9]+: .*hint key 'en.x' should be en.N" '$a en.x = nope'

finish
