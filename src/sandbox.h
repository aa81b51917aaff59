/* sandbox — runs a function in a child process under time limits, with live
 * progress, and hands back what it wrote; the parent never runs it itself. */
#ifndef CLT_SANDBOX_H
#define CLT_SANDBOX_H
#include <stddef.h>

/* Runs in the child. Writes its results with blob_put(result_fd, ...) and
 * progress lines with sandbox_phase()/sandbox_progress(); returns the exit code. */
typedef int (*sandbox_fn)(void *arg, int result_fd, int progress_fd);

/* Called in the parent for each progress line. */
typedef void (*sandbox_progress_cb)(void *user, const char *phase, int done, int total, double elapsed);

typedef struct {
    double total_s;          /* hard cap on the child's whole life */
    double grace_s;          /* added to each phase's own limit */
    long cpu_s;              /* RLIMIT_CPU for the child, 0 none */
    long memory_mb;          /* RLIMIT_DATA for the child, 0 none */
} sandbox_limits;

typedef struct {
    int exited, exit_code;   /* normal exit */
    int signaled, signal;    /* killed by a signal */
    int timed_out;           /* we killed it: a phase ran past its limit */
    int cancelled;           /* we killed it: the caller asked */
    char phase[32];          /* the last phase the child announced */
    double phase_limit_s;    /* that phase's limit */
    char *blob;              /* what the child wrote to result_fd */
    size_t blob_len;
    char *output;            /* the child's stdout and stderr (last 64 KiB) */
    double wall_s;
} sandbox_result;

/* In the child: announce a phase with its time limit in seconds. */
void sandbox_phase(int progress_fd, const char *phase, double limit_s);
/* In the child: report progress within the current phase. */
void sandbox_progress(int progress_fd, int done, int total);

/* Runs fn(arg) in a child. cancel, if set, is polled: non-zero kills the child. */
int sandbox_run(sandbox_fn fn, void *arg, const sandbox_limits *lim, sandbox_progress_cb cb, void *user,
                volatile int *cancel, sandbox_result *out);
void sandbox_result_free(sandbox_result *r);

#endif
