/* gm_text — the GPU memory model's report as text (gpumodel_format,
 * gpumodel_compare, gpumodel_note in gpumodel.h); what the rest of the
 * model shares with it. */
#ifndef CLT_GM_TEXT_H
#define CLT_GM_TEXT_H
#include "gpumodel/gpumodel.h"
#include <stdarg.h>

/* Frees an array of n lines and zeroes it. */
void gm_free_lines(char ***lines, int *n);
/* Frees a report's line roles. */
void gm_free_roles(gpumodel_report *rep);

/* Shared by the report (gm_text.c) and the comparison (gm_compare.c). */
#define GM_TEXT_MAX 1024 /* a sentence of the report, a note */
/* "global loads" and the like, as people read them (plural: several accesses). */
const char *gm_access_shown(int space, int kind, int plural);
/* A figure as shown ("5.1", "12.5%", "5.2 MB"), and the count a shown figure stands for (plural forms). */
void gm_fmt_num(char *buf, size_t len, double v);
void gm_fmt_pct(char *buf, size_t len, double f);
void gm_fmt_bytes(char *buf, size_t len, double b);
unsigned long long gm_count_of(const char *num);
/* Appends a line made from a printf format to an array of n lines. */
void gm_add_line_v(char ***lines, int *n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* Appends a clause to a sentence being built ("%s; %s"). */
void gm_add_clause(char *buf, size_t len, const char *clause);

#endif
