/* grade_late — a due date and a late policy: when a submission was handed in,
 * how many days late, and what that takes off its score. */
#ifndef CLT_GRADE_LATE_H
#define CLT_GRADE_LATE_H
#include <stddef.h>

#include "grade/grade.h"

/* "2026-12-01 23:59", "2026-12-01T23:59:30", with an optional "Z" or "+08:00"
 * (else local time), or "@SECONDS" since 1970: 0 and *out (Unix time), or -1. */
int grade_parse_time(const char *text, double *out);

/* A time as ISO 8601 in UTC ("2026-12-01T15:59:00Z"). */
void grade_format_time(double t, char *buf, size_t len);

/* When a submission was handed in: the newest modification time of the
 * files under path (a folder), or of path itself (an archive); 0 unknown. */
double grade_submission_time(const char *path);

/* Applies o's due date to r (nothing without one): r->late says when it was
 * handed in and how late; a late submission loses o->late_penalty of its
 * score per day or part of a day, all of it past o->late_limit_days. */
void grade_apply_late(const grade_options *o, grade_result *r);

/* What a report says of it, in the reader's language ("" without a due date). */
void grade_late_sentence(const grade_late *l, char *buf, size_t len);

#endif
