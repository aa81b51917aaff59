/* prob_surf — the SURF-descriptor histogram: each descriptor votes for its
#define _DEFAULT_SOURCE
 * nearest centroid (squared Euclidean distance); chapters 1 to 6. */
#include "problem/prob_surf.h"
#include "text/i18n.h"
#include "base/rng.h"
#include "base/util.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SURF_DEFAULT_CENTROIDS 256
#define SURF_DEFAULT_FEATURES 64
#define SURF_NOISE 0.05f          /* spread of descriptors around their centroid */
#define SURF_TIE_REL 1e-4f        /* distances this close (relative) may go either way */

static const char *const surf_inputs[] = {"random", "onebin", "ties", NULL};

typedef struct {
    prob_instance base;
    float *descriptors;   /* n x f, row-major */
    float *centroids;     /* c x f, row-major */
    uint32_t *expected;   /* c bins: the serial reference's answer */
    uint32_t *lo, *hi;    /* accepted range per bin, allowing near ties */
    long near_ties;
    /* worker side */
    float *desc_dev;      /* the descriptors as the device got them (transposed for some chapters) */
    cl_mem d_desc, d_cent, d_hist;
    cl_kernel kernel;
    size_t global, local;
} surf_instance;

static int surf_parse_size(const char *spec, prob_size *s, char *err, size_t errlen) {
    char buf[96];
    snprintf(buf, sizeof buf, "%s", spec);
    long v[3] = {0, SURF_DEFAULT_CENTROIDS, SURF_DEFAULT_FEATURES};
    int i = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, "xX", &save); tok; tok = strtok_r(NULL, "xX", &save)) {
        if (i == 3 || util_parse_count(tok, &v[i]) != 0) {
            util_errf(err, errlen, _("size '%s' is not N, NxC or NxCxF (descriptors x centroids x features), "
                                     "for example 65536x256"), spec);
            return -1;
        }
        i++;
    }
    if (i == 0) {
        util_errf(err, errlen, "%s", _("size is empty; give N, NxC or NxCxF, for example 65536x256"));
        return -1;
    }
    if (v[0] < 1 || v[0] > (1L << 24)) {
        util_errf(err, errlen, _("size '%s': descriptors must be 1..16M (got %ld)"), spec, v[0]);
        return -1;
    }
    if (v[1] < 1 || v[1] > 4096) {
        util_errf(err, errlen, _("size '%s': centroids must be 1..4096 (got %ld)"), spec, v[1]);
        return -1;
    }
    if (v[2] < 4 || v[2] > 256 || v[2] % 4) {
        util_errf(err, errlen, _("size '%s': features must be a multiple of 4 in 4..256 (got %ld)"), spec, v[2]);
        return -1;
    }
    if (v[0] * v[2] > (1L << 28)) {
        util_errf(err, errlen, _("size '%s': descriptors x features must stay under 256M floats"), spec);
        return -1;
    }
    s->n = v[0];
    s->m = v[1];
    s->k = v[2];
    return 0;
}

static void surf_format_size(const prob_size *s, char *buf, size_t len) {
    snprintf(buf, len, "%ldx%ldx%ld%s%s", s->n, s->m, s->k, strcmp(s->input, "random") ? ":" : "",
             strcmp(s->input, "random") ? s->input : "");
}

static prob_instance *surf_create(const lesson *l, const prob_size *s, uint64_t seed, char *err, size_t errlen) {
    surf_instance *si = calloc(1, sizeof *si);
    long n = s->n, c = s->m, f = s->k;
    if (si) {
        si->descriptors = malloc(sizeof(float) * (size_t)(n * f));
        si->centroids = malloc(sizeof(float) * (size_t)(c * f));
    }
    if (!si || !si->descriptors || !si->centroids) {
        util_errf(err, errlen, _("out of memory for %ld descriptors"), n);
        if (si) { free(si->descriptors); free(si->centroids); free(si); }
        return NULL;
    }
    si->base.ops = &prob_surf_ops;
    si->base.lesson = l;
    si->base.size = *s;
    si->base.seed = seed;
    rng_state r;
    rng_seed(&r, seed);
    for (long i = 0; i < c * f; i++) si->centroids[i] = rng_unit(&r);
    uint32_t only = rng_below(&r, (uint32_t)c);
    for (long i = 0; i < n; i++) {
        float *d = &si->descriptors[i * f];
        if (!strcmp(s->input, "ties") && c > 1 && (i & 1)) {
            /* exactly between two centroids: rounding decides, either bin is right */
            uint32_t a = rng_below(&r, (uint32_t)c), b = (a + 1 + rng_below(&r, (uint32_t)c - 1)) % (uint32_t)c;
            for (long k = 0; k < f; k++)
                d[k] = 0.5f * (si->centroids[a * f + k] + si->centroids[b * f + k]);
            continue;
        }
        uint32_t home = !strcmp(s->input, "onebin") ? only : rng_below(&r, (uint32_t)c);
        for (long k = 0; k < f; k++) d[k] = si->centroids[home * f + k] + SURF_NOISE * rng_normal(&r);
    }
    return &si->base;
}

const float *surf_descriptors(const prob_instance *pi) { return ((const surf_instance *)pi)->descriptors; }
const float *surf_centroids(const prob_instance *pi) { return ((const surf_instance *)pi)->centroids; }
const uint32_t *surf_expected(const prob_instance *pi) { return ((const surf_instance *)pi)->expected; }

static void surf_destroy(prob_instance *pi) {
    surf_instance *si = (surf_instance *)pi;
    if (!si) return;
    free(si->descriptors);
    free(si->centroids);
    free(si->desc_dev);
    free(si->expected);
    free(si->lo);
    free(si->hi);
    free(si);
}

static size_t surf_output_bytes(const prob_instance *pi) { return sizeof(uint32_t) * (size_t)pi->size.m; }

/* The serial reference, as chapter 1 shows it, also noting the runner-up so
 * that a near tie can be accepted either way. */
static void surf_golden(prob_instance *pi) {
    surf_instance *si = (surf_instance *)pi;
    long n = pi->size.n, c = pi->size.m, f = pi->size.k;
    if (!si->expected) si->expected = calloc((size_t)c, sizeof(uint32_t)); /* from prepare_golden or an earlier call */
    if (!si->lo) si->lo = calloc((size_t)c, sizeof(uint32_t));
    if (!si->hi) si->hi = calloc((size_t)c, sizeof(uint32_t));
    if (!si->expected || !si->lo || !si->hi) return;
    memset(si->expected, 0, sizeof(uint32_t) * (size_t)c);
    memset(si->lo, 0, sizeof(uint32_t) * (size_t)c);
    memset(si->hi, 0, sizeof(uint32_t) * (size_t)c);
    si->near_ties = 0;
    for (long i = 0; i < n; i++) {
        const float *d = &si->descriptors[i * f];
        float best = FLT_MAX, second = FLT_MAX;
        long best_j = 0, second_j = 0;
        for (long j = 0; j < c; j++) {
            const float *ce = &si->centroids[j * f];
            float dist = 0.0f;
            for (long k = 0; k < f; k++) {
                float t = d[k] - ce[k];
                dist += t * t;
            }
            if (dist < best) {
                second = best;
                second_j = best_j;
                best = dist;
                best_j = j;
            } else if (dist < second) {
                second = dist;
                second_j = j;
            }
        }
        si->expected[best_j]++;
        if (c > 1 && second - best <= SURF_TIE_REL * second + 1e-6f) {
            si->near_ties++;
            si->hi[best_j]++;
            si->hi[second_j]++;
        } else {
            si->lo[best_j]++;
            si->hi[best_j]++;
        }
    }
}

/* The golden state: the near ties, then the expected, lowest and highest count of each bin. */
static size_t surf_golden_words(const prob_instance *pi, uint32_t *w, size_t max) {
    const surf_instance *si = (const surf_instance *)pi;
    size_t c = (size_t)pi->size.m, n = 1 + 3 * c;
    if (!si->expected || !si->lo || !si->hi || si->near_ties > (long)UINT32_MAX) return 0;
    if (n <= max) {
        w[0] = (uint32_t)si->near_ties;
        memcpy(w + 1, si->expected, c * sizeof *w);
        memcpy(w + 1 + c, si->lo, c * sizeof *w);
        memcpy(w + 1 + 2 * c, si->hi, c * sizeof *w);
    }
    return n;
}

static int surf_golden_restore(prob_instance *pi, const uint32_t *w, size_t n) {
    surf_instance *si = (surf_instance *)pi;
    size_t c = (size_t)pi->size.m;
    if (n != 1 + 3 * c) return -1;
    if (!si->expected) si->expected = calloc(c, sizeof(uint32_t));
    if (!si->lo) si->lo = calloc(c, sizeof(uint32_t));
    if (!si->hi) si->hi = calloc(c, sizeof(uint32_t));
    if (!si->expected || !si->lo || !si->hi) return -1;
    si->near_ties = (long)w[0];
    memcpy(si->expected, w + 1, c * sizeof *w);
    memcpy(si->lo, w + 1 + c, c * sizeof *w);
    memcpy(si->hi, w + 1 + 2 * c, c * sizeof *w);
    return 0;
}

/* The straightforward OpenMP version: descriptors split among threads, each
 * with its own histogram, merged at the end. */
static double surf_host_parallel(prob_instance *pi) {
    surf_instance *si = (surf_instance *)pi;
    long n = pi->size.n, c = pi->size.m, f = pi->size.k;
    uint32_t *hist = calloc((size_t)c, sizeof(uint32_t));
    if (!hist) return 0;
    double t0 = util_now();
#pragma omp parallel
    {
        uint32_t *mine = calloc((size_t)c, sizeof(uint32_t));
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) {
            const float *d = &si->descriptors[i * f];
            float best = FLT_MAX;
            long best_j = 0;
            for (long j = 0; j < c; j++) {
                const float *ce = &si->centroids[j * f];
                float dist = 0.0f;
#pragma omp simd reduction(+ : dist)
                for (long k = 0; k < f; k++) dist += (d[k] - ce[k]) * (d[k] - ce[k]);
                if (dist < best) {
                    best = dist;
                    best_j = j;
                }
            }
            if (mine) mine[best_j]++;
        }
#pragma omp critical
        for (long j = 0; mine && j < c; j++) hist[j] += mine[j];
        free(mine);
    }
    double ms = (util_now() - t0) * 1e3;
    static volatile uint32_t sink; /* keeps the work from being optimised away */
    sink = hist[0];
    (void)sink;
    free(hist);
    return ms;
}

static void surf_verify(const prob_instance *pi, const void *out, size_t len, verify_report *vr) {
    const surf_instance *si = (const surf_instance *)pi;
    long c = pi->size.m;
    verify_init(vr, "bin", c);
    if (len != surf_output_bytes(pi) || !si->expected) {
        vr->ok = 0;
        snprintf(vr->summary, sizeof vr->summary, _("The kernel returned %zu bytes of histogram, not %zu."), len,
                 surf_output_bytes(pi));
        return;
    }
    const uint32_t *act = out;
    vr->near_ties = si->near_ties;
    for (long b = 0; b < c; b++) {
        vr->expected_total += si->expected[b];
        vr->actual_total += act[b];
    }
    for (long b = 0; b < c; b++) {
        if (act[b] >= si->lo[b] && act[b] <= si->hi[b]) continue;
        if (vr->first_wrong < 0) vr->first_wrong = b;
        vr->n_wrong++;
        verify_add_wrong(vr, b, si->expected[b], act[b], si->lo[b], si->hi[b]);
    }
    /* Within every range but not summing to n can only happen across ties. */
    if (vr->n_wrong == 0 && vr->actual_total != vr->expected_total) vr->n_wrong = -1;
    vr->ok = vr->n_wrong == 0;
    if (vr->n_wrong < 0) {
        vr->n_wrong = 0;
        vr->ok = 0;
    }
    verify_summarise(vr, N_("sum of all bins"));
}

static prob_work surf_work(const prob_instance *pi) {
    double n = (double)pi->size.n, c = (double)pi->size.m, f = (double)pi->size.k;
    prob_work w = {.bytes = 4.0 * (n * f + c * f + c), .flops = 3.0 * n * c * f};
    return w;
}

static prob_failure surf_dev_setup(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen) {
    surf_instance *si = (surf_instance *)pi;
    const lesson *l = pi->lesson;
    long n = pi->size.n, c = pi->size.m, f = pi->size.k;
    const char *layout = lesson_param_get(l, "layout", "rowmajor");
    float *desc = si->descriptors;
    float *transposed = NULL;
    if (!strcmp(layout, "transposed")) {
        transposed = malloc(sizeof(float) * (size_t)(n * f));
        if (!transposed) return prob_fail(PF_MEMORY, err, errlen, "out of memory");
        for (long i = 0; i < n; i++)
            for (long k = 0; k < f; k++) transposed[k * n + i] = si->descriptors[i * f + k];
        desc = transposed;
    }
    cl_int e1, e2, e3;
    si->d_desc = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                sizeof(float) * (size_t)(n * f), desc, &e1);
    si->d_cent = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                sizeof(float) * (size_t)(c * f), si->centroids, &e2);
    si->d_hist = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, sizeof(uint32_t) * (size_t)c, NULL, &e3);
    si->desc_dev = transposed; /* kept to compare with after the runs */
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS || e3 != CL_SUCCESS)
        return prob_fail(PF_DEVICE, err, errlen, "clCreateBuffer failed: %s",
                         clh_error_name(e1 != CL_SUCCESS ? e1 : e2 != CL_SUCCESS ? e2 : e3));
    si->kernel = clh_kernel(prog, l->kernels[0], 1, err, errlen);
    if (!si->kernel) return PF_KERNEL_MISSING;
    cl_int st = CL_SUCCESS;
    cl_int ni = (cl_int)n, ci = (cl_int)c, fi = (cl_int)f;
    clh_arg(si->kernel, 0, sizeof(cl_mem), &si->d_desc, &st);
    clh_arg(si->kernel, 1, sizeof(cl_mem), &si->d_cent, &st);
    clh_arg(si->kernel, 2, sizeof(cl_mem), &si->d_hist, &st);
    clh_arg(si->kernel, 3, sizeof(cl_int), &ni, &st);
    clh_arg(si->kernel, 4, sizeof(cl_int), &ci, &st);
    clh_arg(si->kernel, 5, sizeof(cl_int), &fi, &st);
    if (st != CL_SUCCESS)
        return prob_fail(PF_ARGUMENTS, err, errlen,
                         "setting the kernel's arguments failed (%s): keep the argument list "
                         "(descriptors, centroids, histogram, n_descriptors, n_centroids, n_features)",
                         clh_error_name(st));
    if (!strcmp(lesson_param_get(l, "dispatch", "per_descriptor"), "serial")) {
        si->global = si->local = 1;
    } else {
        si->local = problem_local_size(l);
        si->global = problem_round_up((size_t)n, si->local);
    }
    return PF_OK;
}

static prob_failure surf_dev_launch(prob_instance *pi, clh_ctx *ctx, double *ms, char *err, size_t errlen) {
    surf_instance *si = (surf_instance *)pi;
    cl_uint zero = 0;
    cl_int e = clEnqueueFillBuffer(ctx->queue, si->d_hist, &zero, sizeof zero, 0,
                                   sizeof(uint32_t) * (size_t)pi->size.m, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "clearing the histogram failed: %s", clh_error_name(e));
    }
    *ms = 0;
    return problem_launch_1d(ctx, si->kernel, si->global, si->local, ms, err, errlen);
}

static prob_failure surf_dev_read(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen) {
    surf_instance *si = (surf_instance *)pi;
    cl_int e = clEnqueueReadBuffer(ctx->queue, si->d_hist, CL_TRUE, 0, surf_output_bytes(pi), out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        return prob_fail(prob_failure_of_launch(e), err, errlen, "reading the histogram back failed: %s", clh_error_name(e));
    }
    return PF_OK;
}

static void surf_dev_release(prob_instance *pi) {
    surf_instance *si = (surf_instance *)pi;
    if (si->kernel) clReleaseKernel(si->kernel);
    if (si->d_desc) clReleaseMemObject(si->d_desc);
    if (si->d_cent) clReleaseMemObject(si->d_cent);
    if (si->d_hist) clReleaseMemObject(si->d_hist);
    si->kernel = NULL;
    si->d_desc = si->d_cent = si->d_hist = NULL;
    free(si->desc_dev);
    si->desc_dev = NULL;
}

static int surf_dev_inputs(prob_instance *pi, prob_input *in, int max) {
    surf_instance *si = (surf_instance *)pi;
    long n = pi->size.n, c = pi->size.m, f = pi->size.k;
    if (max < 2) return 0;
    in[0] = (prob_input){"descriptors", si->d_desc, si->desc_dev ? si->desc_dev : si->descriptors,
                         sizeof(float) * (size_t)(n * f)};
    in[1] = (prob_input){"centroids", si->d_cent, si->centroids, sizeof(float) * (size_t)(c * f)};
    return 2;
}

const problem_ops prob_surf_ops = {
    .name = "surf",
    .size_syntax = N_("N[xC[xF]]  (descriptors x centroids x features; C defaults to 256, F to 64)"),
    .input_kinds = surf_inputs,
    .parse_size = surf_parse_size,
    .format_size = surf_format_size,
    .create = surf_create,
    .destroy = surf_destroy,
    .output_bytes = surf_output_bytes,
    .golden = surf_golden,
    .golden_words = surf_golden_words,
    .golden_restore = surf_golden_restore,
    .verify = surf_verify,
    .work = surf_work,
    .dev_setup = surf_dev_setup,
    .dev_launch = surf_dev_launch,
    .dev_read = surf_dev_read,
    .dev_release = surf_dev_release,
    .dev_inputs = surf_dev_inputs,
    .host_parallel = surf_host_parallel,
};
