#!/bin/sh
# A passed chapter whose file changes (a reset, here) is "changed" everywhere, not "passed": in the chapter
# list, in the chapter's header, in `cltutor list`, and the Result tab says the last run was of another file.
# A run's summary follows the language switch.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

solved_ex1
env HOME="$tmp/home" CLTUTOR_WORKSPACE="$ws" "$bin" check 1 > "$tmp/check.out" 2>&1 ||
  bad "check 1 of the reference passes" "$(cat "$tmp/check.out")"
start
check "the chapter list: chapter 1 passed" "✓ passed"
keys Up
keys Enter
check "the chapter's header: passed" "✓ passed · "
# the run's summary follows a language switch (L), as the rest of the screen does
keys r
check "a run of the passed file: every bin matches" "All 256 bins match the golden reference."
idle
keys L
check "after L the run's summary is in Chinese too" "全部 256 个桶都与黄金参考一致"
keys L
check "and back in English" "All 256 bins match the golden reference."
keys X
keys X
check "after X X the header says changed" "~ changed · "
check "the Result tab: the last run was of another version of the file" "another version of this file"
check_not "the Result tab does not say the last run passed" ") passed. Press r"
keys q
check "the chapter list: chapter 1 changed, and none passed" "~ changed" "0 of 9 chapters passed"
out=$(env HOME="$tmp/home" CLTUTOR_WORKSPACE="$ws" "$bin" list 2>&1)
if printf '%s\n' "$out" | grep -Eq "^ *>? *1 +Serial histogram +changed"; then ok "cltutor list: changed"
else bad "cltutor list says changed" ; printf '%s\n' "$out" | sed 's/^/#   /'; fi

finish
