/* test_surf — the SURF problem: sizes, generator, golden reference, verifier. */
#define _DEFAULT_SOURCE
#include "suites.h"
#include "testutil.h"

#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "problem/prob_surf.h"

static prob_instance *make(const char *spec, uint64_t seed) {
    static lesson l;
    prob_instance *pi = test_instance(&prob_surf_ops, test_lesson(&l, "02-atomic", "surf", NULL, NULL, NULL, NULL), spec, seed);
    return pi;
}

/* Nearest centroid in double precision, and whether the runner-up is a near tie. */
static long nearest(const prob_instance *pi, long d, long *runner_up, int *tie) {
    long c = pi->size.m, f = pi->size.k;
    const float *desc = surf_descriptors(pi) + d * f, *cent = surf_centroids(pi);
    double best = DBL_MAX, second = DBL_MAX;
    long bj = 0, sj = 0;
    for (long j = 0; j < c; j++) {
        double dist = 0;
        for (long k = 0; k < f; k++) {
            double t = (double)desc[k] - cent[j * f + k];
            dist += t * t;
        }
        if (dist < best) { second = best; sj = bj; best = dist; bj = j; }
        else if (dist < second) { second = dist; sj = j; }
    }
    *runner_up = sj;
    *tie = c > 1 && second - best <= 1e-5 * second;
    return bj;
}

START_TEST(sizes_parse_and_reject) {
    prob_size s;
    char err[256];
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "1000", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 1000);
    ck_assert_int_eq(s.m, 256);
    ck_assert_int_eq(s.k, 64);
    ck_assert_str_eq(s.input, "random");
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "64Kx33x8:onebin", &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 65536);
    ck_assert_int_eq(s.m, 33);
    ck_assert_int_eq(s.k, 8);
    ck_assert_str_eq(s.input, "onebin");
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "100x10x6", &s, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "multiple of 4"));
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "0", &s, err, sizeof err), -1);
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "abc", &s, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "abc"));
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "100:weird", &s, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "weird"));
    ck_assert_int_eq(problem_parse_size(&prob_surf_ops, "100x1x4x4", &s, err, sizeof err), -1);
}
END_TEST

START_TEST(generator_is_deterministic) {
    prob_instance *a = make("300x20x16", 7), *b = make("300x20x16", 7), *c = make("300x20x16", 8);
    ck_assert_mem_eq(surf_descriptors(a), surf_descriptors(b), sizeof(float) * 300 * 16);
    ck_assert(memcmp(surf_descriptors(a), surf_descriptors(c), sizeof(float) * 300 * 16) != 0);
    prob_surf_ops.destroy(a);
    prob_surf_ops.destroy(b);
    prob_surf_ops.destroy(c);
}
END_TEST

START_TEST(golden_matches_double_precision) {
    prob_instance *pi = make("2000x64x64", 3);
    uint32_t want[64] = {0};
    int ties = 0;
    for (long d = 0; d < 2000; d++) {
        long ru;
        int tie;
        want[nearest(pi, d, &ru, &tie)]++;
        ties += tie;
    }
    ck_assert_int_eq(ties, 0); /* descriptors are drawn close to their centroid */
    ck_assert_mem_eq(surf_expected(pi), want, sizeof want);
    long sum = 0, used = 0;
    for (int b = 0; b < 64; b++) { sum += want[b]; used += want[b] > 0; }
    ck_assert_int_eq(sum, 2000);
    ck_assert_int_gt(used, 50); /* the votes spread over the bins */
    prob_surf_ops.destroy(pi);
}
END_TEST

START_TEST(onebin_puts_everything_in_one_bin) {
    prob_instance *pi = make("500x32x16:onebin", 5);
    int nonzero = 0;
    for (int b = 0; b < 32; b++) nonzero += surf_expected(pi)[b] != 0;
    ck_assert_int_eq(nonzero, 1);
    prob_surf_ops.destroy(pi);
}
END_TEST

START_TEST(verifier_accepts_correct_and_catches_drops) {
    prob_instance *pi = make("1000x16x16", 11);
    uint32_t h[16];
    memcpy(h, surf_expected(pi), sizeof h);
    verify_report vr;
    prob_surf_ops.verify(pi, h, sizeof h, &vr);
    ck_assert_msg(vr.ok, "%s", vr.summary);
    ck_assert_int_eq(vr.actual_total, 1000);
    /* a lost update */
    h[3]--;
    prob_surf_ops.verify(pi, h, sizeof h, &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.n_wrong, 1);
    ck_assert_int_eq(vr.entries[0].index, 3);
    ck_assert_ptr_nonnull(strstr(vr.summary, "999 instead of 1000"));
    /* a double count */
    h[3] += 2;
    prob_surf_ops.verify(pi, h, sizeof h, &vr);
    ck_assert(!vr.ok);
    ck_assert_ptr_nonnull(strstr(vr.summary, "1001 instead of 1000"));
    /* a vote moved to the wrong bin keeps the sum but not the bins */
    h[3]--;
    h[4]++;
    h[5]--;
    prob_surf_ops.verify(pi, h, sizeof h, &vr);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.n_wrong, 2);
    /* wrong length */
    prob_surf_ops.verify(pi, h, sizeof h - 4, &vr);
    ck_assert(!vr.ok);
    prob_surf_ops.destroy(pi);
}
END_TEST

START_TEST(verifier_accepts_near_ties_either_way) {
    /* half the descriptors lie exactly between two centroids */
    prob_instance *pi = make("2000x32x64:ties", 13);
    uint32_t other_way[32] = {0};
    int ties = 0;
    for (long d = 0; d < 2000; d++) {
        long ru;
        int tie;
        long b = nearest(pi, d, &ru, &tie);
        other_way[tie ? ru : b]++;   /* a kernel that rounds the other way */
        ties += tie;
    }
    ck_assert_int_gt(ties, 500);
    verify_report vr;
    prob_surf_ops.verify(pi, other_way, sizeof other_way, &vr);
    ck_assert_msg(vr.ok, "%s", vr.summary);
    ck_assert_int_gt(vr.near_ties, 500);
    /* but not a descriptor dropped among them */
    for (int b = 0; b < 32; b++)
        if (other_way[b]) { other_way[b]--; break; }
    prob_surf_ops.verify(pi, other_way, sizeof other_way, &vr);
    ck_assert(!vr.ok);
    prob_surf_ops.destroy(pi);
}
END_TEST

START_TEST(work_counts_bytes_and_flops) {
    prob_instance *pi = make("1000x10x8", 1);
    prob_work w = prob_surf_ops.work(pi);
    ck_assert_double_eq(w.flops, 3.0 * 1000 * 10 * 8);
    ck_assert_double_eq(w.bytes, 4.0 * (1000 * 8 + 10 * 8 + 10));
    prob_surf_ops.destroy(pi);
}
END_TEST

Suite *surf_suite(void) {
    Suite *s = suite_create("surf");
    TCase *t = tcase_create("surf");
    tcase_add_test(t, sizes_parse_and_reject);
    tcase_add_test(t, generator_is_deterministic);
    tcase_add_test(t, golden_matches_double_precision);
    tcase_add_test(t, onebin_puts_everything_in_one_bin);
    tcase_add_test(t, verifier_accepts_correct_and_catches_drops);
    tcase_add_test(t, verifier_accepts_near_ties_either_way);
    tcase_add_test(t, work_counts_bytes_and_flops);
    suite_add_tcase(s, t);
    return s;
}
