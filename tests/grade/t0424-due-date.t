#!/bin/sh
# A due date and a late policy: each submission's time (its newest file, an archive's own, or --submitted),
# the days late, the share taken off, no score past the limit, in every report; bad dates are refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

b="$tmp/class"
for s in early late; do put "$b/$s" 01-serial "$root/kernels/01-serial/histogram.cl"; done
touch -d "2026-12-01 12:00:00" "$b/early/exercises/01-serial/histogram.cl"
touch -d "2026-12-03 10:00:00" "$b/late/exercises/01-serial/histogram.cl"   # 1.4 days after the due date
(cd "$b" && python3 -c "import shutil; shutil.make_archive('zipped', 'zip', 'early')")
touch -d "2026-12-02 01:00:00" "$b/zipped.zip"                               # the archive's own time: a day late
due="2026-12-01 23:59"

json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
nomodel env TZ=UTC "$bin" grade 1 --dir "$b/late" --seed 3 --due "$due" --late-penalty 10 --format json -o "$tmp/late.json" 2>/dev/null
got=$(json "$tmp/late.json" "j['score'], j['late']['days'], j['late']['penalty'], j['late']['raw_score'], j['late']['submitted']")
[ "$got" = "80 2 0.2 100 2026-12-03T10:00:00Z" ] && ok "two days late at 10% a day: 80 of 100, the raw score kept" ||
  bad "a late submission's score" "$got"
nomodel env TZ=UTC "$bin" grade 1 --dir "$b/late" --seed 3 --due "$due" --late-penalty 10 --late-limit 1 --format json -o "$tmp/limit.json" 2>/dev/null
got=$(json "$tmp/limit.json" "j['score'], j['late']['penalty']")
[ "$got" = "0 1" ] && ok "past --late-limit nothing is earned" || bad "--late-limit" "$got"
nomodel "$bin" grade 1 --dir "$b/late" --seed 3 --due 2026-12-01T23:59Z --submitted 2026-12-01T23:00Z --late-penalty 10 \
  --format json -o "$tmp/ontime.json" 2>/dev/null
got=$(json "$tmp/ontime.json" "j['score'], j['late']['days'], j['late']['penalty']")
[ "$got" = "100 0 0" ] && ok "--submitted (the platform's time) on time: nothing taken off" || bad "--submitted" "$got"
nomodel env TZ=UTC "$bin" grade 1 --dir "$b/late" --seed 3 --due "$due" --late-penalty 10 > "$tmp/late.txt" 2>/dev/null
grep -q "Handed in 2026-12-03T10:00:00Z, 2 days late (due 2026-12-01T23:59:00Z): 20% of the score taken off (100 before)." "$tmp/late.txt" &&
  ok "the text report says when, how late and what it cost" || bad "the text report's late line" "$(head -6 "$tmp/late.txt")"
got=$(nomodel "$bin" grade 1 --dir "$b/late" --seed 3 --format json 2>/dev/null | python3 -c "import json,sys; j=json.load(sys.stdin); print(j['score'], 'late' in j)")
[ "$got" = "100 False" ] && ok "without --due, no late field and no change" || bad "without --due" "$got"

# a batch: each entry's own time; the CSV's score is after the penalty, the feedback says why
(cd "$tmp" && nomodel env TZ=UTC "$bin" grade 1 --batch "$b" --seed 3 --due "$due" --late-penalty 10 -o grades.csv 2> batch.err)
if python3 - "$tmp/grades.csv" <<'PY'
import csv, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert {k: rows[k]["score"] for k in ("early", "late", "zipped")} == {"early": "100", "late": "80", "zipped": "90"}, rows
PY
then ok "a batch takes each entry's own time: on time 100, two days late 80, an archive a day late 90"
else bad "late scores in a batch" "$(cat "$tmp/grades.csv" "$tmp/batch.err")"; fi
grep -q "2 days late" "$tmp/grades-reports/late.md" && ok "the student's feedback says how late" ||
  bad "the feedback's late line" "$(head -8 "$tmp/grades-reports/late.md")"

expect "--late-penalty needs --due" 64 "need --due" -- "$bin" grade 1 --dir "$b/late" --late-penalty 5
expect "a due date that is no date" 64 "give a date and time" -- "$bin" grade 1 --dir "$b/late" --due tomorrow
expect "a due date with a bad zone" 64 "give a date and time" -- "$bin" grade 1 --dir "$b/late" --due 2026-12-01T10:00+25:00
expect "--submitted is for one submission" 64 "one submission" -- "$bin" grade 1 --batch "$b" --seed 3 --due "$due" --submitted "$due"
expect "--late-penalty over 100" 64 "late-penalty" -- "$bin" grade 1 --dir "$b/late" --due "$due" --late-penalty 150

finish
