#!/bin/sh
# The figures a student install uses in place of chapter 3's reference: stale or missing ones are caught and rewritten.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

mkdir -p "$tmp/figs"
cp -R "$root/lessons" "$root/exercises" "$root/kernels" "$root/devices" "$tmp/figs/"
sed -i 's/^global_load_bytes = .*/global_load_bytes = 12345/' "$tmp/figs/lessons/04-float4/previous-reference.ini"
expect "stale previous-reference figures fail, with the command that mends them" 1 \
  "global_load_bytes|12345 bytes.*write it afresh with .cltutor validate 4 --write-figures" -- env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4
rm "$tmp/figs/lessons/04-float4/previous-reference.ini"
expect "missing previous-reference figures fail" 1 "previous-reference.ini: cannot read it; write it with" -- \
  env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4
expect "--write-figures writes them" 0 "wrote .*previous-reference.ini" -- env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4 --write-figures
if cmp -s "$tmp/figs/lessons/04-float4/previous-reference.ini" "$root/lessons/04-float4/previous-reference.ini"; then
  ok "written afresh, they are the committed figures"; else bad "written afresh, they are the committed figures"; fi

finish
