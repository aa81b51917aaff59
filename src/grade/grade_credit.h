/* grade_credit — what a chapter's tests earn once they have run: a fixed
 * listing only as a small edit of the shipped one, nothing for a kernel the
 * race check fails, the race check and the techniques only with every hidden
 * test passed, and nothing for an unchanged starting file or a mended
 * find-the-bug listing handed in as the exercise. */
#ifndef CLT_GRADE_CREDIT_H
#define CLT_GRADE_CREDIT_H

#include "course/catalog.h"
#include "grade/grade.h"

/* A fixed listing (test t, the file submitted) that changes more of the
 * shipped one than its bug allows fails as not_a_fix. */
void grade_check_fix_is_edit(const grade_options *o, const lesson *l, grade_test *t, const char *submitted);

/* A failed race check takes the points of the hidden tests and techniques. */
void grade_gate_on_safety(grade_chapter *ch);

/* A failed hidden test takes the race check's and techniques' points; an
 * unchanged starting file (submitted: the exercise's copy, or NULL), or a
 * find-the-bug listing with its bug mended (status "listing"), earns nothing. */
void grade_gate_on_correctness(const grade_options *o, const lesson *l, grade_chapter *ch, const char *submitted);

#endif
