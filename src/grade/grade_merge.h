/* grade_merge — one class's grades from the reports of its shards (`grade --batch
 * --shard I/N`, graded on several machines): CSV with CSV, JSON with JSON. */
#ifndef CLT_GRADE_MERGE_H
#define CLT_GRADE_MERGE_H
#include "grade/grade_batch.h"

#include <stddef.h>

typedef struct {
    int rows;              /* students in the merged report */
    char **missing;        /* students of the class with no row in any input */
    int n_missing;
    int class_known;       /* the class's names were known (JSON inputs or a batch folder) */
    char **replaced;       /* "STUDENT\tKEPT_FILE\tREPLACED_FILE": a student in two inputs, the later one kept */
    int n_replaced;
} grade_merge_info;

/* Merges the files (all CSV, or all JSON as `grade --batch --format json`
 * writes them), rows sorted by student as one whole-class batch sorts them, so
 * that the shards of a batch merge into the CSV the whole batch gives. The
 * class is the JSON inputs' "class", or batch_dir's entries when batch_dir is
 * not NULL. to_csv writes JSON inputs' rows as the batch's CSV. A student in
 * two inputs (a regraded student given after the class's report) keeps the
 * later input's row, noted in info->replaced. Refuses (NULL, with err naming
 * the files) inputs of different chapters or seeds, and a file that is
 * neither. Returns the merged text (malloc'd). */
char *grade_merge(const char *const *files, int n, const char *batch_dir, int to_csv, grade_merge_info *info,
                  char *err, size_t errlen);
void grade_merge_info_free(grade_merge_info *info);

/* A batch's CSV (as grade_batch_csv or grade_merge write it) read back as
 * the batch's rows, for its class summary: each student's score, counts,
 * status and report path. Returns 0 with *rows (grade_batch_free), or -1
 * with err when the text is not such a CSV. */
int grade_merge_rows(const char *csv, grade_batch_row **rows, int *n, char *err, size_t errlen);

#endif
