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

/* The profile's micro-kernels (docs/bench.md): each repeats one kind of
 * access ITERS times per work-item, in units of the GPU model (a warp is 32
 * work-items with consecutive ids). */
static const char *const profile_kernels =
    "__kernel void empty(__global float *out) { }\n"
    "__kernel void lines(__global const float *src, __global float *out, int iters) {\n"
    "    int l = get_local_id(0); float s = 0;\n"
    "    for (int i = 0; i < iters; i++) s += src[((l + i) & 127) * 32];   /* a 128-byte line each */\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void chain(__global const float *src, __global float *out, int iters) {\n"
    "    int l = get_local_id(0); float s = 0;\n"
    "    for (int i = 0; i < iters; i++) s += src[(i * 32 + l) & 4095];   /* a line a request */\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void dram_chain(__global const uint *next, __global uint *out, int iters, int mask) {\n"
    "    uint i = (atomic_inc(&out[1]) * 2654435761u + 1u) & (uint)mask;   /* each launch from a start of its own */\n"
    "    for (int k = 0; k < iters; k++) i = next[i];   /* each load's address is the last one's value */\n"
    "    out[0] = i;\n"
    "}\n"
    "__kernel void scatter_store(__global uint *out) {\n"
    "    uint g = get_global_id(0), rows = 32, cols = get_global_size(0) / 32;\n"
    "    out[(g % rows) * cols + g / rows] = g;   /* a warp's 32 stores in 32 rows: a transpose's writes */\n"
    "}\n"
    "__kernel void requests(__global const float *src, __global float *out, int iters) {\n"
    "    int l = get_local_id(0); float s = 0;\n"
    "    if ((l & 31) == 0)   /* one work-item of each warp: a request of one line */\n"
    "        for (int i = 0; i < iters; i++) s += src[((l / 32 + i) & 127) * 32];\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void const_lines(__constant float *c, __global float *out, int iters) {\n"
    "    int l = get_local_id(0); float s = 0;\n"
    "    for (int i = 0; i < iters; i++) s += c[((l + i) & 127) * 32];   /* 32 lines a warp */\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void banks(__global float *out, int iters, int stride) {\n"
    "    __local float t[4096]; int l = get_local_id(0); float s = 0;\n"
    "    for (int i = l; i < 4096; i += get_local_size(0)) t[i] = i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int i = 0; i < iters; i++) s += t[(l * stride + i) & 4095];\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void consts(__constant float *c, __global float *out, int iters) {\n"
    "    int l = get_local_id(0); float s = 0;\n"
    "    for (int i = 0; i < iters; i++) s += c[(l + i) & 1023];   /* 32 addresses a warp */\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void gatomic(__global int *h, int iters, int same) {\n"
    "    int a = same ? 0 : get_global_id(0);\n"
    "    for (int i = 0; i < iters; i++) atomic_add(&h[a], 1);\n"
    "}\n"
    "__kernel void latomic(__global int *out, int iters, int same) {\n"
    "    __local int t[1024]; int l = get_local_id(0);\n"
    "    t[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int a = same ? 0 : l;\n"
    "    for (int i = 0; i < iters; i++) atomic_add(&t[a], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n";

typedef struct {
    const char *spec;
    int profile;
} limits_arg;

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

/* A micro-kernel's median time (ms): buffers first, then int arguments. */
static double time_micro(clh_ctx *ctx, cl_program prog, const char *name, const cl_mem *bufs, int n_bufs,
                         const int *ints, int n_ints, size_t items, size_t local, cl_int *e) {
    char err[256];
    cl_int st = CL_SUCCESS;
    cl_kernel k = clh_kernel(prog, name, 0, err, sizeof err);
    if (!k) return *e = CL_INVALID_KERNEL_NAME, 0;
    for (int i = 0; i < n_bufs; i++) clh_arg(k, (cl_uint)i, sizeof bufs[i], &bufs[i], &st);
    for (int i = 0; i < n_ints; i++) clh_arg(k, (cl_uint)(n_bufs + i), sizeof(int), &ints[i], &st);
    double ms = st == CL_SUCCESS ? time_kernel(ctx, k, items, local, 7, e) : 0;
    if (st != CL_SUCCESS) *e = st;
    clReleaseKernel(k);
    return ms;
}

/* One work-item following a chain of loads through a buffer larger than any
 * last-level cache, each step to a pseudo-random word (a full-period linear
 * congruence modulo the power-of-two length: no stride for a prefetcher to
 * follow), each launch from a start of its own (a counter in out[1]: no
 * launch finds the last one's lines in the cache): the time a load from
 * DRAM takes when nothing overlaps it, in ns; 0 with *e where it cannot run. */
static double dram_latency(clh_ctx *ctx, cl_program prog, int gpu, cl_mem out, cl_int *e) {
    size_t n = (gpu ? (size_t)1 << 30 : (size_t)256 << 20) / sizeof(cl_uint);
    while (n > ((size_t)16 << 20) / sizeof(cl_uint) && (unsigned long long)n * sizeof(cl_uint) * 4 > ctx->dev.global_mem)
        n /= 2;
    cl_uint *next = malloc(n * sizeof *next);
    if (!next) return *e = CL_OUT_OF_HOST_MEMORY, 0;
    for (size_t i = 0; i < n; i++) next[i] = (cl_uint)((i * 1103515245u + 12345u) & (n - 1));
    cl_mem chain = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *next, next, e);
    free(next);
    if (*e != CL_SUCCESS) return 0;
    const int ints[2] = {1 << 16, (int)(n - 1)}; /* steps, and the mask of the length */
    const cl_mem bufs[2] = {chain, out};
    double ms = time_micro(ctx, prog, "dram_chain", bufs, 2, ints, 2, 1, 1, e);
    clReleaseMemObject(chain);
    return ms > 0 && *e == CL_SUCCESS ? ms * 1e6 / ints[0] : 0;
}

/* 4-byte stores each in a sector of its own, the sectors filled by the
 * warps that follow (a transpose without a tile: 32 rows of a matrix wider
 * than the last-level cache, a column a warp): sectors a second, 1e9; 0
 * with *e where it cannot run. */
static double scattered_stores(clh_ctx *ctx, cl_program prog, int gpu, cl_int *e) {
    size_t items = gpu ? (size_t)32 << 20 : (size_t)1 << 20;
    while (items > ((size_t)1 << 20) && (unsigned long long)items * sizeof(cl_uint) * 4 > ctx->dev.global_mem) items /= 2;
    cl_mem buf = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint), NULL, e);
    if (*e != CL_SUCCESS) return 0;
    double ms = time_micro(ctx, prog, "scatter_store", &buf, 1, NULL, 0, items, 256, e);
    clReleaseMemObject(buf);
    return ms > 0 && *e == CL_SUCCESS ? (double)items / (ms * 1e-3) * 1e-9 : 0;
}

/* The profile's figures, each from its micro-kernel (1e9 per second). */
static int measure_profile(int fd, clh_ctx *ctx, int gpu, bench_limits *lim) {
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(ctx, profile_kernels, "", &prog, &log), e1 = CL_SUCCESS, e2 = CL_SUCCESS;
    free(log);
    if (e != CL_SUCCESS) return fail(fd, N_("building the profile's kernels"), e);
    size_t items = gpu ? (size_t)1 << 20 : (size_t)1 << 14, small = 64 << 10;
    int iters = gpu ? 256 : 64;
    double ops = (double)items * iters, warps = ops / 32;
    cl_mem src = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, small, NULL, &e1);
    cl_mem out = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, items * sizeof(float), NULL, &e2);
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) return fail(fd, N_("creating the profile's buffers"), e1 ? e1 : e2);
    int zero = 0;
    clEnqueueFillBuffer(ctx->queue, src, &zero, sizeof zero, 0, small, 0, NULL, NULL);
    clEnqueueFillBuffer(ctx->queue, out, &zero, sizeof zero, 0, items * sizeof(float), 0, NULL, NULL);
    clFinish(ctx->queue);
    const cl_mem two[2] = {src, out};
    const int spread[2] = {iters, 0}, same[2] = {iters, 1}, flat[2] = {iters, 1}, conflicted[2] = {iters, 32};
    double t;
    lim->launch_us = 1e3 * time_micro(ctx, prog, "empty", &out, 1, NULL, 0, 256, 256, &e);
#define RATE(count, call) ((t = (call)) > 0 && e == CL_SUCCESS ? (count) / (t * 1e-3) * 1e-9 : 0)
    lim->l1_glines = RATE(ops, time_micro(ctx, prog, "lines", two, 2, &iters, 1, items, 256, &e));
    lim->const_greads = RATE(ops, time_micro(ctx, prog, "consts", two, 2, &iters, 1, items, 256, &e));
    lim->const_glines = RATE(ops, time_micro(ctx, prog, "const_lines", two, 2, &iters, 1, items, 256, &e));
    lim->l1_grequests = RATE(warps, time_micro(ctx, prog, "requests", two, 2, &iters, 1, items, 256, &e));
    lim->local_gpasses = RATE(warps, time_micro(ctx, prog, "banks", &out, 1, flat, 2, items, 256, &e));
    lim->local_conflict_gpasses = RATE(ops, time_micro(ctx, prog, "banks", &out, 1, conflicted, 2, items, 256, &e));
    lim->gatom_spread = RATE(ops, time_micro(ctx, prog, "gatomic", &out, 1, spread, 2, items, 256, &e));
    lim->gatom_same = RATE(ops, time_micro(ctx, prog, "gatomic", &out, 1, same, 2, items, 256, &e));
    lim->latom_spread = RATE(warps, time_micro(ctx, prog, "latomic", &out, 1, spread, 2, items, 256, &e));
    lim->latom_same = RATE(warps, time_micro(ctx, prog, "latomic", &out, 1, same, 2, items, 256, &e));
#undef RATE
    /* one warp alone: the time of a request when nothing hides its latency */
    int chain_iters = gpu ? 1 << 20 : 1 << 16;
    t = time_micro(ctx, prog, "chain", two, 2, &chain_iters, 1, 32, 32, &e);
    lim->warp_request_ns = t > 0 && e == CL_SUCCESS ? t * 1e6 / chain_iters : 0;
    if (e == CL_SUCCESS) lim->dram_latency_ns = dram_latency(ctx, prog, gpu, out, &e);
    if (e == CL_SUCCESS) lim->scatter_gsectors = scattered_stores(ctx, prog, gpu, &e);
    clReleaseMemObject(src);
    clReleaseMemObject(out);
    clReleaseProgram(prog);
    if (e != CL_SUCCESS) return fail(fd, N_("running the profile's kernels"), e);
    lim->profiled = 1;
    return 0;
}

static int limits_worker(void *arg, int fd, int pfd) {
    const limits_arg *la = arg;
    const char *spec = la->spec;
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
    if (la->profile) { /* the same copy on 4 MiB that stay in the last-level cache */
        size_t l2 = (size_t)4 << 20;
        double ms = time_kernel(&ctx, copy, l2 / 16, 256, LIMIT_RUNS, &e);
        if (e == CL_SUCCESS && ms > 0) lim.l2_gbps = 2.0 * (double)l2 / (ms * 1e-3) * 1e-9;
    }
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
    lim.compute_units = ctx.dev.compute_units;
    if (la->profile) {
        sandbox_phase(pfd, PHASE_PROFILE, 300);
        if (measure_profile(fd, &ctx, gpu, &lim)) return 1;
    }
    clh_close(&ctx);
    blob_put(fd, B_LIMITS, &lim, sizeof lim);
    return 0;
}

static int device_limits(const char *device_spec, int profile, run_progress_cb cb, void *user, bench_limits *out,
                         char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    sandbox_limits lim = {.total_s = 900, .grace_s = 2};
    sandbox_result sr;
    limits_arg la = {device_spec, profile};
    if (sandbox_run_fn(limits_worker, &la, &lim, cb, user, NULL, &sr) != 0) {
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

int bench_device_limits(const char *device_spec, run_progress_cb cb, void *user, bench_limits *out,
                        char *err, size_t errlen) {
    return device_limits(device_spec, 0, cb, user, out, err, errlen);
}

int bench_device_profile(const char *device_spec, run_progress_cb cb, void *user, bench_limits *out,
                         char *err, size_t errlen) {
    return device_limits(device_spec, 1, cb, user, out, err, errlen);
}

const char *bench_size_for(const lesson *l, const char *device_type) {
    if (device_type && strcmp(device_type, "GPU") != 0) {
        const char *cpu = lesson_param_get(l, "bench_size_cpu", NULL);
        return cpu ? cpu : l->default_size;
    }
    return l->bench_size;
}

int bench_sizes_for(const lesson *l, const char *device_type, char sizes[][64], int max) {
    const char *size = bench_size_for(l, device_type), *kinds = lesson_param_get(l, "bench_inputs", "");
    int n = 0;
    for (const char *p = kinds; *p && n < max;) {
        size_t len = strcspn(p, " \t");
        if (len) snprintf(sizes[n++], 64, "%.*s:%.*s", (int)strcspn(size, ":"), size, (int)len, p);
        p += len + strspn(p + len, " \t");
    }
    if (n == 0 && max > 0) snprintf(sizes[n++], 64, "%s", size);
    return n;
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
    rq.timing = ENGINE_TIMING_SERIES; /* back to back, as the copy it is divided by */
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
