/* scan-span: how long one work-group takes to scan 256 or 1024 integers,
 * by three trees, and how many barriers and additions each makes.
 *
 *   scan-span [--device TEXT] [--target-ms MS | --reps REPS] [--runs K]
 *
 * Chapter 8's section "Work and span" quotes it (bench/lessons/scan-span.sh
 * builds and runs it). The kernels, each an inclusive scan of N uint
 * (modulo 2^32) by ONE work-group:
 *   hillis-steele  N work-items, one element each; log2 N steps, each adds
 *                  the element d places to the left (d = 1, 2, 4, ...),
 *                  double-buffered in local memory: one barrier a step.
 *   blelloch       N work-items, one element each; the chapter's up-sweep
 *                  and down-sweep over a padded tree (PAD(i) = i + i/32),
 *                  a barrier before each of the 2 log2 N levels and one
 *                  after the last, then each work-item adds its own
 *                  element to its exclusive prefix.
 *   registers      the shape of the chapter's reference: N/16 work-items,
 *                  16 consecutive elements each, scanned serially in
 *                  registers; the blelloch tree over the work-items'
 *                  totals; each adds its prefix to its 16.
 * Each launch runs one work-group that scans its input REPS times over
 * (input + r on round r, the rounds' results summed, so no round can be
 * skipped); the time of one scan is the launch's time over REPS, the
 * median of K launches after two warm-ups ("per barrier": that time over
 * the barriers one scan passes). REPS is set per kernel so that
 * one launch takes about --target-ms. The sums are checked against a scan
 * on the host. The barriers and additions are counted by the same kernels
 * built with -DCOUNT (one round), each work-item counting its own:
 * barriers are per work-item (every work-item passes each one), additions
 * are summed over the group, and both are checked against the formulas
 * the lesson gives. Lists every device of every platform unless --device
 * names one (a part of its device or platform name). Exits 1 if any check
 * failed. */
#include "clbench.h"

#include <stdint.h>

static const char *kernel_source =
    "#ifdef COUNT\n"
    "#define ADD() (adds++)\n"
    "#define BARRIER() do { bars++; barrier(CLK_LOCAL_MEM_FENCE); } while (0)\n"
    "#define COUNTS(i) (count[2 * (i)] = adds, count[2 * (i) + 1] = bars)\n"
    "#else\n"
    "#define ADD() ((void)0)\n"
    "#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)\n"
    "#define COUNTS(i) ((void)0)\n"
    "#endif\n"
    "#define PAD(i) ((i) + ((i) >> 5))\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(N, 1, 1)))\n"
    "void hillis_steele(__global const uint *in, __global uint *out, __global uint *count, uint reps)\n"
    "{\n"
    "    __local uint buf[2][N];\n"
    "    const uint lid = get_local_id(0), x = in[lid];\n"
    "    uint acc = 0, adds = 0, bars = 0;\n"
    "    for (uint r = 0; r < reps; r++) {\n"
    "        uint v = x + r, p = 0;\n"
    "        buf[0][lid] = v;\n"
    "        BARRIER();\n"
    "        for (uint d = 1; d < N; d <<= 1) {      /* log2 N steps */\n"
    "            if (lid >= d) { v += buf[p][lid - d]; ADD(); }\n"
    "            buf[p ^ 1][lid] = v;                 /* the other buffer: no one reads it this step */\n"
    "            p ^= 1;\n"
    "            BARRIER();\n"
    "        }\n"
    "        acc += v;\n"
    "    }\n"
    "    out[lid] = acc;\n"
    "    COUNTS(lid);\n"
    "}\n"
    "\n"
    "/* The exclusive Blelloch scan of the tree t's LEAVES leaves, in place: the\n"
    " * chapter's loops, with the root's clearing folded into the first level of\n"
    " * the down-sweep (its prefix is 0), which saves a barrier. (Cleared apart,\n"
    " * as the chapter does, between two barriers, PoCL 3.1 lost the clearing\n"
    " * inside the loop over rounds; Oclgrind ran it right.) */\n"
    "#define BLELLOCH_TREE(t, lid) do { \\\n"
    "    uint stride = 1; \\\n"
    "    for (uint active = LEAVES / 2; active > 0; active >>= 1) {   /* up-sweep */ \\\n"
    "        BARRIER(); \\\n"
    "        if (lid < active) { \\\n"
    "            const uint left = stride * (2 * lid + 1) - 1; \\\n"
    "            t[PAD(left + stride)] += t[PAD(left)]; \\\n"
    "            ADD(); \\\n"
    "        } \\\n"
    "        stride <<= 1; \\\n"
    "    } \\\n"
    "    for (uint active = 1; active < LEAVES; active <<= 1) {       /* down-sweep */ \\\n"
    "        stride >>= 1; \\\n"
    "        BARRIER(); \\\n"
    "        if (lid < active) { \\\n"
    "            const uint left = stride * (2 * lid + 1) - 1, u = t[PAD(left)]; \\\n"
    "            const uint p = active == 1 ? 0 : t[PAD(left + stride)]; \\\n"
    "            t[PAD(left)] = p; \\\n"
    "            t[PAD(left + stride)] = p + u; \\\n"
    "            ADD(); \\\n"
    "        } \\\n"
    "    } \\\n"
    "    BARRIER(); \\\n"
    "} while (0)\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(N, 1, 1)))\n"
    "void blelloch(__global const uint *in, __global uint *out, __global uint *count, uint reps)\n"
    "{\n"
    "    __local uint t[PAD(N - 1) + 1];\n"
    "    const uint lid = get_local_id(0), x = in[lid];\n"
    "    uint acc = 0, adds = 0, bars = 0;\n"
    "    for (uint r = 0; r < reps; r++) {\n"
    "        const uint v = x + r;\n"
    "        t[PAD(lid)] = v;\n"
    "        BLELLOCH_TREE(t, lid);\n"
    "        acc += t[PAD(lid)] + v;                  /* exclusive + own = inclusive */\n"
    "        ADD();\n"
    "    }\n"
    "    out[lid] = acc;\n"
    "    COUNTS(lid);\n"
    "}\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(N / E, 1, 1)))\n"
    "void registers(__global const uint *in, __global uint *out, __global uint *count, uint reps)\n"
    "{\n"
    "    __local uint t[PAD(LEAVES - 1) + 1];\n"
    "    const uint lid = get_local_id(0);\n"
    "    uint x[E], v[E], acc[E], adds = 0, bars = 0;\n"
    "    for (uint k = 0; k < E; k++) x[k] = in[lid * E + k], acc[k] = 0;\n"
    "    for (uint r = 0; r < reps; r++) {\n"
    "        v[0] = x[0] + r;\n"
    "        for (uint k = 1; k < E; k++) { v[k] = v[k - 1] + (x[k] + r); ADD(); }   /* serial, no barrier */\n"
    "        t[PAD(lid)] = v[E - 1];\n"
    "        BLELLOCH_TREE(t, lid);\n"
    "        const uint prefix = t[PAD(lid)];\n"
    "        for (uint k = 0; k < E; k++) { acc[k] += v[k] + prefix; ADD(); }\n"
    "    }\n"
    "    for (uint k = 0; k < E; k++) out[lid * E + k] = acc[k];\n"
    "    COUNTS(lid);\n"
    "}\n";

#define E 16 /* elements per work-item of "registers", as in kernels/08-scan/scan.cl */

static int failures; /* wrong sums, or counts that differ from the formulas: the exit status is 1 */

typedef struct {
    const char *name;   /* kernel function */
    const char *label;  /* as printed */
    unsigned per_item;  /* elements per work-item */
} variant;

static const variant variants[] = {
    {"hillis_steele", "hillis-steele", 1},
    {"blelloch", "blelloch", 1},
    {"registers", "registers (16 each)", E},
};

static unsigned log2u(unsigned n) {
    unsigned l = 0;
    while ((1u << l) < n) l++;
    return l;
}

/* The barriers and additions the kernels should count, from the formulas
 * the lesson gives: printed beside the counts as a check of both. */
static void expected(int v, unsigned n, unsigned *bars, unsigned *adds) {
    unsigned w = n / variants[v].per_item;
    if (v == 0) *bars = 1 + log2u(n), *adds = n * log2u(n) - (n - 1);
    else if (v == 1) *bars = 2 * log2u(n) + 1, *adds = 3 * n - 2;
    else *bars = 2 * log2u(w) + 1, *adds = (n - w) + 2 * (w - 1) + n;
}

/* A program with kernel v over n elements built (count: with -DCOUNT), or NULL. */
static cl_kernel make_kernel(cl_context ctx, cl_device_id d, int v, unsigned n, int count, cl_program *prog) {
    char opts[128];
    snprintf(opts, sizeof opts, "-DN=%u -DE=%u -DLEAVES=%u%s", n, (unsigned)E, n / variants[v].per_item,
             count ? " -DCOUNT" : "");
    *prog = cb_build(ctx, d, kernel_source, opts);
    if (!*prog) return NULL;
    cl_int err;
    cl_kernel k = clCreateKernel(*prog, variants[v].name, &err);
    cb_check(err, "clCreateKernel");
    return k;
}

static void set_args(cl_kernel k, cl_mem in, cl_mem out, cl_mem cnt, cl_uint reps) {
    cb_check(clSetKernelArg(k, 0, sizeof in, &in), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 1, sizeof out, &out), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 2, sizeof cnt, &cnt), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 3, sizeof reps, &reps), "clSetKernelArg");
}

static void run_device(cl_device_id d, double target_ms, int runs, cl_uint fixed_reps) {
    char desc[1024];
    cb_describe(d, desc, sizeof desc);
    size_t max_wg = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    printf("device: %s, at most %zu work-items a group\n", desc, max_wg);
    printf("%-5s %-20s %10s %9s %10s %8s %12s %13s  %s\n", "n", "kernel", "work-items", "barriers", "additions",
           "reps", "per scan", "per barrier", "check");
    fflush(stdout);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cb_check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    cb_check(err, "clCreateCommandQueue");

    static const unsigned sizes[] = {256, 1024};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const unsigned n = sizes[si];
        cl_uint *host = malloc(n * sizeof *host), *got = malloc(n * sizeof *got),
                *counts = malloc(2 * n * sizeof *counts), *incl = malloc(n * sizeof *incl);
        srand(n);
        for (unsigned i = 0; i < n; i++) host[i] = (cl_uint)rand();
        for (unsigned i = 0, s = 0; i < n; i++) incl[i] = s += host[i];
        cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *host, host, &err);
        cb_check(err, "clCreateBuffer");
        cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof *got, NULL, &err);
        cb_check(err, "clCreateBuffer");
        cl_mem cnt = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * n * sizeof *counts, NULL, &err);
        cb_check(err, "clCreateBuffer");

        for (int v = 0; v < (int)(sizeof variants / sizeof *variants); v++) {
            const size_t items = n / variants[v].per_item;
            if (items > max_wg) {
                printf("%-5u %-20s %10zu  (more work-items than a group may hold)\n", n, variants[v].label, items);
                continue;
            }
            /* the counts: one round of the COUNT build */
            cl_program cp;
            cl_kernel ck = make_kernel(ctx, d, v, n, 1, &cp);
            if (!ck) exit(1);
            set_args(ck, in, out, cnt, 1);
            cb_launch(q, ck, items, items);
            cb_check(clEnqueueReadBuffer(q, cnt, CL_TRUE, 0, 2 * items * sizeof *counts, counts, 0, NULL, NULL),
                     "clEnqueueReadBuffer");
            unsigned long adds = 0, bars_min = counts[1], bars_max = counts[1];
            for (size_t i = 0; i < items; i++) {
                adds += counts[2 * i];
                if (counts[2 * i + 1] < bars_min) bars_min = counts[2 * i + 1];
                if (counts[2 * i + 1] > bars_max) bars_max = counts[2 * i + 1];
            }
            unsigned want_bars, want_adds;
            expected(v, n, &want_bars, &want_adds);
            if (bars_min != bars_max || bars_max != want_bars || adds != want_adds) {
                printf("      counted %lu to %lu barriers and %lu additions; the formulas say %u and %u\n", bars_min,
                       bars_max, adds, want_bars, want_adds);
                failures++;
            }
            clReleaseKernel(ck);
            clReleaseProgram(cp);

            /* the timing: REPS rounds per launch, REPS grown until a launch takes target_ms */
            cl_program tp;
            cl_kernel tk = make_kernel(ctx, d, v, n, 0, &tp);
            if (!tk) exit(1);
            cl_uint reps = fixed_reps ? fixed_reps : 16;
            double ns = 0;
            while (!fixed_reps) {
                set_args(tk, in, out, cnt, reps);
                ns = cb_launch(q, tk, items, items);
                if (ns >= target_ms * 1e6 / 2 || reps >= (1u << 22)) break;
                double grow = ns > 0 ? target_ms * 1e6 / ns : 64;
                reps = (cl_uint)(reps * (grow > 64 ? 64 : grow < 2 ? 2 : grow));
            }
            set_args(tk, in, out, cnt, reps);
            double *t = malloc((size_t)runs * sizeof *t);
            for (int r = -2; r < runs; r++) {
                double x = cb_launch(q, tk, items, items);
                if (r >= 0) t[r] = x;
            }
            const double per_scan_ns = cb_median(t, runs) / reps;
            free(t);

            /* the check: round r scans host + r; the sum of the rounds' inclusive scans */
            cb_check(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * sizeof *got, got, 0, NULL, NULL),
                     "clEnqueueReadBuffer");
            const cl_uint rounds_sum = (cl_uint)((uint64_t)reps * (reps - 1) / 2);
            unsigned bad = 0;
            for (unsigned i = 0; i < n; i++)
                if (got[i] != (cl_uint)(reps * incl[i] + (i + 1) * rounds_sum)) bad++;

            printf("%-5u %-20s %10zu %9lu %10lu %8u %9.3f us %10.1f ns  %s", n, variants[v].label, items, bars_max,
                   adds, (unsigned)reps, per_scan_ns / 1e3, per_scan_ns / bars_max, bad ? "WRONG" : "ok");
            if (bad) {
                printf(" (%u of %u elements differ)", bad, n);
                failures++;
            }
            printf("\n");
            fflush(stdout);
            clReleaseKernel(tk);
            clReleaseProgram(tp);
        }
        clReleaseMemObject(in);
        clReleaseMemObject(out);
        clReleaseMemObject(cnt);
        free(host), free(got), free(counts), free(incl);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    double target_ms = 20;
    int runs = 11;
    cl_uint fixed_reps = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--target-ms") && i + 1 < argc) target_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) fixed_reps = (cl_uint)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--device TEXT] [--target-ms MS | --reps REPS] [--runs K]\n", argv[0]);
            return 64;
        }
    }
    if (runs < 1 || target_ms <= 0) {
        fprintf(stderr, "%s: --runs and --target-ms must be positive\n", argv[0]);
        return 64;
    }
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter);
    if (nd == 0) {
        fprintf(stderr, "%s: no OpenCL device%s%s\n", argv[0], filter ? " matches " : "", filter ? filter : "");
        return 1;
    }
    printf("one work-group, an inclusive scan of n uint, %d launches after 2 warm-ups, each of REPS scans "
           "(about %.0f ms a launch); per scan: the median launch / REPS\n",
           runs, target_ms);
    for (int i = 0; i < nd; i++) {
        if (i) printf("\n");
        run_device(devs[i], target_ms, runs, fixed_reps);
    }
    if (failures) fprintf(stderr, "%s: %d check%s failed\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
