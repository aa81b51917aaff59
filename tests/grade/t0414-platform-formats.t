#!/bin/sh
# The platforms' formats against their published field lists: PrairieLearn's results.json, CodeRunner's
# combinator grader JSON (from --kernel - on standard input), --score-only, JUnit weights, --pass, hidden inputs.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$tmp/mixed" 02-atomic "$k/garbage.cl"   # wrong answers: partly failing (t0410 grades a crash)
for f in json prairielearn coderunner gradescope junit markdown; do
  nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format $f -o "$tmp/mixed.$f" 2>/dev/null
done
nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format prairielearn --hidden-inputs visible -o "$tmp/shown.prairielearn" 2>/dev/null
nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format markdown --hidden-inputs visible -o "$tmp/shown.markdown" 2>/dev/null

# PrairieLearn's external grader results: gradable, score 0..1, message, output, tests with name, description,
# points, max_points, message, output (and nothing else)
if python3 - "$tmp/mixed.prairielearn" "$tmp/mixed.json" <<'PY'
import json, sys
j, g = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
top = {"gradable", "score", "message", "output", "images", "tests"}
test = {"name", "description", "points", "max_points", "message", "output", "images"}
assert set(j) <= top and j["gradable"] is True, set(j) - top
assert isinstance(j["score"], (int, float)) and 0 <= j["score"] <= 1
assert abs(j["score"] - g["score"] / g["max_score"]) < 1e-4, (j["score"], g["score"], g["max_score"])
assert isinstance(j["message"], str) and isinstance(j["output"], str)
assert len(j["tests"]) == g["tests"]
for t in j["tests"]:
    assert set(t) <= test, set(t) - test
    assert isinstance(t["name"], str) and t["name"] and isinstance(t["message"], str) and isinstance(t["output"], str)
    assert isinstance(t["points"], (int, float)) and isinstance(t["max_points"], (int, float))
    assert 0 <= t["points"] <= t["max_points"] + 1e-9
assert abs(sum(t["points"] for t in j["tests"]) / sum(t["max_points"] for t in j["tests"]) - j["score"]) < 1e-3
PY
then ok "PrairieLearn results.json: gradable, score 0..1 and its tests' fields, as published"
else bad "PrairieLearn fields" "$(cat "$tmp/mixed.prairielearn")"; fi

# hidden inputs: withheld by default where results are shown at once, shown with --hidden-inputs visible
sizes=$(python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
print(' '.join(t['size'] for c in j['chapters'] for t in c['tests'] if t['kind'] == 'hidden'))" "$tmp/mixed.json")
leak=""
for s in $sizes; do grep -q "$s" "$tmp/mixed.prairielearn" "$tmp/mixed.coderunner" "$tmp/mixed.markdown" && leak="$leak $s"; done
if [ -n "$sizes" ] && [ -z "$leak" ] && grep -q "$(echo $sizes | cut -d' ' -f1)" "$tmp/shown.prairielearn" &&
   grep -q "$(echo $sizes | cut -d' ' -f1)" "$tmp/shown.markdown"; then
  ok "hidden sizes are withheld from PrairieLearn, CodeRunner and the feedback by default, shown with --hidden-inputs visible"
else bad "hidden sizes in PrairieLearn, CodeRunner or feedback results:$leak (sizes: $sizes)"; fi
# the feedback a student reads: a title, the total as the JSON has it, a table row per test
if python3 - "$tmp/mixed.markdown" "$tmp/mixed.json" <<'PY'
import json, sys
md, g = open(sys.argv[1]).read().splitlines(), json.load(open(sys.argv[2]))
assert md[0] == "# Feedback for mixed", md[0]
total = [l for l in md if l.startswith("**Total: ")][0].strip("*").split(": ")[1].split(" / ")
assert abs(float(total[0]) - g["score"]) < 0.01 and abs(float(total[1]) - g["max_score"]) < 0.01, (total, g["score"])
rows = [l for l in md if l.startswith("| ") and not l.startswith("| Result")]
assert len(rows) == g["tests"], (len(rows), g["tests"])
assert sum(l.count(" | ") == 3 for l in rows) == len(rows), "a cell holds a bare |"
assert any(l.startswith("## Chapter 2: ") for l in md)
PY
then ok "feedback (--format markdown): title, total, one table row per test, cells escaped"
else bad "feedback in Markdown" "$(head -20 "$tmp/mixed.markdown")"; fi
if python3 - "$tmp/mixed.gradescope" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
hidden = [t for t in j["tests"] if "hidden" in t["tags"] or "safety" in t["tags"]]
others = [t for t in j["tests"] if t not in hidden]
assert hidden and all(t["visibility"] == "after_due_date" for t in hidden)
assert all(t["visibility"] == "visible" for t in others)
assert "seed" not in j["output"]
PY
then ok "Gradescope: hidden tests are after_due_date by default, the others visible, no seed shown"
else bad "Gradescope visibility of hidden tests" "$(head -c 1500 "$tmp/mixed.gradescope")"; fi
# the leaderboard: a kernel time for each chapter whose hidden tests all passed (1), none for a wrong one (2)
if python3 - "$tmp/mixed.gradescope" "$tmp/mixed.json" <<'PY'
import json, sys
j, g = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ms = [t["kernel_ms"] for c in g["chapters"] if c["chapter"] == 1 for t in c["tests"]
      if t["kind"] == "hidden" and t.get("kernel_ms")]
assert ms, "chapter 1 has no timed hidden test"
board = j["leaderboard"]
assert [e["name"] for e in board] == ["Chapter 1 kernel time (ms)"], board
assert board[0]["order"] == "asc" and board[0]["value"] > 0, board  # a run of its own: its own time
PY
then ok "Gradescope leaderboard: the kernel time of a chapter whose hidden tests passed, none for a wrong chapter"
else bad "Gradescope leaderboard" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('leaderboard'))" "$tmp/mixed.gradescope")"; fi

# CodeRunner's combinator template grader: only the fields it allows, a fraction 0..1, a table with a header row
printf '%s\n' "$(cat "$k/garbage.cl")" | nomodel "$bin" grade 2 --kernel - --seed 21 --format coderunner > "$tmp/cr.json" 2> "$tmp/cr.err"
rc=$?
cat "$root/kernels/02-atomic/histogram.cl" | nomodel "$bin" grade 2 --kernel - --seed 21 --format coderunner > "$tmp/cr-good.json" 2>/dev/null
if [ $rc -eq 1 ] && python3 - "$tmp/cr.json" "$tmp/cr-good.json" "$tmp/mixed.coderunner" <<'PY'
import json, sys
allowed = {"fraction", "prologuehtml", "testresults", "epiloguehtml", "feedbackhtml", "columnformats",
           "showdifferences", "showoutputonly", "graderstate", "instructorhtml"}
for f, want in ((sys.argv[1], 0), (sys.argv[2], 1), (sys.argv[3], None)):
    j = json.load(open(f))
    assert set(j) <= allowed, set(j) - allowed
    assert isinstance(j["fraction"], (int, float)) and 0 <= j["fraction"] <= 1
    if want is not None: assert abs(j["fraction"] - want) < 1e-9, (f, j["fraction"])
    rows = j["testresults"]
    assert isinstance(rows, list) and len(rows) >= 2 and all(isinstance(r, list) for r in rows)
    assert all(len(r) == len(rows[0]) for r in rows) and rows[0][0] == "iscorrect"
    assert all(isinstance(r[0], bool) for r in rows[1:])
    assert len(j["columnformats"]) == len(rows[0]) - 1
PY
then ok "CodeRunner: grade N --kernel - reads the answer on standard input; fraction, testresults, columnformats"
else bad "CodeRunner JSON (exit $rc)" "$(cat "$tmp/cr.err" "$tmp/cr.json")"; fi

# --score-only: one number, 0..1, for CodeGrade's capture
out=$(cat "$root/kernels/02-atomic/histogram.cl" | nomodel "$bin" grade 2 --kernel - --seed 21 --score-only 2>/dev/null)
bad_out=$(nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --score-only 2>/dev/null)
want=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('%.4f' % (j['score']/j['max_score']))" "$tmp/mixed.json")
if [ "$out" = "1.0000" ] && [ "$bad_out" = "$want" ]; then ok "--score-only prints the score as a fraction 0..1 ($bad_out)"
else bad "--score-only printed '$out' and '$bad_out' (wanted 1.0000 and $want)"; fi

# --kernel grades the exercise alone: the chapter's fixed listings are left out, not failed as missing
ex3=$(cat "$root/kernels/03-coalesced/histogram.cl" | nomodel "$bin" grade 3 --kernel - --seed 21 --score-only 2>/dev/null)
nomodel "$bin" grade 3 --plan --seed 21 --exercise-only --format json > "$tmp/ex3.json" 2>/dev/null
nomodel "$bin" grade 3 --plan --seed 21 --format json > "$tmp/all3.json" 2>/dev/null
if [ "$ex3" = "1.0000" ] && python3 - "$tmp/ex3.json" "$tmp/all3.json" <<'PY'
import json, sys
ex, al = (json.load(open(f))["chapters"][0]["tests"] for f in sys.argv[1:3])
assert any(t["kind"] == "fix" for t in al) and not any(t["kind"] == "fix" for t in ex)
assert [t for t in al if t["kind"] != "fix"] == ex
PY
then ok "--kernel and --exercise-only grade the exercise's tests only (score $ex3)"
else bad "--exercise-only (score $ex3)" "$(head -c 600 "$tmp/ex3.json")"; fi

# JUnit: each test's weight as a property of its suite, by id, in the order of the test cases
if python3 - "$tmp/mixed.junit" "$tmp/mixed.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
root, j = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
for suite, ch in zip(root.findall("testsuite"), j["chapters"]):
    props = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
    for t in ch["tests"]:
        assert abs(float(props["max_points." + t["id"]]) - t["max_score"]) < 0.01, t["id"]
        assert abs(float(props["points." + t["id"]]) - t["score"]) < 0.01, t["id"]
PY
then ok "JUnit: each test's points and max_points are properties of its chapter's suite"
else bad "JUnit weights" "$(head -c 1500 "$tmp/mixed.junit")"; fi
xmllint --noout --schema "$here/junit.xsd" "$tmp/mixed.junit" 2>/dev/null && ok "JUnit with weights still validates" || bad "JUnit with weights does not validate"

# --pass: the exit status a GitHub Classroom test reads
expect "--pass 0.3: a partial grade above the threshold exits 0" 0 '' -- nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --pass 0.3 --score-only
expect "--pass 0.9: below the threshold exits 1" 1 '' -- nomodel "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --pass 0.9 --score-only
expect "--kernel needs one chapter" 64 'one LESSON' -- "$bin" grade --kernel "$k/crash.cl"
expect "--hidden-inputs takes after_due_date or visible" 64 'after_due_date or visible' -- "$bin" grade 1 --hidden-inputs soon
expect "--format csv is for --batch" 64 'csv is for --batch' -- "$bin" grade 1 --format csv
expect "--pass is for one submission" 64 'pass is for one submission' -- "$bin" grade 1 --batch "$tmp" --pass 0.5

finish
