/* test_tui — unit tests of the terminal UI's curses-free model: styled text
 * and wrapping, OpenCL highlighting, Markdown rendering, source diffs, key
 * handling, results and history, translations, the file watcher, the job queue. */
#define _GNU_SOURCE
#include "suites.h"
#include "text/diag.h"
#include "course/workspace.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/clhl.h"
#include "text/mdrender.h"
#include "text/srcdiff.h"
#include "text/stext.h"
#include "ui/tui_help.h"
#include "ui/tui_jobs.h"
#include "ui/tui_build.h"
#include "ui/tui_results.h"
#include "ui/tui_state.h"
#include "text/i18n.h"
#include "ui/tui_watch.h"
#include "base/util.h"

/* The catalogue beside the test program (build/locale, made by msgfmt from
 * po/zh_CN.po), with the environment's LANGUAGE out of the way. */
static void load_catalog(void) {
    char dir[4096];
    unsetenv("LANGUAGE");
    ck_assert_int_eq(util_exe_dir(dir, sizeof dir), 0);
    i18n_init(dir, "/nonexistent");
}

static void utf8_locale(void) {
    load_catalog();
    setlocale(LC_ALL, "C.UTF-8");
    i18n_set_lang("en");
}

/* The style of the span holding the first occurrence of word in line. */
static int style_of(const st_line *l, const char *word) {
    const char *p = strstr(st_line_text(l), word);
    if (!p) return -1;
    int off = (int)(p - l->text);
    for (int i = 0; i < l->n_spans; i++)
        if (off >= l->spans[i].off && off < l->spans[i].off + l->spans[i].len) return l->spans[i].style;
    return -1;
}

static int doc_has(const st_doc *d, const char *text) {
    for (int i = 0; i < d->n; i++)
        if (strstr(st_line_text(&d->lines[i]), text)) return i;
    return -1;
}

static int doc_max_width(const st_doc *d) {
    int w = 0;
    for (int i = 0; i < d->n; i++)
        if (st_line_width(&d->lines[i]) > w) w = st_line_width(&d->lines[i]);
    return w;
}

/* ---- stext ---- */

START_TEST(stext_widths) {
    ck_assert_int_eq(st_widths("histogram"), 9);
    ck_assert_int_eq(st_widths("直方图"), 6);
    ck_assert_int_eq(st_widths("a直b"), 4);
    ck_assert_int_eq(st_widths("e\xcc\x81"), 1); /* e + combining acute */
    int cols;
    size_t n = st_fit("a直方", strlen("a直方"), 4, &cols);
    ck_assert_int_eq(cols, 3); /* the second wide character does not fit in the last column */
    ck_assert_int_eq((int)n, 4);
    int extra;
    size_t skip = st_skip("直方图", strlen("直方图"), 1, &extra);
    ck_assert_int_eq((int)skip, 3);
    ck_assert_int_eq(extra, 1);
    st_line pl;
    memset(&pl, 0, sizeof pl);
    st_line_pad(&pl, ST_NORMAL, "格子", 9, 1);
    st_line_pad(&pl, ST_NORMAL, "ab", 4, 0);
    ck_assert_int_eq(st_line_width(&pl), 13);
    ck_assert_str_eq(st_line_text(&pl), "     格子ab  ");
    st_line_free(&pl);
    char buf[32];
    st_fmt_ms(buf, sizeof buf, 86.1234);
    ck_assert_str_eq(buf, "86.12 ms");
    st_fmt_ms(buf, sizeof buf, 0.0123);
    ck_assert_str_eq(buf, "12.3 us");
    st_fmt_ms(buf, sizeof buf, 1234);
    ck_assert_str_eq(buf, "1.23 s");
}
END_TEST

START_TEST(stext_wrap_english_and_chinese) {
    st_para p;
    st_para_init(&p);
    const char *en = "Two work-items can update the same bin at once and lose a count.";
    st_para_add(&p, ST_NORMAL, en, strlen(en));
    st_doc d;
    st_doc_init(&d);
    st_para_wrap(&p, 20, "- ", "  ", ST_DIM, &d);
    ck_assert_int_gt(d.n, 2);
    ck_assert(doc_max_width(&d) <= 20);
    ck_assert(!strncmp(st_line_text(&d.lines[0]), "- Two", 5));
    ck_assert(!strncmp(st_line_text(&d.lines[1]), "  ", 2));
    for (int i = 0; i < d.n; i++) ck_assert(st_line_text(&d.lines[i])[st_line_width(&d.lines[i]) - 1] != ' ');
    st_para_free(&p);
    st_doc_free(&d);

    st_para_init(&p);
    const char *zh = "两个工作项可能同时更新同一个直方图格子，histogram[nearest] += 1 会丢失计数。请改用原子操作。";
    st_para_add(&p, ST_NORMAL, zh, strlen(zh));
    st_doc_init(&d);
    st_para_wrap(&p, 16, "", "", ST_NORMAL, &d);
    ck_assert(doc_max_width(&d) <= 16);
    ck_assert_int_gt(d.n, 4);
    for (int i = 0; i < d.n; i++) {
        const char *t = st_line_text(&d.lines[i]);
        ck_assert_msg(strncmp(t, "，", strlen("，")) && strncmp(t, "。", strlen("。")), "line starts with punctuation: %s", t);
    }
    /* nothing lost: the lines joined give the text back (spaces aside) */
    char joined[512] = "";
    for (int i = 0; i < d.n; i++) strcat(joined, st_line_text(&d.lines[i]));
    ck_assert(strstr(joined, "请改用原子操作。"));
    st_para_free(&p);
    st_doc_free(&d);
}
END_TEST

START_TEST(stext_row_hangs_its_details) {
    utf8_locale();
    const char *row = "   23:63     global   load        4      1024           1       100%  every work-item of a warp reads the same address (broadcast)";
    st_doc d;
    st_doc_init(&d);
    int col = (int)(strstr(row, "every") - row), width = col + 41;
    st_doc_add_row(&d, row, ST_NORMAL, width, 23); /* "every ... the same" fits in 41 */
    ck_assert_int_eq(d.n, 2);
    const char *second = st_line_text(&d.lines[1]);
    ck_assert_int_eq((int)strspn(second, " "), col);            /* under the details */
    ck_assert_str_eq(second + col, "address (broadcast)");        /* broken between words */
    for (int i = 0; i < d.n; i++) {
        ck_assert_int_le(st_line_width(&d.lines[i]), width);
        ck_assert_int_eq(d.lines[i].tag, 23);
    }
    st_doc_clear(&d);
    /* details that would hang in fewer than 30 columns go on lines of their own under the row */
    width = col + 20;
    st_doc_add_row(&d, row, ST_NORMAL, width, 23);
    ck_assert_int_eq(d.n, 2);
    ck_assert_str_eq(st_line_text(&d.lines[0]), "   23:63     global   load        4      1024           1       100%");
    ck_assert_str_eq(st_line_text(&d.lines[1]), "       every work-item of a warp reads the same address (broadcast)");
    ck_assert_int_eq(d.lines[1].tag, 23);
    st_doc_clear(&d);
    /* a row that fits is left alone; one without room for its details is cut */
    st_doc_add_row(&d, "  1:2  short", ST_NORMAL, 100, 1);
    ck_assert_int_eq(d.n, 1);
    st_doc_clear(&d);
    st_doc_add_row(&d, row, ST_NORMAL, 40, 23);
    ck_assert_int_gt(d.n, 1);
    for (int i = 0; i < d.n; i++) ck_assert_int_le(st_line_width(&d.lines[i]), 40);
    st_doc_free(&d);
}
END_TEST

START_TEST(stext_hard_breaks_and_styles) {
    st_para p;
    st_para_init(&p);
    st_para_add(&p, ST_NORMAL, "one ", 4);
    st_para_add(&p, ST_CODE, "two", 3);
    st_para_add(&p, ST_NORMAL, "\nthree", 6);
    st_doc d;
    st_doc_init(&d);
    ck_assert_int_eq(st_para_wrap(&p, 40, "", "", ST_NORMAL, &d), 2);
    ck_assert_str_eq(st_line_text(&d.lines[0]), "one two");
    ck_assert_str_eq(st_line_text(&d.lines[1]), "three");
    ck_assert_int_eq(style_of(&d.lines[0], "two"), ST_CODE);
    st_para_free(&p);
    st_doc_free(&d);
    st_line l;
    memset(&l, 0, sizeof l);
    st_line_adds(&l, ST_KEYWORD, "abcdefghij");
    st_doc_init(&d);
    st_line_wrap_hard(&l, 6, "> ", "+ ", ST_DIM, &d);
    ck_assert_int_eq(d.n, 3);
    ck_assert_str_eq(st_line_text(&d.lines[0]), "> abcd");
    ck_assert_str_eq(st_line_text(&d.lines[2]), "+ ij");
    st_line_free(&l);
    st_doc_free(&d);
}
END_TEST

/* ---- clhl ---- */

START_TEST(clhl_styles) {
    st_line l;
    memset(&l, 0, sizeof l);
    int state = 0;
    const char *src = "__kernel void f(__global float4 *p) { int i = get_global_id(0); atomic_inc(&h[i]); } // done";
    clhl_line(&l, src, strlen(src), &state, 4);
    ck_assert_str_eq(st_line_text(&l), src);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "__kernel")), ST_QUAL);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "void")), ST_TYPE);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "float4")), ST_TYPE);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "get_global_id")), ST_BUILTIN);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "atomic_inc")), ST_BUILTIN);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "0)")), ST_NUMBER);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "// done")), ST_COMMENT);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "f(")), ST_NORMAL);
    st_line_free(&l);
    /* block comments carry over lines; tabs expand */
    memset(&l, 0, sizeof l);
    clhl_line(&l, "x = 1; /* start", 15, &state, 4);
    ck_assert_int_eq(state, 1);
    st_line_free(&l);
    memset(&l, 0, sizeof l);
    clhl_line(&l, "still */\tint", 12, &state, 4);
    ck_assert_int_eq(state, 0);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "still")), ST_COMMENT);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "int")), ST_TYPE);
    ck_assert_str_eq(st_line_text(&l), "still */    int");
    st_line_free(&l);
    memset(&l, 0, sizeof l);
    clhl_line(&l, "#define N 64 // size", 20, &state, 4);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "#define")), ST_PREPROC);
    ck_assert_int_eq(ST_ROLE(style_of(&l, "// size")), ST_COMMENT);
    st_line_free(&l);
    ck_assert_int_eq(ST_ROLE(clhl_word_style("uchar16", 7)), ST_TYPE);
    ck_assert_int_eq(ST_ROLE(clhl_word_style("uchar5", 6)), ST_NORMAL);
}
END_TEST

/* ---- mdrender ---- */

static const char sample_md[] =
    "# Chapter 2: Atomic histogram\n\n"
    "Each work-item takes *one* descriptor and **votes**; use `atomic_inc` &amp; friends.\n\n"
    "## Steps\n\n"
    "1. Replace the loop\n2. Guard the tail with a long sentence that must wrap onto the next line\n"
    "   - nested\n\n"
    "> A quote.\n\n"
    "```c\n__kernel void k(__global int *h) {\n    atomic_inc(&h[get_global_id(0)]);\n}\n```\n\n"
    "| kernel | H200 |\n|---|---:|\n| GPU1 | 17.6 ms |\n| GPU2 coalesced | 2.90 ms |\n\n"
    "中文段落：每个工作项处理一个描述符，很多工作项会同时更新同一个格子，所以更新必须是原子操作。\n";

START_TEST(md_renders_blocks) {
    utf8_locale();
    st_doc d;
    st_doc_init(&d);
    ck_assert_int_eq(mdr_render(sample_md, strlen(sample_md), 40, &d), 0);
    ck_assert_int_le(doc_max_width(&d), 40);
    int h1 = doc_has(&d, "Chapter 2: Atomic histogram");
    ck_assert_int_ge(h1, 0);
    ck_assert_int_eq(d.lines[h1].tag, MDR_HEADING_TAG + 1);
    ck_assert_int_eq(d.lines[doc_has(&d, "Steps")].tag, MDR_HEADING_TAG + 2);
    int p = doc_has(&d, "Each work-item");
    ck_assert(style_of(&d.lines[p], "one") & ST_A_ITALIC);
    ck_assert(style_of(&d.lines[p], "votes") & ST_A_BOLD);
    int ic = doc_has(&d, "atomic_inc");
    ck_assert_int_eq(ST_ROLE(style_of(&d.lines[ic], "atomic_inc")), ST_CODE);
    ck_assert_int_ge(doc_has(&d, "& friends"), 0);
    ck_assert_int_ge(doc_has(&d, "1. Replace the loop"), 0);
    int item2 = doc_has(&d, "2. Guard");
    ck_assert(!strncmp(st_line_text(&d.lines[item2 + 1]), "   ", 3)); /* continuation under the text */
    ck_assert_int_ge(doc_has(&d, "│ A quote."), 0);
    int code = doc_has(&d, "atomic_inc(&h[");
    ck_assert_int_eq(ST_ROLE(style_of(&d.lines[code], "atomic_inc")), ST_BUILTIN);
    int row = doc_has(&d, "GPU1");
    ck_assert(strstr(st_line_text(&d.lines[row]), "│"));
    ck_assert_int_ge(doc_has(&d, "─┼─"), 0);
    /* the right-aligned column ends at the same column in both rows */
    int r2 = doc_has(&d, "GPU2 coalesced");
    ck_assert_int_eq(st_line_width(&d.lines[row]), st_line_width(&d.lines[r2]));
    ck_assert_int_ge(doc_has(&d, "中文段落"), 0);
    st_doc_free(&d);
}
END_TEST

START_TEST(md_fits_every_width) {
    utf8_locale();
    for (int w = 12; w <= 100; w += 7) {
        st_doc d;
        st_doc_init(&d);
        mdr_render(sample_md, strlen(sample_md), w, &d);
        /* tables may not shrink below their separators; everything else fits */
        for (int i = 0; i < d.n; i++) {
            const char *t = st_line_text(&d.lines[i]);
            if (strstr(t, " │ ") || strstr(t, "─┼─")) continue;
            ck_assert_msg(st_line_width(&d.lines[i]) <= w, "width %d: '%s' is %d wide", w, t, st_line_width(&d.lines[i]));
        }
        st_doc_free(&d);
    }
}
END_TEST

/* A table too narrow for its numbers is stacked, one record a block, rather than breaking 262,144 into "262,14" / "4". */
START_TEST(md_narrow_table_stacks) {
    utf8_locale();
    const char *md = "| stage | device | median | speed-up |\n|---|---|---:|---:|\n"
                     "| GPU1 atomic | NVIDIA H100 | 17.613 ms | 262,144.5x |\n| GPU2 coalesced | NVIDIA H100 | 5.402 ms | 3.26x |\n";
    st_doc d;
    st_doc_init(&d);
    mdr_render(md, strlen(md), 100, &d);
    ck_assert_int_ge(doc_has(&d, "─┼─"), 0); /* wide enough: a table */
    st_doc_clear(&d);
    mdr_render(md, strlen(md), 40, &d);
    ck_assert_int_lt(doc_has(&d, "─┼─"), 0); /* too narrow: stacked */
    ck_assert_int_ge(doc_has(&d, "speed-up: 262,144.5x"), 0);
    ck_assert_int_ge(doc_has(&d, "stage: GPU2 coalesced"), 0);
    for (int i = 0; i < d.n; i++) ck_assert_int_le(st_line_width(&d.lines[i]), 40);
    st_doc_free(&d);
}
END_TEST

START_TEST(md_joins_chinese_lines) {
    utf8_locale();
    /* a line break between two Chinese characters is no space; next to
     * Latin text or after a Latin word it is one */
    const char *md = "每个工作项\n处理一个描述符，\n再用 atomic_add\n加到格子里。用\nuint4 读取，and\nthen more.\n";
    st_doc d;
    st_doc_init(&d);
    mdr_render(md, strlen(md), 200, &d);
    ck_assert_int_eq(d.n, 1);
    ck_assert_str_eq(st_line_text(&d.lines[0]), "每个工作项处理一个描述符，再用 atomic_add 加到格子里。用 uint4 读取，and then more.");
    st_doc_free(&d);
}
END_TEST

/* ---- srcdiff ---- */

START_TEST(diff_lines) {
    utf8_locale();
    sd_diff d;
    ck_assert_int_eq(srcdiff_compute("a\nb\nc\n", "a\nb\nc\n", &d), 0);
    ck_assert_int_eq(d.n_add + d.n_del, 0);
    srcdiff_free(&d);
    /* re-indented, re-spaced or with spaces at the end: not a change; a changed token is */
    ck_assert_int_eq(srcdiff_compute("if (i < n) {\n  h[b]++;\n}\n", "if (i<n) {\n\t    h[b]++;  \r\n}\n", &d), 0);
    ck_assert_int_eq(d.n_add + d.n_del, 0);
    srcdiff_free(&d);
    ck_assert_int_eq(srcdiff_compute("h[b]++;\n", "h[b] += 2;\n", &d), 0);
    ck_assert_int_eq(d.n_add + d.n_del, 2);
    srcdiff_free(&d);
    ck_assert_int_eq(srcdiff_compute("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n", &d), 0);
    ck_assert_int_eq(d.n_del, 1);
    ck_assert_int_eq(d.n_add, 2);
    ck_assert_int_eq(d.rows[1].op, SD_DEL);
    ck_assert_int_eq(d.rows[2].op, SD_ADD);
    ck_assert_int_eq(d.rows[2].b_line, 2);
    ck_assert_int_eq(d.rows[d.n - 1].op, SD_ADD);
    ck_assert_int_eq(d.rows[d.n - 1].b_line, 5);
    st_doc out;
    st_doc_init(&out);
    srcdiff_render(&d, 1, "old.cl", "new.cl", 1, &out);
    ck_assert_str_eq(st_line_text(&out.lines[0]), "--- old.cl");
    ck_assert_str_eq(st_line_text(&out.lines[1]), "+++ new.cl");
    ck_assert(!strncmp(st_line_text(&out.lines[2]), "@@ -1,", 6));
    int del = doc_has(&out, "- b");
    ck_assert_int_ge(del, 0);
    ck_assert_int_eq(ST_ROLE(out.lines[del].spans[out.lines[del].n_spans - 1].style), ST_DEL);
    ck_assert_int_eq(out.lines[doc_has(&out, "+ B")].tag, 2);
    ck_assert_int_eq(out.lines[del].tag, 1); /* a removed line points at the line before it */
    st_doc_free(&out);
    srcdiff_free(&d);
    /* trailing spaces do not count; far-apart changes make two hunks */
    char a[2000] = "", b[2000] = "";
    for (int i = 0; i < 40; i++) {
        char l[32];
        snprintf(l, sizeof l, "line %d\n", i);
        strcat(a, l);
        snprintf(l, sizeof l, i == 3 ? "line %d changed\n" : i == 30 ? "line %d changed\n" : "line %d  \n", i);
        strcat(b, l);
    }
    ck_assert_int_eq(srcdiff_compute(a, b, &d), 0);
    ck_assert_int_eq(d.n_add, 2);
    st_doc_init(&out);
    srcdiff_render(&d, 3, "a", "b", 0, &out);
    int hunks = 0;
    for (int i = 0; i < out.n; i++) hunks += !strncmp(st_line_text(&out.lines[i]), "@@", 2);
    ck_assert_int_eq(hunks, 2);
    st_doc_free(&out);
    srcdiff_free(&d);
}
END_TEST

/* ---- tui_state ---- */

START_TEST(state_home_keys) {
    tui_state s;
    tui_state_init(&s, 9);
    s.home.rows = 5;
    tui_action a = tui_key(&s, TK_DOWN);
    ck_assert_int_eq(a.kind, ACT_NONE);
    ck_assert_int_eq(s.home.cur, 1);
    tui_key(&s, 'G');
    ck_assert_int_eq(s.home.cur, 8);
    ck_assert_int_eq(s.home.top, 4);
    tui_key(&s, TK_DOWN);
    ck_assert_int_eq(s.home.cur, 8);
    tui_key(&s, 'g');
    ck_assert_int_eq(s.home.cur, 0);
    a = tui_key(&s, TK_ENTER);
    ck_assert_int_eq(a.kind, ACT_OPEN_CHAPTER);
    ck_assert_int_eq(a.arg, 0);
    a = tui_key(&s, '3');
    ck_assert_int_eq(a.kind, ACT_OPEN_CHAPTER);
    ck_assert_int_eq(a.arg, 2);
    ck_assert_int_eq(tui_key(&s, 'q').kind, ACT_QUIT);
    ck_assert_int_eq(tui_key(&s, 'L').kind, ACT_TOGGLE_LANG);
    a = tui_key(&s, 'd');
    ck_assert_int_eq(s.overlay, OV_DEVICES);
    ck_assert_int_eq(a.kind, ACT_RELOAD_DEVICES);
    s.n_devices = 2;
    s.overlay_list.len = 2;
    s.overlay_list.rows = 5;
    tui_key(&s, TK_DOWN);
    a = tui_key(&s, TK_ENTER);
    ck_assert_int_eq(a.kind, ACT_SET_DEVICE);
    ck_assert_int_eq(a.arg, 1);
    ck_assert_int_eq(s.overlay, OV_NONE);
}
END_TEST

START_TEST(state_chapter_keys) {
    tui_state s;
    tui_state_init(&s, 9);
    tui_open_chapter(&s);
    ck_assert_int_eq(s.screen, SCR_CHAPTER);
    ck_assert_int_eq(s.focus, PANE_KERNEL);
    ck_assert_int_eq(tui_key(&s, 'e').kind, ACT_EDIT);
    ck_assert_int_eq(tui_key(&s, 'r').kind, ACT_RUN);
    ck_assert_int_eq(tui_key(&s, 'c').kind, ACT_NONE); /* nothing runs */
    s.running = 1;
    ck_assert_int_eq(tui_key(&s, 'c').kind, ACT_CANCEL);
    ck_assert_int_eq(tui_key(&s, TK_CTRL_C).kind, ACT_CANCEL);
    s.running = 0;
    /* Ctrl-C when idle asks first */
    ck_assert_int_eq(tui_key(&s, TK_CTRL_C).kind, ACT_NONE);
    ck_assert_int_eq(s.overlay, OV_CONFIRM_QUIT);
    ck_assert_int_eq(tui_key(&s, 'n').kind, ACT_NONE);
    ck_assert_int_eq(s.overlay, OV_NONE);
    tui_key(&s, TK_CTRL_C);
    ck_assert_int_eq(tui_key(&s, 'y').kind, ACT_QUIT);
    /* panes and tabs */
    tui_key(&s, TK_TAB);
    ck_assert_int_eq(s.focus, PANE_RESULTS);
    tui_key(&s, TK_TAB);
    ck_assert_int_eq(s.focus, PANE_LESSON);
    tui_key(&s, TK_BTAB);
    ck_assert_int_eq(s.focus, PANE_RESULTS);
    tui_action a = tui_key(&s, TK_RIGHT);
    ck_assert_int_eq(a.kind, ACT_TAB_CHANGED);
    ck_assert_int_eq(s.tab, TAB_CHECK);
    a = tui_key(&s, '5');
    ck_assert_int_eq(s.tab, TAB_HISTORY);
    ck_assert_int_eq(a.kind, ACT_TAB_CHANGED);
    /* the analysis tab is off until a report exists: ] skips it */
    tui_set_tab(&s, TAB_SOLUTION);
    tui_key(&s, ']');
    ck_assert_int_eq(s.tab, TAB_RESULT);
    tui_key(&s, '[');
    ck_assert_int_eq(s.tab, TAB_SOLUTION);
    /* Enter in the build log edits at that row */
    tui_set_tab(&s, TAB_BUILD);
    s.tabs[TAB_BUILD].len = 10;
    s.tabs[TAB_BUILD].rows = 4;
    tui_key(&s, TK_DOWN);
    tui_key(&s, TK_DOWN);
    a = tui_key(&s, TK_ENTER);
    ck_assert_int_eq(a.kind, ACT_EDIT_ROW);
    ck_assert_int_eq(a.arg, 2);
    /* Enter on a kernel line edits there */
    s.focus = PANE_KERNEL;
    s.pane[PANE_KERNEL].len = 30;
    s.pane[PANE_KERNEL].rows = 10;
    tui_key(&s, TK_PGDN);
    a = tui_key(&s, TK_ENTER);
    ck_assert_int_eq(a.kind, ACT_EDIT);
    ck_assert_int_eq(a.arg, 10);
    tui_key(&s, TK_RIGHT);
    ck_assert_int_eq(s.kernel_hscroll, 8);
    /* X twice resets; anything between cancels */
    ck_assert_int_eq(tui_key(&s, 'X').kind, ACT_NONE);
    ck_assert_int_eq(tui_key(&s, 'X').kind, ACT_RESET_EXERCISE);
    tui_key(&s, 'X');
    tui_key(&s, 'j');
    ck_assert_int_eq(tui_key(&s, 'X').kind, ACT_NONE);
    a = tui_key(&s, '}');
    ck_assert_int_eq(a.kind, ACT_SECTION);
    ck_assert_int_eq(a.arg, 1);
    ck_assert_int_eq(tui_key(&s, '{').arg, -1);
    /* hints, watch, zoom, back */
    ck_assert_int_eq(tui_key(&s, 'n').kind, ACT_NEXT_HINT);
    ck_assert_int_eq(s.overlay, OV_HINTS);
    ck_assert_int_eq(tui_key(&s, TK_ENTER).kind, ACT_NEXT_HINT);
    tui_key(&s, TK_ESC);
    ck_assert_int_eq(s.overlay, OV_NONE);
    a = tui_key(&s, 'w');
    ck_assert_int_eq(a.kind, ACT_TOGGLE_WATCH);
    ck_assert_int_eq(s.watch, 0);
    tui_key(&s, 'z');
    ck_assert(s.zoom);
    tui_key(&s, TK_ESC);
    ck_assert(!s.zoom);
    ck_assert_int_eq(s.screen, SCR_CHAPTER);
    ck_assert_int_eq(tui_key(&s, 'q').kind, ACT_HOME);
    ck_assert_int_eq(s.screen, SCR_HOME);
}
END_TEST

START_TEST(state_lists_clamp) {
    tui_list v = {0};
    v.rows = 5;
    v.len = 3;
    tui_list_page(&v, 1);
    ck_assert_int_eq(v.top, 0);
    v.len = 100;
    tui_list_end(&v);
    ck_assert_int_eq(v.top, 95);
    v.has_cursor = 1;
    tui_list_goto(&v, 50);
    ck_assert(v.cur == 50 && v.top <= 50 && v.top + v.rows > 50);
    v.len = 0;
    tui_list_clamp(&v);
    ck_assert_int_eq(v.top, 0);
    ck_assert_int_eq(v.cur, 0);
}
END_TEST

/* ---- results ---- */

static const lesson *test_lesson(void) {
    static lesson l;
    memset(&l, 0, sizeof l);
    l.number = 2;
    snprintf(l.id, sizeof l.id, "02-atomic");
    snprintf(l.title, sizeof l.title, "Atomic histogram");
    snprintf(l.default_size, sizeof l.default_size, "16384x256");
    snprintf(l.problem, sizeof l.problem, "surf");
    return &l;
}

static void pass_report(engine_report *r) {
    memset(r, 0, sizeof *r);
    r->status = ENG_PASS;
    snprintf(r->headline, sizeof r->headline, "Correct");
    snprintf(r->message, sizeof r->message, "All 256 bins match the golden reference.");
    snprintf(r->device.name, sizeof r->device.name, "Test GPU");
    snprintf(r->device.type, sizeof r->device.type, "GPU");
    snprintf(r->size_text, sizeof r->size_text, "16384x256x64");
    static double samples[] = {10, 11, 10.5, 9.5, 10};
    r->samples_ms = samples;
    r->n_samples = 5;
    r->timing = stats_summarise(samples, 5);
    r->serial_ms = 150;
    r->work.bytes = 4e6;
    r->work.flops = 8e8;
    r->has_output = 1;
    r->verify.ok = 1;
}

START_TEST(results_pass_and_speedups) {
    utf8_locale();
    engine_report r;
    pass_report(&r);
    tui_results_in in = {.lesson = test_lesson(), .rep = &r, .utf8 = 1, .prev_run_ms = 12};
    in.prev_ref = (tui_ref_time){REF_DONE, 1, 200, ""};
    in.own_ref = (tui_ref_time){REF_MEASURING, 2, 0, ""};
    st_doc d;
    st_doc_init(&d);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_eq(ST_ROLE(d.lines[0].spans[0].style), ST_OK);
    ck_assert(strstr(st_line_text(&d.lines[0]), "✓ Correct"));
    ck_assert_int_ge(doc_has(&d, "median 10.00 ms"), 0);
    ck_assert_int_ge(doc_has(&d, "0.40 GB/s"), 0);
    ck_assert_int_ge(doc_has(&d, "80.00 GFLOP/s"), 0);
    ck_assert_int_ge(doc_has(&d, "vs serial C: 15.00x faster"), 0);
    ck_assert_int_ge(doc_has(&d, "vs chapter 1: 20.00x faster"), 0);
    ck_assert_int_ge(doc_has(&d, "vs your last run: 1.20x faster"), 0);
    st_doc_clear(&d);
    tui_results_timing(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "5 runs after a warm-up"), 0);
    ck_assert_int_ge(doc_has(&d, "standard error"), 0);
    ck_assert_int_ge(doc_has(&d, "chapter 1's reference"), 0);
    ck_assert(strstr(st_line_text(&d.lines[doc_has(&d, "this chapter's reference")]), "measuring"));
    ck_assert(strstr(st_line_text(&d.lines[doc_has(&d, "your previous run")]), "1.20x faster"));
    /* launches 10-15% apart say nothing more; launches spread from 8 to 19 ms say the machine is busy */
    ck_assert_int_lt(doc_has(&d, "Noisy"), 0);
    double busy[] = {10, 19, 8, 10.5, 12};
    r.samples_ms = busy;
    r.timing = stats_summarise(busy, 5);
    st_doc_clear(&d);
    tui_results_timing(&in, 80, &d);
    int noisy = doc_has(&d, "Noisy: this run's launches took 8.00 ms to 19.00 ms");
    ck_assert_int_gt(noisy, doc_has(&d, "your previous run"));
    ck_assert_int_le(doc_max_width(&d), 80);
    st_doc_free(&d);
    char buf[64];
    tui_speedup_text(100, 100.5, buf, sizeof buf);
    ck_assert_str_eq(buf, "about as fast");
    tui_speedup_text(10, 40, buf, sizeof buf);
    ck_assert_str_eq(buf, "4.00x slower");
}
END_TEST

/* Neither the Result nor the Timing tab shows the run's time (10.00 ms); both say why. */
static void no_time_in_tabs(const tui_results_in *in, const char *why) {
    st_doc d;
    st_doc_init(&d);
    tui_results_summary(in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "10.00 ms"), 0);
    ck_assert_int_ge(doc_has(&d, why), 0);
    st_doc_clear(&d);
    tui_results_timing(in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "10.00 ms"), 0);
    ck_assert_int_ge(doc_has(&d, why), 0);
    st_doc_free(&d);
}

/* While a run is under way: its step and launches, and the checked
 * launch's answer as soon as the launches are being timed. */
START_TEST(running_status_says_the_answer_while_timing) {
    utf8_locale();
    char words[300];
    int style;
    run_progress pr = {.phase = PHASE_BUILD, .elapsed_s = 0.25};
    tui_results_running(&pr, 1, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "* building the kernel…  0.2 s   c: cancel");
    ck_assert_int_eq(style, 0);
    pr = (run_progress){.phase = PHASE_RUN, .done = 0, .elapsed_s = 0.5};
    tui_results_running(&pr, 1, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "* running…  0.5 s   c: cancel");
    pr = (run_progress){.phase = PHASE_TIME, .done = 3, .total = 30, .elapsed_s = 0.75, .checked = 1};
    tui_results_running(&pr, 1, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "✓ Correct · * timing the kernel 3/30  0.8 s   c: cancel");
    ck_assert_int_eq(style, 1);
    pr.checked = 0; /* not asked for: the launches alone */
    tui_results_running(&pr, 0, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "* timing the kernel 3/30  0.8 s   c: cancel");
    pr.checked = -1; /* wrong: the run ends, its time no use */
    tui_results_running(&pr, 0, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "x Wrong result · * finishing the run…  0.8 s   c: cancel");
    ck_assert_int_eq(style, -1);
    pr = (run_progress){.phase = PHASE_QUEUE, .done = 2, .elapsed_s = 3.0, .checked = 1};
    tui_results_running(&pr, 1, "*", words, sizeof words, &style);
    ck_assert_str_eq(words, "✓ Correct · * waiting for the device (2 ahead)  3.0 s   c: cancel");
}
END_TEST

/* One status: while the race check that may take a time back runs, no tab
 * and no status line shows the time; once it passes they do; once it fails,
 * none does. */
START_TEST(results_time_waits_for_the_race_check) {
    utf8_locale();
    engine_report r;
    pass_report(&r);
    verdict *v = calloc(1, sizeof *v);
    v->n = 3;
    v->items[0].kind = VK_TEST;
    v->items[0].outcome = VO_PASS;
    v->items[1].kind = VK_SAFETY;
    v->items[1].outcome = VO_PENDING;
    v->items[2].kind = VK_TECHNIQUE;
    v->items[2].outcome = VO_PENDING;
    tui_results_in in = {.lesson = test_lesson(), .rep = &r, .utf8 = 1, .verdict = v, .verdict_running = 1};
    char words[300];
    int good;
    ck_assert_int_eq(tui_results_time_state(&in), TUI_TIME_CHECKING);
    tui_results_status(&in, "*", words, sizeof words, &good);
    ck_assert_str_eq(words, "✓ Correct · * checking the chapter… 1/3");
    ck_assert_int_eq(good, 1);
    st_doc d;
    st_doc_init(&d);
    no_time_in_tabs(&in, "The time shows once the race check has passed.");
    /* the race check passed, the technique still runs: the time, and the progress */
    v->items[1].outcome = VO_PASS;
    ck_assert_int_eq(tui_results_time_state(&in), TUI_TIME_SHOWN);
    tui_results_status(&in, "*", words, sizeof words, &good);
    ck_assert_str_eq(words, "✓ Correct · 10.00 ms · * checking the chapter… 2/3");
    st_doc_clear(&d);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "median 10.00 ms"), 0);
    /* the race check failed: no time anywhere */
    v->items[1].outcome = VO_FAIL;
    v->items[2].outcome = VO_PASS;
    in.verdict_running = 0;
    tui_results_status(&in, "*", words, sizeof words, &good);
    ck_assert_str_eq(words, "✗ Correct here, but the race check failed");
    ck_assert_int_eq(good, 0);
    st_doc_clear(&d);
    tui_results_timing(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "10.00 ms"), 0);
    /* finished and safe: the time, no progress */
    v->items[1].outcome = VO_PASS;
    tui_results_status(&in, "*", words, sizeof words, &good);
    ck_assert_str_eq(words, "✓ Correct · 10.00 ms");
    /* right at the chapter's size, wrong at a visible test's (a bounds guard left out): no time, and the
     * status says what failed, whatever the race check said */
    v->items[0].outcome = VO_FAIL;
    v->items[1].outcome = VO_FAIL;
    ck_assert_int_eq(tui_results_time_state(&in), TUI_TIME_WRONG);
    tui_results_status(&in, "*", words, sizeof words, &good);
    ck_assert_str_eq(words, "✗ Correct at this size, but 1 of 1 visible tests fails");
    ck_assert_int_eq(good, 0);
    no_time_in_tabs(&in, "Not timed: a visible test gives a wrong answer");
    /* a long sentence wraps at the pane's width: none is cut */
    r.status = ENG_WRONG;
    st_doc_clear(&d);
    tui_results_timing(&in, 60, &d);
    ck_assert_int_le(doc_max_width(&d), 60);
    ck_assert_int_ge(doc_has(&d, "means nothing."), 0);
    /* a chapter passed before with another text: a failing one says where the passing one is kept,
     * near the top where 80x24 shows it; a passing one says nothing of it */
    in.passed_copy = ".cltutor/passed/02-atomic/histogram.cl";
    st_doc_clear(&d);
    tui_results_summary(&in, 80, &d);
    int kept = doc_has(&d, "You passed this chapter before");
    ck_assert_int_ge(kept, 1);
    ck_assert_int_le(kept, 3);
    ck_assert_int_ge(doc_has(&d, ".cltutor/passed/02-atomic/histogram.cl"), kept);
    r.status = ENG_PASS;
    for (int i = 0; i < v->n; i++) v->items[i].outcome = VO_PASS;
    verdict_settle(v);
    st_doc_clear(&d);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "You passed this chapter before"), 0);
    st_doc_free(&d);
    free(v);
}
END_TEST

START_TEST(results_wrong_and_build) {
    utf8_locale();
    engine_report r;
    memset(&r, 0, sizeof r);
    r.status = ENG_WRONG;
    snprintf(r.headline, sizeof r.headline, "Wrong result");
    snprintf(r.message, sizeof r.message, "2 of 256 bins differ.");
    r.has_output = 1;
    verify_init(&r.verify, "bin", 256);
    uint32_t expect[8] = {5, 6, 7, 8, 9, 10, 11, 12}, got[8] = {5, 6, 3, 8, 9, 10, 11, 2};
    verify_exact_u32(&r.verify, expect, got, 8);
    verify_summarise(&r.verify, "bins");
    tui_results_in in = {.lesson = test_lesson(), .rep = &r, .utf8 = 1};
    st_doc d;
    st_doc_init(&d);
    /* checked with C after the wrong run: the checklist in the Result tab too, above the values */
    verdict *v = calloc(1, sizeof *v);
    v->n = 1;
    v->items[0].kind = VK_TEST;
    v->items[0].outcome = VO_FAIL;
    in.verdict = v;
    tui_results_summary(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "0 of 1 visible tests"), 0);
    in.verdict = NULL;
    free(v);
    st_doc_clear(&d);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "visible tests"), 0);
    ck_assert_int_eq(ST_ROLE(d.lines[0].spans[0].style), ST_ERR);
    int row = doc_has(&d, "▶         2");
    ck_assert_int_ge(row, 0);
    ck_assert_int_eq(ST_ROLE(style_of(&d.lines[row], "3")), ST_ERR);
    ck_assert_int_ge(doc_has(&d, "total"), 0);
    ck_assert_int_ge(doc_has(&d, "updates were lost"), 0);
    /* the largest difference first: bin 7 (12 -> 2) before bin 2 (7 -> 3) */
    ck_assert_int_lt(doc_has(&d, "▶         7"), doc_has(&d, "▶         2"));
    st_doc_clear(&d);
    tui_results_check(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "expected"), 0);
    st_doc_clear(&d);

    /* a scan's values are not counts: no total row, no talk of lost updates */
    verify_init(&r.verify, "element", 8);
    verify_first_wrong_u32(&r.verify, expect, got, 8, 2);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "▶         2"), 0);
    ck_assert_int_lt(doc_has(&d, "total"), 0);
    ck_assert_int_lt(doc_has(&d, "updates were lost"), 0);
    ck_assert_int_lt(doc_has(&d, "Printed while"), 0);
    st_doc_clear(&d);

    /* what the kernel printed (printf debugging) shows under the result */
    r.worker_output = "debug: n = 64";
    tui_results_summary(&in, 80, &d);
    int pr = doc_has(&d, "Printed while the kernel ran");
    ck_assert_int_ge(pr, 0);
    ck_assert_int_gt(doc_has(&d, "  debug: n = 64"), pr);
    r.worker_output = NULL;
    st_doc_free(&d);

    memset(&r, 0, sizeof r);
    r.status = ENG_BUILD;
    snprintf(r.headline, sizeof r.headline, "Build failed");
    snprintf(r.message, sizeof r.message, "k.cl did not compile.");
    r.build_log = "k.cl:13:29: error: expected ';' at end of declaration\n    float best = FLT_MAX\n                        ^\nk.cl:20:5: warning: unused variable 'x'";
    r.error_line = 13;
    in.rep = &r;
    st_doc_init(&d);
    tui_results_summary(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "k.cl:13:29: error"), 0);
    ck_assert_int_ge(doc_has(&d, "edit at line 13"), 0);
    st_doc_clear(&d);
    tui_build_doc(&in, 80, &d);
    ck_assert_int_eq(d.n, 4);
    ck_assert_int_eq(d.lines[0].tag, 13);
    ck_assert_int_eq(ST_ROLE(d.lines[0].spans[0].style), ST_ERR);
    ck_assert_int_eq(d.lines[1].tag, 0);
    ck_assert_int_eq(ST_ROLE(d.lines[2].spans[0].style), ST_OK); /* the caret */
    ck_assert_int_eq(d.lines[3].tag, 20);
    ck_assert_int_eq(ST_ROLE(d.lines[3].spans[0].style), ST_WARN);
    st_doc_clear(&d);

    /* PoCL prints no source line: the tab shows the learner's, a caret under the column, and
     * wraps the message at word breaks; a line wider than the pane shows the part around the caret */
    r.build_log = "exercises/02-atomic/histogram.cl:3:32: error: use of undeclared identifier "
                  "'undefined_variable_name_here'\n"
                  "exercises/02-atomic/histogram.cl:4:73: error: use of undeclared identifier 'far_right'";
    in.source = "{\n    /* 工作项 */\n    int d = get_global_id(0) + undefined_variable_name_here;\n"
                "    int e = d + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + far_right;\n";
    tui_build_doc(&in, 80, &d);
    ck_assert_int_eq(doc_has(&d, "use of undeclared identifier"), 0);
    ck_assert_int_eq(doc_has(&d, "    'undefined_variable_name_here'"), 1); /* whole, on the next line */
    ck_assert_int_eq(doc_has(&d, "    3 | int d = get_global_id(0) + undefined_variable_name_here;"), 2);
    ck_assert_int_eq(d.lines[2].tag, 3);
    ck_assert_str_eq(st_line_text(&d.lines[3]), "      |                            ^");
    int far = doc_has(&d, "    4 | …");
    ck_assert_int_eq(far, 6);
    ck_assert_int_le(st_line_width(&d.lines[far]), 80);
    const char *caret = strchr(st_line_text(&d.lines[far + 1]), '^');
    const char *name = strstr(st_line_text(&d.lines[far]), "far_right");
    ck_assert_ptr_nonnull(caret);
    ck_assert_ptr_nonnull(name);
    ck_assert_int_eq(st_widths(caret) == 1, 1);
    ck_assert_int_eq((int)(caret - st_line_text(&d.lines[far + 1])),
                     st_line_width(&d.lines[far]) - st_widths(name)); /* under the name the compiler points at */
    st_doc_clear(&d);
    in.source = NULL; /* the file changed since the run: no line that might not be the one built */
    tui_build_doc(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "    3 | "), 0);
    st_doc_free(&d);
    int line, col;
    ck_assert_int_eq(diag_read("exercises/02-atomic/histogram.cl:7:3: error: x", 47, &line, &col), DIAG_ERROR);
    ck_assert_int_eq(line, 7);
    ck_assert_int_eq(col, 3);
    ck_assert_int_eq(diag_read("k.cl:20:1: warning: unused", 26, &line, NULL), DIAG_WARNING);
    ck_assert_int_eq(diag_read("fatal error: 'x.h' file not found", 33, &line, NULL), DIAG_ERROR);
    ck_assert_int_eq(line, 0);
    ck_assert_int_eq(diag_read("In file included from x", 23, &line, NULL), DIAG_NONE);
    ck_assert_int_eq(line, 0);
    ck_assert_int_eq(diag_read("note: candidate: foo(int)", 25, &line, NULL), DIAG_NOTE);
    ck_assert_int_eq(line, 0);
    /* a word in the message is not a severity: only the diagnostic's own */
    ck_assert_int_eq(diag_read("k.cl:3:1: note: the error is here", 33, NULL, NULL), DIAG_NOTE);
    ck_assert_int_eq(diag_worst("k.cl:3:1: note: a\nk.cl:4:2: warning: b\n"), DIAG_WARNING);
}
END_TEST

START_TEST(results_crash_message) {
    utf8_locale();
    engine_report r;
    memset(&r, 0, sizeof r);
    r.status = ENG_CRASH;
    snprintf(r.headline, sizeof r.headline, "Crashed");
    snprintf(r.message, sizeof r.message, "Your kernel stopped the device with a segmentation fault (SIGSEGV).");
    r.worker_output = "pocl: something went wrong";
    tui_results_in in = {.lesson = test_lesson(), .rep = &r, .utf8 = 0};
    st_doc d;
    st_doc_init(&d);
    tui_results_summary(&in, 50, &d);
    ck_assert(strstr(st_line_text(&d.lines[0]), "[x] Crashed"));
    ck_assert_int_ge(doc_has(&d, "segmentation"), 0);
    ck_assert_int_ge(doc_has(&d, "pocl: something went wrong"), 0);
    ck_assert_int_le(doc_max_width(&d), 50);
    st_doc_clear(&d);
    tui_results_summary(&(tui_results_in){.lesson = test_lesson()}, 50, &d);
    ck_assert_int_ge(doc_has(&d, "Not run yet"), 0);
    st_doc_free(&d);
}
END_TEST

/* The Timing tab of a course opened again: the last run's time, or why it has none, never "Not run yet". */
START_TEST(timing_after_a_restart) {
    utf8_locale();
    progress_run last = {.when = 1.7e9, .status = "wrong"};
    tui_results_in in = {.lesson = test_lesson(), .utf8 = 1, .last_run = &last};
    st_doc d;
    st_doc_init(&d);
    tui_results_timing(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "Not run yet"), 0);
    ck_assert_int_ge(doc_has(&d, "was not timed: wrong"), 0);
    st_doc_clear(&d);
    last = (progress_run){.when = 1.7e9, .passed = 1, .status = "pass", .median_ms = 12.5, .device = "GPU"};
    tui_results_timing(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "took 12.50 ms on GPU"), 0);
    /* right, but the chapter's check failed (a race): no time */
    last.verdict = PV_FAILED;
    st_doc_clear(&d);
    tui_results_timing(&in, 80, &d);
    ck_assert_int_lt(doc_has(&d, "12.50 ms"), 0);
    ck_assert_int_ge(doc_has(&d, "the chapter's check did not pass"), 0);
    st_doc_clear(&d);
    in.last_run = NULL;
    tui_results_timing(&in, 80, &d);
    ck_assert_int_ge(doc_has(&d, "Not run yet"), 0);
    st_doc_free(&d);
}
END_TEST

START_TEST(history_bars) {
    utf8_locale();
    progress_chapter pc;
    memset(&pc, 0, sizeof pc);
    progress_run runs[5];
    memset(runs, 0, sizeof runs);
    runs[0] = (progress_run){.when = 1.7e9, .status = "wrong", .device = "GPU"};
    runs[1] = (progress_run){.when = 1.7e9 + 60, .passed = 1, .status = "pass", .median_ms = 40, .device = "GPU"};
    runs[2] = (progress_run){.when = 1.7e9 + 120, .passed = 1, .status = "pass", .median_ms = 10, .device = "GPU",
                             .verdict = PV_PASSED};
    runs[3] = (progress_run){.when = 1.7e9 + 180, .passed = 1, .status = "pass", .median_ms = 20, .device = "CPU",
                             .origin = FROM_CHECK, .verdict = PV_FAILED, .verdict_note = "safety: data race"};
    runs[4] = (progress_run){.when = 1.7e9 + 240, .passed = 1, .status = "pass", .median_ms = 5, .device = "GPU",
                             .verdict = PV_FAILED, .unsafe = 1,
                             .verdict_note = "no data race, memory error or divergent barrier (Oclgrind): Data race"};
    pc.runs = runs;
    pc.n_runs = 5;
    st_doc d;
    st_doc_init(&d);
    tui_results_history(&pc, "GPU", 79, 1, &d);
    ck_assert_int_eq(d.n, 7);
    ck_assert(strstr(st_line_text(&d.lines[0]), "5 runs"));
    ck_assert(strstr(st_line_text(&d.lines[0]), "best 10.00 ms"));
    ck_assert(strstr(st_line_text(&d.lines[1]), "from  result"));
    ck_assert(strstr(st_line_text(&d.lines[2]), "ui"));
    ck_assert(strstr(st_line_text(&d.lines[2]), "✗ wrong"));
    ck_assert(!strstr(st_line_text(&d.lines[2]), "█"));
    /* a run the verdict did not judge is "correct" at its size; a judged one says the verdict */
    ck_assert(strstr(st_line_text(&d.lines[3]), "✓ correct"));
    ck_assert(strstr(st_line_text(&d.lines[4]), "✓ passed"));
    ck_assert(strstr(st_line_text(&d.lines[5]), "check"));
    ck_assert(strstr(st_line_text(&d.lines[5]), "✗ not passed"));
    ck_assert(strstr(st_line_text(&d.lines[5]), "safety: data race"));
    /* a run the check did not pass has no time, as in the Result and Timing tabs; where the whole note does
     * not fit, what went wrong without the check's long name */
    ck_assert_msg(!strstr(st_line_text(&d.lines[5]), "20.00 ms"), "%s", st_line_text(&d.lines[5]));
    ck_assert_msg(!strstr(st_line_text(&d.lines[6]), "5.00 ms"), "%s", st_line_text(&d.lines[6]));
    ck_assert_msg(strstr(st_line_text(&d.lines[6]), " - ") && strstr(st_line_text(&d.lines[6]), "Data race") &&
                      !strstr(st_line_text(&d.lines[6]), "divergent"),
                  "%s", st_line_text(&d.lines[6]));
    /* bars are proportional to the median: 40 ms fills the 28 columns, 10 ms a quarter */
    int full = 0, quarter = 0;
    for (const char *p = st_line_text(&d.lines[3]); (p = strstr(p, "█")); p += 3) full++;
    for (const char *p = st_line_text(&d.lines[4]); (p = strstr(p, "█")); p += 3) quarter++;
    ck_assert_int_eq(full, 28);
    ck_assert_int_eq(quarter, 7);
    ck_assert(strstr(st_line_text(&d.lines[4]), "★"));
    ck_assert_int_eq(ST_ROLE(d.lines[5].spans[0].style), ST_DIM); /* another device */
    ck_assert_int_le(doc_max_width(&d), 79);
    st_doc_clear(&d);
    tui_results_history(NULL, "GPU", 74, 1, &d);
    ck_assert_int_ge(doc_has(&d, "No runs yet"), 0);
    st_doc_free(&d);
}
END_TEST

/* ---- text ---- */

/* The catalogue beside the test program (build/locale, made by msgfmt from
 * po/zh_CN.po); po/ itself is checked whole in tests/docs. */
START_TEST(text_translations) {
    utf8_locale();
    ck_assert_msg(i18n_dir()[0], "no catalogue beside the test program: make builds it from po/");
    /* every key's description and every tab has a translation */
    for (const tui_key_help *k = tui_help_rows(); k->what; k++) {
        i18n_set_lang("zh");
        ck_assert_msg(strcmp(_(k->what), k->what), "no Chinese for '%s'", k->what);
    }
    i18n_set_lang("zh");
    ck_assert_str_eq(_("Correct"), "正确");
    ck_assert_str_eq(i18n_lang(), "zh");
    i18n_set_lang("en");
    ck_assert_str_eq(_("Correct"), "Correct");
    ck_assert_str_eq(_("no such text"), "no such text");
    ck_assert_str_eq(_(""), ""); /* never the catalogue's header */
    setenv("LC_ALL", "zh_CN.UTF-8", 1);
    ck_assert_str_eq(i18n_env_lang(), "zh");
    setenv("LC_ALL", "", 1);
    setenv("LANG", "en_GB.UTF-8", 1);
    unsetenv("LC_MESSAGES");
    ck_assert_str_eq(i18n_env_lang(), "en");
    setenv("LANG", "zh_TW.UTF-8", 1);
    ck_assert_str_eq(i18n_env_lang(), "zh");
}
END_TEST

START_TEST(help_lists_keys) {
    utf8_locale();
    st_doc d;
    st_doc_init(&d);
    tui_help_doc(&d, 50);
    ck_assert_int_le(doc_max_width(&d), 50);
    st_doc_clear(&d);
    tui_help_doc(&d, 120);
    for (const tui_key_help *k = tui_help_rows(); k->what; k++) ck_assert_msg(doc_has(&d, k->what) >= 0, "%s", k->what);
    /* the help is the key map: every command a key runs has a row that names its keys */
    for (const tui_binding *b = tui_bindings(); b->command != CMD_NONE; b++) {
        int listed = b->command == CMD_REDRAW && b->key == TK_RESIZE; /* a resize is not a key to press */
        for (const tui_key_help *k = tui_help_rows(); k->what && !listed; k++)
            for (int c = 0; c < 3; c++) listed |= k->commands[c] == b->command && k->context == b->context;
        ck_assert_msg(listed, "command %d (key %d) has no help row", b->command, b->key);
    }
    for (const tui_key_help *k = tui_help_rows(); k->what; k++) {
        char keys[96];
        tui_help_row_keys(k, keys, sizeof keys);
        ck_assert_msg(keys[0], "no key runs '%s'", k->what);
        ck_assert_msg(doc_has(&d, keys) >= 0, "%s", keys);
    }
    char keys[96];
    tui_help_row_keys(&(tui_key_help){2, KC_CHAPTER, {CMD_RUN}, 0, "run"}, keys, sizeof keys);
    ck_assert_str_eq(keys, "F5  r");
    tui_help_row_keys(&(tui_key_help){0, KC_EVERYWHERE, {CMD_PAGE_UP, CMD_PAGE_DOWN}, 0, "page"}, keys, sizeof keys);
    ck_assert_str_eq(keys, "PgUp PgDn  b Space");
    tui_help_row_keys(&(tui_key_help){1, KC_HOME, {CMD_OPEN_NUMBER}, 0, "open"}, keys, sizeof keys);
    ck_assert_str_eq(keys, "1-9");
    st_doc_clear(&d);
    tui_quickref_doc(&d, 70);
    const char *topics[] = {"__local", "get_global_id", "float4", "barrier(CLK_LOCAL_MEM_FENCE)", "atomic_inc", "vload4"};
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) ck_assert_msg(doc_has(&d, topics[i]) >= 0, "%s", topics[i]);
    st_doc_clear(&d);
    i18n_set_lang("zh");
    tui_quickref_doc(&d, 70);
    ck_assert_int_ge(doc_has(&d, "地址空间"), 0);
    i18n_set_lang("en");
    st_doc_free(&d);
}
END_TEST

/* ---- watch ---- */

static void watch_case(int force_poll) {
    char dir[] = "/tmp/cltutor-watch-XXXXXX";
    ck_assert(mkdtemp(dir));
    char path[256], tmp[256];
    snprintf(path, sizeof path, "%s/k.cl", dir);
    snprintf(tmp, sizeof tmp, "%s/.k.cl.swp", dir);
    ck_assert_int_eq(util_write_file_atomic(path, "a\n", 2), 0);
    tui_watch w;
    ck_assert_int_eq(tui_watch_open(&w, path, force_poll), 0);
    ck_assert_int_eq(tui_watch_fd(&w) >= 0, !force_poll);
    double t = 1e9;
    ck_assert_int_eq(tui_watch_check(&w, t), 0);
    /* another file in the folder is not a change */
    ck_assert_int_eq(util_write_file_atomic(tmp, "x", 1), 0);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 0);
    /* written in place (size changes) */
    FILE *f = fopen(path, "w");
    fputs("abc\n", f);
    fclose(f);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 1);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 0);
    /* saved by renaming a new file over it, as vim does */
    ck_assert_int_eq(util_write_file_atomic(path, "abcd\n", 5), 0);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 1);
    /* removed, then back */
    unlink(path);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 0);
    ck_assert_int_eq(util_write_file_atomic(path, "z\n", 2), 0);
    ck_assert_int_eq(tui_watch_check(&w, t += 1), 1);
    tui_watch_close(&w);
    unlink(path);
    unlink(tmp);
    rmdir(dir);
}

START_TEST(watch_inotify) { watch_case(0); }
END_TEST

START_TEST(watch_polling) { watch_case(1); }
END_TEST

/* ---- jobs ---- */

START_TEST(jobs_queue_order_and_cancel) {
    tui_jobs j;
    char err[128];
    ck_assert_int_eq(tui_jobs_start(&j, err, sizeof err), 0);
    const lesson *l = test_lesson();
    /* a missing kernel file: the engine answers at once, without a worker */
    tui_job *a = tui_job_new_run(JOB_REFERENCE, l, "/nonexistent/a.cl", NULL, "", "");
    tui_job *b = tui_job_new_run(JOB_RUN, l, "/nonexistent/b.cl", "b.cl", "", "");
    int ia = tui_jobs_submit(&j, a);
    int ib = tui_jobs_submit(&j, b);
    ck_assert_int_lt(ia, ib);
    int got = 0, seen_b = 0;
    double t0 = util_now();
    while (got < 2 && util_now() - t0 < 20) {
        tui_job *done = tui_jobs_collect(&j);
        if (!done) {
            usleep(10000);
            continue;
        }
        got++;
        if (done->id == ib) {
            seen_b = 1;
            ck_assert_int_eq(done->rep.status, ENG_USAGE);
            ck_assert(strstr(done->rep.message, "b.cl"));
        }
        tui_job_free(done);
    }
    ck_assert_int_eq(got, 2);
    ck_assert(seen_b);
    ck_assert_int_eq(tui_jobs_status(&j, NULL, NULL), -1);
    /* cancelling drops waiting jobs of that kind */
    tui_jobs_cancel(&j, JOB_RUN);
    ck_assert_int_eq(tui_jobs_pending(&j, JOB_RUN), 0);
    ck_assert_int_eq(tui_jobs_stop(&j, 5.0), 0);
}
END_TEST

/* Sentences the course shows from other layers are translated under their own text. */
START_TEST(moved_workspace_notice_is_translated) {
    load_catalog();
    workspace_news one = {.moved = 1}, two = {.moved = 2, .moved_progress = 1};
    char en1[2400], en2[2400], zh1[2400], zh2[2400];
    workspace_moved_text(en1, sizeof en1, "/ws", &one);
    workspace_moved_text(en2, sizeof en2, "/ws", &two);
    ck_assert_ptr_nonnull(strstr(en1, "in /ws, apart from the course: 1 edited file from the course's exercises/ moved there"));
    ck_assert_ptr_nonnull(strstr(en2, ": 2 edited files from the course's exercises/ and your progress moved there"));
    i18n_set_lang("zh");
    workspace_moved_text(zh1, sizeof zh1, "/ws", &one);
    workspace_moved_text(zh2, sizeof zh2, "/ws", &two);
    i18n_set_lang("en");
    ck_assert_str_ne(zh1, en1);
    ck_assert_str_ne(zh2, en2);
    ck_assert_ptr_nonnull(strstr(zh2, "/ws"));
    ck_assert_ptr_nonnull(strstr(zh2, " 2 "));
}
END_TEST

Suite *tui_suite(void) {
    Suite *s = suite_create("tui");
    TCase *t = tcase_create("text");
    tcase_add_checked_fixture(t, utf8_locale, NULL);
    tcase_add_test(t, stext_widths);
    tcase_add_test(t, moved_workspace_notice_is_translated);
    tcase_add_test(t, stext_wrap_english_and_chinese);
    tcase_add_test(t, stext_hard_breaks_and_styles);
    tcase_add_test(t, clhl_styles);
    tcase_add_test(t, md_renders_blocks);
    tcase_add_test(t, md_fits_every_width);
    tcase_add_test(t, md_narrow_table_stacks);
    tcase_add_test(t, md_joins_chinese_lines);
    tcase_add_test(t, stext_row_hangs_its_details);
    tcase_add_test(t, diff_lines);
    suite_add_tcase(s, t);
    t = tcase_create("state");
    tcase_add_test(t, state_home_keys);
    tcase_add_test(t, state_chapter_keys);
    tcase_add_test(t, state_lists_clamp);
    suite_add_tcase(s, t);
    t = tcase_create("results");
    tcase_add_checked_fixture(t, utf8_locale, NULL);
    tcase_add_test(t, results_pass_and_speedups);
    tcase_add_test(t, results_wrong_and_build);
    tcase_add_test(t, results_crash_message);
    tcase_add_test(t, results_time_waits_for_the_race_check);
    tcase_add_test(t, running_status_says_the_answer_while_timing);
    tcase_add_test(t, history_bars);
    tcase_add_test(t, timing_after_a_restart);
    tcase_add_test(t, text_translations);
    tcase_add_test(t, help_lists_keys);
    suite_add_tcase(s, t);
    t = tcase_create("io");
    tcase_add_test(t, watch_inotify);
    tcase_add_test(t, watch_polling);
    tcase_add_test(t, jobs_queue_order_and_cancel);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
