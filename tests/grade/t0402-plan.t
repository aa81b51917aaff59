#!/bin/sh
# The plan of hidden tests: seeds, sizes, the tests every chapter gets, points, --tests.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

"$bin" grade --plan --format json --seed 1 > "$tmp/plan1b.json" 2>/dev/null
"$bin" grade --plan --format json --seed 2 > "$tmp/plan2.json" 2>/dev/null
if cmp -s "$tmp/plan.json" "$tmp/plan1b.json"; then ok "the same seed gives the same hidden tests"; else bad "the same seed gave other tests"; fi
if ! cmp -s "$tmp/plan.json" "$tmp/plan2.json"; then ok "another seed gives other sizes"; else bad "seeds 1 and 2 gave the same tests"; fi
check "odd sizes are odd, even sizes twice an odd number (no multiple of 4), and neither is a multiple of 64" "$tmp/plan.json" \
  "all(int(t['size'].split('x')[0].split(':')[0]) % 2 == (1 if t['id'] == 'odd' else 0) for c in j['chapters'] for t in c['tests'] if t['id'] in ('odd', 'even')) and all(int(t['size'].split('x')[0].split(':')[0]) % 4 == 2 for c in j['chapters'] for t in c['tests'] if t['id'] == 'even') and all(int(t['size'].split('x')[0].split(':')[0]) % 64 != 0 for c in j['chapters'] for t in c['tests'] if t['id'] in ('odd', 'even', 'large'))"
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

finish
