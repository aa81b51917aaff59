/* test_uiapp — the course's controller and frame without a terminal: keys
 * open chapters and dialogs, each frame is laid out for the terminal's size,
 * and the documents it shows are built before any drawing. */
#define _GNU_SOURCE
#include "suites.h"
#include "text/i18n.h"
#include "ui/ui_app.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int doc_has(const st_doc *d, const char *text) {
    for (int i = 0; i < d->n; i++)
        if (strstr(st_line_text(&d->lines[i]), text)) return i;
    return -1;
}

static ui_app app;
static char ws[64];

static void open_app(void) {
    setlocale(LC_ALL, "C.UTF-8");
    i18n_set_lang("en");
    snprintf(ws, sizeof ws, "%s", "/tmp/clt-uiapp-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(ws));
    setenv("CLTUTOR_DATA", CLT_TEST_ROOT, 1);
    char fatal[1400];
    ck_assert_msg(ui_app_open(&app, ws, fatal, sizeof fatal) == 0, "%s", fatal);
    app.utf8 = 1;
}

static void close_app(void) {
    ui_app_close(&app);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", ws);
    ck_assert_int_eq(system(cmd), 0);
    unsetenv("CLTUTOR_DATA");
}

static void frame(int rows, int cols) {
    app.rows = rows;
    app.cols = cols;
    ui_frame_prepare(&app);
}

START_TEST(frames_are_laid_out_before_drawing) {
    open_app();
    /* the chapter list: every chapter fits in 40 rows; a small terminal is said to be small */
    frame(40, 120);
    ck_assert(!app.frame.too_small);
    ck_assert_int_ge(app.frame.home_list_rows, app.cat.count);
    ck_assert_int_eq(app.st.home.len, app.cat.count);
    frame(UI_MIN_ROWS - 1, 120);
    ck_assert(app.frame.too_small);
    /* help: the dialog's document is the key map's, and the key that opened it closes it */
    ck_assert_int_eq(ui_app_key(&app, '?').kind, UI_DO_NOTHING);
    frame(24, 80);
    ck_assert_int_ge(doc_has(&app.frame.dialog_doc, "this help"), 0);
    ck_assert_int_le(app.frame.dialog.w, 80 - 6);
    ck_assert_int_eq(app.st.overlay_list.rows, app.frame.dialog.h - 2);
    ui_app_key(&app, '?');
    ck_assert_int_eq(app.st.overlay, OV_NONE);
    /* a chapter: at 80 columns the lesson (a new chapter's focus) above the results */
    ui_app_key(&app, '2');
    ck_assert(app.in_chapter);
    ck_assert_int_eq(app.ch.l->number, 2);
    frame(24, 80);
    ck_assert_int_eq(app.frame.lesson.w, 80);
    ck_assert_int_eq(app.frame.kernel.w, 0);
    ck_assert_int_eq(app.frame.results.y, app.frame.lesson.y + app.frame.lesson.h);
    ck_assert_int_eq(app.frame.results.y + app.frame.results.h, 24 - 1); /* the status line below */
    ck_assert_int_gt(app.ch.lesson_doc.n, 10);                           /* rendered at the pane's width */
    ck_assert_int_eq(app.ch.lesson_w, 80 - 2);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_RESULT], "Not run yet"), 0);
    /* at 120 columns the lesson (at most 80) and the kernel side by side */
    frame(40, 120);
    ck_assert_int_eq(app.frame.lesson.w, 120 * 9 / 20);
    ck_assert_int_eq(app.frame.kernel.x, app.frame.lesson.w + 1);
    ck_assert_int_eq(app.frame.kernel.x + app.frame.kernel.w, 120);
    ck_assert_int_eq(app.st.pane[PANE_KERNEL].len, app.ch.kernel_doc.n);
    ck_assert_int_eq(app.frame.kernel_digits, app.ch.kernel_doc.n >= 100 ? 3 : 2);
    /* zoom: the focused pane alone */
    ui_app_key(&app, TK_TAB); /* the kernel */
    ui_app_key(&app, 'z');
    frame(40, 120);
    ck_assert_int_eq(app.frame.lesson.w, 0);
    ck_assert_int_eq(app.frame.results.w, 0);
    ck_assert_int_eq(app.frame.kernel.w, 120);
    ck_assert_int_eq(app.frame.kernel.h, 40 - 2);
    /* the Changes tab: chapter 2 against chapter 1's reference, the previous stage of the same problem */
    ui_app_key(&app, '6');
    frame(40, 120);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "previous stage of this problem: chapter 1"), 0);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "--- chapter 1's reference"), 0);
    ui_app_key(&app, 'z'); /* the results zoomed now */
    ui_app_key(&app, 'z');
    /* e asks the terminal for the editor; Esc leaves the zoom, q the chapter */
    ck_assert_int_eq(ui_app_key(&app, 'e').kind, UI_DO_EDIT);
    ui_app_key(&app, TK_ESC);
    ck_assert(!app.st.zoom);
    ui_app_key(&app, 'q');
    ck_assert_int_eq(app.st.screen, SCR_HOME);
    /* chapter 1 starts its problem: its own starting file */
    ui_app_key(&app, '1');
    ui_app_key(&app, '6');
    frame(40, 120);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "first chapter of its problem"), 0);
    close_app();
}
END_TEST

/* The editor's command line: the line goes where each editor wants it. */
START_TEST(editor_command_names_the_line) {
    open_app();
    ui_app_key(&app, '1');
    setenv("VISUAL", "/bin/true", 1);
    ui_editor ed;
    ck_assert_int_eq(ui_app_editor(&app, 12, &ed), 0);
    ck_assert_str_eq(ed.argv[0], "/bin/sh");
    ck_assert_str_eq(ed.argv[4], "+12");
    ck_assert_str_eq(ed.argv[5], app.ch.kernel_path);
    ck_assert_ptr_null(ed.argv[6]);
    setenv("VISUAL", "no-such-editor-here", 1);
    setenv("EDITOR", "nor-this-one", 1);
    setenv("PATH", "/nonexistent", 1); /* nano and vi are not found either */
    ck_assert_int_eq(ui_app_editor(&app, 0, &ed), -1);
    ck_assert_int_eq(app.st.overlay, OV_MESSAGE);
    ck_assert_ptr_nonnull(strstr(app.st.message, "No editor found (tried: no-such-editor-here, nor-this-one"));
    setenv("PATH", "/usr/bin:/bin", 1);
    unsetenv("VISUAL");
    unsetenv("EDITOR");
    close_app();
}
END_TEST

Suite *uiapp_suite(void) {
    Suite *s = suite_create("uiapp");
    TCase *t = tcase_create("uiapp");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, frames_are_laid_out_before_drawing);
    tcase_add_test(t, editor_command_names_the_line);
    suite_add_tcase(s, t);
    return s;
}
