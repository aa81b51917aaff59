#!/bin/sh
# The course itself: `cltutor validate` runs every check of every chapter.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

echo "# cltutor validate (every chapter)"
out=$("$bin" validate 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(Chapter|  FAIL|            )' | head -n 80 | sed 's/^/# /'
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ] && [ "$rc" -eq 0 ] && printf '%s' "$line" | grep -q ' 0 failed'; then
  ok "the whole course validates: $line"
else
  bad "the whole course validates (exit $rc): ${line:-no closing line}" "$(printf '%s\n' "$out" | grep -E 'FAIL' | head -n 20)"
fi

finish
