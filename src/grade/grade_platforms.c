/* grade_platforms — a grade as students read it: the result formats of grading
 * platforms that show it at once (PrairieLearn's external grader results,
 * CodeRunner's combinator template grader JSON, a bare 0..1 score for
 * CodeGrade's capture), and Markdown feedback a batch writes per student. */
#define _GNU_SOURCE
#include "grade/grade_report.h"
#include "grade/grade_html.h"
#include "grade/grade_late.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Are the hidden tests' inputs kept from students (until the due date)? */
static int withheld(const grade_report_style *st) { return !st || st->hidden == GH_AFTER_DUE_DATE; }

/* A test's name for students: a hidden test's size and input left out while withheld. */
static void public_name(const grade_chapter *ch, int index, const grade_test *t, const grade_report_style *st,
                        char *buf, size_t len) {
    if (withheld(st) && grade_test_shows_input(t))
        /* TRANSLATORS: a hidden test named without its input, e.g. "Chapter 3: hidden test 2" */
        util_textf(buf, len, _("Chapter %d: hidden test %d"), ch->number, index + 1);
    else util_textf(buf, len, _("Chapter %d: %s"), ch->number, t->name);
}

/* What a student reads about a test (malloc'd): the detail, or for a withheld
 * hidden test only whether it passed and the headline. */
static char *public_message(const grade_test *t, const grade_report_style *st) {
    char *m = NULL;
    if (t->outcome == GO_PASS && t->kind == GT_HIDDEN) util_sappend(&m, "%s", _("Correct."));
    else if (withheld(st) && grade_test_shows_input(t)) {
        util_sappend(&m, "%s", t->headline);
        util_sappend(&m, " %s", _("(the input is shown after the due date)"));
    } else util_sappend(&m, "%s", t->detail && *t->detail ? t->detail : t->headline);
    return m;
}

/* The total and each chapter's score, for people (malloc'd). */
static char *summary(const grade_result *r) {
    char *s = NULL, a[32], b[32];
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        grade_format_points(ch->score, a, sizeof a);
        grade_format_points(ch->max_score, b, sizeof b);
        util_sappend(&s, _("Chapter %d: %s / %s"), ch->number, a, b);
        if (ch->refused) util_sappend(&s, "  %s", _("(file refused)"));
        else if (!ch->submitted) util_sappend(&s, "  %s", _("(file not submitted)"));
        util_sappend(&s, "\n");
    }
    grade_format_points(r->score, a, sizeof a);
    grade_format_points(r->max_score, b, sizeof b);
    util_sappend(&s, _("Total: %s / %s"), a, b);
    return s;
}

static char *print_json(cJSON *o) {
    char *s = cJSON_Print(o), *out = NULL;
    cJSON_Delete(o);
    util_sappend(&out, "%s\n", s ? s : "{}");
    free(s);
    return out;
}

/* ---- PrairieLearn -------------------------------------------------------------- */

char *grade_render_prairielearn(const grade_result *r, const grade_report_style *st) {
    cJSON *o = cJSON_CreateObject();
    if (r->fatal) {
        /* not gradable: PrairieLearn records no score and flags the submission */
        cJSON_AddBoolToObject(o, "gradable", 0);
        char *m = NULL;
        util_sappend(&m, _("The autograder could not run, so this is not your grade; your instructor has the "
                           "details. (%s)"), r->fatal_msg);
        cJSON_AddStringToObject(o, "message", m ? m : "");
        free(m);
        cJSON_AddStringToObject(o, "output", "");
        cJSON_AddArrayToObject(o, "tests");
        return print_json(o);
    }
    cJSON_AddBoolToObject(o, "gradable", 1);
    cJSON_AddNumberToObject(o, "score", round(grade_fraction(r) * 1e6) / 1e6);
    char *sum = summary(r);
    cJSON_AddStringToObject(o, "message", sum ? sum : "");
    free(sum);
    cJSON_AddStringToObject(o, "output", withheld(st)
                                             ? _("The hidden tests' sizes and inputs are shown after the due date.")
                                             : "");
    cJSON *tests = cJSON_AddArrayToObject(o, "tests");
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            cJSON *j = cJSON_CreateObject();
            char name[320];
            public_name(ch, k, t, st, name, sizeof name);
            cJSON_AddStringToObject(j, "name", name);
            cJSON_AddStringToObject(j, "description", grade_kind_name(t->kind));
            cJSON_AddNumberToObject(j, "points", grade_points_json(t->score));
            cJSON_AddNumberToObject(j, "max_points", grade_points_json(t->max_score));
            char *m = public_message(t, st);
            const char *word = t->outcome == GO_PASS ? _("passed") : t->outcome == GO_SKIP ? _("skipped") : _("failed");
            cJSON_AddStringToObject(j, "message", word);
            cJSON_AddStringToObject(j, "output", m ? m : "");
            free(m);
            cJSON_AddItemToArray(tests, j);
        }
    }
    return print_json(o);
}

/* ---- CodeRunner ------------------------------------------------------------------ */

static void html_append(char **out, const char *s) { grade_html_escape(out, s, 1); }

char *grade_render_coderunner(const grade_result *r, const grade_report_style *st) {
    cJSON *o = cJSON_CreateObject();
    char *html = NULL;
    if (r->fatal) {
        /* no fraction: CodeRunner reports an error in the question, not a mark */
        util_sappend(&html, "<p>");
        char *m = NULL;
        util_sappend(&m, _("The autograder could not run, so this is not your grade; your instructor has the "
                           "details. (%s)"), r->fatal_msg);
        html_append(&html, m);
        free(m);
        util_sappend(&html, "</p>");
        cJSON_AddStringToObject(o, "prologuehtml", html ? html : "");
        free(html);
        return print_json(o);
    }
    cJSON_AddNumberToObject(o, "fraction", round(grade_fraction(r) * 1e6) / 1e6);
    char *sum = summary(r);
    util_sappend(&html, "<p>");
    html_append(&html, sum);
    util_sappend(&html, "</p>");
    free(sum);
    cJSON_AddStringToObject(o, "prologuehtml", html ? html : "");
    free(html);
    cJSON *rows = cJSON_AddArrayToObject(o, "testresults");
    cJSON *head = cJSON_CreateArray();
    const char *cols[] = {"iscorrect", _("Test"), _("Points"), _("Result")};
    for (size_t i = 0; i < CLT_ARRAY_LEN(cols); i++) cJSON_AddItemToArray(head, cJSON_CreateString(cols[i]));
    cJSON_AddItemToArray(rows, head);
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            cJSON *row = cJSON_CreateArray();
            char name[320], a[32], b[32], pts[72];
            public_name(ch, k, t, st, name, sizeof name);
            grade_format_points(t->score, a, sizeof a);
            grade_format_points(t->max_score, b, sizeof b);
            snprintf(pts, sizeof pts, "%s / %s", a, b);
            char *m = public_message(t, st);
            cJSON_AddItemToArray(row, cJSON_CreateBool(t->outcome != GO_FAIL));
            cJSON_AddItemToArray(row, cJSON_CreateString(name));
            cJSON_AddItemToArray(row, cJSON_CreateString(t->outcome == GO_SKIP ? "-" : pts));
            cJSON_AddItemToArray(row, cJSON_CreateString(m ? m : ""));
            free(m);
            cJSON_AddItemToArray(rows, row);
        }
    }
    cJSON *fmt = cJSON_AddArrayToObject(o, "columnformats");
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(fmt, cJSON_CreateString("%s"));
    return print_json(o);
}

/* ---- a bare score ------------------------------------------------------------------ */

char *grade_render_score(const grade_result *r) {
    char *out = NULL;
    if (r->fatal) util_sappend(&out, "%s", ""); /* no score at all: the exit status and standard error say why */
    else util_sappend(&out, "%.4f\n", grade_fraction(r));
    return out;
}

/* ---- Markdown feedback ------------------------------------------------------------- */

/* s in a Markdown table cell: | escaped, lines joined. */
static void cell_append(char **out, const char *s) {
    for (const char *p = s; p && *p; p++) {
        if (*p == '|') util_sappend(out, "\\|");
        else if (*p == '\n' || *p == '\r') util_sappend(out, " ");
        else util_sappend(out, "%c", *p);
    }
}

char *grade_render_feedback(const grade_result *r, const grade_report_style *st) {
    char *out = NULL, a[32], b[32];
    util_sappend(&out, "# ");
    util_sappend(&out, _("Feedback for %s"), r->student);
    util_sappend(&out, "\n\n");
    if (r->fatal) {
        util_sappend(&out, _("The autograder could not run, so this is not your grade; your instructor has the "
                             "details. (%s)"), r->fatal_msg);
        util_sappend(&out, "\n");
        return out;
    }
    grade_format_points(r->score, a, sizeof a);
    grade_format_points(r->max_score, b, sizeof b);
    util_sappend(&out, "**");
    util_sappend(&out, _("Total: %s / %s"), a, b);
    util_sappend(&out, "**\n");
    char late[400];
    grade_late_sentence(&r->late, late, sizeof late);
    if (late[0]) util_sappend(&out, "\n%s\n", late);
    if (withheld(st))
        util_sappend(&out, "\n%s\n", _("The hidden tests' sizes and inputs are shown after the due date."));
    for (int i = 0; i < r->n_chapters; i++) {
        const grade_chapter *ch = &r->chapters[i];
        grade_format_points(ch->score, a, sizeof a);
        grade_format_points(ch->max_score, b, sizeof b);
        util_sappend(&out, "\n## ");
        util_sappend(&out, _("Chapter %d: %s"), ch->number, grade_chapter_title(ch));
        util_sappend(&out, " (%s / %s)", a, b);
        util_sappend(&out, "\n\n`%s`", ch->file);
        if (ch->refused) util_sappend(&out, " %s", _("(file refused)"));
        else if (!ch->submitted) util_sappend(&out, " %s", _("(file not submitted)"));
        util_sappend(&out, "\n\n| %s | %s | %s | %s |\n|---|---|---|---|\n", _("Result"), _("Test"), _("Points"),
                     _("What happened"));
        for (int k = 0; k < ch->n_tests; k++) {
            const grade_test *t = &ch->tests[k];
            char name[320], pts[72];
            if (withheld(st) && grade_test_shows_input(t))
                /* TRANSLATORS: a hidden test named without its input, inside its chapter's section */
                util_textf(name, sizeof name, _("hidden test %d"), k + 1);
            else util_textf(name, sizeof name, "%s", t->name);
            grade_format_points(t->score, a, sizeof a);
            grade_format_points(t->max_score, b, sizeof b);
            snprintf(pts, sizeof pts, "%s / %s", a, b);
            char *m = public_message(t, st);
            util_sappend(&out, "| %s | ",
                         t->outcome == GO_PASS ? _("passed") : t->outcome == GO_SKIP ? _("skipped") : _("failed"));
            cell_append(&out, name);
            util_sappend(&out, " | %s | ", t->outcome == GO_SKIP ? "-" : pts);
            cell_append(&out, m);
            util_sappend(&out, " |\n");
            free(m);
        }
    }
    return out;
}
