/* reduction: a work-group's sum in local memory, three ways, over many
 * work-groups; what each costs, and what a warp or wavefront of each does.
 *
 *   reduction [--device TEXT] [--n N] [--runs K]
 *
 * Chapter 8's section "A reduction first" quotes it
 * (bench/lessons/reduction.sh builds and runs it). N ints (default 16M,
 * random in -128..127), work-groups of 256 work-items, one element each;
 * each group sums its 256 in local memory by a tree of 8 steps and writes
 * its partial sum; the host adds the partial sums up and checks the total
 * against its own. The three trees, each 255 additions and 9 barriers:
 *   interleaved    for s = 1, 2, 4, ...: if (lid % (2*s) == 0)
 *                  s[lid] += s[lid + s]: active work-items 2*s apart.
 *   strided-index  the same additions, work-item lid doing the one at
 *                  index 2*s*lid: if (2*s*lid < 256): active work-items
 *                  side by side, their words 2*s apart.
 *   sequential     for s = 128, 64, ...: if (lid < s) s[lid] += s[lid + s]
 * and, for the floor, "load only": the loads, one barrier and the store,
 * no tree (its partial sums are not the sums, and not checked).
 * Each is timed with profiling events: the median of K launches after
 * three warm-ups. The barriers and additions are counted by the kernels
 * built with -DCOUNT (one group). What the warps do is counted on the host
 * from the same conditions and indices, step by step: how many warps of 32
 * (and wavefronts of 64) have work, how many of them diverge (some lanes
 * working, some not), and the worst bank conflict among the accesses of 32
 * lanes to 32 banks of 4 bytes (a wavefront of 64 reaches them in halves).
 * Exits 1 if a total or a count is wrong. */
#include "clbench.h"

#include <stdint.h>

#define LS 256 /* work-items per group */

static int failures; /* wrong totals, or counts other than 255 additions and 9 barriers: the exit status is 1 */

static const char *kernel_source =
    "#ifdef COUNT\n"
    "#define ADD() (adds++)\n"
    "#define BARRIER() do { bars++; barrier(CLK_LOCAL_MEM_FENCE); } while (0)\n"
    "#define COUNTS() (count[2 * lid] = adds, count[2 * lid + 1] = bars)\n"
    "#else\n"
    "#define ADD() ((void)0)\n"
    "#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)\n"
    "#define COUNTS() ((void)0)\n"
    "#endif\n"
    "#define LOAD() \\\n"
    "    __local int sum[LS]; \\\n"
    "    const uint lid = get_local_id(0), gid = get_global_id(0); \\\n"
    "    uint adds = 0, bars = 0; \\\n"
    "    sum[lid] = gid < n ? in[gid] : 0; \\\n"
    "    BARRIER()\n"
    "#define STORE() \\\n"
    "    if (lid == 0) partial[get_group_id(0)] = sum[0]; \\\n"
    "    COUNTS()\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void interleaved(__global const int *in, __global int *partial, __global uint *count, uint n)\n"
    "{\n"
    "    LOAD();\n"
    "    for (uint s = 1; s < LS; s <<= 1) {\n"
    "        if (lid % (2 * s) == 0) { sum[lid] += sum[lid + s]; ADD(); }\n"
    "        BARRIER();\n"
    "    }\n"
    "    STORE();\n"
    "}\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void strided_index(__global const int *in, __global int *partial, __global uint *count, uint n)\n"
    "{\n"
    "    LOAD();\n"
    "    for (uint s = 1; s < LS; s <<= 1) {\n"
    "        const uint i = 2 * s * lid;\n"
    "        if (i < LS) { sum[i] += sum[i + s]; ADD(); }\n"
    "        BARRIER();\n"
    "    }\n"
    "    STORE();\n"
    "}\n"
    "\n"
    "/* No tree: the loads, one barrier and the store, what every tree costs\n"
    " * besides its own steps. Its partial sums are not the sums. */\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void load_only(__global const int *in, __global int *partial, __global uint *count, uint n)\n"
    "{\n"
    "    LOAD();\n"
    "    STORE();\n"
    "}\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void sequential(__global const int *in, __global int *partial, __global uint *count, uint n)\n"
    "{\n"
    "    LOAD();\n"
    "    for (uint s = LS / 2; s > 0; s >>= 1) {\n"
    "        if (lid < s) { sum[lid] += sum[lid + s]; ADD(); }\n"
    "        BARRIER();\n"
    "    }\n"
    "    STORE();\n"
    "}\n";

static const char *names[] = {"interleaved", "strided_index", "sequential", "load_only"};
static const char *labels[] = {"interleaved", "strided-index", "sequential", "load only"};

/* Step k (0..7) of tree v: its stride s, and whether work-item lid adds,
 * at which index i (it adds word i + s into word i). The kernels' loops. */
static int step(int v, int k, unsigned lid, unsigned *s, unsigned *i) {
    if (v == 0) return *s = 1u << k, *i = lid, lid % (2 * *s) == 0;
    if (v == 1) return *s = 1u << k, *i = 2 * *s * lid, *i < LS;
    return *s = (LS / 2) >> k, *i = lid, lid < *s;
}

/* The worst conflict degree of 32 lanes' accesses to the words at addr[]
 * (active[] lanes only): the most distinct words any of 32 banks holds. */
static unsigned conflict(const unsigned *addr, const int *active) {
    unsigned worst = 0;
    for (unsigned b = 0; b < 32; b++) {
        unsigned words[32], nw = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!active[l] || addr[l] % 32 != b) continue;
            unsigned j = 0;
            while (j < nw && words[j] != addr[l]) j++;
            if (j == nw) words[nw++] = addr[l];
        }
        if (nw > worst) worst = nw;
    }
    return worst;
}

/* Prints what the warps of each tree do at each step, and the totals. */
static void warp_counts(void) {
    printf("What the warps do, per work-group of %d, counted from the kernels' conditions and indices:\n", LS);
    printf("busy = warps (wavefronts) with at least one lane adding; divergent = busy ones with some lanes idle;\n");
    printf("conflict = the worst bank conflict of the step's accesses (sum[i], sum[i + s]), 32 lanes, 32 banks\n");
    for (int v = 0; v < 3; v++) {
        unsigned busy32 = 0, div32 = 0, busy64 = 0, div64 = 0, worst = 0;
        printf("%s\n  %-4s %7s %22s %26s %9s\n", labels[v], "s", "adding", "warps of 32: busy/div", "wavefronts of 64: busy/div",
               "conflict");
        for (int k = 0; k < 8; k++) {
            unsigned s = 0, adding = 0, b32 = 0, d32 = 0, b64 = 0, d64 = 0, c = 1;
            for (unsigned w = 0; w < LS; w += 32) {   /* each warp of 32 (half of a wavefront of 64) */
                unsigned a[32], a2[32], on = 0;
                int act[32];
                for (unsigned l = 0; l < 32; l++) {
                    unsigned i;
                    act[l] = step(v, k, w + l, &s, &i);
                    a[l] = i, a2[l] = i + s;
                    on += act[l];
                }
                adding += on;
                b32 += on > 0, d32 += on > 0 && on < 32;
                unsigned c1 = conflict(a, act), c2 = conflict(a2, act);
                if (c1 > c) c = c1;
                if (c2 > c) c = c2;
            }
            for (unsigned w = 0; w < LS; w += 64) {
                unsigned on = 0, s2, i;
                for (unsigned l = 0; l < 64; l++) on += step(v, k, w + l, &s2, &i);
                b64 += on > 0, d64 += on > 0 && on < 64;
            }
            printf("  %-4u %7u %17u/%-4u %21u/%-4u %6u-way\n", s, adding, b32, d32, b64, d64, c);
            busy32 += b32, div32 += d32, busy64 += b64, div64 += d64;
            if (c > worst) worst = c;
        }
        printf("  all  %7s %17u/%-4u %21u/%-4u %6u-way\n", "", busy32, div32, busy64, div64, worst);
    }
}

static void run_device(cl_device_id d, unsigned n, int runs, const int *host, int64_t want) {
    char desc[1024];
    cb_describe(d, desc, sizeof desc);
    printf("device: %s\n", desc);
    printf("%-14s %8s %10s %12s %10s  %s\n", "kernel", "barriers", "additions", "time", "GB/s", "check");
    fflush(stdout);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cb_check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    cb_check(err, "clCreateCommandQueue");
    const size_t groups = (n + LS - 1) / LS;
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)n * sizeof *host, (void *)host, &err);
    cb_check(err, "clCreateBuffer");
    cl_mem partial = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * sizeof(cl_int), NULL, &err);
    cb_check(err, "clCreateBuffer");
    cl_mem cnt = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * LS * sizeof(cl_uint), NULL, &err);
    cb_check(err, "clCreateBuffer");
    cl_int *parts = malloc(groups * sizeof *parts);
    double *t = malloc((size_t)runs * sizeof *t);

    unsigned long bars[4] = {0}, adds[4] = {0};
    for (int build = 0; build < 2; build++) {   /* 0: -DCOUNT, one group; 1: timed, all of them */
        char opts[64];
        snprintf(opts, sizeof opts, "-DLS=%d%s", LS, build ? "" : " -DCOUNT");
        cl_program p = cb_build(ctx, d, kernel_source, opts);
        if (!p) exit(1);
        for (int v = 0; v < 4; v++) {
            cl_kernel k = clCreateKernel(p, names[v], &err);
            cb_check(err, "clCreateKernel");
            const cl_uint nn = build ? n : LS;
            cb_check(clSetKernelArg(k, 0, sizeof in, &in), "clSetKernelArg");
            cb_check(clSetKernelArg(k, 1, sizeof partial, &partial), "clSetKernelArg");
            cb_check(clSetKernelArg(k, 2, sizeof cnt, &cnt), "clSetKernelArg");
            cb_check(clSetKernelArg(k, 3, sizeof nn, &nn), "clSetKernelArg");
            if (!build) {
                cl_uint counts[2 * LS];
                cb_launch(q, k, LS, LS);
                cb_check(clEnqueueReadBuffer(q, cnt, CL_TRUE, 0, sizeof counts, counts, 0, NULL, NULL),
                         "clEnqueueReadBuffer");
                for (int i = 0; i < LS; i++) {
                    adds[v] += counts[2 * i];
                    if (counts[2 * i + 1] > bars[v]) bars[v] = counts[2 * i + 1];
                }
                if (adds[v] != (v == 3 ? 0u : LS - 1u) || bars[v] != (v == 3 ? 1u : 9u)) {
                    printf("%s: counted %lu additions and %lu barriers\n", labels[v], adds[v], bars[v]);
                    failures++;
                }
                clReleaseKernel(k);
                continue;
            }
            for (int r = -3; r < runs; r++) {
                const double x = cb_launch(q, k, groups * LS, LS);
                if (r >= 0) t[r] = x;
            }
            const double ns = cb_median(t, runs);
            cb_check(clEnqueueReadBuffer(q, partial, CL_TRUE, 0, groups * sizeof *parts, parts, 0, NULL, NULL),
                     "clEnqueueReadBuffer");
            int64_t total = 0;
            for (size_t g = 0; g < groups; g++) total += parts[g];
            if (v == 3) {
                printf("%-14s %8lu %10lu %9.1f us %10.1f  (no tree: not a sum)\n", labels[v], bars[v], adds[v],
                       ns / 1e3, 4.0 * n / ns);
            } else {
                failures += total != want;
                printf("%-14s %8lu %10lu %9.1f us %10.1f  %s (total %lld, the host's %lld)\n", labels[v], bars[v],
                       adds[v], ns / 1e3, 4.0 * n / ns, total == want ? "ok" : "WRONG", (long long)total,
                       (long long)want);
            }
            fflush(stdout);
            clReleaseKernel(k);
        }
        clReleaseProgram(p);
    }
    free(parts);
    free(t);
    clReleaseMemObject(in);
    clReleaseMemObject(partial);
    clReleaseMemObject(cnt);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    unsigned n = 16u << 20;
    int runs = 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--device TEXT] [--n N] [--runs K]\n", argv[0]);
            return 64;
        }
    }
    if (runs < 1 || n < 1) {
        fprintf(stderr, "%s: --n and --runs must be positive\n", argv[0]);
        return 64;
    }
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter);
    if (nd == 0) {
        fprintf(stderr, "%s: no OpenCL device%s%s\n", argv[0], filter ? " matches " : "", filter ? filter : "");
        return 1;
    }
    int *host = malloc((size_t)n * sizeof *host);
    int64_t want = 0;
    srand(1);
    for (unsigned i = 0; i < n; i++) want += host[i] = rand() % 256 - 128;
    printf("%u int in work-groups of %d (%u groups), one element a work-item; time: the median of %d launches "
           "after 3 warm-ups; GB/s: the %u bytes read over that time\n",
           n, LS, (n + LS - 1) / LS, runs, 4 * n);
    for (int i = 0; i < nd; i++) {
        printf("\n");
        run_device(devs[i], n, runs, host, want);
    }
    printf("\n");
    warp_counts();
    free(host);
    if (failures) fprintf(stderr, "%s: %d check%s failed\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
