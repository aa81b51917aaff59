/* tmsg — a message kept as its English format and arguments, rendered in
 * the language of the moment it is shown, so that a switch of language
 * reaches messages made before it. */
#ifndef CLT_TMSG_H
#define CLT_TMSG_H
#include <stdarg.h>
#include <stddef.h>

#define TMSG_PARTS 10
#define TMSG_ARGS 12
#define TMSG_POOL 1536

typedef struct {
    char type;                /* 'i' signed, 'u' unsigned, 'f' floating, 's' text as it is, 'm' a part */
    int at;                   /* 's': its offset in the pool; 'm': the part */
    union {
        long long i;
        unsigned long long u;
        double f;
    };
} tmsg_arg;

typedef struct {
    int fmt, plural;          /* offsets in the pool of the English format(s); plural -1 none */
    unsigned long long n;     /* the count that picks singular or plural */
    int literal;              /* fmt is a message with no arguments (not a printf format) */
    int n_args;
    tmsg_arg args[TMSG_ARGS];
} tmsg_part;

typedef struct {
    int n_parts;
    int root;                 /* the part shown, -1 (or n_parts 0) none */
    int used;
    int overflow;             /* something did not fit: rendering gives what was kept */
    tmsg_part parts[TMSG_PARTS];
    char pool[TMSG_POOL];
} tmsg;

/* Empties m (a zeroed tmsg is empty too). */
void tmsg_clear(tmsg *m);
int tmsg_empty(const tmsg *m);

/* The pieces a message is made of, each a token to pass for a %s of a
 * later format of the same tmsg: a message with arguments (fmt English,
 * N_), its plural form, and a message id alone. Text passed for a %s that
 * is not such a token is kept as it is. */
const char *tmsg_part_of(tmsg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tmsg_plural_of(tmsg *m, const char *singular, const char *plural, unsigned long long n, ...)
    __attribute__((format(printf, 2, 5)));
const char *tmsg_id(tmsg *m, const char *msgid);
/* Two pieces (or texts) one after the other. */
const char *tmsg_join(tmsg *m, const char *a, const char *b);
/* Copies another message into m as a piece of it. */
const char *tmsg_embed(tmsg *m, const tmsg *other);

/* The message shown: a format and its arguments, or a piece made before. */
void tmsg_set(tmsg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tmsg_vset(tmsg *m, const char *fmt, va_list ap);
void tmsg_setn(tmsg *m, const char *singular, const char *plural, unsigned long long n, ...)
    __attribute__((format(printf, 2, 5)));
void tmsg_use(tmsg *m, const char *token);

/* The message in the current language, in buf; returns buf. */
const char *tmsg_render(const tmsg *m, char *buf, size_t len);

#endif
