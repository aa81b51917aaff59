/* test_engine — real runs through the worker: a correct kernel, a wrong
 * one, a build error, a missing kernel, a crash, an endless loop, device choice. */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course/catalog.h"
#include "run/engine.h"
#include "run/wproto.h"
#include "base/util.h"

#define ARGS "__global const float *descriptors, __global const float *centroids, __global int *histogram, " \
             "int n_descriptors, int n_centroids, int n_features"

static catalog cat;
static const lesson *atomic_lesson;
static char kernel_path[64];

static void setup(void) {
    char err[512];
    ck_assert_msg(catalog_load(&cat, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    atomic_lesson = catalog_find(&cat, "2");
    ck_assert_ptr_nonnull(atomic_lesson);
    snprintf(kernel_path, sizeof kernel_path, "/tmp/clt-kernel-%d.cl", (int)getpid());
}

static void teardown(void) {
    catalog_free(&cat);
    unlink(kernel_path);
}

/* What a run's progress said of the checked launch's answer, and when. */
typedef struct {
    int checked;       /* the last progress's run_progress.checked */
    int timing_told;   /* progress in PHASE_TIME came with the answer */
    int told_untimed;  /* an answer came before PHASE_TIME: never */
    int timed;         /* the timed launches the worker reported */
} told_answer;

static void note_answer(void *user, const run_progress *p) {
    told_answer *t = user;
    if (p->checked && p->phase != PHASE_TIME && p->phase != PHASE_CHECK && p->phase != PHASE_QUEUE) t->told_untimed = 1;
    if (p->phase == PHASE_TIME && p->checked) t->timing_told = 1;
    if (p->phase == PHASE_TIME && p->done > t->timed) t->timed = p->done;
    t->checked = p->checked;
}

static void run_told(const char *src, const char *size, double timeout, const char *device, told_answer *told,
                     engine_report *r) {
    FILE *f = fopen(kernel_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(src, f);
    fclose(f);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = atomic_lesson;
    rq.kernel_path = kernel_path;
    rq.display_path = "mine.cl";
    rq.size_spec = size;
    rq.timeout_s = timeout;
    rq.device_spec = device;
    rq.budget_s = 0.2;
    rq.tell_checked = told != NULL;
    engine_run(&rq, told ? note_answer : NULL, told, NULL, r);
}

static void run_source(const char *src, const char *size, double timeout, const char *device, engine_report *r) {
    run_told(src, size, timeout, device, NULL, r);
}

static const char *const correct_src =
    "__kernel void whatever_name(" ARGS ") {\n"
    "  int d = get_global_id(0); if (d >= n_descriptors) return;\n"
    "  int best_c = 0; float best = FLT_MAX;\n"
    "  for (int c = 0; c < n_centroids; c++) { float s = 0.0f;\n"
    "    for (int k = 0; k < n_features; k++) { float t = descriptors[d*n_features+k] - centroids[c*n_features+k]; s += t*t; }\n"
    "    if (s < best) { best = s; best_c = c; } }\n"
    "  atomic_inc(&histogram[best_c]);\n"
    "}\n";

START_TEST(correct_kernel_passes_with_timing) {
    engine_report r;
    told_answer told = {0};
    run_told(correct_src, "1000x16x16", 10, NULL, &told, &r);
    ck_assert(told.timing_told && told.checked == 1); /* "Correct" while the launches were timed */
    ck_assert(!told.told_untimed);
    ck_assert_int_ge(told.timed, 3);
    ck_assert_msg(r.status == ENG_PASS, "%s: %s", r.headline, r.message);
    ck_assert_int_eq(engine_exit_code(r.status), 0);
    ck_assert(r.has_output && r.verify.ok);
    ck_assert_int_ge(r.n_samples, 3);
    ck_assert(r.timing.median > 0);
    ck_assert(r.serial_ms > 0);
    ck_assert_str_ne(r.device.name, "");
    ck_assert_str_eq(r.size_text, "1000x16x16");
    engine_report_free(&r);
}
END_TEST

START_TEST(wrong_kernel_is_caught) {
    engine_report r;
    told_answer told = {0};
    run_told("__kernel void histogram(" ARGS ") {\n"
               "  int d = get_global_id(0); if (d >= n_descriptors) return;\n"
               "  if (d % 10) atomic_inc(&histogram[d % n_centroids]);\n}\n",
               "1000x16x16", 10, NULL, &told, &r);
    ck_assert(told.timing_told && told.checked == -1); /* "Wrong result" before the run's end */
    ck_assert_int_eq(told.timed, 0);                      /* and its launches are not timed */
    ck_assert_int_eq(r.status, ENG_WRONG);
    ck_assert_int_eq(engine_exit_code(r.status), 1);
    ck_assert(!r.verify.ok);
    ck_assert_int_eq(r.verify.actual_total, 900);
    ck_assert_ptr_nonnull(strstr(r.message, "900 instead of 1000"));
    ck_assert_int_eq(r.n_samples, 0); /* a wrong kernel is not timed */
    ck_assert_ptr_null(r.samples_ms);
    engine_report_free(&r);
}
END_TEST

/* How many compiled programs the folders beneath dir hold. */
static int programs_in(const char *dir) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "find '%s' -name program.bc | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

START_TEST(files_build_ahead_in_one_worker) {
    char root[64], cache[96], a[96], b[96], bad[96], err[512] = "";
    snprintf(root, sizeof root, "/tmp/clt-build-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(cache, sizeof cache, "%s/cache", root);
    snprintf(a, sizeof a, "%s/a.cl", root);
    snprintf(b, sizeof b, "%s/b.cl", root);
    snprintf(bad, sizeof bad, "%s/bad.cl", root);
    char b_src[2048];
    snprintf(b_src, sizeof b_src, "%s// another text, another folder\n", correct_src);
    ck_assert(util_write_file_atomic(a, correct_src, strlen(correct_src)) == 0);
    ck_assert(util_write_file_atomic(b, b_src, strlen(b_src)) == 0);
    const char *broken = "__kernel void histogram(" ARGS ") {\n  int d = get_global_id(0)\n}\n";
    ck_assert(util_write_file_atomic(bad, broken, strlen(broken)) == 0);
    char refused[96], refused_src[2048];
    snprintf(refused, sizeof refused, "%s/refused.cl", root);
    /* refused (## builds names the source check cannot see), though it would compile */
    snprintf(refused_src, sizeof refused_src, "#define CAT(a, b) a##b\n%s", correct_src);
    ck_assert(util_write_file_atomic(refused, refused_src, strlen(refused_src)) == 0);
    wproto_build_item items[] = {{atomic_lesson, a}, {atomic_lesson, b}, {atomic_lesson, bad}, {atomic_lesson, refused}};
    ck_assert_int_eq(wproto_build(items, 4, NULL, cache, 60, 0, NULL, err, sizeof err), 2);
    ck_assert_int_eq(programs_in(cache), 2); /* one each; the broken file none, the refused one not compiled */
    /* the filled folders are left alone; the broken file fails again */
    ck_assert_int_eq(wproto_build(items, 4, NULL, cache, 60, 0, NULL, err, sizeof err), 0);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = atomic_lesson;
    rq.kernel_path = a;
    rq.display_path = "a.cl";
    rq.size_spec = "300x8x8";
    rq.cache_root = cache;
    engine_report r;
    engine_run(&rq, NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, ENG_PASS);
    engine_report_free(&r);
    /* the run found the program built ahead: built again with other options, it would be a second one */
    ck_assert_int_eq(programs_in(cache), 2);
    rq.kernel_path = bad;
    rq.display_path = "bad.cl";
    engine_run(&rq, NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, ENG_BUILD); /* its run says why */
    ck_assert_int_eq(r.error_line, 2);
    engine_report_free(&r);
    util_remove_tree(root);
}
END_TEST

START_TEST(build_error_names_file_line_column) {
    engine_report r;
    run_source("__kernel void histogram(" ARGS ") {\n  int d = get_global_id(0)\n  atomic_inc(&histogram[d]);\n}\n",
               "100x4x4", 10, NULL, &r);
    ck_assert_int_eq(r.status, ENG_BUILD);
    ck_assert_int_eq(engine_exit_code(r.status), 2);
    ck_assert_ptr_nonnull(r.build_log);
    ck_assert_msg(strstr(r.build_log, "mine.cl:2:") != NULL, "%s", r.build_log);
    ck_assert_ptr_null(strstr(r.build_log, "tempfile"));
    ck_assert_int_eq(r.error_line, 2);
    engine_report_free(&r);
}
END_TEST

START_TEST(missing_kernel_lists_what_is_there) {
    engine_report r;
    run_source("__kernel void one(" ARGS ") {}\n__kernel void two(" ARGS ") {}\n", "100x4x4", 10, NULL, &r);
    ck_assert_int_eq(r.status, ENG_BUILD);
    ck_assert_msg(strstr(r.message, "one, two") != NULL, "%s", r.message);
    ck_assert_str_eq(r.headline, "Kernel not found");
    engine_report_free(&r);
}
END_TEST

/* Each kind of device-side failure the worker reports gets its own status
 * and headline: never read off the words of a message. */
START_TEST(failure_kinds_have_their_own_headlines) {
    engine_report r;
    /* five parameters where the chapter passes six: the arguments do not fit */
    run_source("__kernel void histogram(__global const float *descriptors, __global const float *centroids, "
               "__global int *histogram, int n_descriptors, int n_centroids) {}\n", "100x4x4", 10, NULL, &r);
    ck_assert_msg(r.status == ENG_BUILD && !strcmp(r.headline, "Wrong kernel arguments"), "%s: %s", r.headline,
                  r.message);
    engine_report_free(&r);
    /* a chapter whose lesson.ini names one kernel where its problem runs two is the author's error */
    lesson broken = *catalog_find(&cat, "8");
    broken.n_kernels = 1;
    char src[1200];
    snprintf(src, sizeof src, "%s/kernels/08-scan/scan.cl", CLT_TEST_ROOT);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = &broken;
    rq.kernel_path = rq.display_path = src;
    rq.size_spec = "1000";
    rq.budget_s = 0;
    engine_run(&rq, NULL, NULL, NULL, &r);
    ck_assert_msg(r.status == ENG_USAGE && !strcmp(r.headline, "Chapter error") && strstr(r.message, "not your kernel"),
                  "%s: %s", r.headline, r.message);
    engine_report_free(&r);
    /* the whole table, and how a failed launch's code is read */
    static const struct {
        prob_failure f;
        engine_status st;
        const char *head;
    } want[] = {{PF_KERNEL_MISSING, ENG_BUILD, "Kernel not found"}, {PF_ARGUMENTS, ENG_BUILD, "Wrong kernel arguments"},
                {PF_KERNEL_ANSWER, ENG_BUILD, "Wrong answer from a helper kernel"},
                {PF_AUTHOR, ENG_USAGE, "Chapter error"},   {PF_FAULT, ENG_CRASH, "Crashed"},
                {PF_DEVICE, ENG_RUNTIME, "OpenCL error"},  {PF_MEMORY, ENG_RUNTIME, "Out of memory"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        engine_status st;
        ck_assert_str_eq(engine_failure_outcome(want[i].f, &st), want[i].head);
        ck_assert_int_eq(st, want[i].st);
    }
    ck_assert_int_eq(prob_failure_of_launch(CL_OUT_OF_RESOURCES), PF_FAULT); /* a fault during setup too */
    ck_assert_int_eq(prob_failure_of_launch(-9999), PF_FAULT);              /* NVIDIA's illegal address */
    ck_assert_int_eq(prob_failure_of_launch(CL_INVALID_WORK_GROUP_SIZE), PF_DEVICE);
    ck_assert_str_eq(prob_failure_name(PF_AUTHOR), "author");
    /* a runtime that dies of memory says so in its own words; other deaths are not memory */
    ck_assert(engine_output_says_out_of_memory("terminate called after throwing an instance of 'std::bad_alloc'"));
    ck_assert(engine_output_says_out_of_memory("LLVM ERROR: out of memory\nAllocation failed"));
    ck_assert(!engine_output_says_out_of_memory("Segmentation fault"));
    ck_assert(!engine_output_says_out_of_memory(NULL));
}
END_TEST

START_TEST(out_of_bounds_crash_is_contained) {
    engine_report r;
    run_source("__kernel void histogram(" ARGS ") {\n  int d = get_global_id(0);\n"
               "  atomic_inc(&histogram[d * 100000000]);\n}\n",
               "16384x16x4", 10, NULL, &r);
    ck_assert_msg(r.status == ENG_CRASH, "%s: %s", r.headline, r.message);
    ck_assert_int_eq(engine_exit_code(r.status), 3);
    ck_assert_ptr_nonnull(strstr(r.message, "outside a"));
    engine_report_free(&r);
}
END_TEST

START_TEST(endless_loop_times_out_quickly) {
    engine_report r;
    double t0 = util_now();
    run_source("__kernel void histogram(" ARGS ") {\n  for (uint c = 0; c != 1; c += 2) atomic_add(&histogram[0], 0);\n}\n",
               "1000x16x4", 1.5, NULL, &r);
    double took = util_now() - t0;
    ck_assert_int_eq(r.status, ENG_TIMEOUT);
    ck_assert_int_eq(engine_exit_code(r.status), 3);
    ck_assert_ptr_nonnull(strstr(r.message, "1.5 s") ? strstr(r.message, "1.5 s") : strstr(r.message, "2 s"));
    ck_assert_msg(took < 1.5 + 30, "took %.1f s", took); /* limit + build + grace, generously */
    engine_report_free(&r);
}
END_TEST

START_TEST(device_selection) {
    engine_report r;
    run_source(correct_src, "100x4x4", 10, "0", &r);
    ck_assert_msg(r.status == ENG_PASS, "%s", r.message);
    ck_assert_int_eq(r.device.index, 0);
    engine_report_free(&r);
    run_source(correct_src, "100x4x4", 10, "99", &r);
    ck_assert_int_eq(r.status, ENG_USAGE);
    ck_assert_int_eq(engine_exit_code(r.status), 64);
    ck_assert_ptr_nonnull(strstr(r.message, "99"));
    engine_report_free(&r);
    run_source(correct_src, "100x4x4", 10, "no-such-device-name", &r);
    ck_assert_int_eq(r.status, ENG_USAGE);
    ck_assert_ptr_nonnull(strstr(r.message, "no-such-device-name"));
    ck_assert(r.bad_device_spec); /* said by the worker, not read off the message */
    ck_assert_str_eq(r.headline, "No such device");
    engine_report_free(&r);
    run_source(correct_src, "12xq", 10, NULL, &r); /* another usage error is not about the device */
    ck_assert_int_eq(r.status, ENG_USAGE);
    ck_assert(!r.bad_device_spec);
    engine_report_free(&r);
    engine_device *devs = NULL;
    char err[256];
    int n = engine_list_devices(&devs, err, sizeof err);
    ck_assert_msg(n >= 1, "%s", err);
    run_source(correct_src, "100x4x4", 10, devs[0].name, &r); /* the whole name, any case */
    ck_assert_msg(r.status == ENG_PASS, "%s", r.message);
    ck_assert_str_eq(r.device.name, devs[0].name);
    free(devs);
    engine_report_free(&r);
}
END_TEST

START_TEST(bad_size_is_a_usage_error) {
    engine_report r;
    run_source(correct_src, "12xq", 10, NULL, &r);
    ck_assert_int_eq(r.status, ENG_USAGE);
    ck_assert_ptr_nonnull(strstr(r.message, "12xq"));
    engine_report_free(&r);
}
END_TEST

/* The default device and the phases' words: one rule for the command line and the course. */
START_TEST(default_device_and_phase_labels) {
    engine_device d[3];
    memset(d, 0, sizeof d);
    const char *types[] = {"CPU", "CPU", "GPU"}, *plats[] = {"Intel(R) OpenCL", "Portable Computing Language", "NVIDIA CUDA"};
    const char *names[] = {"Xeon", "pthread-cpu", "NVIDIA H100"};
    for (int i = 0; i < 3; i++) {
        d[i].index = i;
        snprintf(d[i].type, sizeof d[i].type, "%s", types[i]);
        snprintf(d[i].platform, sizeof d[i].platform, "%s", plats[i]);
        snprintf(d[i].name, sizeof d[i].name, "%s", names[i]);
    }
    ck_assert_int_eq(engine_default_device(d, 3, NULL), 2);     /* the GPU */
    ck_assert_int_eq(engine_default_device(d, 2, ""), 1);       /* no GPU: PoCL's CPU device */
    ck_assert_int_eq(engine_default_device(d, 1, NULL), 0);     /* else the first */
    ck_assert_int_eq(engine_default_device(d, 3, "0"), 0);      /* the configured one, by index */
    ck_assert_int_eq(engine_default_device(d, 3, "xeon"), 0);   /* ... or by part of its name */
    ck_assert_int_eq(engine_default_device(d, 0, NULL), -1);
    ck_assert_str_eq(run_phase_label(PHASE_BUILD), "building the kernel");
    ck_assert_str_eq(run_phase_label(PHASE_SERIAL), "timing the serial C reference");
    /* every phase has a name on the pipe that reads back as itself, and a label */
    for (int p = 0; p < PHASE_COUNT; p++) {
        ck_assert_int_eq(run_phase_parse(run_phase_name((run_phase)p)), p);
        ck_assert_int_gt((int)strlen(run_phase_label((run_phase)p)), 3);
    }
    ck_assert_int_eq(run_phase_parse("mystery"), -1);
}
END_TEST

Suite *engine_suite(void) {
    Suite *s = suite_create("engine");
    TCase *t = tcase_create("engine");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 120);
    tcase_add_test(t, correct_kernel_passes_with_timing);
    tcase_add_test(t, wrong_kernel_is_caught);
    tcase_add_test(t, build_error_names_file_line_column);
    tcase_add_test(t, files_build_ahead_in_one_worker);
    tcase_add_test(t, missing_kernel_lists_what_is_there);
    tcase_add_test(t, failure_kinds_have_their_own_headlines);
    tcase_add_test(t, default_device_and_phase_labels);
    tcase_add_test(t, out_of_bounds_crash_is_contained);
    tcase_add_test(t, endless_loop_times_out_quickly);
    tcase_add_test(t, device_selection);
    tcase_add_test(t, bad_size_is_a_usage_error);
    suite_add_tcase(s, t);
    return s;
}
