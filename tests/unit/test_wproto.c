/* test_wproto — the worker protocol: the parent's checks of what a worker
 * hands back (outputs of the timed launches, inputs, duplicated records,
 * kernel times against the run's wall time), the hash, finding the worker,
 * and removing its scratch folder. */
#define _GNU_SOURCE
#include "suites.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "run/worker.h"
#include "run/wproto.h"
#include "run/confine.h"

static const uint32_t first_output[4] = {3, 1, 4, 1};

/* A worker's records as the sandbox hands them back: n timed launches, each
 * with a sample of ms and the hash of `outputs[i]` (the first output when NULL). */
typedef struct {
    int fd;
    sandbox_result sr;
} fake_run;

static void fake_begin(fake_run *f) {
    memset(f, 0, sizeof *f);
    char path[] = "/tmp/clt-wproto-XXXXXX";
    f->fd = mkstemp(path);
    ck_assert_int_ge(f->fd, 0);
    unlink(path);
    f->sr.phase = PHASE_RUN;
    f->sr.phase_s = 1.0;
    blob_put(f->fd, W_OUTPUT, first_output, sizeof first_output);
}

static void fake_launches(fake_run *f, int n, double ms, int differ_at) {
    double *s = calloc((size_t)n, sizeof *s);
    uint64_t *h = calloc((size_t)n, sizeof *h);
    uint32_t other[4] = {3, 1, 4, 2};
    for (int i = 0; i < n; i++) {
        s[i] = ms;
        h[i] = i == differ_at ? util_hash64(other, sizeof other) : util_hash64(first_output, sizeof first_output);
    }
    blob_put(f->fd, W_SAMPLES, s, sizeof *s * (size_t)n);
    blob_put(f->fd, W_HASHES, h, sizeof *h * (size_t)n);
    free(s);
    free(h);
}

static engine_status fake_check_as(fake_run *f, engine_timing timing, char *head, size_t hlen, char *msg,
                                   size_t mlen) {
    int status = ENG_PASS;
    blob_put(f->fd, W_STATUS, &status, sizeof status);
    struct stat st;
    ck_assert_int_eq(fstat(f->fd, &st), 0);
    f->sr.blob_len = (size_t)st.st_size;
    f->sr.blob = malloc(f->sr.blob_len);
    ck_assert_int_eq(pread(f->fd, f->sr.blob, f->sr.blob_len, 0), (ssize_t)f->sr.blob_len);
    close(f->fd);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.max_runs = 1000;
    rq.timing = timing;
    engine_status e = wproto_check_run(&f->sr, sizeof first_output, &rq, head, hlen, msg, mlen);
    sandbox_result_free(&f->sr);
    return e;
}

static engine_status fake_check(fake_run *f, char *head, size_t hlen, char *msg, size_t mlen) {
    return fake_check_as(f, ENGINE_TIMING_FRESH, head, hlen, msg, mlen);
}

/* A series (bench): n launches of a ring of instances, each hashed once after it. */
static void fake_series(fake_run *f, int n, int hashed) {
    double s[64];
    uint64_t h[8];
    for (int i = 0; i < n; i++) s[i] = 1.0;
    for (int i = 0; i < hashed; i++) h[i] = util_hash64(first_output, sizeof first_output);
    blob_put(f->fd, W_SAMPLES, s, sizeof *s * (size_t)n);
    blob_put(f->fd, W_HASHES, h, sizeof *h * (size_t)hashed);
}

START_TEST(a_series_hashes_its_ring_once) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    fake_series(&f, 40, ENGINE_SERIES_RING);
    ck_assert_int_eq(fake_check_as(&f, ENGINE_TIMING_SERIES, head, sizeof head, msg, sizeof msg), ENG_PASS);
    fake_begin(&f); /* more instances than a ring holds */
    fake_series(&f, 40, ENGINE_SERIES_RING + 1);
    ck_assert_int_eq(fake_check_as(&f, ENGINE_TIMING_SERIES, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_str_eq(head, "Results tampered with");
    fake_begin(&f); /* times without any output checked after them */
    fake_series(&f, 40, 0);
    ck_assert_int_eq(fake_check_as(&f, ENGINE_TIMING_SERIES, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    fake_begin(&f); /* a run's launches are each hashed: a ring's count is not enough there */
    fake_series(&f, 40, ENGINE_SERIES_RING);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_ptr_nonnull(strstr(msg, "40 kernel times but 3 output checks"));
}
END_TEST

START_TEST(consistent_launches_pass) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    fake_launches(&f, 40, 2.0, -1);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_PASS);
}
END_TEST

START_TEST(timed_outputs_must_fit_the_launches) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    fake_launches(&f, 4, 2.0, 2); /* each launch had inputs of its own: outputs may differ */
    uint32_t outs[4][4] = {{0}};
    blob_put(f.fd, W_OUTPUTS, outs, sizeof outs);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_PASS);
    fake_begin(&f);
    fake_launches(&f, 4, 2.0, -1);
    blob_put(f.fd, W_OUTPUTS, outs, sizeof outs - 1); /* not 4 outputs of 16 bytes */
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_str_eq(head, "Results tampered with");
    ck_assert_ptr_nonnull(strstr(msg, "63 bytes of timed outputs for 4 launches of 16 bytes"));
}
END_TEST

START_TEST(a_changed_input_is_named) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    fake_launches(&f, 5, 2.0, -1);
    worker_input_change c = {.name = "centroids", .bytes = 4096, .differ = 4, .first = 128};
    blob_put(f.fd, W_INPUT, &c, sizeof c);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_WRONG);
    ck_assert_str_eq(head, "Input overwritten");
    ck_assert_msg(strstr(msg, "wrote into its input 'centroids'") && strstr(msg, "4 of its 4096 bytes") &&
                  strstr(msg, "byte 128"), "%s", msg);
}
END_TEST

START_TEST(a_record_written_twice_is_tampering) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    double tiny[3] = {0.001, 0.001, 0.001};
    blob_put(f.fd, W_SAMPLES, tiny, sizeof tiny); /* planted before the worker's own */
    fake_launches(&f, 3, 2.0, -1);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_str_eq(head, "Results tampered with");
    ck_assert_ptr_nonnull(strstr(msg, "samples twice"));
}
END_TEST

START_TEST(times_must_fit_in_the_run) {
    fake_run f;
    char head[64] = "", msg[768] = "";
    fake_begin(&f);
    fake_launches(&f, 10, 200.0, -1); /* 2 s of kernel time in a run phase of 1 s */
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_str_eq(head, "Timing rejected");
    fake_begin(&f);
    f.sr.phase = PHASE_TIME; /* the worker ended in its timing phase, as a timed run does */
    fake_launches(&f, 10, 200.0, -1);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_str_eq(head, "Timing rejected");
    fake_begin(&f);
    f.sr.phase = PHASE_TIME;
    fake_launches(&f, 4, 200.0, -1); /* 0.8 s in 1 s: fits */
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_PASS);
    fake_begin(&f);
    fake_launches(&f, 3, 0.0, -1); /* a time of zero is no time */
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    fake_begin(&f);
    double s[2] = {1, 1};
    uint64_t h = util_hash64(first_output, sizeof first_output);
    blob_put(f.fd, W_SAMPLES, s, sizeof s); /* a time without an output check */
    blob_put(f.fd, W_HASHES, &h, sizeof h);
    ck_assert_int_eq(fake_check(&f, head, sizeof head, msg, sizeof msg), ENG_RUNTIME);
    ck_assert_ptr_nonnull(strstr(msg, "2 kernel times but 1 output checks"));
}
END_TEST

START_TEST(hash_tells_outputs_apart) {
    char a[1000], b[1000];
    for (int i = 0; i < 1000; i++) a[i] = b[i] = (char)(i * 7);
    ck_assert(util_hash64(a, sizeof a) == util_hash64(b, sizeof b));
    for (int i = 0; i < 1000; i += 97) {
        b[i] ^= 1;
        ck_assert(util_hash64(a, sizeof a) != util_hash64(b, sizeof b));
        b[i] ^= 1;
    }
    ck_assert(util_hash64(a, 999) != util_hash64(a, 1000));
    ck_assert(util_hash64(a, 0) != util_hash64(a, 1));
}
END_TEST

START_TEST(the_worker_is_found_next_to_the_program) {
    char path[4096], err[1024];
    unsetenv(WPROTO_ENV);
    ck_assert_msg(wproto_find_worker(path, sizeof path, err, sizeof err) == 0, "%s", err);
    ck_assert_ptr_nonnull(strstr(path, "/cltutor"));
    setenv(WPROTO_ENV, "/nonexistent/cltutor", 1);
    ck_assert_int_eq(wproto_find_worker(path, sizeof path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/cltutor"));
    unsetenv(WPROTO_ENV);
}
END_TEST

START_TEST(remove_tree_never_follows_a_link) {
    char dir[] = "/tmp/clt-tree-XXXXXX", keep[] = "/tmp/clt-keep-XXXXXX", p[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(mkdtemp(keep));
    snprintf(p, sizeof p, "%s/kept", keep);
    ck_assert_int_eq(util_write_file_atomic(p, "x", 1), 0);
    snprintf(p, sizeof p, "%s/a/b/c", dir);
    ck_assert_int_eq(util_mkdirs(p), 0);
    snprintf(p, sizeof p, "%s/a/b/c/file", dir);
    ck_assert_int_eq(util_write_file_atomic(p, "x", 1), 0);
    snprintf(p, sizeof p, "%s/a/link", dir);
    ck_assert_int_eq(symlink(keep, p), 0);
    ck_assert_int_eq(util_remove_tree(dir), 0);
    ck_assert(!util_is_dir(dir));
    snprintf(p, sizeof p, "%s/kept", keep);
    ck_assert(util_is_file(p));
    ck_assert_int_eq(util_remove_tree(keep), 0);
    ck_assert_int_eq(util_remove_tree(keep), 0); /* already gone */
}
END_TEST

START_TEST(the_grader_says_what_does_not_hold) {
    char buf[1024];
    confine_support all = {.landlock_abi = 6, .private_folder = 1};
    confine_support_warning(&all, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    confine_support none = {.landlock_abi = 0, .private_folder = 0, .why_not = "no mount namespace of its own"};
    confine_support_warning(&none, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "no Landlock") && strstr(buf, "other submissions included") &&
                  strstr(buf, "(no mount namespace of its own)") && strstr(buf, "capped per file, not in total") &&
                  strstr(buf, "What a kernel can reach"), "%s", buf);
    confine_support no_ns = {.landlock_abi = 7, .private_folder = 0};
    confine_support_warning(&no_ns, buf, sizeof buf);
    ck_assert_msg(!strstr(buf, "Landlock") && strstr(buf, "capped per file"), "%s", buf);
    /* on this machine, the probe answers (whatever it finds) and leaves nothing behind */
    confine_support here;
    confine_support_probe(&here);
    ck_assert_int_eq(here.landlock_abi, confine_landlock_abi());
}
END_TEST

Suite *wproto_suite(void) {
    Suite *s = suite_create("wproto");
    TCase *t = tcase_create("wproto");
    tcase_add_test(t, consistent_launches_pass);
    tcase_add_test(t, timed_outputs_must_fit_the_launches);
    tcase_add_test(t, a_series_hashes_its_ring_once);
    tcase_add_test(t, a_changed_input_is_named);
    tcase_add_test(t, a_record_written_twice_is_tampering);
    tcase_add_test(t, times_must_fit_in_the_run);
    tcase_add_test(t, hash_tells_outputs_apart);
    tcase_add_test(t, the_worker_is_found_next_to_the_program);
    tcase_add_test(t, remove_tree_never_follows_a_link);
    tcase_add_test(t, the_grader_says_what_does_not_hold);
    suite_add_tcase(s, t);
    return s;
}
