/* test_core — unit tests of the small model modules: rng, stats, verify,
 * blob, catalog, progress, build-log rewriting. */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "base/blob.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "run/buildlog.h"
#include "course/progress.h"
#include "base/rng.h"
#include "base/stats.h"
#include "base/util.h"
#include "problem/verify.h"

START_TEST(rng_is_seeded_and_bounded) {
    rng_state a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int same = 1, differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
        same &= x == y;
        differ += x != z;
    }
    ck_assert(same);
    ck_assert_int_gt(differ, 990);
    int hits[7] = {0};
    for (int i = 0; i < 70000; i++) {
        uint32_t v = rng_below(&a, 7);
        ck_assert_uint_lt(v, 7);
        hits[v]++;
    }
    for (int i = 0; i < 7; i++) ck_assert(hits[i] > 9000 && hits[i] < 11000);
    for (int i = 0; i < 1000; i++) {
        float u = rng_unit(&a);
        ck_assert(u >= 0.0f && u < 1.0f);
    }
}
END_TEST

START_TEST(stats_median_and_rse) {
    double s[] = {5, 1, 3, 2, 4};
    stats_summary st = stats_summarise(s, 5);
    ck_assert_double_eq(st.median, 3);
    ck_assert_double_eq(st.min, 1);
    ck_assert_double_eq(st.max, 5);
    ck_assert_double_eq_tol(st.mean, 3, 1e-12);
    ck_assert_double_eq_tol(st.stddev, 1.5811388, 1e-6);
    ck_assert_double_eq_tol(st.rse, 1.5811388 / sqrt(5.0) / 3, 1e-6);
    double even[] = {4, 1, 3, 2};
    ck_assert_double_eq(stats_summarise(even, 4).median, 2.5);
    double flat[] = {2, 2, 2};
    ck_assert_double_eq(stats_summarise(flat, 3).rse, 0);
    ck_assert_int_eq(stats_summarise(NULL, 0).n, 0);
}
END_TEST

START_TEST(verify_exact_lists_differences) {
    uint32_t exp[6] = {1, 2, 3, 4, 5, 6}, act[6] = {1, 2, 0, 4, 7, 6};
    verify_report vr;
    verify_init(&vr, "bin", 6);
    verify_exact_u32(&vr, exp, act, 6);
    verify_summarise(&vr, "sum of all bins");
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.n_wrong, 2);
    ck_assert_int_eq(vr.first_wrong, 2);
    ck_assert_int_eq(vr.n_entries, 2);
    ck_assert_int_eq(vr.entries[1].index, 4);
    ck_assert_int_eq(vr.entries[1].expected, 5);
    ck_assert_int_eq(vr.entries[1].actual, 7);
    ck_assert_int_eq(vr.expected_total, 21);
    ck_assert_int_eq(vr.actual_total, 20);
    ck_assert_ptr_nonnull(strstr(vr.summary, "2 of 6 bins differ"));
    ck_assert_ptr_nonnull(strstr(vr.summary, "20 instead of 21"));
    ck_assert_int_eq(vr.counts, 1);
    verify_init(&vr, "bin", 6);
    verify_exact_u32(&vr, exp, exp, 6);
    verify_summarise(&vr, NULL);
    ck_assert(vr.ok);
    /* one entry: no "All 1 bin match", no "1 of 1 bin differ" */
    verify_init(&vr, "bin", 1);
    verify_exact_u32(&vr, exp, exp, 1);
    verify_summarise(&vr, NULL);
    ck_assert_str_eq(vr.summary, "The one bin matches the golden reference.");
    verify_init(&vr, "bin", 1);
    verify_exact_u32(&vr, exp, act + 2, 1);
    verify_summarise(&vr, NULL);
    ck_assert_str_eq(vr.summary, "The one bin differs (bin 0).");
    /* one wrong among several: "differs" */
    verify_init(&vr, "bin", 3);
    verify_exact_u32(&vr, exp, act, 3);
    verify_summarise(&vr, NULL);
    ck_assert_msg(strstr(vr.summary, "1 of 3 bins differs (the first is bin"), "%s", vr.summary);
}
END_TEST

START_TEST(verify_first_wrong_shows_neighbours) {
    uint32_t exp[10], act[10];
    for (int i = 0; i < 10; i++) exp[i] = act[i] = (uint32_t)i * 3;
    act[6] = 99;
    act[8] = 98;
    verify_report vr;
    verify_init(&vr, "element", 10);
    verify_first_wrong_u32(&vr, exp, act, 10, 2);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.first_wrong, 6);
    ck_assert_int_eq(vr.n_wrong, 2);
    ck_assert_int_eq(vr.n_entries, 5); /* 4..8 */
    ck_assert_int_eq(vr.entries[0].index, 4);
    ck_assert(!vr.entries[0].wrong);
    ck_assert(vr.entries[2].wrong);
    ck_assert(vr.entries[4].wrong);
    ck_assert_int_eq(vr.counts, 0); /* a scan's sum is no count of anything */
}
END_TEST

START_TEST(blob_round_trip_and_truncation) {
    char path[] = "/tmp/clt-blob-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    uint32_t t1 = BLOB_TAG('A', 'A', 'A', 'A'), t2 = BLOB_TAG('B', 'B', 'B', 'B');
    double d[3] = {1.5, 2.5, 3.5};
    ck_assert_int_eq(blob_put_str(fd, t1, "hello"), 0);
    ck_assert_int_eq(blob_put(fd, t2, d, sizeof d), 0);
    ck_assert_int_eq(blob_put_str(fd, t1, "again"), 0);
    off_t size = lseek(fd, 0, SEEK_END);
    char *buf = malloc((size_t)size);
    ck_assert_int_eq(pread(fd, buf, (size_t)size, 0), size);
    close(fd);
    char *s = blob_get_str(buf, (size_t)size, t1);
    ck_assert_str_eq(s, "hello");
    free(s);
    size_t len;
    const double *got = blob_get(buf, (size_t)size, t2, 0, &len);
    ck_assert_uint_eq(len, sizeof d);
    ck_assert_double_eq(got[2], 3.5);
    ck_assert_ptr_nonnull(blob_get(buf, (size_t)size, t1, 1, NULL));
    ck_assert_ptr_null(blob_get(buf, (size_t)size, t1, 2, NULL));
    /* a worker that died mid-record: the torn record is not returned */
    ck_assert_ptr_null(blob_get(buf, (size_t)size - 4, t1, 1, NULL));
    ck_assert_ptr_nonnull(blob_get(buf, (size_t)size - 4, t2, 0, NULL));
    free(buf);
}
END_TEST

START_TEST(catalog_finds_by_number_and_name) {
    catalog c;
    char err[512];
    ck_assert_msg(catalog_load(&c, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(c.count, 2);
    const lesson *a = catalog_find(&c, "2");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->id, "02-atomic");
    ck_assert_ptr_eq(catalog_find(&c, "02"), a);
    ck_assert_ptr_eq(catalog_find(&c, "02-atomic"), a);
    ck_assert_ptr_eq(catalog_find(&c, "atomic"), a);
    ck_assert_ptr_eq(catalog_find(&c, "lessons/02-atomic/"), a);
    ck_assert_ptr_null(catalog_find(&c, "99"));
    ck_assert_ptr_null(catalog_find(&c, "nope"));
    ck_assert_ptr_null(catalog_find(&c, ""));
    ck_assert_str_eq(a->problem, "surf");
    ck_assert_int_ge(a->hints.n, 3);
    ck_assert_ptr_nonnull(a->hints.en[0]);
    ck_assert_ptr_nonnull(a->hints.zh[0]);
    ck_assert_str_eq(lesson_param_get(a, "dispatch", "x"), "per_descriptor");
    ck_assert_int_eq(lesson_param_long(a, "local_size", 0), 64);
    ck_assert_int_eq(lesson_param_long(a, "no_such_key", 7), 7);
    catalog_free(&c);
}
END_TEST

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(catalog_reports_file_and_line) {
    char root[] = "/tmp/clt-cat-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char dir[256], ini[300], err[512];
    snprintf(dir, sizeof dir, "%s/01-broken", root);
    ck_assert_int_eq(util_mkdirs(dir), 0);
    snprintf(ini, sizeof ini, "%s/lesson.ini", dir);
    write_text(ini, "[lesson]\ntitle = x\nproblem = surf\n[oops]\nkey = 1\n");
    catalog c;
    ck_assert_int_eq(catalog_load(&c, root, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "01-broken/lesson.ini:5") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "[oops]") != NULL, "%s", err);
    write_text(ini, "[lesson]\ntitle = x\nproblem = surf\nexercise = a.cl\nkernels = k\n");
    ck_assert_int_eq(catalog_load(&c, root, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "default_size") != NULL, "%s", err);
    write_text(ini, "[lesson]\ntitle = x\nproblem = surf\nexercise = a.cl\nkernels = k\ndefault_size = 10\n"
                    "[bug.b]\nfile = bug.cl\n");
    ck_assert_int_eq(catalog_load(&c, root, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "[bug.b]") != NULL, "%s", err);
    write_text(ini, "[lesson]\ntitle = x\nproblem = surf\nexercise = a.cl\nkernels = k\ndefault_size = 10\n");
    ck_assert_msg(catalog_load(&c, root, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.count, 1);
    ck_assert_str_eq(c.items[0].check_sizes[0], "10"); /* defaults to default_size */
    catalog_free(&c);
    /* a broken chapter beside a good one is skipped, and said so */
    char dir2[256], ini2[300];
    snprintf(dir2, sizeof dir2, "%s/02-half-written", root);
    ck_assert_int_eq(util_mkdirs(dir2), 0);
    snprintf(ini2, sizeof ini2, "%s/lesson.ini", dir2);
    ck_assert_msg(catalog_load(&c, root, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.count, 1);
    ck_assert_int_eq(c.n_skipped, 1);
    ck_assert_ptr_nonnull(strstr(c.skipped, "02-half-written/lesson.ini"));
    catalog_free(&c);
    rmdir(dir2);
    unlink(ini);
    rmdir(dir);
    rmdir(root);
}
END_TEST

START_TEST(build_log_names_the_learners_file) {
    int line, col;
    char *out = buildlog_rewrite(
        "error: /root/.cache/pocl/kcache/tempfile_4nDZSq.cl:4:29: expected ';' at end of declaration\n"
        "Device pthread-x failed to build the program\n"
        "1 error generated.\n",
        "exercises/02-atomic/histogram.cl", &line, &col);
    ck_assert_str_eq(out, "exercises/02-atomic/histogram.cl:4:29: error: expected ';' at end of declaration");
    ck_assert_int_eq(line, 4);
    ck_assert_int_eq(col, 29);
    free(out);
    /* every severity PoCL puts first, not only errors: no worker's scratch folder is shown */
    out = buildlog_rewrite("warning: /tmp/cltutor-worker-bgSz5K/cache/tempfile_JIDKjA.cl:25:55: using the result of an "
                           "assignment as a condition\nnote: /tmp/cltutor-worker-bgSz5K/cache/tempfile_JIDKjA.cl:25:55: "
                           "place parentheses\n",
                           "exercises/06-constant/histogram.cl", &line, &col);
    ck_assert_str_eq(out, "exercises/06-constant/histogram.cl:25:55: warning: using the result of an assignment as a "
                          "condition\nexercises/06-constant/histogram.cl:25:55: note: place parentheses");
    ck_assert_int_eq(line, 0);
    free(out);
    /* a builtin spelled in the runtime's own header: that header is not named */
    out = buildlog_rewrite("warning: /tmp/cltutor-worker-X/cache/tempfile_Y.cl:83:22 <Spelling=/lib/x86_64-linux-gnu/"
                           "../../share/pocl/include/_builtin_renames.h:839:27>: AVX vector return\n",
                           "exercises/09-integral-image/integral.cl", &line, &col);
    ck_assert_str_eq(out, "exercises/09-integral-image/integral.cl:83:22: warning: AVX vector return");
    free(out);
    out = buildlog_rewrite("<kernel>:12:3: warning: unused\n<kernel>:15:7: error: bad thing\n", "k.cl",
                                   &line, &col);
    ck_assert_str_eq(out, "k.cl:12:3: warning: unused\nk.cl:15:7: error: bad thing");
    ck_assert_int_eq(line, 15);
    ck_assert_int_eq(col, 7);
    free(out);
}
END_TEST

START_TEST(parse_count_suffixes) {
    long v;
    ck_assert_int_eq(util_parse_count("16M", &v), 0);
    ck_assert_int_eq(v, 16L << 20);
    ck_assert_int_eq(util_parse_count("3k", &v), 0);
    ck_assert_int_eq(v, 3072);
    ck_assert_int_eq(util_parse_count("12", &v), 0);
    ck_assert_int_eq(v, 12);
    ck_assert_int_eq(util_parse_count("-1", &v), -1);
    ck_assert_int_eq(util_parse_count("1.5M", &v), -1);
    ck_assert_int_eq(util_parse_count("", &v), -1);
    ck_assert_int_eq(util_parse_count("99999999999999999999", &v), -1);
}
END_TEST

/* A path that does not fit is refused whole; text for people is cut between characters. */
START_TEST(paths_refused_and_text_cut_whole) {
    char small[8];
    ck_assert_int_eq(util_pathf(small, sizeof small, "%s/%s", "ab", "cd"), 0);
    ck_assert_str_eq(small, "ab/cd");
    ck_assert_int_eq(util_pathf(small, sizeof small, "%s/%s", "abcd", "efgh"), -1);
    ck_assert_str_eq(small, "");
    ck_assert_int_eq(util_copy_text(small, sizeof small, "abc"), 0);
    ck_assert_str_eq(small, "abc");
    ck_assert_int_eq(util_copy_text(small, sizeof small, "ab直方图"), 1); /* 2 + 3 + 3 bytes: the second character does not fit */
    ck_assert_str_eq(small, "ab直");
    ck_assert_int_eq(util_textf(small, sizeof small, "%s%s", "ab", "直方"), 1); /* 8 bytes: 方 would be cut */
    ck_assert_str_eq(small, "ab直");
    ck_assert_int_eq(util_textf(small, sizeof small, "x%dy", 42), 0);
    ck_assert_str_eq(small, "x42y");
}
END_TEST

/* A link from one folder to a file in another: up to the folders they share, then down. */
START_TEST(relative_paths_between_folders) {
    char dir[] = "/tmp/relpathXXXXXX", a[256], b[256], got[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/class/shards/reports", dir);
    snprintf(b, sizeof b, "%s/class/out", dir);
    ck_assert_int_eq(util_mkdirs(a), 0);
    ck_assert_int_eq(util_mkdirs(b), 0);
    char to[300];
    snprintf(to, sizeof to, "%s/ada.html", a);
    ck_assert_int_eq(util_relative_path(b, to, got, sizeof got), 0);
    ck_assert_str_eq(got, "../shards/reports/ada.html");
    ck_assert_int_eq(util_relative_path(a, to, got, sizeof got), 0);
    ck_assert_str_eq(got, "ada.html");
    snprintf(to, sizeof to, "%s/class/top.html", dir);
    ck_assert_int_eq(util_relative_path(a, to, got, sizeof got), 0);
    ck_assert_str_eq(got, "../../top.html");
    snprintf(to, sizeof to, "%s/class/out/../shards/reports/bob.html", dir); /* resolved */
    ck_assert_int_eq(util_relative_path(b, to, got, sizeof got), 0);
    ck_assert_str_eq(got, "../shards/reports/bob.html");
    ck_assert_int_eq(util_relative_path(b, "/no/such/folder/c.html", got, sizeof got), 0); /* as given */
    ck_assert_str_eq(got, "/no/such/folder/c.html");
    char small[8];
    snprintf(to, sizeof to, "%s/ada.html", a);
    ck_assert_int_eq(util_relative_path(b, to, small, sizeof small), -1);
    util_remove_tree(dir);
}
END_TEST

/* Writing "a file" that is a pipe writes into the pipe: the pipe stays (as
 * /dev/null must, when a root grader is told -o /dev/null). */
START_TEST(atomic_write_keeps_a_device_or_pipe) {
    char dir[] = "/tmp/atomicXXXXXX", fifo[64], file[64], got[16] = "";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(rd, 0);
    ck_assert_int_eq(util_write_file_atomic(fifo, "grades\n", 7), 0);
    struct stat st;
    ck_assert_int_eq(stat(fifo, &st), 0);
    ck_assert_msg(S_ISFIFO(st.st_mode), "the pipe was replaced by a file");
    ck_assert_int_eq(read(rd, got, sizeof got - 1), 7);
    ck_assert_str_eq(got, "grades\n");
    close(rd);
    ck_assert_int_eq(util_write_file_atomic(dir, "x", 1), -1); /* a folder: refused, not replaced */
    ck_assert(util_is_dir(dir));
    snprintf(file, sizeof file, "%s/plain", dir);
    ck_assert_int_eq(util_write_file_atomic(file, "ab", 2), 0);
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert(S_ISREG(st.st_mode) && st.st_size == 2);
    util_remove_tree(dir);
}
END_TEST

Suite *core_suite(void) {
    Suite *s = suite_create("core");
    TCase *t = tcase_create("core");
    tcase_add_test(t, rng_is_seeded_and_bounded);
    tcase_add_test(t, stats_median_and_rse);
    tcase_add_test(t, verify_exact_lists_differences);
    tcase_add_test(t, verify_first_wrong_shows_neighbours);
    tcase_add_test(t, blob_round_trip_and_truncation);
    tcase_add_test(t, catalog_finds_by_number_and_name);
    tcase_add_test(t, catalog_reports_file_and_line);
    tcase_add_test(t, build_log_names_the_learners_file);
    tcase_add_test(t, parse_count_suffixes);
    tcase_add_test(t, paths_refused_and_text_cut_whole);
    tcase_add_test(t, relative_paths_between_folders);
    tcase_add_test(t, atomic_write_keeps_a_device_or_pipe);
    suite_add_tcase(s, t);
    return s;
}
