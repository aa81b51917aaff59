/* srcpolicy — what graded OpenCL C source may not do, decided on the text as the preprocessor sees it. */
#include "run/srcpolicy.h"
#include "problem/problem.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *srcpolicy_kind_name(srcpolicy_kind k) {
#define SRCPOLICY_NAME(e, s) s,
    static const char *const names[] = {SRCPOLICY_KINDS(SRCPOLICY_NAME)};
#undef SRCPOLICY_NAME
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "unknown";
}

/* ---- translation phases 1 and 2, with the original line of every character ---- */

typedef struct {
    char *s;      /* trigraphs replaced, every line end a '\n', line splices removed */
    int *line;    /* the original 1-based line of each character */
    size_t n;
} logical;

static int hspace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

/* Trigraphs and line ends (clang ends a line at \n, \r\n and a lone \r), then
 * splices: a backslash, optional white space, a line end. A UTF-8 byte-order
 * mark at the start is skipped, as clang skips it. */
static int make_logical(const char *src, logical *lg) {
    size_t n = strlen(src);
    char *a = malloc(n + 1);
    int *la = malloc(sizeof(int) * (n + 1));
    lg->s = malloc(n + 1);
    lg->line = malloc(sizeof(int) * (n + 1));
    lg->n = 0;
    if (!a || !la || !lg->s || !lg->line) {
        free(a);
        free(la);
        free(lg->s);
        free(lg->line);
        lg->s = NULL;
        lg->line = NULL;
        return -1;
    }
    static const char from[] = "=(/)'<!>-", to[] = "#[\\]^{|}~";
    size_t i = 0, o = 0;
    int line = 1;
    if (n >= 3 && (unsigned char)src[0] == 0xEF && (unsigned char)src[1] == 0xBB && (unsigned char)src[2] == 0xBF) i = 3;
    while (i < n) {
        char c = src[i];
        if (c == '?' && src[i + 1] == '?' && src[i + 2] && strchr(from, src[i + 2])) {
            la[o] = line;
            a[o++] = to[strchr(from, src[i + 2]) - from];
            i += 3;
        } else if (c == '\r' || c == '\n') {
            la[o] = line++;
            a[o++] = '\n';
            i += c == '\r' && src[i + 1] == '\n' ? 2 : 1;
        } else {
            la[o] = line;
            a[o++] = c;
            i++;
        }
    }
    size_t m = 0;
    for (size_t k = 0; k < o; k++) {
        if (a[k] == '\\') {
            size_t j = k + 1;
            while (j < o && hspace(a[j])) j++;
            if (j < o && a[j] == '\n') {
                k = j;
                continue;
            }
        }
        lg->line[m] = la[k];
        lg->s[m++] = a[k];
    }
    lg->s[m] = '\0';
    lg->line[m] = line;
    lg->n = m;
    free(a);
    free(la);
    return 0;
}

/* ---- tokens (phase 3) ---- */

typedef enum { T_EOF, T_NL, T_IDENT, T_NUMBER, T_STRING, T_PUNCT, T_OTHER } tok_type;

typedef struct {
    tok_type type;
    int space;             /* white space or a comment before it */
    size_t at, len;        /* in the logical text */
    int line;
} token;

/* Length of a Unicode space character that clang may read as white space, else 0. */
static size_t uspace(const unsigned char *p) {
    if (p[0] == 0xC2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;
    if (p[0] == 0xE1 && ((p[1] == 0x9A && p[2] == 0x80) || (p[1] == 0xA0 && p[2] == 0x8E))) return 3;
    if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
        return 3;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3;
    if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3;
    return 0;
}

static int ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80; }
static int ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
static int digit(unsigned char c) { return c >= '0' && c <= '9'; }

typedef struct {
    token *t;
    size_t n, cap;
} tokens;

static int push(tokens *ts, token tk) {
    if (ts->n == ts->cap) {
        size_t cap = ts->cap ? ts->cap * 2 : 256;
        token *nt = realloc(ts->t, sizeof *nt * cap);
        if (!nt) return -1;
        ts->t = nt;
        ts->cap = cap;
    }
    ts->t[ts->n++] = tk;
    return 0;
}

static int tokenize(const logical *lg, tokens *ts) {
    const char *s = lg->s;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, n = lg->n;
    int space = 0;
    while (i < n) {
        unsigned char c = u[i];
        size_t w;
        if (c == '\n') {
            token tk = {.type = T_NL, .at = i, .len = 1, .line = lg->line[i]};
            if (push(ts, tk)) return -1;
            space = 0;
            i++;
            continue;
        }
        if (hspace((char)c)) { space = 1; i++; continue; }
        if ((w = uspace(u + i)) != 0) { space = 1; i += w; continue; }
        if (c == '/' && s[i + 1] == '*') {
            i += 2;
            while (i < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
            i = i < n ? i + 2 : n;
            space = 1;
            continue;
        }
        if (c == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
            space = 1;
            continue;
        }
        token tk = {.at = i, .line = lg->line[i], .space = space};
        space = 0;
        if (digit(c) || (c == '.' && digit(u[i + 1]))) {
            size_t j = i + 1;
            for (;;) {
                if ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1])) j++;
                else if (ident_char(u[j]) || s[j] == '.') j++;
                else break;
            }
            tk.type = T_NUMBER;
            tk.len = j - i;
        } else if (ident_start(c) && !uspace(u + i)) {
            size_t j = i + 1;
            while (j < n && ident_char(u[j]) && !uspace(u + j)) j++;
            size_t len = j - i;
            int prefix = (len == 1 && strchr("LuU", c)) || (len == 2 && c == 'u' && s[i + 1] == '8');
            if (prefix && (s[j] == '"' || s[j] == '\'')) {
                i = j; /* a literal's prefix: read the literal below */
                c = u[i];
            } else {
                tk.type = T_IDENT;
                tk.len = len;
            }
        }
        if (!tk.len && (c == '"' || c == '\'')) {
            size_t j = i + 1;
            while (j < n && s[j] != (char)c && s[j] != '\n') j += s[j] == '\\' && s[j + 1] != '\n' ? 2 : 1;
            if (j > n) j = n;
            if (j < n && s[j] == (char)c) j++;
            tk.type = T_STRING;
            tk.len = j - tk.at;
        } else if (!tk.len) {
            tk.type = T_PUNCT;
            if (c == '#' && s[i + 1] == '#') tk.len = 2;
            else if (c == '%' && s[i + 1] == ':' && s[i + 2] == '%' && s[i + 3] == ':') tk.len = 4;
            else if (c == '%' && s[i + 1] == ':') tk.len = 2;
            else if (c >= 0x80) {
                tk.type = T_OTHER;
                tk.len = 1;
            } else tk.len = 1;
        }
        if (push(ts, tk)) return -1;
        i = tk.at + tk.len;
    }
    token end = {.type = T_EOF, .at = n, .line = lg->line[n]};
    return push(ts, end);
}

/* ---- names ---- */

static int tok_is(const logical *lg, const token *t, const char *word) {
    size_t wl = strlen(word);
    return t->len == wl && !memcmp(lg->s + t->at, word, wl);
}

static int is_hash(const logical *lg, const token *t) {
    return t->type == T_PUNCT && (tok_is(lg, t, "#") || tok_is(lg, t, "%:"));
}

static int is_paste(const logical *lg, const token *t) {
    return t->type == T_PUNCT && (tok_is(lg, t, "##") || tok_is(lg, t, "%:%:"));
}

static int starts(const char *s, size_t len, const char *prefix) {
    size_t pl = strlen(prefix);
    return len >= pl && !memcmp(s, prefix, pl);
}

static int in_list(const char *s, size_t len, const char *const *list) {
    for (; list && *list; list++)
        if (strlen(*list) == len && !memcmp(*list, s, len)) return 1;
    return 0;
}

/* Macros every OpenCL device defines, or defines only with a feature (fp64, fp16). */
static const char *const device_exact[] = {
    "FP_FAST_FMA", "FP_FAST_FMAF", "FP_FAST_FMA_HALF", "HUGE_VAL",
    "DBL_DIG", "DBL_MANT_DIG", "DBL_MAX_10_EXP", "DBL_MAX_EXP", "DBL_MIN_10_EXP", "DBL_MIN_EXP", "DBL_RADIX",
    "DBL_MAX", "DBL_MIN", "DBL_EPSILON",
    "HALF_DIG", "HALF_MANT_DIG", "HALF_MAX_10_EXP", "HALF_MAX_EXP", "HALF_MIN_10_EXP", "HALF_MIN_EXP", "HALF_RADIX",
    "HALF_MAX", "HALF_MIN", "HALF_EPSILON",
    "M_E", "M_LOG2E", "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI", "M_2_SQRTPI",
    "M_SQRT2", "M_SQRT1_2", NULL};

/* In a conditional: may the device decide this name's value? */
/* OpenCL's work-item functions: the analysis at a large size sees its
 * chosen work-groups through them (gm_sample.h), so a kernel may neither
 * make a macro of one nor test whether one is a macro. */
static const char *const work_item_functions[] = {
    "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_enqueued_local_size", "get_local_id",
    "get_num_groups", "get_group_id", "get_global_offset", "get_global_linear_id", "get_local_linear_id", NULL};

static int device_name(const char *s, size_t len) {
    return starts(s, len, "__") || starts(s, len, "cl_") || starts(s, len, "CL_VERSION_") ||
           in_list(s, len, device_exact) || in_list(s, len, work_item_functions);
}

/* Names the C preprocessor defines the same way everywhere. */
static const char *const standard_names[] = {"__FILE__", "__LINE__", "__COUNTER__", "__DATE__", "__TIME__",
                                             "__VA_ARGS__", "__VA_OPT__", "__FUNCTION__", "__PRETTY_FUNCTION__",
                                             NULL};

/* Names with two underscores that OpenCL C itself defines: its address
 * spaces and qualifiers, and the C keywords clang spells that way. */
static const char *const language_names[] = {
    "__kernel", "__global", "__local", "__constant", "__private", "__generic", "__read_only", "__write_only",
    "__read_write", "__attribute__", "__attribute", "__restrict", "__restrict__", "__inline", "__inline__",
    "__const", "__const__", "__volatile", "__volatile__", "__signed", "__signed__", "__typeof", "__typeof__",
    "__alignof__", "__func__", "__extension__", NULL};

/* In code: a macro or builtin whose value says what device or compiler runs
 * the kernel: __OPENCL_VERSION__, __clang_major__, __x86_64__,
 * __builtin_cpu_supports, an extension's name (cl_khr_fp64, which a
 * stringified macro turns into a test), CL_VERSION_2_0... Every name with
 * two leading underscores is one, except the language's own. */
static int device_macro(const char *s, size_t len) {
    if (in_list(s, len, standard_names) || in_list(s, len, language_names)) return 0;
    if (starts(s, len, "CL_VERSION_") || starts(s, len, "cl_")) return 1;
    return len > 2 && starts(s, len, "__");
}

/* ---- the file's own macros ---- */

typedef struct {
    size_t at, len;        /* the name, in the logical text */
    size_t body, n_body;   /* its body's identifiers: refs[body .. body + n_body) */
    int own;               /* #defined or #undefined outside any conditional */
    int defined;
    unsigned seen;         /* the last query that visited it */
} macro;

typedef struct {
    size_t at, len;
} ref;

typedef struct {
    const logical *lg;
    const tokens *ts;
    const char *display;
    const char *const *allowed;
    unsigned checks;
    srcpolicy_finding *f;
    macro *m;
    size_t n_m, cap_m;
    size_t *hash;          /* index + 1 into m, 0 empty; size a power of two */
    size_t hash_cap;
    ref *refs;
    size_t n_refs, cap_refs;
    unsigned query;
    long budget;           /* identifier visits left for following macros into macros */
    int depth;             /* conditionals open */
    int oom;
} policy;

static size_t hash_name(const char *s, size_t len) {
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static macro *find_macro(policy *p, const char *s, size_t len) {
    if (!p->hash_cap) return NULL;
    for (size_t h = hash_name(s, len) & (p->hash_cap - 1);; h = (h + 1) & (p->hash_cap - 1)) {
        if (!p->hash[h]) return NULL;
        macro *m = &p->m[p->hash[h] - 1];
        if (m->len == len && !memcmp(p->lg->s + m->at, s, len)) return m;
    }
}

static macro *add_macro(policy *p, size_t at, size_t len) {
    macro *m = find_macro(p, p->lg->s + at, len);
    if (m) return m;
    if ((p->n_m + 1) * 2 > p->hash_cap) {
        size_t cap = p->hash_cap ? p->hash_cap * 2 : 64;
        size_t *nh = calloc(cap, sizeof *nh);
        if (!nh) return NULL;
        for (size_t i = 0; i < p->n_m; i++) {
            size_t h = hash_name(p->lg->s + p->m[i].at, p->m[i].len) & (cap - 1);
            while (nh[h]) h = (h + 1) & (cap - 1);
            nh[h] = i + 1;
        }
        free(p->hash);
        p->hash = nh;
        p->hash_cap = cap;
    }
    if (p->n_m == p->cap_m) {
        size_t cap = p->cap_m ? p->cap_m * 2 : 32;
        macro *nm = realloc(p->m, sizeof *nm * cap);
        if (!nm) return NULL;
        p->m = nm;
        p->cap_m = cap;
    }
    m = &p->m[p->n_m++];
    memset(m, 0, sizeof *m);
    m->at = at;
    m->len = len;
    size_t h = hash_name(p->lg->s + at, len) & (p->hash_cap - 1);
    while (p->hash[h]) h = (h + 1) & (p->hash_cap - 1);
    p->hash[h] = p->n_m;
    return m;
}

static int add_ref(policy *p, size_t at, size_t len) {
    if (p->n_refs == p->cap_refs) {
        size_t cap = p->cap_refs ? p->cap_refs * 2 : 256;
        ref *nr = realloc(p->refs, sizeof *nr * cap);
        if (!nr) return -1;
        p->refs = nr;
        p->cap_refs = cap;
    }
    p->refs[p->n_refs++] = (ref){at, len};
    return 0;
}

/* A name the build or the file itself decides. */
static int decided_here(policy *p, const char *s, size_t len) {
    if (in_list(s, len, p->allowed)) return 1;
    const macro *m = find_macro(p, s, len);
    return m && m->own;
}

/* ---- findings ---- */

/* The tokens of line [first, end) as one line of text, around token `at`. */
static void render(const policy *p, size_t first, size_t end, size_t at, int directive, char *buf, size_t len) {
    const token *t = p->ts->t;
    size_t start = first;
    size_t width = 0;
    /* start a little before the offending token when the line is long */
    for (size_t k = at + 1; k > first; k--) {
        width += t[k - 1].len + 1;
        if (width > 48) {
            start = k - 1;
            break;
        }
    }
    size_t o = 0;
    if (start > first) o += (size_t)snprintf(buf, len, "... ");
    for (size_t k = start; k < end && o + 8 < len; k++) {
        if (k > start && t[k].space && !(directive && k == first + 1)) buf[o++] = ' ';
        const char *s = p->lg->s + t[k].at;
        size_t tl = t[k].len;
        if (directive && k == first) { s = "#"; tl = 1; }
        for (size_t c = 0; c < tl && o + 8 < len; c++) {
            unsigned char ch = (unsigned char)s[c];
            buf[o++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
        }
        if (o > 100 && k + 1 < end) {
            o += (size_t)snprintf(buf + o, len - o, " ...");
            break;
        }
    }
    buf[o < len ? o : len - 1] = '\0';
}

static int found(policy *p, srcpolicy_kind kind, size_t first, size_t end, size_t at, int directive,
                 const char *name, size_t name_len, const char *via) {
    srcpolicy_finding *f = p->f;
    const token *t = &p->ts->t[at];
    f->kind = kind;
    f->line = directive ? p->ts->t[first].line : t->line;
    snprintf(f->name, sizeof f->name, "%.*s", (int)(name_len < 63 ? name_len : 63), name);
    render(p, first, end, at, directive, f->text, sizeof f->text);
    const char *d = p->display && *p->display ? p->display : "<source>";
    switch (kind) {
    case SP_INCLUDE: case SP_IMPORT: case SP_INCLUDE_NEXT: case SP_EMBED:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` is an #%s: a graded kernel may not read other files; everything the kernel needs "
                   "must be in the file itself"), d, f->line, f->text, f->name);
        break;
    case SP_HAS_INCLUDE:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` uses %s, which tells whether a file exists; a graded kernel may not look at other "
                   "files: remove it"), d, f->line, f->text, f->name);
        break;
    case SP_PRAGMA_OPERATOR:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` uses _Pragma, whose text macros can build out of sight of the grader (a pragma "
                   "that reads files, say); write a #pragma line instead"), d, f->line, f->text);
        break;
    case SP_PRAGMA_FILE:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` asks the compiler to read files or to run its debugging commands; a graded kernel "
                   "may not: remove the pragma"), d, f->line, f->text);
        break;
    case SP_TOKEN_PASTE:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` pastes tokens together with ##, which can build names the grader cannot check "
                   "(#include, __has_include, the device's macros); write the names out in full"), d, f->line, f->text);
        break;
    case SP_DEVICE_BRANCH:
        if (via)
            snprintf(f->message, sizeof f->message,
                     _("%s:%d: `%s` tests what device runs the kernel (through %s, which uses %s); graded code must "
                       "do the same thing on every device: remove the condition"), d, f->line, f->text, via, f->name);
        else
            snprintf(f->message, sizeof f->message,
                     _("%s:%d: `%s` tests what device runs the kernel; graded code must do the same thing on every "
                       "device: remove the condition"), d, f->line, f->text);
        break;
    case SP_PRAGMA:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` is a #pragma the grader does not allow (%s): graded code may use #pragma OPENCL "
                   "EXTENSION, #pragma OPENCL FP_CONTRACT, #pragma unroll and #pragma nounroll only, since others "
                   "(push_macro, pop_macro, ...) can change what the code means out of sight: remove it"),
                 d, f->line, f->text, f->name);
        break;
    case SP_INLINE_ASM:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` is inline assembly (%s): a graded kernel must be OpenCL C only, since on a CPU "
                   "device it runs as machine code inside the grader's worker; write the operation in OpenCL C"),
                 d, f->line, f->text, f->name);
        break;
    case SP_SYMBOL_ATTRIBUTE:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` binds a name to another symbol or section (%s), which can reach code outside the "
                   "kernel; a graded kernel may not: remove the attribute"), d, f->line, f->text, f->name);
        break;
    case SP_BUILTIN_MACRO:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` makes a macro of %s, one of OpenCL's work-item functions; graded code must call "
                   "the function itself: give the macro a name of its own"), d, f->line, f->text, f->name);
        break;
    case SP_DEVICE_MACRO:
        snprintf(f->message, sizeof f->message,
                 _("%s:%d: `%s` uses %s, which says what device runs the kernel; graded code must do the same "
                   "thing on every device: remove it"), d, f->line, f->text, f->name);
        break;
    default:
        snprintf(f->message, sizeof f->message, "%s:%d: `%s`", d, f->line, f->text);
    }
    return 1;
}

/* ---- checks ---- */

static srcpolicy_kind include_kind(const logical *lg, const token *t) {
    if (t->type != T_IDENT) return SP_NONE;
    if (tok_is(lg, t, "include")) return SP_INCLUDE;
    if (tok_is(lg, t, "import")) return SP_IMPORT;
    if (tok_is(lg, t, "include_next")) return SP_INCLUDE_NEXT;
    if (tok_is(lg, t, "embed")) return SP_EMBED;
    return SP_NONE;
}

/* Every spelling clang reads as inline assembly (or an asm label). */
static const char *const asm_names[] = {"asm", "__asm", "__asm__", NULL};
/* Attributes that bind a name to another symbol or put code in a section of its choosing. */
static const char *const symbol_attributes[] = {"alias", "__alias__", "weakref", "__weakref__", "ifunc",
                                                "__ifunc__", "symver", "__symver__", "section", "__section__",
                                                NULL};

/* Inline assembly, or `__attribute__((alias(...)))` and its kin (in the
 * balanced parentheses after __attribute__), or `[[gnu::alias]]`. Since ##
 * is refused, an identifier is written whole somewhere: in code or in a
 * macro's body. Returns 1 on a finding. */
static int check_native(policy *p, size_t first, size_t end, size_t k, int directive) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    if (t[k].type != T_IDENT) return 0;
    const char *s = lg->s + t[k].at;
    if (in_list(s, t[k].len, asm_names)) return found(p, SP_INLINE_ASM, first, end, k, directive, s, t[k].len, NULL);
    if (in_list(s, t[k].len, symbol_attributes) && k >= first + 2 && tok_is(lg, &t[k - 1], ":") &&
        tok_is(lg, &t[k - 2], ":"))
        return found(p, SP_SYMBOL_ATTRIBUTE, first, end, k, directive, s, t[k].len, NULL);
    if (!tok_is(lg, &t[k], "__attribute__") && !tok_is(lg, &t[k], "__attribute")) return 0;
    int depth = 0;
    for (size_t q = k + 1; q < end; q++) {
        if (tok_is(lg, &t[q], "(")) depth++;
        else if (tok_is(lg, &t[q], ")") && --depth <= 0) break;
        else if (t[q].type == T_IDENT && in_list(lg->s + t[q].at, t[q].len, symbol_attributes))
            return found(p, SP_SYMBOL_ATTRIBUTE, first, end, q, directive, lg->s + t[q].at, t[q].len, NULL);
    }
    return 0;
}

/* What any token of the line may not be: an #include (even where it is no
 * directive), __has_include, _Pragma, ##, inline assembly. Returns 1 on a
 * finding. */
static int check_token(policy *p, size_t first, size_t end, size_t k, int directive) {
    const logical *lg = p->lg;
    const token *t = &p->ts->t[k];
    if (is_paste(lg, t)) return found(p, SP_TOKEN_PASTE, first, end, k, directive, "##", 2, NULL);
    if ((p->checks & SRCPOLICY_NATIVE) && check_native(p, first, end, k, directive)) return 1;
    if (!(p->checks & SRCPOLICY_FILES)) return 0;
    if (is_hash(lg, t) && k + 1 < end) {
        srcpolicy_kind ik = include_kind(lg, &p->ts->t[k + 1]);
        if (ik != SP_NONE)
            return found(p, ik, k, end, k, 1, lg->s + p->ts->t[k + 1].at, p->ts->t[k + 1].len, NULL);
    }
    if (t->type != T_IDENT) return 0;
    const char *s = lg->s + t->at;
    if (tok_is(lg, t, "__has_include") || tok_is(lg, t, "__has_include_next") || tok_is(lg, t, "__has_embed"))
        return found(p, SP_HAS_INCLUDE, first, end, k, directive, s, t->len, NULL);
    if (tok_is(lg, t, "_Pragma")) return found(p, SP_PRAGMA_OPERATOR, first, end, k, directive, s, t->len, NULL);
    return 0;
}

/* Follows the file's macro `m` into the macros its body names: 1 (with the
 * finding) when one of them is the device's. */
static int tainted(policy *p, macro *m, size_t first, size_t end, size_t at, const char *via, int level) {
    if (m->seen == p->query) return 0;
    m->seen = p->query;
    for (size_t r = m->body; r < m->body + m->n_body; r++) {
        const char *s = p->lg->s + p->refs[r].at;
        size_t len = p->refs[r].len;
        if (--p->budget < 0 || level > 200) {
            found(p, SP_DEVICE_BRANCH, first, end, at, 1, via, strlen(via), NULL);
            snprintf(p->f->message, sizeof p->f->message,
                     _("%s:%d: `%s` stands for more macros than the grader follows; graded code must show what "
                       "its conditions test: simplify the condition"), p->display && *p->display ? p->display : "<source>",
                     p->f->line, p->f->text);
            return 1;
        }
        if (device_name(s, len) && !decided_here(p, s, len))
            return found(p, SP_DEVICE_BRANCH, first, end, at, 1, s, len, via);
        macro *inner = find_macro(p, s, len);
        if (inner && inner->defined && tainted(p, inner, first, end, at, via, level + 1)) return 1;
    }
    return 0;
}

/* #if and #elif: every name tested, directly, through defined, or inside the file's macros. */
static int check_condition(policy *p, size_t first, size_t end, size_t from) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    for (size_t k = from; k < end; k++) {
        if (t[k].type != T_IDENT) continue;
        if (tok_is(lg, &t[k], "defined")) {
            size_t q = k + 1;
            if (q < end && tok_is(lg, &t[q], "(")) q++;
            if (q < end && t[q].type == T_IDENT) {
                const char *s = lg->s + t[q].at;
                if (device_name(s, t[q].len) && !decided_here(p, s, t[q].len))
                    return found(p, SP_DEVICE_BRANCH, first, end, q, 1, s, t[q].len, NULL);
                k = q;
            }
            continue;
        }
        const char *s = lg->s + t[k].at;
        if (device_name(s, t[k].len) && !decided_here(p, s, t[k].len))
            return found(p, SP_DEVICE_BRANCH, first, end, k, 1, s, t[k].len, NULL);
        macro *m = find_macro(p, s, t[k].len);
        if (m && m->defined) {
            char via[80];
            snprintf(via, sizeof via, "%.*s", (int)(t[k].len < 60 ? t[k].len : 60), s);
            p->query++;
            if (tainted(p, m, first, end, k, via, 0)) return 1;
        }
    }
    return 0;
}

/* #define NAME(PARAMS) BODY: records the body's names; its code is code. */
static int handle_define(policy *p, size_t first, size_t end, size_t k) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    if (k >= end || t[k].type != T_IDENT) return 0;
    if ((p->checks & SRCPOLICY_DEVICE) && in_list(lg->s + t[k].at, t[k].len, work_item_functions))
        return found(p, SP_BUILTIN_MACRO, first, end, k, 1, lg->s + t[k].at, t[k].len, NULL);
    size_t name = k++;
    size_t params = k, n_params = 0;
    if (k < end && tok_is(lg, &t[k], "(") && !t[k].space) {
        params = ++k;
        while (k < end && !tok_is(lg, &t[k], ")")) k++;
        n_params = k - params;
        if (k < end) k++;
    }
    size_t body = p->n_refs;
    for (; k < end; k++) {
        if (check_token(p, first, end, k, 1)) return 1;
        if (t[k].type != T_IDENT) continue;
        const char *s = lg->s + t[k].at;
        int param = 0;
        for (size_t q = params; q < params + n_params; q++)
            if (t[q].type == T_IDENT && t[q].len == t[k].len && !memcmp(lg->s + t[q].at, s, t[k].len)) param = 1;
        if (param) continue;
        if ((p->checks & SRCPOLICY_DEVICE) && device_macro(s, t[k].len) && !decided_here(p, s, t[k].len))
            return found(p, SP_DEVICE_MACRO, first, end, k, 1, s, t[k].len, NULL);
        if (add_ref(p, t[k].at, t[k].len)) { p->oom = 1; return 0; }
    }
    macro *m = add_macro(p, t[name].at, t[name].len);
    if (!m) { p->oom = 1; return 0; }
    m->body = body;
    m->n_body = p->n_refs - body;
    m->defined = 1;
    if (p->depth == 0) m->own = 1;
    return 0;
}

/* #pragma: those that read files or the compiler (SRCPOLICY_FILES), and
 * with SRCPOLICY_DEVICE any but OPENCL ... (EXTENSION, FP_CONTRACT), unroll
 * and nounroll: push_macro and pop_macro, say, can hide a redefined device
 * macro from this check. */
static int check_pragma(policy *p, size_t first, size_t end, size_t k) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    if ((p->checks & SRCPOLICY_FILES) && k + 1 < end &&
        ((tok_is(lg, &t[k], "GCC") && tok_is(lg, &t[k + 1], "dependency")) ||
         (tok_is(lg, &t[k], "clang") && (tok_is(lg, &t[k + 1], "module") || tok_is(lg, &t[k + 1], "__debug")))))
        return found(p, SP_PRAGMA_FILE, first, end, k + 1, 1, lg->s + t[k + 1].at, t[k + 1].len, NULL);
    if (!(p->checks & SRCPOLICY_DEVICE)) return 0;
    if (k < end && (tok_is(lg, &t[k], "OPENCL") || tok_is(lg, &t[k], "unroll") || tok_is(lg, &t[k], "nounroll")))
        return 0;
    if (k >= end) return found(p, SP_PRAGMA, first, end, first, 1, "pragma", 6, NULL);
    return found(p, SP_PRAGMA, first, end, k, 1, lg->s + t[k].at, t[k].len, NULL);
}

/* One directive: tokens [first, end), first being its #. */
static int directive(policy *p, size_t first, size_t end) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    size_t k = first + 1;
    if (k >= end || t[k].type != T_IDENT) {
        for (size_t q = first; q < end; q++)
            if (check_token(p, first, end, q, 0)) return 1;
        return 0;
    }
    const token *name = &t[k];
    srcpolicy_kind ik = include_kind(lg, name);
    if (ik != SP_NONE && (p->checks & SRCPOLICY_FILES))
        return found(p, ik, first, end, k, 1, lg->s + name->at, name->len, NULL);
    if (tok_is(lg, name, "define")) return handle_define(p, first, end, k + 1);
    for (size_t q = k + 1; q < end; q++)
        if (check_token(p, first, end, q, 1)) return 1;
    int dev = (p->checks & SRCPOLICY_DEVICE) != 0;
    if (tok_is(lg, name, "undef")) {
        if (k + 1 < end && t[k + 1].type == T_IDENT) {
            if (dev && in_list(lg->s + t[k + 1].at, t[k + 1].len, work_item_functions))
                return found(p, SP_BUILTIN_MACRO, first, end, k + 1, 1, lg->s + t[k + 1].at, t[k + 1].len, NULL);
            macro *m = add_macro(p, t[k + 1].at, t[k + 1].len);
            if (!m) { p->oom = 1; return 0; }
            m->defined = 0;
            m->n_body = 0;
            if (p->depth == 0) m->own = 1;
        }
    } else if (tok_is(lg, name, "if") || tok_is(lg, name, "elif")) {
        if (tok_is(lg, name, "if")) p->depth++;
        if (dev && check_condition(p, first, end, k + 1)) return 1;
    } else if (tok_is(lg, name, "ifdef") || tok_is(lg, name, "ifndef") || tok_is(lg, name, "elifdef") ||
               tok_is(lg, name, "elifndef")) {
        if (tok_is(lg, name, "ifdef") || tok_is(lg, name, "ifndef")) p->depth++;
        if (dev && k + 1 < end && t[k + 1].type == T_IDENT) {
            const char *s = lg->s + t[k + 1].at;
            if (device_name(s, t[k + 1].len) && !decided_here(p, s, t[k + 1].len))
                return found(p, SP_DEVICE_BRANCH, first, end, k + 1, 1, s, t[k + 1].len, NULL);
        }
    } else if (tok_is(lg, name, "endif")) {
        if (p->depth > 0) p->depth--;
    } else if (tok_is(lg, name, "pragma")) {
        return check_pragma(p, first, end, k + 1);
    }
    return 0;
}

/* A line of code: tokens [first, end). */
static int code_line(policy *p, size_t first, size_t end) {
    const logical *lg = p->lg;
    const token *t = p->ts->t;
    for (size_t k = first; k < end; k++) {
        if (check_token(p, first, end, k, 0)) return 1;
        if (!(p->checks & SRCPOLICY_DEVICE) || t[k].type != T_IDENT) continue;
        const char *s = lg->s + t[k].at;
        if (device_macro(s, t[k].len) && !decided_here(p, s, t[k].len))
            return found(p, SP_DEVICE_MACRO, first, end, k, 0, s, t[k].len, NULL);
    }
    return 0;
}

int srcpolicy_check(const char *src, const char *display, const char *const *allowed, unsigned checks,
                    srcpolicy_finding *f) {
    memset(f, 0, sizeof *f);
    f->kind = SP_NONE;
    logical lg;
    tokens ts = {0};
    if (make_logical(src ? src : "", &lg) != 0 || tokenize(&lg, &ts) != 0) {
        free(lg.s);
        free(lg.line);
        free(ts.t);
        snprintf(f->message, sizeof f->message, _("out of memory while checking %s"), display ? display : _("the source"));
        return -1;
    }
    policy p = {.lg = &lg, .ts = &ts, .display = display, .allowed = allowed, .checks = checks, .f = f,
                .budget = 4000000};
    int hit = 0;
    size_t k = 0;
    while (!hit && !p.oom && ts.t[k].type != T_EOF) {
        size_t end = k;
        while (ts.t[end].type != T_NL && ts.t[end].type != T_EOF) end++;
        if (end > k) {
            /* a # that starts a line (after white space or comments) */
            if (is_hash(&lg, &ts.t[k])) hit = directive(&p, k, end);
            else hit = code_line(&p, k, end);
        }
        k = ts.t[end].type == T_NL ? end + 1 : end;
    }
    if (p.oom && !hit) {
        memset(f, 0, sizeof *f);
        snprintf(f->message, sizeof f->message, _("out of memory while checking %s"), display ? display : _("the source"));
    }
    free(p.m);
    free(p.hash);
    free(p.refs);
    free(ts.t);
    free(lg.s);
    free(lg.line);
    if (p.oom && !hit) return -1;
    return hit ? 1 : 0;
}

int srcpolicy_option_macros(const char *options, char *buf, size_t len, const char **names, int max) {
    int n = 0;
    size_t o = 0;
    const char *p = options ? options : "";
    if (max < 1) return 0;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (p[0] == '-' && p[1] == 'D') {
            p += 2;
            while (*p == ' ' || *p == '\t') p++;
            size_t w = 0;
            while (p[w] && ident_char((unsigned char)p[w])) w++;
            if (w && n + 1 < max && o + w + 1 <= len) {
                memcpy(buf + o, p, w);
                buf[o + w] = '\0';
                names[n++] = buf + o;
                o += w + 1;
            }
        }
        while (*p && *p != ' ' && *p != '\t') p++;
    }
    names[n] = NULL;
    return n;
}

int srcpolicy_check_chapter(const char *src, const char *display, const lesson *l, srcpolicy_finding *f) {
    char options[512], names_buf[1024];
    const char *names[33];
    problem_build_options(l, options, sizeof options);
    srcpolicy_option_macros(options, names_buf, sizeof names_buf, names, 33);
    return srcpolicy_check(src, display, names, SRCPOLICY_ALL, f);
}
