# tests/cheats/lib.sh — what the cheat-corpus scripts share, sourced after
# tests/lib.sh: the corpus (one kernel per way a learner could collect marks
# without doing what the chapter teaches, tests/cheats/kernels, the hole each
# one tries written at its top; README.md has the figures), make_corpus,
# pick_seed, honest_chapter and check_cheats.
# Every cheat is correct on the visible tests; each must fail `cltutor check`
# on the race check or the technique it dodges (t0501-t0503), and must lose
# that test's points in `cltutor grade`, while an honest class-mate in the
# same batch (the references, and small fixes of the find-the-bug listings,
# tests/grade/fixes) gets full marks (t0504).
# CHEATS_KEEP=DIR keeps the check outputs and grade reports (for README.md's figures).
export CLTUTOR_WORKSPACE="$tmp/ws"

# make_corpus: the corpus in $k. The cheats that are a reference with one
# line changed, or the reference handed in as something else, are made from
# the reference here, so that they follow it: derive NAME REFERENCE [LINE]:
# the reference, with the barrier at LINE removed when LINE is given.
k="$tmp/corpus"
derive() {
  if [ -n "$3" ]; then
    if sed -n "${3}p" "$root/kernels/$2" | grep -q 'barrier(CLK_LOCAL_MEM_FENCE);'; then
      sed "${3}s|barrier(CLK_LOCAL_MEM_FENCE);|/* (the cheat: the barrier that was here is gone) */|" "$root/kernels/$2" > "$k/$1.cl"
    else bad "$1: line $3 of kernels/$2 is no longer a barrier; update the corpus"; fi
  else cp "$root/kernels/$2" "$k/$1.cl"; fi
}
# mended NAME LESSON LISTING: the listing with its bug mended, its names
# changed and its comments gone, handed in as the chapter's exercise
mended() {
  python3 - "$root/tests/grade/fixes/$2/$3" "$3" > "$k/$1.cl" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
text = re.sub(r"//[^\n]*", "", text)
for old, new in (("sum", "total"), ("lid", "me"), ("tree", "shared_words"), ("carry", "running")):
    text = re.sub(r"\b%s\b" % old, new, text)
print("/* A cheat: the find-the-bug listing %s, mended, renamed and without its comments, handed in as the exercise. */" % sys.argv[2])
print(text)
PY
}
make_corpus() {
  mkdir -p "$k" && cp "$here"/kernels/*.cl "$k/"
  derive ch08c-no-downsweep-barrier 08-scan/scan.cl 127       # the down-sweep's barrier: a __local race
  derive ch09a-no-downsweep-barrier 09-integral-image/integral.cl 58   # scan_tree's down-sweep barrier
  derive fix03-reference-as-fix 03-coalesced/histogram.cl     # the reference handed in as the fixed listing
  derive fix04-reference-as-fix 04-float4/histogram.cl
  derive fix08-reference-as-fix 08-scan/scan.cl
  # a find-the-bug listing, mended (as tests/grade/fixes has it), handed in as the exercise
  mended listing06-gpu5-as-exercise 06-constant bug-book-gpu5.cl
  mended listing08-pow2-as-exercise 08-scan bug-pow2.cl
  # the shipped listing kept whole under #if 0, and the reference after it with its code on one line
  python3 - "$root/exercises/04-float4/bug-step-by-one.cl" "$root/kernels/04-float4/histogram.cl" \
    > "$k/fix04-if0-listing.cl" <<'PY'
import re, sys
listing, ref = open(sys.argv[1]).read(), open(sys.argv[2]).read()
ref = re.sub(r"/\*.*?\*/", " ", ref, flags=re.S)
ref = re.sub(r"//[^\n]*", " ", ref)
directives = [l for l in ref.splitlines() if l.strip().startswith("#")]
code = " ".join(l.strip() for l in ref.splitlines() if l.strip() and not l.strip().startswith("#"))
print("/* A cheat, not a fix: the listing kept whole under #if 0 (line counts saw it unchanged), then")
print(" * the reference with all its code on one line (one changed line, as lines were counted). */")
print("#if 0\n" + listing + "#endif\n" + "\n".join(directives) + "\n" + code)
PY
}

# The corpus, one cheat a line:
#   NAME  CHAPTER  FILE (in the submission)  CHECK  GRADE_TEST  GRADE
# CHECK: what `check N --kernel` must fail: race (the race check finds a data
#   race), refused (the simulator cannot run it), a metric name (that
#   technique is not met), technique (some technique is not met), fix
#   (`check N` in a workspace: "a fix, not a rewrite" fails), own ("own kernel"
#   fails: a mended listing as the exercise), address (the
#   race check finds a pointer the kernel turns into a number), public (the
#   cheat is fitted to the public sizes: check cannot see it, its exit status
#   is only recorded), - (not run).
# GRADE_TEST names a test of the grade (a technique test also matches under
# its kernel-qualified name, technique.X.KERNEL); "technique" stands for any
# of the chapter's technique tests.
# GRADE: how GRADE_TEST must end in `grade`: technique (fails, every hidden
#   test passes), race (fails, and the hidden tests earn nothing: unsafe),
#   wrong (fails as a wrong answer; any other hidden test it fails, also as wrong), not_a_fix,
#   listing (every hidden test fails as "listing": a mended find-the-bug listing is not the exercise),
#   accepted (passes: the rule allows it, or the model cannot see it yet; the
#   file's header says which, recorded as such).
corpus="
ch02-no-atomic                 02-atomic         histogram.cl       race                  safety                        race
ch02-one-worker                02-atomic         histogram.cl       active_lanes          technique.active_lanes        technique
ch02-pointer-bits              02-atomic         histogram.cl       address               safety                        race
ch02-dummy-coalesced-loads     02-atomic         histogram.cl       cost                  technique.cost                technique
ch03-strided                   03-coalesced      histogram.cl       coalesced_loads       technique.coalesced_loads     technique
ch03-coalesced-at-1024         03-coalesced      histogram.cl       public                technique.coalesced_loads     technique
ch03-wrong-when-even           03-coalesced      histogram.cl       public                even                          wrong
ch03-split-strided-loads       03-coalesced      histogram.cl       cost                  technique.cost                technique
ch03-gated-by-size             03-coalesced      histogram.cl       cost                  technique.cost                technique
ch04-hardwired-64-features     04-float4         histogram.cl       -                     shape.1                       wrong
ch04-chapter3-kernel           04-float4         histogram.cl       wide_loads            technique.wide_loads          technique
ch04-dummy-vload4              04-float4         histogram.cl       load_requests_vs_previous technique.load_requests_vs_previous technique
ch04-vload4-centroid           04-float4         histogram.cl       wide_loads            technique.wide_loads          technique
ch05-token-local               05-local          histogram.cl       local_loads           technique.local_loads         technique
ch05-token-local-in-loop       05-local          histogram.cl       global_loads_vs_previous technique.global_loads_vs_previous technique
ch06a-constant-cast-to-global  06-constant       histogram.cl       constant_broadcasts   safety                        race
ch06b-constant-descriptors     06-constant       histogram.cl       refused               safety                        race
ch06c-constant-to-local        06-constant       histogram.cl       refused               safety                        race
ch06d-constant-to-local-fits   06-constant       histogram.cl       constant_broadcasts   technique.constant_broadcasts technique
ch06e-constant-dummy-broadcast 06-constant       histogram.cl       global_loads_vs_previous safety                     race
ch07-global-atomics            07-bank-conflicts histogram.cl       local_atomics         technique.local_atomics       technique
ch07-merge-only                07-bank-conflicts histogram.cl       cost                  technique.cost                technique
ch07-copies-unpadded           07-bank-conflicts histogram.cl       cost                  technique.cost                technique
ch07-gated-by-size             07-bank-conflicts histogram.cl       cost                  technique.cost                technique
ch08a-serial-scan              08-scan           scan.cl            cost                  technique.cost                technique
ch08b-hillis-steele            08-scan           scan.cl            cost                  technique.cost                technique
ch08c-no-downsweep-barrier     08-scan           scan.cl            race                  safety                        race
ch08-gated-by-size             08-scan           scan.cl            cost                  technique.cost                technique
ch09a-no-downsweep-barrier     09-integral-image integral.cl        race                  safety                        race
ch09b-strided-transpose        09-integral-image integral.cl        coalesced_stores      technique.coalesced_stores    technique
ch09c-serial-row-scan          09-integral-image integral.cl        technique             technique                     technique
ch09-copy-transpose            09-integral-image integral.cl        cost                  technique.cost                technique
fix03-reference-as-fix         03-coalesced      bug-row-length.cl  fix                   fix.row-length                not_a_fix
fix04-reference-as-fix         04-float4         bug-step-by-one.cl fix                   fix.step-by-one               not_a_fix
fix04-if0-listing              04-float4         bug-step-by-one.cl fix                   fix.step-by-one               not_a_fix
fix04-only-exposing-input      04-float4         bug-step-by-one.cl -                     fix.step-by-one               not_a_fix
fix08-reference-as-fix         08-scan           bug-pow2.cl        fix                   fix.pow2                      not_a_fix
listing06-gpu5-as-exercise     06-constant       histogram.cl       own                   odd                           listing
listing08-pow2-as-exercise     08-scan           scan.cl            own                   odd                           listing
"

# pick_seed: a fixed seed in $seed and its plan in $tmp/plan.json. Chapter 3's
# hidden "even" size is twice an odd number at every seed (ch03-wrong-when-even
# is right on multiples of 4): this checks it at this seed.
pick_seed() {
  seed=7
  "$bin" grade --plan --format json --seed $seed > "$tmp/plan.json" 2> "$tmp/plan.err"
  if [ ! -s "$tmp/plan.json" ]; then
    bad "grade --plan" "$(cat "$tmp/plan.err")"
    finish
    exit 1
  fi
  python3 -c "
import json, sys
c = next(c for c in json.load(open(sys.argv[1]))['chapters'] if c['lesson'] == '03-coalesced')
sys.exit(0 if int(next(t for t in c['tests'] if t['id'] == 'even')['size'].split('x')[0]) % 4 == 2 else 1)" "$tmp/plan.json" ||
    bad "chapter 3's hidden even size at seed $seed is a multiple of 4"
  echo "# seed $seed"
}

# honest_chapter DEST LESSON: the chapter as an honest learner hands it in:
# the reference as the exercise, each listing with its bug mended (fixes/)
honest_chapter() {
  python3 - "$tmp/plan.json" "$root" "$root/tests/grade/fixes" "$1" "$2" <<'PY'
import json, os, shutil, sys
plan, root, fixes, dest, only = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
for c in plan["chapters"]:
    if only != "all" and c["lesson"] != only:
        continue
    d = os.path.join(dest, "exercises", c["lesson"])
    os.makedirs(d, exist_ok=True)
    for t in c["tests"]:
        if t["kind"] == "hidden":
            shutil.copy(os.path.join(root, "kernels", c["lesson"], t["file"]), os.path.join(d, t["file"]))
        elif t["kind"] == "fix":
            shutil.copy(os.path.join(fixes, c["lesson"], t["file"]), os.path.join(d, t["file"]))
PY
}

# in_group CHECK GROUP: whether a cheat whose CHECK column is CHECK is
# checked by GROUP: races (race, refused), fixes (fix) or techniques (a
# metric name, technique, public); - is not run through check
in_group() {
  case $1 in
  -) return 1 ;;
  race|refused|address) [ "$2" = races ] ;;
  fix) [ "$2" = fixes ] ;;
  *) [ "$2" = techniques ] ;;
  esac
}

# check_cheats GROUP: every cheat of GROUP through `cltutor check`, two at a
# time: correct on every visible test, and failing what it dodges
# metric_pattern NAME: an extended regex for how `check` names the technique
# metric NAME to a learner (its English phrase in src/gpumodel/technique.h)
metric_pattern() {
  python3 - "$root/src/gpumodel/technique.h" "$1" <<'PY'
import re, sys
text = re.sub(r"\\\n", " ", open(sys.argv[1]).read())
m = re.search(r'X\(TQ_\w+, "%s",.*?N_\("([^"]+)"\)\)' % re.escape(sys.argv[2]), text)
print(re.sub(r"([][.(){}*+?|^$\\])", r"\\\1", m.group(1) if m else sys.argv[2]))  # ERE-escaped
PY
}

check_cheats() {
  group=$1
  start=$(date +%s)
  mkdir -p "$tmp/check" "$tmp/fixws"
  printf '%s\n' "$corpus" | while read -r name lesson file chk gtest how; do
    [ -n "$name" ] && in_group "$chk" "$group" || continue
    if [ "$chk" = fix ]; then    # a workspace: the honest chapter, the cheat as the listing
      honest_chapter "$tmp/fixws/$name" "$lesson"
      cp "$k/$name.cl" "$tmp/fixws/$name/exercises/$lesson/$file"
      printf '%s %s %s\n' "$name" "$lesson" "$tmp/fixws/$name"
    else
      printf '%s %s -\n' "$name" "$lesson"
    fi
  done > "$tmp/check/jobs"
  export bin k tmp
  # a minute a test, not the default 10 s: no cheat hangs, and a loaded machine must not fail one
  xargs -P 2 -L 1 sh -c '
    if [ "$3" = - ]; then "$bin" check "$2" --kernel "$k/$1.cl" --timeout 60 > "$tmp/check/$1.out" 2>&1
    else CLTUTOR_WORKSPACE="$3" "$bin" check "$2" --timeout 60 > "$tmp/check/$1.out" 2>&1; fi
    echo $? > "$tmp/check/$1.rc"' sh < "$tmp/check/jobs"

  printf '%s\n' "$corpus" | while read -r name lesson file chk gtest how; do
    [ -n "$name" ] && in_group "$chk" "$group" || continue
    out="$tmp/check/$name.out"
    rc=$(cat "$tmp/check/$name.rc" 2>/dev/null || echo none)
    case $chk in
    race) pat='FAIL race check .*: Data race' ; what="the race check finds a data race" ;;
    refused) pat='FAIL race check .*: Not checked'; what="the simulator refuses to run it" ;;
    address) pat='FAIL race check .*: Pointer as an integer'; what="the race check finds an address the kernel sees" ;;
    fix) pat='FAIL a fix, not a rewrite'; what="'a fix, not a rewrite' fails" ;;
    own) pat='FAIL own kernel .*: Not your own'; what="'own kernel' fails: a mended listing" ;;
    public)
      # fitted to the sizes check uses: check cannot tell; recorded, not asserted
      echo "# $name: check exits $rc at its public sizes (only grade's drawn sizes can catch it)"
      continue ;;
    technique) pat='FAIL technique '; what="a technique is not met" ;;
    *) pat="FAIL technique .*: Not met: $(metric_pattern "$chk") = "; what="technique $chk is not met" ;;
    esac
    if grep -E '^ +FAIL [0-9]' "$out" > "$tmp/check/wrong" 2>/dev/null; then
      if [ "$chk" = race ]; then
        # a racy kernel is right by luck of the schedule: PoCL runs work-groups
        # on several threads, and now and then two of them lose an update
        echo "# $name: the race showed on the CPU this time: $(head -n 1 "$tmp/check/wrong" | sed 's/^ *//')"
      else
        bad "$name: correct on every visible test (a wrong cheat proves nothing)" "$(cat "$tmp/check/wrong")"
      fi
    else
      ok "$name: correct on every visible test"
    fi
    if [ "$rc" = 1 ] && grep -Eq -- "$pat" "$out"; then
      # the figure or the place, from the line under the failing one
      said=$(grep -Eo 'Not met: [^=]+ = [0-9.e+-]+|(Data race|Memory error) at line [0-9]+( and line [0-9]+)? of kernel .[a-z_]+.|CL_[A-Z_]+|[0-9]+ code lines differ' "$out" | head -n 1)
      ok "$name: check $lesson exits 1, $what${said:+ ($said)}"
    else
      bad "$name: check $lesson (exit $rc) should fail: $what" "$(grep -E 'FAIL|ok +(race|technique)|passed' "$out")"
    fi
  done > "$tmp/check/results"
  while IFS= read -r line; do
    case $line in
    ok\ *) pass=$((pass + 1)) ;;
    not\ ok\ *) fail=$((fail + 1)) ;;
    esac
    echo "$line"
  done < "$tmp/check/results"
  echo "# check: $(( $(date +%s) - start ))s"
  if [ -n "$CHEATS_KEEP" ]; then
    mkdir -p "$CHEATS_KEEP/check" && cp "$tmp"/check/*.out "$tmp"/check/*.rc "$CHEATS_KEEP/check/"
  fi
}
