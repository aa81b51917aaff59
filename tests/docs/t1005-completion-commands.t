#!/bin/sh
# The bash completion of each command: its options, chapters, files and folders, from the command's own help.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers
need_bash
cmds=$(help_commands)
mkdir -p "$tmp/here/a-folder" && : > "$tmp/here/a-file.cl"

chapters=$("$bin" list --json 2>/dev/null | python3 -c '
import json, sys
for c in json.load(sys.stdin):
    print(c["number"]); print(c["id"])' 2>/dev/null)
[ -n "$chapters" ] || bad "cltutor list --json lists no chapter" "$("$bin" list --json 2>&1)"
for c in $cmds; do
  help_options "$c" > "$tmp/opts"
  offers "completion: 'cltutor $c --<TAB>' offers every long option of '$c --help'" \
    $(awk '$1 ~ /^--/ { print $1 }' "$tmp/opts" | sort -u) -- 2 "$bin" "$c" --
  usage=$("$bin" "$c" --help 2>/dev/null | awk '/^$/ { exit } { print }')
  case $usage in
    *LESSON*)
      got=$(complete_at 2 "$bin" "$c" "")
      missing=""
      for w in $chapters; do printf '%s\n' "$got" | grep -qxF -- "$w" || missing="$missing $w"; done
      if [ -z "$missing" ]; then ok "completion: 'cltutor $c <TAB>' offers every chapter's number and folder name"
      else bad "completion: 'cltutor $c <TAB>': chapters not offered:$missing" "offered: $(echo $got)"; fi
      case $usage in
        *'|all]'*) if printf '%s\n' "$got" | grep -qx all; then ok "completion: 'cltutor $c <TAB>' offers all"
                   else bad "completion: 'cltutor $c <TAB>' does not offer all, which its usage takes"; fi ;;
        *) if printf '%s\n' "$got" | grep -qx all; then bad "completion: 'cltutor $c <TAB>' offers all, which its usage does not take"
           else ok "completion: 'cltutor $c <TAB>' does not offer all"; fi ;;
      esac ;;
  esac
  # each option's argument: FILE completes files, DIR folders
  for o in $(awk '$1 ~ /^--/ && $3 == "def" && ($2 == "FILE" || $2 == "DIR") { print $1 }' "$tmp/opts" | sort -u); do
    a=$(awk -v o="$o" '$1 == o && $3 == "def" { print $2; exit }' "$tmp/opts")
    got=$(cd "$tmp/here" && complete_at 3 "$bin" "$c" "$o" "")
    if [ "$a" = FILE ] && printf '%s\n' "$got" | grep -qx a-file.cl; then ok "completion: '$c $o FILE' completes files"
    elif [ "$a" = DIR ] && printf '%s\n' "$got" | grep -qx a-folder && ! printf '%s\n' "$got" | grep -qx a-file.cl; then
      ok "completion: '$c $o DIR' completes folders"
    else bad "completion: '$c $o <TAB>' should complete a $a" "offered: $(echo $got)"; fi
  done
done
offers "completion: 'cltutor run <TAB>' offers 2 and 02-atomic" 2 02-atomic -- 2 "$bin" run ""
offers "completion: 'cltutor grade --<TAB>' contains --batch" --batch -- 2 "$bin" grade --
got=$(complete_at 2 "$bin" check 02-a)
if [ "$got" = 02-atomic ]; then ok "completion: 'cltutor check 02-a<TAB>' gives 02-atomic"; else bad "completion: 'cltutor check 02-a<TAB>' gives '$got'"; fi
got=$(complete_at 3 "$bin" run --size "")
if [ -z "$got" ]; then ok "completion: the value of --size SPEC is not a chapter"; else bad "completion: 'cltutor run --size <TAB>' offers" "$got"; fi
got=$(cd "$tmp/here" && complete_at 4 "$bin" run --kernel = a-fi)
if [ "$got" = a-file.cl ]; then ok "completion: --kernel=FILE completes files"; else bad "completion: 'cltutor run --kernel=a-fi<TAB>' gives '$got'"; fi
got=$(complete_at 2 "$bin" no-such-command "")
if [ -z "$got" ]; then ok "completion: nothing after an unknown command"; else bad "completion: 'cltutor no-such-command <TAB>' offers" "$got"; fi

finish
