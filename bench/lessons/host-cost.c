/* host-cost: what one run of chapter 2's kernel costs besides the kernel:
 * the copies in, the launch, the copy out, each timed alone.
 *
 *   host-cost [--device TEXT] [--size NxC[xF]] [--runs K]
 *
 * Chapter 2's section "What a run costs besides the kernel" quotes it
 * (bench/lessons/host-cost.sh builds and runs it). Each step is enqueued on
 * its own and waited for (clFinish), K times after 2 warm-ups, and timed
 * twice: by its profiling event (COMMAND_START to COMMAND_END, what the
 * device spent) and by the host's clock from before the enqueue to after
 * clFinish returns (what the program waited); each column is the median,
 * and "first" is the host's time of the very first call, the buffer still
 * fresh and, on PoCL, the kernel not yet compiled for its work-group size
 * (its cache of compiled kernels is turned off, as on a fresh machine).
 * The steps:
 *   write descriptors       clEnqueueWriteBuffer of the n x f floats
 *                           (row-major, chapter 2's layout) from malloc'd
 *                           memory, which the driver may have to copy
 *                           through a pinned buffer of its own;
 *   ... from pinned memory  the same from a host pointer that is pinned
 *                           (page-locked): a buffer made with
 *                           CL_MEM_ALLOC_HOST_PTR and mapped, the way
 *                           NVIDIA's OpenCL Best Practices Guide pins
 *                           memory;
 *   write centroids, clear histogram (clEnqueueFillBuffer),
 *   kernel                  kernels/02-atomic/histogram.cl in work-groups
 *                           of 64, as the course runs it;
 *   read histogram          the c ints back (clEnqueueReadBuffer);
 *   empty kernel            a kernel with no body: one work-group of 64,
 *                           then as many work-items as the real launch;
 *   all of a run            the writes (malloc'd), the clear, the kernel and
 *                           the read enqueued together, one clFinish: what
 *                           a program that copies, runs and reads back waits;
 *   chapter 5's reference   for comparison: kernels/05-local/histogram.cl on
 *                           the same descriptors transposed (the same bytes).
 * The histograms of both kernels are checked against the host's answer.
 * Size: 262144x256x64 on a GPU and 16384x256x64 on a CPU unless --size sets
 * one for every device (chapter 2's bench_size and bench_size_cpu). Exits 1
 * if a histogram is wrong. */
#define _POSIX_C_SOURCE 200809L
#include "clbench.h"
#include "surf.h"

#include <time.h>

static int failures;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef enum { WRITE_PAGEABLE, WRITE_PINNED, WRITE_CENTROIDS, CLEAR, KERNEL, READ, EMPTY_ONE, EMPTY_ALL, ROUND_TRIP,
               KERNEL5, N_STEPS } step;

static const char *const labels[N_STEPS] = {
    "write descriptors (malloc'd memory)", "write descriptors (pinned memory)", "write centroids",
    "clear histogram", "kernel (chapter 2)", "read histogram", "empty kernel, 1 group of 64",
    "empty kernel, as many work-items", "all of a run (writes, clear, kernel, read)", "chapter 5's reference kernel"};

typedef struct {
    cl_command_queue q;
    cl_kernel k2, k5, empty;
    cl_mem desc, desc5, cent, hist;
    const surf *p;
    const float *pinned;  /* the mapped CL_MEM_ALLOC_HOST_PTR buffer, holding the descriptors */
    uint32_t *h;          /* the histogram read back */
    size_t global;        /* n rounded up to 64 */
} bench;

/* Enqueues step s; the event of its one command in *e (NULL for a run of several). */
static void enqueue(bench *b, step s, cl_event *e) {
    const surf *p = b->p;
    const size_t dbytes = sizeof(float) * (size_t)(p->n * p->f), cbytes = sizeof(float) * (size_t)(p->c * p->f);
    const size_t hbytes = sizeof(cl_uint) * (size_t)p->c, one = 64, local = 64;
    const cl_uint zero = 0;
    *e = NULL;
    switch (s) {
    case WRITE_PAGEABLE:
        cb_check(clEnqueueWriteBuffer(b->q, b->desc, CL_FALSE, 0, dbytes, p->rowmajor, 0, NULL, e), "write");
        break;
    case WRITE_PINNED:
        cb_check(clEnqueueWriteBuffer(b->q, b->desc, CL_FALSE, 0, dbytes, b->pinned, 0, NULL, e), "write");
        break;
    case WRITE_CENTROIDS:
        cb_check(clEnqueueWriteBuffer(b->q, b->cent, CL_FALSE, 0, cbytes, p->centroids, 0, NULL, e), "write");
        break;
    case CLEAR:
        cb_check(clEnqueueFillBuffer(b->q, b->hist, &zero, sizeof zero, 0, hbytes, 0, NULL, e), "fill");
        break;
    case KERNEL:
        cb_check(clEnqueueNDRangeKernel(b->q, b->k2, 1, NULL, &b->global, &local, 0, NULL, e), "kernel");
        break;
    case READ:
        cb_check(clEnqueueReadBuffer(b->q, b->hist, CL_FALSE, 0, hbytes, b->h, 0, NULL, e), "read");
        break;
    case EMPTY_ONE:
        cb_check(clEnqueueNDRangeKernel(b->q, b->empty, 1, NULL, &one, &local, 0, NULL, e), "kernel");
        break;
    case EMPTY_ALL:
        cb_check(clEnqueueNDRangeKernel(b->q, b->empty, 1, NULL, &b->global, &local, 0, NULL, e), "kernel");
        break;
    case ROUND_TRIP:
        cb_check(clEnqueueWriteBuffer(b->q, b->desc, CL_FALSE, 0, dbytes, p->rowmajor, 0, NULL, NULL), "write");
        cb_check(clEnqueueWriteBuffer(b->q, b->cent, CL_FALSE, 0, cbytes, p->centroids, 0, NULL, NULL), "write");
        cb_check(clEnqueueFillBuffer(b->q, b->hist, &zero, sizeof zero, 0, hbytes, 0, NULL, NULL), "fill");
        cb_check(clEnqueueNDRangeKernel(b->q, b->k2, 1, NULL, &b->global, &local, 0, NULL, NULL), "kernel");
        cb_check(clEnqueueReadBuffer(b->q, b->hist, CL_FALSE, 0, hbytes, b->h, 0, NULL, NULL), "read");
        break;
    case KERNEL5:
        cb_check(clEnqueueFillBuffer(b->q, b->hist, &zero, sizeof zero, 0, hbytes, 0, NULL, NULL), "fill");
        cb_check(clEnqueueNDRangeKernel(b->q, b->k5, 1, NULL, &b->global, &local, 0, NULL, e), "kernel");
        break;
    default:
        break;
    }
}

/* Times step s runs times after 2 warm-ups; prints its row (bytes: what
 * it moves, 0 for none) and returns its median: the event's, or the
 * host's for a run of several commands. */
static double time_step(bench *b, step s, int runs, double bytes) {
    double *ev = malloc((size_t)runs * sizeof *ev), *wall = malloc((size_t)runs * sizeof *wall), first = 0;
    if (!ev || !wall) exit(1);
    for (int i = -2; i < runs; i++) {
        cl_event e;
        const double t0 = now_ms();
        enqueue(b, s, &e);
        cb_check(clFinish(b->q), "clFinish");
        const double t1 = now_ms();
        cl_ulong a = 0, z = 0;
        if (e) {
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof z, &z, NULL);
            clReleaseEvent(e);
        }
        if (i == -2) first = t1 - t0;
        if (i >= 0) ev[i] = (double)(z - a) / 1e6, wall[i] = t1 - t0;
    }
    const double evm = cb_median(ev, runs), wm = cb_median(wall, runs);
    char size[32] = "", event[32] = "-", rate[32] = "";
    if (bytes > 0) snprintf(size, sizeof size, "%.0f", bytes);
    if (s != ROUND_TRIP) snprintf(event, sizeof event, "%.1f us", evm * 1e3);
    if (bytes >= 65536 && s != ROUND_TRIP && evm > 0) snprintf(rate, sizeof rate, "%.1f", bytes / (evm * 1e6));
    printf("  %-42s %10s %13s %13.1f us %13.1f us %8s\n", labels[s], size, event, wm * 1e3, first * 1e3, rate);
    fflush(stdout);
    free(ev);
    free(wall);
    return s == ROUND_TRIP ? wm : evm;
}

/* A kernel from a chapter's file, built with opts; exits on failure. */
static cl_kernel chapter_kernel(cl_context ctx, cl_device_id d, const char *path, const char *opts) {
    char *src = surf_read_kernel(path);
    cl_program prog = cb_build(ctx, d, src, opts);
    free(src);
    if (!prog) exit(1);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "histogram", &err);
    cb_check(err, "clCreateKernel");
    clReleaseProgram(prog); /* the kernel keeps it */
    return k;
}

static void set_args(cl_kernel k, bench *b, cl_mem desc) {
    const cl_int n = (cl_int)b->p->n, c = (cl_int)b->p->c, f = (cl_int)b->p->f;
    cb_check(clSetKernelArg(k, 0, sizeof desc, &desc), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 1, sizeof b->cent, &b->cent), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 2, sizeof b->hist, &b->hist), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 3, sizeof n, &n), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 4, sizeof c, &c), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 5, sizeof f, &f), "clSetKernelArg");
}

/* Checks the histogram just read back; prints a line if it is wrong. */
static void check(const bench *b, const char *what) {
    if (surf_check(b->p, b->h)) return;
    printf("  WRONG: the histogram of %s is not the host's\n", what);
    failures++;
}

static void run_device(cl_device_id d, int runs, const char *size_arg, surf *p) {
    char desc[1024];
    cl_device_type type = 0;
    cb_describe(d, desc, sizeof desc);
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    const int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    long n, c, f;
    surf_parse_size(size_arg ? size_arg : gpu ? "262144x256x64" : "16384x256x64", &n, &c, &f);
    if (p->n != n || p->c != c || p->f != f) {
        surf_free(p);
        surf_make(p, n, c, f);
    }
    const size_t dbytes = sizeof(float) * (size_t)(n * f), cbytes = sizeof(float) * (size_t)(c * f);
    const size_t hbytes = sizeof(cl_uint) * (size_t)c;
    printf("device: %s\n", desc);
    printf("problem: %ld descriptors x %ld centroids x %ld features: %zu B of descriptors, %zu B of centroids, "
           "%zu B of histogram\n", n, c, f, dbytes, cbytes, hbytes);
    fflush(stdout);

    cl_int err;
    bench b = {.p = p, .global = ((size_t)n + 63) / 64 * 64};
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cb_check(err, "clCreateContext");
    b.q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    cb_check(err, "clCreateCommandQueue");
    b.desc = clCreateBuffer(ctx, CL_MEM_READ_ONLY, dbytes, NULL, &err);
    cb_check(err, "clCreateBuffer");
    b.desc5 = clCreateBuffer(ctx, CL_MEM_READ_ONLY, dbytes, NULL, &err);
    cb_check(err, "clCreateBuffer");
    b.cent = clCreateBuffer(ctx, CL_MEM_READ_ONLY, cbytes, NULL, &err);
    cb_check(err, "clCreateBuffer");
    b.hist = clCreateBuffer(ctx, CL_MEM_READ_WRITE, hbytes, NULL, &err);
    cb_check(err, "clCreateBuffer");
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, dbytes, NULL, &err);
    cb_check(err, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)");
    float *pinned = clEnqueueMapBuffer(b.q, pin, CL_TRUE, CL_MAP_WRITE, 0, dbytes, 0, NULL, NULL, &err);
    cb_check(err, "clEnqueueMapBuffer");
    memcpy(pinned, p->rowmajor, dbytes);
    b.pinned = pinned;
    b.h = malloc(hbytes);

    b.k2 = chapter_kernel(ctx, d, "kernels/02-atomic/histogram.cl", "-DLOCAL_SIZE=64");
    b.k5 = chapter_kernel(ctx, d, "kernels/05-local/histogram.cl", "-DLOCAL_SIZE=64 -DLOCAL_FEATURES=64");
    const char *empty_src = "__kernel void empty(void) { }\n";
    cl_program ep = cb_build(ctx, d, empty_src, "");
    if (!ep) exit(1);
    b.empty = clCreateKernel(ep, "empty", &err);
    cb_check(err, "clCreateKernel");
    set_args(b.k2, &b, b.desc);
    set_args(b.k5, &b, b.desc5);
    cb_check(clEnqueueWriteBuffer(b.q, b.desc5, CL_TRUE, 0, dbytes, p->transposed, 0, NULL, NULL), "write");

    printf("  %-42s %10s %13s %16s %16s %8s\n", "step", "bytes", "event", "host", "first", "GB/s");
    double t[N_STEPS];
    t[WRITE_PAGEABLE] = time_step(&b, WRITE_PAGEABLE, runs, (double)dbytes);
    t[WRITE_PINNED] = time_step(&b, WRITE_PINNED, runs, (double)dbytes);
    t[WRITE_CENTROIDS] = time_step(&b, WRITE_CENTROIDS, runs, (double)cbytes);
    t[CLEAR] = time_step(&b, CLEAR, runs, (double)hbytes);
    t[KERNEL] = time_step(&b, KERNEL, runs, 0);
    t[READ] = time_step(&b, READ, runs, (double)hbytes);
    for (step s = CLEAR; s <= READ; s++) { /* once more, cleared first, to check */
        cl_event e;
        enqueue(&b, s, &e);
        if (e) clReleaseEvent(e);
    }
    cb_check(clFinish(b.q), "clFinish");
    check(&b, "chapter 2's kernel");
    t[EMPTY_ONE] = time_step(&b, EMPTY_ONE, runs, 0);
    t[EMPTY_ALL] = time_step(&b, EMPTY_ALL, runs, 0);
    t[ROUND_TRIP] = time_step(&b, ROUND_TRIP, runs, (double)(dbytes + cbytes + hbytes));
    check(&b, "the whole run");
    t[KERNEL5] = time_step(&b, KERNEL5, runs, 0);
    cb_check(clEnqueueReadBuffer(b.q, b.hist, CL_TRUE, 0, hbytes, b.h, 0, NULL, NULL), "read");
    check(&b, "chapter 5's kernel");

    const double in = t[WRITE_PAGEABLE] + t[WRITE_CENTROIDS], in_pinned = t[WRITE_PINNED] + t[WRITE_CENTROIDS];
    printf("  the copies in (descriptors and centroids, events): %.1f us from malloc'd memory, %.1f us from pinned\n"
           "  over chapter 2's kernel (%.1f us): %.3g, pinned %.3g\n"
           "  over chapter 5's kernel (%.1f us): %.3g, pinned %.3g\n",
           in * 1e3, in_pinned * 1e3, t[KERNEL] * 1e3, in / t[KERNEL], in_pinned / t[KERNEL], t[KERNEL5] * 1e3,
           in / t[KERNEL5], in_pinned / t[KERNEL5]);
    cb_check(clEnqueueUnmapMemObject(b.q, pin, pinned, 0, NULL, NULL), "clEnqueueUnmapMemObject");
    cb_check(clFinish(b.q), "clFinish");
    free(b.h);
    clReleaseKernel(b.k2);
    clReleaseKernel(b.k5);
    clReleaseKernel(b.empty);
    clReleaseProgram(ep);
    clReleaseMemObject(pin);
    clReleaseMemObject(b.desc);
    clReleaseMemObject(b.desc5);
    clReleaseMemObject(b.cent);
    clReleaseMemObject(b.hist);
    clReleaseCommandQueue(b.q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv) {
    const char *filter = NULL, *size_arg = NULL;
    int runs = 20;
    long n, c, f;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && surf_parse_size(argv[i + 1], &n, &c, &f)) size_arg = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--device TEXT] [--size NxC[xF]] [--runs K]\n", argv[0]);
            return 64;
        }
    }
    setenv("POCL_KERNEL_CACHE", "0", 1); /* PoCL compiles afresh, as on a fresh machine */
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter);
    if (nd == 0) {
        fprintf(stderr, "%s: no OpenCL device%s%s\n", argv[0], filter ? " matches " : "", filter ? filter : "");
        return 1;
    }
    printf("each step enqueued alone and waited for (clFinish), %d times after 2 warm-ups; event: the median of its "
           "profiling event (start to end); host: the median from before the enqueue to after clFinish; first: the "
           "host's time of the first call; GB/s: bytes over the event's time, for copies of 64 KiB or more\n", runs);
    surf p = {0};
    for (int i = 0; i < nd; i++) {
        printf("\n");
        run_device(devs[i], runs, size_arg, &p);
    }
    surf_free(&p);
    if (failures) fprintf(stderr, "%s: %d histogram%s wrong\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
