#!/bin/sh
# The course's loop as a learner meets it: the course open on a chapter in a
# 120x40 tmux, idle for a few seconds (as while reading or editing), then a
# new text of the chapter's kernel saved (its reference with a comment of its
# own). Prints, per chapter, the seconds from the save to the first verdict
# (the status line's "✓ Correct ·" while the launches are timed, or the run's
# end if that comes first), to the run's end (its number in the Result tab)
# and to the whole checklist in the Result tab (tests, race check, technique),
# the median of ROUNDS saves in one course session, after one save that fills
# the caches the chapter needs.
#   bench/course-loop.sh [BUILD_DIR [ROUNDS [CHAPTER...]]]   (defaults: build 3 2 5 8)
build=$(cd "${1:-build}" && pwd)
rounds=${2:-3}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- 2 5 8
root=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux > /dev/null || { echo "needs tmux (sudo apt-get install tmux)" >&2; exit 1; }
tmp=$(mktemp -d)
sock="cltutor-loop-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
printf '#!/bin/sh\nexit 0\n' > "$tmp/editor" && chmod +x "$tmp/editor"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $build/cltutor"
echo "chapter first_verdict_s run_s checklist_s (median of $rounds saves)"
for n in "$@"; do
  id=$(ls "$root/lessons" | grep "^0*$n-" | head -n 1)
  file=$(sed -n 's/^exercise *= *//p' "$root/lessons/$id/lesson.ini" | head -n 1)
  rm -rf "$tmp/ws" "$tmp/home" && mkdir -p "$tmp/home"
  tmux -L "$sock" kill-server 2>/dev/null
  sleep 0.5   # the old server gone before the new one starts
  tmux -L "$sock" -f /dev/null new-session -d -s ui -x 120 -y 40 \
    "env HOME=$tmp/home CLTUTOR_WORKSPACE=$tmp/ws LANG=C.UTF-8 LANGUAGE=en EDITOR=$tmp/editor $build/cltutor; sleep 600"
  sleep 2
  tmux -L "$sock" send-keys -t ui "$n"
  python3 - "$sock" "$tmp/ws/exercises/$id/$file" "$root/kernels/$id/$file" "$rounds" <<'PY'
import os, re, statistics, subprocess, sys, time
sock, path, src, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def pane():
    return subprocess.run(["tmux", "-L", sock, "capture-pane", "-p", "-t", "ui"], capture_output=True, text=True).stdout
def run_number(p):
    m = re.search(r"(✓ Correct|✗ Wrong|Build failed)\s+run (\d+)", p)
    return int(m.group(2)) if m else 0
deadline = time.monotonic() + 30
while not os.path.exists(path) and time.monotonic() < deadline:
    time.sleep(0.1)
if not os.path.exists(path):
    sys.exit("the course did not open the chapter's exercise (%s)" % path)
def answered(p):
    # the status line while the run times its launches: the checked launch's answer
    lines = p.rstrip("\n").split("\n")
    return bool(lines) and re.match(r"\s*(✓ Correct|✗ Wrong result) · \S+ (timing|finishing)", lines[-1])
rows = []
for r in range(rounds + 1):
    time.sleep(4)   # reading, editing: the course is idle
    before = run_number(pane())
    text = open(src).read() + "\n/* %d %d */\n" % (os.getpid(), time.time_ns())
    t0 = time.monotonic()
    with open(path + ".new", "w") as f:
        f.write(text)
    os.rename(path + ".new", path)
    answer = done = whole = None
    while time.monotonic() - t0 < 120:
        p = pane()
        if answer is None and answered(p):
            answer = time.monotonic() - t0
        if done is None and run_number(p) > before:
            done = time.monotonic() - t0
            answer = answer or done
        if done is not None and re.search(r"Chapter passed|not passed yet", p) and "Checking the whole" not in p:
            whole = time.monotonic() - t0
            break
        time.sleep(0.02)
    if r > 0 and done and whole:   # the first save filled the caches
        rows.append((answer, done, whole))
n = sys.argv[2].split("/exercises/")[1].split("-")[0].lstrip("0")
if len(rows) == rounds:
    print("%s %.2f %.2f %.2f" % (n, *(statistics.median(row[i] for row in rows) for i in range(3))))
else:
    print("%s (a save did not reach its verdict in 120 s)" % n)
PY
done
