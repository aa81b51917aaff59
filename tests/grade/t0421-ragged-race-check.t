#!/bin/sh
# The race check runs again at a ragged size (a partial last work-group) where the analysed size filled
# every group: chapter 5 with a return before its barrier fails it, naming the barrier's line.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course

if ! "$bin" analyze 5 --solution --no-compare --no-predict > "$tmp/probe.txt" 2>&1; then
  echo "1..0 # SKIP the GPU memory model is not available here: $(head -n 1 "$tmp/probe.txt")"
  exit 0
fi
python3 - "$root/kernels/05-local/histogram.cl" "$tmp/early.cl" <<'PY'
import sys
s = open(sys.argv[1]).read()
anchor = "    int n_staged = min(n_features, LOCAL_FEATURES);\n"
assert anchor in s, "chapter 5's reference changed: update this test"
open(sys.argv[2], "w").write(s.replace(anchor, anchor + "    if (!in_range)\n        return;\n", 1))
PY
barrier=$(grep -n 'barrier(CLK_LOCAL_MEM_FENCE);' "$tmp/early.cl" | head -n 1 | cut -d: -f1)
"$bin" check 5 --kernel "$tmp/early.cl" > "$tmp/early.txt" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "FAIL race check .*Divergent barrier" "$tmp/early.txt" &&
   grep -q "Divergent barrier at line $barrier of kernel 'histogram'" "$tmp/early.txt"; then
  ok "check 5: a return before the barrier fails the race check, naming the barrier's line ($barrier)"
else bad "check 5 with a return before its barrier (exit $rc)" "$(grep -A1 'race check' "$tmp/early.txt")"; fi
expect "check 5: the reference passes the race check at both sizes" 0 "ok   race check" -- "$bin" check 5 --solution

finish
