/* verdict — what it takes to pass a chapter, defined once: correct on every
 * visible test, free of races and memory errors under the simulator, and the
 * chapter's technique measured on the learner's own kernel. */
#define _GNU_SOURCE
#include "grade/verdict.h"
#include "grade/verdict_fix.h"
#include "text/i18n.h"
#include "problem/problem.h"
#include "run/srcpolicy.h"
#include "run/runcache.h"
#include "base/util.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *verdict_kind_name(verdict_kind k) {
    switch (k) {
#define VD_NAME(e, name) case e: return name;
        VERDICT_KINDS(VD_NAME)
#undef VD_NAME
    }
    return "?";
}

const char *verdict_outcome_name(verdict_outcome o) {
    switch (o) {
#define VD_NAME(e, name) case e: return name;
        VERDICT_OUTCOMES(VD_NAME)
#undef VD_NAME
    }
    return "?";
}

static verdict_item *add_item(verdict *v, verdict_kind kind, const char *id, const char *name) {
    if (v->n == VERDICT_MAX_ITEMS) return NULL;
    verdict_item *it = &v->items[v->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->outcome = VO_PENDING;
    snprintf(it->id, sizeof it->id, "%s", id);
    snprintf(it->name, sizeof it->name, "%s", name);
    return it;
}

/* Adds a test of spec unless one of the same size (as the problem writes it) is there. */
static int add_test(verdict *v, const problem_ops *ops, const char *spec, const char *what, char *err, size_t errlen) {
    prob_size s;
    char perr[256], full[64];
    if (problem_parse_size(ops, spec, &s, perr, sizeof perr) != 0) {
        util_errf(err, errlen, "%s '%s': %s", what, spec, perr);
        return -1;
    }
    ops->format_size(&s, full, sizeof full);
    for (int i = 0; i < v->n; i++)
        if (v->items[i].kind == VK_TEST && !strcmp(v->items[i].size, full)) return 0;
    char id[80];
    snprintf(id, sizeof id, "size.%s", full);
    verdict_item *it = add_item(v, VK_TEST, id, full);
    if (!it) return 0;
    snprintf(it->size, sizeof it->size, "%s", full);
    return 0;
}

int verdict_has_safety(const lesson *l) {
    /* a chapter dispatched as one serial work-item has nothing to race with */
    return strcmp(lesson_param_get(l, "dispatch", ""), "serial") != 0;
}

int verdict_plan(const lesson *l, verdict *v, char *err, size_t errlen) {
    memset(v, 0, sizeof *v);
    const problem_ops *ops = problem_find(l->problem);
    if (!ops) {
        util_errf(err, errlen, _("%s/lesson.ini: unknown problem '%s'"), l->dir, l->problem);
        return -1;
    }
    char perr[512];
    for (int i = 0; i < l->n_check_sizes; i++)
        if (add_test(v, ops, l->check_sizes[i], "check_sizes", perr, sizeof perr) != 0) goto bad;
    if (add_test(v, ops, l->default_size, "default_size", perr, sizeof perr) != 0) goto bad;
    for (int b = 0; b < l->n_bugs; b++)
        if (add_test(v, ops, l->bugs[b].exposes, "exposes", perr, sizeof perr) != 0) goto bad;
    if (verdict_has_safety(l)) {
        add_item(v, VK_SAFETY, "safety", "no data race, memory error or divergent barrier (Oclgrind)");
    }
    technique_check tq[TECHNIQUE_MAX];
    int nq = technique_parse(lesson_param_get(l, "technique", ""), tq, TECHNIQUE_MAX, perr, sizeof perr);
    if (nq < 0) goto bad;
    for (int i = 0; i < nq; i++) {
        char id[96], name[192];
        technique_id(&tq[i], id, sizeof id);
        technique_title(&tq[i], name, sizeof name);
        add_item(v, VK_TECHNIQUE, id, name);
    }
    return 0;
bad:
    util_errf(err, errlen, "%s/lesson.ini: %s", l->dir, perr);
    return -1;
}

static void set_item(verdict_item *it, verdict_outcome o, const char *headline, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The item's outcome, headline and detail: fmt (English) and its arguments,
 * where a %s may be a piece of it->msg made since the caller's
 * tmsg_clear(&it->msg) (tmsg.h); kept to be shown in any language, and
 * written in the current one in it->detail. */
static void set_item(verdict_item *it, verdict_outcome o, const char *headline, const char *fmt, ...) {
    it->outcome = o;
    snprintf(it->headline, sizeof it->headline, "%s", headline); /* English: translated where it is shown */
    va_list ap;
    va_start(ap, fmt);
    tmsg_vset(&it->msg, fmt, ap);
    va_end(ap);
    tmsg_render(&it->msg, it->detail, sizeof it->detail);
}

const char *verdict_detail(const verdict_item *it, char *buf, size_t len) {
    if (tmsg_empty(&it->msg) || it->msg.overflow) util_copy_text(buf, len, it->detail);
    else tmsg_render(&it->msg, buf, len);
    return buf;
}

/* What to do about one kind of problem the simulator found. */
static const char *issue_advice(const gm_issue *is) {
    switch (is->kind) {
    case GM_ISSUE_RACE:
        if (is->space == GM_GLOBAL)
            return N_("Two work-items touch the same global address without an atomic or a barrier between them: on a "
                   "GPU they run at the same time and one update is lost. If they add to the same counter (a "
                   "histogram bin), use atomic_inc or atomic_add; if one writes what another reads, separate them.");
        return N_("Two work-items touch the same __local address with no barrier between the write and the other "
               "access: on a GPU they run at the same time. Put barrier(CLK_LOCAL_MEM_FENCE) between the step that "
               "writes and the step that reads, or make the update atomic.");
    case GM_ISSUE_MEMORY:
        return N_("A work-item reads or writes outside a buffer: check the index against the buffer's length (often a "
               "missing `if (id >= n) return;` where the global size is rounded up).");
    case GM_ISSUE_UNINIT:
        return N_("A work-item reads __local memory that no work-item wrote: write every element first, then put a "
               "barrier before reading.");
    case GM_ISSUE_POINTER_INT:
        return N_("An address depends on where the device (or the simulator) put the buffer: code that computes with "
               "it can take one path in the simulator and another on the device. Graded code must do the same thing "
               "on every device: compute with indices, not with addresses.");
    case GM_ISSUE_DIVERGENCE:
        return N_("Not every work-item of the group reaches this barrier: keep barriers out of branches and loops whose "
               "condition differs between work-items.");
    default:
        return N_("Fix what the simulator reports at that line.");
    }
}

int verdict_safety(const gpumodel_report *gm, verdict_item *it) {
    tmsg *t = &it->msg;
    tmsg_clear(t);
    if (gm->status == GM_UNAVAILABLE) {
        set_item(it, VO_SKIP, N_("Not checked"), "The race check needs Oclgrind, which is not installed here: %s",
                 gm->message);
        return 1;
    }
    if (gm->status != GM_OK) {
        set_item(it, VO_FAIL, N_("Not checked"), "The simulator could not run the kernel, so it cannot be shown free of "
                 "races: %s", gm->message);
        return 0;
    }
    const gm_issue *first = NULL;
    int n = 0;
    for (int i = 0; i < gm->n_issues; i++) {
        n++;
        if (!first) first = &gm->issues[i];
    }
    if (!first) {
        set_item(it, VO_PASS, N_("Race-free"), "Oclgrind ran the kernel at %s and found no data race, memory error, "
                 "uninitialised __local read or divergent barrier.", gm->size_text);
        return 1;
    }
    it->line = first->line;
    const char *where = "";
    if (first->line2 && (first->line2 != first->line || first->col2 != first->col))
        where = tmsg_part_of(t, " and line %d", first->line2);
    const char *who = "";
    if (first->work_item[0])
        who = tmsg_part_of(t, first->work_item2[0] ? N_(" (work-item %s against %s)") : N_(" (work-item %s%s)"),
                           first->work_item, first->work_item2);
    const char *kind = first->kind == GM_ISSUE_RACE ? N_("Data race") : first->kind == GM_ISSUE_MEMORY ? N_("Memory error")
                     : first->kind == GM_ISSUE_UNINIT ? N_("Uninitialised read")
                     : first->kind == GM_ISSUE_DIVERGENCE ? N_("Divergent barrier")
                     : first->kind == GM_ISSUE_POINTER_INT ? N_("Pointer as an integer") : N_("Simulator error");
    tmsg_setn(t, "%s at line %d%s of kernel '%s': %s%s, %llu time at %s. %s%s",
              "%s at line %d%s of kernel '%s': %s%s, %llu times at %s. %s%s", first->count,
              tmsg_id(t, kind), first->line, where, first->kernel, first->what, who, first->count, gm->size_text,
              tmsg_id(t, issue_advice(first)),
              n > 1 ? tmsg_id(t, N_(" The simulator found other problems too: the GPU model (key 8 in the course, or `cltutor analyze`) lists them.")) : "");
    it->outcome = VO_FAIL;
    snprintf(it->headline, sizeof it->headline, "%s", kind);
    tmsg_render(t, it->detail, sizeof it->detail);
    return 0;
}

void verdict_technique(const technique_check *c, const gpumodel_report *gm, const technique_inputs *in,
                       verdict_item *it) {
    tmsg_clear(&it->msg);
    if (gm->status == GM_UNAVAILABLE) {
        set_item(it, VO_SKIP, N_("Not measured"), "The GPU memory model needs Oclgrind, which is not installed here: %s",
                 gm->message);
        return;
    }
    if (gm->status != GM_OK) {
        set_item(it, VO_FAIL, N_("Not measured"), "The GPU memory model could not analyse the kernel: %s", gm->message);
        return;
    }
    if (gm->run.status != ENG_PASS) {
        set_item(it, VO_FAIL, N_("Not credited"), "The run the GPU memory model measured (%s) was not correct (%s), so "
                 "the technique is not credited. Make the kernel correct at every size first.", gm->size_text,
                 tmsg_id(&it->msg, gm->run.headline));
        return;
    }
    technique_result r;
    technique_measure(c, gm, in, &r);
    it->line = r.line;
    /* the technique's words kept apart from the language, where they fit (else as written now) */
    const char *detail = r.detail;
    if (!r.msg.overflow) {
        const char *piece = tmsg_embed(&it->msg, &r.msg);
        if (it->msg.overflow) tmsg_clear(&it->msg);
        else detail = piece;
    }
    if (r.not_applicable) {
        set_item(it, VO_PASS, N_("Does not apply"), "%s", detail);
        return;
    }
    if (!r.measured) {
        set_item(it, VO_FAIL, N_("Not met"), "%s", detail);
        return;
    }
    char head[128]; /* English, as every headline: verdict_headline translates it */
    snprintf(head, sizeof head, "%s: %s = %.3g; asked %s %.3g", r.met ? "Met" : "Not met",
             technique_metric_name(c->metric), r.value, technique_op_text(c->op), c->threshold);
    if (r.at_scale) set_item(it, r.met ? VO_PASS : VO_FAIL, head, "%s", detail);
    else set_item(it, r.met ? VO_PASS : VO_FAIL, head, "%s (GPU memory model, %s)", detail, gm->size_text);
}

/* A technique's "METRIC = VALUE; asked OP BOUND" with the metric in the
 * learner's words (technique_metric_phrase) and the bound the chapter asks
 * for, the figures kept. */
static const char *measure_text(const char *s, char *buf, size_t len) {
    const char *eq = strstr(s, " = ");
    int m = eq ? technique_metric_lookup(s, (size_t)(eq - s)) : -1;
    if (m < 0) return s;
    const char *phrase = _(technique_metric_phrase((technique_metric)m));
    char value[32], op[4], bound[32];
    if (sscanf(eq + 3, "%31[^;]; asked %3s %31s", value, op, bound) != 3) {
        /* TRANSLATORS: a technique check's figure: what it measures in words, then its value */
        util_textf(buf, len, _("%s = %s"), phrase, eq + 3);
        return buf;
    }
    /* TRANSLATORS: a technique check's figure: what it measures in words, its value, then the bound the
     * chapter asks for */
    const char *fmt = !strcmp(op, "<=") ? _("%s = %s (the chapter asks for at most %s)")
                      : !strcmp(op, ">=") ? _("%s = %s (the chapter asks for at least %s)")
                      : !strcmp(op, "<") ? _("%s = %s (the chapter asks for under %s)")
                                         : _("%s = %s (the chapter asks for over %s)");
    util_textf(buf, len, fmt, phrase, value, bound);
    return buf;
}

const char *verdict_headline(const char *headline, char *buf, size_t len) {
    /* a technique's "Met: METRIC = VALUE" (verdict_technique), else a headline as written */
    char measure[256];
    if (!strncmp(headline, "Met: ", 5))
        /* TRANSLATORS: a technique check's result; %s is its measure and value, as in "active_lanes = 30.7" */
        util_textf(buf, len, _("Met: %s"), measure_text(headline + 5, measure, sizeof measure));
    else if (!strncmp(headline, "Not met: ", 9))
        /* TRANSLATORS: a technique check's result; %s is its measure and value, as in "active_lanes = 3.2" */
        util_textf(buf, len, _("Not met: %s"), measure_text(headline + 9, measure, sizeof measure));
    else
        snprintf(buf, len, "%s", _(headline));
    return buf;
}

const char *verdict_item_name(const verdict_item *it, char *buf, size_t len) {
    /* a technique of one kernel: "technique: ... (kernel NAME)" (technique_title) */
    const char *k = strstr(it->name, " (kernel ");
    size_t n = strlen(it->name);
    if (!k || n < 2 || it->name[n - 1] != ')') {
        snprintf(buf, len, "%s", _(it->name));
        return buf;
    }
    char base[sizeof it->name], kernel[sizeof it->name];
    snprintf(base, sizeof base, "%.*s", (int)(k - it->name), it->name);
    snprintf(kernel, sizeof kernel, "%.*s", (int)(n - 1 - (size_t)(k + 9 - it->name)), k + 9);
    /* TRANSLATORS: a technique check of one of a chapter's kernels: the check, then the kernel's name */
    util_textf(buf, len, _("%s (kernel %s)"), _(base), kernel);
    return buf;
}

void verdict_settle(verdict *v) {
    v->passed = v->n > 0 && !v->cancelled;
    v->failed = v->skipped = v->done = 0;
    for (int i = 0; i < v->n; i++) {
        const verdict_item *it = &v->items[i];
        if (it->outcome != VO_PENDING) v->done++;
        if (it->outcome == VO_FAIL) v->failed = 1;
        if (it->outcome == VO_SKIP) v->skipped = 1;
        if (it->outcome != VO_PASS) v->passed = 0;
    }
}

/* The engine's request for one test item (untimed; its seed is its place in the list). */
static void test_request(const verdict_request *rq, const verdict_item *it, uint64_t seed, engine_request *erq) {
    engine_request_defaults(erq);
    erq->lesson = rq->lesson;
    erq->kernel_path = rq->kernel_path;
    erq->display_path = rq->display_path;
    erq->device_spec = rq->device_spec;
    erq->size_spec = it->size;
    erq->seed = seed;
    erq->timeout_s = rq->timeout_s > 0 ? rq->timeout_s : 10;
    erq->budget_s = 0;
    erq->warm = rq->warm;
}

/* A test item's outcome from its run. */
static void take_report(verdict_item *it, const engine_report *rep) {
    tmsg_clear(&it->msg);
    it->status = rep->status;
    it->wall_s = rep->wall_s;
    /* a wrong answer's sentence is the comparison's summary: kept apart from the language */
    int summary = rep->status == ENG_WRONG && rep->verify.summary[0] && !strcmp(rep->message, rep->verify.summary);
    set_item(it, rep->status == ENG_PASS ? VO_PASS : VO_FAIL, rep->headline, "%s",
             summary ? verify_summary_piece(&rep->verify, &it->msg) : rep->message);
    if (rep->status == ENG_BUILD) it->line = rep->error_line;
}

/* The source as the grader reads it: nothing that reads other files, no
 * branch on the device. Returns 0, or -1 with the first test item failed. */
static int check_source(const verdict_request *rq, verdict *v, verdict_item_cb item_cb, void *user) {
    char *text = util_read_file(rq->kernel_path, NULL);
    if (!text) return 0; /* the first run says why it cannot read it */
    srcpolicy_finding f;
    int bad = srcpolicy_check_chapter(text, rq->display_path ? rq->display_path : rq->kernel_path, rq->lesson, &f);
    free(text);
    if (!bad) return 0;
    for (int i = 0; i < v->n; i++) {
        if (v->items[i].kind != VK_TEST) continue;
        tmsg_clear(&v->items[i].msg);
        set_item(&v->items[i], VO_FAIL, N_("Refused"), "%s", f.message);
        v->items[i].line = f.line;
        if (item_cb) item_cb(user, v, i, NULL);
        break;
    }
    return -1;
}

/* The previous chapter's reference at the analysed size: the course's
 * committed figures when they were measured at that size, else an analysis
 * of the reference where the course ships it. */
static void previous_baseline(const verdict_request *rq, const engine_request *like, const gpumodel_report *gm,
                              run_progress_cb progress, void *progress_user, volatile int *cancel,
                              technique_baseline *out) {
    memset(out, 0, sizeof *out);
    /* the course's figures, checked against the reference by `cltutor validate`, where they fit this size */
    char path[1200], err[512];
    snprintf(path, sizeof path, "%s/" VERDICT_PREVIOUS_FIGURES, rq->lesson->dir);
    if (util_is_file(path) && technique_baseline_load(path, out, err, sizeof err) == 0 &&
        !strcmp(out->size, gm->size_text))
        return;
    memset(out, 0, sizeof *out);
    if (rq->previous_reference && util_is_file(rq->previous_reference)) {
        engine_request prq = *like;
        prq.lesson = rq->previous;
        prq.kernel_path = prq.display_path = rq->previous_reference;
        prq.size_spec = gm->size_text;
        gpumodel_report prev;
        gpumodel_analyze_figures(&prq, progress, progress_user, cancel, &prev);
        *out = technique_baseline_of(&prev);
        gpumodel_report_free(&prev);
    }
}

/* The course's folder: the lesson's folder less /lessons/ID. */
static void course_dir(const lesson *l, char *buf, size_t len) {
    util_copy_text(buf, len, l->dir);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(buf, '/');
        if (slash) *slash = '\0';
    }
}

const char *verdict_analysis_input(const lesson *l, char *buf, size_t len) {
    const char *colon = strchr(lesson_param_get(l, "analysis_size", ""), ':');
    snprintf(buf, len, "%s", colon ? colon + 1 : "");
    return buf;
}

void verdict_reference_path(const lesson *l, char *buf, size_t len) {
    char data[1100];
    course_dir(l, data, sizeof data);
    snprintf(buf, len, "%s/kernels/%s/%s", data, l->id, l->exercise);
}

int verdict_cost_profile(const lesson *l, gp_profile *p, char *err, size_t errlen) {
    char data[1100], path[1200];
    course_dir(l, data, sizeof data);
    if (gp_profile_find(data, GP_DEFAULT_GPU, path, sizeof path, err, errlen) != 0) return -1;
    return gp_profile_load(path, p, err, errlen);
}

int verdict_reference_cost(const lesson *l, const engine_request *like, const gpumodel_report *gm,
                           const gp_profile *p, run_progress_cb progress, void *progress_user, volatile int *cancel,
                           gm_cost *out) {
    char ref[1200], err[512], path[1200];
    /* the course's figures, checked against the reference by `cltutor validate`, where they fit this size:
     * no second simulation for every check at the chapter's own analysis size */
    snprintf(path, sizeof path, "%s/" VERDICT_REFERENCE_COST, l->dir);
    gm_cost_figures f;
    if (util_is_file(path) && gm_cost_load(path, &f, err, sizeof err) == 0 && !strcmp(f.size, gm->size_text)) {
        *out = f.cost;
        return 0;
    }
    verdict_reference_path(l, ref, sizeof ref);
    if (util_is_file(ref)) {
        engine_request rq = *like;
        rq.lesson = l;
        rq.kernel_path = rq.display_path = ref;
        rq.size_spec = gm->size_text;
        gpumodel_report *an = calloc(1, sizeof *an);
        if (!an) return -1;
        gpumodel_analyze_figures(&rq, progress, progress_user, cancel, an);
        int rc = an->status == GM_OK && an->run.status == ENG_PASS && gm_cost_of(an, l, p, out, err, sizeof err) == 0
                     ? 0 : -1;
        gpumodel_report_free(an);
        free(an);
        return rc;
    }
    return -1;
}

int verdict_cost_at_scale(const lesson *l, const engine_request *like, const char *size, uint64_t draw,
                          const gp_profile *p, run_progress_cb progress, void *progress_user, volatile int *cancel,
                          gpumodel_report *mine, gm_cost *ref) {
    memset(mine, 0, sizeof *mine);
    gm_sampling smp;
    char err[512], path[1200];
    if (gm_sampling_parse(lesson_param_get(l, "scale_analysis", ""), &smp, err, sizeof err) != 0 || !smp.groups)
        return -1;
    smp.draw = draw;
    verdict_reference_path(l, path, sizeof path);
    if (!util_is_file(path)) return -1;
    engine_request rq = *like;
    rq.size_spec = size;
    rq.budget_s = 0;
    rq.compute_units = p->compute_units; /* the host launches as on the modelled GPU, not the simulator's one unit */
    gpumodel_analyze_sampled(&rq, &smp, progress, progress_user, cancel, mine);
    if (mine->status != GM_OK) return -1;
    rq.kernel_path = rq.display_path = path;
    gpumodel_report *an = calloc(1, sizeof *an);
    if (!an) return -1;
    gpumodel_analyze_sampled(&rq, &smp, progress, progress_user, cancel, an);
    int rc = an->status == GM_OK && gm_cost_of(an, l, p, ref, err, sizeof err) == 0 ? 0 : -1;
    gpumodel_report_free(an);
    free(an);
    return rc;
}

int verdict_ragged_size(const lesson *l, const char *size, char *out, size_t len) {
    const problem_ops *ops = problem_find(l->problem);
    prob_size s;
    char err[256];
    if (!ops || problem_parse_size(ops, size, &s, err, sizeof err) != 0 || s.n < 32) return -1;
    long group = (long)problem_local_size(l);
    /* a quarter, where two full work-groups and more are left; else 1/16 less (an image a tile or two wide) */
    s.n = s.n / 4 - 1 >= 2 * group ? s.n / 4 - 1 : s.n - s.n / 16 - 1;
    if (group > 1 && s.n % group == 0) s.n--;
    ops->format_size(&s, out, len);
    return 0;
}

/* Whether size leaves the last work-group of the chapter's launches partly
 * empty (the work-items past the end must then still reach every barrier). */
static int size_is_ragged(const lesson *l, const char *size) {
    const problem_ops *ops = problem_find(l->problem);
    prob_size s;
    char err[256];
    long group = (long)problem_local_size(l);
    return ops && problem_parse_size(ops, size, &s, err, sizeof err) == 0 && group > 1 && s.n % group != 0;
}

/* The race check at a ragged size (verdict_ragged_size), where the analysed
 * size filled every work-group: a second run of the simulator (made ahead,
 * at a quarter of the size). Fills it where that run finds what the first
 * did not. */
static void safety_when_ragged(const gpumodel_report *ragged, verdict_item *it) {
    verdict_item again = *it;
    if (it->outcome == VO_PASS && ragged->status == GM_OK && !verdict_safety(ragged, &again)) *it = again;
}

/* The index of the list's first test item, or -1. */
static int first_test(const verdict *v) {
    for (int i = 0; i < v->n; i++)
        if (v->items[i].kind == VK_TEST) return i;
    return -1;
}

/* The test items from i on that run together: the first test alone (it
 * builds the kernel, and answers first), then all the others in one worker
 * (engine_run_set). Their reports taken, each announced; returns the index
 * of the last one that ran. */
static int run_tests_from(const verdict_request *rq, verdict *v, int i, run_progress_cb progress,
                          void *progress_user, verdict_item_cb item_cb, void *user, volatile int *cancel,
                          int *stop) {
    int ids[VERDICT_MAX_ITEMS], n_set = 0;
    for (int k = i; k < v->n && n_set < (i == first_test(v) ? 1 : VERDICT_MAX_ITEMS); k++)
        if (v->items[k].kind == VK_TEST && v->items[k].outcome == VO_PENDING) ids[n_set++] = k;
    engine_request erqs[VERDICT_MAX_ITEMS];
    engine_report reps[VERDICT_MAX_ITEMS];
    for (int k = 0; k < n_set; k++) test_request(rq, &v->items[ids[k]], (uint64_t)(ids[k] + 1), &erqs[k]);
    int done = engine_run_set(erqs, n_set, progress, progress_user, cancel, reps);
    for (int k = 0; k < done; k++) {
        engine_report *rep = &reps[k];
        take_report(&v->items[ids[k]], rep);
        if (rep->status == ENG_CANCELLED) v->cancelled = 1;
        int code = engine_exit_code(rep->status);
        if (code == 2 || rep->status == ENG_USAGE || rep->status == ENG_NO_DEVICE || rep->status == ENG_CANCELLED)
            *stop = 1;
        if (item_cb) item_cb(user, v, ids[k], rep);
        engine_report_free(rep);
    }
    return ids[done - 1];
}

/* The request the analyses of verdict_run are made from. */
static void analysis_request(const verdict_request *rq, engine_request *erq) {
    engine_request_defaults(erq);
    erq->lesson = rq->lesson;
    erq->kernel_path = rq->kernel_path;
    erq->display_path = rq->display_path;
    erq->size_spec = rq->analysis_size;
    erq->timeout_s = 120;
}

/* The chapter's own size, in the input its analysis names: where the cost is judged a second time. */
static void own_size(const lesson *l, char *buf, size_t len) {
    char input[32];
    verdict_analysis_input(l, input, sizeof input);
    int named = *input && !strchr(l->default_size, ':');
    snprintf(buf, len, "%s%s%s", l->default_size, named ? ":" : "", named ? input : "");
}

/* Analyses made ahead on threads of their own, while the tests run (the
 * simulator takes one core each): the cost at the chapter's own size, from
 * the start (one work-group simulated; the verdict's own call then recalls
 * it from the cache of run results, joined before that call, so never made
 * twice), and, once the first test has passed, the analysis at the
 * chapter's size (the race check and the techniques) with the race check at
 * a ragged size beside it. Each is stopped by a flag of its own: when the
 * first test fails, or the verdict is cancelled. */
typedef struct {
    const verdict_request *rq;
    volatile int stop;
    pthread_t thread;
    int started;
    char size[160];
    gpumodel_report rep;      /* an analysis's (zeroed, status GM_UNAVAILABLE: none made) */
} analysis_ahead;

static void *cost_ahead_main(void *arg) {
    analysis_ahead *aa = arg;
    gp_profile prof;
    char err[512];
    if (verdict_cost_profile(aa->rq->lesson, &prof, err, sizeof err) != 0) return NULL;
    engine_request erq;
    analysis_request(aa->rq, &erq);
    gpumodel_report big;
    gm_cost ref;
    verdict_cost_at_scale(aa->rq->lesson, &erq, aa->size, 1, &prof, NULL, NULL, &aa->stop, &big, &ref);
    gpumodel_report_free(&big);
    return NULL;
}

/* The kernel analysed at aa->size, or at the chapter's analysis size when that is "". */
static void *analysis_ahead_main(void *arg) {
    analysis_ahead *aa = arg;
    engine_request erq;
    analysis_request(aa->rq, &erq);
    if (aa->size[0]) erq.size_spec = aa->size;
    gpumodel_analyze(&erq, NULL, NULL, &aa->stop, &aa->rep);
    return NULL;
}

static void ahead_start(analysis_ahead *aa, const verdict_request *rq, void *(*main_fn)(void *)) {
    if (aa->started) return;
    aa->rq = rq;
    aa->started = pthread_create(&aa->thread, NULL, main_fn, aa) == 0;
}

/* The cost at scale ahead, where the chapter judges the cost and the cache keeps results. */
static void cost_ahead_start(analysis_ahead *aa, const verdict_request *rq) {
    technique_check tq[TECHNIQUE_MAX];
    char err[256], kept[PATH_MAX];
    int nq = technique_parse(lesson_param_get(rq->lesson, "technique", ""), tq, TECHNIQUE_MAX, err, sizeof err);
    int wants_ref = 0;
    for (int i = 0; i < nq; i++) wants_ref |= technique_needs_reference(&tq[i]);
    if (!wants_ref || runcache_folder(kept, sizeof kept) != 0) return;
    own_size(rq->lesson, aa->size, sizeof aa->size);
    ahead_start(aa, rq, cost_ahead_main);
}

/* The ragged run ahead, where the chapter has a race check and its analysis size fills every work-group. */
static void ragged_ahead_start(analysis_ahead *aa, const verdict_request *rq, const verdict *v) {
    const lesson *l = rq->lesson;
    const char *size = rq->analysis_size ? rq->analysis_size : gpumodel_analysis_size(l, NULL);
    int safety = 0;
    for (int i = 0; i < v->n; i++) safety |= v->items[i].kind == VK_SAFETY;
    if (!safety || size_is_ragged(l, size) || verdict_ragged_size(l, size, aa->size, sizeof aa->size) != 0) return;
    ahead_start(aa, rq, analysis_ahead_main);
}

/* Waits for an analysis made ahead, saying it is still at work to progress
 * (on this thread) and stopping it when the verdict is cancelled. */
static void ahead_wait(analysis_ahead *aa, run_progress_cb progress, void *progress_user, volatile int *cancel) {
    double t0 = util_now();
    while (aa->started) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        if (pthread_timedjoin_np(aa->thread, NULL, &until) == 0) aa->started = 0;
        else if (cancel && *cancel) aa->stop = 1;
        else if (progress) progress(progress_user, &(run_progress){.phase = PHASE_RUN, .elapsed_s = util_now() - t0});
    }
}

static void ahead_join(analysis_ahead *aa, int stop) {
    if (stop) aa->stop = 1;
    if (aa->started) pthread_join(aa->thread, NULL);
    aa->started = 0;
}

/* A find-the-bug listing with its bug mended is not the learner's own
 * kernel: an item added, failed, only then (grade credits nothing for it
 * either; grade_credit.c). */
static void own_kernel(const verdict_request *rq, verdict *v, verdict_item_cb item_cb, void *user) {
    const lesson *l = rq->lesson;
    if (l->n_bugs == 0 || v->cancelled || !rq->kernel_path) return;
    char course[1100];
    snprintf(course, sizeof course, "%s/../..", l->dir);
    char *mine = util_read_file(rq->kernel_path, NULL);
    double share = 0;
    const lesson_bug *bug = mine ? verdict_fix_mended_listing(course, l, mine, &share) : NULL;
    free(mine);
    verdict_item *it = bug ? add_item(v, VK_OWN, "own", N_("own kernel: not a find-the-bug listing, mended")) : NULL;
    if (!it) return;
    tmsg_clear(&it->msg);
    set_item(it, VO_FAIL, N_("Not your own"),
             "This is the find-the-bug listing %s with its bug mended (%.0f%% of the listing's own code): the chapter "
             "counts only for a kernel of your own, and the mended listing counts as that listing's fix.",
             bug->file, share * 100);
    if (item_cb) item_cb(user, v, v->n - 1, NULL);
}

/* The three analyses a verdict makes ahead (analysis_ahead). */
typedef struct {
    analysis_ahead cost, main, ragged;
} verdict_aheads;

/* The race check and technique items, from the analysis made ahead or made
 * now (stop: nothing correct to simulate). */
static void model_items(const verdict_request *rq, verdict *v, int stop, verdict_aheads *ah, run_progress_cb progress,
                        void *progress_user, verdict_item_cb item_cb, void *user, volatile int *cancel) {
    gpumodel_report gm;
    engine_request erq;
    analysis_request(rq, &erq);
    if (stop) {
        memset(&gm, 0, sizeof gm);
        gm.status = GM_FAILED;
        snprintf(gm.message, sizeof gm.message, "%s", _("no test passed, so there is nothing correct to check yet"));
    } else if (ah->main.started) {
        ahead_wait(&ah->main, progress, progress_user, cancel);
        gm = ah->main.rep; /* taken: freed below as gm */
        memset(&ah->main.rep, 0, sizeof ah->main.rep);
    } else {
        ragged_ahead_start(&ah->ragged, rq, v);
        gpumodel_analyze(&erq, progress, progress_user, cancel, &gm);
    }
    if (cancel && *cancel) v->cancelled = 1;
    technique_check tq[TECHNIQUE_MAX];
    char err[256];
    int nq = technique_parse(lesson_param_get(rq->lesson, "technique", ""), tq, TECHNIQUE_MAX, err, sizeof err);
    /* what the previous stage's reference loads at the same size, for the checks that compare with it */
    technique_baseline prev = {0};
    int wants_prev = 0, wants_ref = 0;
    for (int i = 0; i < nq; i++) {
        wants_prev |= technique_needs_previous(&tq[i]);
        wants_ref |= technique_needs_reference(&tq[i]);
    }
    if (wants_prev && !stop && gm.status == GM_OK) previous_baseline(rq, &erq, &gm, progress, progress_user, cancel, &prev);
    /* the chapter's reference at the same size and input, for the cost */
    gp_profile prof;
    gm_cost ref_cost, big_ref;
    char perr[512];
    technique_inputs in = {.prev = &prev, .lesson = rq->lesson};
    gpumodel_report big;
    if (wants_ref && !stop && gm.status == GM_OK && gm.run.status == ENG_PASS &&
        verdict_cost_profile(rq->lesson, &prof, perr, sizeof perr) == 0) {
        in.profile = &prof;
        if (verdict_reference_cost(rq->lesson, &erq, &gm, &prof, progress, progress_user, cancel, &ref_cost) == 0)
            in.reference = &ref_cost;
        /* and at the chapter's own size, where a kernel cannot keep the reference's path for small sizes */
        char big_size[160];
        own_size(rq->lesson, big_size, sizeof big_size);
        ahead_join(&ah->cost, v->cancelled);
        if (verdict_cost_at_scale(rq->lesson, &erq, big_size, 1, &prof, progress, progress_user, cancel, &big,
                                  &big_ref) == 0) {
            in.at_scale = &big;
            in.reference_at_scale = &big_ref;
        }
    }
    ahead_join(&ah->ragged, v->cancelled);
    int t = 0;
    for (int i = 0; i < v->n && !v->cancelled; i++) {
        verdict_item *it = &v->items[i];
        if (it->kind == VK_SAFETY) {
            verdict_safety(&gm, it);
            if (!stop) safety_when_ragged(&ah->ragged.rep, it);
        } else if (it->kind == VK_TECHNIQUE && t < nq) verdict_technique(&tq[t++], &gm, &in, it);
        else continue;
        if (item_cb) item_cb(user, v, i, NULL);
    }
    if (!stop) gpumodel_report_free(&gm);
    if (in.profile) gpumodel_report_free(&big);
}

void verdict_run(const verdict_request *rq, verdict *v, run_progress_cb progress, void *progress_user,
                 verdict_item_cb item_cb, void *user, volatile int *cancel) {
    verdict_aheads ah = {.cost.rep.status = GM_UNAVAILABLE};
    ah.main = ah.ragged = ah.cost;
    int need_model = 0;
    for (int i = 0; i < v->n; i++) need_model |= v->items[i].kind != VK_TEST;
    int stop = check_source(rq, v, item_cb, user) != 0;
    if (!stop) cost_ahead_start(&ah.cost, rq); /* beside the first test: stopped if it fails */
    for (int i = 0; i < v->n; i++) {
        verdict_item *it = &v->items[i];
        if (it->kind != VK_TEST || it->outcome != VO_PENDING) continue;
        if (cancel && *cancel) { v->cancelled = 1; break; }
        if (stop) {
            tmsg_clear(&it->msg);
            set_item(it, VO_FAIL, N_("Not run"), "the kernel did not build, start or pass the source check (see above).");
            if (item_cb) item_cb(user, v, i, NULL);
            continue;
        }
        i = run_tests_from(rq, v, i, progress, progress_user, item_cb, user, cancel, &stop);
        if (v->cancelled) break;
        int first = first_test(v);
        if (stop || (first >= 0 && v->items[first].outcome != VO_PENDING && v->items[first].outcome != VO_PASS))
            ah.cost.stop = 1; /* nothing correct to simulate yet: the verdict's own call makes it if it must */
        else if (first >= 0 && v->items[first].outcome == VO_PASS && need_model && !ah.main.started &&
                 !ah.main.stop) {
            ahead_start(&ah.main, rq, analysis_ahead_main); /* beside the other tests */
            ah.main.stop = !ah.main.started;
            ragged_ahead_start(&ah.ragged, rq, v);
        }
    }
    int any_passed = 0;
    for (int i = 0; i < v->n; i++) any_passed |= v->items[i].kind == VK_TEST && v->items[i].outcome == VO_PASS;
    if (!any_passed) stop = 1; /* nothing correct to simulate (and a kernel that hangs would hang it too) */
    if (need_model && !v->cancelled) model_items(rq, v, stop, &ah, progress, progress_user, item_cb, user, cancel);
    ahead_join(&ah.cost, 1);
    ahead_join(&ah.ragged, 1);
    ahead_join(&ah.main, 1);
    gpumodel_report_free(&ah.ragged.rep); /* zeroed where none was made, or taken */
    gpumodel_report_free(&ah.main.rep);
    own_kernel(rq, v, item_cb, user);
    verdict_settle(v);
}

void verdict_to_progress(const verdict *v, progress_run *run) {
    run->verdict = v->passed ? PV_PASSED : v->failed || v->cancelled ? PV_FAILED : PV_INCOMPLETE;
    run->verdict_note[0] = '\0';
    run->unsafe = 0;
    for (int i = 0; i < v->n; i++) run->unsafe |= v->items[i].kind == VK_SAFETY && v->items[i].outcome == VO_FAIL;
    for (int i = 0; i < v->n; i++) {
        const verdict_item *it = &v->items[i];
        if (it->outcome != VO_FAIL) continue;
        snprintf(run->verdict_note, sizeof run->verdict_note, "%s: %s", it->name, it->headline);
        return;
    }
    if (run->verdict == PV_INCOMPLETE)
        /* kept in the learner's progress in English, as the headlines are */
        snprintf(run->verdict_note, sizeof run->verdict_note, "%s",
                 N_("the race check or the technique could not run here"));
}
