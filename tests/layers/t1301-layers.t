#!/bin/sh
# The source's shape (scripts/layers.py): no include reaches above its layer, curses only in
# src/term, no function over 100 lines and no file over 800 (function extents from Universal Ctags).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

# check SRC: runs layers.py on SRC into $out; true when this test would fail on it (a FAIL line, or exit 1)
python=$(python3 -c "import sys; print(sys.executable)")   # the interpreter itself, for a PATH without ctags
check() {
  out=$("$python" "$root/scripts/layers.py" "$1" 2>&1)
  st=$?
  [ "$st" -ne 0 ] || printf '%s\n' "$out" | grep -q '^FAIL'
}

if check "$root/src"; then bad "src/ keeps its layers and sizes" "$out"
else ok "src/ keeps its layers and sizes: includes stay in their layer, curses in src/term, functions ≤ 100 lines, files ≤ 800"; fi

# the check itself, on a copy broken both ways: a layer that reaches up, and curses outside src/term
cp -R "$root/src" "$tmp/src"
printf '#include "term/ui.h"\n' >> "$tmp/src/base/util.h"
printf '#include <curses.h>\n' >> "$tmp/src/ui/tui_state.c"
if check "$tmp/src" &&
   printf '%s\n' "$out" | grep -q '^FAIL src/base/util.h:.*the base layer includes term/ui.h' &&
   printf '%s\n' "$out" | grep -q '^FAIL src/ui/tui_state.c:.*only src/term may see curses'; then
  ok "the check fails a layer that reaches up, and curses outside src/term"
else bad "the check fails a layer that reaches up, and curses outside src/term" "$out"; fi

# ... and on a copy grown too big: a function of 120 lines whose signature spans three (101 lines
# beside it is also too long, 100 is not), and a file of 801 lines (800 is not)
cp -R "$root/src" "$tmp/big"
body() { i=0; while [ "$i" -lt "$1" ]; do echo "  x += $i;"; i=$((i + 1)); done; }
{ printf 'static int\nplanted_long(int a,\n             int b)\n{\n  int x = a + b;\n'; body 114; printf '  return x;\n}\n'
  printf 'static int planted_101(int x)\n{\n'; body 97; printf '  return x;\n}\n'
  printf 'static int planted_100(int x)\n{\n'; body 96; printf '  return x;\n}\n'
} > "$tmp/big/base/planted.c"
i=0; while [ "$i" -lt 801 ]; do echo "/* line $i */"; i=$((i + 1)); done > "$tmp/big/base/planted801.c"
head -n 800 "$tmp/big/base/planted801.c" > "$tmp/big/base/planted800.c"
if check "$tmp/big" &&
   printf '%s\n' "$out" | grep -q '^FAIL src/base/planted.c:2: planted_long() is 120 lines, over 100' &&
   printf '%s\n' "$out" | grep -q '^FAIL src/base/planted.c:.*planted_101() is 101 lines' &&
   ! printf '%s\n' "$out" | grep -q 'planted_100()' &&
   printf '%s\n' "$out" | grep -q '^FAIL src/base/planted801.c: 801 lines, over 800' &&
   ! printf '%s\n' "$out" | grep -q 'planted800.c'; then
  ok "the check fails a 120-line function with a multi-line signature, and a file of 801 lines"
else bad "the check fails a 120-line function with a multi-line signature, and a file of 801 lines" "$out"; fi

# without Universal Ctags it cannot measure functions: it fails and names the package
mkdir "$tmp/bin"
if PATH="$tmp/bin" check "$root/src" && printf '%s\n' "$out" | grep -q '^FAIL .*install the package universal-ctags'; then
  ok "without ctags the check fails, naming the package universal-ctags"
else bad "without ctags the check fails, naming the package universal-ctags" "$out"; fi

finish
