/* worker_build — the worker's build modes: WK_BUILD compiles many kernel
 * files in one process, each into a cache folder of its own, so that the
 * runtime's compiler and its built-in library load once, not once a file;
 * WK_BINARY compiles one and hands back the device compiler's binary. */
#define _GNU_SOURCE
#include "run/worker_build.h"
#include "run/worker.h"
#include "run/worker_cache.h"
#include "run/confine.h"
#include "run/sandbox.h"
#include "cl/clhost.h"
#include "problem/problem.h"
#include "base/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SETUP_LIMIT_S 60.0
#define BUILD_LIMIT_S 120.0

/* The runtime reads its cache folder's name once, when it starts: that name
 * is a link in the scratch folder, turned to each file's own folder before
 * the file builds. */
static int point_cache(const char *scratch, int index) {
    char link[PATH_MAX], next[PATH_MAX], target[32];
    snprintf(target, sizeof target, "cache.%d", index);
    if (util_pathf(link, sizeof link, "%s/cache", scratch) != 0 ||
        util_pathf(next, sizeof next, "%s/cache.next", scratch) != 0)
        return -1;
    unlink(next);
    return symlink(target, next) == 0 && rename(next, link) == 0 ? 0 : -1;
}

/* Whether the runtime wrote anything into file index's cache folder. */
static int kept_anything(const char *scratch, int index) {
    char dir[PATH_MAX];
    if (util_pathf(dir, sizeof dir, "%s/cache.%d", scratch, index) != 0) return 0;
    DIR *d = opendir(dir);
    int any = 0;
    for (struct dirent *e; d && !any && (e = readdir(d));) any = e->d_name[0] != '.' && strncmp(e->d_name, "tempfile_", 9);
    if (d) closedir(d);
    return any;
}

/* Confines the process as for a run (writes only into the scratch folder, a
 * tmpfs of its own where the kernel allows, no network) and makes a cache
 * folder per file in it. Returns 0, or -1 with err. */
static int confine_build(const wproto_request *wr, confine_state *cs, char *err, size_t errlen) {
    memset(cs, 0, sizeof *cs);
    confine_private_folder(cs, wr->scratch, WORKER_DISK_BYTES, WORKER_DISK_FILES);
    for (int i = 0; i < wr->n_sources; i++) {
        char dir[PATH_MAX];
        if (util_pathf(dir, sizeof dir, "%s/cache.%d", wr->scratch, i) != 0 || mkdir(dir, 0700) != 0) {
            util_errf(err, errlen, "cannot make the cache folder %s", dir);
            return -1;
        }
    }
    if (point_cache(wr->scratch, 0) != 0) {
        util_errf(err, errlen, "cannot link the cache folder in %s", wr->scratch);
        return -1;
    }
    wproto_apply_env(wr);
    const char *writable[] = {wr->scratch, NULL};
    if (confine_begin(cs, writable, err, errlen) != 0) return -1;
    char link[PATH_MAX];
    if (util_pathf(link, sizeof link, "%s/cache", wr->scratch) != 0 || chdir(wr->scratch) != 0) return -1;
    setenv("TMPDIR", wr->scratch, 1);
    setenv("POCL_CACHE_DIR", link, 1);
    setenv("CUDA_CACHE_PATH", link, 1);
    return confine_seccomp(cs, CONFINE_NETWORK, err, errlen);
}

void worker_build_options(const lesson *l, char *buf, size_t len) {
    problem_build_options(l, buf, len);
    size_t used = strlen(buf);
    snprintf(buf + used, len > used ? len - used : 0, " -cl-kernel-arg-info");
}

int worker_build(const wproto_request *wr, int fd, int pfd) {
    char err[1024] = "";
    confine_state cs;
    if (!wr->scratch || wr->n_sources <= 0) return -1;
    if (confine_build(wr, &cs, err, sizeof err) != 0) {
        blob_put_str(fd, W_MESSAGE, err);
        return -1;
    }
    sandbox_phase(pfd, PHASE_DEVICE, SETUP_LIMIT_S);
    clh_ctx ctx;
    if (clh_open(&ctx, wr->rq.device_spec, err, sizeof err) != CLH_OK) {
        blob_put_str(fd, W_MESSAGE, err);
        return -1;
    }
    for (int i = 0; i < wr->n_sources; i++) {
        sandbox_phase(pfd, PHASE_BUILD, BUILD_LIMIT_S);
        if (point_cache(wr->scratch, i) != 0) break;
        cl_program prog = NULL;
        char *log = NULL;
        cl_int e = clh_build(&ctx, wr->sources[i], wr->options[i], &prog, &log);
        free(log);
        if (prog) clReleaseProgram(prog);
        int32_t built[2] = {i, e};
        blob_put(fd, W_BUILT, built, sizeof built);
        if (e == CL_SUCCESS && !kept_anything(wr->scratch, i)) break; /* a runtime without a program cache */
    }
    clh_close(&ctx);
    for (int i = 0; i < wr->n_sources; i++) {
        char dir[PATH_MAX], index[16];
        long long bytes = WORKER_CACHE_BYTES;
        int files = WORKER_CACHE_FILES;
        snprintf(index, sizeof index, "%d", i);
        if (util_pathf(dir, sizeof dir, "%s/cache.%d", wr->scratch, i) == 0)
            worker_cache_send(fd, dir, index, &bytes, &files, 0);
    }
    return 0;
}

/* NVIDIA's compiler prints its register count (ptxas) into the build log with this option. */
static int is_nvidia(const clh_device *d) { return strstr(d->platform, "NVIDIA") != NULL; }

int worker_binary(const wproto_request *wr, int fd, int pfd) {
    char err[1024] = "";
    confine_state cs;
    if (!wr->scratch || wr->n_sources != 1) return -1;
    if (confine_build(wr, &cs, err, sizeof err) != 0) {
        blob_put_str(fd, W_MESSAGE, err);
        return -1;
    }
    sandbox_phase(pfd, PHASE_DEVICE, SETUP_LIMIT_S);
    clh_ctx ctx;
    int found = clh_open(&ctx, wr->rq.device_spec, err, sizeof err);
    if (found != CLH_OK) {
        if (found == CLH_BAD_SPEC) blob_put(fd, W_BADSPEC, "", 0);
        blob_put_str(fd, W_MESSAGE, err);
        return -1;
    }
    worker_put_device(fd, &ctx.dev);
    char options[1200];
    snprintf(options, sizeof options, "%s%s", wr->options[0], is_nvidia(&ctx.dev) ? " -cl-nv-verbose" : "");
    sandbox_phase(pfd, PHASE_BUILD, BUILD_LIMIT_S);
    cl_program prog = NULL;
    char *log = NULL;
    cl_int e = clh_build(&ctx, wr->sources[0], options, &prog, &log);
    if (log) blob_put_str(fd, W_BUILDLOG, log);
    free(log);
    int32_t built[2] = {0, e};
    blob_put(fd, W_BUILT, built, sizeof built);
    size_t size = 0;
    if (prog && e == CL_SUCCESS &&
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) == CL_SUCCESS && size > 0 &&
        size <= WORKER_BINARY_BYTES) {
        unsigned char *bin = malloc(size), *bins[1] = {bin};
        if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
            blob_put(fd, W_BINARY, bin, size);
        free(bin);
    }
    if (prog) clReleaseProgram(prog);
    clh_close(&ctx);
    return 0;
}
