/* diag — reads a compiler's log one line at a time: the source line a
 * diagnostic names and how severe it is, in the form clang prints
 * ("histogram.cl:7:3: error: ..."), as PoCL and NVIDIA's compilers do. */
#ifndef CLT_DIAG_H
#define CLT_DIAG_H
#include <stddef.h>

typedef enum { DIAG_NONE = 0, DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_severity;

/* One line of a log (len bytes, no newline needed): its severity, and in
 * *line and *col (either may be NULL) the place "FILE:LINE:COL:" at its
 * start names (0 when it names none). */
diag_severity diag_read(const char *s, size_t len, int *line, int *col);
/* The most severe diagnostic in a whole log (NULL: none). */
diag_severity diag_worst(const char *log);

#endif
