#!/bin/sh
# Measures the terminal UI's save-to-result latency: the time from saving a
# chapter's kernel to its result on screen, with the watch on, at the
# chapter's default size, on the default device (PoCL here), with a warm
# kernel cache (two versions of the kernel alternate, both built before the
# measured saves).
#   bench/ui_latency.sh [BUILD_DIR] [CHAPTER] [SAVES]      (defaults: build 2 15)
# Prints each save's latency, then the median, min and max.
build=$(cd "${1:-build}" && pwd)
chapter=${2:-2}
saves=${3:-15}
bin="$build/cltutor"
root=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null || { echo "needs tmux (sudo apt-get install tmux)" >&2; exit 1; }
tmp=$(mktemp -d)
sock="cltutor-latency-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT INT TERM

id=$(ls "$root/lessons" | grep "^0*$chapter-" | head -n 1)
[ -n "$id" ] || { echo "no chapter $chapter" >&2; exit 64; }
file=$(sed -n 's/^exercise *= *//p' "$root/lessons/$id/lesson.ini" | head -n 1)
ws="$tmp/ws"
mkdir -p "$ws/exercises/$id" "$tmp/home"
ex="$ws/exercises/$id/$file"
# the reference solution passes, so every run is built, checked and timed
cp "$root/kernels/$id/$file" "$tmp/A.cl"
{ cat "$root/kernels/$id/$file"; echo "/* B */"; } > "$tmp/B.cl"
cp "$tmp/A.cl" "$ex"

T new-session -d -s ui -x 100 -y 30 "env LANG=C.UTF-8 HOME=$HOME CLTUTOR_WORKSPACE=$ws $bin; sleep 600"
screen() { T capture-pane -p -t ui; }
now() { date +%s.%N; }
# wait_run N: until the result of run N is on screen; prints the time it appeared
wait_run() {
  while :; do
    if screen | grep -qE "(run|第) $1( |次)"; then now; return 0; fi
    sleep 0.005
  done
}
sleep 1
T send-keys -t ui "$chapter"
sleep 1
echo "chapter $id, default size, $(screen | head -n 1 | sed 's/.*· \(.*\) · .*/\1/')"
# warm-up: both versions once, so the kernel cache holds them
n=0
for v in B A B; do
  cp "$tmp/$v.cl" "$ex"
  n=$((n + 1))
  wait_run "$n" > /dev/null
done
# the references' timings (once per session) are done before measuring
sleep 2
while screen | grep -qE "timing a reference|正在为参考实现计时"; do sleep 0.2; done
results="$tmp/results"
: > "$results"
i=0
while [ "$i" -lt "$saves" ]; do
  i=$((i + 1))
  v=$([ $((i % 2)) -eq 1 ] && echo A || echo B)
  sleep 0.3
  t0=$(now)
  cp "$tmp/$v.cl" "$ex.tmp" && mv "$ex.tmp" "$ex"   # an editor's save: a new file renamed over the old
  n=$((n + 1))
  t1=$(wait_run "$n")
  ms=$(echo "$t0 $t1" | awk '{printf "%.0f", ($2 - $1) * 1000}')
  echo "save $i: $ms ms"
  echo "$ms" >> "$results"
done
sort -n "$results" | awk '{v[NR] = $1} END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median %d ms, min %d ms, max %d ms over %d saves\n", m, v[1], v[NR], NR }'
