/* grade_report — a grade as text, JSON, JUnit XML, TAP or Gradescope's results.json
 * (the other platforms' results are in grade_platforms.c). */
#define _GNU_SOURCE
#include "grade/grade_report.h"
#include "grade/grade_late.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


int grade_format_parse(const char *name, grade_format *out) {
    static const struct {
        const char *name;
        grade_format format;
    } names[] = {{"text", GF_TEXT},           {"json", GF_JSON},
                 {"junit", GF_JUNIT},         {"tap", GF_TAP},
                 {"gradescope", GF_GRADESCOPE}, {"prairielearn", GF_PRAIRIELEARN},
                 {"coderunner", GF_CODERUNNER}, {"markdown", GF_MARKDOWN}};
    for (size_t i = 0; i < CLT_ARRAY_LEN(names); i++)
        if (!strcmp(name, names[i].name)) {
            *out = names[i].format;
            return 0;
        }
    return -1;
}

int grade_visibility_ok(const char *v) {
    return v && (!strcmp(v, "visible") || !strcmp(v, "hidden") || !strcmp(v, "after_due_date") ||
                 !strcmp(v, "after_published"));
}

void grade_format_points(double v, char *buf, size_t len) {
    double r = round(v * 100) / 100;
    if (fabs(r - round(r)) < 1e-9) snprintf(buf, len, "%.0f", r);
    else if (fabs(r * 10 - round(r * 10)) < 1e-9) snprintf(buf, len, "%.1f", r);
    else snprintf(buf, len, "%.2f", r);
}

int grade_hidden_parse(const char *name, grade_hidden *out) {
    if (!strcmp(name, "after_due_date")) *out = GH_AFTER_DUE_DATE;
    else if (!strcmp(name, "visible")) *out = GH_VISIBLE;
    else return -1;
    return 0;
}

double grade_points_json(double v) { return round(v * 1000) / 1000; }
static double pts(double v) { return grade_points_json(v); }

const char *grade_kind_name(grade_kind k) {
    return k == GT_HIDDEN ? "hidden" : k == GT_TECHNIQUE ? "technique" : k == GT_FIX ? "fix"
         : k == GT_SAFETY ? "safety" : "speed";
}
static const char *kind_name(grade_kind k) { return grade_kind_name(k); }

int grade_test_shows_input(const grade_test *t) { return t->kind == GT_HIDDEN || t->kind == GT_SAFETY; }

double grade_fraction(const grade_result *r) {
    if (r->max_score <= 0) return r->fatal ? 0 : 1;
    double f = r->score / r->max_score;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static const char *outcome_name(grade_outcome o) { return o == GO_PASS ? "pass" : o == GO_SKIP ? "skip" : "fail"; }

/* The keys that name a chapter, in the report and in the plan alike. */
static cJSON *chapter_identity_json(const grade_chapter *ch) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "lesson", ch->id);
    cJSON_AddNumberToObject(c, "chapter", ch->number);
    cJSON_AddStringToObject(c, "title", ch->title);
    if (ch->title_zh[0]) cJSON_AddStringToObject(c, "title_zh", ch->title_zh);
    return c;
}

/* The keys that name a test and its input, in the report and in the plan alike;
 * the size of the race and technique checks only in the plan, which is the
 * instructor's (a report is the student's: it names no size those are measured at). */
static cJSON *test_identity_json(const grade_test *t, int plan) {
    cJSON *j = cJSON_CreateObject();
    int check = t->kind == GT_SAFETY || t->kind == GT_TECHNIQUE;
    cJSON_AddStringToObject(j, "id", t->id);
    cJSON_AddStringToObject(j, "name", t->name);
    cJSON_AddStringToObject(j, "kind", kind_name(t->kind));
    cJSON_AddStringToObject(j, "file", t->file);
    if (t->size[0] && (plan || !check)) cJSON_AddStringToObject(j, "size", t->size);
    if (t->scale_size[0] && plan) cJSON_AddStringToObject(j, "scale_size", t->scale_size);
    if (t->check[0]) cJSON_AddStringToObject(j, "check", t->check);
    cJSON_AddNumberToObject(j, "seed", (double)t->seed);
    return j;
}

/* A chapter's title for people: the Chinese one in Chinese (the JSON and JUnit keep the English). */
const char *grade_chapter_title(const grade_chapter *ch) {
    return !strcmp(i18n_lang(), "zh") && ch->title_zh[0] ? ch->title_zh : ch->title;
}

/* Spaces that pad text to cols columns (wide characters take two), at least none. */
static int pad_to(const char *text, int cols) {
    int w = st_widths(text);
    return w < cols ? cols - w : 0;
}

static double percent(const grade_result *r) { return r->max_score > 0 ? 100.0 * r->score / r->max_score : 0; }

/* ---- JSON ------------------------------------------------------------------ */

cJSON *grade_report_json(const grade_result *r, const grade_report_style *st) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", "cltutor-grade");
    cJSON_AddNumberToObject(o, "format_version", 1);
    cJSON_AddStringToObject(o, "cltutor", st && st->version ? st->version : "");
    cJSON_AddStringToObject(o, "student", r->student);
    cJSON_AddStringToObject(o, "submission", r->submission);
    cJSON_AddNumberToObject(o, "seed", (double)r->seed);
    cJSON_AddNumberToObject(o, "analysis_seed", (double)(r->analysis_seed ? r->analysis_seed : r->seed));
    cJSON_AddStringToObject(o, "started", r->started);
    cJSON_AddNumberToObject(o, "wall_s", round(r->wall_s * 1000) / 1000);
    cJSON_AddItemToObject(o, "device", report_device_json(&r->device));
    cJSON *lim = cJSON_AddObjectToObject(o, "limits");
    cJSON_AddNumberToObject(lim, "wall_s", r->timeout_s);
    cJSON_AddNumberToObject(lim, "cpu_s", (double)r->cpu_s);
    cJSON_AddNumberToObject(lim, "memory_mb", (double)r->memory_mb);
    if (r->require_speedup > 0) cJSON_AddNumberToObject(o, "require_speedup", r->require_speedup);
    if (r->fatal) cJSON_AddStringToObject(o, "error", r->fatal_msg);
    else cJSON_AddNullToObject(o, "error");
    cJSON_AddNumberToObject(o, "score", pts(r->score));
    cJSON_AddNumberToObject(o, "max_score", pts(r->max_score));
    cJSON_AddNumberToObject(o, "percent", round(percent(r) * 10) / 10);
    cJSON_AddNumberToObject(o, "tests", r->n_tests);
    cJSON_AddNumberToObject(o, "passed", r->n_passed);
    cJSON_AddNumberToObject(o, "failed", r->n_failed);
    cJSON_AddNumberToObject(o, "skipped", r->n_skipped);
    if (r->late.due > 0) {
        char t[32];
        cJSON *late = cJSON_AddObjectToObject(o, "late");
        grade_format_time(r->late.due, t, sizeof t);
        cJSON_AddStringToObject(late, "due", t);
        if (r->late.submitted > 0) {
            grade_format_time(r->late.submitted, t, sizeof t);
            cJSON_AddStringToObject(late, "submitted", t);
        } else cJSON_AddNullToObject(late, "submitted");
        cJSON_AddNumberToObject(late, "days", r->late.days);
        cJSON_AddNumberToObject(late, "penalty", round(r->late.penalty * 1e4) / 1e4);
        cJSON_AddNumberToObject(late, "raw_score", pts(r->late.raw_score));
    }
    cJSON *chs = cJSON_AddArrayToObject(o, "chapters");
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        cJSON *c = chapter_identity_json(ch);
        cJSON_AddStringToObject(c, "file", ch->file);
        cJSON_AddBoolToObject(c, "submitted", ch->submitted);
        cJSON_AddBoolToObject(c, "refused", ch->refused);
        cJSON_AddNumberToObject(c, "score", pts(ch->score));
        cJSON_AddNumberToObject(c, "max_score", pts(ch->max_score));
        cJSON *ts = cJSON_AddArrayToObject(c, "tests");
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            cJSON *j = test_identity_json(t, 0);
            cJSON_AddStringToObject(j, "outcome", outcome_name(t->outcome));
            cJSON_AddStringToObject(j, "status", t->status);
            cJSON_AddNumberToObject(j, "score", pts(t->score));
            cJSON_AddNumberToObject(j, "max_score", pts(t->max_score));
            cJSON_AddStringToObject(j, "headline", t->headline);
            if (t->detail) cJSON_AddStringToObject(j, "detail", t->detail);
            else cJSON_AddNullToObject(j, "detail");
            cJSON_AddNumberToObject(j, "wall_s", round(t->wall_s * 1000) / 1000);
            if (t->kernel_ms > 0) cJSON_AddNumberToObject(j, "kernel_ms", t->kernel_ms);
            cJSON_AddItemToArray(ts, j);
        }
        cJSON_AddItemToArray(chs, c);
    }
    return o;
}

cJSON *grade_plan_json(const grade_chapter *chapters, int n, uint64_t seed) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "seed", (double)seed);
    cJSON *chs = cJSON_AddArrayToObject(o, "chapters");
    for (int i = 0; i < n; i++) {
        const grade_chapter *ch = &chapters[i];
        cJSON *c = chapter_identity_json(ch);
        cJSON_AddNumberToObject(c, "max_score", pts(ch->max_score));
        cJSON *ts = cJSON_AddArrayToObject(c, "tests");
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            cJSON *j = test_identity_json(t, 1);
            cJSON_AddNumberToObject(j, "max_score", pts(t->max_score));
            cJSON_AddItemToArray(ts, j);
        }
        cJSON_AddItemToArray(chs, c);
    }
    return o;
}

/* ---- text ------------------------------------------------------------------- */

static const char *col(const grade_report_style *st, const char *code) { return st && st->color ? code : ""; }

static void indent_lines(char **out, const char *text, const char *prefix, int max_lines) {
    const char *p = text;
    int n = 0;
    while (p && *p && n < max_lines) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        util_sappend(out, "%s%.*s\n", prefix, (int)len, p);
        n++;
        p = eol ? eol + 1 : p + len;
    }
    if (p && *p) util_sappend(out, "%s...\n", prefix);
}

static char *render_text(const grade_result *r, const grade_report_style *st) {
    char *out = NULL, a[32], b[32];
    util_sappend(&out, "%s", col(st, C_BOLD));
    /* TRANSLATORS: the first %s is the student; the second ends the bold that began before "Grade for"; the
     * third is the submission's folder */
    util_sappend(&out, _("Grade for %s%s (%s)"), r->student, col(st, C_RESET), r->submission);
    util_sappend(&out, "\n");
    if (r->analysis_seed && r->analysis_seed != r->seed)
        util_sappend(&out, _("Seed %llu, checks' seed %llu (grade again with --seed %llu --analysis-seed %llu for the "
                             "same tests)"),
                     (unsigned long long)r->seed, (unsigned long long)r->analysis_seed, (unsigned long long)r->seed,
                     (unsigned long long)r->analysis_seed);
    else
        util_sappend(&out, _("Seed %llu (grade again with --seed %llu for the same tests)"),
                     (unsigned long long)r->seed, (unsigned long long)r->seed);
    if (r->device.name[0]) util_sappend(&out, _("; device %s (%s)"), r->device.name, r->device.type);
    util_sappend(&out, "\n");
    util_sappend(&out, _("Limits per test: %g s wall, %ld s CPU, %ld MB memory"), r->timeout_s, r->cpu_s,
                 r->memory_mb);
    util_sappend(&out, "\n");
    char late[400];
    grade_late_sentence(&r->late, late, sizeof late);
    if (late[0]) util_sappend(&out, "%s\n", late);
    if (r->fatal) {
        util_sappend(&out, "\n");
        /* TRANSLATORS: the first and second %s turn red on and off around "The grader could not run:"; the
         * third is why */
        util_sappend(&out, _("%sThe grader could not run:%s %s"), col(st, C_RED), col(st, C_RESET), r->fatal_msg);
        util_sappend(&out, "\n%s\n", _("No grade was recorded."));
        return out;
    }
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        grade_format_points(ch->score, a, sizeof a);
        grade_format_points(ch->max_score, b, sizeof b);
        char head[256];
        util_textf(head, sizeof head, _("Chapter %d: %s"), ch->number, grade_chapter_title(ch));
        util_sappend(&out, "\n%s%s%*s %6s / %s%s\n", col(st, C_BOLD), head, pad_to(head, 60), "", a, b,
                     col(st, C_RESET));
        util_sappend(&out, "  %s", ch->file);
        if (ch->refused) util_sappend(&out, "  %s", _("(refused: each test below says why)"));
        else if (!ch->submitted) util_sappend(&out, "  %s", _("(not submitted or not readable)"));
        util_sappend(&out, "\n");
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            /* TRANSLATORS: a test's mark in the text report, at most 4 columns (2 Chinese characters) */
            const char *mark = t->outcome == GO_PASS ? _("ok") : t->outcome == GO_SKIP ? _("SKIP") : _("FAIL");
            const char *c = t->outcome == GO_PASS ? C_GREEN : t->outcome == GO_SKIP ? C_YELLOW : C_RED;
            grade_format_points(t->score, a, sizeof a);
            grade_format_points(t->max_score, b, sizeof b);
            char score[72];
            if (t->outcome == GO_SKIP) snprintf(score, sizeof score, "-");
            else snprintf(score, sizeof score, "%s/%s", a, b);
            util_sappend(&out, "  %s%s%*s%s %11s  %s", col(st, c), mark, pad_to(mark, 4), "", col(st, C_RESET), score,
                         t->name);
            if (t->kind == GT_FIX) util_sappend(&out, " [%s]", t->file);
            if (t->outcome == GO_PASS && t->kernel_ms > 0) {
                util_sappend(&out, "  %s", col(st, C_DIM));
                util_sappend(&out, _("(kernel %.3g ms, not graded)"), t->kernel_ms);
                util_sappend(&out, "%s", col(st, C_RESET));
            }
            if (t->outcome == GO_PASS && t->kind == GT_TECHNIQUE && t->detail)
                util_sappend(&out, "\n");
            else if (t->outcome != GO_PASS)
                util_sappend(&out, ": %s\n", t->headline);
            else
                util_sappend(&out, "\n");
            if (t->outcome != GO_PASS && t->detail) indent_lines(&out, t->detail, "              ", 8);
            if (t->outcome == GO_PASS && t->kind == GT_TECHNIQUE && t->detail)
                indent_lines(&out, t->detail, "              ", 2);
        }
    }
    grade_format_points(r->score, a, sizeof a);
    grade_format_points(r->max_score, b, sizeof b);
    util_sappend(&out, "\n%s", col(st, C_BOLD));
    util_sappend(&out, _("Total: %s / %s (%.1f%%)"), a, b, percent(r));
    util_sappend(&out, "%s  ", col(st, C_RESET));
    util_sappend(&out, _("%d passed, %d failed, %d skipped"), r->n_passed, r->n_failed, r->n_skipped);
    util_sappend(&out, "\n");
    return out;
}

/* ---- JUnit XML ---------------------------------------------------------------- */

/* Escapes for XML 1.0 text or attributes; characters XML cannot hold become '?'. */
static void xml_append(char **out, const char *s, int attr) {
    if (!s) return;
    size_t n = strlen(s);
    char *buf = malloc(n * 6 + 1), *o = buf;
    if (!buf) return;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned c = *p;
        if (c == '&') { memcpy(o, "&amp;", 5); o += 5; }
        else if (c == '<') { memcpy(o, "&lt;", 4); o += 4; }
        else if (c == '>') { memcpy(o, "&gt;", 4); o += 4; }
        else if (attr && c == '"') { memcpy(o, "&quot;", 6); o += 6; }
        else if (attr && c == '\n') { memcpy(o, "&#10;", 5); o += 5; }
        else if (attr && c == '\t') { memcpy(o, "&#9;", 4); o += 4; }
        else if (c < 0x20 && c != '\n' && c != '\t') *o++ = '?';
        else *o++ = (char)c;
    }
    *o = '\0';
    util_sappend(out, "%s", buf);
    free(buf);
}

static int is_error_status(const char *s) {
    return !strcmp(s, "crash") || !strcmp(s, "timeout") || !strcmp(s, "runtime_error");
}

/* A chapter's <properties>: title, file, score, student, device, seed, and each test's
 * weight and points by its id (the test cases follow in the same order). */
static void junit_properties(char **out, const grade_result *r, const grade_chapter *ch) {
    char a[32], b[32];
    util_sappend(out, "    <properties>\n");
    grade_format_points(ch->score, a, sizeof a);
    grade_format_points(ch->max_score, b, sizeof b);
    const char *props[][2] = {{"title", ch->title}, {"file", ch->file}, {"score", a}, {"max_score", b},
                              {"student", r->student}, {"device", r->device.name}};
    for (size_t p = 0; p < CLT_ARRAY_LEN(props); p++) {
        util_sappend(out, "      <property name=\"%s\" value=\"", props[p][0]);
        xml_append(out, props[p][1], 1);
        util_sappend(out, "\"/>\n");
    }
    util_sappend(out, "      <property name=\"seed\" value=\"%llu\"/>\n", (unsigned long long)r->seed);
    /* each test's weight, by its id (the test cases follow in the same order) */
    for (int k = 0; k < ch->n_tests; k++) {
        const grade_test *t = &ch->tests[k];
        grade_format_points(t->max_score, b, sizeof b);
        grade_format_points(t->score, a, sizeof a);
        util_sappend(out, "      <property name=\"max_points.");
        xml_append(out, t->id, 1);
        util_sappend(out, "\" value=\"%s\"/>\n      <property name=\"points.", b);
        xml_append(out, t->id, 1);
        util_sappend(out, "\" value=\"%s\"/>\n", a);
    }
    util_sappend(out, "    </properties>\n");
}

static char *render_junit(const grade_result *r, const grade_report_style *st) {
    char *out = NULL, a[32], b[32];
    int failures = 0, errors = 0;
    for (int i = 0; i < r->n_chapters; i++)
        for (int k = 0; k < r->chapters[i].n_tests; k++) {
            const grade_test *t = &r->chapters[i].tests[k];
            if (t->outcome == GO_FAIL) { if (is_error_status(t->status)) errors++; else failures++; }
        }
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    util_sappend(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    xml_append(&out, "cltutor grade: ", 1);
    xml_append(&out, r->student, 1);
    if (r->fatal) /* the grader's own failure: one test, in error, whatever the plan held */
        util_sappend(&out, "\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"%.3f\">\n", r->wall_s);
    else
        util_sappend(&out, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n", r->n_tests, failures,
                     errors, r->wall_s);
    if (r->fatal) {
        /* the grader's own failure: one suite with one error, so that CI shows it */
        util_sappend(&out, "  <testsuite name=\"grader\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
                     "time=\"0.000\" timestamp=\"%s\" hostname=\"", r->started);
        xml_append(&out, host, 1);
        util_sappend(&out, "\">\n    <testcase name=\"grader\" classname=\"cltutor.grader\" time=\"0.000\">\n"
                     "      <error type=\"grader\" message=\"");
        xml_append(&out, r->fatal_msg, 1);
        util_sappend(&out, "\"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n");
        return out;
    }
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        int f = 0, e = 0, s = 0;
        double time = 0;
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            time += t->wall_s;
            if (t->outcome == GO_SKIP) s++;
            else if (t->outcome == GO_FAIL) { if (is_error_status(t->status)) e++; else f++; }
        }
        util_sappend(&out, "  <testsuite name=\"");
        xml_append(&out, ch->id, 1);
        util_sappend(&out, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\" "
                     "timestamp=\"%s\" hostname=\"", ch->n_tests, f, e, s, time, r->started);
        xml_append(&out, host, 1);
        util_sappend(&out, "\" id=\"%d\" package=\"cltutor\">\n", i);
        junit_properties(&out, r, ch);
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            util_sappend(&out, "    <testcase name=\"");
            xml_append(&out, t->name, 1);
            util_sappend(&out, "\" classname=\"cltutor.");
            xml_append(&out, ch->id, 1);
            util_sappend(&out, ".%s\" time=\"%.3f\">\n", kind_name(t->kind), t->wall_s);
            if (t->outcome == GO_SKIP) {
                util_sappend(&out, "      <skipped message=\"");
                xml_append(&out, t->detail ? t->detail : _("skipped"), 1);
                util_sappend(&out, "\"/>\n");
            } else if (t->outcome == GO_FAIL) {
                const char *el = is_error_status(t->status) ? "error" : "failure";
                util_sappend(&out, "      <%s type=\"%s\" message=\"", el, t->status);
                xml_append(&out, t->headline, 1);
                util_sappend(&out, "\">");
                xml_append(&out, t->detail, 0);
                util_sappend(&out, "</%s>\n", el);
            }
            grade_format_points(t->score, a, sizeof a);
            grade_format_points(t->max_score, b, sizeof b);
            char sys_out[400];
            util_textf(sys_out, sizeof sys_out, _("score %s of %s; file %s; seed %llu"), a, b, t->file,
                       (unsigned long long)t->seed);
            util_sappend(&out, "      <system-out>");
            xml_append(&out, sys_out, 0);
            if (t->outcome == GO_PASS && t->detail && t->kind != GT_HIDDEN) {
                util_sappend(&out, "\n");
                xml_append(&out, t->detail, 0);
            }
            util_sappend(&out, "</system-out>\n    </testcase>\n");
        }
        util_sappend(&out, "  </testsuite>\n");
    }
    util_sappend(&out, "</testsuites>\n");
    (void)st;
    return out;
}

/* ---- TAP ----------------------------------------------------------------------- */

/* A test description on one line: no newlines, '#' and '\' escaped. */
static void tap_desc(char **out, const char *s) {
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t') util_sappend(out, " ");
        else if (*p == '#' || *p == '\\') util_sappend(out, "\\%c", *p);
        else util_sappend(out, "%c", *p);
    }
}

/* Diagnostics: every line behind "# ", so nothing a kernel printed can pass for a result. */
static void tap_diag(char **out, const char *text, int max_lines) {
    const char *p = text;
    int n = 0;
    while (p && *p && n < max_lines) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        util_sappend(out, "#   %.*s\n", (int)len, p);
        n++;
        p = eol ? eol + 1 : p + len;
    }
}

static char *render_tap(const grade_result *r, const grade_report_style *st) {
    char *out = NULL, a[32], b[32];
    util_sappend(&out, "TAP version 13\n");
    if (r->fatal) {
        const char *why = _("the grader could not run");
        /* an error, not a grade: prove and TAP consumers fail the run */
        tap_diag(&out, r->fatal_msg, 10);
        util_sappend(&out, "Bail out! ");
        tap_desc(&out, why);
        util_sappend(&out, "\n");
        return out;
    }
    util_sappend(&out, "1..%d\n", r->n_tests);
    char *who = NULL, *line = NULL;
    tap_desc(&who, r->student);
    util_sappend(&line, _("cltutor grade of %s, seed %llu"), who ? who : "", (unsigned long long)r->seed);
    util_sappend(&out, "# %s\n", line ? line : "");
    free(who);
    free(line);
    int n = 0;
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        grade_format_points(ch->score, a, sizeof a);
        grade_format_points(ch->max_score, b, sizeof b);
        char *title = NULL, *head = NULL;
        tap_desc(&title, grade_chapter_title(ch));
        util_sappend(&head, _("Chapter %d: %s: %s / %s"), ch->number, title ? title : "", a, b);
        util_sappend(&out, "# %s\n", head ? head : "");
        free(title);
        free(head);
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            grade_format_points(t->score, a, sizeof a);
            grade_format_points(t->max_score, b, sizeof b);
            util_sappend(&out, "%s %d - %s ", t->outcome == GO_FAIL ? "not ok" : "ok", ++n, ch->id);
            tap_desc(&out, t->name);
            if (t->outcome == GO_SKIP) {
                /* TRANSLATORS: how the detail of a skipped test begins, as in "skipped: GPU memory model
                 * unavailable: %s"; TAP's SKIP says the rest */
                const char *pre = _("skipped: ");
                size_t np = strlen(pre);
                util_sappend(&out, " # SKIP ");
                tap_desc(&out, t->detail && !strncmp(t->detail, pre, np) ? t->detail + np
                               : t->detail && *t->detail ? t->detail : _("skipped"));
                util_sappend(&out, "\n");
            } else {
                util_sappend(&out, " (%s/%s)\n", a, b);
            }
            if (t->outcome == GO_FAIL && t->detail) tap_diag(&out, t->detail, 12);
        }
    }
    grade_format_points(r->score, a, sizeof a);
    grade_format_points(r->max_score, b, sizeof b);
    util_sappend(&out, "# ");
    util_sappend(&out, _("total %s / %s (%.1f%%)"), a, b, percent(r));
    util_sappend(&out, "\n");
    (void)st;
    return out;
}

/* ---- Gradescope ---------------------------------------------------------------- */

/* Gradescope's leaderboard: per chapter whose hidden tests all passed, the kernel
 * time of its timed hidden test (the large size) on the grader's device, lower
 * first. A chapter with a wrong answer, or none timed, has no entry. */
static void add_leaderboard(cJSON *o, const grade_result *r) {
    cJSON *board = NULL;
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        double ms = 0;
        int hidden = 0, passed = 0;
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            if (t->kind != GT_HIDDEN) continue;
            hidden++;
            passed += t->outcome == GO_PASS;
            if (t->outcome == GO_PASS && t->kernel_ms > 0) ms = t->kernel_ms;
        }
        if (!hidden || passed < hidden || ms <= 0) continue;
        if (!board) board = cJSON_AddArrayToObject(o, "leaderboard");
        cJSON *e = cJSON_CreateObject();
        char name[96];
        snprintf(name, sizeof name, "Chapter %d kernel time (ms)", ch->number);
        cJSON_AddStringToObject(e, "name", name);
        cJSON_AddNumberToObject(e, "value", round(ms * 1e4) / 1e4);
        cJSON_AddStringToObject(e, "order", "asc");
        cJSON_AddItemToArray(board, e);
    }
}

static char *render_gradescope(const grade_result *r, const grade_report_style *st) {
    const char *vis = st && grade_visibility_ok(st->visibility) ? st->visibility : "visible";
    /* hidden tests: after the due date by default, or later if --visibility says so */
    int withheld = !st || st->hidden == GH_AFTER_DUE_DATE;
    const char *hidden_vis = withheld && !strcmp(vis, "visible") ? "after_due_date" : vis;
    cJSON *o = cJSON_CreateObject();
    char *summary = NULL, a[32], b[32];
    if (r->fatal) {
        /* no score: Gradescope flags the submission as an autograder failure (run_autograder
         * also exits non-zero) instead of recording a 0 */
        util_sappend(&summary, _("The autograder could not run, so this is not your grade; your instructor has the "
                                 "details. (%s)"), r->fatal_msg);
    } else {
        cJSON_AddNumberToObject(o, "score", pts(r->score));
        if (withheld) /* the seed would let a student with cltutor list the hidden inputs */
            util_sappend(&summary, "%s", _("The hidden tests' sizes and inputs are shown after the due date."));
        else if (r->device.name[0])
            util_sappend(&summary, _("Hidden tests drawn from seed %llu on %s."), (unsigned long long)r->seed,
                         r->device.name);
        else
            util_sappend(&summary, _("Hidden tests drawn from seed %llu on the grader's device."),
                         (unsigned long long)r->seed);
        util_sappend(&summary, "\n");
        for (int i = 0; i < r->n_chapters; i++) {
            grade_format_points(r->chapters[i].score, a, sizeof a);
            grade_format_points(r->chapters[i].max_score, b, sizeof b);
            const grade_chapter *ch = &r->chapters[i];
            if (ch->submitted)
                util_sappend(&summary, _("Chapter %d (%s): %s / %s"), ch->number, grade_chapter_title(ch), a, b);
            else if (ch->refused)
                util_sappend(&summary, _("Chapter %d (%s): %s / %s  (file refused)"), ch->number, grade_chapter_title(ch), a,
                             b);
            else
                util_sappend(&summary, _("Chapter %d (%s): %s / %s  (file not submitted)"), ch->number,
                             grade_chapter_title(ch), a, b);
            util_sappend(&summary, "\n");
        }
        grade_format_points(r->score, a, sizeof a);
        grade_format_points(r->max_score, b, sizeof b);
        util_sappend(&summary, _("Total: %s / %s"), a, b);
        char late[400];
        grade_late_sentence(&r->late, late, sizeof late);
        if (late[0]) util_sappend(&summary, "\n%s", late);
    }
    cJSON_AddNumberToObject(o, "execution_time", (int)ceil(r->wall_s));
    cJSON_AddStringToObject(o, "output", summary ? summary : "");
    free(summary);
    cJSON_AddStringToObject(o, "output_format", "text");
    cJSON_AddStringToObject(o, "test_output_format", "text");
    cJSON_AddStringToObject(o, "visibility", "visible");
    cJSON_AddStringToObject(o, "stdout_visibility", "hidden");
    cJSON *extra = cJSON_AddObjectToObject(o, "extra_data");
    cJSON_AddNumberToObject(extra, "seed", (double)r->seed);
    cJSON_AddStringToObject(extra, "device", r->device.name);
    cJSON_AddStringToObject(extra, "cltutor", st && st->version ? st->version : "");
    cJSON *tests = cJSON_AddArrayToObject(o, "tests");
    for (int i = 0; i < r->n_chapters && !r->fatal; i++) {
        const grade_chapter *ch = &r->chapters[i];
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            cJSON *j = cJSON_CreateObject();
            char name[320], number[32];
            snprintf(name, sizeof name, "Chapter %d: %s%s", ch->number, t->name,
                     t->outcome == GO_SKIP ? " (skipped)" : "");
            snprintf(number, sizeof number, "%d.%d", ch->number, k + 1);
            cJSON_AddStringToObject(j, "name", name);
            cJSON_AddStringToObject(j, "number", number);
            cJSON_AddNumberToObject(j, "score", pts(t->score));
            cJSON_AddNumberToObject(j, "max_score", pts(t->max_score));
            if (t->outcome != GO_SKIP) cJSON_AddStringToObject(j, "status", t->outcome == GO_PASS ? "passed" : "failed");
            char *text = NULL;
            if (t->outcome == GO_PASS && t->kind == GT_HIDDEN) util_sappend(&text, "%s", _("Correct."));
            else util_sappend(&text, "%s", t->detail ? t->detail : t->headline);
            if (t->kind == GT_FIX) {
                util_sappend(&text, "\n");
                util_sappend(&text, _("(file: %s)"), t->file);
            }
            cJSON_AddStringToObject(j, "output", text ? text : "");
            free(text);
            cJSON_AddStringToObject(j, "output_format", "text");
            cJSON_AddStringToObject(j, "visibility", grade_test_shows_input(t) ? hidden_vis : vis);
            cJSON *tags = cJSON_AddArrayToObject(j, "tags");
            cJSON_AddItemToArray(tags, cJSON_CreateString(ch->id));
            cJSON_AddItemToArray(tags, cJSON_CreateString(kind_name(t->kind)));
            cJSON_AddItemToArray(tests, j);
        }
    }
    if (!r->fatal) add_leaderboard(o, r);
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    char *out = NULL;
    util_sappend(&out, "%s\n", s ? s : "{}");
    free(s);
    return out;
}

char *grade_report_render(const grade_result *r, grade_format f, const grade_report_style *st) {
    switch (f) {
    case GF_TEXT: return render_text(r, st);
    case GF_JUNIT: return render_junit(r, st);
    case GF_TAP: return render_tap(r, st);
    case GF_GRADESCOPE: return render_gradescope(r, st);
    case GF_PRAIRIELEARN: return grade_render_prairielearn(r, st);
    case GF_CODERUNNER: return grade_render_coderunner(r, st);
    case GF_SCORE: return grade_render_score(r);
    case GF_MARKDOWN: return grade_render_feedback(r, st);
    case GF_JSON: {
        cJSON *o = grade_report_json(r, st);
        char *s = cJSON_Print(o);
        cJSON_Delete(o);
        char *out = NULL;
        util_sappend(&out, "%s\n", s ? s : "{}");
        free(s);
        return out;
    }
    }
    return NULL;
}
