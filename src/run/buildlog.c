/* buildlog — a runtime's build log rewritten to name the learner's file. */
#define _GNU_SOURCE
#include "run/buildlog.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is the token ending at `end` (exclusive) a file name the runtime made up? */
static int runtime_file_name(const char *start, size_t len) {
    static const char *const fixed[] = {"<kernel>", "<source>", "<stdin>", "input.cl", "program.cl"};
    for (size_t i = 0; i < CLT_ARRAY_LEN(fixed); i++)
        if (len == strlen(fixed[i]) && !strncmp(start, fixed[i], len)) return 1;
    return len > 3 && !strncmp(start + len - 3, ".cl", 3);
}

/* The severity a line starts with ("error" for "error: ..."), or NULL. */
static const char *severity_prefix(const char *p, size_t len) {
    static const char *const sev[] = {"fatal error", "error", "warning", "note", "remark"};
    for (size_t i = 0; i < CLT_ARRAY_LEN(sev); i++) {
        size_t n = strlen(sev[i]);
        if (len > n + 2 && !strncmp(p, sev[i], n) && p[n] == ':' && p[n + 1] == ' ') return sev[i];
    }
    return NULL;
}

/* A string that grows at its end in amortised constant time per byte. */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} log_buf;

static void log_put(log_buf *b, const char *p, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) { b->oom = 1; return; }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void log_puts(log_buf *b, const char *p) { log_put(b, p, strlen(p)); }

/* Writes display_path for a runtime's file name that starts q and ends at colon,
 * then ":LINE:COL"; returns how much of q it read, 0 when q does not start so. */
static size_t rewrite_location(log_buf *b, const char *q, size_t qlen, const char *display, int *ln, int *cn) {
    const char *colon = memchr(q, ':', qlen);
    if (!colon || !runtime_file_name(q, (size_t)(colon - q))) return 0;
    char num[64];
    size_t n = (size_t)(q + qlen - colon) < sizeof num - 1 ? (size_t)(q + qlen - colon) : sizeof num - 1;
    memcpy(num, colon, n);
    num[n] = '\0';
    int consumed = 0;
    if (sscanf(num, ":%d:%d%n", ln, cn, &consumed) != 2) return 0;
    char loc[48];
    snprintf(loc, sizeof loc, ":%d:%d", *ln, *cn);
    log_puts(b, display);
    log_puts(b, loc);
    return (size_t)(colon - q) + (size_t)consumed;
}

#define ENGINE_LOG_MAX (1024 * 1024)

char *buildlog_rewrite(const char *log, const char *display, int *line, int *col) {
    log_buf out = {0};
    if (line) *line = 0;
    if (col) *col = 0;
    log_puts(&out, "");
    /* the worker keeps a log's first 64 KiB; a longer one is cut here too, in one pass */
    size_t total = strlen(log), n = total < ENGINE_LOG_MAX ? total : ENGINE_LOG_MAX;
    const char *p = log, *stop = log + n;
    while (p < stop && !out.oom) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        size_t len = eol ? (size_t)(eol - p) : (size_t)(stop - p);
        const char *next = eol ? eol + 1 : p + len;
        /* skip the runtime's own chatter */
        if ((len > 7 && !strncmp(p, "Device ", 7) && memmem(p, len, "failed to build", 15)) ||
            (len > 15 && memmem(p, len, "errors generated", 16)) ||
            (len > 14 && memmem(p, len, "error generated", 15) && len < 24)) {
            p = next;
            continue;
        }
        /* find "NAME:LINE:COL" (and PoCL's "<Spelling=NAME:LINE:COL>") */
        const char *q = p;
        size_t qlen = len;
        /* PoCL puts the severity first: "warning: /tmp/.../tempfile_X.cl:4:29: text" */
        const char *sev = severity_prefix(q, len);
        size_t slen = sev ? strlen(sev) + 2 : 0;
        if (sev && !memmem(q + slen, len - slen, ".cl:", 4)) sev = NULL;
        if (sev) { q += slen; qlen -= slen; }
        int err_prefix = sev && !strcmp(sev, "error");
        int ln = 0, cn = 0;
        size_t used = rewrite_location(&out, q, qlen, display, &ln, &cn);
        if (used) {
            const char *rest = q + used;
            size_t rlen = qlen - used;
            if (rlen > 11 && !strncmp(rest, " <Spelling=", 11)) {
                const char *gt = memchr(rest, '>', rlen);
                int sl, sc;
                size_t mark = out.len;
                log_puts(&out, " <Spelling=");
                size_t u = gt ? rewrite_location(&out, rest + 11, (size_t)(gt - rest) - 11, display, &sl, &sc) : 0;
                if (u && rest + 11 + u == gt) {
                    log_puts(&out, ">");
                    rlen -= (size_t)(gt - rest) + 1;
                    rest = gt + 1;
                } else if (!out.oom) {
                    out.len = mark; /* the runtime's own header (a builtin spelled there): not the learner's */
                    out.s[mark] = '\0';
                    if (gt) {
                        rlen -= (size_t)(gt - rest) + 1;
                        rest = gt + 1;
                    }
                }
            }
            if (sev) {
                log_puts(&out, ": ");
                log_puts(&out, sev);
            }
            log_put(&out, rest, rlen);
            log_puts(&out, "\n");
            if (line && !*line && (err_prefix || memmem(rest, rlen, "error", 5))) {
                *line = ln;
                if (col) *col = cn;
            }
        } else {
            log_put(&out, p, len);
            log_puts(&out, "\n");
        }
        p = next;
    }
    if (total > n && !out.oom) {
        char more[96];
        snprintf(more, sizeof more, "[%zu more bytes of the log not shown]\n", total - n);
        log_puts(&out, more);
    }
    if (out.oom) {
        free(out.s);
        return util_strdup("");
    }
    util_rstrip(out.s);
    return out.s;
}
