#!/bin/sh
# Branches on what the device defines are refused, with the line, and so are macros of the work-item
# functions; conditionals on build options are graded.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # TMPDIR and HOME in $tmp, $ref, json, refused, sub, with_branch, make_bomb, make_batch

with_branch '#if __OPENCL_VERSION__ < 200\n#endif\n'; refused "#if __OPENCL_VERSION__ < 200" 2
json "the device-branch message says what to do" "$tmp/r.json" \
  "'\`#if __OPENCL_VERSION__ < 200\` tests what device runs the kernel; graded code must do the same thing on every device: remove the condition' in t['detail']"
with_branch '\n#ifdef __NV_CL_C_VERSION\n#define FAST 1\n#endif\n'; refused "#ifdef __NV_CL_C_VERSION" 3
with_branch '#if defined(cl_khr_fp64)\n#endif\n'; refused "#if defined(cl_khr_fp64)" 2
with_branch '#ifndef __GPU__\n#endif\n'; refused "#ifndef __GPU__" 2
with_branch '#define OLD (__OPENCL_C_VERSION__ < 200)\n'; refused "a macro that holds a device macro" 2
with_branch '#if 0\n#elifdef __CPU__\n#endif\n'; refused "#elifdef __CPU__" 3
# the device told apart without a conditional: the compiler's own macros and builtins, an extension's
# name made a string, a macro hidden by push_macro and pop_macro (graded code sees one program)
with_branch '#define OLDCLANG (__clang_major__ < 15)\n'; refused "a macro that holds __clang_major__" 2
with_branch '#define STR(x) #x\n#define XSTR(x) STR(x)\n__constant char ext[] = XSTR(cl_khr_fp64);\n'
refused "an extension's name turned into a string" 4
with_branch '#pragma push_macro("__OPENCL_VERSION__")\n#undef __OPENCL_VERSION__\n#define __OPENCL_VERSION__ 100\n#if __OPENCL_VERSION__ < 200\n#endif\n#pragma pop_macro("__OPENCL_VERSION__")\n'
refused "push_macro around a redefined __OPENCL_VERSION__" 2
json "the pragma message names the pragma and what is allowed" "$tmp/r.json" \
  "'push_macro' in t['detail'] and '#pragma OPENCL EXTENSION, #pragma OPENCL FP_CONTRACT, #pragma unroll and #pragma nounroll only' in t['detail']"
# the work-item functions, through which the analysis at a large size shows the kernel its chosen
# work-groups: a kernel may not test whether one is a macro, nor make or unmake one
with_branch '#ifdef get_group_id\n#define SIMULATED 1\n#endif\n'; refused "#ifdef get_group_id" 2
with_branch '#undef get_group_id\n'; refused "#undef get_group_id" 2
json "the work-item macro message says what to do" "$tmp/r.json" \
  "'makes a macro of get_group_id, one of OpenCL' in t['detail'] and 'give the macro a name of its own' in t['detail']"
# the honest forms pass
with_branch '#ifndef LOCAL_SIZE\n#define LOCAL_SIZE 64\n#endif\n#if LOCAL_SIZE > 1\n#define MINE 1\n#endif\n#ifdef MINE\n#endif\n'
"$bin" grade 2 --dir "$tmp/sub" --seed 4 --tests odd --format json -o "$tmp/r.json" 2>/dev/null
json "conditionals on build options and on the file's own macros are graded" "$tmp/r.json" "t['status'] == 'pass'"

finish
