/* tui_build — the Build tab: the compiler's messages for the learner's file. */
#ifndef CLT_TUI_BUILD_H
#define CLT_TUI_BUILD_H
#include "ui/tui_results.h"

/* The latest run's build log: lines that name a place in the kernel carry
 * tag = its line number; under a message that names one, the source line and
 * a caret, where the log has none and in->source is the text that was built. */
void tui_build_doc(const tui_results_in *in, int width, st_doc *out);

#endif
