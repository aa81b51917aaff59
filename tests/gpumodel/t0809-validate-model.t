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
expect "an unknown argument: usage error" 64 'unknown argument' -- sh "$root/bench/profile-and-validate.sh" "$build" --frobnicate

finish
