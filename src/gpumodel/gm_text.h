/* gm_text — the GPU memory model's report as text (gpumodel_format,
 * gpumodel_compare, gpumodel_note in gpumodel.h); what the rest of the
 * model shares with it. */
#ifndef CLT_GM_TEXT_H
#define CLT_GM_TEXT_H
#include "gpumodel/gpumodel.h"

/* Frees an array of n lines and zeroes it. */
void gm_free_lines(char ***lines, int *n);
/* Frees a report's line roles. */
void gm_free_roles(gpumodel_report *rep);

#endif
