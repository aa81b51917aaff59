# tests/redteam/lib.sh — what the red-team scripts share, sourced after
# tests/lib.sh: the attacking kernels ($k), a workspace and a scratch folder
# for the workers of the script's own, nomodel, check, put.
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"
export TMPDIR="$tmp/tmpdir"   # the workers' scratch folders: ours alone
mkdir -p "$TMPDIR"
# GPU-model checks are not under test here, and without Oclgrind they are quicker
nomodel() { CLTUTOR_OCLGRIND_ICD="$tmp/no-oclgrind.so" "$@"; }

# check NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j) holds
check() {
  if python3 - "$2" "$3" > "$tmp/check.out" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def ch(lesson):
    return next(c for c in j["chapters"] if c["lesson"] == lesson)
def test(lesson, tid):
    return next(t for t in ch(lesson)["tests"] if t["id"] == tid)
def hidden(lesson):
    return [t for t in ch(lesson)["tests"] if t["kind"] == "hidden"]
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(j, indent=1)[:3000])
sys.exit(0 if ok else 1)
PY
  then ok "$1"; else bad "$1" "$(cat "$tmp/check.out")"; fi
}

# put DIR LESSON FILE: FILE as the chapter's exercise histogram.cl in submission DIR
put() {
  mkdir -p "$1/exercises/$2"
  cp "$3" "$1/exercises/$2/histogram.cl"
}
