/* test_scan — the scan problem: sizes, inputs, golden reference, verifier and its hints. */
#define _DEFAULT_SOURCE
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem/prob_scan.h"

static prob_instance *make(const char *spec, uint64_t seed) {
    static lesson l;
    prob_instance *pi = test_instance(&prob_scan_ops, test_lesson(&l, "08-scan", "scan", "local_size", "256", "elements_per_work_item", "2"), spec, seed);
    ck_assert_ptr_nonnull(scan_expected(pi));
    return pi;
}

/* A copy of the expected answer to corrupt. */
static uint32_t *copy_expected(const prob_instance *pi) {
    size_t bytes = prob_scan_ops.output_bytes(pi);
    uint32_t *c = malloc(bytes);
    memcpy(c, scan_expected(pi), bytes);
    return c;
}

START_TEST(registered_and_sizes) {
    ck_assert_ptr_eq(problem_find("scan"), &prob_scan_ops);
    prob_size s;
    char err[256];
    ck_assert_int_eq(problem_parse_size(&prob_scan_ops, "1", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 1);
    ck_assert_str_eq(s.input, "random");
    ck_assert_int_eq(problem_parse_size(&prob_scan_ops, "64M:large", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 1L << 26);
    ck_assert_str_eq(s.input, "large");
    ck_assert_int_ne(problem_parse_size(&prob_scan_ops, "0", &s, err, sizeof err), 0);
    ck_assert_int_ne(problem_parse_size(&prob_scan_ops, "65M", &s, err, sizeof err), 0);
    ck_assert_int_ne(problem_parse_size(&prob_scan_ops, "12x3", &s, err, sizeof err), 0);
    ck_assert_int_ne(problem_parse_size(&prob_scan_ops, "100:sorted", &s, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "ones"));
    lesson l;
    ck_assert_uint_eq(scan_block_size(test_lesson(&l, "08-scan", "scan", "local_size", "256", "elements_per_work_item", "2")),
                      512);
}
END_TEST

START_TEST(inputs_have_their_shape) {
    prob_instance *pi = make("1000:ones", 3);
    for (long i = 0; i < 1000; i++) {
        ck_assert_uint_eq(scan_input(pi)[i], 1);
        ck_assert_uint_eq(scan_expected(pi)[i], (uint32_t)i);
    }
    prob_scan_ops.destroy(pi);
    pi = make("777:zeros", 3);
    for (long i = 0; i < 777; i++) ck_assert_uint_eq(scan_expected(pi)[i], 0);
    prob_scan_ops.destroy(pi);
    pi = make("5000:large", 3);
    for (long i = 0; i < 5000; i++) ck_assert_uint_ge(scan_input(pi)[i], 0x80000000u);
    prob_scan_ops.destroy(pi);
    pi = make("5000", 3);
    int big = 0;
    for (long i = 0; i < 5000; i++) {
        ck_assert_uint_le(scan_input(pi)[i], 255);
        big |= scan_input(pi)[i] > 200;
    }
    ck_assert(big);
    prob_scan_ops.destroy(pi);
    /* the same seed gives the same input, another seed another one */
    prob_instance *a = make("4096", 7), *b = make("4096", 7), *c = make("4096", 8);
    ck_assert_int_eq(memcmp(scan_input(a), scan_input(b), 4096 * 4), 0);
    ck_assert_int_ne(memcmp(scan_input(a), scan_input(c), 4096 * 4), 0);
    prob_scan_ops.destroy(a);
    prob_scan_ops.destroy(b);
    prob_scan_ops.destroy(c);
}
END_TEST

/* The golden reference against a 64-bit running sum reduced modulo 2^32. */
START_TEST(golden_is_exclusive_modulo_2_32) {
    static const char *const specs[] = {"1", "2", "3", "255", "256", "257", "1000", "4095:large", "65537:large",
                                        "1048579", "300000:ones"};
    for (size_t t = 0; t < sizeof specs / sizeof specs[0]; t++) {
        prob_instance *pi = make(specs[t], 11);
        const uint32_t *in = scan_input(pi), *ex = scan_expected(pi);
        unsigned long long sum = 0;
        int wrapped = 0;
        for (long i = 0; i < pi->size.n; i++) {
            ck_assert_msg(ex[i] == (uint32_t)(sum & 0xffffffffull), "%s: element %ld", specs[t], i);
            sum += in[i];
            wrapped |= sum > 0xffffffffull;
        }
        if (strstr(specs[t], "large") && pi->size.n > 2) ck_assert_msg(wrapped, "%s wraps", specs[t]);
        prob_scan_ops.destroy(pi);
    }
}
END_TEST

START_TEST(verify_passes_the_right_answer) {
    prob_instance *pi = make("1000", 1);
    verify_report vr;
    prob_scan_ops.verify(pi, scan_expected(pi), prob_scan_ops.output_bytes(pi), &vr);
    ck_assert(vr.ok);
    ck_assert_int_eq(vr.n_wrong, 0);
    ck_assert_int_eq(vr.first_wrong, -1);
    prob_scan_ops.verify(pi, scan_expected(pi), prob_scan_ops.output_bytes(pi) - 4, &vr);
    ck_assert(!vr.ok);
    prob_scan_ops.destroy(pi);
}
END_TEST

START_TEST(verify_points_at_the_first_wrong_element) {
    prob_instance *pi = make("1000", 1);
    uint32_t *out = copy_expected(pi);
    out[700] += 5;
    out[900] = 0;
    verify_report vr;
    prob_scan_ops.verify(pi, out, prob_scan_ops.output_bytes(pi), &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.first_wrong, 700);
    ck_assert_int_eq(vr.n_wrong, 2);
    /* the first wrong element with three neighbours either side, in order */
    ck_assert_int_eq(vr.n_entries, 7);
    for (int e = 0; e < 7; e++) {
        ck_assert_int_eq(vr.entries[e].index, 697 + e);
        ck_assert_int_eq(vr.entries[e].wrong, e == 3);
        ck_assert_int_eq(vr.entries[e].expected, scan_expected(pi)[697 + e]);
    }
    ck_assert_int_eq(vr.entries[3].actual, (long long)scan_expected(pi)[700] + 5);
    ck_assert_ptr_nonnull(strstr(vr.summary, "element 700"));
    free(out);
    /* at the edges the neighbours stop at the ends */
    out = copy_expected(pi);
    out[0] = 1;
    prob_scan_ops.verify(pi, out, prob_scan_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 0);
    ck_assert_int_eq(vr.n_entries, 4);
    ck_assert_int_eq(vr.entries[0].index, 0);
    free(out);
    prob_scan_ops.destroy(pi);
}
END_TEST

START_TEST(verify_explains_common_mistakes) {
    prob_instance *pi = make("2000", 5);
    const uint32_t *in = scan_input(pi), *ex = scan_expected(pi);
    uint32_t *out = copy_expected(pi);
    verify_report vr;
    /* inclusive instead of exclusive */
    for (long i = 0; i < 2000; i++) out[i] = ex[i] + in[i];
    prob_scan_ops.verify(pi, out, prob_scan_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 0);
    ck_assert_ptr_nonnull(strstr(vr.summary, "inclusive"));
    /* block offsets never added: blocks of 512 restart from 0 */
    for (long i = 0; i < 2000; i++) out[i] = ex[i] - ex[i / 512 * 512];
    prob_scan_ops.verify(pi, out, prob_scan_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 512);
    ck_assert_ptr_nonnull(strstr(vr.summary, "same amount"));
    /* a block scanned wrongly from its first element */
    memcpy(out, ex, 2000 * 4);
    for (long i = 1536; i < 2000; i++) out[i] = ex[i] + (uint32_t)i;
    prob_scan_ops.verify(pi, out, prob_scan_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 1536);
    ck_assert_ptr_nonnull(strstr(vr.summary, "inside the block"));
    ck_assert_ptr_nonnull(strstr(vr.summary, "last block"));
    free(out);
    prob_scan_ops.destroy(pi);
}
END_TEST

Suite *scan_suite(void) {
    Suite *s = suite_create("scan");
    TCase *tc = tcase_create("problem");
    tcase_add_test(tc, registered_and_sizes);
    tcase_add_test(tc, inputs_have_their_shape);
    tcase_add_test(tc, golden_is_exclusive_modulo_2_32);
    tcase_add_test(tc, verify_passes_the_right_answer);
    tcase_add_test(tc, verify_points_at_the_first_wrong_element);
    tcase_add_test(tc, verify_explains_common_mistakes);
    suite_add_tcase(s, tc);
    return s;
}
