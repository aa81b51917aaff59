/* verdict_fix — whether a fixed find-the-bug listing is that listing with
 * its bug mended: the code lines that differ from the shipped listing (see
 * verdict_fix.h). */
#define _GNU_SOURCE
#include "grade/verdict_fix.h"
#include "text/srcdiff.h"
#include "grade/similarity.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The code of an OpenCL C text, one statement line per line: comments
 * removed, runs of white space folded, blank lines dropped. */
static char *code_only(const char *src) {
    size_t n = strlen(src);
    char *out = malloc(n + 2);
    if (!out) return NULL;
    size_t o = 0;
    int space = 0, line_has = 0;
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == '/' && src[i + 1] == '/') {
            while (i + 1 < n && src[i + 1] != '\n') i++;
            continue;
        }
        if (c == '/' && src[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) i++;
            i++;
            space = 1;
            continue;
        }
        if (c == '"' || c == '\'') {
            char q = c;
            out[o++] = c;
            while (++i < n && src[i] != q && src[i] != '\n') {
                out[o++] = src[i];
                if (src[i] == '\\' && i + 1 < n) out[o++] = src[++i];
            }
            if (i < n) out[o++] = src[i];
            line_has = 1;
            continue;
        }
        if (c == '\n') {
            if (line_has) out[o++] = '\n';
            line_has = space = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            space = 1;
            continue;
        }
        if (space && line_has) out[o++] = ' ';
        space = 0;
        out[o++] = c;
        line_has = 1;
    }
    if (line_has) out[o++] = '\n';
    out[o] = '\0';
    return out;
}

/* The directive a code line (as code_only writes it) holds: "if", "ifdef",
 * "else", ... into word, or "" for a line of code. */
static void directive_word(const char *line, size_t len, char *word, size_t wlen) {
    word[0] = '\0';
    size_t i = 0;
    while (i < len && line[i] == ' ') i++;
    if (i >= len || line[i] != '#') return;
    i++;
    while (i < len && line[i] == ' ') i++;
    size_t n = 0;
    while (i + n < len && isalpha((unsigned char)line[i + n])) n++;
    snprintf(word, wlen, "%.*s", (int)n, line + i);
}

/* Whether a #if or #elif line's condition is a literal 0 (or false). */
static int condition_is_zero(const char *line, size_t len, const char *word) {
    const char *p = memchr(line, '#', len);
    const char *end = line + len;
    p = p ? strstr(p, word) : NULL;
    if (!p || p >= end) return 0;
    p += strlen(word);
    while (p < end && (*p == ' ' || *p == '(')) p++;
    const char *q = end;
    while (q > p && (q[-1] == ' ' || q[-1] == ')')) q--;
    return (q - p == 1 && *p == '0') || (q - p == 5 && !strncmp(p, "false", 5));
}

/* The code as the compiler sees it, one statement a line: code_only, then
 * what #if 0 (or #elif 0) leaves out and the conditional directives
 * themselves dropped, and a line split after each
 * ; (outside parentheses), { and } outside strings, so that one long line
 * holds no more than a statement. A listing kept whole under #if 0 counts as removed. */
static char *compiled_statements(const char *src) {
    char *code = code_only(src);
    if (!code) return NULL;
    size_t n = strlen(code);
    char *out = malloc(2 * n + 2);
    if (!out) {
        free(code);
        return NULL;
    }
    size_t o = 0;
    int depth = 0, skip_from = 0; /* skip_from: the #if depth whose branch is left out (0: none) */
    for (char *line = code; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char word[16];
        directive_word(line, len, word, sizeof word);
        int keep = !skip_from;
        if (!strcmp(word, "if") || !strcmp(word, "ifdef") || !strcmp(word, "ifndef")) {
            depth++;
            if (!skip_from && !strcmp(word, "if") && condition_is_zero(line, len, "if")) skip_from = depth, keep = 0;
        } else if (!strcmp(word, "elif") || !strcmp(word, "else")) {
            if (skip_from == depth) skip_from = 0, keep = 0; /* the #else of an #if 0 is compiled */
            else if (!skip_from && !strcmp(word, "elif") && condition_is_zero(line, len, "elif")) skip_from = depth;
        } else if (!strcmp(word, "endif")) {
            if (skip_from == depth) skip_from = 0, keep = 0;
            if (depth > 0) depth--;
        }
        int conditional = !strcmp(word, "if") || !strcmp(word, "ifdef") || !strcmp(word, "ifndef") ||
                          !strcmp(word, "elif") || !strcmp(word, "else") || !strcmp(word, "endif");
        if (keep && !conditional) { /* the conditionals themselves are no code */
            char quote = 0;
            int parens = 0; /* a for loop's header stays one statement */
            for (size_t i = 0; i < len; i++) {
                char c = line[i];
                out[o++] = c;
                if (quote) {
                    if (c == '\\' && i + 1 < len) out[o++] = line[++i];
                    else if (c == quote) quote = 0;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '(' || c == ')') {
                    parens += c == '(' ? 1 : parens > 0 ? -1 : 0;
                } else if (!word[0] && ((c == ';' && parens == 0) || c == '{' || c == '}') && i + 1 < len) {
                    out[o++] = '\n';
                    while (i + 1 < len && line[i + 1] == ' ') i++;
                }
            }
            out[o++] = '\n';
        }
        line = nl ? nl + 1 : line + len;
    }
    out[o] = '\0';
    free(code);
    return out;
}

int verdict_fix_distance(const char *listing, const char *fixed) {
    char *a = compiled_statements(listing), *b = compiled_statements(fixed);
    int dist = -1;
    sd_diff d;
    if (a && b && srcdiff_compute(a, b, &d) == 0) {
        dist = d.n_add > d.n_del ? d.n_add : d.n_del;
        srcdiff_free(&d);
    }
    free(a);
    free(b);
    return dist;
}

int verdict_fix_allowed(const lesson_bug *b) {
    return b->max_changed_lines > 0 ? b->max_changed_lines : VERDICT_FIX_DEFAULT_LINES;
}

/* The fingerprints of a file, empty when it cannot be read. */
static void file_prints(const char *path, sim_prints *out) {
    memset(out, 0, sizeof *out);
    char *src = util_read_file(path, NULL);
    if (src && sim_fingerprint(src, out) != 0) memset(out, 0, sizeof *out);
    free(src);
}

const lesson_bug *verdict_fix_mended_listing(const char *course, const lesson *l, const char *mine, double *share) {
    *share = 0;
    if (!course || !mine || l->n_bugs == 0) return NULL;
    sim_prints own_text, aside[2];
    if (sim_fingerprint(mine, &own_text) != 0) return NULL;
    char path[1400];
    snprintf(path, sizeof path, "%s/exercises/%s/%s", course, l->id, l->exercise);
    file_prints(path, &aside[0]);
    snprintf(path, sizeof path, "%s/kernels/%s/%s", course, l->id, l->exercise);
    file_prints(path, &aside[1]);
    const lesson_bug *found = NULL;
    for (int b = 0; b < l->n_bugs && !found; b++) {
        sim_prints listing;
        snprintf(path, sizeof path, "%s/exercises/%s/%s", course, l->id, l->bugs[b].file);
        file_prints(path, &listing);
        int own = 0, held = 0;
        sim_share(&listing, &own_text, aside, 2, &own, &held);
        if (own >= VERDICT_LISTING_MIN_OWN && held >= VERDICT_LISTING_SHARE * own) {
            found = &l->bugs[b];
            *share = (double)held / own;
        }
        sim_prints_free(&listing);
    }
    sim_prints_free(&own_text);
    sim_prints_free(&aside[0]);
    sim_prints_free(&aside[1]);
    return found;
}
