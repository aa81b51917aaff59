/* wproto — the worker protocol: how the parent finds the cltutor program
 * that runs kernels, starts it fresh (exec) with a request holding only what
 * a run needs, and checks what it hands back beyond the first output. */
#define _GNU_SOURCE
#include "run/wproto.h"
#include "run/wproto_warm.h"
#include "run/confine.h"
#include "base/util.h"
#include "run/worker.h"
#include "run/worker_build.h"
#include "run/srcpolicy.h"
#include "text/i18n.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the request */

static char *dup_record(const char *blob, size_t len, uint32_t tag) { return blob_get_str(blob, len, tag); }

/* The run the header and the request's strings describe, into out->rq. */
static void take_header(wproto_request *out, const wproto_header *h) {
    engine_request_defaults(&out->rq);
    out->rq.lesson = &out->lesson;
    out->rq.kernel_path = out->display;
    out->rq.display_path = out->display ? out->display : "kernel";
    out->rq.device_spec = out->device;
    out->rq.size_spec = out->size;
    out->rq.seed = h->seed;
    out->rq.timeout_s = h->timeout_s;
    out->rq.budget_s = h->budget_s;
    out->rq.min_runs = h->min_runs;
    out->rq.max_runs = h->max_runs;
    out->rq.compute_units = (int)h->compute_units;
    out->rq.timing = h->timing == ENGINE_TIMING_SERIES ? ENGINE_TIMING_SERIES : ENGINE_TIMING_FRESH;
    out->rq.worker_env = (const char *const *)out->env;
    out->rq.cpu_limit_s = (long)h->cpu_limit_s;
    out->rq.memory_limit_mb = (long)h->memory_limit_mb;
    out->result_max = (size_t)h->result_max;
}

int wproto_read_request(int fd, wproto_request *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        util_errf(err, errlen, _("the worker got no request (run `cltutor`, not `cltutor %s`)"), WPROTO_MODE);
        return -1;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *blob = malloc(len);
    if (!blob) {
        util_errf(err, errlen, "%s", _("out of memory for the request"));
        return -1;
    }
    while (got < len) {
        ssize_t r = pread(fd, blob + got, len - got, (off_t)got);
        if (r <= 0) {
            if (r < 0 && errno == EINTR) continue;
            break;
        }
        got += (size_t)r;
    }
    size_t hlen = 0;
    const wproto_header *h = blob_get(blob, got, WR_HEADER, 0, &hlen);
    if (!h || hlen != sizeof *h || h->version != WPROTO_VERSION || h->lesson_size != sizeof(lesson) ||
        h->device_size != sizeof(engine_device) || h->kinfo_size != sizeof(engine_kernel_info)) {
        util_errf(err, errlen, _("the worker program and the program that started it are different builds of "
                                 "cltutor (rebuild, or set %s to the right cltutor)"), WPROTO_ENV);
        free(blob);
        return -1;
    }
    out->kind = (wproto_kind)h->kind;
    size_t llen = 0;
    const lesson *l = blob_get(blob, got, WR_LESSON, 0, &llen);
    if (l && llen == sizeof *l) out->lesson = *l; /* its hint pointers were cleared */
    out->source = dup_record(blob, got, WR_SOURCE);
    out->display = dup_record(blob, got, WR_DISPLAY);
    out->device = dup_record(blob, got, WR_DEVICE);
    out->size = dup_record(blob, got, WR_SIZE);
    out->scratch = dup_record(blob, got, WR_SCRATCH);
    out->cache = dup_record(blob, got, WR_CACHE);
    out->writable = dup_record(blob, got, WR_WRITABLE);
    out->probe = dup_record(blob, got, WR_PROBE);
    int n_env = 0;
    while (blob_get(blob, got, WR_ENV, n_env, NULL)) n_env++;
    out->env = calloc((size_t)n_env + 1, sizeof(char *));
    for (int i = 0; out->env && i < n_env; i++) {
        size_t elen = 0;
        const char *e = blob_get(blob, got, WR_ENV, i, &elen);
        out->env[i] = malloc(elen + 1);
        if (out->env[i]) {
            memcpy(out->env[i], e, elen);
            out->env[i][elen] = '\0';
        }
    }
    take_header(out, h);
    while (out->n_items < WPROTO_MAX_ITEMS && blob_get(blob, got, WR_ITEM, out->n_items, NULL)) out->n_items++;
    out->items = out->n_items ? calloc((size_t)out->n_items, sizeof *out->items) : NULL;
    for (int i = 0; i < out->n_items; i++) {
        size_t ilen = 0;
        const wproto_item *it = blob_get(blob, got, WR_ITEM, i, &ilen);
        if (!out->items || ilen != sizeof *it) {
            util_errf(err, errlen, "%s", _("a malformed run in the worker's request"));
            free(blob);
            return -1;
        }
        out->items[i] = *it;
        out->items[i].size[sizeof it->size - 1] = '\0';
    }
    while (blob_get(blob, got, WR_SOURCE, out->n_sources, NULL) && blob_get(blob, got, WR_OPTIONS, out->n_sources, NULL))
        out->n_sources++;
    if (out->kind != WK_BUILD && out->kind != WK_BINARY) out->n_sources = 0;
    out->sources = out->n_sources ? calloc((size_t)out->n_sources, sizeof *out->sources) : NULL;
    out->options = out->n_sources ? calloc((size_t)out->n_sources, sizeof *out->options) : NULL;
    for (int i = 0; i < out->n_sources; i++) {
        out->sources[i] = out->sources ? blob_get_str_at(blob, got, WR_SOURCE, i) : NULL;
        out->options[i] = out->options ? blob_get_str_at(blob, got, WR_OPTIONS, i) : NULL;
        if (!out->sources[i] || !out->options[i]) {
            util_errf(err, errlen, "%s", _("a malformed file in the worker's request"));
            free(blob);
            return -1;
        }
    }
    free(blob);
    return 0;
}

void wproto_apply_env(const wproto_request *wr) {
    for (char **env = wr->env; env && *env; env++) {
        const char *eq = strchr(*env, '=');
        if (!eq) continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *env), *env);
        setenv(name, eq + 1, 1);
    }
}

void wproto_request_free(wproto_request *r) {
    for (int i = 0; i < r->n_sources; i++) {
        if (r->sources) free(r->sources[i]);
        if (r->options) free(r->options[i]);
    }
    free(r->sources);
    free(r->options);
    free(r->source);
    free(r->display);
    free(r->device);
    free(r->size);
    free(r->scratch);
    free(r->cache);
    free(r->writable);
    free(r->probe);
    for (char **e = r->env; e && *e; e++) free(*e);
    free(r->env);
    free(r->items);
    memset(r, 0, sizeof *r);
}

static int put_opt_str(int fd, uint32_t tag, const char *s) { return s ? blob_put_str(fd, tag, s) : 0; }

int wproto_open_request(const char *scratch) {
    char path[PATH_MAX];
    if (util_pathf(path, sizeof path, "%s/request", scratch) != 0) return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) unlink(path);
    return fd;
}

void wproto_header_init(wproto_kind kind, wproto_header *h) {
    memset(h, 0, sizeof *h);
    h->version = WPROTO_VERSION;
    h->kind = (uint32_t)kind;
    h->lesson_size = sizeof(lesson);
    h->device_size = sizeof(engine_device);
    h->kinfo_size = sizeof(engine_kernel_info);
}

/* Opens the request file and fills the header's common fields. */
static int open_request(const char *scratch, wproto_kind kind, wproto_header *h) {
    wproto_header_init(kind, h);
    return wproto_open_request(scratch);
}

/* Writes the request into fd (a file open_request made), and rewinds it
 * for the worker; returns 0, or -1 (fd closed). */
static int fill_request(int fd, wproto_header h, const engine_request *rq, const wproto_item *items, int n_items,
                        const char *source, const char *scratch, const char *cache, const char *probe_dir,
                        const sandbox_limits *lim) {
    if (lim) {
        h.cpu_limit_s = lim->cpu_s;
        h.memory_limit_mb = lim->memory_mb;
        h.result_max = lim->result_max_bytes;
    }
    if (rq) {
        h.seed = rq->seed;
        h.timeout_s = rq->timeout_s;
        h.budget_s = rq->budget_s;
        h.min_runs = rq->min_runs;
        h.max_runs = rq->max_runs;
        h.compute_units = rq->compute_units > 0 ? (uint32_t)rq->compute_units : 0;
        h.timing = (uint32_t)rq->timing;
    }
    int ok = blob_put(fd, WR_HEADER, &h, sizeof h) == 0;
    if (rq && rq->lesson) {
        lesson l = *rq->lesson;
        memset(&l.hints, 0, sizeof l.hints); /* pointers mean nothing in the worker */
        for (int b = 0; b < l.n_bugs; b++) memset(&l.bugs[b].hints, 0, sizeof l.bugs[b].hints);
        ok = ok && blob_put(fd, WR_LESSON, &l, sizeof l) == 0;
    }
    if (rq) {
        ok = ok && (!source || blob_put_str(fd, WR_SOURCE, source) == 0);
        ok = ok && put_opt_str(fd, WR_DISPLAY, rq->display_path ? rq->display_path : rq->kernel_path) == 0;
        ok = ok && put_opt_str(fd, WR_DEVICE, rq->device_spec) == 0;
        ok = ok && put_opt_str(fd, WR_SIZE, rq->size_spec) == 0;
        ok = ok && put_opt_str(fd, WR_WRITABLE, rq->worker_writable) == 0;
        for (const char *const *e = rq->worker_env; ok && e && *e; e++) ok = blob_put_str(fd, WR_ENV, *e) == 0;
        for (int i = 0; ok && i < n_items; i++) ok = blob_put(fd, WR_ITEM, &items[i], sizeof items[i]) == 0;
    }
    ok = ok && put_opt_str(fd, WR_SCRATCH, scratch) == 0 && put_opt_str(fd, WR_CACHE, cache) == 0 &&
         put_opt_str(fd, WR_PROBE, probe_dir) == 0;
    if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return 0;
}

/* Writes the request into a file of the scratch folder, open for the worker to read; returns its fd or -1. */
static int write_request(wproto_kind kind, const engine_request *rq, const wproto_item *items, int n_items,
                         const char *source, const char *scratch, const char *cache, const char *probe_dir,
                         const sandbox_limits *lim) {
    wproto_header h;
    int fd = open_request(scratch, kind, &h);
    if (fd < 0) return -1;
    return fill_request(fd, h, rq, items, n_items, source, scratch, cache, probe_dir, lim) == 0 ? fd : -1;
}

/* ---- starting a worker */

int wproto_find_worker(char *buf, size_t len, char *err, size_t errlen) {
    const char *env = getenv(WPROTO_ENV);
    if (env && *env) {
        if (access(env, X_OK) != 0 || !util_is_file(env)) {
            util_errf(err, errlen, _("%s=%s is not a program that can be run"), WPROTO_ENV, env);
            return -1;
        }
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    if (util_exe_dir(exe, sizeof exe) != 0) {
        util_errf(err, errlen, _("cannot tell where this program is (/proc/self/exe): set %s to the cltutor program"),
                  WPROTO_ENV);
        return -1;
    }
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/cltutor", exe);
    if (!util_is_file(path) || access(path, X_OK) != 0) {
        util_errf(err, errlen, _("kernels run in a fresh cltutor process, and there is no cltutor program in %s: "
                                 "build it (make) or set %s to it"), exe, WPROTO_ENV);
        return -1;
    }
    snprintf(buf, len, "%s", path);
    return 0;
}

#define CACHE_KEEP_BYTES (1024 * 1024)

/* The folder where the runtime keeps what it compiled from this source: one
 * per kernel text, so that no kernel can plant a compiled kernel that
 * another one's run would load. */
int wproto_cache_root(char *buf, size_t len) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') snprintf(buf, len, "%s/cltutor/kernels", xdg);
    else if (home && home[0] == '/') snprintf(buf, len, "%s/.cache/cltutor/kernels", home);
    else return -1;
    return 0;
}

static int cache_dir(const char *root, const char *source, char *buf, size_t len) {
    char base[PATH_MAX];
    if (root && *root) snprintf(base, sizeof base, "%s", root);
    else if (wproto_cache_root(base, sizeof base) != 0) return -1;
    snprintf(buf, len, "%s/%016llx", base, (unsigned long long)util_hash64(source, strlen(source)));
    return util_mkdirs(buf) == 0 && access(buf, W_OK) == 0 ? 0 : -1;
}

/* The variables a worker inherits: what OpenCL runtimes, their compilers and
 * the C library read. The grader's others (tokens, say) stay behind: a
 * kernel can read its process's environment and print it. */
static int passed_on(const char *var) {
    static const char *const exact[] = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM",
                                        "LD_LIBRARY_PATH", "LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"};
    static const char *const prefix[] = {"LC_", "XDG_", "OCL_", "OPENCL_", "POCL_", "OCLGRIND_", "CUDA_", "NVIDIA_",
                                         "__NV", "__GL", "GPU_", "HSA_", "HIP_", "ROC", "AMD_", "ZE_", "NEO", "IGC_",
                                         "SYCL_", "MESA_", "RUSTICL_", "OMP_", "KMP_"};
    size_t len = strcspn(var, "=");
    for (size_t i = 0; i < CLT_ARRAY_LEN(exact); i++)
        if (strlen(exact[i]) == len && !strncmp(var, exact[i], len)) return 1;
    for (size_t i = 0; i < CLT_ARRAY_LEN(prefix); i++)
        if (!strncmp(var, prefix[i], strlen(prefix[i]))) return 1;
    return 0;
}

/* A path the cache may hold: relative, plain names (letters, digits, . _ -), no . or .. */
static int cache_path_ok(const char *rel) {
    if (!*rel || *rel == '/' || strlen(rel) > 512) return 0;
    for (const char *p = rel; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return 0;
        for (size_t i = 0; i < n; i++)
            if (!isalnum((unsigned char)p[i]) && !strchr("._-", p[i])) return 0;
        p += n + (p[n] == '/');
    }
    return 1;
}

/* Keeps the compiled kernels a worker handed back (W_CACHEFILE) in its
 * source's cache folder: what a worker writes itself stays in its own
 * tmpfs, and only this much comes out. */
/* Whether a cache folder holds anything the runtime compiled (more than its lock). */
static int cache_filled(const char *cache) {
    DIR *d = opendir(cache);
    if (!d) return 0;
    int filled = 0;
    for (struct dirent *e; !filled && (e = readdir(d));) filled = e->d_name[0] != '.';
    closedir(d);
    return filled;
}

/* Keeps the records of one file: all of them (index NULL), or those named
 * "INDEX/..." (a build of several files), the index taken off. */
static void keep_cache(const sandbox_result *sr, const char *cache, const char *index) {
    size_t total = 0, skip = index ? strlen(index) + 1 : 0;
    for (int i = 0;; i++) {
        size_t len = 0;
        const char *rec = blob_get(sr->blob, sr->blob_len, W_CACHEFILE, i, &len);
        if (!rec) break;
        const char *nul = memchr(rec, '\0', len);
        if (!nul || (index && (strncmp(rec, index, skip - 1) != 0 || rec[skip - 1] != '/'))) continue;
        if (!cache_path_ok(rec + skip)) continue;
        size_t data_len = len - (size_t)(nul + 1 - rec);
        if (total + data_len > WORKER_CACHE_BYTES) break;
        char path[PATH_MAX], dir[PATH_MAX];
        if (util_pathf(path, sizeof path, "%s/%s", cache, rec + skip) != 0) continue;
        snprintf(dir, sizeof dir, "%s", path);
        *strrchr(dir, '/') = '\0';
        if (util_mkdirs(dir) == 0 && util_write_file_atomic(path, nul + 1, data_len) == 0) total += data_len;
    }
}

int wproto_make_scratch(char *scratch, size_t len, char *err, size_t errlen) {
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, len, "%s/cltutor-worker-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        util_errf(err, errlen, _("cannot create a scratch folder for the worker in %s: %s"), tmp && *tmp ? tmp : "/tmp",
                  strerror(errno));
        return -1;
    }
    char *real = realpath(scratch, NULL); /* the worker changes into it: no relative path */
    if (real) {
        snprintf(scratch, len, "%s", real);
        free(real);
    }
    return 0;
}

char **wproto_environment(void) {
    util_env_lock();
    size_t n = 0;
    while (environ[n]) n++;
    char **envp = calloc(n + 1, sizeof *envp);
    size_t k = 0;
    for (size_t i = 0; envp && i < n; i++)
        if (passed_on(environ[i]) && (envp[k] = strdup(environ[i]))) k++;
    util_env_unlock();
    return envp;
}

void wproto_environment_free(char **envp) {
    for (size_t i = 0; envp && envp[i]; i++) free(envp[i]);
    free(envp);
}

int wproto_run(wproto_kind kind, const engine_request *rq, const char *probe_dir, const sandbox_limits *lim,
               run_progress_cb cb, void *user, volatile int *cancel, sandbox_result *out, char *err,
               size_t errlen) {
    return wproto_run_items(kind, rq, NULL, 0, probe_dir, lim, cb, user, cancel, out, err, errlen);
}

int wproto_run_items(wproto_kind kind, const engine_request *rq, const wproto_item *items, int n_items,
                     const char *probe_dir, const sandbox_limits *lim, run_progress_cb cb, void *user,
                     volatile int *cancel, sandbox_result *out, char *err, size_t errlen) {
    char exe[PATH_MAX];
    if (wproto_find_worker(exe, sizeof exe, err, errlen) != 0) return -1;
    /* Without Landlock only this keeps a worker of the same user from
     * opening this process's memory (/proc/PID/mem): it stays so. */
    if (kind != WK_DEVICES && confine_landlock_abi() == 0) prctl(PR_SET_DUMPABLE, 0);
    char *source = kind == WK_RUN && rq && rq->kernel_path ? util_read_file(rq->kernel_path, NULL) : NULL;
    char cache[PATH_MAX + 64] = "", scratch[PATH_MAX];
    int cached = source && cache_dir(rq ? rq->cache_root : NULL, source, cache, sizeof cache) == 0;
    /* a worker started ahead serves a text its runtime has not compiled yet */
    sandbox_child ahead_child;
    int ahead_req = -1;
    int ahead = kind == WK_RUN && rq && rq->warm && (!cached || !cache_filled(cache)) &&
                wproto_warm_take(rq->warm, rq, &ahead_child, &ahead_req, scratch, sizeof scratch);
    if (!ahead && wproto_make_scratch(scratch, sizeof scratch, err, errlen) != 0) {
        free(source);
        return -1;
    }
    if (!cached) {
        snprintf(cache, sizeof cache, "%s/cache", scratch); /* compiled kernels last this run only */
        if (mkdir(cache, 0700) != 0) cache[0] = '\0';
    }
    int req;
    if (ahead) {
        wproto_header h;
        wproto_header_init(kind, &h);
        req = fill_request(ahead_req, h, rq, items, n_items, source, scratch, cache[0] ? cache : NULL, probe_dir, lim)
                  == 0 ? ahead_req : -1;
    } else {
        req = write_request(kind, rq, items, n_items, source, scratch, cache[0] ? cache : NULL, probe_dir, lim);
    }
    free(source);
    int rc = -1;
    if (req < 0) {
        if (ahead) sandbox_discard(&ahead_child);
        util_errf(err, errlen, _("cannot write the worker's request in %s"), scratch);
    } else {
        char **envp = wproto_environment();
        char *const argv[] = {exe, WPROTO_MODE, NULL};
        /* one runtime at a time fills a cache folder: other processes running
         * the same text (a class graded side by side, the course beside a
         * check) wait for it; once it is filled, they all run at once (each
         * reads its own copy, and what comes back is written whole) */
        int lock = -1;
        if (cache[0]) {
            char lock_path[PATH_MAX + 80];
            snprintf(lock_path, sizeof lock_path, "%s/.lock", cache);
            lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (lock >= 0)
                while (flock(lock, cache_filled(cache) ? LOCK_SH : LOCK_EX) != 0 && errno == EINTR) {}
        }
        if (ahead && sandbox_go(&ahead_child) != 0) { /* it ended while it waited: start one now */
            sandbox_discard(&ahead_child);
            ahead = 0;
        }
        if (ahead) {
            sandbox_finish(&ahead_child, lim, cb, user, cancel, out);
            rc = 0;
        } else {
            rc = envp ? sandbox_run(exe, argv, envp, req, lim, cb, user, cancel, out) : -1;
        }
        if (rc == 0 && cache[0] && strncmp(cache, scratch, strlen(scratch)) != 0) keep_cache(out, cache, NULL);
        if (lock >= 0) close(lock);
        if (rc != 0) util_errf(err, errlen, "%s", envp ? _("fork failed") : _("out of memory"));
        wproto_environment_free(envp);
        close(req);
    }
    util_remove_tree(scratch);
    /* a compiled kernel takes a few hundred KiB; a folder grown past that holds
     * what a kernel made the compiler write (a log of millions of errors) */
    if (cache[0] && strncmp(cache, scratch, strlen(scratch)) != 0 && util_tree_bytes(cache) > CACHE_KEEP_BYTES)
        util_remove_tree(cache);
    return rc;
}

/* ---- building many files ahead of their runs */

/* One file wproto_build compiles: its text, options and cache folder, held locked. */
typedef struct {
    char *source;
    char options[600];
    char cache[PATH_MAX + 64];
    int lock;
} build_file;

/* Whether item's cache folder is empty and this process now holds it: a
 * folder another process fills, or one already filled, is left alone. */
static int take_build_file(const wproto_build_item *item, const char *cache_root, build_file *f) {
    f->lock = -1;
    f->source = util_read_file(item->kernel_path, NULL);
    char lock_path[PATH_MAX + 80];
    srcpolicy_finding refused;
    /* a file the source policy refuses never runs: nothing of it is compiled either */
    if (!f->source || srcpolicy_check_chapter(f->source, NULL, item->lesson, &refused) != 0 || cache_dir(cache_root, f->source, f->cache, sizeof f->cache) != 0 ||
        util_pathf(lock_path, sizeof lock_path, "%s/.lock", f->cache) != 0 ||
        (f->lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0 || flock(f->lock, LOCK_EX | LOCK_NB) != 0 ||
        cache_filled(f->cache)) {
        if (f->lock >= 0) close(f->lock);
        free(f->source);
        return 0;
    }
    worker_build_options(item->lesson, f->options, sizeof f->options);
    return 1;
}

static int write_build_request(const build_file *files, int n, const char *device_spec, const char *scratch) {
    wproto_header h;
    int fd = open_request(scratch, WK_BUILD, &h);
    if (fd < 0) return -1;
    int ok = blob_put(fd, WR_HEADER, &h, sizeof h) == 0 && put_opt_str(fd, WR_DEVICE, device_spec) == 0 &&
             blob_put_str(fd, WR_SCRATCH, scratch) == 0;
    for (int i = 0; ok && i < n; i++)
        ok = blob_put_str(fd, WR_SOURCE, files[i].source) == 0 && blob_put_str(fd, WR_OPTIONS, files[i].options) == 0;
    if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int wproto_run_request(int req, const sandbox_limits *lim, volatile int *cancel, sandbox_result *out, char *err,
                       size_t errlen) {
    char exe[PATH_MAX];
    memset(out, 0, sizeof *out);
    if (req < 0) return util_errf(err, errlen, "%s", _("cannot write the worker's request")), -1;
    if (wproto_find_worker(exe, sizeof exe, err, errlen) != 0) return -1;
    if (confine_landlock_abi() == 0) prctl(PR_SET_DUMPABLE, 0); /* as for a run (wproto_run_items) */
    char **envp = wproto_environment();
    char *const argv[] = {exe, WPROTO_MODE, NULL};
    int rc = envp && sandbox_run(exe, argv, envp, req, lim, NULL, NULL, cancel, out) == 0 ? 0 : -1;
    if (rc != 0) util_errf(err, errlen, "%s", envp ? _("fork failed") : _("out of memory"));
    wproto_environment_free(envp);
    return rc;
}

int wproto_build(const wproto_build_item *items, int n, const char *device_spec, const char *cache_root,
                 long cpu_limit_s, long memory_limit_mb, volatile int *cancel, char *err, size_t errlen) {
    char scratch[PATH_MAX];
    build_file *files = n > 0 ? calloc((size_t)n, sizeof *files) : NULL;
    if (!files) return 0;
    int m = 0;
    for (int i = 0; i < n; i++) m += take_build_file(&items[i], cache_root, &files[m]);
    int built = 0;
    if (m > 0 && wproto_make_scratch(scratch, sizeof scratch, err, errlen) != 0)
        built = -1;
    else if (m > 0) {
        int req = write_build_request(files, m, device_spec, scratch);
        sandbox_limits lim = {.total_s = 60 + 130.0 * m, .grace_s = 1.0, .cpu_s = cpu_limit_s,
                              .memory_mb = memory_limit_mb,
                              .result_max_bytes = (size_t)m * (WORKER_CACHE_BYTES + 65536) + 65536};
        sandbox_result out;
        if (wproto_run_request(req, &lim, cancel, &out, err, errlen) != 0) built = -1;
        for (int k = 0; built >= 0 && k < m; k++) {
            const int32_t *b = NULL;
            for (int r = 0; (b = blob_get(out.blob, out.blob_len, W_BUILT, r, NULL)) && b[0] != k; r++) {}
            if (!b || b[1] != 0) continue;
            char index[16];
            snprintf(index, sizeof index, "%d", k);
            keep_cache(&out, files[k].cache, index);
            built++;
        }
        sandbox_result_free(&out);
        if (req >= 0) close(req);
        util_remove_tree(scratch);
    }
    for (int k = 0; k < m; k++) {
        close(files[k].lock);
        free(files[k].source);
    }
    free(files);
    return built;
}

/* ---- checking what a run handed back */

static int count_records(const sandbox_result *sr, uint32_t tag) {
    int n = 0;
    while (blob_get(sr->blob, sr->blob_len, tag, n, NULL)) n++;
    return n;
}

/* the records a run hands back once; headlines stay English (translated where shown) */
static const char *const must_be_one[] = {N_("output"), N_("samples"), N_("output hashes"), N_("status")};

engine_status wproto_check_run(const sandbox_result *sr, size_t out_len, const engine_request *rq,
                               char *headline, size_t hlen, char *msg, size_t mlen) {
    static const uint32_t once[] = {W_OUTPUT, W_SAMPLES, W_HASHES, W_STATUS};
    for (size_t i = 0; i < CLT_ARRAY_LEN(once); i++)
        if (count_records(sr, once[i]) > 1) {
            util_errf(headline, hlen, "%s", N_("Results tampered with"));
            util_errf(msg, mlen, _("The worker handed back its %s twice: something in the worker process (a kernel "
                                   "on a CPU device runs inside it) wrote into its results. This run does not count."),
                      _(must_be_one[i]));
            return ENG_RUNTIME;
        }
    size_t slen = 0, hlen_b = 0;
    const double *samples = blob_get(sr->blob, sr->blob_len, W_SAMPLES, 0, &slen);
    const uint64_t *hashes = blob_get(sr->blob, sr->blob_len, W_HASHES, 0, &hlen_b);
    int n = samples ? (int)(slen / sizeof(double)) : 0;
    int nh = hashes ? (int)(hlen_b / sizeof(uint64_t)) : 0;
    /* a launch is hashed after it ran; a series hashes each instance of its ring once, after it */
    int hashes_ok = rq->timing == ENGINE_TIMING_SERIES ? nh <= n && nh <= ENGINE_SERIES_RING && (nh > 0) == (n > 0)
                                                       : n == nh;
    if (!hashes_ok) {
        util_errf(headline, hlen, "%s", N_("Results tampered with"));
        util_errf(msg, mlen, _("The worker handed back %d kernel times but %d output checks: something in the worker "
                               "process wrote into its results. This run does not count."), n, nh);
        return ENG_RUNTIME;
    }
    /* each timed launch had inputs of its own: the engine checks their answers (engine_check_launches) */
    size_t olen = 0;
    const void *outs = blob_get(sr->blob, sr->blob_len, W_OUTPUTS, 0, &olen);
    if (outs && olen != out_len * (size_t)nh) {
        util_errf(headline, hlen, "%s", N_("Results tampered with"));
        util_errf(msg, mlen, _("The worker handed back %zu bytes of timed outputs for %d launches of %zu bytes: "
                               "something in the worker process wrote into its results. This run does not count."),
                  olen, nh, out_len);
        return ENG_RUNTIME;
    }
    size_t clen = 0;
    const worker_input_change *c = blob_get(sr->blob, sr->blob_len, W_INPUT, 0, &clen);
    if (c && clen == sizeof *c) {
        char name[sizeof c->name + 1];
        memcpy(name, c->name, sizeof c->name);
        name[sizeof c->name] = '\0';
        util_errf(headline, hlen, "%s", N_("Input overwritten"));
        util_errf(msg, mlen, _("The kernel wrote into its input '%s': after the runs %llu of its %llu bytes differ "
                               "from what it was given (the first at byte %llu). A kernel must give the same answer "
                               "every time and must not write into its inputs."), name, (unsigned long long)c->differ,
                  (unsigned long long)c->bytes, (unsigned long long)c->first);
        return ENG_WRONG;
    }
    /* the kernel times must be times, and fit in the run phase the parent saw */
    double sum = 0;
    int bad = n > (rq->max_runs > 0 ? rq->max_runs : 1000);
    for (int i = 0; i < n && !bad; i++) {
        if (!isfinite(samples[i]) || samples[i] <= 0) bad = 1;
        sum += samples[i];
    }
    if (!bad && n > 0 && run_phase_runs_kernel(sr->phase) && sum > (sr->phase_s * 1e3) * 1.02 + 5) bad = 1;
    if (bad) {
        util_errf(headline, hlen, "%s", N_("Timing rejected"));
        util_errf(msg, mlen, _("The worker reported %d kernel times, %.3f ms in all, that cannot be right: the run "
                               "took %.3f s on the grader's clock. Something in the worker process (a kernel on a "
                               "CPU device runs inside it) changed them, so the timing does not count."),
                  n, sum, sr->phase_s);
        return ENG_RUNTIME;
    }
    return ENG_PASS;
}

/* ---- the self-test */

/* What a probe did (a word of the worker's record), in the reader's language. */
static const char *probe_word(const char *w) {
    static const char *const words[] = {N_("refused"), N_("allowed"), N_("either"), N_("ran"), N_("failed")};
    for (size_t i = 0; i < CLT_ARRAY_LEN(words); i++)
        if (!strcmp(w, words[i])) return _(words[i]);
    return w;
}

int wproto_selftest(const char *probe_dir, const char *device_spec, char **text, char *err, size_t errlen) {
    *text = NULL;
    engine_request rq;
    engine_request_defaults(&rq);
    rq.device_spec = device_spec;
    /* a run's cap on what it hands back, and on every file it writes */
    sandbox_limits lim = {.total_s = 300, .grace_s = 1, .result_max_bytes = WPROTO_SELFTEST_RESULT_MAX};
    sandbox_result sr;
    char sibling[PATH_MAX + 64];
    snprintf(sibling, sizeof sibling, "%s/" WPROTO_SELFTEST_SIBLING, probe_dir);
    static const char secret[] = "__kernel void histogram() {} /* another student's work */\n";
    if (util_write_file_atomic(sibling, secret, sizeof secret - 1) != 0) {
        util_errf(err, errlen, _("cannot write %s, which the self-test's worker must not be able to read"), sibling);
        return -1;
    }
    int started = wproto_run(WK_SELFTEST, &rq, probe_dir, &lim, NULL, NULL, NULL, &sr, err, errlen);
    unlink(sibling);
    if (started != 0) return -1;
    int failed = 0;
    char *how = blob_get_str(sr.blob, sr.blob_len, W_CONFINE);
    const engine_device *dev = blob_get(sr.blob, sr.blob_len, W_DEVICE, 0, NULL);
    if (dev) util_sappend(text, _("device: %s (%s)\n"), dev->name, dev->platform);
    if (how) util_sappend(text, _("confinement: %s\n"), how);
    free(how);
    for (int i = 0;; i++) {
        size_t len = 0;
        const char *p = blob_get(sr.blob, sr.blob_len, W_PROBE, i, &len);
        if (!p) break;
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        char *f[4] = {line, NULL, NULL, NULL};
        for (int k = 1; k < 4; k++) {
            char *tab = f[k - 1] ? strchr(f[k - 1], '\t') : NULL;
            if (tab) {
                *tab = '\0';
                f[k] = tab + 1;
            }
        }
        if (!f[3]) continue;
        int wrong = strcmp(f[3], "either") && strcmp(f[1], f[3]);
        failed |= wrong;
        /* the probe's name (marked in worker.c), what happened, why (the system's words) */
        if (f[2][0]) util_sappend(text, _("%s: %s (%s)"), _(f[0]), probe_word(f[1]), f[2]);
        else util_sappend(text, _("%s: %s"), _(f[0]), probe_word(f[1]));
        if (wrong) util_sappend(text, _("  <- must be %s"), probe_word(f[3]));
        util_sappend(text, "\n");
    }
    const int *status = blob_get(sr.blob, sr.blob_len, W_STATUS, 0, NULL);
    if (!status && sr.exited && sr.exit_code == 97) {
        util_sappend(text, "%s", _("execve(/bin/sh): allowed (the worker was replaced)  <- must be refused\n"));
        failed = 1;
    } else if (!status || *status != ENG_PASS) {
        char *m = blob_get_str(sr.blob, sr.blob_len, W_MESSAGE);
        const char *why = m ? m : run_phase_name(sr.phase);
        if (sr.output) util_sappend(text, _("the self-test did not finish (%s): %s\n"), why, sr.output);
        else util_sappend(text, _("the self-test did not finish (%s)\n"), why);
        free(m);
        failed = 1;
    }
    sandbox_result_free(&sr);
    return failed ? 1 : 0;
}
