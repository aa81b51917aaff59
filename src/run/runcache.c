/* runcache — results of runs that always come out the same, kept on disk as JSON under a SHA-256 of what decides them. */
#define _GNU_SOURCE
#include "run/runcache.h"
#include "run/srcpolicy.h"
#include "run/wproto.h"
#include "text/i18n.h"
#include "base/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int runcache_folder(char *buf, size_t len) {
    const char *env = getenv("CLTUTOR_RESULT_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env) {
        if (!strcmp(env, "off") || env[0] != '/') return -1;
        return util_pathf(buf, len, "%s", env);
    }
    if (xdg && xdg[0] == '/') return util_pathf(buf, len, "%s/cltutor/results", xdg);
    if (home && home[0] == '/') return util_pathf(buf, len, "%s/.cache/cltutor/results", home);
    return -1;
}

/* ---- the key ---- */

void runcache_key_init(runcache_key *k, const char *what) {
    memset(k, 0, sizeof *k);
    sha256_init(&k->ctx);
    runcache_key_str(k, "what", what);
}

void runcache_key_bytes(runcache_key *k, const char *name, const void *data, size_t len) {
    uint8_t n[8];
    for (int i = 0; i < 8; i++) n[i] = (uint8_t)((uint64_t)len >> (8 * i));
    sha256_update(&k->ctx, strlen(name) + 1, (const uint8_t *)name);
    sha256_update(&k->ctx, sizeof n, n);
    sha256_update(&k->ctx, len, data);
}

void runcache_key_str(runcache_key *k, const char *name, const char *value) {
    runcache_key_bytes(k, name, value ? value : "", value ? strlen(value) : 0);
}

void runcache_key_u64(runcache_key *k, const char *name, uint64_t value) {
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    runcache_key_str(k, name, text);
}

void runcache_key_file(runcache_key *k, const char *name, const char *path) {
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        k->unreadable = 1;
        return;
    }
    char id[128];
    snprintf(id, sizeof id, "%llu %llu %lld %lld.%09ld", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
             (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    runcache_key_str(k, name, id);
}

void runcache_key_lesson(runcache_key *k, const lesson *l) {
    runcache_key_u64(k, "chapter", (uint64_t)l->number);
    runcache_key_str(k, "problem", l->problem);
    for (int i = 0; i < l->n_kernels; i++) runcache_key_str(k, "kernel", l->kernels[i]);
    for (int i = 0; i < l->n_params; i++) {
        runcache_key_str(k, "param", l->params[i].key);
        runcache_key_str(k, "value", l->params[i].value);
    }
}

int runcache_key_done(runcache_key *k) {
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&k->ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(k->hex + 2 * i, 3, "%02x", digest[i]);
    return k->unreadable ? -1 : 0;
}

int runcache_key_run(runcache_key *k, const char *what, const engine_request *rq) {
    char *text = util_read_file(rq->kernel_path, NULL);
    if (!text) return -1;
    char worker[PATH_MAX], why[256];
    srcpolicy_finding f;
    int refused = srcpolicy_check_chapter(text, NULL, rq->lesson, &f) != 0;
    if (refused || wproto_find_worker(worker, sizeof worker, why, sizeof why) != 0) {
        free(text);
        return -1;
    }
    runcache_key_init(k, what);
    runcache_key_str(k, "kernel text", text);
    free(text);
    runcache_key_lesson(k, rq->lesson);
    runcache_key_str(k, "size", rq->size_spec ? rq->size_spec : rq->lesson->default_size);
    runcache_key_u64(k, "seed", rq->seed);
    runcache_key_u64(k, "compute units", (uint64_t)rq->compute_units);
    runcache_key_str(k, "language", i18n_lang()); /* a report's sentences are in the language of the run */
    runcache_key_file(k, "worker", worker);
    runcache_key_file(k, "program", "/proc/self/exe");
    return 0;
}

static int golden_key(const prob_instance *pi, runcache_key *k) {
    char size[160];
    if (!pi->ops->golden_words || !pi->ops->golden_restore) return -1;
    pi->ops->format_size(&pi->size, size, sizeof size);
    runcache_key_init(k, "golden 1");
    runcache_key_lesson(k, pi->lesson);
    runcache_key_str(k, "size", size);
    runcache_key_str(k, "input", pi->size.input);
    runcache_key_u64(k, "seed", pi->seed);
    runcache_key_file(k, "program", "/proc/self/exe");
    return runcache_key_done(k);
}

int runcache_golden_recall(prob_instance *pi) {
    runcache_key k;
    if (golden_key(pi, &k) != 0) return -1;
    cJSON *j = runcache_get(&k);
    const cJSON *words = cJSON_GetObjectItemCaseSensitive(j, "words"), *e;
    int n = cJSON_GetArraySize(words), i = 0, rc = -1;
    uint32_t *w = cJSON_IsArray(words) && n > 0 ? calloc((size_t)n, sizeof *w) : NULL;
    cJSON_ArrayForEach(e, words) {
        if (!w || !cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > UINT32_MAX) break;
        w[i++] = (uint32_t)e->valuedouble;
    }
    if (w && i == n) rc = pi->ops->golden_restore(pi, w, (size_t)n);
    free(w);
    cJSON_Delete(j);
    return rc;
}

void runcache_golden_keep(const prob_instance *pi) {
    runcache_key k;
    if (golden_key(pi, &k) != 0) return;
    size_t n = pi->ops->golden_words(pi, NULL, 0);
    uint32_t *w = n ? calloc(n, sizeof *w) : NULL;
    cJSON *j = cJSON_CreateObject(), *words = cJSON_AddArrayToObject(j, "words");
    if (w && words && pi->ops->golden_words(pi, w, n) == n) {
        for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(words, cJSON_CreateNumber(w[i]));
        runcache_put(&k, j);
    }
    cJSON_Delete(j);
    free(w);
}

void runcache_golden_answer(prob_instance *pi) {
    if (runcache_golden_recall(pi) == 0) return;
    if (pi->ops->prepare_golden) pi->ops->prepare_golden(pi);
    pi->ops->golden(pi);
    runcache_golden_keep(pi);
}

/* A vendor file's library, by its path or where the loader would find its name. */
static void key_icd_library(runcache_key *k, const char *icd_text) {
    char name[PATH_MAX];
    size_t n = strcspn(icd_text, "\r\n");
    if (n == 0 || n >= sizeof name) return;
    memcpy(name, icd_text, n);
    name[n] = '\0';
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                                       "/usr/lib", "/usr/local/lib"};
    char path[PATH_MAX + 64];
    if (name[0] == '/') {
        runcache_key_file(k, "runtime", name);
        return;
    }
    for (size_t i = 0; i < CLT_ARRAY_LEN(dirs); i++) {
        snprintf(path, sizeof path, "%s/%s", dirs[i], name);
        if (util_is_file(path)) {
            runcache_key_file(k, "runtime", path);
            return;
        }
    }
    runcache_key_str(k, "runtime", name); /* on the library path: known by name only */
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void runcache_key_opencl(runcache_key *k) {
    extern char **environ;
    static const char *const prefix[] = {"OCL_", "OPENCL_", "POCL_", "CUDA_", "NVIDIA_", "GPU_", "HSA_", "HIP_",
                                         "ROC", "AMD_", "ZE_", "NEO", "IGC_", "RUSTICL_", "MESA_", "LD_LIBRARY_PATH="};
    for (char **e = environ; *e; e++)
        for (size_t i = 0; i < CLT_ARRAY_LEN(prefix); i++)
            if (!strncmp(*e, prefix[i], strlen(prefix[i]))) runcache_key_str(k, "setting", *e);
    const char *vendors = getenv("OCL_ICD_VENDORS");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", vendors && *vendors ? vendors : "/etc/OpenCL/vendors");
    if (util_is_file(dir)) { /* the loader takes a file too */
        char *text = util_read_file(dir, NULL);
        if (text) key_icd_library(k, text);
        free(text);
        return;
    }
    DIR *d = opendir(dir);
    if (!d) return;
    char *names[64];
    int n = 0;
    for (struct dirent *e; n < 64 && (e = readdir(d));)
        if (strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".icd")) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = util_read_file(path, NULL);
        runcache_key_str(k, "vendor", names[i]);
        if (text) key_icd_library(k, text);
        free(text);
        free(names[i]);
    }
}

/* ---- the store: FOLDER/ab/abcdef....json ---- */

static int entry_path(const runcache_key *k, char *buf, size_t len, int make_folder) {
    char root[PATH_MAX], folder[PATH_MAX];
    if (!k->hex[0] || k->unreadable || runcache_folder(root, sizeof root) != 0) return -1;
    if (util_pathf(folder, sizeof folder, "%s/%.2s", root, k->hex) != 0) return -1;
    if (make_folder && util_mkdirs(folder) != 0) return -1;
    return util_pathf(buf, len, "%s/%s.json", folder, k->hex + 2);
}

cJSON *runcache_get(const runcache_key *k) {
    char path[PATH_MAX];
    if (entry_path(k, path, sizeof path, 0) != 0) return NULL;
    char *text = util_read_file(path, NULL);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

int runcache_put(const runcache_key *k, const cJSON *value) {
    char path[PATH_MAX];
    if (entry_path(k, path, sizeof path, 1) != 0) return -1;
    char *text = cJSON_PrintUnformatted(value);
    int rc = text ? util_write_file_atomic(path, text, strlen(text)) : -1;
    free(text);
    return rc;
}

/* ---- what a run keeps ---- */

/* The kernel's name for people stands as this mark in what is kept. */
#define DISPLAY_MARK "\x01"

/* s with every `from` replaced by `to` (malloc'd; NULL for NULL). */
static char *swap(const char *s, const char *from, const char *to) {
    if (!s) return NULL;
    char *out = NULL;
    size_t fl = from && *from ? strlen(from) : 0;
    const char *p = s;
    for (const char *hit; fl && (hit = strstr(p, from)); p = hit + fl) util_sappend(&out, "%.*s%s", (int)(hit - p), p, to);
    util_sappend(&out, "%s", p);
    return out;
}

static void add_text(cJSON *o, const char *name, const char *s, const char *display) {
    if (!s) return;
    char *marked = swap(s, display, DISPLAY_MARK);
    cJSON_AddStringToObject(o, name, marked ? marked : s);
    free(marked);
}

static cJSON *verify_json(const verify_report *v) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ok", v->ok);
    cJSON_AddStringToObject(o, "what", v->what);
    cJSON_AddNumberToObject(o, "n_checked", (double)v->n_checked);
    cJSON_AddNumberToObject(o, "n_wrong", (double)v->n_wrong);
    cJSON_AddNumberToObject(o, "first_wrong", (double)v->first_wrong);
    cJSON_AddNumberToObject(o, "expected_total", (double)v->expected_total);
    cJSON_AddNumberToObject(o, "actual_total", (double)v->actual_total);
    cJSON_AddNumberToObject(o, "counts", v->counts);
    cJSON_AddNumberToObject(o, "near_ties", (double)v->near_ties);
    cJSON_AddStringToObject(o, "summary", v->summary);
    cJSON *es = cJSON_AddArrayToObject(o, "entries");
    for (int i = 0; i < v->n_entries; i++) {
        const vr_entry *e = &v->entries[i];
        cJSON *a = cJSON_CreateArray();
        double f[] = {(double)e->index, (double)e->expected, (double)e->actual, (double)e->lo, (double)e->hi, e->wrong};
        for (size_t x = 0; x < CLT_ARRAY_LEN(f); x++) cJSON_AddItemToArray(a, cJSON_CreateNumber(f[x]));
        cJSON_AddItemToArray(es, a);
    }
    return o;
}

static cJSON *kinfo_json(const engine_kernel_info *ki) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", ki->name);
    cJSON_AddNumberToObject(o, "local_mem", (double)ki->local_mem);
    cJSON_AddNumberToObject(o, "private_mem", (double)ki->private_mem);
    cJSON_AddNumberToObject(o, "arg_info", ki->arg_info);
    cJSON *args = cJSON_AddArrayToObject(o, "args");
    for (int a = 0; a < ki->n_args && a < ENGINE_MAX_KARGS; a++) {
        char space[2] = {ki->arg_space[a], '\0'};
        cJSON *arg = cJSON_CreateArray();
        cJSON_AddItemToArray(arg, cJSON_CreateString(space));
        cJSON_AddItemToArray(arg, cJSON_CreateString(ki->arg_name[a]));
        cJSON_AddItemToArray(args, arg);
    }
    return o;
}

cJSON *runcache_report_json(const engine_report *r, const char *display) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "status", r->status);
    cJSON_AddStringToObject(o, "headline", r->headline);
    add_text(o, "message", r->message, display);
    add_text(o, "build_log", r->build_log, display);
    add_text(o, "worker_output", r->worker_output, display);
    cJSON_AddNumberToObject(o, "error_line", r->error_line);
    cJSON_AddNumberToObject(o, "error_col", r->error_col);
    cJSON *d = cJSON_AddObjectToObject(o, "device");
    cJSON_AddStringToObject(d, "name", r->device.name);
    cJSON_AddStringToObject(d, "platform", r->device.platform);
    cJSON_AddStringToObject(d, "type", r->device.type);
    cJSON_AddStringToObject(d, "version", r->device.version);
    cJSON_AddStringToObject(d, "driver", r->device.driver);
    cJSON_AddNumberToObject(d, "index", r->device.index);
    cJSON_AddStringToObject(o, "kernel_name", r->kernel_name);
    cJSON_AddStringToObject(o, "size_text", r->size_text);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed); /* exact: past 2^53 */
    cJSON_AddStringToObject(o, "seed", seed);
    cJSON_AddNumberToObject(o, "has_output", r->has_output);
    cJSON_AddItemToObject(o, "verify", verify_json(&r->verify));
    cJSON_AddNumberToObject(o, "work_bytes", r->work.bytes);
    cJSON_AddNumberToObject(o, "work_flops", r->work.flops);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < r->n_kinfo; i++) cJSON_AddItemToArray(ks, kinfo_json(&r->kinfo[i]));
    cJSON *ms = cJSON_AddArrayToObject(o, "samples_ms"); /* what that run measured (reported, never judged) */
    for (int i = 0; i < r->n_samples; i++) cJSON_AddItemToArray(ms, cJSON_CreateNumber(r->samples_ms[i]));
    return o;
}

/* ---- reading it back: every field must be there, of its type ---- */

static int get_num(const cJSON *o, const char *name, double *out) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(x)) return -1;
    *out = x->valuedouble;
    return 0;
}

static int get_str(const cJSON *o, const char *name, char *buf, size_t len) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(x) ? util_copy_text(buf, len, x->valuestring) : -1;
}

/* A kept text with the asker's name for the kernel in place of the mark. */
static char *get_dup(const cJSON *o, const char *name, const char *display) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(x) ? swap(x->valuestring, DISPLAY_MARK, display ? display : "") : NULL;
}

static int verify_from_json(const cJSON *o, verify_report *v) {
    double ok, n_checked, n_wrong, first, et, at, counts, ties;
    if (get_num(o, "ok", &ok) || get_str(o, "what", v->what, sizeof v->what) || get_num(o, "n_checked", &n_checked) ||
        get_num(o, "n_wrong", &n_wrong) || get_num(o, "first_wrong", &first) || get_num(o, "expected_total", &et) ||
        get_num(o, "actual_total", &at) || get_num(o, "counts", &counts) || get_num(o, "near_ties", &ties) ||
        get_str(o, "summary", v->summary, sizeof v->summary))
        return -1;
    v->ok = (int)ok, v->n_checked = (long)n_checked, v->n_wrong = (long)n_wrong, v->first_wrong = (long)first;
    v->expected_total = (long long)et, v->actual_total = (long long)at, v->counts = (int)counts;
    v->near_ties = (long)ties;
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(o, "entries"), *e;
    if (!cJSON_IsArray(es)) return -1;
    cJSON_ArrayForEach(e, es) {
        if (v->n_entries >= VR_MAX_ENTRIES || cJSON_GetArraySize(e) != 6) return -1;
        double f[6];
        for (int x = 0; x < 6; x++) {
            const cJSON *n = cJSON_GetArrayItem(e, x);
            if (!cJSON_IsNumber(n)) return -1;
            f[x] = n->valuedouble;
        }
        v->entries[v->n_entries++] = (vr_entry){(long)f[0], (long long)f[1], (long long)f[2], (long long)f[3],
                                                 (long long)f[4], (int)f[5]};
    }
    return 0;
}

static int kinfo_from_json(const cJSON *o, engine_kernel_info *ki) {
    double local, priv, info;
    if (get_str(o, "name", ki->name, sizeof ki->name) || get_num(o, "local_mem", &local) ||
        get_num(o, "private_mem", &priv) || get_num(o, "arg_info", &info))
        return -1;
    ki->local_mem = (long long)local, ki->private_mem = (long long)priv, ki->arg_info = (int)info;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "args"), *a;
    if (!cJSON_IsArray(args)) return -1;
    cJSON_ArrayForEach(a, args) {
        const cJSON *sp = cJSON_GetArrayItem(a, 0), *nm = cJSON_GetArrayItem(a, 1);
        if (ki->n_args >= ENGINE_MAX_KARGS || !cJSON_IsString(sp) || !cJSON_IsString(nm)) return -1;
        ki->arg_space[ki->n_args] = sp->valuestring[0];
        util_copy_text(ki->arg_name[ki->n_args], sizeof ki->arg_name[0], nm->valuestring);
        ki->n_args++;
    }
    return 0;
}

static int device_from_json(const cJSON *d, engine_device *dev) {
    double index;
    if (!cJSON_IsObject(d) || get_str(d, "name", dev->name, sizeof dev->name) ||
        get_str(d, "platform", dev->platform, sizeof dev->platform) || get_str(d, "type", dev->type, sizeof dev->type) ||
        get_str(d, "version", dev->version, sizeof dev->version) ||
        get_str(d, "driver", dev->driver, sizeof dev->driver) || get_num(d, "index", &index))
        return -1;
    dev->index = (int)index;
    return 0;
}

int runcache_report_from_json(const cJSON *j, const char *display, engine_report *r) {
    memset(r, 0, sizeof *r);
    double status, eline, ecol, has_output;
    char seed[32];
    char *message = get_dup(j, "message", display);
    int no_message = !message;
    if (message) util_copy_text(r->message, sizeof r->message, message);
    free(message);
    if (!cJSON_IsObject(j) || no_message || get_num(j, "status", &status) ||
        get_str(j, "headline", r->headline, sizeof r->headline) || get_num(j, "error_line", &eline) ||
        get_num(j, "error_col", &ecol) || device_from_json(cJSON_GetObjectItemCaseSensitive(j, "device"), &r->device) ||
        get_str(j, "kernel_name", r->kernel_name, sizeof r->kernel_name) ||
        get_str(j, "size_text", r->size_text, sizeof r->size_text) || get_str(j, "seed", seed, sizeof seed) ||
        get_num(j, "has_output", &has_output) ||
        verify_from_json(cJSON_GetObjectItemCaseSensitive(j, "verify"), &r->verify) ||
        get_num(j, "work_bytes", &r->work.bytes) || get_num(j, "work_flops", &r->work.flops))
        goto bad;
    r->status = (engine_status)status, r->error_line = (int)eline, r->error_col = (int)ecol;
    r->has_output = (int)has_output, r->seed = strtoull(seed, NULL, 10);
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(j, "kernels"), *k;
    if (!cJSON_IsArray(ks)) goto bad;
    cJSON_ArrayForEach(k, ks) {
        if (r->n_kinfo >= LESSON_MAX_KERNELS || kinfo_from_json(k, &r->kinfo[r->n_kinfo]) != 0) goto bad;
        r->n_kinfo++;
    }
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(j, "samples_ms"), *m;
    int n = cJSON_GetArraySize(ms);
    if (cJSON_IsArray(ms) && n > 0 && (r->samples_ms = calloc((size_t)n, sizeof *r->samples_ms))) {
        cJSON_ArrayForEach(m, ms) if (cJSON_IsNumber(m)) r->samples_ms[r->n_samples++] = m->valuedouble;
        r->timing = stats_summarise(r->samples_ms, r->n_samples);
    }
    r->build_log = get_dup(j, "build_log", display);
    r->worker_output = get_dup(j, "worker_output", display);
    return 0;
bad:
    memset(r, 0, sizeof *r);
    return -1;
}
