#!/bin/sh
# Every figure in a lesson comes from a committed results file or names its source: `validate` fails on one that does not.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

res="$tmp/results"
mkdir -p "$res/sub"
cat > "$res/run.txt" <<'TXT'
Device:  NVIDIA H200, 2026-11-24
2   GPU1, global atomics     262144x256x64     17.654 ms   0.1%      3.8
3   GPU2, coalesced reads    262144x256x64      3.674 ms   4.80x
7   Byte histogram           256M:uniform       137.4 us   1953.8
TXT
printf '| copy | 4231.6 GB/s |\n' > "$res/sub/copy.md"
printf 'other 999.9 ms\n' > "$res/other.txt"
printf '{"median_ms": 123.456}\n' > "$res/ignored.json"

# lesson EN-TEXT: chapter 3's English text becomes EN-TEXT, its Chinese text a sourced line
lesson() {
  fresh
  printf '%s\n' "$1" > "$tmp/course/lessons/03-coalesced/lesson.en.md"
  printf '%s\n' "${2:-GPU1 用时 17.7 毫秒。}" > "$tmp/course/lessons/03-coalesced/lesson.zh.md"
}
# the sources line alone: the copy's other checks do not matter here
sources_line() { v 3 --static --results "$res" 2>&1 | sed -n '/^  [a-zA-Z]* *sources /,/^  [a-zA-Z]* *[a-z]/p'; }
pass_case() {
  lesson "$2" "$3"
  out=$(sources_line)
  if printf '%s\n' "$out" | grep -q '^  ok   sources'; then ok "$1"; else bad "$1" "$out"; fi
}
fail_case() {
  lesson "$3" "$4"
  out=$(sources_line)
  if printf '%s\n' "$out" | grep -q '^  FAIL sources' && printf '%s\n' "$out" | grep -Eq -- "$2"; then ok "$1"
  else bad "$1 (wanted: $2)" "$out"; fi
}

pass_case "a figure rounded from a results file passes" "GPU1 takes 17.7 ms on the H200."
pass_case "... at the file's own precision too, and in another unit" "GPU1: 17.654 ms, that is 17654 us."
fail_case "a figure truncated instead of rounded fails, with file and line" 'lesson.en.md:3: 17.6 ms is in no results file' "# Title

GPU1 takes 17.6 ms."
fail_case "a figure from no results file fails" '732 GB/s is in no results file' "A simple kernel reads 732 GB/s."
pass_case "a bare number in a results table passes with its unit" "The histogram reads 1954 GB/s; copy is 4.2316 TB/s."
pass_case "a speed-up in a results file passes" "GPU2 is 4.80x GPU1."
pass_case "a speed-up that is the ratio of two figures in its row passes" "| kernel | before | after | speed-up |
|---|---|---|---|
| GPU2 | 17.654 ms | 3.674 ms | 4.8x |"
fail_case "a speed-up that is no such ratio fails" '5.2x is in no results file' "| kernel | before | after | speed-up |
|---|---|---|---|
| GPU2 | 17.654 ms | 3.674 ms | 5.2x |"
fail_case "a ratio of figures in another row does not count" '1.2x is in no results file' "| a | b | c |
|---|---|---|
| x | 17.654 ms | 1.2x |
| y | 3.674 ms | |"
pass_case "a paragraph with a Source: label names its own source" "The book's GPU1 took 488.54 ms. Source: the book's Table 9.2 (AMD Radeon HD 7970)."
pass_case "a Source: paragraph after a table labels the table" "| kernel | time |
|---|---|
| GPU1 | 488.54 ms |

Source: the book's Table 9.2 (AMD Radeon HD 7970); not measured here."
fail_case "a label does not reach a later paragraph" '23.28 ms is in no results file' "The book's GPU1 took 488.54 ms. Source: the book's Table 9.2.

Its GPU2 took 23.28 ms."
fail_case "a label that names a results file holds the figures to that file" '999.9 ms is not in the results file its label names' "Other: 999.9 ms. Source: docs/results/run.txt (cltutor bench all)."
pass_case "... and they pass when the file has them" "GPU1 17.7 ms, GPU2 3.674 ms. Source: docs/results/run.txt (\`cltutor bench all\`, NVIDIA H200, 2026-11-24)."
fail_case "a label naming a missing results file fails" 'docs/results/nosuch.txt: no such results file' "GPU1 17.7 ms. Source: docs/results/nosuch.txt."
pass_case "figures in code spans and code blocks are not figures" "Run \`cltutor run 2\` and read \`17.6 ms\`.

\`\`\`
median 3.19 ms
\`\`\`"
pass_case "sizes, counts and percentages are not figures" "262144x256x64, 32 banks, 3.5-way, 12.5% of a sector, 64 sectors, 48 KiB."
pass_case "a figure rounded to two places passes" "GPU1: 17.65 ms."
fail_case "... so a figure only in a JSON file fails" '123.456 ms is in no results file' "Median 123.456 ms."
fail_case "the Chinese text is checked too" 'lesson.zh.md:1: 6.6 倍 is in no results file' "GPU1 17.7 ms." "比 GPU1 快 6.6 倍。"
pass_case "a Chinese label (来源：) names a source" "GPU1 17.7 ms." "原书的 GPU1 用时 488.54 ms。来源：原书表 9.2（AMD Radeon HD 7970）。"
pass_case "a label wrapped between two Chinese characters is still a label" "GPU1 17.7 ms." "原书的 GPU1 用时 488.54 ms。来
源：原书表 9.2（AMD Radeon HD 7970）。"

fresh
out=$(v 3 --static 2>&1)
if printf '%s\n' "$out" | grep -Eq '^  ok   sources +not checked: no docs/results/'; then ok "a course copy without docs/results is not checked, and says so"
else bad "a course copy without docs/results is not checked, and says so" "$out"; fi
expect "--results naming no folder is a usage error" 64 'cltutor validate: --results' -- v 3 --static --results "$tmp/nosuch"
mkdir -p "$tmp/course/docs" && cp -R "$res" "$tmp/course/docs/results"
printf 'GPU1 takes 17.6 ms.\n' >> "$tmp/course/lessons/03-coalesced/lesson.en.md"
expect "docs/results beside the course is found by default" 1 '17.6 ms is in no results file' -- v 3 --static

finish
