/* figsource: every figure a lesson states comes from a committed result, or its block names another source */
#ifndef CLT_FIGSOURCE_H
#define CLT_FIGSOURCE_H

#include <stddef.h>

/* What a number measures, from the unit written after it. */
typedef enum {
    FIG_TIME,      /* s, ms, us, µs, ns, 秒, 毫秒, 微秒, 纳秒: base unit seconds */
    FIG_BANDWIDTH, /* MB/s, GB/s, TB/s: base unit GB/s */
    FIG_FLOPS,     /* GFLOP/s, TFLOP/s: base unit GFLOP/s */
    FIG_RATIO,     /* 4.9x, 4.9×, 4.9 倍 */
    FIG_BARE       /* a results file's number without a unit (a table column's), as written */
} fig_kind;

/* One number found in a text. */
typedef struct {
    double value;    /* as written, in its own unit */
    double scale;    /* its unit in the kind's base unit (1e-3 for ms) */
    int decimals;    /* digits after the point, as written */
    fig_kind kind;
    size_t offset;   /* where the number starts in the scanned text */
    size_t length;   /* number and unit */
} fig_token;

/* The committed results: every number in the text files under one folder. */
typedef struct {
    char dir[1024];
    char (*files)[128];  /* paths relative to dir */
    int n_files;
    struct fig_result {
        double base;     /* in the kind's base unit; FIG_BARE: as written */
        fig_kind kind;
        int file;
    } *items;
    int n, cap;
} figsource_index;

/* Reads every text file (not JSON, not archives) under dir. Returns 0, or -1 with err set. */
int figsource_index_load(figsource_index *ix, const char *dir, char *err, size_t errlen);
void figsource_index_free(figsource_index *ix);

/* Calls fn for each figure in s[0..len) that has a unit (FIG_BARE too when bare is set). */
typedef void (*fig_token_fn)(const fig_token *t, void *user);
void figsource_scan(const char *s, size_t len, int bare, fig_token_fn fn, void *user);

/* Checks one Markdown lesson: appends a line per unsourced figure or bad label to *notes
 * ("NAME:LINE: 17.6 ms: why"). Returns the number of figures seen; *n_bad gets the failures. */
int figsource_check_lesson(const figsource_index *ix, const char *name, const char *md, size_t len, char **notes,
                           int *n_bad);

#endif
