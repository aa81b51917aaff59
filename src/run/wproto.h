/* wproto — the worker protocol: how the parent finds the cltutor program
 * that runs kernels, starts it fresh (exec) with a request holding only what
 * a run needs, and checks what it hands back beyond the first output. */
#ifndef CLT_WPROTO_H
#define CLT_WPROTO_H
#include <stddef.h>
#include <stdint.h>

#include "base/blob.h"
#include "run/engine.h"
#include "run/sandbox.h"

#define WPROTO_VERSION 3
#define WPROTO_MODE "__worker"          /* argv[1] of a worker: `cltutor __worker` */
#define WPROTO_WARM "--ahead"           /* `cltutor __worker --ahead SCRATCH DEVICE`: started before its request */
/* In the self-test's probe folder: a file the worker must not read (as a classmate's submission in a batch). */
#define WPROTO_SELFTEST_SIBLING "another-submission.cl"
#define WPROTO_SELFTEST_RESULT_MAX (4u << 20) /* the self-test worker's result cap, as a run's */
#define WPROTO_SELFTEST "__worker-selftest" /* `cltutor __worker-selftest DIR`: see wproto_selftest */
#define WPROTO_ENV "CLTUTOR_WORKER"     /* names the program to run as the worker */

/* What a worker is asked to do. */
typedef enum { WK_RUN = 1, WK_DEVICES, WK_SELFTEST, WK_BUILD, WK_BINARY } wproto_kind;

/* Request records, written by the parent to a file the worker reads on
 * SANDBOX_FD_REQUEST. Strings are records of their own, without the NUL. */
#define WR_HEADER BLOB_TAG('R', 'H', 'D', 'R')   /* wproto_header */
#define WR_LESSON BLOB_TAG('R', 'L', 'E', 'S')   /* lesson, its hint pointers cleared */
#define WR_SOURCE BLOB_TAG('R', 'S', 'R', 'C')   /* the kernel's text; absent when the parent could not read it
                                                  * (WK_BUILD: one per file, in order) */
#define WR_OPTIONS BLOB_TAG('R', 'O', 'P', 'T')  /* WK_BUILD: the build options of each WR_SOURCE, in order */
#define WR_DISPLAY BLOB_TAG('R', 'D', 'S', 'P')  /* how messages name the kernel file */
#define WR_DEVICE BLOB_TAG('R', 'D', 'E', 'V')   /* device spec; absent: the default device */
#define WR_SIZE BLOB_TAG('R', 'S', 'I', 'Z')     /* size spec */
#define WR_ENV BLOB_TAG('R', 'E', 'N', 'V')      /* one "NAME=VALUE" per record */
#define WR_SCRATCH BLOB_TAG('R', 'S', 'C', 'R')  /* the worker's own folder, removed after the run */
#define WR_CACHE BLOB_TAG('R', 'C', 'A', 'C')    /* where the runtime keeps compiled kernels of this source */
#define WR_WRITABLE BLOB_TAG('R', 'W', 'R', 'T') /* one more folder the worker may write into */
#define WR_PROBE BLOB_TAG('R', 'P', 'R', 'B')    /* self-test: a folder outside the scratch folder */
#define WR_ITEM BLOB_TAG('R', 'I', 'T', 'M')     /* wproto_item, one per run of a set: the kernel is built
                                                  * once and run at each size and seed in turn */

typedef struct {
    uint32_t version, kind;
    uint32_t lesson_size, device_size, kinfo_size; /* both sides are the same build */
    uint32_t compute_units;
    uint32_t timing;             /* engine_timing */
    uint64_t seed;
    double timeout_s, budget_s;
    int32_t min_runs, max_runs;
    int64_t cpu_limit_s, memory_limit_mb; /* the sandbox's limits, which a worker started ahead sets itself */
    uint64_t result_max;
} wproto_header;

/* One run of a set: its size and seed (the rest is the request's). */
#define WPROTO_MAX_ITEMS 64
typedef struct {
    uint64_t seed;
    char size[120];
} wproto_item;

/* The header's fields every request has (version, kind, the sizes both builds must agree on). */
void wproto_header_init(wproto_kind kind, wproto_header *h);

/* A request as the worker reads it; every string is its own malloc'd copy. */
typedef struct {
    wproto_kind kind;
    lesson lesson;
    engine_request rq;           /* rq.lesson points at .lesson; rq.worker_env at .env */
    char *source;                /* NULL when the parent could not read the file */
    char *display, *device, *size, *scratch, *cache, *writable, *probe;
    char **env;                  /* NULL-terminated */
    wproto_item *items;          /* a set's runs (NULL: the one run rq describes) */
    int n_items;
    char **sources, **options;   /* WK_BUILD: each file's text and build options */
    int n_sources;
    size_t result_max;           /* the most the worker may hand back, 0 none (sandbox_limits) */
} wproto_request;

/* In the worker: reads and checks the request. Returns 0, or -1 with err. */
int wproto_read_request(int fd, wproto_request *out, char *err, size_t errlen);
void wproto_request_free(wproto_request *r);
/* In the worker: sets the request's variables (WR_ENV) in its environment. */
void wproto_apply_env(const wproto_request *wr);

/* The cltutor program that runs kernels: $CLTUTOR_WORKER when set, else
 * `cltutor` in the folder of the running program (build/cltutor for the
 * tests' binaries, the installed binary itself). Returns 0, or -1 with err. */
int wproto_find_worker(char *buf, size_t len, char *err, size_t errlen);

/* Starts a worker for `kind` and waits for it: finds the program, makes its
 * scratch folder and its kernel cache folder, writes the request (for WK_RUN
 * from rq, whose kernel file it reads here; probe_dir only for WK_SELFTEST),
 * runs it in the sandbox and removes the scratch folder. On a kernel
 * without Landlock it makes this process non-dumpable, once and for good, so
 * that a worker of the same user cannot read its memory through /proc.
 * Returns 0 with the sandbox's result, or -1 with err when no worker could
 * be started. */
int wproto_run(wproto_kind kind, const engine_request *rq, const char *probe_dir, const sandbox_limits *lim,
               run_progress_cb cb, void *user, volatile int *cancel, sandbox_result *out, char *err,
               size_t errlen);

/* wproto_run for a set: the kernel of rq built once and run at each item's
 * size and seed in turn, each run's records after a W_ITEM record (rq's own
 * size and seed unused); the worker stops after a run that fails on the
 * device. n_items at most WPROTO_MAX_ITEMS. */
int wproto_run_items(wproto_kind kind, const engine_request *rq, const wproto_item *items, int n_items,
                     const char *probe_dir, const sandbox_limits *lim, run_progress_cb cb, void *user,
                     volatile int *cancel, sandbox_result *out, char *err, size_t errlen);

/* One kernel file to build ahead of its runs (wproto_build). */
typedef struct {
    const lesson *lesson;        /* its build options */
    const char *kernel_path;
} wproto_build_item;

/* Compiles each file in one worker (WK_BUILD) into its cache folder under
 * cache_root (NULL: the user's), on the device of device_spec, where that
 * folder holds nothing yet and no other process is filling it: the runtime's
 * compiler starts once for them all, and each file's runs then find their
 * program compiled. Nothing of the files runs. Returns how many files it
 * built (0: none needed it), or -1 with err when no worker could start. A
 * file that does not build is left to its runs, which report why. */
int wproto_build(const wproto_build_item *items, int n, const char *device_spec, const char *cache_root,
                 long cpu_limit_s, long memory_limit_mb, volatile int *cancel, char *err, size_t errlen);

/* Runs the worker program on a request of a build kind (WK_BUILD,
 * WK_BINARY) written into req (-1: it could not be), within lim, this
 * process made non-dumpable as for a run. Returns 0 with the result in out
 * (free it with sandbox_result_free either way), or -1 with err. */
int wproto_run_request(int req, const sandbox_limits *lim, volatile int *cancel, sandbox_result *out, char *err,
                       size_t errlen);

/* Checks a kernel run whose first output (of out_len bytes) was correct: no
 * input buffer changed, each result record came once and the timed outputs
 * fit the launches, and the kernel times fit in the time the run phase
 * took (the timed launches' answers are the engine's to check). Returns
 * ENG_PASS, or the failure's status with a headline and a message. */
engine_status wproto_check_run(const sandbox_result *sr, size_t out_len, const engine_request *rq,
                               char *headline, size_t hlen, char *msg, size_t mlen);

/* `cltutor __worker-selftest DIR`: a worker confines itself as for a run,
 * runs a small kernel, then tries what it must not do (a socket, an exec, a
 * fork, a write into DIR, the parent's memory) and what it must (a thread,
 * a write into its scratch folder, the kernel again). Writes one line per
 * probe into *text (malloc'd); returns 0 when everything was as it must be. */
int wproto_selftest(const char *probe_dir, const char *device_spec, char **text, char *err, size_t errlen);

/* A scratch folder for one worker (in $TMPDIR), by its real path; -1 with err. */
int wproto_make_scratch(char *scratch, size_t len, char *err, size_t errlen);
/* The request file of a worker in its scratch folder, unlinked at once (the
 * worker reads it through the descriptor); -1 when it cannot be made. */
int wproto_open_request(const char *scratch);
/* The variables a worker is given (what runtimes, their compilers and the C
 * library read), copied under util_env_lock: NULL-terminated, or NULL. */
char **wproto_environment(void);
void wproto_environment_free(char **envp);

/* The user's cache of compiled kernels (one folder per kernel text below
 * it): $XDG_CACHE_HOME/cltutor/kernels or ~/.cache/cltutor/kernels. Two
 * runtimes must not fill one folder at once: runs side by side use a root each. */
int wproto_cache_root(char *buf, size_t len);

#endif
