# tests/docs/lib.sh — what the documentation scripts share, sourced after
# tests/lib.sh: the man page ($man) and the bash completion ($comp); the
# help parsed (help_commands, help_options), the man page parsed (man_tsv,
# man_tag, man_subsections, man_has), and the completion driven (need_bash,
# complete_at, offers).
# Nothing here lists commands or options: they are parsed from `cltutor
# --help` (its "Commands:" and "Options:" parts) and `cltutor CMD --help`
# (its usage lines and its option lines, "  -o, --output FILE  ..."), and
# the environment variables from src/ (getenv("NAME"), #define X_ENV "NAME")
# and from the help texts ($NAME), so a new command, option or variable is
# checked without a change here.
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

# ---- parsing the man page

# man_tsv: $tmp/man.tsv, one line "SECTION<TAB>SUBSECTION<TAB>KIND<TAB>TEXT"
# per line of text, KIND TAG for a .TP tag, SH/SS for headings, TXT else;
# fonts and escapes removed, macro arguments joined as roff shows them.
man_tsv() {
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
}

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

# ---- driving the completion

# need_bash: the script stops here, failing, without bash
need_bash() {
  if ! command -v bash >/dev/null 2>&1; then
    bad "bash completion: bash is not installed"
    finish; exit
  fi
}

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
