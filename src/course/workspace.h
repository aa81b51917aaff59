/* workspace — makes the learner's folder ready, and moves work from the old
 * layout (edits inside the course's own exercises/) into it once. */
#ifndef CLT_WORKSPACE_H
#define CLT_WORKSPACE_H
#include "text/i18n.h"
#include "course/paths.h"

typedef struct {
    int moved;             /* files moved from the course's exercises/ */
    int moved_progress;    /* the checkout's .cltutor/ moved too */
    char error[1600];
} workspace_news;

/* What the learner is told once after a move, with the workspace, the
 * files moved and WORKSPACE_MOVED_PROGRESS or "" (the course shows it in
 * the learner's language: the same text is its msgid in po/). */
#define WORKSPACE_MOVED_FMT                                                                                    \
    N_("Your work now lives in %s, apart from the course: %d edited file(s) from the course's exercises/%s moved " \
    "there, and the course's own starting files are back in place.")
#define WORKSPACE_MOVED_PROGRESS N_(" and your progress")

/* Creates p->workspace and, for a workspace inside a source checkout, moves
 * the old layout's work into it the first time. Returns -1 with
 * news->error when the workspace cannot be made or a move failed (nothing is
 * lost: a file is copied before the course's version comes back). */
int workspace_prepare(const paths *p, workspace_news *news);

#endif
