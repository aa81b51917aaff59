#!/bin/sh
# The bash completion: it loads, and completes commands, global options and --workspace DIR.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # $man, $comp, help_options, man_tsv, man_tag, complete_at, offers
need_bash
cmds=$(help_commands)
help_options > "$tmp/gopts"

out=$(bash -n "$comp" 2>&1)
if [ $? -eq 0 ]; then ok "completion: bash -n"; else bad "completion: bash -n" "$out"; fi
out=$(bash -c '. "$1" && complete -p cltutor' bash "$comp" 2>&1)
if printf '%s\n' "$out" | grep -q -- '-F _cltutor cltutor$'; then ok "completion: sourcing it registers _cltutor for cltutor"
else bad "completion: sourcing it does not register a function for cltutor" "$out"; fi

offers "completion: 'cltutor <TAB>' offers every command of --help" $cmds -- 1 "$bin" ""
got=$(complete_at 1 "$bin" ru)
if [ "$got" = run ]; then ok "completion: 'cltutor ru<TAB>' gives run"; else bad "completion: 'cltutor ru<TAB>' gives '$got', not run"; fi
offers "completion: 'cltutor -<TAB>' offers every global long option" $(awk '$1 ~ /^--/ { print $1 }' "$tmp/gopts" | sort -u) -- 1 "$bin" -
got=$(complete_at 3 "$bin" --workspace "$tmp" ru)
if [ "$got" = run ]; then ok "completion: a command after --workspace DIR"; else bad "completion: 'cltutor --workspace DIR ru<TAB>' gives '$got', not run"; fi

mkdir -p "$tmp/here/a-folder" && : > "$tmp/here/a-file.cl"
got=$(cd "$tmp/here" && complete_at 2 "$bin" --workspace "")
if printf '%s\n' "$got" | grep -qx a-folder && ! printf '%s\n' "$got" | grep -qx a-file.cl; then ok "completion: --workspace DIR completes folders"
else bad "completion: 'cltutor --workspace <TAB>' should give folders only" "$got"; fi

finish
