#!/bin/sh
# Chapter 8, "Work and span": one work-group's inclusive scan of 256 and
# 1024 uint by Hillis-Steele, by Blelloch and by the reference's shape
# (16 elements per work-item in registers, then a tree), on every OpenCL
# device, or on the one whose name contains TEXT: the time of one scan, and
# the barriers and additions each makes. Run from anywhere:
#   sh bench/lessons/scan-span.sh [--device TEXT] [--target-ms MS | --reps REPS] [--runs K]
# Needs a C compiler, the OpenCL headers and loader. Prints to stdout;
# docs/results/lessons/README.md says which runs are kept there.
. "$(dirname "$0")/lib.sh"
lesson_bench scan-span "$@"
