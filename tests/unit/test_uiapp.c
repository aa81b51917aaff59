/* test_uiapp — the course's controller and frame without a terminal: keys
 * open chapters and dialogs, each frame is laid out for the terminal's size,
 * and the documents it shows are built before any drawing. */
#define _GNU_SOURCE
#include "suites.h"
#include "base/util.h"
#include "text/i18n.h"
#include "ui/ui_app.h"
#include "text/mdrender.h"

#include <locale.h>
#include <sys/stat.h>
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
    /* the Changes tab: chapter 2's edits since its starting file (nothing yet), with the key that shows the
     * kernel against chapter 1's reference instead, the previous stage of the same problem; p and back */
    ui_app_key(&app, '6');
    frame(40, 120);
    ck_assert_int_eq(doc_has(&app.ch.tabs[TAB_CHANGES], "What you changed"), 0);
    ck_assert_int_eq(doc_has(&app.ch.tabs[TAB_CHANGES], "p: your kernel against chapter 1's reference"), 1);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "Nothing yet"), 0);
    ck_assert_int_lt(doc_has(&app.ch.tabs[TAB_CHANGES], "--- chapter 1's reference"), 0);
    ui_app_key(&app, 'p');
    frame(40, 120);
    ck_assert_int_eq(app.st.tab, TAB_CHANGES);
    ck_assert_int_eq(doc_has(&app.ch.tabs[TAB_CHANGES], "previous stage of this problem: chapter 1"), 0);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "p: back to your edits"), 0);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "--- chapter 1's reference"), 0);
    ck_assert_int_lt(doc_has(&app.ch.tabs[TAB_CHANGES], "What you changed"), 0);
    ui_app_key(&app, 'p');
    frame(40, 120);
    ck_assert_int_eq(doc_has(&app.ch.tabs[TAB_CHANGES], "What you changed"), 0);
    ui_app_key(&app, 'z'); /* the results zoomed now */
    ui_app_key(&app, 'z');
    /* e asks the terminal for the editor; Esc leaves the zoom, q the chapter */
    ck_assert_int_eq(ui_app_key(&app, 'e').kind, UI_DO_EDIT);
    ui_app_key(&app, TK_ESC);
    ck_assert(!app.st.zoom);
    ui_app_key(&app, 'q');
    ck_assert_int_eq(app.st.screen, SCR_HOME);
    /* chapter 1 starts its problem: what was changed since its starting file, and no previous stage */
    ui_app_key(&app, '1');
    ui_app_key(&app, '6');
    frame(40, 120);
    ck_assert_int_ge(doc_has(&app.ch.tabs[TAB_CHANGES], "What you changed: your kernel against this chapter's starting file"), 0);
    ck_assert_int_lt(doc_has(&app.ch.tabs[TAB_CHANGES], "previous stage of this problem"), 0);
    close_app();
}
END_TEST

/* Every action without leaving the course: sizes and inputs, the time limit,
 * the find-the-bug listings, and the whole check. */
/* The devices dialog: a device whose name and platform are long keeps every word, the platform and the
 * default mark on a line of their own where the row has no room (80 columns: a 70-column dialog). */
START_TEST(devices_dialog_fits_its_width) {
    open_app();
    engine_device dev = {.index = 0};
    engine_device *devs = app.devs;
    app.devs = &dev;
    app.n_devs = 1;
    app.devs_state = 2;
    snprintf(app.devs[0].type, sizeof app.devs[0].type, "CPU");
    snprintf(app.devs[0].name, sizeof app.devs[0].name, "pthread-haswell-AMD EPYC 7B13 64-Core Processor");
    snprintf(app.devs[0].platform, sizeof app.devs[0].platform, "Portable Computing Language");
    st_doc d;
    st_doc_init(&d);
    char title[64];
    ui_overlay_doc(&app, OV_DEVICES, 70, &d, title, sizeof title);
    for (int i = 0; i < d.n; i++) ck_assert_int_le(st_line_width(&d.lines[i]), 70);
    ck_assert_int_ge(doc_has(&d, "64-Core Processor"), 0);
    ck_assert_int_ge(doc_has(&d, "Portable Computing Language  (default)"), 0);
    /* a wide dialog keeps them on the name's row */
    st_doc_clear(&d);
    ui_overlay_doc(&app, OV_DEVICES, 120, &d, title, sizeof title);
    ck_assert_int_eq(doc_has(&d, "64-Core Processor"), doc_has(&d, "(default)"));
    st_doc_free(&d);
    app.devs = devs;
    app.n_devs = 0;
    close_app();
}
END_TEST

START_TEST(every_action_has_a_key) {
    struct stat in_before;
    ck_assert_int_eq(fstat(STDIN_FILENO, &in_before), 0);
    open_app();
    ui_app_key(&app, '2');
    /* S: the sizes, the chapter's first; choosing another runs at it, and the chapter's own is no choice to keep */
    ui_app_key(&app, 'S');
    ck_assert_int_eq(app.st.overlay, OV_SIZES);
    ck_assert_int_ge(app.st.n_sizes, 3);
    frame(30, 100);
    ck_assert_int_ge(doc_has(&app.frame.dialog_doc, app.ch.l->default_size), 0);
    ck_assert_int_ge(doc_has(&app.frame.dialog_doc, "onebin"), 0);
    ui_app_key(&app, TK_DOWN);
    ui_app_key(&app, TK_ENTER);
    ck_assert_int_eq(app.st.overlay, OV_NONE);
    ck_assert_str_ne(app.ch.size_spec, "");
    ck_assert_ptr_nonnull(strstr(app.note, "--size"));
    ck_assert_int_ne(app.ch.run_id, 0);
    ui_app_key(&app, 'S');
    ui_app_key(&app, TK_HOME);
    ui_app_key(&app, TK_ENTER);
    ck_assert_str_eq(app.ch.size_spec, "");
    /* T: the time limit, round the four */
    double before = app.timeout_s;
    ui_app_key(&app, 'T');
    ck_assert(app.timeout_s != before);
    ck_assert_ptr_nonnull(strstr(app.note, "--timeout"));
    for (int i = 0; i < 3; i++) ui_app_key(&app, 'T');
    ck_assert(app.timeout_s == before);
    /* B: the chapter's files; a listing shows in the kernel pane and runs at the size that shows its bug */
    ui_app_key(&app, 'q');
    int with_bugs = -1;
    for (int i = 0; i < app.cat.count && with_bugs < 0; i++)
        if (app.cat.items[i].n_bugs > 0) with_bugs = i;
    ck_assert_int_ge(with_bugs, 0);
    ui_app_key(&app, '0' + app.cat.items[with_bugs].number);
    ui_app_key(&app, 'B');
    ck_assert_int_eq(app.st.overlay, OV_FILES);
    ck_assert_int_eq(app.st.n_files, 1 + app.ch.l->n_bugs);
    ui_app_key(&app, TK_DOWN);
    ui_app_key(&app, TK_ENTER);
    ck_assert_int_eq(app.ch.file, 1);
    ck_assert_ptr_nonnull(strstr(app.ch.display, app.ch.l->bugs[0].file));
    ck_assert_str_eq(ui_chapter_size(&app), app.ch.l->bugs[0].exposes);
    struct stat in_after;
    ck_assert_msg(fstat(STDIN_FILENO, &in_after) == 0 && in_after.st_ino == in_before.st_ino &&
                      in_after.st_dev == in_before.st_dev,
                  "opening a chapter and switching its files closed standard input (the keys)");
    /* C: the whole check, on the chapter's own kernel */
    ui_app_key(&app, 'C');
    ck_assert_int_eq(app.ch.file, 0);
    ck_assert_int_ne(app.ch.vd_id, 0);
    ck_assert_int_eq(app.st.tab, TAB_RESULT);
    close_app();
}
END_TEST

/* A command line in a lesson comes with the key that does the same in the course. */
START_TEST(lesson_commands_name_their_keys) {
    setlocale(LC_ALL, "C.UTF-8");
    i18n_set_lang("en");
    const char *md = "Run `cltutor check 3` first, then `cltutor analyze 3 --size 1000x16`, `cltutor run 3 --size 10x4`,\n"
                     "`cltutor run 3 --kernel exercises/03-coalesced/bug-no-guard.cl` and `cltutor bench 3`.\n";
    st_doc d;
    st_doc_init(&d);
    mdr_render_notes(md, strlen(md), 200, ui_key_for_command, NULL, &d);
    const char *t = st_line_text(&d.lines[0]);
    ck_assert_ptr_nonnull(strstr(t, "cltutor check 3 (key C)"));
    ck_assert_ptr_nonnull(strstr(t, "--size 1000x16 (key a)"));
    ck_assert_ptr_nonnull(strstr(t, "cltutor run 3 --size 10x4 (key S)"));
    ck_assert_ptr_nonnull(strstr(t, "bug-no-guard.cl (key B)"));
    ck_assert_ptr_null(strstr(t, "bench 3 (key"));
    st_doc_free(&d);
}
END_TEST

/* The app's jobs read the environment from their threads: change it under its lock. */
static void set_var(const char *name, const char *value) {
    util_env_lock();
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    util_env_unlock();
}

/* The editor's command line: the line goes where each editor wants it. */
START_TEST(editor_command_names_the_line) {
    open_app();
    ui_app_key(&app, '1');
    set_var("VISUAL", "/bin/true");
    ui_editor ed;
    ck_assert_int_eq(ui_app_editor(&app, 12, &ed), 0);
    ck_assert_str_eq(ed.argv[0], "/bin/sh");
    ck_assert_str_eq(ed.argv[4], "+12");
    ck_assert_str_eq(ed.argv[5], app.ch.kernel_path);
    ck_assert_ptr_null(ed.argv[6]);
    set_var("VISUAL", "no-such-editor-here");
    set_var("EDITOR", "nor-this-one");
    set_var("PATH", "/nonexistent"); /* nano and vi are not found either */
    ck_assert_int_eq(ui_app_editor(&app, 0, &ed), -1);
    ck_assert_int_eq(app.st.overlay, OV_MESSAGE);
    ck_assert_ptr_nonnull(strstr(app.st.message, "No editor found (tried: no-such-editor-here, nor-this-one"));
    set_var("PATH", "/usr/bin:/bin");
    set_var("VISUAL", NULL);
    set_var("EDITOR", NULL);
    close_app();
}
END_TEST

Suite *uiapp_suite(void) {
    Suite *s = suite_create("uiapp");
    TCase *t = tcase_create("uiapp");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, frames_are_laid_out_before_drawing);
    tcase_add_test(t, editor_command_names_the_line);
    tcase_add_test(t, every_action_has_a_key);
    tcase_add_test(t, devices_dialog_fits_its_width);
    tcase_add_test(t, lesson_commands_name_their_keys);
    suite_add_tcase(s, t);
    return s;
}
