/* tui_help — the UI's key list (the help screen) and its OpenCL C quick
 * reference, as styled lines in the current language. */
#ifndef CLT_TUI_HELP_H
#define CLT_TUI_HELP_H
#include "text/stext.h"
#include "ui/tui_keys.h"

/* Every key the UI handles (tui_keys.h), by section, at width. */
void tui_help_doc(st_doc *out, int width);
/* The OpenCL C quick reference (Markdown rendered at width). */
void tui_quickref_doc(st_doc *out, int width);

#endif
