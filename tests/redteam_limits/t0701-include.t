#!/bin/sh
# Every way of writing an #include (or asking which files exist) is refused, with its line.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

# the reference solution in one line
sub; printf '/* mine */\n\n#\finclude "%s"\n' "$ref" > "$f"; refused "#<form feed>include" 3
sub; printf '/* mine */\n#\vinclude "%s"\n' "$ref" > "$f"; refused "#<vertical tab>include" 2
sub; printf '\357\273\277#include "%s"\n' "$ref" > "$f"; refused "a byte-order mark before #include" 1
sub; printf '/* mine */\n#inc\\\nlude "%s"\n' "$ref" > "$f"; refused "#inc<splice>lude" 2
sub; printf '/* mine */\n\\\n#include "%s"\n' "$ref" > "$f"; refused "#include after a splice" 3
sub; printf '\n\n\n??=include "%s"\n' "$ref" > "$f"; refused "??=include (trigraph)" 4
sub; printf '%%: /* x */ include "%s"\n' "$ref" > "$f"; refused "%:include (digraph)" 1
sub; printf 'int a;\r#include "%s"\r' "$ref" > "$f"; refused "#include after a lone CR" 2
sub; printf '#import "%s"\n' "$ref" > "$f"; refused "#import" 1
sub; printf '#include_next "%s"\n' "$ref" > "$f"; refused "#include_next" 1
sub; { printf '/* which files exist here? */\n#if __has_include("/etc/shadow")\n#error yes\n#endif\n'; cat "$ref"; } > "$f"
refused "__has_include(\"/etc/shadow\")" 2
sub; { printf '#define P(x) _Pragma(#x)\nP(GCC dependency "/etc/shadow")\n'; cat "$ref"; } > "$f"; refused "_Pragma" 1
sub; { printf '#pragma GCC dependency "/etc/shadow"\n'; cat "$ref"; } > "$f"; refused "#pragma GCC dependency" 1
sub; { printf '#define CAT(a, b) a ## b\n'; cat "$ref"; } > "$f"; refused "## (token pasting)" 1
sub; printf '#\finclude "%s"\n' "$ref" > "$f"
"$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd --format json -o "$tmp/r.json" 2>/dev/null
json "the message quotes the directive as the compiler reads it" "$tmp/r.json" \
  "'\`#include \"$ref\"\` is an #include' in t['detail']"

finish
