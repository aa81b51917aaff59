#!/bin/sh
# The learner's workspace apart from the course, in a source checkout: the
# first run moves edits made in the course's own exercises/ (the old layout)
# into workspace/ and tells the learner once; reset restores the shipped
# starting file; the tree stays clean; a read-only checkout sends each
# learner to a workspace of their own. Usage: tests/workspace/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
unset CLTUTOR_WORKSPACE CLTUTOR_DATA XDG_DATA_HOME
export HOME="$tmp/home"
mkdir -p "$HOME"

# a checkout of the committed course, with this build's program in its build/
tree="$tmp/tree"
if ! git clone -q "$root" "$tree" 2>"$tmp/clone.log"; then
  bad "clone the source tree" "$(cat "$tmp/clone.log")"
  finish
  exit 1
fi
mkdir -p "$tree/build"
cp "$bin" "$tree/build/cltutor"
tb="$tree/build/cltutor"
ex="exercises/02-atomic/histogram.cl"

# ---- the old layout: an edit and progress inside the checkout itself
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

# ---- reset against the shipped starting file
expect "reset restores the starting file and keeps the edit" 0 'histogram.cl.bak' -- "$tb" reset 2
if grep -q "my own attempt" "$tree/workspace/$ex.bak" && cmp -s "$tree/workspace/$ex" "$tree/$ex"; then
  ok "the backup holds the edit, the file is the course's"; else bad "the backup holds the edit, the file is the course's"; fi
expect "a second reset has nothing to do" 0 'already is the starting file' -- "$tb" reset 2
st=$(git -C "$tree" status --porcelain)
[ -z "$st" ] && ok "still clean after reset" || bad "still clean after reset" "$st"

# ---- a new --workspace is seeded from the course, not from the learner's files
echo "/* solved, I think */" >> "$tree/workspace/$ex"
"$tb" --workspace "$tmp/fresh" list >/dev/null 2>&1
"$tb" --workspace "$tmp/fresh" run 2 --no-timing >/dev/null 2>&1
if cmp -s "$tmp/fresh/$ex" "$tree/$ex"; then ok "a new workspace starts from the shipped starting file"
else bad "a new workspace starts from the shipped starting file" "$(diff "$tmp/fresh/$ex" "$tree/$ex")"; fi

# ---- a shared, read-only checkout (a lab): each learner gets their own workspace
if [ "$(id -u)" -ne 0 ]; then
  rm -rf "$tree/workspace"
  chmod -R a-w "$tree"
  out=$("$tb" run 1 2>&1)
  if [ -f "$HOME/.local/share/cltutor/exercises/01-serial/histogram.cl" ]; then
    ok "a read-only checkout falls back to ~/.local/share/cltutor"
  else bad "a read-only checkout falls back to ~/.local/share/cltutor" "$out"; fi
  chmod -R u+w "$tree"
else
  # root writes anywhere: a checkout owned by another user stands in for the lab's
  if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
    rm -rf "$tree/workspace"
    chmod -R a+rX "$tmp"
    mkdir -p "$tmp/nobody-home" && chown nobody "$tmp/nobody-home"
    out=$(HOME="$tmp/nobody-home" setpriv --reuid=nobody --regid=nogroup --clear-groups "$tb" run 1 2>&1)
    if [ -f "$tmp/nobody-home/.local/share/cltutor/exercises/01-serial/histogram.cl" ] && [ ! -e "$tree/workspace" ]; then
      ok "a checkout the learner cannot write falls back to ~/.local/share/cltutor"
    else bad "a checkout the learner cannot write falls back to ~/.local/share/cltutor" "$out"; fi
  else
    ok "a read-only checkout (skipped: no unprivileged user to try it as)"
  fi
fi

finish
