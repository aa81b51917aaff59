#!/bin/sh
# Grading and the cache of run results: in a batch, every student's checks
# are measured at the batch's size, so each chapter's references are
# simulated once; a second student costs two simulations of their own kernel
# per chapter (at the technique size, and at a large size for the cost) and
# nothing more, and the same file handed in again costs none.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, check, make_correct, ...
if ! "$bin" analyze --help >/dev/null 2>&1 || [ ! -f "$build/cltutor-gpumodel.so" ]; then
  echo "1..0 # SKIP the Oclgrind plugin was not built"
  exit 0
fi
export CLTUTOR_RESULT_CACHE="$tmp/results"
# simulations kept (the GPU model's entries hold its figures; the others are plain runs)
entries() { find "$CLTUTOR_RESULT_CACHE" -name '*.json' -exec grep -l '"figures"' {} + 2>/dev/null | wc -l | tr -d ' '; }

# student DIR [COMMENT]: the references of chapters 3 and 4 as DIR's exercises, each with COMMENT appended
student() {
  for c in 03-coalesced 04-float4; do
    mkdir -p "$1/exercises/$c"
    cp "$root/kernels/$c/histogram.cl" "$1/exercises/$c/histogram.cl"
    [ -n "$2" ] && printf '/* %s */\n' "$2" >> "$1/exercises/$c/histogram.cl"
  done
}
grade_as() { # NAME DIR SEED
  "$bin" grade 3 4 --dir "$2" --exercise-only --seed "$3" --analysis-seed 4242 --format json -o "$tmp/$1.json" 2> "$tmp/$1.err"
}
student "$tmp/ada"
student "$tmp/bob" "bob's own"
student "$tmp/cy" "bob's own"

grade_as ada "$tmp/ada" 11
first=$(entries)
grade_as bob "$tmp/bob" 12
second=$(entries)
grade_as cy "$tmp/cy" 13
third=$(entries)
check "the first student gets full marks" "$tmp/ada.json" 'j["score"] == j["max_score"] > 0'
check "the second, with a file of their own, too" "$tmp/bob.json" 'j["score"] == j["max_score"] > 0'
if [ "$first" -ge 4 ] && [ "$second" -eq $((first + 4)) ]; then
  ok "the second student costs two simulations per chapter, of their own kernel: the references are found again ($first, then $second)"
else bad "simulations kept: $first after the first student, $second after the second (wanted $((first + 4)))" "$(cat "$tmp/bob.err")"; fi
if [ "$third" -eq "$second" ]; then ok "the same file handed in by a third student is simulated no more"
else bad "a third student with the second's file added $((third - second)) simulations"; fi
check "each report names the batch's analysis seed" "$tmp/cy.json" 'j["analysis_seed"] == 4242 and j["seed"] == 13'
if python3 - "$tmp/ada.json" "$tmp/bob.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
size = lambda j: {(c["lesson"], t["id"]): t["seed"] for c in j["chapters"] for t in c["tests"] if t["kind"] == "technique"}
assert not any("size" in t for c in a["chapters"] for t in c["tests"] if t["kind"] in ("technique", "safety"))
hidden = lambda j: [t["size"] for c in j["chapters"] for t in c["tests"] if t["kind"] == "hidden"]
assert size(a) == size(b) and size(a), (size(a), size(b))
assert hidden(a) != hidden(b)
PY
then ok "the checks are drawn alike for both students (and their size is not in the reports), their hidden tests at sizes of their own"
else bad "sizes of two students"; fi

finish
