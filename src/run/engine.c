/* engine — runs a learner's kernel end to end: golden reference here, the
 * kernel in a worker process, then verification and timing statistics. */
#define _GNU_SOURCE
#include "run/engine.h"
#include "run/buildlog.h"
#include "text/i18n.h"
#include "base/exitcode.h"
#include "run/sandbox.h"
#include "base/util.h"
#include "run/runcache.h"
#include "run/launchcheck.h"
#include "run/worker.h"
#include "run/wproto.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

void engine_request_defaults(engine_request *rq) {
    memset(rq, 0, sizeof *rq);
    rq->seed = 1;
    rq->timeout_s = 10;
    rq->budget_s = 1;
    rq->min_runs = 5;
    rq->max_runs = 1000;
}

int engine_exit_code(engine_status s) {
    switch (s) {
    case ENG_PASS: return EXIT_CORRECT;
    case ENG_WRONG: return EXIT_WRONG;
    case ENG_BUILD: return EXIT_BUILD;
    case ENG_CRASH: case ENG_TIMEOUT: case ENG_RUNTIME: return EXIT_CRASH;
    case ENG_USAGE: return EXIT_USAGE;
    case ENG_NO_DEVICE: return EXIT_NO_DEVICE;
    case ENG_CANCELLED: return 130; /* as a shell reports SIGINT */
    }
    return EXIT_CRASH;
}

const char *engine_failure_outcome(prob_failure f, engine_status *st) {
    static const struct {
        prob_failure failure;
        engine_status status;
        const char *headline;
    } outcomes[] = {
        /* the learner's to fix, like a build error */
        {PF_KERNEL_MISSING, ENG_BUILD, N_("Kernel not found")},
        {PF_ARGUMENTS, ENG_BUILD, N_("Wrong kernel arguments")},
        {PF_KERNEL_ANSWER, ENG_BUILD, N_("Wrong answer from a helper kernel")},
        /* the chapter's, not the learner's */
        {PF_AUTHOR, ENG_USAGE, N_("Chapter error")},
        {PF_FAULT, ENG_CRASH, N_("Crashed")},
        {PF_DEVICE, ENG_RUNTIME, N_("OpenCL error")},
        {PF_MEMORY, ENG_RUNTIME, N_("Out of memory")},
    };
    for (size_t i = 0; i < CLT_ARRAY_LEN(outcomes); i++)
        if (outcomes[i].failure == f) {
            *st = outcomes[i].status;
            return outcomes[i].headline;
        }
    *st = ENG_RUNTIME;
    return N_("OpenCL error");
}

int engine_output_says_out_of_memory(const char *output) {
    static const char *const phrases[] = {"out of memory", "Allocation failed", "bad_alloc", "Cannot allocate"};
    for (size_t i = 0; output && i < CLT_ARRAY_LEN(phrases); i++)
        if (strstr(output, phrases[i])) return 1;
    return 0;
}

const char *engine_status_name(engine_status s) {
    static const char *const names[] = {N_("pass"),          N_("wrong"),     N_("build_error"),
                                        N_("crash"),         N_("timeout"),   N_("runtime_error"),
                                        N_("cancelled"),     N_("usage"),     N_("no_device")};
    return (unsigned)s < CLT_ARRAY_LEN(names) ? names[s] : "unknown";
}


static void set_msg(engine_report *r, engine_status st, const char *headline, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* a run's results beside its output and timings: build log, messages, records */
#define ENGINE_RESULT_SLACK (4u * 1024 * 1024)

static void set_msg(engine_report *r, engine_status st, const char *headline, const char *fmt, ...) {
    r->status = st;
    snprintf(r->headline, sizeof r->headline, "%s", headline); /* English: translated where it is shown */
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    vsnprintf(r->message, sizeof r->message, _(fmt), ap);
    tmsg_vset(&r->message_parts, fmt, again);
    va_end(again);
    va_end(ap);
}

/* Keeps the last few meaningful lines of what the runtime printed. */
static char *tail_lines(const char *text, int max_lines) {
    if (!text || !*text) return NULL;
    const char *end = text + strlen(text);
    while (end > text && isspace((unsigned char)end[-1])) end--;
    const char *p = end;
    int lines = 0;
    while (p > text && lines < max_lines) {
        p--;
        if (*p == '\n') lines++;
    }
    if (*p == '\n') p++;
    size_t len = (size_t)(end - p);
    if (len == 0) return NULL;
    char *s = malloc(len + 1);
    if (!s) return NULL; /* the runtime's words are a courtesy: without memory, none */
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

static void explain_signal(engine_report *r, const sandbox_result *sr, const engine_request *rq) {
    const char *file = rq->display_path;
    int in_run = run_phase_runs_kernel(sr->phase);
    const char *sig = _(!sr->signaled ? N_("an unexpected exit")
                    : sr->signal == SIGSEGV ? N_("a segmentation fault (SIGSEGV)")
                    : sr->signal == SIGBUS ? N_("a bus error (SIGBUS)")
                    : sr->signal == SIGABRT ? N_("an abort (SIGABRT)")
                    : sr->signal == SIGFPE ? N_("an arithmetic fault (SIGFPE)")
                    : sr->signal == SIGXCPU ? N_("running out of CPU time (SIGXCPU)")
                    : sr->signal == SIGILL ? N_("an illegal instruction (SIGILL)") : N_("a signal"));
    if (!in_run && sr->phase == PHASE_BUILD) {
        set_msg(r, ENG_CRASH, N_("Crashed"),
                "The OpenCL runtime died with %s while compiling %s. cltutor is fine; the run was isolated. If the "
                "message below does not explain it, try another device with --device.", sig, file);
        return;
    }
    if (!in_run) {
        set_msg(r, ENG_CRASH, N_("Crashed"),
                "The OpenCL runtime died with %s while preparing %s (phase '%s'). cltutor is fine; the run was "
                "isolated. If the message below does not explain it, try another device with --device.",
                sig, file, run_phase_name(sr->phase));
        return;
    }
    if (sr->signal == SIGFPE)
        set_msg(r, ENG_CRASH, N_("Crashed"),
                "Your kernel stopped with %s. Likely cause: an integer division or modulo by zero. "
                "Try: check every divisor in %s.", sig, file);
    else {
        /* the advice the kernel can use: barriers only where it has one; and where the line is found */
        char *text = rq->kernel_path ? util_read_file(rq->kernel_path, NULL) : NULL;
        int barriers = text && strstr(text, "barrier");
        free(text);
        int n = rq->lesson ? rq->lesson->number : 0;
        if (barriers)
            set_msg(r, ENG_CRASH, N_("Crashed"),
                    "Your kernel stopped the device with %s. Likely causes: a read or write outside a "
                    "buffer (an index past the end, often a missing `if (id >= n) return;` guard when the "
                    "global size is rounded up to a multiple of the work-group size), or a barrier() "
                    "inside a branch that not every work-item of the group takes. The simulator names the "
                    "line of a bad access: `cltutor analyze %d --kernel %s` (in the course, the GPU model "
                    "tab, key 8). Try: check each index against its buffer's length and keep barriers out of "
                    "divergent code.", sig, n, file);
        else
            set_msg(r, ENG_CRASH, N_("Crashed"),
                    "Your kernel stopped the device with %s. Likely cause: a read or write outside a "
                    "buffer (an index past its end, or below 0). The simulator names the line of a bad "
                    "access: `cltutor analyze %d --kernel %s` (in the course, the GPU model tab, key 8). Try: "
                    "check each index against its buffer's length; a smaller --size can make the fault "
                    "easier to find.", sig, n, file);
    }
}

static void explain_timeout(engine_report *r, const sandbox_result *sr, const engine_request *rq) {
    if (run_phase_runs_kernel(sr->phase))
        set_msg(r, ENG_TIMEOUT, N_("Timed out"),
                "Your kernel did not finish within %.0f s and was stopped. Likely causes: a loop that "
                "never ends (a condition that stays true, or a step that never reaches the bound), or a "
                "barrier() that some work-items never reach. Try: check each loop's bound and step; "
                "run a smaller --size; if the kernel is only slow, raise --timeout.", rq->timeout_s);
    else
        set_msg(r, ENG_TIMEOUT, N_("Timed out"),
                "The OpenCL runtime did not finish the '%s' step within %.0f s and was stopped. "
                "Try again; if it keeps happening, try another device with --device.",
                run_phase_name(sr->phase), sr->phase_limit_s);
}

void engine_cache_free(engine_cache *c) {
    if (c && c->pi) c->pi->ops->destroy(c->pi);
    if (c) memset(c, 0, sizeof *c);
}

/* Frees an instance unless the request's cache keeps it. */
static void release_instance(const engine_request *rq, const problem_ops *ops, prob_instance *pi) {
    if (!rq->cache || pi != rq->cache->pi) ops->destroy(pi);
}

/* A run whose device side failed, named by the kind the worker reported. */
static void explain_failure(engine_report *r, prob_failure f, const char *msg, const engine_request *rq) {
    engine_status st;
    const char *head = engine_failure_outcome(f, &st);
    const char *what = msg && *msg ? msg : prob_failure_name(f);
    switch (f) {
    case PF_FAULT:
        /* GPUs report a fault as an error code rather than a signal */
        set_msg(r, st, head,
                "Your kernel faulted on the device (%s). Likely causes: a read or write outside a buffer (an "
                "index past the end, often a missing `if (id >= n) return;` guard when the global size is "
                "rounded up to a multiple of the work-group size), or more __local or __constant memory than "
                "the device gives a kernel (48 KiB of __local and 64 KiB of __constant are what every GPU "
                "guarantees). Try: check each index against its buffer's length and the size of each __local "
                "array and __constant argument; a smaller --size can make a fault easier to find.", what);
        break;
    case PF_AUTHOR:
        set_msg(r, st, head, "The chapter itself is set up wrongly, not your kernel: %s. Tell whoever gave you the "
                "course (for authors: `cltutor validate` names the file and line).", what);
        break;
    case PF_DEVICE:
        set_msg(r, st, head, "%s. Likely causes: a work-group size the device refuses, a kernel that uses more "
                "local memory or registers than it has, or a fault the runtime caught.", what);
        break;
    case PF_MEMORY:
        set_msg(r, st, head, "%s. Try a smaller --size.", what);
        break;
    default: set_msg(r, st, head, "%s: %s", rq->display_path, what); break;
    }
}

/* One run, as engine_run takes it through its steps. */
typedef struct {
    engine_request rq;           /* the caller's, with its defaults filled in */
    const problem_ops *ops;
    prob_size size;
    prob_instance *pi;           /* the golden reference (perhaps the cache's) */
    size_t result_max;           /* the most bytes the worker may hand back */
    sandbox_result sr;           /* what the worker handed back */
    const void *out;             /* the kernel's output, out_len bytes; NULL: none came */
    size_t out_len;
    const int *status, *failure; /* the worker's status and failure kind; NULL: not sent */
    char *msg;                   /* the worker's message (malloc'd); NULL: none */
    engine_status chk;           /* ENG_PASS, or why the timed launches do not count */
    char chk_head[64], chk_msg[768];
} engine_run_state;

/* The request's problem, size and kernel file; -1 with the report's message when one is wrong. */
static int check_request(engine_run_state *s, engine_report *r) {
    const lesson *l = s->rq.lesson;
    char err[1024] = "";
    s->ops = problem_find(l->problem);
    if (!s->ops) {
        set_msg(r, ENG_USAGE, N_("Bad chapter"), "%s/lesson.ini: unknown problem '%s'", l->dir, l->problem);
        return -1;
    }
    if (problem_parse_size(s->ops, s->rq.size_spec, &s->size, err, sizeof err) != 0) {
        set_msg(r, ENG_USAGE, N_("Bad size"), "--size: %s", err);
        return -1;
    }
    s->ops->format_size(&s->size, r->size_text, sizeof r->size_text);
    if (!util_is_file(s->rq.kernel_path)) {
        struct stat st;
        int exists = stat(s->rq.kernel_path, &st) == 0;
        set_msg(r, ENG_USAGE, N_("No kernel file"), "%s: %s. Give an existing .cl file with --kernel.",
                s->rq.display_path,
                !exists ? "no such file" : S_ISDIR(st.st_mode) ? "a folder, not a file" : "not a regular file");
        return -1;
    }
    return 0;
}

/* The golden reference, computed and timed here before the worker starts,
 * or the request's cache's when it is of the same chapter, size and seed;
 * -1 with the report's message when there is no memory for it. */
static int golden_reference(engine_run_state *s, engine_report *r) {
    const problem_ops *ops = s->ops;
    char size_key[96], err[1024] = "";
    snprintf(size_key, sizeof size_key, "%s:%s", r->size_text, s->size.input);
    engine_cache *kept = s->rq.cache;
    int untimed = s->rq.budget_s <= 0 || s->rq.serial_untimed;
    if (kept && kept->pi && kept->l == s->rq.lesson && kept->seed == s->rq.seed && kept->pi->ops == ops &&
        !strcmp(kept->size, size_key) && (kept->serial_ms > 0 || untimed)) {
        s->pi = kept->pi;
        r->serial_ms = kept->serial_ms;
        return 0;
    }
    s->pi = ops->create(s->rq.lesson, &s->size, s->rq.seed, err, sizeof err);
    if (!s->pi) {
        set_msg(r, ENG_USAGE, N_("Size too large"), "%s", err);
        return -1;
    }
    r->serial_ms = 0;
    if (untimed) runcache_golden_answer(s->pi); /* perhaps recalled: not timed */
    else {
        if (ops->prepare_golden) ops->prepare_golden(s->pi);
        double t0 = util_now();
        ops->golden(s->pi);
        r->serial_ms = (util_now() - t0) * 1e3;
    }
    if (kept) {
        engine_cache_free(kept);
        kept->pi = s->pi;
        kept->l = s->rq.lesson;
        kept->seed = s->rq.seed;
        kept->serial_ms = r->serial_ms;
        snprintf(kept->size, sizeof kept->size, "%s", size_key);
    }
    return 0;
}

/* Runs the kernel in a worker process, its results held to what a run hands
 * back; -1 with the report's message when no worker could start. */
static size_t result_bound(const engine_run_state *s);

/* A run's progress on its way to the caller, with the checked launch's
 * answer once the worker has started timing (engine_request.tell_checked). */
typedef struct {
    const engine_run_state *s;
    run_progress_cb cb;
    void *user;
    int checked; /* 1 right, -1 wrong, 0 not known */
} early_answer;

/* The worker's records up to its timing (sandbox_limits.peek): the checked
 * launch's output against the golden reference. Not told when an input was
 * overwritten: the run's end says so. A wrong answer is not timed: the
 * worker is turned back at its gate (returns 1). */
static int peek_answer(void *user, const char *blob, size_t len) {
    early_answer *ea = user;
    size_t out_len = 0;
    const void *out = blob_get(blob, len, W_OUTPUT, 0, &out_len);
    if (!out || blob_get(blob, len, W_INPUT, 0, NULL)) return 0;
    verify_report vr;
    ea->s->ops->verify(ea->s->pi, out, out_len, &vr);
    ea->checked = vr.ok ? 1 : -1;
    return ea->checked < 0;
}

static void pass_progress(void *user, const run_progress *p) {
    early_answer *ea = user;
    run_progress q = *p;
    q.checked = ea->checked;
    if (ea->cb) ea->cb(ea->user, &q);
}

static int run_worker(engine_run_state *s, run_progress_cb cb, void *user, volatile int *cancel, engine_report *r) {
    /* what a run hands back: its output, a time and a hash per launch, and
     * its build log (cut to 64 KiB by the worker), messages and records */
    const engine_request *rq = &s->rq;
    s->result_max = result_bound(s);
    sandbox_limits lim = {.total_s = 60 + 120 + rq->timeout_s * 2 + 30, .grace_s = 1.0,
                          .cpu_s = rq->cpu_limit_s, .memory_mb = rq->memory_limit_mb,
                          .gate_dir = rq->budget_s > 0 ? rq->queue_dir : NULL, .result_max_bytes = s->result_max};
    early_answer ea = {.s = s, .cb = cb, .user = user};
    if (rq->tell_checked && rq->budget_s > 0 && cb) {
        lim.peek = peek_answer;
        lim.peek_at = PHASE_TIME;
        cb = pass_progress;
        user = &ea;
    }
    char err[1024] = "";
    if (wproto_run(WK_RUN, rq, NULL, &lim, cb, user, cancel, &s->sr, err, sizeof err) != 0) {
        set_msg(r, ENG_RUNTIME, N_("Could not start"), "could not start a worker process (%s)", err);
        return -1;
    }
    if (cb && !s->sr.cancelled) /* verification follows */
        cb(user, &(run_progress){.phase = PHASE_CHECK, .elapsed_s = s->sr.wall_s, .checked = ea.checked});
    r->wall_s = s->sr.wall_s;
    r->worker_output = tail_lines(s->sr.output, 12);
    return 0;
}

/* Reads the worker's records into the report (device, build log, kernels,
 * timings) and into the run (output, status, failure, message). */
static void read_records(engine_run_state *s, engine_report *r) {
    const sandbox_result *sr = &s->sr;
    const engine_device *dev = blob_get(sr->blob, sr->blob_len, W_DEVICE, 0, NULL);
    if (dev) r->device = *dev;
    char *log = blob_get_str(sr->blob, sr->blob_len, W_BUILDLOG);
    if (log) {
        r->build_log = buildlog_rewrite(log, s->rq.display_path, &r->error_line, &r->error_col);
        free(log);
    }
    for (int i = 0; i < LESSON_MAX_KERNELS; i++) {
        size_t klen = 0;
        const engine_kernel_info *ki = blob_get(sr->blob, sr->blob_len, W_KINFO, i, &klen);
        if (!ki || klen != sizeof *ki) break;
        r->kinfo[r->n_kinfo] = *ki;
        r->kinfo[r->n_kinfo].name[sizeof ki->name - 1] = '\0';
        for (int a = 0; a < ENGINE_MAX_KARGS; a++) r->kinfo[r->n_kinfo].arg_name[a][31] = '\0';
        r->n_kinfo++;
    }
    size_t slen = 0;
    const double *samples = blob_get(sr->blob, sr->blob_len, W_SAMPLES, 0, &slen);
    if (samples && slen) {
        r->samples_ms = malloc(slen);
        if (r->samples_ms) { /* without memory for them, the run is simply untimed */
            r->n_samples = (int)(slen / sizeof(double));
            memcpy(r->samples_ms, samples, slen);
            r->timing = stats_summarise(r->samples_ms, r->n_samples);
        }
    }
    s->out = blob_get(sr->blob, sr->blob_len, W_OUTPUT, 0, &s->out_len);
    s->status = blob_get(sr->blob, sr->blob_len, W_STATUS, 0, NULL);
    s->failure = blob_get(sr->blob, sr->blob_len, W_FAILURE, 0, NULL);
    s->msg = blob_get_str(sr->blob, sr->blob_len, W_MESSAGE);
}

/* Verifies the kernel's output against the golden reference; a correct first
 * output counts only if every timed launch gave it too (s->chk). */
static void check_output(engine_run_state *s, engine_report *r) {
    if (s->out) {
        r->has_output = 1;
        s->ops->verify(s->pi, s->out, s->out_len, &r->verify);
    }
    s->chk = ENG_PASS;
    if (!(s->out && r->verify.ok && s->status && *s->status == ENG_PASS)) return;
    s->chk = wproto_check_run(&s->sr, s->out_len, &s->rq, s->chk_head, sizeof s->chk_head, s->chk_msg,
                              sizeof s->chk_msg);
    if (s->chk == ENG_PASS)
        s->chk = launchcheck_timed(&s->rq, s->ops, &s->size, &s->sr, s->out_len, s->chk_head, sizeof s->chk_head,
                                s->chk_msg, sizeof s->chk_msg);
}

/* The run's status, headline and message: the first thing that went wrong, else the verdict. */
static void explain_outcome(const engine_run_state *s, engine_report *r) {
    const engine_request *rq = &s->rq;
    const sandbox_result *sr = &s->sr;
    const char *msg = s->msg;
    if (sr->cancelled) {
        set_msg(r, ENG_CANCELLED, N_("Cancelled"), "The run was cancelled.");
    } else if (sr->result_over) {
        set_msg(r, ENG_CRASH, N_("Flooded the grader"),
                "The kernel sent the grader more than %zu bytes (%zu at least), where a run hands back its output, "
                "its timings and its build log. Something in the worker process (a kernel on a CPU device runs "
                "inside it) wrote into its results: this run does not count.", s->result_max, sr->result_over);
    } else if (sr->timed_out) {
        explain_timeout(r, sr, rq);
    } else if (sr->signaled && (sr->signal == SIGXCPU || (sr->signal == SIGKILL && rq->cpu_limit_s > 0))) {
        /* the kernel raises SIGKILL at the hard CPU limit when SIGXCPU did not end the worker */
        set_msg(r, ENG_TIMEOUT, N_("CPU time limit"),
                "The worker used up its %ld s of CPU time and was stopped during '%s'. Likely cause: a loop "
                "that never ends, or far more work than the task needs. Try: check each loop's bound and step.",
                rq->cpu_limit_s, run_phase_name(sr->phase));
    } else if (sr->signaled) {
        explain_signal(r, sr, rq);
    } else if (!s->status && run_phase_runs_kernel(sr->phase)) {
        explain_signal(r, sr, rq); /* a runtime that traps faults and exits */
    } else if (!s->status) {
        set_msg(r, ENG_CRASH, N_("Crashed"),
                "The worker running your kernel exited (status %d) without a result, during '%s'. "
                "The runtime's own words are below.", sr->exit_code, run_phase_name(sr->phase));
    } else if (s->failure && *s->failure != PF_OK) {
        explain_failure(r, (prob_failure)*s->failure, msg, rq);
    } else if (*s->status == ENG_BUILD) {
        if (r->build_log && *r->build_log)
            set_msg(r, ENG_BUILD, N_("Build failed"),
                    "%s did not compile. The compiler's messages are below; fix the first one first.",
                    rq->display_path);
        else
            set_msg(r, ENG_BUILD, N_("Build failed"), "%s: %s", rq->display_path, msg ? msg : "build failed");
    } else if (*s->status == ENG_USAGE) {
        r->bad_device_spec = blob_get(sr->blob, sr->blob_len, W_BADSPEC, 0, NULL) != NULL;
        set_msg(r, ENG_USAGE, r->bad_device_spec ? N_("No such device") : N_("Bad request"), "%s", msg ? msg : "bad request");
    } else if (*s->status == ENG_NO_DEVICE) {
        set_msg(r, ENG_NO_DEVICE, N_("No OpenCL device"), "%s", msg ? msg : "no usable OpenCL device");
    } else if (*s->status == ENG_RUNTIME) {
        set_msg(r, ENG_RUNTIME, N_("OpenCL error"),
                "%s. Likely causes: a work-group size the device refuses, a kernel that uses more local "
                "memory or registers than it has, or a fault the runtime caught.", msg ? msg : "an OpenCL call failed");
    } else if (!r->has_output) {
        set_msg(r, ENG_CRASH, N_("No result"), "The worker finished without returning the kernel's output.");
    } else if (s->chk != ENG_PASS) {
        set_msg(r, s->chk, s->chk_head, "%s", s->chk_msg);
    } else if (r->verify.ok) {
        set_msg(r, ENG_PASS, N_("Correct"), "%s", r->verify.summary);
    } else {
        set_msg(r, ENG_WRONG, N_("Wrong result"), "%s", r->verify.summary);
    }
}

/* The key of an untimed run on a device in the cache of run results: what
 * runcache_key_run takes, the device asked for and the OpenCL runtimes, and
 * the limits it ran under. -1 for a run that is not to be kept: a timed one,
 * or one whose worker is given settings or a folder of its own (the GPU
 * model keeps those itself). */
static int run_key(const engine_request *rq, runcache_key *k) {
    if (rq->budget_s != 0 || rq->worker_env || rq->worker_writable) return -1;
    /* 3: build logs name the learner's file in warnings too, and not the runtime's headers */
    if (runcache_key_run(k, "engine run 3", rq) != 0) return -1;
    runcache_key_str(k, "device", rq->device_spec);
    runcache_key_opencl(k);
    char limits[160];
    snprintf(limits, sizeof limits, "%.3f %ld %ld %d %d %d", rq->timeout_s, rq->cpu_limit_s, rq->memory_limit_mb,
             rq->min_runs, rq->max_runs, rq->check_all_launches);
    runcache_key_str(k, "limits", limits);
    return runcache_key_done(k);
}

/* The report kept under k, for the asker's name of the kernel. Returns 0, or -1 when none. */
static int recall_run(const runcache_key *k, const engine_request *rq, engine_report *r) {
    double t0 = util_now();
    cJSON *j = runcache_get(k);
    int rc = j ? runcache_report_from_json(j, rq->display_path, r) : -1;
    cJSON_Delete(j);
    if (rc == 0) r->wall_s = util_now() - t0, r->recalled = 1;
    return rc;
}

/* Keeps a run that ended with an answer, right or wrong (a crash or a time-out may not come again). */
static void keep_run(const runcache_key *k, const engine_request *rq, const engine_report *r) {
    if (r->status != ENG_PASS && r->status != ENG_WRONG) return;
    cJSON *j = runcache_report_json(r, rq->display_path);
    runcache_put(k, j);
    cJSON_Delete(j);
}

static void conclude(engine_run_state *s, engine_report *r, const runcache_key *key);

int engine_run(const engine_request *rq_in, run_progress_cb cb, void *user, volatile int *cancel,
               engine_report *r) {
    memset(r, 0, sizeof *r);
    engine_run_state s = {.rq = *rq_in};
    if (!s.rq.display_path) s.rq.display_path = s.rq.kernel_path;
    if (!s.rq.size_spec) s.rq.size_spec = s.rq.lesson->default_size;
    r->seed = s.rq.seed;
    if (check_request(&s, r) != 0) return -1;
    runcache_key key;
    int keyed = run_key(&s.rq, &key) == 0;
    if (keyed && recall_run(&key, &s.rq, r) == 0) return 0;
    if (cb) cb(user, &(run_progress){.phase = PHASE_REFERENCE});
    if (golden_reference(&s, r) != 0) return -1;
    r->work = s.ops->work(s.pi);
    if (run_worker(&s, cb, user, cancel, r) != 0) {
        release_instance(&s.rq, s.ops, s.pi);
        return -1;
    }
    conclude(&s, r, keyed ? &key : NULL);
    return 0;
}

/* What the worker handed back for s, read into r: verified, explained and
 * kept (key: where, NULL: not kept); s's memory released. */
static void conclude(engine_run_state *s, engine_report *r, const runcache_key *key) {
    read_records(s, r);
    check_output(s, r);
    explain_outcome(s, r);
    r->out_of_memory = (s->failure && *s->failure == PF_MEMORY) ||
                       ((r->status == ENG_CRASH || r->status == ENG_RUNTIME) &&
                        engine_output_says_out_of_memory(r->worker_output));
    if (r->status != ENG_PASS && r->samples_ms) { /* only a correct kernel is timed */
        free(r->samples_ms);
        r->samples_ms = NULL;
        r->n_samples = 0;
        memset(&r->timing, 0, sizeof r->timing);
    }
    if (key) keep_run(key, &s->rq, r);
    free(s->msg);
    sandbox_result_free(&s->sr);
    release_instance(&s->rq, s->ops, s->pi);
}

/* ---- a set: one kernel at several sizes in one worker */

/* The data of a set's kth W_ITEM record (where its run's records start), or NULL: the worker never began it. */
static const char *item_start(const sandbox_result *sr, int k, worker_item_start *at) {
    size_t len = 0;
    const char *p = sr->blob ? blob_get(sr->blob, sr->blob_len, W_ITEM, k, &len) : NULL;
    if (!p || len != sizeof *at) return NULL;
    memcpy(at, p, sizeof *at);
    return p;
}

/* Item k's own result, as a worker of its own would have handed it back:
 * the set's first records (device, build log, kernels) and its own; the
 * worker's end (exit, signal, time-out, output) belongs to the last item
 * it began. -1: the worker never began item k. */
static int item_result(const sandbox_result *all, int k, sandbox_result *out) {
    worker_item_start at, next;
    const char *first = item_start(all, 0, &next), *from = item_start(all, k, &at);
    if (!first || !from) return -1;
    const char *to = item_start(all, k + 1, &next);
    size_t pre = (size_t)(first - BLOB_HEADER_BYTES - all->blob), beg = (size_t)(from - BLOB_HEADER_BYTES - all->blob);
    size_t end = to ? (size_t)(to - BLOB_HEADER_BYTES - all->blob) : all->blob_len;
    memset(out, 0, sizeof *out);
    out->blob = malloc(pre + (end - beg) + 1);
    if (!out->blob) return -1;
    memcpy(out->blob, all->blob, pre);
    memcpy(out->blob + pre, all->blob + beg, end - beg);
    out->blob_len = pre + (end - beg);
    /* what the worker printed is one stream: each run of the set quotes it */
    out->output = all->output ? strdup(all->output) : NULL;
    if (to) { /* it ended and the worker went on */
        out->exited = 1;
        out->phase = PHASE_RUN;
        out->wall_s = next.started_s - at.started_s;
        return 0;
    }
    out->exited = all->exited, out->exit_code = all->exit_code;
    out->signaled = all->signaled, out->signal = all->signal;
    out->timed_out = all->timed_out, out->cancelled = all->cancelled;
    out->phase = all->phase, out->phase_limit_s = all->phase_limit_s, out->phase_s = all->phase_s;
    out->wall_s = all->wall_s - at.started_s;
    return 0;
}

/* The bytes a run may hand back (its output, a time and a hash per launch,
 * its build log, cut to 64 KiB by the worker, messages and records). */
static size_t result_bound(const engine_run_state *s) {
    size_t max_runs = (size_t)(s->rq.max_runs > 0 ? s->rq.max_runs : 1000), out_bytes = s->ops->output_bytes(s->pi);
    return out_bytes + max_runs * (2 * sizeof(double) + (out_bytes <= WORKER_KEEP_OUTPUT_BYTES ? out_bytes : 0)) +
           ENGINE_RESULT_SLACK;
}

/* Runs the set's live items (st[live[k]]) in one worker and concludes each
 * it began; returns how many it began (at least one: the first takes the
 * worker's result when the worker began none, a build error say). */
static int run_items(engine_run_state *st, const int *live, int n_live, runcache_key *keys, const int *keyed,
                     run_progress_cb cb, void *user, volatile int *cancel, engine_report *reps) {
    wproto_item *items = calloc((size_t)n_live, sizeof *items);
    size_t result_max = 0;
    for (int k = 0; items && k < n_live; k++) {
        items[k].seed = st[live[k]].rq.seed;
        snprintf(items[k].size, sizeof items[k].size, "%s", st[live[k]].rq.size_spec);
        result_max += result_bound(&st[live[k]]);
    }
    const engine_request *rq = &st[live[0]].rq;
    sandbox_limits lim = {.total_s = 60 + 120 + n_live * (rq->timeout_s * 2 + 30), .grace_s = 1.0,
                          .cpu_s = rq->cpu_limit_s * n_live, .memory_mb = rq->memory_limit_mb,
                          .result_max_bytes = result_max};
    sandbox_result all;
    char err[1024] = "";
    if (!items || wproto_run_items(WK_RUN, rq, items, n_live, NULL, &lim, cb, user, cancel, &all, err, sizeof err)) {
        for (int k = 0; k < n_live; k++) {
            set_msg(&reps[live[k]], ENG_RUNTIME, N_("Could not start"), "could not start a worker process (%s)",
                    items ? err : "out of memory");
            release_instance(&st[live[k]].rq, st[live[k]].ops, st[live[k]].pi);
        }
        free(items);
        return n_live;
    }
    free(items);
    int began = 0;
    for (; began < n_live; began++) {
        engine_run_state *s = &st[live[began]];
        if (item_result(&all, began, &s->sr) != 0) {
            if (began > 0) break;
            s->sr = all; /* the worker began no run: its result is the first item's */
            memset(&all, 0, sizeof all);
        }
        s->result_max = result_max;
        reps[live[began]].wall_s = s->sr.wall_s;
        reps[live[began]].worker_output = tail_lines(s->sr.output, 12);
        conclude(s, &reps[live[began]], keyed[live[began]] ? &keys[live[began]] : NULL);
    }
    for (int k = began; k < n_live; k++) release_instance(&st[live[k]].rq, st[live[k]].ops, st[live[k]].pi);
    sandbox_result_free(&all);
    return began;
}

int engine_run_set(const engine_request *rqs, int n, run_progress_cb cb, void *user, volatile int *cancel,
                   engine_report *reps) {
    engine_run_state *st = calloc((size_t)n, sizeof *st);
    runcache_key *keys = calloc((size_t)n, sizeof *keys);
    int *keyed = calloc((size_t)n, sizeof *keyed), *live = calloc((size_t)n, sizeof *live);
    if (!st || !keys || !keyed || !live || n > WPROTO_MAX_ITEMS) { /* one worker each */
        for (int i = 0; i < n; i++) engine_run(&rqs[i], cb, user, cancel, &reps[i]);
        free(st), free(keys), free(keyed), free(live);
        return n;
    }
    int n_live = 0;
    for (int i = 0; i < n; i++) {
        engine_run_state *s = &st[i];
        engine_report *r = &reps[i];
        memset(r, 0, sizeof *r);
        s->rq = rqs[i];
        if (!s->rq.display_path) s->rq.display_path = s->rq.kernel_path;
        if (!s->rq.size_spec) s->rq.size_spec = s->rq.lesson->default_size;
        r->seed = s->rq.seed;
        if (check_request(s, r) != 0) continue;
        keyed[i] = run_key(&s->rq, &keys[i]) == 0;
        if (keyed[i] && recall_run(&keys[i], &s->rq, r) == 0) continue;
        if (strlen(s->rq.size_spec) >= sizeof ((wproto_item *)0)->size) {
            set_msg(r, ENG_USAGE, N_("Bad size"), "--size: '%.40s...' is too long", s->rq.size_spec);
            continue;
        }
        if (golden_reference(s, r) != 0) continue;
        r->work = s->ops->work(s->pi);
        live[n_live++] = i;
    }
    int done = n;
    if (n_live == 1 && run_worker(&st[live[0]], cb, user, cancel, &reps[live[0]]) == 0)
        conclude(&st[live[0]], &reps[live[0]], keyed[live[0]] ? &keys[live[0]] : NULL);
    else if (n_live == 1)
        release_instance(&st[live[0]].rq, st[live[0]].ops, st[live[0]].pi);
    else if (n_live > 1) {
        int began = run_items(st, live, n_live, keys, keyed, cb, user, cancel, reps);
        if (began < n_live) done = live[began];
    }
    for (int i = done; i < n; i++) { /* not run: the caller asks again */
        engine_report_free(&reps[i]);
        memset(&reps[i], 0, sizeof reps[i]);
    }
    free(st), free(keys), free(keyed), free(live);
    return done;
}

void engine_report_free(engine_report *r) {
    free(r->build_log);
    free(r->worker_output);
    free(r->samples_ms);
    r->build_log = r->worker_output = NULL;
    r->samples_ms = NULL;
}

int engine_list_devices(engine_device **out, char *err, size_t errlen) {
    *out = NULL;
    sandbox_limits lim = {.total_s = 90, .grace_s = 1};
    sandbox_result sr;
    char why[1024] = "";
    if (wproto_run(WK_DEVICES, NULL, NULL, &lim, NULL, NULL, NULL, &sr, why, sizeof why) != 0) {
        util_errf(err, errlen, "could not start a worker process (%s)", why);
        return -1;
    }
    const int *status = blob_get(sr.blob, sr.blob_len, W_STATUS, 0, NULL);
    if (!status) {
        char *tail = tail_lines(sr.output, 4);
        util_errf(err, errlen, "the OpenCL runtime died while listing devices%s%s", tail ? ": " : "",
                  tail ? tail : "");
        free(tail);
        sandbox_result_free(&sr);
        return -1;
    }
    int n = 0;
    while (blob_get(sr.blob, sr.blob_len, W_DEVICE, n, NULL)) n++;
    *out = calloc((size_t)(n ? n : 1), sizeof(engine_device));
    if (!*out) {
        util_errf(err, errlen, "out of memory listing %d devices", n);
        sandbox_result_free(&sr);
        return -1;
    }
    for (int i = 0; i < n; i++) (*out)[i] = *(const engine_device *)blob_get(sr.blob, sr.blob_len, W_DEVICE, i, NULL);
    if (*status != ENG_PASS) {
        char *msg = blob_get_str(sr.blob, sr.blob_len, W_MESSAGE);
        util_errf(err, errlen, "%s", msg ? msg : "listing devices failed");
        free(msg);
        n = -1;
    }
    sandbox_result_free(&sr);
    return n;
}

int engine_device_match(const engine_device *devs, int n, const char *spec) {
    if (!spec || !*spec) return -1;
    int digits = 1;
    for (const char *p = spec; *p; p++) digits = digits && isdigit((unsigned char)*p);
    for (int i = 0; i < n; i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", devs[i].index);
        if (digits ? !strcmp(spec, idx) : util_contains_ci(devs[i].name, spec) || util_contains_ci(devs[i].platform, spec))
            return i;
    }
    return -1;
}

int engine_default_device(const engine_device *devs, int n, const char *configured) {
    int match = engine_device_match(devs, n, configured);
    if (match >= 0) return match;
    int best = n > 0 ? 0 : -1;
    for (int i = 1; i < n; i++)
        if (clh_default_rank(devs[i].type, devs[i].platform) < clh_default_rank(devs[best].type, devs[best].platform))
            best = i;
    return best;
}

