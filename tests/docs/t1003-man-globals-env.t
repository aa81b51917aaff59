#!/bin/sh
# The man page names every global option of --help and every environment variable the program reads.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers

man_tsv
cmds=$(help_commands)

# ---- global options
help_options > "$tmp/gopts"
missing=""
for o in $(awk '{ print $1 }' "$tmp/gopts" | sort -u); do
  a=$(awk -v o="$o" '$1 == o && $3 == "def" { print $2; exit }' "$tmp/gopts")
  [ -n "$a" ] || a=$(awk -v o="$o" '$1 == o { print $2; exit }' "$tmp/gopts")
  case $o in --*) ;; *) a=-;; esac
  if [ "$a" = - ]; then man_tag "GLOBAL OPTIONS" "" "$o" || missing="$missing $o"
  else man_tag "GLOBAL OPTIONS" "" "$o" "$a" || missing="$missing '$o $a'"; fi
done
if [ -s "$tmp/gopts" ] && [ -z "$missing" ]; then ok "man page: GLOBAL OPTIONS has every option of --help ($(awk '{ print $1 }' "$tmp/gopts" | sort -u | tr '\n' ' '))"
else bad "man page: options of --help missing from GLOBAL OPTIONS:$missing"; fi

# ---- environment variables
{
  grep -ho 'getenv("[A-Za-z_][A-Za-z0-9_]*")' "$root"/src/*/*.c | sed 's/getenv("\(.*\)")/\1/'
  grep -ho '#define[[:space:]][[:space:]]*[A-Z0-9_]*_ENV[[:space:]][[:space:]]*"[A-Za-z_][A-Za-z0-9_]*"' "$root"/src/*/*.h "$root"/src/*/*.c 2>/dev/null |
    sed 's/.*"\(.*\)"/\1/'
  for c in "" $cmds; do "$bin" $c --help 2>/dev/null; done | grep -o '\$[A-Z_][A-Z0-9_]*' | tr -d '$'
} | sort -u > "$tmp/env"
missing=""
for v in $(cat "$tmp/env"); do man_tag ENVIRONMENT "" "$v" || missing="$missing $v"; done
if [ -s "$tmp/env" ] && [ -z "$missing" ]; then ok "man page: ENVIRONMENT has every variable the program reads ($(wc -l < "$tmp/env" | tr -d ' '))"
else bad "man page: variables read by src/ or named in the help, missing from ENVIRONMENT (a .TP tag):$missing"; fi

finish
