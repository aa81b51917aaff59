#!/bin/sh
# Integrity of submissions: only plain kernel files, never through links or #include; edits of the course gain nothing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

integrity() { # integrity NAME SETUP_COMMANDS PATTERN
  rm -rf "$tmp/int" && mkdir -p "$tmp/int/exercises/01-serial"
  cp "$root/kernels/01-serial/histogram.cl" "$tmp/int/exercises/01-serial/"
  (cd "$tmp/int" && eval "$2")
  "$bin" grade 1 2 --dir "$tmp/int" --seed 8 --format json -o "$tmp/int.json" 2>/dev/null
  check "$1" "$tmp/int.json" \
    "ch('02-atomic')['score'] == 0 and not ch('02-atomic')['submitted'] and '$3' in ch('02-atomic')['tests'][0]['detail'] and full(ch('01-serial'))"
}
integrity "a symbolic link to the reference solution is refused" \
  "mkdir -p exercises/02-atomic && ln -s '$root/kernels/02-atomic/histogram.cl' exercises/02-atomic/histogram.cl" "symbolic link"
integrity "a chapter folder that links to the references is refused" \
  "ln -s '$root/kernels/02-atomic' exercises/02-atomic" "not a plain folder"
integrity "#include of the reference solution is refused" \
  "mkdir -p exercises/02-atomic && printf '#include \"%s\"\n' '$root/kernels/02-atomic/histogram.cl' > exercises/02-atomic/histogram.cl" "#include"
integrity "#include hidden by a line splice, a digraph and a comment is refused" \
  "mkdir -p exercises/02-atomic && printf '/* x */ %%: /* y */ inc\\\\\nlude \"%s\"\n' '$root/kernels/02-atomic/histogram.cl' > exercises/02-atomic/histogram.cl" "#include"
integrity "a FIFO does not block the grader" "mkdir -p exercises/02-atomic && mkfifo exercises/02-atomic/histogram.cl" "not a plain file"
integrity "an oversized file is refused" \
  "mkdir -p exercises/02-atomic && head -c 400000 /dev/zero | tr '\\000' ' ' > exercises/02-atomic/histogram.cl" "bytes"

# a submission that edits the course gains nothing
rm -rf "$tmp/edit" "$tmp/plain" && mkdir -p "$tmp/plain"
put "$tmp/plain" 02-atomic "$k/garbage.cl"
cp -R "$tmp/plain" "$tmp/edit"
mkdir -p "$tmp/edit/lessons/02-atomic" "$tmp/edit/kernels/02-atomic" "$tmp/edit/tests/grade"
printf '[lesson]\ntitle = x\nproblem = surf\nkernels = histogram\nexercise = histogram.cl\ndefault_size = 1\nhidden_sizes = 1\nweights = tests:0\n' \
  > "$tmp/edit/lessons/02-atomic/lesson.ini"
cp "$k/garbage.cl" "$tmp/edit/kernels/02-atomic/histogram.cl"
printf 'exit 0\n' > "$tmp/edit/tests/grade/run.sh"
"$bin" grade 2 --dir "$tmp/plain" --seed 12 --format json -o "$tmp/plain.json" 2>/dev/null
"$bin" grade 2 --dir "$tmp/edit" --seed 12 --format json -o "$tmp/edit.json" 2>/dev/null
if python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
strip = lambda j: [(t['id'], t.get('size'), t['seed'], t['score'], t['max_score']) for c in j['chapters'] for t in c['tests']]
sys.exit(0 if strip(a) == strip(b) and a['score'] == b['score'] == 0 and a['max_score'] == 100 else 1)" "$tmp/plain.json" "$tmp/edit.json"; then
  ok "a submission that edits lessons, references and tests gains nothing"
else bad "edited lesson files changed the grade"; fi

finish
