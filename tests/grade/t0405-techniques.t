#!/bin/sh
# The right answer without the chapter's technique passes the hidden tests but fails the technique check.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

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
if has_check 08-scan technique.cost &&
   sed 's/^#define PAD(i) .*/#define PAD(i) (i)/' "$root/kernels/08-scan/scan.cl" > "$tmp/scan-nopad.cl" &&
   ! cmp -s "$tmp/scan-nopad.cl" "$root/kernels/08-scan/scan.cl"; then
  technique_less 08-scan "$tmp/scan-nopad.cl" technique.cost "the scan without padding"
fi
if has_check 07-bank-conflicts technique.cost &&
   sed 's/^#define STRIDE .*/#define STRIDE BINS/' "$root/kernels/07-bank-conflicts/histogram.cl" > "$tmp/h7-nopad.cl" &&
   ! cmp -s "$tmp/h7-nopad.cl" "$root/kernels/07-bank-conflicts/histogram.cl"; then
  technique_less 07-bank-conflicts "$tmp/h7-nopad.cl" technique.cost "the byte histogram without padding"
fi
if has_check 09-integral-image technique.bank_conflicts.transpose &&
   sed 's/__local uint tile\[TILE\]\[TILE + 1\];/__local uint tile[TILE][TILE];/' "$root/kernels/09-integral-image/integral.cl" > "$tmp/ii-nopad.cl" &&
   ! cmp -s "$tmp/ii-nopad.cl" "$root/kernels/09-integral-image/integral.cl"; then
  technique_less 09-integral-image "$tmp/ii-nopad.cl" technique.bank_conflicts.transpose "the integral image with an unpadded transpose tile"
fi

finish
