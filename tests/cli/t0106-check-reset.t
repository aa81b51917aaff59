#!/bin/sh
# cltutor check and reset in a fresh workspace: copies, progress, backups, --workspace.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

expect "check --solution passes chapters 1-2" 0 '[0-9]+ passed, 0 failed' -- "$bin" check 2 --solution
json_check "check takes several chapters" "sorted({r['chapter'] for r in j})==[1,2]" -- "$bin" check 2 1 --solution --json
expect "check --kernel needs exactly one chapter" 64 'needs exactly one chapter' -- "$bin" check 1 2 --kernel "$k/wrong_bin.cl"
expect "check of a starting file fails with a message" 1 'Wrong result' -- "$bin" check 1
[ -f "$tmp/ws/exercises/01-serial/histogram.cl" ] && ok "the workspace got a copy of the starting file" || bad "no copy of the starting file in the workspace"
json_check "list shows the failing chapter" "j[0]['state']=='failing'" -- "$bin" list --json
"$bin" check all >/dev/null 2>&1
json_check "a bare check leaves chapters never worked on alone" "j[0]['state']=='failing' and all(c['state']=='not started' for c in j[1:])" -- "$bin" list --json
cp "$root/kernels/01-serial/histogram.cl" "$tmp/ws/exercises/01-serial/histogram.cl"
expect "check passes once solved" 0 ' 0 failed' -- "$bin" check 1
json_check "progress remembers it" "j[0]['state']=='passed' and j[1]['next']" -- "$bin" list --json
expect "reset puts the starting file back" 0 'Reset' -- "$bin" reset 1
if grep -q TODO "$tmp/ws/exercises/01-serial/histogram.cl" && [ -f "$tmp/ws/exercises/01-serial/histogram.cl.bak" ]; then
  ok "reset kept the old file as .bak"; else bad "reset did not keep a .bak"; fi
expect "reset of the starting file does nothing" 0 'already is the starting file' -- "$bin" reset 1
kept="$tmp/ws/.cltutor/passed/01-serial/histogram.cl"
cmp -s "$kept" "$root/kernels/01-serial/histogram.cl" && ok "the passing text is kept" || bad "the passing text is not kept in $kept"
expect "a failing text of a chapter passed before says where the passing one is" 1 "passed this chapter before .* kept in $kept" -- "$bin" check 1
ex="$tmp/ws/exercises/01-serial/histogram.cl"
echo "/* second try */" >> "$ex"
expect "a second reset keeps the first backup" 0 'histogram.cl.bak.2' -- "$bin" reset 1
if [ "$(tail -n 1 "$ex.bak.2")" = "/* second try */" ] && ! grep -q "second try" "$ex.bak" && ! grep -q "second try" "$ex"; then
  ok "both earlier versions kept, each in its own backup"; else bad "both earlier versions kept, each in its own backup"; fi
expect "--workspace overrides the environment" 0 'Atomic' -- "$bin" --workspace "$tmp/ws2" list

finish
