#!/bin/sh
# cltutor run: a correct run in text and JSON, --compare, a wrong result, a build error.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

# ---- a correct run, text and JSON
expect "reference of chapter 2 is correct with timing" 0 'median +[0-9.]+ (ms|us|s)' -- "$bin" run 2 --kernel "$root/kernels/02-atomic/histogram.cl" --size 4096x64
json_check "run --json" "j['status']=='pass' and j['exit_code']==0 and j['timing']['median_ms']>0 and j['timing']['runs']>=3 and j['verify']['ok'] and j['verify']['actual_total']==2000 and j['device']['name'] and j['size']=='2000x32x64' and j['seed']==9" -- "$bin" run 2 --solution --size 2000x32 --seed 9 --json
expect "--compare times the references beside yours" 0 'chapter 1 reference +[0-9.]+ ms' -- "$bin" run 2 --solution --compare --size 2000x64
expect "a file with one kernel runs whatever its name" 0 'Correct' -- "$bin" run 2 --kernel "$k/any_name.cl" --size 500x16 --no-timing

# ---- a wrong result and a build error: their own message and exit status
expect "wrong result: exit 1 and the diff" 1 'bin +expected +actual' -- "$bin" run 2 --kernel "$k/wrong_bin.cl" --size 1000x16
json_check "wrong result in JSON" "j['status']=='wrong' and j['exit_code']==1 and not j['verify']['ok'] and j['verify']['wrong']>0 and len(j['verify']['diff'])>0" -- "$bin" run 2 --kernel "$k/wrong_bin.cl" --size 1000x16 --json
expect "syntax error: exit 2, the learner's file and line" 2 'syntax_error\.cl:4:[0-9]+: error' -- "$bin" run 2 --kernel "$k/syntax_error.cl"
out=$("$bin" run 2 --kernel "$k/syntax_error.cl" 2>&1)
if printf '%s' "$out" | grep -q -e 'tempfile' -e 'errors\? generated'; then bad "build log hides the runtime's temporary file" "$out"; else ok "build log hides the runtime's temporary file"; fi
json_check "syntax error in JSON" "j['status']=='build_error' and j['exit_code']==2 and j['error_location']['line']==4" -- "$bin" run 2 --kernel "$k/syntax_error.cl" --json

finish
