/* stext — styled text for the terminal UI: lines of UTF-8 spans with a style,
 * display widths (wide characters take two columns) and word wrapping. */
#ifndef CLT_STEXT_H
#define CLT_STEXT_H
#include <stddef.h>

/* A style is a role (what the text is; the view picks its colour) plus
 * attribute flags. */
enum {
    ST_NORMAL = 0, ST_DIM, ST_TITLE, ST_H1, ST_H2, ST_H3, ST_CODE, ST_LINK, ST_QUOTE,
    ST_KEYWORD, ST_QUAL, ST_TYPE, ST_BUILTIN, ST_COMMENT, ST_NUMBER, ST_STRING, ST_PREPROC,
    ST_LINENO, ST_OK, ST_ERR, ST_WARN, ST_ADD, ST_DEL, ST_HUNK, ST_MARK, ST_BAR, ST_KEY,
    ST_ROLES
};
#define ST_ROLE_MASK 0xff
#define ST_A_BOLD 0x100
#define ST_A_ITALIC 0x200
#define ST_A_UNDERLINE 0x400
#define ST_A_REVERSE 0x800
#define ST_ROLE(s) ((s) & ST_ROLE_MASK)

typedef struct {
    int off, len;   /* bytes in the line's text */
    int style;
} st_span;

typedef struct {
    char *text;     /* the whole line, NUL-terminated */
    int len, cap;
    st_span *spans;
    int n_spans, cap_spans;
    int tag;        /* caller's: a source line number, a diff row, ... (0 none) */
} st_line;

typedef struct {
    st_line *lines;
    int n, cap;
} st_doc;

void st_doc_init(st_doc *d);
void st_doc_free(st_doc *d);
void st_doc_clear(st_doc *d);
st_line *st_doc_add(st_doc *d);
/* Adds a line holding one span (text may be NULL for an empty line). */
st_line *st_doc_addf(st_doc *d, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends the lines of src (copied). */
void st_doc_append(st_doc *d, const st_doc *src);

void st_line_add(st_line *l, int style, const char *text, size_t len);
void st_line_adds(st_line *l, int style, const char *text);
void st_line_addf(st_line *l, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void st_line_free(st_line *l);
int st_line_width(const st_line *l);
/* The line's text as plain text (no styles), for tests and dumps. */
const char *st_line_text(const st_line *l);

/* Decodes one UTF-8 character at s (at most len bytes): its byte length
 * (at least 1) and, through cp and cols, the code point and its width. */
int st_char(const char *s, size_t len, unsigned *cp, int *cols);
/* Whether the first (last = 0) or the last character of s[0..len) takes two columns (CJK):
 * a line break between two such characters is joined without a space. */
int st_wide_at(const char *s, size_t len, int last);
int st_cp_width(unsigned cp);
/* Display columns of a string. */
int st_width(const char *s, size_t len);
int st_widths(const char *s);
/* Bytes of the longest prefix that fits in max_cols; its width in *cols. */
size_t st_fit(const char *s, size_t len, int max_cols, int *cols);
/* Skips the first skip_cols columns: bytes to skip (a wide character cut in
 * half is skipped whole; *extra says how many columns that overshoots). */
size_t st_skip(const char *s, size_t len, int skip_cols, int *extra);

/* A paragraph being built from styled runs, then wrapped into a document. */
typedef struct {
    st_line run;    /* the text so far, as one long line */
} st_para;

void st_para_init(st_para *p);
void st_para_free(st_para *p);
void st_para_add(st_para *p, int style, const char *text, size_t len);
int st_para_empty(const st_para *p);
/* Wraps into lines of at most width columns: the first line starts with
 * prefix1, the others with prefix2 (both styled with pstyle). Breaks at
 * spaces and between wide characters; a word longer than a line is cut;
 * a no-break space (U+00A0) holds words together and prints as a space.
 * Returns the number of lines added. */
int st_para_wrap(const st_para *p, int width, const char *prefix1, const char *prefix2, int pstyle, st_doc *out);

/* Wraps text, all in one style, into out as st_para_wrap does (prefix1 on
 * the first line, prefix2 on the others, both styled pstyle). Returns the
 * number of lines added. */
int st_doc_wrap(st_doc *out, int width, int style, const char *text, const char *prefix1, const char *prefix2,
                int pstyle);

/* Cuts a line into pieces of at most width columns (anywhere, keeping
 * styles): the first piece after prefix1, the others after prefix2. */
void st_line_wrap_hard(const st_line *l, int width, const char *prefix1, const char *prefix2, int pstyle,
                       st_doc *out);

/* Adds l to out cut at width, the continuation lines indented like l plus
 * two columns; every piece keeps l's tag. */
void st_doc_add_cut(st_doc *out, const st_line *l, int width);

/* A line of code (len bytes) after gutter, and under it caret_gutter and a
 * "^" under byte at of the code, both lines tagged tag: a line wider than
 * width shows the part around the caret, cut between characters, with "…"
 * where it was cut. */
void st_doc_add_code_caret(st_doc *out, const char *gutter, const char *caret_gutter, const char *code, size_t len,
                           size_t at, int width, int tag);

/* Adds a one-style table row that may end in free text: when it is wider
 * than width, the text after its last gap of two spaces wraps at word
 * breaks under that column (a hanging indent); rows without such a gap, or
 * with the gap too far right, are cut as st_doc_add_cut does. Every line
 * gets tag. */
void st_doc_add_row(st_doc *out, const char *text, int style, int width, int tag);

/* Appends text padded with spaces to cols display columns (right-aligned
 * when right is set); wide characters count two. */
void st_line_pad(st_line *l, int style, const char *text, int cols, int right);

/* Formats a duration in milliseconds for people: "86.1 ms", "12.3 us", "1.20 s". */
void st_fmt_ms(char *buf, size_t len, double ms);

#endif
