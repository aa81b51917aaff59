/* figsource: every figure a lesson states comes from a committed result, or its block names another source
 *
 * A figure is a number with a unit of time, bandwidth, FLOP rate or a
 * speed-up. It is sourced when a committed results file holds the same
 * number, rounded to the precision the lesson writes; or, for a speed-up,
 * when it is the ratio of two figures in the same table row or paragraph;
 * or when its block carries a label "Source: ..." ("来源：...") that names
 * where it comes from. A label that names docs/results/FILE restricts the
 * block's figures to that file. A label paragraph right after a table
 * labels the table. */
#define _DEFAULT_SOURCE
#include "course/figsource.h"

#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- numbers and units */

typedef struct {
    const char *text;
    fig_kind kind;
    double scale;
    int attached; /* no space between number and unit */
} fig_unit;

/* Longest first where one unit starts another. */
static const fig_unit units[] = {
    {"GFLOP/s", FIG_FLOPS, 1, 0},    {"TFLOP/s", FIG_FLOPS, 1e3, 0}, {"GB/s", FIG_BANDWIDTH, 1, 0},
    {"TB/s", FIG_BANDWIDTH, 1e3, 0}, {"MB/s", FIG_BANDWIDTH, 1e-3, 0}, {"ms", FIG_TIME, 1e-3, 0},
    {"us", FIG_TIME, 1e-6, 0},       {"\xc2\xb5s", FIG_TIME, 1e-6, 0}, {"\xce\xbcs", FIG_TIME, 1e-6, 0},
    {"ns", FIG_TIME, 1e-9, 0},       {"s", FIG_TIME, 1, 0},          {"毫秒", FIG_TIME, 1e-3, 0},
    {"微秒", FIG_TIME, 1e-6, 0},     {"纳秒", FIG_TIME, 1e-9, 0},    {"秒", FIG_TIME, 1, 0},
    {"倍", FIG_RATIO, 1, 0},         {"x", FIG_RATIO, 1, 1},         {"\xc3\x97", FIG_RATIO, 1, 1},
};

static int word_char(int c) { return isalnum(c) || c == '_'; }

/* Spaces a number and its unit may have between them: ASCII, no-break, narrow no-break. */
static size_t skip_spaces(const char *s, size_t i, size_t len) {
    for (;;) {
        if (i < len && s[i] == ' ') i++;
        else if (i + 1 < len && !memcmp(s + i, "\xc2\xa0", 2)) i += 2;
        else if (i + 2 < len && !memcmp(s + i, "\xe2\x80\xaf", 3)) i += 3;
        else return i;
    }
}

/* The unit at s[i], or NULL; *end is where it stops. */
static const fig_unit *unit_at(const char *s, size_t i, size_t len, int spaced, size_t *end) {
    for (size_t u = 0; u < CLT_ARRAY_LEN(units); u++) {
        size_t n = strlen(units[u].text);
        if (i + n > len || memcmp(s + i, units[u].text, n)) continue;
        if (units[u].attached && spaced) continue;
        int ascii = isascii((unsigned char)units[u].text[0]);
        /* "5 sectors", "16384x256": letters or digits after an ASCII unit make it a word or a size */
        if (ascii && i + n < len && word_char((unsigned char)s[i + n])) continue;
        if (!ascii && units[u].attached && i + n < len && isdigit((unsigned char)s[i + n])) continue;
        *end = i + n;
        return &units[u];
    }
    return NULL;
}

/* Reads a number at s[i] ("262,144", "17.635"); returns its end, or i when there is none. */
static size_t number_at(const char *s, size_t i, size_t len, double *value, int *decimals) {
    char digits[64];
    size_t n = 0, j = i;
    int lead = 0;
    while (j < len && isdigit((unsigned char)s[j]) && n < 40) digits[n++] = s[j++], lead++;
    /* thousands: ",ddd" groups after at most three digits */
    while (lead <= 3 && j + 3 < len && s[j] == ',' && isdigit((unsigned char)s[j + 1]) &&
           isdigit((unsigned char)s[j + 2]) && isdigit((unsigned char)s[j + 3]) &&
           (j + 4 >= len || !isdigit((unsigned char)s[j + 4])) && n < 40) {
        memcpy(digits + n, s + j + 1, 3);
        n += 3;
        j += 4;
    }
    *decimals = 0;
    if (j + 1 < len && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
        digits[n++] = s[j++];
        while (j < len && isdigit((unsigned char)s[j]) && n < 60) digits[n++] = s[j++], (*decimals)++;
    }
    digits[n] = 0;
    *value = strtod(digits, NULL);
    return j;
}

void figsource_scan(const char *s, size_t len, int bare, fig_token_fn fn, void *user) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        unsigned char before = i ? (unsigned char)s[i - 1] : ' ';
        if (!isdigit(c) || word_char(before) || before == '.') {
            i++;
            continue;
        }
        fig_token t = {.offset = i};
        size_t end = number_at(s, i, len, &t.value, &t.decimals), after = skip_spaces(s, end, len), uend;
        const fig_unit *u = unit_at(s, after, len, after != end, &uend);
        if (u) {
            t.kind = u->kind;
            t.scale = u->scale;
            t.length = uend - i;
            fn(&t, user);
            i = uend;
            continue;
        }
        /* a bare number: not the start of a size (256x64) nor of a word (3rd, 64KiB) */
        if (bare && !(end < len && word_char((unsigned char)s[end]))) {
            t.kind = FIG_BARE;
            t.scale = 1;
            t.length = end - i;
            fn(&t, user);
        }
        while (end < len && word_char((unsigned char)s[end])) end++;
        i = end > i ? end : i + 1;
    }
}

/* ---- the results index */

typedef struct {
    figsource_index *ix;
    int file;
} index_fill;

static void add_result(const fig_token *t, void *user) {
    index_fill *f = user;
    figsource_index *ix = f->ix;
    if (ix->n == ix->cap) {
        ix->cap = ix->cap ? 2 * ix->cap : 1024;
        ix->items = realloc(ix->items, (size_t)ix->cap * sizeof *ix->items);
        if (!ix->items) abort();
    }
    ix->items[ix->n++] = (struct fig_result){.base = t->value * t->scale, .kind = t->kind, .file = f->file};
}

static int is_text_file(const char *name) {
    static const char *const skip[] = {".json", ".gz", ".tgz", ".zip", ".png", ".svg", ".sh"};
    size_t n = strlen(name);
    for (size_t i = 0; i < CLT_ARRAY_LEN(skip); i++) {
        size_t k = strlen(skip[i]);
        if (n >= k && !strcmp(name + n - k, skip[i])) return 0;
    }
    return name[0] != '.';
}

static int load_dir(figsource_index *ix, const char *rel, int depth, char *err, size_t errlen) {
    char path[1400];
    if (util_pathf(path, sizeof path, "%s%s%s", ix->dir, *rel ? "/" : "", rel)) return 0;
    DIR *d = opendir(path);
    if (!d) {
        util_errf(err, errlen, _("cannot read %s"), path);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        char sub[512], full[1400];
        if (e->d_name[0] == '.' || util_pathf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) ||
            util_pathf(full, sizeof full, "%s/%s", ix->dir, sub))
            continue;
        if (util_is_dir(full)) {
            if (depth < 4) rc = load_dir(ix, sub, depth + 1, err, errlen);
            continue;
        }
        if (!util_is_file(full) || !is_text_file(e->d_name) || strlen(sub) >= sizeof ix->files[0]) continue;
        size_t len = 0;
        char *text = util_read_file(full, &len);
        if (!text) continue;
        ix->files = realloc(ix->files, (size_t)(ix->n_files + 1) * sizeof *ix->files);
        if (!ix->files) abort();
        util_copy_text(ix->files[ix->n_files], sizeof ix->files[0], sub);
        index_fill f = {ix, ix->n_files++};
        figsource_scan(text, len, 1, add_result, &f);
        free(text);
    }
    closedir(d);
    return rc;
}

int figsource_index_load(figsource_index *ix, const char *dir, char *err, size_t errlen) {
    memset(ix, 0, sizeof *ix);
    if (util_copy_text(ix->dir, sizeof ix->dir, dir)) {
        util_errf(err, errlen, _("the path %s is too long"), dir);
        return -1;
    }
    if (load_dir(ix, "", 0, err, errlen)) return -1;
    if (!ix->n_files) {
        util_errf(err, errlen, _("%s holds no results files"), dir);
        return -1;
    }
    return 0;
}

void figsource_index_free(figsource_index *ix) {
    free(ix->files);
    free(ix->items);
    memset(ix, 0, sizeof *ix);
}

/* ---- matching */

/* x, rounded at the lesson's precision, is what the lesson writes. */
static int rounds_to(double x, const fig_token *t) {
    double p = pow(10, t->decimals), d = fabs(x * p - t->value * p);
    return d < 0.5 || fabs(d - 0.5) < 1e-6; /* a tie rounds either way */
}

static int matches_result(const fig_token *t, const struct fig_result *r) {
    if (r->kind == FIG_BARE) return rounds_to(r->base, t);
    return r->kind == t->kind && rounds_to(r->base / t->scale, t);
}

/* ---- lessons */

typedef struct {
    char *buf;
    size_t len, cap;
    int *line;  /* the source line of each byte */
    int *group; /* table row or list item of each byte */
    int is_table, n_groups;
} text_unit;

typedef struct {
    const figsource_index *ix;
    const char *name, *md;
    size_t md_len;
    int depth, line_hint;
    text_unit cur, pending_table;
    int have_pending;
    int soft_break;      /* a line break waits: a space, unless wide characters meet across it */
    char **notes;
    int seen, bad;
} lesson_scan;

static void unit_put(text_unit *u, const char *s, size_t n, int line) {
    if (u->len + n + 1 > u->cap) {
        u->cap = (u->len + n + 1) * 2;
        u->buf = realloc(u->buf, u->cap);
        u->line = realloc(u->line, u->cap * sizeof *u->line);
        u->group = realloc(u->group, u->cap * sizeof *u->group);
        if (!u->buf || !u->line || !u->group) abort();
    }
    memcpy(u->buf + u->len, s, n);
    for (size_t i = 0; i < n; i++) u->line[u->len + i] = line, u->group[u->len + i] = u->n_groups;
    u->len += n;
    u->buf[u->len] = 0;
}

static void unit_free(text_unit *u) {
    free(u->buf);
    free(u->line);
    free(u->group);
    memset(u, 0, sizeof *u);
}

static int line_of(const lesson_scan *ls, const char *p) {
    if (p < ls->md || p > ls->md + ls->md_len) return ls->line_hint;
    int line = 1;
    for (const char *q = ls->md; q < p; q++) line += *q == '\n';
    return line;
}

/* Where a label starts in a unit ("Source:", "来源："), or NULL. */
static const char *label_in(const char *s) {
    static const char *const marks[] = {"Source:", "Sources:", "来源：", "来源:"};
    const char *best = NULL;
    for (size_t i = 0; i < CLT_ARRAY_LEN(marks); i++) {
        const char *p = strstr(s, marks[i]);
        if (p && (!best || p < best)) best = p;
    }
    return best;
}

static int starts_with_label(const char *s) {
    while (*s == ' ' || *s == '\n' || *s == '\t') s++;
    const char *l = label_in(s);
    return l == s;
}

/* The results files a label names (docs/results/NAME); 0 when it names none. Unknown names are noted. */
static int label_files(lesson_scan *ls, const char *label, int line, int *allowed) {
    int named = 0;
    const char *p = label;
    while ((p = strstr(p, "docs/results/"))) {
        p += strlen("docs/results/");
        size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-");
        while (n && (p[n - 1] == '.' || p[n - 1] == '/')) n--;
        named = 1;
        int found = 0;
        for (int f = 0; f < ls->ix->n_files; f++)
            if (strlen(ls->ix->files[f]) == n && !strncmp(ls->ix->files[f], p, n)) allowed[f] = found = 1;
        if (!found) {
            util_sappend(ls->notes, _("%s:%d: the label names docs/results/%.*s: no such results file"), ls->name,
                         line, (int)n, p);
            util_sappend(ls->notes, "\n");
            ls->bad++;
        }
        p += n;
    }
    return named;
}

typedef struct {
    fig_token *items;
    int n, cap;
} token_list;

static void collect(const fig_token *t, void *user) {
    token_list *tl = user;
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? 2 * tl->cap : 32;
        tl->items = realloc(tl->items, (size_t)tl->cap * sizeof *tl->items);
        if (!tl->items) abort();
    }
    tl->items[tl->n++] = *t;
}

/* A speed-up that is the ratio of two figures of one kind in the same row or paragraph. */
static int is_local_ratio(const text_unit *u, const token_list *tl, const fig_token *t) {
    int g = u->group[t->offset];
    for (int a = 0; a < tl->n; a++)
        for (int b = 0; b < tl->n; b++) {
            const fig_token *x = &tl->items[a], *y = &tl->items[b];
            if (a == b || x->kind != y->kind || x->kind == FIG_RATIO || u->group[x->offset] != g ||
                u->group[y->offset] != g || y->value == 0)
                continue;
            if (rounds_to((x->value * x->scale) / (y->value * y->scale), t)) return 1;
        }
    return 0;
}

static void check_unit(lesson_scan *ls, const text_unit *u, const char *label, int label_line) {
    int *allowed = calloc((size_t)ls->ix->n_files + 1, sizeof *allowed);
    if (!allowed) abort();
    int restricted = label ? label_files(ls, label, label_line, allowed) : 0;
    token_list tl = {0};
    figsource_scan(u->buf, u->len, 0, collect, &tl);
    ls->seen += tl.n;
    for (int i = 0; i < tl.n && (!label || restricted); i++) {
        const fig_token *t = &tl.items[i];
        int ok = 0;
        for (int r = 0; r < ls->ix->n && !ok; r++)
            ok = (!restricted || allowed[ls->ix->items[r].file]) && matches_result(t, &ls->ix->items[r]);
        if (!ok && t->kind == FIG_RATIO) ok = is_local_ratio(u, &tl, t);
        if (ok) continue;
        ls->bad++;
        int line = u->line[t->offset];
        if (restricted)
            util_sappend(ls->notes, _("%s:%d: %.*s is not in the results file its label names"), ls->name, line,
                         (int)t->length, u->buf + t->offset);
        else
            util_sappend(ls->notes, _("%s:%d: %.*s is in no results file (at the precision written) and has no \"Source:\" label"),
                         ls->name, line, (int)t->length, u->buf + t->offset);
        util_sappend(ls->notes, "\n");
    }
    free(tl.items);
    free(allowed);
}

/* A finished top-level block: a table waits for a label paragraph after it. */
static void finish_unit(lesson_scan *ls) {
    text_unit *u = &ls->cur;
    const char *label = label_in(u->buf ? u->buf : "");
    int label_line = label ? u->line[label - u->buf] : 0;
    if (ls->have_pending) {
        int labels_table = u->buf && starts_with_label(u->buf);
        check_unit(ls, &ls->pending_table, labels_table ? label : NULL, label_line);
        unit_free(&ls->pending_table);
        ls->have_pending = 0;
    }
    if (u->is_table) {
        ls->pending_table = *u;
        ls->have_pending = 1;
        memset(u, 0, sizeof *u);
        return;
    }
    if (u->buf) check_unit(ls, u, label, label_line);
    unit_free(u);
}

static int on_enter_block(MD_BLOCKTYPE type, void *detail, void *user) {
    lesson_scan *ls = user;
    (void)detail;
    ls->soft_break = 0;
    if (ls->depth == 1) {
        memset(&ls->cur, 0, sizeof ls->cur);
        ls->cur.is_table = type == MD_BLOCK_TABLE;
    }
    if (type == MD_BLOCK_TR || type == MD_BLOCK_LI) ls->cur.n_groups++;
    if (ls->depth >= 2 && (type == MD_BLOCK_TD || type == MD_BLOCK_TH)) unit_put(&ls->cur, "\t", 1, ls->line_hint);
    if (ls->depth >= 2 && (type == MD_BLOCK_P || type == MD_BLOCK_LI || type == MD_BLOCK_TR))
        unit_put(&ls->cur, "\n", 1, ls->line_hint);
    ls->depth++;
    return 0;
}

static int on_leave_block(MD_BLOCKTYPE type, void *detail, void *user) {
    lesson_scan *ls = user;
    (void)type, (void)detail;
    ls->depth--;
    if (ls->depth == 1) finish_unit(ls);
    return 0;
}

static int on_span(MD_SPANTYPE type, void *detail, void *user) {
    (void)type, (void)detail, (void)user;
    return 0;
}

/* A soft line break joins as the renderer joins it: no space between two wide characters. */
static void settle_break(lesson_scan *ls, const char *next, size_t len, int line) {
    if (!ls->soft_break) return;
    ls->soft_break = 0;
    if (!(st_wide_at(ls->cur.buf, ls->cur.len, 1) && st_wide_at(next, len, 0))) unit_put(&ls->cur, " ", 1, line);
}

static int on_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *user) {
    lesson_scan *ls = user;
    if (ls->depth < 2 || type == MD_TEXT_HTML) return 0;
    int line = line_of(ls, text);
    if (text >= ls->md && text <= ls->md + ls->md_len) ls->line_hint = line;
    if (type == MD_TEXT_SOFTBR) {
        settle_break(ls, " ", 1, line);
        ls->soft_break = 1;
        return 0;
    }
    settle_break(ls, text, size, line);
    if (type == MD_TEXT_CODE) return 0; /* code is not prose: no figures there */
    if (type == MD_TEXT_BR) unit_put(&ls->cur, " ", 1, line);
    else if (type == MD_TEXT_NULLCHAR) unit_put(&ls->cur, "?", 1, line);
    else unit_put(&ls->cur, text, size, line);
    return 0;
}

int figsource_check_lesson(const figsource_index *ix, const char *name, const char *md, size_t len, char **notes,
                           int *n_bad) {
    lesson_scan ls = {.ix = ix, .name = name, .md = md, .md_len = len, .line_hint = 1, .notes = notes};
    MD_PARSER parser = {0};
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | MD_FLAG_NOHTML;
    parser.enter_block = on_enter_block;
    parser.leave_block = on_leave_block;
    parser.enter_span = on_span;
    parser.leave_span = on_span;
    parser.text = on_text;
    md_parse(md, (MD_SIZE)len, &parser, &ls);
    if (ls.have_pending) check_unit(&ls, &ls.pending_table, NULL, 0);
    unit_free(&ls.pending_table);
    unit_free(&ls.cur);
    *n_bad = ls.bad;
    return ls.seen;
}
