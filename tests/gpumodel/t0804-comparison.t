#!/bin/sh
# The chapter's analysis size and the comparison with the previous chapter's reference, kept while its file does not change.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin

course analyze 2 --solution --json > "$tmp/c2.json" 2> "$tmp/err.txt"
if python3 - "$tmp/c2.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["comparison"]["sentences"]
assert j["size"] == "512x8x64" and j["size_origin"] == "analysis_size", (j["size"], j["size_origin"])
assert any(x.startswith("global loads: 15.2% → 100% efficient: each warp now reads 4 sectors per request instead of 32")
           for x in s), s
assert any(x.startswith("global memory traffic:") and "less" in x for x in s), s
PY
then ok "comparison: strided 15.2% → coalesced 100%, 32 → 4 sectors"; else bad "comparison with chapter 1" "$(cat "$tmp/c2.json" "$tmp/err.txt")"; fi
expect "text report names the analysed size" 0 'Simulated by Oclgrind at size 512x8x64 \(the chapter.s analysis size\)' -- \
  course analyze 2 --solution --no-compare

# ---- the file compared with is analysed once while it does not change
mkdir -p "$tmp/cc"
cp -R "$root/lessons" "$root/kernels" "$root/exercises" "$tmp/cc/"
if [ ! -x "$build/gm-cache-probe" ]; then bad "comparison kept between analyses: $build/gm-cache-probe is not built (make $build/gm-cache-probe)"
else
  out=$(CLTUTOR_DATA="$tmp/cc" CLTUTOR_WORKSPACE="$tmp/ws-cc" "$build/gm-cache-probe" 7 "$tmp/cc/exercises/07-bank-conflicts/histogram.cl" 2>&1)
  if printf '%s\n' "$out" | awk '{ k = k $2 } $4 < 1 { none = 1 } END { exit !(k == "010" && NR == 3 && !none) }'; then
    ok "comparison kept between analyses, made again when its file changes"
  else bad "comparison kept between analyses, made again when its file changes" "$out"; fi
fi

finish
