/* test_bytes — the byte-histogram problem: sizes, inputs, golden reference, verifier. */
#define _DEFAULT_SOURCE
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem/prob_bytes.h"

static prob_instance *make(const char *spec, uint64_t seed) {
    static lesson l;
    prob_instance *pi = test_instance(&prob_bytes_ops, test_lesson(&l, "07-bank-conflicts", "bytes", NULL, NULL, NULL, NULL), spec, seed);
    return pi;
}

START_TEST(registered_and_sizes) {
    ck_assert_ptr_eq(problem_find("bytes"), &prob_bytes_ops);
    prob_size s;
    char err[256];
    ck_assert_int_eq(problem_parse_size(&prob_bytes_ops, "16M:skewed", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 16L << 20);
    ck_assert_str_eq(s.input, "skewed");
    ck_assert_int_eq(problem_parse_size(&prob_bytes_ops, "1", &s, err, sizeof err), 0);
    ck_assert_str_eq(s.input, "uniform");
    ck_assert_int_ne(problem_parse_size(&prob_bytes_ops, "0", &s, err, sizeof err), 0);
    ck_assert_int_ne(problem_parse_size(&prob_bytes_ops, "2G", &s, err, sizeof err), 0);
    ck_assert_int_ne(problem_parse_size(&prob_bytes_ops, "100:ones", &s, err, sizeof err), 0);
}
END_TEST

/* The golden histogram against a count of its own, for every input kind and odd sizes. */
START_TEST(golden_counts_every_byte_once) {
    static const char *const specs[] = {"1", "15", "17", "1000", "4099:equal", "65537:skewed", "100003"};
    for (size_t t = 0; t < sizeof specs / sizeof specs[0]; t++) {
        prob_instance *pi = make(specs[t], 21);
        uint32_t mine[BYTES_BINS] = {0};
        for (long i = 0; i < pi->size.n; i++) mine[bytes_data(pi)[i]]++;
        ck_assert_int_eq(memcmp(mine, bytes_expected(pi), sizeof mine), 0);
        /* the padding after the data is zeros and is not counted */
        long padded = (pi->size.n + 15) / 16 * 16;
        for (long i = pi->size.n; i < padded; i++) ck_assert_uint_eq(bytes_data(pi)[i], 0);
        prob_bytes_ops.destroy(pi);
    }
}
END_TEST

START_TEST(inputs_have_their_shape) {
    prob_instance *pi = make("5000:equal", 4);
    int bins = 0;
    for (int b = 0; b < BYTES_BINS; b++) bins += bytes_expected(pi)[b] != 0;
    ck_assert_int_eq(bins, 1);
    prob_bytes_ops.destroy(pi);
    pi = make("100000:skewed", 4);
    uint32_t low = 0;
    for (int b = 0; b < 32; b++) low += bytes_expected(pi)[b];
    ck_assert_uint_gt(low, 80000);        /* most bytes are small ... */
    ck_assert_uint_gt(bytes_expected(pi)[100], 0); /* ... with a long tail */
    prob_bytes_ops.destroy(pi);
    pi = make("256000", 4);
    for (int b = 0; b < BYTES_BINS; b++) {
        ck_assert_uint_gt(bytes_expected(pi)[b], 800);
        ck_assert_uint_lt(bytes_expected(pi)[b], 1200);
    }
    prob_bytes_ops.destroy(pi);
}
END_TEST

START_TEST(verify_reports_wrong_bins) {
    prob_instance *pi = make("1000", 1);
    uint32_t out[BYTES_BINS];
    memcpy(out, bytes_expected(pi), sizeof out);
    verify_report vr;
    prob_bytes_ops.verify(pi, out, sizeof out, &vr);
    ck_assert(vr.ok);
    out[17] += 3;
    out[200] = 0;
    uint32_t lost = bytes_expected(pi)[200];
    prob_bytes_ops.verify(pi, out, sizeof out, &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.first_wrong, 17);
    ck_assert_int_eq(vr.n_wrong, lost ? 2 : 1);
    ck_assert_int_eq(vr.entries[0].index, 17);
    ck_assert_int_eq(vr.entries[0].actual - vr.entries[0].expected, 3);
    ck_assert_int_eq(vr.expected_total, 1000);
    prob_bytes_ops.verify(pi, out, sizeof out - 4, &vr);
    ck_assert(!vr.ok);
    prob_bytes_ops.destroy(pi);
}
END_TEST

START_TEST(verify_recognises_counted_padding) {
    prob_instance *pi = make("1001", 1);   /* padded to 1008: 7 zeros after the data */
    uint32_t out[BYTES_BINS];
    memcpy(out, bytes_expected(pi), sizeof out);
    out[0] += 7;
    verify_report vr;
    prob_bytes_ops.verify(pi, out, sizeof out, &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.first_wrong, 0);
    ck_assert_msg(strstr(vr.summary, "padding") != NULL, "%s", vr.summary);
    out[0] -= 1;  /* six too many is something else */
    prob_bytes_ops.verify(pi, out, sizeof out, &vr);
    ck_assert_ptr_null(strstr(vr.summary, "padding"));
    prob_bytes_ops.destroy(pi);
}
END_TEST

Suite *bytes_suite(void) {
    Suite *s = suite_create("bytes");
    TCase *tc = tcase_create("problem");
    tcase_add_test(tc, registered_and_sizes);
    tcase_add_test(tc, golden_counts_every_byte_once);
    tcase_add_test(tc, inputs_have_their_shape);
    tcase_add_test(tc, verify_reports_wrong_bins);
    tcase_add_test(tc, verify_recognises_counted_padding);
    suite_add_tcase(s, tc);
    return s;
}
