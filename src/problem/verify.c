/* verify — comparison results shared by every problem: what differs, expected vs actual. */
#define _DEFAULT_SOURCE
#include "problem/verify.h"
#include "text/i18n.h"
#include "text/tmsg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void verify_init(verify_report *vr, const char *what, long n_checked) {
    memset(vr, 0, sizeof *vr);
    snprintf(vr->what, sizeof vr->what, "%s", what);
    vr->n_checked = n_checked;
    vr->first_wrong = -1;
    vr->ok = 1;
}

static void add_entry(verify_report *vr, long i, long long e, long long a, long long lo, long long hi, int wrong) {
    if (vr->n_entries >= VR_MAX_ENTRIES) return;
    vr_entry *en = &vr->entries[vr->n_entries++];
    en->index = i;
    en->expected = e;
    en->actual = a;
    en->lo = lo;
    en->hi = hi;
    en->wrong = wrong;
}

static long long abs_diff(const vr_entry *e) {
    long long d = e->actual - e->expected;
    return d < 0 ? -d : d;
}

void verify_add_wrong(verify_report *vr, long index, long long expected, long long actual, long long lo,
                      long long hi) {
    if (vr->n_entries < VR_MAX_ENTRIES) {
        add_entry(vr, index, expected, actual, lo, hi, 1);
        return;
    }
    int smallest = 0;
    for (int i = 1; i < vr->n_entries; i++)
        if (abs_diff(&vr->entries[i]) < abs_diff(&vr->entries[smallest])) smallest = i;
    vr_entry cand = {.index = index, .expected = expected, .actual = actual, .lo = lo, .hi = hi, .wrong = 1};
    if (abs_diff(&cand) > abs_diff(&vr->entries[smallest])) vr->entries[smallest] = cand;
}

/* Largest difference first; equal ones in index order. */
static int by_difference(const void *a, const void *b) {
    const vr_entry *x = a, *y = b;
    long long dx = abs_diff(x), dy = abs_diff(y);
    if (dx != dy) return dx > dy ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void verify_exact_u32(verify_report *vr, const uint32_t *expected, const uint32_t *actual, long n) {
    for (long i = 0; i < n; i++) {
        vr->expected_total += expected[i];
        vr->actual_total += actual[i];
        if (expected[i] == actual[i]) continue;
        if (vr->first_wrong < 0) vr->first_wrong = i;
        vr->n_wrong++;
        verify_add_wrong(vr, i, expected[i], actual[i], expected[i], expected[i]);
    }
    vr->ok = vr->n_wrong == 0;
}

void verify_first_wrong_u32(verify_report *vr, const uint32_t *expected, const uint32_t *actual,
                            long n, int context) {
    for (long i = 0; i < n; i++) {
        vr->expected_total += expected[i];
        vr->actual_total += actual[i];
        if (expected[i] != actual[i]) {
            if (vr->first_wrong < 0) vr->first_wrong = i;
            vr->n_wrong++;
        }
    }
    vr->ok = vr->n_wrong == 0;
    if (vr->ok) return;
    long from = vr->first_wrong - context < 0 ? 0 : vr->first_wrong - context;
    long to = vr->first_wrong + context >= n ? n - 1 : vr->first_wrong + context;
    for (long i = from; i <= to; i++)
        add_entry(vr, i, expected[i], actual[i], expected[i], expected[i], expected[i] != actual[i]);
}

/* The compared unit's name for n of them, in the learner's language. */
/* The noun for n of what ("bin", "bins"): a message id of m, or what as it is. */
static const char *noun(tmsg *m, const char *what, long n) {
    static const char *const nouns[][2] = {
        {N_("bin"), N_("bins")}, {N_("element"), N_("elements")}, {N_("pixel"), N_("pixels")}};
    for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
        if (!strcmp(what, nouns[i][0])) return tmsg_id(m, nouns[i][n == 1 ? 0 : 1]);
    return what;
}

const char *verify_summary_piece(const verify_report *vr, tmsg *m) {
    if (vr->ok && vr->n_checked == 1)
        /* TRANSLATORS: the answer has one entry: "The one bin matches the golden reference." */
        return tmsg_part_of(m, "The one %s matches the golden reference.", noun(m, vr->what, 1));
    if (vr->ok)
        return tmsg_part_of(m, "All %ld %s match the golden reference.", vr->n_checked, noun(m, vr->what, vr->n_checked));
    const char *first;
    if (vr->n_wrong > 0 && vr->n_checked == 1)
        /* TRANSLATORS: the answer has one entry, and it is wrong: "The one bin differs (bin 0)." */
        first = tmsg_part_of(m, "The one %s differs (%s %ld).", noun(m, vr->what, 1), noun(m, vr->what, 1),
                             vr->first_wrong);
    else if (vr->n_wrong > 0)
        first = tmsg_plural_of(m, "%ld of %ld %s differs (the first is %s %ld).",
                               "%ld of %ld %s differ (the first is %s %ld).", (unsigned long long)vr->n_wrong,
                               vr->n_wrong, vr->n_checked, noun(m, vr->what, vr->n_checked), noun(m, vr->what, 1),
                               vr->first_wrong);
    else
        first = tmsg_part_of(m, "Every %s is within its accepted range, but together they do not match the golden "
                                "reference.", noun(m, vr->what, 1));
    if (!vr->total_name || vr->expected_total == vr->actual_total) return first;
    long long d = vr->actual_total - vr->expected_total;
    unsigned long long off = (unsigned long long)(d < 0 ? -d : d);
    const char *total = d < 0 ? tmsg_plural_of(m, " The %s is %lld instead of %lld: %lld count is missing.",
                                               " The %s is %lld instead of %lld: %lld counts are missing.", off,
                                               tmsg_id(m, vr->total_name), vr->actual_total, vr->expected_total, -d)
                              : tmsg_plural_of(m, " The %s is %lld instead of %lld: %lld count too many.",
                                               " The %s is %lld instead of %lld: %lld counts too many.", off,
                                               tmsg_id(m, vr->total_name), vr->actual_total, vr->expected_total, d);
    return tmsg_join(m, first, total);
}

void verify_resummarise(verify_report *vr) {
    if (vr->summary[0]) verify_summarise(vr, vr->total_name);
}

void verify_summarise(verify_report *vr, const char *total_name) {
    vr->counts = total_name != NULL;
    vr->total_name = total_name;
    if (!vr->ok) {
        /* a histogram's rows, largest difference first; a scan's keep their neighbours in order */
        int all_wrong = 1;
        for (int i = 0; i < vr->n_entries; i++) all_wrong &= vr->entries[i].wrong;
        if (all_wrong) qsort(vr->entries, (size_t)vr->n_entries, sizeof *vr->entries, by_difference);
    }
    tmsg m;
    tmsg_clear(&m);
    tmsg_use(&m, verify_summary_piece(vr, &m));
    tmsg_render(&m, vr->summary, sizeof vr->summary);
}
