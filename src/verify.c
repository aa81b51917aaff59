/* verify — comparison results shared by every problem: what differs, expected vs actual. */
#define _DEFAULT_SOURCE
#include "verify.h"
#include <stdio.h>
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

void verify_exact_u32(verify_report *vr, const uint32_t *expected, const uint32_t *actual, long n) {
    for (long i = 0; i < n; i++) {
        vr->expected_total += expected[i];
        vr->actual_total += actual[i];
        if (expected[i] == actual[i]) continue;
        if (vr->first_wrong < 0) vr->first_wrong = i;
        vr->n_wrong++;
        add_entry(vr, i, expected[i], actual[i], expected[i], expected[i], 1);
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

void verify_summarise(verify_report *vr, const char *total_name) {
    vr->counts = total_name != NULL;
    if (vr->ok) {
        snprintf(vr->summary, sizeof vr->summary, "All %ld %ss match the golden reference.",
                 vr->n_checked, vr->what);
        return;
    }
    int n = snprintf(vr->summary, sizeof vr->summary, "%ld of %ld %ss differ (first at %s %ld).",
                     vr->n_wrong, vr->n_checked, vr->what, vr->what, vr->first_wrong);
    if (total_name && vr->expected_total != vr->actual_total && n > 0 && (size_t)n < sizeof vr->summary) {
        long long d = vr->actual_total - vr->expected_total;
        snprintf(vr->summary + n, sizeof vr->summary - (size_t)n,
                 " The %s is %lld instead of %lld: %lld %s %s.", total_name, vr->actual_total,
                 vr->expected_total, d < 0 ? -d : d, d < 0 ? "were lost" : "were counted twice",
                 d < 0 ? "(missing updates)" : "(extra updates)");
    }
}
