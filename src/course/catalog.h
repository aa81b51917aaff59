/* catalog — the chapters: reads lessons/NN-slug/lesson.ini and finds a lesson by number or name. */
#ifndef CLT_CATALOG_H
#define CLT_CATALOG_H
#include <stddef.h>

#define CATALOG_MAX 128 /* chapters read from one lessons/ folder */
#define LESSON_MAX_KERNELS 8
#define LESSON_MAX_SIZES 12
#define LESSON_MAX_HINTS 8
#define LESSON_MAX_PARAMS 24

typedef struct {
    char key[48];
    char value[256];
} lesson_param;

/* Hints from a nudge to nearly the code: keys en.N and zh.N (N from 1). */
typedef struct {
    char *en[LESSON_MAX_HINTS];
    char *zh[LESSON_MAX_HINTS];
    int n;                    /* the highest N given in either language */
} lesson_hints;

/* A "find the bug" exercise: a listing with a real bug, a test that exposes it. */
#define LESSON_MAX_BUGS 4
typedef struct {
    char name[32];            /* from the section name [bug.NAME] */
    char file[96];            /* exercises/ID/FILE, fixed by the learner; kernels/ID/<exercise> is the fix */
    char exposes[64];         /* the size spec of the test input that shows the bug */
    char title[160];
    char title_zh[160];
    int max_changed_lines;    /* code lines a fix may change in the listing; 0: the default */
    lesson_hints hints;       /* en.N, zh.N in [bug.NAME] */
} lesson_bug;

typedef struct {
    int number;               /* NN of the folder name */
    char id[96];              /* folder name, "02-atomic" */
    char slug[80];            /* "atomic" */
    char dir[1024];           /* full path of the lesson folder */
    char title[128];
    char title_zh[128];
    char summary[256];
    char problem[32];         /* "surf", "bytes", ... */
    char exercise[96];        /* file name of the kernel, in exercises/ID/ and kernels/ID/ */
    char kernels[LESSON_MAX_KERNELS][64];
    int n_kernels;
    char default_size[64];
    char bench_size[64];
    char check_sizes[LESSON_MAX_SIZES][64]; /* visible tests, "SIZE[:INPUT]" */
    int n_check_sizes;
    int previous;             /* chapter number whose reference this one is compared with; 0 none */
    lesson_hints hints;       /* [hints] */
    lesson_bug bugs[LESSON_MAX_BUGS];
    int n_bugs;
    lesson_param params[LESSON_MAX_PARAMS]; /* problem-specific keys: layout, local_size, ... */
    int n_params;
} lesson;

typedef struct {
    lesson *items;
    int count;
    char root[1024]; /* the lessons/ folder */
    char skipped[1024]; /* chapters that failed to load, one "file:line: why" per line */
    int n_skipped;
} catalog;

/* Loads every lessons/NN-slug/lesson.ini under root. A chapter that fails to
 * load is skipped and noted in c->skipped; returns -1 (with the first
 * problem in err) only when no chapter loads. */
int catalog_load(catalog *c, const char *lessons_root, char *err, size_t errlen);
void catalog_free(catalog *c);

/* Finds by number ("2", "02") or folder name ("02-atomic") or slug ("atomic"). */
const lesson *catalog_find(const catalog *c, const char *spec);
const lesson *catalog_by_number(const catalog *c, int number);

/* A problem-specific parameter, or def when absent. */
const char *lesson_param_get(const lesson *l, const char *key, const char *def);
long lesson_param_long(const lesson *l, const char *key, long def);

/* Loads one lesson from its folder. */
int lesson_load(lesson *l, const char *dir, const char *id, char *err, size_t errlen);
void lesson_free(lesson *l);

/* The lesson's text file for a language ("en" or "zh"): full path into buf. */
void lesson_text_path(const lesson *l, const char *lang, char *buf, size_t len);

#endif
