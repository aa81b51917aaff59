/* test_verdict — the rules of a chapter's verdict: technique figures per
 * instruction, the race check, visible tests, and what counts as a fix. */
#define _DEFAULT_SOURCE
#include "suites.h"
#include "course/catalog.h"
#include "gpumodel/technique.h"
#include "base/util.h"
#include "grade/verdict.h"
#include "grade/verdict_fix.h"
#include "text/i18n.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One global load instruction: sectors moved per request and bytes used. */
static gm_access access_of(gm_space space, gm_kind kind, int line, unsigned long long requests, double sectors_per_req,
                           double efficiency, unsigned width) {
    gm_access a;
    memset(&a, 0, sizeof a);
    a.space = space;
    a.kind = kind;
    a.line = line;
    a.width_min = a.width_max = width;
    a.requests = requests;
    a.lanes = requests * 32;
    a.execs = requests * 32;
    a.bytes = a.execs * width;
    a.sectors = (unsigned long long)(sectors_per_req * (double)requests);
    a.sectors_per_request = sectors_per_req;
    a.efficiency = efficiency;
    a.distinct_avg = 32;
    a.bank_avg = 1;
    return a;
}

static void one_kernel(gpumodel_report *rep, gm_kernel *k, gm_access *acc, int n) {
    memset(rep, 0, sizeof *rep);
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "histogram");
    k->acc = acc;
    k->n_acc = n;
    rep->kernels = k;
    rep->n_kernels = 1;
    rep->status = GM_OK;
    rep->run.status = ENG_PASS;
    snprintf(rep->size_text, sizeof rep->size_text, "1000x16x64");
}

static technique_check parse_one(const char *spec) {
    technique_check c;
    char err[256];
    ck_assert_int_eq(technique_parse(spec, &c, 1, err, sizeof err), 1);
    return c;
}

START_TEST(coalescing_is_judged_per_instruction) {
    /* a strided load carrying most sectors, diluted by cheap coalesced dummies */
    gm_access acc[3] = {access_of(GM_GLOBAL, GM_LOAD, 20, 1000, 32, 0.125, 4),
                        access_of(GM_GLOBAL, GM_LOAD, 21, 4000, 4, 1.0, 4),
                        access_of(GM_GLOBAL, GM_LOAD, 22, 4000, 4, 1.0, 4)};
    gpumodel_report rep;
    gm_kernel k;
    one_kernel(&rep, &k, acc, 3);
    technique_check c = parse_one("coalesced_loads>=0.8");
    technique_result r;
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(r.measured);
    ck_assert(!r.met);
    ck_assert_int_eq(r.line, 20);
    ck_assert_ptr_nonnull(strstr(r.detail, "line 20"));
    /* an instruction under 5% of the sectors does not decide it */
    acc[0] = access_of(GM_GLOBAL, GM_LOAD, 20, 10, 32, 0.125, 4);
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(r.met);
}
END_TEST

START_TEST(shares_and_lanes) {
    gm_access acc[3] = {access_of(GM_GLOBAL, GM_LOAD, 5, 100, 4, 1.0, 4),
                        access_of(GM_LOCAL, GM_LOAD, 9, 100, 0, 0, 4),
                        access_of(GM_GLOBAL, GM_ATOMIC, 12, 100, 1, 1.0, 4)};
    gpumodel_report rep;
    gm_kernel k;
    one_kernel(&rep, &k, acc, 3);
    technique_result r;
    technique_check c = parse_one("local_loads>=0.3");
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(r.met);
    ck_assert_double_eq_tol(r.value, 0.5, 1e-9);
    c = parse_one("local_atomics");
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(!r.met); /* every atomic is global */
    c = parse_one("active_lanes>=8");
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(r.met);
    for (int i = 0; i < 3; i++) acc[i].lanes = acc[i].requests; /* one work-item does everything */
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(!r.met);
    c = parse_one("wide_loads>=0.25");
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(!r.met);
    acc[0].width_min = acc[0].width_max = 16;
    technique_measure(&c, &rep, NULL, &r);
    ck_assert(r.met);
}
END_TEST

START_TEST(technique_spec_errors_name_the_check) {
    technique_check c[4];
    char err[512];
    ck_assert_int_eq(technique_parse("coalesced_loads>=0.9 bank_conflicts<=1.5", c, 4, err, sizeof err), 2);
    ck_assert_int_eq(c[1].op, TQ_LE);
    ck_assert_int_eq(technique_parse("coalesing>=0.9", c, 4, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "coalesing"));
    ck_assert_int_eq(technique_parse("coalescing=0.9", c, 4, err, sizeof err), -1);
    ck_assert_int_eq(technique_parse("coalescing>=x", c, 4, err, sizeof err), -1);
}
END_TEST

START_TEST(safety_names_the_race_and_what_to_do) {
    gpumodel_report rep;
    gm_kernel k;
    one_kernel(&rep, &k, NULL, 0);
    verdict_item it;
    memset(&it, 0, sizeof it);
    ck_assert_int_eq(verdict_safety(&rep, &it), 1);
    ck_assert_int_eq(it.outcome, VO_PASS);
    gm_issue is;
    memset(&is, 0, sizeof is);
    is.kind = GM_ISSUE_RACE;
    is.line = 28;
    is.count = 7;
    snprintf(is.kernel, sizeof is.kernel, "histogram");
    snprintf(is.what, sizeof is.what, "Read-write data race at global memory");
    is.space = GM_GLOBAL;
    rep.issues = &is;
    rep.n_issues = 1;
    ck_assert_int_eq(verdict_safety(&rep, &it), 0);
    ck_assert_int_eq(it.outcome, VO_FAIL);
    ck_assert_int_eq(it.line, 28);
    ck_assert_ptr_nonnull(strstr(it.detail, "line 28"));
    ck_assert_ptr_nonnull(strstr(it.detail, "atomic_inc"));
    is.space = GM_LOCAL; /* the same race in local memory asks for a barrier */
    verdict_safety(&rep, &it);
    ck_assert_ptr_nonnull(strstr(it.detail, "barrier(CLK_LOCAL_MEM_FENCE)"));
    is.kind = GM_ISSUE_DIVERGENCE;
    verdict_safety(&rep, &it);
    ck_assert_str_eq(it.headline, "Divergent barrier");
    /* a wrong analysed run earns no technique */
    rep.n_issues = 0;
    rep.run.status = ENG_WRONG;
    technique_check c = parse_one("active_lanes");
    verdict_technique(&c, &rep, NULL, &it);
    ck_assert_int_eq(it.outcome, VO_FAIL);
}
END_TEST

START_TEST(a_fix_is_a_small_edit) {
    const char *listing = "/* the listing */\nkernel void k(global int *a, int n)\n{\n    int i = get_global_id(0);\n"
                          "    a[i] = 1;\n}\n";
    const char *fixed = "/* the listing, fixed: a guard */\nkernel void k(global int *a, int n)\n{\n"
                        "    int i = get_global_id(0);   // which one\n    if (i >= n) return;\n    a[i] = 1;\n}\n";
    ck_assert_int_eq(verdict_fix_distance(listing, listing), 0);
    ck_assert_int_eq(verdict_fix_distance(listing, fixed), 1); /* comments and spacing do not count */
    const char *other = "kernel void k(global int *out, int count)\n{\n    size_t g = get_global_id(0);\n"
                        "    if (g < count)\n        out[g] = 1;\n    barrier(CLK_GLOBAL_MEM_FENCE);\n}\n";
    ck_assert_int_ge(verdict_fix_distance(listing, other), 4);
    /* the listing kept whole under #if 0, and another kernel on one line: every statement counts */
    const char *hidden = "#if 0\nkernel void k(global int *a, int n)\n{\n    int i = get_global_id(0);\n"
                         "    a[i] = 1;\n}\n#endif\nkernel void k(global int *out, int count) { size_t g = "
                         "get_global_id(0); if (g < count) out[g] = 1; barrier(CLK_GLOBAL_MEM_FENCE); }\n";
    ck_assert_int_ge(verdict_fix_distance(listing, hidden), 4);
    /* an #if 0 block added around nothing of the listing's, or its #else compiled, changes little */
    const char *with_else = "#if 0\nint unused;\n#else\nkernel void k(global int *a, int n)\n{\n"
                            "    int i = get_global_id(0);\n    a[i] = 1;\n}\n#endif\n";
    ck_assert_int_eq(verdict_fix_distance(listing, with_else), 0);
    /* strings keep their semicolons */
    ck_assert_int_eq(verdict_fix_distance("constant char *s = \"a;b{c}\";\n", "constant char *s = \"a;b{c}\";\n"), 0);
    lesson_bug b;
    memset(&b, 0, sizeof b);
    ck_assert_int_eq(verdict_fix_allowed(&b), VERDICT_FIX_DEFAULT_LINES);
    b.max_changed_lines = 24;
    ck_assert_int_eq(verdict_fix_allowed(&b), 24);
}
END_TEST

/* Every find-the-bug listing of the course, mended (tests/grade/fixes), is
 * recognised when handed in as its chapter's exercise; the references and
 * the honest corpus's kernels, written apart, are not. */
START_TEST(mended_listings_are_not_the_exercise) {
    catalog c;
    char err[512], path[1400];
    ck_assert_msg(catalog_load(&c, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    int listings = 0, honest = 0;
    for (int i = 0; i < c.count; i++) {
        const lesson *l = &c.items[i];
        for (int b = 0; b < l->n_bugs; b++) {
            snprintf(path, sizeof path, CLT_TEST_ROOT "/tests/grade/fixes/%s/%s", l->id, l->bugs[b].file);
            char *mended = util_read_file(path, NULL);
            ck_assert_msg(mended != NULL, "%s", path);
            double share = 0;
            const lesson_bug *found = verdict_fix_mended_listing(CLT_TEST_ROOT, l, mended, &share);
            ck_assert_msg(found == &l->bugs[b], "%s, mended, is not recognised as the listing (%.0f%%)", path, share * 100);
            ck_assert(share >= VERDICT_LISTING_SHARE);
            listings++;
            free(mended);
        }
        /* the reference, and the honest kernels of the chapter (ch03-*.cl ...) */
        snprintf(path, sizeof path, CLT_TEST_ROOT "/kernels/%s/%s", l->id, l->exercise);
        char *ref = util_read_file(path, NULL);
        double share = 0;
        ck_assert_msg(!ref || !verdict_fix_mended_listing(CLT_TEST_ROOT, l, ref, &share), "%s (%.0f%%)", path, share * 100);
        free(ref);
        snprintf(path, sizeof path, CLT_TEST_ROOT "/tests/honest/kernels/ch%02d-*.cl", l->number);
        glob_t g;
        if (glob(path, 0, NULL, &g) != 0) continue;
        for (size_t k = 0; k < g.gl_pathc; k++) {
            char *mine = util_read_file(g.gl_pathv[k], NULL);
            ck_assert_ptr_nonnull(mine);
            ck_assert_msg(!verdict_fix_mended_listing(CLT_TEST_ROOT, l, mine, &share), "%s (%.0f%%)", g.gl_pathv[k],
                          share * 100);
            honest++;
            free(mine);
        }
        globfree(&g);
    }
    ck_assert_int_ge(listings, 9);
    ck_assert_int_ge(honest, 20);
    catalog_free(&c);
}
END_TEST

START_TEST(visible_tests_cover_the_default_size_and_bug_inputs) {
    catalog cat;
    char err[1024];
    ck_assert_msg(catalog_load(&cat, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    const lesson *l = catalog_find(&cat, "3");
    ck_assert_ptr_nonnull(l);
    verdict v;
    ck_assert_msg(verdict_plan(l, &v, err, sizeof err) == 0, "%s", err);
    int has_default = 0, has_bug = 0, safety = 0, technique = 0;
    for (int i = 0; i < v.n; i++) {
        has_default |= !strncmp(v.items[i].size, l->default_size, strlen(l->default_size));
        has_bug |= !strncmp(v.items[i].size, l->bugs[0].exposes, strlen(l->bugs[0].exposes));
        safety += v.items[i].kind == VK_SAFETY;
        technique += v.items[i].kind == VK_TECHNIQUE;
        for (int j = 0; j < i; j++) ck_assert_str_ne(v.items[i].id, v.items[j].id);
    }
    ck_assert(has_default && has_bug);
    ck_assert_int_eq(safety, 1);
    ck_assert_int_ge(technique, 1);
    /* chapter 1 runs one work-item: no race check */
    ck_assert_int_eq(verdict_has_safety(catalog_find(&cat, "1")), 0);
    /* nothing passes until every item has */
    verdict_settle(&v);
    ck_assert_int_eq(v.passed, 0);
    for (int i = 0; i < v.n; i++) v.items[i].outcome = VO_PASS;
    verdict_settle(&v);
    ck_assert_int_eq(v.passed, 1);
    v.items[v.n - 1].outcome = VO_FAIL;
    verdict_settle(&v);
    ck_assert_int_eq(v.passed, 0);
    catalog_free(&cat);
}
END_TEST

START_TEST(headlines_are_shown_in_the_learners_language) {
    char buf[256], dir[4096];
    i18n_set_lang("en");
    /* English: a technique's figure named in words, not by its metric's name; other headlines as written */
    ck_assert_str_eq(verdict_headline("Met: active_lanes = 30.7", buf, sizeof buf),
                     "Met: work-items of 32 taking part in each memory request = 30.7");
    ck_assert_str_eq(verdict_headline("Not met: constant_broadcasts = 0.485", buf, sizeof buf),
                     "Not met: share of loaded bytes broadcast from __constant memory = 0.485");
    ck_assert_str_eq(verdict_headline("Not met: no_such_metric = 0", buf, sizeof buf), "Not met: no_such_metric = 0");
    /* with the bound the chapter asks for, in words */
    ck_assert_str_eq(verdict_headline("Met: cost = 1.02; asked <= 1.25", buf, sizeof buf),
                     "Met: modelled GPU cost as a multiple of the reference's = 1.02 (the chapter asks for at most 1.25)");
    ck_assert_str_eq(verdict_headline("Not met: active_lanes = 3.2; asked >= 8", buf, sizeof buf),
                     "Not met: work-items of 32 taking part in each memory request = 3.2 (the chapter asks for at least "
                     "8)");
    ck_assert_str_eq(verdict_headline("Not met", buf, sizeof buf), "Not met");
    ck_assert_str_eq(verdict_headline("Correct", buf, sizeof buf), "Correct");
    /* Chinese, from the catalogue beside the test program: the measure in Chinese, its value as it is */
    unsetenv("LANGUAGE");
    ck_assert_int_eq(util_exe_dir(dir, sizeof dir), 0);
    i18n_init(dir, "/nonexistent");
    i18n_set_lang("zh");
    ck_assert_str_eq(verdict_headline("Not met", buf, sizeof buf), "未达到");
    ck_assert_str_eq(verdict_headline("Correct", buf, sizeof buf), "正确");
    verdict_headline("Not met: constant_broadcasts = 0.485", buf, sizeof buf);
    ck_assert_str_eq(buf, "未达到：从 __constant 内存广播读取的字节占比 = 0.485");
    verdict_headline("Not met: constant_broadcasts = 0; asked >= 0.3", buf, sizeof buf);
    ck_assert_str_eq(buf, "未达到：从 __constant 内存广播读取的字节占比 = 0（本章要求至少 0.3）");
    ck_assert_str_eq(verdict_headline("0.22x", buf, sizeof buf), "0.22x");
    i18n_set_lang("en");
}
END_TEST

/* A detail is kept as its English format and arguments: switching the
 * language changes every word of it, pieces and plurals included, and no figure. */
START_TEST(details_follow_a_switch_of_language) {
    char buf[1024], dir[4096];
    tmsg m;
    tmsg_clear(&m);
    const char *measured = tmsg_part_of(&m, "%.0f%% of the bytes the kernel loads come from __local memory.", 12.0);
    tmsg_set(&m, "%s The chapter asks for %s %s %g. %s", measured,
             tmsg_id(&m, technique_metric_phrase(TQ_LOCAL_LOADS)), ">=", 0.3, tmsg_id(&m, "Do what the chapter shows."));
    verdict_item it;
    memset(&it, 0, sizeof it);
    tmsg_set(&it.msg, "%s (GPU memory model, %s)", tmsg_embed(&it.msg, &m), "1024x16x64");
    i18n_set_lang("en");
    ck_assert_str_eq(verdict_detail(&it, buf, sizeof buf),
                     "12% of the bytes the kernel loads come from __local memory. The chapter asks for share of loaded "
                     "bytes read from __local memory >= 0.3. Do what the chapter shows. (GPU memory model, 1024x16x64)");
    unsetenv("LANGUAGE");
    ck_assert_int_eq(util_exe_dir(dir, sizeof dir), 0);
    i18n_init(dir, "/nonexistent");
    i18n_set_lang("zh");
    verdict_detail(&it, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "12%"));
    ck_assert_ptr_nonnull(strstr(buf, "从 __local 内存读取的字节占比 >= 0.3"));
    ck_assert_ptr_nonnull(strstr(buf, "照本章所示去做。"));
    ck_assert_ptr_nonnull(strstr(buf, "1024x16x64"));
    ck_assert_ptr_null(strstr(buf, "the kernel loads"));
    /* a plural picks its form by its count in each language */
    tmsg_clear(&m);
    tmsg_setn(&m, "The kernel takes %d __constant argument: %s (CL_KERNEL_ARG_ADDRESS_QUALIFIER).",
              "The kernel takes %d __constant arguments: %s (CL_KERNEL_ARG_ADDRESS_QUALIFIER).", 2, 2, "a, b");
    i18n_set_lang("en");
    ck_assert_str_eq(tmsg_render(&m, buf, sizeof buf),
                     "The kernel takes 2 __constant arguments: a, b (CL_KERNEL_ARG_ADDRESS_QUALIFIER).");
    i18n_set_lang("zh");
    tmsg_render(&m, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "2"));
    ck_assert_ptr_nonnull(strstr(buf, "a, b"));
    ck_assert_ptr_null(strstr(buf, "The kernel takes"));
    i18n_set_lang("en");
    /* a detail written without its parts (an older record) is shown as written */
    memset(&it, 0, sizeof it);
    snprintf(it.detail, sizeof it.detail, "as written");
    ck_assert_str_eq(verdict_detail(&it, buf, sizeof buf), "as written");
}
END_TEST

Suite *verdict_suite(void) {
    Suite *s = suite_create("verdict");
    TCase *t = tcase_create("verdict");
    tcase_add_test(t, coalescing_is_judged_per_instruction);
    tcase_add_test(t, shares_and_lanes);
    tcase_add_test(t, technique_spec_errors_name_the_check);
    tcase_add_test(t, safety_names_the_race_and_what_to_do);
    tcase_add_test(t, a_fix_is_a_small_edit);
    tcase_add_test(t, mended_listings_are_not_the_exercise);
    tcase_add_test(t, visible_tests_cover_the_default_size_and_bug_inputs);
    tcase_add_test(t, headlines_are_shown_in_the_learners_language);
    tcase_add_test(t, details_follow_a_switch_of_language);
    suite_add_tcase(s, t);
    return s;
}
