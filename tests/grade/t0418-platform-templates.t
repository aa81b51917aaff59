#!/bin/sh
# The ready templates in docs/ do what the guide says: GitHub Classroom's commands (the workflow's and
# autograding.json's) pass or fail a chapter by the threshold, PrairieLearn's run script writes a gradable
# results.json, and the Slurm array's command line grades one shard.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

gc="$root/docs/github-classroom"
# a student's repository: chapter 1 right, chapter 2 crashing
repo="$tmp/repo"
put "$repo" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$repo" 02-atomic "$k/crash.cl"

# the workflow's steps: each command-grader command, with ${{ env.X }} written in from the workflow's
# env as GitHub does before the step runs
python3 - "$gc/.github/workflows/classroom.yml" > "$tmp/commands" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
env = dict(re.findall(r'^  ([A-Z_]+): "?([^"\n]*)"?$', text.split("\njobs:")[0], re.M))
for m in re.finditer(r"uses: classroom-resources/autograding-command-grader@v1\n\s+with:\n((?:[ \t]+\S.*\n)+)", text):
    body = m.group(1)
    cmd = re.search(r"command: (['\"])(.*)\1", body).group(2)
    cmd = re.sub(r"\$\{\{ *env\.([A-Z_]+) *\}\}", lambda v: env[v.group(1)], cmd)
    print(cmd)
PY
n=$(wc -l < "$tmp/commands")
[ "$n" -ge 2 ] && ok "the workflow has a command-grader step per chapter ($n)" || bad "no command-grader steps in classroom.yml"
grep -q 'autograding-grading-reporter@v1' "$gc/.github/workflows/classroom.yml" && grep -q 'runners: chapter-3,chapter-4' "$gc/.github/workflows/classroom.yml" \
  && ok "the workflow reports every chapter's result" || bad "the reporter step does not list the chapters"
# The action runs a command with only PATH, HOME, FORCE_COLOR and DOTNET_* in its environment
# (autograding-command-grader's runner): cltutor as the workflow installs it, on that PATH.
if make -s -C "$root" install BUILD="$build" PREFIX="$tmp/usr" > "$tmp/install.log" 2>&1; then
  as_action() { # as_action CMD: run CMD in the repository as the action does
    (cd "$repo" && env -i PATH="$tmp/usr/bin:/usr/bin:/bin" HOME="$tmp/home" FORCE_COLOR=true sh -c "$1")
  }
  mkdir -p "$tmp/home"
  as_action "$(head -n 1 "$tmp/commands" | sed 's/grade 3 /grade 1 /')" > "$tmp/c1" 2>&1; rc1=$?
  as_action "$(head -n 1 "$tmp/commands" | sed 's/grade 3 /grade 2 /')" > "$tmp/c2" 2>&1; rc2=$?
  if [ $rc1 -eq 0 ] && [ $rc2 -eq 1 ] && grep -q '^ok ' "$tmp/c1"; then
    ok "a workflow command, run with the action's environment only, passes a chapter over the threshold and fails one under it"
  else bad "workflow commands under the action's environment: exit $rc1 and $rc2 (wanted 0 and 1)" "$(cat "$tmp/c1" "$tmp/c2" | tail -20)"; fi
else bad "make install for the workflow's commands" "$(tail -n 20 "$tmp/install.log")"; fi
mkdir -p "$tmp/no-icd"
(cd "$repo" && CLTUTOR="$bin" OCL_ICD_VENDORS="$tmp/no-icd" sh "$gc/grade-chapter.sh" 1 0.8 > "$tmp/c3" 2>&1)
rc=$?
[ $rc -eq 69 ] && ok "grade-chapter.sh without a device exits 69 (the test fails, it is not passed)" || bad "grade-chapter.sh without a device: exit $rc"
if python3 - "$gc/autograding.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for t in j["tests"]:
    assert {"name", "setup", "run", "input", "output", "comparison", "timeout", "points"} <= set(t), t
    assert "grade-chapter.sh" in t["run"] and t["points"] > 0
PY
then ok "autograding.json has the fields of GitHub Classroom's tests"; else bad "autograding.json fields"; fi

# PrairieLearn: the question's grade.conf and run script, in a folder laid out like /grade
pl="$tmp/pl"
mkdir -p "$pl/student" "$pl/tests"
cp "$root/kernels/01-serial/histogram.cl" "$pl/student/"
sed 's/^CHAPTER=.*/CHAPTER="1"/' "$root/docs/prairielearn/question/tests/grade.conf" > "$pl/tests/grade.conf"
CLTUTOR_OCLGRIND_ICD="$tmp/none.so" PL_GRADE_ROOT="$pl" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh "$root/docs/prairielearn/run" > "$pl/stdout" 2>&1
if python3 - "$pl/results/results.json" "$root/docs/prairielearn/question/info.json" <<'PY'
import json, sys
j, info = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert j["gradable"] is True and j["score"] == 1 and j["tests"]
o = info["externalGradingOptions"]
assert info["gradingMethod"] == "External" and o["enabled"] and o["entrypoint"].endswith("/run") and o["image"]
PY
then ok "PrairieLearn: the run script grades /grade/student into a gradable results.json"
else bad "PrairieLearn run" "$(cat "$pl/stdout" "$pl/results/results.json")"; fi

# the template's WEIGHTS line reaches the grader: chapter 1 with tests:50 is worth 50 points
sed 's/^CHAPTER=.*/CHAPTER="1"/; s/^WEIGHTS=.*/WEIGHTS="tests:50"/' "$root/docs/prairielearn/question/tests/grade.conf" > "$pl/tests/grade.conf"
rm -rf "$pl/results"
CLTUTOR_OCLGRIND_ICD="$tmp/none.so" PL_GRADE_ROOT="$pl" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh "$root/docs/prairielearn/run" > "$pl/stdout" 2>&1
got=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sum(t["max_points"] for t in j["tests"]))' "$pl/results/results.json" 2>&1)
case $got in 50|50.0*|49.9*) ok "PrairieLearn: grade.conf's WEIGHTS sets the points ($got)" ;;
  *) bad "PrairieLearn: grade.conf's WEIGHTS" "$got $(cat "$pl/stdout")" ;; esac

# the Slurm array's command line, as task 2 of 3
b="$tmp/class"
for s in ada bob cy; do put "$b/$s" 01-serial "$root/kernels/01-serial/histogram.cl"; done
# Slurm opens a task's --output file before the script runs: its folder must exist when sbatch is called
out=$(sed -n 's/^#SBATCH --output=//p' "$root/docs/shards/grade-array.slurm")
case $out in
  */*) bad "the Slurm script's --output ($out) is in a folder the script itself creates" ;;
  ?*) ok "the Slurm script's --output is in the folder sbatch runs in ($out)" ;;
  *) bad "the Slurm script has no --output line" ;;
esac
# the CI matrix: a shard that exits 3 (the grader failed for some students) still uploads, and the merge runs
if python3 - "$root/docs/shards/grade-class.yml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
shard, merge = text.split("\n  merge:\n")
assert re.search(r"^    if: always\(\)", merge, re.M), "merge job without if: always()"
uploads = re.findall(r"- uses: actions/upload-artifact@v4\n(\s+)(\S.*)", shard)
assert uploads and all(line.startswith("if: always()") for _, line in uploads), uploads
PY
then ok "the CI matrix uploads every shard and merges them even when one exits 3"
else bad "the CI matrix skips the merge after a failed shard"; fi
mkdir -p "$tmp/slurm/bin"
ln -s "$bin" "$tmp/slurm/bin/cltutor"
(cd "$tmp/slurm" && PATH="$tmp/slurm/bin:$PATH" SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_ID=2 SUBMISSIONS="$b" SEED=7 CHAPTERS=1 \
  CLTUTOR_OCLGRIND_ICD="$tmp/none.so" bash "$root/docs/shards/grade-array.slurm" > out 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/slurm/shards/grades-2.csv" | cut -d, -f1)" = bob ]; then
  ok "the Slurm array's task 2 of 3 grades the second slice"
else bad "Slurm script (exit $rc)" "$(cat "$tmp/slurm/out" "$tmp/slurm/shards/grades-2.csv" 2>/dev/null)"; fi

finish
