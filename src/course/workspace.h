/* workspace — makes the learner's folder ready, and moves work from the old
 * layout (edits inside the course's own exercises/) into it once. */
#ifndef CLT_WORKSPACE_H
#define CLT_WORKSPACE_H
#include <stddef.h>
#include "course/paths.h"

typedef struct {
    int moved;             /* files moved from the course's exercises/ */
    int moved_progress;    /* the checkout's .cltutor/ moved too */
    char error[1600];
} workspace_news;

/* What the learner is told once after a move (news->moved or
 * news->moved_progress), in the learner's language, into buf. */
void workspace_moved_text(char *buf, size_t len, const char *workspace, const workspace_news *news);

/* Creates p->workspace and, for a workspace inside a source checkout, moves
 * the old layout's work into it the first time. Returns -1 with
 * news->error when the workspace cannot be made or a move failed (nothing is
 * lost: a file is copied before the course's version comes back). */
int workspace_prepare(const paths *p, workspace_news *news);

#endif
