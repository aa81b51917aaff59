/* mdrender — Markdown (CommonMark with GitHub tables) to styled, wrapped
 * lines for the terminal, with OpenCL C highlighting in code blocks. */
#include "text/mdrender.h"
#include "text/clhl.h"

#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_COLS 16

typedef enum { C_QUOTE, C_LIST, C_ITEM } ctype;

typedef struct {
    ctype type;
    int ordered, next_number, tight;   /* C_LIST */
    char bullet[16];                   /* C_ITEM: "• " or "3. " */
    int bullet_used;                   /* C_ITEM: the bullet has been printed */
} container;

typedef struct {
    st_para cells[MAX_COLS];
    int n;
    int header;
} trow;

typedef struct {
    int width;
    st_doc *out;
    container stack[MAX_DEPTH];
    int depth;
    st_para para;
    int para_style;          /* base style of the block being collected */
    int span_flags[MAX_DEPTH];
    int n_spans;
    int heading;             /* level of the heading being collected, 0 none */
    int need_blank;
    /* code blocks */
    int in_code;
    char *code;
    size_t code_len, code_cap;
    char lang[32];
    /* inline code, gathered for a note after it */
    mdr_code_note note;
    void *note_user;
    char code_span[256];
    size_t code_span_len;
    /* tables */
    int in_table;
    trow *rows;
    int n_rows, cap_rows;
    int aligns[MAX_COLS];
    int in_cell;
    /* a line break inside a paragraph after a wide (CJK) character: a space
     * unless the next character is wide too (Chinese joins lines without one) */
    st_para *soft_para;
    int soft_style;
} mdr;

/* Settles a pending line break before text is added. */
static void settle_soft_break(mdr *r, const char *next, size_t len) {
    if (!r->soft_para) return;
    if (!st_wide_at(next, len, 0)) st_para_add(r->soft_para, r->soft_style, " ", 1);
    r->soft_para = NULL;
}

static int cur_style(const mdr *r) {
    int s = r->para_style;
    for (int i = 0; i < r->n_spans; i++) {
        int f = r->span_flags[i];
        if (ST_ROLE(f)) s = (s & ~ST_ROLE_MASK) | ST_ROLE(f);
        s |= f & ~ST_ROLE_MASK;
    }
    return s;
}

/* The prefix for the next line: quote bars and list indentation. */
static void make_prefix(mdr *r, char *first, char *rest, size_t len, int consume) {
    first[0] = rest[0] = '\0';
    for (int i = 0; i < r->depth; i++) {
        container *c = &r->stack[i];
        if (c->type == C_QUOTE) {
            strncat(first, "│ ", len - strlen(first) - 1);
            strncat(rest, "│ ", len - strlen(rest) - 1);
        } else if (c->type == C_ITEM) {
            int w = st_widths(c->bullet);
            char pad[24];
            snprintf(pad, sizeof pad, "%*s", w, "");
            strncat(first, c->bullet_used ? pad : c->bullet, len - strlen(first) - 1);
            strncat(rest, pad, len - strlen(rest) - 1);
            if (consume) c->bullet_used = 1;
        }
    }
}

static void blank_line(mdr *r) {
    if (!r->need_blank || r->out->n == 0) {
        r->need_blank = 0;
        return;
    }
    const st_line *last = &r->out->lines[r->out->n - 1];
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 0);
    if (last->len > 0 && strspn(last->text, " ") != (size_t)last->len) {
        /* a quote keeps its bar on blank lines */
        st_line *l = st_doc_add(r->out);
        if (strstr(rest, "│") && !strncmp(last->text, "│", strlen("│"))) st_line_adds(l, ST_QUOTE, rest);
    }
    r->need_blank = 0;
}

static void flush_para(mdr *r) {
    if (st_para_empty(&r->para)) {
        st_para_free(&r->para);
        st_para_init(&r->para);
        return;
    }
    blank_line(r);
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 1);
    int start = r->out->n;
    st_para_wrap(&r->para, r->width, first, rest, ST_QUOTE, r->out);
    if (r->heading) {
        for (int i = start; i < r->out->n; i++) r->out->lines[i].tag = MDR_HEADING_TAG + r->heading;
        if (r->heading == 1) {
            int w = 0;
            for (int i = start; i < r->out->n; i++)
                if (st_line_width(&r->out->lines[i]) > w) w = st_line_width(&r->out->lines[i]);
            st_line *u = st_doc_add(r->out);
            st_line_adds(u, ST_QUOTE, rest);
            for (int i = st_widths(rest); i < w && i < r->width; i++) st_line_adds(u, ST_H1, "━");
        }
    }
    st_para_free(&r->para);
    st_para_init(&r->para);
}

static void flush_code(mdr *r) {
    blank_line(r);
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 1);
    char pre[300];
    snprintf(pre, sizeof pre, "%s  ", rest);
    char pre_first[300];
    snprintf(pre_first, sizeof pre_first, "%s  ", first);
    int highlight = !r->lang[0] || !strcmp(r->lang, "c") || !strcmp(r->lang, "opencl") || !strcmp(r->lang, "cl") ||
                    !strcmp(r->lang, "C") || !strcmp(r->lang, "cpp") || !strcmp(r->lang, "c++");
    int state = 0;
    size_t i = 0;
    int line_no = 0;
    /* drop one trailing newline */
    size_t end = r->code_len;
    if (end > 0 && r->code[end - 1] == '\n') end--;
    while (i <= end) {
        size_t j = i;
        while (j < end && r->code[j] != '\n') j++;
        st_line l;
        memset(&l, 0, sizeof l);
        if (highlight) clhl_line(&l, r->code + i, j - i, &state, 4);
        else st_line_add(&l, ST_CODE, r->code + i, j - i);
        char cont[320];
        snprintf(cont, sizeof cont, "%s↪ ", pre);
        st_line_wrap_hard(&l, r->width, line_no == 0 ? pre_first : pre, cont, ST_DIM, r->out);
        st_line_free(&l);
        line_no++;
        i = j + 1;
        if (j >= end) break;
    }
    r->code_len = 0;
}

static void table_reset(mdr *r) {
    for (int i = 0; i < r->n_rows; i++)
        for (int k = 0; k < r->rows[i].n; k++) st_para_free(&r->rows[i].cells[k]);
    free(r->rows);
    r->rows = NULL;
    r->n_rows = r->cap_rows = 0;
}

/* The widest run of a cell that must not be broken: a word or number of
 * ASCII (text in Chinese may break between any two characters). */
static int longest_word(const st_line *l) {
    const char *t = st_line_text(l);
    int best = 0;
    for (const char *p = t; *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ' && !((unsigned char)*e & 0x80)) e++;
        if (e > p) {
            int w = st_width(p, (size_t)(e - p));
            if (w > best) best = w;
        }
        if (e == p && *p) e = p + 1; /* a non-ASCII byte: no word to keep whole */
        p = e;
    }
    return best;
}

/* A table too narrow for its words, one record a block: "Heading: value". */
static void flush_table_stacked(mdr *r, int ncol) {
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 1);
    const trow *head = r->n_rows > 0 && r->rows[0].header ? &r->rows[0] : NULL;
    for (int i = head ? 1 : 0; i < r->n_rows; i++) {
        const trow *row = &r->rows[i];
        if (i > (head ? 1 : 0)) {
            st_line *sep = st_doc_add(r->out);
            st_line_adds(sep, ST_QUOTE, rest);
            for (int x = st_widths(rest); x < r->width && x < st_widths(rest) + 12; x++) st_line_adds(sep, ST_DIM, "─");
        }
        for (int k = 0; k < ncol && k < row->n; k++) {
            st_para p;
            st_para_init(&p);
            if (head && k < head->n) {
                st_para_add(&p, ST_NORMAL | ST_A_BOLD, st_line_text(&head->cells[k].run),
                            strlen(st_line_text(&head->cells[k].run)));
                st_para_add(&p, ST_NORMAL | ST_A_BOLD, ": ", 2);
            }
            const st_line *c = &row->cells[k].run;
            for (int s = 0; s < c->n_spans; s++)
                st_para_add(&p, c->spans[s].style, c->text + c->spans[s].off, (size_t)c->spans[s].len);
            char indent[300];
            snprintf(indent, sizeof indent, "%s  ", rest);
            st_para_wrap(&p, r->width, rest, indent, ST_QUOTE, r->out);
            st_para_free(&p);
        }
    }
}

static void flush_table(mdr *r) {
    blank_line(r);
    int ncol = 0;
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].n > ncol) ncol = r->rows[i].n;
    if (ncol == 0) return;
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 1);
    int avail = r->width - st_widths(rest) - 3 * (ncol - 1);
    int w[MAX_COLS] = {0};
    for (int i = 0; i < r->n_rows; i++)
        for (int k = 0; k < r->rows[i].n; k++) {
            int cw = st_line_width(&r->rows[i].cells[k].run);
            if (cw > w[k]) w[k] = cw;
        }
    /* shrink the widest column until the table fits; where that would
     * break a word or a number, the table is stacked instead */
    int need[MAX_COLS] = {0};
    for (int i = 0; i < r->n_rows; i++)
        for (int k = 0; k < r->rows[i].n; k++) {
            int lw = longest_word(&r->rows[i].cells[k].run);
            if (lw > need[k]) need[k] = lw;
        }
    for (;;) {
        int total = 0, widest = 0;
        for (int k = 0; k < ncol; k++) {
            total += w[k];
            if (w[k] > w[widest]) widest = k;
        }
        if (total <= avail || w[widest] <= 4) break;
        w[widest]--;
    }
    for (int k = 0; k < ncol; k++)
        if (w[k] < need[k]) {
            flush_table_stacked(r, ncol);
            return;
        }
    for (int i = 0; i < r->n_rows; i++) {
        trow *row = &r->rows[i];
        st_doc cell[MAX_COLS];
        int h = 1;
        for (int k = 0; k < ncol; k++) {
            st_doc_init(&cell[k]);
            if (k < row->n) st_para_wrap(&row->cells[k], w[k] > 0 ? w[k] : 1, "", "", ST_NORMAL, &cell[k]);
            if (cell[k].n > h) h = cell[k].n;
        }
        for (int y = 0; y < h; y++) {
            st_line *l = st_doc_add(r->out);
            st_line_adds(l, ST_QUOTE, y == 0 && i == 0 ? first : rest);
            for (int k = 0; k < ncol; k++) {
                if (k > 0) st_line_adds(l, ST_DIM, " │ ");
                int cw = 0;
                if (y < cell[k].n) {
                    const st_line *c = &cell[k].lines[y];
                    cw = st_line_width(c);
                    int pad = w[k] - cw, left = r->aligns[k] == 2 ? pad : r->aligns[k] == 1 ? pad / 2 : 0;
                    for (int p = 0; p < left; p++) st_line_adds(l, ST_NORMAL, " ");
                    for (int s = 0; s < c->n_spans; s++)
                        st_line_add(l, c->spans[s].style | (row->header ? ST_A_BOLD : 0), c->text + c->spans[s].off,
                                    (size_t)c->spans[s].len);
                    cw += left;
                }
                if (k < ncol - 1)
                    for (int p = cw; p < w[k]; p++) st_line_adds(l, ST_NORMAL, " ");
            }
        }
        for (int k = 0; k < ncol; k++) st_doc_free(&cell[k]);
        if (row->header) {
            st_line *l = st_doc_add(r->out);
            st_line_adds(l, ST_QUOTE, rest);
            for (int k = 0; k < ncol; k++) {
                if (k > 0) st_line_adds(l, ST_DIM, "─┼─");
                for (int p = 0; p < w[k]; p++) st_line_adds(l, ST_DIM, "─");
            }
        }
    }
}

static void enter_list(mdr *r, MD_BLOCKTYPE type, void *detail) {
    if (r->depth >= MAX_DEPTH) return;
    container c = {.type = C_LIST, .ordered = type == MD_BLOCK_OL};
    if (type == MD_BLOCK_OL) {
        MD_BLOCK_OL_DETAIL *d = detail;
        c.next_number = (int)d->start;
        c.tight = d->is_tight;
    } else {
        c.tight = ((MD_BLOCK_UL_DETAIL *)detail)->is_tight;
    }
    int nested = 0;
    for (int i = 0; i < r->depth; i++) if (r->stack[i].type == C_LIST) nested = 1;
    if (!nested) r->need_blank = 1;
    r->stack[r->depth++] = c;
}

/* A list item: its bullet, number or task box, by how deep the list is. */
static void enter_item(mdr *r, MD_BLOCK_LI_DETAIL *d) {
    if (r->depth >= MAX_DEPTH || r->depth == 0 || r->stack[r->depth - 1].type != C_LIST) return;
    container *list = &r->stack[r->depth - 1];
    container c = {.type = C_ITEM};
    int nest = 0;
    for (int i = 0; i < r->depth; i++) if (r->stack[i].type == C_LIST) nest++;
    if (d && d->is_task) snprintf(c.bullet, sizeof c.bullet, "%s ", d->task_mark == ' ' ? "☐" : "☑");
    else if (list->ordered) snprintf(c.bullet, sizeof c.bullet, "%d. ", list->next_number++);
    else snprintf(c.bullet, sizeof c.bullet, "%s ", nest % 2 ? "•" : "◦");
    if (!list->tight) r->need_blank = 1;
    r->stack[r->depth++] = c;
}

/* A horizontal rule across the width, inside any quote. */
static void rule(mdr *r) {
    blank_line(r);
    st_line *l = st_doc_add(r->out);
    char first[256], rest[256];
    make_prefix(r, first, rest, sizeof first, 0);
    st_line_adds(l, ST_QUOTE, rest);
    for (int i = st_widths(rest); i < r->width; i++) st_line_adds(l, ST_DIM, "─");
    r->need_blank = 1;
}

static void enter_cell(mdr *r, MD_BLOCKTYPE type, MD_BLOCK_TD_DETAIL *d) {
    trow *row = &r->rows[r->n_rows - 1];
    if (row->n < MAX_COLS) {
        r->aligns[row->n] = d->align == MD_ALIGN_RIGHT ? 2 : d->align == MD_ALIGN_CENTER ? 1 : 0;
        st_para_init(&row->cells[row->n++]);
    }
    row->header = type == MD_BLOCK_TH;
    r->in_cell = 1;
    r->para_style = ST_NORMAL;
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *user) {
    mdr *r = user;
    r->soft_para = NULL; /* a line break at the end of a block is no space */
    if (!r->in_cell) flush_para(r);
    switch (type) {
    case MD_BLOCK_QUOTE:
        if (r->depth < MAX_DEPTH) r->stack[r->depth++] = (container){.type = C_QUOTE};
        r->need_blank = 1;
        break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL: enter_list(r, type, detail); break;
    case MD_BLOCK_LI: enter_item(r, detail); break;
    case MD_BLOCK_HR: rule(r); break;
    case MD_BLOCK_H: {
        int level = (int)((MD_BLOCK_H_DETAIL *)detail)->level;
        r->heading = level;
        r->need_blank = 1;
        r->para_style = (level == 1 ? ST_H1 : level == 2 ? ST_H2 : ST_H3) | ST_A_BOLD;
        break;
    }
    case MD_BLOCK_CODE: {
        MD_BLOCK_CODE_DETAIL *d = detail;
        r->in_code = 1;
        r->code_len = 0;
        r->lang[0] = '\0';
        if (d->lang.text && d->lang.size) snprintf(r->lang, sizeof r->lang, "%.*s", (int)d->lang.size, d->lang.text);
        r->need_blank = 1;
        break;
    }
    case MD_BLOCK_P:
        r->need_blank = 1;
        r->para_style = ST_NORMAL;
        break;
    case MD_BLOCK_TABLE:
        r->in_table = 1;
        r->need_blank = 1;
        memset(r->aligns, 0, sizeof r->aligns);
        break;
    case MD_BLOCK_TR:
        if (r->n_rows >= r->cap_rows) {
            r->cap_rows = r->cap_rows ? r->cap_rows * 2 : 8;
            r->rows = realloc(r->rows, sizeof *r->rows * (size_t)r->cap_rows);
            if (!r->rows) abort();
        }
        memset(&r->rows[r->n_rows], 0, sizeof r->rows[0]);
        r->n_rows++;
        break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: enter_cell(r, type, detail); break;
    default:
        break;
    }
    return 0;
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *user) {
    (void)detail;
    mdr *r = user;
    r->soft_para = NULL;
    switch (type) {
    case MD_BLOCK_QUOTE:
        flush_para(r);
        if (r->depth > 0) r->depth--;
        r->need_blank = 1;
        break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL: {
        flush_para(r);
        if (r->depth > 0) r->depth--;
        int nested = 0;
        for (int i = 0; i < r->depth; i++) if (r->stack[i].type == C_LIST) nested = 1;
        if (!nested) r->need_blank = 1;
        break;
    }
    case MD_BLOCK_LI:
        flush_para(r);
        if (r->depth > 0) r->depth--;
        break;
    case MD_BLOCK_H:
        flush_para(r);
        r->heading = 0;
        r->para_style = ST_NORMAL;
        r->need_blank = 1;
        break;
    case MD_BLOCK_CODE:
        r->in_code = 0;
        flush_code(r);
        r->need_blank = 1;
        break;
    case MD_BLOCK_P: {
        flush_para(r);
        int in_tight = r->depth > 1 && r->stack[r->depth - 1].type == C_ITEM && r->stack[r->depth - 2].tight;
        r->need_blank = !in_tight;
        break;
    }
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
        r->in_cell = 0;
        break;
    case MD_BLOCK_TABLE:
        flush_table(r);
        table_reset(r);
        r->in_table = 0;
        r->need_blank = 1;
        break;
    default:
        break;
    }
    return 0;
}

static int enter_span(MD_SPANTYPE type, void *detail, void *user) {
    (void)detail;
    mdr *r = user;
    int f = 0;
    switch (type) {
    case MD_SPAN_EM: f = ST_A_ITALIC; break;
    case MD_SPAN_STRONG: f = ST_A_BOLD; break;
    case MD_SPAN_CODE: f = ST_CODE; break;
    case MD_SPAN_A: f = ST_LINK | ST_A_UNDERLINE; break;
    case MD_SPAN_DEL: f = ST_DIM; break;
    case MD_SPAN_U: f = ST_A_UNDERLINE; break;
    case MD_SPAN_IMG: f = ST_DIM; break;
    default: break;
    }
    if (r->n_spans < MAX_DEPTH) r->span_flags[r->n_spans++] = f;
    if (type == MD_SPAN_CODE) r->code_span_len = 0;
    if (type == MD_SPAN_IMG) {
        st_para *p = r->in_cell ? &r->rows[r->n_rows - 1].cells[r->rows[r->n_rows - 1].n - 1] : &r->para;
        st_para_add(p, cur_style(r), "[image: ", 8);
    }
    return 0;
}

static int leave_span(MD_SPANTYPE type, void *detail, void *user) {
    (void)detail;
    mdr *r = user;
    if (type == MD_SPAN_IMG) {
        st_para *p = r->in_cell ? &r->rows[r->n_rows - 1].cells[r->rows[r->n_rows - 1].n - 1] : &r->para;
        st_para_add(p, cur_style(r), "]", 1);
    }
    if (type == MD_SPAN_CODE && r->note) {
        r->code_span[r->code_span_len] = '\0';
        const char *note = r->note(r->code_span, r->note_user);
        st_para *p = r->in_cell ? &r->rows[r->n_rows - 1].cells[r->rows[r->n_rows - 1].n - 1] : &r->para;
        if (note && *note) st_para_add(p, ST_KEY | ST_A_BOLD, note, strlen(note));
    }
    if (r->n_spans > 0) r->n_spans--;
    return 0;
}

static void entity(const char *t, size_t n, char *out, size_t len) {
    static const struct { const char *name, *text; } known[] = {
        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&nbsp;", " "},
        {"&times;", "×"}, {"&mdash;", "—"}, {"&ndash;", "–"}, {"&hellip;", "…"}, {"&rarr;", "→"},
        {"&le;", "≤"}, {"&ge;", "≥"}, {"&micro;", "µ"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].name) == n && !strncmp(known[i].name, t, n)) {
            snprintf(out, len, "%s", known[i].text);
            return;
        }
    unsigned long cp = 0;
    if (n > 3 && t[1] == '#') cp = (t[2] == 'x' || t[2] == 'X') ? strtoul(t + 3, NULL, 16) : strtoul(t + 2, NULL, 10);
    if (cp == 0 || cp > 0x10ffff) {
        snprintf(out, len, "%.*s", (int)n, t);
        return;
    }
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) { o[0] = (unsigned char)cp; o[1] = 0; }
    else if (cp < 0x800) { o[0] = (unsigned char)(0xc0 | (cp >> 6)); o[1] = (unsigned char)(0x80 | (cp & 0x3f)); o[2] = 0; }
    else if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (cp >> 12)); o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f)); o[3] = 0;
    } else {
        o[0] = (unsigned char)(0xf0 | (cp >> 18)); o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
        o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (unsigned char)(0x80 | (cp & 0x3f)); o[4] = 0;
    }
}

static int text_cb(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *user) {
    mdr *r = user;
    if (r->in_code) {
        if (r->code_len + size + 1 > r->code_cap) {
            r->code_cap = (r->code_len + size + 1) * 2;
            r->code = realloc(r->code, r->code_cap);
            if (!r->code) abort();
        }
        memcpy(r->code + r->code_len, text, size);
        r->code_len += size;
        return 0;
    }
    st_para *p = &r->para;
    if (r->in_cell && r->n_rows > 0 && r->rows[r->n_rows - 1].n > 0)
        p = &r->rows[r->n_rows - 1].cells[r->rows[r->n_rows - 1].n - 1];
    int style = cur_style(r);
    if (type == MD_TEXT_SOFTBR) {
        settle_soft_break(r, " ", 1);
        if (st_wide_at(p->run.text, (size_t)p->run.len, 1)) {
            r->soft_para = p;
            r->soft_style = style;
        } else {
            st_para_add(p, style, " ", 1);
        }
        return 0;
    }
    settle_soft_break(r, text, size);
    switch (type) {
    case MD_TEXT_BR: st_para_add(p, style, "\n", 1); break;
    case MD_TEXT_ENTITY: {
        char buf[16];
        entity(text, size, buf, sizeof buf);
        st_para_add(p, style, buf, strlen(buf));
        break;
    }
    case MD_TEXT_HTML: break;
    case MD_TEXT_NULLCHAR: st_para_add(p, style, "\xef\xbf\xbd", 3); break;
    case MD_TEXT_CODE:
        /* inline code: md4c gives line ends inside it as separate runs */
        if (size == 1 && text[0] == '\n') st_para_add(p, style, " ", 1);
        else st_para_add(p, style, text, size);
        for (size_t i = 0; i < size && r->code_span_len + 1 < sizeof r->code_span; i++)
            r->code_span[r->code_span_len++] = text[i] == '\n' ? ' ' : text[i];
        break;
    case MD_TEXT_LATEXMATH: st_para_add(p, (style & ~ST_ROLE_MASK) | ST_CODE, text, size); break;
    default: st_para_add(p, style, text, size); break;
    }
    return 0;
}

int mdr_render(const char *md, size_t len, int width, st_doc *out) {
    return mdr_render_notes(md, len, width, NULL, NULL, out);
}

int mdr_render_notes(const char *md, size_t len, int width, mdr_code_note note, void *user, st_doc *out) {
    mdr r;
    memset(&r, 0, sizeof r);
    r.note = note;
    r.note_user = user;
    r.width = width < 8 ? 8 : width;
    r.out = out;
    st_para_init(&r.para);
    MD_PARSER parser;
    memset(&parser, 0, sizeof parser);
    parser.abi_version = 0;
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | MD_FLAG_NOHTML;
    parser.enter_block = enter_block;
    parser.leave_block = leave_block;
    parser.enter_span = enter_span;
    parser.leave_span = leave_span;
    parser.text = text_cb;
    int rc = md_parse(md, (MD_SIZE)len, &parser, &r);
    flush_para(&r);
    if (r.in_code) flush_code(&r);
    table_reset(&r);
    st_para_free(&r.para);
    free(r.code);
    /* no trailing blank lines */
    while (out->n > 0 && out->lines[out->n - 1].len == 0) {
        st_line_free(&out->lines[out->n - 1]);
        out->n--;
    }
    if (rc != 0) {
        st_para p;
        st_para_init(&p);
        st_para_add(&p, ST_NORMAL, md, len);
        st_para_wrap(&p, r.width, "", "", ST_NORMAL, out);
        st_para_free(&p);
        return -1;
    }
    return 0;
}
