/* progress — what the learner has done: each chapter's state, best time,
 * run history and hints seen; saved atomically as JSON in the workspace. */
#ifndef CLT_PROGRESS_H
#define CLT_PROGRESS_H
#include <stddef.h>

/* PROG_CHANGED: the chapter passed, and the file has changed since (it is
 * checked again on the next run); never stored, see progress_state_now. */
typedef enum { PROG_NOT_STARTED = 0, PROG_FAILING, PROG_PASSED, PROG_CHANGED } progress_state;

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
    unsigned long long passed_hash; /* the file the chapter's verdict passed on (util_hash_text) */
    int ever_passed;      /* the verdict passed once: "passed before, failing now" */
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
/* One run at one size: history only. A wrong run makes the chapter
 * failing; a correct one decides nothing: only the verdict passes a chapter. */
void progress_record_run(progress *p, const char *id, int passed, const char *status, double median_ms,
                         const char *device, double when);
/* The chapter's whole verdict on the file whose text hashes to file_hash:
 * passed marks the chapter passed and keeps median_ms as a best time. */
void progress_record_verdict(progress *p, const char *id, int passed, unsigned long long file_hash, double median_ms,
                             const char *device);
/* The state for the file as it is now (PROG_CHANGED when it passed on other text). */
progress_state progress_state_now(const progress_chapter *c, unsigned long long file_hash);
const char *progress_state_name(progress_state s);

#endif
