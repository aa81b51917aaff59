/* tui_jobs — one background thread that runs the UI's engine work in order
 * (device lists, the learner's runs, reference timings) so the screen never
 * waits; the engine itself puts every kernel in a worker process. */
#ifndef CLT_TUI_JOBS_H
#define CLT_TUI_JOBS_H
#include <pthread.h>
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/ptx.h"
#include "grade/verdict.h"

typedef enum { JOB_DEVICES = 0, JOB_RUN, JOB_REFERENCE, JOB_ANALYZE, JOB_VERDICT } tui_job_kind;

typedef struct tui_job {
    tui_job_kind kind;
    int id;                   /* set by tui_jobs_submit */
    int tag;                  /* the caller's (e.g. which comparison a reference is for) */
    /* a run: the request and copies of the strings it points to */
    engine_request rq;
    char kernel_path[1400], display_path[1400], device_spec[32], size_spec[64];
    /* an analysis on the GPU memory model: the course it needs */
    const catalog *cat;
    const paths *paths;
    gpumodel_report *gm;      /* its result */
    ptx_report *ptx;          /* and the kernel compiled for NVIDIA PTX (clang, libclc) */
    int driver_ptx;           /* ... by the driver of the device of device_spec instead (an NVIDIA GPU's) */
    gpumodel_cache *gm_cache; /* the owner's cache of the compared file's analysis */
    /* the chapter's whole verdict (tests, race check, technique) */
    verdict *vd;
    const lesson *prev;       /* the previous chapter and its reference, for techniques that compare */
    char prev_ref[1400];
    /* results */
    engine_report rep;
    engine_device *devs;
    int n_devs;
    char err[1024];
    double started, wall_s;
    volatile int cancel;
    int preemptible;          /* a run that arrives stops this job and queues it again */
    int preempted;
    struct tui_job *next;
} tui_job;

typedef struct {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, stop, exited;
    tui_job *queue;           /* waiting, in order */
    tui_job *current;
    tui_job *done;            /* finished, oldest first */
    int next_id;
    int wake[2];              /* a byte is written here whenever something happens */
    /* live progress of the current job */
    run_progress progress;
    double progress_at;
    /* the running verdict's checklist so far, for the UI to show as it fills */
    verdict live;
    int live_id;
} tui_jobs;

/* Starts the thread (signals are blocked in it, so they reach the UI). */
int tui_jobs_start(tui_jobs *j, char *err, size_t errlen);
/* Cancels everything and joins the thread. Returns 0, or -1 when the thread
 * did not stop within wait_s (a job that cannot be cancelled): the caller
 * should then leave the process without freeing what jobs use. */
int tui_jobs_stop(tui_jobs *j, double wait_s);
int tui_jobs_wake_fd(const tui_jobs *j);
/* Drains the wake pipe. */
void tui_jobs_drain(tui_jobs *j);

/* Allocates a run or reference job; the strings are copied. */
tui_job *tui_job_new_run(tui_job_kind kind, const lesson *l, const char *kernel, const char *display,
                         const char *device, const char *size);
tui_job *tui_job_new_devices(void);
/* An analysis of kernel (a chapter's file, named display in messages) on the GPU memory model, compared with
 * the previous stage. cache: the owner's, kept between analyses (the job thread runs one at a time). */
tui_job *tui_job_new_analysis(const lesson *l, const char *kernel, const char *display, const catalog *cat,
                              const paths *p, gpumodel_cache *cache);
/* The whole verdict on kernel (every visible test, the race check, the technique). */
tui_job *tui_job_new_verdict(const lesson *l, const char *kernel, const char *display, const char *device,
                             const lesson *prev, const char *prev_ref);
void tui_job_free(tui_job *job);
/* Frees a compiled-code report and clears the pointer. */
void tui_ptx_free(ptx_report **p);
/* Copies the checklist of verdict job id as it stands; 0 when that job is not running. */
int tui_jobs_verdict_live(tui_jobs *j, int id, verdict *out);

/* Queues a job; JOB_RUN goes first in line and stops a preemptible job
 * that is running (that one is queued again). Returns its id. */
int tui_jobs_submit(tui_jobs *j, tui_job *job);
/* Cancels the running job and drops waiting ones of the same kind (kind
 * -1: every job). */
void tui_jobs_cancel(tui_jobs *j, int kind);
/* A finished job (the caller frees it), or NULL. */
tui_job *tui_jobs_collect(tui_jobs *j);
/* What the running job is doing (its progress, timed from the job's start):
 * returns its kind, or -1 when idle. */
int tui_jobs_status(tui_jobs *j, int *id, run_progress *progress);
/* Jobs waiting of a kind. */
int tui_jobs_pending(tui_jobs *j, int kind);
/* Whether any job is queued, running, or finished and not yet collected. */
int tui_jobs_any(tui_jobs *j);

#endif
