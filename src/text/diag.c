/* diag — the severity and place of a compiler's diagnostics. */
#define _GNU_SOURCE
#include "text/diag.h"

#include <stdio.h>
#include <string.h>

/* "FILE:LINE[:COL]" at the start, FILE free of spaces and colons. */
static int read_place(const char *s, size_t len, int *col) {
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    size_t start = i;
    while (i < len && s[i] != ':' && s[i] != ' ') i++;
    if (i == start || i >= len || s[i] != ':') return 0;
    int line = 0, c = 0;
    size_t j = i + 1;
    while (j < len && s[j] >= '0' && s[j] <= '9' && line < 10000000) line = line * 10 + (s[j++] - '0');
    if (j == i + 1 || line <= 0) return 0;
    if (j + 1 < len && s[j] == ':' && s[j + 1] >= '0' && s[j + 1] <= '9')
        for (j++; j < len && s[j] >= '0' && s[j] <= '9' && c < 100000;) c = c * 10 + (s[j++] - '0');
    if (col) *col = c;
    return line;
}

diag_severity diag_read(const char *s, size_t len, int *line, int *col) {
    static const struct {
        const char *word;
        diag_severity severity;
    } words[] = {{"fatal error:", DIAG_ERROR}, {"error:", DIAG_ERROR}, {"warning:", DIAG_WARNING},
                 {"note:", DIAG_NOTE}};
    int c = 0, l = read_place(s, len, &c);
    if (line) *line = l;
    if (col) *col = c;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        /* the word at the start of the line, or after "PLACE: " */
        if (len >= n && !memcmp(s, words[i].word, n)) return words[i].severity;
        char after[24];
        snprintf(after, sizeof after, ": %s", words[i].word);
        if (memmem(s, len, after, n + 2)) return words[i].severity;
    }
    return DIAG_NONE;
}

diag_severity diag_worst(const char *log) {
    diag_severity worst = DIAG_NONE;
    for (const char *p = log; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        diag_severity s = diag_read(p, len, NULL, NULL);
        if (s > worst) worst = s;
        p = eol ? eol + 1 : p + len;
    }
    return worst;
}
