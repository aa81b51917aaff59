#!/bin/sh
# A batch of 10 with one bomb: the others, one named with 255 bytes, graded exactly as alone, in bounded time.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

make_batch
limit=90 jobs=2
t0=$(date +%s)
"$bin" grade 1 2 --batch "$b" -j $jobs --student-limit $limit --seed 9 -o "$tmp/grades.csv" 2> "$tmp/batch.err"
rc=$?
took=$(( $(date +%s) - t0 ))
if [ $rc -eq 0 ] && [ $took -le $((10 * limit / jobs)) ]; then
  ok "a batch of 10 with a bomb finishes within 10 x $limit s / $jobs (${took}s)"
else bad "batch (exit $rc, ${took}s)" "$(cat "$tmp/batch.err")"; fi
for who in ada bob cy "$long"; do
  "$bin" grade 1 2 --dir "$b/$who" --seed 9 --format json -o "$tmp/alone-$(printf %s "$who" | cut -c1-8).json" 2>/dev/null
done
if python3 - "$tmp/grades.csv" "$tmp" "$long" <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert len(rows) == 10, rows.keys()
key = lambda j: [(c["lesson"], t["id"], t["status"], t["score"]) for c in j["chapters"] for t in c["tests"]]
for who in ("ada", "bob", "cy", sys.argv[3]):
    alone = json.load(open("%s/alone-%s.json" % (sys.argv[2], who[:8])))
    r = rows[who]
    assert r["status"] == "ok", (who[:20], r["status"])
    batch = json.load(open(r["report"]))
    assert key(batch) == key(alone), (who[:20], key(batch), key(alone))
    assert abs(float(r["score"]) - alone["score"]) < 1e-6
same = {"ada": ["dee", "gus", "bomb"], "bob": ["eve", "hal"], "cy": ["fay", sys.argv[3]]}
for a, others in same.items():
    for o in others:
        if o != "bomb":
            assert rows[o]["score"] == rows[a]["score"], (o[:20], rows[o]["score"], rows[a]["score"])
assert rows["bomb"]["status"] in ("ok", "time_limit"), rows["bomb"]["status"]
if rows["bomb"]["status"] == "ok":
    assert float(rows["bomb"]["02-atomic"]) == 0
PY
then ok "the nine others (one named with 255 bytes) get exactly the grades they get alone"
else bad "batch grades differ from single runs" "$(cat "$tmp/grades.csv" | cut -c1-200)"; fi
[ -z "$(ls -A "$TMPDIR")" ] && ok "the batch leaves nothing in \$TMPDIR" || bad "the batch left" "$(ls -A "$TMPDIR")"

finish
