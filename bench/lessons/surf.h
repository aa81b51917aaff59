/* surf.h: the SURF histogram of chapters 2 to 5 for bench/lessons/occupancy.c,
 * host-cost.c and aggregate.c: descriptors drawn around random centroids
 * the way src/problem/prob_surf.c draws them (with a generator of its own,
 * so not the course's numbers), the serial answer with the near ties that
 * may go either way, a histogram checked against it, and a chapter's
 * kernel read from the checkout. Standard C.
 *
 * The problem: n descriptors and c centroids of f floats each; bin j of the
 * histogram counts the descriptors whose nearest centroid (squared
 * Euclidean distance, ties to the lowest index) is centroid j. Every
 * kernel takes (descriptors, centroids, histogram, n_descriptors,
 * n_centroids, n_features); the descriptors are row-major (descriptor i's
 * feature k at i * f + k) for chapters 1 and 2 and transposed (at k * n + i)
 * for chapters 3 to 5, as each lesson.ini's layout says; the centroids are
 * row-major everywhere. */
#ifndef SURF_H
#define SURF_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SURF_NOISE 0.05f   /* spread of descriptors around their centroid, as prob_surf.c */
#define SURF_TIE_REL 1e-4f /* distances this close (relative) may go either way, as prob_surf.c */

typedef struct {
    long n, c, f;
    float *rowmajor;    /* n x f: descriptor i's feature k at i * f + k */
    float *transposed;  /* f x n: at k * n + i */
    float *centroids;   /* c x f, row-major */
    uint32_t *lo, *hi;  /* the counts each bin may hold, near ties either way */
    int32_t *best;      /* n: each descriptor's nearest centroid, as the host found it */
    long near_ties;
} surf;

/* "NxC" or "NxCxF" (C defaults to 256, F to 64); 0 when it is not one. */
static int surf_parse_size(const char *s, long *n, long *c, long *f) {
    char *end;
    *c = 256, *f = 64;
    *n = strtol(s, &end, 10);
    if (*end == 'x') *c = strtol(end + 1, &end, 10);
    if (*end == 'x') *f = strtol(end + 1, &end, 10);
    return *end == 0 && *n > 0 && *c > 0 && *f >= 4 && *f % 4 == 0;
}

/* splitmix64: a small generator with no state but one word */
static uint64_t surf_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static float surf_unit(uint64_t *s) { return (float)(surf_next(s) >> 40) / 16777216.0f; }

static float surf_normal(uint64_t *s) { /* Box-Muller */
    float u = surf_unit(s), v = surf_unit(s);
    return sqrtf(-2.0f * logf(u + 1e-12f)) * cosf(6.28318531f * v);
}

/* Draws the problem and its answer, each descriptor around one of the
 * first `homes` centroids (c: all of them, the course's "random" input; 1:
 * all around centroid 0, its "onebin"); exits when memory runs out. */
static void surf_make_homes(surf *p, long n, long c, long f, long homes) {
    uint64_t s = 1;
    p->n = n, p->c = c, p->f = f, p->near_ties = 0;
    p->rowmajor = malloc(sizeof(float) * (size_t)(n * f));
    p->transposed = malloc(sizeof(float) * (size_t)(n * f));
    p->centroids = malloc(sizeof(float) * (size_t)(c * f));
    p->lo = calloc((size_t)c, sizeof *p->lo);
    p->hi = calloc((size_t)c, sizeof *p->hi);
    p->best = malloc(sizeof *p->best * (size_t)n);
    if (!p->rowmajor || !p->transposed || !p->centroids || !p->lo || !p->hi || !p->best) {
        fprintf(stderr, "out of memory for %ld descriptors\n", n);
        exit(1);
    }
    for (long i = 0; i < c * f; i++) p->centroids[i] = surf_unit(&s);
    for (long i = 0; i < n; i++) {
        const long home = (long)(surf_next(&s) % (uint64_t)(homes < 1 || homes > c ? c : homes));
        for (long k = 0; k < f; k++) {
            const float x = p->centroids[home * f + k] + SURF_NOISE * surf_normal(&s);
            p->rowmajor[i * f + k] = x;
            p->transposed[k * n + i] = x;
        }
    }
    /* the serial answer, as chapter 1 computes it, noting the runner-up */
    for (long i = 0; i < n; i++) {
        const float *d = &p->rowmajor[i * f];
        float best = FLT_MAX, second = FLT_MAX;
        long best_j = 0, second_j = 0;
        for (long j = 0; j < c; j++) {
            const float *ce = &p->centroids[j * f];
            float dist = 0.0f;
            for (long k = 0; k < f; k++) dist += (d[k] - ce[k]) * (d[k] - ce[k]);
            if (dist < best) second = best, second_j = best_j, best = dist, best_j = j;
            else if (dist < second) second = dist, second_j = j;
        }
        p->best[i] = (int32_t)best_j;
        if (c > 1 && second - best <= SURF_TIE_REL * second + 1e-6f) {
            p->near_ties++;
            p->hi[best_j]++;
            p->hi[second_j]++;
        } else {
            p->lo[best_j]++;
            p->hi[best_j]++;
        }
    }
}

/* Draws the problem and its answer, descriptors around all the centroids. */
static inline void surf_make(surf *p, long n, long c, long f) { surf_make_homes(p, n, c, f, c); }

static void surf_free(surf *p) {
    free(p->rowmajor);
    free(p->transposed);
    free(p->centroids);
    free(p->lo);
    free(p->hi);
    free(p->best);
    memset(p, 0, sizeof *p);
}

/* Is hist the answer (every bin within its near ties, n votes in all)? */
static int surf_check(const surf *p, const uint32_t *hist) {
    long total = 0;
    for (long j = 0; j < p->c; j++) {
        if (hist[j] < p->lo[j] || hist[j] > p->hi[j]) return 0;
        total += hist[j];
    }
    return total == p->n;
}

/* The text of ROOT/path, ROOT being $CLBENCH_ROOT (the checkout, which
 * bench/lessons/lib.sh sets) or the current folder; exits when it cannot. */
static char *surf_read_kernel(const char *path) {
    const char *root = getenv("CLBENCH_ROOT");
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", root && *root ? root : ".", path);
    FILE *fp = fopen(full, "rb");
    char *text = NULL;
    long len = -1;
    if (fp && fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)len + 1)) != NULL && fread(text, 1, (size_t)len, fp) == (size_t)len) {
        text[len] = 0;
        fclose(fp);
        return text;
    }
    fprintf(stderr, "cannot read %s (run through bench/lessons/*.sh, or from the checkout's root)\n", full);
    exit(1);
}

#endif
