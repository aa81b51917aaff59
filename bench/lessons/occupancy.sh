#!/bin/sh
# Chapter 5, "Occupancy and the work-group size": the chapter's reference
# (kernels/05-local/histogram.cl) built with LOCAL_SIZE 32, 64, 128 and 256
# on every OpenCL device, or on the one whose name contains TEXT: for each
# build the device's and the kernel's queries (clGetDeviceInfo,
# clGetKernelWorkGroupInfo), on NVIDIA the registers a work-item got and the
# work-groups one Hopper SM holds, and the kernel's time; every histogram
# checked against the host's. Size: 262144x256x64 on a GPU, 16384x256x64 on
# a CPU, unless --size sets one for all; --local-features A,B,... builds
# each size with larger tiles too (fewer work-groups resident, the same
# instructions). Run from anywhere:
#   sh bench/lessons/occupancy.sh [--device TEXT] [--size NxC[xF]] [--runs K]
#                                 [--sizes A,B,...] [--local-features A,B,...]
# Needs a C compiler, the OpenCL headers and loader. Prints to stdout;
# docs/results/lessons/README.md says which runs are kept there.
. "$(dirname "$0")/lib.sh"
lesson_bench occupancy "$@"
