#!/bin/sh
# Red-team tests of the grader's source policy and limits, with only a
# student's access (the exercise files): every way of writing an #include or
# a branch on the device is refused with its line; a kernel that makes the
# compiler print a million errors is a build failure in bounded time and
# memory that leaves no large files behind; a batch with such a student
# grades the others exactly as alone; long folder names are graded; SIGTERM
# and SIGINT leave no temporary folders.
# Usage: tests/redteam_limits/run.sh BUILD_DIR
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
export CLTUTOR_WORKSPACE="$tmp/ws"
# everything the grader and the compiler write goes here, to be looked at
export TMPDIR="$tmp/tmpdir" HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache"
mkdir -p "$TMPDIR" "$HOME"
ref="$root/kernels/02-atomic/histogram.cl"

# json NAME FILE PYTHON_EXPR: FILE parses as JSON and EXPR (over j, t = chapter 2's first test) holds
json() {
  if python3 - "$2" "$3" > "$tmp/json.out" 2>&1 <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["chapters"][0] if j.get("chapters") else {}
t = c["tests"][0] if c.get("tests") else {}
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(j, indent=1)[:2500])
sys.exit(0 if ok else 1)
EOF
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

# ---- #include in every spelling: the reference solution in one line
sub; printf '/* mine */\n\n#\finclude "%s"\n' "$ref" > "$f"; refused "#<form feed>include" 3
sub; printf '/* mine */\n#\vinclude "%s"\n' "$ref" > "$f"; refused "#<vertical tab>include" 2
sub; printf '\357\273\277#include "%s"\n' "$ref" > "$f"; refused "a byte-order mark before #include" 1
sub; printf '/* mine */\n#inc\\\nlude "%s"\n' "$ref" > "$f"; refused "#inc<splice>lude" 2
sub; printf '/* mine */\n\\\n#include "%s"\n' "$ref" > "$f"; refused "#include after a splice" 3
sub; printf '\n\n\n??=include "%s"\n' "$ref" > "$f"; refused "??=include (trigraph)" 4
sub; printf '%%: /* x */ include "%s"\n' "$ref" > "$f"; refused "%:include (digraph)" 1
sub; printf 'int a;\r#include "%s"\r' "$ref" > "$f"; refused "#include after a lone CR" 2
sub; printf '#import "%s"\n' "$ref" > "$f"; refused "#import" 1
sub; printf '#include_next "%s"\n' "$ref" > "$f"; refused "#include_next" 1
sub; { printf '/* which files exist here? */\n#if __has_include("/etc/shadow")\n#error yes\n#endif\n'; cat "$ref"; } > "$f"
refused "__has_include(\"/etc/shadow\")" 2
sub; { printf '#define P(x) _Pragma(#x)\nP(GCC dependency "/etc/shadow")\n'; cat "$ref"; } > "$f"; refused "_Pragma" 1
sub; { printf '#pragma GCC dependency "/etc/shadow"\n'; cat "$ref"; } > "$f"; refused "#pragma GCC dependency" 1
sub; { printf '#define CAT(a, b) a ## b\n'; cat "$ref"; } > "$f"; refused "## (token pasting)" 1
sub; printf '#\finclude "%s"\n' "$ref" > "$f"
"$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd --format json -o "$tmp/r.json" 2>/dev/null
json "the message quotes the directive as the compiler reads it" "$tmp/r.json" \
  "'\`#include \"$ref\"\` is an #include' in t['detail']"

# ---- branches on what the device defines: refused, with the line
with_branch() { # with_branch TEXT: the reference with TEXT from line 2
  sub
  { printf '/* mine */\n%b' "$1"; cat "$ref"; } > "$f"
}
with_branch '#if __OPENCL_VERSION__ < 200\n#endif\n'; refused "#if __OPENCL_VERSION__ < 200" 2
json "the device-branch message says what to do" "$tmp/r.json" \
  "'\`#if __OPENCL_VERSION__ < 200\` tests what device runs the kernel; graded code must do the same thing on every device: remove the condition' in t['detail']"
with_branch '\n#ifdef __NV_CL_C_VERSION\n#define FAST 1\n#endif\n'; refused "#ifdef __NV_CL_C_VERSION" 3
with_branch '#if defined(cl_khr_fp64)\n#endif\n'; refused "#if defined(cl_khr_fp64)" 2
with_branch '#ifndef __GPU__\n#endif\n'; refused "#ifndef __GPU__" 2
with_branch '#define OLD (__OPENCL_C_VERSION__ < 200)\n'; refused "a macro that holds a device macro" 2
with_branch '#if 0\n#elifdef __CPU__\n#endif\n'; refused "#elifdef __CPU__" 3
# the honest forms pass
with_branch '#ifndef LOCAL_SIZE\n#define LOCAL_SIZE 64\n#endif\n#if LOCAL_SIZE > 1\n#define MINE 1\n#endif\n#ifdef MINE\n#endif\n'
"$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd --format json -o "$tmp/r.json" 2>/dev/null
json "conditionals on build options and on the file's own macros are graded" "$tmp/r.json" "t['status'] == 'pass'"

# ---- the compiler-log bomb: 650 bytes, 2^20 errors
bomb="$tmp/bomb.cl"
python3 - > "$bomb" <<'EOF'
print("/* each E0 is an error; E20 is 2^20 of them */")
print("#define E0 x;")
for i in range(1, 21):
    print("#define E%d E%d E%d" % (i, i - 1, i - 1))
print("__kernel void histogram(__global const float *descriptors, __global const float *centroids,")
print("                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)")
print("{")
print("    E20")
print("}")
EOF
sub; cp "$bomb" "$f"
t0=$(date +%s)
/usr/bin/time -f '%M' -o "$tmp/rss" "$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd,one --memory-limit 1536 \
  --format json -o "$tmp/bomb.json" 2> "$tmp/bomb.err"
took=$(( $(date +%s) - t0 ))
rss=$(tail -n 1 "$tmp/rss")
json "a compiler-log bomb is a build failure that says how many errors there were (${took}s)" "$tmp/bomb.json" \
  "all(x['status'] == 'build_error' for x in c['tests']) and 'The compiler printed 1,048,576 errors' in t['detail'] and 'the first 100 are below' in t['detail'] and len(t['detail']) < 20000"
if [ "$took" -lt 240 ]; then ok "the bomb takes bounded time: ${took}s for two builds (the build phase allows 120 s each)"
else bad "the bomb took ${took}s"; fi
if [ -n "$rss" ] && [ "$rss" -lt $((1600 * 1024)) ]; then ok "the bomb stays within its memory limit: ${rss} KB at the most, for 1536 MB"
else bad "the bomb used ${rss:-?} KB"; fi
big=$(find "$TMPDIR" "$HOME" -type f -size +1M 2>/dev/null | head -n 3)
left=$(ls -A "$TMPDIR")
if [ -z "$big" ] && [ -z "$left" ]; then ok "the bomb leaves no files behind (no PoCL build.log in ~/.cache, nothing in \$TMPDIR)"
else bad "the bomb left files behind" "$big $left"; fi

# an Oclgrind-only bomb: correct on PoCL, 2^16 errors on the GPU model's simulator (no get_global_linear_id)
python3 - "$root/kernels/03-coalesced/histogram.cl" > "$tmp/gl.cl" <<'EOF'
import sys
src = open(sys.argv[1]).read()
macros = "#define G0 bomb_ += (int)get_global_linear_id();\n"
macros += "".join("#define G%d G%d G%d\n" % (i, i - 1, i - 1) for i in range(1, 17))
macros += "static int unused_(void)\n{\n    int bomb_ = 0;\n    G16\n    return bomb_;\n}\n\n"
i = src.index("__kernel")
print(src[:i] + macros + src[i:], end="")
EOF
rm -rf "$tmp/sub3" && mkdir -p "$tmp/sub3/exercises/03-coalesced" && cp "$tmp/gl.cl" "$tmp/sub3/exercises/03-coalesced/histogram.cl"
t0=$(date +%s)
"$bin" grade 3 --dir "$tmp/sub3" --seed 4 --tests odd,technique.coalesced_loads --format json -o "$tmp/gl.json" 2>/dev/null
took=$(( $(date +%s) - t0 ))
json "a bomb only the GPU model's compiler sees fails the technique check, in bounded time (${took}s)" "$tmp/gl.json" \
  "[x['outcome'] for x in c['tests']] == ['pass', 'fail'] and 'did not compile' in c['tests'][1]['detail'] or c['tests'][1]['outcome'] == 'skip'"
[ -z "$(ls -A "$TMPDIR")" ] && ok "the GPU model's folders are gone too" || bad "left in \$TMPDIR" "$(ls -A "$TMPDIR")"

# ---- a batch of 10 with one bomb: the others graded exactly as alone
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
limit=90 jobs=2
t0=$(date +%s)
"$bin" grade 1 2 --batch "$b" -j $jobs --student-limit $limit --seed 9 -o "$tmp/grades.csv" 2> "$tmp/batch.err"
rc=$?
took=$(( $(date +%s) - t0 ))
if [ $rc -eq 0 ] && [ $took -le $((10 * limit / jobs)) ]; then
  ok "a batch of 10 with a bomb finishes within 10 x $limit s / $jobs (${took}s)"
else bad "batch (exit $rc, ${took}s)" "$(cat "$tmp/batch.err")"; fi
for who in ada bob cy "$long"; do
  "$bin" grade 1 2 --dir "$b/$who" --seed 9 --format json -o "$tmp/alone-$(printf %s "$who" | cut -c1-8).json" 2>/dev/null
done
if python3 - "$tmp/grades.csv" "$tmp" "$long" <<'EOF'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert len(rows) == 10, rows.keys()
key = lambda j: [(c["lesson"], t["id"], t["status"], t["score"]) for c in j["chapters"] for t in c["tests"]]
for who in ("ada", "bob", "cy", sys.argv[3]):
    alone = json.load(open("%s/alone-%s.json" % (sys.argv[2], who[:8])))
    r = rows[who]
    assert r["status"] == "ok", (who[:20], r["status"])
    batch = json.load(open(r["report"]))
    assert key(batch) == key(alone), (who[:20], key(batch), key(alone))
    assert abs(float(r["score"]) - alone["score"]) < 1e-6
same = {"ada": ["dee", "gus", "bomb"], "bob": ["eve", "hal"], "cy": ["fay", sys.argv[3]]}
for a, others in same.items():
    for o in others:
        if o != "bomb":
            assert rows[o]["score"] == rows[a]["score"], (o[:20], rows[o]["score"], rows[a]["score"])
assert rows["bomb"]["status"] in ("ok", "time_limit"), rows["bomb"]["status"]
if rows["bomb"]["status"] == "ok":
    assert float(rows["bomb"]["02-atomic"]) == 0
EOF
then ok "the nine others (one named with 255 bytes) get exactly the grades they get alone"
else bad "batch grades differ from single runs" "$(cat "$tmp/grades.csv" | cut -c1-200)"; fi
[ -z "$(ls -A "$TMPDIR")" ] && ok "the batch leaves nothing in \$TMPDIR" || bad "the batch left" "$(ls -A "$TMPDIR")"

# the per-student limit: a student whose grading runs past it is stopped, the others are not
rm -rf "$tmp/b2" && mkdir -p "$tmp/b2"
cp -R "$b/ada" "$tmp/b2/ada" && cp -R "$b/bomb" "$tmp/b2/bomb"
t0=$(date +%s)
"$bin" grade 2 --batch "$tmp/b2" --student-limit 3 --seed 9 -o "$tmp/g2.csv" 2> "$tmp/b2.err"
rc=$?
took=$(( $(date +%s) - t0 ))
if [ $rc -eq 0 ] && python3 - "$tmp/g2.csv" <<'EOF'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["bomb"]["status"] == "time_limit" and rows["bomb"]["score"] == "", rows["bomb"]
assert "time_limit" in json.load(open(rows["bomb"]["report"]))["error"]
assert rows["ada"]["status"] in ("ok", "time_limit")
EOF
then ok "--student-limit 3 stops the bomb's grading: status time_limit, a report that says so (${took}s)"
else bad "--student-limit (exit $rc)" "$(cat "$tmp/b2.err" "$tmp/g2.csv")"; fi
grep -q 'bomb: time_limit: grading took more than 3 s' "$tmp/b2.err" && ok "the run names the student stopped at the limit" ||
  bad "no time_limit line" "$(cat "$tmp/b2.err")"
[ -z "$(ls -A "$TMPDIR")" ] && ok "a stopped student leaves nothing in \$TMPDIR" || bad "left" "$(ls -A "$TMPDIR")"
expect "--student-limit needs --batch" 64 'needs --batch' -- "$bin" grade 2 --student-limit 5
expect "--help documents --student-limit and the exit statuses" 0 '128\+N stopped by signal N' -- "$bin" grade --help

# ---- SIGTERM and SIGINT: every process stopped, every temporary folder removed
stop_run() { # stop_run SIGNUM NAME COMMAND...: waits for the run's folders, signals it, checks
  sig=$1 name=$2
  shift 2
  # a background job of a script starts with SIGINT ignored: give it back its default
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$@" > /dev/null 2> "$tmp/sig.err" &
  pid=$!
  n=0
  while [ $n -lt 300 ] && [ -z "$(find "$TMPDIR" -mindepth 3 2>/dev/null | head -n 1)" ]; do sleep 0.1; n=$((n + 1)); done
  sleep 1
  kill -"$sig" $pid
  wait $pid
  rc=$?
  want=$((128 + sig))
  sleep 0.5
  alive=$(ps -eo args | grep -F "$tmp/" | grep -v grep | grep -F cltutor)
  if [ $rc -eq $want ] && [ -z "$(ls -A "$TMPDIR")" ] && [ -z "$alive" ]; then
    ok "$name: exit $want, no temporary folder and no process left"
  else bad "$name (exit $rc, wanted $want)" "$(ls -A "$TMPDIR"; echo "$alive"; cat "$tmp/sig.err")"; fi
}
stop_run 15 "SIGTERM during a batch" "$bin" grade 1 2 --batch "$b" -j 2 --seed 9 -o "$tmp/g3.csv"
stop_run 2 "SIGINT during a batch" "$bin" grade 1 2 --batch "$b" -j 2 --seed 9 -o "$tmp/g4.csv"
stop_run 15 "SIGTERM while grading one submission" "$bin" grade 1 2 --dir "$b/ada" --seed 9 --format json -o "$tmp/one.json"

finish
