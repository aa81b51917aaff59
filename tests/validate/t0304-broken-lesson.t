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

finish
