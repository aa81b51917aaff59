/* gm_draw — pictures of what one warp does to memory, from the requests the
 * simulator kept: lanes joined to the 32-byte sectors they touch (global,
 * constant), lanes stacked in the 32 banks (local), lanes grouped by address
 * (atomics), barrier by barrier for one work-group, and before -> after.
 * It builds styled lines (stext.h); the command line prints them, the UI
 * draws them. No printing, no curses. */
#ifndef CLT_GM_DRAW_H
#define CLT_GM_DRAW_H
#include "gpumodel/gpumodel.h"
#include "text/stext.h"

/* What one request costs, by the plugin's rules (docs/gpu-model.md). */
typedef struct {
    unsigned lanes;                      /* lanes taking part */
    unsigned sectors;                    /* distinct 32-byte sectors (global, constant) */
    unsigned long long requested, useful;/* bytes asked for; min(requested, 32 x sectors) */
    unsigned degree;                     /* bank-conflict degree (local) */
    unsigned phase, phases;              /* the worst phase and how many (wide local accesses) */
    unsigned distinct;                   /* distinct addresses */
    unsigned contention;                 /* most lanes on one address */
} gm_req_figures;

void gm_request_measure(const gm_request *r, gm_space sp, gm_kind kd, gm_req_figures *f);
/* Orders requests as the plugin does to keep the worst: sectors (global),
 * distinct addresses then sectors (constant), degree (local), contention
 * first for atomics. */
unsigned long long gm_request_cost(const gm_req_figures *f, gm_space sp, gm_kind kd);

typedef struct {
    int width;                           /* columns (at least 40; 80 is the reference) */
    int utf8;                            /* box-drawing characters, else ASCII */
} gm_draw_opts;

/* The busiest instruction of a report (gpumodel_access_cost): 0 with its
 * kernel and access indices, -1 when there is none. */
int gm_draw_busiest(const gpumodel_report *rep, int *kernel, int *acc);

/* Draws one instruction: its worst request, its first where that differs,
 * its barrier intervals, and the compared analysis's matching instruction
 * (before -> after) when the report has one. */
void gm_draw_access(st_doc *out, const gpumodel_report *rep, int kernel, int acc, const gm_draw_opts *o);

/* Draws every instruction at source line line of the analysed kernel (0:
 * the busiest instruction). Returns how many were drawn; 0 when the line
 * has none (out then says which lines have some). */
int gm_draw_line(st_doc *out, const gpumodel_report *rep, int line, const gm_draw_opts *o);

#endif
