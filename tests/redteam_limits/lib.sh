# tests/redteam_limits/lib.sh — what the scripts on the grader's source
# policy and limits share, sourced after tests/lib.sh: a workspace, TMPDIR,
# HOME and cache of the script's own (everything the grader and the compiler
# write goes there, to be looked at), chapter 2's reference ($ref), and
# json, refused, sub, with_branch, make_bomb, make_batch.
export CLTUTOR_WORKSPACE="$tmp/ws"
export TMPDIR="$tmp/tmpdir" HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache"
mkdir -p "$TMPDIR" "$HOME"
ref="$root/kernels/02-atomic/histogram.cl"

# json NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j, t = chapter 2's first test) holds
json() {
  if python3 - "$2" "$3" > "$tmp/json.out" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["chapters"][0] if j.get("chapters") else {}
t = c["tests"][0] if c.get("tests") else {}
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(j, indent=1)[:2500])
sys.exit(0 if ok else 1)
PY
  then ok "$1"; else bad "$1" "$(cat "$tmp/json.out")"; fi
}

# refused NAME LINE: exercises/02-atomic/histogram.cl (made by the caller in $tmp/sub) is
# refused by `cltutor grade`, with a message that names its line, and scores 0
refused() {
  "$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd --format json -o "$tmp/r.json" 2> "$tmp/r.err"
  json "$1: refused, the message names line $2" "$tmp/r.json" \
    "t['status'] == 'refused' and 'exercises/02-atomic/histogram.cl:$2: ' in t['detail'] and j['score'] == 0 and not c['submitted']"
}
sub() { # sub: a fresh submission folder; the kernel is written to $f
  rm -rf "$tmp/sub" && mkdir -p "$tmp/sub/exercises/02-atomic"
  f="$tmp/sub/exercises/02-atomic/histogram.cl"
}
with_branch() { # with_branch TEXT: a fresh submission, the reference with TEXT from line 2
  sub
  { printf '/* mine */\n%b' "$1"; cat "$ref"; } > "$f"
}

# make_bomb: the compiler-log bomb in $bomb: 650 bytes, 2^20 errors
make_bomb() {
  bomb="$tmp/bomb.cl"
  python3 - > "$bomb" <<'PY'
print("/* each E0 is an error; E20 is 2^20 of them */")
print("#define E0 x;")
for i in range(1, 21):
    print("#define E%d E%d E%d" % (i, i - 1, i - 1))
print("__kernel void histogram(__global const float *descriptors, __global const float *centroids,")
print("                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)")
print("{")
print("    E20")
print("}")
PY
}

# make_batch: a class of 10 in $b, chapter 1 the reference and chapter 2 in
# turn the reference, the starting file and a device branch; one named with
# 255 bytes ($long), and one, bomb, with the compiler-log bomb
make_batch() {
  make_bomb
  b="$tmp/batch"
  mkdir -p "$b"
  long=$(python3 -c "print('s' * 255)")
  i=0
  for who in ada bob cy dee eve fay gus hal "$long" bomb; do
    mkdir -p "$b/$who/exercises/01-serial" "$b/$who/exercises/02-atomic"
    cp "$root/kernels/01-serial/histogram.cl" "$b/$who/exercises/01-serial/"
    case $((i % 3)) in
      0) cp "$ref" "$b/$who/exercises/02-atomic/histogram.cl" ;;
      1) cp "$root/exercises/02-atomic/histogram.cl" "$b/$who/exercises/02-atomic/histogram.cl" ;;
      2) with_branch '#ifdef __CPU__\n#endif\n'; cp "$f" "$b/$who/exercises/02-atomic/histogram.cl" ;;
    esac
    i=$((i + 1))
  done
  cp "$bomb" "$b/bomb/exercises/02-atomic/histogram.cl"
}
