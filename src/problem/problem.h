/* problem — the interface every problem implements: sizes, input generator,
 * golden reference, verifier, and the device pipeline a worker runs. */
#ifndef CLT_PROBLEM_H
#define CLT_PROBLEM_H
#include <stddef.h>
#include <stdint.h>

#include "course/catalog.h"
#include "cl/clhost.h"
#include "problem/verify.h"

typedef struct {
    long n, m, k;      /* meaning per problem: descriptors x centroids x features, bytes, ... */
    char input[24];    /* input kind ("random", "equal", ...); "" means the problem's default */
} prob_size;

/* Every problem's instance starts with this header. */
typedef struct prob_instance {
    const struct problem_ops *ops;
    const lesson *lesson;
    prob_size size;
    uint64_t seed;
} prob_instance;

/* A device buffer a kernel may only read, and the host data it was made from. */
#define PROB_MAX_INPUTS 4
typedef struct {
    const char *name;     /* the kernel argument's name: "descriptors" */
    cl_mem buf;
    const void *host;
    size_t bytes;
} prob_input;

/* Device work of one launch, set by dev_setup. */
typedef struct {
    double bytes;   /* bytes an ideal kernel must read and write (for effective bandwidth) */
    double flops;   /* floating-point operations (0 where meaningless) */
} prob_work;

typedef struct problem_ops {
    const char *name;
    const char *size_syntax;              /* for messages: "N[xC[xF]]  descriptors x centroids x features" */
    const char *const *input_kinds;       /* NULL-terminated; the first is the default */
    int (*parse_size)(const char *spec, prob_size *out, char *err, size_t errlen);
    void (*format_size)(const prob_size *s, char *buf, size_t len);
    prob_instance *(*create)(const lesson *l, const prob_size *s, uint64_t seed, char *err, size_t errlen);
    void (*destroy)(prob_instance *pi);
    size_t (*output_bytes)(const prob_instance *pi);
    void (*golden)(prob_instance *pi);                 /* computes the expected answer */
    /* Optional: allocates and pages in what golden writes, so that timing
     * golden counts no page faults. The parent calls it; the worker, which
     * never computes the answer, does not. */
    void (*prepare_golden)(prob_instance *pi);
    void (*verify)(const prob_instance *pi, const void *out, size_t len, verify_report *vr);
    prob_work (*work)(const prob_instance *pi);
    /* worker side: buffers and kernels, one timed launch, the result. */
    int (*dev_setup)(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen);
    int (*dev_launch)(prob_instance *pi, clh_ctx *ctx, double *kernel_ms, char *err, size_t errlen);
    int (*dev_read)(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen);
    void (*dev_release)(prob_instance *pi);
    /* After dev_setup: the input buffers with their host copies (at most
     * max), so that the worker can tell a kernel that writes into them. */
    int (*dev_inputs)(prob_instance *pi, prob_input *in, int max);
    /* Optional: the same work as a straightforward OpenMP C loop on this
     * machine's CPU, for benchmarks; returns milliseconds. */
    double (*host_parallel)(prob_instance *pi);
    /* Optional: a kernel the host runs only to ask the file a question (the
     * scan's block_size); the GPU memory model leaves it out. */
    const char *helper_kernel;
} problem_ops;

const problem_ops *problem_find(const char *name);

/* Parses "SIZE[:INPUT]" with the problem's own syntax and checks INPUT. */
int problem_parse_size(const problem_ops *ops, const char *spec, prob_size *out, char *err, size_t errlen);

/* Build options every kernel gets: -DLOCAL_SIZE=..., plus the lesson's own. */
void problem_build_options(const lesson *l, char *buf, size_t len);

/* Work-group size from the lesson (local_size, default 64). */
size_t problem_local_size(const lesson *l);

/* Rounds n up to a multiple of m. */
size_t problem_round_up(size_t n, size_t m);

/* Shared helpers for pipelines that time one kernel: runs it and waits. */
int problem_launch_1d(clh_ctx *ctx, cl_kernel k, size_t global, size_t local, double *ms,
                      char *err, size_t errlen);

#endif
