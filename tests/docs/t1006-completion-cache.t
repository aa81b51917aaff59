#!/bin/sh
# The bash completion asks the program once a shell: a second completion reads its cache.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers
need_bash

# the program is asked once a shell: a second completion reads the cache
mkdir -p "$tmp/wrap"
printf '#!/bin/sh\necho "$*" >> "%s/calls"\nexec "%s" "$@"\n' "$tmp" "$bin" > "$tmp/wrap/cltutor"
chmod +x "$tmp/wrap/cltutor"
bash -c '. "$1"; w=$2
  for i in 1 2 3; do
    COMP_WORDS=("$w" run ""); COMP_CWORD=2; _cltutor
    COMP_WORDS=("$w" run --); COMP_CWORD=2; _cltutor
  done' bash "$comp" "$tmp/wrap/cltutor" > /dev/null 2>&1
calls=$(sort "$tmp/calls" 2>/dev/null | uniq -c | awk '$1 > 1')
if [ -s "$tmp/calls" ] && [ -z "$calls" ]; then ok "completion: each help and the chapter list are read once a shell ($(wc -l < "$tmp/calls" | tr -d ' ') calls)"
else bad "completion: the program is asked again for the same answer" "$(cat "$tmp/calls" 2>/dev/null)"; fi

finish
