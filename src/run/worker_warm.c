/* worker_warm — a worker started before its request: confined first, then
 * the device opened and a small kernel built and launched. */
#define _GNU_SOURCE
#include "run/worker_warm.h"
#include "run/sandbox.h"
#include "run/worker.h"
#include "base/util.h"
#include "text/i18n.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Builds and launches one small kernel: the runtime loads its compiler,
 * its kernel library and (PoCL) its code generator and linker. */
static void warm_kernel(clh_ctx *ctx) {
    static const char *const source = "kernel void warm(global uint *a) { a[get_global_id(0)] += 1u; }";
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(ctx, source, "", &prog, &log);
    free(log);
    if (e != CL_SUCCESS) return;
    cl_kernel k = clCreateKernel(prog, "warm", &e);
    cl_mem buf = e == CL_SUCCESS ? clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 64 * sizeof(cl_uint), NULL, &e) : NULL;
    size_t global = 64, local = 64;
    if (buf && clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS &&
        clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS)
        clFinish(ctx->queue);
    if (buf) clReleaseMemObject(buf);
    if (k) clReleaseKernel(k);
    clReleaseProgram(prog);
}

int worker_warm_up(worker_warm *w, const char *scratch, const char *spec, char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    snprintf(w->spec, sizeof w->spec, "%s", spec ? spec : "");
    char cache[PATH_MAX] = "";
    if (confine_private_folder(&w->cs, scratch, WORKER_DISK_BYTES, WORKER_DISK_FILES) &&
        (util_pathf(cache, sizeof cache, "%s/cache", scratch) != 0 || mkdir(cache, 0700) != 0))
        cache[0] = '\0';
    const char *writable[] = {scratch, cache[0] ? cache : NULL, NULL};
    if (confine_begin(&w->cs, writable, err, errlen) != 0) return -1;
    setenv("TMPDIR", scratch, 1);
    if (chdir(scratch) != 0) { /* the runtime's relative paths stay where they were */ }
    /* the runtime reads its cache folder once, as it starts: the run's
     * compiled kernels go there and back to the parent (worker_cache_send) */
    setenv("POCL_CACHE_DIR", cache[0] ? cache : scratch, 1);
    setenv("CUDA_CACHE_PATH", cache[0] ? cache : scratch, 1);
    char why[512];
    w->device_open = clh_open(&w->ctx, w->spec[0] ? w->spec : NULL, why, sizeof why) == CLH_OK;
    if (w->device_open) warm_kernel(&w->ctx);
    if (cache[0]) { /* what the small kernel left is no part of the learner's */
        util_remove_tree(cache);
        if (mkdir(cache, 0700) != 0) { /* the run's compiled kernels then stay in the worker */ }
    }
    return 0;
}

int worker_warm_wait(void) {
    char go;
    ssize_t r;
    while ((r = read(SANDBOX_FD_CONTROL, &go, 1)) < 0 && errno == EINTR) {}
    return r == 1 ? 0 : -1;
}

int worker_warm_check(const char *scratch, const wproto_request *wr, char *err, size_t errlen) {
    if (wr->kind == WK_RUN && (!wr->env || !wr->env[0]) && !wr->writable && wr->scratch &&
        !strcmp(wr->scratch, scratch))
        return 0;
    util_errf(err, errlen, "%s", _("a worker started ahead got a request it cannot serve"));
    return -1;
}

void worker_warm_limits(const wproto_request *wr) {
    struct rusage ru;
    long used = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0) used = (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1;
    sandbox_limits lim = {.cpu_s = wr->rq.cpu_limit_s > 0 ? used + wr->rq.cpu_limit_s : 0,
                          .memory_mb = wr->rq.memory_limit_mb, .result_max_bytes = wr->result_max};
    sandbox_set_limits(&lim);
}
