/* gm_parse — reads the plugin's output (kernel, inst, req, uninit, answer and msg records) into a report's kernels, accesses and issues, and derives each instruction's figures. */
#define _GNU_SOURCE
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_draw.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const space_names[GM_N_SPACES] = {"global", "constant", "local"};
static const char *const kind_names[GM_N_KINDS] = {"load", "store", "atomic"};

const char *gpumodel_space_name(gm_space s) { return (unsigned)s < GM_N_SPACES ? space_names[s] : "?"; }
const char *gpumodel_kind_name(gm_kind k) { return (unsigned)k < GM_N_KINDS ? kind_names[k] : "?"; }

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

/* One of Oclgrind's headings in the learner's language: races and invalid
 * accesses by their kind and memory; any other as Oclgrind wrote it. */
static void heading_words(const char *head, char *out, size_t len) {
    static const char *const races[2][3] = {
        {N_("Read-write data race in global memory"), N_("Read-write data race in local memory"),
         N_("Read-write data race in constant memory")},
        {N_("Write-write data race in global memory"), N_("Write-write data race in local memory"),
         N_("Write-write data race in constant memory")}};
    static const char *const invalid[2][3] = {
        {N_("Invalid read of %d bytes in global memory"), N_("Invalid read of %d bytes in local memory"),
         N_("Invalid read of %d bytes in constant memory")},
        {N_("Invalid write of %d bytes in global memory"), N_("Invalid write of %d bytes in local memory"),
         N_("Invalid write of %d bytes in constant memory")}};
    char rw[16] = "", space[16] = "";
    int size = 0, s = -1;
    if (sscanf(head, "%15[A-Za-z-] data race at %15s memory", rw, space) == 2 ||
        sscanf(head, "Invalid %15s of size %d at %15s memory", rw, &size, space) == 3)
        s = !strcmp(space, "global") ? 0 : !strcmp(space, "local") ? 1 : !strcmp(space, "constant") ? 2 : -1;
    int w = !strcmp(rw, "Read-write") || !strcmp(rw, "read") ? 0 : !strcmp(rw, "Write-write") || !strcmp(rw, "write") ? 1 : -1;
    if (s >= 0 && w >= 0 && size == 0) util_copy_text(out, len, _(races[w][s]));
    else if (s >= 0 && w >= 0) util_textf(out, len, _(invalid[w][s]), size);
    else util_copy_text(out, len, head);
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
    heading_words(head, is->what, sizeof is->what);
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
static int parse_kernel_line(const char *line, gpumodel_report *rep, gm_kernel **k, int *blocks, double *scale) {
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
    unsigned long long groups = 1;
    for (int d = 0; d < 3; d++) groups *= l[d] ? (g[d] + l[d] - 1) / l[d] : 1;
    *scale = gm_sample_scale(&rep->sample, groups);
    (*blocks)++;
    return 0;
}

/* "inst LINE COL SPACE KIND WMIN WMAX", 15 sums, the buffer argument (-1:
 * none) and the 128-byte lines (both optional): one memory instruction's
 * figures, added up over launches;
 * *at gets its index in k->acc (-1 when it could not be kept). */
static int parse_inst_line(const char *line, gm_kernel *k, double scale, int *at) {
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
    if (scale > 1) /* a sampled launch: its sums count for every work-group (the maxima stay) */
        for (int i = 0; i < 17; i++)
            if (i != 9 && i != 11 && i != 13) v[i] = (unsigned long long)((double)v[i] * scale + 0.5);
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

/* "ptrtoint LINE COL": a pointer converted to an integer in the program, once per place. */
static int parse_pointer_int_line(const char *line, gpumodel_report *rep, const gm_kernel *k) {
    int ln, cn;
    if (sscanf(line, "ptrtoint %d %d", &ln, &cn) != 2) return -1;
    for (int i = 0; i < rep->n_issues; i++)
        if (rep->issues[i].kind == GM_ISSUE_POINTER_INT && rep->issues[i].line == ln && rep->issues[i].col == cn)
            return 0;
    gm_issue *is = add_issue(rep);
    if (!is) return 0;
    is->kind = GM_ISSUE_POINTER_INT;
    is->space = GM_N_SPACES;
    snprintf(is->kernel, sizeof is->kernel, "%s", k->name);
    util_copy_text(is->what, sizeof is->what, _("A pointer converted to an integer (its value is an address)"));
    is->line = ln;
    is->col = cn;
    is->count = 1;
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
    double scale = 1;
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
        if (!strncmp(line, "kernel ", 7)) { bad = parse_kernel_line(line, rep, &k, &blocks, &scale); last = -1; }
        else if (!strncmp(line, "inst ", 5) && k) bad = parse_inst_line(line, k, scale, &last);
        else if (!strncmp(line, "req ", 4) && k) bad = parse_req_line(line, last >= 0 ? &k->acc[last] : NULL, blocks);
        else if (!strncmp(line, "uninit ", 7) && k) bad = parse_uninit_line(line, rep, k);
        else if (!strncmp(line, "ptrtoint ", 9) && k) bad = parse_pointer_int_line(line, rep, k);
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
