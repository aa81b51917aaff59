#!/bin/sh
# A grader that cannot run (no OpenCL device, a course it cannot read) exits 69 and is a failure in every
# format, never a grade of 0: JSON error, JUnit error, TAP bail-out, Gradescope without a score (and
# run_autograder exiting non-zero), PrairieLearn gradable false, CodeRunner without a fraction, no score.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

rm -rf "$tmp/sub" && mkdir -p "$tmp/sub" "$tmp/no-icd"
put "$tmp/sub" 01-serial "$root/kernels/01-serial/histogram.cl"
for why in device course; do
  for f in json junit tap gradescope prairielearn coderunner score; do
    if [ $f = score ]; then fmt=--score-only; else fmt="--format $f"; fi
    if [ $why = device ]; then
      env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" grade 1 --dir "$tmp/sub" $fmt -o "$tmp/$why.$f" 2> "$tmp/$why.$f.err"
    else
      env CLTUTOR_DATA="$tmp/no-course" "$bin" grade 1 --dir "$tmp/sub" $fmt -o "$tmp/$why.$f" 2> "$tmp/$why.$f.err"
    fi
    echo $? > "$tmp/$why.$f.rc"
  done
  rcs=$(cat "$tmp/$why".*.rc | sort -u | tr '\n' ' ')
  [ "$rcs" = "69 " ] && ok "no $why: exit 69 in every format" || bad "no $why: exit statuses $rcs (wanted 69)"
  if python3 - "$tmp/$why" <<'PY'
import json, sys, xml.etree.ElementTree as ET
p = sys.argv[1]
j = json.load(open(p + ".json"))
assert isinstance(j["error"], str) and j["error"], "json: no error"
root = ET.parse(p + ".junit").getroot()
assert int(root.get("errors")) >= 1 and root.find("testsuite/testcase/error") is not None, "junit: no error"
g = json.load(open(p + ".gradescope"))
assert "score" not in g and g["tests"] == [] and "could not run" in g["output"], "gradescope: a score"
pl = json.load(open(p + ".prairielearn"))
assert pl["gradable"] is False and "score" not in pl and pl["message"], "prairielearn: gradable"
import re
assert not re.search(r"\d+x\d+", pl["message"] + g["output"]), "a hidden size in a student's message"
cr = json.load(open(p + ".coderunner"))
assert "fraction" not in cr and "could not run" in cr["prologuehtml"], "coderunner: a fraction"
assert open(p + ".score").read() == "", "score-only: printed a score"
PY
  then ok "no $why: JSON error, JUnit error, Gradescope without score, PrairieLearn gradable false, CodeRunner without fraction, no score"
  else bad "no $why: a format did not report the failure" "$(cat "$tmp/check.out" 2>/dev/null)"; fi
  prove --exec cat "$tmp/$why.tap" > "$tmp/prove.out" 2>&1
  if [ $? -ne 0 ] && grep -q 'Bail out\|FAILED--Further testing stopped' "$tmp/prove.out"; then
    ok "no $why: TAP bails out and prove fails"
  else bad "no $why: prove accepted the TAP of a grader that could not run" "$(cat "$tmp/$why.tap" "$tmp/prove.out")"; fi
done

# the same through run_autograder: a non-zero exit and no results.json to record
ag="$tmp/autograder"
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
cp "$root/docs/gradescope/run_autograder" "$ag/run_autograder"
printf 'CHAPTERS="1"\nOPTIONS="--timeout 5"\n' > "$ag/source/grade.conf"
cp -R "$tmp/sub/exercises" "$ag/submission/"
(cd "$ag" && OCL_ICD_VENDORS="$tmp/no-icd" AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh ./run_autograder > "$ag/stdout" 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ ! -e "$ag/results/results.json" ] && grep -q 'could not run' "$ag/stdout"; then
  ok "run_autograder without a device exits $rc and leaves no results.json (Gradescope flags a failure)"
else bad "run_autograder without a device (exit $rc)" "$(cat "$ag/stdout"; ls "$ag/results")"; fi

# PrairieLearn's run script likewise writes gradable false
pl="$tmp/pl"
mkdir -p "$pl/student" "$pl/tests" "$pl/results"
cp "$root/kernels/01-serial/histogram.cl" "$pl/student/"
printf 'CHAPTER="1"\n' > "$pl/tests/grade.conf"
OCL_ICD_VENDORS="$tmp/no-icd" PL_GRADE_ROOT="$pl" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh "$root/docs/prairielearn/run" > "$pl/stdout" 2>&1
rc=$?
if [ $rc -eq 0 ] && python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j['gradable'] is False else 1)" "$pl/results/results.json"; then
  ok "PrairieLearn run script without a device: results.json says gradable false"
else bad "PrairieLearn run without a device (exit $rc)" "$(cat "$pl/stdout" "$pl/results/results.json")"; fi

finish
