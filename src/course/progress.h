/* progress — what the learner has done: each chapter's state, best time,
 * run history and hints seen, saved as JSON in the workspace. Every change
 * is also kept as a pending operation; a save takes the file's lock, reads
 * what other processes wrote meanwhile, replays the pending operations on
 * it and writes the result atomically, so that nothing is lost between two
 * terminals (the course open in one, `cltutor run` in another). */
#ifndef CLT_PROGRESS_H
#define CLT_PROGRESS_H
#include "text/i18n.h"
#include <stddef.h>

#include "course/catalog.h"

#define PROGRESS_MAX_RUNS 100   /* runs kept per chapter, newest */

/* PROG_CHANGED: the chapter passed, and the file has changed since (it is
 * checked again on the next run); never stored, see progress_state_now. */
typedef enum { PROG_NOT_STARTED = 0, PROG_FAILING, PROG_PASSED, PROG_CHANGED } progress_state;

/* X(enum, name in the file) */
#define PROGRESS_ORIGINS(X) X(FROM_UI, N_("ui")) X(FROM_RUN, N_("run")) X(FROM_CHECK, N_("check"))
#define PROGRESS_VERDICTS(X) X(PV_NONE, "none") X(PV_PASSED, "passed") X(PV_FAILED, "failed") \
    X(PV_INCOMPLETE, "incomplete")

typedef enum {
#define PG_ENUM(e, name) e,
    PROGRESS_ORIGINS(PG_ENUM)
#undef PG_ENUM
} progress_origin;

/* The chapter's whole verdict on a run's file: PV_NONE not decided (yet);
 * PV_INCOMPLETE nothing failed but some checks could not run here. */
typedef enum {
#define PG_ENUM(e, name) e,
    PROGRESS_VERDICTS(PG_ENUM)
#undef PG_ENUM
} progress_verdict;

typedef struct {
    double when;                 /* Unix time */
    progress_origin origin;      /* where the run was asked for */
    int passed;                  /* correct at the size it ran */
    char status[24];             /* engine status name */
    double median_ms;            /* 0 when not timed */
    char device[96];
    unsigned long long file_hash;/* the kernel's text it ran (util_hash_text) */
    progress_verdict verdict;
    char verdict_note[160];      /* the first thing the verdict found wrong, for people */
    int unsafe;                  /* the race check failed on its file: its time holds by luck, and counts nowhere
                                  * (best times, "vs your last run") */
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

typedef enum { PO_RUN, PO_VERDICT, PO_HINTS, PO_LAST } progress_op_kind;

/* One change not yet saved, replayed on the file's newest content. */
typedef struct {
    progress_op_kind kind;
    char id[96];
    progress_run run;     /* PO_RUN; PO_VERDICT: its verdict, note, hash, median and device */
    int hints_seen;       /* PO_HINTS */
} progress_op;

typedef struct {
    progress_chapter *chapters;
    int count;
    char last[96];        /* the chapter opened last */
    char path[1200];
    const catalog *cat;   /* chapters outside it are ignored on load; NULL keeps all (bounded) */
    progress_op *pending;
    int n_pending;
    long long seen_stamp; /* the file's mtime (ns) and size when last read, to notice other writers */
} progress;

/* Loads path; a missing file is an empty progress. Returns 0; 1 when the
 * file was not progress (garbage, truncated): it is renamed aside, err says
 * where, and progress starts empty; -1 with err when it cannot be used at
 * all (unreadable, a folder): nothing will be saved over it. */
int progress_load(progress *p, const char *path, const catalog *cat, char *err, size_t errlen);
/* Reads someone else's progress without changing anything: 0; -1 with err
 * when it cannot be read or is not progress (nothing is set aside). A
 * missing file is an empty progress. */
int progress_read(progress *p, const char *path, const catalog *cat, char *err, size_t errlen);
/* Merges with the file under its lock (see above) and writes it: 0; 1 when
 * saved after setting a damaged file aside (err says where); -1 with err
 * saying what to do (it never replaces a read-only file). */
int progress_save(progress *p, char *err, size_t errlen);
void progress_free(progress *p);
/* Re-reads the file when another process wrote it since (the course open
 * beside `cltutor run`), keeping this process's unsaved changes. Returns 1
 * when something new was read. */
int progress_refresh(progress *p);

progress_chapter *progress_get(progress *p, const char *id, int create);
/* The chapter's record, for reading (NULL: none yet). */
const progress_chapter *progress_find(const progress *p, const char *id);
/* One run at one size: history only. A wrong run makes the chapter
 * failing; a correct one decides nothing: only the verdict passes a chapter. */
void progress_record_run(progress *p, const char *id, const progress_run *run);
/* The chapter's whole verdict on the file whose text hashes to
 * v->file_hash (v->verdict, v->verdict_note, v->median_ms, v->device):
 * attached to the newest run of that file from the same origin that has
 * none yet, or added as a run of its own. PV_PASSED passes the chapter and
 * keeps the median as a best time; PV_FAILED makes it failing. */
void progress_record_verdict(progress *p, const char *id, const progress_run *v);
void progress_set_hints_seen(progress *p, const char *id, int seen);
void progress_set_last(progress *p, const char *id);
/* The state for the file as it is now (PROG_CHANGED when it passed on other text). */
progress_state progress_state_now(const progress_chapter *c, unsigned long long file_hash);
/* progress_state_now for the file at path as it is on disk (PROG_CHANGED once it is no longer the file that
 * passed: a reset or an edit since). */
progress_state progress_state_of_file(const progress_chapter *c, const char *path);
const char *progress_state_name(progress_state s);
const char *progress_origin_name(progress_origin o);
const char *progress_verdict_name(progress_verdict v);

#endif
