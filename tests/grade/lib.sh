# tests/grade/lib.sh — what the grading scripts share, sourced after
# tests/lib.sh: the test kernels ($k), a workspace of the script's own, and
# check, need_plan, lessons_of, exercise_of, make_correct, put, nomodel and
# make_course.
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"

# check NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j) holds
check() {
  if python3 - "$2" "$3" > "$tmp/check.out" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def ch(lesson):
    return next(c for c in j["chapters"] if c["lesson"] == lesson)
def test(lesson, tid):
    return next(t for t in ch(lesson)["tests"] if t["id"] == tid)
def full(c):
    return abs(c["score"] - c["max_score"]) < 1e-6 and c["max_score"] > 0
ok = eval(sys.argv[2])
if not ok and "chapters" in j:
    for c in j["chapters"]:
        for t in c["tests"]:
            if t.get("outcome", "pass") != "pass":
                print(c["lesson"], t["id"], t.get("status"), (t.get("detail") or "")[:400].replace("\n", " | "))
elif not ok:
    print(json.dumps(j, indent=1)[:3000])
sys.exit(0 if ok else 1)
PY
  then ok "$1"; else bad "$1" "$(cat "$tmp/check.out")"; fi
}

# need_plan: the chapters, their exercise files and find-the-bug listings,
# from the plan at seed 1, in $tmp/plan.json; the script stops, failing,
# without it
need_plan() {
  "$bin" grade --plan --format json --seed 1 > "$tmp/plan.json" 2> "$tmp/plan.err"
  if [ ! -s "$tmp/plan.json" ]; then
    bad "grade --plan" "$(cat "$tmp/plan.err")"
    finish
    exit 1
  fi
}
lessons_of() { # lessons_of EXPR: chapter ids whose plan satisfies EXPR over c
  python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
for c in j['chapters']:
    if eval(sys.argv[2]): print(c['lesson'])" "$tmp/plan.json" "$1"
}
exercise_of() { python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
c = next(c for c in j['chapters'] if c['lesson'] == sys.argv[2])
print(next(t['file'] for t in c['tests'] if t['kind'] == 'hidden'))" "$tmp/plan.json" "$1"; }

# make_correct DIR: every chapter's reference as the exercise, and each
# find-the-bug listing with its bug mended (tests/grade/fixes: a fix must be
# a small edit of the shipped listing, not the reference put in its place)
make_correct() {
  python3 - "$tmp/plan.json" "$root" "$1" "$here/fixes" <<'PY'
import json, os, shutil, sys
plan, root, dest, fixes = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
for c in plan["chapters"]:
    files = {t["file"] for t in c["tests"]}
    ex = next(t["file"] for t in c["tests"] if t["kind"] == "hidden")
    os.makedirs(os.path.join(dest, "exercises", c["lesson"]), exist_ok=True)
    for f in files:
        src = os.path.join(root, "kernels", c["lesson"], ex) if f == ex else os.path.join(fixes, c["lesson"], f)
        shutil.copy(src, os.path.join(dest, "exercises", c["lesson"], f))
PY
}
# put DIR LESSON FILE [NAME]: FILE as the chapter's exercise (or as NAME) in submission DIR
put() {
  mkdir -p "$1/exercises/$2"
  cp "$3" "$1/exercises/$2/${4:-$(exercise_of "$2")}"
}

# Runs a command as if Oclgrind were not installed: GPU-model checks are then
# skipped (which is quicker, and is itself under test).
nomodel() { CLTUTOR_OCLGRIND_ICD="$tmp/no-oclgrind.so" "$@"; }

# make_course: a course of our own in $course (chapters 1 and 2, and four
# with grading keys of their own), C runs cltutor on it, and an empty
# submission folder $tmp/own
make_course() {
  course="$tmp/course"
  mkdir -p "$course/lessons" "$course/kernels" "$course/exercises"
  for d in 01-serial 02-atomic; do
    cp -R "$root/lessons/$d" "$course/lessons/"
    cp -R "$root/kernels/$d" "$course/kernels/"
    cp -R "$root/exercises/$d" "$course/exercises/"
  done
  new_lesson 90-technique 'technique = local_memory constant_args' 'hidden_sizes = 333x17 1 1000..2000x8:onebin 500x64' \
    'weights = tests:40 technique:60'
  new_lesson 91-one 'hidden_sizes = 100x8'
  new_lesson 92-bad 'technique = coalesing>=0.9'
  new_lesson 93-weights 'hidden_sizes = 100x8 50x4' 'weights = tests:10 hidden.2:30'
  rm -rf "$tmp/own" && mkdir -p "$tmp/own"
}
new_lesson() { # new_lesson ID KEYS...: chapter 2's problem with grading keys of our own
  mkdir -p "$course/lessons/$1" "$course/kernels/$1" "$course/exercises/$1"
  id=$1
  shift
  { printf '[lesson]\ntitle = Test %s\nproblem = surf\nkernels = histogram\nexercise = histogram.cl\n' "$id"
    printf 'layout = rowmajor\ndispatch = per_descriptor\nlocal_size = 64\ndefault_size = 2000x64\nprevious = 1\n'
    for kv in "$@"; do printf '%s\n' "$kv"; done; } > "$course/lessons/$id/lesson.ini"
  cp "$k/local_constant.cl" "$course/kernels/$id/histogram.cl"
  cp "$root/exercises/02-atomic/histogram.cl" "$course/exercises/$id/histogram.cl"
}
C() { CLTUTOR_DATA="$course" "$bin" "$@"; }
