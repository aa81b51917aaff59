/* grade_html — feedback and the class summary as web pages (see grade_html.h). */
#define _GNU_SOURCE
#include "grade/grade_html.h"
#include "grade/grade_report.h"
#include "base/util.h"
#include "base/version.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <md4c-html.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Plain, printable, readable on a phone; no script, no web font, nothing fetched. */
static const char page_style[] =
    "body{font:16px/1.5 system-ui,-apple-system,'Segoe UI','Noto Sans','Noto Sans CJK SC',sans-serif;"
    "color:#1d1d1f;background:#fff;margin:0}"
    "main{max-width:60rem;margin:0 auto;padding:1.5rem}"
    "h1{font-size:1.6rem;margin:.2rem 0 .4rem}h2{font-size:1.2rem;margin:1.8rem 0 .6rem;"
    "border-bottom:1px solid #d8d8dc;padding-bottom:.2rem}"
    ".meta{color:#55555a}"
    "table{border-collapse:collapse;width:100%;margin:.4rem 0}"
    "th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #e6e6ea;vertical-align:top}"
    "th{background:#f4f4f6;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".bar{background:#3a6fd8;height:.9rem;border-radius:2px;min-width:1px}"
    ".fail{color:#b3261e}.ok{color:#1e7b34}.feedback td:nth-child(3){white-space:nowrap}"
    "pre,code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}"
    "pre{background:#f4f4f6;padding:.6rem;overflow-x:auto;border-radius:4px}"
    "@media print{main{max-width:none}.bar{print-color-adjust:exact;-webkit-print-color-adjust:exact}}";

void grade_html_escape(char **out, const char *s, int breaks) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&': util_sappend(out, "&amp;"); break;
        case '<': util_sappend(out, "&lt;"); break;
        case '>': util_sappend(out, "&gt;"); break;
        case '"': util_sappend(out, "&quot;"); break;
        case '\n':
            if (breaks) {
                util_sappend(out, "<br>");
                break;
            }
            /* fall through */
        default: util_sappend(out, "%c", *s);
        }
    }
}

static void esc(char **out, const char *s) { grade_html_escape(out, s, 0); }

/* A relative link to a file: every byte but [A-Za-z0-9._-] and the folders' / percent-encoded. */
static void href(char **out, const char *name) {
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("._-/", *p))
            util_sappend(out, "%c", *p);
        else
            util_sappend(out, "%%%02X", *p);
}

static void page_head(char **out, const char *title) {
    util_sappend(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
                 strcmp(i18n_lang(), "zh") ? "en" : "zh-CN");
    esc(out, title);
    util_sappend(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n", page_style);
}

static void page_end(char **out) { util_sappend(out, "</main>\n</body>\n</html>\n"); }

static void append_html(const MD_CHAR *text, MD_SIZE size, void *user) {
    util_sappend(user, "%.*s", (int)size, text);
}

/* Links and images that point anywhere but the web or this page (javascript:, data:, file:) made inert. */
static void web_links_only(char *html) {
    static const char *const attrs[] = {"href=\"", "src=\""};
    for (size_t a = 0; a < CLT_ARRAY_LEN(attrs); a++)
        for (char *p = strstr(html, attrs[a]); p; p = strstr(p + 1, attrs[a])) {
            char *v = p + strlen(attrs[a]);
            if (!strncmp(v, "http://", 7) || !strncmp(v, "https://", 8) || v[0] == '#') continue;
            size_t scheme = strcspn(v, ":/?#\"");
            if (v[scheme] != ':') continue; /* a relative link */
            v[0] = '#';
            for (size_t k = 1; k <= scheme; k++) v[k] = '_';
        }
}

char *grade_html_feedback(const char *title, const char *markdown) {
    char *out = util_strdup("");
    page_head(&out, title);
    util_sappend(&out, "<article class=\"feedback\">\n");
    md_html(markdown, (MD_SIZE)strlen(markdown), append_html, &out, MD_DIALECT_GITHUB | MD_FLAG_NOHTML, 0);
    util_sappend(&out, "</article>\n");
    page_end(&out);
    if (out) web_links_only(out);
    return out;
}

/* ---- the class summary */

typedef struct {
    char lesson[96], title[160];
    int number;
    double score, max_score;
    int students, full, handed_in;
} chapter_sum;

typedef struct {
    char chapter[96], id[96], name[256]; /* name: "" when it differs between students (their sizes) */
    int number, failed, tried;
} test_sum;

typedef struct {
    chapter_sum *ch;
    int n_ch;
    test_sum *t;
    int n_t, cap_t;
} class_sum;

static chapter_sum *chapter_of(class_sum *cs, const char *lesson, const char *title, int number) {
    for (int i = 0; i < cs->n_ch; i++)
        if (!strcmp(cs->ch[i].lesson, lesson)) return &cs->ch[i];
    chapter_sum *grown = realloc(cs->ch, (size_t)(cs->n_ch + 1) * sizeof *grown);
    if (!grown) return NULL;
    cs->ch = grown;
    chapter_sum *c = &cs->ch[cs->n_ch++];
    memset(c, 0, sizeof *c);
    snprintf(c->lesson, sizeof c->lesson, "%s", lesson);
    snprintf(c->title, sizeof c->title, "%s", title);
    c->number = number;
    return c;
}

static test_sum *test_of(class_sum *cs, const chapter_sum *c, const char *id, const char *name) {
    for (int i = 0; i < cs->n_t; i++)
        if (!strcmp(cs->t[i].chapter, c->lesson) && !strcmp(cs->t[i].id, id)) {
            if (strcmp(cs->t[i].name, name)) cs->t[i].name[0] = '\0'; /* a size of each student's own */
            return &cs->t[i];
        }
    if (cs->n_t == cs->cap_t) {
        int cap = cs->cap_t ? cs->cap_t * 2 : 64;
        test_sum *grown = realloc(cs->t, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        cs->t = grown;
        cs->cap_t = cap;
    }
    test_sum *t = &cs->t[cs->n_t++];
    memset(t, 0, sizeof *t);
    snprintf(t->chapter, sizeof t->chapter, "%s", c->lesson);
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->number = c->number;
    return t;
}

static const char *str_of(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num_of(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Adds one student's report (its chapters and tests) to the sums. */
static void add_report(class_sum *cs, const char *path) {
    char *text = util_read_file(path, NULL);
    cJSON *r = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *chapters = cJSON_GetObjectItemCaseSensitive(r, "chapters"), *c;
    cJSON_ArrayForEach(c, chapters) {
        const char *title = !strcmp(i18n_lang(), "zh") && *str_of(c, "title_zh") ? str_of(c, "title_zh") : str_of(c, "title");
        chapter_sum *s = chapter_of(cs, str_of(c, "lesson"), title, (int)num_of(c, "chapter"));
        if (!s) break;
        s->students++;
        s->score += num_of(c, "score");
        s->max_score += num_of(c, "max_score");
        s->full += num_of(c, "max_score") > 0 && num_of(c, "score") >= num_of(c, "max_score");
        s->handed_in += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "submitted"));
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(c, "tests")) {
            const char *outcome = str_of(t, "outcome");
            if (strcmp(outcome, "pass") && strcmp(outcome, "fail")) continue; /* skipped: not tried */
            /* a test's name is English in the report: in Chinese its id alone */
            test_sum *ts = test_of(cs, s, str_of(t, "id"), strcmp(i18n_lang(), "zh") ? str_of(t, "name") : "");
            if (!ts) break;
            ts->tried++;
            ts->failed += !strcmp(outcome, "fail");
        }
    }
    cJSON_Delete(r);
}

static int most_failed_first(const void *x, const void *y) {
    const test_sum *a = x, *b = y;
    double fa = a->tried ? (double)a->failed / a->tried : 0, fb = b->tried ? (double)b->failed / b->tried : 0;
    if (a->failed != b->failed) return b->failed - a->failed;
    if (fa != fb) return fa > fb ? -1 : 1;
    return a->number != b->number ? a->number - b->number : strcmp(a->id, b->id);
}

static int by_number(const void *x, const void *y) {
    return ((const chapter_sum *)x)->number - ((const chapter_sum *)y)->number;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The distribution: eleven bands, 0-9% ... 90-99% and 100%, a bar each. */
static void distribution(char **out, const double *pct, int n) {
    int band[11] = {0}, most = 1;
    for (int i = 0; i < n; i++) {
        int b = pct[i] >= 100 ? 10 : pct[i] <= 0 ? 0 : (int)(pct[i] / 10);
        band[b > 9 && pct[i] < 100 ? 9 : b]++; /* 99.99% is not full marks */
    }
    for (int b = 0; b < 11; b++) most = band[b] > most ? band[b] : most;
    util_sappend(out, "<table class=\"dist\">\n<tr><th>%s</th><th class=\"n\">%s</th><th style=\"width:60%%\"></th></tr>\n",
                 _("Score"), _("Students"));
    for (int b = 10; b >= 0; b--) {
        if (b == 10) util_sappend(out, "<tr><td>100%%</td>");
        else util_sappend(out, "<tr><td>%d–%d%%</td>", b * 10, b * 10 + 9);
        util_sappend(out, "<td class=\"n\">%d</td><td>", band[b]);
        if (band[b]) util_sappend(out, "<div class=\"bar\" style=\"width:%.1f%%\"></div>", 100.0 * band[b] / most);
        util_sappend(out, "</td></tr>\n");
    }
    util_sappend(out, "</table>\n");
    if (n > 0) {
        double *sorted = malloc((size_t)n * sizeof *sorted), sum = 0;
        if (!sorted) return;
        memcpy(sorted, pct, (size_t)n * sizeof *sorted);
        qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
        for (int i = 0; i < n; i++) sum += sorted[i];
        double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        util_sappend(out, "<p>");
        util_sappend(out, _("Median %.1f%%, mean %.1f%%, lowest %.1f%%, highest %.1f%%."), median, sum / n, sorted[0],
                     sorted[n - 1]);
        util_sappend(out, "</p>\n");
        free(sorted);
    }
}

static void chapters_table(char **out, class_sum *cs) {
    if (cs->n_ch) qsort(cs->ch, (size_t)cs->n_ch, sizeof *cs->ch, by_number);
    util_sappend(out, "<table>\n<tr><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th></tr>\n",
                 _("Chapter"), _("Mean score"), _("Full marks"), _("Handed in"));
    for (int i = 0; i < cs->n_ch; i++) {
        const chapter_sum *c = &cs->ch[i];
        util_sappend(out, "<tr><td>%d · ", c->number);
        esc(out, c->title);
        util_sappend(out, "</td><td class=\"n\">%.1f%%</td><td class=\"n\">%d / %d</td><td class=\"n\">%d / %d</td></tr>\n",
                     c->max_score > 0 ? 100 * c->score / c->max_score : 0.0, c->full, c->students, c->handed_in,
                     c->students);
    }
    util_sappend(out, "</table>\n");
}

static void failed_table(char **out, class_sum *cs) {
    if (cs->n_t) qsort(cs->t, (size_t)cs->n_t, sizeof *cs->t, most_failed_first);
    int shown = 0;
    for (int i = 0; i < cs->n_t && shown < 15; i++) {
        const test_sum *t = &cs->t[i];
        if (!t->failed) break;
        if (!shown++)
            util_sappend(out, "<table>\n<tr><th>%s</th><th>%s</th><th class=\"n\">%s</th></tr>\n", _("Chapter"),
                         _("Test"), _("Failed"));
        util_sappend(out, "<tr><td>%d</td><td><code>", t->number);
        esc(out, t->id);
        util_sappend(out, "</code> ");
        esc(out, t->name);
        util_sappend(out, "</td><td class=\"n fail\">%d / %d</td></tr>\n", t->failed, t->tried);
    }
    if (shown) util_sappend(out, "</table>\n");
    else util_sappend(out, "<p class=\"ok\">%s</p>\n", _("No test failed."));
}

static void students_table(char **out, const grade_batch_row *rows, int n, const char *page_dir) {
    util_sappend(out, "<table>\n<tr><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th><th>%s</th><th>%s</th></tr>\n",
                 _("Student"), _("Score"), "%", _("Status"), _("Feedback"));
    for (int i = 0; i < n; i++) {
        const grade_batch_row *r = &rows[i];
        char status[600];
        grade_batch_status(r, status, sizeof status);
        util_sappend(out, "<tr><td>");
        esc(out, r->student);
        char a[32], b[32];
        grade_format_points(r->score, a, sizeof a);
        grade_format_points(r->max_score, b, sizeof b);
        if (r->graded)
            util_sappend(out, "</td><td class=\"n\">%s / %s</td><td class=\"n\">%.1f%%</td><td>", a, b,
                         r->max_score > 0 ? 100 * r->score / r->max_score : 0.0);
        else util_sappend(out, "</td><td class=\"n\">-</td><td class=\"n\">-</td><td class=\"fail\">");
        esc(out, status);
        util_sappend(out, "</td><td>");
        size_t bl = strlen(r->report);
        char page[1400], link[1400];
        if (r->graded && bl > 5 && !strcmp(r->report + bl - 5, ".json") &&
            snprintf(page, sizeof page, "%.*s.html", (int)bl - 5, r->report) < (int)sizeof page &&
            util_relative_path(page_dir, page, link, sizeof link) == 0) {
            snprintf(page, sizeof page, "%s", link);
            util_sappend(out, "<a href=\"");
            href(out, page);
            util_sappend(out, "\">%s</a>", _("feedback"));
        }
        util_sappend(out, "</td></tr>\n");
    }
    util_sappend(out, "</table>\n");
}

char *grade_html_class(const char *title, const grade_batch_row *rows, int n, const char *page_dir) {
    class_sum cs = {0};
    double *pct = calloc((size_t)(n ? n : 1), sizeof *pct);
    int graded = 0;
    for (int i = 0; pct && i < n; i++) {
        if (!rows[i].graded) continue;
        pct[graded++] = rows[i].max_score > 0 ? 100 * rows[i].score / rows[i].max_score : 0;
        add_report(&cs, rows[i].report);
    }
    char *out = util_strdup(""), when[64];
    time_t now = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime_r(&now, &tm));
    char heading[1200];
    snprintf(heading, sizeof heading, _("Class summary: %s"), title);
    page_head(&out, heading);
    util_sappend(&out, "<h1>");
    esc(&out, heading);
    util_sappend(&out, "</h1>\n<p class=\"meta\">");
    util_sappend(&out, P_("%d student graded", "%d students graded", graded), graded);
    if (n > graded) util_sappend(&out, _(", %d not graded"), n - graded);
    util_sappend(&out, " · %s · cltutor %s</p>\n", when, CLT_VERSION);
    util_sappend(&out, "<h2>%s</h2>\n", _("Scores"));
    distribution(&out, pct, graded);
    util_sappend(&out, "<h2>%s</h2>\n", _("Chapters"));
    chapters_table(&out, &cs);
    util_sappend(&out, "<h2>%s</h2>\n", _("Tests failed most often"));
    failed_table(&out, &cs);
    util_sappend(&out, "<h2>%s</h2>\n", _("Students"));
    students_table(&out, rows, n, page_dir);
    page_end(&out);
    free(cs.ch);
    free(cs.t);
    free(pct);
    return out;
}

int grade_html_write_class(const char *path, const char *title, const grade_batch_row *rows, int n, char *err,
                           size_t errlen) {
    char dir[1400];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    char *html = grade_html_class(title, rows, n, dir);
    int rc = html && util_write_file_atomic(path, html, strlen(html)) == 0 ? 0 : -1;
    if (rc) util_errf(err, errlen, _("cannot write the class summary %s"), path);
    free(html);
    return rc;
}
