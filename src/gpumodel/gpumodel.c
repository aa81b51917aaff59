/* gpumodel — the GPU memory model: runs a kernel on the Oclgrind simulator with cltutor's plugin (its output read by gm_parse) and analyses a chapter's kernel beside the stage before it. */
#define _GNU_SOURCE
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_text.h"
#include "gpumodel/gm_draw.h"
#include "base/util.h"
#include "run/runcache.h"
#include "text/i18n.h"

#include <limits.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GM_PLUGIN_NAME "cltutor-gpumodel.so"
#define GM_INSTALL "sudo apt-get install oclgrind liboclgrind-dev llvm-14-dev g++"

/* Small sizes per problem for chapters without analysis_size: tens of
 * thousands of work-items at most, a second or two in the simulator. */
static const struct {
    const char *problem, *size;
} fallback_sizes[] = {
    {"surf", "1024x16"},
    {"bytes", "256K:equal"},     /* every byte the same: the worst case for bank conflicts */
    {"scan", "32K"},
    {"integral", "256x256"},
};

const char *gpumodel_analysis_size(const lesson *l, int *is_fallback) {
    const char *s = lesson_param_get(l, "analysis_size", NULL);
    if (is_fallback) *is_fallback = 0;
    if (s && *s) return s;
    if (is_fallback) *is_fallback = 1;
    for (size_t i = 0; i < CLT_ARRAY_LEN(fallback_sizes); i++)
        if (!strcmp(l->problem, fallback_sizes[i].problem)) return fallback_sizes[i].size;
    return l->default_size;
}

/* ---- finding Oclgrind and the plugin ---- */

int gpumodel_backend(char *icd, size_t icd_len, char *plugin, size_t plugin_len, char *why, size_t why_len) {
    static const char *const icd_paths[] = {
        "/usr/lib/oclgrind/liboclgrind-rt-icd.so",
        "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
        "/usr/lib/aarch64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
        "/usr/local/lib/liboclgrind-rt-icd.so",
        "/usr/local/lib/oclgrind/liboclgrind-rt-icd.so",
        "/usr/lib/liboclgrind-rt-icd.so",
    };
    icd[0] = plugin[0] = '\0';
    const char *env = getenv("CLTUTOR_OCLGRIND_ICD");
    if (env && *env) {
        if (util_is_file(env)) snprintf(icd, icd_len, "%s", env);
    } else {
        for (size_t i = 0; i < CLT_ARRAY_LEN(icd_paths) && !icd[0]; i++)
            if (util_is_file(icd_paths[i])) snprintf(icd, icd_len, "%s", icd_paths[i]);
    }
    if (!icd[0]) {
        if (env && *env)
            util_errf(why, why_len,
                       _("The GPU memory model runs your kernel on Oclgrind, an OpenCL GPU simulator, and Oclgrind is "
                         "not installed (CLTUTOR_OCLGRIND_ICD names %s, which does not exist). Install it with:\n  "
                         "%s\nthen rebuild cltutor (make) so that its Oclgrind plugin is built too. Everything else in "
                         "cltutor works without it."), env, GM_INSTALL);
        else
            util_errf(why, why_len,
                       _("The GPU memory model runs your kernel on Oclgrind, an OpenCL GPU simulator, and Oclgrind is "
                         "not installed. Install it with:\n  %s\nthen rebuild cltutor (make) so that its Oclgrind "
                         "plugin is built too. Everything else in cltutor works without it."), GM_INSTALL);
        return -1;
    }
    env = getenv("CLTUTOR_GM_PLUGIN");
    char exe[1024];
    if (env && *env) {
        if (util_is_file(env)) snprintf(plugin, plugin_len, "%s", env);
    } else {
        if (util_exe_dir(exe, sizeof exe) == 0) {
            {
                char p[1200];
                snprintf(p, sizeof p, "%s/%s", exe, GM_PLUGIN_NAME);   /* a build folder */
                if (!util_is_file(p)) snprintf(p, sizeof p, "%s/../lib/cltutor/%s", exe, GM_PLUGIN_NAME); /* PREFIX/bin */
                if (util_is_file(p)) snprintf(plugin, plugin_len, "%s", p);
            }
        }
#ifdef CLT_PLUGINDIR
        if (!plugin[0] && util_is_file(CLT_PLUGINDIR "/" GM_PLUGIN_NAME))
            snprintf(plugin, plugin_len, "%s", CLT_PLUGINDIR "/" GM_PLUGIN_NAME);
#endif
    }
    if (!plugin[0]) {
        if (env && *env)
            util_errf(why, why_len,
                       _("Oclgrind is installed, but cltutor's Oclgrind plugin (%s) was not found next to the cltutor "
                         "program or at $CLTUTOR_GM_PLUGIN. Build it with `make` (it needs Oclgrind's headers: %s)."),
                       GM_PLUGIN_NAME, GM_INSTALL);
        else
            util_errf(why, why_len,
                       _("Oclgrind is installed, but cltutor's Oclgrind plugin (%s) was not found next to the cltutor "
                         "program. Build it with `make` (it needs Oclgrind's headers: %s)."),
                       GM_PLUGIN_NAME, GM_INSTALL);
        return -1;
    }
    return 0;
}

/* ---- running the analysis ---- */

/* Leaves out the problem's helper kernel (one work-item answering the host a
 * question): it is not the learner's work and its one store would show as an
 * uncoalesced access. */
static void drop_helper_kernel(gpumodel_report *rep, const problem_ops *ops) {
    if (!ops || !ops->helper_kernel) return;
    for (int i = 0; i < rep->n_kernels; i++) {
        if (strcmp(rep->kernels[i].name, ops->helper_kernel) != 0) continue;
        /* its answer shapes the other kernels' launches (the time prediction asks) */
        memcpy(rep->helper_answer, rep->kernels[i].answer, sizeof rep->helper_answer);
        rep->n_helper_answer = rep->kernels[i].n_answer;
        for (int j = 0; j < rep->kernels[i].n_acc; j++) free(rep->kernels[i].acc[j].reqs);
        free(rep->kernels[i].acc);
        memmove(&rep->kernels[i], &rep->kernels[i + 1], sizeof rep->kernels[0] * (size_t)(rep->n_kernels - i - 1));
        rep->n_kernels--;
        i--;
    }
}

/* The key of an analysis in the cache of run results (run/runcache): the
 * kernel text, the chapter, size, seed, what the worker is given, and the
 * programs that run it. -1 when it cannot be kept: a file the source
 * policy refuses (it may read other files or tell the simulator apart). */
static int analysis_key(const engine_request *rq, int races, const gm_sampling *smp, const char *const *env,
                        const char *icd, const char *plugin, runcache_key *k) {
    if (runcache_key_run(k, "gpumodel analysis 3", rq) != 0) return -1;
    runcache_key_u64(k, "races", (uint64_t)races);
    runcache_key_u64(k, "sampled groups", smp ? smp->groups : 0);
    runcache_key_u64(k, "in order", smp ? (uint64_t)smp->in_order : 0);
    runcache_key_u64(k, "draw", smp ? smp->draw : 0);
    for (const char *const *e = env; *e; e++)
        if (strncmp(*e, "OCL_ICD_VENDORS=", 16) && strncmp(*e, "CLTUTOR_GM_OUT=", 15)) runcache_key_str(k, "env", *e);
    runcache_key_file(k, "plugin", plugin);
    runcache_key_file(k, "oclgrind", icd);
    return runcache_key_done(k);
}

/* The simulation's report and the plugin's figures kept under key, into
 * rep->run and *text. Returns 0, or -1 when there is none to use. */
static int recall_analysis(const runcache_key *k, const char *display, gpumodel_report *rep, char **text) {
    cJSON *j = runcache_get(k);
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(j, "run");
    const cJSON *figures = cJSON_GetObjectItemCaseSensitive(j, "figures");
    int rc = -1;
    if (cJSON_IsString(figures) && runcache_report_from_json(run, display, &rep->run) == 0) {
        *text = strdup(figures->valuestring);
        rc = *text ? 0 : -1;
    }
    cJSON_Delete(j);
    return rc;
}

/* Keeps a simulation that ran to its end: its outcome no longer depends on anything the key leaves out. */
static void keep_analysis(const runcache_key *k, const char *display, const engine_report *run, const char *text) {
    if (run->status != ENG_PASS && run->status != ENG_WRONG) return;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "run", runcache_report_json(run, display));
    cJSON_AddStringToObject(j, "figures", text);
    runcache_put(k, j);
    cJSON_Delete(j);
}

/* Runs rq on Oclgrind with the plugin (env: the worker's settings, dir: where
 * the plugin writes). Returns the plugin's figures (malloc'd) or NULL. */
static char *simulate(engine_request *rq, const char *const *env, const char *dir, run_progress_cb cb, void *user,
                      volatile int *cancel, gpumodel_report *rep) {
    char out_file[600];
    snprintf(out_file, sizeof out_file, "%s/figures.txt", dir);
    rq->worker_env = env;
    rq->worker_writable = dir; /* where the plugin writes its figures */
    rq->device_spec = "oclgrind";
    rq->budget_s = 0;
    engine_run(rq, cb, user, cancel, &rep->run);
    char *text = util_read_file(out_file, NULL);
    unlink(out_file);
    return text;
}

/* Why a simulation gave no figures, in rep->message. */
static void explain_failure(gpumodel_report *rep, const engine_request *rq, const char *plugin) {
    engine_status st = rep->run.status;
    rep->status = GM_FAILED;
    if (st == ENG_NO_DEVICE)
        util_errf(rep->message, sizeof rep->message,
                   _("Oclgrind did not start as an OpenCL device (%s). Reinstall it with:\n  %s"), rep->run.message,
                   GM_INSTALL);
    else if (st == ENG_TIMEOUT && !strcmp(rep->run.headline, "Timed out"))
        util_errf(rep->message, sizeof rep->message,
                   _("The simulation did not finish within %.0f s. Either the kernel never ends (a loop whose "
                     "condition stays true, or a barrier some work-items never reach: run it with r, or cltutor "
                     "run, to see whether it ends on the device), or it is only slow here: Oclgrind runs a kernel "
                     "about 1000 times slower than a CPU does, so analyse a smaller size (this was %s; S in the "
                     "course, --size on the command line) or allow longer (T, --timeout)."),
                   rq->timeout_s, rep->size_text);
    else if ((st == ENG_PASS || st == ENG_WRONG) && rep->run.worker_output)
        util_errf(rep->message, sizeof rep->message,
                   _("Oclgrind ran the kernel but cltutor's plugin (%s) reported nothing; the simulator said: %s"),
                   plugin, rep->run.worker_output);
    else if (st == ENG_PASS || st == ENG_WRONG)
        util_errf(rep->message, sizeof rep->message,
                   _("Oclgrind ran the kernel but cltutor's plugin (%s) reported nothing; the simulator said: "
                     "nothing"), plugin);
    else /* the run's headline is English, translated here; its message is already the learner's */
        util_errf(rep->message, sizeof rep->message, _("%s: %s"), _(rep->run.headline), rep->run.message);
}

/* The text the simulator runs when only some work-groups are (gm_sample.h),
 * written into dir; its path in out. -1 with rep's message. */
static int sampled_copy(const engine_request *rq, const gm_sampling *smp, const char *dir, char *out, size_t len,
                        gpumodel_report *rep) {
    char *src = util_read_file(rq->kernel_path, NULL), err[512] = "";
    char *text = src ? gm_sample_source(src, smp, err, sizeof err) : NULL;
    free(src);
    snprintf(out, len, "%s/sampled.cl", dir);
    int rc = text && util_write_file_atomic(out, text, strlen(text)) == 0 ? 0 : -1;
    free(text);
    if (rc != 0) {
        rep->status = GM_FAILED;
        util_errf(rep->message, sizeof rep->message, "%s: %s", rq->display_path ? rq->display_path : rq->kernel_path,
                  *err ? err : _("cannot be read"));
    }
    return rc;
}

/* races: look for data races too (a third slower); the comparison's run and
 * a reference's figures (gpumodel_analyze_figures), whose findings are not
 * shown, go without. An analysis made before with the same key is taken from
 * the cache of run results instead of simulated again. */
static int analyze(const engine_request *rq_in, int races, const gm_sampling *smp, run_progress_cb cb, void *user,
                   volatile int *cancel, gpumodel_report *rep) {
    memset(rep, 0, sizeof *rep);
    engine_request rq = *rq_in;
    if (smp) rep->sample = *smp;
    snprintf(rep->kernel_path, sizeof rep->kernel_path, "%s", rq.display_path ? rq.display_path : rq.kernel_path);
    snprintf(rep->source_path, sizeof rep->source_path, "%s", rq.kernel_path);
    char icd[1024], plugin[1024];
    if (gpumodel_backend(icd, sizeof icd, plugin, sizeof plugin, rep->message, sizeof rep->message) != 0) {
        rep->status = GM_UNAVAILABLE;
        return -1;
    }
    int fallback = 0;
    if (rq.size_spec) {
        snprintf(rep->size_origin, sizeof rep->size_origin, "--size");
    } else {
        rq.size_spec = gpumodel_analysis_size(rq.lesson, &fallback);
        snprintf(rep->size_origin, sizeof rep->size_origin, "%s", fallback ? "fallback" : "analysis_size");
    }
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/cltutor-gm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        rep->status = GM_FAILED;
        util_errf(rep->message, sizeof rep->message, _("cannot make a temporary folder in %s"), tmp && *tmp ? tmp : "/tmp");
        return -1;
    }
    char sampled[600];
    if (smp && smp->groups) {
        if (!rq.display_path) rq.display_path = rq.kernel_path;
        if (sampled_copy(&rq, smp, dir, sampled, sizeof sampled, rep) != 0) {
            rmdir(dir);
            return -1;
        }
        rq.kernel_path = sampled;
    }
    char icd_file[600];
    snprintf(icd_file, sizeof icd_file, "%s/oclgrind.icd", dir);
    char icd_line[1100];
    snprintf(icd_line, sizeof icd_line, "%s\n", icd);
    if (util_write_file_atomic(icd_file, icd_line, strlen(icd_line)) != 0) {
        rep->status = GM_FAILED;
        util_errf(rep->message, sizeof rep->message, _("cannot write %s"), icd_file);
        rmdir(dir);
        return -1;
    }
    /* the worker alone sees Oclgrind: only its ICD, its plugin, its checkers */
    char e_vendors[600], e_plugins[1100], e_out[700];
    snprintf(e_vendors, sizeof e_vendors, "OCL_ICD_VENDORS=%s", dir);
    snprintf(e_plugins, sizeof e_plugins, "OCLGRIND_PLUGINS=%s", plugin);
    snprintf(e_out, sizeof e_out, "CLTUTOR_GM_OUT=%s/figures.txt", dir);
    /* the caller's own settings first (a grader's cache folder), then the simulator's;
     * 48 KiB of local memory per work-group, as most GPUs give a kernel by default */
    const char *env[24];
    int ne = 0;
    for (const char *const *e = rq_in->worker_env; e && *e && ne < 16; e++) env[ne++] = *e;
    const char *own[] = {e_vendors, e_plugins, e_out, "OCLGRIND_LOG=/dev/null", "OCLGRIND_LOCAL_MEM_SIZE=49152",
                         gm_sample_quick(smp) ? "OCLGRIND_QUICK=1" : NULL, races ? "OCLGRIND_DATA_RACES=1" : NULL};
    for (size_t i = 0; i < CLT_ARRAY_LEN(own); i++)
        if (own[i]) env[ne++] = own[i];
    env[ne] = NULL;

    double t0 = util_now();
    runcache_key key;
    engine_request as_written = rq; /* keyed by the learner's text, not the sampled copy's */
    as_written.kernel_path = rq_in->kernel_path;
    int keyed = analysis_key(&as_written, races, smp, env, icd, plugin, &key) == 0;
    char *text = NULL;
    const char *display = rq.display_path ? rq.display_path : rq.kernel_path;
    rep->recalled = keyed && recall_analysis(&key, display, rep, &text) == 0;
    if (!rep->recalled) {
        text = simulate(&rq, env, dir, cb, user, cancel, rep);
        if (keyed && text && *text) keep_analysis(&key, display, &rep->run, text);
    }
    rep->wall_s = util_now() - t0;
    snprintf(rep->size_text, sizeof rep->size_text, "%s", rep->run.size_text[0] ? rep->run.size_text : rq.size_spec);
    unlink(icd_file);
    if (smp && smp->groups) unlink(sampled);
    rmdir(dir);

    engine_status st = rep->run.status;
    int ran = st == ENG_PASS || st == ENG_WRONG || st == ENG_CRASH || st == ENG_RUNTIME;
    if (!ran || !text || !*text) {
        explain_failure(rep, &rq, plugin);
        free(text);
        return -1;
    }
    char err[256];
    if (gpumodel_parse(text, rep, err, sizeof err) != 0) {
        rep->status = GM_FAILED;
        util_errf(rep->message, sizeof rep->message, "%s", err);
        free(text);
        return -1;
    }
    free(text);
    drop_helper_kernel(rep, problem_find(rq.lesson->problem));
    rep->status = GM_OK;
    gpumodel_format(rep);
    return 0;
}

int gpumodel_analyze(const engine_request *rq, run_progress_cb cb, void *user, volatile int *cancel,
                     gpumodel_report *rep) {
    return analyze(rq, 1, NULL, cb, user, cancel, rep);
}

int gpumodel_analyze_figures(const engine_request *rq, run_progress_cb cb, void *user, volatile int *cancel,
                             gpumodel_report *rep) {
    return analyze(rq, 0, NULL, cb, user, cancel, rep);
}

int gpumodel_analyze_sampled(const engine_request *rq, const gm_sampling *smp, run_progress_cb cb, void *user,
                             volatile int *cancel, gpumodel_report *rep) {
    return analyze(rq, 0, smp, cb, user, cancel, rep);
}

/* ---- a chapter, compared ---- */

/* Whether two files hold the same text (the learner has not changed the starting file). */
static int same_text(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    char *x = util_read_file(a, &la), *y = util_read_file(b, &lb);
    int same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

typedef struct {
    run_progress_cb cb;
    void *user;
} prefix_ctx;

/* Passes the comparison's progress on, marked as the comparison's. */
static void prefixed_progress(void *user, const run_progress *p) {
    prefix_ctx *pc = user;
    run_progress mine = *p;
    mine.comparison = 1;
    pc->cb(pc->user, &mine);
}

/* A course file's path as the course names it ("kernels/02-atomic/histogram.cl"): the same on every machine. */
static const char *course_relative(const paths *pth, const char *path) {
    size_t n = strlen(pth->data);
    return !strncmp(path, pth->data, n) && path[n] == '/' ? path + n + 1 : path;
}

/* The file a chapter's kernel is compared with: the previous chapter's
 * reference, or where that chapter solves another problem (or there is
 * none) this chapter's starting file; other is "" when the kernel is that
 * file. label names it in the current language. Returns its lesson. */
static const lesson *compared_file(const lesson *l, const catalog *cat, const paths *pth, const char *kernel_path,
                                   char *other, size_t olen, char *label, size_t llen) {
    const lesson *prev = l->previous > 0 && cat ? catalog_by_number(cat, l->previous) : NULL;
    other[0] = label[0] = '\0';
    if (prev && !strcmp(prev->problem, l->problem)) {
        paths_solution(pth, prev, other, olen);
        util_textf(label, llen, _("chapter %d's reference (%s)"), prev->number, course_relative(pth, other));
        return prev;
    }
    paths_starting(pth, l, other, olen);
    if (same_text(other, kernel_path)) other[0] = '\0';
    else util_textf(label, llen, _("this chapter's starting file (%s)"), course_relative(pth, other));
    return l;
}

void gpumodel_retranslate(gpumodel_report *rep, const gpumodel_cache *kept, const lesson *l, const catalog *cat,
                          const paths *pth) {
    if (rep->status != GM_OK) return;
    if (!rep->prev_label[0]) {
        gpumodel_format(rep);
        return;
    }
    char other[1200], label[1400];
    const char *mine = rep->source_path[0] ? rep->source_path : rep->kernel_path;
    compared_file(l, cat, pth, mine, other, sizeof other, label, sizeof label);
    int have = kept && kept->set && !strcmp(kept->path, other);
    gpumodel_compare(rep, have ? &kept->rep : NULL, label[0] ? label : NULL);
}

/* Analyses a chapter's kernel and, with compare, the stage before it (the previous reference or the starting file). */
int gpumodel_analyze_chapter(const engine_request *rq, const catalog *cat, const paths *pth, int compare,
                             gpumodel_cache *cache, run_progress_cb cb, void *user, volatile int *cancel,
                             gpumodel_report *rep) {
    const lesson *l = rq->lesson;
    if (gpumodel_analyze(rq, cb, user, cancel, rep) != 0 || !compare) return rep->status == GM_OK ? 0 : -1;
    char other[1200], label[1400];
    const lesson *prev = compared_file(l, cat, pth, rq->kernel_path, other, sizeof other, label, sizeof label);
    if (!other[0] || !util_is_file(other)) return 0;
    engine_request prq = *rq;
    prq.lesson = prev;
    prq.kernel_path = other;
    prq.display_path = NULL;
    prq.size_spec = rq->size_spec ? rq->size_spec : gpumodel_analysis_size(l, NULL);
    struct stat st;
    if (stat(other, &st) != 0) memset(&st, 0, sizeof st);
    long long mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    gpumodel_cache none = {0}, *kept = cache ? cache : &none;
    int reuse = kept->set && !strcmp(kept->path, other) && !strcmp(kept->size, prq.size_spec) &&
                kept->seed == prq.seed && kept->mtime_ns == mtime && kept->file_size == (long long)st.st_size;
    if (!reuse) {
        gpumodel_cache_free(kept);
        prefix_ctx pc = {cb, user};
        analyze(&prq, 0, NULL, cb ? prefixed_progress : NULL, &pc, cancel, &kept->rep);
        kept->set = kept->rep.status == GM_OK && !(cancel && *cancel); /* a failed analysis is not kept */
        snprintf(kept->path, sizeof kept->path, "%s", other);
        snprintf(kept->size, sizeof kept->size, "%s", prq.size_spec);
        kept->seed = prq.seed;
        kept->mtime_ns = mtime;
        kept->file_size = (long long)st.st_size;
    }
    rep->prev_kept = reuse;
    gpumodel_compare(rep, &kept->rep, label);
    if (!kept->set || kept == &none) {
        gpumodel_report_free(&kept->rep);
        kept->set = 0;
    }
    return 0;
}

void gpumodel_cache_free(gpumodel_cache *c) {
    if (!c) return;
    gpumodel_report_free(&c->rep);
    memset(c, 0, sizeof *c);
}

gm_kernel *gpumodel_kernels_copy(const gm_kernel *k, int n) {
    if (n <= 0) return NULL;
    gm_kernel *c = calloc((size_t)n, sizeof *c);
    if (!c) return NULL;
    for (int i = 0; i < n; i++) {
        c[i] = k[i];
        c[i].acc = k[i].n_acc ? calloc((size_t)k[i].n_acc, sizeof *c[i].acc) : NULL;
        if (!c[i].acc) c[i].n_acc = 0;
        for (int j = 0; j < c[i].n_acc; j++) {
            gm_access *a = &c[i].acc[j];
            *a = k[i].acc[j];
            a->reqs = a->n_reqs ? malloc(sizeof *a->reqs * (size_t)a->n_reqs) : NULL;
            if (a->reqs) memcpy(a->reqs, k[i].acc[j].reqs, sizeof *a->reqs * (size_t)a->n_reqs);
            else a->n_reqs = 0;
        }
    }
    return c;
}

void gpumodel_kernels_free(gm_kernel *k, int n) {
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k[i].n_acc; j++) free(k[i].acc[j].reqs);
        free(k[i].acc);
    }
    free(k);
}

void gpumodel_report_free(gpumodel_report *rep) {
    gpumodel_kernels_free(rep->kernels, rep->n_kernels);
    gpumodel_kernels_free(rep->prev_kernels, rep->n_prev_kernels);
    rep->prev_kernels = NULL;
    rep->n_prev_kernels = 0;
    free(rep->issues);
    free(rep->notes);
    gm_free_lines(&rep->lines, &rep->n_lines);
    gm_free_roles(rep);
    gm_free_lines(&rep->compare, &rep->n_compare);
    engine_report_free(&rep->run);
    rep->kernels = NULL;
    rep->issues = NULL;
    rep->notes = NULL;
    rep->n_kernels = rep->n_issues = rep->n_notes = 0;
}
