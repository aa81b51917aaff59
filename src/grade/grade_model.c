/* grade_model — a chapter's analyses on the GPU memory model in grading,
 * each made once and shared (see grade_model.h). */
#define _GNU_SOURCE
#include "grade/grade_model.h"
#include "grade/verdict.h"

#include <stdio.h>
#include <string.h>

/* A request for an analysis within the run's limits: the simulator is slow. */
static void limited_request(const grade_model_limits *lim, engine_request *rq) {
    engine_request_defaults(rq);
    rq->timeout_s = lim->o->timeout_s > 120 ? lim->o->timeout_s : 120;
    rq->budget_s = 0;
    rq->cpu_limit_s = lim->cpu_s > 300 ? lim->cpu_s : 300;
    rq->memory_limit_mb = lim->o->memory_mb;
    rq->cache_root = lim->cache_root;
}

/* A request for the learner's kernel (path, named display) at test t's seed. */
static void kernel_request(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                           const char *display, engine_request *rq) {
    limited_request(lim, rq);
    rq->lesson = l;
    rq->kernel_path = path;
    rq->display_path = display;
    rq->seed = t->seed;
}

const gm_cost *grade_analysis_reference(const grade_model_limits *lim, const lesson *l, grade_analysis *an) {
    if (an->ref_done) return an->ref_ok ? &an->ref : NULL;
    an->ref_done = 1;
    char err[512];
    if (an->gm.status != GM_OK || verdict_cost_profile(l, &an->profile, err, sizeof err) != 0) return NULL;
    engine_request rq;
    limited_request(lim, &rq);
    rq.timeout_s = 120;
    an->ref_ok = verdict_reference_cost(l, &rq, &an->gm, &an->profile, NULL, NULL, lim->cancel, &an->ref) == 0;
    return an->ref_ok ? &an->ref : NULL;
}

int grade_analysis_at_scale(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                            const char *display, grade_analysis *an) {
    if (an->big_done) return an->big_ok ? 0 : -1;
    an->big_done = 1;
    if (!t->scale_size[0] || !an->ref_ok) return -1;
    engine_request rq;
    kernel_request(lim, l, t, path, display, &rq);
    an->big_ok = verdict_cost_at_scale(l, &rq, t->scale_size, t->seed, &an->profile, NULL, NULL, lim->cancel,
                                       &an->big, &an->big_ref) == 0;
    return an->big_ok ? 0 : -1;
}

const gpumodel_report *grade_analysis_previous(const grade_model_limits *lim, const lesson *l, grade_analysis *an) {
    if (an->prev_done) return an->prev.status == GM_OK ? &an->prev : NULL;
    an->prev_done = 1;
    memset(&an->prev, 0, sizeof an->prev);
    an->prev.status = GM_FAILED;
    const catalog *cat = lim->o->cat;
    const lesson *prev = cat && l->previous > 0 ? catalog_by_number(cat, l->previous) : NULL;
    if (!prev || strcmp(prev->problem, l->problem) != 0 || !lim->o->course || an->gm.status != GM_OK) return NULL;
    char ref[1400];
    snprintf(ref, sizeof ref, "%s/kernels/%s/%s", lim->o->course, prev->id, prev->exercise);
    engine_request rq;
    limited_request(lim, &rq);
    rq.timeout_s = 120;
    rq.lesson = prev;
    rq.kernel_path = ref;
    rq.display_path = ref;
    rq.size_spec = an->gm.size_text;
    gpumodel_analyze_figures(&rq, NULL, NULL, lim->cancel, &an->prev);
    return an->prev.status == GM_OK ? &an->prev : NULL;
}

void grade_analysis_once(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                         const char *display, grade_analysis *an) {
    if (an->done) return;
    an->done = 1;
    engine_request rq;
    kernel_request(lim, l, t, path, display, &rq);
    rq.size_spec = t->size;
    gpumodel_analyze(&rq, NULL, NULL, lim->cancel, &an->gm);
}

void grade_analysis_ahead(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                          const char *display, grade_ahead_part part) {
    if (part == GA_AT_SCALE) {
        /* the kernel and the reference at t's scale size, whatever the analysis at the drawn size finds: a
         * kernel that fails there is rare, and both then run side by side */
        gp_profile prof;
        char err[512];
        if (!t->scale_size[0] || verdict_cost_profile(l, &prof, err, sizeof err) != 0) return;
        engine_request rq;
        kernel_request(lim, l, t, path, display, &rq);
        gpumodel_report big;
        gm_cost ref;
        verdict_cost_at_scale(l, &rq, t->scale_size, t->seed, &prof, NULL, NULL, lim->cancel, &big, &ref);
        gpumodel_report_free(&big);
        return;
    }
    grade_analysis an = {0};
    grade_analysis_once(lim, l, t, path, display, &an);
    if (an.gm.status == GM_OK) grade_analysis_reference(lim, l, &an);
    grade_analysis_free(&an);
}

void grade_analysis_free(grade_analysis *an) {
    if (an->done) gpumodel_report_free(&an->gm);
    if (an->prev_done) gpumodel_report_free(&an->prev);
    if (an->big_done) gpumodel_report_free(&an->big);
    memset(an, 0, sizeof *an);
}
