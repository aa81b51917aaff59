#!/bin/sh
# Screen tests of the terminal UI: drives `cltutor` in tmux at 100x30 with
# scripted keys and compares what the screen shows with expected text.
#   tests/ui/run.sh BUILD_DIR        (CLTUTOR_UI_CAPTURE=DIR keeps the screens)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
unset NO_COLOR        # the screens are checked in colour too
if ! command -v tmux >/dev/null 2>&1; then
  bad "tmux is missing: install it (sudo apt-get install tmux) to run the screen tests"
  finish
  exit 1
fi
sock="cltutor-ui-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
capdir=${CLTUTOR_UI_CAPTURE:-}
[ -n "$capdir" ] && mkdir -p "$capdir"

# a failure shows the screen as it was, as TAP comments
bad() {
  fail=$((fail + 1))
  echo "not ok $((pass + fail)) - $1"
  screen | sed 's/^/#     |/'
}

# The fake editor: runs the shell snippet in $tmp/edit-action on the file
# (its last argument) and logs its arguments.
cat > "$tmp/fake-editor" <<EOF
#!/bin/sh
for f; do :; done
echo "\$*" >> "$tmp/editor.log"
[ -f "$tmp/edit-action" ] && . "$tmp/edit-action"
exit 0
EOF
chmod +x "$tmp/fake-editor"
edit_action() { printf '%s\n' "$1" > "$tmp/edit-action"; }

ws="$tmp/ws"
base_env="ASAN_OPTIONS=${ASAN_OPTIONS:-} UBSAN_OPTIONS=${UBSAN_OPTIONS:-} HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share LANG=C.UTF-8 LC_ALL= LC_MESSAGES= CLTUTOR_WORKSPACE=$ws VISUAL= EDITOR=$tmp/fake-editor CLTUTOR_UI_TIMEOUT=3 PATH=$PATH"
mkdir -p "$tmp/home"

# start [ENV=VALUE...]: a fresh session running cltutor at 100x30
start() {
  T kill-server 2>/dev/null
  sleep 0.2
  T new-session -d -s ui -x 100 -y 30 "env -i TERM=xterm-256color $base_env $* $bin; echo EXITED:\$?; sleep 600"
  T set-option -t ui status off >/dev/null 2>&1
  T resize-window -t ui -x 100 -y 30 >/dev/null 2>&1
  wait_for "cltutor" 10
}
screen() { T capture-pane -p -t ui 2>/dev/null; }
keys() { T send-keys -t ui "$@"; sleep 0.25; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT
wait_for() {
  n=$(( ${2:-15} * 10 ))
  while [ "$n" -gt 0 ]; do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
    n=$((n - 1))
  done
  return 1
}
# check NAME TEXT...: the screen shows every TEXT (waiting up to 20 s for the first)
check() {
  name=$1
  shift
  wait_for "$1" 20 || { bad "$name (no '$1')"; return 1; }
  for t; do
    screen | grep -qF -- "$t" || { bad "$name (no '$t')"; return 1; }
  done
  ok "$name"
}
# check_not NAME TEXT: the screen does not show TEXT
check_not() {
  if screen | grep -qF -- "$2"; then bad "$1 (shows '$2')"; else ok "$1"; fi
}
capture() { [ -n "$capdir" ] && screen > "$capdir/$1.txt"; }

ex1="$ws/exercises/01-serial/histogram.cl"
ex2="$ws/exercises/02-atomic/histogram.cl"

# ---- home
start
check "home: the chapters" "Serial histogram" "Atomic histogram (GPU1)" "← next" "not started" "0 of "
check "home: the device" "(CPU)"
check "home: the keys" "Enter open" "? help" "q quit"
capture home
keys Down
check "home: the selection moves" "2 · Atomic histogram (GPU1)"
keys Up

# ---- help, quick reference, devices
keys '?'
check "help: every key" "Keys" "this help" "Everywhere" "Chapter list"
keys G
check "help: scrolls to the end" "look for devices again"
capture help
keys Escape
check_not "help: Esc closes it" "this help"
keys o
check "quick reference" "OpenCL C quick reference" "__global" "get_global_id(0)"
keys Escape
keys d
check "devices: listed, CPU marked" "OpenCL devices" "CPU" "timings do not show GPU effects"
capture devices
keys Escape

# ---- chapter 1: lesson, kernel, results
keys Enter
check "chapter: lesson, kernel, results" "Lesson" "histogram.cl · watching" "__kernel void histogram" "1 Result" "Not run yet"
capture chapter
keys r
check "run: a wrong result with the diff, largest difference first" "Wrong result" "expected" "actual" "▶       166" "the first is bin 0"
check_not "run: a wrong result is not timed" "GB/s"
capture results-fail
keys 2
keys G
check "check tab: scrollable diff" "total" "4096"
keys 3
check "build tab: nothing from the compiler" "The compiler printed nothing"

# ---- the editor fixes the kernel: saved, rerun, correct
edit_action "cp '$root/kernels/01-serial/histogram.cl' \"\$f\""
keys e
check "edit: saved and rerun, correct" "✓ Correct" "median" "vs serial C"
capture results-pass
grep -q "$ex1" "$tmp/editor.log" && ok "edit: the editor got the kernel" || bad "edit: the editor got the kernel"
keys 4
check "timing tab" "Kernel time" "spread" "bandwidth" "serial C on this CPU" "this chapter's reference"
wait_for "x faster" 20 || wait_for "x slower" 5 || wait_for "about as fast" 5
check "timing: the reference measured once" "this chapter's reference"
keys 5
check "history: every run as a bar" "2 runs, oldest first" "✗ wrong" "✓ pass" "█"
capture history
keys 7
check "solution: open after passing" "The whole reference solution"

# ---- a build error: marker, log, editor at the line
edit_action "sed -i 's/float best = FLT_MAX;/float best = FLT_MAX/' \"\$f\""
keys e
check "build error: message and line" "Build failed" "error" "edit at line"
check "build error: the line is marked" "▶1"
capture build-error
keys 3
check "build tab: the compiler's message" "histogram.cl:"
: > "$tmp/editor.log"
edit_action ":"
keys Enter
sleep 0.5
grep -q "^+1[0-9] " "$tmp/editor.log" && ok "build tab: Enter edits at the error's line" || { bad "build tab: Enter edits at the error's line"; cat "$tmp/editor.log"; }

# ---- watch: a save from elsewhere reruns it
cp "$root/kernels/01-serial/histogram.cl" "$ex1"
check "watch: an outside save reruns it" "✓ Correct"
check "verdict: a correct run checks the whole chapter, and only that passes it" "✓ passed" "Chapter passed" "visible tests"
keys w
check "watch: off" "Watch off"
keys w
check "watch: on again" "Watch on"
keys q
check "back home: passed" "✓ passed" "1 of "

# ---- chapter 2: hints, changes, solution locked, crash, hang, cancel
keys 2
check "chapter 2 opens" "Atomic histogram (GPU1)" "histogram.cl"
keys n
check "hints: the first" "Hints" "get_global_id(0)" "hint 2 of"
keys n
check "hints: the second" "hint 3 of"
keys Escape
grep -q '"hints_seen":[[:space:]]*2' "$ws/.cltutor/progress.json" && ok "hints: saved in the progress" || bad "hints: saved in the progress"
keys 6
check "changes: against the chapter's starting file" "the starting file" "+++ yours"
keys 7
check "solution: locked before passing" "opens once you pass"
# a run from another terminal shows in the open course's History, marked as such
env CLTUTOR_WORKSPACE="$ws" "$bin" run 2 --no-timing >/dev/null 2>&1
keys 5
check "history: a run from the command line appears, with where it came from" "  run   " "wrong"
sed 's/atomic_inc(&histogram\[nearest\]);/histogram[nearest] += 1;/' "$root/kernels/02-atomic/histogram.cl" > "$ex2"
keys 1
check "race: right on this CPU, but the race check fails and the chapter is not passed" "Data race" "not passed yet" "Not timed"
check_not "race: no time for a racy kernel" "GB/s"
cp "$here/../cli/kernels/out_of_bounds.cl" "$ex2"
check "crash: the engine's message, the UI lives" "Crashed"
keys '?'
check "crash: keys still work" "this help"
keys Escape
cp "$here/../cli/kernels/endless_loop.cl" "$ex2"
check "hang: timed out" "Timed out" "did not finish"
capture hang
keys r
check "cancel: running" "c: cancel"
keys c
check "cancel: stopped" "Cancelled"
keys Escape

# ---- language: Chinese, wide characters in their columns
keys L
check "Chinese: home" "章节" "原子操作直方图（GPU1）" "未开始"
capture home-zh
line_a=$(screen | grep -F "串行直方图" | head -n 1)
line_b=$(screen | grep -F "合并访存（GPU2）" | head -n 1)
if python3 - "$line_a" "$line_b" <<'EOF'
import sys, unicodedata
def col(line, word):
    i = line.index(word)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line[:i])
a, b = sys.argv[1], sys.argv[2]
sa = next(w for w in ("已通过", "未通过", "未开始") if w in a)
sb = next(w for w in ("已通过", "未通过", "未开始") if w in b)
sys.exit(0 if col(a, sa) == col(b, sb) else 1)
EOF
then ok "Chinese: the state column lines up"; else bad "Chinese: the state column lines up"; fi
keys L
check "English again" "Chapter" "State"

# ---- resize: too small, then back
T resize-window -t ui -x 50 -y 15
check "resize: too small" "Terminal too small"
T resize-window -t ui -x 100 -y 30
check "resize: back" "Serial histogram"

# ---- quit asks on Ctrl-C, and the progress survives
keys C-c
check "Ctrl-C asks" "Quit cltutor?"
keys n
check_not "Ctrl-C: no keeps it" "Quit cltutor?"
keys C-c
keys y
check "Ctrl-C then y quits" "EXITED:0"
start
check "progress: welcome back" "Welcome back" "1 of "

# ---- Ctrl-Z suspends and fg brings it back; the terminal is restored after quitting
T kill-server 2>/dev/null
sleep 0.2
T new-session -d -s ui -x 100 -y 30 "env -i TERM=xterm-256color $base_env PS1='sh$ ' sh -i"
sleep 0.5
keys "$bin" Enter
check "shell: started" "Serial histogram"
keys C-z
check "Ctrl-Z: back at the shell" "sh$"
keys "fg" Enter
check "fg: the screen comes back" "Serial histogram" "Enter open"
keys q
keys "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
check "quit: the terminal is restored" "icanon echo"
keys clear Enter
keys "$bin" Enter
check "SIGTERM: running" "Serial histogram"
shell_pid=$(T list-panes -t ui -F '#{pane_pid}')
ui_pid=$(pgrep -P "$shell_pid" | head -n 1)
[ -n "$ui_pid" ] && kill -TERM "$ui_pid"
sleep 0.5
keys "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
check "SIGTERM: the terminal is restored" "icanon echo"

# ---- a missing editor, a read-only workspace, NO_COLOR
start "PATH=/nonexistent" "EDITOR=no-such-editor"
keys 1
wait_for "Lesson" 10
keys e
check "missing editor: says what to do" "No editor found" "no-such-editor" "EDITOR"
keys Escape
start "CLTUTOR_WORKSPACE=/dev/null/ws"
check "read-only workspace: the warning says what to do" "cannot create the workspace" "--workspace DIR"
keys 1
check "read-only workspace: the chapter still opens" "__kernel void histogram"
keys e
check "read-only workspace: edit explains" "cannot be created"
keys Escape
start "NO_COLOR=1"
wait_for "Serial histogram" 10
if T capture-pane -e -p -t ui | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; then bad "NO_COLOR: no colours"; else ok "NO_COLOR: no colours"; fi
T kill-server 2>/dev/null
sleep 0.2
T new-session -d -s ui -x 100 -y 30 "env -i TERM=vt100 $base_env $bin; echo EXITED:\$?; sleep 600"
check "monochrome terminal: usable" "Serial histogram" "Enter open"
if T capture-pane -e -p -t ui | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; then bad "monochrome terminal: no colours"; else ok "monochrome terminal: no colours"; fi
keys q
check "monochrome terminal: quits" "EXITED:0"

# ---- a corrupt progress file is kept aside, and said so
mkdir -p "$tmp/ws2/.cltutor"
echo "{ not json" > "$tmp/ws2/.cltutor/progress.json"
start "CLTUTOR_WORKSPACE=$tmp/ws2"
check "corrupt progress: the warning says where it is kept" "was not a progress file" "afresh"
keys q
sleep 0.5
grep -q "not json" "$tmp/ws2/.cltutor/progress.json".corrupt-* && ok "corrupt progress: the file is kept aside" || bad "corrupt progress: the file is kept aside" "$(ls -la "$tmp/ws2/.cltutor")"

# ---- the solution opens after 3 failed runs
start
keys 3
wait_for "Lesson" 10
T send-keys -t ui -l '}'
sleep 0.3
if screen | sed -n 3p | grep -q "^ [A-Z]" && ! screen | sed -n 2p | grep -q " top "; then ok "lesson: } jumps to the next section"
else bad "lesson: } jumps to the next section"; fi
keys 7
check "solution: locked at first" "opens once you pass"
for i in 1 2 3; do
  keys r
  wait_for "   run $i   " 30
done
keys 7
check "solution: open after 3 failed runs" "+++ the reference"

# ---- watch by polling (no inotify)
start "CLTUTOR_UI_POLL=1"
keys 1
wait_for "Lesson" 10
edit_action ":"
cp "$root/exercises/01-serial/histogram.cl" "$ex1"
check "polling watch: a save reruns it" "Wrong result"

# ---- the GPU memory model (Oclgrind): the report, or what to install
start
keys 2
wait_for "Lesson" 10
keys 8
if wait_for "GPU memory model of" 90 || wait_for "could not analyse" 5; then ok "GPU model tab: a report or what to install"
else bad "GPU model tab: a report or what to install"; fi
capture gpu-model

finish
