/* engine — runs a learner's kernel end to end: golden reference here, the
 * kernel in a worker process, then verification and timing statistics. */
#ifndef CLT_ENGINE_H
#define CLT_ENGINE_H
#include <stdint.h>

#include "course/catalog.h"
#include "problem/problem.h"
#include "base/stats.h"
#include "run/phase.h"
#include "problem/verify.h"
#include "text/tmsg.h"

/* Outcomes; engine_exit_code() maps them to the documented exit statuses. */
typedef enum {
    ENG_PASS = 0,       /* correct */
    ENG_WRONG,          /* ran, wrong answer */
    ENG_BUILD,          /* did not build, or lacks the kernel the chapter calls */
    ENG_CRASH,          /* the worker died (a signal) */
    ENG_TIMEOUT,        /* the worker ran past its limit */
    ENG_RUNTIME,        /* an OpenCL call failed while running */
    ENG_CANCELLED,      /* the caller stopped it */
    ENG_USAGE,          /* bad request (device spec, size) */
    ENG_NO_DEVICE,      /* no usable OpenCL device */
} engine_status;

/* How the timed launches are made. */
typedef enum {
    ENGINE_TIMING_FRESH = 0,     /* each launch on inputs of its own: set up, launched, read back and hashed
                                  * (run, the course, grading: a kernel cannot repeat an earlier answer) */
    ENGINE_TIMING_SERIES,        /* bench: a ring of instances, each on inputs of its own, set up once and
                                  * launched in turn, each launch waited for, as the device's copy is timed;
                                  * every instance read back and hashed after the series */
} engine_timing;

/* The most instances a series launches in turn (fewer where the device's memory is short). */
#define ENGINE_SERIES_RING 3

typedef struct {
    const lesson *lesson;
    const char *kernel_path;     /* the .cl file to build */
    const char *display_path;    /* how to name it in messages (defaults to kernel_path) */
    const char *device_spec;     /* NULL: default device */
    const char *size_spec;       /* NULL: the lesson's default size */
    uint64_t seed;
    double timeout_s;            /* limit for running the kernel (default 10) */
    double budget_s;             /* time spent repeating for timing (default 1; 0 = one run only) */
    int min_runs, max_runs;      /* timing repeats (defaults 5 and 1000) */
    engine_timing timing;        /* how the timed launches are made (default ENGINE_TIMING_FRESH) */
    int check_all_launches;      /* check every timed launch's answer (grading), not a few drawn at random */
    int serial_untimed;          /* the caller shows no serial C time (grading): a timed run's golden answer
                                  * may come from the cache of run results too, as an untimed run's does */
    int compute_units;           /* the launch shape as on a device of this many compute units (the GPU
                                  * model's at scale, where the simulator has one); 0: the device's own */
    long cpu_limit_s;            /* CPU seconds for the whole worker, 0 none (grading) */
    long memory_limit_mb;        /* the worker's data segment (RLIMIT_DATA), 0 none (grading) */
    const char *const *worker_env; /* "NAME=VALUE" strings set in the worker before it opens the device
                                    * (e.g. to load the Oclgrind simulator and its plugin); NULL: none */
    struct engine_cache *cache;  /* keeps the golden reference for the next run of the same chapter,
                                  * size and seed (the UI's reruns) instead of computing it again; NULL: none */
    const char *worker_writable; /* a folder the confined worker may write into besides its own scratch
                                  * folder (the GPU model's figures); NULL: none */
    const char *queue_dir;       /* timing waits its turn for the device there, first come first served
                                  * across users (gpulock); NULL: no queue. Correctness runs never wait */
    const char *cache_root;      /* where the runtime's compiler cache of each kernel text goes (a folder per
                                  * text); NULL: ~/.cache/cltutor/kernels. Grading puts it in its scratch
                                  * folder, so that nothing a kernel causes outlives the run */
    struct wproto_warm *warm;    /* a worker started ahead that this run may take (the course's); NULL: none */
    int tell_checked;            /* a timed run's progress says the checked launch's answer (run_progress.checked)
                                  * once the worker starts timing, before the run ends (the course, `run`) */
} engine_request;

typedef struct {
    char name[256], platform[128], type[8], version[128], driver[64];
    int index;
} engine_device;

/* What the OpenCL API says about a built kernel, for technique checks. */
#define ENGINE_MAX_KARGS 16
typedef struct {
    char name[64];
    long long local_mem;         /* CL_KERNEL_LOCAL_MEM_SIZE before any argument is set: __local arrays */
    long long private_mem;       /* CL_KERNEL_PRIVATE_MEM_SIZE */
    int n_args;
    int arg_info;                /* 1 when clGetKernelArgInfo answered (built with -cl-kernel-arg-info) */
    char arg_space[ENGINE_MAX_KARGS];     /* 'g' __global, 'c' __constant, 'l' __local, 'p' private */
    char arg_name[ENGINE_MAX_KARGS][32];
} engine_kernel_info;

typedef struct {
    engine_status status;
    int out_of_memory;           /* the worker ran out of memory: its own allocation (PF_MEMORY) or the runtime's */
    int bad_device_spec;         /* ENG_USAGE because --device names no device (every run would fail alike) */
    char headline[128];          /* "Correct", "Wrong result", "Build failed", ... */
    char message[2048];          /* what happened, the likely cause, what to try */
    tmsg message_parts;          /* the same as its English format and arguments, to write it again after a
                                  * switch of language (empty for a result read back from the cache) */
    char *build_log;             /* with the learner's file name, or NULL */
    int error_line, error_col;   /* first build error, 0 if none */
    char *worker_output;         /* what the runtime printed, trimmed, or NULL */
    engine_device device;
    char kernel_name[128];
    char size_text[64];
    uint64_t seed;
    int has_output;
    verify_report verify;
    double *samples_ms;          /* kernel times after warm-up */
    int n_samples;
    stats_summary timing;
    double serial_ms;            /* the serial C reference on this machine */
    prob_work work;
    double wall_s;
    int recalled;                /* taken from the cache of run results (run/runcache), not run again */
    engine_kernel_info kinfo[LESSON_MAX_KERNELS]; /* the chapter's kernels, once built */
    int n_kinfo;
} engine_report;

void engine_request_defaults(engine_request *rq);
int engine_run(const engine_request *rq, run_progress_cb cb, void *user, volatile int *cancel,
               engine_report *rep);
void engine_report_free(engine_report *rep);

/* Runs rqs[0..n) (one kernel file, one device, untimed: different sizes and
 * seeds) in one worker that builds the kernel once, each a report as
 * engine_run gives. Returns how many of the first requests have their report
 * (at least one); the worker stopped before the others (a crash, a time-out,
 * a failure on the device), whose reports are empty: ask again for those. */
int engine_run_set(const engine_request *rqs, int n, run_progress_cb cb, void *user, volatile int *cancel,
                   engine_report *reps);

/* 0 correct, 1 wrong, 2 build, 3 crash/timeout/runtime, 64 usage, 69 no device, 130 cancelled. */
int engine_exit_code(engine_status s);
/* What a failed device side (the worker's prob_failure) comes to: the
 * status in *st and the headline the learner reads. */
const char *engine_failure_outcome(prob_failure f, engine_status *st);
/* Whether what an OpenCL runtime printed as it died says that memory ran out
 * (PoCL, LLVM and the C++ runtime each say it their own way). */
int engine_output_says_out_of_memory(const char *output);

/* What one owner's runs keep between them (engine_request.cache): the golden
 * reference of the last chapter, size and seed. Zeroed to start; one run at
 * a time; engine_cache_free() at the end. */
typedef struct engine_cache {
    prob_instance *pi;
    const lesson *l;
    char size[96];
    uint64_t seed;
    double serial_ms;
} engine_cache;
void engine_cache_free(engine_cache *c);
const char *engine_status_name(engine_status s);

/* Lists devices (in a worker process). Returns the count or -1 with err. */
int engine_list_devices(engine_device **out, char *err, size_t errlen);
/* The device a run uses when none is chosen: the configured one (an index
 * or part of a name, as --device takes; NULL or "" none), else the first
 * GPU, else PoCL's CPU device, else the first. -1 when there is none. */
int engine_default_device(const engine_device *devs, int n, const char *configured);
/* The device spec names (an index, or part of a name or platform, as --device takes it), or -1: none. */
int engine_device_match(const engine_device *devs, int n, const char *spec);

#endif
