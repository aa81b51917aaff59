#!/bin/sh
# A kernel that makes the compiler print a million errors: a build failure in bounded time and memory, no large files left.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

make_bomb
sub; cp "$bomb" "$f"
t0=$(date +%s)
/usr/bin/time -f '%M' -o "$tmp/rss" "$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd,one --memory-limit 1536 \
  --format json -o "$tmp/bomb.json" 2> "$tmp/bomb.err"
took=$(( $(date +%s) - t0 ))
rss=$(tail -n 1 "$tmp/rss")
json "a compiler-log bomb is a build failure that says how many errors there were (${took}s)" "$tmp/bomb.json" \
  "all(x['status'] == 'build_error' for x in c['tests']) and 'The compiler printed 1,048,576 errors' in t['detail'] and 'the first 100 are below' in t['detail'] and len(t['detail']) < 20000"
if [ "$took" -lt 240 ]; then ok "the bomb takes bounded time: ${took}s for two builds (the build phase allows 120 s each)"
else bad "the bomb took ${took}s"; fi
if [ -n "$rss" ] && [ "$rss" -lt $((1600 * 1024)) ]; then ok "the bomb stays within its memory limit: ${rss} KB at the most, for 1536 MB"
else bad "the bomb used ${rss:-?} KB"; fi
big=$(find "$TMPDIR" "$HOME" -type f -size +1M 2>/dev/null | head -n 3)
left=$(ls -A "$TMPDIR")
if [ -z "$big" ] && [ -z "$left" ]; then ok "the bomb leaves no files behind (no PoCL build.log in ~/.cache, nothing in \$TMPDIR)"
else bad "the bomb left files behind" "$big $left"; fi

finish
