#!/bin/sh
# bench/grade-time.sh — the time to grade a whole course, per student, on this
# machine: students made of the references and the mended find-the-bug
# listings (tests/grade/fixes), each file with a comment of its own so that no
# text is graded twice; the first student in a new HOME (nothing cached), then
# the next ones one after another (the references' analyses kept, as in a
# class), each under /usr/bin/time. Prints one row a student.
#
# usage: sh bench/grade-time.sh BUILD [STUDENTS] [SEED]
#   BUILD     the build folder holding cltutor (e.g. build)
#   STUDENTS  how many students to grade one after another (default 3)
#   SEED      the grading seed (default 11)
set -eu
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 64
fi
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/$1/cltutor"
students=${2:-3}
seed=${3:-11}
[ -x "$bin" ] || { echo "grade-time: $bin is not built: run make BUILD=$1" >&2; exit 66; }
case "$students" in ''|*[!0-9]*) echo "grade-time: STUDENTS must be a number, not '$students'" >&2; exit 64;; esac
[ -x /usr/bin/time ] || { echo "grade-time: /usr/bin/time is missing: apt-get install time" >&2; exit 69; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-time.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" CLTUTOR_WORKSPACE="$tmp/ws" LANGUAGE=en NO_COLOR=1
mkdir -p "$HOME"
"$bin" grade --plan --format json --seed 1 > "$tmp/plan.json"

# make_student DIR TAG: the references and mended listings, each with TAG in a comment
make_student() {
  python3 - "$tmp/plan.json" "$root" "$1" "$2" <<'PY'
import json, os, sys
plan, root, dest, tag = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
for c in plan["chapters"]:
    files = {t["file"] for t in c["tests"]}
    ex = next(t["file"] for t in c["tests"] if t["kind"] == "hidden")
    os.makedirs(os.path.join(dest, "exercises", c["lesson"]), exist_ok=True)
    for f in files:
        src = os.path.join(root, "kernels", c["lesson"], ex) if f == ex else \
              os.path.join(root, "tests", "grade", "fixes", c["lesson"], f)
        with open(src) as s, open(os.path.join(dest, "exercises", c["lesson"], f), "w") as d:
            d.write("/* %s */\n" % tag + s.read())
PY
}

echo "# grade time a student: $("$bin" --version 2>/dev/null | head -n 1), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, seed $seed"
echo "# student | wall s | user s | sys s | score | load before"
i=1
while [ "$i" -le "$students" ]; do
  make_student "$tmp/s$i" "student $i $$"
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$tmp/time$i" "$bin" grade --dir "$tmp/s$i" --seed "$seed" --format json \
    -o "$tmp/s$i.json" 2> "$tmp/err$i" || true
  score=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('%g / %g' % (j['score'], j['max_score']))" \
    "$tmp/s$i.json" 2>/dev/null || echo "no report: $(tail -n 1 "$tmp/err$i")")
  set -- $(tail -n 1 "$tmp/time$i")
  label=$([ "$i" -eq 1 ] && echo "1 (nothing cached)" || echo "$i")
  echo "$label | $1 | $2 | $3 | $score | $load"
  i=$((i + 1))
done
