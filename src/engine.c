/* engine — runs a learner's kernel end to end: golden reference here, the
 * kernel in a worker process, then verification and timing statistics. */
#define _GNU_SOURCE
#include "engine.h"
#include "sandbox.h"
#include "util.h"
#include "worker.h"
#include "wproto.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    case ENG_PASS: return 0;
    case ENG_WRONG: return 1;
    case ENG_BUILD: return 2;
    case ENG_CRASH: case ENG_TIMEOUT: case ENG_RUNTIME: return 3;
    case ENG_USAGE: return 64;
    case ENG_NO_DEVICE: return 69;
    case ENG_CANCELLED: return 130;
    }
    return 3;
}

const char *engine_status_name(engine_status s) {
    static const char *const names[] = {"pass", "wrong", "build_error", "crash", "timeout",
                                        "runtime_error", "cancelled", "usage", "no_device"};
    return (unsigned)s < CLT_ARRAY_LEN(names) ? names[s] : "unknown";
}

/* Is the token ending at `end` (exclusive) a file name the runtime made up? */
static int runtime_file_name(const char *start, size_t len) {
    static const char *const fixed[] = {"<kernel>", "<source>", "<stdin>", "input.cl", "program.cl"};
    for (size_t i = 0; i < CLT_ARRAY_LEN(fixed); i++)
        if (len == strlen(fixed[i]) && !strncmp(start, fixed[i], len)) return 1;
    return len > 3 && !strncmp(start + len - 3, ".cl", 3);
}

char *engine_rewrite_build_log(const char *log, const char *display, int *line, int *col) {
    char *out = NULL;
    if (line) *line = 0;
    if (col) *col = 0;
    util_sappend(&out, "%s", "");
    const char *p = log;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        /* skip the runtime's own chatter */
        if ((len > 7 && !strncmp(p, "Device ", 7) && strstr(p, "failed to build")) ||
            (len > 15 && memmem(p, len, "errors generated", 16)) ||
            (len > 14 && memmem(p, len, "error generated", 15) && len < 24)) {
            p = eol ? eol + 1 : p + len;
            continue;
        }
        char *l = malloc(len + 1);
        memcpy(l, p, len);
        l[len] = '\0';
        /* find "NAME:LINE:COL" */
        char *q = l, *rewritten = NULL;
        const char *prefix = "";
        if (!strncmp(q, "error: ", 7) && strstr(q + 7, ".cl:")) { prefix = "error: "; q += 7; }
        char *colon = strchr(q, ':');
        int ln = 0, cn = 0, consumed = 0;
        if (colon && runtime_file_name(q, (size_t)(colon - q)) &&
            sscanf(colon, ":%d:%d%n", &ln, &cn, &consumed) == 2) {
            char *rest = colon + consumed;
            const char *kind = prefix[0] ? ": error" : "";
            rewritten = NULL;
            util_sappend(&rewritten, "%s:%d:%d%s%s", display, ln, cn, kind, rest);
            if (line && !*line && (prefix[0] || strstr(rest, "error"))) {
                *line = ln;
                if (col) *col = cn;
            }
        }
        util_sappend(&out, "%s\n", rewritten ? rewritten : l);
        free(rewritten);
        free(l);
        p = eol ? eol + 1 : p + len;
    }
    util_rstrip(out);
    return out;
}

static void set_msg(engine_report *r, engine_status st, const char *headline, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set_msg(engine_report *r, engine_status st, const char *headline, const char *fmt, ...) {
    r->status = st;
    snprintf(r->headline, sizeof r->headline, "%s", headline);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
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
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

static void explain_signal(engine_report *r, const sandbox_result *sr, const char *file) {
    int in_run = !strcmp(sr->phase, "run");
    const char *sig = !sr->signaled ? "an unexpected exit"
                    : sr->signal == SIGSEGV ? "a segmentation fault (SIGSEGV)"
                    : sr->signal == SIGBUS ? "a bus error (SIGBUS)"
                    : sr->signal == SIGABRT ? "an abort (SIGABRT)"
                    : sr->signal == SIGFPE ? "an arithmetic fault (SIGFPE)"
                    : sr->signal == SIGXCPU ? "running out of CPU time (SIGXCPU)"
                    : sr->signal == SIGILL ? "an illegal instruction (SIGILL)" : "a signal";
    if (!in_run) {
        set_msg(r, ENG_CRASH, "Crashed",
                "The OpenCL runtime died with %s while %s %s (phase '%s'). cltutor is fine; the run was "
                "isolated. If the message below does not explain it, try another device with --device.",
                sig, !strcmp(sr->phase, "build") ? "compiling" : "preparing", file, sr->phase);
        return;
    }
    if (sr->signal == SIGFPE)
        set_msg(r, ENG_CRASH, "Crashed",
                "Your kernel stopped with %s. Likely cause: an integer division or modulo by zero. "
                "Try: check every divisor in %s.", sig, file);
    else
        set_msg(r, ENG_CRASH, "Crashed",
                "Your kernel stopped the device with %s. Likely causes: a read or write outside a "
                "buffer (an index past the end, often a missing `if (id >= n) return;` guard when the "
                "global size is rounded up to a multiple of the work-group size), or a barrier() "
                "inside a branch that not every work-item of the group takes. Try: check each index "
                "against its buffer's length and keep barriers out of divergent code; a smaller --size "
                "can make the fault easier to find.", sig);
}

static void explain_timeout(engine_report *r, const sandbox_result *sr, const engine_request *rq) {
    if (!strcmp(sr->phase, "run"))
        set_msg(r, ENG_TIMEOUT, "Timed out",
                "Your kernel did not finish within %.0f s and was stopped. Likely causes: a loop that "
                "never ends (a condition that stays true, or a step that never reaches the bound), or a "
                "barrier() that some work-items never reach. Try: check each loop's bound and step; "
                "run a smaller --size; if the kernel is only slow, raise --timeout.", rq->timeout_s);
    else
        set_msg(r, ENG_TIMEOUT, "Timed out",
                "The OpenCL runtime did not finish the '%s' step within %.0f s and was stopped. "
                "Try again; if it keeps happening, try another device with --device.",
                sr->phase, sr->phase_limit_s);
}

/* The golden reference kept by a run with keep_reference (one at a time). */
static struct {
    prob_instance *pi;
    const lesson *l;
    char size[96];
    uint64_t seed;
    double serial_ms;
} kept;

static void release_instance(const problem_ops *ops, prob_instance *pi) {
    if (pi != kept.pi) ops->destroy(pi);
}

int engine_run(const engine_request *rq_in, engine_progress_cb cb, void *user, volatile int *cancel,
               engine_report *r) {
    memset(r, 0, sizeof *r);
    engine_request rq = *rq_in;
    const lesson *l = rq.lesson;
    if (!rq.display_path) rq.display_path = rq.kernel_path;
    if (!rq.size_spec) rq.size_spec = l->default_size;
    r->seed = rq.seed;
    const problem_ops *ops = problem_find(l->problem);
    char err[1024] = "";
    if (!ops) {
        set_msg(r, ENG_USAGE, "Bad chapter", "%s/lesson.ini: unknown problem '%s'", l->dir, l->problem);
        return -1;
    }
    prob_size size;
    if (problem_parse_size(ops, rq.size_spec, &size, err, sizeof err) != 0) {
        set_msg(r, ENG_USAGE, "Bad size", "--size: %s", err);
        return -1;
    }
    ops->format_size(&size, r->size_text, sizeof r->size_text);
    if (!util_is_file(rq.kernel_path)) {
        struct stat st;
        int exists = stat(rq.kernel_path, &st) == 0;
        set_msg(r, ENG_USAGE, "No kernel file", "%s: %s. Give an existing .cl file with --kernel.", rq.display_path,
                !exists ? "no such file" : S_ISDIR(st.st_mode) ? "a folder, not a file" : "not a regular file");
        return -1;
    }

    /* the golden reference, computed and timed here before the worker starts */
    if (cb) cb(user, "reference", 0, 0, 0);
    char size_key[96];
    snprintf(size_key, sizeof size_key, "%s:%s", r->size_text, size.input);
    prob_instance *pi = NULL;
    if (rq.keep_reference && kept.pi && kept.l == l && kept.seed == rq.seed && kept.pi->ops == ops &&
        !strcmp(kept.size, size_key)) {
        pi = kept.pi;
        r->serial_ms = kept.serial_ms;
    } else {
        pi = ops->create(l, &size, rq.seed, err, sizeof err);
        if (!pi) {
            set_msg(r, ENG_USAGE, "Size too large", "%s", err);
            return -1;
        }
        if (ops->prepare_golden) ops->prepare_golden(pi);
        double t0 = util_now();
        ops->golden(pi);
        r->serial_ms = (util_now() - t0) * 1e3;
        if (rq.keep_reference) {
            if (kept.pi) kept.pi->ops->destroy(kept.pi);
            kept.pi = pi;
            kept.l = l;
            kept.seed = rq.seed;
            kept.serial_ms = r->serial_ms;
            snprintf(kept.size, sizeof kept.size, "%s", size_key);
        }
    }
    r->work = ops->work(pi);

    sandbox_limits lim = {.total_s = 60 + 120 + rq.timeout_s * 2 + 30, .grace_s = 1.0,
                          .cpu_s = rq.cpu_limit_s, .memory_mb = rq.memory_limit_mb};
    sandbox_result sr;
    if (wproto_run(WK_RUN, &rq, NULL, &lim, cb, user, cancel, &sr, err, sizeof err) != 0) {
        set_msg(r, ENG_RUNTIME, "Could not start", "could not start a worker process (%s)", err);
        release_instance(ops, pi);
        return -1;
    }
    if (cb && !sr.cancelled) cb(user, "check", 0, 0, sr.wall_s); /* verification follows */
    r->wall_s = sr.wall_s;
    r->worker_output = tail_lines(sr.output, 12);

    const engine_device *dev = blob_get(sr.blob, sr.blob_len, W_DEVICE, 0, NULL);
    if (dev) r->device = *dev;
    char *log = blob_get_str(sr.blob, sr.blob_len, W_BUILDLOG);
    if (log) {
        r->build_log = engine_rewrite_build_log(log, rq.display_path, &r->error_line, &r->error_col);
        free(log);
    }
    for (int i = 0; i < LESSON_MAX_KERNELS; i++) {
        size_t klen = 0;
        const engine_kernel_info *ki = blob_get(sr.blob, sr.blob_len, W_KINFO, i, &klen);
        if (!ki || klen != sizeof *ki) break;
        r->kinfo[r->n_kinfo] = *ki;
        r->kinfo[r->n_kinfo].name[sizeof ki->name - 1] = '\0';
        for (int a = 0; a < ENGINE_MAX_KARGS; a++) r->kinfo[r->n_kinfo].arg_name[a][31] = '\0';
        r->n_kinfo++;
    }
    size_t slen = 0;
    const double *samples = blob_get(sr.blob, sr.blob_len, W_SAMPLES, 0, &slen);
    if (samples && slen) {
        r->n_samples = (int)(slen / sizeof(double));
        r->samples_ms = malloc(slen);
        memcpy(r->samples_ms, samples, slen);
        r->timing = stats_summarise(r->samples_ms, r->n_samples);
    }
    size_t out_len = 0;
    const void *out = blob_get(sr.blob, sr.blob_len, W_OUTPUT, 0, &out_len);
    const int *status = blob_get(sr.blob, sr.blob_len, W_STATUS, 0, NULL);
    char *msg = blob_get_str(sr.blob, sr.blob_len, W_MESSAGE);

    if (out) {
        r->has_output = 1;
        ops->verify(pi, out, out_len, &r->verify);
    }
    /* a correct first output counts only if every timed launch gave it too */
    char chk_head[64] = "", chk_msg[768] = "";
    engine_status chk = out && r->verify.ok && status && *status == ENG_PASS
                            ? wproto_check_run(&sr, out, out_len, rq.max_runs, chk_head, sizeof chk_head, chk_msg,
                                               sizeof chk_msg)
                            : ENG_PASS;
    if (sr.cancelled) {
        set_msg(r, ENG_CANCELLED, "Cancelled", "The run was cancelled.");
    } else if (sr.timed_out) {
        explain_timeout(r, &sr, &rq);
    } else if (sr.signaled && (sr.signal == SIGXCPU || (sr.signal == SIGKILL && rq.cpu_limit_s > 0))) {
        /* the kernel raises SIGKILL at the hard CPU limit when SIGXCPU did not end the worker */
        set_msg(r, ENG_TIMEOUT, "CPU time limit",
                "The worker used up its %ld s of CPU time and was stopped during '%s'. Likely cause: a loop "
                "that never ends, or far more work than the task needs. Try: check each loop's bound and step.",
                rq.cpu_limit_s, sr.phase);
    } else if (sr.signaled) {
        explain_signal(r, &sr, rq.display_path);
    } else if (!status && !strcmp(sr.phase, "run")) {
        explain_signal(r, &sr, rq.display_path); /* a runtime that traps faults and exits */
    } else if (!status) {
        set_msg(r, ENG_CRASH, "Crashed",
                "The worker running your kernel exited (status %d) without a result, during '%s'. "
                "The runtime's own words are below.", sr.exit_code, sr.phase);
    } else if (*status == ENG_BUILD) {
        if (r->build_log && *r->build_log)
            set_msg(r, ENG_BUILD, "Build failed",
                    "%s did not compile. The compiler's messages are below; fix the first one first.",
                    rq.display_path);
        else
            set_msg(r, ENG_BUILD, "Build failed", "%s: %s", rq.display_path, msg ? msg : "build failed");
        if (msg && strstr(msg, "kernel")) {
            set_msg(r, ENG_BUILD, "Kernel not found", "%s: %s", rq.display_path, msg);
        } else if (msg && strstr(msg, "argument")) {
            set_msg(r, ENG_BUILD, "Wrong kernel arguments", "%s: %s", rq.display_path, msg);
        }
    } else if (*status == ENG_USAGE) {
        set_msg(r, ENG_USAGE, "Bad request", "%s", msg ? msg : "bad request");
    } else if (*status == ENG_NO_DEVICE) {
        set_msg(r, ENG_NO_DEVICE, "No OpenCL device", "%s", msg ? msg : "no usable OpenCL device");
    } else if (*status == ENG_RUNTIME && msg && strcmp(sr.phase, "run") == 0 &&
               (strstr(msg, "ILLEGAL_ADDRESS") || strstr(msg, "CL_OUT_OF_RESOURCES") || strstr(msg, "CL_UNKNOWN"))) {
        /* GPUs report a fault as an error code rather than a signal */
        set_msg(r, ENG_CRASH, "Crashed",
                "Your kernel faulted on the device (%s). Likely cause: a read or write outside a buffer (an "
                "index past the end, often a missing `if (id >= n) return;` guard when the global size is "
                "rounded up to a multiple of the work-group size). Try: check each index against its "
                "buffer's length; a smaller --size can make the fault easier to find.", msg);
    } else if (*status == ENG_RUNTIME) {
        set_msg(r, ENG_RUNTIME, "OpenCL error",
                "%s. Likely causes: a work-group size the device refuses, a kernel that uses more local "
                "memory or registers than it has, or a fault the runtime caught.", msg ? msg : "an OpenCL call failed");
    } else if (!r->has_output) {
        set_msg(r, ENG_CRASH, "No result", "The worker finished without returning the kernel's output.");
    } else if (chk != ENG_PASS) {
        set_msg(r, chk, chk_head, "%s", chk_msg);
    } else if (r->verify.ok) {
        set_msg(r, ENG_PASS, "Correct", "%s", r->verify.summary);
    } else {
        set_msg(r, ENG_WRONG, "Wrong result", "%s", r->verify.summary);
    }
    if (r->status != ENG_PASS && r->samples_ms) { /* only a correct kernel is timed */
        free(r->samples_ms);
        r->samples_ms = NULL;
        r->n_samples = 0;
        memset(&r->timing, 0, sizeof r->timing);
    }
    free(msg);
    sandbox_result_free(&sr);
    release_instance(ops, pi);
    return 0;
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
