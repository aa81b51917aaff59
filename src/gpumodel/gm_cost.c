/* gm_cost — what a kernel would cost on a GPU, beside the chapter's reference
 * at the same size and input: the verdict's measure of technique. */
#define _DEFAULT_SOURCE
#include "gpumodel/gm_cost.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One access's share of a term: its weight (to find the line that costs
 * most) and what it counts per warp request (summed, then divided). */
typedef struct {
    double weight, count, requests;
} term_share;

static term_share share_of(const gm_access *a, gp_term t) {
    term_share s = {0, 0, 0};
    double req = (double)a->requests;
    switch (t) {
    case GPT_MEMORY:
        if (a->space == GM_GLOBAL && a->kind != GM_ATOMIC) s = (term_share){(double)a->useful, (double)a->useful, req};
        break;
    case GPT_L1:
        if (a->space == GM_GLOBAL && a->kind != GM_ATOMIC) {
            double lines = a->lines ? (double)a->lines : (double)a->sectors / 4;
            s = (term_share){lines, lines, req};
        }
        break;
    case GPT_LOCAL:
        if (a->space == GM_LOCAL && a->kind != GM_ATOMIC) s = (term_share){(double)a->bank_sum, (double)a->bank_sum, req};
        break;
    case GPT_LATOMIC:
        if (a->space == GM_LOCAL && a->kind == GM_ATOMIC) {
            /* a pass per bank conflict, and one more per work-item on a word another already updates */
            double passes = (double)(a->bank_sum ? a->bank_sum : a->requests) +
                            (a->contention_sum > a->requests ? (double)(a->contention_sum - a->requests) : 0);
            s = (term_share){passes, passes, req};
        }
        break;
    case GPT_GATOMIC:
        if (a->space == GM_GLOBAL && a->kind == GM_ATOMIC)
            s = (term_share){(double)a->execs * (a->contention_avg > 1 ? a->contention_avg : 1),
                             (double)a->contention_sum, req};
        break;
    case GPT_CONSTANT:
        if (a->space == GM_CONSTANT) s = (term_share){(double)a->distinct_sum, (double)a->distinct_sum, req};
        break;
    case GPT_LATENCY:
        if (a->warps) s = (term_share){req / (double)a->warps, req, (double)a->warps};
        break;
    default:
        break;
    }
    return s;
}

const char *gm_cost_unit(gp_term t) {
    switch (t) {
    case GPT_MEMORY: return N_("bytes used a request");
    case GPT_L1: return N_("128-byte lines a request");
    case GPT_LOCAL: return N_("bank passes a request");
    case GPT_LATOMIC: return N_("passes an atomic request");
    case GPT_GATOMIC: return N_("work-items on one address a request");
    case GPT_CONSTANT: return N_("__constant addresses a request");
    case GPT_LATENCY: return N_("requests one warp makes in turn");
    default: return "";
    }
}

int gm_cost_of(const gpumodel_report *rep, const lesson *l, const gp_profile *p, gm_cost *out, char *err,
               size_t errlen) {
    memset(out, 0, sizeof *out);
    gp_profile portable = *p;
    if (portable.v[GPK_LATOM_SPREAD] > 0) portable.v[GPK_LATOM_SAME] = portable.v[GPK_LATOM_SPREAD] / GM_WARP;
    char size[96];
    gp_target_size(l, rep->size_text, size, sizeof size);
    gp_prediction *pr = malloc(sizeof *pr);
    if (!pr) return util_errf(err, errlen, "%s", _("out of memory")), -1;
    if (gp_predict(rep, l, size, &portable, pr, err, errlen) != 0) {
        free(pr);
        return -1;
    }
    out->total_s = pr->total_s;
    for (int k = 0; k < pr->n; k++)
        for (int t = 0; t < GP_N_TERMS; t++) out->term_s[t] += pr->k[k].t[t];
    free(pr);
    for (int t = 0; t < GP_N_TERMS; t++) {
        double count = 0, requests = 0, best = 0;
        for (int k = 0; k < rep->n_kernels; k++)
            for (int i = 0; i < rep->kernels[k].n_acc; i++) {
                const gm_access *a = &rep->kernels[k].acc[i];
                term_share s = share_of(a, (gp_term)t);
                count += s.count;
                requests += s.requests;
                if (s.weight > best) {
                    best = s.weight;
                    out->line[t] = a->line;
                    util_copy_text(out->kernel[t], sizeof out->kernel[t], rep->kernels[k].name);
                }
            }
        out->per_request[t] = requests > 0 ? count / requests : 0;
    }
    return 0;
}

gp_term gm_cost_worst_term(const gm_cost *mine, const gm_cost *ref) {
    gp_term worst = GPT_MEMORY;
    double most = -1;
    for (int t = 0; t < GP_N_TERMS; t++) {
        if (t == GPT_LAUNCH) continue;
        double over = mine->term_s[t] - (ref ? ref->term_s[t] : 0);
        if (over > most) {
            most = over;
            worst = (gp_term)t;
        }
    }
    return worst;
}

/* ---- the reference's figures, kept for installs without it */

typedef struct {
    gm_cost_figures *f;
    int bad;
} figures_reading;

static int figures_key(void *user, const char *section, const char *key, const char *value) {
    figures_reading *r = user;
    if (strcmp(section, "cost")) return 1;
    char *end = NULL;
    if (!strcmp(key, "size")) {
        util_copy_text(r->f->size, sizeof r->f->size, value);
        return 1;
    }
    if (!strcmp(key, "total_s")) {
        r->f->cost.total_s = strtod(value, &end);
        r->bad |= *end != 0;
        return 1;
    }
    for (int t = 0; t < GP_N_TERMS; t++) {
        char s_key[64], r_key[64];
        snprintf(s_key, sizeof s_key, "%s_s", gp_term_name((gp_term)t));
        snprintf(r_key, sizeof r_key, "%s_per_request", gp_term_name((gp_term)t));
        if (!strcmp(key, s_key)) r->f->cost.term_s[t] = strtod(value, &end);
        else if (!strcmp(key, r_key)) r->f->cost.per_request[t] = strtod(value, &end);
        else continue;
        r->bad |= *end != 0;
        return 1;
    }
    return 1;
}

int gm_cost_load(const char *path, gm_cost_figures *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    figures_reading r = {.f = out};
    int rc = ini_parse(path, figures_key, &r);
    if (rc < 0) return util_errf(err, errlen, _("%s: cannot read it"), path), -1;
    if (rc > 0 || r.bad || !out->size[0] || out->cost.total_s <= 0)
        return util_errf(err, errlen, _("%s:%d: not the cost figures of a reference ([cost] size, total_s, and "
                                        "TERM_s and TERM_per_request for each term)"), path, rc > 0 ? rc : 1), -1;
    return 0;
}

int gm_cost_save(const char *path, const gm_cost_figures *f, const char *chapter) {
    char *text = NULL;
    util_sappend(&text, "; Chapter %s's reference: its modelled GPU cost (gm_cost) at the size the chapter's\n"
                        "; technique check analyses, for installs without the reference itself. Written by\n"
                        "; `cltutor validate --write-figures`; `cltutor validate` checks that it matches.\n"
                        "[cost]\nsize = %s\ntotal_s = %.6g\n", chapter, f->size, f->cost.total_s);
    for (int t = 0; t < GP_N_TERMS; t++)
        util_sappend(&text, "%s_s = %.6g\n%s_per_request = %.6g\n", gp_term_name((gp_term)t), f->cost.term_s[t],
                     gp_term_name((gp_term)t), f->cost.per_request[t]);
    int rc = text ? util_write_file_atomic(path, text, strlen(text)) : -1;
    free(text);
    return rc;
}
