/* test_limits — unit tests of what bounds a kernel's build log: the worker
 * keeps its head (clh_cap_log) and the parent rewrites it in one pass. */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl/clhost.h"
#include "run/engine.h"
#include "run/buildlog.h"
#include "base/scratch.h"
#include "base/util.h"

/* The test's own CPU seconds: other processes on the machine do not count
 * (a quadratic pass over a million lines would take minutes of it). */
static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A PoCL log of n errors, each as PoCL prints it. */
static char *pocl_log(size_t n, size_t *len) {
    static const char line[] = "error: /root/.cache/pocl/kcache/tempfile_YMigwK.cl:18:5 "
                               "<Spelling=/root/.cache/pocl/kcache/tempfile_YMigwK.cl:2:12>: use of undeclared "
                               "identifier 'x'\n";
    static const char last[] = "Device pthread-x failed to build the program\n";
    size_t ll = sizeof line - 1, tl = sizeof last - 1;
    char *s = malloc(ll * n + tl + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++) memcpy(s + i * ll, line, ll);
    memcpy(s + n * ll, last, tl + 1);
    *len = ll * n + tl;
    return s;
}

START_TEST(a_short_log_is_kept_whole) {
    const char *log = "error: a.cl:1:2: one\nerror: a.cl:3:4: two\n";
    char *out = clh_cap_log(log, strlen(log), CLH_LOG_KEEP_BYTES, CLH_LOG_KEEP_ERRORS);
    ck_assert_str_eq(out, log);
    free(out);
}
END_TEST

START_TEST(a_million_errors_keep_their_head_in_linear_time) {
    size_t len;
    char *log = pocl_log(1u << 20, &len);
    double t0 = seconds();
    char *out = clh_cap_log(log, len, CLH_LOG_KEEP_BYTES, CLH_LOG_KEEP_ERRORS);
    double t1 = seconds();
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_le(strlen(out), CLH_LOG_KEEP_BYTES + 1024);
    ck_assert_msg(!strncmp(out, "The compiler printed 1,048,576 errors (", 39), "%.200s", out);
    ck_assert_ptr_nonnull(strstr(out, "lines); the first 100 are below.\n"));
    ck_assert_ptr_nonnull(strstr(out, "[1,048,476 more errors in 1,048,477 more lines not shown]"));
    int line, col;
    char *shown = buildlog_rewrite(out, "exercises/02-atomic/histogram.cl", &line, &col);
    double t2 = seconds();
    ck_assert_ptr_nonnull(strstr(shown, "The compiler printed 1,048,576 errors"));
    ck_assert_ptr_nonnull(strstr(shown, "\nexercises/02-atomic/histogram.cl:18:5 <Spelling=exercises/02-atomic/"
                                        "histogram.cl:2:12>: error: use of undeclared identifier 'x'\n"));
    ck_assert_ptr_null(strstr(shown, "kcache"));
    ck_assert_int_eq(line, 18);
    ck_assert_int_eq(col, 5);
    /* the parent copes with an uncut log too: in one pass, and cut */
    char *whole = buildlog_rewrite(log, "k.cl", &line, &col);
    double t3 = seconds();
    ck_assert_uint_le(strlen(whole), 2u << 20);
    ck_assert_ptr_nonnull(strstr(whole, "more bytes of the log not shown]"));
    ck_assert_msg(t1 - t0 < 2 && t2 - t1 < 1 && t3 - t2 < 5, "cap %.2fs, rewrite %.2fs, whole %.2fs", t1 - t0,
                  t2 - t1, t3 - t2);
    free(whole);
    free(shown);
    free(out);
    free(log);
}
END_TEST

START_TEST(a_log_of_warnings_or_one_long_line_is_cut_too) {
    char *log = NULL;
    for (int i = 0; i < 5000; i++) util_sappend(&log, "<kernel>:%d:1: warning: unused variable\n", i + 1);
    char *out = clh_cap_log(log, strlen(log), 4096, 100);
    ck_assert_msg(!strncmp(out, "The compiler printed 5,000 lines (", 34), "%.200s", out);
    ck_assert_uint_le(strlen(out), 4096 + 512);
    free(out);
    free(log);
    size_t n = 100000;
    char *one = malloc(n + 1);
    memset(one, 'e', n);
    one[n] = '\0';
    out = clh_cap_log(one, n, 4096, 100);
    ck_assert_uint_le(strlen(out), 4096 + 512);
    ck_assert_ptr_nonnull(strstr(out, " ...\n[95,904 more bytes of that line not shown]"));
    free(out);
    free(one);
}
END_TEST

/* Leaves files behind in the scratch folder; returns 7 when it is $TMPDIR. */
static int leave_things(void *arg, const char *dir) {
    (void)arg;
    const char *tmp = getenv("TMPDIR");
    char path[1200];
    snprintf(path, sizeof path, "%s/a/b", dir);
    util_mkdirs(path);
    snprintf(path, sizeof path, "%s/a/b/file", dir);
    util_write_file_atomic(path, "x", 1);
    chmod(path, 0);
    return tmp && !strcmp(tmp, dir) && strstr(dir, "/cltutor-test-") ? 7 : 1;
}

/* Starts a grandchild that would outlive it, then asks for SIGTERM and waits. */
static int wait_for_term(void *arg, const char *dir) {
    (void)arg;
    char path[1200];
    snprintf(path, sizeof path, "%s/busy", dir);
    util_write_file_atomic(path, "x", 1);
    pid_t parent = getpid();
    if (fork() == 0) { /* a worker: it dies with its parent, also when that was before its prctl */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);
        for (;;) pause();
    }
    kill(getppid(), SIGTERM);
    for (;;) pause();
    return 0;
}

START_TEST(scratch_folder_goes_with_the_run) {
    char err[256], top[] = "/tmp/cltutor-unit-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(top));
    setenv("TMPDIR", top, 1);
    ck_assert_int_eq(scratch_run("cltutor-test", leave_things, NULL, err, sizeof err), 7);
    ck_assert_int_eq(rmdir(top), 0); /* empty: the run's folder is gone */
}
END_TEST

START_TEST(scratch_folder_goes_on_sigterm) {
    char err[256], top[] = "/tmp/cltutor-unit-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(top));
    setenv("TMPDIR", top, 1);
    double t0 = seconds();
    int rc = scratch_run("cltutor-test", wait_for_term, NULL, err, sizeof err);
    ck_assert_int_eq(rc, 128 + SIGTERM);
    ck_assert_msg(seconds() - t0 < 10, "took %.1f s", seconds() - t0);
    /* every process of the run was waited for, its folder is gone */
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(rmdir(top), 0);
}
END_TEST

Suite *limits_suite(void) {
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("build log");
    tcase_add_test(tc, a_short_log_is_kept_whole);
    tcase_add_test(tc, a_million_errors_keep_their_head_in_linear_time);
    tcase_add_test(tc, a_log_of_warnings_or_one_long_line_is_cut_too);
    suite_add_tcase(s, tc);
    TCase *sc = tcase_create("scratch");
    tcase_add_test(sc, scratch_folder_goes_with_the_run);
    tcase_add_test(sc, scratch_folder_goes_on_sigterm);
    suite_add_tcase(s, sc);
    return s;
}
