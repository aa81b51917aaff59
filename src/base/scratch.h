/* scratch — a private temporary folder for a command and every process it starts, removed when the command ends, also on SIGINT or SIGTERM. */
#ifndef CLT_SCRATCH_H
#define CLT_SCRATCH_H
#include <stddef.h>

/* What runs in the child: dir is the scratch folder (also its $TMPDIR). Returns an exit status. */
typedef int (*scratch_fn)(void *arg, const char *dir);

/* Makes PREFIX-XXXXXX in $TMPDIR (or /tmp) and runs fn(arg, dir) in a child
 * process whose $TMPDIR is that folder, so that every temporary file of the
 * run, of its workers and of their workers lands inside it. This process waits
 * as the run's subreaper: when SIGINT, SIGTERM or SIGHUP arrives it kills the
 * child, which takes its descendants with it (they die with their parent),
 * waits for them all, and returns 128 + the signal's number. The folder is
 * removed in every case. Otherwise returns the child's exit status (128 + N
 * when a signal N killed it), or -1 with err when the folder or the child
 * could not be made. */
int scratch_run(const char *prefix, scratch_fn fn, void *arg, char *err, size_t errlen);

/* Removes a folder tree without following symbolic links; 0 on success. */
int scratch_remove(const char *dir);

#endif
