#!/bin/sh
# The course's own chapters: each reference shows the improvement its chapter teaches.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin

chapter() { # chapter NUMBER PYTHON-CHECK WHAT: analyse the chapter's reference (with comparison) and check
  n=$1 expr=$2
  if ! "$bin" list --json 2>/dev/null | python3 -c "import json,sys; sys.exit(0 if any(c['number'] == $n for c in json.load(sys.stdin)) else 1)"; then
    echo "skip chapter $n (not in the course yet)"; return
  fi
  "$bin" analyze "$n" --solution --json > "$tmp/ch$n.json" 2> "$tmp/err.txt"
  if python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
S = lambda k, sp: [x for x in j['kernels'] if x['name'] == k or k == '*'][0]['summary'][sp]
C = ' | '.join(j.get('comparison', {}).get('sentences', []))
sys.exit(0 if ($expr) else 1)" "$tmp/ch$n.json"; then
    ok "chapter $n reference: $3"
  else
    bad "chapter $n reference: $3" "$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j.get('comparison')); print(j.get('issues'))" "$tmp/ch$n.json" 2>&1) $(cat "$tmp/err.txt")"
  fi
}
chapter 2 "S('*','global_load')['efficiency'] < 0.2 and S('*','global_atomic')['operations'] > 0 and not j['issues']" \
  "strided descriptor reads, one global atomic per descriptor"
chapter 3 "S('*','global_load')['efficiency'] == 1 and '→ 100% efficient: each warp now reads 4 sectors per request instead of 32' in C and not j['issues']" \
  "coalescing: 15% → 100%, 32 → 4 sectors per request"
chapter 4 "'fewer requests' in C and not j['issues']" "float4: fewer, wider requests"
chapter 5 "'local loads: new' in C and 'global memory traffic' in C and 'less' in C and not j['issues']" \
  "local memory: staged descriptors cut global traffic"
chapter 6 "'constant loads: new' in C and S('*','constant_load')['distinct_addresses_max'] == 1 and not j['issues']" \
  "constant memory: centroids broadcast"
chapter 7 "S('*','local_atomic')['contention_max'] == 1 and S('*','local_atomic')['bank_conflict_max'] == 1 and ': 32 → 1 on average' in C and not j['issues']" \
  "one padded copy per lane: no contention, no bank conflicts"
chapter 8 "S('scan_blocks','local_load')['bank_conflict_max'] == 1 and 'local loads: bank conflicts' in C and '→ 1-way on average (none)' in C and not j['issues'] and [k['name'] for k in j['kernels']] == ['scan_blocks', 'add_sums']" \
  "Blelloch scan: padding removes bank conflicts, no races, no block_size helper in the report"
chapter 9 "S('transpose','global_store')['efficiency'] == 1 and 'transpose, global stores: 12.5% → 100% efficient' in C and not j['issues']" \
  "integral image: the tiled transpose writes coalesced"

finish
