/* claims: sentences a lesson must not state
 *
 * Every figure a lesson states comes from a committed file (figsource.c
 * checks the numbers); these are the sentences around them that the
 * repository cannot back: one that names the project's design notes, a
 * document outside the repository, one that says a chapter's variant
 * kernels are not kept while bench/variants/ holds them, and the claims a
 * review of the lessons found false (`refuted`). Phrases are matched
 * across the lines a paragraph is wrapped on, in English and in Chinese. */
#define _DEFAULT_SOURCE
#include "course/claims.h"

#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const design_notes[] = {"design note", "设计笔记", "設計筆記", NULL};
static const char *const not_kept[] = {"not kept", "没有保留", "未保留", "没保留", NULL};
/* what a "not kept" sentence must speak of to be about the variants */
static const char *const variant_words[] = {"variant", "kernel", "变体", "内核", NULL};

/* Claims a review found false, each with why: a lesson that states one again fails. */
typedef struct {
    const char *phrase;          /* lower case; a space matches any run of white space */
    const char *why;
} refuted_claim;
static const refuted_claim refuted[] = {
    {"end the kernel, or use atomics", N_("atomics cannot make work-groups wait for each other: a spin barrier can "
                                          "hang, since no group is promised to be running; end the kernel instead")},
    {"结束内核，或者使用原子操作", N_("atomics cannot make work-groups wait for each other: a spin barrier can "
                                          "hang, since no group is promised to be running; end the kernel instead")},
    {"one 16-byte load instead of four", N_("a vload4 from a float pointer stays four 4-byte loads on NVIDIA "
                                            "(docs/results/ptx): only a read through an aligned float4 pointer is "
                                            "one 16-byte load")},
    {"on every gpu since", N_("vector arithmetic is not four instructions on every GPU: AMD CDNA2/3 have packed "
                              "FP32, RDNA3 dual-issues; name the vendor and generation")},
    {"the compiler can see", N_("a warp's loads of one address are merged by the hardware at run time, not seen by "
                                "the compiler")},
    {"编译器看得出", N_("a warp's loads of one address are merged by the hardware at run time, not seen by the "
                        "compiler")},
    {"both books replicate", N_("the Kaeli book's GPU1-5 kernels vote into one global histogram; only one of the "
                                "two books replicates sub-histograms")},
    {"has been reported to mishandle", N_("a report with no committed source: quote a run under docs/results")},
};

/* Where phrase (lower case; a space stands for any run of white space) matches s at i, the end of the
 * match; else 0. A line break, and the indentation after it, may fall anywhere between two characters. */
static size_t match_at(const char *s, size_t len, size_t i, const char *phrase) {
    for (const char *p = phrase; *p; p++) {
        if (*p == ' ') {
            if (i >= len || !isspace((unsigned char)s[i])) return 0;
            while (i < len && isspace((unsigned char)s[i])) i++;
            continue;
        }
        if (i < len && s[i] == '\n' && p != phrase) {
            i++;
            while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
        }
        unsigned char c = (unsigned char)s[i < len ? i : 0];
        if (i >= len || (c < 128 ? tolower(c) : c) != (unsigned char)*p) return 0;
        i++;
    }
    return i;
}

/* The first phrase of list matching in s[from..to), its start in *at; NULL when none does. */
static const char *find_any(const char *s, size_t from, size_t to, const char *const *list, size_t *at) {
    for (size_t i = from; i < to; i++)
        for (int k = 0; list[k]; k++)
            if (match_at(s, to, i, list[k])) {
                *at = i;
                return list[k];
            }
    return NULL;
}

/* Whether a sentence ends just before s[i]: after ". " (or "?", "!", ":"), "。", "；", or a blank line. */
static int sentence_break(const char *s, size_t i) {
    if (i == 0) return 1;
    if (i >= 2 && s[i - 1] == '\n' && s[i - 2] == '\n') return 1;
    if (isspace((unsigned char)s[i]) && strchr(".?!", s[i - 1])) return 1;
    if (i >= 3 && (!memcmp(s + i - 3, "。", 3) || !memcmp(s + i - 3, "；", 3))) return 1;
    return 0;
}

/* The sentence around s[at]: [*from, *to). */
static void sentence_of(const char *s, size_t len, size_t at, size_t *from, size_t *to) {
    size_t a = at, b = at + 1;
    while (a > 0 && !sentence_break(s, a)) a--;
    while (b < len && !sentence_break(s, b)) b++;
    *from = a;
    *to = b;
}

static int line_at(const char *s, size_t at) {
    int line = 1;
    for (size_t i = 0; i < at; i++) line += s[i] == '\n';
    return line;
}

int claims_check_lesson(const char *name, const char *md, size_t len, const char *variants, char **notes) {
    int bad = 0;
    size_t at;
    for (size_t i = 0; find_any(md, i, len, design_notes, &at); i = at + 1) {
        util_sappend(notes, _("%s:%d: names the project's design notes, a document outside the repository; quote a "
                              "committed file under docs/results instead"),
                     name, line_at(md, at));
        util_sappend(notes, "\n");
        bad++;
    }
    for (size_t i = 0; variants && *variants && find_any(md, i, len, not_kept, &at); i = at + 1) {
        size_t from, to, w;
        sentence_of(md, len, at, &from, &to);
        if (!find_any(md, from, to, variant_words, &w)) continue;
        util_sappend(notes, _("%s:%d: says the chapter's variant kernels are not kept, but bench/variants/ holds %s"),
                     name, line_at(md, at), variants);
        util_sappend(notes, "\n");
        bad++;
    }
    for (size_t k = 0; k < CLT_ARRAY_LEN(refuted); k++) {
        const char *one[] = {refuted[k].phrase, NULL};
        for (size_t i = 0; find_any(md, i, len, one, &at); i = at + 1) {
            util_sappend(notes, _("%s:%d: states a claim found false: %s"), name, line_at(md, at), _(refuted[k].why));
            util_sappend(notes, "\n");
            bad++;
        }
    }
    return bad;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int claims_chapter_variants(const char *data, int chapter, char *buf, size_t len) {
    char dir[1200], prefix[8];
    buf[0] = '\0';
    snprintf(dir, sizeof dir, "%s/bench/variants", data);
    snprintf(prefix, sizeof prefix, "%02d-", chapter);
    DIR *d = opendir(dir);
    if (!d) return 0;
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, 3) || l < 4 || strcmp(e->d_name + l - 3, ".cl")) continue;
        names[n++] = util_strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int k = 0; k < n; k++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", k ? ", " : "", names[k]);
        free(names[k]);
    }
    return n;
}
