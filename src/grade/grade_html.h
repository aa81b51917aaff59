/* grade_html — a batch's feedback and class summary as web pages: each
 * student's Markdown feedback rendered (md4c-html; HTML written in it shows
 * as text and links go only to the web), and one page for the instructor
 * with the distribution of scores, each chapter's results, the tests most
 * often failed and a link to each student's feedback. */
#ifndef CLT_GRADE_HTML_H
#define CLT_GRADE_HTML_H
#include "grade/grade_batch.h"

/* Appends s to *out as HTML text (& < > " escaped); with breaks, a line break as <br>. */
void grade_html_escape(char **out, const char *s, int breaks);

/* A page titled `title` holding `markdown` rendered. NULL: out of memory. */
char *grade_html_feedback(const char *title, const char *markdown);

/* The class summary of a batch's rows, titled `title` (the batch's folder):
 * each graded student's tests read from the JSON report the row names, and
 * a link to the feedback page beside it (NAME.html), as seen from the
 * folder page_dir the summary is written in. NULL: out of memory. */
char *grade_html_class(const char *title, const grade_batch_row *rows, int n, const char *page_dir);

/* Writes grade_html_class's page as the file path. 0, or -1 with err. */
int grade_html_write_class(const char *path, const char *title, const grade_batch_row *rows, int n, char *err,
                           size_t errlen);

#endif
