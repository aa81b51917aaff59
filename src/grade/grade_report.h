/* grade_report — a grade as text, JSON, JUnit XML, TAP, Markdown feedback for the
 * student, or the results of a grading platform: Gradescope, PrairieLearn,
 * CodeRunner, or a bare 0..1 score (CodeGrade). */
#ifndef CLT_GRADE_REPORT_H
#define CLT_GRADE_REPORT_H
#include <cJSON.h>
#include "grade/grade.h"

typedef enum {
    GF_TEXT, GF_JSON, GF_JUNIT, GF_TAP, GF_GRADESCOPE, GF_PRAIRIELEARN, GF_CODERUNNER, GF_SCORE,
    GF_MARKDOWN, /* feedback a student reads: hidden inputs withheld as the style says */
} grade_format;

/* When students may see the sizes and inputs of the hidden tests. */
typedef enum { GH_AFTER_DUE_DATE, GH_VISIBLE } grade_hidden;

typedef struct {
    int color;                /* ANSI colours in text */
    const char *visibility;   /* Gradescope's visibility of each test (default "visible") */
    const char *version;      /* the program's version, for the reports */
    grade_hidden hidden;      /* GH_AFTER_DUE_DATE: Gradescope shows hidden tests after the due date;
                                 PrairieLearn and CodeRunner, which show results at once, name them
                                 without their sizes and inputs */
} grade_report_style;

/* 0 and the format, or -1 for an unknown name. */
int grade_format_parse(const char *name, grade_format *out);

/* The grade as JSON (the format of `grade --format json` and batch reports). */
cJSON *grade_report_json(const grade_result *r, const grade_report_style *st);

/* The grade in a format, as malloc'd text ending in a newline. */
char *grade_report_render(const grade_result *r, grade_format f, const grade_report_style *st);

/* The tests a plan holds, with their points, none run (`grade --plan --format json`). */
cJSON *grade_plan_json(const grade_chapter *chapters, int n, uint64_t seed);

/* The chapter's title in the reader's language. */
const char *grade_chapter_title(const grade_chapter *ch);

/* Points for people: "12.5", "10". */
void grade_format_points(double v, char *buf, size_t len);

/* Is this one of Gradescope's visibility values? */
int grade_visibility_ok(const char *v);

/* 0 and the value of --hidden-inputs (after_due_date, visible), or -1. */
int grade_hidden_parse(const char *name, grade_hidden *out);

/* The test's kind as the reports name it: hidden, technique, fix, speed, safety. */
const char *grade_kind_name(grade_kind k);

/* Points rounded for JSON (3 decimals). */
double grade_points_json(double v);

/* Does this test's name or detail show an input drawn from the seed (a hidden test's
 * size, the race check's size), to be withheld from students until the due date? */
int grade_test_shows_input(const grade_test *t);

/* The score as a fraction of max_score, 0..1 (1 when nothing could score, 0 for a grader failure). */
double grade_fraction(const grade_result *r);

/* The platforms' renderers (grade_platforms.c). */
char *grade_render_prairielearn(const grade_result *r, const grade_report_style *st);
char *grade_render_coderunner(const grade_result *r, const grade_report_style *st);
char *grade_render_score(const grade_result *r);
char *grade_render_feedback(const grade_result *r, const grade_report_style *st);

#endif
