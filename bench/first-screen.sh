#!/bin/sh
# Seconds from `make run` to the course's first screen (the chapter list) on
# a built tree, in a 100x30 tmux, with a workspace of its own: the median of
# ROUNDS starts.   bench/first-screen.sh [ROUNDS]   (default 5)
rounds=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null || { echo "needs tmux (sudo apt-get install tmux)" >&2; exit 1; }
make -C "$root" --no-print-directory all >/dev/null || exit 1
tmp=$(mktemp -d)
sock="cltutor-first-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for r in $(seq 1 "$rounds"); do
  t0=$(date +%s.%N)
  tmux -L "$sock" -f /dev/null new-session -d -s ui -x 100 -y 30 \
    "cd '$root' && CLTUTOR_WORKSPACE='$tmp/ws$r' make run; sleep 60"
  until tmux -L "$sock" capture-pane -p -t ui 2>/dev/null | grep -q "chapters passed"; do sleep 0.02; done
  t1=$(date +%s.%N)
  tmux -L "$sock" kill-server 2>/dev/null
  echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }'
done | sort -n | awk '{ v[NR] = $1; s = s " " $1 } END { print "starts, fastest first (s):" s; print "median: " v[int((NR + 1) / 2)] " s" }'
