/* gm_cost — what a kernel would cost on a GPU, beside the chapter's reference
 * at the same size and input: the verdict's measure of technique. */
#ifndef CLT_GM_COST_H
#define CLT_GM_COST_H
#include <stddef.h>

#include "course/catalog.h"
#include "gpumodel/gm_predict.h"
#include "gpumodel/gpumodel.h"

/* An analysis's modelled cost: the time prediction at the chapter's bench
 * size (both files scaled alike from the same analysed size), with one
 * change to the measured profile: work-items of a warp that update one
 * __local word take a pass each, as on most GPUs (AMD's LDS, NVIDIA before
 * Hopper; an H100 served them at the rate of spread ones when measured). */
typedef struct {
    double total_s;
    double term_s[GP_N_TERMS];        /* each term summed over the kernels */
    double per_request[GP_N_TERMS];   /* the term's figure per warp request (passes, lines, ...), 0: none */
    int line[GP_N_TERMS];             /* the source line that costs most in that term, 0: none */
    char kernel[GP_N_TERMS][64];      /* and its kernel */
} gm_cost;

/* The cost of an analysed run (rep->status GM_OK) of chapter l on profile p.
 * Returns 0, or -1 with err. */
int gm_cost_of(const gpumodel_report *rep, const lesson *l, const gp_profile *p, gm_cost *out, char *err,
               size_t errlen);

/* The term in which mine costs most beyond ref (the mechanism to name). */
gp_term gm_cost_worst_term(const gm_cost *mine, const gm_cost *ref);

/* "passes a request", "128-byte lines a request", ... : what per_request
 * counts in a term (English, N_; "" where the term has no such figure). */
const char *gm_cost_unit(gp_term t);

/* A reference's cost kept in a file (lessons/ID/reference-cost.ini) for
 * installs without the reference: at one size. */
typedef struct {
    char size[96];
    gm_cost cost;
} gm_cost_figures;

/* Reads them; 0, or -1 with err naming the file and line. */
int gm_cost_load(const char *path, gm_cost_figures *out, char *err, size_t errlen);
/* Writes them (`cltutor validate --write-figures`); 0 or -1. */
int gm_cost_save(const char *path, const gm_cost_figures *f, const char *chapter);

#endif
