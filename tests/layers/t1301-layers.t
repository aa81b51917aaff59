#!/bin/sh
# The source's layers (scripts/layers.py): no include reaches above its layer, curses only in src/term.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

# (layers.py also lists the functions over 100 lines and the files over 800, to split)
out=$(python3 "$root/scripts/layers.py" "$root/src")
printf '%s\n' "$out" | grep -v '^ok ' | sed 's/^/# /'
if printf '%s\n' "$out" | grep -q '^FAIL'; then bad "src/ keeps its layers" "$out"; else ok "src/ keeps its layers: no include reaches above its layer, curses only in src/term"; fi

too_big=$(printf '%s\n' "$out" | grep 'to split')
if [ -z "$too_big" ]; then ok "no function over 100 lines and no file over 800 in src/"
else bad "no function over 100 lines and no file over 800 in src/" "$too_big"; fi

# the check itself, on a copy broken both ways: a layer that reaches up, and curses outside src/term
cp -R "$root/src" "$tmp/src"
printf '#include "term/ui.h"\n' >> "$tmp/src/base/util.h"
printf '#include <curses.h>\n' >> "$tmp/src/ui/tui_state.c"
out=$(python3 "$root/scripts/layers.py" "$tmp/src")
if printf '%s\n' "$out" | grep -q 'src/base/util.h:.*the base layer includes term/ui.h' &&
   printf '%s\n' "$out" | grep -q 'src/ui/tui_state.c:.*only src/term may see curses'; then
  ok "the check fails a layer that reaches up, and curses outside src/term"
else bad "the check fails a layer that reaches up, and curses outside src/term" "$out"; fi

finish
