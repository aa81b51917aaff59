#!/bin/sh
# cltutor grade: help and usage errors, and a loose file handed in without its exercises/ folder.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course

expect "grade --help" 0 'Usage: cltutor grade' -- "$bin" grade --help
expect "unknown format" 64 "--format 'xml'" -- "$bin" grade 2 --format xml
expect "bad seed" 64 "--seed '0'" -- "$bin" grade 2 --seed 0
expect "--require-speedup needs a named device" 64 'needs --device' -- "$bin" grade 2 --require-speedup 2
expect "--batch and --dir together" 64 'cannot be used together' -- "$bin" grade --batch "$tmp" --dir "$tmp"
mkdir -p "$tmp/loose" && cp "$root/kernels/02-atomic/histogram.cl" "$tmp/loose/mine.cl"
expect "a loose, misnamed file: the report says how to hand in" 1 'holds mine.cl loose, with no exercises/ folder: hand in the exercises/ folder itself' -- "$bin" grade 2 --dir "$tmp/loose" --timeout 5
expect "--jobs without --batch" 64 'needs --batch' -- "$bin" grade 2 -j 2
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" grade 99 --plan
expect "--tests that match nothing" 64 'no test of these chapters' -- "$bin" grade 2 --tests nosuchtest

finish
