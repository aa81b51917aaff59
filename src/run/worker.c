/* worker — the code that runs in a worker process: opens the device, builds
 * and times the learner's kernel, and writes raw results for the parent. */
#define _GNU_SOURCE
#include "run/worker.h"
#include "run/worker_build.h"
#include "run/worker_cache.h"
#include "run/worker_warm.h"
#include "base/exitcode.h"
#include "run/confine.h"
#include "run/sandbox.h"
#include "run/gpulock.h"
#include "base/util.h"
#include "run/wproto.h"
#include "text/i18n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BUILD_LIMIT_S 120.0
#define SETUP_LIMIT_S 60.0

void worker_put_device(int fd, const clh_device *d) {
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

/* The end of a run whose device side failed: its kind travels as a record
 * of its own, for the engine to name it (never a sentence to search). */
static int finish_failure(int fd, prob_failure f, const char *msg) {
    int k = (int)f;
    blob_put(fd, W_FAILURE, &k, sizeof k);
    engine_status st;
    engine_failure_outcome(f, &st);
    return finish(fd, st, msg);
}

/* Before the runtime starts: Landlock (writes only to the scratch folder,
 * the kernel cache and the one folder the request names), no core files;
 * temporary files go to the scratch folder and compiled kernels to the
 * cache folder of this kernel's source. */
/* The cache folder the runtime uses inside the worker's own tmpfs, when it has one. */
static int own_cache(const wproto_request *wr, const confine_state *cs, char *buf, size_t len) {
    if (!cs->disk_bytes || !wr->cache || !wr->scratch) return 0;
    return util_pathf(buf, len, "%s/cache", wr->scratch) == 0;
}

static int confine_start(const wproto_request *wr, confine_state *cs, char *err, size_t errlen) {
    const char *writable[4];
    int n = 0;
    memset(cs, 0, sizeof *cs);
    /* one budget for every file it writes: its scratch folder becomes a tmpfs
     * of its own, and the runtime's compiled kernels go there (a copy of
     * this source's cache); the parent keeps what comes back (worker_cache_send) */
    char cache[PATH_MAX];
    snprintf(cache, sizeof cache, "%s", wr->cache ? wr->cache : "");
    if (wr->scratch && confine_private_folder(cs, wr->scratch, WORKER_DISK_BYTES, WORKER_DISK_FILES) &&
        own_cache(wr, cs, cache, sizeof cache) && mkdir(cache, 0700) == 0) {
        long long bytes = WORKER_CACHE_BYTES;
        int files = WORKER_CACHE_FILES;
        worker_cache_copy(wr->cache, cache, &bytes, &files, 0);
    }
    if (wr->scratch) writable[n++] = wr->scratch;
    if (cache[0]) writable[n++] = cache;
    if (wr->writable) writable[n++] = wr->writable;
    writable[n] = NULL;
    /* the request's variables first: Landlock lets the worker read what they name (OCL_ICD_VENDORS, ...) */
    wproto_apply_env(wr);
    if (confine_begin(cs, writable, err, errlen) != 0) return -1;
    if (wr->scratch) {
        setenv("TMPDIR", wr->scratch, 1);
        if (chdir(wr->scratch) != 0) { /* the runtime's relative paths stay where they were */ }
    }
    if (cache[0]) {
        setenv("POCL_CACHE_DIR", cache, 1);
        setenv("CUDA_CACHE_PATH", cache, 1);
    }
    return 0;
}

static void put_confinement(int fd, const confine_state *cs) {
    char how[512];
    confine_describe(cs, how, sizeof how);
    blob_put_str(fd, W_CONFINE, how);
}

/* The kernel times, output hashes and (small) outputs of the timed
 * launches, in pages of their own that are read-only while a kernel runs:
 * on a CPU device a kernel is native code in this process, and cannot
 * rewrite its times this way. */
typedef struct {
    double *samples;
    uint64_t *hashes;
    unsigned char *outputs;   /* each launch's output, where outputs are small (else NULL) */
    size_t bytes;
} ledger;

static int ledger_open(ledger *lg, int max_runs, size_t out_len) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t keep = out_len <= WORKER_KEEP_OUTPUT_BYTES ? out_len : 0;
    lg->bytes = ((sizeof(double) + sizeof(uint64_t) + keep) * (size_t)max_runs + page - 1) / page * page;
    void *p = mmap(NULL, lg->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    lg->samples = p;
    lg->hashes = (uint64_t *)(lg->samples + max_runs);
    lg->outputs = keep ? (unsigned char *)(lg->hashes + max_runs) : NULL;
    return 0;
}

static void ledger_seal(ledger *lg, int sealed) {
    mprotect(lg->samples, lg->bytes, sealed ? PROT_READ : PROT_READ | PROT_WRITE);
}

static void ledger_close(ledger *lg) { munmap(lg->samples, lg->bytes); }

/* Reads each input buffer back and records the ones that differ from their host copies. */
static int check_inputs(const problem_ops *ops, prob_instance *pi, clh_ctx *ctx, int fd, char *err, size_t errlen) {
    if (!ops->dev_inputs) return 0;
    prob_input in[PROB_MAX_INPUTS];
    int n = ops->dev_inputs(pi, in, PROB_MAX_INPUTS);
    for (int i = 0; i < n; i++) {
        unsigned char *back = malloc(in[i].bytes ? in[i].bytes : 1);
        if (!back) {
            util_errf(err, errlen, _("out of memory reading the input '%s' back"), in[i].name);
            return -1;
        }
        cl_int e = clEnqueueReadBuffer(ctx->queue, in[i].buf, CL_TRUE, 0, in[i].bytes, back, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            util_errf(err, errlen, _("reading the input '%s' back failed: %s"), in[i].name, clh_error_name(e));
            free(back);
            return -1;
        }
        if (memcmp(back, in[i].host, in[i].bytes) != 0) {
            worker_input_change c;
            memset(&c, 0, sizeof c);
            snprintf(c.name, sizeof c.name, "%s", in[i].name);
            c.bytes = in[i].bytes;
            const unsigned char *host = in[i].host;
            for (size_t b = in[i].bytes; b-- > 0;)
                if (back[b] != host[b]) {
                    c.differ++;
                    c.first = b;
                }
            blob_put(fd, W_INPUT, &c, sizeof c);
        }
        free(back);
    }
    return 0;
}

/* What timing a kernel needs: the size, the program, its device, the ledger of samples. */
typedef struct {
    const engine_request *rq;
    const problem_ops *ops;
    const prob_size *size;
    cl_program prog;
    clh_ctx *ctx;
    ledger *lg;
    void *out;
    size_t out_len;
    double t0, warm;      /* when the checked launch began, and how long until timing */
    int min_runs, max_runs;
} timing;

/* One timed launch on inputs of its own (problem_launch_seed): a fresh
 * instance, set up, launched, read back (outside its timed event) and
 * hashed into the ledger as sample n; small outputs are kept whole. */
static prob_failure timed_launch(timing *tm, int n, char *err, size_t errlen) {
    const engine_request *rq = tm->rq;
    prob_instance *pi = tm->ops->create(rq->lesson, tm->size, problem_launch_seed(rq->seed, n + 1), err, errlen);
    if (!pi) return PF_MEMORY;
    double ms = 0;
    prob_failure f = tm->ops->dev_setup(pi, tm->ctx, tm->prog, err, errlen);
    if (!f) {
        ledger_seal(tm->lg, 1);
        f = tm->ops->dev_launch(pi, tm->ctx, &ms, err, errlen);
        ledger_seal(tm->lg, 0);
    }
    if (!f) f = tm->ops->dev_read(pi, tm->ctx, tm->out, err, errlen);
    if (!f) {
        tm->lg->hashes[n] = util_hash64(tm->out, tm->out_len);
        if (tm->lg->outputs) memcpy(tm->lg->outputs + (size_t)n * tm->out_len, tm->out, tm->out_len);
        tm->lg->samples[n] = ms;
    }
    tm->ops->dev_release(pi);
    tm->ops->destroy(pi);
    return f;
}

/* Repeats the launch until the relative standard error is under 1%, the
 * budget is spent or a repeat would come near the time limit, after
 * waiting its turn for the device; every launch has inputs of its own, and
 * its output is read back and hashed. *n: the samples taken. */
static prob_failure time_launches(timing *tm, int pfd, int *n, char *err, size_t errlen) {
    const engine_request *rq = tm->rq;
    char key[128];
    double queued = util_now(); /* the device is timed by one run at a time (a lab's shared GPU) */
    gpulock_key(tm->ctx->dev.platform, tm->ctx->dev.name, key, sizeof key);
    if (!sandbox_gate(pfd, key)) return PF_OK; /* turned back (a wrong answer): no timing */
    double t0 = tm->t0 + (util_now() - queued), start = util_now();
    while (*n < tm->max_runs) {
        double before = util_now();
        prob_failure f = timed_launch(tm, *n, err, errlen);
        if (f) return f;
        (*n)++;
        double now = util_now(), one = now - before;
        sandbox_progress(pfd, *n, tm->max_runs);
        if (*n >= tm->min_runs && stats_summarise(tm->lg->samples, *n).rse < 0.01) break;
        if (*n >= (tm->min_runs < 3 ? tm->min_runs : 3) && now - start > rq->budget_s) break; /* the UI asks for 2 */
        if (now - t0 + one + tm->warm > 0.8 * rq->timeout_s) break;
    }
    return PF_OK;
}

/* The instances a series launches in turn: as many as ENGINE_SERIES_RING,
 * fewer where their ideal bytes would take more than a quarter of the
 * device's memory (the checked launch's buffers are still held). */
static int series_ring_size(const timing *tm, const prob_instance *checked) {
    double bytes = tm->ops->work ? tm->ops->work(checked).bytes : 0;
    double room = (double)tm->ctx->dev.global_mem / 4;
    int ring = ENGINE_SERIES_RING;
    while (ring > 1 && bytes > 0 && room > 0 && bytes * ring > room) ring--;
    return ring;
}

/* Back to back, as the device's copy is timed (ENGINE_TIMING_SERIES): ring
 * instances, each on inputs of its own (problem_launch_seed), are set up
 * once and launched once untimed; then launched in turn, each launch waited
 * for, until the relative standard error is under 1% or the budget is
 * spent; then each is read back and hashed, for the parent to check against
 * a golden run on its inputs. *n: the samples; *n_ring: the instances hashed. */
static prob_failure time_series(timing *tm, const prob_instance *checked, int pfd, int *n, int *n_ring, char *err,
                                size_t errlen) {
    const engine_request *rq = tm->rq;
    prob_instance *ring[ENGINE_SERIES_RING] = {0};
    int size = series_ring_size(tm, checked), made = 0;
    prob_failure f = PF_OK;
    while (made < size && !f) {
        prob_instance *pi = tm->ops->create(rq->lesson, tm->size, problem_launch_seed(rq->seed, made + 1), err, errlen);
        f = pi ? tm->ops->dev_setup(pi, tm->ctx, tm->prog, err, errlen) : PF_MEMORY;
        if (f && made > 0) { /* no room for one more: the series turns over fewer */
            if (pi) {
                tm->ops->dev_release(pi);
                tm->ops->destroy(pi);
            }
            f = PF_OK;
            break;
        }
        if (pi) ring[made++] = pi;
        double ms = 0; /* the first launch of each instance pages its buffers in */
        if (!f) f = tm->ops->dev_launch(pi, tm->ctx, &ms, err, errlen);
    }
    char key[128];
    double queued = util_now();
    gpulock_key(tm->ctx->dev.platform, tm->ctx->dev.name, key, sizeof key);
    int go = !f && sandbox_gate(pfd, key); /* turned back (a wrong answer): no timing */
    double t0 = tm->t0 + (util_now() - queued), start = util_now();
    while (go && !f && *n < tm->max_runs) {
        double before = util_now(), ms = 0;
        ledger_seal(tm->lg, 1);
        f = tm->ops->dev_launch(ring[*n % made], tm->ctx, &ms, err, errlen);
        ledger_seal(tm->lg, 0);
        if (f) break;
        tm->lg->samples[(*n)++] = ms;
        double now = util_now(), one = now - before;
        if (*n % 16 == 0) sandbox_progress(pfd, *n, tm->max_runs);
        if (*n >= tm->min_runs && *n >= made && stats_summarise(tm->lg->samples, *n).rse < 0.01) break;
        if (*n >= tm->min_runs && now - start > rq->budget_s) break;
        if (now - t0 + one + tm->warm > 0.8 * rq->timeout_s) break;
    }
    for (int i = 0; i < made && !f && i < *n; i++) {
        if ((f = tm->ops->dev_read(ring[i], tm->ctx, tm->out, err, errlen))) break;
        tm->lg->hashes[i] = util_hash64(tm->out, tm->out_len);
        if (tm->lg->outputs) memcpy(tm->lg->outputs + (size_t)i * tm->out_len, tm->out, tm->out_len);
        *n_ring = i + 1;
    }
    for (int i = 0; i < made; i++)
        if (ring[i]) {
            tm->ops->dev_release(ring[i]);
            tm->ops->destroy(ring[i]);
        }
    return f;
}

/* The ledger's n samples, n_hashed hashes and kept outputs, as records. */
static void put_ledger(int fd, const ledger *lg, int n, int n_hashed, size_t out_len) {
    blob_put(fd, W_SAMPLES, lg->samples, sizeof(double) * (size_t)n);
    blob_put(fd, W_HASHES, lg->hashes, sizeof(uint64_t) * (size_t)n_hashed);
    if (lg->outputs) blob_put(fd, W_OUTPUTS, lg->outputs, out_len * (size_t)n_hashed);
}

/* One run of the built kernel at rq's size and seed: set up, launch, read
 * back, then the timed launches (rq->budget_s); its records, ended by a
 * status. Returns the status it sent. tighten: the seccomp level to take
 * once the checked launch is over (0: none, the set has runs to come). */
static engine_status run_once(const engine_request *rq, const problem_ops *ops, clh_ctx *ctx, cl_program prog,
                              confine_state *cs, int tighten, int fd, int pfd) {
    const lesson *l = rq->lesson;
    char err[1024] = "";
    prob_failure f;
    sandbox_phase(pfd, PHASE_SETUP, SETUP_LIMIT_S);
    prob_size size;
    if (problem_parse_size(ops, rq->size_spec, &size, err, sizeof err) != 0) return finish(fd, ENG_USAGE, err), ENG_USAGE;
    prob_instance *pi = ops->create(l, &size, rq->seed, err, sizeof err);
    if (!pi) return finish(fd, ENG_RUNTIME, err), ENG_RUNTIME;
    if ((f = ops->dev_setup(pi, ctx, prog, err, sizeof err))) return finish_failure(fd, f, err), ENG_RUNTIME;
    sandbox_phase(pfd, PHASE_RUN, rq->timeout_s);
    double ms = 0, t0 = util_now();
    if ((f = ops->dev_launch(pi, ctx, &ms, err, sizeof err))) return finish_failure(fd, f, err), ENG_RUNTIME;
    size_t out_len = ops->output_bytes(pi);
    void *out = malloc(out_len ? out_len : 1);
    if (!out) return finish_failure(fd, PF_MEMORY, _("out of memory for the kernel's output")), ENG_RUNTIME;
    if ((f = ops->dev_read(pi, ctx, out, err, sizeof err))) return finish_failure(fd, f, err), ENG_RUNTIME;
    blob_put(fd, W_OUTPUT, out, out_len);
    if (tighten) {
        if (confine_seccomp(cs, CONFINE_PROCESSES, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err), ENG_RUNTIME;
        put_confinement(fd, cs);
    }

    /* timing (time_launches): every output hashed, for the parent to compare with the checked first one */
    int max_runs = rq->max_runs > 0 ? rq->max_runs : 1000;
    int min_runs = rq->min_runs > 0 ? rq->min_runs : 5;
    ledger lg;
    if (ledger_open(&lg, max_runs, out_len) != 0)
        return finish(fd, ENG_RUNTIME, _("out of memory for the timing samples")), ENG_RUNTIME;
    /* the checked launch's inputs must be as they were given */
    if (check_inputs(ops, pi, ctx, fd, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err), ENG_RUNTIME;
    int n = 0, n_hashed = 0;
    if (rq->budget_s > 0) {
        /* the checked launch's records are all written: the parent may look at its answer while we time */
        sandbox_phase(pfd, PHASE_TIME, rq->timeout_s);
        timing tm = {.rq = rq, .ops = ops, .size = &size, .prog = prog, .ctx = ctx, .lg = &lg, .out = out,
                     .out_len = out_len, .t0 = t0, .warm = util_now() - t0, .min_runs = min_runs,
                     .max_runs = max_runs};
        if (rq->timing == ENGINE_TIMING_SERIES) f = time_series(&tm, pi, pfd, &n, &n_hashed, err, sizeof err);
        else f = time_launches(&tm, pfd, &n, err, sizeof err), n_hashed = n;
        if (f) {
            put_ledger(fd, &lg, n, n_hashed, out_len);
            return finish_failure(fd, f, err), ENG_RUNTIME;
        }
    }
    free(out);
    put_ledger(fd, &lg, n, n_hashed, out_len);
    ledger_close(&lg);
    ops->dev_release(pi);
    ops->destroy(pi);
    finish(fd, ENG_PASS, NULL);
    return ENG_PASS;
}

/* Runs the request's kernel; warm: a worker started ahead (confined, its
 * device perhaps open already), else NULL. */
static int run_kernel(const wproto_request *wr, int fd, int pfd, worker_warm *warm) {
    const engine_request *rq = &wr->rq;
    const lesson *l = rq->lesson;
    const problem_ops *ops = problem_find(l->problem);
    char err[1024] = "";
    if (!ops) return finish(fd, ENG_USAGE, _("unknown problem"));
    confine_state cs;
    if (warm) cs = warm->cs;
    else if (confine_start(wr, &cs, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err);

    sandbox_phase(pfd, PHASE_DEVICE, SETUP_LIMIT_S);
    clh_ctx ctx;
    int rc;
    if (warm && warm->device_open && !strcmp(warm->spec, rq->device_spec ? rq->device_spec : "")) {
        ctx = warm->ctx;
        rc = CLH_OK;
    } else {
        if (warm && warm->device_open) clh_close(&warm->ctx);
        rc = clh_open(&ctx, rq->device_spec, err, sizeof err);
    }
    if (rc == CLH_BAD_SPEC) blob_put(fd, W_BADSPEC, "", 0);
    if (rc != CLH_OK) return finish(fd, rc == CLH_BAD_SPEC ? ENG_USAGE : ENG_NO_DEVICE, err);
    worker_put_device(fd, &ctx.dev);
    if (rq->compute_units > 0) ctx.dev.compute_units = (unsigned)rq->compute_units; /* launch as on the modelled GPU */

    if (!wr->source) {
        snprintf(err, sizeof err, _("%s: cannot read the kernel file"), rq->display_path);
        return finish(fd, ENG_USAGE, err);
    }
    sandbox_phase(pfd, PHASE_BUILD, BUILD_LIMIT_S);
    char options[600];
    worker_build_options(l, options, sizeof options);
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(&ctx, wr->source, options, &prog, &log);
    if (log) blob_put_str(fd, W_BUILDLOG, log);
    free(log);
    if (e != CL_SUCCESS) {
        snprintf(err, sizeof err, "clBuildProgram: %s", clh_error_name(e));
        return finish(fd, ENG_BUILD, err);
    }
    put_kernel_info(fd, &ctx, prog, l);

    /* From here on the learner's code may run (a helper kernel already in
     * setup). A runtime that compiles at the first launch (of each size, for
     * some) needs to start its linker then, so new programs stay allowed
     * until the last run's checked launch is over. */
    int late_compile = clh_compiles_at_first_launch(&ctx.dev);
    if (confine_seccomp(&cs, late_compile ? CONFINE_NETWORK : CONFINE_PROCESSES, err, sizeof err) != 0)
        return finish(fd, ENG_RUNTIME, err);
    if (!late_compile) put_confinement(fd, &cs);
    /* a set (wr->items): each run's records after a W_ITEM record, until one fails on the device */
    int n = wr->n_items > 0 ? wr->n_items : 1;
    double started = util_now();
    for (int i = 0; i < n; i++) {
        engine_request one = *rq;
        if (wr->n_items > 0) {
            worker_item_start at = {.index = (uint32_t)i, .started_s = util_now() - started};
            blob_put(fd, W_ITEM, &at, sizeof at);
            one.size_spec = wr->items[i].size;
            one.seed = wr->items[i].seed;
        }
        if (run_once(&one, ops, &ctx, prog, &cs, late_compile && i == n - 1, fd, pfd) != ENG_PASS) break;
    }
    clReleaseProgram(prog);
    clh_close(&ctx);
    char cache[PATH_MAX];
    if (own_cache(wr, &cs, cache, sizeof cache)) {
        long long bytes = WORKER_CACHE_BYTES;
        int files = WORKER_CACHE_FILES;
        worker_cache_send(fd, cache, "", &bytes, &files, 0);
    }
    return 0;
}

static int list_devices(int fd, int pfd) {
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    sandbox_phase(pfd, PHASE_DEVICES, 60);
    clh_device *devs = NULL;
    char err[512] = "";
    int n = clh_list(&devs, err, sizeof err);
    if (n < 0) return finish(fd, ENG_NO_DEVICE, err);
    for (int i = 0; i < n; i++) worker_put_device(fd, &devs[i]);
    free(devs);
    return finish(fd, ENG_PASS, NULL);
}

/* ---- the self-test: what a confined worker may and may not do */

/* One line of the self-test: what was tried, what happened, why, and what must happen ("either": no rule).
 * The name is English (N_), translated where the line is shown; the words after it are the record's. */
static void probe(int fd, const char *name, int refused, int err_no, const char *must) {
    char line[512];
    snprintf(line, sizeof line, "%s\t%s\t%s\t%s", name, refused ? "refused" : "allowed",
             refused && err_no ? strerror(err_no) : "", must);
    blob_put_str(fd, W_PROBE, line);
}

static void probe_ran(int fd, const char *name, int failed, const char *why) {
    char line[1200];
    snprintf(line, sizeof line, "%s\t%s\t%s\tran", name, failed ? "failed" : "ran", failed ? why : "");
    blob_put_str(fd, W_PROBE, line);
}

static void *thread_probe(void *arg) {
    *(int *)arg = 1;
    return NULL;
}

/* Runs the probe kernel once; 0 when it wrote what it must. */
static int probe_kernel(clh_ctx *ctx, cl_kernel k, cl_mem buf, char *err, size_t errlen) {
    int got[64];
    double ms = 0;
    if (problem_launch_1d(ctx, k, 64, 64, &ms, err, errlen) != 0) return -1;
    cl_int e = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        util_errf(err, errlen, "clEnqueueReadBuffer: %s", clh_error_name(e));
        return -1;
    }
    for (int i = 0; i < 64; i++)
        if (got[i] != 3 * i) {
            util_errf(err, errlen, _("the probe kernel wrote %d at %d"), got[i], i);
            return -1;
        }
    return 0;
}

/* The write budget: more bytes, then more files, than the worker's tmpfs
 * holds, in its scratch folder; both removed after. */
static void probe_disk(int fd, const char *scratch, int budget) {
    char path[PATH_MAX];
    static char chunk[1 << 20];
    unsigned long long wrote = 0, want = WORKER_DISK_BYTES + (64ULL << 20);
    int err_no = 0;
    for (int i = 0; wrote < want && !err_no; i++) {
        if (util_pathf(path, sizeof path, "%s/big-%d", scratch, i) != 0) break;
        int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (f < 0) { err_no = errno; break; }
        for (int k = 0; k < 4 && wrote < want; k++) {
            ssize_t w = write(f, chunk, sizeof chunk);
            if (w < (ssize_t)sizeof chunk) { err_no = w < 0 ? errno : ENOSPC; break; }
            wrote += (unsigned long long)w;
        }
        close(f);
    }
    probe(fd, N_("write more than the worker's budget into its scratch folder"), wrote < want, err_no,
          budget ? "refused" : "either");
    int made = 0;
    err_no = 0;
    for (int i = 0; i <= WORKER_DISK_FILES && !err_no; i++) {
        if (util_pathf(path, sizeof path, "%s/f-%d", scratch, i) != 0) break;
        int f = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (f < 0) err_no = errno;
        else { close(f); made++; }
    }
    probe(fd, N_("create more files than the worker's budget"), made <= WORKER_DISK_FILES, err_no,
          budget ? "refused" : "either");
    for (int i = 0; i < made; i++)
        if (util_pathf(path, sizeof path, "%s/f-%d", scratch, i) == 0) unlink(path);
    for (int i = 0; i < 512; i++)
        if (util_pathf(path, sizeof path, "%s/big-%d", scratch, i) == 0 && unlink(path) != 0) break;
}

/* One file larger than a run may hand back: refused (EFBIG) at the cap. */
static void probe_file_cap(int fd, const char *scratch) {
    char path[PATH_MAX];
    static char chunk[1 << 20];
    if (util_pathf(path, sizeof path, "%s/too-large", scratch) != 0) return;
    signal(SIGXFSZ, SIG_IGN); /* the write fails instead of ending the worker */
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    size_t wrote = 0, want = 2 * (size_t)WPROTO_SELFTEST_RESULT_MAX;
    int err_no = f < 0 ? errno : 0;
    while (f >= 0 && wrote < want) {
        ssize_t w = write(f, chunk, sizeof chunk);
        if (w <= 0) { err_no = w < 0 ? errno : EFBIG; break; }
        wrote += (size_t)w;
    }
    if (f >= 0) close(f);
    unlink(path);
    signal(SIGXFSZ, SIG_DFL);
    probe(fd, N_("write one file larger than a run may hand back"), wrote < want, err_no, "refused");
}

static int selftest(const wproto_request *wr, int fd, int pfd) {
    char err[1024] = "";
    confine_state cs;
    if (confine_start(wr, &cs, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err);
    sandbox_phase(pfd, PHASE_DEVICE, SETUP_LIMIT_S);
    clh_ctx ctx;
    int rc = clh_open(&ctx, wr->rq.device_spec, err, sizeof err);
    if (rc == CLH_BAD_SPEC) blob_put(fd, W_BADSPEC, "", 0);
    if (rc != CLH_OK) return finish(fd, rc == CLH_BAD_SPEC ? ENG_USAGE : ENG_NO_DEVICE, err);
    worker_put_device(fd, &ctx.dev);
    sandbox_phase(pfd, PHASE_BUILD, BUILD_LIMIT_S);
    cl_program prog;
    char *log = NULL;
    cl_int e = clh_build(&ctx, "__kernel void probe(__global int *a) { a[get_global_id(0)] = 3 * (int)get_global_id(0); }",
                         "", &prog, &log);
    free(log);
    if (e != CL_SUCCESS) return finish(fd, ENG_BUILD, clh_error_name(e));
    cl_kernel k = clCreateKernel(prog, "probe", &e);
    cl_mem buf = e == CL_SUCCESS ? clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &e) : NULL;
    if (e == CL_SUCCESS) e = clSetKernelArg(k, 0, sizeof buf, &buf);
    if (e != CL_SUCCESS) return finish(fd, ENG_RUNTIME, clh_error_name(e));

    /* the same steps as a run: confined before the first launch, fully after it */
    int late_compile = clh_compiles_at_first_launch(&ctx.dev);
    if (confine_seccomp(&cs, late_compile ? CONFINE_NETWORK : CONFINE_PROCESSES, err, sizeof err) != 0)
        return finish(fd, ENG_RUNTIME, err);
    sandbox_phase(pfd, PHASE_RUN, 60);
    rc = probe_kernel(&ctx, k, buf, err, sizeof err);
    probe_ran(fd, N_("kernel before the probes"), rc != 0, err);
    if (rc != 0) return finish(fd, ENG_RUNTIME, err);
    if (confine_seccomp(&cs, CONFINE_PROCESSES, err, sizeof err) != 0) return finish(fd, ENG_RUNTIME, err);
    put_confinement(fd, &cs);

    int s = socket(AF_INET, SOCK_STREAM, 0);
    probe(fd, "socket(AF_INET)", s < 0, errno, "refused");
    if (s >= 0) close(s);
    s = socket(AF_UNIX, SOCK_STREAM, 0);
    probe(fd, "socket(AF_UNIX)", s < 0, errno, "refused");
    if (s >= 0) close(s);
    pid_t p = fork();
    if (p == 0) _exit(0);
    probe(fd, "fork", p < 0, errno, "refused");
    if (p > 0) waitpid(p, NULL, 0);
    long c = syscall(SYS_clone, (unsigned long)SIGCHLD, 0, 0, 0, 0);
    if (c == 0) _exit(0);
    probe(fd, N_("clone without CLONE_THREAD"), c < 0, errno, "refused");
    if (c > 0) waitpid((pid_t)c, NULL, 0);
    pthread_t t;
    int ran = 0;
    int te = pthread_create(&t, NULL, thread_probe, &ran);
    if (te == 0) pthread_join(t, NULL);
    probe(fd, N_("thread"), te != 0 || !ran, te, "allowed");

    char path[1200];
    int landlock = cs.landlock_abi > 0;
    snprintf(path, sizeof path, "%s/outside-the-scratch-folder", wr->probe ? wr->probe : "/tmp");
    int w = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    probe(fd, N_("write outside the scratch folder"), w < 0, errno, landlock ? "refused" : "either");
    if (w >= 0) close(w);
    /* a file the parent left beside the probe folder, as a classmate's submission would lie in a batch */
    snprintf(path, sizeof path, "%s/" WPROTO_SELFTEST_SIBLING, wr->probe ? wr->probe : "/tmp");
    int r = open(path, O_RDONLY | O_CLOEXEC);
    probe(fd, N_("read another submission outside the scratch folder"), r < 0, errno, landlock ? "refused" : "either");
    if (r >= 0) close(r);
    snprintf(path, sizeof path, "%s/inside", wr->scratch ? wr->scratch : ".");
    w = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    probe(fd, N_("write inside the scratch folder"), w < 0, errno, "allowed");
    if (w >= 0) close(w);
    probe_disk(fd, wr->scratch ? wr->scratch : ".", cs.disk_bytes > 0);
    probe_file_cap(fd, wr->scratch ? wr->scratch : ".");
    snprintf(path, sizeof path, "/proc/%d/mem", (int)getppid());
    int m = open(path, O_RDONLY | O_CLOEXEC);
    probe(fd, N_("open the parent's memory (/proc/PID/mem)"), m < 0, errno, landlock ? "refused" : "either");
    if (m >= 0) close(m);
    /* a read from a process not traced fails anyway (ESRCH): only EPERM is the filter */
    errno = 0;
    syscall(SYS_ptrace, 2 /* PTRACE_PEEKDATA */, getppid(), 0, 0);
    probe(fd, N_("ptrace the parent"), errno == EPERM, errno, "refused");
    probe(fd, N_("see the grader's environment (CLTUTOR_SELFTEST_SECRET)"),
          getenv("CLTUTOR_SELFTEST_SECRET") == NULL, 0, "refused");
    int k0 = kill(getppid(), 0);
    probe(fd, N_("signal the parent"), k0 != 0, errno, cs.landlock_scoped ? "refused" : "either");

    rc = probe_kernel(&ctx, k, buf, err, sizeof err);
    probe_ran(fd, N_("kernel after the probes"), rc != 0, err);
    /* last, as it ends this process if it is allowed (the parent sees status 97) */
    char *const argv[] = {"/bin/sh", "-c", "exit 97", NULL};
    execv("/bin/sh", argv);
    probe(fd, "execve(/bin/sh)", 1, errno, "refused");
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clh_close(&ctx);
    return finish(fd, ENG_PASS, NULL);
}

/* A worker started ahead (WPROTO_WARM): warms up, waits for its go, then
 * serves one request as a worker started for it would. */
static int warm_main(const char *scratch, const char *spec) {
    int fd = SANDBOX_FD_RESULT, pfd = SANDBOX_FD_PROGRESS;
    worker_warm w;
    char err[1024] = "";
    int ready = worker_warm_up(&w, scratch, spec, err, sizeof err) == 0;
    if (worker_warm_wait() != 0) return 0; /* let go unused */
    if (!ready) return finish(fd, ENG_RUNTIME, err);
    wproto_request wr;
    if (wproto_read_request(SANDBOX_FD_REQUEST, &wr, err, sizeof err) != 0) return finish(fd, ENG_USAGE, err);
    close(SANDBOX_FD_REQUEST);
    worker_warm_limits(&wr);
    int rc = worker_warm_check(scratch, &wr, err, sizeof err) == 0 ? run_kernel(&wr, fd, pfd, &w)
                                                                        : finish(fd, ENG_RUNTIME, err);
    wproto_request_free(&wr);
    fflush(stdout);
    fflush(stderr);
    return rc;
}

int worker_main(int argc, char **argv) {
    int fd = SANDBOX_FD_RESULT, pfd = SANDBOX_FD_PROGRESS;
    if (argc == 5 && !strcmp(argv[2], WPROTO_WARM)) return warm_main(argv[3], argv[4]);
    wproto_request wr;
    char err[1024] = "";
    if (wproto_read_request(SANDBOX_FD_REQUEST, &wr, err, sizeof err) != 0) {
        finish(fd, ENG_USAGE, err);
        fprintf(stderr, "cltutor: %s\n", err); /* the output the parent keeps, or a person's terminal */
        return EXIT_USAGE;
    }
    close(SANDBOX_FD_REQUEST);
    int rc = wr.kind == WK_RUN ? run_kernel(&wr, fd, pfd, NULL)
           : wr.kind == WK_DEVICES ? list_devices(fd, pfd)
           : wr.kind == WK_BUILD ? worker_build(&wr, fd, pfd)
           : wr.kind == WK_BINARY ? worker_binary(&wr, fd, pfd)
           : selftest(&wr, fd, pfd);
    wproto_request_free(&wr);
    fflush(stdout);
    fflush(stderr);
    return rc;
}
