#!/bin/sh
# One grade --batch of the whole corpus: each cheat loses the test it dodges, an honest class-mate gets full marks.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # the corpus, make_corpus, pick_seed, honest_chapter, check_cheats

make_corpus
pick_seed
start=$(date +%s)

# One batch: every cheat a student with one honest chapter and the cheat in
# it, and an honest student with every chapter. To keep it quick the batch
# runs the hidden tests odd, even and shape.1 (t0501-t0503 run every visible size
# through check; tests/grade runs the references on every hidden test) and
# every race, technique and fix test. (grade keeps only the first 511
# characters of --tests: a longer list would lose tests silently, so then
# every test runs.)
b="$tmp/class"
honest_chapter "$b/honest" all
printf '%s\n' "$corpus" | while read -r name lesson file chk gtest how; do
  [ -n "$name" ] || continue
  honest_chapter "$b/$name" "$lesson"
  cp "$k/$name.cl" "$b/$name/exercises/$lesson/$file"
done
tests=$(python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
ids = {t['id'] for c in j['chapters'] for t in c['tests'] if t['kind'] != 'hidden' or t['id'] in ('odd', 'even', 'shape.1')}
print(','.join(sorted(ids)))" "$tmp/plan.json")
[ ${#tests} -lt 512 ] || tests=
t0=$(date +%s)
# each student's hidden tests at sizes of their own (no --same-seed): every cheat must lose at whatever seed
"$bin" grade --batch "$b" -j 2 --seed $seed ${tests:+--tests "$tests"} -o "$tmp/grades.csv" > "$tmp/batch.out" 2>&1
rc=$?
echo "# grade --batch -j 2: $(( $(date +%s) - t0 ))s"
if [ $rc -ne 0 ] || [ ! -s "$tmp/grades.csv" ]; then
  bad "grade --batch (exit $rc)" "$(cat "$tmp/batch.out")"
  finish
  exit 1
fi
ok "grade --batch graded $(($(wc -l < "$tmp/grades.csv") - 1)) students"

# judge STUDENT LESSON TEST HOW: the student's report against the corpus' claim
judge() { python3 "$here/judge.py" "$tmp/grades.csv" "$@" > "$tmp/judge.out" 2>&1; }
printf '%s\n' "$corpus" | while read -r name lesson file chk gtest how; do
  [ -n "$name" ] || continue
  case $how in
  technique) what="fails $gtest (and passes every hidden test)"
    [ "$gtest" = technique ] && what="fails a technique test (and passes every hidden test)" ;;
  race) what="fails $gtest, and its hidden tests and techniques earn nothing" ;;
  wrong) what="fails the hidden '$gtest' test as a wrong answer (any other it fails, also as wrong)" ;;
  not_a_fix) what="fails $gtest as not_a_fix" ;;
  listing) what="earns nothing for its hidden tests (status listing: a mended listing is not the exercise)" ;;
  accepted) what="passes $gtest (recorded: the kernel's header says why)" ;;
  esac
  if judge "$name" "$lesson" "$gtest" "$how"; then
    ok "$name: grade $lesson $what"
  else
    bad "$name: grade $lesson should: $what" "$(cat "$tmp/judge.out")"
  fi
  sed 's/^/# /' "$tmp/judge.out" | head -n 1
done > "$tmp/grade-results"
while IFS= read -r line; do
  case $line in
  ok\ *) pass=$((pass + 1)) ;;
  not\ ok\ *) fail=$((fail + 1)) ;;
  esac
  echo "$line"
done < "$tmp/grade-results"

# ---- the honest student: full marks in every chapter
if python3 - "$tmp/grades.csv" > "$tmp/honest.out" 2>&1 <<'EOF'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
j = json.load(open(rows["honest"]["report"]))
good = True
for c in j["chapters"]:
    if abs(c["score"] - c["max_score"]) > 1e-6 or c["max_score"] <= 0:
        good = False
        for t in c["tests"]:
            if t["outcome"] != "pass":
                print(c["lesson"], t["id"], t["status"], (t.get("detail") or "")[:300].replace("\n", " "))
sys.exit(0 if good and j["failed"] == 0 else 1)
EOF
then ok "the honest student (references, small fixes of the listings) gets full marks in every chapter, on the same tests"
else bad "the honest student should get full marks in every chapter" "$(cat "$tmp/honest.out")"; fi

# ---- the web pages beside the reports: each student's feedback, and the class summary whose figures are the CSV's
if python3 - "$tmp/grades.csv" "$tmp/grades-reports" > "$tmp/html.out" 2>&1 <<'PY'
import csv, html.parser, json, os, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = sys.argv[2]
class Page(html.parser.HTMLParser):
    """Tags must close in order (void elements aside); collects links, cells and text."""
    void = {"meta", "br", "img", "hr", "input", "link"}
    def __init__(self):
        super().__init__(); self.stack, self.links, self.cells, self.text, self.errors = [], [], [], [], []
    def handle_starttag(self, tag, attrs):
        if tag not in self.void: self.stack.append(tag)
        if tag == "td": self.cells.append("")
        self.links += [v for k, v in attrs if k == "href"]
        if tag in ("script", "iframe", "object"): self.errors.append("a <%s>" % tag)
    def handle_endtag(self, tag):
        if tag in self.void: return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        else: self.stack.pop()
    def handle_data(self, data):
        self.text.append(data)
        if self.cells and "td" in self.stack: self.cells[-1] += data
def page(path):
    p = Page(); p.feed(open(path, encoding="utf-8").read()); p.close()
    if p.stack: p.errors.append("unclosed " + ",".join(p.stack))
    return p
bad = []
index = page(os.path.join(d, "index.html"))
bad += ["index.html: " + e for e in index.errors]
text = " ".join(index.text)
if "%d students graded" % len(rows) not in text: bad.append("index.html does not count %d students" % len(rows))
for r in rows:
    feedback = os.path.splitext(os.path.basename(r["report"]))[0] + ".html"
    if feedback not in index.links: bad.append("index.html has no link to " + feedback)
    p = page(os.path.join(d, feedback))
    bad += [feedback + ": " + e for e in p.errors]
    total = json.load(open(r["report"]))
    said = re.search(r"Total: ([0-9.]+) / ([0-9.]+)", " ".join(p.text))  # points to 2 decimals, the JSON's to 3
    if not said or abs(float(said.group(1)) - total["score"]) > 0.006 or abs(float(said.group(2)) - total["max_score"]) > 0.006:
        bad.append("%s does not say Total: %g / %g (%s)" % (feedback, total["score"], total["max_score"],
                                                             said.group(0) if said else "no total"))
    if r["student"] not in index.cells: bad.append("no row for " + r["student"])
pct = sorted(100 * float(r["score"]) / float(r["max_score"]) for r in rows)
n = len(pct)
median = pct[n // 2] if n % 2 else (pct[n // 2 - 1] + pct[n // 2]) / 2
if "Median %.1f%%" % median not in text:
    bad.append("the median is not %.1f%%: %s" % (median, re.findall(r"Median [^,]*", text)))
# with cheats in the class, some test failed: the table of the tests failed most often has rows
if 'class="n fail"' not in open(os.path.join(d, "index.html"), encoding="utf-8").read():
    bad.append("no test failed, with cheats in the class")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
then ok "web pages: the class summary (its median and rows the CSV's) links every student's feedback, all well formed"
else bad "web pages beside the reports" "$(head -c 3000 "$tmp/html.out")"; fi

if [ -n "$CHEATS_KEEP" ]; then
  mkdir -p "$CHEATS_KEEP" && cp -R "$tmp/grades.csv" "$tmp/grades-reports" "$CHEATS_KEEP/"
  sed -i "s|$tmp/grades-reports|$CHEATS_KEEP/grades-reports|" "$CHEATS_KEEP/grades.csv"
fi
echo "# run time: $(( $(date +%s) - start ))s"
finish
