/* test_progress — the learner's progress file: round trip, concurrent
 * writers that lose nothing, and hostile files (garbage, huge, read-only, a
 * folder in its place). */
#define _DEFAULT_SOURCE
#include "course/progress.h"
#include "suites.h"
#include "base/util.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void temp_dir(char *dir, size_t len) {
    snprintf(dir, len, "/tmp/clt-prog-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void put_text(const char *path, const char *text) {
    ck_assert_int_eq(util_write_file_atomic(path, text, strlen(text)), 0);
}

static progress_run a_run(double when, int passed, double ms, const char *device, unsigned long long hash) {
    progress_run r = {.when = when, .origin = FROM_RUN, .passed = passed, .median_ms = ms, .file_hash = hash};
    snprintf(r.status, sizeof r.status, "%s", passed ? "pass" : "wrong");
    snprintf(r.device, sizeof r.device, "%s", device);
    return r;
}

static progress_run a_verdict(progress_verdict v, double ms, const char *device, unsigned long long hash) {
    progress_run r = a_run(0, 1, ms, device, hash);
    r.verdict = v;
    return r;
}

/* A catalog of two chapters, for the tests that ignore unknown ones. */
static catalog two_chapters(lesson *items) {
    memset(items, 0, 2 * sizeof *items);
    snprintf(items[0].id, sizeof items[0].id, "01-serial");
    snprintf(items[1].id, sizeof items[1].id, "02-atomic");
    return (catalog){.items = items, .count = 2};
}

START_TEST(progress_round_trip) {
    char dir[64], path[128], err[1600];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    progress p;
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0); /* missing = empty */
    ck_assert_int_eq(p.count, 0);
    unsigned long long ka = util_hash_text("kernel A");
    progress_run r = a_run(100, 0, 0, "cpu", ka);
    progress_record_run(&p, "02-atomic", &r);
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->state, PROG_FAILING);
    r = a_run(200, 1, 12.5, "cpu", ka);
    progress_record_run(&p, "02-atomic", &r);
    /* a correct run at one size decides nothing: only the verdict passes a chapter */
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->state, PROG_FAILING);
    ck_assert_double_eq(progress_get(&p, "02-atomic", 0)->best_ms, 0);
    r = a_verdict(PV_PASSED, 12.5, "cpu", ka);
    progress_record_verdict(&p, "02-atomic", &r);
    /* the verdict is the run's own, not a run of its own */
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->n_runs, 2);
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->runs[1].verdict, PV_PASSED);
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->state, PROG_PASSED);
    r = a_verdict(PV_PASSED, 10.0, "gpu", ka);
    r.origin = FROM_CHECK;
    progress_record_verdict(&p, "02-atomic", &r); /* check has no run to join: it adds one */
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->n_runs, 3);
    /* the state follows the file: other text is "changed" until checked again */
    ck_assert_int_eq(progress_state_now(progress_get(&p, "02-atomic", 0), ka), PROG_PASSED);
    ck_assert_int_eq(progress_state_now(progress_get(&p, "02-atomic", 0), util_hash_text("B")), PROG_CHANGED);
    r = a_run(500, 0, 0, "cpu", util_hash_text("B"));
    progress_record_run(&p, "02-atomic", &r); /* failing now, passed before */
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->state, PROG_FAILING);
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->ever_passed, 1);
    progress_set_hints_seen(&p, "02-atomic", 2);
    ck_assert_int_eq(progress_save(&p, err, sizeof err), 0);
    progress_free(&p);
    progress q;
    ck_assert_int_eq(progress_load(&q, path, NULL, err, sizeof err), 0);
    progress_chapter *c = progress_get(&q, "02-atomic", 0);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->state, PROG_FAILING);
    ck_assert_double_eq(c->best_ms, 10.0);
    ck_assert_str_eq(c->best_device, "gpu");
    ck_assert_int_eq(c->n_runs, 4);
    ck_assert_int_eq(c->hints_seen, 2);
    ck_assert_int_eq(c->runs[2].origin, FROM_CHECK);
    ck_assert_int_eq(c->runs[2].verdict, PV_PASSED);
    ck_assert(c->runs[3].file_hash == util_hash_text("B"));
    ck_assert_str_eq(q.last, "02-atomic");
    progress_free(&q);
    unlink(path);
    char lock[160];
    snprintf(lock, sizeof lock, "%s.lock", path);
    unlink(lock);
    rmdir(dir);
}
END_TEST

/* One writer: a long-lived one keeps its progress open and saves after each
 * change (the course); a short one loads, changes and saves (a command). */
static void writer(const char *path, const char *chapter, int rounds, int long_lived) {
    char err[1600];
    progress p;
    if (long_lived && progress_load(&p, path, NULL, err, sizeof err) < 0) _exit(2);
    for (int i = 0; i < rounds; i++) {
        if (!long_lived && progress_load(&p, path, NULL, err, sizeof err) < 0) _exit(2);
        progress_run r = a_run(1000 + i, 1, 1 + i, "cpu", (unsigned long long)i + 1);
        progress_record_run(&p, chapter, &r);
        progress_set_hints_seen(&p, chapter, i + 1);
        if (progress_save(&p, err, sizeof err) != 0) _exit(3);
        if (!long_lived) progress_free(&p);
    }
    if (long_lived) progress_free(&p);
    _exit(0);
}

START_TEST(progress_concurrent_writers_lose_nothing) {
    char dir[64], path[128], err[1600];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    enum { ROUNDS = 50 };
    pid_t a = fork();
    if (a == 0) writer(path, "01-serial", ROUNDS, 1);
    pid_t b = fork();
    if (b == 0) writer(path, "02-atomic", ROUNDS, 0);
    int sa, sb;
    waitpid(a, &sa, 0);
    waitpid(b, &sb, 0);
    ck_assert_msg(WIFEXITED(sa) && WEXITSTATUS(sa) == 0, "the long-lived writer failed");
    ck_assert_msg(WIFEXITED(sb) && WEXITSTATUS(sb) == 0, "the short-lived writer failed");
    progress p;
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0);
    const char *ids[] = {"01-serial", "02-atomic"};
    for (int k = 0; k < 2; k++) {
        progress_chapter *c = progress_get(&p, ids[k], 0);
        ck_assert_ptr_nonnull(c);
        ck_assert_int_eq(c->n_runs, ROUNDS);
        ck_assert_int_eq(c->hints_seen, ROUNDS);
        for (int i = 0; i < ROUNDS; i++) ck_assert_double_eq(c->runs[i].median_ms, 1 + i); /* in order, none twice */
    }
    progress_free(&p);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static int count_aside(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".corrupt-") != NULL;
    if (d) closedir(d);
    return n;
}

START_TEST(progress_hostile_files) {
    char dir[64], path[128], err[1600], cmd[160];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    progress p;
    /* garbage is kept aside, never overwritten, and progress starts afresh */
    put_text(path, "{ not json");
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 1);
    ck_assert_ptr_nonnull(strstr(err, ".corrupt-"));
    ck_assert_int_eq(count_aside(dir), 1);
    ck_assert_int_eq(p.count, 0);
    progress_run r = a_run(1, 1, 1, "cpu", 7);
    progress_record_run(&p, "01-serial", &r);
    ck_assert_int_eq(progress_save(&p, err, sizeof err), 0);
    progress_free(&p);
    /* damaged between load and save: set aside again, and this process's view written */
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0);
    put_text(path, "[1, 2");
    progress_record_run(&p, "01-serial", &r);
    ck_assert_int_eq(progress_save(&p, err, sizeof err), 1);
    ck_assert_int_eq(count_aside(dir), 2);
    progress_free(&p);
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0);
    ck_assert_int_eq(progress_get(&p, "01-serial", 0)->n_runs, 2);
    progress_free(&p);
    /* a read-only file is never replaced */
    ck_assert_int_eq(chmod(path, 0444), 0);
    if (access(path, W_OK) != 0) { /* root writes anyway: nothing to test */
        ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0);
        progress_record_run(&p, "01-serial", &r);
        ck_assert_int_eq(progress_save(&p, err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "read-only"));
        ck_assert_ptr_nonnull(strstr(err, "chmod u+w"));
        progress_free(&p);
    }
    chmod(path, 0644);
    /* a folder in its place: nothing is saved, and the message says what to do */
    unlink(path);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not a file"));
    progress_free(&p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(progress_huge_file_is_bounded) {
    char dir[64], path[128], err[1600], cmd[160];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    /* 200,000 chapter keys, and one chapter with 5,000 runs */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fputs("{\"chapters\":{\"02-atomic\":{\"state\":\"failing\",\"runs\":[", f);
    for (int i = 0; i < 5000; i++) fprintf(f, "%s{\"when\":%d,\"passed\":true,\"median_ms\":%d}", i ? "," : "", i, i);
    fputs("]}", f);
    for (int i = 0; i < 200000; i++) fprintf(f, ",\"junk-%d\":{\"state\":\"passed\"}", i);
    fputs("}}", f);
    fclose(f);
    put_text(path, text);
    free(text);
    lesson items[2];
    catalog cat = two_chapters(items);
    progress p;
    ck_assert_int_eq(progress_load(&p, path, &cat, err, sizeof err), 0);
    ck_assert_int_eq(p.count, 1); /* chapters outside the course are ignored */
    progress_chapter *c = progress_get(&p, "02-atomic", 0);
    ck_assert_int_eq(c->n_runs, PROGRESS_MAX_RUNS); /* the newest runs, trimmed to the limit */
    ck_assert_double_eq(c->runs[PROGRESS_MAX_RUNS - 1].median_ms, 4999);
    progress_record_run(&p, "02-atomic", &(progress_run){.when = 1, .passed = 1, .median_ms = 5000});
    ck_assert_int_eq(progress_save(&p, err, sizeof err), 0);
    progress_free(&p);
    /* without a catalog the chapters are bounded too */
    ck_assert_int_eq(progress_load(&p, path, NULL, err, sizeof err), 0);
    ck_assert_int_eq(progress_get(&p, "02-atomic", 0)->n_runs, PROGRESS_MAX_RUNS);
    ck_assert_double_eq(progress_get(&p, "02-atomic", 0)->runs[PROGRESS_MAX_RUNS - 1].median_ms, 5000);
    progress_free(&p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(progress_refresh_sees_other_writers) {
    char dir[64], path[128], err[1600], cmd[160];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    progress ui, other;
    ck_assert_int_eq(progress_load(&ui, path, NULL, err, sizeof err), 0);
    ck_assert_int_eq(progress_refresh(&ui), 0); /* nothing written yet */
    progress_run mine = a_run(1, 1, 5, "cpu", 1), theirs = a_run(2, 0, 0, "cpu", 2);
    progress_record_run(&ui, "01-serial", &mine); /* not saved yet */
    ck_assert_int_eq(progress_load(&other, path, NULL, err, sizeof err), 0);
    progress_record_run(&other, "02-atomic", &theirs);
    ck_assert_int_eq(progress_save(&other, err, sizeof err), 0);
    progress_free(&other);
    ck_assert_int_eq(progress_refresh(&ui), 1);
    ck_assert_ptr_nonnull(progress_get(&ui, "02-atomic", 0));                 /* theirs, read */
    ck_assert_int_eq(progress_get(&ui, "01-serial", 0)->n_runs, 1);            /* mine, kept */
    ck_assert_int_eq(progress_refresh(&ui), 0);                               /* read once */
    ck_assert_int_eq(progress_save(&ui, err, sizeof err), 0);
    ck_assert_int_eq(progress_refresh(&ui), 0);                               /* its own save is not news */
    progress_free(&ui);
    ck_assert_int_eq(progress_load(&other, path, NULL, err, sizeof err), 0);
    ck_assert_int_eq(progress_get(&other, "01-serial", 0)->n_runs, 1);
    ck_assert_int_eq(progress_get(&other, "02-atomic", 0)->n_runs, 1);
    progress_free(&other);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *progress_suite(void) {
    Suite *s = suite_create("progress");
    TCase *t = tcase_create("progress");
    tcase_add_test(t, progress_round_trip);
    tcase_add_test(t, progress_concurrent_writers_lose_nothing);
    tcase_add_test(t, progress_hostile_files);
    tcase_add_test(t, progress_huge_file_is_bounded);
    tcase_add_test(t, progress_refresh_sees_other_writers);
    suite_add_tcase(s, t);
    return s;
}
