/* bench — the device's own limits (copy bandwidth, FP32 peak) and each
 * chapter's reference measured against them. */
#define _DEFAULT_SOURCE
#include "run/bench.h"
#include "base/blob.h"
#include "cl/clhost.h"
#include "base/rng.h"
#include "run/sandbox.h"
#include "base/stats.h"
#include "base/util.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B_LIMITS BLOB_TAG('L', 'I', 'M', 'T')
#define B_ERROR BLOB_TAG('L', 'E', 'R', 'R')
#define B_STATUS BLOB_TAG('L', 'S', 'T', 'A') /* int: engine_status, when the device could not be opened */
#define LIMIT_RUNS 15
#define PEAK_ITERS 256

static const char *const limit_kernels =
    "__kernel void copy(__global const uint4 *src, __global uint4 *dst) {\n"
    "    size_t i = get_global_id(0);\n"
    "    dst[i] = src[i];\n"
    "}\n"
    "__kernel void peak(__global float *out, float a, float b) {\n"
    "    float4 x0 = (float4)(get_global_id(0) * 1e-9f), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
    "    float4 x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;\n"
    "    for (int i = 0; i < 256; i++) {   /* PEAK_ITERS */\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);\n"
    "    }\n"
    "    float4 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;\n"
    "    out[get_global_id(0)] = s.x + s.y + s.z + s.w;\n"
    "}\n";

/* what: the step that failed (English, N_), translated here */
static int fail(int fd, const char *what, cl_int e) {
    char msg[256];
    snprintf(msg, sizeof msg, _("%s: %s"), _(what), clh_error_name(e));
    blob_put_str(fd, B_ERROR, msg);
    return 1;
}

/* Median kernel time of `runs` launches after one warm-up. */
static double time_kernel(clh_ctx *ctx, cl_kernel k, size_t global, size_t local, int runs, cl_int *err) {
    double t[LIMIT_RUNS];
    for (int i = -1; i < runs; i++) {
        cl_event ev;
        *err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (*err != CL_SUCCESS) return 0;
        *err = clWaitForEvents(1, &ev);
        double ms = clh_event_ms(ev);
        clReleaseEvent(ev);
        if (*err != CL_SUCCESS) return 0;
        if (i >= 0) t[i] = ms;
    }
    return stats_summarise(t, runs).median;
}

static int limits_worker(void *arg, int fd, int pfd) {
    const char *spec = arg;
    char err[512];
    sandbox_phase(pfd, PHASE_DEVICE, 60);
    clh_ctx ctx;
    int opened = clh_open(&ctx, spec, err, sizeof err);
    if (opened != CLH_OK) {
        int st = opened == CLH_BAD_SPEC ? ENG_USAGE : ENG_NO_DEVICE;
        blob_put(fd, B_STATUS, &st, sizeof st);
        blob_put_str(fd, B_ERROR, err);
        return 1;
    }
    bench_limits lim;
    memset(&lim, 0, sizeof lim);
    snprintf(lim.device.name, sizeof lim.device.name, "%s", ctx.dev.name);
    snprintf(lim.device.platform, sizeof lim.device.platform, "%s", ctx.dev.platform);
    snprintf(lim.device.type, sizeof lim.device.type, "%s", ctx.dev.type);
    snprintf(lim.device.version, sizeof lim.device.version, "%s", ctx.dev.version);
    snprintf(lim.device.driver, sizeof lim.device.driver, "%s", ctx.dev.driver);
    lim.device.index = ctx.dev.index;
    lim.global_mem = ctx.dev.global_mem;
    int gpu = !strcmp(ctx.dev.type, "GPU");

    sandbox_phase(pfd, PHASE_BUILD, 120);
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(&ctx, limit_kernels, "", &prog, &log);
    free(log);
    if (e != CL_SUCCESS) return fail(fd, N_("building the limit kernels"), e);

    /* copy: far larger than any last-level cache, random contents */
    sandbox_phase(pfd, PHASE_COPY, 300);
    size_t bytes = gpu ? (size_t)1 << 30 : (size_t)256 << 20;
    while (bytes > 64u << 20 && (unsigned long long)bytes * 4 > ctx.dev.global_mem) bytes /= 2;
    uint64_t *host = malloc(bytes);
    if (!host) return fail(fd, N_("allocating the copy buffer"), CL_OUT_OF_HOST_MEMORY);
    rng_state r;
    rng_seed(&r, 12345);
    for (size_t i = 0; i < bytes / 8; i++) host[i] = rng_next(&r);
    cl_int e1, e2;
    cl_mem src = clCreateBuffer(ctx.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, &e1);
    cl_mem dst = clCreateBuffer(ctx.context, CL_MEM_WRITE_ONLY, bytes, NULL, &e2);
    free(host);
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) return fail(fd, N_("creating the copy buffers"), e1 ? e1 : e2);
    cl_kernel copy = clh_kernel(prog, "copy", 0, err, sizeof err);
    cl_int st = CL_SUCCESS;
    clh_arg(copy, 0, sizeof src, &src, &st);
    clh_arg(copy, 1, sizeof dst, &dst, &st);
    lim.copy_ms = time_kernel(&ctx, copy, bytes / 16, 256, LIMIT_RUNS, &e);
    if (e != CL_SUCCESS || st != CL_SUCCESS) return fail(fd, N_("running the copy kernel"), e ? e : st);
    lim.copy_bytes = (double)bytes;
    lim.copy_gbps = 2.0 * (double)bytes / (lim.copy_ms * 1e-3) * 1e-9;
    clReleaseMemObject(src);
    clReleaseMemObject(dst);

    /* FP32 peak: eight independent chains of fused multiply-adds */
    sandbox_phase(pfd, PHASE_PEAK, 300);
    size_t items = gpu ? (size_t)1 << 21 : (size_t)1 << 15;
    cl_mem out = clCreateBuffer(ctx.context, CL_MEM_WRITE_ONLY, items * sizeof(float), NULL, &e);
    if (e != CL_SUCCESS) return fail(fd, N_("creating the peak buffer"), e);
    cl_kernel peak = clh_kernel(prog, "peak", 0, err, sizeof err);
    float a = 0.999f, b = 0.001f;
    clh_arg(peak, 0, sizeof out, &out, &st);
    clh_arg(peak, 1, sizeof a, &a, &st);
    clh_arg(peak, 2, sizeof b, &b, &st);
    double peak_ms = time_kernel(&ctx, peak, items, 256, LIMIT_RUNS, &e);
    if (e != CL_SUCCESS || st != CL_SUCCESS) return fail(fd, N_("running the peak kernel"), e ? e : st);
    lim.fp32_gflops = 2.0 * 8 * 4 * PEAK_ITERS * (double)items / (peak_ms * 1e-3) * 1e-9;
    clReleaseMemObject(out);
    clReleaseKernel(copy);
    clReleaseKernel(peak);
    clReleaseProgram(prog);
    clh_close(&ctx);
    blob_put(fd, B_LIMITS, &lim, sizeof lim);
    return 0;
}

int bench_device_limits(const char *device_spec, run_progress_cb cb, void *user, bench_limits *out,
                        char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    sandbox_limits lim = {.total_s = 900, .grace_s = 2};
    sandbox_result sr;
    if (sandbox_run_fn(limits_worker, (void *)device_spec, &lim, cb, user, NULL, &sr) != 0) {
        util_errf(err, errlen, "%s", _("could not start a worker process"));
        return ENG_RUNTIME;
    }
    const bench_limits *got = blob_get(sr.blob, sr.blob_len, B_LIMITS, 0, NULL);
    const int *status = blob_get(sr.blob, sr.blob_len, B_STATUS, 0, NULL);
    int rc = ENG_PASS;
    if (got) {
        *out = *got;
    } else {
        char *msg = blob_get_str(sr.blob, sr.blob_len, B_ERROR);
        if (msg) util_errf(err, errlen, "%s", msg);
        else if (sr.timed_out) util_errf(err, errlen, _("measuring the device's limits timed out (%s)"), run_phase_name(sr.phase));
        else util_errf(err, errlen, _("the worker measuring the device's limits died (%s)"), run_phase_name(sr.phase));
        free(msg);
        rc = status ? *status : ENG_RUNTIME;
    }
    sandbox_result_free(&sr);
    return rc;
}

const char *bench_size_for(const lesson *l, const char *device_type) {
    if (device_type && strcmp(device_type, "GPU") != 0) {
        const char *cpu = lesson_param_get(l, "bench_size_cpu", NULL);
        return cpu ? cpu : l->default_size;
    }
    return l->bench_size;
}

/* Times the serial C reference (one warm-up, then the median of 3: a single
 * cold run moves by several times on a busy machine) and the OpenMP loop
 * (one warm-up for the threads, then the median of 4). */
static void host_baselines(const lesson *l, const problem_ops *ops, const char *size, uint64_t seed,
                           bench_baselines *kept, run_progress_cb cb, void *user, bench_row *row) {
    bench_baselines none = {0}, *baselines = kept ? kept : &none;
    if (baselines->ops == ops && baselines->seed == seed && !strcmp(baselines->size, size)) {
        row->serial_ms = baselines->serial_ms;
        row->openmp_ms = baselines->openmp_ms;
        return;
    }
    prob_size ps;
    char err[256];
    if (problem_parse_size(ops, size, &ps, err, sizeof err) != 0) return;
    prob_instance *pi = ops->create(l, &ps, seed, err, sizeof err);
    if (!pi) return;
    if (cb) cb(user, &(run_progress){.phase = PHASE_SERIAL});
    if (ops->prepare_golden) ops->prepare_golden(pi);
    double t[5];
    for (int i = 0; i < 4; i++) {
        double t0 = util_now();
        ops->golden(pi);
        t[i] = (util_now() - t0) * 1e3;
    }
    row->serial_ms = stats_summarise(t + 1, 3).median;
    if (ops->host_parallel) {
        if (cb) cb(user, &(run_progress){.phase = PHASE_OPENMP});
        for (int i = 0; i < 5; i++) t[i] = ops->host_parallel(pi);
        row->openmp_ms = stats_summarise(t + 1, 4).median;
    }
    ops->destroy(pi);
    baselines->ops = ops;
    baselines->seed = seed;
    baselines->serial_ms = row->serial_ms;
    baselines->openmp_ms = row->openmp_ms;
    snprintf(baselines->size, sizeof baselines->size, "%s", size);
}

int bench_chapter(const lesson *l, const char *kernel_path, const char *device_spec, const char *size,
                  double budget_s, bench_baselines *kept, run_progress_cb cb, void *user, bench_row *row) {
    memset(row, 0, sizeof *row);
    row->lesson = l;
    snprintf(row->size, sizeof row->size, "%s", size);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = l;
    rq.kernel_path = kernel_path;
    rq.device_spec = device_spec;
    rq.size_spec = size;
    rq.budget_s = budget_s;
    rq.min_runs = 10;
    rq.timeout_s = 120;
    rq.seed = 20261121;
    engine_run(&rq, cb, user, NULL, &row->report);
    const engine_report *r = &row->report;
    if (r->timing.median > 0) {
        row->gbps = r->work.bytes / (r->timing.median * 1e-3) * 1e-9;
        row->gflops = r->work.flops / (r->timing.median * 1e-3) * 1e-9;
    }
    const problem_ops *ops = problem_find(l->problem);
    if (r->status == ENG_PASS && ops) host_baselines(l, ops, size, rq.seed, kept, cb, user, row);
    return 0;
}

void bench_row_free(bench_row *row) { engine_report_free(&row->report); }
