/* test_srcpolicy — unit tests of the graded source policy: every way of
 * writing an #include, __has_include and a device branch, and honest files. */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/grade.h"
#include "run/srcpolicy.h"
#include "base/util.h"

static const char *const build_names[] = {"LOCAL_SIZE", "LOCAL_FEATURES", NULL};

/* The finding for src (all checks, the chapters' build macros allowed). */
static srcpolicy_finding check(const char *src) {
    srcpolicy_finding f;
    int rc = srcpolicy_check(src, "exercises/03-coalesced/histogram.cl", build_names, SRCPOLICY_ALL, &f);
    ck_assert_int_ge(rc, 0);
    ck_assert_int_eq(rc == 1, f.kind != SP_NONE);
    return f;
}

#define REFUSED(src, want_kind, want_line)                                                                     \
    do {                                                                                                        \
        srcpolicy_finding f_ = check(src);                                                                      \
        ck_assert_msg(f_.kind == (want_kind), "%s: got %s (%s), wanted %s", #src, srcpolicy_kind_name(f_.kind), \
                      f_.message, srcpolicy_kind_name(want_kind));                                              \
        ck_assert_int_eq(f_.line, want_line);                                                                   \
        char at_[64];                                                                                           \
        snprintf(at_, sizeof at_, "histogram.cl:%d: ", want_line);                                              \
        ck_assert_msg(strstr(f_.message, at_) != NULL, "message does not name line %d: %s", want_line,          \
                      f_.message);                                                                              \
    } while (0)

#define ACCEPTED(src)                                                                                          \
    do {                                                                                                        \
        srcpolicy_finding f_ = check(src);                                                                      \
        ck_assert_msg(f_.kind == SP_NONE, "%s: refused as %s: %s", #src, srcpolicy_kind_name(f_.kind),          \
                      f_.message);                                                                              \
    } while (0)

START_TEST(include_in_every_spelling) {
    REFUSED("#include \"/k/histogram.cl\"\n", SP_INCLUDE, 1);
    REFUSED("int a;\n#include <x.h>\n", SP_INCLUDE, 2);
    REFUSED("  \t # include \"x\"\n", SP_INCLUDE, 1);
    REFUSED("#\finclude \"x\"\n", SP_INCLUDE, 1);                 /* form feed */
    REFUSED("#\vinclude \"x\"\n", SP_INCLUDE, 1);                 /* vertical tab */
    REFUSED("\f\v#include \"x\"\n", SP_INCLUDE, 1);
    REFUSED("\xEF\xBB\xBF#include \"x\"\n", SP_INCLUDE, 1);       /* byte-order mark */
    REFUSED("#\xC2\xA0include \"x\"\n", SP_INCLUDE, 1);           /* no-break space */
    REFUSED("\n\n#inc\\\nlude \"x\"\n", SP_INCLUDE, 3);           /* splice inside the name */
    REFUSED("\\\n#include \"x\"\n", SP_INCLUDE, 2);               /* splice before the # */
    REFUSED("#\\\ninclude \"x\"\n", SP_INCLUDE, 1);               /* directive after a splice */
    REFUSED("int a; \\\n#include \"x\"\n", SP_INCLUDE, 2);        /* where it is no directive: refused anyway */
    REFUSED("#inc\\ \t\nlude \"x\"\n", SP_INCLUDE, 1);            /* spaces after the backslash */
    REFUSED("#inc\\\r\nlude \"x\"\r\n", SP_INCLUDE, 1);           /* CRLF */
    REFUSED("int a;\r#include \"x\"\r", SP_INCLUDE, 2);           /* a lone CR ends a line for clang */
    REFUSED("?\?=include \"x\"\n", SP_INCLUDE, 1);                 /* trigraph */
    REFUSED("#inc?\?/\nlude \"x\"\n", SP_INCLUDE, 1);              /* trigraph backslash splice */
    REFUSED("%:include \"x\"\n", SP_INCLUDE, 1);                  /* digraph */
    REFUSED("/* a */ %: /* b */ include \"x\"\n", SP_INCLUDE, 1);
    REFUSED("/*\n\n*/ #include \"x\"\n", SP_INCLUDE, 3);
    REFUSED("#import \"x\"\n", SP_IMPORT, 1);
    REFUSED("#include_next \"x\"\n", SP_INCLUDE_NEXT, 1);
    REFUSED("#embed \"x\"\n", SP_EMBED, 1);
    REFUSED("#define S \"x\"\n#include S\n", SP_INCLUDE, 2);
    srcpolicy_finding f = check("#\finclude \"/k/histogram.cl\"\n");
    ck_assert_str_eq(f.name, "include");
    ck_assert_str_eq(f.text, "#include \"/k/histogram.cl\"");
    ck_assert_ptr_nonnull(strstr(f.message, "#include"));
}
END_TEST

START_TEST(file_probes_and_pragmas) {
    REFUSED("#if __has_include(\"/etc/shadow\")\n#error yes\n#endif\n", SP_HAS_INCLUDE, 1);
    REFUSED("#ifdef __has_include\n#endif\n", SP_HAS_INCLUDE, 1);
    REFUSED("#define H __has_include\n", SP_HAS_INCLUDE, 1);
    REFUSED("#if __has_include_next(<x>)\n#endif\n", SP_HAS_INCLUDE, 1);
    REFUSED("int a = __has_embed(\"x\");\n", SP_HAS_INCLUDE, 1);
    REFUSED("_Pragma(\"GCC dependency \\\"/etc/shadow\\\"\")\n", SP_PRAGMA_OPERATOR, 1);
    REFUSED("#define P(x) _Pragma(#x)\n", SP_PRAGMA_OPERATOR, 1);
    REFUSED("#pragma GCC dependency \"/etc/shadow\"\n", SP_PRAGMA_FILE, 1);
    REFUSED("#\fpragma clang module import foo\n", SP_PRAGMA_FILE, 1);
    REFUSED("#pragma clang __debug crash\n", SP_PRAGMA_FILE, 1);
    REFUSED("#define A(x, y) x ## y\n", SP_TOKEN_PASTE, 1);
    REFUSED("#define A(x, y) x %:%: y\n", SP_TOKEN_PASTE, 1);
    ACCEPTED("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma unroll 4\n#pragma OPENCL FP_CONTRACT ON\n");
    ACCEPTED("#define S(x) #x\nconstant char *s = S(include);\n");
    ACCEPTED("/* #include \"x\" */\n// #include \"x\"\nconstant char *s = \"#include <x>\";\n");
    ACCEPTED("constant char c = '#'; int include;\n");
}
END_TEST

START_TEST(device_branches) {
    REFUSED("int a;\n\n\n#if __OPENCL_VERSION__ < 200\n#endif\n", SP_DEVICE_BRANCH, 4);
    srcpolicy_finding f = check("int a;\n\n\n#if __OPENCL_VERSION__ < 200\n#endif\n");
    ck_assert_str_eq(f.message, "exercises/03-coalesced/histogram.cl:4: `#if __OPENCL_VERSION__ < 200` tests what "
                                "device runs the kernel; graded code must do the same thing on every device: "
                                "remove the condition");
    ck_assert_str_eq(srcpolicy_kind_name(f.kind), "device_branch");
    REFUSED("#ifdef __NV_CL_C_VERSION\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifndef __GPU__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#if defined(cl_khr_fp64)\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#if defined cl_khr_fp64 && 1\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#if 1\n#elif __OPENCL_C_VERSION__ >= 300\n#endif\n", SP_DEVICE_BRANCH, 2);
    REFUSED("#if 1\n#elifdef __AMD__\n#endif\n", SP_DEVICE_BRANCH, 2);
    REFUSED("#if 1\n#elifndef __CPU__\n#endif\n", SP_DEVICE_BRANCH, 2);
    REFUSED("#if CL_VERSION_2_0\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifdef __ENDIAN_LITTLE__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifdef __IMAGE_SUPPORT__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifdef __FAST_RELAXED_MATH__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifdef __x86_64__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#ifdef DBL_MAX\n#endif\n", SP_DEVICE_BRANCH, 1);           /* defined only with fp64 */
    REFUSED("#\v if /* x */ __OPENCL_VERSION__\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#if __OPEN\\\nCL_VERSION__\n#endif\n", SP_DEVICE_BRANCH, 1);
    /* through the file's own macros, however deep */
    REFUSED("#define OLD (__opencl_c_generic_address_space + 0)\n#if OLD\n#endif\n", SP_DEVICE_MACRO, 1);
    REFUSED("#define A B\n#define B defined(__my_vendor)\n#if A\n#endif\n", SP_DEVICE_MACRO, 2);
    REFUSED("#define A B\n#define B defined(GPU_VENDOR_X) || cl_khr_fp64\n#if A\n#endif\n", SP_DEVICE_MACRO, 2);
    f = check("#define A B\n#define B DBL_MAX\n#if A\n#endif\n");
    ck_assert_ptr_nonnull(strstr(f.message, "(through A, which uses DBL_MAX)"));
    REFUSED("#define A A B\n#define B A\n#if A\n#endif\n#if __GPU__\n#endif\n", SP_DEVICE_BRANCH, 5);
    /* a definition inside a conditional may not happen: it does not make the name the file's */
    REFUSED("#if 0\n#define __GPU__ 1\n#endif\n#ifdef __GPU__\n#endif\n", SP_DEVICE_BRANCH, 4);
    /* in code, the device's macros are refused too */
    REFUSED("int v = __OPENCL_VERSION__;\n", SP_DEVICE_MACRO, 1);
    REFUSED("kernel void k(void)\n{\n    if (__NV_CL_C_VERSION) return;\n}\n", SP_DEVICE_MACRO, 3);
    REFUSED("#define NEW (__OPENCL_VERSION__ >= 200)\n", SP_DEVICE_MACRO, 1);
    REFUSED("int a = __has_builtin(__builtin_expect);\n", SP_DEVICE_MACRO, 1);
    /* the compiler's own macros and builtins, whatever their case */
    REFUSED("kernel void k(global int *a)\n{\n    a[0] = __clang_major__ > 14;\n}\n", SP_DEVICE_MACRO, 3);
    REFUSED("int x = __builtin_cpu_supports(\"avx2\");\n", SP_DEVICE_MACRO, 1);
    REFUSED("int w = __SIZEOF_POINTER__;\n", SP_DEVICE_MACRO, 1);
    /* an extension's name turned into a string by a macro, then compared at run time */
    REFUSED("#define STR(x) #x\n#define XSTR(x) STR(x)\nconstant char *e = XSTR(cl_khr_fp64);\n", SP_DEVICE_MACRO, 3);
    REFUSED("#define STR(x) #x\n#define EXT STR(cl_khr_fp64)\n", SP_DEVICE_MACRO, 2);
    /* push_macro and pop_macro hide a redefined device macro from the check; other pragmas too */
    REFUSED("#pragma push_macro(\"__OPENCL_VERSION__\")\n#undef __OPENCL_VERSION__\n#define __OPENCL_VERSION__ 100\n"
            "#if __OPENCL_VERSION__ < 200\n#endif\n#pragma pop_macro(\"__OPENCL_VERSION__\")\n", SP_PRAGMA, 1);
    REFUSED("int a;\n#pragma clang diagnostic ignored \"-Wall\"\n", SP_PRAGMA, 2);
    REFUSED("#pragma\n", SP_PRAGMA, 1);
    f = check("#pragma pop_macro(\"X\")\n");
    ck_assert_str_eq(f.name, "pop_macro");
    ck_assert_ptr_nonnull(strstr(f.message, "#pragma OPENCL EXTENSION, #pragma OPENCL FP_CONTRACT, #pragma unroll"));
    /* the work-item functions: the analysis at a large size sees its work-groups through them */
    REFUSED("int a;\n#ifdef get_group_id\n#endif\n", SP_DEVICE_BRANCH, 2);
    REFUSED("#if defined(get_global_id) || 1\n#endif\n", SP_DEVICE_BRANCH, 1);
    REFUSED("#undef get_group_id\n", SP_BUILTIN_MACRO, 1);
    REFUSED("int a;\n#define get_global_id(d) get_local_id(d)\n", SP_BUILTIN_MACRO, 2);
    f = check("#define get_num_groups(d) 1\n");
    ck_assert_str_eq(srcpolicy_kind_name(f.kind), "builtin_macro");
    ck_assert_ptr_nonnull(strstr(f.message, "makes a macro of get_num_groups"));
    ACCEPTED("#define GID get_global_id(0)\nkernel void k(global int *a) { a[GID] = get_group_id(0); }\n");
    ACCEPTED("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma unroll\n#pragma nounroll\n"
             "kernel void k(global int *a) { int cl = 1, mine_ = 2; a[0] = cl + mine_; }\n");
}
END_TEST

START_TEST(native_code_in_every_spelling) {
    REFUSED("kernel void k(global int *a) {\n  asm(\"syscall\");\n}\n", SP_INLINE_ASM, 2);
    REFUSED("void f(void) { __asm__ __volatile__(\"nop\"); }\n", SP_INLINE_ASM, 1);
    REFUSED("void f(void) { __asm volatile goto(\"jmp %l0\" :::: out); out:; }\n", SP_INLINE_ASM, 1);
    REFUSED("#define SYS __asm__\nvoid f(void) { SYS(\"syscall\"); }\n", SP_INLINE_ASM, 1);
    REFUSED("#if 0\n#endif\nvoid f(void) { a\\\nsm(\"nop\"); }\n", SP_INLINE_ASM, 3); /* spliced */
    REFUSED("int my_open(const char *p, int f) __asm__(\"open\");\n", SP_INLINE_ASM, 1); /* asm label */
    REFUSED("register int r asm(\"rax\");\n", SP_INLINE_ASM, 1);
    REFUSED("int o(int) __attribute__((weakref(\"open\")));\n", SP_SYMBOL_ATTRIBUTE, 1);
    REFUSED("int o(int) __attribute__ ((__alias__(\"open\")));\n", SP_SYMBOL_ATTRIBUTE, 1);
    REFUSED("void g(void) __attribute__((ifunc(\"r\")));\n", SP_SYMBOL_ATTRIBUTE, 1);
    REFUSED("[[gnu::alias(\"open\")]] int o(int);\n", SP_SYMBOL_ATTRIBUTE, 1);
    srcpolicy_finding f = check("void f(void) { __asm__(\"nop\"); }\n");
    ck_assert_str_eq(f.name, "__asm__");
    ck_assert_ptr_nonnull(strstr(f.message, "inline assembly"));
    /* honest names and attributes */
    ACCEPTED("kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(global int *a) { int asmx = 0, "
             "section_id = 1, alias_n = 2; a[0] = asmx + section_id + alias_n; }\n");
    ACCEPTED("constant char *s = \"asm\"; /* asm(\"nop\") */\n");
    /* the other checks leave it alone */
    ck_assert_int_eq(srcpolicy_check("void f(void) { asm(\"nop\"); }\n", "k.cl", NULL, SRCPOLICY_FILES, &f), 0);
}
END_TEST

START_TEST(own_and_build_macros_are_allowed) {
    ACCEPTED("#ifndef LOCAL_SIZE\n#define LOCAL_SIZE 64\n#endif\n#if LOCAL_SIZE > 32\n#endif\n");
    ACCEPTED("#ifdef LOCAL_FEATURES\n#elif defined(TILE)\n#endif\n");
    ACCEPTED("#define __MY_PAD 1\n#if __MY_PAD\n#endif\n#ifdef __MY_PAD\n#endif\n");
    ACCEPTED("#undef __GPU__\n#ifdef __GPU__\n#endif\n");
    ACCEPTED("#define PAD(i) ((i) + ((i) >> 5))\n#if PAD(32) == 33\n#endif\n");
    ACCEPTED("#define F(__x) (__x + 1)\n#if F(1)\n#endif\n"); /* a parameter is not the device's */
    ACCEPTED("__kernel void k(__global int *a, __local int *b, __constant int *c)\n"
             "{ __attribute__((unused)) int x = __LINE__; a[0] = x; }\n");
    ACCEPTED("");
    ACCEPTED("\xEF\xBB\xBF");
    ACCEPTED("int a; /* unterminated");
    ACCEPTED("constant char *s = \"unterminated\n");
    /* build options the chapter passes are allowed, others are not */
    srcpolicy_finding f;
    ck_assert_int_eq(srcpolicy_check("#ifdef __CHAPTER_MACRO\n#endif\n", "k.cl", NULL, SRCPOLICY_ALL, &f), 1);
    const char *names[8];
    char buf[128];
    ck_assert_int_eq(srcpolicy_option_macros("-DLOCAL_SIZE=64 -D __CHAPTER_MACRO -cl-fast-relaxed-math -DX=1",
                                             buf, sizeof buf, names, 8), 3);
    ck_assert_str_eq(names[0], "LOCAL_SIZE");
    ck_assert_str_eq(names[1], "__CHAPTER_MACRO");
    ck_assert_str_eq(names[2], "X");
    ck_assert_ptr_null(names[3]);
    ck_assert_int_eq(srcpolicy_check("#ifdef __CHAPTER_MACRO\n#endif\n", "k.cl", names, SRCPOLICY_ALL, &f), 0);
    /* one check at a time */
    ck_assert_int_eq(srcpolicy_check("#if __GPU__\n#endif\n", "k.cl", NULL, SRCPOLICY_FILES, &f), 0);
    ck_assert_int_eq(srcpolicy_check("#include \"x\"\n", "k.cl", NULL, SRCPOLICY_DEVICE, &f), 0);
    ck_assert_int_eq(srcpolicy_check("#define A(x) x ## 1\n", "k.cl", NULL, SRCPOLICY_DEVICE, &f), 1);
}
END_TEST

/* Whether a chapter names file as its "beyond" kernel: bench runs it, nothing grades it, so it may
 * ask which extensions the device has (chapter 8's look-back scan does). */
static int is_beyond_kernel(const char *chapter_dir, const char *file) {
    char ini[2048], line[512], want[300];
    snprintf(ini, sizeof ini, "%s/../../lessons/%s/lesson.ini", chapter_dir, strrchr(chapter_dir, '/') + 1);
    snprintf(want, sizeof want, "bench_beyond = %s", file);
    FILE *f = fopen(ini, "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) found = !strncmp(line, want, strlen(want));
    if (f) fclose(f);
    return found;
}

/* Every kernel file the course ships passes, with its chapter's build macros; beyond kernels need not. */
static int check_folder(const char *top) {
    int n = 0;
    DIR *d = opendir(top);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", top, e->d_name);
        DIR *c = opendir(dir);
        if (!c) continue;
        struct dirent *k;
        while ((k = readdir(c))) {
            size_t len = strlen(k->d_name);
            if (len < 3 || strcmp(k->d_name + len - 3, ".cl") || is_beyond_kernel(dir, k->d_name)) continue;
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", dir, k->d_name);
            char *src = util_read_file(path, NULL);
            ck_assert_ptr_nonnull(src);
            srcpolicy_finding f;
            int rc = srcpolicy_check(src, path, build_names, SRCPOLICY_ALL, &f);
            ck_assert_msg(rc == 0, "%s", f.message);
            free(src);
            n++;
        }
        closedir(c);
    }
    closedir(d);
    return n;
}

START_TEST(the_course_passes) {
    ck_assert_int_ge(check_folder(CLT_TEST_ROOT "/exercises"), 16);
    ck_assert_int_ge(check_folder(CLT_TEST_ROOT "/kernels"), 9); /* one reference per chapter */
}
END_TEST

START_TEST(large_and_hostile_input_is_bounded) {
    /* a deep chain of macros, each naming the last twice, tested many times */
    char *src = NULL;
    util_sappend(&src, "#define M0 1\n");
    for (int i = 1; i < 3000; i++) util_sappend(&src, "#define M%d M%d M%d\n", i, i - 1, i - 1);
    for (int i = 0; i < 3000; i++) util_sappend(&src, "#if M2999\n#endif\n");
    srcpolicy_finding f;
    int rc = srcpolicy_check(src, "k.cl", NULL, SRCPOLICY_ALL, &f);
    ck_assert_int_ge(rc, 0); /* finishes; a budget may refuse it as too deep, never hangs */
    free(src);
}
END_TEST

START_TEST(grade_find_include_still_answers) {
    ck_assert_int_eq(grade_find_include("int a;\n"), 0);
    ck_assert_int_eq(grade_find_include("int a;\n#include \"x\"\n"), 2);
    ck_assert_int_eq(grade_find_include("\xEF\xBB\xBF#include \"x\"\n"), 1);
    ck_assert_int_eq(grade_find_include("/* x */ %: /* y */ inc\\\nlude \"x\"\n"), 1);
    ck_assert_int_eq(grade_find_include("#\finclude \"x\"\n"), 1);
    ck_assert_int_eq(grade_find_include("#if __GPU__\n#endif\n"), 0); /* only what reads files */
}
END_TEST

Suite *srcpolicy_suite(void) {
    Suite *s = suite_create("srcpolicy");
    TCase *tc = tcase_create("policy");
    tcase_add_test(tc, include_in_every_spelling);
    tcase_add_test(tc, file_probes_and_pragmas);
    tcase_add_test(tc, device_branches);
    tcase_add_test(tc, native_code_in_every_spelling);
    tcase_add_test(tc, own_and_build_macros_are_allowed);
    tcase_add_test(tc, the_course_passes);
    tcase_add_test(tc, large_and_hostile_input_is_bounded);
    tcase_add_test(tc, grade_find_include_still_answers);
    suite_add_tcase(s, tc);
    return s;
}
