/* gpumodel — the GPU memory model: runs a kernel on the Oclgrind simulator with cltutor's plugin and turns its per-instruction warp figures into a report. */
#define _GNU_SOURCE
#include "gpumodel/gpumodel.h"
#include "base/util.h"

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
static const char *const kind_plural[GM_N_KINDS] = {"loads", "stores", "atomics"};

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
        util_errf(why, why_len,
                  "The GPU memory model runs your kernel on Oclgrind, an OpenCL GPU simulator, and Oclgrind is "
                  "not installed%s%s%s. Install it with:\n  " GM_INSTALL "\nthen rebuild cltutor (make) so that "
                  "its Oclgrind plugin is built too. Everything else in cltutor works without it.",
                  env && *env ? " (CLTUTOR_OCLGRIND_ICD names " : "", env && *env ? env : "",
                  env && *env ? ", which does not exist)" : "");
        return -1;
    }
    env = getenv("CLTUTOR_GM_PLUGIN");
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (env && *env) {
        if (util_is_file(env)) snprintf(plugin, plugin_len, "%s", env);
    } else {
        if (n > 0) {
            exe[n] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash) {
                *slash = '\0';
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
        util_errf(why, why_len,
                  "Oclgrind is installed, but cltutor's Oclgrind plugin (" GM_PLUGIN_NAME ") was not found next "
                  "to the cltutor program%s. Build it with `make` (it needs Oclgrind's headers: " GM_INSTALL ").",
                  env && *env ? " or at $CLTUTOR_GM_PLUGIN" : "");
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

/* "Global(63,0,0) Local(63,0,0) Group(0,0,0)" -> "global (63,0,0), local (63,0,0), group (0,0,0)" */
static void entity_text(const char *s, char *out, size_t len) {
    unsigned long long g[3], l[3], w[3];
    const char *p = strstr(s, "Global(");
    if (p && sscanf(p, "Global(%llu,%llu,%llu) Local(%llu,%llu,%llu) Group(%llu,%llu,%llu)", &g[0], &g[1], &g[2],
                    &l[0], &l[1], &l[2], &w[0], &w[1], &w[2]) == 9) {
        snprintf(out, len, "global (%llu,%llu,%llu), local (%llu,%llu,%llu), group (%llu,%llu,%llu)", g[0], g[1],
                 g[2], l[0], l[1], l[2], w[0], w[1], w[2]);
        return;
    }
    p = strstr(s, "Group(");
    if (p && sscanf(p, "Group(%llu,%llu,%llu)", &w[0], &w[1], &w[2]) == 3) {
        snprintf(out, len, "group (%llu,%llu,%llu)", w[0], w[1], w[2]);
        return;
    }
    snprintf(out, len, "%s", "");
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
    snprintf(is->what, sizeof is->what, "%s", head);
    if (strstr(head, "data race")) is->kind = GM_ISSUE_RACE;
    else if (!strncmp(head, "Invalid ", 8) || strstr(head, "out of bounds") || strstr(head, "Out-of-bounds"))
        is->kind = GM_ISSUE_MEMORY;
    else if (strstr(head, "ninitiali")) is->kind = GM_ISSUE_UNINIT;
    else if (strstr(head, "divergence")) is->kind = GM_ISSUE_DIVERGENCE;
    else is->kind = GM_ISSUE_OTHER;
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
static double cost(const gm_access *a) {
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
        if (!s->present || cost(a) > cost(&k->acc[s->busiest])) s->busiest = i;
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

/* "inst LINE COL SPACE KIND WMIN WMAX" and 15 sums: one memory instruction's figures, added up over launches. */
static int parse_inst_line(const char *line, gm_kernel *k) {
    int ln, cn;
    char sp[16], kd[16];
    unsigned wmin, wmax;
    unsigned long long v[17];
    if (sscanf(line,
               "inst %d %d %15s %15s %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
               &ln, &cn, sp, kd, &wmin, &wmax, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
               &v[10], &v[11], &v[12], &v[13], &v[14]) != 21 ||
        space_from(sp) < 0 || kind_from(kd) < 0)
        return -1;
    gm_access *a = access_at(k, ln, cn, space_from(sp), kind_from(kd));
    if (!a) return 0;
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
    snprintf(is->kernel, sizeof is->kernel, "%s", k->name);
    snprintf(is->what, sizeof is->what, "%s", "Read of local memory that no work-item of the group wrote (uninitialised)");
    is->line = ln;
    is->col = cn;
    is->count = count;
    snprintf(is->work_item, sizeof is->work_item, "global (%llu,%llu,%llu), local (%llu,%llu,%llu), group (%llu,%llu,%llu)",
             gg[0], gg[1], gg[2], ll[0], ll[1], ll[2], ww[0], ww[1], ww[2]);
    return 0;
}

/* "msg TYPE COUNT\tTEXT": a message of Oclgrind's; the same message from several launches is one issue. */
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
    int blocks = 0, lineno = 0;
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
        if (!strncmp(line, "kernel ", 7)) bad = parse_kernel_line(line, rep, &k, &blocks);
        else if (!strncmp(line, "inst ", 5) && k) bad = parse_inst_line(line, k);
        else if (!strncmp(line, "uninit ", 7) && k) bad = parse_uninit_line(line, rep, k);
        else if (!strncmp(line, "msg ", 4) && k) bad = parse_msg_line(line, rep, k);
        else if (!strcmp(line, "end")) k = NULL;
        else bad = line[0] != '\0';
        if (bad) {
            util_errf(err, errlen, "the simulator's report, line %d, is not understood: %.80s", lineno, line);
            free(line);
            return -1;
        }
        free(line);
    }
    if (!blocks) {
        util_errf(err, errlen, "the simulator reported no kernel");
        return -1;
    }
    for (int i = 0; i < rep->n_kernels; i++) {
        gm_kernel *kk = &rep->kernels[i];
        if (kk->n_acc) qsort(kk->acc, (size_t)kk->n_acc, sizeof *kk->acc, cmp_access);
        summarise(kk);
    }
    return 0;
}

/* ---- text ---- */

static void add_line(char ***lines, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_line_v(char ***lines, int *n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static void add_line_v(char ***lines, int *n, const char *fmt, va_list ap) {
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    if (!s) return;
    char **nl = realloc(*lines, sizeof *nl * (size_t)(*n + 1));
    if (!nl) {
        free(s);
        return;
    }
    *lines = nl;
    (*lines)[(*n)++] = s;
}

static void add_line(char ***lines, int *n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add_line_v(lines, n, fmt, ap);
    va_end(ap);
}

static void free_lines(char ***lines, int *n) {
    for (int i = 0; i < *n; i++) free((*lines)[i]);
    free(*lines);
    *lines = NULL;
    *n = 0;
}

static void free_roles(gpumodel_report *rep) {
    free(rep->line_roles);
    free(rep->line_src);
    rep->line_roles = NULL;
    rep->line_src = NULL;
}

/* Gives the report's lines their roles: a blank, a heading at the margin,
 * else text; then the marks made while formatting (line index, role, source line). */
static void assign_roles(gpumodel_report *rep, const int *marks, int n_marks) {
    free_roles(rep);
    rep->line_roles = calloc((size_t)(rep->n_lines ? rep->n_lines : 1), sizeof *rep->line_roles);
    rep->line_src = calloc((size_t)(rep->n_lines ? rep->n_lines : 1), sizeof *rep->line_src);
    if (!rep->line_roles || !rep->line_src) return free_roles(rep);
    for (int i = 0; i < rep->n_lines; i++) {
        const char *t = rep->lines[i];
        rep->line_roles[i] = !t[0] ? GM_LINE_BLANK : t[0] != ' ' ? GM_LINE_HEADING : GM_LINE_TEXT;
    }
    for (int m = 0; m < n_marks; m++) {
        int i = marks[3 * m];
        if (i < 0 || i >= rep->n_lines) continue;
        rep->line_roles[i] = (gm_line_role)marks[3 * m + 1];
        rep->line_src[i] = marks[3 * m + 2];
    }
}

/* Remembers that the line just added has a role (and a source line). */
static void mark_last(int **marks, int *n_marks, int n_lines, gm_line_role role, int src) {
    int *grown = realloc(*marks, sizeof **marks * 3 * (size_t)(*n_marks + 1));
    if (!grown) return;
    *marks = grown;
    grown[3 * *n_marks] = n_lines - 1;
    grown[3 * *n_marks + 1] = (int)role;
    grown[3 * *n_marks + 2] = src;
    (*n_marks)++;
}

static void fmt_pct(char *buf, size_t len, double f) {
    double p = f * 100.0;
    if (p >= 99.95) snprintf(buf, len, "100%%");
    else if (p >= 10 || fabs(p - round(p)) < 0.05) snprintf(buf, len, "%.*f%%", fabs(p - round(p)) < 0.05 ? 0 : 1, p);
    else snprintf(buf, len, "%.1f%%", p);
}

static void fmt_num(char *buf, size_t len, double v) {
    if (fabs(v - round(v)) < 0.05) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.1f", v);
}

static void fmt_bytes(char *buf, size_t len, double b) {
    if (b >= 1e9) snprintf(buf, len, "%.1f GB", b / 1e9);
    else if (b >= 1e6) snprintf(buf, len, "%.1f MB", b / 1e6);
    else if (b >= 1e3) snprintf(buf, len, "%.1f kB", b / 1e3);
    else snprintf(buf, len, "%.0f bytes", b);
}

static void fmt_width(char *buf, size_t len, const gm_access *a) {
    if (a->width_min == a->width_max) snprintf(buf, len, "%u", a->width_max);
    else snprintf(buf, len, "%u-%u", a->width_min, a->width_max);
}

/* The detail of one instruction, as the table's last column and the line's note. */
static void access_detail(const gm_access *a, char *buf, size_t len) {
    char x[32], y[32];
    buf[0] = '\0';
    if (a->space == GM_LOCAL) {
        fmt_num(x, sizeof x, a->bank_avg);
        if (a->bank_max <= 1)
            snprintf(buf, len, "no bank conflicts");
        else
            snprintf(buf, len, "bank conflicts: %s-way on average, %llu-way at worst", x, a->bank_max);
    } else if (a->space == GM_CONSTANT) {
        fmt_num(x, sizeof x, a->distinct_avg);
        if (a->distinct_max <= 1)
            snprintf(buf, len, "1 address per warp (broadcast)");
        else
            snprintf(buf, len, "%s addresses per warp on average, %llu at worst: read one after another", x,
                     a->distinct_max);
    } else if (a->kind != GM_ATOMIC && a->lanes_avg > 1 && a->distinct_max <= 1) {
        snprintf(buf, len, "every work-item of a warp %s the same address%s", a->kind == GM_LOAD ? "reads" : "writes",
                 a->kind == GM_LOAD ? " (broadcast)" : "");
    }
    if (a->kind == GM_ATOMIC) {
        fmt_num(x, sizeof x, a->contention_avg);
        fmt_num(y, sizeof y, a->lanes_avg);
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, "%s%s of %s work-items of a warp on one address on average, %llu at worst",
                 u ? "; " : "", x, y, a->contention_max);
    }
    if (a->skipped) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, "%s(figures from the first 65536 executions per work-item between barriers)",
                 u ? " " : "");
    }
}

static void access_note(const gm_access *a, char *buf, size_t len) {
    char e[16], s[32], d[160];
    access_detail(a, d, sizeof d);
    if (a->space == GM_LOCAL || a->kind == GM_ATOMIC) {
        snprintf(buf, len, "%s %s: %s", space_names[a->space], kind_names[a->kind], d);
        return;
    }
    fmt_pct(e, sizeof e, a->efficiency);
    fmt_num(s, sizeof s, a->sectors_per_request);
    snprintf(buf, len, "%s %s: %s sector%s per request, %s efficient%s%s", space_names[a->space], kind_names[a->kind],
             s, strcmp(s, "1") ? "s" : "", e, d[0] ? "; " : "", d);
}

static char **read_source(const char *path, int *n) {
    *n = 0;
    char *text = path ? util_read_file(path, NULL) : NULL;
    if (!text) return NULL;
    char **lines = NULL;
    for (char *p = text; p && *p;) {
        char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        add_line(&lines, n, "%.*s", (int)len, p);
        p = eol ? eol + 1 : NULL;
    }
    free(text);
    return lines;
}

static void add_note(gpumodel_report *rep, int line, const char *text) {
    if (line <= 0) return;
    for (int i = 0; i < rep->n_notes; i++)
        if (rep->notes[i].line == line) {
            size_t u = strlen(rep->notes[i].text);
            if (!strstr(rep->notes[i].text, text))
                snprintf(rep->notes[i].text + u, sizeof rep->notes[i].text - u, "; %s", text);
            return;
        }
    gm_note *nn = realloc(rep->notes, sizeof *nn * (size_t)(rep->n_notes + 1));
    if (!nn) return;
    rep->notes = nn;
    gm_note *n = &rep->notes[rep->n_notes++];
    n->line = line;
    snprintf(n->text, sizeof n->text, "%s", text);
}

static int cmp_note(const void *x, const void *y) {
    const gm_note *a = x, *b = y;
    return (a->line > b->line) - (a->line < b->line);
}

const char *gpumodel_note(const gpumodel_report *rep, int line) {
    for (int i = 0; i < rep->n_notes; i++)
        if (rep->notes[i].line == line) return rep->notes[i].text;
    return NULL;
}

int gpumodel_has_errors(const gpumodel_report *rep) {
    for (int i = 0; i < rep->n_issues; i++)
        if (rep->issues[i].kind != GM_ISSUE_OTHER) return 1;
    return 0;
}

static const char *issue_kind_name(gm_issue_kind k) {
    switch (k) {
    case GM_ISSUE_MEMORY: return "memory error";
    case GM_ISSUE_RACE: return "data race";
    case GM_ISSUE_UNINIT: return "uninitialised read";
    case GM_ISSUE_DIVERGENCE: return "divergent barrier";
    default: return "warning";
    }
}

static void issue_short(const gm_issue *is, char *buf, size_t len) {
    snprintf(buf, len, "%s (work-item %s%s)", is->what, is->work_item[0] ? is->work_item : "unknown",
             is->count > 1 ? ", and more" : "");
}

static void kernel_summary(const gm_kernel *k, char ***lines, int *n) {
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            const gm_summary *s = &k->sum[sp][kd];
            if (!s->present) continue;
            const gm_access *b = &k->acc[s->busiest];
            char x[32], y[32], z[32];
            if (kd == GM_ATOMIC) {
                fmt_num(x, sizeof x, s->contention_avg);
                add_line(lines, n, "  %-9s %-8s %llu operations; %s work-item%s of a warp on one address on average, "
                         "%llu at worst (line %d)", space_names[sp], kind_plural[kd], s->execs, x,
                         strcmp(x, "1") ? "s" : "", s->contention_max, b->line);
                if (sp == GM_LOCAL) {
                    fmt_num(y, sizeof y, s->bank_avg);
                    if (s->bank_max <= 1)
                        add_line(lines, n, "  %-9s %-8s no bank conflicts", "", "");
                    else
                        add_line(lines, n, "  %-9s %-8s bank conflicts %s-way on average, %llu-way at worst", "", "",
                                 y, s->bank_max);
                }
            } else if (sp == GM_LOCAL) {
                fmt_num(x, sizeof x, s->bank_avg);
                if (s->bank_max <= 1)
                    add_line(lines, n, "  %-9s %-8s no bank conflicts", space_names[sp], kind_plural[kd]);
                else
                    add_line(lines, n, "  %-9s %-8s bank conflicts %s-way on average, %llu-way at worst (line %d)",
                             space_names[sp], kind_plural[kd], x, s->bank_max, b->line);
            } else {
                fmt_pct(x, sizeof x, s->efficiency);
                fmt_num(y, sizeof y, s->sectors_per_request);
                fmt_num(z, sizeof z, b->sectors_per_request);
                char moved[32];
                fmt_bytes(moved, sizeof moved, (double)s->sectors * GM_SECTOR);
                add_line(lines, n, "  %-9s %-8s %s efficient, %s sector%s per request (line %d: %s), %s moved",
                         space_names[sp], kind_plural[kd], x, y, strcmp(y, "1") ? "s" : "", b->line, z, moved);
                if (sp == GM_CONSTANT) {
                    fmt_num(x, sizeof x, s->distinct_avg);
                    add_line(lines, n, "  %-9s %-8s %s distinct address%s per warp on average, %llu at worst%s", "",
                             "", x, strcmp(x, "1") ? "es" : "", s->distinct_max, s->distinct_max <= 1 ? " (broadcast)" : "");
                }
            }
        }
}

void gpumodel_format(gpumodel_report *rep) {
    free_lines(&rep->lines, &rep->n_lines);
    free(rep->notes);
    rep->notes = NULL;
    rep->n_notes = 0;
    char ***L = &rep->lines;
    int *N = &rep->n_lines;
    int n_src = 0;
    char **src = read_source(rep->kernel_path, &n_src);
    int *marks = NULL, n_marks = 0;
#define MARK(role, line) mark_last(&marks, &n_marks, *N, role, line)

    const char *result = rep->run.status == ENG_PASS ? "the result was correct"
                       : rep->run.status == ENG_WRONG ? "the result was WRONG (see `cltutor run`)"
                       : rep->run.headline[0] ? rep->run.headline : "no result";
    add_line(L, N, "GPU memory model of %s", rep->kernel_path);
    add_line(L, N, "Simulated by Oclgrind at size %s (%s); %s.", rep->size_text,
             !strcmp(rep->size_origin, "--size") ? "from --size"
             : !strcmp(rep->size_origin, "analysis_size") ? "the chapter's analysis size"
             : "a small size; the chapter sets none", result);
    add_line(L, N, "Figures are what a GPU with warps of %d work-items, %d-byte sectors and %d banks of 4 bytes would see.",
             GM_WARP, GM_SECTOR, GM_BANKS);

    for (int ki = 0; ki < rep->n_kernels; ki++) {
        gm_kernel *k = &rep->kernels[ki];
        unsigned long long items = k->global[0] * (k->global[1] ? k->global[1] : 1) * (k->global[2] ? k->global[2] : 1);
        unsigned long long group = k->local[0] * (k->local[1] ? k->local[1] : 1) * (k->local[2] ? k->local[2] : 1);
        add_line(L, N, "%s", "");
        add_line(L, N, "Kernel %s: %llu work-item%s in groups of %llu (%llu warp%s per group)%s%d launch%s, simulated in %.1f s",
                 k->name, items, items == 1 ? "" : "s", group, (group + GM_WARP - 1) / GM_WARP,
                 (group + GM_WARP - 1) / GM_WARP == 1 ? "" : "s", k->launches > 1 ? "; " : ", ",
                 k->launches, k->launches == 1 ? "" : "es", k->sim_s);
        if (!k->n_acc) {
            add_line(L, N, "  no global, constant or local memory accesses");
            continue;
        }
        add_line(L, N, "  %-9s %-8s %-6s %6s %9s %11s %10s  %s", "line:col", "memory", "access", "B/item", "req/warp",
                 "sectors/req", "efficiency", "detail");
        for (int i = 0; i < k->n_acc; i++) {
            gm_access *a = &k->acc[i];
            char loc[24], w[16], rpw[24], spr[24], eff[16], det[200];
            snprintf(loc, sizeof loc, "%d:%d", a->line, a->col);
            fmt_width(w, sizeof w, a);
            fmt_num(rpw, sizeof rpw, a->requests_per_warp);
            int sectors = a->space != GM_LOCAL;
            if (sectors) fmt_num(spr, sizeof spr, a->sectors_per_request);
            else snprintf(spr, sizeof spr, "-");
            if (sectors && a->kind != GM_ATOMIC) fmt_pct(eff, sizeof eff, a->efficiency);
            else snprintf(eff, sizeof eff, "-");
            access_detail(a, det, sizeof det);
            add_line(L, N, "  %-9s %-8s %-6s %6s %9s %11s %10s  %s", loc, space_names[a->space], kind_names[a->kind], w,
                     rpw, spr, eff, det);
            MARK(GM_LINE_ROW, a->line);
            if (a->line > 0 && a->line <= n_src) {
                const char *s = src[a->line - 1];
                int lead = 0;
                while (s[lead] == ' ' || s[lead] == '\t') lead++;
                add_line(L, N, "  %-9s %s", "", s + lead);
                MARK(GM_LINE_SOURCE, a->line);
                if (a->col > lead) {
                    add_line(L, N, "  %-9s %*s^", "", a->col - 1 - lead, "");
                    MARK(GM_LINE_SOURCE, a->line);
                }
            }
            char note[sizeof a->note];
            access_note(a, note, sizeof note);
            snprintf(a->note, sizeof a->note, "%s", note);
            add_note(rep, a->line, note);
        }
        add_line(L, N, "  Summary:");
        kernel_summary(k, L, N);
    }

    if (rep->n_compare) {
        add_line(L, N, "%s", "");
        add_line(L, N, "Compared with %s:", rep->prev_label);
        for (int i = 0; i < rep->n_compare; i++) add_line(L, N, "  %s", rep->compare[i]);
    }

    add_line(L, N, "%s", "");
    if (!rep->n_issues) {
        add_line(L, N, "Oclgrind found no memory errors, data races or reads of uninitialised local memory.");
        MARK(GM_LINE_CLEAN, 0);
    } else {
        add_line(L, N, "Oclgrind found %d problem%s:", rep->n_issues, rep->n_issues == 1 ? "" : "s");
        for (int i = 0; i < rep->n_issues; i++) {
            const gm_issue *is = &rep->issues[i];
            char where[64] = "unknown line";
            if (is->line) snprintf(where, sizeof where, "line %d:%d", is->line, is->col);
            add_line(L, N, "  %s at %s: %s", issue_kind_name(is->kind), where, is->what);
            MARK(GM_LINE_PROBLEM, is->line);
            if (is->work_item[0])
                add_line(L, N, "    first by work-item %s%s", is->work_item,
                         is->count > 1 ? "" : "");
            if (is->kind == GM_ISSUE_RACE && is->line2)
                add_line(L, N, "    conflicting with line %d:%d%s%s", is->line2, is->col2,
                         is->work_item2[0] ? " by work-item " : "", is->work_item2);
            if (is->count > 1) add_line(L, N, "    (%llu times in all)", is->count);
            if (is->line > 0 && is->line <= n_src) {
                const char *s = src[is->line - 1];
                while (*s == ' ' || *s == '\t') s++;
                add_line(L, N, "    %d | %s", is->line, s);
                MARK(GM_LINE_SOURCE, is->line);
            }
            char note[300];
            issue_short(is, note, sizeof note);
            add_note(rep, is->line, note);
            if (is->kind == GM_ISSUE_RACE && is->line2 && is->line2 != is->line) add_note(rep, is->line2, note);
        }
    }
    qsort(rep->notes, (size_t)rep->n_notes, sizeof *rep->notes, cmp_note);
    free_lines(&src, &n_src);
#undef MARK
    assign_roles(rep, marks, n_marks);
    free(marks);
}

/* ---- comparison ---- */

static void add_sentence(gpumodel_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_sentence(gpumodel_report *rep, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add_line_v(&rep->compare, &rep->n_compare, fmt, ap);
    va_end(ap);
}

static int differs(double a, double b, double rel) {
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return m > 0 && fabs(a - b) > rel * m;
}

static void compare_kernel(gpumodel_report *rep, const gm_kernel *old, const gm_kernel *cur, const char *prefix) {
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            const gm_summary *o = old ? &old->sum[sp][kd] : NULL, *c = &cur->sum[sp][kd];
            int had = o && o->present, has = c->present;
            if (!had && !has) continue;
            char what[64];
            snprintf(what, sizeof what, "%s%s %s", prefix, space_names[sp], kind_plural[kd]);
            char a[32], b[32], x[32], y[32];
            if (!has) {
                add_sentence(rep, "%s: none any more (there were %llu).", what, o->execs);
                continue;
            }
            const gm_access *cb = &cur->acc[c->busiest];
            if (kd == GM_ATOMIC) {
                fmt_num(x, sizeof x, c->contention_avg);
                if (!had) {
                    add_sentence(rep, "%s: new, %llu operation%s, %s work-item%s of a warp on one address on average.",
                                 what, c->execs, c->execs == 1 ? "" : "s", x, strcmp(x, "1") ? "s" : "");
                    continue;
                }
                fmt_num(y, sizeof y, o->contention_avg);
                if (o->execs == c->execs && !differs(o->contention_avg, c->contention_avg, 0.05))
                    add_sentence(rep, "%s: %llu operations as before, %s work-item%s of a warp on one address on "
                                 "average.", what, c->execs, x, strcmp(x, "1") ? "s" : "");
                else if (o->execs == c->execs)
                    add_sentence(rep, "%s: %llu operations as before; work-items of a warp on one address (they "
                                 "take turns): %s → %s on average.", what, c->execs, y, x);
                else
                    add_sentence(rep, "%s: %llu → %llu operations (%.1fx %s); work-items of a warp on one address "
                                 "(they take turns): %s → %s on average.", what, o->execs, c->execs,
                                 c->execs < o->execs ? (double)o->execs / (double)(c->execs ? c->execs : 1)
                                                     : (double)c->execs / (double)(o->execs ? o->execs : 1),
                                 c->execs < o->execs ? "fewer" : "more", y, x);
                if (sp == GM_LOCAL && differs(o->bank_avg, c->bank_avg, 0.02)) {
                    fmt_num(x, sizeof x, c->bank_avg);
                    fmt_num(y, sizeof y, o->bank_avg);
                    add_sentence(rep, "%s: bank conflicts %s-way → %s-way on average%s.", what, y, x,
                                 c->bank_max <= 1 ? " (none)" : "");
                }
                continue;
            }
            if (sp == GM_LOCAL) {
                fmt_num(x, sizeof x, c->bank_avg);
                if (!had) {
                    if (c->bank_max <= 1)
                        add_sentence(rep, "%s: new, %llu of them, with no bank conflicts.", what, c->execs);
                    else
                        add_sentence(rep, "%s: new, %llu of them, with %s-way bank conflicts on average (%llu-way at "
                                     "worst, line %d).", what, c->execs, x, c->bank_max, cb->line);
                    continue;
                }
                fmt_num(y, sizeof y, o->bank_avg);
                if (!differs(o->bank_avg, c->bank_avg, 0.02) && c->bank_max <= 1)
                    add_sentence(rep, "%s: no bank conflicts, as before.", what);
                else if (!differs(o->bank_avg, c->bank_avg, 0.02))
                    add_sentence(rep, "%s: %s-way bank conflicts on average, as before.", what, x);
                else
                    add_sentence(rep, "%s: bank conflicts %s-way → %s-way on average%s: each request now takes %s "
                                 "instead of %s pass%s through the banks.", what, y, x,
                                 c->bank_max <= 1 ? " (none)" : "", x, y, strcmp(y, "1") ? "es" : "");
                continue;
            }
            /* global and constant loads and stores */
            const char *verb = kd == GM_LOAD ? "reads" : "writes";
            fmt_pct(b, sizeof b, c->efficiency);
            fmt_num(x, sizeof x, cb->sectors_per_request);
            if (!had) {
                add_sentence(rep, "%s: new, %s efficient; each warp %s %s sector%s per request (line %d).", what, b,
                             verb, x, strcmp(x, "1") ? "s" : "", cb->line);
                continue;
            }
            const gm_access *ob = &old->acc[o->busiest];
            fmt_pct(a, sizeof a, o->efficiency);
            fmt_num(y, sizeof y, ob->sectors_per_request);
            char tail[200] = "";
            if (strcmp(x, y))
                snprintf(tail, sizeof tail, ": each warp now %s %s sector%s per request instead of %s", verb, x,
                         strcmp(x, "1") ? "s" : "", y);
            else
                snprintf(tail, sizeof tail, ", %s sector%s per request", x, strcmp(x, "1") ? "s" : "");
            if (o->width_max != c->width_max) {
                size_t u = strlen(tail);
                snprintf(tail + u, sizeof tail - u, "%s the widest %s %u bytes per work-item instead of %u",
                         u ? ";" : ":", kd == GM_LOAD ? "reads" : "writes", c->width_max, o->width_max);
            }
            if (differs((double)o->requests, (double)c->requests, 0.1)) {
                size_t u = strlen(tail);
                double r = (double)o->requests / (double)(c->requests ? c->requests : 1);
                if (r >= 1)
                    snprintf(tail + u, sizeof tail - u, "%s each warp makes %.1fx fewer requests", u ? ";" : ":", r);
                else
                    snprintf(tail + u, sizeof tail - u, "%s each warp makes %.1fx more requests", u ? ";" : ":", 1 / r);
            }
            if (strcmp(a, b))
                add_sentence(rep, "%s: %s → %s efficient%s.", what, a, b, tail);
            else
                add_sentence(rep, "%s: %s efficient as before%s.", what, b, tail);
            if (sp == GM_CONSTANT && differs(o->distinct_avg, c->distinct_avg, 0.05)) {
                fmt_num(x, sizeof x, c->distinct_avg);
                fmt_num(y, sizeof y, o->distinct_avg);
                add_sentence(rep, "%s: %s → %s distinct addresses per warp.", what, y, x);
            }
        }
    if (old && old->moved && cur->moved && differs((double)old->moved, (double)cur->moved, 0.05)) {
        char a[32], b[32];
        fmt_bytes(a, sizeof a, (double)old->moved);
        fmt_bytes(b, sizeof b, (double)cur->moved);
        double r = (double)old->moved / (double)(cur->moved ? cur->moved : 1);
        if (r >= 1)
            add_sentence(rep, "%sglobal memory traffic: %s → %s (%.1fx less).", prefix, a, b, r);
        else
            add_sentence(rep, "%sglobal memory traffic: %s → %s (%.1fx more).", prefix, a, b, 1 / r);
    }
}

void gpumodel_compare(gpumodel_report *rep, const gpumodel_report *prev, const char *label) {
    free_lines(&rep->compare, &rep->n_compare);
    snprintf(rep->prev_label, sizeof rep->prev_label, "%s", label ? label : "the previous chapter");
    if (!prev || prev->status != GM_OK) {
        add_sentence(rep, "(no comparison: %s could not be analysed%s%s)", rep->prev_label,
                     prev && prev->message[0] ? ": " : "", prev ? prev->message : "");
    } else {
        for (int i = 0; i < rep->n_kernels; i++) {
            const gm_kernel *cur = &rep->kernels[i], *old = NULL;
            for (int j = 0; j < prev->n_kernels; j++)
                if (!strcmp(prev->kernels[j].name, cur->name)) old = &prev->kernels[j];
            if (!old && rep->n_kernels == 1 && prev->n_kernels == 1) old = &prev->kernels[0];
            char prefix[80] = "";
            if (rep->n_kernels > 1) snprintf(prefix, sizeof prefix, "%s, ", cur->name);
            compare_kernel(rep, old, cur, prefix);
        }
        if (!rep->n_compare) add_sentence(rep, "no memory accesses to compare.");
    }
    gpumodel_format(rep);
}

/* ---- running the analysis ---- */

/* Leaves out the problem's helper kernel (one work-item answering the host a
 * question): it is not the learner's work and its one store would show as an
 * uncoalesced access. */
static void drop_helper_kernel(gpumodel_report *rep, const problem_ops *ops) {
    if (!ops || !ops->helper_kernel) return;
    for (int i = 0; i < rep->n_kernels; i++) {
        if (strcmp(rep->kernels[i].name, ops->helper_kernel) != 0) continue;
        free(rep->kernels[i].acc);
        memmove(&rep->kernels[i], &rep->kernels[i + 1], sizeof rep->kernels[0] * (size_t)(rep->n_kernels - i - 1));
        rep->n_kernels--;
        i--;
    }
}

/* races: look for data races too (a third slower); the comparison's run, whose
 * findings are not shown, goes without. */
static int analyze(const engine_request *rq_in, int races, engine_progress_cb cb, void *user, volatile int *cancel,
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
        util_errf(rep->message, sizeof rep->message, "cannot make a temporary folder in %s", tmp && *tmp ? tmp : "/tmp");
        return -1;
    }
    char icd_file[600], out_file[600];
    snprintf(icd_file, sizeof icd_file, "%s/oclgrind.icd", dir);
    snprintf(out_file, sizeof out_file, "%s/figures.txt", dir);
    char icd_line[1100];
    snprintf(icd_line, sizeof icd_line, "%s\n", icd);
    if (util_write_file_atomic(icd_file, icd_line, strlen(icd_line)) != 0) {
        rep->status = GM_FAILED;
        util_errf(rep->message, sizeof rep->message, "cannot write %s", icd_file);
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
                      "Oclgrind did not start as an OpenCL device (%s). Reinstall it with:\n  " GM_INSTALL,
                      rep->run.message);
        else if (st == ENG_TIMEOUT && !strcmp(rep->run.headline, "Timed out"))
            util_errf(rep->message, sizeof rep->message,
                      "The simulation did not finish within %.0f s. Oclgrind runs a kernel about 1000 times slower "
                      "than a CPU does: analyse a smaller size (this was %s), or allow longer with --timeout.",
                      rq.timeout_s, rep->size_text);
        else if (st == ENG_PASS || st == ENG_WRONG)
            util_errf(rep->message, sizeof rep->message,
                      "Oclgrind ran the kernel but cltutor's plugin (%s) reported nothing; the simulator said: %s",
                      plugin, rep->run.worker_output ? rep->run.worker_output : "nothing");
        else
            util_errf(rep->message, sizeof rep->message, "%s: %s", rep->run.headline, rep->run.message);
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

int gpumodel_analyze(const engine_request *rq, engine_progress_cb cb, void *user, volatile int *cancel,
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
    engine_progress_cb cb;
    void *user;
} prefix_ctx;

/* Passes the comparison's progress on as "previous:PHASE". */
static void prefixed_progress(void *user, const char *phase, int done, int total, double elapsed) {
    prefix_ctx *pc = user;
    char p[64];
    snprintf(p, sizeof p, "previous:%s", phase);
    pc->cb(pc->user, p, done, total, elapsed);
}

/* Whether two stats of a path are of the same version of the file. */
int gpumodel_analyze_chapter(const engine_request *rq, const catalog *cat, const paths *pth, int compare,
                             gpumodel_cache *cache, engine_progress_cb cb, void *user, volatile int *cancel,
                             gpumodel_report *rep) {
    const lesson *l = rq->lesson;
    if (gpumodel_analyze(rq, cb, user, cancel, rep) != 0 || !compare) return rep->status == GM_OK ? 0 : -1;
    /* the previous chapter's reference; where that chapter solves another
     * problem (or there is none), this chapter's starting file */
    const lesson *prev = l->previous > 0 && cat ? catalog_by_number(cat, l->previous) : NULL;
    char other[1200] = "", label[1400] = "";
    if (prev && !strcmp(prev->problem, l->problem)) {
        paths_solution(pth, prev, other, sizeof other);
        snprintf(label, sizeof label, "chapter %d's reference (%s)", prev->number, other);
    } else {
        prev = l;
        paths_starting(pth, l, other, sizeof other);
        if (same_text(other, rq->kernel_path)) other[0] = '\0';
        else snprintf(label, sizeof label, "this chapter's starting file (%s)", other);
    }
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

/* ---- JSON ---- */

static cJSON *summary_json(const gm_summary *s, const gm_kernel *k, int sp, int kd) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "operations", (double)s->execs);
    cJSON_AddNumberToObject(o, "requests", (double)s->requests);
    cJSON_AddNumberToObject(o, "bytes_requested", (double)s->bytes);
    if (sp != GM_LOCAL) {
        cJSON_AddNumberToObject(o, "sectors", (double)s->sectors);
        cJSON_AddNumberToObject(o, "bytes_moved", (double)s->sectors * GM_SECTOR);
        cJSON_AddNumberToObject(o, "sectors_per_request", s->sectors_per_request);
        if (kd != GM_ATOMIC) cJSON_AddNumberToObject(o, "efficiency", s->efficiency);
    }
    if (sp == GM_LOCAL) {
        cJSON_AddNumberToObject(o, "bank_conflict_avg", s->bank_avg);
        cJSON_AddNumberToObject(o, "bank_conflict_max", (double)s->bank_max);
    }
    cJSON_AddNumberToObject(o, "distinct_addresses_avg", s->distinct_avg);
    cJSON_AddNumberToObject(o, "distinct_addresses_max", (double)s->distinct_max);
    if (kd == GM_ATOMIC) {
        cJSON_AddNumberToObject(o, "contention_avg", s->contention_avg);
        cJSON_AddNumberToObject(o, "contention_max", (double)s->contention_max);
    }
    cJSON_AddNumberToObject(o, "busiest_line", k->acc[s->busiest].line);
    return o;
}

cJSON *gpumodel_json(const gpumodel_report *rep) {
    cJSON *o = cJSON_CreateObject();
    static const char *const st[] = {"ok", "unavailable", "failed"};
    cJSON_AddStringToObject(o, "status", st[rep->status]);
    if (rep->message[0]) cJSON_AddStringToObject(o, "message", rep->message);
    cJSON_AddStringToObject(o, "kernel_path", rep->kernel_path);
    cJSON_AddStringToObject(o, "size", rep->size_text);
    cJSON_AddStringToObject(o, "size_origin", rep->size_origin);
    if (rep->status == GM_UNAVAILABLE) return o;
    cJSON_AddStringToObject(o, "result", engine_status_name(rep->run.status));
    cJSON_AddNumberToObject(o, "wall_s", rep->wall_s);
    cJSON *model = cJSON_AddObjectToObject(o, "model");
    cJSON_AddNumberToObject(model, "warp", GM_WARP);
    cJSON_AddNumberToObject(model, "sector_bytes", GM_SECTOR);
    cJSON_AddNumberToObject(model, "banks", GM_BANKS);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < rep->n_kernels; i++) {
        const gm_kernel *k = &rep->kernels[i];
        cJSON *jk = cJSON_CreateObject();
        cJSON_AddItemToArray(ks, jk);
        cJSON_AddStringToObject(jk, "name", k->name);
        double g[3] = {(double)k->global[0], (double)k->global[1], (double)k->global[2]};
        double l[3] = {(double)k->local[0], (double)k->local[1], (double)k->local[2]};
        cJSON_AddItemToObject(jk, "global_size", cJSON_CreateDoubleArray(g, k->dims > 0 && k->dims <= 3 ? k->dims : 3));
        cJSON_AddItemToObject(jk, "local_size", cJSON_CreateDoubleArray(l, k->dims > 0 && k->dims <= 3 ? k->dims : 3));
        cJSON_AddNumberToObject(jk, "launches", k->launches);
        cJSON_AddNumberToObject(jk, "simulated_s", k->sim_s);
        cJSON_AddNumberToObject(jk, "global_bytes_moved", (double)k->moved);
        cJSON *ja = cJSON_AddArrayToObject(jk, "accesses");
        for (int j = 0; j < k->n_acc; j++) {
            const gm_access *a = &k->acc[j];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddItemToArray(ja, x);
            cJSON_AddNumberToObject(x, "line", a->line);
            cJSON_AddNumberToObject(x, "col", a->col);
            cJSON_AddStringToObject(x, "space", space_names[a->space]);
            cJSON_AddStringToObject(x, "kind", kind_names[a->kind]);
            cJSON_AddNumberToObject(x, "bytes_per_access", a->width_max);
            cJSON_AddNumberToObject(x, "bytes_per_work_item", a->bytes_per_item);
            cJSON_AddNumberToObject(x, "work_items", (double)a->items);
            cJSON_AddNumberToObject(x, "executions", (double)a->execs);
            cJSON_AddNumberToObject(x, "requests", (double)a->requests);
            cJSON_AddNumberToObject(x, "requests_per_warp", a->requests_per_warp);
            cJSON_AddNumberToObject(x, "active_lanes_avg", a->lanes_avg);
            if (a->space != GM_LOCAL) {
                cJSON_AddNumberToObject(x, "sectors", (double)a->sectors);
                cJSON_AddNumberToObject(x, "sectors_per_request", a->sectors_per_request);
                if (a->kind != GM_ATOMIC) cJSON_AddNumberToObject(x, "efficiency", a->efficiency);
            } else {
                cJSON_AddNumberToObject(x, "bank_conflict_avg", a->bank_avg);
                cJSON_AddNumberToObject(x, "bank_conflict_max", (double)a->bank_max);
            }
            cJSON_AddNumberToObject(x, "distinct_addresses_avg", a->distinct_avg);
            cJSON_AddNumberToObject(x, "distinct_addresses_max", (double)a->distinct_max);
            if (a->kind == GM_ATOMIC) {
                cJSON_AddNumberToObject(x, "contention_avg", a->contention_avg);
                cJSON_AddNumberToObject(x, "contention_max", (double)a->contention_max);
            }
            if (a->skipped) cJSON_AddNumberToObject(x, "skipped", (double)a->skipped);
            cJSON_AddStringToObject(x, "note", a->note);
        }
        cJSON *js = cJSON_AddObjectToObject(jk, "summary");
        for (int sp = 0; sp < GM_N_SPACES; sp++)
            for (int kd = 0; kd < GM_N_KINDS; kd++) {
                if (!k->sum[sp][kd].present) continue;
                char key[32];
                snprintf(key, sizeof key, "%s_%s", space_names[sp], kind_names[kd]);
                cJSON_AddItemToObject(js, key, summary_json(&k->sum[sp][kd], k, sp, kd));
            }
    }
    cJSON *ji = cJSON_AddArrayToObject(o, "issues");
    for (int i = 0; i < rep->n_issues; i++) {
        const gm_issue *is = &rep->issues[i];
        static const char *const kn[] = {"memory", "race", "uninitialised", "other"};
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(ji, x);
        cJSON_AddStringToObject(x, "kind", kn[is->kind]);
        cJSON_AddStringToObject(x, "kernel", is->kernel);
        cJSON_AddStringToObject(x, "what", is->what);
        cJSON_AddNumberToObject(x, "line", is->line);
        cJSON_AddNumberToObject(x, "col", is->col);
        cJSON_AddStringToObject(x, "work_item", is->work_item);
        if (is->kind == GM_ISSUE_RACE) {
            cJSON_AddNumberToObject(x, "other_line", is->line2);
            cJSON_AddNumberToObject(x, "other_col", is->col2);
            cJSON_AddStringToObject(x, "other_work_item", is->work_item2);
        }
        cJSON_AddNumberToObject(x, "count", (double)is->count);
    }
    cJSON *jn = cJSON_AddArrayToObject(o, "notes");
    for (int i = 0; i < rep->n_notes; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(jn, x);
        cJSON_AddNumberToObject(x, "line", rep->notes[i].line);
        cJSON_AddStringToObject(x, "text", rep->notes[i].text);
    }
    if (rep->prev_label[0]) {
        cJSON *jc = cJSON_AddObjectToObject(o, "comparison");
        cJSON_AddStringToObject(jc, "with", rep->prev_label);
        cJSON *s = cJSON_AddArrayToObject(jc, "sentences");
        for (int i = 0; i < rep->n_compare; i++) cJSON_AddItemToArray(s, cJSON_CreateString(rep->compare[i]));
    }
    return o;
}

void gpumodel_report_free(gpumodel_report *rep) {
    for (int i = 0; i < rep->n_kernels; i++) free(rep->kernels[i].acc);
    free(rep->kernels);
    free(rep->issues);
    free(rep->notes);
    free_lines(&rep->lines, &rep->n_lines);
    free_roles(rep);
    free_lines(&rep->compare, &rep->n_compare);
    engine_report_free(&rep->run);
    rep->kernels = NULL;
    rep->issues = NULL;
    rep->notes = NULL;
    rep->n_kernels = rep->n_issues = rep->n_notes = 0;
}
