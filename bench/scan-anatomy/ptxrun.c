/* ptxrun — loads a PTX file that scan-anatomy saved from NVIDIA's OpenCL
 * driver into the CUDA driver, prints the kernel's registers, shared memory,
 * spills and the driver's own count of resident work-groups per SM, and
 * launches it the way scan-anatomy does (for a profiler such as ncu, which
 * does not see OpenCL launches). libcuda is opened at run time, so this
 * builds anywhere with a C compiler and no CUDA headers. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *handle;   /* CUcontext, CUmodule, CUfunction, CUevent */

typedef struct {
    CUresult (*init)(unsigned);
    CUresult (*device_get)(int *, int);
    CUresult (*device_attr)(int *, int, int);
    CUresult (*ctx_retain)(handle *, int);
    CUresult (*ctx_set)(handle);
    CUresult (*load)(handle *, const void *, unsigned, int *, void **);
    CUresult (*get_function)(handle *, handle, const char *);
    CUresult (*func_attr)(int *, int, handle);
    CUresult (*occupancy)(int *, handle, int, size_t);
    CUresult (*alloc)(CUdeviceptr *, size_t);
    CUresult (*htod)(CUdeviceptr, const void *, size_t);
    CUresult (*dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*memset8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*launch)(handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, handle,
                       void **, void **);
    CUresult (*sync)(void);
    CUresult (*event_create)(handle *, unsigned);
    CUresult (*event_record)(handle, handle);
    CUresult (*event_sync)(handle);
    CUresult (*elapsed)(float *, handle, handle);
    CUresult (*error_string)(CUresult, const char **);
} cuda;

static int fail(const cuda *c, const char *what, CUresult r)
{
    const char *s = NULL;
    if (c->error_string) c->error_string(r, &s);
    fprintf(stderr, "ptxrun: %s failed: CUDA error %d (%s)\n", what, r, s ? s : "?");
    return 1;
}

static int open_cuda(cuda *c)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "ptxrun: no CUDA driver (libcuda.so.1): %s\n", dlerror());
        return 1;
    }
    struct { void **slot; const char *name, *alt; } syms[] = {
        {(void **)&c->init, "cuInit", NULL},
        {(void **)&c->device_get, "cuDeviceGet", NULL},
        {(void **)&c->device_attr, "cuDeviceGetAttribute", NULL},
        {(void **)&c->ctx_retain, "cuDevicePrimaryCtxRetain", NULL},
        {(void **)&c->ctx_set, "cuCtxSetCurrent", NULL},
        {(void **)&c->load, "cuModuleLoadDataEx", NULL},
        {(void **)&c->get_function, "cuModuleGetFunction", NULL},
        {(void **)&c->func_attr, "cuFuncGetAttribute", NULL},
        {(void **)&c->occupancy, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL},
        {(void **)&c->alloc, "cuMemAlloc_v2", NULL},
        {(void **)&c->htod, "cuMemcpyHtoD_v2", NULL},
        {(void **)&c->dtoh, "cuMemcpyDtoH_v2", NULL},
        {(void **)&c->memset8, "cuMemsetD8_v2", NULL},
        {(void **)&c->launch, "cuLaunchKernel", NULL},
        {(void **)&c->sync, "cuCtxSynchronize", NULL},
        {(void **)&c->event_create, "cuEventCreate", NULL},
        {(void **)&c->event_record, "cuEventRecord", NULL},
        {(void **)&c->event_sync, "cuEventSynchronize", NULL},
        {(void **)&c->elapsed, "cuEventElapsedTime", "cuEventElapsedTime_v2"},
        {(void **)&c->error_string, "cuGetErrorString", NULL},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot && syms[i].alt) *syms[i].slot = dlsym(lib, syms[i].alt);
        if (!*syms[i].slot) {
            fprintf(stderr, "ptxrun: libcuda has no %s\n", syms[i].name);
            return 1;
        }
    }
    return 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
        free(s);
        s = NULL;
    }
    if (s) s[len] = 0;
    fclose(f);
    return s;
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return a < b ? -1 : a > b;
}

/* The work-group size the PTX requires of `kernel` (.reqntid), else 256. */
static int reqntid(const char *ptx, const char *kernel)
{
    char pat[256];
    snprintf(pat, sizeof pat, ".entry %s(", kernel);
    const char *e = strstr(ptx, pat);
    if (!e) {
        snprintf(pat, sizeof pat, ".entry %s", kernel);
        e = strstr(ptx, pat);
    }
    const char *r = e ? strstr(e, ".reqntid") : NULL;
    const char *body = e ? strchr(e, '{') : NULL;
    return r && (!body || r < body) ? atoi(r + 8) : 256;
}

typedef struct {
    size_t n;
    int runs, check;
    uint32_t *in, *expected;
    CUdeviceptr din, dout, dstatus, dcounter;
} job;

static int make_job(const cuda *c, job *j)
{
    j->in = malloc(j->n * 4);
    j->expected = malloc(j->n * 4);
    if (!j->in || !j->expected) return fprintf(stderr, "ptxrun: out of host memory\n"), 1;
    uint64_t x = 0x9e3779b97f4a7c15u;   /* the same input as scan-anatomy */
    uint32_t run = 0;
    for (size_t i = 0; i < j->n; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        j->in[i] = (uint32_t)((x * 0x2545f4914f6cdd1du) >> 32);
        j->expected[i] = run;
        run += j->in[i];
    }
    size_t words = j->n / 2048 + 2;
    CUresult r;
    if ((r = c->alloc(&j->din, j->n * 4)) || (r = c->alloc(&j->dout, j->n * 4)) ||
        (r = c->alloc(&j->dstatus, words * 8)) || (r = c->alloc(&j->dcounter, 4)) ||
        (r = c->htod(j->din, j->in, j->n * 4)) || (r = c->memset8(j->dstatus, 0, words * 8)) ||
        (r = c->memset8(j->dcounter, 0, 4)))
        return fail(c, "making the buffers", r);
    return 0;
}

/* block_size's answer: the elements of one tile */
static int tile_size(const cuda *c, handle mod, job *j, unsigned *block)
{
    handle f;
    CUresult r = c->get_function(&f, mod, "block_size");
    void *args[] = {&j->dcounter};
    if (!r) r = c->launch(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
    if (!r) r = c->dtoh(block, j->dcounter, 4);
    if (!r) r = c->memset8(j->dcounter, 0, 4);
    return r ? fail(c, "block_size", r) : 0;
}

static int run_kernel(const cuda *c, handle mod, const char *path, const char *ptx, const char *kernel, job *j)
{
    handle f, ev[2];
    CUresult r = c->get_function(&f, mod, kernel);
    if (r) return fail(c, kernel, r);
    int regs = 0, smem = 0, local = 0, groups = 0, ls = reqntid(ptx, kernel), dev = 0, sms = 0;
    c->func_attr(&regs, 4, f);    /* CU_FUNC_ATTRIBUTE_NUM_REGS */
    c->func_attr(&smem, 1, f);    /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
    c->func_attr(&local, 3, f);   /* CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: spills and stack */
    c->occupancy(&groups, f, ls, 0);
    c->device_get(&dev, 0);
    c->device_attr(&sms, 16, dev);   /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
    unsigned block = 4;
    if (strcmp(kernel, "copy") && tile_size(c, mod, j, &block)) return 1;
    unsigned grid = (unsigned)((j->n + block - 1) / block);
    if (!strcmp(kernel, "copy")) grid = (unsigned)((j->n + 4 * 256 - 1) / (4 * 256));
    printf("%s: %s: %d registers, %d B shared, %d B local per work-item; %d work-items a group; "
           "the driver fits %d groups (%d warps) on each of %d SMs\n",
           path, kernel, regs, smem, local, ls, groups, groups * ((ls + 31) / 32), sms);
    if (strstr(ptx, "%envreg"))
        printf("    note: the PTX reads %%envreg (OpenCL's work offsets, for get_group_id or get_global_id), which a "
               "CUDA launch leaves unset: its addresses may be wrong here\n");
    float *t = calloc((size_t)j->runs, sizeof *t);
    unsigned n = (unsigned)j->n;
    if (!t || (r = c->event_create(&ev[0], 0)) || (r = c->event_create(&ev[1], 0)))
        return t ? fail(c, "events", r) : 1;
    for (int i = -3; i < j->runs; i++) {   /* three warm-up launches */
        unsigned epoch = (unsigned)(i + 4);
        void *args[] = {&j->din, &j->dout, &j->dstatus, &j->dcounter, &n, &epoch};
        if ((r = c->event_record(ev[0], NULL)) ||
            (r = c->launch(f, grid, 1, 1, (unsigned)ls, 1, 1, 0, NULL, args, NULL)) ||
            (r = c->event_record(ev[1], NULL)) || (r = c->event_sync(ev[1])))
            return fail(c, "the launch", r);
        if (i >= 0) c->elapsed(&t[i], ev[0], ev[1]);
    }
    qsort(t, (size_t)j->runs, sizeof *t, cmp_float);
    double us = t[j->runs / 2] * 1e3;
    printf("    median %.1f us over %d runs (%.1f GB/s at 8 B/element)", us, j->runs, 8.0 * (double)j->n / us * 1e-3);
    free(t);
    if (!j->check) return printf("\n"), 0;
    uint32_t *got = malloc(j->n * 4);
    if (!got || (r = c->dtoh(got, j->dout, j->n * 4))) return got ? fail(c, "reading the output", r) : 1;
    size_t bad = j->n;
    for (size_t i = 0; i < j->n && bad == j->n; i++)
        if (got[i] != j->expected[i]) bad = i;
    if (bad < j->n) printf("; WRONG at %zu: %u, expected %u\n", bad, got[bad], j->expected[bad]);
    else printf("; output ok\n");
    free(got);
    return bad < j->n;
}

int main(int argc, char **argv)
{
    int help = argc >= 2 && !strcmp(argv[1], "--help");
    if (argc < 3 || help) {
        fprintf(help ? stdout : stderr, "usage: ptxrun FILE.ptx KERNEL [ELEMENTS [RUNS [check]]]\n"
               "Loads FILE.ptx (saved by scan-anatomy --ptx on NVIDIA), prints KERNEL's registers, shared\n"
               "memory and resident groups per SM, and times it on ELEMENTS (default 67108864) random\n"
               "uint32, RUNS times (default 10); 'check' compares the output with the CPU's exclusive scan.\n");
        return help ? 0 : 64;
    }
    cuda c = {0};
    job j = {.n = argc > 3 ? strtoull(argv[3], NULL, 10) : 64u << 20, .runs = argc > 4 ? atoi(argv[4]) : 10,
             .check = argc > 5 && !strcmp(argv[5], "check")};
    if (j.n == 0 || j.n > (1u << 30) || j.runs < 1) {
        fprintf(stderr, "ptxrun: ELEMENTS must be 1 to 1073741824 and RUNS at least 1\n");
        return 64;
    }
    char *ptx = read_text(argv[1]);
    if (!ptx) return fprintf(stderr, "ptxrun: cannot read %s\n", argv[1]), 66;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* its lines in order with the errors */
    if (open_cuda(&c)) return 69;
    handle ctx, mod;
    int dev;
    CUresult r;
    char log[8192] = "";
    int opts[] = {5, 6};   /* CU_JIT_ERROR_LOG_BUFFER, its size */
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    if ((r = c.init(0)) || (r = c.device_get(&dev, 0)) || (r = c.ctx_retain(&ctx, dev)) || (r = c.ctx_set(ctx)))
        return fail(&c, "opening the device", r);
    if ((r = c.load(&mod, ptx, 2, opts, vals))) {
        fprintf(stderr, "%s\n", log);
        return fail(&c, "loading the PTX", r);
    }
    if (make_job(&c, &j)) return 70;
    return run_kernel(&c, mod, argv[1], ptx, argv[2], &j);
}
