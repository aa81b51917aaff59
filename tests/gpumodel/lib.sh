# tests/gpumodel/lib.sh — what the GPU memory model scripts share, sourced
# after tests/lib.sh: the test kernels ($k), the test course, figures, and
# need_plugin.
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

# need_plugin: the script stops here, failing, when the Oclgrind plugin was not built
need_plugin() {
  if ! "$bin" analyze --help >/dev/null 2>&1 || [ ! -f "$build/cltutor-gpumodel.so" ]; then
    bad "the Oclgrind plugin was not built ($build/cltutor-gpumodel.so): install liboclgrind-dev llvm-14-dev and run make"
    finish
    exit 1
  fi
}
