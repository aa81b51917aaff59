#!/bin/sh
# A bomb only the GPU model's compiler sees (Oclgrind): the technique check fails in bounded time, nothing left behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

# correct on PoCL, 2^16 errors on the GPU model's simulator (no get_global_linear_id)
python3 - "$root/kernels/03-coalesced/histogram.cl" > "$tmp/gl.cl" <<'PY'
import sys
src = open(sys.argv[1]).read()
macros = "#define G0 bomb_ += (int)get_global_linear_id();\n"
macros += "".join("#define G%d G%d G%d\n" % (i, i - 1, i - 1) for i in range(1, 17))
macros += "static int unused_(void)\n{\n    int bomb_ = 0;\n    G16\n    return bomb_;\n}\n\n"
i = src.index("__kernel")
print(src[:i] + macros + src[i:], end="")
PY
rm -rf "$tmp/sub3" && mkdir -p "$tmp/sub3/exercises/03-coalesced" && cp "$tmp/gl.cl" "$tmp/sub3/exercises/03-coalesced/histogram.cl"
t0=$(date +%s)
"$bin" grade 3 --dir "$tmp/sub3" --seed 4 --tests odd,technique.coalesced_loads --format json -o "$tmp/gl.json" 2>/dev/null
took=$(( $(date +%s) - t0 ))
json "a bomb only the GPU model's compiler sees fails the technique check, in bounded time (${took}s)" "$tmp/gl.json" \
  "[x['outcome'] for x in c['tests']] == ['pass', 'fail'] and 'did not compile' in c['tests'][1]['detail'] or c['tests'][1]['outcome'] == 'skip'"
[ -z "$(ls -A "$TMPDIR")" ] && ok "the GPU model's folders are gone too" || bad "left in \$TMPDIR" "$(ls -A "$TMPDIR")"

finish
