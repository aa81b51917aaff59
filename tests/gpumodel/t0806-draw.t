#!/bin/sh
# The warp pictures (analyze --draw) of patterns theory fixes, against the
# drawings stored in tests/gpumodel/draw/: 80 columns, without colour
# (NAME.txt) and with it (NAME.color.txt). CLTUTOR_UPDATE_DRAWINGS=1 writes
# them anew (then read the diff).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin
golden="$here/draw"
export COLUMNS=80

# draw NAME KERNEL MARKER SIZE [colour]: the picture of the line marked /* @MARKER */, less the title lines
draw() {
  line=$(grep -n "@$3 \*/" "$k/$2" | head -n 1 | cut -d: -f1)
  if [ "$5" = colour ]; then
    env -u NO_COLOR CLICOLOR_FORCE=1 CLTUTOR_DATA="$here/course" "$bin" --workspace "$tmp/ws" \
      analyze 1 --kernel "$k/$2" --size "$4" --no-compare --draw "$line"
  else
    course analyze 1 --kernel "$k/$2" --size "$4" --no-compare --draw "$line"
  fi > "$tmp/full.txt" 2> "$tmp/err.txt"
  rc=$?
  tail -n +4 "$tmp/full.txt"
  return $rc
}

# same NAME FILE GOLDEN: FILE holds what GOLDEN does (or, updating, becomes it)
same() {
  if [ -n "$CLTUTOR_UPDATE_DRAWINGS" ]; then mkdir -p "$golden"; cp "$2" "$3"; ok "$1 (written)"; return; fi
  if [ ! -f "$3" ]; then bad "$1: no stored drawing $3 (CLTUTOR_UPDATE_DRAWINGS=1 writes it)"; return; fi
  if cmp -s "$2" "$3"; then ok "$1"; else bad "$1" "$(diff "$3" "$2" | head -n 20)"; fi
}

# fits NAME FILE: no line wider than 80 columns once colours are left out
fits() {
  wide=$(sed 's/\x1b\[[0-9;]*m//g' "$2" | python3 -c "import sys; print(max(len(l.rstrip('\n')) for l in sys.stdin))")
  if [ "$wide" -le 80 ]; then ok "$1: fits 80 columns ($wide)"; else bad "$1: $wide columns wide"; fi
}

for case in "stride-1 strides.cl s1 1024x16" "stride-2 strides.cl s2 1024x16" "stride-8 strides.cl s8 1024x16" \
            "stride-32 strides.cl s32 1024x16" "broadcast strides.cl bcast 1024x16" "float4 float4.cl pointer 1024x16" \
            "constant-broadcast constant.cl broadcast 1024x16" \
            "local-stride-1 banks.cl store1 1024x16" "local-stride-2 banks.cl store2 1024x16" \
            "local-stride-32 banks.cl store32 1024x16" "local-stride-33 banks.cl store33 1024x16" \
            "atomic-one-address atomics.cl same 1024x32"; do
  set -- $case
  if ! draw "$1" "$2" "$3" "$4" > "$tmp/$1.txt"; then bad "$1: analyze --draw failed" "$(cat "$tmp/err.txt")"; continue; fi
  same "$1, without colour" "$tmp/$1.txt" "$golden/$1.txt"
  fits "$1, without colour" "$tmp/$1.txt"
  if grep -q "$(printf '\033')" "$tmp/$1.txt"; then bad "$1: colours with NO_COLOR set"; fi
  draw "$1" "$2" "$3" "$4" colour > "$tmp/$1.color.txt"
  same "$1, in colour" "$tmp/$1.color.txt" "$golden/$1.color.txt"
  fits "$1, in colour" "$tmp/$1.color.txt"
  # the coloured picture says what the plain one does
  if sed 's/\x1b\[[0-9;]*m//g' "$tmp/$1.color.txt" | cmp -s - "$tmp/$1.txt"; then ok "$1: the same words with and without colour"
  else bad "$1: the coloured picture differs from the plain one beyond its colours"; fi
done

# what the pictures say, read back (sentences joined across their wrapped lines): the figures theory gives
says() { # says NAME FILE PATTERN
  if tr '\n' ' ' < "$tmp/$2.txt" | sed 's/  */ /g' | grep -qE "$3"; then ok "$1"; else bad "$1" "$(cat "$tmp/$2.txt")"; fi
}
says "stride 1: 4 sectors" stride-1 "32 lanes ask for 128 bytes; 4 sectors move 128 bytes: 100% efficient"
says "stride 2: 8 sectors" stride-2 "8 sectors move 256 bytes: 50% efficient"
says "stride 8: 32 sectors" stride-8 "32 sectors move 1024 bytes: 12.5% efficient"
says "stride 32: 32 sectors" stride-32 "32 sectors move 1024 bytes: 12.5% efficient"
says "broadcast: one sector" broadcast "Broadcast: one sector serves all 32 lanes"
says "float4: 16 sectors" float4 "16 sectors move 512 bytes: 100% efficient"
says "local stride 1: degree 1" local-stride-1 "no bank conflict \(degree 1\)"
says "local stride 2: degree 2" local-stride-2 "bank-conflict degree 2\."
says "local stride 32: degree 32" local-stride-32 "bank-conflict degree 32\."
says "local stride 33: degree 1" local-stride-33 "no bank conflict \(degree 1\)"
says "atomics: contention 32" atomic-one-address "32 lanes on one address take turns: contention 32"

# a stored drawing tells patterns apart: stride 8's is not stride 1's
if cmp -s "$tmp/stride-8.txt" "$golden/stride-1.txt"; then bad "stride 8 drawn as stride 1"; else ok "a different pattern does not match another's drawing"; fi

# colours off when NO_COLOR is set, even when forced
env CLICOLOR_FORCE=1 NO_COLOR=1 CLTUTOR_DATA="$here/course" "$bin" --workspace "$tmp/ws" analyze 1 \
  --kernel "$k/strides.cl" --size 1024x16 --no-compare --draw > "$tmp/nc.txt" 2>&1
if grep -q "$(printf '\033')" "$tmp/nc.txt"; then bad "NO_COLOR wins over CLICOLOR_FORCE"; else ok "NO_COLOR wins over CLICOLOR_FORCE"; fi

# bad --draw arguments: a usage error naming the value, or the lines that have accesses
expect "--draw on a line without accesses names the lines that have one" 64 "Line 1 makes no memory access" -- \
  course analyze 1 --kernel "$k/strides.cl" --size 1024x16 --no-compare --draw 1
expect "--draw takes a line number" 64 "not 'x7'" -- course analyze 1 --kernel "$k/strides.cl" --draw=x7
expect "--draw and --json do not go together" 64 "cannot be used together" -- course analyze 1 --draw --json

finish
