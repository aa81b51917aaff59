/* gpumodel — the GPU memory model: runs a kernel on the Oclgrind simulator with cltutor's plugin and turns its per-instruction warp figures into a report. */
#define _GNU_SOURCE
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_text.h"
#include "gpumodel/gm_draw.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GM_PLUGIN_NAME "cltutor-gpumodel.so"
#define GM_INSTALL "sudo apt-get install oclgrind liboclgrind-dev llvm-14-dev g++"

static const char *const space_names[GM_N_SPACES] = {"global", "constant", "local"};
static const char *const kind_names[GM_N_KINDS] = {"load", "store", "atomic"};

const char *gpumodel_space_name(gm_space s) { return (unsigned)s < GM_N_SPACES ? space_names[s] : "?"; }
const char *gpumodel_kind_name(gm_kind k) { return (unsigned)k < GM_N_KINDS ? kind_names[k] : "?"; }

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

/* ---- parsing the plugin's output ---- */

static int space_from(const char *s) {
    for (int i = 0; i < GM_N_SPACES; i++)
        if (!strcmp(s, space_names[i])) return i;
    return -1;
}

static int kind_from(const char *s) {
    for (int i = 0; i < GM_N_KINDS; i++)
        if (!strcmp(s, kind_names[i])) return i;
    return -1;
}

static char *unescape(const char *s) {
    size_t n = strlen(s);
    char *o = malloc(n + 1), *q = o;
    if (!o) return NULL;
    for (const char *p = s; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            *q++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
        } else {
            *q++ = *p;
        }
    }
    *q = '\0';
    return o;
}

static gm_kernel *kernel_named(gpumodel_report *rep, const char *name) {
    for (int i = 0; i < rep->n_kernels; i++)
        if (!strcmp(rep->kernels[i].name, name)) return &rep->kernels[i];
    gm_kernel *nk = realloc(rep->kernels, sizeof *nk * (size_t)(rep->n_kernels + 1));
    if (!nk) return NULL;
    rep->kernels = nk;
    gm_kernel *k = &rep->kernels[rep->n_kernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

static gm_access *access_at(gm_kernel *k, int line, int col, int space, int kind) {
    for (int i = 0; i < k->n_acc; i++) {
        gm_access *a = &k->acc[i];
        if (a->line == line && a->col == col && (int)a->space == space && (int)a->kind == kind) return a;
    }
    gm_access *na = realloc(k->acc, sizeof *na * (size_t)(k->n_acc + 1));
    if (!na) return NULL;
    k->acc = na;
    gm_access *a = &k->acc[k->n_acc++];
    memset(a, 0, sizeof *a);
    a->line = line;
    a->col = col;
    a->space = (gm_space)space;
    a->kind = (gm_kind)kind;
    a->arg = -1;
    return a;
}

static gm_issue *add_issue(gpumodel_report *rep) {
    gm_issue *ni = realloc(rep->issues, sizeof *ni * (size_t)(rep->n_issues + 1));
    if (!ni) return NULL;
    rep->issues = ni;
    gm_issue *is = &rep->issues[rep->n_issues++];
    memset(is, 0, sizeof *is);
    return is;
}

/* A work-item by its ids, for people: "global (63,0,0), local (63,0,0), group (0,0,0)". */
static void work_item_text(char *out, size_t len, const unsigned long long *g, const unsigned long long *l,
                           const unsigned long long *w) {
    util_textf(out, len, _("global (%llu,%llu,%llu), local (%llu,%llu,%llu), group (%llu,%llu,%llu)"), g[0], g[1], g[2],
               l[0], l[1], l[2], w[0], w[1], w[2]);
}

/* "Global(63,0,0) Local(63,0,0) Group(0,0,0)" -> "global (63,0,0), local (63,0,0), group (0,0,0)" */
static void entity_text(const char *s, char *out, size_t len) {
    unsigned long long g[3], l[3], w[3];
    const char *p = strstr(s, "Global(");
    if (p && sscanf(p, "Global(%llu,%llu,%llu) Local(%llu,%llu,%llu) Group(%llu,%llu,%llu)", &g[0], &g[1], &g[2],
                    &l[0], &l[1], &l[2], &w[0], &w[1], &w[2]) == 9) {
        work_item_text(out, len, g, l, w);
        return;
    }
    p = strstr(s, "Group(");
    if (p && sscanf(p, "Group(%llu,%llu,%llu)", &w[0], &w[1], &w[2]) == 3) {
        util_textf(out, len, _("group (%llu,%llu,%llu)"), w[0], w[1], w[2]);
        return;
    }
    snprintf(out, len, "%s", "");
}

/* Oclgrind's own message headings (its plugins RaceDetector, MemCheck,
 * Uninitialized and its barrier checks), first match wins. */
gm_issue_kind gpumodel_issue_kind(const char *heading) {
    static const struct {
        const char *words;
        gm_issue_kind kind;
    } headings[] = {
        {"data race", GM_ISSUE_RACE},           /* "Read-write data race at global memory address ..." */
        {"Invalid ", GM_ISSUE_MEMORY},          /* "Invalid read of size 4 at global memory address ..." */
        {"out of bounds", GM_ISSUE_MEMORY},     /* "... access out of bounds" */
        {"Out-of-bounds", GM_ISSUE_MEMORY},
        {"ninitiali", GM_ISSUE_UNINIT},         /* "Uninitialized value ..." */
        {"divergence", GM_ISSUE_DIVERGENCE},    /* "Work-group divergence detected (barrier)" */
    };
    for (size_t i = 0; i < CLT_ARRAY_LEN(headings); i++)
        if (strstr(heading, headings[i].words)) return headings[i].kind;
    return GM_ISSUE_OTHER;
}

gm_space gpumodel_issue_space(const char *heading) {
    static const struct {
        const char *words;
        gm_space space;
    } spaces[] = {{"global memory", GM_GLOBAL}, {"local memory", GM_LOCAL}, {"constant memory", GM_CONSTANT}};
    for (size_t i = 0; i < CLT_ARRAY_LEN(spaces); i++)
        if (strstr(heading, spaces[i].words)) return spaces[i].space;
    return GM_N_SPACES;
}

/* Turns one of Oclgrind's messages into an issue. */
static void parse_message(gpumodel_report *rep, const char *kernel, int type, unsigned long long count,
                          const char *text) {
    gm_issue *is = add_issue(rep);
    if (!is) return;
    is->count = count;
    snprintf(is->kernel, sizeof is->kernel, "%s", kernel);
    size_t first = strcspn(text, "\n");
    char head[256];
    snprintf(head, sizeof head, "%.*s", (int)(first < 255 ? first : 255), text);
    char *addr = strstr(head, " address 0x");
    if (addr) *addr = '\0';
    util_rstrip(head);
    size_t hl = strlen(head);
    if (hl && head[hl - 1] == ':') head[hl - 1] = '\0';
    util_copy_text(is->what, sizeof is->what, head);
    is->kind = gpumodel_issue_kind(head);
    is->space = gpumodel_issue_space(head);
    (void)type;
    /* entities and locations, in order */
    int n_ent = 0, n_loc = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), p);
        const char *t = line;
        while (*t == '\t' || *t == ' ') t++;
        int ln = 0, cn = 0;
        if (!strncmp(t, "Entity:", 7) || !strncmp(t, "First entity:", 13) || !strncmp(t, "Second entity:", 14)) {
            entity_text(t, n_ent == 0 ? is->work_item : is->work_item2,
                        n_ent == 0 ? sizeof is->work_item : sizeof is->work_item2);
            n_ent++;
        } else if (sscanf(t, "At line %d (column %d)", &ln, &cn) >= 1) {
            if (n_loc == 0) { is->line = ln; is->col = cn; }
            else if (n_loc == 1) { is->line2 = ln; is->col2 = cn; }
            n_loc++;
        }
        p = eol ? eol + 1 : p + len;
    }
}

static void derive(gm_access *a) {
    a->bytes_per_item = a->items ? (double)a->bytes / (double)a->items : 0;
    a->requests_per_warp = a->warps ? (double)a->requests / (double)a->warps : 0;
    a->lanes_avg = a->requests ? (double)a->lanes / (double)a->requests : 0;
    a->distinct_avg = a->requests ? (double)a->distinct_sum / (double)a->requests : 0;
    a->sectors_per_request = a->requests ? (double)a->sectors / (double)a->requests : 0;
    a->efficiency = a->sectors ? (double)a->useful / ((double)a->sectors * GM_SECTOR) : 0;
    a->bank_avg = a->requests ? (double)a->bank_sum / (double)a->requests : 0;
    a->contention_avg = a->requests ? (double)a->contention_sum / (double)a->requests : 0;
}

/* What an instruction costs, to pick the one to talk about. */
double gpumodel_access_cost(const gm_access *a) {
    if (a->space == GM_LOCAL) return (double)a->bank_sum;
    if (a->kind == GM_ATOMIC) return (double)a->contention_sum;
    if (a->space == GM_CONSTANT) return (double)a->distinct_sum;
    return (double)a->sectors;
}

static void summarise(gm_kernel *k) {
    memset(k->sum, 0, sizeof k->sum);
    k->moved = 0;
    for (int i = 0; i < k->n_acc; i++) {
        gm_access *a = &k->acc[i];
        derive(a);
        gm_summary *s = &k->sum[a->space][a->kind];
        if (!s->present || gpumodel_access_cost(a) > gpumodel_access_cost(&k->acc[s->busiest])) s->busiest = i;
        s->present = 1;
        s->execs += a->execs;
        s->requests += a->requests;
        s->bytes += a->bytes;
        s->sectors += a->sectors;
        s->useful += a->useful;
        if (a->bank_max > s->bank_max) s->bank_max = a->bank_max;
        if (a->width_max > s->width_max) s->width_max = a->width_max;
        if (a->distinct_max > s->distinct_max) s->distinct_max = a->distinct_max;
        if (a->contention_max > s->contention_max) s->contention_max = a->contention_max;
        s->bank_avg += (double)a->bank_sum;
        s->distinct_avg += (double)a->distinct_sum;
        s->contention_avg += (double)a->contention_sum;
        if (a->space == GM_GLOBAL) k->moved += a->sectors * GM_SECTOR;
    }
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            gm_summary *s = &k->sum[sp][kd];
            if (!s->present) continue;
            double r = s->requests ? (double)s->requests : 1;
            s->bank_avg /= r;
            s->distinct_avg /= r;
            s->contention_avg /= r;
            s->sectors_per_request = (double)s->sectors / r;
            s->efficiency = s->sectors ? (double)s->useful / ((double)s->sectors * GM_SECTOR) : 0;
        }
}

static int cmp_access(const void *x, const void *y) {
    const gm_access *a = x, *b = y;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    return (int)a->space - (int)b->space;
}

/* "kernel NAME DIMS G0 G1 G2 L0 L1 L2 SECONDS": a launch begins; the kernel in *k. */
static int parse_kernel_line(const char *line, gpumodel_report *rep, gm_kernel **k, int *blocks) {
    char name[64];
    int dims;
    unsigned long long g[3], l[3];
    double secs;
    if (sscanf(line, "kernel %63s %d %llu %llu %llu %llu %llu %llu %lf", name, &dims, &g[0], &g[1], &g[2], &l[0],
               &l[1], &l[2], &secs) != 9 || !(*k = kernel_named(rep, name)))
        return -1;
    if (!(*k)->launches) {
        (*k)->dims = dims;
        memcpy((*k)->global, g, sizeof g);
        memcpy((*k)->local, l, sizeof l);
    }
    (*k)->launches++;
    (*k)->sim_s += secs;
    (*blocks)++;
    return 0;
}

/* "inst LINE COL SPACE KIND WMIN WMAX", 15 sums, the buffer argument (-1:
 * none) and the 128-byte lines (both optional): one memory instruction's
 * figures, added up over launches;
 * *at gets its index in k->acc (-1 when it could not be kept). */
static int parse_inst_line(const char *line, gm_kernel *k, int *at) {
    int ln, cn, arg = -1;
    char sp[16], kd[16];
    unsigned wmin, wmax;
    unsigned long long v[17] = {0};
    int n = sscanf(line,
                   "inst %d %d %15s %15s %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
                   "%llu %d %llu",
                   &ln, &cn, sp, kd, &wmin, &wmax, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
                   &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &arg, &v[15]);
    if (n < 21 || space_from(sp) < 0 || kind_from(kd) < 0) return -1;
    gm_access *a = access_at(k, ln, cn, space_from(sp), kind_from(kd));
    *at = a ? (int)(a - k->acc) : -1;
    if (!a) return 0;
    if (a->execs == 0 || a->arg < 0) a->arg = arg;
    if (!a->width_min || (wmin && wmin < a->width_min)) a->width_min = wmin;
    if (wmax > a->width_max) a->width_max = wmax;
    a->execs += v[0];
    a->items += v[1];
    a->bytes += v[2];
    a->warps += v[3];
    a->requests += v[4];
    a->lanes += v[5];
    a->sectors += v[6];
    a->useful += v[7];
    a->bank_sum += v[8];
    if (v[9] > a->bank_max) a->bank_max = v[9];
    a->distinct_sum += v[10];
    if (v[11] > a->distinct_max) a->distinct_max = v[11];
    a->contention_sum += v[12];
    if (v[13] > a->contention_max) a->contention_max = v[13];
    a->skipped += v[14];
    a->lines += v[15];
    return 0;
}

/* "req ROLE EPOCH GROUP WARP" and 32 lanes ("-" or HEXADDRESS:SIZE): a request
 * of the instruction just read, kept to be drawn. Over several launches the
 * first launch's first request and intervals are kept, and the worst of all. */
static int parse_req_line(const char *line, gm_access *a, int block) {
    static const char *const roles[GM_N_REQ_ROLES] = {"first", "worst", "interval"};
    char role[16];
    gm_request r;
    memset(&r, 0, sizeof r);
    int used = 0;
    if (sscanf(line, "req %15s %u %llu %u%n", role, &r.epoch, &r.group, &r.warp, &used) != 4) return -1;
    int ri = -1;
    for (int i = 0; i < GM_N_REQ_ROLES; i++)
        if (!strcmp(role, roles[i])) ri = i;
    if (ri < 0) return -1;
    r.role = (gm_req_role)ri;
    const char *p = line + used;
    for (int l = 0; l < GM_WARP; l++) {
        while (*p == ' ') p++;
        if (*p == '-') { p++; continue; }
        int n = 0;
        if (sscanf(p, "%llx:%u%n", &r.addr[l], &r.size[l], &n) != 2 || r.size[l] == 0 || r.size[l] > 255) return -1;
        p += n;
    }
    while (*p == ' ') p++;
    if (*p) return -1;
    if (!a) return 0;
    int same = -1;
    for (int i = 0; i < a->n_reqs; i++)
        if (a->reqs[i].role == r.role && r.role != GM_REQ_INTERVAL) same = i;
    if (r.role == GM_REQ_INTERVAL) {
        if (a->n_reqs && a->reqs_block != block) {
            for (int i = 0; i < a->n_reqs; i++)
                if (a->reqs[i].role == GM_REQ_INTERVAL) return 0; /* an earlier launch's are kept */
        }
    } else if (same >= 0) {
        if (r.role == GM_REQ_FIRST) return 0;
        gm_req_figures old, now;
        gm_request_measure(&a->reqs[same], a->space, a->kind, &old);
        gm_request_measure(&r, a->space, a->kind, &now);
        if (gm_request_cost(&now, a->space, a->kind) > gm_request_cost(&old, a->space, a->kind)) a->reqs[same] = r;
        return 0;
    }
    gm_request *nr = realloc(a->reqs, sizeof *nr * (size_t)(a->n_reqs + 1));
    if (!nr) return 0;
    a->reqs = nr;
    a->reqs[a->n_reqs++] = r;
    a->reqs_block = block;
    return 0;
}

/* "uninit COUNT LINE COL" and a work-item's global, local and group ids: one issue per place, counts summed. */
static int parse_uninit_line(const char *line, gpumodel_report *rep, const gm_kernel *k) {
    unsigned long long count, gg[3], ll[3], ww[3];
    int ln, cn;
    if (sscanf(line, "uninit %llu %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu", &count, &ln, &cn, &gg[0], &gg[1],
               &gg[2], &ll[0], &ll[1], &ll[2], &ww[0], &ww[1], &ww[2]) != 12)
        return -1;
    for (int i = 0; i < rep->n_issues; i++) {
        gm_issue *is = &rep->issues[i];
        if (is->kind == GM_ISSUE_UNINIT && is->line == ln && is->col == cn && !strcmp(is->kernel, k->name)) {
            is->count += count;
            return 0;
        }
    }
    gm_issue *is = add_issue(rep);
    if (!is) return 0;
    is->kind = GM_ISSUE_UNINIT;
    is->space = GM_LOCAL;
    snprintf(is->kernel, sizeof is->kernel, "%s", k->name);
    util_copy_text(is->what, sizeof is->what, _("Read of local memory that no work-item of the group wrote (uninitialised)"));
    is->line = ln;
    is->col = cn;
    is->count = count;
    work_item_text(is->work_item, sizeof is->work_item, gg, ll, ww);
    return 0;
}

/* "msg TYPE COUNT\tTEXT": a message of Oclgrind's; the same message from several launches is one issue. */
/* "answer W..." : the words a one-work-item kernel stored, in address order. */
static int parse_answer_line(const char *line, gm_kernel *k) {
    const char *p = line + 7;
    k->n_answer = 0;
    while (*p && k->n_answer < GM_MAX_ANSWER) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p) return -1;
        k->answer[k->n_answer++] = (unsigned)v;
        p = end;
        while (*p == ' ') p++;
    }
    return 0;
}

static int parse_msg_line(const char *line, gpumodel_report *rep, const gm_kernel *k) {
    int type;
    unsigned long long count;
    const char *tab = strchr(line, '\t');
    if (!tab || sscanf(line, "msg %d %llu", &type, &count) != 2) return -1;
    char *msg = unescape(tab + 1);
    if (!msg) return 0;
    int before = rep->n_issues;
    parse_message(rep, k->name, type, count, msg);
    free(msg);
    if (rep->n_issues == before) return 0; /* nothing it counts as an issue */
    gm_issue *last = &rep->issues[rep->n_issues - 1];
    for (int i = 0; i < rep->n_issues - 1; i++) {
        gm_issue *o = &rep->issues[i];
        if (o->kind == last->kind && o->line == last->line && o->col == last->col && o->line2 == last->line2 &&
            !strcmp(o->what, last->what) && !strcmp(o->kernel, last->kernel)) {
            o->count += last->count;
            rep->n_issues--;
            break;
        }
    }
    return 0;
}

int gpumodel_parse(const char *text, gpumodel_report *rep, char *err, size_t errlen) {
    gm_kernel *k = NULL;
    int blocks = 0, lineno = 0, last = -1;
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = malloc(len + 1);
        if (!line) return -1;
        memcpy(line, p, len);
        line[len] = '\0';
        lineno++;
        p = eol ? eol + 1 : NULL;
        int bad = 0;
        if (!strncmp(line, "kernel ", 7)) { bad = parse_kernel_line(line, rep, &k, &blocks); last = -1; }
        else if (!strncmp(line, "inst ", 5) && k) bad = parse_inst_line(line, k, &last);
        else if (!strncmp(line, "req ", 4) && k) bad = parse_req_line(line, last >= 0 ? &k->acc[last] : NULL, blocks);
        else if (!strncmp(line, "uninit ", 7) && k) bad = parse_uninit_line(line, rep, k);
        else if (!strncmp(line, "msg ", 4) && k) bad = parse_msg_line(line, rep, k);
        else if (!strncmp(line, "answer ", 7) && k) bad = parse_answer_line(line, k);
        else if (!strcmp(line, "end")) { k = NULL; last = -1; }
        else bad = line[0] != '\0';
        if (bad) {
            util_errf(err, errlen, _("the simulator's report, line %d, is not understood: %.80s"), lineno, line);
            free(line);
            return -1;
        }
        free(line);
    }
    if (!blocks) {
        util_errf(err, errlen, "%s", _("the simulator reported no kernel"));
        return -1;
    }
    for (int i = 0; i < rep->n_kernels; i++) {
        gm_kernel *kk = &rep->kernels[i];
        if (kk->n_acc) qsort(kk->acc, (size_t)kk->n_acc, sizeof *kk->acc, cmp_access);
        summarise(kk);
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

/* races: look for data races too (a third slower); the comparison's run, whose
 * findings are not shown, goes without. */
static int analyze(const engine_request *rq_in, int races, run_progress_cb cb, void *user, volatile int *cancel,
                   gpumodel_report *rep) {
    memset(rep, 0, sizeof *rep);
    engine_request rq = *rq_in;
    snprintf(rep->kernel_path, sizeof rep->kernel_path, "%s", rq.display_path ? rq.display_path : rq.kernel_path);
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
    char icd_file[600], out_file[600];
    snprintf(icd_file, sizeof icd_file, "%s/oclgrind.icd", dir);
    snprintf(out_file, sizeof out_file, "%s/figures.txt", dir);
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
    snprintf(e_out, sizeof e_out, "CLTUTOR_GM_OUT=%s", out_file);
    /* the caller's own settings first (a grader's cache folder), then the simulator's;
     * 48 KiB of local memory per work-group, as most GPUs give a kernel by default */
    const char *env[24];
    int ne = 0;
    for (const char *const *e = rq_in->worker_env; e && *e && ne < 16; e++) env[ne++] = *e;
    const char *own[] = {e_vendors, e_plugins, e_out, "OCLGRIND_LOG=/dev/null", "OCLGRIND_LOCAL_MEM_SIZE=49152",
                         races ? "OCLGRIND_DATA_RACES=1" : NULL};
    for (size_t i = 0; i < CLT_ARRAY_LEN(own) && own[i]; i++) env[ne++] = own[i];
    env[ne] = NULL;
    rq.worker_env = env;
    rq.worker_writable = dir; /* where the plugin writes its figures */
    rq.device_spec = "oclgrind";
    rq.budget_s = 0;

    double t0 = util_now();
    engine_run(&rq, cb, user, cancel, &rep->run);
    rep->wall_s = util_now() - t0;
    snprintf(rep->size_text, sizeof rep->size_text, "%s", rep->run.size_text[0] ? rep->run.size_text : rq.size_spec);
    char *text = util_read_file(out_file, NULL);
    unlink(out_file);
    unlink(icd_file);
    rmdir(dir);

    engine_status st = rep->run.status;
    int ran = st == ENG_PASS || st == ENG_WRONG || st == ENG_CRASH || st == ENG_RUNTIME;
    if (!ran || !text || !*text) {
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
                       rq.timeout_s, rep->size_text);
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
    return analyze(rq, 1, cb, user, cancel, rep);
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
    compared_file(l, cat, pth, rep->kernel_path, other, sizeof other, label, sizeof label);
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
        analyze(&prq, 0, cb ? prefixed_progress : NULL, &pc, cancel, &kept->rep);
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
