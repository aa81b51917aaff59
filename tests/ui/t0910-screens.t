#!/bin/sh
# Whole screens against stored ones (tests/ui/screens/), at 120x40 and 80x24, in English and Chinese: the chapter list, the help, a chapter with a wrong, a passing and a crashing kernel, the GPU model and its warp picture.
# CLTUTOR_UPDATE_SCREENS=1 writes the stored screens from this run instead (then read the diff before committing).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # start, screen, keys, wait_for, check, ex2
stored="$here/screens"
update=${CLTUTOR_UPDATE_SCREENS:-}
device=$("$bin" devices --json 2>/dev/null | python3 -c 'import json,sys; d=[x for x in json.load(sys.stdin) if x.get("default")]; print(d[0]["name"] if d else "")')

# the screen, normalised (screen_norm.py), once the course is idle and it has stopped changing
settled() {
  idle
  last="" n=0
  while [ "$n" -lt 40 ]; do
    now=$(screen | python3 "$here/screen_norm.py" "$device" "$tmp")
    [ -n "$last" ] && [ "$now" = "$last" ] && { printf '%s\n' "$now"; return 0; }
    last=$now
    sleep 0.2
    n=$((n + 1))
  done
  printf '%s\n' "$now"
}

# gone TEXT SECONDS: waits until the screen no longer shows TEXT
gone() {
  n=$(( $2 * 10 ))
  while [ "$n" -gt 0 ] && screen | grep -qF -- "$1"; do sleep 0.1; n=$((n - 1)); done
  [ "$n" -gt 0 ]
}

# shot NAME LANG: the screen now at both sizes, against stored/NAME.LANG.COLSxROWS.txt
shot() {
  for size in 120x40 80x24; do
    T resize-window -t ui -x "${size%x*}" -y "${size#*x}" >/dev/null 2>&1
    sleep 0.6
    file="$stored/$1.$2.$size.txt"
    settled > "$tmp/got"
    if [ -n "$update" ]; then
      cp "$tmp/got" "$file"
      ok "screen $1 ($2, $size): stored"
    elif [ ! -f "$file" ]; then
      bad "screen $1 ($2, $size): no stored screen $file (CLTUTOR_UPDATE_SCREENS=1 makes it)"
    elif python3 "$here/screen_norm.py" --stored < "$file" > "$tmp/want" && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
      ok "screen $1 ($2, $size)"
    else
      fail=$((fail + 1))
      echo "not ok $((pass + fail)) - screen $1 ($2, $size) differs from $file (- stored, + now):"
      sed 's/^/#   /' "$tmp/diff" | head -n 60
    fi
  done
  T resize-window -t ui -x 120 -y 40 >/dev/null 2>&1
  sleep 0.6
}

for lang in en zh; do
  stop
  rm -rf "$ws" "$tmp/home"
  fresh_home
  start LANGUAGE=$([ "$lang" = zh ] && echo zh_CN || echo en)
  T resize-window -t ui -x 120 -y 40 >/dev/null 2>&1
  sleep 0.5
  shot home "$lang"
  keys '?'
  shot help "$lang"
  keys Escape
  keys 2
  wait_for "histogram.cl" 10
  # wrong the same way every time: every vote for one bin (the starting file races)
  sed 's/atomic_inc(&histogram\[nearest\]);/atomic_inc(\&histogram[0]);/' "$root/kernels/02-atomic/histogram.cl" > "$ex2"
  wait_any 30 "run 1" "第 1 次运行"
  shot wrong "$lang"
  cp "$root/kernels/02-atomic/histogram.cl" "$ex2"
  wait_any 30 "run 2" "第 2 次运行"
  wait_any 120 "Chapter passed" "本章通过"
  sleep 9 # the status line's note has gone
  shot passing "$lang"
  # (a racy kernel's screen is not stored: which runs lose an update, and which
  # work-items Oclgrind names first, change from run to run; t0904 checks it)
  cp "$here/../cli/kernels/out_of_bounds.cl" "$ex2"
  wait_any 30 "run 3" "第 3 次运行"
  shot crash "$lang"
  cp "$root/kernels/02-atomic/histogram.cl" "$ex2"
  wait_any 30 "run 4" "第 4 次运行"
  keys 8
  wait_any 90 "GPU memory model of" "GPU 内存模型"
  # the verdict ends with a note that stays a few seconds: the screen is taken once it has gone
  wait_any 120 "Chapter passed" "本章通过"
  gone "Chapter passed" 30 && gone "本章通过" 30
  shot gpu-model "$lang"
  keys v   # the warp picture of the busiest instruction (the tab's cursor is on no row)
  wait_any 10 "See the warp" "看线程束"
  shot warp "$lang"
  keys Escape
done
finish
