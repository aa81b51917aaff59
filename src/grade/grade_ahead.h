/* grade_ahead — the work a grade makes side by side on its threads ahead of
 * the chapters' loops (each file's first run, each chapter's analyses, a
 * chapter's untimed tests), and the running state it shares with grade.c. */
#ifndef CLT_GRADE_AHEAD_H
#define CLT_GRADE_AHEAD_H
#include <pthread.h>

#include "grade/grade.h"
#include "grade/grade_model.h"
#include "run/engine.h"

/* The timed hidden test ('large'): how long its launches are repeated for a time, and the fewest
 * launches a timed run of a grade makes (each checked against a golden answer of its own). */
#define GRADE_LARGE_BUDGET_S 0.2
#define GRADE_TIMED_MIN_RUNS 3

/* How a file fared against the time limit in its chapter. One timeout can be the machine's load; a second
 * one makes it a kernel that does not finish, and its other tests are then not run. */
#define HANG_AFTER_TIMEOUTS 2
typedef struct {
    int timeouts;
    char first[sizeof ((grade_test *)0)->id]; /* the first test it did not finish */
} file_hang;

void grade_note_timeout(file_hang *h, const char *test_id);
int grade_file_hung(const file_hang *h);

/* One file a chapter grades (the exercise, or a listing): the grader's private copy of it, or why there is none,
 * and the test it did not finish in time, after which its other tests are not run ("": none). */
typedef struct chapter_file {
    char file[96];
    char path[1400];
    int ok;
    char status[16];
    char err[512];
    file_hang hang;
} chapter_file;

/* One untimed test a worker thread runs ahead of the chapter's loop. A chapter's jobs are 2 x n_tests
 * (AHEAD_SLOTS): [i] test i's run, and [n_tests + i], for a fix test i, its file's run at the size of
 * another hidden test (holds_size: whether the fix holds beyond the input that exposed the bug). */
#define AHEAD_SLOTS(n_tests) (2 * (n_tests))
typedef struct ahead_job {
    const lesson *l;
    const char *path;
    char display[256];
    grade_test *t;
    const char *at_size;         /* the size and seed it runs at; NULL: t's own */
    uint64_t at_seed;
    file_hang *hang;             /* its file's, shared by its jobs (under the pool's lock) */
    engine_report rep;
    int ran;
} ahead_job;

/* One grade while it runs. */
typedef struct run_ctx {
    const grade_options *o;
    grade_result *r;
    grade_progress_cb cb;
    void *user;
    volatile int *cancel;
    int done, total;
    long cpu_s;
    const char *cache_root;       /* where compiled kernels are cached (NULL: the user's cache) */
    int threads;                  /* untimed tests run side by side on this many threads */
    ahead_job **first_runs;       /* by chapter, by test: each file's first run, made before any chapter */
    pthread_mutex_t progress_mu;  /* the work made ahead tells what it starts from several threads */
} run_ctx;

/* In grade.c: the engine's request for one run of a kernel file (budget_s > 0: timed); the
 * analyses' limits; a chapter's files read into the grader's folder; the file a test grades
 * (nf: none); a line that says which test the work made ahead starts. */
void grade_request_for(const run_ctx *rc, const lesson *l, const char *path, const char *display, const char *size,
                       uint64_t seed, double budget_s, const char *cache_root, engine_request *rq);
grade_model_limits grade_limits_of(const run_ctx *rc);
int grade_read_chapter_files(run_ctx *rc, const lesson *l, grade_chapter *ch, chapter_file *files,
                             const char *exercises, int have_ex, const char *ex_err, int flat);
int grade_file_of(const chapter_file *files, int nf, const grade_test *t);
void grade_note_start(run_ctx *rc, const grade_test *t);

/* The chapter's untimed tests run side by side (the timed 'large' one and the simulator's runs keep the
 * machine to themselves); their reports by test, for the chapter's loop to take in order, or NULL. */
ahead_job *grade_run_untimed_ahead(run_ctx *rc, const lesson *l, grade_chapter *ch, chapter_file *files, int nf);
/* Each file's first untimed test and each chapter's analyses, for every chapter at once, before any
 * chapter runs (rc->first_runs); grade_free_first_runs at the end. */
void grade_run_first_ahead(run_ctx *rc, const char *exercises, int have_ex, const char *ex_err, int flat);
void grade_free_first_runs(run_ctx *rc);

#endif
