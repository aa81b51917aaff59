#!/bin/sh
# Chapter 2, "Sub-groups: one atomic for many votes": what each device says
# about sub-groups (cl_khr_subgroups, CL_DEVICE_MAX_NUM_SUB_GROUPS), then
# chapter 2's kernel, one global atomic per vote, against the same search
# with its votes aggregated first (by the sub-group where the device offers
# one, by a warp's match.any in inline PTX on NVIDIA, by the work-group in
# local memory everywhere), on random descriptors and on descriptors that
# all vote for one bin; then the votes alone. Every histogram is checked.
# Size: 262144x256x64 on a GPU, 16384x256x64 on a CPU, unless --size sets
# one for all. Run from anywhere:
#   sh bench/lessons/aggregate.sh [--device TEXT] [--size NxC[xF]] [--runs K]
# Needs a C compiler, the OpenCL headers and loader. Prints to stdout;
# docs/results/lessons/README.md says which runs are kept there.
. "$(dirname "$0")/lib.sh"
lesson_bench aggregate "$@"
