/* gm_text — the GPU memory model's report as text lines with their roles,
 * and notes for source lines (the comparison is in gm_compare.c). */
#define _GNU_SOURCE
#include "gpumodel/gm_text.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names people read; the JSON keeps gpumodel_space_name's and gpumodel_kind_name's. */
static const char *space_shown(int sp) {
    /* TRANSLATORS: memory spaces, a column of the GPU memory model's table */
    static const char *const names[GM_N_SPACES] = {N_("global"), N_("constant"), N_("local")};
    return (unsigned)sp < GM_N_SPACES ? _(names[sp]) : "?";
}

static const char *kind_shown(int kd) {
    /* TRANSLATORS: kinds of memory access, a column of the GPU memory model's table */
    static const char *const names[GM_N_KINDS] = {N_("load"), N_("store"), N_("atomic")};
    return (unsigned)kd < GM_N_KINDS ? _(names[kd]) : "?";
}

/* The kinds in the plural, as the summary's second column. */
static const char *kinds_shown(int kd) {
    static const char *const names[GM_N_KINDS] = {N_("loads"), N_("stores"), N_("atomics")};
    return (unsigned)kd < GM_N_KINDS ? _(names[kd]) : "?";
}

/* One kind of access in one space: "global load" (a note), "global loads" (a summary, a comparison). */
const char *gm_access_shown(int sp, int kd, int plural) {
    static const char *const one[GM_N_SPACES][GM_N_KINDS] = {
        {N_("global load"), N_("global store"), N_("global atomic")},
        {N_("constant load"), N_("constant store"), N_("constant atomic")},
        {N_("local load"), N_("local store"), N_("local atomic")},
    };
    static const char *const many[GM_N_SPACES][GM_N_KINDS] = {
        {N_("global loads"), N_("global stores"), N_("global atomics")},
        {N_("constant loads"), N_("constant stores"), N_("constant atomics")},
        {N_("local loads"), N_("local stores"), N_("local atomics")},
    };
    if ((unsigned)sp >= GM_N_SPACES || (unsigned)kd >= GM_N_KINDS) return "?";
    return _(plural ? many[sp][kd] : one[sp][kd]);
}

/* text padded with spaces to cols display columns (a wide character counts
 * two), after it, or before it when right is set; never cut. */
static const char *pad(char *buf, size_t len, const char *text, int cols, int right) {
    int fill = cols - st_widths(text);
    if (fill < 0) fill = 0;
    snprintf(buf, len, "%*s%s%*s", right ? fill : 0, "", text, right ? 0 : fill, "");
    return buf;
}

static int max_width(int cols, const char *text) {
    int w = st_widths(text);
    return w > cols ? w : cols;
}

/* The count that picks the plural form of a figure as written: its value
 * when whole ("1", "32"), else 2 (English writes "1.5 sectors"). */
unsigned long long gm_count_of(const char *num) {
    char *end;
    double v = strtod(num, &end);
    if (end == num || *end || v < 0 || v != floor(v) || v > 1e18) return 2;
    return (unsigned long long)v;
}

static void add_line(char ***lines, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void gm_add_line_v(char ***lines, int *n, const char *fmt, va_list ap) {
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
    gm_add_line_v(lines, n, fmt, ap);
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

void gm_fmt_pct(char *buf, size_t len, double f) {
    double p = f * 100.0;
    if (p >= 99.95) snprintf(buf, len, "100%%");
    else if (p >= 10 || fabs(p - round(p)) < 0.05) snprintf(buf, len, "%.*f%%", fabs(p - round(p)) < 0.05 ? 0 : 1, p);
    else snprintf(buf, len, "%.1f%%", p);
}

void gm_fmt_num(char *buf, size_t len, double v) {
    if (fabs(v - round(v)) < 0.05) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.1f", v);
}

void gm_fmt_bytes(char *buf, size_t len, double b) {
    if (b >= 1e9) snprintf(buf, len, "%.1f GB", b / 1e9);
    else if (b >= 1e6) snprintf(buf, len, "%.1f MB", b / 1e6);
    else if (b >= 1e3) snprintf(buf, len, "%.1f kB", b / 1e3);
    else snprintf(buf, len, _("%.0f bytes"), b);
}

static void fmt_width(char *buf, size_t len, const gm_access *a) {
    if (a->width_min == a->width_max) snprintf(buf, len, "%u", a->width_max);
    else snprintf(buf, len, "%u-%u", a->width_min, a->width_max);
}

/* Appends a clause to the text in buf, after "; " when there is one. */
void gm_add_clause(char *buf, size_t len, const char *clause) {
    char was[GM_TEXT_MAX];
    snprintf(was, sizeof was, "%s", buf);
    /* TRANSLATORS: two clauses of one sentence, the second after the first */
    if (was[0]) util_textf(buf, len, _("%s; %s"), was, clause);
    else util_textf(buf, len, "%s", clause);
}

/* The detail of one instruction, as the table's last column and the line's note. */
static void access_detail(const gm_access *a, char *buf, size_t len) {
    char x[32], y[32], c[GM_TEXT_MAX];
    buf[0] = '\0';
    if (a->space == GM_LOCAL) {
        gm_fmt_num(x, sizeof x, a->bank_avg);
        if (a->bank_max <= 1)
            util_textf(buf, len, "%s", _("no bank conflicts"));
        else
            util_textf(buf, len, _("bank conflicts: %s-way on average, %llu-way at worst"), x, a->bank_max);
    } else if (a->space == GM_CONSTANT) {
        gm_fmt_num(x, sizeof x, a->distinct_avg);
        if (a->distinct_max <= 1)
            util_textf(buf, len, "%s", _("1 address per warp (broadcast)"));
        else
            util_textf(buf, len, _("%s addresses per warp on average, %llu at worst: read one after another"), x,
                       a->distinct_max);
    } else if (a->kind != GM_ATOMIC && a->lanes_avg > 1 && a->distinct_max <= 1) {
        util_textf(buf, len, "%s", a->kind == GM_LOAD ? _("every work-item of a warp reads the same address (broadcast)")
                                                      : _("every work-item of a warp writes the same address"));
    }
    if (a->kind == GM_ATOMIC) {
        gm_fmt_num(x, sizeof x, a->contention_avg);
        gm_fmt_num(y, sizeof y, a->lanes_avg);
        util_textf(c, sizeof c, _("%s of %s work-items of a warp on one address on average, %llu at worst"), x, y,
                   a->contention_max);
        gm_add_clause(buf, len, c);
    }
    if (a->skipped) {
        const char *why = _("(figures from the first 65536 executions per work-item between barriers)");
        size_t u = strlen(buf);
        util_textf(buf + u, len - u, "%s%s", u ? " " : "", why);
    }
}

static void access_note(const gm_access *a, char *buf, size_t len) {
    char e[16], s[32], d[GM_TEXT_MAX];
    access_detail(a, d, sizeof d);
    const char *what = gm_access_shown(a->space, a->kind, 0);
    if (a->space == GM_LOCAL || a->kind == GM_ATOMIC) {
        /* TRANSLATORS: a kind of memory access and what the model saw of it */
        util_textf(buf, len, _("%s: %s"), what, d);
        return;
    }
    gm_fmt_pct(e, sizeof e, a->efficiency);
    gm_fmt_num(s, sizeof s, a->sectors_per_request);
    util_textf(buf, len,
               P_("%s: %s sector per request, %s efficient", "%s: %s sectors per request, %s efficient", gm_count_of(s)),
               what, s, e);
    if (d[0]) gm_add_clause(buf, len, d);
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
            if (!strstr(rep->notes[i].text, text)) gm_add_clause(rep->notes[i].text, sizeof rep->notes[i].text, text);
            return;
        }
    gm_note *nn = realloc(rep->notes, sizeof *nn * (size_t)(rep->n_notes + 1));
    if (!nn) return;
    rep->notes = nn;
    gm_note *n = &rep->notes[rep->n_notes++];
    n->line = line;
    util_copy_text(n->text, sizeof n->text, text);
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
    case GM_ISSUE_MEMORY: return _("memory error");
    case GM_ISSUE_RACE: return _("data race");
    case GM_ISSUE_UNINIT: return _("uninitialised read");
    case GM_ISSUE_DIVERGENCE: return _("divergent barrier");
    case GM_ISSUE_POINTER_INT: return _("pointer as an integer");
    default: return _("warning");
    }
}

static void issue_short(const gm_issue *is, char *buf, size_t len) {
    /* TRANSLATORS: the work-item is unknown */
    const char *who = is->work_item[0] ? is->work_item : _("unknown");
    if (is->count > 1) util_textf(buf, len, _("%s (work-item %s, and more)"), is->what, who);
    else util_textf(buf, len, _("%s (work-item %s)"), is->what, who);
}

/* A line of a kernel's summary: the space and the kind in two columns, then what was seen. */
static void summary_line(char ***lines, int *n, const char *space, const char *kinds, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void summary_line(char ***lines, int *n, const char *space, const char *kinds, const char *fmt, ...) {
    int w1 = 9, w2 = 8;
    for (int i = 0; i < GM_N_SPACES; i++) w1 = max_width(w1, space_shown(i));
    for (int i = 0; i < GM_N_KINDS; i++) w2 = max_width(w2, kinds_shown(i));
    char a[64], b[64], text[GM_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    add_line(lines, n, "  %s %s %s", pad(a, sizeof a, space, w1, 0), pad(b, sizeof b, kinds, w2, 0), text);
}

static void kernel_summary(const gm_kernel *k, char ***lines, int *n) {
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            const gm_summary *s = &k->sum[sp][kd];
            if (!s->present) continue;
            const gm_access *b = &k->acc[s->busiest];
            const char *space = space_shown(sp), *kinds = kinds_shown(kd);
            char x[32], y[32], z[32];
            if (kd == GM_ATOMIC) {
                gm_fmt_num(x, sizeof x, s->contention_avg);
                summary_line(lines, n, space, kinds,
                             P_("%llu operations; %s work-item of a warp on one address on average, %llu at worst "
                                "(line %d)",
                                "%llu operations; %s work-items of a warp on one address on average, %llu at worst "
                                "(line %d)", gm_count_of(x)),
                             s->execs, x, s->contention_max, b->line);
                if (sp == GM_LOCAL) {
                    gm_fmt_num(y, sizeof y, s->bank_avg);
                    if (s->bank_max <= 1)
                        summary_line(lines, n, "", "", "%s", _("no bank conflicts"));
                    else
                        summary_line(lines, n, "", "", _("bank conflicts %s-way on average, %llu-way at worst"), y,
                                     s->bank_max);
                }
            } else if (sp == GM_LOCAL) {
                gm_fmt_num(x, sizeof x, s->bank_avg);
                if (s->bank_max <= 1)
                    summary_line(lines, n, space, kinds, "%s", _("no bank conflicts"));
                else
                    summary_line(lines, n, space, kinds, _("bank conflicts %s-way on average, %llu-way at worst (line %d)"),
                                 x, s->bank_max, b->line);
            } else {
                gm_fmt_pct(x, sizeof x, s->efficiency);
                gm_fmt_num(y, sizeof y, s->sectors_per_request);
                gm_fmt_num(z, sizeof z, b->sectors_per_request);
                char moved[32];
                gm_fmt_bytes(moved, sizeof moved, (double)s->sectors * GM_SECTOR);
                summary_line(lines, n, space, kinds,
                             P_("%s efficient, %s sector per request (line %d: %s), %s moved",
                                "%s efficient, %s sectors per request (line %d: %s), %s moved", gm_count_of(y)),
                             x, y, b->line, z, moved);
                if (sp == GM_CONSTANT) {
                    gm_fmt_num(x, sizeof x, s->distinct_avg);
                    if (s->distinct_max <= 1)
                        summary_line(lines, n, "", "",
                                     P_("%s distinct address per warp on average, %llu at worst (broadcast)",
                                        "%s distinct addresses per warp on average, %llu at worst (broadcast)",
                                        gm_count_of(x)),
                                     x, s->distinct_max);
                    else
                        summary_line(lines, n, "", "",
                                     P_("%s distinct address per warp on average, %llu at worst",
                                        "%s distinct addresses per warp on average, %llu at worst", gm_count_of(x)),
                                     x, s->distinct_max);
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
    int legend_shown;        /* the table's columns explained once, under the first table */
} formatting;

#define ADD(f, ...) add_line(&(f)->rep->lines, &(f)->rep->n_lines, __VA_ARGS__)
#define MARK(f, role, line) mark_last(&(f)->marks, &(f)->n_marks, (f)->rep->n_lines, role, line)

/* The table's columns: their headings, widths (at least the heading's and
 * the widest name's, in display columns) and alignment. */
enum { COL_LOC, COL_SPACE, COL_KIND, COL_WIDTH, COL_RPW, COL_SPR, COL_EFF, N_COLS };

static void column_widths(int *w) {
    static const int least[N_COLS] = {9, 8, 6, 6, 9, 11, 10};
    for (int i = 0; i < N_COLS; i++) w[i] = least[i];
    for (int i = 0; i < GM_N_SPACES; i++) w[COL_SPACE] = max_width(w[COL_SPACE], space_shown(i));
    for (int i = 0; i < GM_N_KINDS; i++) w[COL_KIND] = max_width(w[COL_KIND], kind_shown(i));
}

/* A row of the table: the seven columns, then the detail after two spaces. */
static void add_row(formatting *f, const int *w, const char *const *cell, const char *detail) {
    char out[N_COLS][96];
    for (int i = 0; i < N_COLS; i++) pad(out[i], sizeof out[i], cell[i], w[i], i >= COL_WIDTH);
    ADD(f, "  %s %s %s %s %s %s %s  %s", out[0], out[1], out[2], out[3], out[4], out[5], out[6], detail);
}

static void add_heading_row(formatting *f, int *w) {
    const char *head[N_COLS] = {
        /* TRANSLATORS: the GPU memory model's table: a source line and column */
        _("line:col"),
        /* TRANSLATORS: the table's column of memory spaces (global, constant, local) */
        _("memory"),
        /* TRANSLATORS: the table's column of access kinds (load, store, atomic) */
        _("access"),
        /* TRANSLATORS: the table's column of bytes per work-item */
        _("B/item"),
        /* TRANSLATORS: the table's column of requests per warp */
        _("req/warp"),
        /* TRANSLATORS: the table's column of 32-byte sectors per request */
        _("sectors/req"),
        /* TRANSLATORS: the table's column of the share of the bytes moved that are used */
        _("efficiency"),
    };
    column_widths(w);
    for (int i = 0; i < N_COLS; i++) w[i] = max_width(w[i], head[i]);
    /* TRANSLATORS: the table's last column: what the model saw of an access */
    add_row(f, w, head, _("detail"));
}

/* One memory instruction: its row, its source line with a caret, its note. */
static void format_access(formatting *f, gm_access *a, const int *cols) {
    char loc[24], w[16], rpw[24], spr[24], eff[16], det[GM_TEXT_MAX];
    snprintf(loc, sizeof loc, "%d:%d", a->line, a->col);
    fmt_width(w, sizeof w, a);
    gm_fmt_num(rpw, sizeof rpw, a->requests_per_warp);
    int sectors = a->space != GM_LOCAL;
    if (sectors) gm_fmt_num(spr, sizeof spr, a->sectors_per_request);
    else snprintf(spr, sizeof spr, "-");
    if (sectors && a->kind != GM_ATOMIC) gm_fmt_pct(eff, sizeof eff, a->efficiency);
    else snprintf(eff, sizeof eff, "-");
    access_detail(a, det, sizeof det);
    const char *cell[N_COLS] = {loc, space_shown(a->space), kind_shown(a->kind), w, rpw, spr, eff};
    add_row(f, cols, cell, det);
    MARK(f, GM_LINE_ROW, a->line);
    if (a->line > 0 && a->line <= f->n_src) {
        const char *s = f->src[a->line - 1];
        int lead = 0;
        while (s[lead] == ' ' || s[lead] == '\t') lead++;
        ADD(f, "  %*s %s", cols[COL_LOC], "", s + lead);
        MARK(f, GM_LINE_SOURCE, a->line);
        if (a->col > lead) {
            ADD(f, "  %*s %*s^", cols[COL_LOC], "", a->col - 1 - lead, "");
            MARK(f, GM_LINE_CARET, a->line);
        }
    }
    char note[sizeof a->note];
    access_note(a, note, sizeof note);
    snprintf(a->note, sizeof a->note, "%s", note);
    add_note(f->rep, a->line, note);
}

/* What each figure column means, in a phrase, with its ideal value. */
static void add_legend(formatting *f) {
    const struct {
        const char *column, *meaning;
    } legend[] = {
        {N_("B/item"), N_("bytes each work-item moves at once (4; 16 with float4)")},
        {N_("req/warp"), N_("requests a warp makes for the instruction over the whole kernel (fewer is better)")},
        {N_("sectors/req"), N_("32-byte sectors a request touches (ideal: the warp's bytes / 32, so 4 for 4-byte reads)")},
        {N_("efficiency"),
         /* xgettext:no-c-format */
         N_("bytes used of the bytes moved (100% is ideal)")},
    };
    int w = 0;
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++)
        if (st_widths(_(legend[i].column)) > w) w = st_widths(_(legend[i].column));
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
        char col[96];
        pad(col, sizeof col, _(legend[i].column), w, 0);
        ADD(f, "  %s  %s", col, _(legend[i].meaning));
    }
}

/* One kernel: its launch, a row per memory instruction, its summary. */
static void format_kernel(formatting *f, gm_kernel *k) {
    unsigned long long items = k->global[0] * (k->global[1] ? k->global[1] : 1) * (k->global[2] ? k->global[2] : 1);
    unsigned long long group = k->local[0] * (k->local[1] ? k->local[1] : 1) * (k->local[2] ? k->local[2] : 1);
    unsigned long long warps = (group + GM_WARP - 1) / GM_WARP;
    char its[64], per[64], runs[64];
    util_textf(its, sizeof its, P_("%llu work-item", "%llu work-items", items), items);
    util_textf(per, sizeof per, P_("%llu warp per group", "%llu warps per group", warps), warps);
    util_textf(runs, sizeof runs, P_("%d launch", "%d launches", (unsigned long long)k->launches), k->launches);
    ADD(f, "%s", "");
    if (k->launches > 1)
        ADD(f, _("Kernel %s: %s in groups of %llu (%s); %s, simulated in %.1f s"), k->name, its, group, per, runs,
            k->sim_s);
    else
        ADD(f, _("Kernel %s: %s in groups of %llu (%s), %s, simulated in %.1f s"), k->name, its, group, per, runs,
            k->sim_s);
    if (!k->n_acc) {
        ADD(f, "  %s", _("no global, constant or local memory accesses"));
        return;
    }
    int cols[N_COLS];
    add_heading_row(f, cols);
    for (int i = 0; i < k->n_acc; i++) format_access(f, &k->acc[i], cols);
    if (!f->legend_shown++) add_legend(f);
    ADD(f, "  %s", _("Summary:"));
    kernel_summary(k, &f->rep->lines, &f->rep->n_lines);
}

/* What the simulator found: memory errors, races, uninitialised reads, or none. */
static void format_issues(formatting *f) {
    gpumodel_report *rep = f->rep;
    ADD(f, "%s", "");
    if (!rep->n_issues) {
        ADD(f, "%s", _("Oclgrind found no memory errors, data races or reads of uninitialised local memory."));
        MARK(f, GM_LINE_CLEAN, 0);
        return;
    }
    ADD(f, P_("Oclgrind found %d problem:", "Oclgrind found %d problems:", (unsigned long long)rep->n_issues),
        rep->n_issues);
    for (int i = 0; i < rep->n_issues; i++) {
        const gm_issue *is = &rep->issues[i];
        char t[GM_TEXT_MAX];
        if (is->line) util_textf(t, sizeof t, _("%s at line %d:%d: %s"), issue_kind_name(is->kind), is->line, is->col,
                                 is->what);
        else util_textf(t, sizeof t, _("%s at unknown line: %s"), issue_kind_name(is->kind), is->what);
        ADD(f, "  %s", t);
        MARK(f, GM_LINE_PROBLEM, is->line);
        if (is->work_item[0]) {
            util_textf(t, sizeof t, _("first by work-item %s"), is->work_item);
            ADD(f, "    %s", t);
        }
        if (is->kind == GM_ISSUE_RACE && is->line2) {
            if (is->work_item2[0])
                util_textf(t, sizeof t, _("conflicting with line %d:%d by work-item %s"), is->line2, is->col2,
                           is->work_item2);
            else util_textf(t, sizeof t, _("conflicting with line %d:%d"), is->line2, is->col2);
            ADD(f, "    %s", t);
        }
        if (is->count > 1) {
            util_textf(t, sizeof t, P_("(%llu time in all)", "(%llu times in all)", is->count), is->count);
            ADD(f, "    %s", t);
        }
        if (is->line > 0 && is->line <= f->n_src) {
            const char *s = f->src[is->line - 1];
            while (*s == ' ' || *s == '\t') s++;
            ADD(f, "    %d | %s", is->line, s);
            MARK(f, GM_LINE_SOURCE, is->line);
        }
        char note[GM_TEXT_MAX];
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
    fm.src = read_source(rep->source_path[0] ? rep->source_path : rep->kernel_path, &fm.n_src);
    /* the run's headline is English, translated here */
    const char *result = rep->run.status == ENG_PASS ? _("the result was correct")
                       : rep->run.status == ENG_WRONG && rep->n_issues
                           ? _("the result was wrong: the problems Oclgrind found are listed below")
                       : rep->run.status == ENG_WRONG ? _("the result was wrong (r in the course, or cltutor run, shows how)")
                       : rep->run.headline[0] ? _(rep->run.headline) : _("no result");
    ADD(f, _("GPU memory model of %s"), rep->kernel_path);
    if (!strcmp(rep->size_origin, "--size"))
        ADD(f, _("Simulated by Oclgrind at size %s (from --size); %s."), rep->size_text, result);
    else if (!strcmp(rep->size_origin, "analysis_size"))
        ADD(f, _("Simulated by Oclgrind at size %s (the chapter's analysis size); %s."), rep->size_text, result);
    else
        ADD(f, _("Simulated by Oclgrind at size %s (small enough to simulate in seconds); %s."), rep->size_text, result);
    ADD(f, _("Figures are what a GPU with warps of %d work-items, %d-byte sectors and %d banks of 4 bytes would see."),
        GM_WARP, GM_SECTOR, GM_BANKS);
    for (int ki = 0; ki < rep->n_kernels; ki++) format_kernel(f, &rep->kernels[ki]);
    if (rep->n_compare) {
        ADD(f, "%s", "");
        ADD(f, _("Compared with %s:"), rep->prev_label);
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
