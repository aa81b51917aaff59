# tests/workspace/lib.sh — what the workspace scripts share, sourced after
# tests/lib.sh: no workspace or data folder from the caller, a home of the
# script's own, and a clone of the committed course in $tmp/tree with this
# build's program in its build/ ($tb), the exercise under test ($ex).
unset CLTUTOR_WORKSPACE CLTUTOR_DATA XDG_DATA_HOME
export HOME="$tmp/home"
mkdir -p "$HOME"
tree="$tmp/tree"
if ! git clone -q "$root" "$tree" 2>"$tmp/clone.log"; then
  bad "clone the source tree" "$(cat "$tmp/clone.log")"
  finish
  exit 1
fi
mkdir -p "$tree/build"
cp "$bin" "$tree/build/cltutor"
tb="$tree/build/cltutor"
ex="exercises/02-atomic/histogram.cl"
