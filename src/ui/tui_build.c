/* tui_build — the Build tab: the compiler's messages, each naming the
 * learner's file and line, wrapped at word breaks, with the source line and
 * a caret under the column where the compiler printed none. */
#define _GNU_SOURCE
#include "ui/tui_build.h"
#include "text/diag.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line `line` of source (1-based) into buf, tabs as spaces; 0 when there is none. */
static int source_line(const char *source, int line, char *buf, size_t len) {
    const char *p = source;
    for (int k = 1; p && k < line; k++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p || line < 1 || !len) return 0;
    size_t n = strcspn(p, "\n");
    if (n >= len) n = len - 1;
    for (size_t i = 0; i < n; i++) buf[i] = p[i] == '\t' ? ' ' : p[i];
    buf[n] = '\0';
    return 1;
}

/* "  17 | code" and a caret under column col (1-based byte), as clang prints them, the
 * line's indentation left out. */
static void source_excerpt(st_doc *out, const char *source, int line, int col, int width, int tag) {
    char text[1024], gutter[32], under[32];
    if (!source_line(source, line, text, sizeof text)) return;
    size_t lead = strspn(text, " "), len = strlen(text);
    if (lead == len) return;
    size_t at = col > 0 && (size_t)col - 1 >= lead ? (size_t)col - 1 - lead : 0;
    int gw = snprintf(gutter, sizeof gutter, "%5d | ", line);
    snprintf(under, sizeof under, "%*s| ", gw - 2, "");
    st_doc_add_code_caret(out, gutter, under, text + lead, len - lead, at, width, tag);
}

/* Whether the log line after a message is already the compiler's own source line or caret. */
static int log_shows_source(const char *next) {
    if (!next || !*next) return 0;
    size_t n = strcspn(next, "\n");
    int ref;
    return n > 0 && diag_read(next, n, &ref, NULL) == DIAG_NONE && !ref;
}

void tui_build_doc(const tui_results_in *in, int width, st_doc *out) {
    const engine_report *r = in->rep;
    if (!r) {
        st_doc_addf(out, ST_DIM, "%s", _("Not run yet."));
        return;
    }
    if (!r->build_log || !*r->build_log) {
        st_doc_addf(out, ST_DIM, "%s", r->status == ENG_BUILD ? r->message : _("The compiler printed nothing: no errors, no warnings."));
        return;
    }
    const char *p = r->build_log;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        int ref, col;
        diag_severity sev = diag_read(line, n, &ref, &col);
        int style = ST_NORMAL;
        if (ref && sev == DIAG_ERROR) style = ST_ERR | ST_A_BOLD;
        else if (ref && sev == DIAG_WARNING) style = ST_WARN | ST_A_BOLD;
        else if (ref && sev == DIAG_NOTE) style = ST_DIM;
        else if (strspn(line, " ~^") == n && strchr(line, '^')) style = ST_OK | ST_A_BOLD;
        if (ref) { /* a message: wrapped at word breaks, each piece naming its line */
            int first = out->n;
            st_doc_wrap(out, width, style, line, "", "    ", style);
            for (int k = first; k < out->n; k++) out->lines[k].tag = ref;
            if (in->source && !log_shows_source(e ? e + 1 : NULL)) source_excerpt(out, in->source, ref, col, width, ref);
        } else {
            st_line l;
            memset(&l, 0, sizeof l);
            st_line_add(&l, style, line, n);
            st_doc_add_cut(out, &l, width);
            st_line_free(&l);
        }
        free(line);
        p = e ? e + 1 : p + n;
    }
}
