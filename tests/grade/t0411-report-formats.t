#!/bin/sh
# Every report format stays valid with a misbehaving kernel: Gradescope's fields, JUnit against a schema, TAP through prove.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

# out.FORMAT: a kernel that prints (full marks); crash.FORMAT: one that crashes
rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
for kernel in out:prints crash:crash; do
  put "$tmp/mixed" 02-atomic "$k/${kernel#*:}.cl"
  for f in json junit tap gradescope; do
    "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format $f -o "$tmp/${kernel%%:*}.$f" 2>/dev/null
  done
done
for f in out crash; do
  if python3 - "$tmp/$f.gradescope" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert isinstance(j["score"], (int, float)) and isinstance(j["tests"], list) and j["tests"]
vis = {"hidden", "after_due_date", "after_published", "visible"}
for t in j["tests"]:
    assert isinstance(t["name"], str) and t["name"]
    assert isinstance(t["score"], (int, float)) and isinstance(t["max_score"], (int, float))
    assert 0 <= t["score"] <= t["max_score"] + 1e-9
    assert t.get("status") in ("passed", "failed") or (t["max_score"] == 0 and "status" not in t)
    assert t["status"] != "passed" or abs(t["score"] - t["max_score"]) < 1e-9
    assert isinstance(t["output"], str) and t["visibility"] in vis
assert abs(sum(t["score"] for t in j["tests"]) - j["score"]) < 0.01
assert j["visibility"] in vis and j["stdout_visibility"] in vis
PY
  then ok "Gradescope results.json has score, max_score, status, output and visibility ($f)"; else bad "Gradescope fields ($f)"; fi
  if xmllint --noout --schema "$here/junit.xsd" "$tmp/$f.junit" > "$tmp/xml.out" 2>&1; then
    ok "JUnit XML validates against the JUnit schema ($f)"
  else bad "JUnit XML ($f)" "$(cat "$tmp/xml.out")"; fi
  if python3 - "$tmp/$f.junit" "$tmp/$f.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
root, j = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
assert root.tag == "testsuites" and int(root.get("tests")) == j["tests"]
cases = root.findall("testsuite/testcase")
assert len(cases) == j["tests"]
bad = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
assert bad == j["failed"], (bad, j["failed"])
PY
  then ok "JUnit XML counts agree with the grade ($f)"; else bad "JUnit counts ($f)"; fi
  prove --exec cat "$tmp/$f.tap" > "$tmp/prove.out" 2>&1
  if grep -q 'Parse errors' "$tmp/prove.out" || ! grep -Eq "^Files=1, Tests=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tests'])" "$tmp/$f.json")," "$tmp/prove.out"; then
    bad "TAP parsed by prove ($f)" "$(cat "$tmp/prove.out")"
  else ok "TAP parsed by prove, every test counted ($f)"; fi
done
if grep -q '^ok 1 - all tests passed' "$tmp/out.tap" || grep -q '"score": 1000' "$tmp/out.gradescope"; then
  bad "a kernel's output leaked into a report as a result"
else ok "a kernel's printed 'ok' lines and JSON cannot pass for results"; fi
prove --exec cat "$tmp/out.tap" > /dev/null 2>&1 && ok "prove passes a full-marks TAP report" || bad "prove failed a full-marks report"

finish
