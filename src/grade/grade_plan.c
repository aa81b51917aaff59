/* grade_plan — a chapter's grading plan, drawn from the seed: hidden sizes
 * and inputs, the inputs that expose each find-the-bug listing, the fixed
 * listings, speed, the race check and the technique checks, with their points. */
#define _GNU_SOURCE
#include "grade/grade.h"
#include "base/exitcode.h"
#include "gpumodel/gpumodel.h"
#include "problem/problem.h"
#include "base/rng.h"
#include "gpumodel/technique.h"
#include "run/srcpolicy.h"
#include "base/util.h"
#include "text/i18n.h"
#include "grade/verdict.h"
#include "run/wproto.h"

#include <ctype.h>
#include <pthread.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TECHNIQUE_POINTS 30.0
#define DEFAULT_FIX_POINTS 10.0
#define DEFAULT_SPEED_POINTS 10.0
#define CHAPTER_POINTS 100.0

/* A test's own seed, exact in JSON (under 2^53). */
static uint64_t test_seed(uint64_t seed, int chapter, int index) {
    return (rng_mix64(seed ^ rng_mix64((uint64_t)chapter * 1000003ull + (uint64_t)index)) >> 12) | 1;
}

/* ---- technique checks: see technique.h and verdict.h ----------------------- */

/* ---- the plan ------------------------------------------------------------- */

static grade_test *add_test(grade_chapter *ch, int *cap, grade_kind kind, const char *id, const char *file) {
    if (ch->n_tests == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        grade_test *nt = realloc(ch->tests, sizeof *nt * (size_t)ncap);
        if (!nt) return NULL;
        ch->tests = nt;
        *cap = ncap;
    }
    grade_test *t = &ch->tests[ch->n_tests++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->file, sizeof t->file, "%s", file);
    snprintf(t->status, sizeof t->status, "not_run");
    t->outcome = GO_FAIL;
    return t;
}

/* A spec for this size if the problem accepts it as written; 0 on success. */
static int make_spec(const problem_ops *ops, const prob_size *base, long n, long m, const char *input, char *buf,
                     size_t len) {
    prob_size s = *base;
    s.n = n;
    s.m = m;
    snprintf(s.input, sizeof s.input, "%s", input);
    ops->format_size(&s, buf, len);
    prob_size chk;
    char err[256];
    if (problem_parse_size(ops, buf, &chk, err, sizeof err) != 0) return -1;
    return chk.n == n ? 0 : -1;
}

/* An odd value in [lo, hi] that is not a multiple of the work-group size. */
static long odd_in(rng_state *r, long lo, long hi, long group) {
    if (lo < 1) lo = 1;
    if (hi < lo) hi = lo;
    long v = lo + (long)rng_below(r, (uint32_t)(hi - lo + 1));
    if (v % 2 == 0) v = v + 1 <= hi ? v + 1 : v - 1;
    if (v < 1) v = 1;
    if (group > 1 && v % group == 0) v += 2;
    return v;
}

/* A value in [lo, hi], odd or even as the seed draws it, that is not a
 * multiple of the work-group size: a kernel cannot count on either parity. */
static long ragged_in(rng_state *r, long lo, long hi, long group) {
    if (lo < 1) lo = 1;
    if (hi < lo) hi = lo;
    long v = lo + (long)rng_below(r, (uint32_t)(hi - lo + 1));
    if (group > 1 && v % group == 0) v += v + 1 <= hi ? 1 : -1;
    return v < 1 ? 1 : v;
}

/* An even value in [lo, hi] that is twice an odd number: a multiple of 2 and of no higher power of two (so of
 * no work-group size), whatever the seed. A kernel right only on multiples of 4, 8, ... then fails it at
 * every seed, not at some. */
static long even_in(rng_state *r, long lo, long hi, long group) {
    (void)group;
    long v = (ragged_in(r, lo, hi, 0) & ~3L) + 2;
    if (v > hi && v - 4 >= lo) v -= 4;
    return v < 2 ? 2 : v;
}

/* A power of two in [lo, hi], or the one just above lo. */
static long pow2_in(rng_state *r, long lo, long hi) {
    long p = 1, n = 0, first = 0;
    while (p <= hi && p < (1L << 40)) {
        if (p >= lo) { if (!first) first = p; n++; }
        p <<= 1;
    }
    if (!n) {
        p = 1;
        while (p < lo) p <<= 1;
        return p;
    }
    return first << rng_below(r, (uint32_t)n);
}

static int has_spec(const grade_chapter *ch, const char *spec, const char *file) {
    for (int i = 0; i < ch->n_tests; i++)
        if (ch->tests[i].kind == GT_HIDDEN && !strcmp(ch->tests[i].size, spec) && !strcmp(ch->tests[i].file, file))
            return 1;
    return 0;
}

/* Length of a count at p: digits and an optional K, M or G. */
static size_t count_len(const char *p) {
    size_t n = 0;
    while (isdigit((unsigned char)p[n])) n++;
    if (n && p[n] && strchr("KMGkmg", p[n])) n++;
    return n;
}

/* Replaces every LO..HI in a hidden_sizes entry with a value drawn from the
 * seed: odd or even, not a multiple of the work-group size where the range
 * allows; LO..HI/STEP draws LO plus a multiple of STEP. */
static int draw_ranges(const char *in, char *out, size_t len, rng_state *r, long group, char *err, size_t errlen) {
    size_t o = 0;
    const char *p = in;
    while (*p && o + 1 < len) {
        size_t n = isdigit((unsigned char)*p) ? count_len(p) : 0;
        if (!n || p[n] != '.' || p[n + 1] != '.' || !isdigit((unsigned char)p[n + 2])) {
            size_t c = n ? n : 1;
            if (o + c >= len) break;
            memcpy(out + o, p, c);
            o += c;
            p += c;
            continue;
        }
        size_t m = count_len(p + n + 2);
        char a[32], b[32];
        snprintf(a, sizeof a, "%.*s", (int)n, p);
        snprintf(b, sizeof b, "%.*s", (int)m, p + n + 2);
        long lo, hi, step = 0;
        size_t used = n + 2 + m;
        if (p[used] == '/' && isdigit((unsigned char)p[used + 1])) {
            char *end = NULL;
            step = strtol(p + used + 1, &end, 10);
            used = (size_t)(end - p);
        }
        if (util_parse_count(a, &lo) != 0 || util_parse_count(b, &hi) != 0 || hi < lo || (step && step < 1)) {
            util_errf(err, errlen, _("hidden_sizes: '%.*s' is not a range LO..HI or LO..HI/STEP"), (int)used, p);
            return -1;
        }
        long v;
        if (step) /* a multiple of STEP above LO: where a size must be, say, a multiple of 4 */
            v = lo + step * (long)rng_below(r, (uint32_t)((hi - lo) / step + 1));
        else
            v = hi - lo >= 2 ? ragged_in(r, lo, hi, group) : lo + (long)rng_below(r, (uint32_t)(hi - lo + 1));
        if (v > hi) v = hi;
        int w = snprintf(out + o, len - o, "%ld", v);
        if (w < 0 || (size_t)w >= len - o) break;
        o += (size_t)w;
        p += used;
    }
    out[o < len ? o : len - 1] = '\0';
    return 0;
}

/* Splits "a:1 b:2" into names and numbers; returns the count or -1. */
typedef struct {
    char name[64];
    double points;
    int used;
} weight_entry;

static int parse_weights(const char *what, const char *spec, weight_entry *out, int max, char *err, size_t errlen) {
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec ? spec : "");
    for (char *save = NULL, *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        char *sep = strpbrk(tok, ":=");
        char *end = NULL;
        double v = sep ? strtod(sep + 1, &end) : 0;
        if (!sep || sep == tok || end == sep + 1 || *end || v < 0 || v > 1e6) {
            util_errf(err, errlen, _("%s: '%s' is not NAME:POINTS (for example tests:70 technique:30)"), what, tok);
            return -1;
        }
        if (n == max) {
            util_errf(err, errlen, _("%s: more than %d entries"), what, max);
            return -1;
        }
        snprintf(out[n].name, sizeof out[n].name, "%.*s", (int)(sep - tok), tok);
        out[n].points = v;
        out[n].used = 0;
        n++;
    }
    return n;
}

/* The points group of a kind of test: 0 tests (the race check is one of them), 1 technique, 2 fixes, 3 speed. */
static int kind_group(grade_kind k) {
    return k == GT_HIDDEN || k == GT_SAFETY ? 0 : k == GT_TECHNIQUE ? 1 : k == GT_FIX ? 2 : 3;
}

static const char *const group_names[] = {"tests", "technique", "fixes", "speed"};

/* The assignment's weights (--weights) over the chapter's: groups only, since they apply to every chapter.
 * Returns the new count of w, or -1. */
static int assignment_weights(const char *spec, weight_entry *w, int nw, int max, char *err, size_t errlen) {
    weight_entry a[8];
    int na = parse_weights("--weights", spec, a, 8, err, errlen);
    for (int i = 0; i < na; i++) {
        int group = 0;
        for (int g = 0; g < 4; g++) group |= !strcmp(a[i].name, group_names[g]);
        if (!group)
            return util_errf(err, errlen, _("--weights: '%s' is not a group of tests (tests, technique, fixes, "
                                            "speed); a single test's points belong in its chapter's lesson.ini"),
                             a[i].name), -1;
        int k = 0;
        while (k < nw && strcmp(w[k].name, a[i].name)) k++;
        if (k == nw && nw == max) return util_errf(err, errlen, _("%s: more than %d entries"), "weights", max), -1;
        w[k] = a[i];
        if (k == nw) nw++;
    }
    return na < 0 ? -1 : nw;
}

int grade_weights_check(const char *spec, char *err, size_t errlen) {
    weight_entry w[8];
    return assignment_weights(spec, w, 0, 8, err, errlen) < 0 ? -1 : 0;
}

static int assign_weights(const grade_options *o, const lesson *l, grade_chapter *ch, char *err, size_t errlen) {
    weight_entry w[32];
    int nw = parse_weights("weights", lesson_param_get(l, "weights", ""), w, 32, err, errlen);
    if (nw >= 0 && o->weights && *o->weights) nw = assignment_weights(o->weights, w, nw, 32, err, errlen);
    if (nw < 0) return -1;
    double group_points[4] = {-1, -1, -1, -1};
    for (int i = 0; i < nw; i++) {
        for (int g = 0; g < 4; g++)
            if (!strcmp(w[i].name, group_names[g])) { group_points[g] = w[i].points; w[i].used = 1; }
        for (int t = 0; t < ch->n_tests && !w[i].used; t++)
            if (!strcmp(w[i].name, ch->tests[t].id)) w[i].used = 1;
        if (!w[i].used) {
            util_errf(err, errlen, _("weights: '%s' is neither a group (tests, technique, fixes, speed) nor a "
                                     "test of this chapter"), w[i].name);
            return -1;
        }
    }
    int count[4] = {0, 0, 0, 0};
    for (int t = 0; t < ch->n_tests; t++) {
        ch->tests[t].max_score = -1;
        for (int i = 0; i < nw; i++)
            if (!strcmp(w[i].name, ch->tests[t].id)) ch->tests[t].max_score = w[i].points;
        if (ch->tests[t].max_score < 0) count[kind_group(ch->tests[t].kind)]++;
    }
    /* defaults: a chapter is worth 100, of which technique 30 and fixes 10 when it has them */
    if (group_points[1] < 0) group_points[1] = count[1] ? DEFAULT_TECHNIQUE_POINTS : 0;
    if (group_points[2] < 0) group_points[2] = count[2] ? DEFAULT_FIX_POINTS : 0;
    if (group_points[3] < 0) group_points[3] = count[3] ? DEFAULT_SPEED_POINTS : 0;
    if (group_points[0] < 0) {
        /* a group with no test here (an assignment's weights name it for every chapter) takes nothing */
        group_points[0] = CHAPTER_POINTS - (count[1] ? group_points[1] : 0) - (count[2] ? group_points[2] : 0);
        if (group_points[0] < 0) group_points[0] = 0;
    }
    for (int t = 0; t < ch->n_tests; t++) {
        grade_test *gt = &ch->tests[t];
        if (gt->max_score >= 0) continue;
        int k = kind_group(gt->kind);
        gt->max_score = count[k] ? group_points[k] / count[k] : 0;
    }
    return 0;
}

/* The size the race check and the technique checks are measured at: drawn
 * from the chapter's technique_sizes ranges, else from its analysis size
 * with the first dimension made ragged (between half and all of it). */
static int technique_size(const problem_ops *ops, const lesson *l, rng_state *r, long group, char *out, size_t len,
                          char *err, size_t errlen) {
    const char *ranges = lesson_param_get(l, "technique_sizes", NULL);
    char spec[128];
    if (ranges && *ranges) {
        if (draw_ranges(ranges, spec, sizeof spec, r, group, err, errlen) != 0) return -1;
    } else {
        prob_size base;
        if (problem_parse_size(ops, gpumodel_analysis_size(l, NULL), &base, err, errlen) != 0) return -1;
        long lo = base.n / 2 > 1 ? base.n / 2 : 1;
        long n = base.n > 2 ? lo + (long)rng_below(r, (uint32_t)(base.n - lo)) : base.n;
        if (make_spec(ops, &base, n, base.m, base.input, spec, sizeof spec) != 0)
            snprintf(spec, sizeof spec, "%s", gpumodel_analysis_size(l, NULL));
    }
    prob_size chk;
    if (problem_parse_size(ops, spec, &chk, err, errlen) != 0) return -1;
    ops->format_size(&chk, out, len);
    return 0;
}

/* Building one chapter's plan: what every step shares. */
typedef struct {
    const grade_options *o;
    const lesson *l;
    const problem_ops *ops;
    grade_chapter *ch;
    int cap;
    prob_size base;
    long group;
    rng_state r;
    rng_state checks;   /* the race and technique checks' draws: from the analysis seed (a batch's own) */
    char ini[1200];
    char *err;
    size_t errlen;
} planner;

/* Adds a test of the exercise (or file) at spec, named by fmt; -1 out of memory. */
static int plan_add(planner *pl, grade_kind kind, const char *id, const char *file, const char *spec, const char *fmt,
                    ...) __attribute__((format(printf, 6, 7)));
static int plan_add(planner *pl, grade_kind kind, const char *id, const char *file, const char *spec, const char *fmt,
                    ...) {
    grade_test *t = add_test(pl->ch, &pl->cap, kind, id, file ? file : pl->l->exercise);
    if (!t) return util_errf(pl->err, pl->errlen, "%s", _("out of memory")), -1;
    snprintf(t->size, sizeof t->size, "%s", spec);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->name, sizeof t->name, fmt, ap);
    va_end(ap);
    return 0;
}

/* A size the problem parses, in its own words (spec may be given); -1 with
 * the lesson.ini key at fault (label) in the error. */
static int plan_size(planner *pl, const char *label, const char *given, char *spec, size_t len) {
    prob_size chk;
    char perr[512];
    if (problem_parse_size(pl->ops, given, &chk, perr, sizeof perr) != 0) {
        util_errf(pl->err, pl->errlen, "%s: %s: %s", pl->ini, label, perr);
        return -1;
    }
    pl->ops->format_size(&chk, spec, len);
    return 0;
}

/* Sizes listed under a lesson.ini key (hidden_sizes, hidden_shapes): ranges
 * drawn from the seed, each a test named PREFIX.N. */
static int plan_listed_sizes(planner *pl, const char *key, const char *listed, const char *prefix, const char *what) {
    char buf[512], spec[128], perr[512];
    snprintf(buf, sizeof buf, "%s", listed);
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        if (draw_ranges(tok, spec, sizeof spec, &pl->r, pl->group, perr, sizeof perr) != 0)
            return util_errf(pl->err, pl->errlen, "%s: %s: %s", pl->ini, key, perr), -1;
        char label[96];
        snprintf(label, sizeof label, "%s '%s'", key, tok);
        if (plan_size(pl, label, spec, spec, sizeof spec) != 0) return -1;
        if (has_spec(pl->ch, spec, pl->l->exercise)) continue;
        char id[32];
        snprintf(id, sizeof id, "%s.%d", prefix, ++k);
        if (plan_add(pl, GT_HIDDEN, id, NULL, spec, "%s %d: %s", what, k, spec) != 0) return -1;
    }
    return 0;
}

/* A size of n items and m bins (input kind in), added as id unless another
 * test has it (dedupe) or the problem takes no such size; -1 out of memory. */
static int plan_drawn(planner *pl, long n, long m, const char *in, int dedupe, const char *id, const char *what) {
    char spec[128];
    if (make_spec(pl->ops, &pl->base, n, m, in, spec, sizeof spec) != 0) return 0;
    if (dedupe && has_spec(pl->ch, spec, pl->l->exercise)) return 0;
    return plan_add(pl, GT_HIDDEN, id, NULL, spec, "%s %s", what, spec);
}

/* Sizes drawn from the seed around the chapter's own: ragged, even, a power
 * of two, every degenerate input, one bin, length 1, empty, large. */
static int plan_drawn_sizes(planner *pl) {
    const problem_ops *ops = pl->ops;
    long n0 = pl->base.n, m0 = pl->base.m, group = pl->group;
    long lo = n0 / 4 > group + 1 ? n0 / 4 : group + 1, hi = n0 / 2 > lo ? n0 / 2 : lo + 2 * group;
    const char *input0 = ops->input_kinds[0];
    char spec[128];
    /* sizes that are not multiples of the work-group size or of 4, fewer bins than usual */
    long m_odd = m0 > 4 ? odd_in(&pl->r, m0 / 4 > 1 ? m0 / 4 : 1, m0, 0) : m0;
    long n_odd = odd_in(&pl->r, lo, hi, group);
    if (make_spec(ops, &pl->base, n_odd, m_odd, input0, spec, sizeof spec) != 0) m_odd = m0;
    if (plan_drawn(pl, n_odd, m_odd, input0, 0, "odd", "odd size") != 0) return -1;
    /* an even size and a power of two: neither parity nor a round size may be assumed */
    if (plan_drawn(pl, even_in(&pl->r, lo, hi, group), m0, input0, 1, "even", "even size") != 0) return -1;
    if (plan_drawn(pl, pow2_in(&pl->r, lo, hi), m0, input0, 1, "pow2", "power-of-two size") != 0) return -1;
    /* every degenerate input the problem knows: one bin, ties, all bytes equal, ... */
    for (int k = 1; ops->input_kinds[k]; k++) {
        char id[64], what[96];
        snprintf(id, sizeof id, "input.%s", ops->input_kinds[k]);
        snprintf(what, sizeof what, "input '%s'", ops->input_kinds[k]);
        if (plan_drawn(pl, ragged_in(&pl->r, lo, hi, group), m0, ops->input_kinds[k], 0, id, what) != 0) return -1;
    }
    /* a single bin, where the problem has a bin count */
    if (m0 > 1) {
        long n = odd_in(&pl->r, group + 1, 4 * group + 1, group);
        prob_size chk;
        char perr[256];
        if (make_spec(ops, &pl->base, n, 1, input0, spec, sizeof spec) == 0 &&
            problem_parse_size(ops, spec, &chk, perr, sizeof perr) == 0 && chk.m == 1 &&
            plan_add(pl, GT_HIDDEN, "single", NULL, spec, "a single bin %s", spec) != 0)
            return -1;
    }
    /* length 1, and empty where the problem allows it */
    if (plan_drawn(pl, 1, m0, input0, 1, "one", "length 1") != 0) return -1;
    if (plan_drawn(pl, 0, m0, input0, 0, "empty", "empty input") != 0) return -1;
    /* large: the chapter's own size, made ragged */
    long n_large = ragged_in(&pl->r, n0 + 1, n0 + 2 * (group > 1 ? group : 2), group);
    return plan_drawn(pl, n_large, m0, input0, 0, "large", "large size");
}

/* The inputs that expose each find-the-bug listing's bug, then the fixed listings. */
static int plan_bugs(planner *pl) {
    const lesson *l = pl->l;
    char spec[128], key[96], id[64];
    for (int b = 0; b < l->n_bugs; b++) {
        snprintf(key, sizeof key, "[bug.%s] exposes", l->bugs[b].name);
        if (plan_size(pl, key, l->bugs[b].exposes, spec, sizeof spec) != 0) return -1;
        if (has_spec(pl->ch, spec, l->exercise)) continue;
        snprintf(id, sizeof id, "bug.%s", l->bugs[b].name);
        if (plan_add(pl, GT_HIDDEN, id, NULL, spec, "the input that exposes bug '%s' %s", l->bugs[b].name, spec) != 0)
            return -1;
    }
    if (pl->ch->n_tests == 0)
        return util_errf(pl->err, pl->errlen, _("%s: no hidden test fits this chapter's problem; set hidden_sizes"),
                         pl->ini), -1;
    for (int b = 0; b < l->n_bugs; b++) {
        if (plan_size(pl, "exposes", l->bugs[b].exposes, spec, sizeof spec) != 0) return -1;
        snprintf(id, sizeof id, "fix.%s", l->bugs[b].name);
        if (plan_add(pl, GT_FIX, id, l->bugs[b].file, spec, "find the bug '%s' fixed: %s", l->bugs[b].name, spec) != 0)
            return -1;
    }
    return 0;
}

/* Where the cost is judged a second time (scale_analysis): the chapter's own
 * size made ragged, as the hidden "large" test's, in the input the analysis
 * names (chapter 7: equal bytes, where the copies show), drawn from the analysis
 * seed, so that a whole class is measured at one size (each reference
 * simulated once); with hidden_sizes, the largest of them. 0, or -1 where
 * the problem takes no such size. */
static int scale_size(planner *pl, char *out, size_t len) {
    const char *listed = lesson_param_get(pl->l, "hidden_sizes", NULL);
    if (!listed || !*listed) {
        long n0 = pl->base.n, group = pl->group;
        long n = ragged_in(&pl->checks, n0 + 1, n0 + 2 * (group > 1 ? group : 2), group);
        char input[32];
        verdict_analysis_input(pl->l, input, sizeof input);
        return make_spec(pl->ops, &pl->base, n, pl->base.m, *input ? input : pl->ops->input_kinds[0], out, len);
    }
    double most = 0;
    for (int i = 0; i < pl->ch->n_tests; i++) {
        const grade_test *t = &pl->ch->tests[i];
        prob_size s;
        char err[256];
        if (t->kind != GT_HIDDEN || strcmp(t->file, pl->l->exercise) != 0 ||
            problem_parse_size(pl->ops, t->size, &s, err, sizeof err) != 0)
            continue;
        double work = (double)s.n * (double)(s.m > 0 ? s.m : 1) * (double)(s.k > 0 ? s.k : 1);
        if (work > most) {
            most = work;
            snprintf(out, len, "%s", t->size);
        }
    }
    return most > 0 ? 0 : -1;
}

/* The speed test when asked for, then the race check and the technique
 * checks: measured on one analysis at a size drawn from the analysis seed,
 * which the kernel cannot know (in a batch, the same for every student). */
static int plan_speed_and_checks(planner *pl) {
    const lesson *l = pl->l;
    char spec[128], perr[512];
    if (pl->o->require_speedup > 0 && l->previous > 0) {
        if (plan_size(pl, "speed_size", lesson_param_get(l, "speed_size", l->default_size), spec, sizeof spec) != 0 ||
            plan_add(pl, GT_SPEED, "speed", NULL, spec, "speed-up of at least %gx over chapter %d's reference at %s",
                     pl->o->require_speedup, l->previous, spec) != 0)
            return -1;
    }
    technique_check tq[TECHNIQUE_MAX];
    int nq = technique_parse(lesson_param_get(l, "technique", ""), tq, TECHNIQUE_MAX, perr, sizeof perr);
    if (nq < 0) return util_errf(pl->err, pl->errlen, "%s: %s", pl->ini, perr), -1;
    char tsize[128] = "", name[192];
    if ((nq > 0 || verdict_has_safety(l)) &&
        technique_size(pl->ops, l, &pl->checks, pl->group, tsize, sizeof tsize, perr, sizeof perr) != 0)
        return util_errf(pl->err, pl->errlen, "%s: %s", pl->ini, perr), -1;
    if (verdict_has_safety(l) &&
        plan_add(pl, GT_SAFETY, "safety", NULL, tsize, "%s", "no data race, memory error or divergent barrier (Oclgrind)") != 0)
        return -1;
    char big[sizeof pl->ch->tests[0].scale_size] = "";
    if (*lesson_param_get(l, "scale_analysis", "") && scale_size(pl, big, sizeof big) != 0) big[0] = '\0';
    for (int i = 0; i < nq; i++) {
        char id[64];
        technique_id(&tq[i], id, sizeof id);
        technique_title(&tq[i], name, sizeof name);
        if (plan_add(pl, GT_TECHNIQUE, id, NULL, tsize, "%s", name) != 0) return -1;
        grade_test *t = &pl->ch->tests[pl->ch->n_tests - 1];
        snprintf(t->check, sizeof t->check, "%s", tq[i].text);
        if (technique_needs_reference(&tq[i])) snprintf(t->scale_size, sizeof t->scale_size, "%s", big);
    }
    return 0;
}

/* Each fix's second run: the chapter's first hidden test at another size than the one that exposes the bug
 * (fixed before --tests picks a subset, so that a fix regraded alone is still run there). */
static void plan_fix_holds(grade_chapter *ch) {
    for (int f = 0; f < ch->n_tests; f++) {
        grade_test *fix = &ch->tests[f];
        for (int i = 0; fix->kind == GT_FIX && !fix->holds_size[0] && i < ch->n_tests; i++) {
            const grade_test *t = &ch->tests[i];
            if (t->kind != GT_HIDDEN || !strcmp(t->size, fix->size)) continue;
            snprintf(fix->holds_id, sizeof fix->holds_id, "%s", t->id);
            snprintf(fix->holds_size, sizeof fix->holds_size, "%s", t->size);
            fix->holds_seed = t->seed;
        }
    }
}

/* A subset, for regrading some tests: the points stay those of the full plan.
 * The list as given, of any length: an id is a whole item between commas or spaces. */
static void plan_keep_only(grade_chapter *ch, const char *only) {
    int kept = 0;
    for (int i = 0; i < ch->n_tests; i++) {
        int want = 0;
        size_t idlen = strlen(ch->tests[i].id);
        for (const char *p = only; *p && !want;) {
            p += strspn(p, ", ");
            size_t n = strcspn(p, ", ");
            want = n == idlen && !strncmp(p, ch->tests[i].id, n);
            p += n;
        }
        if (want) ch->tests[kept++] = ch->tests[i];
    }
    ch->n_tests = kept;
}

int grade_plan(const grade_options *o, const lesson *l, grade_chapter *ch, char *err, size_t errlen) {
    memset(ch, 0, sizeof *ch);
    snprintf(ch->id, sizeof ch->id, "%s", l->id);
    ch->number = l->number;
    snprintf(ch->title, sizeof ch->title, "%s", l->title);
    snprintf(ch->title_zh, sizeof ch->title_zh, "%s", l->title_zh);
    snprintf(ch->file, sizeof ch->file, "exercises/%s/%s", l->id, l->exercise);
    planner pl = {.o = o, .l = l, .ch = ch, .err = err, .errlen = errlen, .ops = problem_find(l->problem)};
    snprintf(pl.ini, sizeof pl.ini, "%s/lesson.ini", l->dir);
    if (!pl.ops) return util_errf(err, errlen, _("%s: unknown problem '%s'"), pl.ini, l->problem), -1;
    char perr[512];
    if (problem_parse_size(pl.ops, l->default_size, &pl.base, perr, sizeof perr) != 0)
        return util_errf(err, errlen, "%s: default_size: %s", pl.ini, perr), -1;
    pl.group = (long)problem_local_size(l);
    rng_seed(&pl.r, rng_mix64(o->seed ^ rng_mix64((uint64_t)l->number)));
    uint64_t aseed = grade_analysis_seed(o);
    rng_seed(&pl.checks, rng_mix64(aseed ^ rng_mix64(0x636865636bull + (uint64_t)l->number)));
    const char *hidden = lesson_param_get(l, "hidden_sizes", NULL);
    int rc = hidden && *hidden ? plan_listed_sizes(&pl, "hidden_sizes", hidden, "hidden", "hidden test") : plan_drawn_sizes(&pl);
    /* shapes a kernel could hard-wire: feature counts, narrow images, lengths around a block */
    const char *shapes = lesson_param_get(l, "hidden_shapes", NULL);
    if (rc == 0 && shapes && *shapes) rc = plan_listed_sizes(&pl, "hidden_shapes", shapes, "shape", "hidden shape");
    if (rc == 0) rc = plan_bugs(&pl);
    if (rc == 0) rc = plan_speed_and_checks(&pl);
    for (int i = 0; rc == 0 && i < ch->n_tests; i++) {
        int check = ch->tests[i].kind == GT_SAFETY || ch->tests[i].kind == GT_TECHNIQUE;
        ch->tests[i].seed = test_seed(check ? aseed : o->seed, l->number, i);
    }
    if (rc == 0 && assign_weights(o, l, ch, perr, sizeof perr) != 0) {
        util_errf(err, errlen, "%s: %s", pl.ini, perr);
        rc = -1;
    }
    if (rc != 0) {
        free(ch->tests);
        ch->tests = NULL;
        ch->n_tests = 0;
        return -1;
    }
    plan_fix_holds(ch);
    if (o->only && *o->only) plan_keep_only(ch, o->only);
    for (int i = 0; i < ch->n_tests; i++) ch->max_score += ch->tests[i].max_score;
    return 0;
}

int grade_count(const grade_options *o, char *err, size_t errlen) {
    int total = 0;
    for (int i = 0; i < o->n_lessons; i++) {
        grade_chapter ch;
        if (grade_plan(o, o->lessons[i], &ch, err, errlen) != 0) return -1;
        total += ch.n_tests;
        free(ch.tests);
    }
    return total;
}
