/* aggregate: chapter 2's global atomic vote against votes aggregated first,
 * by the sub-group or by the work-group, on random descriptors and on
 * descriptors that all vote for one bin.
 *
 *   aggregate [--device TEXT] [--size NxC[xF]] [--runs K]
 *
 * Chapter 2's section "Sub-groups: one atomic for many votes" quotes it
 * (bench/lessons/aggregate.sh builds and runs it). For each device it
 * first prints what the device says about sub-groups: its version, its
 * extension list (cl_khr_subgroups), CL_DEVICE_MAX_NUM_SUB_GROUPS and the
 * OpenCL C feature __opencl_c_subgroups (OpenCL 2.1 and 3.0 queries),
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of chapter 2's kernel, and,
 * where a sub-group kernel builds, the sub-group size a work-group of 64
 * reports from inside a kernel. Then it times the votes, each kernel in
 * work-groups of 64 as the course runs chapter 2:
 *   atomic (chapter 2)  kernels/02-atomic/histogram.cl, read from the
 *                       checkout: one atomic_inc per work-item;
 *   sub-group           where the device offers sub-groups
 *                       (cl_khr_subgroups, or OpenCL 3.0's feature
 *                       __opencl_c_subgroups): the sub-group picks its
 *                       lowest work-item with a vote not yet added
 *                       (sub_group_reduce_min), broadcasts that one's bin
 *                       (sub_group_broadcast), counts the votes for it
 *                       (sub_group_reduce_add), and that work-item, the
 *                       leader, adds the count with one atomic_add; again
 *                       while any vote is left (sub_group_any): one
 *                       atomic per distinct bin of the sub-group;
 *   warp (PTX)          on NVIDIA's OpenCL only, which offers no sub-groups
 *                       but compiles inline PTX: the lanes of a warp with
 *                       the same bin find each other with match.any.sync
 *                       (NVIDIA Volta and later), and the lowest of them
 *                       adds their number; skipped where it does not build;
 *   work-group (local)  everywhere (OpenCL 1.2): each work-item writes its
 *                       bin to local memory, a barrier, then each counts
 *                       the group's votes for its bin; the lowest
 *                       work-item with that bin adds the count: one atomic
 *                       per distinct bin of the group of 64.
 * The aggregated kernels search for the nearest centroid with the same
 * loop as chapter 2's, line for line; only the vote differs. The same
 * votes are then timed alone: each work-item reads its descriptor's
 * nearest centroid (the host's answer) from a buffer and votes, so that the
 * atomics are the whole kernel.
 * Two inputs: "random", descriptors around all the centroids (the course's
 * random input), and "one bin", all of them around centroid 0 (its
 * onebin): every vote for one address. Time: the median of K launches
 * after 2 warm-ups, by the profiling event, the kernels of an input taking
 * turns (each once a round); the histogram is cleared before each launch
 * and every one of them is read back and checked against the host's answer (near ties either way; the votes alone exactly). "global
 * atomics" is counted by a build of each kernel that also counts the
 * atomics it issues (-DCOUNT, one untimed launch). Size: 262144x256x64 on a
 * GPU and 16384x256x64 on a CPU unless --size sets one for every device
 * (chapter 2's bench_size and bench_size_cpu). Exits 1 if a histogram or a
 * count is wrong.
 *
 * Built with -DAGGREGATE_PLANT=1, every leader adds one vote too many: a
 * check that the checks catch a wrong count (tests/cli/t0117). */
#include "clbench.h"
#include "surf.h"

#ifndef AGGREGATE_PLANT
#define AGGREGATE_PLANT 0
#endif

/* OpenCL 2.1 and 3.0 queries, by number: clbench.h targets OpenCL 1.2 */
#define Q_MAX_NUM_SUB_GROUPS 0x105C      /* CL_DEVICE_MAX_NUM_SUB_GROUPS (2.1) */
#define Q_OPENCL_C_FEATURES 0x106F       /* CL_DEVICE_OPENCL_C_FEATURES (3.0) */

#define LS 64 /* work-items per group, chapter 2's local_size */

static int failures;

static const char *kernel_source =
    "#ifndef PLANT\n"
    "#define PLANT 0\n"
    "#endif\n"
    "#ifdef COUNT\n"
    "#define ISSUED() atomic_inc(issued)\n"
    "#else\n"
    "#define ISSUED() ((void)0)\n"
    "#endif\n"
    "\n"
    "/* Chapter 2's search for the nearest centroid, line for line. */\n"
    "int nearest_centroid(__global const float *descriptors, __global const float *centroids, int d,\n"
    "                     int n_centroids, int n_features)\n"
    "{\n"
    "    int nearest = 0;\n"
    "    float best = FLT_MAX;\n"
    "    for (int c = 0; c < n_centroids; c++) {\n"
    "        float dist = 0.0f;\n"
    "        for (int k = 0; k < n_features; k++) {\n"
    "            float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];\n"
    "            dist += diff * diff;\n"
    "        }\n"
    "        if (dist < best) {\n"
    "            best = dist;\n"
    "            nearest = c;\n"
    "        }\n"
    "    }\n"
    "    return nearest;\n"
    "}\n"
    "\n"
    "/* The votes: bin < 0 is no vote (a work-item past the last descriptor).\n"
    " * Every work-item of the group calls them: no early return. */\n"
    "\n"
    "/* The group's votes in local memory; the lowest work-item of each bin adds its count. */\n"
    "void vote_local(__global int *histogram, __local int *votes, int bin, __global uint *issued)\n"
    "{\n"
    "    const int lid = get_local_id(0);\n"
    "    votes[lid] = bin;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (bin < 0)\n"
    "        return;\n"
    "    int count = 0, leader = 1;\n"
    "    for (int i = 0; i < LS; i++) {\n"
    "        const int same = votes[i] == bin;\n"
    "        count += same;\n"
    "        leader &= !(same && i < lid);\n"
    "    }\n"
    "    if (leader) {\n"
    "        atomic_add(&histogram[bin], count + PLANT);\n"
    "        ISSUED();\n"
    "    }\n"
    "}\n"
    "\n"
    "#ifdef SUBGROUPS\n"
    "#ifdef cl_khr_subgroups\n"
    "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
    "#endif\n"
    "/* One atomic per distinct bin of the sub-group, added by its lowest work-item. */\n"
    "void vote_subgroup(__global int *histogram, int bin, __global uint *issued)\n"
    "{\n"
    "    const uint lane = get_sub_group_local_id();\n"
    "    int pending = bin >= 0;\n"
    "    while (sub_group_any(pending)) {\n"
    "        const uint leader = sub_group_reduce_min(pending ? lane : UINT_MAX);\n"
    "        const int b = sub_group_broadcast(bin, leader);\n"
    "        const int mine = pending && bin == b;\n"
    "        const int count = sub_group_reduce_add(mine);\n"
    "        if (lane == leader) {\n"
    "            atomic_add(&histogram[b], count + PLANT);\n"
    "            ISSUED();\n"
    "        }\n"
    "        if (mine)\n"
    "            pending = 0;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void probe(__global uint *out)\n"
    "{\n"
    "    if (get_global_id(0) == 0) {\n"
    "        out[0] = get_sub_group_size();\n"
    "        out[1] = get_max_sub_group_size();\n"
    "        out[2] = get_num_sub_groups();\n"
    "    }\n"
    "}\n"
    "#define VOTE(bin) vote_subgroup(histogram, bin, issued)\n"
    "#elif defined(PTX)\n"
    "/* NVIDIA only: the lanes of the warp holding the same bin, by match.any.sync (Volta and later). */\n"
    "void vote_warp(__global int *histogram, int bin, __global uint *issued)\n"
    "{\n"
    "    uint same, lane;\n"
    "    asm volatile(\"match.any.sync.b32 %0, %1, 0xffffffff;\" : \"=r\"(same) : \"r\"(bin));\n"
    "    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
    "    if (bin >= 0 && lane == 31 - clz(same & (0u - same))) {\n"
    "        atomic_add(&histogram[bin], (int)popcount(same) + PLANT);\n"
    "        ISSUED();\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void probe(__global uint *out)\n"
    "{\n"
    "    uint warp;\n"
    "    asm(\"mov.u32 %0, WARP_SZ;\" : \"=r\"(warp));\n"
    "    if (get_global_id(0) == 0)\n"
    "        out[0] = out[1] = warp, out[2] = (get_local_size(0) + warp - 1) / warp;\n"
    "}\n"
    "#define VOTE(bin) vote_warp(histogram, bin, issued)\n"
    "#else\n"
    "#define VOTE(bin) vote_local(histogram, votes, bin, issued)\n"
    "#endif\n"
    "\n"
    "/* The whole kernel: chapter 2's search, then the vote. */\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void histogram(__global const float *descriptors, __global const float *centroids, __global int *histogram,\n"
    "               int n_descriptors, int n_centroids, int n_features, __global uint *issued)\n"
    "{\n"
    "    __local int votes[LS];\n"
    "    const int d = get_global_id(0);\n"
    "    VOTE(d < n_descriptors ? nearest_centroid(descriptors, centroids, d, n_centroids, n_features) : -1);\n"
    "}\n"
    "\n"
    "/* The vote alone: each descriptor's nearest centroid read from a buffer. */\n"
    "__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))\n"
    "void votes(__global const int *nearest, __global int *histogram, int n, __global uint *issued)\n"
    "{\n"
    "    __local int votes[LS];\n"
    "    const int d = get_global_id(0);\n"
    "#ifdef ATOMIC\n"
    "    if (d < n)\n"
    "        atomic_inc(&histogram[nearest[d]]);\n"
    "#else\n"
    "    VOTE(d < n ? nearest[d] : -1);\n"
    "#endif\n"
    "}\n";

enum { V_ATOMIC, V_SUBGROUP, V_WARP, V_LOCAL, N_VOTES };
static const char *const vote_names[N_VOTES] = {"atomic (chapter 2)", "sub-group", "warp (PTX match.any)",
                                                "work-group (local)"};
static const char *const vote_defines[N_VOTES] = {"-DATOMIC", "-DSUBGROUPS", "-DPTX", ""};

/* The program of vote v built with extra options (and -cl-std=std when std
 * is not empty), or NULL and its log in log when it does not build. */
static cl_program build_quiet(cl_context ctx, cl_device_id d, int v, const char *std, int count, char *log,
                              size_t size) {
    char opts[256];
    cl_int err;
    snprintf(opts, sizeof opts, "-DLS=%d -DPLANT=%d %s%s%s%s", LS, AGGREGATE_PLANT, vote_defines[v],
             count ? " -DCOUNT" : "", *std ? " -cl-std=" : "", std);
    cl_program p = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
    cb_check(err, "clCreateProgramWithSource");
    if (clBuildProgram(p, 1, &d, opts, NULL, NULL) == CL_SUCCESS) return p;
    log[0] = 0;
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    log[size - 1] = 0;
    clReleaseProgram(p);
    return NULL;
}

/* The first line of text, at most 160 characters, for a one-line report. */
static void first_line(const char *text, char *out, size_t size) {
    while (*text == '\n' || *text == ' ') text++;
    size_t i = 0;
    while (text[i] && text[i] != '\n' && i + 1 < size && i < 160) out[i] = text[i], i++;
    out[i] = 0;
}

/* Prints the words of list, wrapped at 100 columns after an indent. */
static void print_wrapped(const char *list) {
    char word[256];
    int col = 4;
    printf("    ");
    for (const char *s = list; *s;) {
        while (*s == ' ') s++;
        size_t n = 0;
        while (s[n] && s[n] != ' ' && n + 1 < sizeof word) word[n] = s[n], n++;
        word[n] = 0;
        s += n;
        if (!n) break;
        if (col > 4 && col + 1 + (int)n > 100) printf("\n    "), col = 4;
        printf("%s%s", col > 4 ? " " : "", word);
        col += (col > 4) + (int)n;
    }
    printf("\n");
}

/* What the device says about sub-groups; returns whether it offers them. */
static int print_subgroup_queries(cl_device_id d, char *cstd, size_t cstd_size) {
    char version[256] = "", cversion[256] = "", *ext;
    size_t len = 0;
    clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof version, version, NULL);
    clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_VERSION, sizeof cversion, cversion, NULL);
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len);
    ext = calloc(len + 1, 1);
    if (!ext) exit(1);
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, ext, NULL);
    printf("  CL_DEVICE_VERSION: %s\n  CL_DEVICE_OPENCL_C_VERSION: %s\n  CL_DEVICE_EXTENSIONS:\n", version, cversion);
    print_wrapped(ext);
    const int khr = strstr(ext, "cl_khr_subgroups") != NULL;
    printf("  cl_khr_subgroups in the list: %s\n", khr ? "yes" : "no");
    free(ext);

    int major = 0, minor = 0;
    sscanf(version, "OpenCL %d.%d", &major, &minor);
    cl_uint max_sub = 0;
    cl_int err = clGetDeviceInfo(d, Q_MAX_NUM_SUB_GROUPS, sizeof max_sub, &max_sub, NULL);
    if (err == CL_SUCCESS) printf("  CL_DEVICE_MAX_NUM_SUB_GROUPS: %u\n", max_sub);
    else printf("  CL_DEVICE_MAX_NUM_SUB_GROUPS: not answered (OpenCL error %d)\n", (int)err);

    int feature = 0;
    size_t flen = 0;
    if (clGetDeviceInfo(d, Q_OPENCL_C_FEATURES, 0, NULL, &flen) == CL_SUCCESS && flen > 0) {
        struct { cl_uint version; char name[64]; } *f = malloc(flen);
        if (!f) exit(1);
        clGetDeviceInfo(d, Q_OPENCL_C_FEATURES, flen, f, NULL);
        for (size_t i = 0; i < flen / sizeof *f; i++) feature |= !strcmp(f[i].name, "__opencl_c_subgroups");
        free(f);
        printf("  __opencl_c_subgroups in CL_DEVICE_OPENCL_C_FEATURES: %s\n", feature ? "yes" : "no");
    } else {
        printf("  CL_DEVICE_OPENCL_C_FEATURES: not answered (not an OpenCL 3.0 device)\n");
    }
    /* the OpenCL C to build the sub-group kernel as: the extension needs no
     * -cl-std; the 3.0 feature needs -cl-std=CL3.0; 2.x's core needs CL2.0 */
    int cmajor = 0, cminor = 0;
    sscanf(cversion, "OpenCL C %d.%d", &cmajor, &cminor);
    snprintf(cstd, cstd_size, "%s", khr ? "" : feature ? "CL3.0" : cmajor >= 2 ? "CL2.0" : "");
    return khr || feature || (max_sub > 0 && cmajor >= 2);
}

typedef struct {
    surf p;            /* the problem and its answer */
    cl_mem desc, best; /* its descriptors (row-major) and the host's nearest centroid of each */
    uint32_t *exact;   /* the histogram of best[]: what the votes alone must give */
} input;

static const char *const input_names[2] = {"random", "one bin"};

static void fmt_time(double ns, char *out, size_t size) {
    if (ns >= 1e6) snprintf(out, size, "%.3f ms", ns / 1e6);
    else snprintf(out, size, "%.1f us", ns / 1e3);
}

/* Launches k once over the histogram cleared, reads the histogram back;
 * returns the kernel's time in ns and whether the histogram is wrong in *wrong. */
static double launch_checked(cl_command_queue q, cl_kernel k, cl_mem hist, size_t global, const input *in, int alone,
                             uint32_t *h, int *wrong) {
    const size_t hbytes = sizeof(cl_uint) * (size_t)in->p.c;
    const cl_uint zero = 0;
    cb_check(clEnqueueFillBuffer(q, hist, &zero, sizeof zero, 0, hbytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    const double ns = cb_launch(q, k, global, LS);
    cb_check(clEnqueueReadBuffer(q, hist, CL_TRUE, 0, hbytes, h, 0, NULL, NULL), "clEnqueueReadBuffer");
    *wrong = alone ? memcmp(h, in->exact, hbytes) != 0 : !surf_check(&in->p, h);
    return ns;
}

/* The atomics kernel k issues on input in: one launch of its -DCOUNT build. */
static cl_uint count_issued(cl_command_queue q, cl_kernel k, cl_mem hist, cl_mem issued, size_t global,
                            const input *in) {
    const cl_uint zero = 0;
    cl_uint n = 0;
    cb_check(clEnqueueFillBuffer(q, hist, &zero, sizeof zero, 0, sizeof(cl_uint) * (size_t)in->p.c, 0, NULL, NULL),
             "clEnqueueFillBuffer");
    cb_check(clEnqueueFillBuffer(q, issued, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL), "clEnqueueFillBuffer");
    cb_launch(q, k, global, LS);
    cb_check(clEnqueueReadBuffer(q, issued, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL), "clEnqueueReadBuffer");
    return n;
}

static void set_whole_args(cl_kernel k, const input *in, cl_mem cent, cl_mem hist, cl_mem issued, int extra) {
    const cl_int n = (cl_int)in->p.n, c = (cl_int)in->p.c, f = (cl_int)in->p.f;
    cb_check(clSetKernelArg(k, 0, sizeof in->desc, &in->desc), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 1, sizeof cent, &cent), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 2, sizeof hist, &hist), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 3, sizeof n, &n), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 4, sizeof c, &c), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 5, sizeof f, &f), "clSetKernelArg");
    if (extra) cb_check(clSetKernelArg(k, 6, sizeof issued, &issued), "clSetKernelArg");
}

static void set_alone_args(cl_kernel k, const input *in, cl_mem hist, cl_mem issued) {
    const cl_int n = (cl_int)in->p.n;
    cb_check(clSetKernelArg(k, 0, sizeof in->best, &in->best), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 1, sizeof hist, &hist), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 2, sizeof n, &n), "clSetKernelArg");
    cb_check(clSetKernelArg(k, 3, sizeof issued, &issued), "clSetKernelArg");
}

static cl_kernel make_kernel(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    cb_check(err, "clCreateKernel");
    return k;
}

static void run_device(cl_device_id d, int runs, const char *size_arg, input *in) {
    char desc[1024], cstd[16];
    cl_device_type type = 0;
    cl_platform_id plat;
    char pname[256] = "";
    cb_describe(d, desc, sizeof desc);
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    const int gpu = (type & CL_DEVICE_TYPE_GPU) != 0, nvidia = cb_contains(pname, "NVIDIA");
    printf("device: %s\n", desc);
    const int offers = print_subgroup_queries(d, cstd, sizeof cstd);
    fflush(stdout);

    long n, c, f;
    surf_parse_size(size_arg ? size_arg : gpu ? "262144x256x64" : "16384x256x64", &n, &c, &f);
    for (int i = 0; i < 2; i++) {
        if (in[i].p.n == n && in[i].p.c == c && in[i].p.f == f) continue;
        surf_free(&in[i].p);
        free(in[i].exact);
        surf_make_homes(&in[i].p, n, c, f, i ? 1 : c);
        in[i].exact = calloc((size_t)c, sizeof *in[i].exact);
        if (!in[i].exact) exit(1);
        for (long j = 0; j < n; j++) in[i].exact[in[i].p.best[j]]++;
    }
    const size_t global = ((size_t)n + LS - 1) / LS * LS;

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cb_check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    cb_check(err, "clCreateCommandQueue");
    cl_mem cent = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * (size_t)(c * f),
                                 in[0].p.centroids, &err);
    cb_check(err, "clCreateBuffer");
    cl_mem hist = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint) * (size_t)c, NULL, &err);
    cb_check(err, "clCreateBuffer");
    cl_mem issued = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    cb_check(err, "clCreateBuffer");
    for (int i = 0; i < 2; i++) {
        in[i].desc = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * (size_t)(n * f),
                                    in[i].p.rowmajor, &err);
        cb_check(err, "clCreateBuffer");
        in[i].best = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cl_int) * (size_t)n,
                                    in[i].p.best, &err);
        cb_check(err, "clCreateBuffer");
    }

    /* the programs: [v][0] timed, [v][1] counting; NULL where v does not build or apply */
    cl_program prog[N_VOTES][2] = {{NULL}};
    char log[16384], line[200];
    for (int v = 0; v < N_VOTES; v++) {
        const char *std = v == V_SUBGROUP ? cstd : "";
        if (v == V_SUBGROUP && !offers) {
            printf("  %s: not offered by this device, not run\n", vote_names[v]);
            continue;
        }
        if (v == V_WARP && !nvidia) continue;
        for (int count = 0; count < (v == V_ATOMIC ? 1 : 2); count++) {
            prog[v][count] = build_quiet(ctx, d, v, std, count, log, sizeof log);
            if (!prog[v][count]) {
                first_line(log, line, sizeof line);
                printf("  %s: does not build here (%s), not run\n", vote_names[v], line);
                if (count) clReleaseProgram(prog[v][0]), prog[v][0] = NULL;
                break;
            }
        }
        if (v == V_SUBGROUP && !prog[v][0]) failures++; /* offered, so it must build */
        if ((v == V_SUBGROUP || v == V_WARP) && prog[v][0]) {
            cl_uint probe[3] = {0};
            cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof probe, NULL, &err);
            cb_check(err, "clCreateBuffer");
            cl_kernel k = make_kernel(prog[v][0], "probe");
            cb_check(clSetKernelArg(k, 0, sizeof out, &out), "clSetKernelArg");
            cb_launch(q, k, LS, LS);
            cb_check(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof probe, probe, 0, NULL, NULL), "read");
            if (v == V_SUBGROUP)
                printf("  in a work-group of %d: get_sub_group_size() %u, get_max_sub_group_size() %u, "
                       "get_num_sub_groups() %u%s%s\n", LS, probe[0], probe[1], probe[2],
                       *cstd ? ", built with -cl-std=" : "", cstd);
            else
                printf("  inline PTX: WARP_SZ %u, %u warps in a work-group of %d\n", probe[0], probe[2], LS);
            clReleaseKernel(k);
            clReleaseMemObject(out);
        }
    }
    char *src2 = surf_read_kernel("kernels/02-atomic/histogram.cl");
    cl_program chapter = cb_build(ctx, d, src2, "-DLOCAL_SIZE=64");
    free(src2);
    if (!chapter) exit(1);
    cl_kernel k2 = make_kernel(chapter, "histogram");
    size_t multiple = 0;
    clGetKernelWorkGroupInfo(k2, d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple, &multiple, NULL);
    printf("  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of chapter 2's kernel: %zu\n", multiple);
    printf("problem: %ld descriptors x %ld centroids x %ld features, in work-groups of %d; one bin: all around "
           "centroid 0\n", n, c, f, LS);
    fflush(stdout);

    for (int alone = 0; alone < 2; alone++) {
        printf("%s\n  %-8s %-22s %14s %12s %10s  %s\n",
               alone ? "the votes alone (each work-item's nearest centroid read from a buffer):"
                     : "the whole kernel (chapter 2's search for the nearest centroid, then the vote):",
               "input", "vote", "global atomics", "time", "vs atomic", "check");
        for (int i = 0; i < 2; i++) {
            /* the kernels of this input and section: [v] timed, counting, or NULL */
            cl_kernel k[N_VOTES] = {NULL}, kc[N_VOTES] = {NULL};
            cl_uint atomics[N_VOTES] = {0};
            for (int v = 0; v < N_VOTES; v++) {
                if (v == V_ATOMIC && !alone) {
                    k[v] = k2;
                    set_whole_args(k2, &in[i], cent, hist, issued, 0);
                } else if (prog[v][0] && v == V_ATOMIC) {
                    k[v] = make_kernel(prog[v][0], "votes");
                    set_alone_args(k[v], &in[i], hist, issued);
                } else if (prog[v][0]) {
                    k[v] = make_kernel(prog[v][0], alone ? "votes" : "histogram");
                    kc[v] = make_kernel(prog[v][1], alone ? "votes" : "histogram");
                    if (alone) set_alone_args(k[v], &in[i], hist, issued), set_alone_args(kc[v], &in[i], hist, issued);
                    else set_whole_args(k[v], &in[i], cent, hist, issued, 1),
                         set_whole_args(kc[v], &in[i], cent, hist, issued, 1);
                }
                /* the atomics issued: chapter 2's one per descriptor; the others counted */
                if (k[v]) atomics[v] = kc[v] ? count_issued(q, kc[v], hist, issued, global, &in[i]) : (cl_uint)n;
            }
            /* round after round, each kernel once a round, so that a load
             * that comes and goes on the machine falls on all of them alike */
            double *t = malloc(sizeof *t * (size_t)(N_VOTES * runs));
            uint32_t *h = malloc(sizeof *h * (size_t)c);
            int wrong[N_VOTES] = {0};
            if (!t || !h) exit(1);
            for (int r = -2; r < runs; r++)
                for (int v = 0; v < N_VOTES; v++) {
                    if (!k[v]) continue;
                    int w = 0;
                    const double ns = launch_checked(q, k[v], hist, global, &in[i], alone, h, &w);
                    wrong[v] += w;
                    if (r >= 0) t[v * runs + r] = ns;
                }
            double base = 0;
            for (int v = 0; v < N_VOTES; v++) {
                if (!k[v]) continue;
                const double ns = cb_median(&t[v * runs], runs);
                if (v == V_ATOMIC) base = ns;
                /* a count no aggregation could give: more atomics than votes, or none */
                const int bad_count = atomics[v] == 0 || atomics[v] > (cl_uint)n;
                failures += (wrong[v] > 0) + bad_count;
                char tbuf[32], rbuf[32] = "-", cbuf[64];
                fmt_time(ns, tbuf, sizeof tbuf);
                if (base > 0) snprintf(rbuf, sizeof rbuf, "%.2f", ns / base);
                if (wrong[v]) snprintf(cbuf, sizeof cbuf, "WRONG (%d of %d histograms)", wrong[v], runs + 2);
                else snprintf(cbuf, sizeof cbuf, "%s", bad_count ? "WRONG (atomics counted)" : "ok");
                printf("  %-8s %-22s %14u %12s %10s  %s\n", input_names[i],
                       v == V_ATOMIC && alone ? "atomic" : vote_names[v], atomics[v], tbuf, rbuf, cbuf);
                if (k[v] != k2) clReleaseKernel(k[v]);
                if (kc[v]) clReleaseKernel(kc[v]);
            }
            fflush(stdout);
            free(t);
            free(h);
        }
    }

    clReleaseKernel(k2);
    clReleaseProgram(chapter);
    for (int v = 0; v < N_VOTES; v++)
        for (int count = 0; count < 2; count++)
            if (prog[v][count]) clReleaseProgram(prog[v][count]);
    for (int i = 0; i < 2; i++) clReleaseMemObject(in[i].desc), clReleaseMemObject(in[i].best);
    clReleaseMemObject(cent);
    clReleaseMemObject(hist);
    clReleaseMemObject(issued);
    clReleaseCommandQueue(q);
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
    cl_device_id devs[CB_MAX_DEVICES];
    int nd = cb_devices(devs, CB_MAX_DEVICES, filter);
    if (nd == 0) {
        fprintf(stderr, "%s: no OpenCL device%s%s\n", argv[0], filter ? " matches " : "", filter ? filter : "");
        return 1;
    }
    printf("time: the median of %d launches after 2 warm-ups, by the profiling event, the kernels of an input taking "
           "turns, the histogram cleared before each; every histogram read back and checked; vs atomic: over chapter 2's kernel on the same input%s\n",
           runs, AGGREGATE_PLANT ? "\nbuilt with AGGREGATE_PLANT: every leader adds one vote too many" : "");
    input in[2];
    memset(in, 0, sizeof in);
    for (int i = 0; i < nd; i++) {
        printf("\n");
        run_device(devs[i], runs, size_arg, in);
    }
    for (int i = 0; i < 2; i++) surf_free(&in[i].p), free(in[i].exact);
    if (failures) fprintf(stderr, "%s: %d check%s failed\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
