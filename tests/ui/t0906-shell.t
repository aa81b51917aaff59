#!/bin/sh
# Ctrl-Z and fg from a shell, and the terminal restored after quitting and after SIGTERM.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

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

finish
