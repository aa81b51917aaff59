/* grade_model — a chapter's analyses on the GPU memory model in grading,
 * each made once and shared by the race check and the technique checks:
 * the kernel at the technique size, the previous chapter's reference and
 * this chapter's reference there, and the kernel and the reference at the
 * size of the largest hidden tests (some work-groups simulated). */
#ifndef CLT_GRADE_MODEL_H
#define CLT_GRADE_MODEL_H
#include "grade/grade.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_cost.h"

/* What the analyses may take: the grading run's limits. */
typedef struct {
    const grade_options *o;
    long cpu_s;                 /* CPU seconds a worker may use */
    const char *cache_root;     /* where compiled kernels are cached (NULL: the user's cache) */
    volatile int *cancel;
} grade_model_limits;

/* Zeroed to start; grade_analysis_free() at the chapter's end. */
typedef struct {
    int done;
    gpumodel_report gm;         /* the kernel at the technique size */
    int prev_done;              /* the previous chapter's reference at the same size (some techniques compare) */
    gpumodel_report prev;
    int ref_done, ref_ok;       /* the chapter's reference's cost at the same size and input (the cost check) */
    gm_cost ref;
    gp_profile profile;
    int big_done, big_ok;       /* the kernel and the reference at a large size (t->scale_size), sampled */
    gpumodel_report big;
    gm_cost big_ref;
} grade_analysis;

/* The kernel (path, named display) at test t's size and seed, once. */
void grade_analysis_once(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                         const char *display, grade_analysis *an);
/* The chapter's reference's cost at the size and input of an->gm, once; NULL where it cannot be had. */
const gm_cost *grade_analysis_reference(const grade_model_limits *lim, const lesson *l, grade_analysis *an);
/* The previous chapter's reference at the size of an->gm, once; NULL where there is none. */
const gpumodel_report *grade_analysis_previous(const grade_model_limits *lim, const lesson *l, grade_analysis *an);
/* The kernel and the reference at t->scale_size (verdict_cost_at_scale), once; 0 when both are there. */
int grade_analysis_at_scale(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                            const char *display, grade_analysis *an);
/* A chapter's analyses made ahead, for the cache of run results to keep (the
 * chapter's own calls then recall them), in two parts that run side by side:
 * the kernel at model test t's size (the race check and the techniques) with
 * the reference's cost there, and the kernel and the reference at
 * t->scale_size (the cost at a hidden size). The grader makes every
 * chapter's before any chapter starts. */
typedef enum { GA_AT_SIZE, GA_AT_SCALE } grade_ahead_part;
void grade_analysis_ahead(const grade_model_limits *lim, const lesson *l, const grade_test *t, const char *path,
                          const char *display, grade_ahead_part part);
void grade_analysis_free(grade_analysis *an);

#endif
