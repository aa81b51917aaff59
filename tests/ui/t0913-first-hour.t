#!/bin/sh
# A learner's first hour: the chapter check (C) seen alike in every tab, the checklist in the learner's words and language, the compiler's messages naming the learner's file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, idle, check, check_not, $ws
ex6="$ws/exercises/06-constant/histogram.cl"

# ---- C on the untouched starting file (no run of it): every tab tells the same check
for lang in en zh; do
  stop
  rm -rf "$ws"
  if [ "$lang" = zh ]; then start LANGUAGE=zh_CN; else start LANGUAGE=en; fi
  keys 6
  wait_for "histogram.cl" 10
  keys C
  idle 300 || bad "$lang: the check ends"
  keys 2
  if [ "$lang" = en ]; then
    check "$lang: after C, the Check tab shows the checklist's tests" "visible tests" "size 1000x16x64: Wrong result"
    check_not "$lang: after C, the Check tab does not say it was not run" "Not run yet"
    keys 1
    check "$lang: after C, the Result tab shows the checklist" "The chapter is not passed yet:" "visible tests"
    check_not "$lang: after C, the Result tab does not call the failing check a pass" "passed. Press r"
    keys 2
    check "$lang: the failing test says what differs" "of 256 bins differ (the first is bin"
    keys L
    check "L: the failing test's words in Chinese" "个桶不同（第一个是桶"
    check_not "L: none left in English" "bins differ"
    keys L
    check "L again: in English" "of 256 bins differ (the first is bin"
    keys 1
  else
    check "$lang: after C, the Check tab shows the checklist's tests" "可见测试通过" "规模 1000x16x64：结果错误"
    check_not "$lang: after C, the Check tab does not say it was not run" "尚未运行"
    keys 1
    check "$lang: after C, the Result tab shows the checklist" "本章尚未通过" "可见测试通过"
  fi
  check "$lang: the header says failing" "✗"
done

# ---- the course again: the last check is remembered as it went
start LANGUAGE=en
keys 6
wait_for "histogram.cl" 10
check "restarted: the Result tab says the last check did not pass" "did not pass the chapter" "1000x16x64"
keys 2
check "restarted: the Check tab says what to do" "Not run since the course opened"

# ---- a correct kernel without the chapter's technique (chapter 5's), with a
# compiler warning: the Build tab names the learner's file, the checklist
# speaks the learner's words, and L turns all of it into the other language
stop
rm -rf "$ws"
start LANGUAGE=en
keys 6
wait_for "histogram.cl" 10
sed 's/^\(    int lid = get_local_id(0);\)$/\1 unsigned q = 0; if (q = 2) {}/' "$root/kernels/05-local/histogram.cl" > "$ex6.new"
mv "$ex6.new" "$ex6"
wait_any 60 "run 1" || bad "the saved kernel runs"
idle 300 || bad "its checklist ends"
keys 3
check "Build tab: a warning names the learner's file" "exercises/06-constant/histogram.cl:22:" "warning"
check_not "Build tab: no worker's scratch folder" "cltutor-worker"
check_not "Build tab: no runtime's temporary file" "tempfile"
keys 1
keys z
check "checklist: the technique's figure in the learner's words" "Not met: share of loaded bytes broadcast from" "memory = 0"
check_not "checklist: no metric's name" "constant_broadcasts"
keys L
check "L: the checklist's details in Chinese" "从 __constant 内存广播读取的字节占比 = 0" "本章要求 从 __constant 内存广播读取的字节占比 >= 0.3"
check_not "L: no English detail left" "of the bytes the kernel loads"
check_not "L: no English advice left" "reads alike (the centroids)"
keys L
check "L again: the details in English" "of the bytes the kernel loads" "reads alike (the centroids)"
check_not "L again: no Chinese detail left" "本章要求"

# ---- a kernel that does not build: the engine's message follows L, and the GPU
# model tab sends the learner to the Build tab, naming no path of this machine
stop
rm -rf "$ws"
start LANGUAGE=en
keys 3
wait_for "histogram.cl" 10
sed 's/int d = get_global_id(0);/int d = get_global_id(0) +;/' "$root/kernels/03-coalesced/histogram.cl" > "$ws/exercises/03-coalesced/histogram.cl.new"
mv "$ws/exercises/03-coalesced/histogram.cl.new" "$ws/exercises/03-coalesced/histogram.cl"
check "build failure: the Result tab says so" "did not compile. The compiler's messages are below"
keys L
check "L: the build failure's message in Chinese" "编译失败。编译器的信息在下面"
check_not "L: no English sentence left" "did not compile"
keys L
check "L again: in English" "did not compile. The compiler's messages are below"
keys 8
check "GPU model tab: a kernel that did not build points at the Build tab" "nothing to simulate yet: the Build tab (key 3) shows"
check_not "GPU model tab: no path of this machine" "$ws"
keys L
check "GPU model tab, L: the pointer in Chinese" "编译页（按 3）列出编译器的信息"
check_not "GPU model tab, L: no English sentence left" "nothing to simulate"

# ---- after a pass, n opens the next chapter (the key bar offers it); before, n is a hint
for lang in en zh; do
  stop
  rm -rf "$ws"
  if [ "$lang" = zh ]; then start LANGUAGE=zh_CN; else start LANGUAGE=en; fi
  keys 1
  wait_for "histogram.cl" 10
  if [ "$lang" = en ]; then check "$lang: before a pass, the key bar offers a hint" "n hint"
  else check "$lang: before a pass, the key bar offers a hint" "n 提示"; fi
  cp "$root/kernels/01-serial/histogram.cl" "$ex1"
  wait_any 60 "run 1" "第 1 次运行" || bad "$lang: the saved reference runs"
  idle 300 || bad "$lang: its checklist ends"
  if [ "$lang" = en ]; then check "$lang: after a pass, the key bar offers the next chapter" "n next chapter · ? help · Tab pane"
  else check "$lang: after a pass, the status line offers the next chapter" "按 n 打开" "n 下一章"; fi
  keys n
  check "$lang: n opens chapter 2" "› 2 ·"
  keys n
  if [ "$lang" = en ]; then check "$lang: in chapter 2, not passed, n shows a hint" "Each work-item now handles one descriptor"
  else check "$lang: in chapter 2, not passed, n shows a hint" "现在每个工作项只处理一个描述符"; fi
done

# ---- 80x24 in a chapter: Tab, the only key between the panes there, is in the key bar
start LANGUAGE=en
T resize-window -t ui -x 80 -y 24 >/dev/null 2>&1
keys 2
check "80x24: the key bar keeps help, Tab pane and the way back, and the size and files keys" \
  "? help · Tab pane · q back · e edit · r run · C check · S size · B files"
# back from the editor at a build error: the kernel's pane at that line, not the lesson
keys q
keys 3
wait_for "Coalesced" 10
sed 's/int d = get_global_id(0);/int d = get_global_id(0) +;/' "$root/kernels/03-coalesced/histogram.cl" > "$ws/exercises/03-coalesced/histogram.cl.new"
mv "$ws/exercises/03-coalesced/histogram.cl.new" "$ws/exercises/03-coalesced/histogram.cl"
check "80x24: the build error shows" "Build failed"
keys e
check "80x24: back from the editor, the kernel's pane at the error's line" "▶12      int d = get_global_id(0) +;"

# ---- 80x24: the chapter list points at the next chapter even when its title is long (chapter 7's)
stop
rm -rf "$ws"
mkdir -p "$ws/.cltutor"
python3 -c 'import json, sys
ids = ["01-serial", "02-atomic", "03-coalesced", "04-float4", "05-local", "06-constant"]
json.dump({"version": 2, "last": "", "chapters": {i: {"state": "passed", "ever_passed": True, "runs": []} for i in ids}}, sys.stdout)' > "$ws/.cltutor/progress.json"
for lang in en zh; do
  if [ "$lang" = zh ]; then start LANGUAGE=zh_CN; else start LANGUAGE=en; fi
  T resize-window -t ui -x 80 -y 24 >/dev/null 2>&1
  keys C-l
  if [ "$lang" = en ]; then check "$lang 80x24: chapter 7's row keeps the next marker" "7  Local sub-histograms"
    screen | grep -q "7  Local sub-histograms.*← next" && ok "$lang 80x24: '← next' on chapter 7's row" || bad "$lang 80x24: '← next' on chapter 7's row"
  else check "$lang 80x24: chapter 7's row keeps the next marker" "7  局部子直方图"
    screen | grep -q "7  局部子直方图.*← 下一章" && ok "$lang 80x24: '← 下一章' on chapter 7's row" || bad "$lang 80x24: '← 下一章' on chapter 7's row"
  fi
done

# ---- a save's first verdict before the run's end: while the launches are timed, the status line
# says the first launch's answer (a right kernel made slow on purpose, so that its timing lasts);
# a wrong one is not timed: its run ends wrong, without a time
cat > "$tmp/slow.cl" <<'CL'
/* Chapter 2, right but slow on purpose: the distances are summed three times, in three orders;
 * only the first sum decides, the others can only be looked at (a sum of squares is never below -1). */
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors) return;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f, back = 0.0f, odd = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += diff * diff;
            int j = n_features - 1 - k, i = (k * 7) % n_features;
            float b = descriptors[d * n_features + j] - centroids[c * n_features + j];
            float o = descriptors[d * n_features + i] - centroids[c * n_features + i];
            back += b * b;
            odd += o * o;
        }
        if (back < -1.0f || odd < -1.0f) nearest = -1;
        if (dist < best) { best = dist; nearest = c; }
    }
    atomic_inc(&histogram[nearest]);
}
CL
sed 's/atomic_inc(&histogram\[nearest\]);/if (d % 3) atomic_inc(\&histogram[nearest]);/' "$tmp/slow.cl" > "$tmp/slow-wrong.cl"
# answered WORDS...: until the run ends, whether the status line (the screen's last line) ever read
# like WORDS (an extended regular expression) while it ran
answered() {
  seen=1
  n=1200
  while [ "$n" -gt 0 ]; do
    line=$(screen | sed '/^$/d' | tail -n 1)
    printf '%s\n' "$line" | grep -qE -- "$1" && seen=0
    printf '%s\n' "$line" | grep -qE -- "$2" && break
    sleep 0.05
    n=$((n - 1))
  done
  return $seen
}
for lang in en zh; do
  for size in 80x24 120x40; do
    stop
    rm -rf "$ws"
    if [ "$lang" = zh ]; then start LANGUAGE=zh_CN; else start LANGUAGE=en; fi
    T resize-window -t ui -x "${size%x*}" -y "${size#*x}" >/dev/null 2>&1
    keys 2
    wait_for "histogram.cl" 10
    idle 120
    if [ "$lang" = en ]; then right="✓ Correct · . timing the kernel [0-9]+/[0-9]+ "
      ended="✓ Correct · [0-9.]+ (ms|s)|✓ Correct · . checking"
    else right="✓ 正确 · . 为内核计时 [0-9]+/[0-9]+ "; ended="✓ 正确 · [0-9.]+ (ms|s)|✓ 正确 · . 正在检查本章"
    fi
    cp "$tmp/slow.cl" "$ex2.new" && mv "$ex2.new" "$ex2"
    answered "^ *$right" "^ *($ended)" && ok "$lang $size: a right kernel is called correct while its launches are timed" ||
      bad "$lang $size: a right kernel is called correct while its launches are timed" "$(screen | tail -n 3)"
    # the wrong text saved at once: its run stops the checklist of the slow one (whose analyses would
    # take the machine for a while)
    cp "$tmp/slow-wrong.cl" "$ex2.new" && mv "$ex2.new" "$ex2"
    idle 300
    if [ "$lang" = en ]; then w="✗ Wrong result"; else w="✗ 结果错误"; fi
    n=300   # the status line, once a note of the run before has gone
    while line=$(screen | sed '/^$/d' | tail -n 1) && ! printf '%s\n' "$line" | grep -qF -- "$w" && [ "$n" -gt 0 ]; do
      sleep 0.1
      n=$((n - 1))
    done
    printf '%s\n' "$line" | grep -qF -- "$w" && ! printf '%s\n' "$line" | grep -qE '[0-9] (ms|us|µs|s)( |$)' &&
      ok "$lang $size: the wrong run ends wrong, without a time" ||
      bad "$lang $size: the wrong run ends wrong, without a time" "$line"
  done
done

finish
