# tests/ui/lib.sh — what the screen tests share, sourced after tests/lib.sh:
# a tmux server of the script's own, a fake editor, and start, screen, keys,
# wait_for, check, check_not and capture; cltutor runs at 100x30 with a
# workspace in $ws ($ex1, $ex2: the exercises of chapters 1 and 2).
# CLTUTOR_UI_CAPTURE=DIR keeps the screens.
unset NO_COLOR        # the screens are checked in colour too
if ! command -v tmux >/dev/null 2>&1; then
  bad "tmux is missing: install it (sudo apt-get install tmux) to run the screen tests"
  finish
  exit 1
fi
sock="cltutor-ui-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE   # through the EXIT trap: no session outlives the script
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
base_env="CLTUTOR_UI_TRACE=$tmp/trace ASAN_OPTIONS=${ASAN_OPTIONS:-} UBSAN_OPTIONS=${UBSAN_OPTIONS:-} HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share LANG=C.UTF-8 LC_ALL= LC_MESSAGES= CLTUTOR_WORKSPACE=$ws VISUAL= EDITOR=$tmp/fake-editor CLTUTOR_UI_TIMEOUT=300 PATH=$PATH"
mkdir -p "$tmp/home"

# stop: ends the session and waits (at most 10 s) until its cltutor has exited, so that one saving its
# progress late on a loaded machine cannot write over a workspace set up for the next session
stop() {
  kids=""
  for p in $(T list-panes -a -F '#{pane_pid}' 2>/dev/null); do kids="$kids $(pgrep -P "$p" 2>/dev/null)"; done
  T kill-server 2>/dev/null
  n=100
  for k in $kids; do
    while [ "$n" -gt 0 ] && kill -0 "$k" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
  done
}
# start [ENV=VALUE...]: a fresh session running cltutor at 100x30
start() {
  stop
  sleep 0.2
  T new-session -d -s ui -x 100 -y 30 "env -i TERM=xterm-256color $base_env $* $bin; echo EXITED:\$?; sleep 600"
  T set-option -t ui status off >/dev/null 2>&1
  T resize-window -t ui -x 100 -y 30 >/dev/null 2>&1
  wait_for "cltutor" 10
}
screen() { T capture-pane -p -t ui 2>/dev/null; }
# keys KEY...: sends them, and waits until the course has drawn the screen
# after reading them (its trace, $CLTUTOR_UI_TRACE), at most 3 s
drawn() { n=$(grep -c '^keys' "$tmp/trace" 2>/dev/null); echo "${n:-0}"; }
# idle [SECONDS]: until the course has drawn a screen with no work running (default 120 s)
idle() {
  n=$(( ${1:-120} * 20 ))
  while [ "$n" -gt 0 ] && [ "$(grep -E '^(busy|idle)$' "$tmp/trace" 2>/dev/null | tail -n 1)" != idle ]; do
    sleep 0.05
    n=$((n - 1))
  done
  [ "$n" -gt 0 ]
}
# ran BUSY [SECONDS]: until work has started since the trace held BUSY "busy"
# lines (at most 20 s: it may have joined work already running), then idle
busies() { n=$(grep -c '^busy$' "$tmp/trace" 2>/dev/null); echo "${n:-0}"; }
ran() {
  n=400
  while [ "$n" -gt 0 ] && [ "$(busies)" -le "$1" ]; do sleep 0.05; n=$((n - 1)); done
  idle "${2:-300}"
}
keys() {
  before=$(drawn)
  T send-keys -t ui "$@"
  n=60
  while [ "$n" -gt 0 ] && [ "$(drawn)" -le "$before" ]; do sleep 0.05; n=$((n - 1)); done
}
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
# wait_any SECONDS TEXT...: until the screen shows any of the TEXTs (one per language, say)
wait_any() {
  n=$(( $1 * 10 ))
  shift
  printf '%s\n' "$@" > "$tmp/any"
  while [ "$n" -gt 0 ]; do
    screen | grep -qF -f "$tmp/any" && return 0
    sleep 0.1
    n=$((n - 1))
  done
  return 1
}
# check NAME TEXT...: one screen shows every TEXT (waiting up to 60 s: it returns as soon as they
# are all there, and a loaded machine can take long to get there; a status line may say a run's
# answer before its tabs do)
check() {
  name=$1
  shift
  n=600
  while :; do
    shown=$(screen)
    missing=""
    for t; do
      printf '%s\n' "$shown" | grep -qF -- "$t" || { missing=$t; break; }
    done
    [ -z "$missing" ] && { ok "$name"; return 0; }
    n=$((n - 1))
    [ "$n" -gt 0 ] || break
    sleep 0.1
  done
  bad "$name (no '$missing')"
  return 1
}
# check_not NAME TEXT: the screen does not show TEXT
check_not() {
  if screen | grep -qF -- "$2"; then bad "$1 (shows '$2')"; else ok "$1"; fi
}
capture() { [ -n "$capdir" ] && screen > "$capdir/$1.txt"; }

ex1="$ws/exercises/01-serial/histogram.cl"
ex2="$ws/exercises/02-atomic/histogram.cl"


# solved_ex1: chapter 1's exercise in the workspace is its reference (a
# learner who has solved it), before the course starts
solved_ex1() {
  mkdir -p "$(dirname "$ex1")"
  cp "$root/kernels/01-serial/histogram.cl" "$ex1"
}
