/* verdict — what it takes to pass a chapter, defined once: correct on every
 * visible test, free of races and memory errors under the simulator, and the
 * chapter's technique measured on the learner's own kernel. The UI, `run`,
 * `check` and `grade` all decide through it. */
#ifndef CLT_VERDICT_H
#define CLT_VERDICT_H
#include <stddef.h>

#include "course/catalog.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "course/progress.h"
#include "gpumodel/technique.h"
#include "text/tmsg.h"
#include "grade/verdict_fix.h"

/* X(enum, name for machines) */
#define VERDICT_KINDS(X) X(VK_TEST, "test") X(VK_SAFETY, "safety") X(VK_TECHNIQUE, "technique") X(VK_OWN, "own")
#define VERDICT_OUTCOMES(X) X(VO_PENDING, "pending") X(VO_PASS, "pass") X(VO_FAIL, "fail") X(VO_SKIP, "skip")

typedef enum {
#define VD_ENUM(e, name) e,
    VERDICT_KINDS(VD_ENUM)
#undef VD_ENUM
} verdict_kind;

typedef enum {
#define VD_ENUM(e, name) e,
    VERDICT_OUTCOMES(VD_ENUM)
#undef VD_ENUM
} verdict_outcome;

const char *verdict_kind_name(verdict_kind k);
const char *verdict_outcome_name(verdict_outcome o);

/* In a lesson's folder: what the previous chapter's reference loads at this
 * chapter's analysis size (see technique_baseline). */
#define VERDICT_PREVIOUS_FIGURES "previous-reference.ini"

#define VERDICT_MAX_ITEMS (LESSON_MAX_SIZES + LESSON_MAX_BUGS + TECHNIQUE_MAX + 4)

typedef struct {
    verdict_kind kind;
    char id[80];              /* "size.1000x16", "safety", "technique.coalesced_loads" */
    char name[192];           /* for people */
    char size[64];            /* tests: the size spec run */
    verdict_outcome outcome;
    engine_status status;     /* tests: how the run ended */
    char headline[128];
    char detail[1536];        /* what happened, why, what to do: in the language of the check */
    tmsg msg;                 /* the same, to be shown in any language (verdict_detail) */
    int line;                 /* a source line it points at, 0 none */
    double wall_s;
} verdict_item;

typedef struct {
    verdict_item items[VERDICT_MAX_ITEMS];
    int n;
    int done;                 /* items finished */
    int passed;               /* every item passed */
    int failed;               /* at least one item failed */
    int skipped;              /* some could not be checked here (no Oclgrind): not failed, not passed */
    int cancelled;
} verdict;

/* Whether the chapter's verdict has a race check (every chapter whose kernel
 * runs in parallel). */
int verdict_has_safety(const lesson *l);

/* The visible tests of a chapter's exercise: its check sizes, its default
 * size and the input that exposes each find-the-bug listing, each once;
 * then the safety check and each technique check. Returns 0, or -1 with a
 * message naming lesson.ini. */
int verdict_plan(const lesson *l, verdict *v, char *err, size_t errlen);

typedef struct {
    const lesson *lesson;
    const char *kernel_path;
    const char *display_path;
    const char *device_spec;
    double timeout_s;
    const char *analysis_size;   /* NULL: the chapter's analysis size */
    const lesson *previous;      /* the previous chapter, whose reference some techniques compare with, or NULL */
    const char *previous_reference; /* that reference's file; NULL or missing where the install withholds it:
                                     * then what it loads comes from VERDICT_PREVIOUS_FIGURES in the lesson's folder */
    struct wproto_warm *warm;      /* a worker started ahead that the first test may take; NULL: none */
} verdict_request;

/* Called after each item; index is the item just finished, rep its run
 * (tests only, else NULL) for callers that show the evidence. */
typedef void (*verdict_item_cb)(void *user, const verdict *v, int index, const engine_report *rep);

/* Runs the plan: the tests (stopping early on a build error, where every
 * other size would fail alike), then one analysis on the GPU memory model
 * for the safety and technique checks. progress reports each run's phases. */
void verdict_run(const verdict_request *rq, verdict *v, run_progress_cb progress, void *progress_user,
                 verdict_item_cb item_cb, void *user, volatile int *cancel);

/* The safety check of an analysed run: no memory errors, data races,
 * uninitialised __local reads or divergent barriers. Fills item; returns
 * 1 when safe. */
int verdict_safety(const gpumodel_report *gm, verdict_item *item);

/* One technique check on an analysed run; the run must be correct to earn it.
 * in: what the check compares with (technique_inputs), or NULL. */
void verdict_technique(const technique_check *c, const gpumodel_report *gm, const technique_inputs *in,
                       verdict_item *item);

/* In a lesson's folder: the chapter's reference's cost at its analysis size
 * (gm_cost_figures), for installs without the reference. */
#define VERDICT_REFERENCE_COST "reference-cost.ini"

/* A size like `size` whose first count fills no whole number of work-groups
 * (a quarter of it less one where that leaves two work-groups and more, else
 * about 1/16 less; never a multiple of the work-group size): where a kernel
 * that returns before a barrier, or forgets the last group's end, shows it,
 * mostly at a quarter of the simulator's time.
 * Returns 0, or -1 where the size is too small to cut. */
int verdict_ragged_size(const lesson *l, const char *size, char *out, size_t len);

/* The input the chapter's analysis names (`analysis_size = 64K:equal`:
 * "equal", where the technique shows), or "" where it names none. */
const char *verdict_analysis_input(const lesson *l, char *buf, size_t len);

/* The chapter's reference file (DATA/kernels/ID/EXERCISE beside the lesson's
 * folder), whether it is there or not. */
void verdict_reference_path(const lesson *l, char *buf, size_t len);

/* The GPU the cost checks model (devices/GP_DEFAULT_GPU.ini beside the
 * lesson's folder). Returns 0, or -1 with err. */
int verdict_cost_profile(const lesson *l, gp_profile *p, char *err, size_t errlen);

/* The chapter's reference's cost at gm's size and input: the course's
 * figures where they were measured at that size, else an analysis of the
 * reference (like: the request to copy limits from). Returns 0, or -1 where
 * neither is there. */
int verdict_reference_cost(const lesson *l, const engine_request *like, const gpumodel_report *gm,
                           const gp_profile *p, run_progress_cb progress, void *progress_user, volatile int *cancel,
                           gm_cost *out);

/* The cost at a large size (the lesson's scale_analysis: how many work-groups
 * to simulate): the kernel of `like` and the chapter's reference at size, the
 * groups drawn from draw (gpumodel_analyze_sampled). Returns 0 with both, or
 * -1 where the chapter has no such analysis or either could not be made (no
 * reference here): the cost is then judged at the analysis size alone. */
int verdict_cost_at_scale(const lesson *l, const engine_request *like, const char *size, uint64_t draw,
                          const gp_profile *p, run_progress_cb progress, void *progress_user, volatile int *cancel,
                          gpumodel_report *mine, gm_cost *ref);

/* The verdict as a run in the learner's history: its outcome and the
 * first thing that failed, in words (run's other fields untouched). */
void verdict_to_progress(const verdict *v, progress_run *run);

/* An item's headline (kept in English) in the learner's language, in buf;
 * returns buf. */
const char *verdict_headline(const char *headline, char *buf, size_t len);
/* An item's name in the learner's language (a technique of one kernel: its
 * check's name translated, and the kernel's). */
const char *verdict_item_name(const verdict_item *it, char *buf, size_t len);

/* An item's detail in the current language (the language of the check
 * where it was not kept apart from it); returns buf. */
const char *verdict_detail(const verdict_item *it, char *buf, size_t len);

/* Sets passed/failed from the items. */
void verdict_settle(verdict *v);

#endif
