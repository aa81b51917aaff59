/* buildlog — a runtime's build log rewritten to name the learner's file. */
#ifndef CLT_BUILDLOG_H
#define CLT_BUILDLOG_H

/* Rewrites a build log so that it names display_path instead of the
 * runtime's temporary file; notes the first error's line and column.
 * Returns a malloc'd string, or NULL without memory. */
char *buildlog_rewrite(const char *log, const char *display_path, int *line, int *col);

#endif
