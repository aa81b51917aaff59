#!/bin/sh
# A missing editor, a workspace that cannot be made, NO_COLOR, a monochrome terminal, a corrupt progress file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

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

finish
