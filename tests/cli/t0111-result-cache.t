#!/bin/sh
# Untimed runs and the cache of run results: kept, found again under any
# file name with that name in what is shown; a change of text, size, seed or
# limit runs again; timed runs and failed ones are never kept.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, workspace, json_check
export CLTUTOR_RESULT_CACHE="$tmp/results"
# runs kept, and golden answers kept (the descriptor histogram's: a "words" array)
entries() { find "$CLTUTOR_RESULT_CACHE" -name '*.json' -exec grep -L '"words"' {} + 2>/dev/null | wc -l | tr -d ' '; }
answers() { find "$CLTUTOR_RESULT_CACHE" -name '*.json' -exec grep -l '"words"' {} + 2>/dev/null | wc -l | tr -d ' '; }
recalled() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['recalled'])" "$1"; }
run() { # NAME FILE ARGS...: cltutor run 3 on FILE, JSON in $tmp/NAME.json
  name=$1 file=$2
  shift 2
  "$bin" run 3 --kernel "$file" --json "$@" > "$tmp/$name.json" 2> "$tmp/$name.err"
}
cp "$root/kernels/03-coalesced/histogram.cl" "$tmp/mine.cl"
run first "$tmp/mine.cl" --no-timing --size 700x20
run again "$tmp/mine.cl" --no-timing --size 700x20
if [ "$(recalled "$tmp/first.json")" = False ] && [ "$(recalled "$tmp/again.json")" = True ] && [ "$(entries)" = 1 ]; then
  ok "an untimed run is kept, and found again the second time"
else bad "kept and found again (entries $(entries))" "$(cat "$tmp/first.err" "$tmp/again.json")"; fi
[ "$(answers)" = 1 ] && ok "the golden answer at that size and seed is kept once" || bad "answers kept: $(answers), wanted 1"
json_check "what is found again is the run's answer, checked" 'j["status"] == "pass" and j["verify"] is not None and j["recalled"]' -- cat "$tmp/again.json"

cp "$tmp/mine.cl" "$tmp/yours.cl"
run renamed "$tmp/yours.cl" --no-timing --size 700x20
if [ "$(recalled "$tmp/renamed.json")" = True ] && grep -q 'yours.cl' "$tmp/renamed.json" && ! grep -q 'mine.cl' "$tmp/renamed.json"; then
  ok "the same text under another name is found again, and named as asked"
else bad "renamed" "$(cat "$tmp/renamed.json")"; fi

run other_size "$tmp/mine.cl" --no-timing --size 701x20
run other_seed "$tmp/mine.cl" --no-timing --size 700x20 --seed 9
run other_limit "$tmp/mine.cl" --no-timing --size 700x20 --timeout 7
printf '\n' >> "$tmp/yours.cl"
run other_text "$tmp/yours.cl" --no-timing --size 700x20
for n in other_size other_seed other_limit other_text; do
  [ "$(recalled "$tmp/$n.json")" = False ] || bad "$n was found again" "$(cat "$tmp/$n.json")"
done
[ "$(entries)" = 5 ] && ok "a new size, seed, time limit or text runs again" || bad "entries after four changes: $(entries), wanted 5"

run timed "$tmp/mine.cl" --size 700x20
run timed2 "$tmp/mine.cl" --size 700x20
if [ "$(recalled "$tmp/timed2.json")" = False ] && [ "$(entries)" = 5 ]; then ok "a timed run is never kept"
else bad "timed run kept (entries $(entries))"; fi

# a report's sentences are in the language it was asked in
LANGUAGE=zh_CN "$bin" run 3 --kernel "$tmp/mine.cl" --no-timing --size 702x20 > "$tmp/zh.txt" 2>&1
LANGUAGE=en "$bin" run 3 --kernel "$tmp/mine.cl" --no-timing --size 702x20 > "$tmp/en.txt" 2>&1
if grep -q '黄金参考' "$tmp/zh.txt" && grep -q 'match the golden reference' "$tmp/en.txt" && [ "$(entries)" = 7 ]; then
  ok "a run asked in Chinese, then in English, answers each in its language"
else bad "languages (entries $(entries))" "$(cat "$tmp/zh.txt" "$tmp/en.txt")"; fi

"$bin" run 2 --kernel "$k/out_of_bounds.cl" --no-timing --json > "$tmp/crash.json" 2>/dev/null
[ "$(entries)" = 7 ] && ok "a crash is not kept" || bad "a crash was kept (entries $(entries))" "$(cat "$tmp/crash.json")"

finish
