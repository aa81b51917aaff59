/* latomic-probe: what one local atomic request costs when the 32 work-items
 * of a warp add to one word, against 32 words, written four ways, to see
 * which of them a compiler can fold and which a GPU must serialise.
 *
 *   latomic-probe [--device TEXT] [--runs K]
 *
 * `cltutor bench --profile` measures the local-atomic rates the time
 * prediction uses with one loop (src/run/bench.c, kernel `latomic`): the
 * address `same ? 0 : l`, fixed for the loop, and an addend of 1 whose
 * result is not read. On NVIDIA's OpenCL (H200, driver 580.159.04) it
 * found the same rate for one word as for 32, while a histogram whose 32
 * work-items add to one local word runs about 15 times slower than one
 * whose work-items add to words of their own (docs/results/heldout). The
 * kernels here differ only in what the compiler can know:
 *   fixed       the profile's loop: address and addend fixed for the loop;
 *   varying     the address moved each step by a value the compiler cannot
 *               know (i & mask, mask 0 at run time), result not read;
 *   returned    fixed address, each result added into the work-item's sum;
 *   loaded      the address read from a global buffer each step (all 0 for
 *               "same", the lane for "spread"), result not read: as a
 *               histogram's atomic_inc(&sub[data[i]]).
 * Each is timed for "spread" (lane l on word l) and "same" (every lane on
 * word 0), in work-groups of 256 over 1024 groups, 256 steps a work-item;
 * the rate is warp requests a second (G/s), the median of K launches after
 * one warm-up, by the profiling event. Every launch's words are checked:
 * each must hold the adds made to it. Exits 1 if one does not. */
#include "../lessons/clbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "#define STEPS 256\n"
    "__kernel void fixed(__global int *out, int same, int mask, __global const int *addr) {\n"
    "    __local int t[256]; int l = get_local_id(0);\n"
    "    t[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int a = same ? 0 : l;\n"
    "    for (int i = 0; i < STEPS; i++) atomic_add(&t[a], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n"
    "__kernel void varying(__global int *out, int same, int mask, __global const int *addr) {\n"
    "    __local int t[256]; int l = get_local_id(0);\n"
    "    t[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int a = same ? 0 : l;\n"
    "    for (int i = 0; i < STEPS; i++) atomic_add(&t[(a + (i & mask)) & 255], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n"
    "__kernel void returned(__global int *out, int same, int mask, __global const int *addr) {\n"
    "    __local int t[256]; int l = get_local_id(0), s = 0;\n"
    "    t[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int a = same ? 0 : l;\n"
    "    for (int i = 0; i < STEPS; i++) s += atomic_add(&t[a], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l] + (s == -1);\n"
    "}\n"
    "__kernel void loaded(__global int *out, int same, int mask, __global const int *addr) {\n"
    "    __local int t[256]; int l = get_local_id(0);\n"
    "    t[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    __global const int *mine = addr + (same ? 0 : 256) + l;\n"
    "    for (int i = 0; i < STEPS; i++) atomic_inc(&t[mine[(i & mask) * 512]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n";

#define GROUP 256
#define GROUPS 1024
#define STEPS 256

int main(int argc, char **argv) {
    const char *filter = NULL;
    int runs = 9;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: latomic-probe [--device TEXT] [--runs K]\n");
            return 64;
        }
    }
    if (runs < 1 || runs > 99) runs = 9;
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter), bad = 0;
    if (nd == 0) {
        fprintf(stderr, "latomic-probe: no OpenCL device%s%s\n", filter ? " matches " : "", filter ? filter : "");
        return 69;
    }
    static const char *const kernels[] = {"fixed", "varying", "returned", "loaded"};
    size_t items = (size_t)GROUP * GROUPS;
    int *host = malloc(items * sizeof *host), addr[512];
    for (int l = 0; l < 256; l++) addr[l] = 0, addr[256 + l] = l;
    for (int d = 0; d < nd; d++) {
        char name[512];
        cb_describe(devs[d], name, sizeof name);
        printf("# %s\n# kernel    spread_G/s  same_G/s  same/spread (warp requests a second; %d launches, median)\n",
               name, runs);
        cl_int e;
        cl_context ctx = clCreateContext(NULL, 1, &devs[d], NULL, NULL, &e);
        cb_check(e, "clCreateContext");
        cl_command_queue q = clCreateCommandQueue(ctx, devs[d], CL_QUEUE_PROFILING_ENABLE, &e);
        cb_check(e, "clCreateCommandQueue");
        cl_program prog = cb_build(ctx, devs[d], source, "");
        if (!prog) return 1;
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, items * sizeof(int), NULL, &e);
        cb_check(e, "clCreateBuffer");
        cl_mem abuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof addr, addr, &e);
        cb_check(e, "clCreateBuffer");
        for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
            cl_kernel kr = clCreateKernel(prog, kernels[k], &e);
            cb_check(e, kernels[k]);
            double rate[2];
            for (int same = 0; same < 2; same++) {
                int mask = 0;
                clSetKernelArg(kr, 0, sizeof out, &out);
                clSetKernelArg(kr, 1, sizeof same, &same);
                clSetKernelArg(kr, 2, sizeof mask, &mask);
                clSetKernelArg(kr, 3, sizeof abuf, &abuf);
                double ms[100];
                cb_launch(q, kr, items, GROUP);
                for (int r = 0; r < runs; r++) ms[r] = cb_launch(q, kr, items, GROUP);
                cb_check(clEnqueueReadBuffer(q, out, CL_TRUE, 0, items * sizeof(int), host, 0, NULL, NULL), "read");
                for (size_t i = 0; i < items; i++) {
                    int l = (int)(i % GROUP), want = same ? (l == 0 ? GROUP * STEPS : 0) : STEPS;
                    if (host[i] != want) {
                        fprintf(stderr, "latomic-probe: %s (%s): word %d of group %zu holds %d, not %d\n", kernels[k],
                                same ? "same" : "spread", l, i / GROUP, host[i], want);
                        bad = 1;
                        break;
                    }
                }
                double warps = (double)items / 32 * STEPS;
                rate[same] = warps / cb_median(ms, runs); /* per ns: G/s */
            }
            printf("%-10s %11.4g %9.4g %12.3f\n", kernels[k], rate[0], rate[1], rate[1] / rate[0]);
            clReleaseKernel(kr);
        }
        clReleaseMemObject(out);
        clReleaseMemObject(abuf);
        clReleaseProgram(prog);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    free(host);
    return bad;
}
