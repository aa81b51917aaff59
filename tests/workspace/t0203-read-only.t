#!/bin/sh
# A shared, read-only checkout (a lab): each learner gets a workspace of their own.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a clone of the course in $tree, its program $tb, $ex

if [ "$(id -u)" -ne 0 ]; then
  rm -rf "$tree/workspace"
  chmod -R a-w "$tree"
  out=$("$tb" run 1 2>&1)
  if [ -f "$HOME/.local/share/cltutor/exercises/01-serial/histogram.cl" ]; then
    ok "a read-only checkout falls back to ~/.local/share/cltutor"
  else bad "a read-only checkout falls back to ~/.local/share/cltutor" "$out"; fi
  chmod -R u+w "$tree"
else
  # root writes anywhere: a checkout owned by another user stands in for the lab's
  if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
    rm -rf "$tree/workspace"
    chmod -R a+rX "$tmp"
    mkdir -p "$tmp/nobody-home" && chown nobody "$tmp/nobody-home"
    out=$(HOME="$tmp/nobody-home" setpriv --reuid=nobody --regid=nogroup --clear-groups "$tb" run 1 2>&1)
    if [ -f "$tmp/nobody-home/.local/share/cltutor/exercises/01-serial/histogram.cl" ] && [ ! -e "$tree/workspace" ]; then
      ok "a checkout the learner cannot write falls back to ~/.local/share/cltutor"
    else bad "a checkout the learner cannot write falls back to ~/.local/share/cltutor" "$out"; fi
  else
    ok "a read-only checkout (skipped: no unprivileged user to try it as)"
  fi
fi

finish
