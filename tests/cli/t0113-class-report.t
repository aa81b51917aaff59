#!/bin/sh
# cltutor class: a class's progress from 32 students' workspaces, as a table, CSV and JSON, without changing them.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

# 30 generated workspaces in a class folder (student s00 passed every chapter, s01 none, the others
# s%9 chapters), a student whose chapter 1 changed since it passed, a damaged progress file, and
# a home whose installed course keeps the workspace in .local/share/cltutor
python3 - "$tmp" "$root/lessons" <<'PY'
import json, os, sys
tmp = sys.argv[1]
ids = sorted(d for d in os.listdir(sys.argv[2]) if d[:2].isdigit())
def write(ws, chapters):
    os.makedirs(os.path.join(ws, ".cltutor"), exist_ok=True)
    with open(os.path.join(ws, ".cltutor", "progress.json"), "w") as f:
        json.dump({"version": 2, "last": "", "chapters": chapters}, f)
def chapter(state, runs, best=0.0, hints=0):
    return {"state": state, "best_ms": best, "best_device": "pthread" if best else "", "hints_seen": hints,
            "passed_hash": "0123456789abcdef" if state == "passed" else "0000000000000000",
            "ever_passed": state == "passed",
            "runs": [{"when": 1764000000 + 60 * r, "origin": "check", "passed": True, "status": "pass",
                      "median_ms": best, "device": "pthread", "file_hash": "0123456789abcdef",
                      "verdict": "passed" if state == "passed" else "failed"} for r in range(runs)]}
for s in range(30):
    done = 9 if s == 0 else 0 if s == 1 else s % 9
    chs = {ids[i]: chapter("passed", 2, 1.5 + i + s / 100, hints=1) for i in range(done)}
    if done < 9 and s != 1:
        chs[ids[done]] = chapter("failing", 3)
    write(os.path.join(tmp, "class", "s%02d" % s), chs)
write(os.path.join(tmp, "class", "changed"), {ids[0]: chapter("passed", 1, 2.0)})
os.makedirs(os.path.join(tmp, "class", "changed", "exercises", ids[0]), exist_ok=True)
os.makedirs(os.path.join(tmp, "class", "damaged", ".cltutor"), exist_ok=True)
open(os.path.join(tmp, "class", "damaged", ".cltutor", "progress.json"), "w").write('{"chapters": ')
write(os.path.join(tmp, "home", "hana", ".local", "share", "cltutor"), {ids[0]: chapter("passed", 4, 3.25)})
os.makedirs(os.path.join(tmp, "class", "not-a-workspace"), exist_ok=True)
PY
[ -f "$tmp/class/s00/.cltutor/progress.json" ] || bad "the class was generated" "$(ls -R "$tmp" | head)"
# the changed student's file of chapter 1 is no longer the one that passed
ex=$("$bin" list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
file=$(sed -n 's/^exercise *= *//p' "$root/lessons/$ex/lesson.ini")
echo "/* edited since */" > "$tmp/class/changed/exercises/$ex/$file"
before=$(cd "$tmp" && find class home -type f -exec md5sum {} + | sort)

out=$("$bin" class "$tmp/class" "$tmp/home" 2>"$tmp/err"); rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -Eq '^s00 +9/9 +P P P P P P P P P +18 ' &&
   printf '%s\n' "$out" | grep -Eq '^s01 +0/9 +\. \. \. \. \. \. \. \. \. +0 +-$' &&
   printf '%s\n' "$out" | grep -Eq '^s04 +4/9 +P P P P F \. \. \. \. +11 ' &&
   printf '%s\n' "$out" | grep -Eq '^changed +0/9 +C \. ' &&
   printf '%s\n' "$out" | grep -Eq '^hana +1/9 +P \. ' &&
   printf '%s\n' "$out" | grep -q '^damaged .*not cltutor progress' &&
   ! printf '%s\n' "$out" | grep -q 'not-a-workspace'; then
  ok "class: one row per student, marks per chapter, runs, a damaged file named (exit 1)"
else bad "class: one row per student, marks per chapter, runs, a damaged file named (exit 1)" "rc=$rc
$out"; fi
rows=$(printf '%s\n' "$out" | grep -Ec '^(s[0-9][0-9]|changed|damaged|hana) ')
[ "$rows" = 33 ] && ok "class: 33 students, from a class folder and a home" || bad "class: 33 students" "$rows rows"

"$bin" class --csv "$tmp/class" "$tmp/home" > "$tmp/class.csv" 2>/dev/null
if python3 - "$tmp/class.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {(r["student"], r["chapter"][:2]): r for r in rows}
assert len(rows) == 33 * 9, len(rows)
assert by[("s00", "09")]["state"] == "passed" and float(by[("s00", "09")]["best_ms"]) == 9.5, by[("s00", "09")]
assert by[("s00", "01")]["runs"] == "2" and by[("s00", "01")]["hints_seen"] == "1"
assert by[("s00", "01")]["last_run"] == "2025-11-24 16:01", by[("s00", "01")]["last_run"]
assert by[("s04", "05")]["state"] == "failing" and by[("s04", "05")]["best_ms"] == ""
assert by[("changed", "01")]["state"] == "changed"
assert by[("damaged", "01")]["error"].endswith("is not cltutor progress (damaged or truncated)")
assert by[("hana", "01")]["best_ms"] == "3.25"
PY
then ok "class --csv: a line per student and chapter with state, runs, best time, hints, last run"
else bad "class --csv" "$(head -5 "$tmp/class.csv")"; fi

json_check "class --json: each student's chapters" "len(j['students']) == 33 and [s for s in j['students'] if s['student'] == 's00'][0]['passed'] == 9 and [s for s in j['students'] if s['student'] == 'damaged'][0]['error'] and [s for s in j['students'] if s['student'] == 'hana'][0]['workspace'].endswith('/home/hana/.local/share/cltutor')" -- "$bin" class --json "$tmp/class" "$tmp/home"

after=$(cd "$tmp" && find class home -type f -exec md5sum {} + | sort)
[ "$before" = "$after" ] && ok "class: no file in the workspaces changed, none was added (the damaged one is not set aside)" ||
  bad "class changed the workspaces" "$after"

"$bin" class --board "$tmp/class" "$tmp/home" > "$tmp/board" 2>/dev/null
if python3 - "$tmp/board" <<'PY'
import re, sys
boards, cur = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"Chapter (\d+): ", line)
    if m:
        cur = boards.setdefault(int(m.group(1)), [])
    elif re.match(r" *\d+\. ", line):
        cur.append(line.split()[1:3])
assert len(boards) == 9, boards.keys()
assert boards[9] == [["s00", "9.500"]], boards[9]
assert boards[1][0] == ["s00", "1.500"] and boards[1][-1] == ["hana", "3.250"], boards[1]
assert "changed" not in [n for n, _ in boards[1]] and "s01" not in [n for n, _ in boards[1]]
assert [float(t) for _, t in boards[1]] == sorted(float(t) for _, t in boards[1])
PY
then ok "class --board: per chapter, the students who passed it, fastest first"
else bad "class --board" "$(head -20 "$tmp/board")"; fi
expect "class with two formats" 64 "choose one" -- "$bin" class --json "$tmp/class" --csv
expect "class without a folder" 64 "give the students' workspaces" -- "$bin" class
expect "class of a missing folder" 64 "is not a folder" -- "$bin" class "$tmp/nowhere"
expect "class of a folder without workspaces" 64 "holds no cltutor workspace" -- "$bin" class "$tmp/class/not-a-workspace"
LANGUAGE=zh_CN LANG=C.UTF-8 "$bin" class "$tmp/class/s00" > "$tmp/zh.out" 2>&1
grep -q '学生' "$tmp/zh.out" && ok "class: the table in Chinese" || bad "class: the table in Chinese" "$(cat "$tmp/zh.out")"

finish
