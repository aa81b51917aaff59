/* phase — the steps of a run (opening the device, building, running, ...)
 * as one enum, with each step's name on the worker's progress pipe and its
 * label for people; and the progress record every live status reads. */
#ifndef CLT_PHASE_H
#define CLT_PHASE_H
#include "text/i18n.h"

/* X(ENUM, wire name, label for people) */
#define RUN_PHASES(X)                                                   \
    X(PHASE_START, "start", N_("opening the device"))                       \
    X(PHASE_DEVICE, "device", N_("opening the device"))                     \
    X(PHASE_REFERENCE, "reference", N_("computing the golden reference"))   \
    X(PHASE_BUILD, "build", N_("building the kernel"))                      \
    X(PHASE_SETUP, "setup", N_("preparing buffers"))                        \
    X(PHASE_RUN, "run", N_("running"))                                      \
    X(PHASE_TIME, "time", N_("timing the kernel"))                          \
    X(PHASE_CHECK, "check", N_("checking"))                                 \
    X(PHASE_DEVICES, "devices", N_("looking for devices"))                  \
    X(PHASE_COPY, "copy", N_("measuring the device's copy bandwidth"))      \
    X(PHASE_PEAK, "peak", N_("measuring the device's FP32 peak"))           \
    X(PHASE_PROFILE, "profile", N_("measuring the device's profile"))       \
    X(PHASE_SERIAL, "serial", N_("timing the serial C reference"))          \
    X(PHASE_OPENMP, "openmp", N_("timing the OpenMP loop"))                 \
    X(PHASE_QUEUE, "queue", N_("waiting for the device"))

typedef enum {
#define PHASE_ENUM(e, name, label) e,
    RUN_PHASES(PHASE_ENUM)
#undef PHASE_ENUM
    PHASE_COUNT
} run_phase;

/* Where a run stands, for a live status line. */
typedef struct {
    run_phase phase;
    int comparison;    /* the GPU model's second run: the kernel compared with */
    int done, total;   /* launches done of total; in PHASE_QUEUE, done is the waiters ahead */
    int checked;       /* from PHASE_TIME on, where the caller asked (engine_request.tell_checked): 1 the
                        * checked launch's answer is right, -1 wrong, 0 not known */
    double elapsed_s;  /* since the run started */
} run_progress;

/* Called with each step and each launch of a run (on the caller's thread). */
typedef void (*run_progress_cb)(void *user, const run_progress *p);

/* The name a worker writes on its progress pipe ("build"). */
const char *run_phase_name(run_phase p);
/* What the step does, for people, in English ("building the kernel"); the
 * views translate it. */
const char *run_phase_label(run_phase p);
/* The phase a worker named, or -1 for a name no phase has. */
int run_phase_parse(const char *name);
/* Whether the learner's kernel runs in phase p: its checked launch (PHASE_RUN) or its timed ones (PHASE_TIME). */
int run_phase_runs_kernel(run_phase p);

#endif
