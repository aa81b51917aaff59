/* gm_text — the GPU memory model's report as text lines with their roles,
 * notes for source lines, and the comparison with another analysis. */
#define _GNU_SOURCE
#include "gpumodel/gm_text.h"
#include "base/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_plural[GM_N_KINDS] = {"loads", "stores", "atomics"};

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

void gm_free_lines(char ***lines, int *n) {
    for (int i = 0; i < *n; i++) free((*lines)[i]);
    free(*lines);
    *lines = NULL;
    *n = 0;
}

void gm_free_roles(gpumodel_report *rep) {
    free(rep->line_roles);
    free(rep->line_src);
    rep->line_roles = NULL;
    rep->line_src = NULL;
}

/* Gives the report's lines their roles: a blank, a heading at the margin,
 * else text; then the marks made while formatting (line index, role, source line). */
static void assign_roles(gpumodel_report *rep, const int *marks, int n_marks) {
    gm_free_roles(rep);
    rep->line_roles = calloc((size_t)(rep->n_lines ? rep->n_lines : 1), sizeof *rep->line_roles);
    rep->line_src = calloc((size_t)(rep->n_lines ? rep->n_lines : 1), sizeof *rep->line_src);
    if (!rep->line_roles || !rep->line_src) return gm_free_roles(rep);
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
        snprintf(buf, len, "%s %s: %s", gpumodel_space_name((gm_space)(a->space)), gpumodel_kind_name((gm_kind)(a->kind)), d);
        return;
    }
    fmt_pct(e, sizeof e, a->efficiency);
    fmt_num(s, sizeof s, a->sectors_per_request);
    util_textf(buf, len, "%s %s: %s sector%s per request, %s efficient%s%s", gpumodel_space_name((gm_space)(a->space)), gpumodel_kind_name((gm_kind)(a->kind)),
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
    util_textf(buf, len, "%s (work-item %s%s)", is->what, is->work_item[0] ? is->work_item : "unknown",
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
                         "%llu at worst (line %d)", gpumodel_space_name((gm_space)(sp)), kind_plural[kd], s->execs, x,
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
                    add_line(lines, n, "  %-9s %-8s no bank conflicts", gpumodel_space_name((gm_space)(sp)), kind_plural[kd]);
                else
                    add_line(lines, n, "  %-9s %-8s bank conflicts %s-way on average, %llu-way at worst (line %d)",
                             gpumodel_space_name((gm_space)(sp)), kind_plural[kd], x, s->bank_max, b->line);
            } else {
                fmt_pct(x, sizeof x, s->efficiency);
                fmt_num(y, sizeof y, s->sectors_per_request);
                fmt_num(z, sizeof z, b->sectors_per_request);
                char moved[32];
                fmt_bytes(moved, sizeof moved, (double)s->sectors * GM_SECTOR);
                add_line(lines, n, "  %-9s %-8s %s efficient, %s sector%s per request (line %d: %s), %s moved",
                         gpumodel_space_name((gm_space)(sp)), kind_plural[kd], x, y, strcmp(y, "1") ? "s" : "", b->line, z, moved);
                if (sp == GM_CONSTANT) {
                    fmt_num(x, sizeof x, s->distinct_avg);
                    add_line(lines, n, "  %-9s %-8s %s distinct address%s per warp on average, %llu at worst%s", "",
                             "", x, strcmp(x, "1") ? "es" : "", s->distinct_max, s->distinct_max <= 1 ? " (broadcast)" : "");
                }
            }
        }
}

/* The report being written: its source lines, and the lines marked with a role. */
typedef struct {
    gpumodel_report *rep;
    char **src;
    int n_src;
    int *marks, n_marks;
} formatting;

#define ADD(f, ...) add_line(&(f)->rep->lines, &(f)->rep->n_lines, __VA_ARGS__)
#define MARK(f, role, line) mark_last(&(f)->marks, &(f)->n_marks, (f)->rep->n_lines, role, line)

/* One memory instruction: its row, its source line with a caret, its note. */
static void format_access(formatting *f, gm_access *a) {
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
    ADD(f, "  %-9s %-8s %-6s %6s %9s %11s %10s  %s", loc, gpumodel_space_name(a->space), gpumodel_kind_name(a->kind),
        w, rpw, spr, eff, det);
    MARK(f, GM_LINE_ROW, a->line);
    if (a->line > 0 && a->line <= f->n_src) {
        const char *s = f->src[a->line - 1];
        int lead = 0;
        while (s[lead] == ' ' || s[lead] == '\t') lead++;
        ADD(f, "  %-9s %s", "", s + lead);
        MARK(f, GM_LINE_SOURCE, a->line);
        if (a->col > lead) {
            ADD(f, "  %-9s %*s^", "", a->col - 1 - lead, "");
            MARK(f, GM_LINE_SOURCE, a->line);
        }
    }
    char note[sizeof a->note];
    access_note(a, note, sizeof note);
    snprintf(a->note, sizeof a->note, "%s", note);
    add_note(f->rep, a->line, note);
}

/* One kernel: its launch, a row per memory instruction, its summary. */
static void format_kernel(formatting *f, gm_kernel *k) {
    unsigned long long items = k->global[0] * (k->global[1] ? k->global[1] : 1) * (k->global[2] ? k->global[2] : 1);
    unsigned long long group = k->local[0] * (k->local[1] ? k->local[1] : 1) * (k->local[2] ? k->local[2] : 1);
    ADD(f, "%s", "");
    ADD(f, "Kernel %s: %llu work-item%s in groups of %llu (%llu warp%s per group)%s%d launch%s, simulated in %.1f s",
        k->name, items, items == 1 ? "" : "s", group, (group + GM_WARP - 1) / GM_WARP,
        (group + GM_WARP - 1) / GM_WARP == 1 ? "" : "s", k->launches > 1 ? "; " : ", ", k->launches,
        k->launches == 1 ? "" : "es", k->sim_s);
    if (!k->n_acc) {
        ADD(f, "  no global, constant or local memory accesses");
        return;
    }
    ADD(f, "  %-9s %-8s %-6s %6s %9s %11s %10s  %s", "line:col", "memory", "access", "B/item", "req/warp",
        "sectors/req", "efficiency", "detail");
    for (int i = 0; i < k->n_acc; i++) format_access(f, &k->acc[i]);
    ADD(f, "  Summary:");
    kernel_summary(k, &f->rep->lines, &f->rep->n_lines);
}

/* What the simulator found: memory errors, races, uninitialised reads, or none. */
static void format_issues(formatting *f) {
    gpumodel_report *rep = f->rep;
    ADD(f, "%s", "");
    if (!rep->n_issues) {
        ADD(f, "Oclgrind found no memory errors, data races or reads of uninitialised local memory.");
        MARK(f, GM_LINE_CLEAN, 0);
        return;
    }
    ADD(f, "Oclgrind found %d problem%s:", rep->n_issues, rep->n_issues == 1 ? "" : "s");
    for (int i = 0; i < rep->n_issues; i++) {
        const gm_issue *is = &rep->issues[i];
        char where[64] = "unknown line";
        if (is->line) snprintf(where, sizeof where, "line %d:%d", is->line, is->col);
        ADD(f, "  %s at %s: %s", issue_kind_name(is->kind), where, is->what);
        MARK(f, GM_LINE_PROBLEM, is->line);
        if (is->work_item[0]) ADD(f, "    first by work-item %s", is->work_item);
        if (is->kind == GM_ISSUE_RACE && is->line2)
            ADD(f, "    conflicting with line %d:%d%s%s", is->line2, is->col2, is->work_item2[0] ? " by work-item " : "",
                is->work_item2);
        if (is->count > 1) ADD(f, "    (%llu times in all)", is->count);
        if (is->line > 0 && is->line <= f->n_src) {
            const char *s = f->src[is->line - 1];
            while (*s == ' ' || *s == '\t') s++;
            ADD(f, "    %d | %s", is->line, s);
            MARK(f, GM_LINE_SOURCE, is->line);
        }
        char note[300];
        issue_short(is, note, sizeof note);
        add_note(rep, is->line, note);
        if (is->kind == GM_ISSUE_RACE && is->line2 && is->line2 != is->line) add_note(rep, is->line2, note);
    }
}

void gpumodel_format(gpumodel_report *rep) {
    gm_free_lines(&rep->lines, &rep->n_lines);
    free(rep->notes);
    rep->notes = NULL;
    rep->n_notes = 0;
    formatting fm = {.rep = rep}, *f = &fm;
    fm.src = read_source(rep->kernel_path, &fm.n_src);
    const char *result = rep->run.status == ENG_PASS ? "the result was correct"
                       : rep->run.status == ENG_WRONG ? "the result was WRONG (see `cltutor run`)"
                       : rep->run.headline[0] ? rep->run.headline : "no result";
    ADD(f, "GPU memory model of %s", rep->kernel_path);
    ADD(f, "Simulated by Oclgrind at size %s (%s); %s.", rep->size_text,
        !strcmp(rep->size_origin, "--size") ? "from --size"
        : !strcmp(rep->size_origin, "analysis_size") ? "the chapter's analysis size"
        : "a small size; the chapter sets none", result);
    ADD(f, "Figures are what a GPU with warps of %d work-items, %d-byte sectors and %d banks of 4 bytes would see.",
        GM_WARP, GM_SECTOR, GM_BANKS);
    for (int ki = 0; ki < rep->n_kernels; ki++) format_kernel(f, &rep->kernels[ki]);
    if (rep->n_compare) {
        ADD(f, "%s", "");
        ADD(f, "Compared with %s:", rep->prev_label);
        for (int i = 0; i < rep->n_compare; i++) ADD(f, "  %s", rep->compare[i]);
    }
    format_issues(f);
    qsort(rep->notes, (size_t)rep->n_notes, sizeof *rep->notes, cmp_note);
    gm_free_lines(&fm.src, &fm.n_src);
    assign_roles(rep, fm.marks, fm.n_marks);
    free(fm.marks);
}

#undef ADD
#undef MARK

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

/* Atomics: how many, and how many work-items of a warp meet on one address. */
static void compare_atomics(gpumodel_report *rep, const char *what, const gm_summary *o, const gm_summary *c, int had,
                            int sp) {
    char x[32], y[32];
    fmt_num(x, sizeof x, c->contention_avg);
    if (!had) {
        add_sentence(rep, "%s: new, %llu operation%s, %s work-item%s of a warp on one address on average.",
                     what, c->execs, c->execs == 1 ? "" : "s", x, strcmp(x, "1") ? "s" : "");
        return;
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
}

/* Local loads and stores: bank conflicts. */
static void compare_local(gpumodel_report *rep, const char *what, const gm_summary *o, const gm_summary *c,
                          const gm_access *cb, int had) {
    char x[32], y[32];
    fmt_num(x, sizeof x, c->bank_avg);
    if (!had) {
        if (c->bank_max <= 1)
            add_sentence(rep, "%s: new, %llu of them, with no bank conflicts.", what, c->execs);
        else
            add_sentence(rep, "%s: new, %llu of them, with %s-way bank conflicts on average (%llu-way at "
                         "worst, line %d).", what, c->execs, x, c->bank_max, cb->line);
        return;
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
}

/* Global and constant loads and stores: efficiency, sectors, widths, requests. */
static void compare_memory(gpumodel_report *rep, const char *what, const gm_kernel *old, const gm_summary *o,
                           const gm_summary *c, const gm_access *cb, int had, int sp, int kd) {
    char a[32], b[32], x[32], y[32];
    const char *verb = kd == GM_LOAD ? "reads" : "writes";
    fmt_pct(b, sizeof b, c->efficiency);
    fmt_num(x, sizeof x, cb->sectors_per_request);
    if (!had) {
        add_sentence(rep, "%s: new, %s efficient; each warp %s %s sector%s per request (line %d).", what, b,
                     verb, x, strcmp(x, "1") ? "s" : "", cb->line);
        return;
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

static void compare_kernel(gpumodel_report *rep, const gm_kernel *old, const gm_kernel *cur, const char *prefix) {
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            const gm_summary *o = old ? &old->sum[sp][kd] : NULL, *c = &cur->sum[sp][kd];
            int had = o && o->present, has = c->present;
            if (!had && !has) continue;
            char what[96];
            snprintf(what, sizeof what, "%s%s %s", prefix, gpumodel_space_name((gm_space)(sp)), kind_plural[kd]);
            if (!has) {
                add_sentence(rep, "%s: none any more (there were %llu).", what, o->execs);
                continue;
            }
            const gm_access *cb = &cur->acc[c->busiest];
            if (kd == GM_ATOMIC) compare_atomics(rep, what, o, c, had, sp);
            else if (sp == GM_LOCAL) compare_local(rep, what, o, c, cb, had);
            else compare_memory(rep, what, old, o, c, cb, had, sp, kd);
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
    gm_free_lines(&rep->compare, &rep->n_compare);
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
