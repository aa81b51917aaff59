#!/bin/sh
# The course starts a worker while the learner edits: it confines itself,
# opens the device and loads the runtime's compiler before any kernel comes.
# A save's first run takes it and reports exactly as a worker started for it
# would (a right kernel, a crash, a build error); a new one follows when the
# course is idle again; one started for another language or device is
# replaced; none outlives the course.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, idle, the fake editor, $ws, $ex2

mkdir -p "$tmp/t"
# the worker ahead, by its scratch folder under this script's TMPDIR: its pid, or nothing
ahead_pid() { pgrep -f -- "__worker --ahead $tmp/t/" | head -n 1; }
# wait_ahead [OLD_PID]: until a worker ahead other than OLD_PID exists (at most 60 s)
wait_ahead() {
  n=600
  while [ "$n" -gt 0 ]; do
    p=$(ahead_pid)
    [ -n "$p" ] && [ "$p" != "${1:-}" ] && { echo "$p"; return 0; }
    sleep 0.1
    n=$((n - 1))
  done
  return 1
}

start TMPDIR="$tmp/t" LANGUAGE=en
keys 2
check "chapter 2 opens" "Atomic histogram (GPU1)"
first=$(wait_ahead) && ok "a worker is started ahead while the chapter is open" ||
  bad "a worker is started ahead while the chapter is open"
if [ -n "$first" ]; then
  # it confines itself first thing after it starts: found just started, it may not have yet (at most 30 s)
  n=300
  while [ "$n" -gt 0 ] && kill -0 "$first" 2>/dev/null && ! grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$first/status" 2>/dev/null; do
    sleep 0.1
    n=$((n - 1))
  done
  grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$first/status" && ok "the worker ahead holds no new privileges (confined before any kernel)" ||
    bad "the worker ahead holds no new privileges" "$(cat "/proc/$first/status" 2>&1 | head -n 40)"
fi

# a save: the right kernel, through the worker ahead
cp "$root/kernels/02-atomic/histogram.cl" "$ex2"
printf '/* a text of its own: %s */\n' "$$" >> "$ex2"
check "a save's run: the right kernel is correct" "Correct"
idle 120 || bad "the course became idle after the save"
if grep -qx 'ahead 1' "$tmp/trace" && ! kill -0 "$first" 2>/dev/null; then ok "the save's run took the worker ahead"
else bad "the save's run took the worker ahead" "$(cat "$tmp/trace")"; fi
second=$(wait_ahead "$first") && ok "a new worker is started ahead once the course is idle" ||
  bad "a new worker is started ahead once the course is idle"

# a crash and a build error, each through a worker ahead, reported as always
cp "$here/../cli/kernels/out_of_bounds.cl" "$ex2"
check "a crash through a worker ahead is reported" "Crashed"
grep -qx 'ahead 2' "$tmp/trace" && ok "the crash ran in the worker ahead" || bad "the crash ran in the worker ahead" "$(cat "$tmp/trace")"
idle 120
third=$(wait_ahead "$second") && ok "after the crash, another worker ahead" || bad "after the crash, another worker ahead"
printf '__kernel void histogram(__global int *h) { h[0] = undefined_name; }\n' > "$ex2"
check "a build error through a worker ahead is reported" "undefined_name"
grep -qx 'ahead 3' "$tmp/trace" && ok "the build error came from the worker ahead" ||
  bad "the build error came from the worker ahead" "$(cat "$tmp/trace")"
idle 120
fourth=$(wait_ahead "$third") && ok "after the build error, another worker ahead" ||
  bad "after the build error, another worker ahead"

# the language switch changes the workers' environment: the one ahead is replaced
keys L
fifth=$(wait_ahead "$fourth") && ok "another language: the worker ahead is replaced" ||
  bad "another language: the worker ahead is replaced"
[ -n "$fourth" ] && kill -0 "$fourth" 2>/dev/null && bad "another language: the old worker ahead is gone" ||
  ok "another language: the old worker ahead is gone"

# quitting ends it
keys q
keys q
wait_for "EXITED:0" 20 && ok "the course quits" || bad "the course quits"
n=50
while [ "$n" -gt 0 ] && [ -n "$(ahead_pid)" ]; do sleep 0.1; n=$((n - 1)); done
[ -z "$(ahead_pid)" ] && ok "no worker ahead outlives the course" || bad "no worker ahead outlives the course"
[ -z "$(ls -A "$tmp/t" | grep cltutor-worker)" ] && ok "no scratch folder is left behind" ||
  bad "no scratch folder is left behind" "$(ls -la "$tmp/t")"
finish
