/* test_gmdraw — the warp pictures (gm_draw) from synthetic requests: their figures follow the plugin's rules and their lines fit the screen. */
#define _GNU_SOURCE
#include "suites.h"
#include "gpumodel/gm_draw.h"
#include "ui/tui_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A report of one instruction whose first and worst request is lane l at
 * base + l * stride bytes, size bytes each (stride 0: all on one address). */
static void one_request(gpumodel_report *rep, const char *space, const char *kind, unsigned stride, unsigned size) {
    char text[4096];
    int n = snprintf(text, sizeof text,
                     "kernel k 1 64 1 1 64 1 1 0.1\n"
                     "inst 10 5 %s %s %u %u 32 32 %u 1 1 32 4 128 1 1 32 32 1 1 0\n",
                     space, kind, size, size, 32 * size);
    for (int role = 0; role < 2; role++) {
        n += snprintf(text + n, sizeof text - (size_t)n, "req %s 0 0 0", role ? "worst" : "first");
        for (unsigned l = 0; l < 32; l++)
            n += snprintf(text + n, sizeof text - (size_t)n, " %x:%u", 0x10000u + l * stride, size);
        n += snprintf(text + n, sizeof text - (size_t)n, "\n");
    }
    snprintf(text + n, sizeof text - (size_t)n, "end\n");
    memset(rep, 0, sizeof *rep);
    char err[256];
    ck_assert_msg(gpumodel_parse(text, rep, err, sizeof err) == 0, "%s", err);
    rep->status = GM_OK;
    ck_assert_int_eq(rep->kernels[0].acc[0].n_reqs, 2);
}

static gm_req_figures figures_of(const char *space, const char *kind, unsigned stride, unsigned size) {
    gpumodel_report rep;
    one_request(&rep, space, kind, stride, size);
    const gm_access *a = &rep.kernels[0].acc[0];
    gm_req_figures f;
    gm_request_measure(&a->reqs[0], a->space, a->kind, &f);
    gpumodel_report_free(&rep);
    return f;
}

/* Draws the report at width; checks every line fits and returns the text. */
static char *drawn(const gpumodel_report *rep, int width, int utf8) {
    st_doc d;
    st_doc_init(&d);
    gm_draw_opts o = {width, utf8};
    ck_assert_int_eq(gm_draw_line(&d, rep, 0, &o), 1);
    size_t cap = 1, len = 0;
    for (int i = 0; i < d.n; i++) cap += (size_t)d.lines[i].len + 1;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    out[0] = '\0';
    for (int i = 0; i < d.n; i++) {
        ck_assert_msg(st_line_width(&d.lines[i]) <= width, "line %d is %d columns wide at %d: %s", i,
                      st_line_width(&d.lines[i]), width, st_line_text(&d.lines[i]));
        len += (size_t)snprintf(out + len, cap - len, "%s\n", st_line_text(&d.lines[i]));
    }
    st_doc_free(&d);
    return out;
}

START_TEST(global_strides_give_the_sectors_theory_says) {
    static const struct { unsigned stride, size, sectors; } cases[] = {
        {4, 4, 4}, {8, 4, 8}, {32, 4, 32}, {128, 4, 32}, {16, 16, 16}, {0, 4, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_req_figures f = figures_of("global", "load", cases[i].stride, cases[i].size);
        ck_assert_msg(f.sectors == cases[i].sectors, "stride %u: %u sectors", cases[i].stride, f.sectors);
        ck_assert_uint_eq(f.lanes, 32);
    }
    gm_req_figures b = figures_of("constant", "load", 0, 4);
    ck_assert_uint_eq(b.distinct, 1);
    ck_assert(b.useful == 32); /* a broadcast: one sector serves every lane, 100% */
}
END_TEST

START_TEST(local_strides_give_the_degrees_theory_says) {
    static const struct { unsigned stride, degree; } cases[] = {{4, 1}, {8, 2}, {128, 32}, {132, 1}, {0, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_req_figures f = figures_of("local", "load", cases[i].stride, 4);
        ck_assert_msg(f.degree == cases[i].degree, "stride %u words: degree %u", cases[i].stride / 4, f.degree);
    }
    gm_req_figures w = figures_of("local", "load", 16, 16); /* float4: quarter-warps, no conflict */
    ck_assert_uint_eq(w.phases, 4);
    ck_assert_uint_eq(w.degree, 1);
}
END_TEST

START_TEST(atomics_on_one_address_contend) {
    ck_assert_uint_eq(figures_of("global", "atomic", 0, 4).contention, 32);
    ck_assert_uint_eq(figures_of("global", "atomic", 4, 4).contention, 1);
}
END_TEST

/* The tallest stack drawn is the degree; every line fits 80 and 40 columns. */
START_TEST(pictures_fit_and_show_the_degree) {
    gpumodel_report rep;
    one_request(&rep, "local", "load", 8, 4);
    char *t = drawn(&rep, 80, 1);
    ck_assert_ptr_nonnull(strstr(t, "bank-conflict degree 2"));
    const char *w = strstr(t, "\nwords");
    ck_assert_ptr_nonnull(w);
    unsigned worst = 0;
    for (const char *p = w + 6; *p && *p != '\n'; p++)
        if (*p >= '0' && *p <= '9') {
            unsigned v = (unsigned)strtoul(p, (char **)&p, 10);
            if (v > worst) worst = v;
            p--;
        }
    ck_assert_uint_eq(worst, 2);
    free(t);
    free(drawn(&rep, 40, 0));
    gpumodel_report_free(&rep);
    static const char *const kinds[][2] = {{"global", "load"}, {"constant", "load"}, {"global", "atomic"}, {"local", "atomic"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        one_request(&rep, kinds[i][0], kinds[i][1], 128, 4);
        free(drawn(&rep, 80, 1));
        char *a = drawn(&rep, 40, 0);
        ck_assert_msg(!strstr(a, "│") && !strstr(a, "└") && !strstr(a, "█") && !strstr(a, "·"),
                      "ASCII asked for, got: %s", a); /* no box-drawing characters */
        free(a);
        gpumodel_report_free(&rep);
    }
}
END_TEST

START_TEST(bad_request_records_are_named) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    const char *bad[] = {
        "kernel k 1 64 1 1 64 1 1 0.1\ninst 10 5 global load 4 4 1 1 4 1 1 1 1 4 0 0 1 1 0 0 0\nreq best 0 0 0 -\nend\n",
        "kernel k 1 64 1 1 64 1 1 0.1\ninst 10 5 global load 4 4 1 1 4 1 1 1 1 4 0 0 1 1 0 0 0\nreq first 0 0 0 10:4\nend\n",
        "kernel k 1 64 1 1 64 1 1 0.1\ninst 10 5 global load 4 4 1 1 4 1 1 1 1 4 0 0 1 1 0 0 0\nreq first 0 0 0 zz:4"
        " - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\nend\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(gpumodel_parse(bad[i], &rep, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "line 3"), "%s", err);
        gpumodel_report_free(&rep);
        memset(&rep, 0, sizeof rep);
    }
}
END_TEST

/* A line with no memory access says which lines have one. */
START_TEST(a_line_without_access_names_the_others) {
    gpumodel_report rep;
    one_request(&rep, "global", "load", 4, 4);
    st_doc d;
    st_doc_init(&d);
    gm_draw_opts o = {80, 1};
    ck_assert_int_eq(gm_draw_line(&d, &rep, 3, &o), 0);
    ck_assert_ptr_nonnull(strstr(st_line_text(&d.lines[0]), "Line 3"));
    ck_assert_ptr_nonnull(strstr(st_line_text(&d.lines[0]), ": 10."));
    st_doc_free(&d);
    gpumodel_report_free(&rep);
}
END_TEST

/* v opens the picture: of the kernel line under the cursor, of the GPU-model tab's row, else of the busiest. */
START_TEST(v_opens_the_warp_picture) {
    tui_state s;
    tui_state_init(&s, 9);
    tui_open_chapter(&s); /* the kernel pane has the focus */
    s.pane[PANE_KERNEL].cur = 22;
    tui_action a = tui_key(&s, 'v');
    ck_assert_int_eq(a.kind, ACT_WARP);
    ck_assert_int_eq(a.arg, 23);
    ck_assert_int_eq(s.overlay, OV_WARP);
    tui_key(&s, TK_ESC);
    ck_assert_int_eq(s.overlay, OV_NONE);
    s.focus = PANE_RESULTS;
    s.tab_enabled[TAB_ANALYSIS] = 1;
    s.tab = TAB_ANALYSIS;
    s.tabs[TAB_ANALYSIS].cur = 4;
    a = tui_key(&s, 'v');
    ck_assert_int_eq(a.arg, -5);
    s.overlay = OV_NONE;
    s.focus = PANE_LESSON;
    ck_assert_int_eq(tui_key(&s, 'v').arg, 0);
    /* the help screen lists it, from the same key map */
    int found = 0;
    for (const tui_key_help *r = tui_help_rows(); r->what; r++)
        if (r->commands[0] == CMD_WARP) {
            char keys[64];
            tui_help_row_keys(r, keys, sizeof keys);
            ck_assert_str_eq(keys, "v");
            found = 1;
        }
    ck_assert(found);
}
END_TEST

Suite *gmdraw_suite(void) {
    Suite *s = suite_create("gmdraw");
    TCase *tc = tcase_create("draw");
    tcase_add_test(tc, global_strides_give_the_sectors_theory_says);
    tcase_add_test(tc, local_strides_give_the_degrees_theory_says);
    tcase_add_test(tc, atomics_on_one_address_contend);
    tcase_add_test(tc, pictures_fit_and_show_the_degree);
    tcase_add_test(tc, bad_request_records_are_named);
    tcase_add_test(tc, a_line_without_access_names_the_others);
    tcase_add_test(tc, v_opens_the_warp_picture);
    suite_add_tcase(s, tc);
    return s;
}
