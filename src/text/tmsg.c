/* tmsg — a message kept as its English format and arguments, rendered in
 * the language of the moment it is shown. */
#include "text/tmsg.h"
#include "text/i18n.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TOKEN_MARK '\x02'

void tmsg_clear(tmsg *m) {
    m->n_parts = 0;
    m->root = -1;
    m->used = 0;
    m->overflow = 0;
}

int tmsg_empty(const tmsg *m) { return m->n_parts == 0 || m->root < 0 || m->root >= m->n_parts; }

/* Keeps n bytes of s (and a NUL) in the pool; its offset, or -1. */
static int pool_put(tmsg *m, const char *s, size_t n) {
    if ((size_t)m->used + n + 1 > sizeof m->pool) {
        m->overflow = 1;
        return -1;
    }
    int at = m->used;
    memcpy(m->pool + at, s, n);
    m->pool[at + (int)n] = '\0';
    m->used += (int)n + 1;
    return at;
}

/* A token for part p: TOKEN_MARK and the part's number, kept in the pool. */
static const char *token_of(tmsg *m, int p) {
    if (p < 0) return "";
    char t[4] = {TOKEN_MARK, (char)('0' + p), '\0', '\0'};
    int at = pool_put(m, t, 2);
    return at < 0 ? "" : m->pool + at;
}

/* The part a string passed for %s stands for, or -1 when it is text. */
static int token_part(const tmsg *m, const char *s) {
    if (!s || s < m->pool || s >= m->pool + sizeof m->pool || s[0] != TOKEN_MARK) return -1;
    int p = s[1] - '0';
    return p >= 0 && p < m->n_parts ? p : -1;
}

/* The conversions of an English format, in order: the type each takes. */
static const char *next_conversion(const char *f, char *type, int *len_mod) {
    for (; *f; f++) {
        if (*f != '%') continue;
        f++;
        if (*f == '%') continue;
        while (*f && strchr("-+ #0123456789.", *f)) f++;
        int l = 0;
        while (*f && strchr("hlLqjzt", *f)) {
            if (*f == 'l') l++;
            else if (*f == 'z' || *f == 'j' || *f == 't') l = 3; /* size_t and friends: 64 bits here */
            f++;
        }
        *len_mod = l;
        if (!*f) return NULL;
        *type = strchr("di", *f) ? 'i' : strchr("uxXo", *f) ? 'u' : strchr("fFeEgGaA", *f) ? 'f'
              : *f == 's' ? 's' : *f == 'c' ? 'c' : '?';
        return f + 1;
    }
    return NULL;
}

/* A new part for fmt (and plural), its arguments taken from ap; its number, or -1. */
static int capture(tmsg *m, const char *fmt, const char *plural, unsigned long long n, int literal, va_list *ap) {
    if (m->n_parts >= TMSG_PARTS) {
        m->overflow = 1;
        return -1;
    }
    tmsg_part *p = &m->parts[m->n_parts];
    memset(p, 0, sizeof *p);
    p->plural = -1;
    p->n = n;
    p->literal = literal;
    char type;
    int len_mod;
    for (const char *f = literal || !ap ? NULL : next_conversion(fmt, &type, &len_mod); f;
         f = next_conversion(f, &type, &len_mod)) {
        tmsg_arg a = {.type = type};
        if (type == 'i') a.i = len_mod >= 2 ? va_arg(*ap, long long) : len_mod == 1 ? va_arg(*ap, long) : va_arg(*ap, int);
        else if (type == 'u')
            a.u = len_mod >= 2 ? va_arg(*ap, unsigned long long) : len_mod == 1 ? va_arg(*ap, unsigned long)
                                                                 : va_arg(*ap, unsigned);
        else if (type == 'f') a.f = va_arg(*ap, double);
        else if (type == 'c') a.type = 'i', a.i = va_arg(*ap, int);
        else if (type == 's') {
            const char *s = va_arg(*ap, const char *);
            int part = token_part(m, s);
            if (part >= 0) a.type = 'm', a.at = part;
            else a.at = pool_put(m, s ? s : "(null)", strlen(s ? s : "(null)"));
        } else return -1; /* not a format this keeps */
        if (p->n_args >= TMSG_ARGS) {
            m->overflow = 1;
            return -1;
        }
        p->args[p->n_args++] = a;
    }
    p->fmt = pool_put(m, fmt, strlen(fmt));
    if (plural) p->plural = pool_put(m, plural, strlen(plural));
    if (p->fmt < 0 || (plural && p->plural < 0)) return -1;
    return m->n_parts++;
}

const char *tmsg_part_of(tmsg *m, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int p = capture(m, fmt, NULL, 0, 0, &ap);
    va_end(ap);
    return token_of(m, p);
}

/* A part of fmt, its arguments given here (a format no catalogue holds). */
static int part_here(tmsg *m, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int p = capture(m, fmt, NULL, 0, 0, &ap);
    va_end(ap);
    return p;
}

const char *tmsg_join(tmsg *m, const char *a, const char *b) { return token_of(m, part_here(m, "%s%s", a, b)); }

const char *tmsg_plural_of(tmsg *m, const char *singular, const char *plural, unsigned long long n, ...) {
    va_list ap;
    va_start(ap, n);
    int p = capture(m, singular, plural, n, 0, &ap);
    va_end(ap);
    return token_of(m, p);
}

/* A message id alone: no arguments to take. */
static int id_part(tmsg *m, const char *msgid) { return capture(m, msgid, NULL, 0, 1, NULL); }

const char *tmsg_id(tmsg *m, const char *msgid) { return token_of(m, id_part(m, msgid)); }

const char *tmsg_embed(tmsg *m, const tmsg *o) {
    if (tmsg_empty(o) || m->n_parts + o->n_parts > TMSG_PARTS || m->used + o->used > (int)sizeof m->pool) {
        m->overflow = 1;
        return "";
    }
    int base = m->n_parts, off = m->used;
    memcpy(m->pool + off, o->pool, (size_t)o->used);
    m->used += o->used;
    for (int i = 0; i < o->n_parts; i++) {
        tmsg_part p = o->parts[i];
        p.fmt += off;
        if (p.plural >= 0) p.plural += off;
        for (int a = 0; a < p.n_args; a++) {
            if (p.args[a].type == 's') p.args[a].at += off;
            if (p.args[a].type == 'm') p.args[a].at += base;
        }
        m->parts[m->n_parts++] = p;
    }
    m->overflow |= o->overflow;
    return token_of(m, base + o->root);
}

void tmsg_vset(tmsg *m, const char *fmt, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    int p = capture(m, fmt, NULL, 0, 0, &copy);
    va_end(copy);
    /* "%s" of a piece is that piece */
    if (p >= 0 && !strcmp(fmt, "%s") && m->parts[p].args[0].type == 'm') p = m->parts[p].args[0].at;
    m->root = p;
}

void tmsg_set(tmsg *m, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tmsg_vset(m, fmt, ap);
    va_end(ap);
}

void tmsg_setn(tmsg *m, const char *singular, const char *plural, unsigned long long n, ...) {
    va_list ap;
    va_start(ap, n);
    m->root = capture(m, singular, plural, n, 0, &ap);
    va_end(ap);
}

void tmsg_use(tmsg *m, const char *token) { m->root = token_part(m, token); }

/* ---- rendering ---- */

typedef struct {
    char *s;
    size_t len, at;
} out_buf;

static void put(out_buf *o, const char *s, size_t n) {
    if (o->at + 1 >= o->len) return;
    size_t room = o->len - 1 - o->at;
    if (n > room) n = room;
    memcpy(o->s + o->at, s, n);
    o->at += n;
    o->s[o->at] = '\0';
}

static void render_part(const tmsg *m, int p, out_buf *o, int depth);

/* One argument by its conversion (spec: "%" flags width precision, conv its letter). */
static void render_arg(const tmsg *m, const tmsg_arg *a, const char *spec, size_t slen, char conv, out_buf *o,
                       int depth) {
    char f[48], text[1024];
    if (slen > 32) slen = 32;
    int n = 0;
    if (a->type == 'm' && slen == 1) { /* a bare %s of a piece: written in place, of any length */
        render_part(m, a->at, o, depth + 1);
        return;
    }
    if (a->type == 's' || a->type == 'm') {
        const char *s = "";
        if (a->type == 's') s = m->pool + a->at;
        else {
            out_buf sub = {text, sizeof text, 0};
            text[0] = '\0';
            render_part(m, a->at, &sub, depth + 1);
            s = text;
        }
        if (slen == 1) { /* a bare %s, of any length */
            put(o, s, strlen(s));
            return;
        }
        snprintf(f, sizeof f, "%.*ss", (int)slen, spec);
        char tmp[1024];
        n = snprintf(tmp, sizeof tmp, f, s);
        if (n > 0) put(o, tmp, strlen(tmp));
        return;
    }
    char tmp[128];
    if (a->type == 'i') {
        snprintf(f, sizeof f, "%.*sll%c", (int)slen, spec, conv == 'c' ? 'd' : conv);
        n = conv == 'c' ? snprintf(tmp, sizeof tmp, "%c", (int)a->i) : snprintf(tmp, sizeof tmp, f, a->i);
    } else if (a->type == 'u') {
        snprintf(f, sizeof f, "%.*sll%c", (int)slen, spec, conv);
        n = snprintf(tmp, sizeof tmp, f, a->u);
    } else {
        snprintf(f, sizeof f, "%.*s%c", (int)slen, spec, conv);
        n = snprintf(tmp, sizeof tmp, f, a->f);
    }
    if (n > 0) put(o, tmp, strlen(tmp));
}

static void render_part(const tmsg *m, int p, out_buf *o, int depth) {
    if (p < 0 || p >= m->n_parts || depth > TMSG_PARTS) return;
    const tmsg_part *part = &m->parts[p];
    const char *en = m->pool + part->fmt;
    if (part->literal) {
        const char *t = _(en);
        put(o, t, strlen(t));
        return;
    }
    /* only pieces joined ("%s", "%s%s"): nothing to translate */
    int only_pieces = 1;
    for (const char *k = en; *k && only_pieces; k += 2) only_pieces = k[0] == '%' && k[1] == 's';
    const char *fmt = only_pieces ? en
                    : part->plural >= 0 ? P_(en, m->pool + part->plural, part->n) : _(en);
    int next = 0;
    for (const char *f = fmt; *f;) {
        const char *pc = strchr(f, '%');
        if (!pc) {
            put(o, f, strlen(f));
            break;
        }
        put(o, f, (size_t)(pc - f));
        if (pc[1] == '%') {
            put(o, "%", 1);
            f = pc + 2;
            continue;
        }
        /* %[N$][flags][width][.precision][length]conv */
        const char *q = pc + 1;
        int index = -1;
        const char *d = q;
        while (*d >= '0' && *d <= '9') d++;
        if (d > q && *d == '$') {
            index = 0;
            for (const char *k = q; k < d; k++) index = index * 10 + (*k - '0');
            index -= 1;
            q = d + 1;
        }
        char spec[40] = "%";
        size_t sl = 1;
        while (*q && strchr("-+ #0123456789.", *q)) {
            if (sl < sizeof spec - 1) spec[sl++] = *q;
            q++;
        }
        while (*q && strchr("hlLqjzt", *q)) q++;
        char conv = *q;
        if (!conv) break;
        f = q + 1;
        if (index < 0) index = next++;
        if (index >= 0 && index < part->n_args) render_arg(m, &part->args[index], spec, sl, conv, o, depth);
    }
}

const char *tmsg_render(const tmsg *m, char *buf, size_t len) {
    if (!len) return buf;
    buf[0] = '\0';
    out_buf o = {buf, len, 0};
    if (!tmsg_empty(m)) render_part(m, m->root, &o, 0);
    return buf;
}
