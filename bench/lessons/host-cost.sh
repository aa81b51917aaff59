#!/bin/sh
# Chapter 2, "What a run costs besides the kernel": the copies in (from
# malloc'd and from pinned memory), the chapter's kernel, the read back, an
# empty kernel and a whole run, each timed by its profiling event and by the
# host's clock, on every OpenCL device or on the one whose name contains
# TEXT; chapter 5's reference beside it, and both histograms checked.
# Size: 262144x256x64 on a GPU, 16384x256x64 on a CPU, unless --size sets
# one for all. Run from anywhere:
#   sh bench/lessons/host-cost.sh [--device TEXT] [--size NxC[xF]] [--runs K]
# Needs a C compiler, the OpenCL headers and loader. Prints to stdout;
# docs/results/lessons/README.md says which runs are kept there.
. "$(dirname "$0")/lib.sh"
lesson_bench host-cost "$@"
