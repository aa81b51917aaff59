#!/bin/sh
# The first run moves edits made in the checkout's own exercises/ (the old layout) into workspace/, once.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a clone of the course in $tree, its program $tb, $ex

# an edit and progress inside the checkout itself
echo "/* my own attempt */" >> "$tree/$ex"
echo "scratch notes" > "$tree/exercises/02-atomic/notes.txt"
mkdir -p "$tree/.cltutor"
printf '{"last":"02-atomic","chapters":{"02-atomic":{"state":"failing","hints_seen":2,"runs":[]}}}' > "$tree/.cltutor/progress.json"
out=$(cd "$tmp" && "$tb" list 2>&1)
if printf '%s\n' "$out" | grep -q "Your work now lives in $tree/workspace" &&
   grep -q "my own attempt" "$tree/workspace/$ex" &&
   grep -q "scratch notes" "$tree/workspace/exercises/02-atomic/notes.txt"; then
  ok "the first run moves the learner's edits into workspace/ and says so"
else bad "the first run moves the learner's edits into workspace/ and says so" "$out"; fi
if printf '%s\n' "$out" | grep -Eq '^ +2 +Atomic.*failing'; then ok "progress moved with them"
else bad "progress moved with them" "$out"; fi
st=$(git -C "$tree" status --porcelain)
if [ -z "$st" ]; then ok "git status: the tree is clean, the workspace ignored"; else bad "git status: the tree is clean" "$st"; fi
if cmp -s "$tree/$ex" "$root/$ex" || git -C "$tree" diff --quiet -- "$ex"; then ok "the course's starting file is back"
else bad "the course's starting file is back"; fi
out=$(cd "$tmp" && "$tb" list 2>&1)
if printf '%s\n' "$out" | grep -q "now lives in"; then bad "the move is told once" "$out"; else ok "the move is told once"; fi

finish
