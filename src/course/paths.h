/* paths — where the course (lessons, kernels, starting files, read-only)
 * and the learner's workspace (edited exercises, progress) live. */
#ifndef CLT_PATHS_H
#define CLT_PATHS_H
#include <stddef.h>
#include "course/catalog.h"

/* Where the workspace was chosen from. */
typedef enum {
    WS_FROM_OPTION,   /* --workspace */
    WS_FROM_ENV,      /* $CLTUTOR_WORKSPACE */
    WS_IN_TREE,       /* workspace/ inside a writable source checkout */
    WS_PER_USER,      /* $XDG_DATA_HOME/cltutor or ~/.local/share/cltutor */
} workspace_origin;

typedef struct {
    char data[1024];       /* the course: lessons/, kernels/, exercises/ as shipped, never written */
    char workspace[1024];  /* the learner's: exercises/ (edited), .cltutor/ */
    char exe_dir[1024];    /* the folder of the running cltutor program */
    int in_source_tree;    /* the course is a source checkout (it has a Makefile) */
    int tree_read_only;    /* ... that the learner cannot write: the workspace is per user */
    workspace_origin origin;
} paths;

/* Finds the course and the workspace. workspace_opt overrides
 * $CLTUTOR_WORKSPACE; the course is $CLTUTOR_DATA, the source tree the
 * binary sits in (build/cltutor), ../share/cltutor beside the binary's
 * folder (an install under any prefix), or the prefix it was built for. */
int paths_init(paths *p, const char *workspace_opt, char *err, size_t errlen);

void paths_lessons(const paths *p, char *buf, size_t len);
/* The learner's file for a lesson, written from the starting file (paths_starting_text) on first use. */
int paths_exercise(const paths *p, const lesson *l, char *buf, size_t len, char *err, size_t errlen);
/* Another file of the chapter's exercises (a find-the-bug listing), copied likewise. */
int paths_exercise_file(const paths *p, const lesson *l, const char *file, char *buf, size_t len, char *err,
                        size_t errlen);
/* The learner's file's path, whether or not it exists yet. */
void paths_exercise_path(const paths *p, const lesson *l, char *buf, size_t len);
/* The pristine starting file, as shipped with the course. */
void paths_starting(const paths *p, const lesson *l, char *buf, size_t len);
/* A file of the chapter's exercises (file NULL: its kernel) as the learner
 * gets it: the code as shipped, the comments in the learner's language where
 * the catalogue translates them (text/kcomment.h). malloc'd; NULL when the
 * shipped file cannot be read. */
char *paths_starting_text(const paths *p, const lesson *l, const char *file);
/* Whether text is that file untouched: as shipped, or as paths_starting_text gives it. */
int paths_is_starting_text(const paths *p, const lesson *l, const char *file, const char *text);
/* The hashes (util_hash_text) of those two texts; 0 where unreadable. */
void paths_starting_hashes(const paths *p, const lesson *l, unsigned long long hashes[2]);
/* Where the chapter's last passing text of its kernel is kept, in the
 * workspace: .cltutor/passed/NN-name/FILE. */
void paths_passed_copy(const paths *p, const lesson *l, char *buf, size_t len);
/* Keeps text there (a passed chapter that an experiment breaks can be had back). 0, or -1. */
int paths_keep_passed(const paths *p, const lesson *l, const char *text);
/* Puts the starting file back over the learner's file at path, keeping the
 * learner's version beside it as path.bak (path.bak.2, .3, ... when earlier
 * backups exist: none is overwritten). Returns 0 when reset (the backup's
 * path in bak), 1 when the file already is the starting file (nothing is
 * done), -1 with a message in err. */
int paths_reset_exercise(const paths *p, const lesson *l, const char *path, char *bak, size_t baklen, char *err,
                         size_t errlen);
/* The reference solution's path; returns 0 when the course ships it, -1
 * when the install withheld the solutions (a student install). */
int paths_solution(const paths *p, const lesson *l, char *buf, size_t len);
/* The course ships reference solutions (kernels/). */
int paths_have_solutions(const paths *p);
/* The workspace's state folder (.cltutor), created if missing. */
int paths_state_dir(const paths *p, char *buf, size_t len);

#endif
