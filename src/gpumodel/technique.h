/* technique — what each chapter teaches, measured by its effect on the
 * learner's own kernel in the GPU memory model, never by a declaration. */
#ifndef CLT_TECHNIQUE_H
#define CLT_TECHNIQUE_H
#include <stddef.h>

#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_cost.h"
#include "text/tmsg.h"

/* The metrics a chapter's `technique` key may name: X(enum, name, default
 * operator, default threshold, what it measures, the figure in a learner's
 * words: English, N_, translated where it is shown). Shares are of bytes
 * (loads) or executions (atomics); "significant" instructions carry at least
 * TECHNIQUE_SIGNIFICANT of their kind's traffic, so that cheap extra accesses
 * cannot dilute a slow one. */
#define TECHNIQUE_METRICS(X)                                                                                     \
    X(TQ_LOCAL_MEMORY, "local_memory", ">=", 1, "bytes of __local memory the kernel uses",                      \
      N_("bytes of __local memory used"))                                                                       \
    X(TQ_CONSTANT_ARGS, "constant_args", ">=", 1, "kernel arguments in __constant memory",                      \
      N_("__constant arguments"))                                                                               \
    X(TQ_COALESCING, "coalescing", ">=", 0.6, "least efficient significant global load or store",               \
      N_("efficiency of the least coalesced global access"))                                                    \
    X(TQ_COALESCED_LOADS, "coalesced_loads", ">=", 0.6, "least efficient significant global load",              \
      N_("efficiency of the least coalesced global load"))                                                      \
    X(TQ_COALESCED_STORES, "coalesced_stores", ">=", 0.6, "least efficient significant global store",           \
      N_("efficiency of the least coalesced global store"))                                                     \
    X(TQ_WIDE_LOADS, "wide_loads", ">=", 0.25, "share of global and constant load bytes read 16 bytes at a time",\
      N_("share of loaded bytes read 16 bytes at a time"))                                                      \
    X(TQ_LOCAL_LOADS, "local_loads", ">=", 0.3, "share of all load bytes read from __local memory",             \
      N_("share of loaded bytes read from __local memory"))                                                     \
    X(TQ_CONSTANT_BROADCASTS, "constant_broadcasts", ">=", 0.3,                                                  \
      "share of all load bytes read from __constant memory as broadcasts",                                      \
      N_("share of loaded bytes broadcast from __constant memory"))                                             \
    X(TQ_LOCAL_ATOMICS, "local_atomics", ">=", 0.9, "share of atomic updates made on __local memory",          \
      N_("share of atomic updates made in __local memory"))                                                     \
    X(TQ_BANK_CONFLICTS, "bank_conflicts", "<=", 1.5, "worst bank-conflict degree of a significant __local access",\
      N_("worst __local bank conflict (ways)"))                                                                 \
    X(TQ_ACTIVE_LANES, "active_lanes", ">=", 8, "work-items of a warp taking part in a memory request, on average",\
      N_("work-items of 32 taking part in each memory request"))                                                \
    X(TQ_LOCAL_OPS, "local_ops_per_element", "<=", 6, "__local loads and stores per element read from global memory",\
      N_("__local loads and stores per element read"))                                                          \
    X(TQ_GLOBAL_LOADS_VS_PREV, "global_loads_vs_previous", "<=", 0.7,                                          \
      "global load bytes, as a share of the previous chapter's reference at the same size",                     \
      N_("global load bytes as a share of the previous chapter's reference's"))                                 \
    X(TQ_LOAD_REQUESTS_VS_PREV, "load_requests_vs_previous", "<=", 0.8,                                        \
      "global and __constant load requests, as a share of the previous chapter's reference at the same size",  \
      N_("load requests as a share of the previous chapter's reference's"))                                     \
    X(TQ_COST, "cost", "<=", 1.25,                                                                              \
      "modelled GPU cost (gm_cost), as a multiple of the chapter's reference's at the same size and input",     \
      N_("modelled GPU cost as a multiple of the reference's"))

typedef enum {
#define TQ_ENUM(e, name, op, thr, what, phrase) e,
    TECHNIQUE_METRICS(TQ_ENUM)
#undef TQ_ENUM
    TQ_N_METRICS
} technique_metric;

typedef enum { TQ_GE = 0, TQ_LE, TQ_GT, TQ_LT } technique_op;

/* A share of traffic at or above which one instruction must meet the check by itself. */
#define TECHNIQUE_SIGNIFICANT 0.05

/* One check as a chapter writes it: "coalesced_loads>=0.9", or for one of
 * the chapter's kernels only, "coalesced_stores@transpose>=0.6". */
typedef struct {
    technique_metric metric;
    char kernel[64];      /* "" for every kernel */
    technique_op op;
    double threshold;
    char text[64];        /* as written */
} technique_check;

#define TECHNIQUE_MAX 8

/* Parses the chapter's `technique` key (checks separated by spaces or
 * commas). Returns the count, or -1 with the reason in err. */
int technique_parse(const char *spec, technique_check *out, int max, char *err, size_t errlen);

const char *technique_metric_name(technique_metric m);
/* The figure in a learner's words (English: translate it with _()), as in
 * "share of loaded bytes broadcast from __constant memory". */
const char *technique_metric_phrase(technique_metric m);
/* The metric a name (as a chapter or a headline writes it) means, or -1. */
int technique_metric_lookup(const char *name, size_t len);
const char *technique_op_text(technique_op op);

/* A stable id for reports and weights: "technique.coalesced_loads", "technique.bank_conflicts.transpose". */
void technique_id(const technique_check *c, char *buf, size_t len);

/* A short name for people: "technique: coalesced global loads", with the kernel it is about. */
void technique_title(const technique_check *c, char *buf, size_t len);

typedef struct {
    int measured;         /* 0: nothing to measure (the detail says why); the check is not met */
    int not_applicable;   /* the check is of a kernel the file does not have (another design): met */
    int met;
    double value;
    int line;             /* the source line that decides it, 0 when none */
    char kernel[64];      /* the kernel that decides it */
    char detail[1280];    /* what was measured, what the chapter asks, what to change (in the current language) */
    tmsg msg;             /* the same, to be shown in any language */
    int at_scale;         /* decided by the run at a large size (technique_inputs.at_scale), not the analysis size */
} technique_result;

/* Whether the check compares with the previous chapter's reference (which
 * must then be analysed at the same size). */
int technique_needs_previous(const technique_check *c);

/* What the previous chapter's reference loads at one size: the checks that
 * compare with it need only these two figures (from an analysis of the
 * reference, or from the course's committed figures where the install
 * withholds the reference itself). */
typedef struct {
    int known;
    char size[64];        /* the size they were measured at */
    double global_load_bytes;
    double load_requests; /* global and __constant load requests of the warps */
} technique_baseline;

/* The figures of an analysed run (known only when rep->status is GM_OK). */
technique_baseline technique_baseline_of(const gpumodel_report *rep);
/* Reads committed figures (lessons/ID/previous-reference.ini); returns 0,
 * or -1 with err naming the file and line. */
int technique_baseline_load(const char *path, technique_baseline *out, char *err, size_t errlen);
/* Writes them (`cltutor validate --write-figures`). */
int technique_baseline_save(const char *path, const technique_baseline *b, const char *chapter);

/* Whether the check compares with the chapter's own reference's cost. */
int technique_needs_reference(const technique_check *c);

/* What some checks compare with; any may be NULL (a check that needs it is then not measured). */
typedef struct {
    const technique_baseline *prev;  /* what the previous chapter's reference loads at the same size */
    const gm_cost *reference;        /* the chapter's reference's cost at the same size and input */
    const lesson *lesson;            /* the chapter (its bench size, for the cost) */
    const gp_profile *profile;       /* the GPU the cost is modelled on */
    /* the same kernel at a hidden test's full size, some work-groups simulated
     * (gpumodel_analyze_sampled), and the reference's cost there: the cost must
     * hold at both sizes, so that no path kept for small sizes passes */
    const gpumodel_report *at_scale;
    const gm_cost *reference_at_scale;
    int at_scale_hidden;             /* that size is a hidden test's: the messages do not name it */
} technique_inputs;

/* Measures one check on an analysed run (rep->status GM_OK). */
void technique_measure(const technique_check *c, const gpumodel_report *rep, const technique_inputs *in,
                       technique_result *out);

#endif
