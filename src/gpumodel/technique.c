/* technique — what each chapter teaches, measured by its effect on the
 * learner's own kernel in the GPU memory model, never by a declaration. */
#define _DEFAULT_SOURCE
#include "gpumodel/technique.h"
#include "text/i18n.h"
#include "text/tmsg.h"
#include "base/util.h"

#include <ini.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    technique_op op;
    double threshold;
    const char *what;
    const char *phrase;
} metric_info;

static technique_op op_of(const char *s) {
    return !strcmp(s, "<=") ? TQ_LE : !strcmp(s, ">") ? TQ_GT : !strcmp(s, "<") ? TQ_LT : TQ_GE;
}

static metric_info info_of(technique_metric m) {
    switch (m) {
#define TQ_INFO(e, name, op, thr, what, phrase) case e: return (metric_info){name, op_of(op), thr, what, phrase};
        TECHNIQUE_METRICS(TQ_INFO)
#undef TQ_INFO
    default: return (metric_info){"?", TQ_GE, 0, "?", "?"};
    }
}

const char *technique_metric_name(technique_metric m) { return info_of(m).name; }

const char *technique_metric_phrase(technique_metric m) { return info_of(m).phrase; }

int technique_metric_lookup(const char *name, size_t len) {
    for (int m = 0; m < TQ_N_METRICS; m++) {
        const char *n = info_of((technique_metric)m).name;
        if (strlen(n) == len && !strncmp(n, name, len)) return m;
    }
    return -1;
}

const char *technique_op_text(technique_op op) {
    static const char *const text[] = {">=", "<=", ">", "<"};
    return (unsigned)op < 4 ? text[op] : "?";
}

int technique_parse(const char *spec, technique_check *out, int max, char *err, size_t errlen) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec ? spec : "");
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        if (n == max) {
            util_errf(err, errlen, _("technique: at most %d checks"), max);
            return -1;
        }
        technique_check *c = &out[n];
        memset(c, 0, sizeof *c);
        snprintf(c->text, sizeof c->text, "%s", tok);
        size_t name_len = strcspn(tok, "<>=@");
        if (tok[name_len] == '@') {
            size_t klen = strcspn(tok + name_len + 1, "<>=");
            if (klen == 0 || klen >= sizeof c->kernel) {
                util_errf(err, errlen, _("technique '%s': name a kernel after @"), tok);
                return -1;
            }
            snprintf(c->kernel, sizeof c->kernel, "%.*s", (int)klen, tok + name_len + 1);
        }
        int found = 0;
        for (int m = 0; m < TQ_N_METRICS && !found; m++) {
            const char *name = technique_metric_name((technique_metric)m);
            if (strlen(name) == name_len && !strncmp(name, tok, name_len)) {
                c->metric = (technique_metric)m;
                found = 1;
            }
        }
        if (!found) {
            char known[512] = "";
            for (int m = 0; m < TQ_N_METRICS; m++) {
                size_t u = strlen(known);
                snprintf(known + u, sizeof known - u, "%s%s", m ? ", " : "", technique_metric_name((technique_metric)m));
            }
            util_errf(err, errlen, _("technique '%.*s' is not a known check (known: %s)"), (int)name_len, tok, known);
            return -1;
        }
        metric_info mi = info_of(c->metric);
        c->op = mi.op;
        c->threshold = mi.threshold;
        const char *rest = tok + name_len + (c->kernel[0] ? strlen(c->kernel) + 1 : 0);
        if (*rest) {
            size_t ow = rest[1] == '=' ? 2 : 1;
            if (rest[0] == '=' || (rest[0] != '<' && rest[0] != '>')) {
                util_errf(err, errlen, _("technique '%s': write the threshold as >=, <=, > or <"), tok);
                return -1;
            }
            char opbuf[3];
            snprintf(opbuf, sizeof opbuf, "%.*s", (int)ow, rest);
            c->op = op_of(opbuf);
            char *end;
            c->threshold = strtod(rest + ow, &end);
            if (end == rest + ow || *end) {
                util_errf(err, errlen, _("technique '%s': '%s' is not a number"), tok, rest + ow);
                return -1;
            }
        }
        n++;
    }
    return n;
}

void technique_id(const technique_check *c, char *buf, size_t len) {
    snprintf(buf, len, "technique.%s%s%s", technique_metric_name(c->metric), c->kernel[0] ? "." : "", c->kernel);
}

static void title_of(const technique_check *c, char *buf, size_t len);

void technique_title(const technique_check *c, char *buf, size_t len) {
    title_of(c, buf, len);
    if (c->kernel[0]) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, " (kernel %s)", c->kernel);
    }
}

static void title_of(const technique_check *c, char *buf, size_t len) {
    switch (c->metric) {
    case TQ_LOCAL_MEMORY: snprintf(buf, len, "%s", N_("technique: uses __local memory")); break;
    case TQ_CONSTANT_ARGS: snprintf(buf, len, "%s", N_("technique: takes a __constant argument")); break;
    case TQ_COALESCING: snprintf(buf, len, "%s", N_("technique: coalesced global loads and stores")); break;
    case TQ_COALESCED_LOADS: snprintf(buf, len, "%s", N_("technique: coalesced global loads")); break;
    case TQ_COALESCED_STORES: snprintf(buf, len, "%s", N_("technique: coalesced global stores")); break;
    case TQ_WIDE_LOADS: snprintf(buf, len, "%s", N_("technique: 16-byte (float4) loads")); break;
    case TQ_LOCAL_LOADS: snprintf(buf, len, "%s", N_("technique: the inner loop reads __local memory")); break;
    case TQ_CONSTANT_BROADCASTS: snprintf(buf, len, "%s", N_("technique: __constant broadcasts")); break;
    case TQ_LOCAL_ATOMICS: snprintf(buf, len, "%s", N_("technique: counting with __local atomics")); break;
    case TQ_BANK_CONFLICTS: snprintf(buf, len, "%s", N_("technique: no bank conflicts")); break;
    case TQ_ACTIVE_LANES: snprintf(buf, len, "%s", N_("technique: the work spread over the work-items")); break;
    case TQ_LOCAL_OPS: snprintf(buf, len, "%s", N_("technique: a work-efficient scan")); break;
    case TQ_GLOBAL_LOADS_VS_PREV: snprintf(buf, len, "%s", N_("technique: fewer global loads than the previous stage")); break;
    case TQ_LOAD_REQUESTS_VS_PREV: snprintf(buf, len, "%s", N_("technique: fewer load requests than the previous stage")); break;
    case TQ_COST: snprintf(buf, len, "%s", N_("technique: costs a GPU no more than the reference")); break;
    default: snprintf(buf, len, "technique: %s", c->text); break;
    }
}

static int compare(double v, technique_op op, double thr) {
    switch (op) {
    case TQ_GE: return v >= thr;
    case TQ_LE: return v <= thr;
    case TQ_GT: return v > thr;
    case TQ_LT: return v < thr;
    }
    return 0;
}

/* Every access of the analysed kernels (of the one the check names, if it
 * names one), one call each. */
typedef void (*access_fn)(const gm_kernel *k, const gm_access *a, void *user);
static void each_access(const gpumodel_report *rep, const char *only, access_fn fn, void *user) {
    for (int k = 0; k < rep->n_kernels; k++) {
        if (only && *only && strcmp(rep->kernels[k].name, only) != 0) continue;
        for (int i = 0; i < rep->kernels[k].n_acc; i++) fn(&rep->kernels[k], &rep->kernels[k].acc[i], user);
    }
}

/* Byte, execution and request totals by space and kind over every kernel. */
typedef struct {
    double load_bytes[GM_N_SPACES], wide_load_bytes, broadcast_constant_bytes;
    double execs[GM_N_SPACES][GM_N_KINDS];
    double requests, lanes;
} traffic;

static void traffic_visit(const gm_kernel *k, const gm_access *a, void *user) {
    (void)k;
    traffic *t = user;
    t->execs[a->space][a->kind] += (double)a->execs;
    t->requests += (double)a->requests;
    t->lanes += (double)a->lanes;
    if (a->kind != GM_LOAD) return;
    t->load_bytes[a->space] += (double)a->bytes;
    if (a->space != GM_LOCAL && a->width_max >= 16) t->wide_load_bytes += (double)a->bytes;
    if (a->space == GM_CONSTANT && a->distinct_avg <= 1.5) t->broadcast_constant_bytes += (double)a->bytes;
}

/* The worst significant access among those a check judges: each access that
 * carries TECHNIQUE_SIGNIFICANT of the traffic (its weight) must meet the
 * check by itself. Coalescing weighs global loads or stores by sectors and
 * the least efficient is worst; bank conflicts weigh __local accesses by
 * requests and the most conflicted is worst. */
typedef struct {
    int bank;                              /* 0: coalescing, 1: bank conflicts */
    int want_load, want_store;             /* coalescing: which global accesses */
    int pass;                              /* 0 sums the weights, 1 finds the worst */
    unsigned long long total;
    double worst;
    const gm_access *worst_acc;
    const gm_kernel *worst_kernel;
} worst_scan;

static void worst_visit(const gm_kernel *k, const gm_access *a, void *user) {
    worst_scan *s = user;
    unsigned long long weight;
    double value;
    if (s->bank) {
        if (a->space != GM_LOCAL || !a->requests) return;
        weight = a->requests;
        value = a->bank_avg;
    } else {
        if (a->space != GM_GLOBAL || !a->sectors) return;
        if (!((a->kind == GM_LOAD && s->want_load) || (a->kind == GM_STORE && s->want_store))) return;
        weight = a->sectors;
        value = a->efficiency;
    }
    if (s->pass == 0) { s->total += weight; return; }
    if ((double)weight < TECHNIQUE_SIGNIFICANT * (double)s->total) return;
    int worse = s->bank ? value > s->worst : value < s->worst;
    if (!s->worst_acc || worse) {
        s->worst = value;
        s->worst_acc = a;
        s->worst_kernel = k;
    }
}

/* Runs the two passes over the kernels the check judges. */
static void find_worst(const gpumodel_report *rep, const char *only, worst_scan *s) {
    s->pass = 0;
    each_access(rep, only, worst_visit, s);
    s->pass = 1;
    each_access(rep, only, worst_visit, s);
}

static void set_where(technique_result *r, const gm_kernel *k, const gm_access *a) {
    if (k) snprintf(r->kernel, sizeof r->kernel, "%s", k->name);
    if (a) r->line = a->line;
}

/* "what was measured. The chapter asks for ... . advice": measured a piece
 * of r->msg, advice English (N_); kept in r->msg to be shown in any
 * language, and written in the current one in r->detail. */
static void finish(technique_result *r, const technique_check *c, const char *measured, const char *advice) {
    r->met = r->measured && compare(r->value, c->op, c->threshold);
    tmsg *t = &r->msg;
    const char *name = tmsg_id(t, technique_metric_phrase(c->metric)), *op = technique_op_text(c->op);
    if (r->met && c->kernel[0])
        tmsg_set(t, N_("%s The chapter asks for %s in kernel %s %s %g."), measured, name, c->kernel, op, c->threshold);
    else if (r->met)
        tmsg_set(t, N_("%s The chapter asks for %s %s %g."), measured, name, op, c->threshold);
    else if (c->kernel[0])
        tmsg_set(t, N_("%s The chapter asks for %s in kernel %s %s %g. %s"), measured, name, c->kernel, op,
                 c->threshold, tmsg_id(t, advice));
    else
        tmsg_set(t, N_("%s The chapter asks for %s %s %g. %s"), measured, name, op, c->threshold, tmsg_id(t, advice));
    tmsg_render(t, r->detail, sizeof r->detail);
}

/* why is English (N_), translated here. */
static void not_measured(technique_result *r, const char *why) {
    r->measured = 0;
    r->met = 0;
    tmsg_use(&r->msg, tmsg_id(&r->msg, why));
    tmsg_render(&r->msg, r->detail, sizeof r->detail);
}

/* A detail that is a piece of r->msg alone. */
static void detail_is(technique_result *r, const char *piece) {
    tmsg_use(&r->msg, piece);
    tmsg_render(&r->msg, r->detail, sizeof r->detail);
}

static double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

int technique_needs_reference(const technique_check *c) { return c->metric == TQ_COST; }

/* What to change where a term costs more than the reference's (English, N_). */
static const char *cost_advice(gp_term t) {
    switch (t) {
    case GPT_MEMORY: return N_("Move each byte between memory and the chip once, as the reference does.");
    case GPT_L1: return N_("Let neighbouring work-items read and write neighbouring addresses, so that a warp's "
                           "request falls in as few 128-byte lines as the reference's.");
    case GPT_LOCAL: return N_("Lay out the __local data so that the work-items of a warp fall in different banks "
                              "(padding, or another layout).");
    case GPT_LATOMIC: return N_("Spread the work-items of a warp over different __local words in different banks "
                                "(a copy per lane, padded), so that none waits for another.");
    case GPT_GATOMIC: return N_("Count in __local memory and add to the global result once per work-group.");
    case GPT_CONSTANT: return N_("Let the work-items of a warp read one __constant address at a time (a "
                                 "broadcast); data each reads differently belongs elsewhere.");
    case GPT_LATENCY: return N_("Share the work among the work-items: a loop that one work-item runs alone waits "
                                "for each of its loads in turn.");
    case GPT_COMPUTE: return N_("Do no more arithmetic per result than the reference.");
    default: return N_("Do what the chapter shows.");
    }
}

/* What a term's cost is made of, for people (English, N_). */
static const char *cost_what(gp_term t) {
    switch (t) {
    case GPT_MEMORY: return N_("memory traffic");
    case GPT_L1: return N_("global load and store requests");
    case GPT_LOCAL: return N_("__local loads and stores");
    case GPT_LATOMIC: return N_("__local atomics");
    case GPT_GATOMIC: return N_("global atomics");
    case GPT_CONSTANT: return N_("__constant reads");
    case GPT_LATENCY: return N_("loads that one work-item waits for in turn");
    case GPT_COMPUTE: return N_("arithmetic");
    default: return N_("launches");
    }
}

/* The kernel's modelled cost over ref's at rep's size, in r (value, line,
 * kernel) with the sentence that says why, a piece of r->msg, in *m; -1
 * where it cannot be modelled. where: the size, text or a piece of r->msg. */
static int cost_ratio(const gpumodel_report *rep, const gm_cost *ref, const technique_inputs *in, const char *where,
                      technique_result *r, const char **m, gp_term *worst) {
    gm_cost mine;
    char err[512];
    tmsg *t = &r->msg;
    if (gm_cost_of(rep, in->lesson, in->profile, &mine, err, sizeof err) != 0) {
        *m = tmsg_part_of(t, "The kernel's cost could not be modelled: %s", err);
        return -1;
    }
    r->value = mine.total_s / ref->total_s;
    gp_term w = *worst = gm_cost_worst_term(&mine, ref);
    r->line = mine.line[w];
    util_copy_text(r->kernel, sizeof r->kernel, mine.kernel[w]);
    if (mine.line[w] && *gm_cost_unit(w))
        *m = tmsg_part_of(t, "Modelled on an %s at %s, the kernel costs %.2f times the reference's. What costs "
                             "most beyond it is %s, at line %d of kernel '%s': %.3g %s, where the reference's "
                             "take %.3g.",
                          in->profile->name, where, r->value, tmsg_id(t, cost_what(w)), mine.line[w], mine.kernel[w],
                          mine.per_request[w], tmsg_id(t, gm_cost_unit(w)), ref->per_request[w]);
    else
        *m = tmsg_part_of(t, "Modelled on an %s at %s, the kernel costs %.2f times the reference's. What costs "
                             "most beyond it is %s.", in->profile->name, where, r->value, tmsg_id(t, cost_what(w)));
    return 0;
}

/* The cost check: the kernel's modelled cost against the reference's, and
 * the mechanism that costs more; where a run at a hidden test's size is
 * given too, the larger of the two ratios. */
static void measure_cost(const technique_check *c, const gpumodel_report *rep, const technique_inputs *in,
                         technique_result *r) {
    if (!in || !in->reference || !in->lesson || !in->profile || in->reference->total_s <= 0) {
        not_measured(r, N_("The chapter's reference could not be analysed at the same size and input, so there is "
                           "no cost to compare with."));
        return;
    }
    const char *m;
    gp_term w;
    if (cost_ratio(rep, in->reference, in, rep->size_text, r, &m, &w) != 0) {
        r->measured = 0;
        detail_is(r, m);
        return;
    }
    const gpumodel_report *big = in->at_scale;
    if (big && big->status == GM_OK && in->reference_at_scale && in->reference_at_scale->total_s > 0) {
        technique_result at = *r;
        tmsg_clear(&at.msg);
        const char *m2, *where;
        gp_term w2;
        unsigned long long groups = 0;
        for (int k = 0; k < big->n_kernels; k++) {
            const gm_kernel *kk = &big->kernels[k];
            unsigned long long g = 1;
            for (int d = 0; d < 3; d++) g *= kk->local[d] ? (kk->global[d] + kk->local[d] - 1) / kk->local[d] : 1;
            if (g > groups) groups = g;
        }
        unsigned ran = big->sample.groups < groups ? big->sample.groups : (unsigned)groups;
        if (in->at_scale_hidden)
            where = tmsg_part_of(&at.msg, "a hidden test's size (%u of its %llu work-groups simulated)", ran, groups);
        else
            where = tmsg_part_of(&at.msg, "%s (%u of its %llu work-groups simulated)", big->size_text, ran, groups);
        int bad = cost_ratio(big, in->reference_at_scale, in, where, &at, &m2, &w2) != 0;
        if (bad || at.value > r->value) { /* failed, or dearer there: the larger size is what decides */
            int inside = m2 >= at.msg.pool && m2 < at.msg.pool + sizeof at.msg.pool;
            ptrdiff_t off = inside ? m2 - at.msg.pool : 0;
            *r = at;
            m = inside ? r->msg.pool + off : ""; /* the same piece, in r's copy */
            if (bad) {
                r->measured = 0;
                detail_is(r, m);
                return;
            }
            r->at_scale = 1;
            w = w2;
        }
    }
    finish(r, c, m, cost_advice(w));
}

int technique_needs_previous(const technique_check *c) {
    return c->metric == TQ_GLOBAL_LOADS_VS_PREV || c->metric == TQ_LOAD_REQUESTS_VS_PREV;
}

/* Global load bytes, and global and __constant load requests, of every kernel. */
static void load_totals(const gpumodel_report *rep, double *global_bytes, double *requests) {
    *global_bytes = *requests = 0;
    for (int k = 0; k < rep->n_kernels; k++)
        for (int i = 0; i < rep->kernels[k].n_acc; i++) {
            const gm_access *a = &rep->kernels[k].acc[i];
            if (a->kind != GM_LOAD || a->space == GM_LOCAL) continue;
            if (a->space == GM_GLOBAL) *global_bytes += (double)a->bytes;
            *requests += (double)a->requests;
        }
}

technique_baseline technique_baseline_of(const gpumodel_report *rep) {
    technique_baseline b;
    memset(&b, 0, sizeof b);
    if (!rep || rep->status != GM_OK) return b;
    b.known = 1;
    snprintf(b.size, sizeof b.size, "%s", rep->size_text);
    load_totals(rep, &b.global_load_bytes, &b.load_requests);
    return b;
}

typedef struct {
    technique_baseline *b;
    int bad;
} baseline_reading;

static int baseline_key(void *user, const char *section, const char *key, const char *value) {
    baseline_reading *r = user;
    if (strcmp(section, "reference")) return 1;
    char *end;
    if (!strcmp(key, "size")) snprintf(r->b->size, sizeof r->b->size, "%s", value);
    else if (!strcmp(key, "global_load_bytes")) r->b->global_load_bytes = strtod(value, &end), r->bad |= *end != 0;
    else if (!strcmp(key, "load_requests")) r->b->load_requests = strtod(value, &end), r->bad |= *end != 0;
    return 1;
}

int technique_baseline_load(const char *path, technique_baseline *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    baseline_reading r = {.b = out};
    int rc = ini_parse(path, baseline_key, &r);
    if (rc < 0) {
        util_errf(err, errlen, _("%s: cannot read it"), path);
        return -1;
    }
    if (rc > 0 || r.bad || !out->size[0]) {
        util_errf(err, errlen, _("%s:%d: not the figures of a reference ([reference] size, global_load_bytes, "
                                 "load_requests)"), path, rc > 0 ? rc : 1);
        return -1;
    }
    out->known = 1;
    return 0;
}

int technique_baseline_save(const char *path, const technique_baseline *b, const char *chapter) {
    char text[1024];
    int n = snprintf(text, sizeof text,
                     "; What chapter %s's reference loads at the size its successor's technique checks use,\n"
                     "; for installs without the reference itself. Written by `cltutor validate --write-figures`;\n"
                     "; `cltutor validate` checks that it matches the reference.\n"
                     "[reference]\nsize = %s\nglobal_load_bytes = %.0f\nload_requests = %.0f\n",
                     chapter, b->size, b->global_load_bytes, b->load_requests);
    return n > 0 && (size_t)n < sizeof text ? util_write_file_atomic(path, text, (size_t)n) : -1;
}

/* Whether the check names a kernel the file lacks: then it does not apply, and counts as met. */
static int kernel_missing(const technique_check *c, const gpumodel_report *rep, technique_result *r) {
    if (!c->kernel[0]) return 0;
    int found = 0;
    for (int k = 0; k < rep->n_kernels; k++) found |= !strcmp(rep->kernels[k].name, c->kernel);
    if (!found) { /* another design (chapter 9's look-back has no transpose): the cost judges it */
        detail_is(r, tmsg_part_of(&r->msg, "The file has no kernel named '%s', so this check of that kernel does not "
                                           "apply; the cost check judges the design it has.", c->kernel));
        r->not_applicable = 1;
        r->met = 1;
        return 1;
    }
    return 0;
}

/* local_memory: the most __local memory a kernel uses (1 at least with a __local argument). */
static void measure_local_memory(const technique_check *c, const engine_report *run, technique_result *r) {
    const char *m;
    long long most = 0;
    int local_arg = 0;
    for (int k = 0; k < run->n_kinfo; k++) {
        const engine_kernel_info *ki = &run->kinfo[k];
        if (ki->local_mem > most) { most = ki->local_mem; snprintf(r->kernel, sizeof r->kernel, "%s", ki->name); }
        for (int a = 0; a < ki->n_args && a < ENGINE_MAX_KARGS; a++) local_arg |= ki->arg_space[a] == 'l';
    }
    r->value = local_arg && most < 1 ? 1 : (double)most;
    if (local_arg)
        m = tmsg_part_of(&r->msg, N_("The kernel uses %lld bytes of __local memory (CL_KERNEL_LOCAL_MEM_SIZE) and takes "
                                  "a __local argument."), most);
    else
        m = tmsg_part_of(&r->msg, N_("The kernel uses %lld bytes of __local memory (CL_KERNEL_LOCAL_MEM_SIZE)."), most);
    finish(r, c, m, N_("Stage the data the work-group shares in __local memory, as the chapter shows."));
}

/* constant_args: how many __constant arguments the kernels take. */
static void measure_constant_args(const technique_check *c, const engine_report *run, technique_result *r) {
    const char *m;
    int count = 0;
    char names[256] = "";
    for (int k = 0; k < run->n_kinfo; k++)
        for (int a = 0; a < run->kinfo[k].n_args && a < ENGINE_MAX_KARGS; a++) {
            if (run->kinfo[k].arg_space[a] != 'c') continue;
            size_t u = strlen(names);
            snprintf(names + u, sizeof names - u, "%s%s", count ? ", " : "",
                     run->kinfo[k].arg_name[a][0] ? run->kinfo[k].arg_name[a] : "?");
            count++;
        }
    r->value = count;
    if (count)
        m = tmsg_plural_of(&r->msg, "The kernel takes %d __constant argument: %s (CL_KERNEL_ARG_ADDRESS_QUALIFIER).",
                           "The kernel takes %d __constant arguments: %s (CL_KERNEL_ARG_ADDRESS_QUALIFIER).",
                           (unsigned long long)count, count, names);
    else
        m = tmsg_id(&r->msg, N_("The kernel takes 0 __constant arguments (CL_KERNEL_ARG_ADDRESS_QUALIFIER)."));
    finish(r, c, m, N_("Pass the data every work-item reads alike as a __constant argument."));
}

/* coalescing, coalesced_loads/stores: the share of the bytes used by the least efficient global access. */
static void measure_coalescing(const technique_check *c, const gpumodel_report *rep, technique_result *r) {
    const char *m;
    worst_scan s = {.want_load = c->metric != TQ_COALESCED_STORES, .want_store = c->metric != TQ_COALESCED_LOADS};
    find_worst(rep, c->kernel, &s);
    if (!s.worst_acc) {
        not_measured(r, N_("The GPU memory model saw no global loads or stores of that kind, so there is nothing "
                           "coalesced to credit."));
        return;
    }
    r->value = s.worst;
    set_where(r, s.worst_kernel, s.worst_acc);
    m = tmsg_part_of(&r->msg,
               s.worst_acc->kind == GM_LOAD
                   ? N_("The least efficient global load that carries a real share of the traffic is line %d of "
                       "kernel '%s': %.0f%% of the bytes it moves are used (%.1f sectors of 32 bytes per warp "
                       "request).")
                   : N_("The least efficient global store that carries a real share of the traffic is line %d of "
                       "kernel '%s': %.0f%% of the bytes it moves are used (%.1f sectors of 32 bytes per warp "
                       "request)."),
               s.worst_acc->line, s.worst_kernel->name, s.worst * 100, s.worst_acc->sectors_per_request);
    finish(r, c, m, N_("Let neighbouring work-items read and write neighbouring addresses at that line, as the "
                       "chapter shows; every access that moves a real share of the bytes must be coalesced."));
}

/* wide_loads: the share of the bytes loaded 16 bytes or more at a time. */
static void measure_wide_loads(const technique_check *c, const traffic *t, double all_loads, technique_result *r) {
    const char *m;
    if (all_loads <= 0) { not_measured(r, N_("The GPU memory model saw no loads.")); return; }
    r->value = share(t->wide_load_bytes, all_loads);
    m = tmsg_part_of(&r->msg, N_("%.0f%% of the bytes the kernel loads are read 16 bytes or more at a time."),
               r->value * 100);
    finish(r, c, m, N_("Read four floats with one load, through a float4 pointer, as the chapter shows (a "
                       "vload4 from a float pointer compiles to four loads)."));
}

/* local_loads: the share of the bytes loaded from __local memory. */
static void measure_local_loads(const technique_check *c, const traffic *t, double all_loads, technique_result *r) {
    const char *m;
    if (all_loads <= 0) { not_measured(r, N_("The GPU memory model saw no loads.")); return; }
    r->value = share(t->load_bytes[GM_LOCAL], all_loads);
    m = tmsg_part_of(&r->msg, N_("%.0f%% of the bytes the kernel loads come from __local memory."), r->value * 100);
    finish(r, c, m, N_("Copy the data each work-item reads again and again into __local memory once, then read it "
                       "from there in the inner loop."));
}

/* constant_broadcasts: the share of the bytes loaded as __constant reads alike across a warp. */
static void measure_constant_broadcasts(const technique_check *c, const traffic *t, double all_loads,
                                        technique_result *r) {
    const char *m;
    if (all_loads <= 0) { not_measured(r, N_("The GPU memory model saw no loads.")); return; }
    r->value = share(t->broadcast_constant_bytes, all_loads);
    m = tmsg_part_of(&r->msg, N_("%.0f%% of the bytes the kernel loads are __constant reads that every work-item of a "
                              "warp makes at the same address (broadcasts); %.0f%% come from __constant memory in "
                              "all."),
               r->value * 100, share(t->load_bytes[GM_CONSTANT], all_loads) * 100);
    finish(r, c, m, N_("Pass the data every work-item reads alike (the centroids) as a __constant argument and read "
                       "it through __constant pointers; data each work-item reads differently does not belong "
                       "there."));
}

/* local_atomics: the share of the atomic updates made on __local memory. */
static void measure_local_atomics(const technique_check *c, const traffic *t, technique_result *r) {
    const char *m;
    double all = 0;
    for (int s = 0; s < GM_N_SPACES; s++) all += t->execs[s][GM_ATOMIC];
    if (all <= 0) {
        not_measured(r, N_("The kernel makes no atomic updates, so nothing is counted in __local memory."));
        return;
    }
    r->value = share(t->execs[GM_LOCAL][GM_ATOMIC], all);
    m = tmsg_part_of(&r->msg, N_("%.1f%% of the kernel's %.0f atomic updates are on __local memory; %.0f are global."),
               r->value * 100, all, t->execs[GM_GLOBAL][GM_ATOMIC]);
    finish(r, c, m, N_("Count into a work-group's own histogram in __local memory, and add it to the global one "
                       "once per bin at the end."));
}

/* bank_conflicts: the average conflicts of the most conflicted __local access. */
static void measure_bank_conflicts(const technique_check *c, const gpumodel_report *rep, technique_result *r) {
    const char *m;
    worst_scan s = {.bank = 1};
    find_worst(rep, c->kernel, &s);
    if (!s.worst_acc) {
        not_measured(r, N_("The kernel makes no __local memory accesses, so the chapter's local-memory layout is "
                           "not used."));
        return;
    }
    r->value = s.worst;
    set_where(r, s.worst_kernel, s.worst_acc);
    const char *most_conflicted =
        s.worst_acc->kind == GM_LOAD
            ? N_("The most conflicted __local load that carries a real share of the requests is line %d of kernel "
                "'%s': %.2f-way bank conflicts on average (32 banks of 4 bytes, warps of 32) at %s.")
        : s.worst_acc->kind == GM_STORE
            ? N_("The most conflicted __local store that carries a real share of the requests is line %d of kernel "
                "'%s': %.2f-way bank conflicts on average (32 banks of 4 bytes, warps of 32) at %s.")
            : N_("The most conflicted __local atomic that carries a real share of the requests is line %d of kernel "
                "'%s': %.2f-way bank conflicts on average (32 banks of 4 bytes, warps of 32) at %s.");
    m = tmsg_part_of(&r->msg, most_conflicted, s.worst_acc->line, s.worst_kernel->name, s.worst, rep->size_text);
    finish(r, c, m, N_("Lay out the __local data so that the work-items of a warp fall in different banks "
                       "(padding), as the chapter shows."));
}

/* active_lanes: the work-items of a warp that take part in each memory request, on average. */
static void measure_active_lanes(const technique_check *c, const traffic *t, technique_result *r) {
    const char *m;
    if (t->requests <= 0) { not_measured(r, N_("The GPU memory model saw no memory requests.")); return; }
    r->value = t->lanes / t->requests;
    m = tmsg_part_of(&r->msg, N_("On average %.1f of the 32 work-items of a warp take part in each memory request."),
               r->value);
    finish(r, c, m, N_("Share the work among the work-items of the group; a loop in one work-item leaves the rest "
                       "of the warp idle."));
}

/* local_ops: __local loads and stores per element read from global memory. */
static void measure_local_ops(const technique_check *c, const traffic *t, technique_result *r) {
    const char *m;
    double elements = t->load_bytes[GM_GLOBAL] / 4;
    double local_ops = t->execs[GM_LOCAL][GM_LOAD] + t->execs[GM_LOCAL][GM_STORE] + t->execs[GM_LOCAL][GM_ATOMIC];
    if (elements <= 0 || local_ops <= 0) {
        not_measured(r, N_("The kernel makes no __local memory accesses, so the chapter's tree in local memory is "
                           "not used."));
        return;
    }
    r->value = local_ops / elements;
    m = tmsg_part_of(&r->msg, N_("The kernel makes %.1f __local loads and stores per element it reads (a work-efficient "
                              "tree needs about 2 additions per element; one that adds at every distance needs "
                              "log2 of the block size)."), r->value);
    finish(r, c, m, N_("Use the up-sweep and down-sweep of the chapter: each level halves the work-items that add."));
}

/* global_loads_vs_prev, load_requests_vs_prev: the kernel's loads against the previous chapter's reference. */
static void measure_vs_previous(const technique_check *c, const gpumodel_report *rep, const technique_baseline *prev,
                                technique_result *r) {
    const char *m;
    if (!prev || !prev->known || strcmp(prev->size, rep->size_text) != 0) {
        not_measured(r, N_("The previous chapter's reference could not be analysed at the same size, so there is "
                           "nothing to compare with."));
        return;
    }
    double mine_b, mine_r, theirs_b = prev->global_load_bytes, theirs_r = prev->load_requests;
    load_totals(rep, &mine_b, &mine_r);
    int bytes = c->metric == TQ_GLOBAL_LOADS_VS_PREV;
    double mine = bytes ? mine_b : mine_r, theirs = bytes ? theirs_b : theirs_r;
    if (theirs <= 0) {
        not_measured(r, N_("The previous chapter's reference makes no such loads to compare with."));
        return;
    }
    r->value = mine / theirs;
    if (bytes)
        m = tmsg_part_of(&r->msg, N_("The kernel loads %.0f bytes from global memory where the previous chapter's "
                                  "reference loads %.0f at the same size (%.2f of it)."), mine, theirs, r->value);
    else
        m = tmsg_part_of(&r->msg, N_("The kernel's warps make %.0f global and __constant load requests where the "
                                  "previous chapter's reference makes %.0f at the same size (%.2f of it)."),
                   mine, theirs, r->value);
    finish(r, c, m, bytes ? N_("Read each value from global memory once and reuse it from faster memory (__local "
                               "or __constant), as the chapter shows; loads you add do not replace the ones you "
                               "keep.")
                          : N_("Let one load bring several values (a float4 through a float4 pointer), as the chapter "
                               "shows; loads you add do not replace the ones you keep."));
}

void technique_measure(const technique_check *c, const gpumodel_report *rep, const technique_inputs *in,
                       technique_result *r) {
    memset(r, 0, sizeof *r);
    const technique_baseline *prev = in ? in->prev : NULL;
    r->measured = 1;
    if (kernel_missing(c, rep, r)) return;
    const engine_report *run = &rep->run;
    traffic t;
    memset(&t, 0, sizeof t);
    each_access(rep, c->kernel, traffic_visit, &t);
    double all_loads = t.load_bytes[GM_GLOBAL] + t.load_bytes[GM_CONSTANT] + t.load_bytes[GM_LOCAL];
    switch (c->metric) {
    case TQ_COST:
        r->measured = 1;
        measure_cost(c, rep, in, r);
        return;
    case TQ_LOCAL_MEMORY:
        measure_local_memory(c, run, r);
        return;
    case TQ_CONSTANT_ARGS:
        measure_constant_args(c, run, r);
        return;
    case TQ_COALESCING:
    case TQ_COALESCED_LOADS:
    case TQ_COALESCED_STORES:
        measure_coalescing(c, rep, r);
        return;
    case TQ_WIDE_LOADS:
        measure_wide_loads(c, &t, all_loads, r);
        return;
    case TQ_LOCAL_LOADS:
        measure_local_loads(c, &t, all_loads, r);
        return;
    case TQ_CONSTANT_BROADCASTS:
        measure_constant_broadcasts(c, &t, all_loads, r);
        return;
    case TQ_LOCAL_ATOMICS:
        measure_local_atomics(c, &t, r);
        return;
    case TQ_BANK_CONFLICTS:
        measure_bank_conflicts(c, rep, r);
        return;
    case TQ_ACTIVE_LANES:
        measure_active_lanes(c, &t, r);
        return;
    case TQ_LOCAL_OPS:
        measure_local_ops(c, &t, r);
        return;
    case TQ_GLOBAL_LOADS_VS_PREV:
    case TQ_LOAD_REQUESTS_VS_PREV:
        measure_vs_previous(c, rep, prev, r);
        return;
    default:
        not_measured(r, N_("unknown check"));
        return;
    }
}
