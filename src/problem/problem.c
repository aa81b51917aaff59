/* problem — the registry of problems and helpers their pipelines share. */
#define _DEFAULT_SOURCE
#include "problem/problem.h"
#include "text/i18n.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const problem_ops prob_surf_ops;
extern const problem_ops prob_bytes_ops;
extern const problem_ops prob_scan_ops;
extern const problem_ops prob_integral_ops;

static const problem_ops *const registry[] = {&prob_surf_ops, &prob_bytes_ops, &prob_scan_ops, &prob_integral_ops};

const problem_ops *problem_find(const char *name) {
    for (size_t i = 0; i < CLT_ARRAY_LEN(registry); i++)
        if (!strcmp(registry[i]->name, name)) return registry[i];
    return NULL;
}

int problem_parse_size(const problem_ops *ops, const char *spec, prob_size *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec ? spec : "");
    char *colon = strchr(buf, ':');
    if (colon) *colon = '\0';
    if (ops->parse_size(buf, out, err, errlen) != 0) return -1;
    const char *kind = colon ? colon + 1 : ops->input_kinds[0];
    for (int i = 0; ops->input_kinds[i]; i++)
        if (!strcmp(kind, ops->input_kinds[i])) {
            snprintf(out->input, sizeof out->input, "%s", kind);
            return 0;
        }
    char list[256] = "";
    for (int i = 0; ops->input_kinds[i]; i++) {
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", ops->input_kinds[i]);
    }
    util_errf(err, errlen, _("input kind '%s' is not known for this chapter; use one of: %s"), kind, list);
    return -1;
}

size_t problem_local_size(const lesson *l) {
    long v = lesson_param_long(l, "local_size", 64);
    return v > 0 ? (size_t)v : 64;
}

void problem_build_options(const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "-DLOCAL_SIZE=%zu %s", problem_local_size(l), lesson_param_get(l, "build_options", ""));
}

uint64_t problem_launch_seed(uint64_t seed, int launch) {
    uint64_t z = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(launch + 1)); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

size_t problem_round_up(size_t n, size_t m) { return m ? (n + m - 1) / m * m : n; }

prob_failure problem_launch_1d(clh_ctx *ctx, cl_kernel k, size_t global, size_t local, double *ms,
                               char *err, size_t errlen) {
    cl_event ev;
    cl_int e = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev);
    if (e != CL_SUCCESS)
        return prob_fail(prob_failure_of_launch(e), err, errlen, "clEnqueueNDRangeKernel (global %zu, local %zu) failed: %s",
                         global, local, clh_error_name(e));
    e = clWaitForEvents(1, &ev);
    if (e != CL_SUCCESS) {
        clReleaseEvent(ev);
        return prob_fail(prob_failure_of_launch(e), err, errlen, "the kernel failed while running: %s",
                         clh_error_name(e));
    }
    double t = clh_event_ms(ev);
    clReleaseEvent(ev);
    if (t < 0) return prob_fail(PF_DEVICE, err, errlen, "the device gave no time for the kernel's run");
    if (ms) *ms += t;
    return PF_OK;
}

static const char *const failure_names[] = {
#define PF_NAME(e, name) name,
    PROB_FAILURES(PF_NAME)
#undef PF_NAME
};

const char *prob_failure_name(prob_failure f) {
    return (unsigned)f < sizeof failure_names / sizeof failure_names[0] ? failure_names[f] : "?";
}

prob_failure prob_fail(prob_failure kind, char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, _(fmt), ap);
    va_end(ap);
    return kind;
}

prob_failure prob_failure_of_launch(cl_int e) {
    /* CL_OUT_OF_RESOURCES is how most GPUs report an out-of-bounds access or
     * a kernel that asks for more than the device has; NVIDIA's illegal
     * address is -9999, and other vendors' codes are unknown to us */
    return e == CL_OUT_OF_RESOURCES || e == -9999 || !clh_error_known(e) ? PF_FAULT : PF_DEVICE;
}
