/* srcdiff — line diff of two source texts (longest common subsequence),
 * shown as unified hunks with line numbers. */
#include "text/srcdiff.h"
#include "text/clhl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    int len;      /* without the newline */
    int cmp_len;  /* without trailing spaces */
} dline;

static char *dup_text(const char *s) {
    size_t n = s ? strlen(s) : 0;
    char *d = malloc(n + 1);
    if (d) {
        if (n) memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static dline *split(const char *s, int *n) {
    int count = 0, cap = 64;
    dline *v = malloc(sizeof *v * (size_t)cap);
    if (!v) return NULL;
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        if (count == cap) {
            cap *= 2;
            dline *nv = realloc(v, sizeof *v * (size_t)cap);
            if (!nv) { free(v); return NULL; }
            v = nv;
        }
        int cl = len;
        while (cl > 0 && (p[cl - 1] == ' ' || p[cl - 1] == '\t' || p[cl - 1] == '\r')) cl--;
        v[count++] = (dline){p, len, cl};
        if (!e) break;
        p = e + 1;
    }
    *n = count;
    return v;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Two lines are the same when they differ only in whitespace (diff -w):
 * re-indenting a kernel is not a change to it. */
static int same(const dline *x, const dline *y) {
    int i = 0, j = 0;
    for (;;) {
        while (i < x->cmp_len && is_space(x->s[i])) i++;
        while (j < y->cmp_len && is_space(y->s[j])) j++;
        if (i == x->cmp_len || j == y->cmp_len) return i == x->cmp_len && j == y->cmp_len;
        if (x->s[i++] != y->s[j++]) return 0;
    }
}

static int push(sd_diff *d, int *cap, sd_op op, int al, int bl, const dline *l) {
    if (d->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        sd_row *nr = realloc(d->rows, sizeof *nr * (size_t)*cap);
        if (!nr) return -1;
        d->rows = nr;
    }
    d->rows[d->n++] = (sd_row){op, al, bl, l->s, l->len};
    if (op == SD_ADD) d->n_add++;
    if (op == SD_DEL) d->n_del++;
    return 0;
}

int srcdiff_compute(const char *a, const char *b, sd_diff *out) {
    memset(out, 0, sizeof *out);
    out->a = dup_text(a);
    out->b = dup_text(b);
    int na = 0, nb = 0, cap = 0, rc = 0;
    dline *la = out->a ? split(out->a, &na) : NULL, *lb = out->b ? split(out->b, &nb) : NULL;
    if (!la || !lb) { free(la); free(lb); return -1; }
    int pre = 0;
    while (pre < na && pre < nb && same(&la[pre], &lb[pre])) pre++;
    int suf = 0;
    while (suf < na - pre && suf < nb - pre && same(&la[na - 1 - suf], &lb[nb - 1 - suf])) suf++;
    int m = na - pre - suf, n = nb - pre - suf;
    for (int i = 0; i < pre && rc == 0; i++) rc = push(out, &cap, SD_SAME, i + 1, i + 1, &la[i]);
    /* the middle: LCS table when it is small enough, else all out, all in */
    uint16_t *t = NULL;
    if ((long)(m + 1) * (n + 1) <= 16L * 1024 * 1024 && m < 65535 && n < 65535)
        t = calloc((size_t)(m + 1) * (size_t)(n + 1), sizeof *t);
    if (t) {
        /* T(i, j) = LCS of a[pre+i..] and b[pre+j..] */
#define T(i, j) t[(size_t)(i) * (size_t)(n + 1) + (size_t)(j)]
        for (int i = m - 1; i >= 0; i--)
            for (int j = n - 1; j >= 0; j--) {
                if (same(&la[pre + i], &lb[pre + j])) T(i, j) = (uint16_t)(T(i + 1, j + 1) + 1);
                else T(i, j) = T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j) : T(i, j + 1);
            }
        int i = 0, j = 0;
        while ((i < m || j < n) && rc == 0) {
            if (i < m && j < n && same(&la[pre + i], &lb[pre + j])) {
                rc = push(out, &cap, SD_SAME, pre + i + 1, pre + j + 1, &la[pre + i]);
                i++, j++;
            } else if (j >= n || (i < m && T(i + 1, j) >= T(i, j + 1))) {
                rc = push(out, &cap, SD_DEL, pre + i + 1, 0, &la[pre + i]);
                i++;
            } else {
                rc = push(out, &cap, SD_ADD, 0, pre + j + 1, &lb[pre + j]);
                j++;
            }
        }
#undef T
        free(t);
    } else {
        for (int i = 0; i < m && rc == 0; i++) rc = push(out, &cap, SD_DEL, pre + i + 1, 0, &la[pre + i]);
        for (int j = 0; j < n && rc == 0; j++) rc = push(out, &cap, SD_ADD, 0, pre + j + 1, &lb[pre + j]);
    }
    for (int k = 0; k < suf && rc == 0; k++)
        rc = push(out, &cap, SD_SAME, na - suf + k + 1, nb - suf + k + 1, &la[na - suf + k]);
    free(la);
    free(lb);
    return rc;
}

void srcdiff_free(sd_diff *d) {
    free(d->rows);
    free(d->a);
    free(d->b);
    memset(d, 0, sizeof *d);
}

void srcdiff_render(const sd_diff *d, int context, const char *name_a, const char *name_b, int tag_side,
                    st_doc *out) {
    st_line *h = st_doc_add(out);
    st_line_addf(h, ST_DEL | ST_A_BOLD, "--- %s", name_a ? name_a : "a");
    h = st_doc_add(out);
    st_line_addf(h, ST_ADD | ST_A_BOLD, "+++ %s", name_b ? name_b : "b");
    if (d->n_add == 0 && d->n_del == 0) {
        st_doc_addf(out, ST_DIM, "(no differences)");
        return;
    }
    /* show a row when a change lies within `context` rows of it */
    char *show = calloc((size_t)d->n + 1, 1);
    if (!show) return;
    for (int i = 0; i < d->n; i++)
        if (d->rows[i].op != SD_SAME)
            for (int k = i - context; k <= i + context; k++)
                if (k >= 0 && k < d->n) show[k] = 1;
    int state_a = 0;
    for (int i = 0; i < d->n;) {
        if (!show[i]) { i++; continue; }
        int j = i;
        while (j < d->n && show[j]) j++;
        /* hunk header: -start,count +start,count */
        int a0 = 0, b0 = 0, ac = 0, bc = 0;
        for (int k = i; k < j; k++) {
            if (d->rows[k].a_line) { if (!a0) a0 = d->rows[k].a_line; ac++; }
            if (d->rows[k].b_line) { if (!b0) b0 = d->rows[k].b_line; bc++; }
        }
        st_doc_addf(out, ST_HUNK, "@@ -%d,%d +%d,%d @@", a0, ac, b0, bc);
        state_a = 0;
        int last_line = 0;
        for (int k = 0; k < i; k++) {
            int ln = tag_side ? d->rows[k].b_line : d->rows[k].a_line;
            if (ln) last_line = ln;
        }
        for (int k = i; k < j; k++) {
            const sd_row *r = &d->rows[k];
            st_line *l = st_doc_add(out);
            int ln = tag_side ? r->b_line : r->a_line;
            if (ln) last_line = ln;
            l->tag = ln ? ln : (last_line ? last_line : 1);
            char num[32];
            if (r->a_line) snprintf(num, sizeof num, "%4d ", r->a_line);
            else snprintf(num, sizeof num, "     ");
            st_line_adds(l, ST_LINENO, num);
            if (r->b_line) snprintf(num, sizeof num, "%4d ", r->b_line);
            else snprintf(num, sizeof num, "     ");
            st_line_adds(l, ST_LINENO, num);
            if (r->op == SD_SAME) {
                st_line_adds(l, ST_DIM, "  ");
                clhl_line(l, r->text, (size_t)r->len, &state_a, 4);
            } else {
                int role = r->op == SD_ADD ? ST_ADD : ST_DEL;
                st_line_adds(l, role | ST_A_BOLD, r->op == SD_ADD ? "+ " : "- ");
                st_line tmp;
                memset(&tmp, 0, sizeof tmp);
                int st = 0;
                clhl_line(&tmp, r->text, (size_t)r->len, &st, 4);
                st_line_add(l, role, tmp.text ? tmp.text : "", (size_t)tmp.len);
                st_line_free(&tmp);
            }
        }
        i = j;
    }
    free(show);
}
