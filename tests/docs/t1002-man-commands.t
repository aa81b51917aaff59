#!/bin/sh
# Each command of --help: its own help, and a subsection of the man page with every option and its argument.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers

man_tsv

cmds=$(help_commands)
if [ -n "$cmds" ]; then ok "--help lists commands ($(echo $cmds))"; else bad "--help lists no commands under 'Commands:'" "$("$bin" --help 2>&1)"; fi
for c in $cmds; do
  out=$("$bin" "$c" --help 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | head -n 1 | grep -q "^Usage: cltutor $c"; then ok "$c --help: exit 0, 'Usage: cltutor $c'"
  else bad "$c --help: exit $rc, wanted 0 and 'Usage: cltutor $c' first" "$out"; fi
  if ! man_subsections COMMANDS | grep -qx "$c"; then
    bad "man page: no subsection (.SS $c) under COMMANDS for the command '$c' of --help"
    continue
  fi
  ok "man page: COMMANDS has a subsection for '$c'"
  for h in Options Examples "Exit status"; do
    man_has COMMANDS "$c" "$h" || bad "man page: the subsection '$c' has no '$h' (a line '.B $h')"
  done
  help_options "$c" > "$tmp/opts"
  missing=""
  for o in $(awk '{ print $1 }' "$tmp/opts" | sort -u); do
    # the option line's argument, else the usage line's
    a=$(awk -v o="$o" '$1 == o && $3 == "def" { print $2; exit }' "$tmp/opts")
    [ -n "$a" ] || a=$(awk -v o="$o" '$1 == o { print $2; exit }' "$tmp/opts")
    case $o in --*) ;; *) a=-;; esac   # -o, --output FILE: the long one carries it
    if [ "$a" = - ]; then man_tag COMMANDS "$c" "$o" || missing="$missing $o"
    else man_tag COMMANDS "$c" "$o" "$a" || missing="$missing '$o $a'"; fi
  done
  if [ -z "$missing" ]; then ok "man page: every option of '$c --help' with its argument, in the subsection '$c'"
  else bad "man page: options of '$c --help' missing from its subsection (a .TP tag):$missing"; fi
  # the help's own two lists of options agree
  # (placeholders only: a usage line may show an example value, -o grades.csv)
  drift=$(awk '$3 == "usage" && $2 ~ /^[A-Z]/ { u[$1] = $2 } $3 == "def" && $2 ~ /^[A-Z]/ { d[$1] = $2 }
               END { for (o in u) if ((o in d) && u[o] != d[o]) printf " %s: %s in the usage line, %s in the options", o, u[o], d[o] }' "$tmp/opts")
  if [ -z "$drift" ]; then ok "$c --help: the usage line and the options name the same arguments"
  else bad "$c --help: the usage line and the options disagree:$drift"; fi
  if "$bin" "$c" --help 2>/dev/null | awk '/^$/ { exit } { print }' | grep -q '\[OPTIONS\]'; then
    ok "$c --help: the usage line says [OPTIONS]"
  else
    missing=$(awk '$3 == "usage" { u[$1] = 1 } $3 == "def" && !($1 in u) && $1 ~ /^--/ { print $1 }' "$tmp/opts" | sort -u | tr '\n' ' ')
    if [ -z "$missing" ]; then ok "$c --help: the usage line names every option"
    else bad "$c --help: options missing from the usage line (or say [OPTIONS]): $missing"; fi
  fi
done
stale=""
for s in $(man_subsections COMMANDS); do
  printf '%s\n' $cmds | grep -qx "$s" || stale="$stale $s"
done
if [ -z "$stale" ]; then ok "man page: every command of COMMANDS is in --help"
else bad "man page: COMMANDS documents commands that --help does not list:$stale"; fi

finish
