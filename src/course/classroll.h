/* classroll — a class's progress, read from the students' own workspaces
 * (`cltutor class`): each chapter's state, runs, best time and hints, for
 * every student, without changing anything in them. */
#ifndef CLT_CLASSROLL_H
#define CLT_CLASSROLL_H

#include "course/catalog.h"
#include "course/progress.h"

typedef struct {
    char name[128];          /* the workspace's folder name; for ~/.local/share/cltutor, the home's */
    char workspace[1024];
    char error[512];         /* why its progress could not be read; "" when it was */
    progress prog;           /* as read; never saved */
    progress_state state[CATALOG_MAX]; /* each chapter of the catalog now: PROG_CHANGED where the
                                        * file on disk is no longer the one that passed */
    int runs[CATALOG_MAX];   /* runs recorded per chapter (the newest PROGRESS_MAX_RUNS) */
    int passed;              /* chapters in PROG_PASSED */
    double last_when;        /* the newest run, Unix time (0: none) */
} classroll_student;

typedef struct {
    const catalog *cat;
    classroll_student *items;
    int count;
} classroll;

void classroll_init(classroll *c, const catalog *cat);
/* Adds the students under dir: dir itself when it is a workspace (it holds
 * .cltutor/progress.json), or a home whose ~/.local/share/cltutor is one;
 * else each folder inside dir that is either (a folder of students, /home).
 * Returns how many it added, or -1 with err (dir is not a folder, or it
 * holds no workspace). A workspace whose progress cannot be read is added
 * with its error. */
int classroll_add(classroll *c, const char *dir, char *err, size_t errlen);
/* Sorts the students by name. */
void classroll_sort(classroll *c);
void classroll_free(classroll *c);

#endif
