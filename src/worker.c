/* worker — the code that runs in a worker process: opens the device, builds
 * and times the learner's kernel, and writes raw results for the parent. */
#define _DEFAULT_SOURCE
#include "worker.h"
#include "sandbox.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUILD_LIMIT_S 120.0
#define SETUP_LIMIT_S 60.0

static void put_device(int fd, const clh_device *d) {
    engine_device ed;
    memset(&ed, 0, sizeof ed);
    snprintf(ed.name, sizeof ed.name, "%s", d->name);
    snprintf(ed.platform, sizeof ed.platform, "%s", d->platform);
    snprintf(ed.type, sizeof ed.type, "%s", d->type);
    snprintf(ed.version, sizeof ed.version, "%s", d->version);
    snprintf(ed.driver, sizeof ed.driver, "%s", d->driver);
    ed.index = d->index;
    blob_put(fd, W_DEVICE, &ed, sizeof ed);
}

/* Records what the OpenCL API says about each of the chapter's kernels
 * (local memory, argument address spaces), before any of them runs. */
static void put_kernel_info(int fd, clh_ctx *ctx, cl_program prog, const lesson *l) {
    for (int i = 0; i < l->n_kernels; i++) {
        char err[256];
        cl_kernel k = clh_kernel(prog, l->kernels[i], l->n_kernels == 1, err, sizeof err);
        if (!k) continue;
        engine_kernel_info ki;
        memset(&ki, 0, sizeof ki);
        snprintf(ki.name, sizeof ki.name, "%s", l->kernels[i]);
        cl_ulong lm = 0, pm = 0;
        if (clGetKernelWorkGroupInfo(k, ctx->dev.device_id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL) == CL_SUCCESS)
            ki.local_mem = (long long)lm;
        if (clGetKernelWorkGroupInfo(k, ctx->dev.device_id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL) == CL_SUCCESS)
            ki.private_mem = (long long)pm;
        cl_uint na = 0;
        clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
        ki.n_args = (int)na;
        ki.arg_info = 1;
        for (cl_uint a = 0; a < na && a < ENGINE_MAX_KARGS; a++) {
            cl_kernel_arg_address_qualifier q = 0;
            if (clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, NULL) != CL_SUCCESS) {
                ki.arg_info = 0;
                break;
            }
            ki.arg_space[a] = q == CL_KERNEL_ARG_ADDRESS_GLOBAL ? 'g' : q == CL_KERNEL_ARG_ADDRESS_CONSTANT ? 'c'
                            : q == CL_KERNEL_ARG_ADDRESS_LOCAL ? 'l' : 'p';
            clGetKernelArgInfo(k, a, CL_KERNEL_ARG_NAME, sizeof ki.arg_name[a], ki.arg_name[a], NULL);
            ki.arg_name[a][sizeof ki.arg_name[a] - 1] = '\0';
        }
        clReleaseKernel(k);
        blob_put(fd, W_KINFO, &ki, sizeof ki);
    }
}

static int finish(int fd, engine_status st, const char *msg) {
    int s = (int)st;
    if (msg && *msg) blob_put_str(fd, W_MESSAGE, msg);
    blob_put(fd, W_STATUS, &s, sizeof s);
    return 0;
}

int worker_list_devices(void *arg, int fd, int pfd) {
    (void)arg;
    sandbox_phase(pfd, "devices", 60);
    clh_device *devs = NULL;
    char err[512] = "";
    int n = clh_list(&devs, err, sizeof err);
    if (n < 0) return finish(fd, ENG_NO_DEVICE, err);
    for (int i = 0; i < n; i++) put_device(fd, &devs[i]);
    free(devs);
    return finish(fd, ENG_PASS, NULL);
}

int worker_run_kernel(void *arg, int fd, int pfd) {
    const engine_request *rq = arg;
    const lesson *l = rq->lesson;
    const problem_ops *ops = problem_find(l->problem);
    char err[1024] = "";
    if (!ops) return finish(fd, ENG_USAGE, "unknown problem");

    sandbox_phase(pfd, "device", SETUP_LIMIT_S);
    for (const char *const *env = rq->worker_env; env && *env; env++) {
        const char *eq = strchr(*env, '=');
        if (!eq) continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *env), *env);
        setenv(name, eq + 1, 1);
    }
    clh_ctx ctx;
    int rc = clh_open(&ctx, rq->device_spec, err, sizeof err);
    if (rc != CLH_OK) return finish(fd, rc == CLH_BAD_SPEC ? ENG_USAGE : ENG_NO_DEVICE, err);
    put_device(fd, &ctx.dev);

    char *source = util_read_file(rq->kernel_path, NULL);
    if (!source) {
        snprintf(err, sizeof err, "%s: cannot read the kernel file", rq->display_path);
        return finish(fd, ENG_USAGE, err);
    }
    sandbox_phase(pfd, "build", BUILD_LIMIT_S);
    char options[512];
    problem_build_options(l, options, sizeof options);
    size_t used = strlen(options);
    snprintf(options + used, sizeof options - used, " -cl-kernel-arg-info");
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(&ctx, source, options, &prog, &log);
    free(source);
    if (log) blob_put_str(fd, W_BUILDLOG, log);
    free(log);
    if (e != CL_SUCCESS) {
        snprintf(err, sizeof err, "clBuildProgram: %s", clh_error_name(e));
        return finish(fd, ENG_BUILD, err);
    }
    put_kernel_info(fd, &ctx, prog, l);

    sandbox_phase(pfd, "setup", SETUP_LIMIT_S);
    prob_size size;
    if (problem_parse_size(ops, rq->size_spec, &size, err, sizeof err) != 0) return finish(fd, ENG_USAGE, err);
    prob_instance *pi = ops->create(l, &size, rq->seed, err, sizeof err);
    if (!pi) return finish(fd, ENG_RUNTIME, err);
    if (ops->dev_setup(pi, &ctx, prog, err, sizeof err) != 0) {
        /* a missing kernel or a wrong argument list is the learner's to fix, like a build error */
        engine_status st = strstr(err, "kernel") || strstr(err, "argument") ? ENG_BUILD : ENG_RUNTIME;
        return finish(fd, st, err);
    }
    sandbox_phase(pfd, "run", rq->timeout_s);
    double ms = 0, t0 = util_now();
    if (ops->dev_launch(pi, &ctx, &ms, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err);
    size_t out_len = ops->output_bytes(pi);
    void *out = malloc(out_len ? out_len : 1);
    if (!out || ops->dev_read(pi, &ctx, out, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err);
    blob_put(fd, W_OUTPUT, out, out_len);
    free(out);

    /* timing: repeat until the relative standard error is under 1%, the
     * budget is spent or a repeat would come near the time limit */
    int max_runs = rq->max_runs > 0 ? rq->max_runs : 1000;
    int min_runs = rq->min_runs > 0 ? rq->min_runs : 5;
    double *samples = calloc((size_t)max_runs, sizeof(double));
    int n = 0;
    double warm = util_now() - t0;
    if (samples && rq->budget_s > 0) {
        double start = util_now();
        while (n < max_runs) {
            double before = util_now();
            if (ops->dev_launch(pi, &ctx, &ms, err, sizeof err) != 0) {
                blob_put(fd, W_SAMPLES, samples, sizeof(double) * (size_t)n);
                return finish(fd, ENG_RUNTIME, err);
            }
            samples[n++] = ms;
            double now = util_now(), one = now - before;
            sandbox_progress(pfd, n, max_runs);
            if (n >= min_runs && stats_summarise(samples, n).rse < 0.01) break;
            if (n >= (min_runs < 3 ? min_runs : 3) && now - start > rq->budget_s) break; /* the UI asks for 2 */
            if (now - t0 + one + warm > 0.8 * rq->timeout_s) break;
        }
    }
    blob_put(fd, W_SAMPLES, samples, sizeof(double) * (size_t)n);
    free(samples);
    ops->dev_release(pi);
    ops->destroy(pi);
    clReleaseProgram(prog);
    clh_close(&ctx);
    return finish(fd, ENG_PASS, NULL);
}
