#!/bin/sh
# Chapter 8, "A reduction first": each work-group of 256 sums its ints in
# local memory by interleaved addressing, by the same with the index
# strided, and by sequential addressing; 16M ints by default, the partial
# sums added up and checked on the host. Prints each tree's time, its
# barriers and additions, and what the warps of 32 and wavefronts of 64
# do at each step (busy, divergent, bank conflicts). Run from anywhere:
#   sh bench/lessons/reduction.sh [--device TEXT] [--n N] [--runs K]
# Needs a C compiler, the OpenCL headers and loader. Prints to stdout;
# docs/results/lessons/README.md says which runs are kept there.
. "$(dirname "$0")/lib.sh"
lesson_bench reduction "$@"
