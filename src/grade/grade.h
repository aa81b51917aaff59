/* grade — hidden tests, technique checks and scores for one learner's exercises;
 * learner code runs only in engine workers, and only kernel files are read from a submission. */
#ifndef CLT_GRADE_H
#define CLT_GRADE_H
#include <stddef.h>
#include <stdint.h>

#include "course/catalog.h"
#include "run/engine.h"

typedef enum {
    GT_HIDDEN,     /* the exercise on a hidden input */
    GT_TECHNIQUE,  /* does the kernel use what the chapter teaches */
    GT_FIX,        /* a find-the-bug listing, fixed, on the input that exposes its bug */
    GT_SPEED,      /* --require-speedup: faster than the previous chapter's reference */
    GT_SAFETY,     /* no data race, memory error or divergent barrier under Oclgrind */
} grade_kind;

typedef enum { GO_PASS, GO_FAIL, GO_SKIP } grade_outcome;

typedef struct {
    char id[64];          /* stable within a chapter: "odd", "input.onebin", "one", "large", "empty",
                             "bug.NAME", "hidden.N", "technique.local_memory", "fix.NAME", "speed" */
    char name[192];       /* for people: "odd size 2049x77x64" */
    grade_kind kind;
    char size[64];        /* the size spec as run ("" for technique checks) */
    char file[96];        /* the exercise file it grades */
    char check[64];       /* technique: the check as the chapter writes it ("coalescing>=0.9") */
    char scale_size[64];  /* the cost check: a size in the largest hidden tests' range, drawn from the analysis
                             seed, where it is judged too ("": not) */
    uint64_t seed;
    char holds_id[64];    /* a fix: the hidden test at whose size and seed a passing fix runs again, to hold
                             beyond the input that exposed the bug (kept when --tests leaves that test out) */
    char holds_size[64];  /* ("": none) */
    uint64_t holds_seed;
    double max_score, score;
    grade_outcome outcome;
    char status[24];      /* an engine status name ("pass", "wrong", "timeout", ...), or "measured",
                             "skipped", "missing", "refused", "not_run" */
    char headline[256];   /* in the grade's language */
    char *detail;         /* what happened, why, what to try (malloc'd, may be NULL) */
    double wall_s;        /* the worker's life for this test */
    double kernel_ms;     /* kernel time where it was measured (reported, not graded), else 0 */
} grade_test;

typedef struct {
    char id[96];
    int number;
    char title[128];
    char title_zh[128];   /* the Chinese title ("" none), for people reading a report in Chinese */
    char file[256];       /* the graded file, as the submission names it: exercises/ID/FILE */
    int submitted;        /* the exercise file was there and could be read */
    int refused;          /* the exercise file was there, and refused (the source policy; the tests say why) */
    grade_test *tests;
    int n_tests;
    double score, max_score;
} grade_chapter;

/* A due date applied to a grade (grade_late): due 0 when there is none. */
typedef struct {
    double due, submitted;  /* Unix times; submitted 0: unknown (then nothing is taken off) */
    int days;               /* days or parts of days late; 0 on time */
    double penalty;         /* the fraction of the score taken off, 0..1 */
    double raw_score;       /* the score before */
} grade_late;

typedef struct {
    char submission[1024];
    char student[256];
    uint64_t seed;
    uint64_t analysis_seed; /* what the race and technique checks' size was drawn from */
    engine_device device;
    double timeout_s;
    long cpu_s, memory_mb;
    double require_speedup;
    char started[32];     /* UTC, ISO 8601 */
    double wall_s;
    grade_chapter *chapters;
    int n_chapters;
    double score, max_score;
    int n_tests, n_passed, n_failed, n_skipped;
    int fatal;            /* 0, or the exit status of a grader failure (64 usage, 69 no device) */
    char fatal_msg[512];
    grade_late late;      /* the due date and what it took off score (score is after it) */
} grade_result;

typedef struct {
    const catalog *cat;                 /* every chapter (for the previous chapter's reference) */
    const lesson *const *lessons;       /* the chapters to grade, in order */
    int n_lessons;
    const char *submission;             /* the learner's folder: exercises/NN-slug/FILE inside */
    const char *course;                 /* the installed course: kernels/ for --require-speedup */
    const char *work_dir;               /* a private folder for copies of the submitted files */
    const char *student;                /* a name for reports (default: the folder's name) */
    const char *device_spec;
    uint64_t seed;
    uint64_t analysis_seed;             /* the race and technique checks' size and inputs are drawn from
                                         * this one: a batch's own seed, so that the whole class is
                                         * measured alike and each reference simulated once; 0: seed */
    double timeout_s;                   /* wall-clock limit of one kernel run */
    long cpu_s;                         /* CPU seconds for one test's worker */
    long memory_mb;                     /* data segment of one test's worker */
    double require_speedup;             /* 0: timing is reported, not graded */
    const char *weights;                /* NULL, or the assignment's points of each group ("technique:40
                                         * fixes:0"), over each chapter's own weights */
    const char *only;                   /* NULL, or test ids separated by commas: run just those */
    const char *cache_root;             /* compiled kernels' cache, one folder per kernel text; NULL:
                                         * ~/.cache/cltutor/kernels */
    double due;                         /* the due date (Unix time); 0: none */
    double submitted;                   /* when it was handed in (a platform says); 0: the files' newest
                                         * modification time */
    double late_penalty;                /* the fraction of the score taken off per day late, 0..1 */
    int late_limit_days;                /* past this many days late nothing is earned; -1: no limit */
    int threads;                        /* untimed tests of a chapter run side by side on this many
                                         * threads; 0: one per CPU, at most 4 (a batch sets 1 per student
                                         * when its jobs fill the CPUs) */
} grade_options;

/* Called after each test. */
typedef void (*grade_progress_cb)(void *user, const grade_chapter *ch, const grade_test *t, int done, int total);

void grade_options_defaults(grade_options *o);

/* A seed nobody chose: time, process id and the kernel's randomness. */
uint64_t grade_fresh_seed(void);

/* The seed the race and technique checks are drawn from. */
uint64_t grade_analysis_seed(const grade_options *o);

/* A student's own seed in a batch: drawn from the batch's seed and the
 * student's name, so that a batch grades again the same way while no two
 * students face the same hidden inputs. From 1 to 4e9, like a fresh seed. */
uint64_t grade_student_seed(uint64_t batch_seed, const char *student);

/* The exit status of a grader that could not run (no usable OpenCL device, a
 * course or chapter that cannot be read): no grade was given. */
#define GRADE_EXIT_CANNOT_RUN 69

/* The chapter's tests for this seed, with their weights, none run yet.
 * Returns -1 with a message naming lesson.ini when its grading keys are wrong. */
int grade_plan(const grade_options *o, const lesson *l, grade_chapter *ch, char *err, size_t errlen);
/* Whether spec is a --weights an assignment may give (groups and their points); -1 with err. */
int grade_weights_check(const char *spec, char *err, size_t errlen);

/* How many tests grade_run will run (for progress bars); -1 on a plan error. */
int grade_count(const grade_options *o, char *err, size_t errlen);

/* Grades the submission. Returns 0, or -1 when the grader itself could not
 * run (r->fatal and r->fatal_msg say why; no grade should be recorded). */
int grade_run(const grade_options *o, grade_progress_cb cb, void *user, volatile int *cancel, grade_result *r);
void grade_result_free(grade_result *r);

/* The folder of a submission that holds the chapter folders: DIR/exercises,
 * DIR itself when it holds NN-name folders, or DIR/ONE/exercises. No symbolic
 * links are followed below DIR. Returns 0 with the path in buf. */
int grade_find_exercises(const char *dir, char *buf, size_t len, char *err, size_t errlen);

/* Reads exercises_dir/ID/FILE as a submitted kernel: a regular file (no
 * symbolic link anywhere below exercises_dir), text, at most 256 KiB, that
 * passes the source policy (srcpolicy.h): nothing that reads other files, no
 * ## and nothing that depends on the device, except the macros that
 * build_options (the chapter's, NULL for none) defines with -D. Returns the
 * malloc'd text, or NULL with the reason in err and *refused set when the
 * file is there but not acceptable (a policy finding's message names the line). */
char *grade_read_kernel(const char *exercises_dir, const char *id, const char *file, const char *build_options,
                        int *refused, char *err, size_t errlen);

/* The 1-based line of the first construct in OpenCL C source that could read
 * another file (#include and its kin, __has_include, _Pragma, ##: srcpolicy's
 * SRCPOLICY_FILES check); 0 when there is none. */
/* Sets a test's detail to text (malloc'd, taken), cleaned and cut to size. */
void grade_test_set_detail(grade_test *t, char *text);

int grade_find_include(const char *src);

#endif
