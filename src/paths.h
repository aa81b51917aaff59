/* paths — where the course (lessons, kernels, starting files) and the
 * learner's workspace (edited exercises, progress) live. */
#ifndef CLT_PATHS_H
#define CLT_PATHS_H
#include <stddef.h>
#include "catalog.h"

typedef struct {
    char data[1024];       /* the course: lessons/, kernels/, exercises/ (pristine) */
    char workspace[1024];  /* the learner's: exercises/ (edited), .cltutor/ */
    int in_source_tree;    /* the workspace is the source checkout itself */
} paths;

/* Finds the course and the workspace. workspace_opt overrides
 * $CLTUTOR_WORKSPACE; the course is $CLTUTOR_DATA, the source tree the binary
 * was built in, or the installed share folder. */
int paths_init(paths *p, const char *workspace_opt, char *err, size_t errlen);

void paths_lessons(const paths *p, char *buf, size_t len);
/* The learner's file for a lesson, copied from the starting file on first use. */
int paths_exercise(const paths *p, const lesson *l, char *buf, size_t len, char *err, size_t errlen);
/* Another file of the chapter's exercises (a find-the-bug listing), copied likewise. */
int paths_exercise_file(const paths *p, const lesson *l, const char *file, char *buf, size_t len, char *err,
                        size_t errlen);
/* The pristine starting file. */
void paths_starting(const paths *p, const lesson *l, char *buf, size_t len);
/* Puts the starting file back over the learner's file at path, keeping the
 * learner's version beside it as path.bak (path.bak.2, .3, ... when earlier
 * backups exist: none is overwritten). Returns 0 when reset (the backup's
 * path in bak), 1 when the file already is the starting file (nothing is
 * done), -1 with a message in err. */
int paths_reset_exercise(const paths *p, const lesson *l, const char *path, char *bak, size_t baklen, char *err,
                         size_t errlen);
/* The reference solution. */
void paths_solution(const paths *p, const lesson *l, char *buf, size_t len);
/* The workspace's state folder (.cltutor), created if missing. */
int paths_state_dir(const paths *p, char *buf, size_t len);

#endif
