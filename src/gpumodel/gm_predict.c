/* gm_predict — a kernel's time on a real GPU predicted from the GPU memory model's counts and a measured device profile (devices/NAME.ini). */
#define _DEFAULT_SOURCE
#include "gpumodel/gm_predict.h"
#include "base/util.h"
#include "problem/problem.h"
#include "text/i18n.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[GP_N_KEYS] = {
#define GPK_NAME(e, key, need, what) key,
    GP_KEYS(GPK_NAME)
#undef GPK_NAME
};
static const gp_need key_needs[GP_N_KEYS] = {
#define GPK_NEED(e, key, need, what) need,
    GP_KEYS(GPK_NEED)
#undef GPK_NEED
};
static const char *const term_names[GP_N_TERMS] = {
#define GPT_NAME(e, name, label) name,
    GP_TERMS(GPT_NAME)
#undef GPT_NAME
};
static const char *const term_labels[GP_N_TERMS] = {
#define GPT_LABEL(e, name, label) label,
    GP_TERMS(GPT_LABEL)
#undef GPT_LABEL
};

const char *gp_term_name(gp_term t) { return t < GP_N_TERMS ? term_names[t] : "?"; }

/* ---- the profile file ---- */

typedef struct {
    gp_profile *p;
    const char *file;
    int seen[GP_N_KEYS];
    char *err;
    size_t errlen;
    int bad;
} reading;

static int find_key(const char *name) {
    for (int i = 0; i < GP_N_KEYS; i++)
        if (!strcmp(key_names[i], name)) return i;
    return -1;
}

/* A number that must be positive (or at least 0 for the optional figures). */
static int number(reading *r, int line, const char *key, const char *value, double *out) {
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    while (*end == ' ' || *end == '\t') end++;
    if (end == value || *end || errno || !isfinite(v) || v < 0) {
        util_errf(r->err, r->errlen, _("%s:%d: %s = '%s' is not a number (write a plain positive number)"), r->file,
                  line, key, value);
        return -1;
    }
    *out = v;
    return 0;
}

static int on_device(reading *r, int line, const char *name, const char *value) {
    gp_profile *p = r->p;
    if (!strcmp(name, "name")) util_copy_text(p->name, sizeof p->name, value);
    else if (!strcmp(name, "opencl_name")) util_copy_text(p->device, sizeof p->device, value);
    else if (!strcmp(name, "driver")) util_copy_text(p->driver, sizeof p->driver, value);
    else if (!strcmp(name, "date")) util_copy_text(p->date, sizeof p->date, value);
    else if (!strcmp(name, "compute_units")) {
        double v;
        if (number(r, line, name, value, &v)) return -1;
        p->compute_units = (int)v;
    } else return 1;
    return 0;
}

static int on_accuracy(reading *r, int line, const char *name, const char *value) {
    gp_profile *p = r->p;
    double v = 0;
    if (!strcmp(name, "validated")) {
        util_copy_text(p->validated, sizeof p->validated, value);
        return 0;
    }
    int *ints[] = {&p->kernels, &p->within_2x, &p->directions, &p->directions_ok};
    const char *names[] = {"kernels", "within_2x", "directions", "directions_ok"};
    if (!strcmp(name, "geomean_error")) {
        if (number(r, line, name, value, &v)) return -1;
        p->geomean_error = v;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i])) {
            if (number(r, line, name, value, &v)) return -1;
            *ints[i] = (int)v;
            return 0;
        }
    return 1;
}

static int on_entry(void *user, const char *section, const char *name, const char *value, int line) {
    reading *r = user;
    int rc = 1;
    if (!strcmp(section, "device")) rc = on_device(r, line, name, value);
    else if (!strcmp(section, "accuracy")) rc = on_accuracy(r, line, name, value);
    else if (!strcmp(section, "limits") || !strcmp(section, "source")) {
        int k = find_key(name);
        if (k < 0) rc = 1;
        else if (!strcmp(section, "source")) {
            util_copy_text(r->p->source[k], sizeof r->p->source[k], value);
            r->p->estimated[k] = !strncmp(value, "estimate", 8);
            rc = 0;
        } else {
            rc = number(r, line, name, value, &r->p->v[k]);
            r->seen[k] = 1;
        }
    } else {
        util_errf(r->err, r->errlen, _("%s:%d: unknown section [%s] (a profile has [device], [limits], [source] and [accuracy])"),
                  r->file, line, section);
        r->bad = 1;
        return 0;
    }
    if (rc > 0)
        util_errf(r->err, r->errlen, _("%s:%d: unknown key '%s' in [%s] (docs/gpu-model.md lists the keys)"), r->file,
                  line, name, section);
    if (rc) r->bad = 1;
    return rc == 0;
}

/* inih's handler gets no line number: the reader counts the lines itself. */
typedef struct {
    reading *r;
    FILE *f;
    int line;
} lined;

static char *read_line(char *str, int num, void *stream) {
    lined *ln = stream;
    char *s = fgets(str, num, ln->f);
    if (s) ln->line++;
    return s;
}

static int on_key(void *user, const char *section, const char *name, const char *value) {
    lined *ln = user;
    return on_entry(ln->r, section, name, value, ln->line);
}

int gp_profile_load(const char *path, gp_profile *p, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    util_copy_text(p->path, sizeof p->path, path);
    FILE *f = fopen(path, "r");
    if (!f) {
        util_errf(err, errlen, _("%s: cannot read the device profile (%s)"), path, strerror(errno));
        return -1;
    }
    reading r = {.p = p, .file = path, .err = err, .errlen = errlen};
    lined ln = {.r = &r, .f = f};
    int rc = ini_parse_stream(read_line, &ln, on_key, &ln);
    fclose(f);
    if (rc > 0 && !r.bad) {
        util_errf(err, errlen, _("%s:%d: not a profile line (write key = value under a [section])"), path, rc);
        return -1;
    }
    if (r.bad) return -1;
    for (int k = 0; k < GP_N_KEYS; k++)
        if (!r.seen[k] && key_needs[k] != GPN_OPTIONAL) {
            util_errf(err, errlen, _("%s: no %s in [limits] (%s); `cltutor bench --profile` measures it"), path,
                      key_names[k], key_names[k]);
            return -1;
        } else if (key_needs[k] == GPN_POSITIVE && p->v[k] <= 0) {
            util_errf(err, errlen, _("%s: %s must be above 0"), path, key_names[k]);
            return -1;
        }
    if (!p->name[0]) util_copy_text(p->name, sizeof p->name, p->device[0] ? p->device : path);
    return 0;
}

int gp_profile_find(const char *data_dir, const char *name, char *path, size_t len, char *err, size_t errlen) {
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 4 && !strcmp(name + n - 4, ".ini"))) {
        if (util_pathf(path, len, "%s", name) != 0) return util_errf(err, errlen, "%s", _("path too long")), -1;
    } else if (util_pathf(path, len, "%s/devices/%s.ini", data_dir, name) != 0) {
        return util_errf(err, errlen, "%s", _("path too long")), -1;
    }
    if (util_is_file(path)) return 0;
    util_errf(err, errlen, _("no device profile %s (the course ships devices/nvidia-h100.ini and devices/nvidia-h200.ini; "
                             "`cltutor bench --profile` writes one for your device)"), path);
    return -1;
}

int gp_profile_write(const char *path, const gp_profile *p, char *err, size_t errlen) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return util_errf(err, errlen, "%s", strerror(errno)), -1;
    fprintf(f, "; A device profile for cltutor's time prediction (docs/gpu-model.md), written by\n"
               "; `cltutor bench --profile`. [source] says where each figure comes from.\n"
               "[device]\nname = %s\nopencl_name = %s\ndriver = %s\ndate = %s\ncompute_units = %d\n\n[limits]\n",
            p->name, p->device, p->driver, p->date, p->compute_units);
    for (int k = 0; k < GP_N_KEYS; k++) fprintf(f, "%s = %.6g\n", key_names[k], p->v[k]);
    fprintf(f, "\n[source]\n");
    for (int k = 0; k < GP_N_KEYS; k++)
        if (p->source[k][0]) fprintf(f, "%s = %s\n", key_names[k], p->source[k]);
    fclose(f);
    int rc = util_write_file_atomic(path, buf, len);
    if (rc != 0) util_errf(err, errlen, _("%s: cannot write the profile (%s)"), path, strerror(errno));
    free(buf);
    return rc ? -1 : 0;
}

/* ---- sizes and the work model ---- */

static int work_at(const lesson *l, const problem_ops *ops, const char *size, prob_work *w, char *err, size_t errlen) {
    prob_instance pi = {.ops = ops, .lesson = l};
    if (problem_parse_size(ops, size, &pi.size, err, errlen) != 0) return -1;
    *w = ops->work(&pi); /* the work model reads the size only */
    return 0;
}

int gp_scale_for(const lesson *l, const char *from_size, const char *to_size, gp_scale *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    const problem_ops *ops = problem_find(l->problem);
    if (!ops || !ops->work) return util_errf(err, errlen, _("no work model for problem '%s'"), l->problem), -1;
    prob_work a, b;
    if (work_at(l, ops, from_size, &a, err, errlen) || work_at(l, ops, to_size, &b, err, errlen)) return -1;
    if (a.bytes <= 0) return util_errf(err, errlen, _("the work model gives no bytes at %s"), from_size), -1;
    double work = a.flops > 0 && b.flops > 0 ? b.flops / a.flops : b.bytes / a.bytes;
    s->data = b.bytes / a.bytes;
    s->items = !strcmp(lesson_param_get(l, "dispatch", ""), "serial") ? 1 : s->data;
    s->loop = work / s->items;
    s->ideal_bytes = b.bytes;
    s->flops = b.flops;
    s->groups_per_cu = (double)lesson_param_long(l, "groups_per_compute_unit", 0);
    return 0;
}

void gp_scale_kernel(const lesson *l, const char *from_size, const char *to_size, const char *kernel,
                     const unsigned *answer, int n_answer, gp_scale *s) {
    const problem_ops *ops = problem_find(l->problem);
    s->groups = 0;
    if (!ops || !ops->launch_items) return;
    memset(s->arg, 0, sizeof s->arg);
    prob_instance from = {.ops = ops, .lesson = l}, to = from;
    char err[256];
    if (problem_parse_size(ops, from_size, &from.size, err, sizeof err) != 0 ||
        problem_parse_size(ops, to_size, &to.size, err, sizeof err) != 0)
        return;
    double a = ops->launch_items(&from, kernel, answer, n_answer), b = ops->launch_items(&to, kernel, answer, n_answer);
    if (a <= 0 || b <= 0) return;
    s->groups = b / a;
    for (int i = 0; ops->arg_bytes && i < GP_MAX_ARGS; i++) {
        double x = ops->arg_bytes(&from, kernel, i, answer, n_answer), y = ops->arg_bytes(&to, kernel, i, answer, n_answer);
        if (x > 0 && y > 0) s->arg[i] = y / x;
    }
}

void gp_target_size(const lesson *l, const char *analysed, char *buf, size_t len) {
    const char *bench = l->bench_size[0] ? l->bench_size : l->default_size;
    const char *colon = strchr(bench, ':'), *kind = analysed ? strchr(analysed, ':') : NULL;
    int n = colon ? (int)(colon - bench) : (int)strlen(bench);
    if (kind) snprintf(buf, len, "%.*s%s", n, bench, kind);
    else snprintf(buf, len, "%s", bench);
}

/* ---- the counts and the model ---- */

/* Whether the compiled instruction ca is of the kind and space of the access a. */
static int compiled_alike(const ptx_access *ca, const gm_access *a) {
    if (ca->line != a->line || ca->op != (a->kind == GM_LOAD ? PTX_LOAD : PTX_STORE)) return 0;
    if (a->space == GM_CONSTANT) return ca->space == PTX_CONST || ca->space == PTX_GENERIC;
    return ca->space == PTX_GLOBAL || ca->space == PTX_GENERIC;
}

void gp_note_compiled(gpumodel_report *rep, const ptx_report *ptx) {
    for (int i = 0; i < rep->n_kernels; i++) {
        const ptx_kernel *pk = NULL;
        for (int j = 0; j < ptx->n && !pk; j++)
            if (!strcmp(ptx->kernels[j].name, rep->kernels[i].name)) pk = &ptx->kernels[j];
        for (int a = 0; a < rep->kernels[i].n_acc; a++) {
            gm_access *acc = &rep->kernels[i].acc[a];
            acc->compiled_loads = acc->compiled_split = 0;
            acc->compiled_instr = 0;
            if (!pk || acc->line <= 0) continue;
            double share = 0, pieces = 0; /* the instructions charged to the line's memory instructions */
            int widest = 0, moved = acc->kind != GM_ATOMIC && (acc->space == GM_GLOBAL || acc->space == GM_CONSTANT);
            for (int j = 0; j < pk->n; j++) {
                const ptx_access *ca = &pk->acc[j];
                if (ca->line == acc->line && ca->space != PTX_LOCAL) {
                    share += ca->block_share;
                    pieces += ca->count;
                }
                if (!moved || !compiled_alike(ca, acc)) continue;
                if (ca->bytes > widest) widest = ca->bytes;
                if (acc->space == GM_GLOBAL && acc->kind == GM_LOAD) acc->compiled_loads += ca->count;
            }
            if (pieces > 0) acc->compiled_instr = share / pieces;
            /* a vector the compiler moves in narrower pieces: each piece is a request of its own */
            if (widest > 0) acc->compiled_split = acc->width_max > (unsigned)widest ? (int)((acc->width_max + widest - 1) / widest) : 1;
        }
    }
}

void gp_read_compiled(gpumodel_report *rep, const lesson *l) {
    if (rep->status != GM_OK || !rep->source_path[0]) return;
    ptx_report ptx;
    char err[512];
    if (ptx_compile(l, rep->source_path, rep->kernel_path, &ptx, err, sizeof err) == 0) gp_note_compiled(rep, &ptx);
    ptx_report_free(&ptx);
}

int gp_uses_compiled(const char *data_dir, const char *gpu) {
    char path[1200], err[512];
    gp_profile p;
    return gp_profile_find(data_dir, gpu ? gpu : GP_DEFAULT_GPU, path, sizeof path, err, sizeof err) == 0 &&
           gp_profile_load(path, &p, err, sizeof err) == 0 && p.v[GPK_DRAM_NS] > 0;
}

void gp_read_compiled_for(const char *data_dir, const catalog *cat, const char *gpu, const lesson *l,
                          gpumodel_report *rep, gpumodel_report *prev) {
    if (!gp_uses_compiled(data_dir, gpu)) return;
    if (rep) gp_read_compiled(rep, l);
    if (prev) gp_read_compiled(prev, gp_compared_lesson(cat, l));
}

void gp_counts_of(const gm_kernel *k, const gp_scale *s, gp_counts *c) {
    memset(c, 0, sizeof *c);
    c->launches = k->launches > 0 ? k->launches : 1;
    double items = (double)k->global[0] * (double)(k->global[1] ? k->global[1] : 1) *
                   (double)(k->global[2] ? k->global[2] : 1);
    c->warps = ceil(items / GM_WARP) * (s->groups > 0 ? s->groups : s->items);
    c->group_warps = ceil((double)(k->local[0] ? k->local[0] : 1) * (double)(k->local[1] ? k->local[1] : 1) *
                          (double)(k->local[2] ? k->local[2] : 1) / GM_WARP);
    c->groups_per_cu = s->groups_per_cu;
    double load_waits = 0, load_useful = 0;
    for (int i = 0; i < k->n_acc; i++) {
        const gm_access *a = &k->acc[i];
        double per_item = a->items ? (double)a->execs / (double)a->items : 0;
        int in_loop = per_item > 1.0001 && s->groups <= 0;
        double f = in_loop ? s->items * s->loop : s->items;
        if (s->groups > 0) {
            int buffer = a->space == GM_GLOBAL && a->kind != GM_ATOMIC;
            double arg = a->arg >= 0 && a->arg < GP_MAX_ARGS ? s->arg[a->arg] : 0;
            f = !buffer ? s->groups : arg > 0 ? arg : s->data;
        }
        /* a vector the compiled code moves in pieces: each piece a request over the same lines */
        double split = a->compiled_split > 1 ? a->compiled_split : 1;
        double req = (double)a->requests * f * split, sectors = (double)a->sectors * f, useful = (double)a->useful * f;
        if (a->warps) c->warp_requests += (double)a->requests / (double)a->warps * (in_loop ? s->loop : 1) * split;
        c->warp_instructions += (double)a->requests * f * split * a->compiled_instr;
        if (a->space == GM_GLOBAL) {
            c->dram_bytes += useful;
            if (a->kind == GM_ATOMIC) {
                double w = a->requests ? ((double)a->contention_sum - (double)a->requests) / (31.0 * (double)a->requests) : 0;
                w = w < 0 ? 0 : w > 1 ? 1 : w;
                c->gatomic_same += (double)a->execs * f * w;
                c->gatomic_spread += (double)a->execs * f * (1 - w);
            } else {
                /* the distinct 128-byte lines of each request; where the report has
                 * none, a fully used sector shares its line with three others */
                double lines = (a->lines ? (double)a->lines * f : sectors / 4 + (sectors - useful / GM_SECTOR) * 3 / 4) * split;
                c->l1_lines += lines > req ? lines : req;
                c->l1_requests += req;
                if (a->kind == GM_STORE && sectors > useful / GM_SECTOR)
                    c->scattered_sectors += sectors - useful / GM_SECTOR;
                if (a->kind == GM_LOAD) { /* those the compiler issues together wait once */
                    load_useful += useful;
                    if (a->compiled_loads > 0) load_waits += req / a->compiled_loads;
                }
            }
        } else if (a->space == GM_CONSTANT) {
            c->constant_reads += (double)a->distinct_sum * f * split;
            if (a->lines > a->requests) c->constant_lines += (double)(a->lines - a->requests) * f * split;
        } else if (a->kind == GM_ATOMIC) {
            /* a request takes a pass per bank conflict, and collisions on one word in turn */
            c->latomic_spread += a->bank_sum ? (double)a->bank_sum * f : req;
            double extra = ((double)a->contention_sum - (double)a->requests) * f / 31.0;
            c->latomic_same += extra > 0 ? extra : 0;
        } else {
            /* accesses wider than 4 bytes are served 128 bytes at a time */
            double phases = a->width_max > 4 ? a->width_max / 4.0 : 1;
            c->local_passes += (double)a->bank_sum * f * phases;
            c->local_requests += req * phases;
        }
    }
    /* the loads' bytes past the problem's own come from caches: the share that
     * does not is the share of the load requests that waits for DRAM */
    double from_dram = load_useful > s->ideal_bytes && load_useful > 0 ? s->ideal_bytes / load_useful : 1;
    c->dram_waits = load_waits * from_dram;
}

double gp_resident_warps(const gp_counts *c, const gp_profile *p) {
    double units = (double)(p->compute_units > 0 ? p->compute_units : 1), most = units * GP_RESIDENT_WARPS;
    double launched = c->warps;
    if (c->groups_per_cu > 0 && c->group_warps > 0) /* the host caps its work-groups by the compute units */
        launched = fmin(launched, c->groups_per_cu * units * c->group_warps);
    return launched < 1 ? 1 : launched < most ? launched : most;
}

double gp_dram_chain_s(const gp_counts *c, const gp_profile *p) {
    return c->dram_waits * p->v[GPK_DRAM_NS] * 1e-9 / gp_resident_warps(c, p);
}

static double per_s(const gp_profile *p, gp_key k) { return p->v[k] > 0 ? 1.0 / (p->v[k] * 1e9) : 0; }

void gp_predict_kernel(const gp_counts *c, const gp_profile *p, gp_kernel *out) {
    out->c = *c;
    double *t = out->t;
    /* the bytes at the copy's rate, and stores that write part of a sector at the scattered stores' */
    t[GPT_MEMORY] = c->dram_bytes * per_s(p, GPK_COPY) + c->scattered_sectors * per_s(p, GPK_SCATTER);
    /* the lines the load/store units serve, or their requests where those are of one line and take longer */
    t[GPT_L1] = fmax(c->l1_lines * per_s(p, GPK_L1), c->l1_requests * per_s(p, GPK_L1_REQUESTS));
    /* a request's first pass at the conflict-free rate, its conflicts' extra passes at the conflicted one */
    double first = fmin(c->local_requests, c->local_passes);
    t[GPT_LOCAL] = first * per_s(p, GPK_LOCAL) +
                   (c->local_passes - first) * per_s(p, p->v[GPK_LOCAL_CONFLICT] > 0 ? GPK_LOCAL_CONFLICT : GPK_LOCAL);
    /* a request's words at the constant rate, each line past its first at the divergent-lines one */
    t[GPT_CONSTANT] = c->constant_reads * per_s(p, GPK_CONST) + c->constant_lines * per_s(p, GPK_CONST_LINES);
    /* the problem's flops at the FP32 peak, or, where the compiled code is known, the instructions the
     * warps issue: a warp instruction a cycle for each 32 FP32 lanes, half the peak's flops (an FMA is two) */
    t[GPT_COMPUTE] = fmax(c->flops * per_s(p, GPK_FP32), c->warp_instructions * GM_WARP * 2 * per_s(p, GPK_FP32));
    t[GPT_GATOMIC] = c->gatomic_spread * per_s(p, GPK_GATOM_SPREAD) + c->gatomic_same * per_s(p, GPK_GATOM_SAME);
    double same = per_s(p, GPK_LATOM_SAME) - per_s(p, GPK_LATOM_SPREAD);
    t[GPT_LATOMIC] = c->latomic_spread * per_s(p, GPK_LATOM_SPREAD) + c->latomic_same * (same > 0 ? same : 0);
    /* a warp's requests one after another at the cached rate; and, where the
     * device's DRAM latency is known, the resident warps waiting for their
     * DRAM loads, one wait at a time each (Little's law) */
    t[GPT_LATENCY] = fmax(c->warp_requests * p->v[GPK_WARP_NS] * 1e-9, gp_dram_chain_s(c, p));
    t[GPT_LAUNCH] = c->launches * p->v[GPK_LAUNCH] * 1e-6;
    /* the SMs issue loads, stores, local passes and arithmetic one after another; where the compiled code
     * gives every instruction the warps issue, loads and stores among them, the memory pipes work beside
     * the issue of all of them */
    double pipes = t[GPT_L1] + t[GPT_LOCAL] + t[GPT_CONSTANT] + t[GPT_LATOMIC];
    double issue = c->warp_instructions > 0 ? fmax(pipes, t[GPT_COMPUTE]) : pipes + t[GPT_COMPUTE];
    double top = fmax(fmax(t[GPT_MEMORY], t[GPT_LATENCY]), fmax(issue, t[GPT_GATOMIC]));
    out->total_s = t[GPT_LAUNCH] + top;
    gp_term lim = GPT_MEMORY;
    if (t[GPT_LAUNCH] > top) lim = GPT_LAUNCH;
    else if (t[GPT_LATENCY] >= top && t[GPT_LATENCY] > t[GPT_MEMORY]) lim = GPT_LATENCY;
    else if (t[GPT_GATOMIC] >= top && t[GPT_GATOMIC] > t[GPT_MEMORY]) lim = GPT_GATOMIC;
    else if (issue > t[GPT_MEMORY]) {
        static const gp_term parts[] = {GPT_L1, GPT_LOCAL, GPT_CONSTANT, GPT_COMPUTE, GPT_LATOMIC};
        lim = GPT_L1;
        for (size_t i = 0; i < CLT_ARRAY_LEN(parts); i++)
            if (t[parts[i]] > t[lim]) lim = parts[i];
    }
    out->limit = lim;
}

int gp_predict(const gpumodel_report *rep, const lesson *l, const char *size, const gp_profile *p,
               gp_prediction *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    util_copy_text(out->size, sizeof out->size, size);
    util_copy_text(out->from_size, sizeof out->from_size, rep->size_text);
    gp_scale s;
    if (gp_scale_for(l, rep->size_text, size, &s, err, errlen) != 0) return -1;
    out->n = rep->n_kernels < GP_MAX_KERNELS ? rep->n_kernels : GP_MAX_KERNELS;
    if (out->n == 0) return util_errf(err, errlen, "%s", _("the analysis ran no kernel")), -1;
    gp_counts c[GP_MAX_KERNELS];
    int main_k = 0, mem_k = 0;
    double dram = 0;
    for (int i = 0; i < out->n; i++) {
        gp_scale ks = s;
        gp_scale_kernel(l, rep->size_text, size, rep->kernels[i].name, rep->helper_answer, rep->n_helper_answer, &ks);
        gp_counts_of(&rep->kernels[i], &ks, &c[i]);
        dram += c[i].dram_bytes;
        if (c[i].l1_lines + c[i].local_passes + c[i].constant_reads >
            c[main_k].l1_lines + c[main_k].local_passes + c[main_k].constant_reads)
            main_k = i;
        if (c[i].dram_bytes > c[mem_k].dram_bytes) mem_k = i;
    }
    c[main_k].flops = s.flops;                                        /* the problem's arithmetic */
    if (dram < s.ideal_bytes) c[mem_k].dram_bytes += s.ideal_bytes - dram; /* every input read once */
    for (int i = 0; i < out->n; i++) {
        util_copy_text(out->k[i].name, sizeof out->k[i].name, rep->kernels[i].name);
        gp_predict_kernel(&c[i], p, &out->k[i]);
        out->total_s += out->k[i].total_s;
        if (out->k[i].total_s > out->k[out->limit_kernel].total_s) out->limit_kernel = i;
    }
    out->limit = out->k[out->limit_kernel].limit;
    return 0;
}

/* ---- words ---- */

/* v in units of 1000 ("k" .. "T"), with 3 significant figures' worth of decimals. */
static const char *scaled(double *v, int *decimals) {
    static const char *const pre[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (*v >= 1000 && i < 4) *v /= 1000, i++;
    *decimals = *v >= 100 ? 0 : *v >= 10 ? 1 : 2;
    return pre[i];
}

/* A quantity with a unit symbol: "1.07 GB", "3.01 TB/s", "251 G/s". */
static void fmt_qty(char *buf, size_t len, double v, const char *symbol) {
    int d;
    const char *pre = scaled(&v, &d);
    snprintf(buf, len, "%.*f %s%s", d, v, pre, symbol);
}

/* A count of things: "250 M bank passes", "512 lines". */
static void fmt_count(char *buf, size_t len, double v, const char *things) {
    int d;
    const char *pre = scaled(&v, &d);
    snprintf(buf, len, "%.*f %s%s%s", d, v, pre, *pre ? " " : "", things);
}

void gp_limit_text(const gp_prediction *pr, const gp_profile *p, char *buf, size_t len) {
    const gp_kernel *k = &pr->k[pr->limit_kernel];
    const gp_counts *c = &k->c;
    char a[64], b[32];
    switch (pr->limit) {
    case GPT_MEMORY:
        if (c->scattered_sectors * per_s(p, GPK_SCATTER) > c->dram_bytes * per_s(p, GPK_COPY)) {
            fmt_count(a, sizeof a, c->scattered_sectors, _("sectors of scattered stores"));
            fmt_qty(b, sizeof b, p->v[GPK_SCATTER] * 1e9, "/s");
        } else {
            fmt_qty(a, sizeof a, c->dram_bytes, "B");
            fmt_qty(b, sizeof b, p->v[GPK_COPY] * 1e9, "B/s");
        }
        break;
    case GPT_L1:
        if (c->l1_requests * per_s(p, GPK_L1_REQUESTS) > c->l1_lines * per_s(p, GPK_L1)) { /* requests of one line */
            fmt_count(a, sizeof a, c->l1_requests, _("requests"));
            fmt_qty(b, sizeof b, p->v[GPK_L1_REQUESTS] * 1e9, "/s");
        } else {
            fmt_count(a, sizeof a, c->l1_lines, _("lines"));
            fmt_qty(b, sizeof b, p->v[GPK_L1] * 1e9, "/s");
        }
        break;
    case GPT_LOCAL: fmt_count(a, sizeof a, c->local_passes, _("bank passes")); fmt_qty(b, sizeof b, p->v[GPK_LOCAL] * 1e9, "/s"); break;
    case GPT_CONSTANT: fmt_count(a, sizeof a, c->constant_reads, _("reads")); fmt_qty(b, sizeof b, p->v[GPK_CONST] * 1e9, "/s"); break;
    case GPT_COMPUTE:
        if (c->warp_instructions * GM_WARP * 2 > c->flops) { /* the instructions issued, not the flops */
            fmt_count(a, sizeof a, c->warp_instructions, _("warp instructions"));
            fmt_qty(b, sizeof b, p->v[GPK_FP32] * 1e9 / (2 * GM_WARP), "/s");
        } else {
            fmt_qty(a, sizeof a, c->flops, "FLOP");
            fmt_qty(b, sizeof b, p->v[GPK_FP32] * 1e9, "FLOP/s");
        }
        break;
    case GPT_GATOMIC: { /* the rate of the share that takes longer */
        int same = c->gatomic_same * per_s(p, GPK_GATOM_SAME) > c->gatomic_spread * per_s(p, GPK_GATOM_SPREAD);
        fmt_count(a, sizeof a, c->gatomic_spread + c->gatomic_same, _("atomics"));
        fmt_qty(b, sizeof b, p->v[same ? GPK_GATOM_SAME : GPK_GATOM_SPREAD] * 1e9, "/s");
        break;
    }
    case GPT_LATOMIC: {
        int same = c->latomic_same * per_s(p, GPK_LATOM_SAME) > c->latomic_spread * per_s(p, GPK_LATOM_SPREAD);
        fmt_count(a, sizeof a, c->latomic_spread, _("atomic requests"));
        fmt_qty(b, sizeof b, p->v[same ? GPK_LATOM_SAME : GPK_LATOM_SPREAD] * 1e9, "/s");
        break;
    }
    case GPT_LATENCY:
        if (gp_dram_chain_s(c, p) > c->warp_requests * p->v[GPK_WARP_NS] * 1e-9) { /* DRAM loads waited for */
            fmt_count(a, sizeof a, c->dram_waits / gp_resident_warps(c, p), _("DRAM loads of each warp in turn"));
            snprintf(b, sizeof b, "%.0f ns", p->v[GPK_DRAM_NS]);
        } else {
            fmt_count(a, sizeof a, c->warp_requests, _("requests of one warp"));
            snprintf(b, sizeof b, "%.1f ns", p->v[GPK_WARP_NS]);
        }
        break;
    default: snprintf(a, sizeof a, "%d", c->launches); snprintf(b, sizeof b, "%.1f us", p->v[GPK_LAUNCH]); break;
    }
    if (pr->limit == GPT_LATENCY || pr->limit == GPT_LAUNCH) /* a time each, not a rate */
        util_textf(buf, len, _("%s: %s at %s each"), _(term_labels[pr->limit]), a, b);
    else util_textf(buf, len, _("%s: %s at %s"), _(term_labels[pr->limit]), a, b);
}

void gp_accuracy_text(const gp_profile *p, char *buf, size_t len) {
    if (!p->validated[0] || p->kernels <= 0) {
        util_textf(buf, len, "%s", _("not yet validated on this GPU"));
        return;
    }
    util_textf(buf, len, _("measured error %.0f%% (geometric mean over %d kernels, %d within 2x; %d of %d speed-ups in the right direction; %s)"),
               100 * p->geomean_error, p->kernels, p->within_2x, p->directions_ok, p->directions, p->validated);
}

static int estimates(const gp_profile *p) {
    int n = 0;
    for (int k = 0; k < GP_N_KEYS; k++) n += p->estimated[k];
    return n;
}

static int push(char ***lines, int *n, const char *s) {
    char **more = realloc(*lines, (size_t)(*n + 1) * sizeof **lines);
    if (!more) return -1;
    *lines = more;
    more[*n] = strdup(s);
    if (!more[*n]) return -1;
    (*n)++;
    return 0;
}

int gp_lines(const gp_prediction *pr, const gp_prediction *prev, const char *prev_label, const gp_profile *p,
             char ***lines, int *n) {
    char t[32], why[160], line[1024], acc[256];
    *lines = NULL;
    *n = 0;
    util_fmt_ms(t, sizeof t, pr->total_s * 1e3);
    gp_limit_text(pr, p, why, sizeof why);
    util_textf(line, sizeof line, _("Predicted on %s (a model, not a measurement): %s at %s, %s"), p->name, t, pr->size, why);
    if (push(lines, n, line)) return -1;
    if (pr->n > 1)
        for (int i = 0; i < pr->n; i++) {
            util_fmt_ms(t, sizeof t, pr->k[i].total_s * 1e3);
            util_textf(line, sizeof line, _("  kernel %s: %s, %s"), pr->k[i].name, t, _(term_labels[pr->k[i].limit]));
            if (push(lines, n, line)) return -1;
        }
    if (prev && prev->total_s > 0) {
        char pt[32];
        util_fmt_ms(pt, sizeof pt, prev->total_s * 1e3);
        double r = prev->total_s / pr->total_s;
        char rt[32];
        snprintf(rt, sizeof rt, r >= 100 ? "%.0fx" : r >= 10 ? "%.1fx" : r >= 0.01 ? "%.2fx" : "%.2gx", r);
        util_textf(line, sizeof line, _("  the previous stage, %s: %s predicted; yours is %s its speed"), prev_label, pt, rt);
        if (push(lines, n, line)) return -1;
    }
    gp_accuracy_text(p, acc, sizeof acc);
    int est = estimates(p);
    /* a shipped profile by its place in the course (devices/NAME.ini), not the folder it is installed in */
    const char *in_course = strstr(p->path, "/devices/"), *shown = in_course ? in_course + 1 : p->path;
    if (est)
        util_textf(line, sizeof line, P_("  Accuracy: %s; %d figure of the profile is an estimate (%s).",
                                        "  Accuracy: %s; %d figures of the profile are estimates (%s).", est),
                   acc, est, shown);
    else util_textf(line, sizeof line, _("  Accuracy: %s (%s)."), acc, shown);
    return push(lines, n, line);
}

void gp_lines_free(char **lines, int n) {
    for (int i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

static cJSON *prediction_json(const gp_prediction *pr) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "size", pr->size);
    cJSON_AddStringToObject(o, "from_size", pr->from_size);
    cJSON_AddNumberToObject(o, "predicted_ms", pr->total_s * 1e3);
    cJSON_AddStringToObject(o, "limit", gp_term_name(pr->limit));
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < pr->n; i++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", pr->k[i].name);
        cJSON_AddNumberToObject(k, "predicted_ms", pr->k[i].total_s * 1e3);
        cJSON_AddStringToObject(k, "limit", gp_term_name(pr->k[i].limit));
        cJSON *t = cJSON_AddObjectToObject(k, "terms_ms");
        for (int j = 0; j < GP_N_TERMS; j++) cJSON_AddNumberToObject(t, term_names[j], pr->k[i].t[j] * 1e3);
        const gp_counts *c = &pr->k[i].c;
        cJSON *cc = cJSON_AddObjectToObject(k, "counts");
        cJSON_AddNumberToObject(cc, "dram_bytes", c->dram_bytes);
        cJSON_AddNumberToObject(cc, "l1_lines", c->l1_lines);
        cJSON_AddNumberToObject(cc, "local_passes", c->local_passes);
        cJSON_AddNumberToObject(cc, "constant_reads", c->constant_reads);
        cJSON_AddNumberToObject(cc, "constant_lines", c->constant_lines);
        cJSON_AddNumberToObject(cc, "warp_instructions", c->warp_instructions);
        cJSON_AddNumberToObject(cc, "flops", c->flops);
        cJSON_AddNumberToObject(cc, "global_atomics", c->gatomic_spread + c->gatomic_same);
        cJSON_AddNumberToObject(cc, "local_atomic_requests", c->latomic_spread);
        cJSON_AddNumberToObject(cc, "warp_requests", c->warp_requests);
        cJSON_AddNumberToObject(cc, "dram_waits", c->dram_waits);
        cJSON_AddNumberToObject(cc, "scattered_sectors", c->scattered_sectors);
        cJSON_AddNumberToObject(cc, "warps", c->warps);
        cJSON_AddNumberToObject(cc, "launches", c->launches);
        cJSON_AddItemToArray(ks, k);
    }
    return o;
}

cJSON *gp_json(const gp_prediction *pr, const gp_prediction *prev, const gp_profile *p) {
    cJSON *o = prediction_json(pr);
    cJSON_AddBoolToObject(o, "is_prediction", 1);
    cJSON_AddStringToObject(o, "device", p->name);
    cJSON_AddStringToObject(o, "profile", p->path);
    char why[160], acc[256];
    gp_limit_text(pr, p, why, sizeof why);
    cJSON_AddStringToObject(o, "limit_text", why);
    gp_accuracy_text(p, acc, sizeof acc);
    cJSON_AddStringToObject(o, "accuracy", acc);
    cJSON_AddBoolToObject(o, "validated", p->validated[0] && p->kernels > 0);
    if (p->validated[0] && p->kernels > 0) cJSON_AddNumberToObject(o, "geomean_error", p->geomean_error);
    int est = estimates(p);
    cJSON_AddNumberToObject(o, "estimated_figures", est);
    if (prev && prev->total_s > 0) cJSON_AddItemToObject(o, "previous", prediction_json(prev));
    return o;
}

const lesson *gp_compared_lesson(const catalog *cat, const lesson *l) {
    const lesson *pl = l->previous > 0 && cat ? catalog_by_number(cat, l->previous) : NULL;
    return pl && !strcmp(pl->problem, l->problem) ? pl : l;
}

int gp_chapter_predict(const char *data_dir, const catalog *cat, const char *gpu, const lesson *l,
                       const gpumodel_report *rep, const gpumodel_report *prev, const char *at, gp_chapter *out) {
    memset(out, 0, sizeof *out);
    double t0 = util_now();
    char path[1200], size[96];
    if (rep->status != GM_OK) return util_errf(out->err, sizeof out->err, "%s", _("no analysis to predict from")), -1;
    if (gp_profile_find(data_dir, gpu ? gpu : GP_DEFAULT_GPU, path, sizeof path, out->err, sizeof out->err) != 0 ||
        gp_profile_load(path, &out->prof, out->err, sizeof out->err) != 0)
        return -1;
    if (at) util_copy_text(size, sizeof size, at);
    else gp_target_size(l, rep->size_text, size, sizeof size);
    if (gp_predict(rep, l, size, &out->prof, &out->pr, out->err, sizeof out->err) != 0) return -1;
    out->ok = 1;
    char err[256];
    const lesson *pl = gp_compared_lesson(cat, l);
    if (prev && prev->status == GM_OK && gp_predict(prev, pl, size, &out->prof, &out->prev, err, sizeof err) == 0) {
        out->has_prev = 1;
        util_copy_text(out->prev_label, sizeof out->prev_label, rep->prev_label);
        char *path_part = strstr(out->prev_label, " (");
        if (!path_part) path_part = strstr(out->prev_label, "\xef\xbc\x88"); /* a full-width parenthesis */
        if (path_part) *path_part = '\0'; /* the file's path is in the report above */
    }
    out->predict_s = util_now() - t0;
    return 0;
}

void gp_chapter_add_json(cJSON *o, const gp_chapter *gp, int asked) {
    if (gp && gp->ok) {
        cJSON *pj = gp_json(&gp->pr, gp->has_prev ? &gp->prev : NULL, &gp->prof);
        cJSON_AddNumberToObject(pj, "predict_s", gp->predict_s);
        cJSON_AddItemToObject(o, "prediction", pj);
    } else if (gp && asked) {
        cJSON_AddStringToObject(o, "prediction_error", gp->err);
    }
}
