/* grade_detail — what a report says about a test: the engine's message and
 * the evidence, as clean UTF-8 text of bounded length. */
#ifndef CLT_GRADE_DETAIL_H
#define CLT_GRADE_DETAIL_H
#include "grade/grade.h"
#include "run/engine.h"

/* What a learner reads about one run: the engine's message, and the
 * evidence (wrong entries, the build log, what the runtime printed). */
char *grade_run_detail(const engine_report *rep);

#endif
