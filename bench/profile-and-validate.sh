#!/bin/sh
# The time prediction against real timings, in one go (docs/gpu-model.md,
# "Predicted time"):
#   1. `cltutor bench --profile` writes devices/ID.ini for the device;
#   2. every reference, beyond kernel, starting file, find-the-bug listing
#      and deliberately slow variant (bench/variants/NN-*.cl) runs at the
#      chapter's bench size with `cltutor run --gpu devices/ID.ini --json`:
#      the measured median beside the time predicted for that size;
#   3. docs/results/ID-prediction.md gets the table (predicted, measured,
#      ratio, limit), the geometric-mean error, the kernels within 2x and,
#      per stage transition, whether the predicted speed-up has the measured
#      direction; devices/ID.ini gets the [accuracy] the course then shows.
#   With --heldout DIR, DIR/chNN-*.cl run too, as kernels the model was not
#   tuned on (bench/heldout: written from the chapters alone): the table
#   gives their figures apart from the others' ("held-out" and "in-sample"),
#   and the [accuracy] stays the in-sample kernels'.
#
# Usage: sh bench/profile-and-validate.sh [BUILD_DIR] [--device SPEC] [--id ID]
#            [--chapters "2 3 ..."] [--cpu-sizes] [--keep-profile] [--out DIR]
#            [--heldout DIR]
#   --id ID          the profile's name (default: nvidia-h100 / nvidia-h200 from
#                    the device's name, else its name in lower case with dashes)
#   --chapters LIST  only these chapters (default: 1 to 9)
#   --cpu-sizes      each chapter's bench_size_cpu (a quick run on a CPU device)
#   --keep-profile   predict with the existing devices/ID.ini, do not measure it
#   --out DIR        write DIR/ID.ini and DIR/ID-prediction.md instead of
#                    devices/ID.ini and docs/results/ID-prediction.md
#   --measure-only DIR  on a GPU machine without Oclgrind: write the profile
#                    and each kernel's measured run (JSON) into DIR, no table
#   --measured DIR   where Oclgrind is: take the profile and the timings from
#                    a --measure-only DIR, predict with `cltutor analyze`, and
#                    write the table
# Needs python3 and Oclgrind (the analysis), and the device; or the two halves
# on two machines with --measure-only and --measured.
set -eu
orig=$(pwd)
cd "$(dirname "$0")/.."
BUILD=build
case "${1:-}" in -*|"") ;; *) BUILD=$1; shift ;; esac
BUILD_ARG=$BUILD
case $BUILD in /*) ;; *) [ -d "$orig/$BUILD" ] && BUILD=$orig/$BUILD ;; esac
DEVICE="" ID="" CHAPTERS="1 2 3 4 5 6 7 8 9" CPU_SIZES=0 KEEP=0 OUTDIR="" MEASURE_ONLY="" MEASURED="" HELDOUT=""
while [ $# -gt 0 ]; do
    case "$1" in
    --device) DEVICE=$2; shift 2 ;;
    --id) ID=$2; shift 2 ;;
    --chapters) CHAPTERS=$2; shift 2 ;;
    --cpu-sizes) CPU_SIZES=1; shift ;;
    --keep-profile) KEEP=1; shift ;;
    --measure-only) MEASURE_ONLY=$2; case $MEASURE_ONLY in /*) ;; *) MEASURE_ONLY=$orig/$MEASURE_ONLY ;; esac; shift 2 ;;
    --measured) MEASURED=$2; case $MEASURED in /*) ;; *) MEASURED=$orig/$MEASURED ;; esac; KEEP=1; shift 2 ;;
    --heldout) HELDOUT=$2; [ -d "$HELDOUT" ] || { echo "profile-and-validate.sh: --heldout $HELDOUT is not a folder" >&2; exit 66; }; shift 2 ;;
    --out) OUTDIR=$2; case $OUTDIR in /*) ;; *) OUTDIR=$orig/$OUTDIR ;; esac; shift 2 ;;
    *) echo "profile-and-validate.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
CLT=$BUILD/cltutor
[ -x "$CLT" ] || { echo "profile-and-validate.sh: no $CLT (run make first)" >&2; exit 69; }
DEVARGS=""
[ -n "$DEVICE" ] && DEVARGS="--device $DEVICE"
RAW=$(mktemp -d)
trap 'rm -rf "$RAW"' EXIT
PDIR=${OUTDIR:-devices} RDIR=${OUTDIR:-docs/results}
[ -n "$MEASURE_ONLY" ] && PDIR=$MEASURE_ONLY RDIR=$MEASURE_ONLY
mkdir -p "$PDIR" "$RDIR"
if [ -n "$MEASURED" ]; then # the profile measured on the GPU machine becomes devices/ID.ini
    [ -n "$ID" ] || { echo "profile-and-validate.sh: --measured needs --id ID" >&2; exit 64; }
    cp "$MEASURED/$ID.ini" "$PDIR/$ID.ini"
fi
if [ "$KEEP" = 0 ]; then
    echo "== measuring the device: $CLT bench --profile $DEVARGS"
    $CLT bench --profile "$RAW/profile.ini" $DEVARGS
    DEVNAME=$(sed -n 's/^opencl_name = //p' "$RAW/profile.ini")
    if [ -z "$ID" ]; then
        case "$DEVNAME" in
        *H100*) ID=nvidia-h100 ;;
        *H200*) ID=nvidia-h200 ;;
        *) ID=$(printf '%s' "$DEVNAME" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/-*$//') ;;
        esac
    fi
    cp "$RAW/profile.ini" "$PDIR/$ID.ini"
elif [ -z "$ID" ]; then
    echo "profile-and-validate.sh: --keep-profile needs --id ID" >&2
    exit 64
fi
PROFILE=$PDIR/$ID.ini
OUT=$RDIR/$ID-prediction.md

# the kernels: chapter, kind, file
list=$RAW/kernels
: > "$list"
for n in $CHAPTERS; do
    dir=$(ls -d lessons/0$n-* lessons/$n-* 2>/dev/null | head -1)
    [ -n "$dir" ] || continue
    slug=$(basename "$dir")
    ex=$(sed -n 's/^exercise *= *//p' "$dir/lesson.ini" | head -1)
    beyond=$(sed -n 's/^bench_beyond *= *//p' "$dir/lesson.ini" | head -1)
    echo "$n reference kernels/$slug/$ex" >> "$list"
    [ -n "$beyond" ] && echo "$n beyond kernels/$slug/$beyond" >> "$list"
    echo "$n starting exercises/$slug/$ex" >> "$list"
    for b in exercises/$slug/bug-*.cl; do [ -f "$b" ] && echo "$n bug $b" >> "$list"; done
    for v in bench/variants/0$n-*.cl bench/variants/$n-*.cl; do [ -f "$v" ] && echo "$n variant $v" >> "$list"; done
    if [ -n "$HELDOUT" ]; then
        for h in "$HELDOUT"/ch0$n-*.cl "$HELDOUT"/ch$n-*.cl; do [ -f "$h" ] && echo "$n held-out $h" >> "$list"; done
    fi
done

# each at the bench size (with the analysed input kind, as analyze predicts)
i=0
while read -r n kind file; do
    i=$((i + 1))
    dir=$(ls -d lessons/0$n-* lessons/$n-* 2>/dev/null | head -1)
    key=bench_size
    [ "$CPU_SIZES" = 1 ] && key=bench_size_cpu
    size=$(sed -n "s/^$key *= *//p" "$dir/lesson.ini" | head -1)
    [ -n "$size" ] || size=$(sed -n 's/^default_size *= *//p' "$dir/lesson.ini" | head -1)
    akind=$(sed -n 's/^analysis_size *= *[^:]*\(:.*\)$/\1/p' "$dir/lesson.ini" | head -1)
    size=${size%%:*}$akind
    echo "== [$i] chapter $n $kind $file at $size"
    if [ -n "$MEASURE_ONLY" ]; then
        $CLT run "$n" --kernel "$file" --size "$size" --json $DEVARGS > "$MEASURE_ONLY/$i.json" 2> "$MEASURE_ONLY/$i.err" || true
    elif [ -n "$MEASURED" ]; then
        # the run of this file in the measured folder's index (runs merged from several calls keep their
        # own numbers), else the one at this position
        m=$(awk -v n="$n" -v k="$kind" -v f="$file" '$1 == n && $2 == k && $3 == f { print $4; exit }' \
            "$MEASURED/index" 2>/dev/null)
        [ -n "$m" ] || m=$i
        cp "$MEASURED/$m.json" "$RAW/$i.json" 2>/dev/null || : > "$RAW/$i.json"
        cp "$MEASURED/$m.err" "$RAW/$i.err" 2>/dev/null || : > "$RAW/$i.err"
        $CLT analyze "$n" --kernel "$file" --gpu "$PROFILE" --json > "$RAW/$i.predicted.json" 2>> "$RAW/$i.err" || true
    else
        $CLT run "$n" --kernel "$file" --size "$size" --gpu "$PROFILE" --json $DEVARGS > "$RAW/$i.json" 2> "$RAW/$i.err" || true
    fi
    printf '%s %s %s %s\n' "$n" "$kind" "$file" "$i" >> "$RAW/index"
    # on the GPU machine, the index grows with the runs: a run stopped part way keeps what it timed
    [ -n "$MEASURE_ONLY" ] && cp "$RAW/index" "$MEASURE_ONLY/index"
done < "$list"

if [ -n "$MEASURE_ONLY" ]; then
    cp "$RAW/index" "$MEASURE_ONLY/index"
    echo "$MEASURE_ONLY: the profile $ID.ini and $i measured runs; finish with --measured $MEASURE_ONLY --id $ID where Oclgrind is"
    exit 0
fi
CMD="sh bench/profile-and-validate.sh $BUILD_ARG${DEVICE:+ --device $DEVICE} --id $ID${HELDOUT:+ --heldout $HELDOUT}${OUTDIR:+ --out $OUTDIR}${MEASURED:+ --measured DIR (timed on the GPU machine with --measure-only DIR)}"
python3 - "$RAW" "$PROFILE" "$OUT" "$CMD" <<'EOF'
import json, math, os, sys, datetime
raw, profile, out, cmd = sys.argv[1:5]
rows = []
for line in open(os.path.join(raw, "index")):
    n, kind, path, i = line.split()
    try:
        d = json.load(open(os.path.join(raw, i + ".json")))
    except Exception:
        err = open(os.path.join(raw, i + ".err")).read().strip().splitlines()
        d = {"status": "no output", "message": err[-1] if err else ""}
    predicted = os.path.join(raw, i + ".predicted.json")
    if os.path.exists(predicted):  # timed on the GPU machine, predicted here
        try:
            d["prediction"] = json.load(open(predicted)).get("prediction")
        except Exception:
            d["prediction_error"] = "no prediction (analyze failed)"
    rows.append((int(n), kind, path, d))
device = next((r[3].get("device") for r in rows if r[3].get("device")), {}) or {}
table, ratios, ratio_kinds, by = [], [], [], {}
for n, kind, path, d in rows:
    t = (d.get("timing") or {}).get("median_ms") if d.get("status") == "pass" else None
    p = d.get("prediction") or {}
    pm = p.get("predicted_ms")
    by[(n, kind, os.path.basename(path))] = (pm, t)
    if t and pm:
        r = pm / t
        ratios.append(r)
        ratio_kinds.append(kind)
        table.append(f"| {n} | {kind} | `{path}` | {d.get('size','')} | {pm:.4g} | {t:.4g} | {r:.2f} | {p.get('limit','')} |")
    else:
        why = d.get("status", "?") if d.get("status") != "pass" else d.get("prediction_error", "no prediction")
        shown = f"{pm:.4g}" if pm else "-"
        table.append(f"| {n} | {kind} | `{path}` | {d.get('size','')} | {shown} | {t or '-'} | - | {why} |")
# stage transitions: (before, after)
ref = lambda n, f=None: next(((n, k, b) for (m, k, b) in by if m == n and k == "reference"), None)
pairs = []
for a, b in [(2, 3), (3, 4), (4, 5), (5, 6)]:
    if ref(a) and ref(b): pairs.append((ref(a), ref(b)))
for key in list(by):
    n, kind, base = key
    if kind in ("starting", "variant", "held-out") and ref(n): pairs.append((key, ref(n)))
    if kind == "beyond" and ref(n): pairs.append((ref(n), key))
dirs, dir_kinds = [], []
for x, y in pairs:
    (px, tx), (py, ty) = by[x], by[y]
    if not (px and tx and py and ty): continue
    ps, ms = px / py, tx / ty
    ok = (ps >= 1) == (ms >= 1) or abs(math.log(ms)) < math.log(1.05)  # within 5%: no direction to get wrong
    dirs.append(ok)
    dir_kinds.append("held-out" if "held-out" in (x[1], y[1]) else "in-sample")
    dirs_row = f"| {x[0]} {x[1]} `{x[2]}` → {y[0]} {y[1]} `{y[2]}` | {ps:.2f}x | {ms:.2f}x | {'yes' if ok else '**no**'} |"
    table.append(("dir", dirs_row))
def figures(rs):
    g = math.exp(sum(abs(math.log(r)) for r in rs) / len(rs)) - 1 if rs else 0
    return g, sum(1 for r in rs if 0.5 <= r <= 2)
held_ratios = [r for r, k in zip(ratios, ratio_kinds) if k == "held-out"]
held_dirs = [ok for ok, k in zip(dirs, dir_kinds) if k == "held-out"]
dirs = [ok for ok, k in zip(dirs, dir_kinds) if k != "held-out"]
ratios = [r for r, k in zip(ratios, ratio_kinds) if k != "held-out"]
geo, within = figures(ratios)
held_geo, held_within = figures(held_ratios)
date = datetime.date.today().isoformat()
with open(out, "w") as f:
    f.write(f"# Predicted against measured kernel times: {device.get('name','?')}\n\n")
    f.write(f"Device: {device.get('name','?')} ({device.get('platform','?')}, driver {device.get('driver','?')}), {date}.\n")
    if any(os.path.exists(os.path.join(raw, i + ".predicted.json")) for i in map(str, range(1, len(rows) + 1))):
        how = (f"Predictions come from `cltutor analyze N --kernel FILE --gpu {profile} --json` (the GPU model's analysis at the "
               "chapter's analysis size, extrapolated to SIZE); measured: `cltutor run N --kernel FILE --size SIZE --json` on the GPU "
               "machine (`--measure-only`), its median kernel time.")
    else:
        how = (f"Predictions come from `cltutor run N --kernel FILE --size SIZE --gpu {profile} --json` (the GPU model's analysis at "
               "the chapter's analysis size, extrapolated); measured: the same run's median kernel time.")
    f.write(f"Command: `{cmd}`; profile `{profile}`. {how}\n\n")
    scope = "In-sample (the references, beyond kernels, starting files, listings and variants the model was checked on): " if held_ratios else ""
    f.write(f"{scope}{'g' if scope else 'G'}eometric-mean absolute error {100*geo:.1f}% over {len(ratios)} kernels; {within} within 2x; "
            f"{sum(dirs)} of {len(dirs)} stage speed-ups predicted in the measured direction. "
            "What the model leaves out, and which kernels it shows in: docs/gpu-model.md, \"Validation\".\n\n")
    if held_ratios:
        f.write(f"Held-out (bench/heldout: written from the chapters alone, never used to tune the model): geometric-mean "
                f"absolute error {100*held_geo:.1f}% over {len(held_ratios)} kernels; {held_within} within 2x; "
                f"{sum(held_dirs)} of {len(held_dirs)} speed-ups against the chapter's reference predicted in the "
                "measured direction.\n\n")
    f.write("| # | kind | kernel | size | predicted ms | measured ms | predicted / measured | limit |\n|---|---|---|---|---|---|---|---|\n")
    for t in table:
        if not isinstance(t, tuple): f.write(t + "\n")
    f.write("\n| transition | predicted speed-up | measured speed-up | same direction |\n|---|---|---|---|\n")
    for t in table:
        if isinstance(t, tuple): f.write(t[1] + "\n")
# the accuracy the course shows beside each prediction
text = open(profile).read()
if "[accuracy]" in text: text = text[:text.index("[accuracy]")].rstrip() + "\n"
text += (f"\n[accuracy]\nvalidated = {date}\ngeomean_error = {geo:.4f}\nkernels = {len(ratios)}\n"
         f"within_2x = {within}\ndirections = {len(dirs)}\ndirections_ok = {sum(dirs)}\n")
open(profile, "w").write(text)
print(f"{out}: geometric-mean error {100*geo:.1f}% over {len(ratios)} kernels, {within} within 2x, "
      f"{sum(dirs)}/{len(dirs)} directions" + (f"; held-out {100*held_geo:.1f}% over {len(held_ratios)}, "
      f"{held_within} within 2x, {sum(held_dirs)}/{len(held_dirs)} directions" if held_ratios else ""))
EOF
