/* verdict_fix — a fixed find-the-bug listing must be that listing with its
 * bug mended, not another kernel: the code lines (comments and spacing
 * aside) that differ from the shipped listing, the larger of lines added
 * and removed. */
#ifndef CLT_VERDICT_FIX_H
#define CLT_VERDICT_FIX_H
#include "course/catalog.h"

#define VERDICT_FIX_DEFAULT_LINES 8
int verdict_fix_distance(const char *listing, const char *fixed);
/* The most lines a fix of b may change (its max_changed_lines, else the default). */
int verdict_fix_allowed(const lesson_bug *b);

#endif
