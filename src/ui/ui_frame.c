/* ui_frame — lays out one frame of the course (panes, the chapter list,
 * the dialog) and builds what it shows, before the view draws it: the view
 * reads this and changes nothing. */
#include "ui/ui_app.h"
#include "base/util.h"
#include "text/mdrender.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *title_of(const lesson *l) {
    return !strcmp(i18n_lang(), "zh") && l->title_zh[0] ? l->title_zh : l->title;
}

const char *ui_home_welcome(const ui_app *a, char *buf, size_t len) {
    const lesson *last = a->prog.last[0] ? catalog_find(&a->cat, a->prog.last) : NULL;
    if (last) util_textf(buf, len, _("Welcome back. You left off at chapter %d, %s."), last->number, title_of(last));
    else util_copy_text(buf, len, _("Welcome. Each chapter is a kernel to write: read, edit, run, and see why it is fast or slow."));
    return buf;
}

/* The chapter's one-line summary in the current language: lesson.ini's in
 * English; in Chinese the first paragraph of lesson.zh.md (its goal). */
const char *ui_chapter_summary(const lesson *l, char *buf, size_t len) {
    if (strcmp(i18n_lang(), "zh")) return l->summary;
    char path[1200];
    lesson_text_path(l, "zh", path, sizeof path);
    char *md = util_read_file(path, NULL);
    if (!md) return l->summary;
    buf[0] = '\0';
    size_t used = 0;
    int in_para = 0;
    for (char *line = strtok(md, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\r') {
            if (in_para) break;
            continue;
        }
        if (!line[0]) continue;
        in_para = 1;
        snprintf(buf + used, len - used, "%s", line);
        used = strlen(buf);
        if (used + 1 >= len) break;
    }
    free(md);
    return buf[0] ? buf : l->summary;
}

/* How many rows text takes when broken once at a space to fit w (1 or 2). */
static int rows_of_two(const char *s, int w) {
    int cols;
    size_t len = strlen(s), n = st_fit(s, len, w, &cols);
    if (n == len) return 1;
    while (n > 0 && s[n] != ' ') n--;
    return n > 0 ? 2 : 1;
}

static void scroll_limits(tui_list *v, int rows, int len) {
    v->rows = rows;
    v->len = len;
    tui_list_clamp(v);
}

static void prepare_home(ui_app *a, ui_frame *f) {
    char welcome[600], first[1200];
    f->home_welcome_rows = rows_of_two(ui_home_welcome(a, welcome, sizeof welcome), f->cols - 4);
    f->home_warn_rows = 0;
    if (a->warn[0]) { /* the first warning, up to three rows */
        util_copy_text(first, sizeof first, a->warn);
        char *nl = strchr(first, '\n');
        if (nl) *nl = '\0';
        st_doc wd;
        st_doc_init(&wd);
        st_doc_wrap(&wd, f->cols - 4, ST_WARN | ST_A_BOLD, first, "", "", ST_NORMAL);
        f->home_warn_rows = wd.n < 3 ? wd.n : 3;
        st_doc_free(&wd);
    }
    /* header, blank, welcome, progress, warning, blank, column titles */
    int y = 1 + 1 + f->home_welcome_rows + 1 + f->home_warn_rows + 1 + 1;
    f->home_list_y = y;
    f->home_title_w = f->cols - 9 - 2 - 16 - 12 - 6 - 2;
    if (f->home_title_w < 16) f->home_title_w = 16;
    int detail_rows = 6;
    f->home_list_rows = f->rows - 1 - y - detail_rows;
    if (f->home_list_rows < 3) f->home_list_rows = f->rows - 1 - y - 1;
    scroll_limits(&a->st.home, f->home_list_rows, a->cat.count);
}

/* The kernel pane: its gutter, and where the GPU model's notes go. */
static void prepare_kernel(ui_app *a, ui_frame *f) {
    ui_chapter *c = &a->ch;
    ui_rect b = f->kernel;
    f->kernel_digits = 1;
    for (int n = c->kernel_doc.n; n >= 10; n /= 10) f->kernel_digits++;
    if (f->kernel_digits < 2) f->kernel_digits = 2;
    f->kernel_gutter = f->kernel_digits + 3;
    int any_note = 0;
    f->kernel_code_w = 0;
    for (int i = 0; i < c->kernel_doc.n; i++) {
        if (ui_gm_note(a, i + 1)) any_note = 1;
        int w = st_line_width(&c->kernel_doc.lines[i]);
        if (w > f->kernel_code_w) f->kernel_code_w = w;
    }
    f->note_beside = any_note && b.w - f->kernel_gutter - f->kernel_code_w - 3 >= 30;
    f->note_bar = any_note && !f->note_beside && b.h >= 8;
    tui_list *v = &a->st.pane[PANE_KERNEL];
    scroll_limits(v, b.h - 1, c->kernel_doc.n);
    if (f->note_bar && b.h >= 12) {
        const char *note = ui_gm_note(a, v->cur + 1);
        const char *text = note ? note : _("GPU model notes on the marked lines: move the cursor there (8: the report)");
        if (st_widths(text) + 8 > b.w - 1) f->note_bar = 2;
    }
    scroll_limits(v, b.h - 1 - f->note_bar, c->kernel_doc.n);
}

/* The key that does in the course what a command line in a lesson does:
 * `cltutor check 2` is C, `--size` S, `cltutor analyze` a, ... */
const char *ui_key_for_command(const char *code, void *user) {
    (void)user;
    static const struct {
        const char *starts, *has, *note;
    } keys[] = {
        {"cltutor check", NULL, N_(" (key C)")},   {"cltutor analyze", NULL, N_(" (key a)")},
        {"cltutor reset", NULL, N_(" (keys X X)")}, {"cltutor run", "bug-", N_(" (key B)")},
        {"cltutor run", "--kernel", N_(" (key B)")}, {"cltutor run", "--size", N_(" (key S)")},
        {"cltutor run", "--timeout", N_(" (key T)")}, {"cltutor run", "--device", N_(" (key d)")},
        {"cltutor run", NULL, N_(" (key r)")},      {"--size", NULL, N_(" (key S)")},
        {"--timeout", NULL, N_(" (key T)")},        {"--device", NULL, N_(" (key d)")},
        {"cltutor devices", NULL, N_(" (key d)")},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strncmp(code, keys[i].starts, strlen(keys[i].starts)) && (!keys[i].has || strstr(code, keys[i].has)))
            return _(keys[i].note);
    return NULL;
}

static void prepare_lesson(ui_app *a, ui_frame *f) {
    ui_chapter *c = &a->ch;
    int w = f->lesson.w - 2;
    if (c->lesson_w != w) {
        st_doc_clear(&c->lesson_doc);
        mdr_render_notes(c->lesson_md, strlen(c->lesson_md), w, ui_key_for_command, a, &c->lesson_doc);
        c->lesson_w = w;
    }
    scroll_limits(&a->st.pane[PANE_LESSON], f->lesson.h - 1, c->lesson_doc.n);
}

static void prepare_chapter(ui_app *a, ui_frame *f) {
    int avail = f->rows - 2;
    tui_state *st = &a->st;
    memset(&f->lesson, 0, sizeof f->lesson);
    f->kernel = f->results = f->lesson;
    if (st->zoom) {
        ui_rect whole = {1, 0, avail, f->cols};
        if (st->focus == PANE_LESSON) f->lesson = whole;
        else if (st->focus == PANE_KERNEL) f->kernel = whole;
        else f->results = whole;
    } else {
        int rh = avail * 2 / 5;
        if (rh < 7) rh = 7;
        int th = avail - rh;
        f->results = (ui_rect){1 + th, 0, rh, f->cols};
        if (f->cols >= 90) {
            int lw = f->cols * 9 / 20;
            if (lw > 80) lw = 80; /* lines of prose read best under 80 columns; the code gets the rest */
            f->lesson = (ui_rect){1, 0, th, lw};
            f->kernel = (ui_rect){1, lw + 1, th, f->cols - lw - 1};
        } else if (st->focus == PANE_LESSON) {
            f->lesson = (ui_rect){1, 0, th, f->cols};
        } else {
            f->kernel = (ui_rect){1, 0, th, f->cols};
        }
    }
    if (f->lesson.w) prepare_lesson(a, f);
    if (f->kernel.w) prepare_kernel(a, f);
    if (f->results.w) {
        ui_tab_doc(a, st->tab, f->results.w - 2);
        tui_list *v = &st->tabs[st->tab];
        v->has_cursor = tui_tab_has_cursor(st->tab);
        scroll_limits(v, f->results.h - 1, a->ch.tabs[st->tab].n);
    }
}

static void prepare_dialog(ui_app *a, ui_frame *f) {
    int w = f->cols - 6;
    if (a->st.overlay == OV_WARP) w = f->cols; /* 16 lanes a row need 72 columns */
    if (w > 92) w = 92;
    f->dialog_title[0] = '\0';
    ui_overlay_doc(a, a->st.overlay, w - 4, &f->dialog_doc, f->dialog_title, sizeof f->dialog_title);
    int h = f->dialog_doc.n + 2;
    if (h > f->rows - 2) h = f->rows - 2;
    if (h < 3) h = 3;
    f->dialog = (ui_rect){(f->rows - h) / 2, (f->cols - w) / 2, h, w};
    tui_list *v = &a->st.overlay_list;
    int want_end = v->top >= (1 << 20); /* the newest hint */
    tui_overlay ov = a->st.overlay;
    int items = ov == OV_DEVICES ? a->n_devs : ov == OV_SIZES ? a->st.n_sizes : ov == OV_FILES ? a->st.n_files : -1;
    scroll_limits(v, h - 2, items < 0 ? f->dialog_doc.n : items > 0 ? items : 1);
    if (want_end) v->top = f->dialog_doc.n - v->rows > 0 ? f->dialog_doc.n - v->rows : 0;
}

/* Each chapter's state for its exercise as it is now: the open chapter's text in the editor's file, the
 * others' on disk. */
static void prepare_states(ui_app *a, ui_frame *f) {
    f->passed = 0;
    f->next = -1;
    for (int i = 0; i < a->cat.count && i < CATALOG_MAX; i++) {
        const progress_chapter *pc = progress_find(&a->prog, a->cat.items[i].id);
        progress_state s = pc ? pc->state : PROG_NOT_STARTED;
        char path[1400];
        if (s == PROG_PASSED && a->in_chapter && a->ch.index == i) {
            s = progress_state_now(pc, a->ch.kernel_hash);
        } else if (s == PROG_PASSED) {
            paths_exercise_path(&a->paths, &a->cat.items[i], path, sizeof path);
            s = progress_state_of_file(pc, path);
        }
        f->state[i] = s;
        f->passed += s == PROG_PASSED;
        if (f->next < 0 && s != PROG_PASSED) f->next = i;
    }
    a->st.next_offered = a->in_chapter && a->ch.index + 1 < a->cat.count && a->ch.index < CATALOG_MAX &&
                         f->state[a->ch.index] == PROG_PASSED;
}

void ui_frame_prepare(ui_app *a) {
    ui_frame *f = &a->frame;
    prepare_states(a, f);
    st_doc_free(&f->dialog_doc);
    f->rows = a->rows;
    f->cols = a->cols;
    f->job_kind = tui_jobs_status(&a->jobs, &f->job_id, &f->job_progress);
    f->too_small = f->cols < UI_MIN_COLS || f->rows < UI_MIN_ROWS;
    if (f->too_small) return;
    if (a->in_chapter && a->st.screen == SCR_CHAPTER) prepare_chapter(a, f);
    else prepare_home(a, f);
    if (a->st.overlay != OV_NONE) prepare_dialog(a, f);
}

void ui_frame_free(ui_frame *f) { st_doc_free(&f->dialog_doc); }
