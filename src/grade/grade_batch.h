/* grade_batch — grades every submission of a directory (a folder, a .zip or a .tar.gz
 * per student), or one shard of them, N at a time, each in its own forked grader
 * process, and gathers one row of scores per student. */
#ifndef CLT_GRADE_BATCH_H
#define CLT_GRADE_BATCH_H
#include "grade/grade.h"
#include "grade/grade_report.h"

typedef struct {
    char student[256];          /* the folder's name, or the archive's without .zip, .tar.gz, .tgz */
    char entry[1024];           /* what the batch folder holds for the student */
    char dir[1024];             /* the submission folder (an archive's: unpacked in the batch's scratch) */
    int archive;                /* an unpack_kind: UNPACK_NONE for a folder */
    int refused;                /* not graded: an unknown kind of file or an archive refused (error says why) */
    uint64_t seed;              /* the student's own seed (grade_student_seed) */
    char report[1400];          /* its JSON report */
    int graded;                 /* the grader finished and its report was read back */
    int fatal;                  /* the grader's own failure (64, 69, ...), 0 otherwise */
    int time_limit;             /* stopped at the per-student limit: not graded (CSV status time_limit) */
    char error[512];
    double score, max_score;
    double *chapter_score;      /* one per graded chapter, in the options' order; -1 when absent */
    int tests, passed, failed, skipped;
    int submitted;              /* graded chapters whose exercise file was found */
    int files_refused;          /* graded chapters whose exercise file the source policy refused */
    double wall_s;
} grade_batch_row;

/* Called while the batch runs: tests finished out of all, students finished out of all. */
typedef void (*grade_batch_cb)(void *user, int tests_done, int tests_total, int students_done, int students_total,
                               const char *student);

/* How a batch runs. */
typedef struct {
    int jobs;                   /* students graded at once */
    double student_limit_s;     /* 0: no limit */
    int shard, shards;          /* grade the shard-th (1-based) of `shards` slices; 0 0: every student */
    int same_seed;              /* every student on the batch's seed, not a seed of their own */
} grade_batch_spec;

/* Every entry of batch_dir (hidden ones skipped), sorted by student: folders,
 * archives to unpack, and other files marked refused with the reason. With
 * shards > 0, only the shard-th slice: the students dealt to the shards by
 * their work (kernel files handed in), heaviest first, each to the lightest
 * shard. *all_out, when not NULL, gets the whole class's count.
 * Returns 0, or -1 with a message when the folder cannot be read or is empty. */
int grade_batch_list(const char *batch_dir, int shard, int shards, grade_batch_row **rows, int *n, int *all_out,
                     char *err, size_t errlen);

/* Unpacks row i's archive into a folder of its own (0700), scratch/in-I, and
 * points row->dir at it (a batch does it just before the student's grader
 * starts, and removes the folder when the grader ends).
 * A refused archive makes its row refused, with the reason; returns -1. */
int grade_batch_unpack(grade_batch_row *row, int i, const char *scratch);

/* Grades every entry of batch_dir (grade_batch_list), `jobs` at a time,
 * writing each student's JSON report into reports_dir (named after the folder,
 * shortened with a hash when the folder's name is too long for a file name).
 * base->submission, student and work_dir are set per student; each student's
 * grader has its own process group and its own $TMPDIR inside the batch's
 * temporary folder. A student still being graded after student_limit_s seconds
 * (0: no limit) has its processes killed and its row marked time_limit, with a
 * report that says so; the others go on. Returns 0 with *rows sorted by
 * student, or -1 with a message when the batch could not start. */
int grade_batch_run(const grade_options *base, const char *batch_dir, const char *reports_dir,
                    const grade_batch_spec *spec, const grade_report_style *st, grade_batch_cb cb, void *user,
                    grade_batch_row **rows, int *n_rows, char *err, size_t errlen);
void grade_batch_free(grade_batch_row *rows, int n);

/* The CSV: a header, then one row per student with a score per chapter. */
char *grade_batch_csv(const grade_options *o, const grade_batch_row *rows, int n);

/* The same as JSON (format "cltutor-grade-batch"), with the batch's seed, the
 * shard and the whole class's names (class: for `grade merge` to find who is missing). */
char *grade_batch_json(const grade_options *o, const grade_batch_spec *spec, const grade_batch_row *rows, int n,
                       const char *const *class_names, int n_class);

/* A row's status as the CSV says it: ok, no files, time_limit, refused: ..., error: ... */
void grade_batch_status(const grade_batch_row *row, char *buf, size_t len);

/* Removes a folder tree the grader made (its private copies); 0 on success. */
int grade_remove_tree(const char *dir);

#endif
