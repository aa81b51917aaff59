#!/bin/sh
# An author's new chapter in a checkout never run before: its untracked files stay in the course, where
# validate looks for them; only edits to chapters git knows move into the workspace.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a clone of the course in $tree, its program $tb, $ex

mkdir -p "$tree/lessons/10-new" "$tree/exercises/10-new" "$tree/kernels/10-new"
cp -R "$tree/lessons/01-serial/." "$tree/lessons/10-new/"
cp "$tree/exercises/01-serial/histogram.cl" "$tree/exercises/10-new/histogram.cl"
cp "$tree/kernels/01-serial/histogram.cl" "$tree/kernels/10-new/histogram.cl"
echo "/* my own attempt */" >> "$tree/$ex"   # and a learner's edit in the old layout
out=$(cd "$tmp" && "$tb" validate 10 --static 2>&1)
if [ -f "$tree/exercises/10-new/histogram.cl" ] && [ ! -e "$tree/workspace/exercises/10-new" ] &&
   ! printf '%s\n' "$out" | grep -q "starting file.*missing"; then
  ok "the new chapter's starting file stays in the course on the first run"
else bad "the new chapter's starting file stays in the course on the first run" "$out
$(ls -R "$tree/workspace/exercises" 2>&1 | head)"; fi
if grep -q "my own attempt" "$tree/workspace/$ex" && ! grep -q "my own attempt" "$tree/$ex"; then
  ok "an edit to a chapter git knows still moves into the workspace"
else bad "an edit to a chapter git knows still moves into the workspace"; fi

finish
