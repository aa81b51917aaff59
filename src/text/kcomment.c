/* kcomment — the comments of an OpenCL C text as messages, and the text with
 * them translated (see kcomment.h). */
#define _GNU_SOURCE
#include "text/kcomment.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KC_BLOCK, KC_LINE } kc_kind;

/* One comment of the text and the shape it is written in. */
typedef struct {
    kc_kind kind;
    size_t at, end;   /* its bytes, marks included: src[at, end) */
    int line;         /* where it starts, 1-based */
    int opens_bare;   /* nothing follows the opening mark on its line */
    int closes_alone; /* the closing mark on a line of its own */
    int in_macro;     /* its last line continues a macro ("\" at the end) */
    char margin[96];  /* what starts its second and later lines: "    * " */
    char *msgid;      /* its text, lines joined by "\n"; NULL when out of memory */
} kc_comment;

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The end of the string or character literal that starts at i. */
static size_t literal_end(const char *s, size_t i) {
    char q = s[i++];
    while (s[i] && s[i] != q && s[i] != '\n') i += s[i] == '\\' && s[i + 1] ? 2 : 1;
    return s[i] == q ? i + 1 : i;
}

/* The margin of a comment of one line: the blanks before it where it starts
 * its line, else one space a character up to it; then " * ". */
static void own_margin(const char *s, size_t at, kc_comment *c) {
    size_t ls = at;
    while (ls > 0 && s[ls - 1] != '\n') ls--;
    int only_blanks = 1, cols = 0;
    for (size_t k = ls; k < at; k++) {
        if (!blank(s[k])) only_blanks = 0;
        if (((unsigned char)s[k] & 0xC0) != 0x80) cols++;
    }
    size_t o = 0;
    for (int k = 0; k < cols && o + 4 < sizeof c->margin; k++) c->margin[o++] = only_blanks ? s[ls + k] : ' ';
    memcpy(c->margin + o, " * ", 4);
}

/* The text of a block comment src[c->at, c->end) as its message, its shape in c. */
static int block_message(const char *s, kc_comment *c) {
    const char *from = s + c->at + 2, *to = s + c->end - 2;
    size_t cap = (size_t)(to - from) + 1, o = 0;
    char *msg = malloc(cap);
    if (!msg) return -1;
    int k = 0, margin_set = 0;
    for (const char *p = from; p <= to; k++) {
        const char *nl = memchr(p, '\n', (size_t)(to - p));
        const char *eol = nl ? nl : to, *t = p;
        while (t < eol && blank(*t)) t++;
        if (k > 0) {
            if (t < eol && *t == '*') t += (t + 1 < eol && t[1] == ' ') ? 2 : 1;
            if (!margin_set && t < eol && (size_t)(t - p) < sizeof c->margin) { /* the first line with text */
                memcpy(c->margin, p, (size_t)(t - p));
                c->margin[t - p] = '\0';
                margin_set = 1;
            }
        }
        const char *e = eol;
        while (e > t && blank(e[-1])) e--;
        int last = !nl;
        if (k == 0 && e == t && !last) c->opens_bare = 1;
        else if (last && k > 0 && e == t) c->closes_alone = 1;
        else {
            if (o) msg[o++] = '\n';
            memcpy(msg + o, t, (size_t)(e - t));
            o += (size_t)(e - t);
        }
        p = nl ? nl + 1 : to + 1;
    }
    msg[o] = '\0';
    if (!margin_set) own_margin(s, c->at, c);
    c->msgid = msg;
    return 0;
}

static int line_message(const char *s, kc_comment *c) {
    const char *t = s + c->at + 2, *e = s + c->end;
    if (t < e && *t == ' ') t++;
    while (e > t && blank(e[-1])) e--;
    c->msgid = strndup(t, (size_t)(e - t));
    return c->msgid ? 0 : -1;
}

/* The next comment of s at or after *pos; 0 when there is none, -1 out of memory. */
static int next_comment(const char *s, size_t *pos, int *line, kc_comment *c) {
    memset(c, 0, sizeof *c);
    for (size_t i = *pos; s[i]; i++) {
        if (s[i] == '\n') (*line)++;
        else if (s[i] == '"' || s[i] == '\'') {
            i = literal_end(s, i) - 1;
        } else if (s[i] == '/' && (s[i + 1] == '*' || s[i + 1] == '/')) {
            c->kind = s[i + 1] == '*' ? KC_BLOCK : KC_LINE;
            c->at = i;
            c->line = *line;
            const char *end = c->kind == KC_BLOCK ? strstr(s + i + 2, "*/") : strchr(s + i, '\n');
            if (c->kind == KC_BLOCK && !end) return 0; /* never closed: not a comment the compiler takes */
            c->end = end ? (size_t)(end - s) + (c->kind == KC_BLOCK ? 2 : 0) : strlen(s);
            for (size_t k = i; k < c->end; k++) *line += s[k] == '\n';
            size_t after = c->end;
            while (blank(s[after])) after++;
            c->in_macro = s[after] == '\\' && (s[after + 1] == '\n' || !s[after + 1]);
            *pos = c->end;
            return (c->kind == KC_BLOCK ? block_message(s, c) : line_message(s, c)) ? -1 : 1;
        }
    }
    return 0;
}

static int has_letter(const char *t) {
    for (; *t; t++)
        if (isalpha((unsigned char)*t)) return 1;
    return 0;
}

int kcomment_each(const char *src, kcomment_each_fn each, void *ctx) {
    size_t pos = 0;
    int line = 1, r;
    kc_comment c;
    while ((r = next_comment(src, &pos, &line, &c)) == 1) {
        if (has_letter(c.msgid)) each(ctx, c.msgid, c.line);
        free(c.msgid);
    }
    return r;
}

/* The comment c written with the text tr, in c's shape, onto *out. */
static void write_comment(char **out, const kc_comment *c, const char *tr) {
    if (c->kind == KC_LINE || c->in_macro) {
        util_sappend(out, "%s", c->kind == KC_LINE ? "// " : "/* ");
        for (const char *t = tr; *t; t++) util_sappend(out, "%c", *t == '\n' ? ' ' : *t);
        if (c->kind == KC_BLOCK) util_sappend(out, " */");
        return;
    }
    size_t ml = strlen(c->margin), bare = ml;
    while (bare > 0 && blank(c->margin[bare - 1])) bare--;
    util_sappend(out, "/*");
    if (c->opens_bare) util_sappend(out, "\n%.*s", (int)ml, c->margin);
    else util_sappend(out, " ");
    for (const char *t = tr; *t;) {
        const char *nl = strchr(t, '\n');
        size_t n = nl ? (size_t)(nl - t) : strlen(t);
        util_sappend(out, "%.*s", (int)n, t);
        if (!nl) break;
        t = nl + 1;
        util_sappend(out, "\n%.*s", (int)(*t && *t != '\n' ? ml : bare), c->margin);
    }
    size_t star = 0;
    while (star < ml && blank(c->margin[star])) star++;
    if (c->closes_alone) util_sappend(out, "\n%.*s*/", (int)star, c->margin);
    else util_sappend(out, " */");
}

char *kcomment_translate(const char *src, kcomment_tr_fn tr, void *ctx) {
    char *out = NULL;
    util_sappend(&out, "%s", "");
    size_t pos = 0, copied = 0;
    int line = 1, r = 0;
    kc_comment c;
    while (out && (r = next_comment(src, &pos, &line, &c)) == 1) {
        const char *t = has_letter(c.msgid) ? tr(ctx, c.msgid) : c.msgid;
        if (t != c.msgid) {
            util_sappend(&out, "%.*s", (int)(c.at - copied), src + copied);
            write_comment(&out, &c, t);
            copied = c.end;
        }
        free(c.msgid);
    }
    if (out) util_sappend(&out, "%s", src + copied);
    if (r < 0 || !out) {
        free(out);
        return NULL;
    }
    return out;
}
