#!/bin/sh
# Gradescope: run_autograder in a folder laid out like the autograder's, with and without an OpenCL device.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

# the submission: chapter 1's reference, chapter 2's crashing kernel replaced by its reference
rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$tmp/mixed" 02-atomic "$k/crash.cl"
ag="$tmp/autograder"
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
cp "$root/docs/gradescope/run_autograder" "$ag/run_autograder"
printf 'CHAPTERS="1 2"\nOPTIONS="--timeout 5"\n' > "$ag/source/grade.conf"
cp -R "$tmp/mixed/exercises" "$ag/submission/"
put "$ag/submission" 02-atomic "$root/kernels/02-atomic/histogram.cl"
(cd "$ag" && AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh ./run_autograder > "$ag/results/stdout" 2>&1)
rc=$?
if [ $rc -eq 0 ] && python3 - "$ag/results/results.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["score"] == 200 and len(j["tests"]) == 23, (j["score"], len(j["tests"]))  # chapter 2: its cost check too; 2 shapes a chapter
assert all(t["status"] == "passed" for t in j["tests"])
assert "after the due date" in j["output"] and "seed" in j["extra_data"]
PY
then ok "run_autograder grades /autograder/submission into results/results.json"
else bad "run_autograder (exit $rc)" "$(cat "$ag/results/stdout" "$ag/results/results.json" 2>/dev/null)"; fi
ls "$ag/submission/exercises/02-atomic" | grep -qv '^histogram.cl$' && bad "the grader wrote into the submission" || ok "the grader writes nothing into the submission"
mkdir -p "$tmp/no-icd"
rm -f "$ag/results/results.json"
(cd "$ag" && OCL_ICD_VENDORS="$tmp/no-icd" AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh ./run_autograder > "$ag/results/stdout" 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ ! -e "$ag/results/results.json" ] && grep -q 'could not run' "$ag/results/stdout"; then
  ok "without an OpenCL device, run_autograder exits $rc with no results.json: an autograder failure, not a zero"
else bad "no device in run_autograder (exit $rc)" "$(cat "$ag/results/stdout" "$ag/results/results.json" 2>/dev/null)"; fi
expect "no OpenCL device: grade exits 69" 69 'could not run' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" grade 2 --dir "$tmp/mixed"

# As root, the grade runs as the ordinary user setup.sh makes (here: nobody, with the program and the
# course copied where nobody can read them), never as root; without that user it says it grades as root.
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
  pub="$tmp/pub"
  mkdir -p "$pub/build" && chmod 755 "$tmp" "$pub" "$pub/build"
  cp -R "$root/lessons" "$root/exercises" "$root/kernels" "$root/devices" "$pub/"
  cp "$bin" "$(dirname "$bin")/cltutor-gpumodel.so" "$pub/build/" && cp -R "$(dirname "$bin")/locale" "$pub/build/"
  chmod -R a+rX "$pub"
  rm -f "$ag/results/results.json"
  (cd "$ag" && env -u CLTUTOR_GRADE_AS_ROOT AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$pub" CLTUTOR_BIN="$pub/build/cltutor" \
    CLTUTOR_GRADER_USER=nobody sh ./run_autograder > "$ag/results/stdout" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && ! grep -q 'runs as root' "$ag/results/stdout" &&
     python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["score"] == 200 else 1)' "$ag/results/results.json"; then
    ok "as root, run_autograder grades as the ordinary user (full marks, and no word of root in the log)"
  else bad "run_autograder as the ordinary user (exit $rc)" "$(cat "$ag/results/stdout" "$ag/results/results.json" 2>/dev/null)"; fi
  rm -f "$ag/results/results.json"
  (cd "$ag" && env -u CLTUTOR_GRADE_AS_ROOT AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$pub" CLTUTOR_BIN="$pub/build/cltutor" \
    CLTUTOR_GRADER_USER=no-such-grader sh ./run_autograder > "$ag/results/stdout" 2>&1)
  if grep -q "no user 'no-such-grader'" "$ag/results/stdout" && grep -q 'runs as root' "$ag/results/stdout" &&
     [ -s "$ag/results/results.json" ]; then
    ok "as root without the grader's user, run_autograder grades, and the log says it ran as root"
  else bad "run_autograder without the grader's user" "$(cat "$ag/results/stdout")"; fi
else
  ok "# SKIP the grader's user: not root here (run_autograder drops to it only as root)"
fi

finish
