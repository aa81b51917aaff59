/* occupancy: chapter 5's reference at work-group sizes 32, 64, 128 and
 * 256: what OpenCL says about each build, how many of its work-groups one
 * compute unit can hold, and how long each takes.
 *
 *   occupancy [--device TEXT] [--size NxC[xF]] [--runs K] [--sizes A,B,...]
 *             [--local-features A,B,...]
 *
 * Chapter 5's section "Occupancy and the work-group size" quotes it
 * (bench/lessons/occupancy.sh builds and runs it). The kernel is
 * kernels/05-local/histogram.cl itself, built with -DLOCAL_SIZE=L
 * -DLOCAL_FEATURES=64 for each L (the course builds it with L = 64) and run
 * over the transposed descriptors in work-groups of L. Its tile holds
 * LOCAL_FEATURES x L floats of local memory, 256 bytes a work-item: 64 KiB
 * at L = 256, more than the 48 KiB NVIDIA's OpenCL gives a work-group.
 * Where the tile does not fit, L is run again with the most features that
 * fit (a multiple of 4; the kernel reads the others from global memory and
 * computes the same histogram). --local-features builds each size with
 * other LOCAL_FEATURES: more than the descriptors' 64 features changes
 * nothing but the tile's size (the rows past 64 are never touched), so the
 * same instructions run with fewer work-groups resident.
 *
 * For each build it prints the queries (clGetDeviceInfo,
 * clGetKernelWorkGroupInfo); on NVIDIA also the registers the driver gave a
 * work-item (its build log, -cl-nv-verbose), the work-groups one Hopper SM
 * holds by each of its limits, and, where libcuda loads, the CUDA driver's
 * own count for the same PTX (cuOccupancyMaxActiveBlocksPerMultiprocessor).
 * Time: the median of K launches after 3 warm-ups, from profiling events;
 * the histogram is cleared before each launch and checked after the last
 * against the host's answer. Size: 262144x256x64 on a GPU and 16384x256x64
 * on a CPU unless --size sets one for every device (chapter 5's bench_size
 * and bench_size_cpu). Exits 1 if a histogram is wrong. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "clbench.h"
#include "surf.h"

#include <dlfcn.h>

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV /* cl_nv_device_attribute_query */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

#define MAX_SIZES 8 /* of LOCAL_SIZE, and of LOCAL_FEATURES */

/* One Hopper SM (compute capability 9.0). Sources: NVIDIA Hopper Tuning
 * Guide, "Occupancy" (64K 32-bit registers, 64 warps, 32 thread blocks and
 * up to 228 KB of shared memory per SM); CUDA C++ Programming Guide,
 * "Compute Capabilities" (1 KB of shared memory reserved per thread block)
 * and the CUDA Occupancy Calculator (registers allocated 256 to a warp, a
 * quarter of the file to each of the 4 schedulers; shared memory in units
 * of 128 bytes). bench/scan-anatomy/anatomy.c counts the same way, and the
 * CUDA driver agreed with it there. */
#define SM_REGS 65536
#define SM_WARPS 64
#define SM_GROUPS 32
#define SM_SHARED (228 * 1024)
#define GROUP_RESERVED 1024

typedef struct {
    cl_device_id id;
    int gpu, nvidia, cc_major, cc_minor; /* nvidia: the driver takes -cl-nv-verbose */
    cl_ulong local_mem;
    size_t max_group;
    const char *kernel_source;
    cl_context ctx;
    cl_command_queue q;
    cl_mem desc, cent, hist;
    const surf *p;
    int runs;
} bench;

typedef struct {
    int local_size, features; /* LOCAL_SIZE, LOCAL_FEATURES */
    int built, ran, ok;
    int regs, smem, spill;   /* from NVIDIA's build log; regs 0 when unknown */
    int groups, cuda_groups; /* per Hopper SM, by the limits above / by the CUDA driver (0: none) */
    double ms, lo, hi;       /* median, fastest, slowest */
    char *ptx;               /* NVIDIA: the program's PTX, for the CUDA driver once OpenCL is done */
} result;

static int failures;

/* The first line of text that contains needle (or its first line), into out. */
static void log_line(const char *text, const char *needle, char *out, size_t size) {
    const char *s = strstr(text, needle);
    if (!s) s = text;
    while (s > text && s[-1] != '\n') s--;
    while (*s == ' ' || *s == '\n') s++;
    size_t n = strcspn(s, "\n");
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), s);
}

/* Registers, shared memory and spill bytes of `histogram` from NVIDIA's
 * build log (-cl-nv-verbose prints ptxas's "Used N registers, M bytes smem"). */
static void parse_nv_log(const char *log, result *r) {
    const char *u = strstr(log, "Used ");
    const char *s = strstr(log, "bytes spill stores");
    if (u) {
        r->regs = atoi(u + 5);
        const char *m = strstr(u, " bytes smem");
        const char *eol = strchr(u, '\n');
        if (m && (!eol || m < eol)) {
            while (m > u && m[-1] >= '0' && m[-1] <= '9') m--;
            r->smem = atoi(m);
        }
    }
    if (s) {
        while (s > log && s[-1] == ' ') s--;
        while (s > log && s[-1] >= '0' && s[-1] <= '9') s--;
        r->spill = atoi(s);
    }
}

/* Work-groups of one Hopper SM by each limit; prints the four and returns
 * the least. */
static int hopper_groups(const result *r) {
    const int warps = (r->local_size + 31) / 32;
    const int per_warp = (r->regs * 32 + 255) / 256 * 256;
    const int by_regs = r->regs ? (SM_REGS / 4 / per_warp) * 4 / warps : SM_GROUPS;
    const int per_group = (r->smem + GROUP_RESERVED + 127) / 128 * 128;
    const int by_smem = SM_SHARED / per_group, by_warps = SM_WARPS / warps;
    int g = SM_GROUPS;
    const char *why = "the 32-group cap";
    if (by_warps < g) g = by_warps, why = "warps";
    if (by_regs < g) g = by_regs, why = "registers";
    if (by_smem < g) g = by_smem, why = "shared memory";
    printf("  Hopper SM: by warps %d/%d = %d groups; by registers %d x 32 rounded to %d a warp: %d groups; "
           "by shared memory (%d + 1024 reserved, in 128-byte units) %d: %d groups; cap %d groups\n",
           SM_WARPS, warps, by_warps, r->regs, per_warp, by_regs, r->smem, per_group, by_smem, SM_GROUPS);
    printf("  => %d groups = %d warps of %d (%.1f%%), bound by %s\n", g, g * warps, SM_WARPS,
           100.0 * g * warps / SM_WARPS, why);
    return g;
}

/* ---- the CUDA driver's count, for the PTX NVIDIA's OpenCL compiled */

static struct {
    int tried, ok;
    int (*init)(unsigned);
    int (*device_get)(int *, int);
    int (*device_name)(char *, int, int);
    int (*ctx_retain)(void **, int);
    int (*ctx_set)(void *);
    int (*load)(void **, const void *);
    int (*unload)(void *);
    int (*function)(void **, void *, const char *);
    int (*attr)(int *, int, void *);
    int (*occupancy)(int *, void *, int, size_t);
} cu;

/* Opens libcuda at run time (no CUDA headers needed); 0 when it is not there. */
static int cuda_open(void) {
    if (cu.tried) return cu.ok;
    cu.tried = 1;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    struct { void **slot; const char *name; } syms[] = {
        {(void **)&cu.init, "cuInit"},
        {(void **)&cu.device_get, "cuDeviceGet"},
        {(void **)&cu.device_name, "cuDeviceGetName"},
        {(void **)&cu.ctx_retain, "cuDevicePrimaryCtxRetain"},
        {(void **)&cu.ctx_set, "cuCtxSetCurrent"},
        {(void **)&cu.load, "cuModuleLoadData"},
        {(void **)&cu.unload, "cuModuleUnload"},
        {(void **)&cu.function, "cuModuleGetFunction"},
        {(void **)&cu.attr, "cuFuncGetAttribute"},
        {(void **)&cu.occupancy, "cuOccupancyMaxActiveBlocksPerMultiprocessor"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!(*syms[i].slot = dlsym(lib, syms[i].name))) return 0;
    int dev;
    void *ctx;
    char name[256] = "";
    if (cu.init(0) || cu.device_get(&dev, 0) || cu.ctx_retain(&ctx, dev) || cu.ctx_set(ctx)) return 0;
    cu.device_name(name, sizeof name, dev);
    printf("the CUDA driver's count for the same PTX (its device 0: %s):\n", name);
    return cu.ok = 1;
}

/* The program's PTX (NVIDIA's binary), or NULL. */
static char *program_ptx(cl_program prog) {
    size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size) return NULL;
    unsigned char *ptx = calloc(1, size + 1), *bins[1] = {ptx};
    if (ptx && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS &&
        strstr((char *)ptx, ".entry"))
        return (char *)ptx;
    free(ptx);
    return NULL;
}

/* The CUDA driver's resident groups per SM for r's PTX (0 if it cannot
 * tell); prints its footprint. Called once the OpenCL context is gone. */
static int cuda_groups(const result *r) {
    int n = 0, regs = 0, shared = 0, local = 0;
    void *mod = NULL, *fn = NULL;
    if (r->ptx && cuda_open() && !cu.load(&mod, r->ptx) && !cu.function(&fn, mod, "histogram") &&
        !cu.occupancy(&n, fn, r->local_size, 0)) {
        cu.attr(&regs, 4, fn);   /* CU_FUNC_ATTRIBUTE_NUM_REGS */
        cu.attr(&shared, 1, fn); /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
        cu.attr(&local, 3, fn);  /* CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES */
        printf("  LOCAL_SIZE %d, LOCAL_FEATURES %d: %d registers a work-item, %d B shared a group, %d B local "
               "(spilled) a work-item; cuOccupancyMaxActiveBlocksPerMultiprocessor: %d groups = %d warps\n",
               r->local_size, r->features, regs, shared, local, n, n * ((r->local_size + 31) / 32));
    }
    if (mod) cu.unload(mod);
    return n;
}

/* ---- one build, its queries and its timing */

/* Builds and times the kernel with LOCAL_SIZE r->local_size and
 * LOCAL_FEATURES r->features; prints what it learns. */
static void run_one(bench *b, result *r) {
    const surf *p = b->p;
    const size_t tile = (size_t)r->features * r->local_size * sizeof(float);
    char opts[128], line[512];
    cl_int err;
    printf("\nLOCAL_SIZE %d, LOCAL_FEATURES %d: the tile is %d x %d floats = %zu B of local memory%s\n",
           r->local_size, r->features, r->features, r->local_size, tile,
           tile > b->local_mem ? ", more than CL_DEVICE_LOCAL_MEM_SIZE" : "");
    snprintf(opts, sizeof opts, "-DLOCAL_SIZE=%d -DLOCAL_FEATURES=%d%s", r->local_size, r->features,
             b->nvidia ? " -cl-nv-verbose" : "");
    cl_program prog = clCreateProgramWithSource(b->ctx, 1, &b->kernel_source, NULL, &err);
    cb_check(err, "clCreateProgramWithSource");
    err = clBuildProgram(prog, 1, &b->id, opts, NULL, NULL);
    size_t len = 0;
    clGetProgramBuildInfo(prog, b->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    if (log) clGetProgramBuildInfo(prog, b->id, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    if (err != CL_SUCCESS) {
        log_line(log ? log : "", "rror", line, sizeof line);
        printf("  does not build (OpenCL error %d): %s\n", (int)err, line);
        clReleaseProgram(prog);
        free(log);
        return;
    }
    r->built = 1;
    cl_kernel k = clCreateKernel(prog, "histogram", &err);
    cb_check(err, "clCreateKernel");
    size_t wg = 0, multiple = 0, compile[3] = {0};
    cl_ulong lmem = 0, pmem = 0;
    clGetKernelWorkGroupInfo(k, b->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetKernelWorkGroupInfo(k, b->id, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile, NULL);
    clGetKernelWorkGroupInfo(k, b->id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple, &multiple,
                             NULL);
    clGetKernelWorkGroupInfo(k, b->id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetKernelWorkGroupInfo(k, b->id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem, NULL);
    printf("  CL_KERNEL_WORK_GROUP_SIZE %zu, CL_KERNEL_COMPILE_WORK_GROUP_SIZE %zu, "
           "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE %zu,\n  CL_KERNEL_LOCAL_MEM_SIZE %llu B, "
           "CL_KERNEL_PRIVATE_MEM_SIZE %llu B\n",
           wg, compile[0], multiple, (unsigned long long)lmem, (unsigned long long)pmem);
    if (b->nvidia && log) {
        parse_nv_log(log, r);
        if (r->regs) {
            printf("  NVIDIA's build log (-cl-nv-verbose): %d registers a work-item, %d B shared a group, "
                   "%d B spilled\n", r->regs, r->smem, r->spill);
            if (b->cc_major == 9 && b->cc_minor == 0) r->groups = hopper_groups(r);
            r->ptx = program_ptx(prog);
        }
    }
    free(log);

    const size_t global = ((size_t)p->n + r->local_size - 1) / r->local_size * r->local_size;
    const size_t local = (size_t)r->local_size;
    const cl_int n = (cl_int)p->n, c = (cl_int)p->c, f = (cl_int)p->f;
    cb_check(clSetKernelArg(k, 0, sizeof b->desc, &b->desc), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 1, sizeof b->cent, &b->cent), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 2, sizeof b->hist, &b->hist), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 3, sizeof n, &n), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 4, sizeof c, &c), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 5, sizeof f, &f), "clSetKernelArg");
    double *t = malloc((size_t)b->runs * sizeof *t);
    const cl_uint zero = 0;
    for (int i = -3; i < b->runs && t; i++) {
        cl_event e;
        cl_ulong t0 = 0, t1 = 0;
        cb_check(clEnqueueFillBuffer(b->q, b->hist, &zero, sizeof zero, 0, (size_t)c * sizeof zero, 0, NULL, NULL),
                 "clEnqueueFillBuffer");
        err = clEnqueueNDRangeKernel(b->q, k, 1, NULL, &global, &local, 0, NULL, &e);
        if (err == CL_SUCCESS) {
            err = clWaitForEvents(1, &e);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            clReleaseEvent(e);
        }
        if (err != CL_SUCCESS) {
            printf("  does not run in work-groups of %zu (OpenCL error %d)\n", local, (int)err);
            break;
        }
        if (i >= 0) t[i] = (double)(t1 - t0) / 1e6;
        if (i == b->runs - 1) r->ran = 1;
    }
    if (r->ran) {
        uint32_t *h = malloc((size_t)c * sizeof *h);
        cb_check(clEnqueueReadBuffer(b->q, b->hist, CL_TRUE, 0, (size_t)c * sizeof *h, h, 0, NULL, NULL),
                 "clEnqueueReadBuffer");
        r->ok = h && surf_check(p, h);
        failures += !r->ok;
        r->lo = t[0], r->hi = t[0];
        for (int i = 1; i < b->runs; i++) r->lo = t[i] < r->lo ? t[i] : r->lo, r->hi = t[i] > r->hi ? t[i] : r->hi;
        r->ms = cb_median(t, b->runs);
        printf("  time %.3f ms (median of %d; %.3f to %.3f), %.1f GFLOP/s; histogram %s\n", r->ms, b->runs, r->lo,
               r->hi, 3.0 * p->n * p->c * p->f / (r->ms * 1e6), r->ok ? "ok" : "WRONG");
        free(h);
    }
    free(t);
    fflush(stdout);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* The device's queries; fills what the runs need. */
static void describe(bench *b) {
    char desc[1024], *ext = NULL;
    size_t ext_len = 0;
    cl_device_type type = 0;
    cl_uint units = 0;
    cl_device_local_mem_type ltype = 0;
    cl_ulong cache = 0;
    cb_describe(b->id, desc, sizeof desc);
    clGetDeviceInfo(b->id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof b->local_mem, &b->local_mem, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_LOCAL_MEM_TYPE, sizeof ltype, &ltype, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof b->max_group, &b->max_group, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_len);
    if (!(ext = calloc(1, ext_len + 1))) exit(1);
    clGetDeviceInfo(b->id, CL_DEVICE_EXTENSIONS, ext_len, ext, NULL);
    clGetDeviceInfo(b->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    b->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    b->nvidia = strstr(ext, "cl_nv_compiler_options") != NULL;
    printf("device: %s\n", desc);
    printf("  CL_DEVICE_MAX_COMPUTE_UNITS %u, CL_DEVICE_LOCAL_MEM_SIZE %llu B (%s), CL_DEVICE_MAX_WORK_GROUP_SIZE %zu,\n"
           "  CL_DEVICE_GLOBAL_MEM_CACHE_SIZE %llu B\n",
           units, (unsigned long long)b->local_mem, ltype == CL_LOCAL ? "CL_LOCAL: on chip" : "CL_GLOBAL: in memory",
           b->max_group, (unsigned long long)cache);
    if (strstr(ext, "cl_nv_device_attribute_query")) {
        cl_uint regs = 0, warp = 0, major = 0, minor = 0;
        clGetDeviceInfo(b->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL);
        clGetDeviceInfo(b->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL);
        clGetDeviceInfo(b->id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof regs, &regs, NULL);
        clGetDeviceInfo(b->id, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL);
        b->cc_major = (int)major, b->cc_minor = (int)minor;
        printf("  cl_nv_device_attribute_query: compute capability %u.%u, CL_DEVICE_REGISTERS_PER_BLOCK_NV %u, "
               "CL_DEVICE_WARP_SIZE_NV %u\n", major, minor, regs, warp);
    }
    if (!b->gpu)
        printf("  a CPU: each compute unit (core) runs one work-group at a time, its work-items as a loop;\n"
               "  no warps to hold, so no occupancy to count\n");
    free(ext);
}

static void run_device(cl_device_id d, const int *sizes, int nsizes, const int *feats, int nfeats, int runs,
                       const char *size_arg, surf *p, const char *source) {
    bench b = {.id = d, .runs = runs, .kernel_source = source};
    describe(&b);
    long n, c, f;
    surf_parse_size(size_arg ? size_arg : b.gpu ? "262144x256x64" : "16384x256x64", &n, &c, &f);
    if (p->n != n || p->c != c || p->f != f) {
        surf_free(p);
        surf_make(p, n, c, f);
    }
    b.p = p;
    printf("  problem: %ld descriptors x %ld centroids x %ld features (transposed, as chapter 5's layout), "
           "%ld near ties on the host\n", n, c, f, p->near_ties);
    fflush(stdout);
    cl_int err;
    b.ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cb_check(err, "clCreateContext");
    b.q = clCreateCommandQueue(b.ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    cb_check(err, "clCreateCommandQueue");
    b.desc = clCreateBuffer(b.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * (size_t)(n * f),
                            p->transposed, &err);
    cb_check(err, "clCreateBuffer");
    b.cent = clCreateBuffer(b.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * (size_t)(c * f),
                            p->centroids, &err);
    cb_check(err, "clCreateBuffer");
    b.hist = clCreateBuffer(b.ctx, CL_MEM_READ_WRITE, sizeof(cl_uint) * (size_t)c, NULL, &err);
    cb_check(err, "clCreateBuffer");

    result *rs = calloc((size_t)(2 * nsizes * nfeats), sizeof *rs);
    int nr = 0;
    for (int i = 0; i < nsizes && rs; i++) {
        if ((size_t)sizes[i] > b.max_group) {
            printf("\nLOCAL_SIZE %d: more than CL_DEVICE_MAX_WORK_GROUP_SIZE, not run\n", sizes[i]);
            continue;
        }
        for (int j = 0; j < nfeats; j++) {
            result *r = &rs[nr++];
            *r = (result){.local_size = sizes[i], .features = feats[j]};
            run_one(&b, r);
            if (r->ran || (cl_ulong)feats[j] * sizeof(float) * sizes[i] <= b.local_mem) continue;
            /* the tile does not fit: the most features that do (a multiple of 4), or a few less */
            const int most = (int)(b.local_mem / (sizeof(float) * sizes[i])) / 4 * 4;
            for (int fit = most; fit >= 4 && fit > most - 12; fit -= 4) {
                result *r2 = &rs[nr];
                *r2 = (result){.local_size = sizes[i], .features = fit};
                run_one(&b, r2);
                if (r2->ran) {
                    nr++;
                    break;
                }
            }
        }
    }
    clReleaseMemObject(b.desc);
    clReleaseMemObject(b.cent);
    clReleaseMemObject(b.hist);
    clReleaseCommandQueue(b.q);
    clReleaseContext(b.ctx);
    for (int i = 0; i < nr; i++) {
        if (i == 0 && rs[i].ptx) printf("\n");
        rs[i].cuda_groups = cuda_groups(&rs[i]);
        free(rs[i].ptx);
    }

    printf("\nsummary, one row a build:\n  %-10s %-14s %9s %13s %11s %10s  %s\n",
           "LOCAL_SIZE", "LOCAL_FEATURES", "tile", "groups/SM", "time (ms)", "GFLOP/s", "histogram");
    for (int i = 0; i < nr; i++) {
        const result *r = &rs[i];
        char groups[32] = "-", time[32] = "-", rate[32] = "-";
        if (r->groups) snprintf(groups, sizeof groups, "%d (%d warps)", r->groups, r->groups * ((r->local_size + 31) / 32));
        if (r->ran) {
            snprintf(time, sizeof time, "%.3f", r->ms);
            snprintf(rate, sizeof rate, "%.1f", 3.0 * n * c * f / (r->ms * 1e6));
        }
        printf("  %-10d %-14d %7zu B %13s %11s %10s  %s\n", r->local_size, r->features,
               (size_t)r->features * r->local_size * sizeof(float), groups, time, rate,
               r->ran ? (r->ok ? "ok" : "WRONG") : r->built ? "did not run" : "did not build");
        if (r->groups && r->cuda_groups && r->groups != r->cuda_groups)
            printf("  %-10s (the CUDA driver counts %d groups)\n", "", r->cuda_groups);
    }
    free(rs);
}

/* Parses "A,B,..." of positive numbers into v (at most MAX_SIZES); their count, or 0. */
static int parse_list(char *s, int *v) {
    int n = 0;
    while (*s && n < MAX_SIZES) {
        v[n] = (int)strtol(s, &s, 10);
        if (v[n++] < 1 || (*s && *s != ',')) return 0;
        s += *s == ',';
    }
    return *s ? 0 : n;
}

int main(int argc, char **argv) {
    const char *filter = NULL, *size_arg = NULL;
    int runs = 20, sizes[MAX_SIZES] = {32, 64, 128, 256}, nsizes = 4, feats[MAX_SIZES] = {64}, nfeats = 1;
    long n, c, f;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && surf_parse_size(argv[i + 1], &n, &c, &f)) size_arg = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc && (nsizes = parse_list(argv[i + 1], sizes)) > 0) i++;
        else if (!strcmp(argv[i], "--local-features") && i + 1 < argc && (nfeats = parse_list(argv[i + 1], feats)) > 0)
            i++;
        else {
            fprintf(stderr, "usage: %s [--device TEXT] [--size NxC[xF]] [--runs K] [--sizes A,B,...] "
                            "[--local-features A,B,...]\n", argv[0]);
            return 64;
        }
    }
    for (int j = 0; j < nfeats; j++)
        if (feats[j] % 4) {
            fprintf(stderr, "%s: LOCAL_FEATURES must be multiples of 4\n", argv[0]);
            return 64;
        }
    /* NVIDIA's driver keeps compiled programs and gives no build log for a
     * program it finds there: compile afresh, so that the log says the registers */
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter);
    if (nd == 0) {
        fprintf(stderr, "%s: no OpenCL device%s%s\n", argv[0], filter ? " matches " : "", filter ? filter : "");
        return 1;
    }
    char *source = surf_read_kernel("kernels/05-local/histogram.cl");
    printf("chapter 5's reference (kernels/05-local/histogram.cl) in work-groups of each LOCAL_SIZE; time: the "
           "median of %d launches after 3 warm-ups (profiling events); GFLOP/s: 3 x descriptors x centroids x "
           "features over that time\n", runs);
    surf p = {0};
    for (int i = 0; i < nd; i++) {
        printf("\n");
        run_device(devs[i], sizes, nsizes, feats, nfeats, runs, size_arg, &p, source);
    }
    surf_free(&p);
    free(source);
    if (failures) fprintf(stderr, "%s: %d histogram%s wrong\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
