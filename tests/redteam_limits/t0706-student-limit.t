#!/bin/sh
# --student-limit: a student whose grading runs past it is stopped and named, the others are not.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

make_batch
rm -rf "$tmp/b2" && mkdir -p "$tmp/b2"
cp -R "$b/ada" "$tmp/b2/ada" && cp -R "$b/bomb" "$tmp/b2/bomb"
t0=$(date +%s)
"$bin" grade 2 --batch "$tmp/b2" --student-limit 3 --seed 9 -o "$tmp/g2.csv" 2> "$tmp/b2.err"
rc=$?
took=$(( $(date +%s) - t0 ))
if [ $rc -eq 0 ] && python3 - "$tmp/g2.csv" <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["bomb"]["status"] == "time_limit" and rows["bomb"]["score"] == "", rows["bomb"]
assert "time_limit" in json.load(open(rows["bomb"]["report"]))["error"]
assert rows["ada"]["status"] in ("ok", "time_limit")
PY
then ok "--student-limit 3 stops the bomb's grading: status time_limit, a report that says so (${took}s)"
else bad "--student-limit (exit $rc)" "$(cat "$tmp/b2.err" "$tmp/g2.csv")"; fi
grep -q 'bomb: time_limit: grading took more than 3 s' "$tmp/b2.err" && ok "the run names the student stopped at the limit" ||
  bad "no time_limit line" "$(cat "$tmp/b2.err")"
[ -z "$(ls -A "$TMPDIR")" ] && ok "a stopped student leaves nothing in \$TMPDIR" || bad "left" "$(ls -A "$TMPDIR")"
expect "--student-limit needs --batch" 64 'needs --batch' -- "$bin" grade 2 --student-limit 5
expect "--help documents --student-limit and the exit statuses" 0 '128\+N stopped by signal N' -- "$bin" grade --help

finish
