/* test_gmsample — a kernel analysed with some work-groups only: every
 * __kernel gets its guard after its opening brace on the same line, text
 * that only looks like a kernel is left alone, a header made by a macro is
 * refused, one or two groups run in the simulator's quick mode with the
 * work-group ids permuted, and the figures of a sampled launch count for all
 * its groups. */
#define _GNU_SOURCE
#include "suites.h"

#include <stdlib.h>
#include <string.h>

#include "gpumodel/gm_sample.h"

static int count(const char *s, const char *what) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static int lines(const char *s) { return count(s, "\n"); }

START_TEST(every_kernel_guarded_on_its_line) {
    const char *src = "// a __kernel in a comment: kernel void no(int x) {\n"
                      "/* kernel void nor(int y) { */\n"
                      "#define K(x) kernel void x(int a) {\n"
                      "float helper(float x) { return x; }\n"
                      "__kernel void declared(__global int *a);\n"
                      "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
                      "void first(__global int *a, int n)\n"
                      "{ a[0] = n; }\n"
                      "kernel void second(__global const char *s) __attribute__((vec_type_hint(float4))) {\n"
                      "  const char *t = \"kernel void fake() {\";\n"
                      "}\n";
    /* more groups than the quick mode runs: a guard of builtins after each body's brace, no other change */
    gm_sampling smp = {.groups = 3, .draw = 7};
    char err[256] = "";
    char *out = gm_sample_source(src, &smp, err, sizeof err);
    ck_assert_msg(out != NULL, "%s", err);
    ck_assert_int_eq(count(out, "return; "), 2);
    ck_assert_int_eq(lines(out), lines(src));
    ck_assert_ptr_null(strstr(out, "#define get_group_id"));
    /* the guard follows each body's brace on the same line */
    ck_assert_ptr_nonnull(strstr(out, "{ if ("));
    const char *second = strstr(out, "vec_type_hint(float4))) { if (");
    ck_assert_ptr_nonnull(second);
    ck_assert_ptr_nonnull(strstr(out, "7UL %"));
    ck_assert_ptr_nonnull(strstr(out, "\"kernel void fake() {\""));
    free(out);
    /* in order: the first groups */
    smp.in_order = 1;
    out = gm_sample_source(src, &smp, err, sizeof err);
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(strstr(out, ">= 3UL) return; "));
    free(out);
}
END_TEST

/* One or two groups: the simulator's quick mode, with the work-group ids
 * permuted by helpers before `#line 1`, so that the kernel's lines keep
 * their numbers, and the same guard on each kernel's line. */
START_TEST(quick_mode_permutes_ids) {
    const char *src = "__kernel void a(__global int *x) { x[get_global_id(0)] = get_group_id(0); }\n"
                      "kernel void b(__global int *x)\n{\n  x[0] = 1;\n}\n";
    gm_sampling smp = {.groups = 2, .draw = 7};
    ck_assert_int_eq(gm_sample_quick(&smp), 1);
    char err[256] = "";
    char *out = gm_sample_source(src, &smp, err, sizeof err);
    ck_assert_msg(out != NULL, "%s", err);
    const char *line1 = strstr(out, "#line 1\n");
    ck_assert_ptr_nonnull(line1);
    const char *kernel = line1 + strlen("#line 1\n");
    ck_assert_int_eq(lines(kernel), lines(src));
    ck_assert_int_eq(count(kernel, "{ if (__clt_left_out()) return; "), 2);
    ck_assert_ptr_nonnull(strstr(out, "#define get_group_id(d) __clt_group_id(d)\n"));
    ck_assert_ptr_nonnull(strstr(out, "#define get_global_id(d) __clt_global_id(d)\n"));
    ck_assert_ptr_nonnull(strstr(out, "7UL % t"));
    ck_assert_ptr_null(strstr(kernel, "__clt_group_id"));   /* the kernel's own text is as written */
    free(out);
    smp.in_order = 1;
    out = gm_sample_source(src, &smp, err, sizeof err);
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(strstr(out, "__clt_first(ulong t) { return 0; }"));
    ck_assert_ptr_nonnull(strstr(out, "__clt_second(ulong t) { return 1 % t; }"));
    free(out);
    gm_sampling none = {0}, many = {.groups = GM_SAMPLE_QUICK_MAX + 1};
    ck_assert_int_eq(gm_sample_quick(&none), 0);
    ck_assert_int_eq(gm_sample_quick(&many), 0);
    ck_assert_int_eq(gm_sample_quick(NULL), 0);
}
END_TEST

START_TEST(header_from_a_macro_refused) {
    gm_sampling smp = {.groups = 1};
    char err[256] = "";
    const char *src = "#define BODY {\n__kernel void k(__global int *a)\nBODY a[0] = 1; }\n";
    ck_assert_ptr_null(gm_sample_source(src, &smp, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "line 2"));
    ck_assert_ptr_null(gm_sample_source("float f(float x) { return x; }\n", &smp, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "no __kernel"));
}
END_TEST

START_TEST(settings_and_scale) {
    gm_sampling s;
    char err[256];
    ck_assert_int_eq(gm_sampling_parse("", &s, err, sizeof err), 0);
    ck_assert_uint_eq(s.groups, 0);
    ck_assert_int_eq(gm_sampling_parse("3 in_order", &s, err, sizeof err), 0);
    ck_assert_uint_eq(s.groups, 3);
    ck_assert_int_eq(s.in_order, 1);
    ck_assert_int_eq(gm_sampling_parse("0", &s, err, sizeof err), -1);
    ck_assert_int_eq(gm_sampling_parse("2 sideways", &s, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "scale_analysis"));
    gm_sampling one = {.groups = 1};
    ck_assert_double_eq(gm_sample_scale(&one, 65), 65);
    ck_assert_double_eq(gm_sample_scale(&one, 1), 1);
    gm_sampling all = {0};
    ck_assert_double_eq(gm_sample_scale(&all, 65), 1);
}
END_TEST

Suite *gmsample_suite(void) {
    Suite *s = suite_create("gmsample");
    TCase *tc = tcase_create("gmsample");
    tcase_add_test(tc, every_kernel_guarded_on_its_line);
    tcase_add_test(tc, quick_mode_permutes_ids);
    tcase_add_test(tc, header_from_a_macro_refused);
    tcase_add_test(tc, settings_and_scale);
    suite_add_tcase(s, tc);
    return s;
}
