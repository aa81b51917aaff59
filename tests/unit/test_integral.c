/* test_integral — the integral-image problem: sizes, inputs, golden reference, verifier and its hints. */
#define _DEFAULT_SOURCE
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem/prob_integral.h"

static prob_instance *make(const char *spec, uint64_t seed) {
    static lesson l;
    prob_instance *pi = test_instance(&prob_integral_ops, test_lesson(&l, "09-integral-image", "integral", "local_size", "256", NULL, NULL), spec, seed);
    ck_assert_ptr_nonnull(integral_expected(pi));
    return pi;
}

static uint32_t *copy_expected(const prob_instance *pi) {
    size_t bytes = prob_integral_ops.output_bytes(pi);
    uint32_t *c = malloc(bytes);
    memcpy(c, integral_expected(pi), bytes);
    return c;
}

START_TEST(registered_and_sizes) {
    ck_assert_ptr_eq(problem_find("integral"), &prob_integral_ops);
    prob_size s;
    char err[256];
    ck_assert_int_eq(problem_parse_size(&prob_integral_ops, "17x5", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 17);
    ck_assert_int_eq(s.m, 5);
    ck_assert_str_eq(s.input, "random");
    ck_assert_int_eq(problem_parse_size(&prob_integral_ops, "8192x8192:white", &s, err, sizeof err), 0);
    ck_assert_int_eq(problem_parse_size(&prob_integral_ops, "1x16384:gradient", &s, err, sizeof err), 0);
    static const char *const bad[] = {"17", "0x5", "5x0", "16385x1", "8193x8192", "axb", "17x5:noise", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(problem_parse_size(&prob_integral_ops, bad[i], &s, err, sizeof err) != 0, "%s", bad[i]);
    char buf[64];
    problem_parse_size(&prob_integral_ops, "1000x999:white", &s, err, sizeof err);
    prob_integral_ops.format_size(&s, buf, sizeof buf);
    ck_assert_str_eq(buf, "1000x999:white");
}
END_TEST

/* Every pixel of a small image against the definition: a sum over the rectangle. */
START_TEST(golden_matches_the_definition) {
    static const char *const specs[] = {"1x1", "17x5", "5x17", "33x31:gradient", "40x3:white"};
    for (size_t t = 0; t < sizeof specs / sizeof specs[0]; t++) {
        prob_instance *pi = make(specs[t], 9);
        long w = pi->size.n, h = pi->size.m;
        const uint8_t *img = integral_image(pi);
        for (long y = 0; y < h; y++)
            for (long x = 0; x < w; x++) {
                uint32_t s = 0;
                for (long yy = 0; yy <= y; yy++)
                    for (long xx = 0; xx <= x; xx++) s += img[yy * w + xx];
                ck_assert_msg(integral_expected(pi)[y * w + x] == s, "%s (%ld, %ld)", specs[t], x, y);
            }
        prob_integral_ops.destroy(pi);
    }
}
END_TEST

START_TEST(inputs_have_their_shape) {
    prob_instance *pi = make("300x200:white", 1);
    for (long i = 0; i < 300 * 200; i++) ck_assert_uint_eq(integral_image(pi)[i], 255);
    ck_assert_uint_eq(integral_expected(pi)[299 + 199 * 300], 255u * 300 * 200);
    prob_integral_ops.destroy(pi);
    pi = make("300x200:gradient", 1);
    ck_assert_uint_eq(integral_image(pi)[0], 0);
    ck_assert_uint_eq(integral_image(pi)[5 + 7 * 300], 19);
    ck_assert_uint_eq(integral_image(pi)[250 + 10 * 300], (250 + 20) & 255);
    prob_integral_ops.destroy(pi);
    prob_instance *a = make("64x64", 4), *b = make("64x64", 4), *c = make("64x64", 5);
    ck_assert_int_eq(memcmp(integral_image(a), integral_image(b), 64 * 64), 0);
    ck_assert_int_ne(memcmp(integral_image(a), integral_image(c), 64 * 64), 0);
    prob_integral_ops.destroy(a);
    prob_integral_ops.destroy(b);
    prob_integral_ops.destroy(c);
}
END_TEST

/* An all-255 image past 2^32: the answer is 255 (x+1)(y+1) modulo 2^32. */
START_TEST(golden_wraps_modulo_2_32) {
    prob_instance *pi = make("5000x4000:white", 1);
    const uint32_t *ex = integral_expected(pi);
    static const long pts[][2] = {{0, 0}, {4999, 0}, {0, 3999}, {4999, 3999}, {1234, 2345}, {4000, 3500}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        unsigned long long x = (unsigned long long)pts[i][0], y = (unsigned long long)pts[i][1];
        uint32_t want = (uint32_t)((255ull * (x + 1) * (y + 1)) & 0xffffffffull);
        ck_assert_uint_eq(ex[y * 5000 + x], want);
    }
    ck_assert_uint_ne(ex[4999 + 3999 * 5000], 0);
    ck_assert(255ull * 5000 * 4000 > 0xffffffffull);
    prob_integral_ops.destroy(pi);
}
END_TEST

START_TEST(verify_names_the_first_wrong_pixel) {
    prob_instance *pi = make("17x5", 2);
    verify_report vr;
    prob_integral_ops.verify(pi, integral_expected(pi), prob_integral_ops.output_bytes(pi), &vr);
    ck_assert(vr.ok);
    uint32_t *out = copy_expected(pi);
    out[2 * 17 + 3] += 1;
    out[4 * 17 + 16] = 0;
    prob_integral_ops.verify(pi, out, prob_integral_ops.output_bytes(pi), &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.first_wrong, 2 * 17 + 3);
    ck_assert_int_eq(vr.n_wrong, 2);
    ck_assert_msg(strstr(vr.summary, "(x=3, y=2)") != NULL, "%s", vr.summary);
    ck_assert_int_eq(vr.n_entries, 7);
    ck_assert_int_eq(vr.entries[3].index, 2 * 17 + 3);
    ck_assert(vr.entries[3].wrong);
    ck_assert(!vr.entries[2].wrong);
    prob_integral_ops.verify(pi, out, 16, &vr);
    ck_assert(!vr.ok);
    free(out);
    prob_integral_ops.destroy(pi);
}
END_TEST

START_TEST(verify_explains_common_mistakes) {
    prob_instance *pi = make("1000x600", 3);
    long w = 1000, h = 600;
    const uint8_t *img = integral_image(pi);
    const uint32_t *ex = integral_expected(pi);
    uint32_t *out = copy_expected(pi);
    verify_report vr;
    /* the pixel itself left out (an exclusive scan where an inclusive one is needed) */
    for (long i = 0; i < w * h; i++) out[i] = ex[i] - img[i];
    prob_integral_ops.verify(pi, out, prob_integral_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 0);
    ck_assert_ptr_nonnull(strstr(vr.summary, "inclusive"));
    /* only the row pass: each pixel holds its row's running sum */
    for (long y = 0; y < h; y++) {
        uint32_t s = 0;
        for (long x = 0; x < w; x++) out[y * w + x] = s += img[y * w + x];
    }
    prob_integral_ops.verify(pi, out, prob_integral_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, w);
    ck_assert_msg(strstr(vr.summary, "(x=0, y=1)") && strstr(vr.summary, "only the sum along its row"), "%s",
                  vr.summary);
    /* rows restart at every chunk of 512: the carry is missing */
    memcpy(out, ex, sizeof(uint32_t) * (size_t)(w * h));
    for (long y = 0; y < h; y++)
        for (long x = 512; x < w; x++) out[y * w + x] = ex[y * w + x] - ex[y * w + 511];
    prob_integral_ops.verify(pi, out, prob_integral_ops.output_bytes(pi), &vr);
    ck_assert_int_eq(vr.first_wrong, 512);
    ck_assert_ptr_nonnull(strstr(vr.summary, "carried"));
    free(out);
    prob_integral_ops.destroy(pi);
}
END_TEST

Suite *integral_suite(void) {
    Suite *s = suite_create("integral");
    TCase *tc = tcase_create("problem");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, registered_and_sizes);
    tcase_add_test(tc, golden_matches_the_definition);
    tcase_add_test(tc, inputs_have_their_shape);
    tcase_add_test(tc, golden_wraps_modulo_2_32);
    tcase_add_test(tc, verify_names_the_first_wrong_pixel);
    tcase_add_test(tc, verify_explains_common_mistakes);
    suite_add_tcase(s, tc);
    return s;
}
