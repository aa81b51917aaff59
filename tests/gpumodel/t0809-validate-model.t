#!/bin/sh
# bench/profile-and-validate.sh on this machine's device (PoCL here), chapter 7
# at its CPU size: a profile measured, every kernel of the chapter predicted
# and timed, the Markdown table and the profile's [accuracy] written.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin

out=$(sh "$root/bench/profile-and-validate.sh" "$build" --chapters 7 --cpu-sizes --id test-device --out "$tmp/v" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -f "$tmp/v/test-device.ini" ] && [ -f "$tmp/v/test-device-prediction.md" ]; then
  ok "the script writes the profile and the table"
else
  bad "the script writes the profile and the table (exit $rc)" "$out"
fi
md="$tmp/v/test-device-prediction.md"
for row in 'reference .*kernels/07-bank-conflicts/histogram.cl' 'beyond .*bin-major.cl' 'variant .*bench/variants/07-conflicted.cl' \
           'starting .*exercises/07-bank-conflicts/histogram.cl' 'bug .*bug-uchar.cl'; do
  if grep -Eq "^\| 7 \| $row" "$md" 2>/dev/null; then ok "table row: $row"; else bad "table row: $row" "$(cat "$md" 2>/dev/null)"; fi
done
# every chapter 7 variant is timed (correct at the bench size), and the same
# pattern does not take the starting file, which is wrong there
timed='\| [^|]* \| [0-9.e+-]+ \| [0-9.e+-]+ \| [0-9.]+ \|'
for v in "$root"/bench/variants/07-*.cl; do
  row="variant \| \`bench/variants/$(basename "$v")\`"
  if grep -Eq "^\| 7 \| $row $timed" "$md" 2>/dev/null; then ok "timed: $row"; else bad "timed: $row" "$(cat "$md" 2>/dev/null)"; fi
done
if grep -Eq "^\| 7 \| starting \| [^|]* $timed" "$md" 2>/dev/null; then
  bad "the starting file, wrong at the bench size, is not timed" "$(cat "$md")"
else
  ok "the starting file, wrong at the bench size, is not timed"
fi
if grep -Eq '^\| 7 \| reference \| .* \| [0-9.e+-]+ \| [0-9.e+-]+ \| [0-9.]+ \|' "$md" 2>/dev/null; then
  ok "the reference: predicted, measured and their ratio"
else
  bad "the reference: predicted, measured and their ratio" "$(cat "$md" 2>/dev/null)"
fi
if grep -q 'Geometric-mean absolute error' "$md" 2>/dev/null && grep -q '| transition |' "$md" 2>/dev/null; then
  ok "the summary and the stage transitions"
else
  bad "the summary and the stage transitions" "$(cat "$md" 2>/dev/null)"
fi
if grep -q '^\[accuracy\]' "$tmp/v/test-device.ini" && grep -Eq '^kernels = [1-9]' "$tmp/v/test-device.ini"; then
  ok "the profile gets its [accuracy]"
else
  bad "the profile gets its [accuracy]" "$(cat "$tmp/v/test-device.ini" 2>/dev/null)"
fi
expect "the validated profile: the prediction quotes its measured error" 0 'Accuracy: measured error [0-9]+% \(geometric mean over [0-9]+ kernels' -- \
  "$bin" analyze 7 --solution --no-compare --gpu "$tmp/v/test-device.ini"
# Every deliberately slow variant of every chapter: its header names the
# chapter that its file name runs it in, and it is correct at that chapter's
# default size (the validation times only correct kernels). A misnamed copy
# and a broken copy must lose.
variant_fault() { # FILE [NAME]: why FILE is no valid variant, nothing when it is one
  name=${2:-$(basename "$1")}
  n=$(printf '%s' "$name" | sed -n 's/^0*\([1-9]\)-.*\.cl$/\1/p')
  if [ -z "$n" ]; then echo "the file name $name is not NN-name.cl"; return; fi
  if ! head -1 "$1" | grep -q "^/\* Deliberately slow (chapter $n,"; then
    echo "the first line does not say 'Deliberately slow (chapter $n,': $(head -1 "$1")"; return
  fi
  if ! sed -n '1,/\*\//p' "$1" | tr '\n*' '  ' | tr -s ' ' | grep -q 'Correct, just slow\.'; then
    echo "the header comment does not say 'Correct, just slow.'"; return
  fi
  if ! out=$("$bin" run "$n" --kernel "$1" --no-timing 2>&1); then
    printf "not correct in chapter %s at its default size:\n%s\n" "$n" "$out"
  fi
}
for v in "$root"/bench/variants/*.cl; do
  why=$(variant_fault "$v")
  if [ -z "$why" ]; then ok "variant $(basename "$v")"; else bad "variant $(basename "$v")" "$why"; fi
done
cp "$root/bench/variants/06-divergent-constant.cl" "$tmp/05-misnamed.cl"
sed 's/atomic_inc(&mine\[x\[u\]\[j\]\]);/if (j) atomic_inc(\&mine[x[u][j]]);/' "$root/bench/variants/07-byte-loads.cl" > "$tmp/07-broken.cl"
for v in "$tmp/05-misnamed.cl" "$tmp/07-broken.cl"; do
  why=$(variant_fault "$v")
  if [ -n "$why" ]; then ok "a bad variant loses: $(basename "$v")"; else bad "a bad variant loses: $(basename "$v")"; fi
done
if grep -q 'if (j) atomic_inc' "$tmp/07-broken.cl"; then ok "the broken copy differs"; else bad "the broken copy differs"; fi

expect "an unknown argument: usage error" 64 'unknown argument' -- sh "$root/bench/profile-and-validate.sh" "$build" --frobnicate

finish
