/* codefrag: the pieces of code a sentence quotes, and whether a source already has them */
#include "text/codefrag.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int ident_start(int c) { return isalpha(c) || c == '_'; }
static int ident_char(int c) { return isalnum(c) || c == '_'; }

/* The end of a balanced group opening at s[i] ('(' or '['), or 0 when it does not close on this text. */
static size_t group_end(const char *s, size_t i) {
    int depth = 0;
    for (size_t j = i; s[j]; j++) {
        if (s[j] == '(' || s[j] == '[') depth++;
        else if (s[j] == ')' || s[j] == ']') {
            if (--depth == 0) return j + 1;
        }
    }
    return 0;
}

int codefrag_next(const char *text, size_t *pos, size_t min_len, char *out, size_t outlen) {
    size_t i = *pos;
    while (text[i]) {
        if (!ident_start((unsigned char)text[i]) || (i && ident_char((unsigned char)text[i - 1]))) {
            i++;
            continue;
        }
        size_t start = i;
        while (ident_char((unsigned char)text[i])) i++;
        size_t end = i, j = i;
        while (text[j] == ' ') j++;
        while (text[j] == '(' || text[j] == '[') {
            size_t g = group_end(text, j);
            if (!g) break;
            end = j = g;
        }
        if (end == i) continue; /* a plain word */
        size_t n = 0;
        for (size_t k = start; k < end && n + 1 < outlen; k++)
            if (!isspace((unsigned char)text[k])) out[n++] = text[k];
        out[n] = 0;
        i = end;
        if (n >= min_len) {
            *pos = i;
            return 1;
        }
    }
    *pos = i;
    return 0;
}

int codefrag_in_source(const char *frag, const char *source) {
    size_t len = strlen(source), n = 0;
    char *squeezed = malloc(len + 1);
    if (!squeezed) return 0;
    for (size_t i = 0; i < len; i++)
        if (!isspace((unsigned char)source[i])) squeezed[n++] = source[i];
    squeezed[n] = 0;
    int found = strstr(squeezed, frag) != NULL;
    free(squeezed);
    return found;
}
