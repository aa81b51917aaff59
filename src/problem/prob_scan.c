/* prob_scan — exclusive prefix sum of N uint32 values modulo 2^32 (chapter 8): inputs, golden, verifier, pipeline. */
#define _DEFAULT_SOURCE
#include "problem/prob_scan.h"
#include "text/i18n.h"
#include "base/rng.h"
#include "base/util.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_MAX (1L << 26)      /* 64M elements */
#define SCAN_MAX_LEVELS 40       /* blocks of 2 elements still need only 26 */
#define SCAN_CONTEXT 3           /* neighbours shown either side of the first wrong element */

static const char *const scan_inputs[] = {"random", "ones", "zeros", "large", NULL};

typedef struct {
    prob_instance base;
    uint32_t *in;         /* n values */
    uint32_t *expected;   /* n values: the exclusive scan */
    /* worker side: level k scans src[k] (len[k] values) into dst[k] and writes
     * its block totals into src[k + 1]; then the totals flow back down. */
    int levels;
    size_t block, local;
    size_t len[SCAN_MAX_LEVELS + 1];
    cl_mem src[SCAN_MAX_LEVELS + 1], dst[SCAN_MAX_LEVELS];
    cl_kernel k_scan, k_add;
    /* the single-pass pipeline (a file that defines the lesson's
     * single_pass_kernel): one launch over tiles of `block` elements */
    cl_kernel k_single;
    cl_mem status, counter;   /* a 64-bit status word per tile; the tile counter */
    cl_uint epoch;            /* launch number, so that old status words read as not ready */
} scan_instance;

size_t scan_block_size(const lesson *l) {
    long per = lesson_param_long(l, "elements_per_work_item", 2);
    return problem_local_size(l) * (size_t)(per > 0 ? per : 2);
}

const uint32_t *scan_input(const prob_instance *pi) { return ((const scan_instance *)pi)->in; }
const uint32_t *scan_expected(const prob_instance *pi) { return ((const scan_instance *)pi)->expected; }

static int scan_parse_size(const char *spec, prob_size *s, char *err, size_t errlen) {
    long n;
    if (util_parse_count(spec, &n) != 0 || n < 1 || n > SCAN_MAX) {
        util_errf(err, errlen, _("size '%s' is not an element count in 1..64M (K and M suffixes allowed, e.g. 1M)"),
                  spec);
        return -1;
    }
    s->n = n;
    return 0;
}

static void scan_format_size(const prob_size *s, char *buf, size_t len) {
    snprintf(buf, len, "%ld:%s", s->n, s->input);
}

static prob_instance *scan_create(const lesson *l, const prob_size *s, uint64_t seed, char *err, size_t errlen) {
    scan_instance *si = calloc(1, sizeof *si);
    if (si) si->in = malloc(sizeof(uint32_t) * (size_t)s->n);
    if (!si || !si->in) {
        util_errf(err, errlen, _("out of memory for %ld elements"), s->n);
        free(si);
        return NULL;
    }
    si->base.ops = &prob_scan_ops;
    si->base.lesson = l;
    si->base.size = *s;
    si->base.seed = seed;
    rng_state r;
    rng_seed(&r, seed);
    long n = s->n;
    if (!strcmp(s->input, "ones")) {
        for (long i = 0; i < n; i++) si->in[i] = 1;
    } else if (!strcmp(s->input, "zeros")) {
        memset(si->in, 0, sizeof(uint32_t) * (size_t)n);
    } else if (!strcmp(s->input, "large")) {
        /* from 2^31 up: every second element carries past 2^32 */
        for (long i = 0; i < n; i++) si->in[i] = 0x80000000u | (uint32_t)rng_next(&r);
    } else {
        for (long i = 0; i < n; i++) si->in[i] = rng_below(&r, 256);
    }
    return &si->base;
}

static void scan_destroy(prob_instance *pi) {
    scan_instance *si = (scan_instance *)pi;
    if (!si) return;
    free(si->in);
    free(si->expected);
    free(si);
}

static size_t scan_output_bytes(const prob_instance *pi) { return sizeof(uint32_t) * (size_t)pi->size.n; }

/* The serial reference: element i is the sum of elements 0..i-1, wrapping at 2^32. */
/* The usual two-pass OpenMP scan: each thread sums its slice, the slice
 * totals are scanned, then each thread scans its slice from its offset. */
static double scan_host_parallel(prob_instance *pi) {
    scan_instance *si = (scan_instance *)pi;
    long n = pi->size.n;
    uint32_t *out = malloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
    if (!out) return 0;
    util_touch_pages(out, sizeof(uint32_t) * (size_t)n); /* its pages exist before the clock starts, as a kernel's buffers do */
    double t0 = util_now();
    uint32_t totals[256] = {0}; /* each thread's sum, shared by the team */
#pragma omp parallel num_threads(omp_get_max_threads() < 256 ? omp_get_max_threads() : 256)
    {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        long from = n * t / nt, to = n * (t + 1) / nt;
        uint32_t sum = 0;
        for (long i = from; i < to; i++) sum += si->in[i];
        if (t < 256) totals[t] = sum;
#pragma omp barrier
        uint32_t offset = 0;
        for (int j = 0; j < t && j < 256; j++) offset += totals[j];
        for (long i = from; i < to; i++) {
            out[i] = offset;
            offset += si->in[i];
        }
    }
    double ms = (util_now() - t0) * 1e3;
    static volatile uint32_t sink; /* keeps the work from being optimised away */
    sink = n ? out[n - 1] : 0;
    (void)sink;
    free(out);
    return ms;
}

static void scan_prepare_golden(prob_instance *pi) {
    scan_instance *si = (scan_instance *)pi;
    if (!si->expected) si->expected = malloc(scan_output_bytes(pi));
    if (si->expected) util_touch_pages(si->expected, scan_output_bytes(pi));
}

static const void *scan_expected_output(const prob_instance *pi, size_t *len) {
    *len = scan_output_bytes(pi);
    return ((const scan_instance *)pi)->expected;
}

static void scan_golden(prob_instance *pi) {
    scan_instance *si = (scan_instance *)pi;
    if (!si->expected) si->expected = malloc(scan_output_bytes(pi)); /* from prepare_golden or an earlier call */
    if (!si->expected) return;
    uint32_t sum = 0;
    for (long i = 0; i < pi->size.n; i++) {
        si->expected[i] = sum;
        sum += si->in[i];
    }
}

static void scan_verify(const prob_instance *pi, const void *out, size_t len, verify_report *vr) {
    const scan_instance *si = (const scan_instance *)pi;
    long n = pi->size.n;
    verify_init(vr, "element", n);
    if (len != scan_output_bytes(pi) || !si->expected) {
        vr->ok = 0;
        snprintf(vr->summary, sizeof vr->summary, _("The kernels returned %zu bytes, not %zu."), len,
                 scan_output_bytes(pi));
        return;
    }
    const uint32_t *act = out;
    verify_first_wrong_u32(vr, si->expected, act, n, SCAN_CONTEXT);
    if (vr->ok) {
        verify_summarise(vr, NULL);
        return;
    }
    long i = vr->first_wrong;
    int w = snprintf(vr->summary, sizeof vr->summary,
                     _("%ld of %ld elements differ. The first is element %ld: expected %u, got %u."), vr->n_wrong, n,
                     i, si->expected[i], act[i]);
    const char *why = NULL;
    char buf[480];
    size_t b = pi->lesson ? scan_block_size(pi->lesson) : 0;
    int inclusive = 1; /* the first wrong element and up to 15 after it each hold their own value too */
    for (long j = i; j < n && j < i + 16 && inclusive; j++) inclusive = act[j] == si->expected[j] + si->in[j];
    if (inclusive)
        why = _(" It holds the sum up to and including itself: that is an inclusive scan, but element i of an "
                "exclusive scan is the sum of the elements before i (element 0 is 0).");
    else if (b && i > 0 && (size_t)i % b == 0) {
        long blk = (long)((size_t)i / b), end = i + (long)b < n ? i + (long)b : n;
        uint32_t d = act[i] - si->expected[i];
        int same = 1;
        for (long j = i; j < end && same; j++) same = act[j] - si->expected[j] == d;
        if (same)
            snprintf(buf, sizeof buf,
                     _(" Every element of block %ld (blocks of %zu elements) is off by the same amount: the block's "
                       "own scan is right, the sum of the blocks before it is not (block totals, add_sums)."),
                     blk, b);
        else
            snprintf(buf, sizeof buf,
                     _(" Element %ld starts block %ld (blocks of %zu elements), and the values inside the block are "
                       "wrong too, not only its offset.%s"),
                     i, blk, b, end == n && end - i < (long)b ? _(" It is the last block and it is not full.") : "");
        why = buf;
    }
    if (why && w > 0 && (size_t)w < sizeof vr->summary)
        snprintf(vr->summary + w, sizeof vr->summary - (size_t)w, "%s", why);
}

static prob_work scan_work(const prob_instance *pi) {
    prob_work w = {.bytes = 8.0 * (double)pi->size.n, .flops = 0};
    return w;
}

static prob_failure make_buffer(clh_ctx *ctx, size_t bytes, void *host, cl_mem *out, char *err, size_t errlen) {
    cl_int e;
    *out = clCreateBuffer(ctx->context, host ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                          bytes ? bytes : 4, host, &e);
    if (e != CL_SUCCESS) return prob_fail(PF_DEVICE, err, errlen, "clCreateBuffer (%zu bytes) failed: %s", bytes, clh_error_name(e));
    return PF_OK;
}

/* A kernel file may say how many elements one work-group of scan_blocks
 * scans: a kernel named block_size writes that number to its argument. The
 * reference scans many elements per work-item; files without the kernel
 * (the exercise) keep local_size x elements_per_work_item. */
static prob_failure kernel_block_size(clh_ctx *ctx, cl_program prog, size_t *block, char *err, size_t errlen) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, "block_size", &e);
    if (e != CL_SUCCESS) return PF_OK;
    cl_uint got = 0;
    cl_mem buf = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, sizeof got, NULL, &e);
    if (e == CL_SUCCESS) e = clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t one = 1;
    if (e == CL_SUCCESS) e = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL);
    if (buf) clReleaseMemObject(buf);
    clReleaseKernel(k);
    if (e != CL_SUCCESS)
        return prob_fail(prob_failure_of_launch(e), err, errlen, "running the kernel block_size failed: %s",
                         clh_error_name(e));
    if (got < 2 || got > (1u << 24))
        return prob_fail(PF_KERNEL_ANSWER, err, errlen, "the kernel block_size says a block has %u elements: give 2 to 16M",
                         got);
    *block = got;
    return PF_OK;
}

/* Single pass: in (src[0]) -> out (dst[0]), a zeroed status word per tile and
 * a zeroed tile counter; the kernel resets the counter itself at the end. */
static prob_failure single_pass_setup(scan_instance *si, clh_ctx *ctx, char *err, size_t errlen) {
    size_t n = (size_t)si->base.size.n, tiles = (n + si->block - 1) / si->block;
    if (make_buffer(ctx, 4 * n, si->in, &si->src[0], err, errlen) ||
        make_buffer(ctx, 4 * n, NULL, &si->dst[0], err, errlen) ||
        make_buffer(ctx, 8 * tiles, NULL, &si->status, err, errlen) ||
        make_buffer(ctx, 4, NULL, &si->counter, err, errlen))
        return PF_DEVICE;
    cl_ulong zero = 0;
    cl_int e = clEnqueueFillBuffer(ctx->queue, si->status, &zero, sizeof zero, 0, 8 * tiles, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clEnqueueFillBuffer(ctx->queue, si->counter, &zero, 4, 0, 4, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clFinish(ctx->queue);
    if (e != CL_SUCCESS) return prob_fail(PF_DEVICE, err, errlen, "clearing the tile status failed: %s", clh_error_name(e));
    si->len[0] = n;
    si->len[1] = tiles;
    si->epoch = 0;
    return PF_OK;
}

static prob_failure single_pass_launch(scan_instance *si, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    cl_int st = CL_SUCCESS;
    cl_uint n = (cl_uint)si->len[0], epoch = ++si->epoch;
    clh_arg(si->k_single, 0, sizeof(cl_mem), &si->src[0], &st);
    clh_arg(si->k_single, 1, sizeof(cl_mem), &si->dst[0], &st);
    clh_arg(si->k_single, 2, sizeof(cl_mem), &si->status, &st);
    clh_arg(si->k_single, 3, sizeof(cl_mem), &si->counter, &st);
    clh_arg(si->k_single, 4, sizeof(cl_uint), &n, &st);
    clh_arg(si->k_single, 5, sizeof(cl_uint), &epoch, &st);
    if (st != CL_SUCCESS)
        return prob_fail(PF_ARGUMENTS, err, errlen, "setting the arguments of the single-pass kernel failed (%s): keep "
                         "the argument list (in, out, status, counter, n, epoch)", clh_error_name(st));
    *ms = 0;
    return problem_launch_1d(ctx, si->k_single, si->len[1] * si->local, si->local, ms, err, errlen);
}

static prob_failure scan_dev_setup(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen) {
    scan_instance *si = (scan_instance *)pi;
    const lesson *l = pi->lesson;
    si->local = problem_local_size(l);
    si->block = scan_block_size(l);
    prob_failure f = kernel_block_size(ctx, prog, &si->block, err, errlen);
    if (f) return f;
    const char *single = lesson_param_get(l, "single_pass_kernel", NULL);
    if (single && *single) {
        cl_int e;
        si->k_single = clCreateKernel(prog, single, &e);
        if (e != CL_SUCCESS) si->k_single = NULL;
        if (si->k_single) return single_pass_setup(si, ctx, err, errlen);
    }
    /* levels: each scans the block totals of the one before until one block is left */
    si->len[0] = (size_t)pi->size.n;
    si->levels = 0;
    for (;;) {
        if (si->levels == SCAN_MAX_LEVELS)
            return prob_fail(PF_KERNEL_ANSWER, err, errlen, "too many scan levels for blocks of %zu elements", si->block);
        size_t k = (size_t)si->levels++;
        si->len[k + 1] = (si->len[k] + si->block - 1) / si->block;
        if (si->len[k + 1] <= 1) break;
    }
    if (l->n_kernels < 2)
        return prob_fail(PF_AUTHOR, err, errlen, "lesson.ini must name two kernels (kernels = scan_blocks add_sums)");
    if (make_buffer(ctx, scan_output_bytes(pi), si->in, &si->src[0], err, errlen)) return PF_DEVICE;
    for (int k = 0; k < si->levels; k++) {
        if (make_buffer(ctx, sizeof(uint32_t) * si->len[k], NULL, &si->dst[k], err, errlen) ||
            make_buffer(ctx, sizeof(uint32_t) * si->len[k + 1], NULL, &si->src[k + 1], err, errlen))
            return PF_DEVICE;
    }
    si->k_scan = clh_kernel(prog, l->kernels[0], 0, err, errlen);
    if (!si->k_scan) return PF_KERNEL_MISSING;
    si->k_add = clh_kernel(prog, l->kernels[1], 0, err, errlen);
    if (!si->k_add) return PF_KERNEL_MISSING;
    return PF_OK;
}

static prob_failure enqueue(clh_ctx *ctx, cl_kernel k, size_t groups, size_t local, cl_event *ev, const char *name,
                            char *err, size_t errlen) {
    size_t global = groups * local;
    cl_int e = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, ev);
    if (e != CL_SUCCESS)
        return prob_fail(prob_failure_of_launch(e), err, errlen, "clEnqueueNDRangeKernel (%s, global %zu, local %zu) "
                         "failed: %s", name, global, local, clh_error_name(e));
    return PF_OK;
}

/* One pass: scan every level upwards, then add the scanned block totals back
 * downwards. The kernel time is the sum over all launches. */
static prob_failure scan_dev_launch(prob_instance *pi, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    scan_instance *si = (scan_instance *)pi;
    const lesson *l = pi->lesson;
    if (si->k_single) return single_pass_launch(si, ctx, ms, err, errlen);
    cl_event evs[2 * SCAN_MAX_LEVELS];
    int n_ev = 0;
    prob_failure rc = PF_OK;
    *ms = 0;
    for (int k = 0; k < si->levels && !rc; k++) {
        cl_int st = CL_SUCCESS;
        cl_uint n = (cl_uint)si->len[k];
        clh_arg(si->k_scan, 0, sizeof(cl_mem), &si->src[k], &st);
        clh_arg(si->k_scan, 1, sizeof(cl_mem), &si->dst[k], &st);
        clh_arg(si->k_scan, 2, sizeof(cl_mem), &si->src[k + 1], &st);
        clh_arg(si->k_scan, 3, sizeof(cl_uint), &n, &st);
        if (st != CL_SUCCESS) {
            util_errf(err, errlen, _("setting the arguments of %s failed (%s): keep the argument list "
                                     "(in, out, block_sums, n)"), l->kernels[0], clh_error_name(st));
            rc = PF_ARGUMENTS;
            break;
        }
        rc = enqueue(ctx, si->k_scan, si->len[k + 1], si->local, &evs[n_ev], l->kernels[0], err, errlen);
        if (!rc) n_ev++;
    }
    for (int k = si->levels - 1; k >= 1 && !rc; k--) {
        /* dst[k] holds the exclusive scan of level k-1's block totals */
        cl_int st = CL_SUCCESS;
        cl_uint n = (cl_uint)si->len[k - 1];
        clh_arg(si->k_add, 0, sizeof(cl_mem), &si->dst[k - 1], &st);
        clh_arg(si->k_add, 1, sizeof(cl_mem), &si->dst[k], &st);
        clh_arg(si->k_add, 2, sizeof(cl_uint), &n, &st);
        if (st != CL_SUCCESS) {
            util_errf(err, errlen, _("setting the arguments of %s failed (%s): keep the argument list "
                                     "(data, block_offsets, n)"), l->kernels[1], clh_error_name(st));
            rc = PF_ARGUMENTS;
            break;
        }
        rc = enqueue(ctx, si->k_add, si->len[k], si->local, &evs[n_ev], l->kernels[1], err, errlen);
        if (!rc) n_ev++;
    }
    if (n_ev > 0) {
        cl_int e = clWaitForEvents((cl_uint)n_ev, evs);
        if (e != CL_SUCCESS && !rc)
            rc = prob_fail(prob_failure_of_launch(e), err, errlen, "the kernels failed while running: %s",
                           clh_error_name(e));
    }
    for (int i = 0; i < n_ev; i++) {
        double t = rc ? 0 : clh_event_ms(evs[i]);
        if (t < 0) rc = prob_fail(PF_DEVICE, err, errlen, "the device gave no time for a kernel's run");
        else *ms += t;
        clReleaseEvent(evs[i]);
    }
    return rc;
}

static prob_failure scan_dev_read(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen) {
    scan_instance *si = (scan_instance *)pi;
    cl_int e = clEnqueueReadBuffer(ctx->queue, si->dst[0], CL_TRUE, 0, scan_output_bytes(pi), out, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return prob_fail(prob_failure_of_launch(e), err, errlen, "reading the scan back failed: %s", clh_error_name(e));
    return PF_OK;
}

static void scan_dev_release(prob_instance *pi) {
    scan_instance *si = (scan_instance *)pi;
    if (si->k_scan) clReleaseKernel(si->k_scan);
    if (si->k_add) clReleaseKernel(si->k_add);
    if (si->k_single) clReleaseKernel(si->k_single);
    si->k_scan = si->k_add = si->k_single = NULL;
    if (si->status) clReleaseMemObject(si->status);
    if (si->counter) clReleaseMemObject(si->counter);
    si->status = si->counter = NULL;
    for (int k = 0; k <= SCAN_MAX_LEVELS; k++) {
        if (si->src[k]) clReleaseMemObject(si->src[k]);
        si->src[k] = NULL;
        if (k < SCAN_MAX_LEVELS && si->dst[k]) clReleaseMemObject(si->dst[k]);
        if (k < SCAN_MAX_LEVELS) si->dst[k] = NULL;
    }
}

/* The input is src[0]; the other levels' buffers are the pipeline's own. */
static int scan_dev_inputs(prob_instance *pi, prob_input *in, int max) {
    scan_instance *si = (scan_instance *)pi;
    if (max < 1 || !si->src[0]) return 0;
    in[0] = (prob_input){"in", si->src[0], si->in, sizeof(uint32_t) * (size_t)pi->size.n};
    return 1;
}

const problem_ops prob_scan_ops = {
    .name = "scan",
    .size_syntax = N_("N  (elements, K/M suffixes allowed, up to 64M)"),
    .input_kinds = scan_inputs,
    .parse_size = scan_parse_size,
    .format_size = scan_format_size,
    .create = scan_create,
    .destroy = scan_destroy,
    .output_bytes = scan_output_bytes,
    .golden = scan_golden,
    .prepare_golden = scan_prepare_golden,
    .verify = scan_verify,
    .expected = scan_expected_output,
    .work = scan_work,
    .dev_setup = scan_dev_setup,
    .dev_launch = scan_dev_launch,
    .dev_read = scan_dev_read,
    .dev_release = scan_dev_release,
    .dev_inputs = scan_dev_inputs,
    .host_parallel = scan_host_parallel,
    .helper_kernel = "block_size",
};
