# tests/validate/lib.sh — what the validate scripts share, sourced after
# tests/lib.sh: a workspace in $tmp, and a copy of chapters 2 and 3 to break,
# one thing at a time (fresh, v, ini_case).
export CLTUTOR_WORKSPACE="$tmp/ws"

# fresh: a new copy of chapters 2 and 3 in $tmp/course
fresh() {
  rm -rf "$tmp/course" "$tmp/ws"
  for d in lessons kernels exercises; do
    mkdir -p "$tmp/course/$d"
    cp -R "$root/$d/02-atomic" "$root/$d/03-coalesced" "$tmp/course/$d/"
  done
  cp -R "$root/devices" "$tmp/course/"   # the GPU the cost check models
}
# v ARGS...: cltutor validate ARGS on the copy
v() { CLTUTOR_DATA="$tmp/course" "$bin" validate "$@"; }

# ini_case NAME STATUS PATTERN SED-SCRIPT: a fresh copy whose chapter 3
# lesson.ini SED-SCRIPT breaks, validated without kernels
ini_case() {
  fresh
  sed -i "$4" "$tmp/course/lessons/03-coalesced/lesson.ini"
  expect "$1" "$2" "$3" -- v 3 --static
}
