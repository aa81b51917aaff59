/* test_similarity — unit tests of the fingerprints of kernels and the pairs
 * they make (grade/similarity). */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <stdlib.h>
#include <string.h>

#include "grade/similarity.h"

static const char *const original =
    "__kernel void histogram(__global const float *descriptors, __global int *histogram, int n)\n"
    "{\n"
    "    int d = get_global_id(0);\n"
    "    if (d >= n)\n"
    "        return;\n"
    "    float best = FLT_MAX;\n"
    "    int nearest = 0;\n"
    "    for (int c = 0; c < 16; c++) {\n"
    "        float dist = descriptors[d * 16 + c] * 2.0f;\n"
    "        if (dist < best) { best = dist; nearest = c; }\n"
    "    }\n"
    "    atomic_inc(&histogram[nearest]);\n"
    "}\n";

/* the same code with other names, comments and layout */
static const char *const disguised =
    "/* all mine */\n"
    "__kernel void histogram(__global const float *descs, __global int *hist, int count)\n"
    "{\n"
    "  int me = get_global_id(0);   // which descriptor\n"
    "  if (me >= count) return;\n"
    "\n"
    "  float low = FLT_MAX; int win = 0;\n"
    "  for (int j = 0; j < 16; j++)\n"
    "  {\n"
    "    float dd = descs[me * 16 + j] * 2.0f;\n"
    "    if (dd < low) { low = dd; win = j; }\n"
    "  }\n"
    "  atomic_inc(&hist[win]);\n"
    "}\n";

static int same_prints(const sim_prints *a, const sim_prints *b) {
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->prints[i].hash != b->prints[i].hash) return 0;
    return 1;
}

START_TEST(names_comments_and_layout_count_for_nothing) {
    sim_prints a, b, c, d;
    ck_assert_int_eq(sim_fingerprint(original, &a), 0);
    ck_assert_int_eq(sim_fingerprint(disguised, &b), 0);
    ck_assert_int_gt(a.n, 40);
    ck_assert_msg(same_prints(&a, &b), "a renamed, recommented, reformatted copy has other fingerprints");
    /* what the language gives counts as written: atomic_add for atomic_inc, another constant, another operator */
    char *other = strdup(original);
    memcpy(strstr(other, "atomic_inc"), "atomic_dec", 10);
    ck_assert_int_eq(sim_fingerprint(other, &c), 0);
    ck_assert_msg(!same_prints(&a, &c), "a built-in's name was taken for a name of the student's");
    memcpy(strstr(other, "2.0f"), "3.0f", 4);
    ck_assert_int_eq(sim_fingerprint(other, &d), 0);
    ck_assert_msg(!same_prints(&c, &d), "a number did not count");
    /* each print's lines: within the file, first before last */
    for (int i = 0; i < a.n; i++) {
        ck_assert_int_ge(a.prints[i].first_line, 1);
        ck_assert_int_le(a.prints[i].first_line, a.prints[i].last_line);
        ck_assert_int_le(a.prints[i].last_line, 13);
    }
    free(other);
    sim_prints_free(&a), sim_prints_free(&b), sim_prints_free(&c), sim_prints_free(&d);
    /* too short for one fingerprint: none, and no failure */
    ck_assert_int_eq(sim_fingerprint("int x = 1;", &a), 0);
    ck_assert_int_eq(a.n, 0);
    sim_prints_free(&a);
}
END_TEST

/* three students, one file: 0 copied the original, 1 disguised it, 2 wrote only the starting file */
START_TEST(pairs_leave_out_the_starting_file_and_the_common) {
    const char *starting_text = "__kernel void histogram(__global const float *descriptors, __global int *histogram, "
                                "int n)\n{\n    int d = get_global_id(0);\n    if (d >= n)\n        return;\n}\n";
    sim_prints files[3], starting;
    ck_assert_int_eq(sim_fingerprint(original, &files[0]), 0);
    ck_assert_int_eq(sim_fingerprint(disguised, &files[1]), 0);
    ck_assert_int_eq(sim_fingerprint(starting_text, &files[2]), 0);
    ck_assert_int_eq(sim_fingerprint(starting_text, &starting), 0);
    sim_class c = {.n_students = 3, .n_files = 1, .files = files};
    sim_pair *pairs = NULL;
    int n = sim_compare(&c, &starting, 1.0, 5, &pairs);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(pairs[0].a, 0);
    ck_assert_int_eq(pairs[0].b, 1);
    ck_assert(pairs[0].score > 0.99);
    ck_assert_int_eq(pairs[0].n_files, 1);
    /* the starting file's lines (1-5 hold only its code) are not all of the match: the loop is */
    ck_assert_int_ge(pairs[0].files[0].n_a, 1);
    ck_assert_int_ge(pairs[0].files[0].a_lines[pairs[0].files[0].n_a - 1].last, 8);
    /* the fingerprints the starting file gives are not counted */
    ck_assert_int_lt(pairs[0].shared, files[0].n);
    sim_pairs_free(pairs, n);
    /* held by every student who handed the file in, with a limit of 0%: still kept, as the limit is at least 3 */
    n = sim_compare(&c, &starting, 0.0, 5, &pairs);
    ck_assert_int_eq(n, 1);
    sim_pairs_free(pairs, n);
    /* a higher bar than they share: no pair */
    n = sim_compare(&c, &starting, 1.0, 10000, &pairs);
    ck_assert_int_eq(n, 0);
    sim_pairs_free(pairs, n);
    for (int i = 0; i < 3; i++) sim_prints_free(&files[i]);
    sim_prints_free(&starting);
}
END_TEST

/* five students hold one answer, the sixth another: the shared answer is common and pairs no one */
START_TEST(what_most_hold_pairs_no_one) {
    sim_prints files[6], none = {0};
    for (int i = 0; i < 5; i++) ck_assert_int_eq(sim_fingerprint(original, &files[i]), 0);
    ck_assert_int_eq(sim_fingerprint("__kernel void other(__global int *a) { a[get_global_id(0)] = 7 * 3 + 1 - 2; }",
                                     &files[5]), 0);
    sim_class c = {.n_students = 6, .n_files = 1, .files = files};
    sim_pair *pairs = NULL;
    int n = sim_compare(&c, &none, 0.2, 5, &pairs); /* 5 of 6 > max(20%, 3) */
    ck_assert_int_eq(n, 0);
    sim_pairs_free(pairs, n);
    n = sim_compare(&c, &none, 1.0, 5, &pairs); /* nothing set aside: the 10 pairs of the five */
    ck_assert_int_eq(n, 10);
    sim_pairs_free(pairs, n);
    for (int i = 0; i < 6; i++) sim_prints_free(&files[i]);
}
END_TEST

/* How much of one file's own code another holds: names and layout aside,
 * what a set-aside file holds not counted. */
START_TEST(share_of_own_code) {
    sim_prints a, b, none = {0};
    ck_assert_int_eq(sim_fingerprint(original, &a), 0);
    ck_assert_int_eq(sim_fingerprint(disguised, &b), 0);
    int own, held;
    sim_share(&a, &b, &none, 1, &own, &held);
    ck_assert_int_gt(own, 10);
    ck_assert_int_eq(held, own);
    sim_share(&a, &b, &b, 1, &own, &held); /* all of it set aside */
    ck_assert_int_eq(own, 0);
    ck_assert_int_eq(held, 0);
    sim_prints other;
    ck_assert_int_eq(sim_fingerprint("__kernel void k(__global int *x) { x[get_global_id(0)] = 7 * 3 + 1 - 2; }", &other), 0);
    sim_share(&a, &other, &none, 1, &own, &held);
    ck_assert_int_gt(own, 10);
    ck_assert_int_eq(held, 0);
    sim_prints_free(&a);
    sim_prints_free(&b);
    sim_prints_free(&other);
}
END_TEST

Suite *similarity_suite(void) {
    Suite *s = suite_create("similarity");
    TCase *tc = tcase_create("similarity");
    tcase_add_test(tc, names_comments_and_layout_count_for_nothing);
    tcase_add_test(tc, pairs_leave_out_the_starting_file_and_the_common);
    tcase_add_test(tc, what_most_hold_pairs_no_one);
    tcase_add_test(tc, share_of_own_code);
    suite_add_tcase(s, tc);
    return s;
}
