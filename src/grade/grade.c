/* grade — running a learner's exercises through their plan (grade_plan.c):
 * hidden tests, the race check, technique checks and scores; learner code
 * runs only in engine workers, and only kernel files are read from a
 * submission (grade_submission.c). */
#define _GNU_SOURCE
#include "grade/grade.h"
#include "grade/grade_late.h"
#include "grade/grade_model.h"
#include "grade/grade_ahead.h"
#include "base/exitcode.h"
#include "gpumodel/gpumodel.h"
#include "problem/problem.h"
#include "base/rng.h"
#include "gpumodel/technique.h"
#include "run/srcpolicy.h"
#include "base/util.h"
#include "text/i18n.h"
#include "grade/verdict.h"
#include "grade/grade_credit.h"
#include "grade/grade_detail.h"
#include "run/wproto.h"

#include <ctype.h>
#include <pthread.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void grade_options_defaults(grade_options *o) {
    memset(o, 0, sizeof *o);
    o->seed = 0;
    o->timeout_s = 10;
    o->cpu_s = 0;          /* 0: 60 s for the runtime plus the wall limit on every CPU */
    o->memory_mb = 2048;
    o->late_limit_days = -1;
}

uint64_t grade_fresh_seed(void) {
    uint64_t x = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, &x, sizeof x) != (ssize_t)sizeof x) x = 0;
        close(fd);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    x ^= rng_mix64((uint64_t)ts.tv_sec * 1000000007ull + (uint64_t)ts.tv_nsec + ((uint64_t)getpid() << 32));
    /* short enough to type, and exact in JSON */
    uint64_t s = x % 4000000000ull;
    return s ? s : 1;
}

uint64_t grade_analysis_seed(const grade_options *o) { return o->analysis_seed ? o->analysis_seed : o->seed; }

uint64_t grade_student_seed(uint64_t batch_seed, const char *student) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the name */
    for (const unsigned char *p = (const unsigned char *)student; *p; p++) h = (h ^ *p) * 1099511628211ull;
    uint64_t s = rng_mix64(rng_mix64(batch_seed) ^ h) % 4000000000ull;
    return s ? s : 1;
}

/* ---- running ---------------------------------------------------------------- */

/* Runs a kernel file once through the engine; returns the engine's status. */
static engine_status run_once_in(run_ctx *rc, const lesson *l, const char *path, const char *display,
                                 const char *size, uint64_t seed, double budget_s, const char *cache_root,
                                 engine_report *rep);

static engine_status run_once(run_ctx *rc, const lesson *l, const char *path, const char *display, const char *size,
                              uint64_t seed, double budget_s, engine_report *rep) {
    return run_once_in(rc, l, path, display, size, seed, budget_s, rc->cache_root, rep);
}

/* The engine's request for one run of a kernel file (budget_s > 0: timed). */
void grade_request_for(const run_ctx *rc, const lesson *l, const char *path, const char *display, const char *size,
                        uint64_t seed, double budget_s, const char *cache_root, engine_request *rq) {
    engine_request_defaults(rq);
    rq->lesson = l;
    rq->kernel_path = path;
    rq->display_path = display;
    rq->device_spec = rc->o->device_spec;
    rq->serial_untimed = 1; /* a grade shows kernel times, never the serial C time */
    rq->size_spec = size;
    rq->seed = seed;
    rq->timeout_s = rc->o->timeout_s;
    rq->budget_s = budget_s;
    if (budget_s > 0) { /* every timed launch's answer checked: a golden run each */
        rq->min_runs = GRADE_TIMED_MIN_RUNS;
        rq->max_runs = budget_s >= 1 ? 40 : 20;
        rq->check_all_launches = 1;
    }
    rq->cpu_limit_s = rc->cpu_s;
    rq->memory_limit_mb = rc->o->memory_mb;
    rq->cache_root = cache_root;
}

/* run_once with the compiled kernels cached under cache_root. */
static engine_status run_once_in(run_ctx *rc, const lesson *l, const char *path, const char *display,
                                 const char *size, uint64_t seed, double budget_s, const char *cache_root,
                                 engine_report *rep) {
    engine_request rq;
    grade_request_for(rc, l, path, display, size, seed, budget_s, cache_root, &rq);
    engine_run(&rq, NULL, NULL, rc->cancel, rep);
    return rep->status;
}

/* Notes the device the grade ran on (from the first run that opened one). */
static void note_device(run_ctx *rc, const engine_report *rep) {
    if (rep->device.name[0] && !rc->r->device.name[0]) rc->r->device = rep->device;
}

static int is_fatal(engine_status s) { return s == ENG_USAGE || s == ENG_NO_DEVICE || s == ENG_CANCELLED; }

static void fatal_from(run_ctx *rc, const engine_report *rep, const char *what) {
    grade_result *r = rc->r;
    r->fatal = engine_exit_code(rep->status);
    util_errf(r->fatal_msg, sizeof r->fatal_msg, _("%s: %s: %s"), what, _(rep->headline), rep->message);
}

static void mark_missing(grade_test *t, const char *status, const char *msg);

/* What a chapter's analyses may take: the run's limits. */
grade_model_limits grade_limits_of(const run_ctx *rc) {
    return (grade_model_limits){.o = rc->o, .cpu_s = rc->cpu_s, .cache_root = rc->cache_root, .cancel = rc->cancel};
}

/* text with every mention of the size a check was measured at put in other
 * words: a student's report names no size the checks are measured at. */
static char *size_unnamed(const char *text, const char *size) {
    char *out = NULL;
    size_t n = strlen(size);
    const char *p = text, *q;
    while (n && (q = strstr(p, size))) {
        util_sappend(&out, "%.*s%s", (int)(q - p), p, _("a size drawn for the checks"));
        p = q + n;
    }
    util_sappend(&out, "%s", p);
    return out;
}

/* Copies a verdict item's outcome into a grade test. */
static void from_item(grade_test *t, const verdict_item *it) {
    t->outcome = it->outcome == VO_PASS ? GO_PASS : it->outcome == VO_SKIP ? GO_SKIP : GO_FAIL;
    snprintf(t->status, sizeof t->status, "%s", it->outcome == VO_SKIP ? "skipped" : "measured");
    verdict_headline(it->headline, t->headline, sizeof t->headline);
    grade_test_set_detail(t, size_unnamed(it->outcome == VO_SKIP ? "" : it->detail, t->size));
    if (it->outcome == VO_SKIP) {
        char *d = NULL;
        util_sappend(&d, _("skipped: GPU memory model unavailable: %s"), it->detail);
        grade_test_set_detail(t, d);
    }
}

/* path NULL: the file is missing or refused (missing_status, missing say how); hung: the file did not
 * finish a test, so a technique is not measured (the race check still is: a racy kernel must not escape
 * it by hanging once). */
static void mark_not_run_after_hang(grade_test *t, const chapter_file *f);

static void evaluate_model_test(run_ctx *rc, const lesson *l, grade_test *t, const char *path, const char *display,
                                int have_passed, grade_analysis *an, const char *missing_status,
                                const char *missing, const chapter_file *hung) {
    verdict_item it;
    memset(&it, 0, sizeof it);
    char icd[1024], plugin[1024], why_not[1024];
    if (gpumodel_backend(icd, sizeof icd, plugin, sizeof plugin, why_not, sizeof why_not) != 0) {
        /* skipped for every submission alike, correct or not, so that all have the same total */
        why_not[strcspn(why_not, "\n")] = '\0';
        char *stop = strstr(why_not, ". ");
        if (stop) stop[1] = '\0';
        it.outcome = VO_SKIP;
        snprintf(it.headline, sizeof it.headline, "%s", N_("Skipped"));
        snprintf(it.detail, sizeof it.detail, "%s", why_not);
        from_item(t, &it);
        return;
    }
    if (!path) {
        mark_missing(t, missing_status, missing);
        return;
    }
    if (hung && t->kind == GT_TECHNIQUE) {
        mark_not_run_after_hang(t, hung);
        return;
    }
    if (!have_passed) {
        /* nothing to simulate: a kernel that fails every test may well hang the simulator too */
        t->outcome = GO_FAIL;
        snprintf(t->status, sizeof t->status, "not_run");
        snprintf(t->headline, sizeof t->headline, "%s", _("Not credited"));
        grade_test_set_detail(t, util_strdup(t->kind == GT_TECHNIQUE
                                  ? _("The technique is credited only on a correct kernel, and no hidden test passed, "
                                      "so there was nothing to measure. Make the kernel correct first.")
                                  : _("The race check runs only on a kernel that passed a hidden test, and none did. "
                                      "Make the kernel correct first.")));
        return;
    }
    grade_model_limits lim = grade_limits_of(rc);
    grade_analysis_once(&lim, l, t, path, display, an);
    if (t->kind == GT_SAFETY) {
        verdict_safety(&an->gm, &it);
    } else {
        technique_check c;
        char err[256];
        if (technique_parse(t->check, &c, 1, err, sizeof err) != 1) return;
        technique_baseline prev = technique_baseline_of(technique_needs_previous(&c) ? grade_analysis_previous(&lim, l, an) : NULL);
        technique_inputs in = {.prev = &prev, .lesson = l};
        if (technique_needs_reference(&c)) {
            in.reference = grade_analysis_reference(&lim, l, an);
            in.profile = an->ref_done && an->gm.status == GM_OK ? &an->profile : NULL;
            if (in.reference && grade_analysis_at_scale(&lim, l, t, path, display, an) == 0) {
                in.at_scale = &an->big;
                in.reference_at_scale = &an->big_ref;
                in.at_scale_hidden = 1;
            }
        }
        verdict_technique(&c, &an->gm, &in, &it);
    }
    from_item(t, &it);
    t->wall_s = an->gm.wall_s;
}

static void run_speed(run_ctx *rc, const lesson *l, grade_test *t, const char *path, const char *display) {
    const catalog *cat = rc->o->cat;
    const lesson *prev = cat ? catalog_by_number(cat, l->previous) : NULL;
    char *d = NULL;
    if (!prev || strcmp(prev->problem, l->problem) != 0 || !rc->o->course) {
        t->outcome = GO_SKIP;
        snprintf(t->status, sizeof t->status, "skipped");
        snprintf(t->headline, sizeof t->headline, "%s", _("Skipped"));
        util_sappend(&d, _("skipped: chapter %d has no previous chapter with the same problem to compare with"),
                     l->number);
        grade_test_set_detail(t, d);
        return;
    }
    char ref[1400];
    snprintf(ref, sizeof ref, "%s/kernels/%s/%s", rc->o->course, prev->id, prev->exercise);
    engine_report a, b;
    engine_status sa = run_once(rc, prev, ref, ref, t->size, t->seed, 1.0, &a);
    note_device(rc, &a);
    if (is_fatal(sa)) {
        fatal_from(rc, &a, _("the previous chapter's reference"));
        engine_report_free(&a);
        return;
    }
    engine_status sb = run_once(rc, l, path, display, t->size, t->seed, 1.0, &b);
    note_device(rc, &b);
    if (is_fatal(sb)) {
        fatal_from(rc, &b, t->id); /* the id: a name may hold a hidden size */
    } else if (sa != ENG_PASS || a.n_samples == 0) {
        t->outcome = GO_SKIP;
        snprintf(t->status, sizeof t->status, "skipped");
        snprintf(t->headline, sizeof t->headline, "%s", _("Skipped"));
        util_sappend(&d, _("skipped: chapter %d's reference did not run correctly here (%s)"), prev->number,
                     _(a.headline));
    } else if (sb != ENG_PASS || b.n_samples == 0) {
        t->outcome = GO_FAIL;
        snprintf(t->status, sizeof t->status, "%s", engine_status_name(sb));
        snprintf(t->headline, sizeof t->headline, "%s", _(b.headline));
        char *rd = grade_run_detail(&b);
        util_sappend(&d, _("The kernel must be correct to be timed. %s"), rd ? rd : "");
        free(rd);
        t->wall_s = b.wall_s;
    } else {
        double speed = a.timing.median / b.timing.median;
        t->kernel_ms = b.timing.median;
        t->wall_s = a.wall_s + b.wall_s;
        t->outcome = speed >= rc->o->require_speedup ? GO_PASS : GO_FAIL;
        snprintf(t->status, sizeof t->status, "measured");
        snprintf(t->headline, sizeof t->headline, "%.2fx", speed);
        /* TRANSLATORS: each median is of at least 3 runs */
        util_sappend(&d, _("On %s: this kernel %.4g ms (median of %d runs), chapter %d's reference %.4g ms (median of "
                           "%d runs): a speed-up of %.2fx; %gx is required."), b.device.name, b.timing.median,
                     b.n_samples, prev->number, a.timing.median, a.n_samples, speed, rc->o->require_speedup);
    }
    if (d) grade_test_set_detail(t, d);
    engine_report_free(&a);
    engine_report_free(&b);
}

static void tick(run_ctx *rc, const grade_chapter *ch, const grade_test *t) {
    rc->done++;
    if (rc->cb) rc->cb(rc->user, ch, t, rc->done, rc->total);
}

/* Work made ahead of the chapters says which test it starts (the count stays). */
void grade_note_start(run_ctx *rc, const grade_test *t) {
    const grade_chapter *ch = NULL;
    for (int c = 0; c < rc->r->n_chapters && !ch; c++)
        if (t >= rc->r->chapters[c].tests && t < rc->r->chapters[c].tests + rc->r->chapters[c].n_tests)
            ch = &rc->r->chapters[c];
    if (!ch || !rc->cb) return;
    pthread_mutex_lock(&rc->progress_mu);
    rc->cb(rc->user, ch, t, rc->done, rc->total);
    pthread_mutex_unlock(&rc->progress_mu);
}

static void mark_missing(grade_test *t, const char *status, const char *msg) {
    t->outcome = GO_FAIL;
    snprintf(t->status, sizeof t->status, "%s", status);
    snprintf(t->headline, sizeof t->headline, "%s", !strcmp(status, "missing") ? _("File missing") : _("File refused"));
    grade_test_set_detail(t, util_strdup(msg));
}

/* Copies the submitted text into the grader's own folder; the worker builds that copy. */
static int private_copy(const char *work_dir, const char *id, const char *file, const char *text, char *path,
                        size_t len) {
    char dir[1400];
    if (util_pathf(dir, sizeof dir, "%s/%s", work_dir, id) != 0 || util_mkdirs(dir) != 0) return -1;
    if (util_pathf(path, len, "%s/%s", dir, file) != 0) return -1;
    return util_write_file_atomic(path, text, strlen(text));
}

/* A fixed listing must be right beyond the input that exposed its bug: it
 * runs again at the chapter's first hidden test that is not that input
 * (whose size stays hidden; the plan's holds_size), and a wrong answer
 * there fails the fix. ahead: that run made ahead, if any, which is taken. */
static void check_fix_holds(run_ctx *rc, const lesson *l, grade_test *t, const char *path, const char *display,
                            ahead_job *ahead) {
    if (!t->holds_size[0]) return;
    engine_report rep;
    engine_status st;
    if (ahead && ahead->ran) {
        rep = ahead->rep;
        st = rep.status;
        ahead->ran = 0;
    } else {
        st = run_once(rc, l, path, display, t->holds_size, t->holds_seed, 0, &rep);
    }
    if (st != ENG_PASS && !is_fatal(st)) {
        t->outcome = GO_FAIL;
        snprintf(t->status, sizeof t->status, "not_a_fix");
        snprintf(t->headline, sizeof t->headline, "%s", _("Fixed only for one input"));
        char *d = NULL;
        util_sappend(&d, _("The listing is right at the input that exposes its bug, but wrong on hidden test '%s' "
                           "(%s): a fix mends the bug for every size and input, not for the one that showed it."),
                     t->holds_id, _(rep.headline));
        grade_test_set_detail(t, d);
    }
    engine_report_free(&rep);
}

/* A test not run because its file did not finish earlier ones (the time limit, every test again, would
 * only make the student wait). */
static void mark_not_run_after_hang(grade_test *t, const chapter_file *f) {
    t->outcome = GO_FAIL;
    snprintf(t->status, sizeof t->status, "not_run");
    snprintf(t->headline, sizeof t->headline, "%s", _("Not run"));
    char *d = NULL;
    util_sappend(&d, _("Not run: the kernel did not finish on earlier tests (the first: '%s'). Make it finish there "
                       "first: a loop whose end depends on the size, or a barrier some work-items never reach, are "
                       "the usual causes."),
                 f->hang.first);
    grade_test_set_detail(t, d);
}

/* Reads the submission's copy of file f for chapter l into the grader's folder, or notes why it cannot. */
static void read_chapter_file(run_ctx *rc, const lesson *l, chapter_file *f, const char *exercises, int have_ex,
                              const char *ex_err, int flat) {
    if (!have_ex) {
        snprintf(f->status, sizeof f->status, "missing");
        snprintf(f->err, sizeof f->err, "%s", ex_err);
        return;
    }
    int refused = 0;
    char options[512];
    problem_build_options(l, options, sizeof options);
    char *text = grade_read_kernel(exercises, flat ? "." : l->id, f->file, options, &refused, f->err, sizeof f->err);
    if (!text) {
        snprintf(f->status, sizeof f->status, "%s", refused ? "refused" : "missing");
    } else if (private_copy(rc->o->work_dir, l->id, f->file, text, f->path, sizeof f->path) != 0) {
        snprintf(f->status, sizeof f->status, "missing");
        snprintf(f->err, sizeof f->err, _("the grader could not copy the file to %s"), rc->o->work_dir);
    } else {
        f->ok = 1;
    }
    free(text);
}

/* The files this chapter grades, each read once (the exercise and each find-the-bug listing); returns how many. */
int grade_read_chapter_files(run_ctx *rc, const lesson *l, grade_chapter *ch, chapter_file *files,
                              const char *exercises, int have_ex, const char *ex_err, int flat) {
    int nf = 0;
    for (int i = 0; i < ch->n_tests; i++) {
        int known = 0;
        for (int f = 0; f < nf; f++) if (!strcmp(files[f].file, ch->tests[i].file)) known = 1;
        if (known || nf == LESSON_MAX_BUGS + 1) continue;
        memset(&files[nf], 0, sizeof files[nf]);
        snprintf(files[nf].file, sizeof files[nf].file, "%s", ch->tests[i].file);
        read_chapter_file(rc, l, &files[nf], exercises, have_ex, ex_err, flat);
        if (!strcmp(files[nf].file, l->exercise)) {
            ch->submitted = files[nf].ok;
            ch->refused = !strcmp(files[nf].status, "refused");
        }
        nf++;
    }
    return nf;
}

/* The index of the file a test grades among files, or nf when it has none. */
int grade_file_of(const chapter_file *files, int nf, const grade_test *t) {
    int f = 0;
    while (f < nf && strcmp(files[f].file, t->file)) f++;
    return f;
}

/* Runs a hidden or fix test through the engine (or takes its report run ahead); -1: the grade cannot go on. */
static int run_engine_test(run_ctx *rc, const lesson *l, grade_test *t, chapter_file *file, const char *display,
                           ahead_job *ahead, ahead_job *holds, int *have_passed) {
    const char *path = file->path;
    engine_report rep;
    int large = !strcmp(t->id, "large");
    engine_status st;
    if (ahead && ahead->ran) {
        rep = ahead->rep;
        ahead->ran = 0;
        st = rep.status;
    } else {
        st = run_once(rc, l, path, display, t->size, t->seed, large ? GRADE_LARGE_BUDGET_S : 0, &rep);
        if (st == ENG_TIMEOUT) grade_note_timeout(&file->hang, t->id); /* a run ahead noted its own */
    }
    note_device(rc, &rep);
    if (is_fatal(st)) {
        fatal_from(rc, &rep, t->id); /* the id: a name may hold a hidden size */
        engine_report_free(&rep);
        return -1;
    }
    t->outcome = st == ENG_PASS ? GO_PASS : GO_FAIL;
    snprintf(t->status, sizeof t->status, "%s", engine_status_name(st));
    snprintf(t->headline, sizeof t->headline, "%s", _(rep.headline));
    grade_test_set_detail(t, grade_run_detail(&rep));
    t->wall_s = rep.wall_s;
    if (rep.n_samples > 0) t->kernel_ms = rep.timing.median;
    if (st == ENG_PASS && t->kind == GT_HIDDEN) *have_passed = 1;
    if (st == ENG_PASS && t->kind == GT_FIX) grade_check_fix_is_edit(rc->o, l, t, path);
    if (st == ENG_PASS && t->kind == GT_FIX && t->outcome != GO_FAIL) check_fix_holds(rc, l, t, path, display, holds);
    engine_report_free(&rep);
    return 0;
}

/* The chapter's gates (safety, correctness) and its score, once every test has run. */
static void score_chapter(run_ctx *rc, const lesson *l, grade_chapter *ch, const chapter_file *files, int nf) {
    grade_gate_on_safety(ch);
    const char *submitted = NULL;
    for (int f = 0; f < nf; f++)
        if (!strcmp(files[f].file, l->exercise) && files[f].ok) submitted = files[f].path;
    grade_gate_on_correctness(rc->o, l, ch, submitted);
    for (int i = 0; i < ch->n_tests; i++) {
        grade_test *t = &ch->tests[i];
        if (t->outcome == GO_SKIP) { t->score = 0; t->max_score = 0; }
        ch->score += t->score;
    }
    ch->max_score = 0;
    for (int i = 0; i < ch->n_tests; i++) ch->max_score += ch->tests[i].max_score;
}

static void grade_chapter_run(run_ctx *rc, const lesson *l, grade_chapter *ch, const char *exercises, int have_ex,
                              const char *ex_err, int flat) {
    chapter_file files[LESSON_MAX_BUGS + 1];
    int nf = grade_read_chapter_files(rc, l, ch, files, exercises, have_ex, ex_err, flat);
    ahead_job *ahead = grade_run_untimed_ahead(rc, l, ch, files, nf);
    int have_passed = 0;
    grade_analysis an = {0};
    for (int i = 0; i < ch->n_tests && !rc->r->fatal; i++) {
        grade_test *t = &ch->tests[i];
        if (rc->cancel && *rc->cancel) {
            rc->r->fatal = 130;
            util_errf(rc->r->fatal_msg, sizeof rc->r->fatal_msg, "%s", _("cancelled"));
            break;
        }
        int f = grade_file_of(files, nf, t);
        char display[256];
        snprintf(display, sizeof display, "exercises/%s/%s", l->id, t->file);
        /* after a test its file did not finish, the others are not run (the race check still is, in
         * evaluate_model_test) */
        const chapter_file *hung = f < nf && files[f].ok && grade_file_hung(&files[f].hang) ? &files[f] : NULL;
        if (t->kind == GT_TECHNIQUE || t->kind == GT_SAFETY) {
            evaluate_model_test(rc, l, t, f < nf && files[f].ok ? files[f].path : NULL, display, have_passed, &an,
                                f < nf ? files[f].status : "missing", f < nf ? files[f].err : _("no file"), hung);
        } else if (hung && !(ahead && ahead[i].ran)) {
            mark_not_run_after_hang(t, hung);
        } else if (f >= nf || !files[f].ok) {
            mark_missing(t, f < nf ? files[f].status : "missing", f < nf ? files[f].err : _("no file"));
        } else if (t->kind == GT_SPEED) {
            run_speed(rc, l, t, files[f].path, display);
        } else if (run_engine_test(rc, l, t, &files[f], display, ahead ? &ahead[i] : NULL,
                                   ahead ? &ahead[ch->n_tests + i] : NULL, &have_passed)) {
            break;
        }
        if (t->outcome == GO_PASS) t->score = t->max_score;
        tick(rc, ch, t);
    }
    grade_analysis_free(&an);
    for (int i = 0; ahead && i < AHEAD_SLOTS(ch->n_tests); i++)
        if (ahead[i].ran) engine_report_free(&ahead[i].rep); /* not taken: the loop stopped early */
    free(ahead);
    score_chapter(rc, l, ch, files, nf);
}

int grade_run(const grade_options *o, grade_progress_cb cb, void *user, volatile int *cancel, grade_result *r) {
    memset(r, 0, sizeof *r);
    double t0 = util_now();
    snprintf(r->submission, sizeof r->submission, "%s", o->submission ? o->submission : "");
    if (o->student && *o->student) snprintf(r->student, sizeof r->student, "%s", o->student);
    else {
        char *real = realpath(r->submission, NULL);
        const char *path = real ? real : r->submission;
        const char *base = strrchr(path, '/');
        util_copy_text(r->student, sizeof r->student, base && base[1] ? base + 1 : path);
        free(real);
    }
    r->seed = o->seed;
    r->analysis_seed = grade_analysis_seed(o);
    r->timeout_s = o->timeout_s;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    r->cpu_s = o->cpu_s > 0 ? o->cpu_s : 60 + (long)ceil(o->timeout_s * (double)(ncpu > 0 ? ncpu : 1));
    r->memory_mb = o->memory_mb;
    r->require_speedup = o->require_speedup;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->started, sizeof r->started, "%Y-%m-%dT%H:%M:%SZ", &tm);

    char err[1024];
    r->chapters = calloc((size_t)(o->n_lessons ? o->n_lessons : 1), sizeof *r->chapters);
    if (!r->chapters) {
        r->fatal = EXIT_USAGE;
        util_errf(r->fatal_msg, sizeof r->fatal_msg, "%s", _("out of memory"));
        return -1;
    }
    for (int i = 0; i < o->n_lessons; i++) {
        if (grade_plan(o, o->lessons[i], &r->chapters[i], err, sizeof err) != 0) {
            r->fatal = EXIT_USAGE;
            util_errf(r->fatal_msg, sizeof r->fatal_msg, "%s", err);
            return -1;
        }
        r->n_chapters++;
    }
    run_ctx rc = {.o = o, .r = r, .cb = cb, .user = user, .cancel = cancel, .cpu_s = r->cpu_s};
    pthread_mutex_init(&rc.progress_mu, NULL);
    rc.threads = o->threads > 0 ? o->threads : (int)(ncpu > 0 ? (ncpu < 4 ? ncpu : 4) : 1);
    /* compiled kernels are cached per kernel text in the user's cache (a
     * text compiles once, and no kernel can plant a binary for another); a
     * cache that grows past what a compiled kernel takes (a runaway build
     * log) is removed after its run */
    rc.cache_root = o->cache_root;
    for (int i = 0; i < r->n_chapters; i++) rc.total += r->chapters[i].n_tests;

    char exercises[1200], ex_err[1200] = "";
    int have_ex = grade_find_exercises(o->submission, exercises, sizeof exercises, ex_err, sizeof ex_err) == 0;
    int flat = 0;
    if (!have_ex && o->n_lessons == 1) {
        /* one chapter graded: its file may sit at the top of the submission */
        char top[1400];
        struct stat st;
        snprintf(top, sizeof top, "%s/%s", o->submission, o->lessons[0]->exercise);
        if (lstat(top, &st) == 0) {
            snprintf(exercises, sizeof exercises, "%s", o->submission);
            have_ex = flat = 1;
        }
    }
    for (int i = 0; i < r->n_chapters; i++)
        if (flat) snprintf(r->chapters[i].file, sizeof r->chapters[i].file, "%s", o->lessons[i]->exercise);
    grade_run_first_ahead(&rc, exercises, have_ex, ex_err, flat);
    for (int i = 0; i < r->n_chapters && !r->fatal; i++)
        grade_chapter_run(&rc, o->lessons[i], &r->chapters[i], exercises, have_ex, ex_err, flat);
    grade_free_first_runs(&rc);
    pthread_mutex_destroy(&rc.progress_mu);
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        r->score += ch->score;
        r->max_score += ch->max_score;
        for (int k = 0; k < ch->n_tests; k++) {
            r->n_tests++;
            if (ch->tests[k].outcome == GO_PASS) r->n_passed++;
            else if (ch->tests[k].outcome == GO_SKIP) r->n_skipped++;
            else r->n_failed++;
        }
    }
    grade_apply_late(o, r);
    r->wall_s = util_now() - t0;
    return r->fatal ? -1 : 0;
}

void grade_result_free(grade_result *r) {
    for (int i = 0; i < r->n_chapters; i++) {
        for (int k = 0; k < r->chapters[i].n_tests; k++) free(r->chapters[i].tests[k].detail);
        free(r->chapters[i].tests);
    }
    free(r->chapters);
    r->chapters = NULL;
    r->n_chapters = 0;
}
