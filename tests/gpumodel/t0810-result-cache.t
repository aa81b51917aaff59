#!/bin/sh
# The cache of run results: a simulation kept and found again with the same
# figures; any change to the text or size simulated anew; nothing kept
# for a file the source policy refuses, for a failed build, or when turned off.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin
export CLTUTOR_RESULT_CACHE="$tmp/results"
# simulations kept (the GPU model's entries hold its figures; the others are plain runs)
entries() { find "$CLTUTOR_RESULT_CACHE" -name '*.json' -exec grep -l '"figures"' {} + 2>/dev/null | wc -l | tr -d ' '; }

# analyse NAME KERNEL SIZE: the JSON in $tmp/NAME.json
analyse() {
  course analyze 1 --kernel "$2" --size "$3" --no-compare --json > "$tmp/$1.json" 2> "$tmp/$1.err"
}
# field NAME EXPR: a Python expression over the JSON j of analysis NAME
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$tmp/$1.json"; }
# same A B: the two analyses say the same, but for the times taken and where they came from
same() {
  python3 - "$tmp/$1.json" "$tmp/$2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for j in (a, b):  # times differ from one simulation to the next
    j.pop("wall_s"); j.pop("recalled")
    for k in j.get("kernels", []): k.pop("simulated_s", None)
sys.exit(0 if a == b else 1)
PY
}

cp "$k/coalescing.cl" "$tmp/k.cl"
analyse first "$tmp/k.cl" 1024x16
analyse again "$tmp/k.cl" 1024x16
if [ "$(field first 'j["recalled"]')" = False ] && [ "$(field again 'j["recalled"]')" = True ] && [ "$(entries)" = 1 ]; then
  ok "a simulation is kept once and found again the second time"
else bad "kept and found again (entries $(entries))" "$(cat "$tmp/first.err" "$tmp/again.err"; field again 'j.get("recalled")')"; fi
if same first again; then ok "what is found again says what the simulation said"
else bad "the recalled analysis differs" "$(diff "$tmp/first.json" "$tmp/again.json" | head -20)"; fi

# the same text under another name is the same analysis; any change to it is another
cp "$tmp/k.cl" "$tmp/renamed.cl"
analyse renamed "$tmp/renamed.cl" 1024x16
printf '\n' >> "$tmp/k.cl"
analyse edited "$tmp/k.cl" 1024x16
analyse resized "$tmp/renamed.cl" 1024x32
if [ "$(field renamed 'j["recalled"]')" = True ] && [ "$(field edited 'j["recalled"]')" = False ] &&
   [ "$(field resized 'j["recalled"]')" = False ] && [ "$(entries)" = 3 ]; then
  ok "kept by the text, not the file's name; a new line or size is simulated anew"
else bad "keys" "renamed $(field renamed 'j["recalled"]') edited $(field edited 'j["recalled"]') resized $(field resized 'j["recalled"]') entries $(entries)"; fi

# a file the grader's source policy refuses may not behave the same twice: never kept
{ echo '#if defined(__clang_major__)'; echo '#endif'; cat "$k/coalescing.cl"; } > "$tmp/device-macro.cl"
analyse refused1 "$tmp/device-macro.cl" 1024x16
analyse refused2 "$tmp/device-macro.cl" 1024x16
if [ "$(field refused2 'j["recalled"]')" = False ] && [ "$(entries)" = 3 ]; then
  ok "a file that branches on the compiler's macros is simulated every time, and never kept"
else bad "refused file kept (entries $(entries))" "$(field refused2 'j.get("recalled")')"; fi

# a build error is not a simulation to keep
analyse broken "$k/broken.cl" 1024x16
[ "$(entries)" = 3 ] && ok "a build error is not kept" || bad "a build error was kept (entries $(entries))"

# turned off: nothing written, nothing found
CLTUTOR_RESULT_CACHE=off analyse off1 "$tmp/renamed.cl" 1024x16
if [ "$(field off1 'j["recalled"]')" = False ] && [ "$(entries)" = 3 ]; then ok "CLTUTOR_RESULT_CACHE=off keeps and finds nothing"
else bad "off" "$(field off1 'j.get("recalled")') entries $(entries)"; fi

# a damaged entry is simulated again and written anew, not an error
for f in $(find "$CLTUTOR_RESULT_CACHE" -name '*.json'); do printf '{"run":' > "$f"; done
analyse damaged "$tmp/renamed.cl" 1024x16
analyse mended "$tmp/renamed.cl" 1024x16
if [ "$(field damaged 'j["recalled"]')" = False ] && [ "$(field mended 'j["recalled"]')" = True ] && same renamed damaged; then
  ok "a damaged entry is simulated again and written anew"
else bad "damaged entry" "$(cat "$tmp/damaged.err"; field damaged 'j.get("recalled")'; field mended 'j.get("recalled")'; diff "$tmp/renamed.json" "$tmp/damaged.json" | head)"; fi

finish
