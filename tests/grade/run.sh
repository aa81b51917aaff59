#!/bin/sh
# Grading tests: hidden tests, technique checks, isolation of misbehaving
# kernels, integrity of submissions, limits, batch mode and every report
# format (Gradescope fields, JUnit against a schema, TAP through prove).
# Usage: tests/grade/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"

# check NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j) holds
check() {
  if python3 - "$2" "$3" > "$tmp/check.out" 2>&1 <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
def ch(lesson):
    return next(c for c in j["chapters"] if c["lesson"] == lesson)
def test(lesson, tid):
    return next(t for t in ch(lesson)["tests"] if t["id"] == tid)
def full(c):
    return abs(c["score"] - c["max_score"]) < 1e-6 and c["max_score"] > 0
ok = eval(sys.argv[2])
if not ok and "chapters" in j:
    for c in j["chapters"]:
        for t in c["tests"]:
            if t.get("outcome", "pass") != "pass":
                print(c["lesson"], t["id"], t.get("status"), (t.get("detail") or "")[:400].replace("\n", " | "))
elif not ok:
    print(json.dumps(j, indent=1)[:3000])
sys.exit(0 if ok else 1)
EOF
  then ok "$1"; else bad "$1" "$(cat "$tmp/check.out")"; fi
}

# The chapters, their exercise files and find-the-bug listings, from the plan.
"$bin" grade --plan --format json --seed 1 > "$tmp/plan.json" 2> "$tmp/plan.err"
if [ ! -s "$tmp/plan.json" ]; then
  bad "grade --plan" "$(cat "$tmp/plan.err")"
  finish
  exit 1
fi
lessons_of() { # lessons_of EXPR: chapter ids whose plan satisfies EXPR over c
  python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
for c in j['chapters']:
    if eval(sys.argv[2]): print(c['lesson'])" "$tmp/plan.json" "$1"
}
exercise_of() { python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
c = next(c for c in j['chapters'] if c['lesson'] == sys.argv[2])
print(next(t['file'] for t in c['tests'] if t['kind'] == 'hidden'))" "$tmp/plan.json" "$1"; }

# make_correct DIR: every chapter's reference as the exercise, and each
# find-the-bug listing with its bug mended (tests/grade/fixes: a fix must be
# a small edit of the shipped listing, not the reference put in its place)
make_correct() {
  python3 - "$tmp/plan.json" "$root" "$1" "$here/fixes" <<'EOF'
import json, os, shutil, sys
plan, root, dest, fixes = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
for c in plan["chapters"]:
    files = {t["file"] for t in c["tests"]}
    ex = next(t["file"] for t in c["tests"] if t["kind"] == "hidden")
    os.makedirs(os.path.join(dest, "exercises", c["lesson"]), exist_ok=True)
    for f in files:
        src = os.path.join(root, "kernels", c["lesson"], ex) if f == ex else os.path.join(fixes, c["lesson"], f)
        shutil.copy(src, os.path.join(dest, "exercises", c["lesson"], f))
EOF
}
# put DIR LESSON FILE [NAME]: FILE as the chapter's exercise (or as NAME) in submission DIR
put() {
  mkdir -p "$1/exercises/$2"
  cp "$3" "$1/exercises/$2/${4:-$(exercise_of "$2")}"
}

# ---- help, usage errors, the plan
expect "grade --help" 0 'Usage: cltutor grade' -- "$bin" grade --help
expect "unknown format" 64 "--format 'xml'" -- "$bin" grade 2 --format xml
expect "bad seed" 64 "--seed '0'" -- "$bin" grade 2 --seed 0
expect "--require-speedup needs a named device" 64 'needs --device' -- "$bin" grade 2 --require-speedup 2
expect "--batch and --dir together" 64 'cannot be used together' -- "$bin" grade --batch "$tmp" --dir "$tmp"
mkdir -p "$tmp/loose" && cp "$root/kernels/02-atomic/histogram.cl" "$tmp/loose/mine.cl"
expect "a loose, misnamed file: the report says how to hand in" 1 'holds mine.cl loose, with no exercises/ folder: hand in the exercises/ folder itself' -- "$bin" grade 2 --dir "$tmp/loose" --timeout 5
expect "--jobs without --batch" 64 'needs --batch' -- "$bin" grade 2 -j 2
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" grade 99 --plan
expect "--tests that match nothing" 64 'no test of these chapters' -- "$bin" grade 2 --tests nosuchtest
"$bin" grade --plan --format json --seed 1 > "$tmp/plan1b.json" 2>/dev/null
"$bin" grade --plan --format json --seed 2 > "$tmp/plan2.json" 2>/dev/null
if cmp -s "$tmp/plan.json" "$tmp/plan1b.json"; then ok "the same seed gives the same hidden tests"; else bad "the same seed gave other tests"; fi
if ! cmp -s "$tmp/plan.json" "$tmp/plan2.json"; then ok "another seed gives other sizes"; else bad "seeds 1 and 2 gave the same tests"; fi
check "odd sizes are odd, even sizes even, and neither is a multiple of 64" "$tmp/plan.json" \
  "all(int(t['size'].split('x')[0].split(':')[0]) % 2 == (1 if t['id'] == 'odd' else 0) for c in j['chapters'] for t in c['tests'] if t['id'] in ('odd', 'even')) and all(int(t['size'].split('x')[0].split(':')[0]) % 64 != 0 for c in j['chapters'] for t in c['tests'] if t['id'] in ('odd', 'even', 'large'))"
check "every parallel chapter has a race check at a drawn size, and a power-of-two test" "$tmp/plan.json" \
  "all(any(t['id'] == 'safety' for t in c['tests']) for c in j['chapters'] if c['lesson'] != '01-serial') and all(any(t['id'] == 'pow2' for t in c['tests']) for c in j['chapters'])"
check "length 1 and degenerate inputs are tested" "$tmp/plan.json" \
  "all(any(t['id'] == 'one' for t in c['tests']) for c in j['chapters']) and any(t['id'] == 'input.onebin' for t in ch('02-atomic')['tests'])"
check "every find-the-bug listing has its exposing test and a fix test" "$tmp/plan.json" \
  "all(any(t['id'] == 'bug.' + f['id'][4:] for t in c['tests']) for c in j['chapters'] for f in c['tests'] if f['kind'] == 'fix')"
check "a chapter is worth 100 points by default" "$tmp/plan.json" "all(abs(c['max_score'] - 100) < 0.01 for c in j['chapters'])"
"$bin" grade 2 --plan --format json --seed 1 --tests one,large > "$tmp/plan-sub.json" 2>/dev/null
check "--tests keeps the chosen tests with their seeds and points" "$tmp/plan-sub.json" \
  "[(t['id'], t['seed'], t['max_score']) for t in ch('02-atomic')['tests']] == [(t['id'], t['seed'], t['max_score']) for t in json.load(open('$tmp/plan.json'))['chapters'][1]['tests'] if t['id'] in ('one', 'large')]"
s1=$("$bin" grade 1 --plan 2>/dev/null | sed -n 's/^Seed \([0-9]*\):.*/\1/p')
s2=$("$bin" grade 1 --plan 2>/dev/null | sed -n 's/^Seed \([0-9]*\):.*/\1/p')
if [ -n "$s1" ] && [ "$s1" != "$s2" ]; then ok "without --seed every run draws a fresh seed and prints it"; else bad "fresh seeds: '$s1' '$s2'"; fi

# Runs a command as if Oclgrind were not installed: GPU-model checks are then
# skipped (which is quicker, and is itself under test).
nomodel() { CLTUTOR_OCLGRIND_ICD="$tmp/no-oclgrind.so" "$@"; }

# ---- a correct submission: full marks at several seeds
make_correct "$tmp/correct"
for seed in 11 4242 987654321; do
  if [ $seed = 11 ]; then run=""; else run=nomodel; fi
  $run "$bin" grade --dir "$tmp/correct" --seed $seed --format json -o "$tmp/correct-$seed.json" 2> "$tmp/err.txt"
  check "reference solutions get full marks in every chapter (seed $seed${run:+, no GPU model})" "$tmp/correct-$seed.json" \
    "j['failed'] == 0 and j['seed'] == $seed and all(full(c) for c in j['chapters']) and j['error'] is None"
done
check "technique checks and race checks are measured and credited" "$tmp/correct-11.json" \
  "[t for c in j['chapters'] for t in c['tests'] if t['kind'] == 'technique' and t['outcome'] == 'pass'] and all(t['status'] == 'measured' and t['outcome'] == 'pass' for c in j['chapters'] for t in c['tests'] if t['kind'] in ('technique', 'safety'))"
check "without the GPU memory model its checks are skipped, neither passed nor failed, and leave the total" "$tmp/correct-4242.json" \
  "[t for c in j['chapters'] for t in c['tests'] if t['outcome'] == 'skip'] and all(t['detail'].startswith('skipped: GPU memory model unavailable') and t['max_score'] == 0 for c in j['chapters'] for t in c['tests'] if t['outcome'] == 'skip')"

# ---- each find-the-bug listing, submitted as the exercise, fails the test that exposes it
for l in $(lessons_of "any(t['kind'] == 'fix' for t in c['tests'])"); do
  for f in $(python3 -c "
import json, sys
c = next(c for c in json.load(open(sys.argv[1]))['chapters'] if c['lesson'] == sys.argv[2])
print(' '.join(t['id'][4:] + '=' + t['file'] for t in c['tests'] if t['kind'] == 'fix'))" "$tmp/plan.json" "$l"); do
    name=${f%%=*} file=${f#*=}
    rm -rf "$tmp/bug" && mkdir -p "$tmp/bug"
    put "$tmp/bug" "$l" "$root/exercises/$l/$file"
    "$bin" grade "$l" --dir "$tmp/bug" --seed 5 --timeout 3 --tests "bug.$name" --format json -o "$tmp/bug.json" 2>/dev/null
    check "$l: the '$name' listing fails the hidden test that exposes it" "$tmp/bug.json" \
      "test('$l', 'bug.$name')['outcome'] == 'fail' and ch('$l')['score'] < ch('$l')['max_score']"
  done
done

# ---- the right answer without the chapter's technique fails the technique check
technique_less() { # technique_less LESSON KERNEL CHECK_ID WHAT
  rm -rf "$tmp/tq" && mkdir -p "$tmp/tq"
  put "$tmp/tq" "$1" "$2"
  "$bin" grade "$1" --dir "$tmp/tq" --seed 6 --tests "odd,input.onebin,input.equal,input.ones,input.white,$3" --format json -o "$tmp/tq.json" 2>/dev/null
  check "$1: $4 passes the hidden tests but fails $3" "$tmp/tq.json" \
    "all(t['outcome'] == 'pass' for t in ch('$1')['tests'] if t['kind'] == 'hidden') and test('$1', '$3')['outcome'] in ('fail', 'skip') and (test('$1', '$3')['outcome'] == 'fail' or 'unavailable' in test('$1', '$3')['detail'])"
}
has_check() { python3 -c "
import json, sys
c = [c for c in json.load(open(sys.argv[1]))['chapters'] if c['lesson'] == sys.argv[2]]
sys.exit(0 if c and any(t['id'] == sys.argv[3] for t in c[0]['tests']) else 1)" "$tmp/plan.json" "$1" "$2"; }
has_check 04-float4 technique.wide_loads &&
  technique_less 04-float4 "$root/kernels/03-coalesced/histogram.cl" technique.wide_loads "chapter 3's kernel (no float4 loads)"
has_check 05-local technique.local_loads &&
  technique_less 05-local "$root/kernels/04-float4/histogram.cl" technique.local_loads "chapter 4's kernel (no __local memory)"
has_check 06-constant technique.constant_broadcasts &&
  technique_less 06-constant "$root/kernels/05-local/histogram.cl" technique.constant_broadcasts "chapter 5's kernel (no __constant argument)"
has_check 03-coalesced technique.coalesced_loads &&
  technique_less 03-coalesced "$k/uncoalesced.cl" technique.coalesced_loads "a kernel with scattered reads"
if has_check 08-scan technique.bank_conflicts &&
   sed 's/^#define PAD(i) .*/#define PAD(i) (i)/' "$root/kernels/08-scan/scan.cl" > "$tmp/scan-nopad.cl" &&
   ! cmp -s "$tmp/scan-nopad.cl" "$root/kernels/08-scan/scan.cl"; then
  technique_less 08-scan "$tmp/scan-nopad.cl" technique.bank_conflicts "the scan without padding"
fi
if has_check 07-bank-conflicts technique.bank_conflicts &&
   sed 's/^#define STRIDE .*/#define STRIDE BINS/' "$root/kernels/07-bank-conflicts/histogram.cl" > "$tmp/h7-nopad.cl" &&
   ! cmp -s "$tmp/h7-nopad.cl" "$root/kernels/07-bank-conflicts/histogram.cl"; then
  technique_less 07-bank-conflicts "$tmp/h7-nopad.cl" technique.bank_conflicts "the byte histogram without padding"
fi

if has_check 09-integral-image technique.bank_conflicts &&
   sed 's/__local uint tile\[TILE\]\[TILE + 1\];/__local uint tile[TILE][TILE];/' "$root/kernels/09-integral-image/integral.cl" > "$tmp/ii-nopad.cl" &&
   ! cmp -s "$tmp/ii-nopad.cl" "$root/kernels/09-integral-image/integral.cl"; then
  technique_less 09-integral-image "$tmp/ii-nopad.cl" technique.bank_conflicts "the integral image with an unpadded transpose tile"
fi

# ---- a course of our own: grading keys, technique checks on both sides, limits
course="$tmp/course"
mkdir -p "$course/lessons" "$course/kernels" "$course/exercises"
for d in 01-serial 02-atomic; do
  cp -R "$root/lessons/$d" "$course/lessons/"
  cp -R "$root/kernels/$d" "$course/kernels/"
  cp -R "$root/exercises/$d" "$course/exercises/"
done
new_lesson() { # new_lesson ID KEYS...: chapter 2's problem with grading keys of our own
  mkdir -p "$course/lessons/$1" "$course/kernels/$1" "$course/exercises/$1"
  id=$1
  shift
  { printf '[lesson]\ntitle = Test %s\nproblem = surf\nkernels = histogram\nexercise = histogram.cl\n' "$id"
    printf 'layout = rowmajor\ndispatch = per_descriptor\nlocal_size = 64\ndefault_size = 2000x64\nprevious = 1\n'
    for kv in "$@"; do printf '%s\n' "$kv"; done; } > "$course/lessons/$id/lesson.ini"
  cp "$k/local_constant.cl" "$course/kernels/$id/histogram.cl"
  cp "$root/exercises/02-atomic/histogram.cl" "$course/exercises/$id/histogram.cl"
}
new_lesson 90-technique 'technique = local_memory constant_args' 'hidden_sizes = 333x17 1 1000..2000x8:onebin 500x64' \
  'weights = tests:40 technique:60'
new_lesson 91-one 'hidden_sizes = 100x8'
new_lesson 92-bad 'technique = coalesing>=0.9'
new_lesson 93-weights 'hidden_sizes = 100x8 50x4' 'weights = tests:10 hidden.2:30'
C() { CLTUTOR_DATA="$course" "$bin" "$@"; }
rm -rf "$tmp/own" && mkdir -p "$tmp/own"
put "$tmp/own" 90-technique "$k/local_constant.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own.json" 2>/dev/null
check "local memory and __constant arguments measured through the OpenCL API" "$tmp/own.json" \
  "full(ch('90-technique')) and test('90-technique', 'technique.local_memory')['status'] == 'measured' and 'CL_KERNEL_LOCAL_MEM_SIZE' in test('90-technique', 'technique.local_memory')['detail'] and 'centroids' in test('90-technique', 'technique.constant_args')['detail']"
check "hidden_sizes and weights from lesson.ini" "$tmp/own.json" \
  "[t['size'] for t in ch('90-technique')['tests'] if t['kind'] == 'hidden'][:2] == ['333x17x64', '1x256x64'] and abs(sum(t['max_score'] for t in ch('90-technique')['tests'] if t['kind'] == 'technique') - 60) < 1e-6"
put "$tmp/own" 90-technique "$root/kernels/02-atomic/histogram.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own2.json" 2>/dev/null
check "the right answer without the techniques: hidden tests pass, both technique checks fail, and say why" "$tmp/own2.json" \
  "all(t['outcome'] == 'pass' for t in ch('90-technique')['tests'] if t['kind'] == 'hidden') and test('90-technique', 'technique.local_memory')['outcome'] == 'fail' and test('90-technique', 'technique.constant_args')['outcome'] == 'fail' and 'uses 0 bytes of __local memory' in test('90-technique', 'technique.local_memory')['detail'] and abs(ch('90-technique')['score'] - 40) < 1e-6"
put "$tmp/own" 90-technique "$k/garbage.cl" histogram.cl
C grade 90 --dir "$tmp/own" --seed 3 --format json -o "$tmp/own3.json" 2>/dev/null
check "no technique credit without a correct run" "$tmp/own3.json" \
  "ch('90-technique')['score'] == 0 and test('90-technique', 'technique.local_memory')['outcome'] == 'fail'"
expect "a misspelt technique names lesson.ini" 64 '92-bad/lesson.ini: technique .coalesing' -- C grade 92 --plan
C grade 93 --plan --format json > "$tmp/w.json" 2>/dev/null
check "weights: a group split evenly, a named test on top" "$tmp/w.json" \
  "[t['max_score'] for t in ch('93-weights')['tests']] == [5, 30, 5]"

# ---- limits: CPU time, memory, wall time
put "$tmp/own" 91-one "$k/hang.cl" histogram.cl
start=$(date +%s)
C grade 91 --dir "$tmp/own" --seed 3 --timeout 60 --cpu-limit 2 --format json -o "$tmp/cpu.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a CPU-time limit stops an endless loop (${took}s, wall limit 60s)" "$tmp/cpu.json" \
  "test('91-one', 'hidden.1')['status'] == 'timeout' and 'CPU time' in test('91-one', 'hidden.1')['detail'] and $took < 30"
cat > "$tmp/membomb.cl" <<'EOF'
/* Expands to 10^8 tokens: the compiler's memory grows until a limit stops it. */
#define A(x) x x x x x x x x x x
#define B(x) A(A(x))
#define C(x) B(B(x))
#define D(x) C(C(x))
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int s = 0 D(+ 1);
    if (get_global_id(0) == 0) histogram[0] = s;
}
EOF
put "$tmp/own" 91-one "$tmp/membomb.cl" histogram.cl
start=$(date +%s)
POCL_KERNEL_CACHE=0 C grade 91 --dir "$tmp/own" --seed 3 --memory-limit 384 --format json -o "$tmp/mem.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a memory limit stops a kernel that makes the compiler allocate without end (${took}s)" "$tmp/mem.json" \
  "test('91-one', 'hidden.1')['outcome'] == 'fail' and test('91-one', 'hidden.1')['status'] in ('crash', 'runtime_error', 'build_error') and $took < 60"
put "$tmp/own" 91-one "$k/hang.cl" histogram.cl
start=$(date +%s)
C grade 91 --dir "$tmp/own" --seed 3 --timeout 1 --format json -o "$tmp/wall.json" 2>/dev/null
took=$(( $(date +%s) - start ))
check "a wall-time limit stops a hanging kernel (${took}s)" "$tmp/wall.json" \
  "test('91-one', 'hidden.1')['status'] == 'timeout' and $took < 20"

# ---- --require-speedup: measured in the same run against the previous chapter's reference
put "$tmp/own" 91-one "$root/kernels/02-atomic/histogram.cl" histogram.cl
C grade 91 --dir "$tmp/own" --seed 3 --device 0 --require-speedup 0.001 --format json -o "$tmp/sp1.json" 2>/dev/null
check "--require-speedup: a speed test against chapter 1's reference, timed here" "$tmp/sp1.json" \
  "test('91-one', 'speed')['outcome'] == 'pass' and 'speed-up' in test('91-one', 'speed')['detail']"
C grade 91 --dir "$tmp/own" --seed 3 --device 0 --require-speedup 1000000 --format json -o "$tmp/sp2.json" 2>/dev/null
check "--require-speedup: an unreachable speed-up fails that test only" "$tmp/sp2.json" \
  "test('91-one', 'speed')['outcome'] == 'fail' and test('91-one', 'hidden.1')['outcome'] == 'pass'"

# ---- integrity: only plain kernel files, never through links, never with #include
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
strip = lambda j: [(t['id'], t['size'], t['seed'], t['score'], t['max_score']) for c in j['chapters'] for t in c['tests']]
sys.exit(0 if strip(a) == strip(b) and a['score'] == b['score'] == 0 and a['max_score'] == 100 else 1)" "$tmp/plain.json" "$tmp/edit.json"; then
  ok "a submission that edits lessons, references and tests gains nothing"
else bad "edited lesson files changed the grade"; fi

# ---- misbehaving kernels lose only their own tests; every format stays valid
rm -rf "$tmp/mixed" && mkdir -p "$tmp/mixed"
put "$tmp/mixed" 01-serial "$root/kernels/01-serial/histogram.cl"
put "$tmp/mixed" 02-atomic "$k/hang_on_one.cl"
"$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --timeout 2 --format json -o "$tmp/mixed.json" 2>/dev/null
check "a kernel that hangs on one input loses that test only" "$tmp/mixed.json" \
  "full(ch('01-serial')) and [t['id'] for t in ch('02-atomic')['tests'] if t['outcome'] == 'fail'] == ['one'] and test('02-atomic', 'one')['status'] == 'timeout'"
put "$tmp/mixed" 02-atomic "$k/prints.cl"
for f in json junit tap gradescope; do
  "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format $f -o "$tmp/out.$f" 2>/dev/null
done
check "a kernel that prints is graded on its answer; what it printed is quoted, not obeyed" "$tmp/out.json" \
  "full(ch('02-atomic')) and 'ignored for grading' in test('02-atomic', 'odd')['detail'] and '\\x01' not in test('02-atomic', 'odd')['detail']"
put "$tmp/mixed" 02-atomic "$k/crash.cl"
for f in json junit tap gradescope; do
  "$bin" grade 1 2 --dir "$tmp/mixed" --seed 21 --format $f -o "$tmp/crash.$f" 2>/dev/null
done
check "a kernel that crashes loses its chapter's tests, not the others" "$tmp/crash.json" \
  "full(ch('01-serial')) and ch('02-atomic')['score'] == 0 and all(t['status'] == 'crash' for t in ch('02-atomic')['tests'] if t['kind'] == 'hidden') and all(t['status'] in ('not_run', 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] != 'hidden')"
for f in out crash; do
  if python3 - "$tmp/$f.gradescope" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert isinstance(j["score"], (int, float)) and isinstance(j["tests"], list) and j["tests"]
vis = {"hidden", "after_due_date", "after_published", "visible"}
for t in j["tests"]:
    assert isinstance(t["name"], str) and t["name"]
    assert isinstance(t["score"], (int, float)) and isinstance(t["max_score"], (int, float))
    assert 0 <= t["score"] <= t["max_score"] + 1e-9
    assert t.get("status") in ("passed", "failed") or (t["max_score"] == 0 and "status" not in t)
    assert t["status"] != "passed" or abs(t["score"] - t["max_score"]) < 1e-9
    assert isinstance(t["output"], str) and t["visibility"] in vis
assert abs(sum(t["score"] for t in j["tests"]) - j["score"]) < 0.01
assert j["visibility"] in vis and j["stdout_visibility"] in vis
EOF
  then ok "Gradescope results.json has score, max_score, status, output and visibility ($f)"; else bad "Gradescope fields ($f)"; fi
  if xmllint --noout --schema "$here/junit.xsd" "$tmp/$f.junit" > "$tmp/xml.out" 2>&1; then
    ok "JUnit XML validates against the JUnit schema ($f)"
  else bad "JUnit XML ($f)" "$(cat "$tmp/xml.out")"; fi
  if python3 - "$tmp/$f.junit" "$tmp/$f.json" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
root, j = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
assert root.tag == "testsuites" and int(root.get("tests")) == j["tests"]
cases = root.findall("testsuite/testcase")
assert len(cases) == j["tests"]
bad = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
assert bad == j["failed"], (bad, j["failed"])
EOF
  then ok "JUnit XML counts agree with the grade ($f)"; else bad "JUnit counts ($f)"; fi
  prove --exec cat "$tmp/$f.tap" > "$tmp/prove.out" 2>&1
  if grep -q 'Parse errors' "$tmp/prove.out" || ! grep -Eq "^Files=1, Tests=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tests'])" "$tmp/$f.json")," "$tmp/prove.out"; then
    bad "TAP parsed by prove ($f)" "$(cat "$tmp/prove.out")"
  else ok "TAP parsed by prove, every test counted ($f)"; fi
done
if grep -q '^ok 1 - all tests passed' "$tmp/out.tap" || grep -q '"score": 1000' "$tmp/out.gradescope"; then
  bad "a kernel's output leaked into a report as a result"
else ok "a kernel's printed 'ok' lines and JSON cannot pass for results"; fi
prove --exec cat "$tmp/out.tap" > /dev/null 2>&1 && ok "prove passes a full-marks TAP report" || bad "prove failed a full-marks report"

# ---- batch: one row per student, a JSON report each, in parallel
b="$tmp/batch"
mkdir -p "$b"
make_correct "$b/ada"
rm -rf "$b"/ada/exercises/0[4-9]*
mkdir -p "$b/bob" "$b/cy" "$b/dee" "$b/eve" "$b/=fay"
cp -R "$b/ada/exercises" "$b/bob/"; put "$b/bob" 02-atomic "$k/garbage.cl"
cp -R "$b/ada/exercises" "$b/cy/";  put "$b/cy" 02-atomic "$k/hang.cl"
cp -R "$b/ada/exercises" "$b/dee/"; put "$b/dee" 02-atomic "$k/crash.cl"
cp -R "$b/ada/exercises" "$b/eve/"
[ -f "$root/exercises/03-coalesced/bug-no-guard.cl" ] && put "$b/eve" 03-coalesced "$root/exercises/03-coalesced/bug-no-guard.cl"
start=$(date +%s)
nomodel "$bin" grade 1 2 3 --batch "$b" -j 2 --timeout 1 -o "$tmp/grades.csv" --seed 77 2> "$tmp/batch.err"
rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ] && grep -q 'none of the exercise files was found for: =fay' "$tmp/batch.err" &&
   python3 - "$tmp/grades.csv" "$tmp/grades-reports" <<'EOF'
import csv, json, os, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert set(rows) == {"'=fay", "ada", "bob", "cy", "dee", "eve"}, rows.keys()
assert all(r["seed"] == "77" for r in rows.values())
assert [s for s, r in rows.items() if r["status"] != "ok"] == ["'=fay"] and rows["'=fay"]["status"] == "no files", rows
f = lambda s, c: float(rows[s][c])
assert f("ada", "score") == f("ada", "max_score") > 0
assert len({r["max_score"] for r in rows.values()}) == 1, "every student has the same total"
for s in ("bob", "cy", "dee"):
    assert f(s, "01-serial") == 100 and f(s, "03-coalesced") == f("ada", "03-coalesced") and f(s, "02-atomic") == 0, s
assert f("eve", "03-coalesced") < f("ada", "03-coalesced") and f("eve", "02-atomic") == f("ada", "02-atomic")
assert f("'=fay", "score") == 0
for r in rows.values():
    j = json.load(open(r["report"]))
    assert j["seed"] == 77 and abs(j["score"] - float(r["score"])) < 0.01
assert len(os.listdir(sys.argv[2])) == 6
EOF
then ok "batch -j 2: one CSV row and one JSON report per student, each loses only its own tests, an empty folder is named (${took}s)"
else bad "batch (exit $rc)" "$(cat "$tmp/batch.err" "$tmp/grades.csv")"; fi

# ---- Gradescope: run_autograder in a folder laid out like the autograder's
ag="$tmp/autograder"
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
cp "$root/docs/gradescope/run_autograder" "$ag/run_autograder"
printf 'CHAPTERS="1 2"\nOPTIONS="--timeout 5"\n' > "$ag/source/grade.conf"
cp -R "$tmp/mixed/exercises" "$ag/submission/"
put "$ag/submission" 02-atomic "$root/kernels/02-atomic/histogram.cl"
(cd "$ag" && AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh ./run_autograder > "$ag/results/stdout" 2>&1)
rc=$?
if [ $rc -eq 0 ] && python3 - "$ag/results/results.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["score"] == 200 and len(j["tests"]) == 18, (j["score"], len(j["tests"]))
assert all(t["status"] == "passed" for t in j["tests"])
assert "seed" in j["output"]
EOF
then ok "run_autograder grades /autograder/submission into results/results.json"
else bad "run_autograder (exit $rc)" "$(cat "$ag/results/stdout" "$ag/results/results.json" 2>/dev/null)"; fi
ls "$ag/submission/exercises/02-atomic" | grep -qv '^histogram.cl$' && bad "the grader wrote into the submission" || ok "the grader writes nothing into the submission"
mkdir -p "$tmp/no-icd"
rm -f "$ag/results/results.json"
(cd "$ag" && OCL_ICD_VENDORS="$tmp/no-icd" AUTOGRADER_ROOT="$ag" CLTUTOR_SOURCE="$root" CLTUTOR_BIN="$bin" sh ./run_autograder > "$ag/results/stdout" 2>&1)
if python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if 'could not run' in j['output'] and j['tests'] == [] else 1)" "$ag/results/results.json" 2>/dev/null; then
  ok "without an OpenCL device, results.json says the grader could not run (not a zero grade in disguise)"
else bad "no device in run_autograder" "$(cat "$ag/results/stdout" "$ag/results/results.json" 2>/dev/null)"; fi
expect "no OpenCL device: grade exits 69" 69 'could not run' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" grade 2 --dir "$tmp/mixed"

finish
