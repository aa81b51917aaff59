/* prob_bytes — the 256-bin histogram of N bytes (chapter 7): uniform, all-equal and skewed inputs. */
#define _DEFAULT_SOURCE
#include "problem/prob_bytes.h"
#include "text/i18n.h"
#include "base/rng.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_MAX (1L << 30)

static const char *const bytes_inputs[] = {"uniform", "equal", "skewed", NULL};

typedef struct {
    prob_instance base;
    unsigned char *data;   /* n bytes, zero-padded to a multiple of 16 */
    uint32_t expected[BYTES_BINS];
    cl_mem d_data, d_hist;
    cl_kernel kernel;
    size_t global, local;
} bytes_instance;

const unsigned char *bytes_data(const prob_instance *pi) { return ((const bytes_instance *)pi)->data; }
const uint32_t *bytes_expected(const prob_instance *pi) { return ((const bytes_instance *)pi)->expected; }

static int bytes_parse_size(const char *spec, prob_size *s, char *err, size_t errlen) {
    long n;
    if (util_parse_count(spec, &n) != 0 || n < 1 || n > BYTES_MAX) {
        util_errf(err, errlen, _("size '%s' is not a byte count in 1..1G (K, M, G suffixes allowed, e.g. 16M)"), spec);
        return -1;
    }
    s->n = n;
    s->m = BYTES_BINS;
    return 0;
}

static void bytes_format_size(const prob_size *s, char *buf, size_t len) {
    snprintf(buf, len, "%ld:%s", s->n, s->input);
}

static size_t padded(long n) { return problem_round_up((size_t)n, 16); }

static prob_instance *bytes_create(const lesson *l, const prob_size *s, uint64_t seed, char *err, size_t errlen) {
    bytes_instance *bi = calloc(1, sizeof *bi);
    if (bi) bi->data = calloc(padded(s->n), 1);
    if (!bi || !bi->data) {
        util_errf(err, errlen, _("out of memory for %ld bytes"), s->n);
        free(bi);
        return NULL;
    }
    bi->base.ops = &prob_bytes_ops;
    bi->base.lesson = l;
    bi->base.size = *s;
    bi->base.seed = seed;
    rng_state r;
    rng_seed(&r, seed);
    if (!strcmp(s->input, "equal")) {
        memset(bi->data, (int)rng_below(&r, 256), (size_t)s->n);
    } else if (!strcmp(s->input, "skewed")) {
        for (long i = 0; i < s->n; i++) {
            float u = rng_unit(&r);
            double v = -log(1.0 - (double)u) * 12.0; /* most bytes small, a long tail */
            bi->data[i] = (unsigned char)(v > 255 ? 255 : v);
        }
    } else {
        long i = 0;
        for (; i + 8 <= s->n; i += 8) {
            uint64_t x = rng_next(&r);
            memcpy(&bi->data[i], &x, 8);
        }
        for (; i < s->n; i++) bi->data[i] = (unsigned char)rng_below(&r, 256);
    }
    return &bi->base;
}

static void bytes_destroy(prob_instance *pi) {
    bytes_instance *bi = (bytes_instance *)pi;
    if (!bi) return;
    free(bi->data);
    free(bi);
}

static size_t bytes_output_bytes(const prob_instance *pi) {
    (void)pi;
    return sizeof(uint32_t) * BYTES_BINS;
}

static void bytes_golden(prob_instance *pi) {
    bytes_instance *bi = (bytes_instance *)pi;
    memset(bi->expected, 0, sizeof bi->expected);
    for (long i = 0; i < pi->size.n; i++) bi->expected[bi->data[i]]++;
}

/* The straightforward OpenMP version: a histogram per thread, merged. */
static double bytes_host_parallel(prob_instance *pi) {
    bytes_instance *bi = (bytes_instance *)pi;
    uint32_t hist[BYTES_BINS] = {0};
    long n = pi->size.n;
    double t0 = util_now();
#pragma omp parallel
    {
        uint32_t mine[BYTES_BINS] = {0};
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) mine[bi->data[i]]++;
#pragma omp critical
        for (int b = 0; b < BYTES_BINS; b++) hist[b] += mine[b];
    }
    double ms = (util_now() - t0) * 1e3;
    static volatile uint32_t sink; /* keeps the work from being optimised away */
    sink = hist[0];
    (void)sink;
    return ms;
}

static const void *bytes_expected_output(const prob_instance *pi, size_t *len) {
    *len = bytes_output_bytes(pi);
    return ((const bytes_instance *)pi)->expected;
}

static void bytes_verify(const prob_instance *pi, const void *out, size_t len, verify_report *vr) {
    const bytes_instance *bi = (const bytes_instance *)pi;
    verify_init(vr, "bin", BYTES_BINS);
    if (len != bytes_output_bytes(pi)) {
        vr->ok = 0;
        snprintf(vr->summary, sizeof vr->summary, _("The kernel returned %zu bytes, not %zu."), len,
                 bytes_output_bytes(pi));
        return;
    }
    const uint32_t *act = out;
    verify_exact_u32(vr, bi->expected, act, BYTES_BINS);
    verify_summarise(vr, N_("sum of all bins"));
    /* the zero padding after the data counted as bytes of value 0 */
    long pad = (long)padded(pi->size.n) - pi->size.n;
    if (!vr->ok && pad > 0 && vr->n_wrong == 1 && vr->first_wrong == 0 &&
        (long long)act[0] - bi->expected[0] == pad) {
        size_t u = strlen(vr->summary);
        snprintf(vr->summary + u, sizeof vr->summary - u,
                 _(" Bin 0 has exactly %ld too many: the buffer is zero-padded to a multiple of 16 bytes, and the "
                   "padding after the last of the n bytes was counted."), pad);
    }
}

static prob_work bytes_work(const prob_instance *pi) {
    prob_work w = {.bytes = (double)pi->size.n + 4.0 * BYTES_BINS, .flops = 0};
    return w;
}

static prob_failure bytes_dev_setup(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen) {
    bytes_instance *bi = (bytes_instance *)pi;
    const lesson *l = pi->lesson;
    cl_int e1, e2;
    bi->d_data = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded(pi->size.n),
                                bi->data, &e1);
    bi->d_hist = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes_output_bytes(pi), NULL, &e2);
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
        return prob_fail(PF_DEVICE, err, errlen, "clCreateBuffer failed: %s", clh_error_name(e1 != CL_SUCCESS ? e1 : e2));
    }
    bi->kernel = clh_kernel(prog, l->kernels[0], 1, err, errlen);
    if (!bi->kernel) return PF_KERNEL_MISSING;
    cl_int st = CL_SUCCESS;
    cl_uint n = (cl_uint)pi->size.n;
    clh_arg(bi->kernel, 0, sizeof(cl_mem), &bi->d_data, &st);
    clh_arg(bi->kernel, 1, sizeof(cl_uint), &n, &st);
    clh_arg(bi->kernel, 2, sizeof(cl_mem), &bi->d_hist, &st);
    if (st != CL_SUCCESS) {
        return prob_fail(PF_ARGUMENTS, err, errlen, "setting the kernel's arguments failed (%s): keep the argument list "
                  "(data, n, histogram)", clh_error_name(st));
    }
    /* about n / items_per_work_item work-items, and with groups_per_compute_unit
     * at most that many work-groups per compute unit: the kernel strides over
     * the data, so fewer groups each count more of it and merge once. */
    long per_item = lesson_param_long(l, "items_per_work_item", 64);
    long per_cu = lesson_param_long(l, "groups_per_compute_unit", 0);
    if (per_item < 1) per_item = 1;
    bi->local = problem_local_size(l);
    size_t items = (size_t)((pi->size.n + per_item - 1) / per_item);
    size_t groups = (items + bi->local - 1) / bi->local;
    if (per_cu > 0 && ctx->dev.compute_units > 0 && groups > (size_t)per_cu * ctx->dev.compute_units)
        groups = (size_t)per_cu * ctx->dev.compute_units;
    bi->global = groups * bi->local;
    return PF_OK;
}

static prob_failure bytes_dev_launch(prob_instance *pi, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    bytes_instance *bi = (bytes_instance *)pi;
    cl_uint zero = 0;
    cl_int e = clEnqueueFillBuffer(ctx->queue, bi->d_hist, &zero, sizeof zero, 0, bytes_output_bytes(pi), 0,
                                   NULL, NULL);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "clearing the histogram failed: %s", clh_error_name(e));
    }
    *ms = 0;
    return problem_launch_1d(ctx, bi->kernel, bi->global, bi->local, ms, err, errlen);
}

static prob_failure bytes_dev_read(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen) {
    bytes_instance *bi = (bytes_instance *)pi;
    cl_int e = clEnqueueReadBuffer(ctx->queue, bi->d_hist, CL_TRUE, 0, bytes_output_bytes(pi), out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "reading the histogram back failed: %s", clh_error_name(e));
    }
    return PF_OK;
}

static void bytes_dev_release(prob_instance *pi) {
    bytes_instance *bi = (bytes_instance *)pi;
    if (bi->kernel) clReleaseKernel(bi->kernel);
    if (bi->d_data) clReleaseMemObject(bi->d_data);
    if (bi->d_hist) clReleaseMemObject(bi->d_hist);
    bi->kernel = NULL;
    bi->d_data = bi->d_hist = NULL;
}

static int bytes_dev_inputs(prob_instance *pi, prob_input *in, int max) {
    bytes_instance *bi = (bytes_instance *)pi;
    if (max < 1) return 0;
    in[0] = (prob_input){"data", bi->d_data, bi->data, padded(pi->size.n)};
    return 1;
}

const problem_ops prob_bytes_ops = {
    .name = "bytes",
    .size_syntax = N_("N  (bytes, K/M/G suffixes allowed)"),
    .input_kinds = bytes_inputs,
    .parse_size = bytes_parse_size,
    .format_size = bytes_format_size,
    .create = bytes_create,
    .destroy = bytes_destroy,
    .output_bytes = bytes_output_bytes,
    .golden = bytes_golden,
    .verify = bytes_verify,
    .expected = bytes_expected_output,
    .work = bytes_work,
    .dev_setup = bytes_dev_setup,
    .dev_launch = bytes_dev_launch,
    .dev_read = bytes_dev_read,
    .dev_release = bytes_dev_release,
    .dev_inputs = bytes_dev_inputs,
    .host_parallel = bytes_host_parallel,
};
