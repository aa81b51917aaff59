/* srcdiff — line diff of two source texts (longest common subsequence),
 * shown as unified hunks with line numbers. */
#ifndef CLT_SRCDIFF_H
#define CLT_SRCDIFF_H
#include "text/stext.h"

typedef enum { SD_SAME = 0, SD_DEL, SD_ADD } sd_op;

typedef struct {
    sd_op op;
    int a_line, b_line;   /* 1-based line in each text, 0 where the line is not in it */
    const char *text;     /* points into the diff's copy of a or b */
    int len;
} sd_row;

typedef struct {
    sd_row *rows;
    int n;
    int n_add, n_del;
    char *a, *b;          /* copies of the texts */
} sd_diff;

/* Compares a (old) with b (new); lines that differ only in whitespace are
 * the same (shown as b's). Returns 0, or -1 when out of memory. */
int srcdiff_compute(const char *a, const char *b, sd_diff *out);
void srcdiff_free(sd_diff *d);

/* Unified hunks with `context` lines around each change, OpenCL C colours,
 * and both line numbers. Rows carry tag = a line number in text a
 * (tag_side 0) or b (1); a row missing from that side gets the line before. */
void srcdiff_render(const sd_diff *d, int context, const char *name_a, const char *name_b, int tag_side,
                    st_doc *out);

#endif
