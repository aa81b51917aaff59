/* progress — what the learner has done: each chapter's state, best time,
 * run history and hints seen; saved atomically as JSON in the workspace. */
#ifndef CLT_PROGRESS_H
#define CLT_PROGRESS_H
#include <stddef.h>

typedef enum { PROG_NOT_STARTED = 0, PROG_FAILING, PROG_PASSED } progress_state;

typedef struct {
    double when;          /* Unix time */
    int passed;
    char status[24];      /* engine status name */
    double median_ms;     /* 0 when not timed */
    char device[96];
} progress_run;

typedef struct {
    char id[96];
    progress_state state;
    double best_ms;       /* best median of a passing run, 0 none */
    char best_device[96];
    int hints_seen;
    progress_run *runs;
    int n_runs;
} progress_chapter;

typedef struct {
    progress_chapter *chapters;
    int count;
    char last[96];        /* the chapter opened last */
    char path[1200];
} progress;

/* Loads path; a missing file is an empty progress. Returns -1 with err on a
 * corrupt file (it is left alone, never overwritten). */
int progress_load(progress *p, const char *path, char *err, size_t errlen);
int progress_save(const progress *p, char *err, size_t errlen);
void progress_free(progress *p);

progress_chapter *progress_get(progress *p, const char *id, int create);
void progress_record_run(progress *p, const char *id, int passed, const char *status, double median_ms,
                         const char *device, double when);
const char *progress_state_name(progress_state s);

#endif
