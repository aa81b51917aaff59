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

/* The find-the-bug listing of l that an exercise's text `mine` is, with its
 * bug mended: it holds at least VERDICT_LISTING_SHARE of the listing's own
 * fingerprints (grade/similarity: names, comments and layout aside), those
 * that neither the starting file nor the reference holds. Only a listing
 * with at least VERDICT_LISTING_MIN_OWN of them is judged: one that is the
 * reference with a bug in it, mended, is the reference. `course` holds
 * exercises/ and kernels/. The bug, with *share, or NULL. */
#define VERDICT_LISTING_SHARE 0.6
#define VERDICT_LISTING_MIN_OWN 40
const lesson_bug *verdict_fix_mended_listing(const char *course, const lesson *l, const char *mine, double *share);

#endif
