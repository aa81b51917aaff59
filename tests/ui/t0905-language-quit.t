#!/bin/sh
# Chinese and English, wide characters in their columns, resizing, quitting with Ctrl-C, and the progress kept.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

# a learner who has passed chapter 1 and left off at chapter 2, not passed yet
solved_ex1
env CLTUTOR_WORKSPACE="$ws" "$bin" check 1 >/dev/null 2>&1
env CLTUTOR_WORKSPACE="$ws" "$bin" run 2 --no-timing >/dev/null 2>&1
start

# ---- language: Chinese, wide characters in their columns
keys L
check "Chinese: home" "章节" "原子操作直方图（GPU1）" "未开始"
capture home-zh
line_a=$(screen | grep -F "串行直方图" | head -n 1)
line_b=$(screen | grep -F "合并访问（GPU2）" | head -n 1)
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

finish
