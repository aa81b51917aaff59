#!/bin/sh
# reset against the shipped starting file, a clean tree after it, and a new --workspace seeded from the course.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a clone of the course in $tree, its program $tb, $ex

# the learner's workspace in the checkout (a first run copies the starting file), with an edit
(cd "$tmp" && "$tb" run 2 --no-timing) >/dev/null 2>&1
echo "/* my own attempt */" >> "$tree/workspace/$ex"

expect "reset restores the starting file and keeps the edit" 0 'histogram.cl.bak' -- "$tb" reset 2
if grep -q "my own attempt" "$tree/workspace/$ex.bak" && cmp -s "$tree/workspace/$ex" "$tree/$ex"; then
  ok "the backup holds the edit, the file is the course's"; else bad "the backup holds the edit, the file is the course's"; fi
expect "a second reset has nothing to do" 0 'already is the starting file' -- "$tb" reset 2
st=$(git -C "$tree" status --porcelain)
[ -z "$st" ] && ok "still clean after reset" || bad "still clean after reset" "$st"

# a new --workspace is seeded from the course, not from the learner's files
echo "/* solved, I think */" >> "$tree/workspace/$ex"
"$tb" --workspace "$tmp/fresh" list >/dev/null 2>&1
"$tb" --workspace "$tmp/fresh" run 2 --no-timing >/dev/null 2>&1
if cmp -s "$tmp/fresh/$ex" "$tree/$ex"; then ok "a new workspace starts from the shipped starting file"
else bad "a new workspace starts from the shipped starting file" "$(diff "$tmp/fresh/$ex" "$tree/$ex")"; fi

finish
