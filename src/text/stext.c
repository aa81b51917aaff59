/* stext — styled text for the terminal UI: lines of UTF-8 spans with a style,
 * display widths (wide characters take two columns) and word wrapping. */
#define _XOPEN_SOURCE 700
#include "text/stext.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void *grow(void *p, int *cap, int need, size_t elem) {
    if (need <= *cap) return p;
    int nc = *cap ? *cap * 2 : 8;
    while (nc < need) nc *= 2;
    void *np = realloc(p, (size_t)nc * elem);
    if (!np) abort();
    *cap = nc;
    return np;
}

void st_doc_init(st_doc *d) { memset(d, 0, sizeof *d); }

void st_line_free(st_line *l) {
    free(l->text);
    free(l->spans);
    memset(l, 0, sizeof *l);
}

void st_doc_clear(st_doc *d) {
    for (int i = 0; i < d->n; i++) st_line_free(&d->lines[i]);
    d->n = 0;
}

void st_doc_free(st_doc *d) {
    st_doc_clear(d);
    free(d->lines);
    memset(d, 0, sizeof *d);
}

st_line *st_doc_add(st_doc *d) {
    d->lines = grow(d->lines, &d->cap, d->n + 1, sizeof *d->lines);
    st_line *l = &d->lines[d->n++];
    memset(l, 0, sizeof *l);
    return l;
}

st_line *st_doc_addf(st_doc *d, int style, const char *fmt, ...) {
    st_line *l = st_doc_add(d);
    if (!fmt) return l;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    st_line_adds(l, style, buf);
    return l;
}

void st_doc_append(st_doc *d, const st_doc *src) {
    for (int i = 0; i < src->n; i++) {
        const st_line *s = &src->lines[i];
        st_line *l = st_doc_add(d);
        for (int k = 0; k < s->n_spans; k++) st_line_add(l, s->spans[k].style, s->text + s->spans[k].off, (size_t)s->spans[k].len);
        l->tag = s->tag;
    }
}

void st_line_add(st_line *l, int style, const char *text, size_t len) {
    if (!l->text) {
        l->text = grow(l->text, &l->cap, 16, 1);
        l->text[0] = '\0';
    }
    if (!text || len == 0) return;
    l->text = grow(l->text, &l->cap, l->len + (int)len + 1, 1);
    memcpy(l->text + l->len, text, len);
    if (l->n_spans > 0 && l->spans[l->n_spans - 1].style == style &&
        l->spans[l->n_spans - 1].off + l->spans[l->n_spans - 1].len == l->len) {
        l->spans[l->n_spans - 1].len += (int)len;
    } else {
        l->spans = grow(l->spans, &l->cap_spans, l->n_spans + 1, sizeof *l->spans);
        l->spans[l->n_spans++] = (st_span){l->len, (int)len, style};
    }
    l->len += (int)len;
    l->text[l->len] = '\0';
}

void st_line_adds(st_line *l, int style, const char *text) { st_line_add(l, style, text, text ? strlen(text) : 0); }

void st_line_addf(st_line *l, int style, const char *fmt, ...) {
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    st_line_adds(l, style, buf);
}

const char *st_line_text(const st_line *l) { return l->text ? l->text : ""; }

int st_line_width(const st_line *l) { return l->text ? st_width(l->text, (size_t)l->len) : 0; }

/* East Asian wide and fullwidth ranges, for code points the C library does
 * not know (a C locale). */
static int wide_fallback(unsigned cp) {
    return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
           (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
           (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
           (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
           (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

int st_cp_width(unsigned cp) {
    if (cp < 0x20 || cp == 0x7f) return 0;
    if (cp < 0x7f) return 1;
    int w = wcwidth((wchar_t)cp);
    if (w >= 0) return w;
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
    return wide_fallback(cp) ? 2 : 1;
}

int st_wide_at(const char *s, size_t len, int last) {
    if (!len) return 0;
    size_t i = 0;
    if (last)
        for (i = len - 1; i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80;) i--;
    unsigned cp;
    int cols;
    st_char(s + i, len - i, &cp, &cols);
    return cols == 2;
}

int st_char(const char *s, size_t len, unsigned *cp_out, int *cols) {
    const unsigned char *u = (const unsigned char *)s;
    unsigned cp;
    int n;
    if (len == 0) {
        if (cp_out) *cp_out = 0;
        if (cols) *cols = 0;
        return 1;
    }
    if (u[0] < 0x80) { cp = u[0]; n = 1; }
    else if ((u[0] & 0xe0) == 0xc0) { cp = u[0] & 0x1f; n = 2; }
    else if ((u[0] & 0xf0) == 0xe0) { cp = u[0] & 0x0f; n = 3; }
    else if ((u[0] & 0xf8) == 0xf0) { cp = u[0] & 0x07; n = 4; }
    else { cp = 0xfffd; n = 1; }
    if ((size_t)n > len) { cp = 0xfffd; n = 1; }
    for (int i = 1; i < n && cp != 0xfffd; i++) {
        if ((u[i] & 0xc0) != 0x80) { cp = 0xfffd; n = 1; break; }
        cp = (cp << 6) | (u[i] & 0x3f);
    }
    if (cp_out) *cp_out = cp;
    if (cols) *cols = st_cp_width(cp);
    return n;
}

int st_width(const char *s, size_t len) {
    int w = 0;
    size_t i = 0;
    while (i < len && s[i]) {
        int c;
        i += (size_t)st_char(s + i, len - i, NULL, &c);
        w += c;
    }
    return w;
}

int st_widths(const char *s) { return s ? st_width(s, strlen(s)) : 0; }

size_t st_fit(const char *s, size_t len, int max_cols, int *cols) {
    size_t i = 0;
    int w = 0;
    while (i < len && s[i]) {
        int c;
        int n = st_char(s + i, len - i, NULL, &c);
        if (w + c > max_cols) break;
        w += c;
        i += (size_t)n;
    }
    if (cols) *cols = w;
    return i;
}

size_t st_skip(const char *s, size_t len, int skip_cols, int *extra) {
    size_t i = 0;
    int w = 0;
    while (i < len && s[i] && w < skip_cols) {
        int c;
        i += (size_t)st_char(s + i, len - i, NULL, &c);
        w += c;
    }
    if (extra) *extra = w > skip_cols ? w - skip_cols : 0;
    return i;
}

void st_para_init(st_para *p) { memset(p, 0, sizeof *p); }
void st_para_free(st_para *p) { st_line_free(&p->run); }
void st_para_add(st_para *p, int style, const char *text, size_t len) { st_line_add(&p->run, style, text, len); }

int st_para_empty(const st_para *p) {
    for (int i = 0; i < p->run.len; i++)
        if (p->run.text[i] != ' ' && p->run.text[i] != '\n') return 0;
    return 1;
}

typedef struct {
    int off, n, cols, style;
    unsigned cp;
} wchar_info;

static int is_space_cp(unsigned cp) { return cp == ' ' || cp == '\n' || cp == '\t' || cp == 0x3000; }

/* Characters a line must not start with, and ones it must not end with. */
static int no_break_before(unsigned cp) {
    static const unsigned set[] = {0xff0c, 0x3002, 0x3001, 0xff1b, 0xff1a, 0xff01, 0xff1f, 0xff09, 0x300d, 0x300f,
                                   0x3011, 0x201d, 0x2019, 0xff0e, 0x300b, ',', '.', ';', ':', '!', '?', ')', ']'};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        if (set[i] == cp) return 1;
    return 0;
}

static int no_break_after(unsigned cp) {
    static const unsigned set[] = {0xff08, 0x300c, 0x300e, 0x3010, 0x201c, 0x2018, 0x300a, '(', '['};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        if (set[i] == cp) return 1;
    return 0;
}

static int span_style_at(const st_line *l, int off) {
    for (int i = 0; i < l->n_spans; i++)
        if (off >= l->spans[i].off && off < l->spans[i].off + l->spans[i].len) return l->spans[i].style;
    return ST_NORMAL;
}

static void emit_line(st_doc *out, const st_line *src, const wchar_info *ch, int from, int to, const char *prefix,
                      int pstyle) {
    st_line *l = st_doc_add(out);
    if (prefix && *prefix) st_line_adds(l, pstyle, prefix);
    /* drop trailing spaces */
    while (to > from && is_space_cp(ch[to - 1].cp)) to--;
    for (int i = from; i < to; i++) {
        const char *t = src->text + ch[i].off;
        if (ch[i].cp == '\n' || ch[i].cp == '\t' || ch[i].cp == 0xa0) st_line_add(l, ch[i].style, " ", 1);
        else st_line_add(l, ch[i].style, t, (size_t)ch[i].n);
    }
}

int st_para_wrap(const st_para *p, int width, const char *prefix1, const char *prefix2, int pstyle, st_doc *out) {
    const st_line *src = &p->run;
    int pw1 = st_widths(prefix1), pw2 = st_widths(prefix2);
    int before = out->n;
    if (src->len == 0) {
        emit_line(out, src, NULL, 0, 0, prefix1, pstyle);
        return 1;
    }
    wchar_info *ch = malloc(sizeof *ch * (size_t)(src->len + 1));
    if (!ch) abort();
    int nch = 0;
    for (int i = 0; i < src->len;) {
        unsigned cp;
        int c;
        int n = st_char(src->text + i, (size_t)(src->len - i), &cp, &c);
        if (cp == '\n' || cp == '\t') c = 1;
        ch[nch++] = (wchar_info){i, n, c, span_style_at(src, i), cp};
        i += n;
    }
    int start = 0;
    /* skip leading spaces */
    while (start < nch && is_space_cp(ch[start].cp) && ch[start].cp != 0x3000) start++;
    int first = 1;
    while (start < nch) {
        if (ch[start].cp == '\n') { /* an empty line between hard breaks */
            emit_line(out, src, ch, start, start, first ? prefix1 : prefix2, pstyle);
            first = 0;
            start++;
            continue;
        }
        int avail = width - (first ? pw1 : pw2);
        if (avail < 4) avail = 4;
        int w = 0, i = start, last_break = -1;
        while (i < nch) {
            if (i > start) {
                unsigned prev = ch[i - 1].cp, cur = ch[i].cp;
                int brk = (is_space_cp(prev) && !is_space_cp(cur)) ||
                          ((ch[i - 1].cols == 2 || ch[i].cols == 2) && !is_space_cp(cur) && !is_space_cp(prev));
                if (brk && (no_break_before(cur) || no_break_after(prev))) brk = 0;
                if (brk) last_break = i;
            }
            if (ch[i].cp == '\n' && i > start) break; /* a hard line break */
            if (!is_space_cp(ch[i].cp) && w + ch[i].cols > avail) break;
            w += ch[i].cols;
            i++;
        }
        int end;
        if (i >= nch) end = nch;
        else if (ch[i].cp == '\n') end = i;
        else if (last_break > start) end = last_break;
        else end = i > start ? i : start + 1; /* a word longer than the line: cut it */
        emit_line(out, src, ch, start, end, first ? prefix1 : prefix2, pstyle);
        first = 0;
        start = end;
        if (start < nch && ch[start].cp == '\n') {
            start++;
        } else { /* a soft break: spaces, and a hard break right after them, are used up */
            while (start < nch && is_space_cp(ch[start].cp) && ch[start].cp != '\n') start++;
            if (start < nch && ch[start].cp == '\n') start++;
        }
        while (start < nch && is_space_cp(ch[start].cp) && ch[start].cp != '\n') start++;
    }
    if (out->n == before) emit_line(out, src, ch, 0, 0, prefix1, pstyle);
    free(ch);
    return out->n - before;
}

void st_line_wrap_hard(const st_line *l, int width, const char *prefix1, const char *prefix2, int pstyle,
                       st_doc *out) {
    int first = 1;
    st_line *cur = st_doc_add(out);
    st_line_adds(cur, pstyle, prefix1);
    int avail = width - st_widths(prefix1), w = 0;
    if (avail < 4) avail = 4;
    for (int k = 0; k < l->n_spans; k++) {
        const char *t = l->text + l->spans[k].off;
        size_t n = (size_t)l->spans[k].len, i = 0;
        while (i < n) {
            int c;
            int b = st_char(t + i, n - i, NULL, &c);
            if (w + c > avail && w > 0) {
                cur = st_doc_add(out);
                st_line_adds(cur, pstyle, prefix2);
                first = 0;
                avail = width - st_widths(prefix2);
                if (avail < 4) avail = 4;
                w = 0;
            }
            st_line_add(cur, l->spans[k].style, t + i, (size_t)b);
            w += c;
            i += (size_t)b;
        }
    }
    (void)first;
}

int st_doc_wrap(st_doc *out, int width, int style, const char *text, const char *prefix1, const char *prefix2,
                int pstyle) {
    st_para p;
    st_para_init(&p);
    st_para_add(&p, style, text, strlen(text));
    int n = st_para_wrap(&p, width, prefix1, prefix2, pstyle, out);
    st_para_free(&p);
    return n;
}

void st_doc_add_cut(st_doc *out, const st_line *l, int width) {
    int start = out->n;
    if (st_line_width(l) <= width || width < 8) {
        st_line *c = st_doc_add(out);
        for (int k = 0; k < l->n_spans; k++) st_line_add(c, l->spans[k].style, l->text + l->spans[k].off, (size_t)l->spans[k].len);
    } else {
        int lead = (int)strspn(l->text ? l->text : "", " ");
        if (lead > width / 2) lead = width / 2;
        char pre[64];
        snprintf(pre, sizeof pre, "%*s", lead + 2 < 60 ? lead + 2 : 60, "");
        st_line_wrap_hard(l, width, "", pre, ST_NORMAL, out);
    }
    for (int i = start; i < out->n; i++) out->lines[i].tag = l->tag;
}

void st_doc_add_code_caret(st_doc *out, const char *gutter, const char *caret_gutter, const char *code, size_t len,
                           size_t at, int width, int tag) {
    if (at > len) at = len;
    int total = st_width(code, len), avail = width - st_widths(gutter);
    size_t from = 0, to = len;
    if (total > avail) { /* a window of the line centred on the caret, two columns left for the marks of a cut */
        int room = avail - 2 < 16 ? 16 : avail - 2, cols, over;
        int skip = st_width(code, at) - room / 2;
        if (skip > total - room) skip = total - room;
        if (skip < 0) skip = 0;
        from = st_skip(code, len, skip, &over);
        to = from + st_fit(code + from, len - from, room, &cols);
    }
    st_line *l = st_doc_add(out);
    l->tag = tag;
    st_line_adds(l, ST_DIM, gutter);
    if (from) st_line_adds(l, ST_DIM, "…");
    st_line_add(l, ST_NORMAL, code + from, to - from);
    if (to < len) st_line_adds(l, ST_DIM, "…");
    l = st_doc_add(out);
    l->tag = tag;
    st_line_adds(l, ST_DIM, caret_gutter);
    int pad = (from ? 1 : 0) + (at > from ? st_width(code + from, at - from) : 0);
    st_line_addf(l, ST_OK | ST_A_BOLD, "%*s^", pad, "");
}

void st_doc_add_row(st_doc *out, const char *text, int style, int width, int tag) {
    st_line l;
    memset(&l, 0, sizeof l);
    st_line_adds(&l, style, text);
    l.tag = tag;
    int hang = -1, last = -1; /* byte offsets where the row's free text may start; the last gap's */
    size_t lead = strspn(text, " ");
    if (st_line_width(&l) > width) {
        for (const char *g = strstr(text, "  "); g; g = strstr(g + 1, "  ")) {
            const char *t = g + strspn(g, " ");
            if (!*t) break;
            if (t <= text + lead) continue;
            last = (int)(t - text);
            if (st_width(text, (size_t)(t - text)) <= width - 16) hang = last;
        }
    }
    int last_w = last >= 0 ? st_width(text, (size_t)last) : 0;
    int start = out->n;
    if (last >= 0 && last_w > width - 30 && last_w <= width) {
        /* the free text starts too far right to read in a narrow column: on lines of its own under the row */
        char pre[64];
        snprintf(pre, sizeof pre, "%*s", lead + 4 < 60 ? (int)lead + 4 : 60, "");
        size_t head = (size_t)last;
        while (head > 0 && text[head - 1] == ' ') head--;
        st_line_add(st_doc_add(out), style, text, head);
        st_doc_wrap(out, width, style, text + last, pre, pre, style);
    } else if (hang < 0) {
        st_doc_add_cut(out, &l, width);
    } else {
        char *head = strndup(text, (size_t)hang);
        char pre[256];
        int hw = st_widths(head);
        snprintf(pre, sizeof pre, "%*s", hw < 255 ? hw : 255, "");
        st_doc_wrap(out, width, style, text + hang, head, pre, style);
        free(head);
    }
    for (int i = start; i < out->n; i++) out->lines[i].tag = tag;
    st_line_free(&l);
}

void st_line_pad(st_line *l, int style, const char *text, int cols, int right) {
    int w = st_widths(text);
    char spaces[128];
    int pad = cols - w;
    if (pad < 0) pad = 0;
    if (pad > 127) pad = 127;
    memset(spaces, ' ', (size_t)pad);
    spaces[pad] = '\0';
    if (right) st_line_adds(l, style, spaces);
    st_line_adds(l, style, text);
    if (!right) st_line_adds(l, style, spaces);
}

void st_fmt_ms(char *buf, size_t len, double ms) {
    if (ms <= 0) snprintf(buf, len, "-");
    else if (ms >= 1000) snprintf(buf, len, "%.2f s", ms / 1000);
    else if (ms >= 100) snprintf(buf, len, "%.1f ms", ms);
    else if (ms >= 1) snprintf(buf, len, "%.2f ms", ms);
    else snprintf(buf, len, "%.1f us", ms * 1000);
}
