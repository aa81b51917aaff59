/* sandbox — runs a program in a fresh child process (fork and exec) under
 * time limits, with live progress, and hands back what it wrote. */
#ifndef CLT_SANDBOX_H
#define CLT_SANDBOX_H
#include "run/phase.h"
#include <stddef.h>
#include <sys/types.h>

/* The child's file descriptors: its request (read), its results (blob
 * records) and its progress lines (sandbox_phase, sandbox_progress); 0 is
 * /dev/null, 1 and 2 go to a file whose tail comes back as output, and
 * nothing else of the parent's is open in it. */
#define SANDBOX_FD_REQUEST 3
#define SANDBOX_FD_RESULT 4
#define SANDBOX_FD_PROGRESS 5
#define SANDBOX_FD_CONTROL 6   /* the parent's answers: one byte opens a gate */

typedef struct {
    double total_s;          /* hard cap on the child's whole life */
    double grace_s;          /* added to each phase's own limit */
    long cpu_s;              /* RLIMIT_CPU for the child, 0 none */
    long memory_mb;          /* RLIMIT_DATA for the child, 0 none */
    const char *gate_dir;    /* where the queues behind the child's gates live (gpulock); NULL: gates open at once */
    size_t result_max_bytes; /* the most the child may hand back, 0 none: also its RLIMIT_FSIZE (one byte more,
                              * so that a flood shows); past it nothing it wrote is read */
    int (*peek)(void *user, const char *blob, size_t len); /* NULL: none. Else called, with the progress
                              * callback's user, when the child announces the phase peek_at, with what it has
                              * written to its results by then (the records before the announcement); 1:
                              * turn the child back at its next gate, without a place in the queue */
    run_phase peek_at;
} sandbox_limits;           /* RLIMIT_CORE is always 0 */

typedef struct {
    int exited, exit_code;   /* normal exit */
    int signaled, signal;    /* killed by a signal */
    int timed_out;           /* we killed it: a phase ran past its limit */
    int cancelled;           /* we killed it: the caller asked */
    run_phase phase;         /* the last phase the child announced */
    double phase_limit_s;    /* that phase's limit */
    double phase_s;          /* how long that phase had run when the child ended, on the parent's clock */
    size_t result_over;      /* the bytes it wrote to result_fd when they passed result_max_bytes (blob NULL) */
    char *blob;              /* what the child wrote to result_fd */
    size_t blob_len;
    char *output;            /* the child's stdout and stderr (last 64 KiB) */
    double wall_s;
} sandbox_result;

/* In the child: announce a phase with its time limit in seconds. */
void sandbox_phase(int progress_fd, run_phase phase, double limit_s);
/* In the child: report progress within the current phase. */
void sandbox_progress(int progress_fd, int done, int total);

/* In the child: waits until the parent lets it through the gate named key
 * (first come, first served across processes, e.g. one device's timing).
 * While it waits its phase clock stands still; the parent reports the
 * phase PHASE_QUEUE with the waiters ahead as progress. Returns 1 to go on,
 * 0 when the parent turned it back (sandbox_limits.peek): what lies behind
 * the gate is not wanted. */
int sandbox_gate(int progress_fd, const char *key);

/* Code of our own run in a forked child (the device's limits): writes its
 * results with blob_put(result_fd, ...) and progress with sandbox_phase()/
 * sandbox_progress(); returns the exit code. Learner code never runs this
 * way: a forked child holds a copy of the parent's memory. */
typedef int (*sandbox_fn)(void *arg, int result_fd, int progress_fd);

/* Runs exe with argv (argv[0] included, NULL-terminated) and envp (NULL:
 * this process's environment) in a child of its own process group, with
 * request_fd (or /dev/null when -1) as its request.
 * cancel, if set, is polled: non-zero kills the child. A timeout or a cancel
 * kills the whole group, and so does the child's end (anything it left
 * running). Returns 0, or -1 when no child could be started. */
int sandbox_run(const char *exe, char *const argv[], char *const envp[], int request_fd, const sandbox_limits *lim,
                run_progress_cb cb, void *user, volatile int *cancel, sandbox_result *out);
/* In the child: CPU time, data and file size limits, and never a core file
 * (sandbox_run sets them before the program starts). */
void sandbox_set_limits(const sandbox_limits *lim);

/* A child started ahead of its work (sandbox_spawn): it may prepare, then
 * waits for one byte on SANDBOX_FD_CONTROL (sandbox_go) before it reads its
 * request. Its time limits count from sandbox_finish. */
typedef struct {
    pid_t pid;                   /* 0: none */
    int result_fd, output_fd;    /* the files of its results and its output */
    int progress_fd, control_fd; /* the reading end of its progress pipe, the writing end of its control pipe */
} sandbox_child;

/* Starts exe as sandbox_run does, but returns at once; -1 when it could not start. */
int sandbox_spawn(const char *exe, char *const argv[], char *const envp[], int request_fd, const sandbox_limits *lim,
                  sandbox_child *out);
/* Whether the child has not ended. */
int sandbox_alive(const sandbox_child *c);
/* Lets the child through its first wait; -1 when it is gone. */
int sandbox_go(const sandbox_child *c);
/* Watches the child to its end under lim, as sandbox_run does, and collects it. */
void sandbox_finish(sandbox_child *c, const sandbox_limits *lim, run_progress_cb cb, void *user, volatile int *cancel,
                    sandbox_result *out);
/* Kills a child that will not be used, and closes its descriptors. */
void sandbox_discard(sandbox_child *c);

/* Runs fn(arg) in a forked child, with the same limits and results. */
int sandbox_run_fn(sandbox_fn fn, void *arg, const sandbox_limits *lim, run_progress_cb cb, void *user,
                   volatile int *cancel, sandbox_result *out);
void sandbox_result_free(sandbox_result *r);

#endif
