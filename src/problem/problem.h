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

/* How the device side of a problem failed: a kind the worker reports and the
 * engine turns into a headline, never a sentence to search.
 * X(enum, name for machines) */
#define PROB_FAILURES(X)                                                                                      \
    X(PF_OK, "ok")                           /* no failure */                                                 \
    X(PF_KERNEL_MISSING, "kernel-missing")   /* the file has no kernel of the name the chapter runs */        \
    X(PF_ARGUMENTS, "arguments")             /* the kernel's parameters do not take the chapter's arguments */ \
    X(PF_KERNEL_ANSWER, "kernel-answer")     /* a helper kernel the host asks (scan's block_size) answered wrongly */ \
    X(PF_AUTHOR, "author")                   /* the chapter itself is wrong (lesson.ini): not the learner's doing */ \
    X(PF_FAULT, "fault")                     /* the kernel faulted on the device (out of bounds, too much memory) */ \
    X(PF_DEVICE, "device")                   /* another OpenCL call failed */                                  \
    X(PF_MEMORY, "memory")                   /* the host ran out of memory */

typedef enum {
#define PF_ENUM(e, name) e,
    PROB_FAILURES(PF_ENUM)
#undef PF_ENUM
} prob_failure;

const char *prob_failure_name(prob_failure f);
/* Sets err (printf-style) and returns kind, for `return prob_fail(...)`. */
prob_failure prob_fail(prob_failure kind, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The kind of a failed OpenCL call while the learner's kernel ran: a fault
 * (GPUs report one as an error code, not a signal), or another error. */
prob_failure prob_failure_of_launch(cl_int e);

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
    /* Optional, where the golden answer costs far more to compute than to
     * keep: its whole state (what verify reads) as 32-bit words, written
     * into w when max allows (returns the count, 0: none), and read back
     * into an instance of the same lesson, size and seed (0, or -1). */
    size_t (*golden_words)(const prob_instance *pi, uint32_t *w, size_t max);
    int (*golden_restore)(prob_instance *pi, const uint32_t *w, size_t n);
    void (*verify)(const prob_instance *pi, const void *out, size_t len, verify_report *vr);
    /* Optional: the expected output itself, after golden, where exactly one
     * output is right (no near ties to accept either way): a timed launch's
     * output can then be checked by its hash alone. */
    const void *(*expected)(const prob_instance *pi, size_t *len);
    prob_work (*work)(const prob_instance *pi);
    /* Optional: the work-items the host launches a kernel with at pi's size
     * (over all its launches), or 0 where it cannot tell. answer holds the
     * words helper_kernel stored when the file was analysed (n_answer 0:
     * none), for a shape the file chooses. The time prediction then grows
     * the kernel's global-memory counts with the data and its other counts
     * (local memory, loops inside a work-group) with the work-groups, as the
     * host's geometry does. Reads only the size and the lesson. */
    double (*launch_items)(const prob_instance *pi, const char *kernel, const unsigned *answer, int n_answer);
    /* Optional, with launch_items: the bytes of the buffer the host passes
     * the kernel as argument arg at pi's size (0: not a buffer, or not
     * known). Global accesses then grow with the buffer they touch. */
    double (*arg_bytes)(const prob_instance *pi, const char *kernel, int arg, const unsigned *answer, int n_answer);
    /* worker side: buffers and kernels, one timed launch, the result. */
    prob_failure (*dev_setup)(prob_instance *pi, clh_ctx *ctx, cl_program prog, char *err, size_t errlen);
    prob_failure (*dev_launch)(prob_instance *pi, clh_ctx *ctx, double *kernel_ms, char *err, size_t errlen);
    prob_failure (*dev_read)(prob_instance *pi, clh_ctx *ctx, void *out, char *err, size_t errlen);
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

/* The seed of timed launch `launch` (1, 2, ...) of a run with this seed:
 * every timed launch gets inputs of its own, so that no kernel can keep an
 * earlier answer and give it again; the parent draws the same inputs to
 * check the answers. */
uint64_t problem_launch_seed(uint64_t seed, int launch);

/* Rounds n up to a multiple of m. */
size_t problem_round_up(size_t n, size_t m);

/* Shared helpers for pipelines that time one kernel: runs it and waits. */
prob_failure problem_launch_1d(clh_ctx *ctx, cl_kernel k, size_t global, size_t local, double *ms,
                               char *err, size_t errlen);

#endif
