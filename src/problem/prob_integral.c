/* prob_integral — integral image of a W x H uint8 image into uint32 modulo 2^32 (chapter 9): inputs, golden, verifier, pipeline. */
#define _DEFAULT_SOURCE
#include "problem/prob_integral.h"
#include "text/i18n.h"
#include "base/rng.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INTEGRAL_MAX_SIDE 16384L
#define INTEGRAL_MAX_PIXELS (1L << 26)   /* 8192 x 8192 */
#define INTEGRAL_CONTEXT 3               /* pixels shown either side of the first wrong one */

static const char *const integral_inputs[] = {"random", "white", "gradient", NULL};

typedef struct {
    prob_instance base;
    uint8_t *image;       /* width x height, row-major */
    uint32_t *expected;   /* width x height, row-major */
    /* worker side: row scan (image -> a), transpose (a -> b), row scan (b -> c), transpose (c -> a) */
    cl_mem d_image, d_a, d_b, d_c;
    cl_kernel k_scan_bytes, k_transpose, k_scan;
    size_t local, tile, tile_rows;
    /* two passes (a file with a column_scan kernel): row scan (image -> b), then
     * column_scan (b -> a) over tiles of col_w x col_h with a status word per column of a tile */
    cl_kernel k_column;
    cl_mem d_status, d_counter;
    cl_uint epoch;
    size_t col_w, col_h;
} integral_instance;

const uint8_t *integral_image(const prob_instance *pi) { return ((const integral_instance *)pi)->image; }
const uint32_t *integral_expected(const prob_instance *pi) { return ((const integral_instance *)pi)->expected; }

static int integral_parse_size(const char *spec, prob_size *s, char *err, size_t errlen) {
    char buf[96];
    snprintf(buf, sizeof buf, "%s", spec);
    char *x = strpbrk(buf, "xX");
    long w = 0, h = 0;
    if (x) *x = '\0';
    if (!x || util_parse_count(buf, &w) != 0 || util_parse_count(x + 1, &h) != 0) {
        util_errf(err, errlen, _("size '%s' is not WxH (width x height in pixels), for example 1920x1080"), spec);
        return -1;
    }
    if (w < 1 || h < 1 || w > INTEGRAL_MAX_SIDE || h > INTEGRAL_MAX_SIDE || w * h > INTEGRAL_MAX_PIXELS) {
        util_errf(err, errlen, _("size '%s': width and height must be 1..16384 and the image at most 64M pixels "
                                 "(8192x8192)"), spec);
        return -1;
    }
    s->n = w;
    s->m = h;
    return 0;
}

static void integral_format_size(const prob_size *s, char *buf, size_t len) {
    snprintf(buf, len, "%ldx%ld:%s", s->n, s->m, s->input);
}

static size_t pixels(const prob_instance *pi) { return (size_t)pi->size.n * (size_t)pi->size.m; }

static prob_instance *integral_create(const lesson *l, const prob_size *s, uint64_t seed, char *err,
                                      size_t errlen) {
    integral_instance *ii = calloc(1, sizeof *ii);
    size_t np = (size_t)s->n * (size_t)s->m;
    if (ii) ii->image = malloc(np);
    if (!ii || !ii->image) {
        util_errf(err, errlen, _("out of memory for a %ldx%ld image"), s->n, s->m);
        free(ii);
        return NULL;
    }
    ii->base.ops = &prob_integral_ops;
    ii->base.lesson = l;
    ii->base.size = *s;
    ii->base.seed = seed;
    long w = s->n, h = s->m;
    if (!strcmp(s->input, "white")) {
        memset(ii->image, 255, np);
    } else if (!strcmp(s->input, "gradient")) {
        for (long y = 0; y < h; y++)
            for (long x = 0; x < w; x++) ii->image[y * w + x] = (uint8_t)((x + 2 * y) & 255);
    } else {
        rng_state r;
        rng_seed(&r, seed);
        size_t i = 0;
        for (; i + 8 <= np; i += 8) {
            uint64_t v = rng_next(&r);
            memcpy(&ii->image[i], &v, 8);
        }
        for (; i < np; i++) ii->image[i] = (uint8_t)rng_below(&r, 256);
    }
    return &ii->base;
}

static void integral_destroy(prob_instance *pi) {
    integral_instance *ii = (integral_instance *)pi;
    if (!ii) return;
    free(ii->image);
    free(ii->expected);
    free(ii);
}

static size_t integral_output_bytes(const prob_instance *pi) { return sizeof(uint32_t) * pixels(pi); }

static void integral_prepare_golden(prob_instance *pi) {
    integral_instance *ii = (integral_instance *)pi;
    if (!ii->expected) ii->expected = malloc(integral_output_bytes(pi));
    if (ii->expected) util_touch_pages(ii->expected, integral_output_bytes(pi));
}

/* The serial reference: a running row sum plus the integral of the row above. */
static const void *integral_expected_output(const prob_instance *pi, size_t *len) {
    *len = integral_output_bytes(pi);
    return ((const integral_instance *)pi)->expected;
}

static void integral_golden(prob_instance *pi) {
    integral_instance *ii = (integral_instance *)pi;
    long w = pi->size.n, h = pi->size.m;
    if (!ii->expected) ii->expected = malloc(integral_output_bytes(pi)); /* from prepare_golden or an earlier call */
    if (!ii->expected) return;
    for (long y = 0; y < h; y++) {
        uint32_t row = 0;
        const uint8_t *src = &ii->image[y * w];
        uint32_t *dst = &ii->expected[y * w];
        const uint32_t *above = y ? dst - w : NULL;
        for (long x = 0; x < w; x++) {
            row += src[x];
            dst[x] = row + (above ? above[x] : 0);
        }
    }
}

/* The straightforward OpenMP version: rows summed in parallel, then columns
 * accumulated in parallel over column strips. */
static double integral_host_parallel(prob_instance *pi) {
    integral_instance *ii = (integral_instance *)pi;
    long w = pi->size.n, h = pi->size.m;
    uint32_t *out = malloc(integral_output_bytes(pi));
    if (!out) return 0;
    util_touch_pages(out, integral_output_bytes(pi)); /* its pages exist before the clock starts, as a kernel's buffers do */
    double t0 = util_now();
#pragma omp parallel for schedule(static)
    for (long y = 0; y < h; y++) {
        uint32_t row = 0;
        for (long x = 0; x < w; x++) {
            row += ii->image[y * w + x];
            out[y * w + x] = row;
        }
    }
#pragma omp parallel for schedule(static)
    for (long x0 = 0; x0 < w; x0 += 64) {
        long x1 = x0 + 64 < w ? x0 + 64 : w;
        for (long y = 1; y < h; y++)
            for (long x = x0; x < x1; x++) out[y * w + x] += out[(y - 1) * w + x];
    }
    double ms = (util_now() - t0) * 1e3;
    static volatile uint32_t sink; /* keeps the work from being optimised away */
    sink = out[w * h - 1];
    (void)sink;
    free(out);
    return ms;
}

static void integral_verify(const prob_instance *pi, const void *out, size_t len, verify_report *vr) {
    const integral_instance *ii = (const integral_instance *)pi;
    long w = pi->size.n, h = pi->size.m;
    verify_init(vr, "pixel", w * h);
    if (len != integral_output_bytes(pi) || !ii->expected) {
        vr->ok = 0;
        snprintf(vr->summary, sizeof vr->summary, _("The kernels returned %zu bytes, not %zu."), len,
                 integral_output_bytes(pi));
        return;
    }
    const uint32_t *act = out;
    verify_first_wrong_u32(vr, ii->expected, act, w * h, INTEGRAL_CONTEXT);
    if (vr->ok) {
        verify_summarise(vr, NULL);
        return;
    }
    long i = vr->first_wrong, x = i % w, y = i / w;
    int n = snprintf(vr->summary, sizeof vr->summary,
                     _("%ld of %ld pixels differ. The first is pixel (x=%ld, y=%ld): expected %u, got %u "
                       "(index y*%ld+x = %ld below)."),
                     vr->n_wrong, w * h, x, y, ii->expected[i], act[i], w, i);
    const char *why = NULL;
    char buf[400];
    size_t chunk = pi->lesson ? problem_local_size(pi->lesson) * 2 : 0;
    uint32_t row_sum = ii->expected[i] - (y ? ii->expected[i - w] : 0);
    if (act[i] == ii->expected[i] - ii->image[i])
        why = _(" It misses the pixel itself: the integral image is inclusive (x' <= x and y' <= y), and "
                "Blelloch's scan is exclusive; add each element back after the scan.");
    else if (chunk && ((x > 0 && (size_t)x % chunk == 0) || (y > 0 && (size_t)y % chunk == 0))) {
        snprintf(buf, sizeof buf,
                 _(" Its %s is a multiple of %zu, one work-group's chunk of a row: is the running total of the "
                   "earlier chunks carried into the next?"), x > 0 && (size_t)x % chunk == 0 ? "x" : "y", chunk);
        why = buf;
    } else if (y > 0 && act[i] == row_sum)
        why = _(" It holds only the sum along its row: the second pass (transpose, scan the rows again, "
                "transpose back) is missing or did not reach this pixel.");
    if (why && n > 0 && (size_t)n < sizeof vr->summary)
        snprintf(vr->summary + n, sizeof vr->summary - (size_t)n, "%s", why);
}

static prob_work integral_work(const prob_instance *pi) {
    /* one byte in and four bytes out per pixel: what an ideal single pass moves */
    prob_work w = {.bytes = 5.0 * (double)pixels(pi), .flops = 0};
    return w;
}

static int kernel_defined(cl_program prog, const char *name) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, name, &e);
    if (e != CL_SUCCESS) return 0;
    clReleaseKernel(k);
    return 1;
}

/* The two-pass pipeline of a file that defines column_scan: its column_tile
 * kernel gives the tile shape; a zeroed status word per column of a tile and
 * a zeroed tile counter (the kernel resets it at the end of every launch). */
/* column_scan's work-groups: one per col_w x col_h tile (column_tile's answer). */
static size_t column_tiles(size_t w, size_t h, size_t col_w, size_t col_h) {
    return (w + col_w - 1) / col_w * ((h + col_h - 1) / col_h);
}

static prob_failure column_setup(integral_instance *ii, clh_ctx *ctx, cl_program prog, char *err, size_t errlen) {
    const prob_instance *pi = &ii->base;
    size_t np = pixels(pi), bytes = integral_output_bytes(pi);
    cl_int e[5];
    cl_uint shape[2] = {0, 0};
    cl_mem d_shape = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, sizeof shape, NULL, &e[0]);
    cl_kernel k = clCreateKernel(prog, "column_tile", &e[1]);
    size_t one = 1;
    if (e[0] == CL_SUCCESS && e[1] == CL_SUCCESS) e[1] = clSetKernelArg(k, 0, sizeof d_shape, &d_shape);
    if (e[0] == CL_SUCCESS && e[1] == CL_SUCCESS)
        e[1] = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (e[0] == CL_SUCCESS && e[1] == CL_SUCCESS)
        e[1] = clEnqueueReadBuffer(ctx->queue, d_shape, CL_TRUE, 0, sizeof shape, shape, 0, NULL, NULL);
    if (k) clReleaseKernel(k);
    if (d_shape) clReleaseMemObject(d_shape);
    if (e[0] != CL_SUCCESS || e[1] != CL_SUCCESS || shape[0] < 1 || shape[1] < 1 || shape[0] > 65536 || shape[1] > 65536)
        return prob_fail(PF_KERNEL_ANSWER, err, errlen, "a file with column_scan needs a kernel column_tile(shape) that "
                         "writes the tile's columns and rows, 1..65536 each (got %u x %u)", shape[0], shape[1]);
    ii->col_w = shape[0];
    ii->col_h = shape[1];
    size_t tiles = column_tiles((size_t)pi->size.n, (size_t)pi->size.m, ii->col_w, ii->col_h);
    size_t status_bytes = 8 * tiles * ii->col_w;
    ii->d_image = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, np, ii->image, &e[0]);
    ii->d_a = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e[1]);
    ii->d_b = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e[2]);
    ii->d_status = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, status_bytes, NULL, &e[3]);
    ii->d_counter = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 4, NULL, &e[4]);
    for (int i = 0; i < 5; i++)
        if (e[i] != CL_SUCCESS) return prob_fail(PF_DEVICE, err, errlen, "clCreateBuffer failed: %s", clh_error_name(e[i]));
    cl_ulong zero = 0;
    cl_int f = clEnqueueFillBuffer(ctx->queue, ii->d_status, &zero, sizeof zero, 0, status_bytes, 0, NULL, NULL);
    if (f == CL_SUCCESS) f = clEnqueueFillBuffer(ctx->queue, ii->d_counter, &zero, 4, 0, 4, 0, NULL, NULL);
    if (f == CL_SUCCESS) f = clFinish(ctx->queue);
    if (f != CL_SUCCESS) return prob_fail(PF_DEVICE, err, errlen, "clearing the tile status failed: %s", clh_error_name(f));
    ii->k_scan_bytes = clh_kernel(prog, pi->lesson->kernels[0], 0, err, errlen);
    if (!ii->k_scan_bytes) return PF_KERNEL_MISSING;
    ii->k_column = clh_kernel(prog, "column_scan", 0, err, errlen);
    if (!ii->k_column) return PF_KERNEL_MISSING;
    ii->local = problem_local_size(pi->lesson);
    ii->epoch = 0;
    return PF_OK;
}

/* The transpose's work-group: TILE x TILE_ROWS from the lesson. */
static void tile_of(const lesson *l, size_t *tile, size_t *tile_rows) {
    long t = lesson_param_long(l, "tile", 32), tr = lesson_param_long(l, "tile_rows", 8);
    *tile = t > 0 ? (size_t)t : 32;
    *tile_rows = tr > 0 ? (size_t)tr : 8;
}

/* The NDRanges of the four-launch pipeline for a w x h image: a work-group
 * per row, a work-group per column (the rows of the transposed image), and
 * a TILE x TILE_ROWS work-group per tile each way. */
typedef struct {
    size_t rows[1], cols[1], t1[2], t2[2];
} integral_ranges;

static integral_ranges ranges_of(size_t w, size_t h, size_t local, size_t tile, size_t tile_rows) {
    integral_ranges r = {.rows = {h * local}, .cols = {w * local}};
    r.t1[0] = problem_round_up(w, tile);
    r.t1[1] = (h + tile - 1) / tile * tile_rows;
    r.t2[0] = problem_round_up(h, tile);
    r.t2[1] = (w + tile - 1) / tile * tile_rows;
    return r;
}

/* The buffers: every kernel takes (in, out, ...); column_scan also
 * (status, counter): a 64-bit word per column of each tile, one counter. */
static double integral_arg_bytes(const prob_instance *pi, const char *kernel, int arg, const unsigned *answer,
                                 int n_answer) {
    const lesson *l = pi->lesson;
    if (!l || l->n_kernels < 3) return 0;
    double w = (double)pi->size.n, h = (double)pi->size.m;
    int first = !strcmp(kernel, l->kernels[0]);
    if (arg == 0) return first ? w * h : 4 * w * h; /* the uint8 image, else a uint image */
    if (arg == 1) return 4 * w * h;
    if (strcmp(kernel, "column_scan") != 0) return 0;
    if (arg == 2 && n_answer >= 2 && answer[0] && answer[1])
        return 8.0 * (double)column_tiles((size_t)w, (size_t)h, answer[0], answer[1]) * answer[0];
    return arg == 3 ? 4 : 0;
}

static double integral_launch_items(const prob_instance *pi, const char *kernel, const unsigned *answer,
                                    int n_answer) {
    const lesson *l = pi->lesson;
    if (!l || l->n_kernels < 3) return 0;
    size_t w = (size_t)pi->size.n, h = (size_t)pi->size.m, local = problem_local_size(l), tile, tile_rows;
    if (!strcmp(kernel, "column_scan"))
        return n_answer >= 2 && answer[0] && answer[1] ? (double)(column_tiles(w, h, answer[0], answer[1]) * local) : 0;
    tile_of(l, &tile, &tile_rows);
    integral_ranges r = ranges_of(w, h, local, tile, tile_rows);
    if (!strcmp(kernel, l->kernels[0])) return (double)r.rows[0];
    if (!strcmp(kernel, l->kernels[1])) return (double)r.t1[0] * (double)r.t1[1] + (double)r.t2[0] * (double)r.t2[1];
    if (!strcmp(kernel, l->kernels[2])) return (double)r.cols[0];
    return 0;
}

static prob_failure integral_dev_setup(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen) {
    integral_instance *ii = (integral_instance *)pi;
    const lesson *l = pi->lesson;
    if (l->n_kernels >= 1 && kernel_defined(prog, "column_scan")) return column_setup(ii, ctx, prog, err, errlen);
    if (l->n_kernels < 3) {
        return prob_fail(PF_AUTHOR, err, errlen, "lesson.ini must name three kernels (kernels = row_scan_bytes transpose row_scan)");
    }
    size_t np = pixels(pi), bytes = integral_output_bytes(pi);
    cl_int e[4];
    ii->d_image = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, np, ii->image, &e[0]);
    ii->d_a = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e[1]);
    ii->d_b = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e[2]);
    ii->d_c = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e[3]);
    for (int i = 0; i < 4; i++)
        if (e[i] != CL_SUCCESS) {
            return prob_fail(PF_DEVICE, err, errlen, "clCreateBuffer failed: %s", clh_error_name(e[i]));
        }
    ii->k_scan_bytes = clh_kernel(prog, l->kernels[0], 0, err, errlen);
    if (!ii->k_scan_bytes) return PF_KERNEL_MISSING;
    ii->k_transpose = clh_kernel(prog, l->kernels[1], 0, err, errlen);
    if (!ii->k_transpose) return PF_KERNEL_MISSING;
    ii->k_scan = clh_kernel(prog, l->kernels[2], 0, err, errlen);
    if (!ii->k_scan) return PF_KERNEL_MISSING;
    ii->local = problem_local_size(l);
    tile_of(l, &ii->tile, &ii->tile_rows);
    return PF_OK;
}

/* Sets (in, out, width, height) on k and enqueues it. */
static prob_failure launch(clh_ctx *ctx, cl_kernel k, const char *name, cl_mem in, cl_mem out, size_t width,
                           size_t height, cl_uint dims, const size_t *global, const size_t *local, cl_event *ev, char *err, size_t errlen) {
    cl_int st = CL_SUCCESS;
    cl_uint w = (cl_uint)width, h = (cl_uint)height;
    clh_arg(k, 0, sizeof(cl_mem), &in, &st);
    clh_arg(k, 1, sizeof(cl_mem), &out, &st);
    clh_arg(k, 2, sizeof(cl_uint), &w, &st);
    clh_arg(k, 3, sizeof(cl_uint), &h, &st);
    if (st != CL_SUCCESS) {
        return prob_fail(PF_ARGUMENTS, err, errlen, "setting the arguments of %s failed (%s): keep the argument list "
                  "(in, out, width, height)", name, clh_error_name(st));
    }
    cl_int e = clEnqueueNDRangeKernel(ctx->queue, k, dims, NULL, global, local, 0, NULL, ev);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "clEnqueueNDRangeKernel (%s, global %zux%zu, local %zux%zu) failed: %s", name,
                  global[0], dims > 1 ? global[1] : 1, local[0], dims > 1 ? local[1] : 1, clh_error_name(e));
    }
    return PF_OK;
}

/* The two passes of a file with column_scan; the time is the sum of the two. */
static prob_failure column_launch(integral_instance *ii, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    const prob_instance *pi = &ii->base;
    size_t w = (size_t)pi->size.n, h = (size_t)pi->size.m;
    cl_event ev[2];
    int n_ev = 0;
    size_t g_rows[1] = {h * ii->local}, l1[1] = {ii->local};
    size_t tiles = column_tiles(w, h, ii->col_w, ii->col_h);
    size_t g_tiles[1] = {tiles * ii->local};
    prob_failure rc = launch(ctx, ii->k_scan_bytes, pi->lesson->kernels[0], ii->d_image, ii->d_b, w, h, 1, g_rows, l1,
                             &ev[n_ev], err, errlen);
    if (!rc) n_ev++;
    if (!rc) {
        cl_int st = CL_SUCCESS;
        cl_uint wi = (cl_uint)w, hi = (cl_uint)h, epoch = ++ii->epoch;
        clh_arg(ii->k_column, 0, sizeof(cl_mem), &ii->d_b, &st);
        clh_arg(ii->k_column, 1, sizeof(cl_mem), &ii->d_a, &st);
        clh_arg(ii->k_column, 2, sizeof(cl_mem), &ii->d_status, &st);
        clh_arg(ii->k_column, 3, sizeof(cl_mem), &ii->d_counter, &st);
        clh_arg(ii->k_column, 4, sizeof(cl_uint), &wi, &st);
        clh_arg(ii->k_column, 5, sizeof(cl_uint), &hi, &st);
        clh_arg(ii->k_column, 6, sizeof(cl_uint), &epoch, &st);
        cl_int e = st != CL_SUCCESS ? st
                                    : clEnqueueNDRangeKernel(ctx->queue, ii->k_column, 1, NULL, g_tiles, l1, 0, NULL, &ev[n_ev]);
        if (e != CL_SUCCESS)
            rc = prob_fail(prob_failure_of_launch(e), err, errlen, "column_scan (in, out, status, counter, width, "
                           "height, epoch) could not be launched: %s", clh_error_name(e));
        else
            n_ev++;
    }
    if (n_ev > 0) {
        cl_int e = clWaitForEvents((cl_uint)n_ev, ev);
        if (e != CL_SUCCESS && !rc)
            rc = prob_fail(prob_failure_of_launch(e), err, errlen, "the kernels failed while running: %s", clh_error_name(e));
    }
    *ms = 0;
    for (int i = 0; i < n_ev; i++) {
        double t = rc ? 0 : clh_event_ms(ev[i]);
        if (t < 0) rc = prob_fail(PF_DEVICE, err, errlen, "the device gave no time for a kernel's run");
        else *ms += t;
        clReleaseEvent(ev[i]);
    }
    return rc;
}

/* One pass: scan rows, transpose, scan rows, transpose back; the time is the sum of the four. */
static prob_failure integral_dev_launch(prob_instance *pi, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    integral_instance *ii = (integral_instance *)pi;
    if (ii->k_column) return column_launch(ii, ctx, ms, err, errlen);
    const lesson *l = pi->lesson;
    size_t w = (size_t)pi->size.n, h = (size_t)pi->size.m;
    cl_event ev[4];
    int n_ev = 0;
    prob_failure rc = PF_OK;
    *ms = 0;
    integral_ranges r = ranges_of(w, h, ii->local, ii->tile, ii->tile_rows);
    size_t *g_rows = r.rows, *g_cols = r.cols, *g_t1 = r.t1, *g_t2 = r.t2, l1[1] = {ii->local};
    size_t l2[2] = {ii->tile, ii->tile_rows};
    rc = launch(ctx, ii->k_scan_bytes, l->kernels[0], ii->d_image, ii->d_a, w, h, 1, g_rows, l1, &ev[n_ev], err,
                errlen);
    if (!rc) n_ev++;
    if (!rc) rc = launch(ctx, ii->k_transpose, l->kernels[1], ii->d_a, ii->d_b, w, h, 2, g_t1, l2, &ev[n_ev], err,
                         errlen);
    if (!rc) n_ev++;
    if (!rc) rc = launch(ctx, ii->k_scan, l->kernels[2], ii->d_b, ii->d_c, h, w, 1, g_cols, l1, &ev[n_ev], err,
                         errlen);
    if (!rc) n_ev++;
    if (!rc) rc = launch(ctx, ii->k_transpose, l->kernels[1], ii->d_c, ii->d_a, h, w, 2, g_t2, l2, &ev[n_ev], err,
                         errlen);
    if (!rc) n_ev++;
    if (n_ev > 0) {
        cl_int e = clWaitForEvents((cl_uint)n_ev, ev);
        if (e != CL_SUCCESS && !rc)
            rc = prob_fail(prob_failure_of_launch(e), err, errlen, "the kernels failed while running: %s",
                           clh_error_name(e));
    }
    for (int i = 0; i < n_ev; i++) {
        double t = rc ? 0 : clh_event_ms(ev[i]);
        if (t < 0) rc = prob_fail(PF_DEVICE, err, errlen, "the device gave no time for a kernel's run");
        else *ms += t;
        clReleaseEvent(ev[i]);
    }
    return rc;
}

static prob_failure integral_dev_read(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen) {
    integral_instance *ii = (integral_instance *)pi;
    cl_int e = clEnqueueReadBuffer(ctx->queue, ii->d_a, CL_TRUE, 0, integral_output_bytes(pi), out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "reading the integral image back failed: %s", clh_error_name(e));
    }
    return PF_OK;
}

static void integral_dev_release(prob_instance *pi) {
    integral_instance *ii = (integral_instance *)pi;
    cl_kernel *ks[] = {&ii->k_scan_bytes, &ii->k_transpose, &ii->k_scan, &ii->k_column};
    for (size_t i = 0; i < CLT_ARRAY_LEN(ks); i++) {
        if (*ks[i]) clReleaseKernel(*ks[i]);
        *ks[i] = NULL;
    }
    cl_mem *ms[] = {&ii->d_image, &ii->d_a, &ii->d_b, &ii->d_c, &ii->d_status, &ii->d_counter};
    for (size_t i = 0; i < CLT_ARRAY_LEN(ms); i++) {
        if (*ms[i]) clReleaseMemObject(*ms[i]);
        *ms[i] = NULL;
    }
}

static int integral_dev_inputs(prob_instance *pi, prob_input *in, int max) {
    integral_instance *ii = (integral_instance *)pi;
    if (max < 1) return 0;
    in[0] = (prob_input){"image", ii->d_image, ii->image, pixels(pi)};
    return 1;
}

const problem_ops prob_integral_ops = {
    .name = "integral",
    .size_syntax = N_("WxH  (width x height in pixels, e.g. 1920x1080; at most 64M pixels)"),
    .input_kinds = integral_inputs,
    .parse_size = integral_parse_size,
    .format_size = integral_format_size,
    .create = integral_create,
    .destroy = integral_destroy,
    .output_bytes = integral_output_bytes,
    .golden = integral_golden,
    .prepare_golden = integral_prepare_golden,
    .verify = integral_verify,
    .expected = integral_expected_output,
    .work = integral_work,
    .launch_items = integral_launch_items,
    .arg_bytes = integral_arg_bytes,
    .helper_kernel = "column_tile",
    .dev_setup = integral_dev_setup,
    .dev_launch = integral_dev_launch,
    .dev_read = integral_dev_read,
    .dev_release = integral_dev_release,
    .dev_inputs = integral_dev_inputs,
    .host_parallel = integral_host_parallel,
};
