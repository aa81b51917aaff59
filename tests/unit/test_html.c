/* test_html — unit tests of the feedback and class pages (grade/grade_html):
 * what a student wrote shows as text, and links lead only to the web. */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grade/grade_html.h"

START_TEST(feedback_shows_html_as_text_and_keeps_links_on_the_web) {
    const char *md = "# Feedback for <b>eve&co</b>\n\n"
                     "<script>alert(1)</script>\n\n"
                     "a [trap](javascript:alert(2)), a [data](data:text/html,x), an ![image](file:///etc/passwd),\n"
                     "the [guide](https://example.org/guide), a [page](ana.html) and an [anchor](#ch2).\n\n"
                     "| Result | Test |\n|---|---|\n| failed | hidden test 1 |\n";
    char *html = grade_html_feedback("<b>eve&co", md);
    ck_assert_ptr_nonnull(html);
    ck_assert_msg(!strstr(html, "<script>") && !strstr(html, "<b>"), "raw HTML passed through:\n%s", html);
    ck_assert_msg(strstr(html, "&lt;script&gt;") && strstr(html, "&lt;b&gt;eve&amp;co"), "the text was lost:\n%s", html);
    ck_assert_msg(!strstr(html, "javascript:") && !strstr(html, "data:text") && !strstr(html, "file:"),
                  "a link off the web kept:\n%s", html);
    ck_assert_msg(strstr(html, "href=\"https://example.org/guide\"") && strstr(html, "href=\"ana.html\"") &&
                      strstr(html, "href=\"#ch2\""), "a web, relative or in-page link lost:\n%s", html);
    ck_assert_msg(strstr(html, "<title>&lt;b&gt;eve&amp;co</title>"), "the title is not escaped:\n%s", html);
    ck_assert_msg(strstr(html, "<table>") && strstr(html, "<td>hidden test 1</td>"), "the table is gone:\n%s", html);
    ck_assert_msg(!strstr(html, "<link") && !strstr(html, "src=\"http"), "the page fetches something:\n%s", html);
    free(html);
}
END_TEST

/* no graded row: a page that says so, with nothing divided by zero */
START_TEST(class_page_of_nobody) {
    grade_batch_row row = {0};
    snprintf(row.student, sizeof row.student, "x<y");
    row.refused = 1;
    snprintf(row.error, sizeof row.error, "x<y.zip: not an archive");
    char *html = grade_html_class("/tmp/<batch>", &row, 1, "/tmp");
    ck_assert_ptr_nonnull(html);
    ck_assert_msg(strstr(html, "0 students graded") && strstr(html, ", 1 not graded"), "%s", html);
    ck_assert_msg(strstr(html, "x&lt;y") && !strstr(html, "<batch>") && !strstr(html, "nan"), "%s", html);
    ck_assert_msg(!strstr(html, "href="), "a link to feedback that was never written:\n%s", html);
    free(html);
}
END_TEST

Suite *html_suite(void) {
    Suite *s = suite_create("html");
    TCase *tc = tcase_create("html");
    tcase_add_test(tc, feedback_shows_html_as_text_and_keeps_links_on_the_web);
    tcase_add_test(tc, class_page_of_nobody);
    suite_add_tcase(s, tc);
    return s;
}
