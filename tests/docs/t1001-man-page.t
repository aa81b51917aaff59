#!/bin/sh
# The man page itself: every section there, and groff and mandoc find nothing to warn about.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers

man_tsv

missing=""
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "GLOBAL OPTIONS" ENVIRONMENT FILES "EXIT STATUS" EXAMPLES "SEE ALSO"; do
  awk -F '\t' -v s="$s" '$3 == "SH" && $4 == s { f = 1 } END { exit !f }' "$tmp/man.tsv" || missing="$missing [$s]"
done
if [ -z "$missing" ]; then ok "man page: every section is there"; else bad "man page: sections missing:$missing"; fi
if command -v groff >/dev/null 2>&1; then
  out=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
  if [ -z "$out" ]; then ok "man page: groff renders it without a warning"; else bad "man page: groff warns" "$out"; fi
else
  ok "man page: groff renders it without a warning (skipped: no groff)"
fi
if command -v mandoc >/dev/null 2>&1; then
  out=$(mandoc -Tlint -Wwarning "$man" 2>&1)
  if [ -z "$out" ]; then ok "man page: mandoc -Tlint finds nothing"; else bad "man page: mandoc -Tlint" "$out"; fi
else
  ok "man page: mandoc -Tlint finds nothing (skipped: no mandoc)"
fi

finish
