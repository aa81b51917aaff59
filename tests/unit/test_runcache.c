/* test_runcache — the cache of run results: keys that tell every part
 * apart, entries kept whole and found again, an engine report that comes
 * back as it went in, and a cache that can be turned off. */
#define _GNU_SOURCE
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "run/runcache.h"
#include "problem/problem.h"
#include "testutil.h"

static char folder[64];

static void use_folder(void) {
    snprintf(folder, sizeof folder, "/tmp/clt-runcache-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(folder));
    setenv("CLTUTOR_RESULT_CACHE", folder, 1);
}

static void drop_folder(void) {
    util_remove_tree(folder);
    unsetenv("CLTUTOR_RESULT_CACHE");
}

/* the key of two string parts */
static void key2(runcache_key *k, const char *a, const char *b) {
    runcache_key_init(k, "test 1");
    runcache_key_str(k, "a", a);
    runcache_key_str(k, "b", b);
    ck_assert_int_eq(runcache_key_done(k), 0);
}

START_TEST(keys_tell_parts_apart) {
    runcache_key x, y;
    key2(&x, "ab", "c");
    key2(&y, "ab", "c");
    ck_assert_str_eq(x.hex, y.hex);
    ck_assert_int_eq((int)strlen(x.hex), 64);
    key2(&y, "a", "bc"); /* the same bytes cut elsewhere */
    ck_assert_str_ne(x.hex, y.hex);
    runcache_key_init(&y, "test 2"); /* another format */
    runcache_key_str(&y, "a", "ab");
    runcache_key_str(&y, "b", "c");
    runcache_key_done(&y);
    ck_assert_str_ne(x.hex, y.hex);
    runcache_key_init(&y, "test 1");
    runcache_key_str(&y, "a", "ab");
    runcache_key_file(&y, "program", "/nonexistent/cltutor");
    ck_assert_int_eq(runcache_key_done(&y), -1); /* a build that cannot be read keys nothing */
}
END_TEST

START_TEST(entries_found_again) {
    use_folder();
    runcache_key k, other;
    key2(&k, "kernel", "size");
    key2(&other, "kernel", "other size");
    ck_assert_ptr_null(runcache_get(&k));
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "figures", "kernel k 1\n");
    ck_assert_int_eq(runcache_put(&k, v), 0);
    cJSON_Delete(v);
    cJSON *got = runcache_get(&k);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(cJSON_GetObjectItem(got, "figures")->valuestring, "kernel k 1\n");
    cJSON_Delete(got);
    ck_assert_ptr_null(runcache_get(&other));
    /* a damaged entry is a miss, not an error */
    char path[256];
    snprintf(path, sizeof path, "%s/%.2s/%s.json", folder, k.hex, k.hex + 2);
    ck_assert_int_eq(util_write_file_atomic(path, "{\"figures\":", 11), 0);
    ck_assert_ptr_null(runcache_get(&k));
    drop_folder();
}
END_TEST

START_TEST(turned_off) {
    setenv("CLTUTOR_RESULT_CACHE", "off", 1);
    char buf[256];
    ck_assert_int_eq(runcache_folder(buf, sizeof buf), -1);
    runcache_key k;
    key2(&k, "kernel", "size");
    cJSON *v = cJSON_CreateObject();
    ck_assert_int_eq(runcache_put(&k, v), -1);
    cJSON_Delete(v);
    ck_assert_ptr_null(runcache_get(&k));
    setenv("CLTUTOR_RESULT_CACHE", "relative/folder", 1); /* only a full path is a folder */
    ck_assert_int_eq(runcache_folder(buf, sizeof buf), -1);
    unsetenv("CLTUTOR_RESULT_CACHE");
}
END_TEST

START_TEST(report_round_trip) {
    engine_report r, back;
    memset(&r, 0, sizeof r);
    r.status = ENG_WRONG;
    snprintf(r.headline, sizeof r.headline, "Wrong result");
    snprintf(r.message, sizeof r.message, "k.cl: 3 of 256 bins differ");
    r.build_log = strdup("k.cl:3:1: warning: unused");
    r.error_line = 3;
    snprintf(r.device.name, sizeof r.device.name, "Oclgrind Simulator");
    snprintf(r.device.driver, sizeof r.device.driver, "21.10");
    snprintf(r.kernel_name, sizeof r.kernel_name, "histogram");
    snprintf(r.size_text, sizeof r.size_text, "1000x16x64");
    r.seed = 18446744073709551557ull; /* past 2^53: kept exactly */
    r.has_output = 1;
    r.verify.n_checked = 256;
    r.verify.n_wrong = 3;
    r.verify.first_wrong = 7;
    snprintf(r.verify.what, sizeof r.verify.what, "bin");
    r.verify.n_entries = 1;
    r.verify.entries[0] = (vr_entry){7, 12, 11, 12, 12, 1};
    r.work.bytes = 4096;
    r.n_kinfo = 1;
    snprintf(r.kinfo[0].name, sizeof r.kinfo[0].name, "histogram");
    r.kinfo[0].local_mem = 1024;
    r.kinfo[0].n_args = 2;
    double samples[] = {1.5, 2.5, 2.0};
    r.samples_ms = malloc(sizeof samples);
    memcpy(r.samples_ms, samples, sizeof samples);
    r.n_samples = 3;
    r.kinfo[0].arg_space[0] = 'g', r.kinfo[0].arg_space[1] = 'l';
    snprintf(r.kinfo[0].arg_name[1], sizeof r.kinfo[0].arg_name[1], "bins");
    cJSON *j = runcache_report_json(&r, "k.cl");
    ck_assert_int_eq(runcache_report_from_json(j, "other.cl", &back), 0);
    ck_assert_int_eq(back.status, ENG_WRONG);
    ck_assert_str_eq(back.message, "other.cl: 3 of 256 bins differ");
    ck_assert_str_eq(back.build_log, "other.cl:3:1: warning: unused"); /* named as the asker names it */
    ck_assert_ptr_null(back.worker_output);
    ck_assert_str_eq(back.device.name, "Oclgrind Simulator");
    ck_assert(back.seed == r.seed);
    ck_assert_int_eq(back.verify.n_wrong, 3);
    ck_assert_int_eq((int)back.verify.entries[0].actual, 11);
    ck_assert_int_eq(back.n_kinfo, 1);
    ck_assert_int_eq((int)back.kinfo[0].local_mem, 1024);
    ck_assert_int_eq(back.kinfo[0].arg_space[1], 'l');
    ck_assert_str_eq(back.kinfo[0].arg_name[1], "bins");
    ck_assert_int_eq(back.n_samples, 3);
    ck_assert(back.timing.median == 2.0);
    engine_report_free(&back);
    /* a field missing: the entry is not used */
    cJSON_DeleteItemFromObject(j, "verify");
    ck_assert_int_eq(runcache_report_from_json(j, "other.cl", &back), -1);
    ck_assert_ptr_null(back.build_log);
    cJSON_Delete(j);
    engine_report_free(&r);
}
END_TEST

START_TEST(golden_answer_recalled_whole) {
    use_folder();
    lesson l;
    test_lesson(&l, "02-atomic", "surf", NULL, NULL, NULL, NULL);
    const problem_ops *ops = problem_find("surf");
    prob_instance *a = test_instance(ops, &l, "700x24x16:ties", 5);
    ck_assert_int_eq(runcache_golden_recall(a), -1); /* nothing kept yet */
    ops->golden(a);
    runcache_golden_keep(a);
    prob_instance *b = test_instance(ops, &l, "700x24x16:ties", 5);
    ck_assert_int_eq(runcache_golden_recall(b), 0);
    size_t n = ops->golden_words(a, NULL, 0);
    ck_assert_uint_eq(n, 1 + 3 * 24);
    uint32_t wa[1 + 3 * 24], wb[1 + 3 * 24];
    ck_assert_uint_eq(ops->golden_words(a, wa, n), n);
    ck_assert_uint_eq(ops->golden_words(b, wb, n), n);
    ck_assert_mem_eq(wa, wb, sizeof wa);
    ck_assert_uint_gt(wa[0], 0); /* the ties input has near ties: the accepted ranges came back too */
    /* the recalled answer judges as the computed one: right passes, one count moved fails */
    verify_report vr;
    memset(&vr, 0, sizeof vr);
    ops->verify(b, wa + 1, 24 * sizeof(uint32_t), &vr);
    ck_assert(vr.ok);
    uint32_t wrong[24];
    memcpy(wrong, wa + 1, sizeof wrong);
    wrong[0] += 1;
    memset(&vr, 0, sizeof vr);
    ops->verify(b, wrong, sizeof wrong, &vr);
    ck_assert(!vr.ok);
    /* another seed or size is another answer */
    prob_instance *c = test_instance(ops, &l, "700x24x16:ties", 6);
    prob_instance *d = test_instance(ops, &l, "701x24x16:ties", 5);
    ck_assert_int_eq(runcache_golden_recall(c), -1);
    ck_assert_int_eq(runcache_golden_recall(d), -1);
    ops->destroy(a), ops->destroy(b), ops->destroy(c), ops->destroy(d);
    drop_folder();
}
END_TEST

Suite *runcache_suite(void) {
    Suite *s = suite_create("runcache");
    TCase *tc = tcase_create("runcache");
    tcase_add_test(tc, keys_tell_parts_apart);
    tcase_add_test(tc, entries_found_again);
    tcase_add_test(tc, turned_off);
    tcase_add_test(tc, report_round_trip);
    tcase_add_test(tc, golden_answer_recalled_whole);
    suite_add_tcase(s, tc);
    return s;
}
