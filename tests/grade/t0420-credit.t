#!/bin/sh
# What earns points: the race check and the techniques only with every hidden test passed; an unchanged
# starting file nothing, not even a hidden test a degenerate input lets it pass.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

# chapter 2's reference, wrong for one descriptor alone: race-free and spread, but a hidden test fails
sed 's|^{$|{\n    if (n_descriptors == 1) return;|' "$root/kernels/02-atomic/histogram.cl" > "$tmp/one-wrong.cl"
if cmp -s "$tmp/one-wrong.cl" "$root/kernels/02-atomic/histogram.cl"; then bad "the kernel's body no longer starts with a lone {: update this test"; fi
put "$tmp/w" 02-atomic "$tmp/one-wrong.cl"
"$bin" grade 2 --dir "$tmp/w" --seed 6 --format json -o "$tmp/w.json" 2>/dev/null
check "a kernel that fails a hidden test earns nothing for its race check or technique, and says why" "$tmp/w.json" \
  "test('02-atomic', 'one')['outcome'] == 'fail' and all(t['score'] == 0 and t['status'] in ('not_credited', 'skipped') and ('every hidden test' in (t.get('detail') or '') or t['status'] == 'skipped') for t in ch('02-atomic')['tests'] if t['kind'] in ('safety', 'technique')) and ch('02-atomic')['score'] > 0"
make_correct "$tmp/c"
rm -rf "$tmp/c"/exercises/0[13-9]*
"$bin" grade 2 --dir "$tmp/c" --seed 6 --format json -o "$tmp/c.json" 2>/dev/null
check "the same chapter correct everywhere earns its race check and technique" "$tmp/c.json" \
  "full(ch('02-atomic')) and all(t['outcome'] in ('pass', 'skip') for t in ch('02-atomic')['tests'])"

# chapter 8's starting file passes the all-zeros input by luck: unchanged, it earns nothing
put "$tmp/s" 08-scan "$root/exercises/08-scan/scan.cl"
nomodel "$bin" grade 8 --dir "$tmp/s" --seed 5 --tests input.zeros,odd --format json -o "$tmp/s.json" 2>/dev/null
check "an unchanged starting file earns nothing, even the hidden test it passes by luck" "$tmp/s.json" \
  "ch('08-scan')['score'] == 0 and test('08-scan', 'input.zeros')['status'] == 'not_credited' and 'starting file, unchanged' in test('08-scan', 'input.zeros')['detail']"
# the same file with one line of the learner's: graded as their own
{ echo '/* my first try */'; sed 's|^\(#define [A-Z_]* .*\)$|\1|' "$root/exercises/08-scan/scan.cl"; echo 'constant uint mine = 1;'; } > "$tmp/s2.cl"
put "$tmp/s2" 08-scan "$tmp/s2.cl"
nomodel "$bin" grade 8 --dir "$tmp/s2" --seed 5 --tests input.zeros --format json -o "$tmp/s2.json" 2>/dev/null
check "a starting file with a line of the learner's is graded as theirs" "$tmp/s2.json" \
  "test('08-scan', 'input.zeros')['outcome'] == 'pass'"

finish
