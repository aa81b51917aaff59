#!/bin/sh
# Documentation tests: the man page (man/cltutor.1) and the bash completion
# (completions/cltutor.bash) against what the program itself prints.
# Nothing here lists commands or options: they are parsed from `cltutor
# --help` (its "Commands:" and "Options:" parts) and `cltutor CMD --help`
# (its usage lines and its option lines, "  -o, --output FILE  ..."), and
# the environment variables from src/ (getenv("NAME"), #define X_ENV "NAME")
# and from the help texts ($NAME), so a new command, option or variable is
# checked without a change here.
#   tests/docs/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
export CLTUTOR_WORKSPACE="$tmp/ws"
man="$root/man/cltutor.1"
comp="$root/completions/cltutor.bash"

# ---- parsing the help

# help_commands: the commands of `cltutor --help`, one a line
help_commands() {
  "$bin" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'
}

# help_options [CMD]: one line "OPTION ARG WHERE" per option of the help's
# usage lines (WHERE usage) and of its option lines (WHERE def); ARG is "-"
# when the option takes none. A usage line's option takes the next word
# of its bracket as argument ([--kernel FILE], [-o FILE]).
help_options() {
  "$bin" ${1:+"$1"} --help 2>/dev/null | awk '
    function name(w) { sub(/^\[/, "", w); sub(/[]|].*$/, "", w); return w }
    BEGIN { usage = 1 }
    usage && /^$/ { usage = 0; next }
    usage {
      n = split($0, t, " ")
      for (i = 1; i <= n; i++) {
        w = t[i]; sub(/^\[/, "", w)
        if (w !~ /^--?[A-Za-z0-9]/) continue
        a = "-"
        if (w !~ /[]|]/ && i < n) { x = name(t[i + 1]); if (x != "" && x !~ /^-/) a = x }
        print name(w), a, "usage"
      }
      next
    }
    {
      match($0, /[^ ]/)
      if (RSTART < 2 || RSTART > 9 || substr($0, RSTART, 1) != "-") next
      spec = substr($0, RSTART); p = index(spec, "  "); if (p) spec = substr(spec, 1, p - 1)
      n = split(spec, t, " "); a = "-"; k = 0
      for (i = 1; i <= n; i++) {
        w = t[i]; sub(/,$/, "", w)
        if (w ~ /^-/) o[++k] = w; else { a = w; break }
      }
      for (i = 1; i <= k; i++) print o[i], a, "def"
    }'
}

# ---- parsing the man page: one line "SECTION<TAB>SUBSECTION<TAB>KIND<TAB>TEXT"
# per line of text, KIND TAG for a .TP tag, SH/SS for headings, TXT else;
# fonts and escapes removed, macro arguments joined as roff shows them.
awk '
  function unesc(s) {
    gsub(/\\f\[[A-Z]*\]/, "", s); gsub(/\\f\([A-Z][A-Z]/, "", s); gsub(/\\f[BIRP1-4]/, "", s)
    gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\%/, "", s); gsub(/\\\(lq/, "\"", s); gsub(/\\\(rq/, "\"", s)
    gsub(/\\\(em/, "--", s); gsub(/\\\(aq/, "'\''", s); gsub(/\\e/, "\\", s)
    return s
  }
  function args(s, sep,   n, c, i, cur, inq, on, out) {
    cur = ""; inq = 0; on = 0; out = ""; n = 0
    for (i = 1; i <= length(s); i++) {
      c = substr(s, i, 1)
      if (inq) { if (c == "\"") inq = 0; else cur = cur c; continue }
      if (c == "\"") { inq = 1; on = 1; continue }
      if (c == " " || c == "\t") { if (on) { out = out (n++ ? sep : "") cur; cur = ""; on = 0 } continue }
      cur = cur c; on = 1
    }
    if (on) out = out (n++ ? sep : "") cur
    return out
  }
  /^\.\\"/ || /^\\"/ { next }
  /^\.SH([ \t]|$)/ { sec = unesc(args(substr($0, 4), " ")); sub_ = ""; tag = 0; print sec "\t\tSH\t" sec; next }
  /^\.SS([ \t]|$)/ { sub_ = unesc(args(substr($0, 4), " ")); tag = 0; print sec "\t" sub_ "\tSS\t" sub_; next }
  /^\.TP([ \t]|$)/ { tag = 1; next }
  /^\.(B|I|SM|SB)([ \t]|$)/ { m = $0; sub(/^\.[A-Z]+[ \t]*/, "", m); text = args(m, " ") }
  /^\.(BR|BI|IB|IR|RB|RI)([ \t]|$)/ { m = $0; sub(/^\.[A-Z]+[ \t]*/, "", m); text = args(m, "") }
  /^\./ && !/^\.(B|I|SM|SB|BR|BI|IB|IR|RB|RI)([ \t]|$)/ { next }
  !/^\./ { text = $0 }
  { print sec "\t" sub_ "\t" (tag ? "TAG" : "TXT") "\t" unesc(text); tag = 0 }
' "$man" > "$tmp/man.tsv"

# man_tag SECTION SUBSECTION WORD [ARG]: a .TP tag of that (sub)section
# (its heading's first word; * for any) names WORD, followed by ARG when given
man_tag() {
  awk -F '\t' -v s="$1" -v ss="$2" -v o="$3" -v a="${4:-}" '
    $1 == s && (ss == "*" || (split($2, h, " ") ? h[1] : "") == ss) && $3 == "TAG" {
      n = split($4, w, " ")
      for (i = 1; i <= n; i++) { x = w[i]; sub(/,$/, "", x); if (x == o && (a == "" || w[i + 1] == a)) found = 1 }
    }
    END { exit !found }' "$tmp/man.tsv"
}
# man_subsections SECTION: its .SS names' first words
man_subsections() { awk -F '\t' -v s="$1" '$1 == s && $3 == "SS" { split($4, w, " "); print w[1] }' "$tmp/man.tsv"; }
# man_has SECTION SUBSECTION LINE: a line of text that is exactly LINE
man_has() { awk -F '\t' -v s="$1" -v ss="$2" -v l="$3" '$1 == s && (split($2, h, " ") ? h[1] : "") == ss && $3 == "TXT" && $4 == l { f = 1 } END { exit !f }' "$tmp/man.tsv"; }

# ---- the man page itself
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

# ---- commands: the help and the man page
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

# ---- bash completion
if ! command -v bash >/dev/null 2>&1; then
  bad "bash completion: bash is not installed"
  finish; exit
fi
out=$(bash -n "$comp" 2>&1)
if [ $? -eq 0 ]; then ok "completion: bash -n"; else bad "completion: bash -n" "$out"; fi
out=$(bash -c '. "$1" && complete -p cltutor' bash "$comp" 2>&1)
if printf '%s\n' "$out" | grep -q -- '-F _cltutor cltutor$'; then ok "completion: sourcing it registers _cltutor for cltutor"
else bad "completion: sourcing it does not register a function for cltutor" "$out"; fi

# complete_at CWORD WORD...: what _cltutor offers, one a line (run in the
# current folder; the first word is the program)
cat > "$tmp/complete.bash" <<'EOF'
. "$1" || exit 3
shift
cword=$1
shift
COMP_WORDS=("$@")
COMP_CWORD=$cword
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
_cltutor "$1" "${COMP_WORDS[cword]}" "${COMP_WORDS[cword - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
EOF
complete_at() { bash "$tmp/complete.bash" "$comp" "$@" 2>&1; }
# offers NAME WANT... -- CWORD WORD...: every WANT is offered
offers() {
  name=$1; shift
  want=""
  while [ "$1" != -- ]; do want="$want $1"; shift; done
  shift
  got=$(complete_at "$@")
  missing=""
  for w in $want; do printf '%s\n' "$got" | grep -qxF -- "$w" || missing="$missing $w"; done
  if [ -z "$missing" ]; then ok "$name"; else bad "$name: not offered:$missing" "offered: $(echo $got)"; fi
}

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
