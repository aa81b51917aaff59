/* tui_help — the UI's key list (the help screen) and its OpenCL C quick
 * reference, as styled lines in the current language. */
#ifndef CLT_TUI_HELP_H
#define CLT_TUI_HELP_H
#include "text/stext.h"

typedef struct {
    const char *keys;     /* as shown: "e", "Ctrl-C", "↑ ↓ j k" */
    const char *what;     /* English; translated when shown */
    int section;          /* 0 everywhere, 1 chapter list, 2 chapter, 3 dialogs */
} tui_key_help;

/* Every key the UI handles; ends with a NULL keys. */
const tui_key_help *tui_help_keys(void);
void tui_help_doc(st_doc *out, int width);
/* The OpenCL C quick reference (Markdown rendered at width). */
void tui_quickref_doc(st_doc *out, int width);

#endif
