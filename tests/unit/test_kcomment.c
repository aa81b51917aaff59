/* test_kcomment — the exercise files' comments as messages, and the starting
 * files in the learner's language with the code as shipped. */
#define _GNU_SOURCE
#include "suites.h"
#include "course/catalog.h"
#include "course/paths.h"
#include "grade/verdict_fix.h"
#include "text/i18n.h"
#include "text/kcomment.h"
#include "base/util.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A translation that is a copy of the message: every comment written again in its shape. */
typedef struct {
    char *copies[256];
    int n;
} copies;

static const char *copy_of(void *ctx, const char *msgid) {
    copies *c = ctx;
    ck_assert_int_lt(c->n, 256);
    return c->copies[c->n++] = strdup(msgid);
}

static void copies_free(copies *c) {
    for (int i = 0; i < c->n; i++) free(c->copies[i]);
    c->n = 0;
}

/* Rewriting each comment with its own text gives every shipped file back byte for byte: the shape
 * (margins, openings, closings) is kept, so a translation changes nothing but words. */
START_TEST(shipped_files_keep_their_shape) {
    glob_t g;
    ck_assert_int_eq(glob(CLT_TEST_ROOT "/exercises/*/*.cl", 0, NULL, &g), 0);
    ck_assert_int_ge((int)g.gl_pathc, 18);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *src = util_read_file(g.gl_pathv[i], NULL);
        ck_assert_ptr_nonnull(src);
        copies c = {.n = 0};
        char *again = kcomment_translate(src, copy_of, &c);
        ck_assert_msg(again && !strcmp(again, src), "%s is not written back as it was", g.gl_pathv[i]);
        ck_assert_msg(c.n > 0, "%s: no comment seen", g.gl_pathv[i]);
        copies_free(&c);
        free(again);
        free(src);
    }
    globfree(&g);
}
END_TEST

typedef struct {
    char msg[8][200];
    int line[8], n;
} seen;

static void note(void *ctx, const char *msgid, int line) {
    seen *s = ctx;
    ck_assert_int_lt(s->n, 8);
    snprintf(s->msg[s->n], sizeof s->msg[0], "%s", msgid);
    s->line[s->n++] = line;
}

static const char *const sample =
    "/* Chapter X: a test.\n"
    " *\n"
    " * Two lines\n"
    " *   indented.\n"
    " */\n"
    "#define N 4   /* per item */\n"
    "#define M(a) ((a) + 1) /* in a macro */ \\\n"
    "    + 0\n"
    "__kernel void k(__global int *o)\n"
    "{\n"
    "    const char *s = \"/* not a comment */\"; // a line comment\n"
    "    /* 42 */\n"
    "    /*\n"
    "     * opens bare\n"
    "     */\n"
    "    o[0] = N; /* never closed\n";

START_TEST(messages_are_the_comments_text) {
    seen s = {.n = 0};
    ck_assert_int_eq(kcomment_each(sample, note, &s), 0);
    ck_assert_int_eq(s.n, 5); /* no string, no comment without a letter, no unclosed one */
    ck_assert_str_eq(s.msg[0], "Chapter X: a test.\n\nTwo lines\n  indented.");
    ck_assert_int_eq(s.line[0], 1);
    ck_assert_str_eq(s.msg[1], "per item");
    ck_assert_int_eq(s.line[1], 6);
    ck_assert_str_eq(s.msg[2], "in a macro");
    ck_assert_str_eq(s.msg[3], "a line comment");
    ck_assert_int_eq(s.line[3], 11);
    ck_assert_str_eq(s.msg[4], "opens bare");
    ck_assert_int_eq(s.line[4], 13);
}
END_TEST

static const char *to_chinese(void *ctx, const char *msgid) {
    (void)ctx;
    if (!strcmp(msgid, "Chapter X: a test.\n\nTwo lines\n  indented.")) return "第 X 章：测试。\n\n两行\n  缩进。";
    if (!strcmp(msgid, "per item")) return "每项\n两行";
    if (!strcmp(msgid, "in a macro")) return "在宏里\n不换行";
    if (!strcmp(msgid, "a line comment")) return "行注释";
    if (!strcmp(msgid, "opens bare")) return "单独\n开头";
    return msgid;
}

/* Each translation in its comment's shape, the code untouched; a comment in a macro stays on its line. */
START_TEST(translations_take_the_comments_shape) {
    char *t = kcomment_translate(sample, to_chinese, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t, "/* 第 X 章：测试。\n"
                        " *\n"
                        " * 两行\n"
                        " *   缩进。\n"
                        " */\n"
                        "#define N 4   /* 每项\n"
                        "               * 两行 */\n"
                        "#define M(a) ((a) + 1) /* 在宏里 不换行 */ \\\n"
                        "    + 0\n"
                        "__kernel void k(__global int *o)\n"
                        "{\n"
                        "    const char *s = \"/* not a comment */\"; // 行注释\n"
                        "    /* 42 */\n"
                        "    /*\n"
                        "     * 单独\n"
                        "     * 开头\n"
                        "     */\n"
                        "    o[0] = N; /* never closed\n");
    ck_assert_int_eq(verdict_fix_distance(sample, t), 0);
    free(t);
}
END_TEST

/* Comments the catalogue does not translate. */
typedef struct {
    const char *where;
    int n, first_line;
} untranslated;

static void count_untranslated(void *ctx, const char *msgid, int line) {
    untranslated *u = ctx;
    if (i18n_ctr(KCOMMENT_CONTEXT, msgid) == msgid && !u->n++) u->first_line = line;
}

static void catalog_in(const char *lang) {
    char dir[4096];
    unsetenv("LANGUAGE");
    ck_assert_int_eq(util_exe_dir(dir, sizeof dir), 0);
    i18n_init(dir, "/nonexistent");
    i18n_set_lang(lang);
}

/* A Chinese learner's starting files: every comment translated, the code as shipped;
 * an English learner's: the shipped files. Both count as untouched. */
START_TEST(starting_files_in_the_learners_language) {
    catalog c;
    char err[512];
    ck_assert_msg(catalog_load(&c, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    paths p;
    memset(&p, 0, sizeof p);
    snprintf(p.data, sizeof p.data, "%s", CLT_TEST_ROOT);
    int files = 0;
    for (int i = 0; i < c.count; i++) {
        const lesson *l = &c.items[i];
        for (int k = 0; k <= l->n_bugs; k++) {
            const char *file = k ? l->bugs[k - 1].file : NULL;
            catalog_in("en");
            char *shipped = paths_starting_text(&p, l, file);
            ck_assert_ptr_nonnull(shipped);
            catalog_in("zh");
            char *zh = paths_starting_text(&p, l, file);
            ck_assert_ptr_nonnull(zh);
            ck_assert_msg(strcmp(zh, shipped) != 0, "%s/%s: no comment in Chinese", l->id, file ? file : l->exercise);
            ck_assert_msg(verdict_fix_distance(shipped, zh) == 0, "%s/%s: the code changed", l->id,
                          file ? file : l->exercise);
            untranslated u = {.where = file ? file : l->exercise, .n = 0};
            ck_assert_int_eq(kcomment_each(shipped, count_untranslated, &u), 0);
            ck_assert_msg(u.n == 0, "%s/%s: %d comments have no Chinese (the first at line %d)", l->id, u.where, u.n,
                          u.first_line);
            ck_assert(paths_is_starting_text(&p, l, file, zh));
            ck_assert(paths_is_starting_text(&p, l, file, shipped));
            free(zh);
            free(shipped);
            files++;
        }
    }
    catalog_in("en");
    ck_assert_int_ge(files, 18);
    catalog_free(&c);
}
END_TEST

Suite *kcomment_suite(void) {
    Suite *s = suite_create("kcomment");
    TCase *tc = tcase_create("kcomment");
    tcase_add_test(tc, shipped_files_keep_their_shape);
    tcase_add_test(tc, messages_are_the_comments_text);
    tcase_add_test(tc, translations_take_the_comments_shape);
    tcase_add_test(tc, starting_files_in_the_learners_language);
    suite_add_tcase(s, tc);
    return s;
}
