/* grade_detail — what a report says about a test: the engine's message and
 * the evidence, as clean UTF-8 text of bounded length. */
#define _GNU_SOURCE
#include "grade/grade_detail.h"
#include "base/util.h"
#include "text/i18n.h"

#include <stdlib.h>
#include <string.h>

#define DETAIL_MAX 3000

/* Text for reports: valid UTF-8, no control characters but newline and tab. */
static char *clean_text(const char *s, size_t max) {
    if (!s) return NULL;
    size_t n = strlen(s);
    if (n > max) n = max;
    char *o = malloc(n + 4);
    if (!o) return NULL;
    size_t j = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c == '\n' || c == '\t') { o[j++] = (char)c; i++; continue; }
        if (c < 0x20 || c == 0x7f) { o[j++] = '?'; i++; continue; }
        if (c < 0x80) { o[j++] = (char)c; i++; continue; }
        int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        int ok = len && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++) ok = (u[i + k] & 0xC0) == 0x80;
        if (ok && len == 2 && c < 0xC2) ok = 0;
        if (ok && len == 3) {
            unsigned cp = (c & 0x0F) << 12 | (u[i + 1] & 0x3F) << 6 | (u[i + 2] & 0x3F);
            if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) ok = 0;
        }
        if (ok && len == 4) {
            unsigned cp = (c & 0x07) << 18 | (u[i + 1] & 0x3F) << 12 | (u[i + 2] & 0x3F) << 6 | (u[i + 3] & 0x3F);
            if (cp < 0x10000 || cp > 0x10FFFF) ok = 0;
        }
        if (!ok) { o[j++] = '?'; i++; continue; }
        memcpy(o + j, u + i, (size_t)len);
        j += (size_t)len;
        i += (size_t)len;
    }
    o[j] = '\0';
    if (strlen(s) > max) { memcpy(o + j, "...", 4); }
    return o;
}

void grade_test_set_detail(grade_test *t, char *text) {
    free(t->detail);
    t->detail = clean_text(text, DETAIL_MAX);
    free(text);
}

char *grade_run_detail(const engine_report *rep) {
    char *d = NULL;
    util_sappend(&d, _("%s: %s"), _(rep->headline), rep->message);
    if (rep->status == ENG_WRONG) {
        const verify_report *vr = &rep->verify;
        int shown = 0;
        for (int i = 0; i < vr->n_entries && shown < 6; i++) {
            const vr_entry *e = &vr->entries[i];
            if (!e->wrong) continue;
            if (e->lo != e->hi)
                /* TRANSLATORS: one wrong entry: "bin 7: expected 41 (17..45 accepted), got 0" */
                util_sappend(&d, _("\n  %s %ld: expected %lld (%lld..%lld accepted), got %lld"), _(vr->what),
                             e->index, e->expected, e->lo, e->hi, e->actual);
            else
                util_sappend(&d, _("\n  %s %ld: expected %lld, got %lld"), _(vr->what), e->index, e->expected,
                             e->actual);
            shown++;
        }
        if (vr->counts && vr->expected_total != vr->actual_total)
            util_sappend(&d, _("\n  total: expected %lld, got %lld"), vr->expected_total, vr->actual_total);
    }
    if (rep->status == ENG_BUILD && rep->build_log && *rep->build_log) {
        char *log = clean_text(rep->build_log, 1500);
        util_sappend(&d, "\n%s", log ? log : "");
        free(log);
    }
    if (rep->out_of_memory)
        util_sappend(&d, "%s", _("\nThe worker ran out of the memory a test may use (--memory-limit)."));
    if (rep->worker_output && *rep->worker_output) {
        char *out = clean_text(rep->worker_output, 800);
        if (rep->status == ENG_PASS || rep->status == ENG_WRONG)
            util_sappend(&d, _("\nThe kernel or runtime printed (ignored for grading):\n%s"), out ? out : "");
        else if (rep->status != ENG_BUILD)
            util_sappend(&d, _("\nThe runtime printed:\n%s"), out ? out : "");
        free(out);
    }
    return d;
}

