#!/bin/sh
# A lesson that cites the project's design notes, or says its variant kernels are not kept while
# bench/variants/ holds them, fails `validate`, with the file and line named.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

# lesson EN-TEXT [ZH-TEXT] [novariants]: chapter 3's texts become EN-TEXT and ZH-TEXT, beside
# chapter 3's files of bench/variants/ unless the third argument is given
lesson() {
  fresh
  printf '%s\n' "$1" > "$tmp/course/lessons/03-coalesced/lesson.en.md"
  printf '%s\n' "${2:-合并访问让读取更快。}" > "$tmp/course/lessons/03-coalesced/lesson.zh.md"
  if [ -z "$3" ]; then
    mkdir -p "$tmp/course/bench/variants"
    cp "$root"/bench/variants/03-*.cl "$tmp/course/bench/variants/"
  fi
}
# the claims line and its notes alone
claims_line() { v 3 --static 2>&1 | sed -n '/^  [a-zA-Z]* *claims /,/^  [a-zA-Z]* *[a-z]/p'; }
pass_case() {
  lesson "$2" "$3" "$4"
  out=$(claims_line)
  if printf '%s\n' "$out" | grep -q '^  ok   claims'; then ok "$1"; else bad "$1" "$out"; fi
}
fail_case() {
  lesson "$3" "$4" "$5"
  out=$(claims_line)
  if printf '%s\n' "$out" | grep -q '^  FAIL claims' && printf '%s\n' "$out" | grep -Eq -- "$2"; then ok "$1"
  else bad "$1 (wanted: $2)" "$out"; fi
}

pass_case "a lesson with neither passes" "Coalesced reads are faster. Source: docs/results/run.txt."
fail_case "a sentence naming the design notes fails, with file and line" \
  "lesson.en.md:3: names the project's design notes" "# Title

For scale, the project's design notes record a faster kernel."
fail_case "... also when the phrase is wrapped over two lines" "lesson.en.md:2: names the project's design notes" \
  "A figure from the
Design
notes of the project."
fail_case "... and in the Chinese text" "lesson.zh.md:2: names the project's design notes" \
  "Coalesced reads are faster." "合并访问更快。
作为参照，本项目的设计
笔记记录了一个更快的内核。"
fail_case "variants said not kept fail while bench/variants/ holds the chapter's" \
  "lesson.en.md:2: says the chapter's variant kernels are not kept, but bench/variants/ holds 03-serial.cl, 03-uncoalesced.cl" \
  "Timed while the kernels were written; the
variant kernels are not kept, so this table is not in docs/results."
fail_case "... and the Chinese, wrapped between two characters" "lesson.zh.md:1: says the chapter's variant kernels are not kept" \
  "Coalesced reads are faster." "这些变体内核没有保
留，所以这张表不在 docs/results 中。"
pass_case "... but pass where the chapter has no variants" \
  "Timed while the kernels were written; the variant kernels are not kept." "" novariants
pass_case "a sentence saying something else is not kept passes" \
  "Measured and not kept: a grid of work-group sizes. The variant kernels are in bench/variants/."

# claims a review found false fail again, wrapped or not, in either language; the corrected sentences pass
fail_case "a spin barrier of atomics offered to synchronise work-groups fails, with why" \
  "lesson.en.md:2: states a claim found false: atomics cannot make work-groups wait for each other" \
  "To synchronise two groups,
end the kernel, or
use atomics."
fail_case "... and in Chinese" "lesson.zh.md:1: states a claim found false: atomics cannot make work-groups wait" \
  "Groups." "要同步两个工作组，只能结束内核，或者使用原子操作。"
fail_case "vload4 from a float pointer as one 16-byte load fails" \
  "lesson.en.md:1: states a claim found false: a vload4 from a float pointer stays four 4-byte loads" \
  "One vload4 reads them: one 16-byte load instead of four 4-byte loads."
fail_case "float4 arithmetic as four instructions on every GPU fails" "states a claim found false: vector arithmetic" \
  "On every GPU since, float4 arithmetic becomes four instructions."
fail_case "the compiler said to see a uniform address fails" "states a claim found false: a warp's loads of one address" \
  "The centroid read is uniform: the compiler can see that one warp reads one address."
pass_case "the corrected sentences pass" \
  "No barrier synchronises two work-groups: end the kernel and start another. A vload4 from a float pointer stays
four 4-byte loads on NVIDIA; the hardware merges a warp's loads of one address at run time." \
  "没有屏障能同步两个工作组：结束内核，再启动另一个。"

out=$(CLTUTOR_DATA="$root" "$bin" validate --static 2>&1)
if printf '%s\n' "$out" | grep -q '^  ok   claims' && ! printf '%s\n' "$out" | grep -q '^  FAIL claims' \
  && printf '%s\n' "$out" | grep -Eq '^[0-9]+ passed, 0 failed'; then ok "the course itself passes"
else bad "the course itself passes" "$(printf '%s\n' "$out" | grep -v '^  ok')"; fi

finish
