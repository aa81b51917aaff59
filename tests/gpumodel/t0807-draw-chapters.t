#!/bin/sh
# analyze N --draw on the course's own kernels: for every chapter 2-9, its
# reference and its starting file, the picture is of the busiest instruction
# and its figures agree with the report's table (draw_check.py); chapters 3, 7
# and 9 draw the previous stage's instruction beside the learner's.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin
export COLUMNS=80

agree() { # agree NAME ARGS...: analyse with --json and --draw, then compare
  name=$1
  shift
  # exit 1: analysed, and the simulator found a race (chapter 2's starting file has one)
  "$bin" analyze "$@" --no-compare --json > "$tmp/r.json" 2> "$tmp/err.txt"
  rc=$?
  if [ $rc -gt 1 ]; then bad "$name: analyze --json failed ($rc)" "$(cat "$tmp/err.txt")"; return; fi
  "$bin" analyze "$@" --no-compare --draw > "$tmp/d.txt" 2> "$tmp/err.txt"
  rc=$?
  if [ $rc -gt 1 ]; then bad "$name: analyze --draw failed ($rc)" "$(cat "$tmp/err.txt" "$tmp/d.txt")"; return; fi
  wide=$(python3 -c "import sys; print(max(len(l.rstrip('\n')) for l in open(sys.argv[1])))" "$tmp/d.txt")
  if [ "$wide" -gt 80 ]; then bad "$name: the picture is $wide columns wide"; return; fi
  if msg=$(python3 "$here/draw_check.py" "$tmp/r.json" "$tmp/d.txt"); then ok "$name: $msg"; else bad "$name" "$msg"; fi
}

for n in 2 3 4 5 6 7 8 9; do
  dir=$(ls -d "$root"/exercises/0$n-* 2>/dev/null | head -n 1)
  if [ -z "$dir" ]; then echo "# skip chapter $n (not in the course)"; continue; fi
  start=$(ls "$dir"/*.cl | grep -v '/bug-' | head -n 1)
  agree "chapter $n reference" "$n" --solution
  agree "chapter $n starting file" "$n" --kernel "$start"
done

# the checker can fail: chapter 8's starting file drawn at its first global
# load (line 34), not at its busiest instruction (the up-sweep's local loads)
start8=$(ls "$root"/exercises/08-*/*.cl | grep -v '/bug-' | head -n 1)
"$bin" analyze 8 --kernel "$start8" --no-compare --json > "$tmp/r.json" 2>/dev/null
"$bin" analyze 8 --kernel "$start8" --no-compare --draw 34 > "$tmp/d.txt" 2>/dev/null
if python3 "$here/draw_check.py" "$tmp/r.json" "$tmp/d.txt" > /dev/null; then
  bad "draw_check.py takes a picture of another instruction than the busiest"
else
  ok "draw_check.py refuses a picture of another instruction than the busiest"
fi

# before -> after: the previous stage's matching instruction is drawn too
before() { # before N LINE PATTERN WHAT
  "$bin" analyze "$1" --solution --draw $2 > "$tmp/b.txt" 2> "$tmp/err.txt"
  if tr '\n' ' ' < "$tmp/b.txt" | sed 's/  */ /g' | grep -qE "$3"; then ok "chapter $1: before → after, $4"
  else bad "chapter $1: before → after, $4" "$(cat "$tmp/err.txt"; tail -n 20 "$tmp/b.txt")"; fi
}
before 3 "" "Before → after: compared with chapter 2's reference.*Sectors per request, before → after: 32 → 4; efficiency 12.5% → 100%" \
  "the transposed reads: 32 sectors per request become 4"
before 9 "" "Before → after: compared with this chapter's starting file" "the tiled transpose's stores"
line7=$(grep -n "atomic_inc(&mine\[w\[k\] & 255\])" "$root"/kernels/07-*/histogram.cl | head -n 1 | cut -d: -f1)
before 7 "$line7" "Before → after: compared with this chapter's starting file.*Contention, before → after: 32 → 1 on average" \
  "one padded copy per lane: the local atomics' contention 32 → 1"
before 8 "" "Before → after" "the scan"

finish
