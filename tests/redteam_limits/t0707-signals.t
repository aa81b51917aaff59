#!/bin/sh
# SIGTERM and SIGINT during a batch or a single grading: every process stopped, every temporary folder removed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

stop_run() { # stop_run SIGNUM NAME COMMAND...: waits for the run's folders, signals it, checks
  sig=$1 name=$2
  shift 2
  # a background job of a script starts with SIGINT ignored: give it back its default
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$@" > /dev/null 2> "$tmp/sig.err" &
  pid=$!
  n=0
  while [ $n -lt 300 ] && [ -z "$(find "$TMPDIR" -mindepth 3 2>/dev/null | head -n 1)" ]; do sleep 0.1; n=$((n + 1)); done
  sleep 1
  kill -"$sig" $pid
  wait $pid
  rc=$?
  want=$((128 + sig))
  sleep 0.5
  alive=$(ps -eo args | grep -F "$tmp/" | grep -v grep | grep -F cltutor)
  if [ $rc -eq $want ] && [ -z "$(ls -A "$TMPDIR")" ] && [ -z "$alive" ]; then
    ok "$name: exit $want, no temporary folder and no process left"
  else bad "$name (exit $rc, wanted $want)" "$(ls -A "$TMPDIR"; echo "$alive"; cat "$tmp/sig.err")"; fi
}
make_batch
stop_run 15 "SIGTERM during a batch" "$bin" grade 1 2 --batch "$b" -j 2 --seed 9 -o "$tmp/g3.csv"
stop_run 2 "SIGINT during a batch" "$bin" grade 1 2 --batch "$b" -j 2 --seed 9 -o "$tmp/g4.csv"
stop_run 15 "SIGTERM while grading one submission" "$bin" grade 1 2 --dir "$b/ada" --seed 9 --format json -o "$tmp/one.json"

finish
