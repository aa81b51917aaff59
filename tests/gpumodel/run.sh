#!/bin/sh
# GPU memory model tests: small kernels whose figures theory fixes, analysed by
# `cltutor analyze` on Oclgrind, and the chapters' references compared.
#   tests/gpumodel/run.sh BUILD_DIR     (ends with "N passed, N failed")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
k="$here/kernels"

# The test course (tests/gpumodel/course): chapter 1 strided, chapter 2 coalesced.
course() { CLTUTOR_DATA="$here/course" "$bin" --workspace "$tmp/ws" "$@"; }

# figures NAME STATUS KERNEL SIZE CHECK... : analyse KERNEL in the test course, check exit status and figures
figures() {
  name=$1 want=$2 kernel=$3 size=$4
  shift 4
  course analyze 1 --kernel "$k/$kernel" --size "$size" --no-compare --json > "$tmp/out.json" 2> "$tmp/err.txt"
  got=$?
  if [ "$got" -ne "$want" ]; then bad "$name (exit $got, wanted $want)" "$(cat "$tmp/err.txt" "$tmp/out.json")"; return; fi
  if msg=$(python3 "$here/check.py" "$tmp/out.json" "$k/$kernel" "$@"); then ok "$name"; else bad "$name" "$msg"; fi
}

# ---- without Oclgrind: exactly how to install it, and the rest still works
expect "no Oclgrind: exit 69 and how to install" 69 'apt-get install oclgrind' -- \
  env CLTUTOR_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so "$bin" analyze 2
expect "no Oclgrind: run still works" 0 'Correct' -- \
  env CLTUTOR_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so "$bin" run 2 --solution --no-timing --size 200x8
expect "no plugin: says how to build it" 69 'plugin' -- \
  env CLTUTOR_GM_PLUGIN=/nonexistent/cltutor-gpumodel.so "$bin" analyze 2
expect "analyze --help" 0 'Usage: cltutor analyze' -- "$bin" analyze --help
expect "analyze without a chapter" 64 'which chapter' -- "$bin" analyze

if ! "$bin" analyze --help >/dev/null 2>&1 || [ ! -f "$build/cltutor-gpumodel.so" ]; then
  bad "the Oclgrind plugin was not built ($build/cltutor-gpumodel.so): install liboclgrind-dev llvm-14-dev and run make"
  finish
  exit 1
fi

# ---- coalescing: 4-byte reads 32 bytes apart touch 32 sectors; neighbouring ones 4
figures "strided read: 12.5% efficient, 32 sectors per request" 0 coalescing.cl 1024x16 \
  "strided global load efficiency = 0.125" "strided global load sectors_per_request = 32" \
  "strided global load bytes_per_access = 4" "strided global load requests_per_warp = 1"
figures "coalesced read: 100% efficient, 4 sectors per request" 0 coalescing.cl 1024x16 \
  "coalesced global load efficiency = 1" "coalesced global load sectors_per_request = 4" \
  "coalesced global load distinct_addresses_avg = 32"

# ---- float4: 16 bytes per work-item, a warp reads 512 contiguous bytes
figures "float4 loads: 16 bytes per work-item, 16 sectors, 100%" 0 float4.cl 1024x16 \
  "vload4 global load bytes_per_access = 16" "vload4 global load sectors_per_request = 16" \
  "vload4 global load efficiency = 1" \
  "pointer global load bytes_per_access = 16" "pointer global load sectors_per_request = 16" \
  "pointer global load efficiency = 1"

# ---- local memory: 32 banks of 4 bytes
figures "local strides 1, 2, 32, 33: bank conflicts 1, 2, 32, 1" 0 banks.cl 1024x16 \
  "store1 local store bank_conflict_max = 1" "store2 local store bank_conflict_max = 2" \
  "store32 local store bank_conflict_max = 32" "store33 local store bank_conflict_max = 1" \
  "load1 local load bank_conflict_avg = 1" "load2 local load bank_conflict_avg = 2" \
  "load32 local load bank_conflict_avg = 32" "load33 local load bank_conflict_avg = 1" noissues

# ---- atomics: one address for the whole warp vs one each
figures "atomics: same address contention 32, spread 1" 0 atomics.cl 1024x32 \
  "same global atomic contention_avg = 32" "same global atomic contention_max = 32" \
  "spread global atomic contention_max = 1" "spread global atomic executions = 1024" \
  "same global atomic executions = 1024"

# ---- __constant: broadcast vs divergent
figures "constant: broadcast 1 address per warp, divergent 32" 0 constant.cl 1024x16 \
  "broadcast constant load distinct_addresses_max = 1" "divergent constant load distinct_addresses_avg = 32"

# ---- what Oclgrind finds, with work-item and source line
figures "out-of-bounds write, data race, uninitialised local read" 1 errors.cl 1024x16 \
  "issue memory oob" "issue race race" "issue uninitialised uninit"
figures "the same kernel without its errors: nothing reported" 0 clean.cl 1024x16 noissues
expect "errors in the text report, with the source line" 1 '9 \| histogram\[n_centroids \+ 3\] = 1;' -- \
  course analyze 1 --kernel "$k/errors.cl" --no-compare
expect "build error: exit 2 and the compiler's message" 2 'broken.cl:4' -- \
  course analyze 1 --kernel "$k/broken.cl" --no-compare
expect "a simulation past --timeout: exit 3, analyse a smaller size" 3 'analyse a smaller size \(this was 8192x64x64\)' -- \
  course analyze 1 --solution --size 8192x64 --timeout 1 --no-compare

# ---- the chapter's analysis size and the comparison with the previous chapter's reference
course analyze 2 --solution --json > "$tmp/c2.json" 2> "$tmp/err.txt"
if python3 - "$tmp/c2.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["comparison"]["sentences"]
assert j["size"] == "512x8x64" and j["size_origin"] == "analysis_size", (j["size"], j["size_origin"])
assert any(x.startswith("global loads: 15.2% → 100% efficient: each warp now reads 4 sectors per request instead of 32")
           for x in s), s
assert any(x.startswith("global memory traffic:") and "less" in x for x in s), s
PY
then ok "comparison: strided 15.2% → coalesced 100%, 32 → 4 sectors"; else bad "comparison with chapter 1" "$(cat "$tmp/c2.json" "$tmp/err.txt")"; fi
expect "text report names the analysed size" 0 'Simulated by Oclgrind at size 512x8x64 \(the chapter.s analysis size\)' -- \
  course analyze 2 --solution --no-compare

# ---- the file compared with is analysed once while it does not change
mkdir -p "$tmp/cc"
cp -R "$root/lessons" "$root/kernels" "$root/exercises" "$tmp/cc/"
if [ ! -x "$build/gm-cache-probe" ]; then bad "comparison kept between analyses: $build/gm-cache-probe is not built (make $build/gm-cache-probe)"
else
  out=$(CLTUTOR_DATA="$tmp/cc" CLTUTOR_WORKSPACE="$tmp/ws-cc" "$build/gm-cache-probe" 7 "$tmp/cc/exercises/07-bank-conflicts/histogram.cl" 2>&1)
  if printf '%s\n' "$out" | awk '{ k = k $2 } $4 < 1 { none = 1 } END { exit !(k == "010" && NR == 3 && !none) }'; then
    ok "comparison kept between analyses, made again when its file changes"
  else bad "comparison kept between analyses, made again when its file changes" "$out"; fi
fi

# ---- the course's own chapters: each reference shows the improvement its chapter teaches
chapter() { # chapter NUMBER PYTHON-CHECK: analyse the chapter's reference (with comparison) and check
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
