/* grade_credit — what a chapter's tests earn once they have run: a fixed
 * listing only as a small edit of the shipped one, nothing for a kernel the
 * race check fails, the race check and the techniques only with every hidden
 * test passed, and nothing for an unchanged starting file or a find-the-bug
 * listing handed in, mended, as the exercise. */
#define _DEFAULT_SOURCE
#include "grade/grade_credit.h"
#include "grade/verdict.h"
#include "base/util.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fixed listing earns its points only as the shipped listing with its bug
 * mended: a small edit, not a replacement by another kernel. */
void grade_check_fix_is_edit(const grade_options *o, const lesson *l, grade_test *t, const char *submitted) {
    const lesson_bug *bug = NULL;
    for (int b = 0; b < l->n_bugs; b++)
        if (!strcmp(l->bugs[b].file, t->file)) bug = &l->bugs[b];
    if (!bug || !o->course) return;
    char shipped[1400];
    snprintf(shipped, sizeof shipped, "%s/exercises/%s/%s", o->course, l->id, bug->file);
    char *listing = util_read_file(shipped, NULL), *fixed = util_read_file(submitted, NULL);
    int dist = listing && fixed ? verdict_fix_distance(listing, fixed) : -1;
    int allowed = verdict_fix_allowed(bug);
    if (dist > allowed) {
        t->outcome = GO_FAIL;
        snprintf(t->status, sizeof t->status, "not_a_fix");
        snprintf(t->headline, sizeof t->headline, "%s", _("Not the listing, fixed"));
        char *d = NULL;
        /* TRANSLATORS: the first number is always at least 2 */
        util_sappend(&d, _("The file is correct, but %d code lines (comments and spacing aside) differ from the "
                           "shipped listing %s, and a fix of this bug changes at most %d. This exercise asks you to "
                           "find the bug in the listing and mend it there, not to replace the listing with another "
                           "kernel: start again from the shipped listing and change only what is wrong."),
                     dist, bug->file, allowed);
        grade_test_set_detail(t, d);
    }
    free(listing);
    free(fixed);
}

/* A kernel with a data race or a memory error is right only by luck of the
 * device: its hidden tests and techniques earn nothing. */
void grade_gate_on_safety(grade_chapter *ch) {
    const grade_test *safety = NULL;
    for (int i = 0; i < ch->n_tests; i++)
        if (ch->tests[i].kind == GT_SAFETY) safety = &ch->tests[i];
    if (!safety || safety->outcome != GO_FAIL || !strcmp(safety->status, "missing") ||
        !strcmp(safety->status, "refused"))
        return;
    for (int i = 0; i < ch->n_tests; i++) {
        grade_test *t = &ch->tests[i];
        if ((t->kind != GT_HIDDEN && t->kind != GT_TECHNIQUE) || t->outcome != GO_PASS) continue;
        t->outcome = GO_FAIL;
        t->score = 0;
        snprintf(t->status, sizeof t->status, "unsafe");
        util_textf(t->headline, sizeof t->headline, _("Not credited: %s"), safety->headline);
        char *d = NULL;
        util_sappend(&d, _("This run was correct here, but the race check failed (%s), so the result holds only by "
                           "luck of the device and is not credited. %s"), safety->headline, t->detail ? t->detail : "");
        grade_test_set_detail(t, d);
    }
}

/* Takes a passed test's points back, with the reason (translated) and a status. */
static void not_credited(grade_test *t, const char *status, const char *why) {
    t->outcome = GO_FAIL;
    t->score = 0;
    snprintf(t->status, sizeof t->status, "%s", status);
    util_textf(t->headline, sizeof t->headline, "%s", _("Not credited"));
    char *d = NULL;
    util_sappend(&d, "%s %s", why, t->detail ? t->detail : "");
    grade_test_set_detail(t, d);
}

/* The race check and the techniques earn points only for a kernel that
 * passes every hidden test that ran; the chapter's starting file handed in
 * unchanged (its code, comments and spacing aside) earns nothing, not even
 * the hidden tests it passes by the luck of a degenerate input. */
void grade_gate_on_correctness(const grade_options *o, const lesson *l, grade_chapter *ch, const char *submitted) {
    int failed = 0, starting = 0;
    const lesson_bug *listing = NULL;
    double share = 0;
    for (int i = 0; i < ch->n_tests; i++)
        failed |= ch->tests[i].kind == GT_HIDDEN && ch->tests[i].outcome == GO_FAIL;
    if (submitted && o->course) {
        char path[1400];
        snprintf(path, sizeof path, "%s/exercises/%s/%s", o->course, l->id, l->exercise);
        char *start = util_read_file(path, NULL), *mine = util_read_file(submitted, NULL);
        starting = start && mine && verdict_fix_distance(start, mine) == 0;
        if (!starting) listing = verdict_fix_mended_listing(o->course, l, mine, &share);
        free(start);
        free(mine);
    }
    char why[600] = "";
    if (listing)
        util_textf(why, sizeof why, _("This is the find-the-bug listing %s with its bug mended (%.0f%% of the "
                                      "listing's own code is here): the chapter's tests count only for a kernel "
                                      "of your own. The mended listing earns its own points as fix.%s."),
                   listing->file, share * 100, listing->name);
    for (int i = 0; i < ch->n_tests; i++) {
        grade_test *t = &ch->tests[i];
        if (t->outcome != GO_PASS || t->kind == GT_FIX) continue;
        if (starting)
            not_credited(t, "not_credited", _("This is the chapter's starting file, unchanged: its tests count only "
                                              "for a kernel of your own."));
        else if (listing)
            not_credited(t, "listing", why);
        else if (t->kind != GT_SAFETY && t->kind != GT_TECHNIQUE)
            continue;
        else if (failed)
            not_credited(t, "not_credited", _("A hidden test failed: the race check and the technique count only "
                                              "for a kernel that passes every hidden test."));
    }
}

