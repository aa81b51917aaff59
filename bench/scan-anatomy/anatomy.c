/* scan-anatomy — times kernels/08-scan/lookback.cl in parts (a ladder from a
 * plain copy to the full kernel) and says how many of its work-groups fit on
 * one multiprocessor. README.md beside this file says what each rung is. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_TRIES 32

typedef enum { BETWEEN_NOTHING, BETWEEN_READ, BETWEEN_SLEEP } between_mode;

typedef struct {
    size_t elements;
    int runs, warmup, grid, big_copy;
    between_mode between;
    int sleep_ms;
    const char *rungs;    /* the letters of the rungs a to e to run */
    const char *kernel, *anatomy, *device, *ptx_dir, *ptxas, *arch;
    const char *tries[MAX_TRIES];
    int ntries;
} options;

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int nvidia;
    cl_mem in, out, status, counter;
    size_t status_words;
    uint32_t *expected, *got;
    double copy_us;
} bench;

typedef struct {          /* one rung: a file built with options */
    const char *label, *file;
    char slug[48];        /* its PTX file's name */
    char opts[512];
    int checked;          /* the output must equal the CPU scan */
} rung;

typedef struct {          /* what the compiler says one work-group needs */
    int regs, smem, spill, known;
} footprint;

static const char *const copy_source =
    "__kernel void copy(__global const uint *in, __global uint *out, __global ulong *status,\n"
    "                   __global uint *counter, uint n, uint epoch)\n"
    "{\n"
    "    const size_t i = get_global_id(0);\n"
    "    if (4 * i + 4 <= n)\n"
    "        ((__global uint4 *)out)[i] = ((__global const uint4 *)in)[i];\n"
    "    else\n"
    "        for (size_t k = 4 * i; k < n; k++) out[k] = in[k];\n"
    "}\n"
    "__kernel void block_size(__global uint *size) { size[0] = 4; }\n";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: scan-anatomy [options]\n"
            "Times the single-pass look-back scan in parts on 32-bit random input.\n"
            "  --elements N     elements to scan (default 67108864, the chapter's bench size)\n"
            "  --runs N         timed runs per rung, the median printed (default 30)\n"
            "  --warmup N       untimed runs first (default 5)\n"
            "  --kernel FILE    the course's kernel (default kernels/08-scan/lookback.cl)\n"
            "  --anatomy FILE   its copy with the ANATOMY stages\n"
            "                   (default bench/scan-anatomy/lookback-anatomy.cl)\n"
            "  --device TEXT    the first device whose name or platform contains TEXT\n"
            "                   (default: the first GPU, else the first device)\n"
            "  --rungs LETTERS  only these of the rungs a b c d e (default all, and e')\n"
            "  --between MODE   between two launches: 'nothing' (the default: back to back),\n"
            "                   'read' (the output read back to the host, as cltutor run does)\n"
            "                   or 'sleep:MS' (the device left idle MS milliseconds)\n"
            "  --big-copy       also the copy on 1 GiB, as cltutor bench measures the copy rate\n"
            "  --grid           also LOCAL_SIZE 128..1024 x ELEMENTS 16..64 of rungs b and e\n"
            "  --try FILE:OPTS  one more rung: FILE built with OPTS (checked unless OPTS\n"
            "                   holds -DANATOMY=1, 2 or 3); may be given %d times\n"
            "  --ptx DIR        write each program's binary (PTX on NVIDIA) as DIR/N.ptx\n"
            "  --ptxas PATH     run PATH -arch=ARCH -v on each PTX for its registers and\n"
            "                   shared memory (needs --ptx)\n"
            "  --arch ARCH      for ptxas (default sm_90)\n"
            "  --help           this text\n",
            MAX_TRIES);
}

static int parse_count(const char *name, const char *v, long min, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v ? v : "", &end, 10);
    if (!v || errno || *end || end == v || x < min) {
        fprintf(stderr, "scan-anatomy: %s needs a whole number of at least %ld, not '%s'\n", name, min,
                v ? v : "");
        return -1;
    }
    *out = x;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){.elements = 64u << 20, .runs = 30, .warmup = 5, .arch = "sm_90", .rungs = "abcde'",
                   .kernel = "kernels/08-scan/lookback.cl",
                   .anatomy = "bench/scan-anatomy/lookback-anatomy.cl"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--grid") || !strcmp(a, "--big-copy")) {
            *(a[2] == 'g' ? &o->grid : &o->big_copy) = 1;
            continue;
        } else if (!strcmp(a, "--rungs")) {
            if (!v || !*v || strspn(v, "abcde") != strlen(v)) {
                fprintf(stderr, "scan-anatomy: --rungs takes letters among a b c d e, not '%s'\n", v ? v : "");
                return -1;
            }
            o->rungs = v;
        } else if (!strcmp(a, "--between")) {
            long ms = 0;
            if (v && !strcmp(v, "nothing")) o->between = BETWEEN_NOTHING;
            else if (v && !strcmp(v, "read")) o->between = BETWEEN_READ;
            else if (v && !strncmp(v, "sleep:", 6) && !parse_count("--between sleep:", v + 6, 1, &ms) && ms <= 10000)
                o->between = BETWEEN_SLEEP, o->sleep_ms = (int)ms;
            else {
                fprintf(stderr, "scan-anatomy: --between takes nothing, read or sleep:MS (1 to 10000), not '%s'\n",
                        v ? v : "");
                return -1;
            }
        } else if (!strcmp(a, "--elements")) {
            if (parse_count(a, v, 1, &x) || x > 1L << 30) {
                fprintf(stderr, "scan-anatomy: --elements takes 1 to 1073741824\n");
                return -1;
            }
            o->elements = (size_t)x;
        } else if (!strcmp(a, "--runs") || !strcmp(a, "--warmup")) {
            if (parse_count(a, v, a[2] == 'r' ? 1 : 0, &x)) return -1;
            *(a[2] == 'r' ? &o->runs : &o->warmup) = (int)(x > 100000 ? 100000 : x);
        } else if (!strcmp(a, "--try")) {
            if (!v || !strchr(v, ':') || o->ntries == MAX_TRIES) {
                fprintf(stderr, "scan-anatomy: --try needs FILE:OPTS, at most %d times\n", MAX_TRIES);
                return -1;
            }
            o->tries[o->ntries++] = v;
        } else if (!strcmp(a, "--kernel") || !strcmp(a, "--anatomy") || !strcmp(a, "--device") ||
                   !strcmp(a, "--ptx") || !strcmp(a, "--ptxas") || !strcmp(a, "--arch")) {
            if (!v) {
                fprintf(stderr, "scan-anatomy: %s needs a value\n", a);
                return -1;
            }
            const char **slot = !strcmp(a, "--kernel") ? &o->kernel : !strcmp(a, "--anatomy") ? &o->anatomy
                                : !strcmp(a, "--device") ? &o->device : !strcmp(a, "--ptx") ? &o->ptx_dir
                                : !strcmp(a, "--ptxas") ? &o->ptxas : &o->arch;
            *slot = v;
        } else {
            fprintf(stderr, "scan-anatomy: unknown option '%s' (see --help)\n", a);
            return -1;
        }
        i++;
    }
    if (o->ptxas && !o->ptx_dir) {
        fprintf(stderr, "scan-anatomy: --ptxas needs --ptx DIR to write the PTX into\n");
        return -1;
    }
    return 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "scan-anatomy: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, got;
    char *s = malloc(cap + 1);
    while (s && (got = fread(s + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) s = realloc(s, (cap *= 2) + 1);
    }
    fclose(f);
    if (s) s[len] = 0;
    return s;
}

static void info_string(cl_device_id d, cl_platform_id p, cl_uint what, char *buf, size_t len)
{
    buf[0] = 0;
    if (p) clGetPlatformInfo(p, what, len, buf, NULL);
    else clGetDeviceInfo(d, what, len, buf, NULL);
}

/* The first device matching o->device, else the first GPU, else the first device. */
static int open_device(const options *o, bench *b)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "scan-anatomy: no OpenCL platform (is an ICD registered?)\n");
        return -1;
    }
    int best = 0;   /* 3 matches the text, 2 a GPU, 1 any */
    for (cl_uint p = 0; p < np && np <= 16; p++) {
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd && d < 16; d++) {
            char name[256], pname[256];
            cl_device_type type = 0;
            info_string(devs[d], NULL, CL_DEVICE_NAME, name, sizeof name);
            info_string(NULL, plats[p], CL_PLATFORM_NAME, pname, sizeof pname);
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            int score = o->device ? (strstr(name, o->device) || strstr(pname, o->device) ? 3 : 0)
                                  : (type & CL_DEVICE_TYPE_GPU ? 2 : 1);
            if (score > best) {
                best = score;
                b->platform = plats[p];
                b->device = devs[d];
            }
        }
    }
    if (!best) {
        fprintf(stderr, "scan-anatomy: no device has '%s' in its name or platform\n", o->device);
        return -1;
    }
    cl_int e;
    b->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &e);
    if (e == CL_SUCCESS)
        b->queue = clCreateCommandQueue(b->context, b->device, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "scan-anatomy: cannot open the device (OpenCL error %d)\n", e);
        return -1;
    }
    char pname[256];
    info_string(NULL, b->platform, CL_PLATFORM_NAME, pname, sizeof pname);
    b->nvidia = strstr(pname, "NVIDIA") != NULL;
    return 0;
}

static void print_device(const bench *b)
{
    char name[256], pname[256], driver[256], version[256];
    cl_uint cus = 0;
    info_string(b->device, NULL, CL_DEVICE_NAME, name, sizeof name);
    info_string(NULL, b->platform, CL_PLATFORM_NAME, pname, sizeof pname);
    info_string(b->device, NULL, CL_DRIVER_VERSION, driver, sizeof driver);
    info_string(b->device, NULL, CL_DEVICE_VERSION, version, sizeof version);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    printf("device: %s (%s; %s; driver %s; %u compute units)\n", name, pname, version, driver, cus);
}

/* xorshift64*: random 32-bit input; the expected output is its exclusive scan */
static int make_data(const options *o, bench *b)
{
    size_t n = o->elements;
    uint32_t *in = malloc(n * 4);
    b->expected = malloc(n * 4);
    b->got = malloc(n * 4);
    if (!in || !b->expected || !b->got) {
        fprintf(stderr, "scan-anatomy: not enough host memory for %zu elements\n", n);
        return -1;
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        in[i] = (uint32_t)((x * 0x2545f4914f6cdd1du) >> 32);
        b->expected[i] = run;
        run += in[i];
    }
    b->status_words = n / 2048 + 2;   /* tiles of the smallest BLOCK (128 x 16) */
    cl_int e1, e2, e3, e4;
    b->in = clCreateBuffer(b->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in, &e1);
    b->out = clCreateBuffer(b->context, CL_MEM_READ_WRITE, n * 4, NULL, &e2);
    b->status = clCreateBuffer(b->context, CL_MEM_READ_WRITE, b->status_words * 8, NULL, &e3);
    b->counter = clCreateBuffer(b->context, CL_MEM_READ_WRITE, 4, NULL, &e4);
    free(in);
    if (e1 || e2 || e3 || e4) {
        fprintf(stderr, "scan-anatomy: cannot make the device buffers (OpenCL error %d)\n",
                e1 ? e1 : e2 ? e2 : e3 ? e3 : e4);
        return -1;
    }
    return 0;
}

/* Registers, shared memory and spills of `kernel` from ptxas -v text (ptxas's
 * own output, or NVIDIA's build log with -cl-nv-verbose). */
static footprint parse_ptxas(const char *text, const char *kernel)
{
    footprint f = {0};
    int mine = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *q = strstr(line, "entry function '");
        const char *eol = strchr(line, '\n');
        if (q && (!eol || q < eol)) {
            q += strlen("entry function '");
            mine = !strncmp(q, kernel, strlen(kernel)) && q[strlen(kernel)] == '\'';
            continue;
        }
        if (!mine) continue;
        const char *s = strstr(line, "bytes spill stores");
        if (s && (!eol || s < eol)) {
            while (s > line && s[-1] == ' ') s--;
            while (s > line && s[-1] >= '0' && s[-1] <= '9') s--;
            f.spill = atoi(s);
        }
        const char *u = strstr(line, "Used ");
        if (u && (!eol || u < eol)) {
            f.regs = atoi(u + 5);
            f.known = 1;
            const char *m = strstr(line, " bytes smem");
            if (m && (!eol || m < eol)) {
                while (m > line && m[-1] >= '0' && m[-1] <= '9') m--;
                f.smem = atoi(m);
            }
            mine = 0;
        }
    }
    return f;
}

/* Work-groups of local_size work-items that one Hopper SM holds: 65536
 * registers (allocated 256 a warp, a quarter to each of the 4 schedulers),
 * 228 KiB shared (1 KiB of it reserved per group, 128-byte units), 64 warps,
 * 32 groups. Writes what limits it into *why. */
static int groups_per_sm(footprint f, int local_size, const char **why)
{
    int warps = (local_size + 31) / 32;
    int best = 32;
    *why = "32 groups";
    if (64 / warps < best) best = 64 / warps, *why = "64 warps";
    if (f.regs > 0) {
        int per_warp = (f.regs * 32 + 255) / 256 * 256;
        int by_regs = 16384 / per_warp * 4 / warps;
        if (by_regs < best) best = by_regs, *why = "registers";
    }
    int per_group = (f.smem + 1024 + 127) / 128 * 128;
    if (233472 / per_group < best) best = 233472 / per_group, *why = "shared memory";
    return best;
}

static void save_ptx(const options *o, const bench *b, cl_program prog, int index, const rung *r, char *path,
                     size_t len)
{
    path[0] = 0;
    size_t size = 0;
    if (!o->ptx_dir || clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) || !size)
        return;
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    if (bin && !clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL)) {
        while (size > 0 && bin[size - 1] == 0) size--;   /* NVIDIA's PTX ends in NULs, which ptxas refuses */
        mkdir(o->ptx_dir, 0755);
        snprintf(path, len, "%s/%02d-%s.%s", o->ptx_dir, index, r->slug, b->nvidia ? "ptx" : "bin");
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bin, 1, size, f) != size) {
            fprintf(stderr, "scan-anatomy: cannot write %s\n", path);
            path[0] = 0;
        }
        if (f) fclose(f);
    }
    free(bin);
}

static footprint run_ptxas(const options *o, const char *ptx, const char *kernel)
{
    footprint f = {0};
    char cmd[2048], buf[4096];
    if (!o->ptxas || !ptx[0] || !strstr(ptx, ".ptx")) return f;   /* PTX only: NVIDIA */
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s -v '%s' -o /dev/null 2>&1", o->ptxas, o->arch, ptx);
    FILE *p = popen(cmd, "r");
    if (!p) return f;
    size_t len = fread(buf, 1, sizeof buf - 1, p);
    buf[len] = 0;
    pclose(p);
    f = parse_ptxas(buf, kernel);
    if (!f.known) printf("    ptxas said: %.300s\n", buf);
    return f;
}

static cl_program build(const bench *b, const char *source, const char *opts, const char *label, char **log)
{
    cl_int e;
    char full[640];
    snprintf(full, sizeof full, "%s%s", opts, b->nvidia ? " -cl-nv-verbose" : "");
    cl_program prog = clCreateProgramWithSource(b->context, 1, &source, NULL, &e);
    if (e != CL_SUCCESS) return NULL;
    e = clBuildProgram(prog, 1, &b->device, full, NULL, NULL);
    size_t len = 0;
    clGetProgramBuildInfo(prog, b->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    *log = calloc(len + 1, 1);
    if (*log) clGetProgramBuildInfo(prog, b->device, CL_PROGRAM_BUILD_LOG, len, *log, NULL);
    if (e != CL_SUCCESS) {
        printf("  %-26s did not build with '%s' (OpenCL error %d): %.400s\n", label, opts, e, *log ? *log : "");
        clReleaseProgram(prog);
        return NULL;
    }
    return prog;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return a < c ? -1 : a > c;
}

/* Warm-up launches, then o->runs timed ones; their times in us into t[]. */
static cl_int time_launches(const options *o, bench *b, cl_kernel k, size_t global, size_t local, double *t)
{
    cl_ulong zero = 0;
    cl_int e = clEnqueueFillBuffer(b->queue, b->status, &zero, 8, 0, b->status_words * 8, 0, NULL, NULL);
    if (!e) e = clEnqueueFillBuffer(b->queue, b->counter, &zero, 4, 0, 4, 0, NULL, NULL);
    cl_uint stale = 0xdeadbeefu;   /* no rung passes on an earlier rung's output */
    if (!e) e = clEnqueueFillBuffer(b->queue, b->out, &stale, 4, 0, o->elements * 4, 0, NULL, NULL);
    cl_uint n = (cl_uint)o->elements;
    if (!e) e = clSetKernelArg(k, 0, sizeof(cl_mem), &b->in);
    if (!e) e = clSetKernelArg(k, 1, sizeof(cl_mem), &b->out);
    if (!e) e = clSetKernelArg(k, 2, sizeof(cl_mem), &b->status);
    if (!e) e = clSetKernelArg(k, 3, sizeof(cl_mem), &b->counter);
    if (!e) e = clSetKernelArg(k, 4, sizeof n, &n);
    for (int i = 0; !e && i < o->warmup + o->runs; i++) {
        cl_uint epoch = (cl_uint)i + 1;
        cl_event ev;
        e = clSetKernelArg(k, 5, sizeof epoch, &epoch);
        if (!e) e = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (!e) e = clWaitForEvents(1, &ev);
        if (!e && o->between == BETWEEN_READ)
            e = clEnqueueReadBuffer(b->queue, b->out, CL_TRUE, 0, o->elements * 4, b->got, 0, NULL, NULL);
        if (!e && o->between == BETWEEN_SLEEP) {
            struct timespec ts = {o->sleep_ms / 1000, (long)(o->sleep_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        if (e) break;
        cl_ulong s = 0, f = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof f, &f, NULL);
        clReleaseEvent(ev);
        if (i >= o->warmup) t[i - o->warmup] = (double)(f - s) * 1e-3;
    }
    return e;
}

/* The tile size from the program's block_size kernel, the work-group size
 * from the kernel's reqd_work_group_size. */
static cl_int shape(bench *b, cl_program prog, cl_kernel k, size_t *block, size_t *local)
{
    cl_int e;
    cl_kernel bs = clCreateKernel(prog, "block_size", &e);
    cl_uint v = 0;
    if (!e) e = clSetKernelArg(bs, 0, sizeof(cl_mem), &b->counter);
    size_t one = 1;
    if (!e) e = clEnqueueNDRangeKernel(b->queue, bs, 1, NULL, &one, &one, 0, NULL, NULL);
    if (!e) e = clEnqueueReadBuffer(b->queue, b->counter, CL_TRUE, 0, 4, &v, 0, NULL, NULL);
    if (bs) clReleaseKernel(bs);
    size_t wg[3] = {0};
    if (!e) e = clGetKernelWorkGroupInfo(k, b->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL);
    *block = v;
    *local = wg[0] ? wg[0] : 256;
    return e ? e : v ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* Whether the output equals the CPU's exclusive scan; says where not. */
static int check(const options *o, bench *b, char *note, size_t len)
{
    if (clEnqueueReadBuffer(b->queue, b->out, CL_TRUE, 0, o->elements * 4, b->got, 0, NULL, NULL)) {
        snprintf(note, len, "could not read the output");
        return 0;
    }
    for (size_t i = 0; i < o->elements; i++)
        if (b->got[i] != b->expected[i]) {
            snprintf(note, len, "WRONG at %zu: %u, expected %u", i, b->got[i], b->expected[i]);
            return 0;
        }
    snprintf(note, len, "output ok");
    return 1;
}

/* Builds, times and (where r->checked) checks one rung; prints its line.
 * Returns 0, or 1 where a checked rung failed. */
static int run_rung(const options *o, bench *b, int index, rung *r)
{
    char *src = r->file ? read_file(r->file) : strdup(copy_source), *log = NULL;
    if (!src) return 1;
    cl_program prog = build(b, src, r->opts, r->label, &log);
    free(src);
    if (!prog) {
        free(log);
        return r->checked;
    }
    const char *kname = r->file ? "scan_lookback" : "copy";
    cl_int e;
    cl_kernel k = clCreateKernel(prog, kname, &e);
    size_t block = 4, local = 256, global;
    if (!e && r->file) e = shape(b, prog, k, &block, &local);
    size_t tiles = (o->elements + block - 1) / block;
    if (!e && r->file && tiles > b->status_words) e = CL_INVALID_BUFFER_SIZE;
    global = r->file ? tiles * local : (o->elements + 4 * local - 1) / (4 * local) * local;
    double *t = calloc((size_t)o->runs, sizeof *t);
    if (!e) e = t ? time_launches(o, b, k, global, local, t) : CL_OUT_OF_HOST_MEMORY;
    char note[160] = "";
    int bad = 0;
    if (!e && r->checked) bad = !check(o, b, note, sizeof note);
    else if (!e && r->file) snprintf(note, sizeof note, "timing only");
    char ptx[1024];
    save_ptx(o, b, prog, index, r, ptx, sizeof ptx);
    footprint jit = parse_ptxas(log ? log : "", kname), pf = run_ptxas(o, ptx, kname);
    footprint f = pf.known ? pf : jit;
    if (e) {
        printf("  %-26s LS %4zu EL %3zu  failed: OpenCL error %d\n", r->label, local, block / local, e);
        bad = r->checked;
    } else {
        qsort(t, (size_t)o->runs, sizeof *t, cmp_double);
        double med = t[o->runs / 2], gbs = 8.0 * (double)o->elements / (med * 1e-6) * 1e-9;
        if (!r->file) b->copy_us = med;
        char share[16] = "     -";
        if (b->copy_us > 0) snprintf(share, sizeof share, "%5.1f%%", 100.0 * b->copy_us / med);
        printf("  %-26s LS %4zu EL %3zu  %8.1f us (%.1f-%.1f)  %7.1f GB/s  %s", r->label, local,
               r->file ? block / local : 4, med, t[0], t[o->runs - 1], gbs, share);
        if (f.known) {
            const char *why;
            int g = groups_per_sm(f, (int)local, &why);
            printf("  %3d regs %6d B smem %4d B spill  %2d groups/SM = %2d warps (%s)", f.regs, f.smem, f.spill, g,
                   g * (int)((local + 31) / 32), why);
        }
        printf("  %s\n", note);
    }
    if (jit.known && pf.known && (jit.regs != pf.regs || jit.smem != pf.smem))
        printf("    the driver's own compile: %d regs, %d B smem, %d B spill\n", jit.regs, jit.smem, jit.spill);
    fflush(stdout);
    free(t);
    free(log);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    return bad;
}

/* The copy on 1 GiB, 15 runs after one warm-up, back to back: how cltutor
 * bench measures the device's copy rate. */
static void big_copy(bench *b)
{
    const size_t bytes = (size_t)1 << 30;
    cl_ulong mem = 0;
    clGetDeviceInfo(b->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    uint64_t *host = mem >= 4 * (cl_ulong)bytes ? malloc(bytes) : NULL;
    if (!host) {
        printf("  a' copy of 1 GiB: skipped (the device or the host has too little memory)\n");
        return;
    }
    uint64_t x = 12345;
    for (size_t i = 0; i < bytes / 8; i++) x ^= x >> 12, x ^= x << 25, x ^= x >> 27, host[i] = x * 0x2545f4914f6cdd1du;
    cl_int e1, e2, e;
    cl_mem src = clCreateBuffer(b->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, &e1);
    cl_mem dst = clCreateBuffer(b->context, CL_MEM_WRITE_ONLY, bytes, NULL, &e2);
    free(host);
    const char *source = copy_source;
    cl_program prog = clCreateProgramWithSource(b->context, 1, &source, NULL, &e);
    if (!e) e = clBuildProgram(prog, 1, &b->device, "", NULL, NULL);
    cl_kernel k = e ? NULL : clCreateKernel(prog, "copy", &e);
    cl_uint n = (cl_uint)(bytes / 4);
    if (!e) e = e1 ? e1 : e2;
    if (!e) e = clSetKernelArg(k, 0, sizeof src, &src);
    if (!e) e = clSetKernelArg(k, 1, sizeof dst, &dst);
    for (int i = 2; !e && i < 4; i++) e = clSetKernelArg(k, (cl_uint)i, sizeof src, &src);
    if (!e) e = clSetKernelArg(k, 4, sizeof n, &n);
    if (!e) e = clSetKernelArg(k, 5, sizeof n, &n);
    double t[15];
    size_t global = bytes / 16, local = 256;
    for (int i = -1; !e && i < 15; i++) {
        cl_event ev;
        cl_ulong s0 = 0, s1 = 0;
        e = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (!e) e = clWaitForEvents(1, &ev);
        if (e) break;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s0, &s0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof s1, &s1, NULL);
        clReleaseEvent(ev);
        if (i >= 0) t[i] = (double)(s1 - s0) * 1e-3;
    }
    if (e) printf("  a' copy of 1 GiB: failed (OpenCL error %d)\n", e);
    else {
        qsort(t, 15, sizeof t[0], cmp_double);
        printf("  %-26s 1 GiB (15 runs)  %8.1f us (%.1f-%.1f)  %7.1f GB/s  (counting its own 2 GiB)\n",
               "a' copy, as cltutor bench", t[7], t[0], t[14], 2.0 * (double)bytes / (t[7] * 1e-6) * 1e-9);
    }
    fflush(stdout);
    if (k) clReleaseKernel(k);
    if (prog) clReleaseProgram(prog);
    if (src) clReleaseMemObject(src);
    if (dst) clReleaseMemObject(dst);
}

static rung make_rung(const char *label, const char *slug, const char *file, const char *opts, int checked)
{
    rung r = {.label = label, .file = file, .checked = checked};
    snprintf(r.slug, sizeof r.slug, "%s", slug);
    snprintf(r.opts, sizeof r.opts, "%s", opts);
    return r;
}

/* The rungs a to e, the grid, then the --try rungs (last: one of them may
 * never end, where a kernel waits on a tile that no group is running). */
static int ladder(const options *o, bench *b)
{
    static char files[MAX_TRIES][512];
    rung rs[6 + 24 + MAX_TRIES];
    int nr = 0, bad = 0, grid_at, tries_at;
    if (strchr(o->rungs, 'a')) rs[nr++] = make_rung("a copy (uint4)", "a-copy", NULL, "", 0);
    if (strchr(o->rungs, 'b')) rs[nr++] = make_rung("b load+store", "b-loadstore", o->anatomy, "-DANATOMY=1", 0);
    if (strchr(o->rungs, 'c')) rs[nr++] = make_rung("c + in-tile scan", "c-tilescan", o->anatomy, "-DANATOMY=2", 0);
    if (strchr(o->rungs, 'd')) rs[nr++] = make_rung("d + publish status", "d-publish", o->anatomy, "-DANATOMY=3", 0);
    if (strchr(o->rungs, 'e')) rs[nr++] = make_rung("e full (course kernel)", "e-full", o->kernel, "", 1);
    if (strchr(o->rungs, '\'')) rs[nr++] = make_rung("e' full (anatomy copy)", "e-anatomy4", o->anatomy, "-DANATOMY=4", 1);
    grid_at = nr;
    for (int ls = 128; o->grid && ls <= 1024; ls *= 2)
        for (int el = 16; el <= 64; el *= 2)
            for (int full = 0; full < 2; full++) {
                char opts[96], slug[48];
                snprintf(opts, sizeof opts, "-DLOCAL_SIZE=%d -DELEMENTS=%d%s", ls, el, full ? "" : " -DANATOMY=1");
                snprintf(slug, sizeof slug, "grid-%c-%dx%d", full ? 'e' : 'b', ls, el);
                rs[nr++] = make_rung(full ? "e grid" : "b grid", slug, full ? o->kernel : o->anatomy, opts, full);
            }
    tries_at = nr;
    for (int i = 0; i < o->ntries; i++) {
        const char *colon = strchr(o->tries[i], ':');
        char slug[16];
        snprintf(files[i], sizeof files[i], "%.*s", (int)(colon - o->tries[i]), o->tries[i]);
        snprintf(slug, sizeof slug, "try%d", i + 1);
        rs[nr] = make_rung("try", slug, files[i], colon + 1, 1);
        rs[nr].checked = !strstr(colon, "ANATOMY=1") && !strstr(colon, "ANATOMY=2") && !strstr(colon, "ANATOMY=3");
        nr++;
    }
    printf("rung                          work-group  median (min-max)          at 8 B/element  of a   "
           "footprint and work-groups per SM (Hopper)\n");
    for (int i = 0; i < nr; i++) {
        if (i == grid_at && o->big_copy) big_copy(b);
        if (i == grid_at && o->grid) printf("grid (LOCAL_SIZE x ELEMENTS):\n");
        if (i == tries_at) printf("tries (--try FILE:OPTS):\n");
        if (i >= tries_at) printf("  try%d: %s %s\n", i - tries_at + 1, rs[i].file, rs[i].opts);
        bad |= run_rung(o, b, i, &rs[i]);
    }
    if (nr == grid_at && o->big_copy) big_copy(b);
    return bad;
}

int main(int argc, char **argv)
{
    options o;
    bench b = {0};
    if (parse_options(argc, argv, &o)) return 64;
    if (open_device(&o, &b)) return 69;
    print_device(&b);
    printf("elements: %zu random uint32 (%.1f MiB in, the same out); %d timed runs after %d warm-up, "
           "median of the OpenCL events; GB/s counts 8 bytes per element\n",
           o.elements, o.elements * 4.0 / (1 << 20), o.runs, o.warmup);
    printf("kernel: %s; its parts: %s\n", o.kernel, o.anatomy);
    if (o.between == BETWEEN_NOTHING) printf("between launches: nothing (back to back)\n");
    else if (o.between == BETWEEN_READ) printf("between launches: the output read back to the host (as cltutor run does)\n");
    else printf("between launches: the device left idle %d ms\n", o.sleep_ms);
    fflush(stdout);
    if (make_data(&o, &b)) return 70;
    int bad = ladder(&o, &b);
    printf(bad ? "result: a checked rung failed\n" : "result: every checked rung gave the CPU's scan\n");
    return bad;
}
