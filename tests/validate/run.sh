#!/bin/sh
# The course itself (`cltutor validate` on every chapter) and the validate
# command's own behaviour on a broken copy of a chapter.
# Usage: tests/validate/run.sh BUILD_DIR; ends with "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
export CLTUTOR_WORKSPACE="$tmp/ws"

# ---- the course: every check of every chapter
echo "# cltutor validate (every chapter)"
out=$("$bin" validate 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(Chapter|  FAIL|            )' | head -n 80 | sed 's/^/# /'
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ] && [ "$rc" -eq 0 ] && printf '%s' "$line" | grep -q ' 0 failed'; then
  ok "the whole course validates: $line"
else
  bad "the whole course validates (exit $rc): ${line:-no closing line}" "$(printf '%s\n' "$out" | grep -E 'FAIL' | head -n 20)"
fi

# ---- the command
echo "# the validate command"
expect "validate --help" 0 'Usage: cltutor validate' -- "$bin" validate --help
expect "unknown option" 64 'unknown option --frob' -- "$bin" validate --frob
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" validate 99
expect "--static runs no kernel" 0 '^  ok   hints' -- "$bin" validate 3 --static
out=$("$bin" validate 8 3 --static 2>&1)
if [ "$(printf '%s\n' "$out" | grep -c '^Chapter')" -eq 2 ] && printf '%s\n' "$out" | grep -q '^Chapter 3' &&
   printf '%s\n' "$out" | grep -q '^Chapter 8'; then ok "validate takes several chapters"
else bad "validate takes several chapters" "$out"; fi
out=$("$bin" validate 3 --static 2>&1)
if printf '%s\n' "$out" | grep -Eq 'reference|starting file'; then bad "--static runs no kernel (it ran some)" "$out"
else ok "--static lists no kernel checks"; fi

# the figures a student install uses in place of chapter 3's reference: stale ones are caught
mkdir -p "$tmp/figs"
cp -R "$root/lessons" "$root/exercises" "$root/kernels" "$tmp/figs/"
sed -i 's/^global_load_bytes = .*/global_load_bytes = 12345/' "$tmp/figs/lessons/04-float4/previous-reference.ini"
expect "stale previous-reference figures fail, with the command that mends them" 1 \
  "global_load_bytes|12345 bytes.*write it afresh with .cltutor validate 4 --write-figures" -- env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4
rm "$tmp/figs/lessons/04-float4/previous-reference.ini"
expect "missing previous-reference figures fail" 1 "previous-reference.ini: cannot read it; write it with" -- \
  env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4
expect "--write-figures writes them" 0 "wrote .*previous-reference.ini" -- env CLTUTOR_DATA="$tmp/figs" "$bin" validate 4 --write-figures
if cmp -s "$tmp/figs/lessons/04-float4/previous-reference.ini" "$root/lessons/04-float4/previous-reference.ini"; then
  ok "written afresh, they are the committed figures"; else bad "written afresh, they are the committed figures"; fi

# A copy of chapters 2 and 3 to break, one thing at a time.
fresh() {
  rm -rf "$tmp/course" "$tmp/ws"
  for d in lessons kernels exercises; do
    mkdir -p "$tmp/course/$d"
    cp -R "$root/$d/02-atomic" "$root/$d/03-coalesced" "$tmp/course/$d/"
  done
}
v() { CLTUTOR_DATA="$tmp/course" "$bin" validate "$@"; }

# ini_case NAME STATUS PATTERN SED-SCRIPT: a fresh copy whose chapter 3
# lesson.ini SED-SCRIPT breaks, validated without kernels
ini_case() {
  fresh
  sed -i "$4" "$tmp/course/lessons/03-coalesced/lesson.ini"
  expect "$1" "$2" "$3" -- v 3 --static
}

fresh
expect "an intact chapter passes" 0 '^0 passed|[1-9][0-9]* passed, 0 failed' -- v 3

fresh
rm "$tmp/course/lessons/03-coalesced/lesson.zh.md"
expect "a missing Chinese text fails" 1 'FAIL text' -- v 3 --static

fresh
: > "$tmp/course/lessons/03-coalesced/lesson.en.md"
expect "an empty English text fails" 1 'lesson.en.md is empty' -- v 3 --static

ini_case "a missing Chinese hint fails" 1 'zh.3 is missing' '/^zh\.3 = /,/^[a-z\[]/{/^zh\.3 = /d;/^    /d}'
ini_case "a missing required key fails" 1 "has no 'title_zh' key" '/^title_zh = /d'
ini_case "a size that does not parse fails" 1 "check_sizes '12x34x5'" 's/^check_sizes = .*/check_sizes = 1000x16 12x34x5/'
ini_case "an unknown problem fails" 1 'no such problem' 's/^problem = .*/problem = nosuch/'
ini_case "a later previous chapter fails" 1 'previous = 7' 's/^previous = .*/previous = 7/'
ini_case "a short title too wide for the bench table fails" 1 "short_title: .* has 37 characters; .cltutor bench. shows 24" 's/^short_title = .*/short_title = Coalesced reads of descriptors (GPU2)/'
ini_case "without short_title the title must fit" 0 '^  ok   metadata' '/^short_title = /d'
sed -i 's/^title = .*/title = Coalesced reads of the descriptors (GPU2)/' "$tmp/course/lessons/03-coalesced/lesson.ini"
expect "... and fails when it does not" 1 "short_title: 'Coalesced reads of the descriptors" -- v 3 --static

fresh
printf 'this is not OpenCL C\n' > "$tmp/course/kernels/03-coalesced/histogram.cl"
expect "a reference that does not build fails" 1 'FAIL reference' -- v 3

fresh
printf '__kernel void histogram(__global const float *a, __global const float *b, __global int *h, int n, int c, int f) {\n' > "$tmp/course/exercises/03-coalesced/histogram.cl"
expect "a starting file that does not build fails" 1 'FAIL starting file' -- v 3

fresh
cp "$root/kernels/03-coalesced/histogram.cl" "$tmp/course/exercises/03-coalesced/bug-no-guard.cl"
expect "a bug listing without its bug fails" 1 'the bug does not show' -- v 3

fresh
sed -i 's/^exposes = .*/exposes = 1024x16/' "$tmp/course/lessons/03-coalesced/lesson.ini"
expect "an input that does not expose the bug fails" 1 'passes on 1024x16x64' -- v 3

fresh
rm "$tmp/course/exercises/03-coalesced/bug-no-guard.cl"
expect "a missing bug listing fails" 1 'bug-no-guard.cl is missing' -- v 3 --static

finish
