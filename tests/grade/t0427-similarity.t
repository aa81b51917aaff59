#!/bin/sh
# grade similar: in a batch of 32 submissions, a renamed and reformatted copy and a one-chapter copy are the
# closest pairs, with their lines; kernels written apart (the honest corpus), the unchanged starting files
# and what most of the class writes alike are not paired; bad input is refused with the reason.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, bad, expect, finish

b="$tmp/batch"
python3 - "$root" "$b" <<'PY'
import glob, os, re, sys
root, batch = sys.argv[1:]
lessons = sorted(os.listdir(os.path.join(root, "exercises")))

def put(student, lesson, name, text):
    d = os.path.join(batch, student, "exercises", lesson)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), "w").write(text)

def answer(lesson, name):
    """The reference for the exercise, the mended listing for a find-the-bug file."""
    fix = os.path.join(root, "tests/grade/fixes", lesson, name)
    return open(fix if os.path.exists(fix) else os.path.join(root, "kernels", lesson, name)).read()

def honest(lesson, k):
    """The k-th kernel of the honest corpus for the chapter, or None."""
    got = sorted(glob.glob(os.path.join(root, "tests/honest/kernels", "ch%s-*.cl" % lesson[:2])))
    return open(got[k]).read() if k < len(got) else None

def disguise(text):
    """A copy made to look like other work: comments gone, names changed, indents and spacing redone."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    names = {"d": "desc_i", "nearest": "winner", "best": "best_d", "c": "cent", "k": "feat", "dist": "dd",
             "sum": "acc", "lid": "my_lane", "gid": "my_item", "i": "ii", "j": "jj", "n": "count", "x": "xx",
             "y": "yy", "tile": "blk", "bin": "slot", "offset": "off"}
    text = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: names.get(m.group(0), m.group(0)), text)
    lines = [re.sub(r"^( +)", lambda m: "  " * (len(m.group(1)) // 4) + " " * (len(m.group(1)) % 4), l)
             for l in text.split("\n") if l.strip()]
    return "/* my own work */\n" + "\n\n".join(lines) + "\n"

# 26 students hand in the answers, each with a comment of their own: what the class writes alike
for s in range(26):
    for lesson in lessons:
        for name in os.listdir(os.path.join(root, "exercises", lesson)):
            put("class%02d" % s, lesson, name, "// class%02d\n" % s + answer(lesson, name))
# 4 students wrote their own exercises (the honest corpus: one kernel each per chapter, none shared)
for s in range(4):
    for lesson in lessons:
        mine = honest(lesson, s)
        ex = "scan.cl" if lesson.startswith("08") else "integral.cl" if lesson.startswith("09") else "histogram.cl"
        put("own%d" % s, lesson, ex, mine if mine else answer(lesson, ex))
# copier: own0's work, disguised; partial: the answers, but chapter 5 from own1, disguised
for lesson in lessons:
    for name in os.listdir(os.path.join(batch, "own0", "exercises", lesson)):
        put("copier", lesson, name, disguise(open(os.path.join(batch, "own0", "exercises", lesson, name)).read()))
    for name in os.listdir(os.path.join(root, "exercises", lesson)):
        text = answer(lesson, name)
        if lesson.startswith("05") and name == "histogram.cl":
            text = disguise(honest(lesson, 1))
        put("partial", lesson, name, "// partial\n" + text)
# two students hand in the starting files unchanged
for s in ("starter1", "starter2"):
    for lesson in lessons:
        for name in os.listdir(os.path.join(root, "exercises", lesson)):
            put(s, lesson, name, open(os.path.join(root, "exercises", lesson, name)).read())
PY
[ "$(ls "$b" | wc -l)" -eq 34 ] || bad "the batch has 34 submissions" "$(ls "$b")"

"$bin" grade similar --batch "$b" --json -o "$tmp/sim.json" 2> "$tmp/sim.err"
rc=$?
[ "$rc" -eq 0 ] && ok "similar: exit 0 on a readable batch" || bad "similar: exit 0 on a readable batch" "rc=$rc $(cat "$tmp/sim.err")"
python3 - "$tmp/sim.json" > "$tmp/checks" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
pairs = r["pairs"]
def say(ok, what, detail=""):
    print(("ok " if ok else "not ok ") + what + ("" if ok else " -- " + detail))
top = [(p["a"], p["b"]) for p in pairs[:2]]
say(r["format"] == "cltutor-similarity" and len(r["students"]) == 34, "json: the format and all 34 students")
say(top and top[0] == ("copier", "own0") and pairs[0]["score"] >= 0.9,
    "the renamed, reformatted copy is the closest pair, at 90% or more", json.dumps(pairs[:1])[:400])
p = [x for x in pairs if (x["a"], x["b"]) == ("own1", "partial")]
say(len(pairs) > 1 and top[1] == ("own1", "partial"), "the one-chapter copy is the next pair", str(top))
say(p and [f["file"] for f in p[0]["files"]][:1] == ["05-local/histogram.cl"],
    "the one-chapter copy: its file is named", json.dumps(p)[:400])
say(p and p[0]["files"][0]["a_lines"] and p[0]["files"][0]["b_lines"]
    and all(lo <= hi for lo, hi in p[0]["files"][0]["a_lines"] + p[0]["files"][0]["b_lines"]),
    "the one-chapter copy: the matching lines of both sides", json.dumps(p)[:400])
honest = [x for x in pairs if x["a"].startswith("own") and x["b"].startswith("own")]
# (two of the honest corpus's scans keep the same Blelloch tree in the same style, about 45%)
say(all(x["score"] < 0.5 for x in honest), "kernels written apart score under half, far below a copy",
    json.dumps([(x["a"], x["b"], x["score"]) for x in honest]))
say(not any(x["a"].startswith("starter") or x["b"].startswith("starter") for x in pairs),
    "the unchanged starting files pair with no one")
say(not any(x["a"].startswith("class") and x["b"].startswith("class") for x in pairs),
    "what the class writes alike pairs no one", str([(x["a"], x["b"]) for x in pairs if x["a"].startswith("class")][:5]))
PY
while IFS= read -r line; do
  case $line in
    "ok "*) ok "${line#ok }" ;;
    "not ok "*) bad "${line#not ok }" ;;
    *) bad "checking the report: $line" ;;
  esac
done < "$tmp/checks"

# without setting aside what the class shares, the class's own answers pair up: the setting is what hides them
"$bin" grade similar --batch "$b" --common 100 --json -o "$tmp/all.json" 2>/dev/null
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pairs"]; sys.exit(0 if any(x["a"].startswith("class") and x["b"].startswith("class") for x in p) else 1)' "$tmp/all.json" \
  && ok "--common 100: the class's shared answers pair up" || bad "--common 100: the class's shared answers pair up"

# the text report: the pair, the file, the lines of both sides
expect "text: the closest pair with its score" 0 '^1\. copier ~ own0: (9[0-9]|100)% \([0-9]+ of [0-9]+ fingerprints\)' -- \
  "$bin" grade similar --batch "$b" --top 2
expect "text: the one-chapter copy's file and lines" 0 '05-local/histogram.cl: [0-9]+ of [0-9]+; own1 lines [0-9]' -- \
  "$bin" grade similar --batch "$b" --top 2
expect "text: one chapter only (its exercise and its find-the-bug listing)" 0 '^Similarity of 34 submissions over 2 kernel files' -- \
  "$bin" grade similar --batch "$b" 5

# bad input
expect "no --batch: said" 64 'give the submissions with --batch DIR' -- "$bin" grade similar
expect "a batch that is not a folder: named" 64 "$tmp/nowhere" -- "$bin" grade similar --batch "$tmp/nowhere"
expect "an unknown chapter: named" 64 'no-such' -- "$bin" grade similar --batch "$b" no-such
expect "a bad --common: named" 64 'common' -- "$bin" grade similar --batch "$b" --common 200
printf 'not an archive' > "$b/broken.zip"
expect "an archive that cannot be read: named, the rest compared, exit 1" 1 'broken' -- \
  "$bin" grade similar --batch "$b" 5
expect "--help" 0 'fingerprints' -- "$bin" grade similar --help
finish
