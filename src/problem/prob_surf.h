/* prob_surf — the SURF-descriptor histogram problem (chapters 1 to 6). */
#ifndef CLT_PROB_SURF_H
#define CLT_PROB_SURF_H
#include "problem/problem.h"

extern const problem_ops prob_surf_ops;

/* The generated inputs, row-major: n x f descriptors and c x f centroids. */
const float *surf_descriptors(const prob_instance *pi);
const float *surf_centroids(const prob_instance *pi);
/* The serial reference's histogram (after golden), c bins. */
const uint32_t *surf_expected(const prob_instance *pi);

#endif
