/* grade_report — a grade as text, JSON, JUnit XML, TAP or Gradescope's results.json. */
#ifndef CLT_GRADE_REPORT_H
#define CLT_GRADE_REPORT_H
#include <cJSON.h>
#include "grade/grade.h"

typedef enum { GF_TEXT, GF_JSON, GF_JUNIT, GF_TAP, GF_GRADESCOPE } grade_format;

typedef struct {
    int color;                /* ANSI colours in text */
    const char *visibility;   /* Gradescope's visibility of each test (default "visible") */
    const char *version;      /* the program's version, for the reports */
} grade_report_style;

/* 0 and the format, or -1 for an unknown name. */
int grade_format_parse(const char *name, grade_format *out);

/* The grade as JSON (the format of `grade --format json` and batch reports). */
cJSON *grade_report_json(const grade_result *r, const grade_report_style *st);

/* The grade in a format, as malloc'd text ending in a newline. */
char *grade_report_render(const grade_result *r, grade_format f, const grade_report_style *st);

/* The tests a plan holds, with their points, none run (`grade --plan --format json`). */
cJSON *grade_plan_json(const grade_chapter *chapters, int n, uint64_t seed);

/* Points for people: "12.5", "10". */
void grade_format_points(double v, char *buf, size_t len);

/* Is this one of Gradescope's visibility values? */
int grade_visibility_ok(const char *v);

#endif
