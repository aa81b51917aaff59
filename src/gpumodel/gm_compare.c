/* gm_compare — the GPU memory model's comparison of a kernel with another
 * analysis (the previous stage's), as sentences a learner reads. */
#define _GNU_SOURCE
#include "gpumodel/gm_text.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_sentence(gpumodel_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_sentence(gpumodel_report *rep, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    gm_add_line_v(&rep->compare, &rep->n_compare, fmt, ap);
    va_end(ap);
}

static int differs(double a, double b, double rel) {
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return m > 0 && fabs(a - b) > rel * m;
}

/* Atomics: how many, and how many work-items of a warp meet on one address. */
static void compare_atomics(gpumodel_report *rep, const char *what, const gm_summary *o, const gm_summary *c, int had,
                            int sp) {
    char x[32], y[32];
    gm_fmt_num(x, sizeof x, c->contention_avg);
    if (!had) {
        char ops[64];
        util_textf(ops, sizeof ops, P_("%llu operation", "%llu operations", c->execs), c->execs);
        add_sentence(rep,
                     P_("%s: new, %s, %s work-item of a warp on one address on average.",
                        "%s: new, %s, %s work-items of a warp on one address on average.", gm_count_of(x)),
                     what, ops, x);
        return;
    }
    gm_fmt_num(y, sizeof y, o->contention_avg);
    if (o->execs == c->execs && !differs(o->contention_avg, c->contention_avg, 0.05))
        add_sentence(rep,
                     P_("%s: %llu operations as before, %s work-item of a warp on one address on average.",
                        "%s: %llu operations as before, %s work-items of a warp on one address on average.",
                        gm_count_of(x)),
                     what, c->execs, x);
    else if (o->execs == c->execs)
        add_sentence(rep, _("%s: %llu operations as before; work-items of a warp on one address (they take turns): "
                            "%s → %s on average."), what, c->execs, y, x);
    else if (c->execs < o->execs)
        add_sentence(rep, _("%s: %llu → %llu operations (%.1fx fewer); work-items of a warp on one address (they take "
                            "turns): %s → %s on average."), what, o->execs, c->execs,
                     (double)o->execs / (double)(c->execs ? c->execs : 1), y, x);
    else
        add_sentence(rep, _("%s: %llu → %llu operations (%.1fx more); work-items of a warp on one address (they take "
                            "turns): %s → %s on average."), what, o->execs, c->execs,
                     (double)c->execs / (double)(o->execs ? o->execs : 1), y, x);
    if (sp == GM_LOCAL && differs(o->bank_avg, c->bank_avg, 0.02)) {
        gm_fmt_num(x, sizeof x, c->bank_avg);
        gm_fmt_num(y, sizeof y, o->bank_avg);
        if (c->bank_max <= 1) add_sentence(rep, _("%s: bank conflicts %s-way → %s-way on average (none)."), what, y, x);
        else add_sentence(rep, _("%s: bank conflicts %s-way → %s-way on average."), what, y, x);
    }
}

/* Local loads and stores: bank conflicts. */
static void compare_local(gpumodel_report *rep, const char *what, const gm_summary *o, const gm_summary *c,
                          const gm_access *cb, int had) {
    char x[32], y[32];
    gm_fmt_num(x, sizeof x, c->bank_avg);
    if (!had) {
        if (c->bank_max <= 1)
            add_sentence(rep, _("%s: new, %llu of them, with no bank conflicts."), what, c->execs);
        else
            add_sentence(rep, _("%s: new, %llu of them, with %s-way bank conflicts on average (%llu-way at worst, line "
                                "%d)."), what, c->execs, x, c->bank_max, cb->line);
        return;
    }
    gm_fmt_num(y, sizeof y, o->bank_avg);
    if (!differs(o->bank_avg, c->bank_avg, 0.02) && c->bank_max <= 1)
        add_sentence(rep, _("%s: no bank conflicts, as before."), what);
    else if (!differs(o->bank_avg, c->bank_avg, 0.02))
        add_sentence(rep, _("%s: %s-way bank conflicts on average, as before."), what, x);
    else if (c->bank_max <= 1)
        add_sentence(rep,
                     P_("%s: bank conflicts %s-way → %s-way on average (none): each request now takes %s instead of %s "
                        "pass through the banks.",
                        "%s: bank conflicts %s-way → %s-way on average (none): each request now takes %s instead of %s "
                        "passes through the banks.", gm_count_of(y)),
                     what, y, x, x, y);
    else
        add_sentence(rep,
                     P_("%s: bank conflicts %s-way → %s-way on average: each request now takes %s instead of %s pass "
                        "through the banks.",
                        "%s: bank conflicts %s-way → %s-way on average: each request now takes %s instead of %s passes "
                        "through the banks.", gm_count_of(y)),
                     what, y, x, x, y);
}

/* Global and constant loads and stores: efficiency, sectors, widths, requests. */
static void compare_memory(gpumodel_report *rep, const char *what, const gm_kernel *old, const gm_summary *o,
                           const gm_summary *c, const gm_access *cb, int had, int sp, int kd) {
    char a[32], b[32], x[32], y[32];
    int load = kd == GM_LOAD;
    gm_fmt_pct(b, sizeof b, c->efficiency);
    gm_fmt_num(x, sizeof x, cb->sectors_per_request);
    if (!had) {
        if (load)
            add_sentence(rep,
                         P_("%s: new, %s efficient; each warp reads %s sector per request (line %d).",
                            "%s: new, %s efficient; each warp reads %s sectors per request (line %d).", gm_count_of(x)),
                         what, b, x, cb->line);
        else
            add_sentence(rep,
                         P_("%s: new, %s efficient; each warp writes %s sector per request (line %d).",
                            "%s: new, %s efficient; each warp writes %s sectors per request (line %d).", gm_count_of(x)),
                         what, b, x, cb->line);
        return;
    }
    const gm_access *ob = &old->acc[o->busiest];
    gm_fmt_pct(a, sizeof a, o->efficiency);
    gm_fmt_num(y, sizeof y, ob->sectors_per_request);
    /* the efficiency and the sectors per request, then what else changed, one clause each */
    char text[GM_TEXT_MAX], clause[GM_TEXT_MAX];
    int same_eff = !strcmp(a, b), same_sectors = !strcmp(x, y);
    unsigned long long nx = gm_count_of(x);
    if (!same_eff && !same_sectors && load)
        util_textf(text, sizeof text,
                   P_("%s: %s → %s efficient: each warp now reads %s sector per request instead of %s",
                      "%s: %s → %s efficient: each warp now reads %s sectors per request instead of %s", nx),
                   what, a, b, x, y);
    else if (!same_eff && !same_sectors)
        util_textf(text, sizeof text,
                   P_("%s: %s → %s efficient: each warp now writes %s sector per request instead of %s",
                      "%s: %s → %s efficient: each warp now writes %s sectors per request instead of %s", nx),
                   what, a, b, x, y);
    else if (!same_eff)
        util_textf(text, sizeof text,
                   P_("%s: %s → %s efficient, %s sector per request", "%s: %s → %s efficient, %s sectors per request",
                      nx),
                   what, a, b, x);
    else if (!same_sectors && load)
        util_textf(text, sizeof text,
                   P_("%s: %s efficient as before: each warp now reads %s sector per request instead of %s",
                      "%s: %s efficient as before: each warp now reads %s sectors per request instead of %s", nx),
                   what, b, x, y);
    else if (!same_sectors)
        util_textf(text, sizeof text,
                   P_("%s: %s efficient as before: each warp now writes %s sector per request instead of %s",
                      "%s: %s efficient as before: each warp now writes %s sectors per request instead of %s", nx),
                   what, b, x, y);
    else
        util_textf(text, sizeof text,
                   P_("%s: %s efficient as before, %s sector per request",
                      "%s: %s efficient as before, %s sectors per request", nx),
                   what, b, x);
    if (o->width_max != c->width_max) {
        util_textf(clause, sizeof clause,
                   load ? _("the widest reads %u bytes per work-item instead of %u")
                        : _("the widest writes %u bytes per work-item instead of %u"),
                   c->width_max, o->width_max);
        gm_add_clause(text, sizeof text, clause);
    }
    if (differs((double)o->requests, (double)c->requests, 0.1)) {
        double r = (double)o->requests / (double)(c->requests ? c->requests : 1);
        if (r >= 1) util_textf(clause, sizeof clause, _("each warp makes %.1fx fewer requests"), r);
        else util_textf(clause, sizeof clause, _("each warp makes %.1fx more requests"), 1 / r);
        gm_add_clause(text, sizeof text, clause);
    }
    /* TRANSLATORS: the end of a sentence of the comparison */
    add_sentence(rep, _("%s."), text);
    if (sp == GM_CONSTANT && differs(o->distinct_avg, c->distinct_avg, 0.05)) {
        gm_fmt_num(x, sizeof x, c->distinct_avg);
        gm_fmt_num(y, sizeof y, o->distinct_avg);
        add_sentence(rep, _("%s: %s → %s distinct addresses per warp."), what, y, x);
    }
}

/* What a comparison is about: in a report of several kernels, with the kernel's name. */
static void about(char *buf, size_t len, const char *kernel, const char *what) {
    /* TRANSLATORS: a kernel's name and what of it is compared: "transpose, global loads" */
    if (kernel) util_textf(buf, len, _("%s, %s"), kernel, what);
    else util_textf(buf, len, "%s", what);
}

static void compare_kernel(gpumodel_report *rep, const gm_kernel *old, const gm_kernel *cur, const char *kernel) {
    for (int sp = 0; sp < GM_N_SPACES; sp++)
        for (int kd = 0; kd < GM_N_KINDS; kd++) {
            const gm_summary *o = old ? &old->sum[sp][kd] : NULL, *c = &cur->sum[sp][kd];
            int had = o && o->present, has = c->present;
            if (!had && !has) continue;
            char what[160];
            about(what, sizeof what, kernel, gm_access_shown(sp, kd, 1));
            if (!has) {
                add_sentence(rep, _("%s: none any more (there were %llu)."), what, o->execs);
                continue;
            }
            const gm_access *cb = &cur->acc[c->busiest];
            if (kd == GM_ATOMIC) compare_atomics(rep, what, o, c, had, sp);
            else if (sp == GM_LOCAL) compare_local(rep, what, o, c, cb, had);
            else compare_memory(rep, what, old, o, c, cb, had, sp, kd);
        }
    if (old && old->moved && cur->moved && differs((double)old->moved, (double)cur->moved, 0.05)) {
        char a[32], b[32], what[160];
        gm_fmt_bytes(a, sizeof a, (double)old->moved);
        gm_fmt_bytes(b, sizeof b, (double)cur->moved);
        about(what, sizeof what, kernel, _("global memory traffic"));
        double r = (double)old->moved / (double)(cur->moved ? cur->moved : 1);
        if (r >= 1)
            add_sentence(rep, _("%s: %s → %s (%.1fx less)."), what, a, b, r);
        else
            add_sentence(rep, _("%s: %s → %s (%.1fx more)."), what, a, b, 1 / r);
    }
}

void gpumodel_compare(gpumodel_report *rep, const gpumodel_report *prev, const char *label) {
    gm_free_lines(&rep->compare, &rep->n_compare);
    gpumodel_kernels_free(rep->prev_kernels, rep->n_prev_kernels);
    rep->prev_kernels = NULL;
    rep->n_prev_kernels = 0;
    if (prev && prev->status == GM_OK) { /* kept to draw before -> after */
        rep->prev_kernels = gpumodel_kernels_copy(prev->kernels, prev->n_kernels);
        rep->n_prev_kernels = rep->prev_kernels ? prev->n_kernels : 0;
    }
    util_copy_text(rep->prev_label, sizeof rep->prev_label, label ? label : _("the previous chapter"));
    if (!prev || prev->status != GM_OK) {
        if (prev && prev->message[0])
            add_sentence(rep, _("(no comparison: %s could not be analysed: %s)"), rep->prev_label, prev->message);
        else
            add_sentence(rep, _("(no comparison: %s could not be analysed)"), rep->prev_label);
    } else {
        for (int i = 0; i < rep->n_kernels; i++) {
            const gm_kernel *cur = &rep->kernels[i], *old = NULL;
            for (int j = 0; j < prev->n_kernels; j++)
                if (!strcmp(prev->kernels[j].name, cur->name)) old = &prev->kernels[j];
            if (!old && rep->n_kernels == 1 && prev->n_kernels == 1) old = &prev->kernels[0];
            compare_kernel(rep, old, cur, rep->n_kernels > 1 ? cur->name : NULL);
        }
        if (!rep->n_compare) add_sentence(rep, "%s", _("no memory accesses to compare."));
    }
    gpumodel_format(rep);
}
