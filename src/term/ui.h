/* ui — the full-screen terminal UI (ncursesw): chapters, lesson, kernel,
 * results, history, hints, devices; `cltutor` with no command opens it. */
#ifndef CLT_UI_H
#define CLT_UI_H

/* Runs the UI until the learner quits; returns the exit status. workspace
 * overrides $CLTUTOR_WORKSPACE (NULL: the usual places). Needs a terminal
 * on stdin and stdout. */
int ui_main(const char *workspace);

/* Whether the UI can run here: stdin and stdout are a terminal that can
 * move the cursor (TERM set, not "dumb"). */
int ui_available(void);

#endif
