/* similarity — fingerprints of kernels and the pairs of students that share
 * them (see similarity.h). */
#include "grade/similarity.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens */

typedef struct {
    uint64_t hash;
    int line;
} token;

/* Names the language and its built-ins give: they count as written. */
static const char *const reserved_words[] = {
    "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case", "default", "goto",
    "sizeof", "typedef", "struct", "union", "enum", "const", "volatile", "restrict", "static", "inline", "extern",
    "unsigned", "signed", "void", "char", "short", "int", "long", "float", "double", "bool", "half", "size_t",
    "ptrdiff_t", "uchar", "ushort", "uint", "ulong", "true", "false", "NULL", "kernel", "__kernel", "global",
    "__global", "local", "__local", "constant", "__constant", "private", "__private", "__attribute__",
    "reqd_work_group_size", "define", "undef", "ifdef", "ifndef", "endif", "elif", "pragma", "unroll", "barrier",
    "mem_fence", "read_mem_fence", "write_mem_fence", "min", "max", "clamp", "mad", "fma", "sqrt", "fabs", "abs",
    "select", "dot", "mix", "popcount", "mul24", "mad24", "rotate", "hadd", "rhadd", "exp", "log"};
static const char *const reserved_prefixes[] = {"get_", "atomic_", "atom_", "vload", "vstore", "convert_", "as_",
                                                "async_", "wait_group", "work_group_", "sub_group_", "native_",
                                                "CLK_", "FLT_", "INT_", "UINT_", "CHAR_", "UCHAR_", "cl_"};
static const char *const vector_bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                           "float", "double", "half"};

static int is_reserved(const char *w, size_t n) {
    for (size_t i = 0; i < CLT_ARRAY_LEN(reserved_words); i++)
        if (strlen(reserved_words[i]) == n && !memcmp(reserved_words[i], w, n)) return 1;
    for (size_t i = 0; i < CLT_ARRAY_LEN(reserved_prefixes); i++) {
        size_t p = strlen(reserved_prefixes[i]);
        if (n > p && !memcmp(reserved_prefixes[i], w, p)) return 1;
    }
    for (size_t i = 0; i < CLT_ARRAY_LEN(vector_bases); i++) { /* float4, uchar16 */
        size_t b = strlen(vector_bases[i]);
        if (n > b && n <= b + 2 && !memcmp(vector_bases[i], w, b)) {
            const char *d = w + b;
            size_t dn = n - b;
            if ((dn == 1 && strchr("2348", d[0])) || (dn == 2 && d[0] == '1' && d[1] == '6')) return 1;
        }
    }
    return 0;
}

static const char *const long_punct[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                         "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};

/* The length of the token at s (a name, a number, a literal or an operator), at least 1. */
static size_t token_length(const char *s, int *is_name) {
    *is_name = 0;
    if (isalpha((unsigned char)*s) || *s == '_') {
        size_t n = 1;
        while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
        *is_name = 1;
        return n;
    }
    if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
        size_t n = 1;
        for (;;) {
            if ((s[n] == '+' || s[n] == '-') && strchr("eEpP", s[n - 1]) && !(s[0] == '0' && strchr("xX", s[1])))
                n++;
            else if (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_') n++;
            else break;
        }
        return n;
    }
    if (*s == '"' || *s == '\'') {
        size_t n = 1;
        while (s[n] && s[n] != *s && s[n] != '\n') n += s[n] == '\\' && s[n + 1] ? 2 : 1;
        return s[n] == *s ? n + 1 : n;
    }
    for (size_t i = 0; i < CLT_ARRAY_LEN(long_punct); i++) {
        size_t p = strlen(long_punct[i]);
        if (!strncmp(s, long_punct[i], p)) return p;
    }
    return 1;
}

/* The tokens of src with their lines; returns how many, or -1 (out of memory). */
static int tokenize(const char *src, token **out) {
    size_t cap = 256, n = 0;
    token *t = malloc(cap * sizeof *t);
    int line = 1;
    const char *s = src;
    while (t && *s) {
        if (*s == '\n') line++, s++;
        else if (isspace((unsigned char)*s) || (*s == '\\' && s[1] == '\n')) s++;
        else if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++) line += *s == '\n';
            s += *s ? 2 : 0;
        } else {
            int is_name;
            size_t len = token_length(s, &is_name);
            if (n == cap) {
                token *grown = realloc(t, (cap *= 2) * sizeof *t);
                if (!grown) break;
                t = grown;
            }
            if (is_name && !is_reserved(s, len)) t[n].hash = util_hash64("\001name", 5);
            else if (*s == '"' || *s == '\'') t[n].hash = util_hash64("\001text", 5);
            else t[n].hash = util_hash64(s, len);
            t[n++].line = line;
            s += len;
        }
    }
    if (!t || *s) {
        free(t);
        return -1;
    }
    *out = t;
    return (int)n;
}

static int by_hash(const void *a, const void *b) {
    const sim_print *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->first_line - y->first_line;
}

int sim_fingerprint(const char *src, sim_prints *out) {
    memset(out, 0, sizeof *out);
    token *t = NULL;
    int n = tokenize(src, &t);
    if (n < 0) return -1;
    int m = n >= SIM_TOKENS ? n - SIM_TOKENS + 1 : 0;
    out->prints = malloc((size_t)(m ? m : 1) * sizeof *out->prints);
    if (!out->prints) {
        free(t);
        return -1;
    }
    for (int i = 0; i < m; i++) {
        uint64_t h = 1469598103934665603ULL;
        for (int k = 0; k < SIM_TOKENS; k++) h = (h ^ t[i + k].hash) * 1099511628211ULL;
        out->prints[i] = (sim_print){.hash = h, .first_line = t[i].line, .last_line = t[i + SIM_TOKENS - 1].line};
    }
    out->n = m;
    qsort(out->prints, (size_t)m, sizeof *out->prints, by_hash);
    free(t);
    return 0;
}

void sim_prints_free(sim_prints *p) {
    free(p->prints);
    memset(p, 0, sizeof *p);
}

/* Whether p (sorted by hash) holds a fingerprint of hash h. */
static int prints_have(const sim_prints *p, uint64_t h) {
    int lo = 0, hi = p->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->prints[mid].hash < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < p->n && p->prints[lo].hash == h;
}

void sim_share(const sim_prints *a, const sim_prints *b, const sim_prints *aside, int n_aside, int *own, int *held) {
    *own = *held = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t h = a->prints[i].hash;
        if (i > 0 && a->prints[i - 1].hash == h) continue;
        int skip = 0;
        for (int k = 0; k < n_aside && !skip; k++) skip = prints_have(&aside[k], h);
        if (skip) continue;
        (*own)++;
        *held += prints_have(b, h);
    }
}

/* ---- sets of hashes */

typedef struct {
    uint64_t *h;
    int n;
} hash_set;

static int has_hash(const hash_set *s, uint64_t h) {
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->h[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n && s->h[lo] == h;
}

/* The distinct hashes of p (sorted), less those in any of the `n_out` sets; -1 out of memory. */
static int own_hashes(const sim_prints *p, const hash_set *const *out_sets, int n_out, hash_set *own) {
    own->h = malloc((size_t)(p->n ? p->n : 1) * sizeof *own->h);
    own->n = 0;
    if (!own->h) return -1;
    for (int i = 0; i < p->n; i++) {
        uint64_t h = p->prints[i].hash;
        if (own->n && own->h[own->n - 1] == h) continue;
        int skip = 0;
        for (int k = 0; k < n_out && !skip; k++) skip = has_hash(out_sets[k], h);
        if (!skip) own->h[own->n++] = h;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The hashes that more than `fraction` of the students who handed file f in hold (and at least 3). */
static int common_hashes(const sim_class *c, int f, double fraction, hash_set *common) {
    size_t total = 0;
    int handed = 0;
    for (int s = 0; s < c->n_students; s++) {
        total += (size_t)c->files[s * c->n_files + f].n;
        handed += c->files[s * c->n_files + f].n > 0;
    }
    uint64_t *all = malloc((total ? total : 1) * sizeof *all);
    common->h = malloc((total ? total : 1) * sizeof *common->h);
    common->n = 0;
    if (!all || !common->h) {
        free(all);
        return -1;
    }
    size_t n = 0;
    for (int s = 0; s < c->n_students; s++) { /* each student's distinct hashes */
        const sim_prints *p = &c->files[s * c->n_files + f];
        for (int i = 0; i < p->n; i++)
            if (i == 0 || p->prints[i].hash != p->prints[i - 1].hash) all[n++] = p->prints[i].hash;
    }
    qsort(all, n, sizeof *all, cmp_u64);
    double limit = fraction * handed > 3 ? fraction * handed : 3;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && all[j] == all[i]) j++;
        if ((double)(j - i) > limit) common->h[common->n++] = all[i];
        i = j;
    }
    free(all);
    return 0;
}

/* ---- pairs */

/* The lines the prints of p with a hash in `shared` cover, merged, in order. */
static int covered_lines(const sim_prints *p, const hash_set *shared, sim_range **out) {
    sim_range *r = malloc((size_t)(p->n ? p->n : 1) * sizeof *r);
    if (!r) return -1;
    int n = 0;
    for (int i = 0; i < p->n; i++)
        if (has_hash(shared, p->prints[i].hash)) r[n++] = (sim_range){p->prints[i].first_line, p->prints[i].last_line};
    for (int i = 1; i < n; i++) /* insertion sort by first line: the prints are in hash order */
        for (int k = i; k > 0 && r[k].first < r[k - 1].first; k--) {
            sim_range x = r[k];
            r[k] = r[k - 1];
            r[k - 1] = x;
        }
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && r[i].first <= r[m - 1].last + 1) {
            if (r[i].last > r[m - 1].last) r[m - 1].last = r[i].last;
        } else {
            r[m++] = r[i];
        }
    }
    *out = r;
    return m;
}

/* What students a and b share in file f, or shared = 0. */
static int match_file(const sim_class *c, const hash_set *own, int a, int b, int f, sim_file_match *m) {
    memset(m, 0, sizeof *m);
    m->file = f;
    const hash_set *x = &own[a * c->n_files + f], *y = &own[b * c->n_files + f];
    if (!x->n || !y->n) return 0;
    m->smaller = x->n < y->n ? x->n : y->n;
    hash_set both = {.h = malloc((size_t)m->smaller * sizeof *both.h)};
    if (!both.h) return -1;
    for (int i = 0, k = 0; i < x->n && k < y->n;) {
        if (x->h[i] == y->h[k]) both.h[both.n++] = x->h[i], i++, k++;
        else if (x->h[i] < y->h[k]) i++;
        else k++;
    }
    m->shared = both.n;
    int rc = 0;
    if (both.n) {
        m->n_a = covered_lines(&c->files[a * c->n_files + f], &both, &m->a_lines);
        m->n_b = covered_lines(&c->files[b * c->n_files + f], &both, &m->b_lines);
        rc = m->n_a < 0 || m->n_b < 0 ? -1 : 0;
    }
    free(both.h);
    return rc;
}

static void file_match_free(sim_file_match *m) {
    free(m->a_lines);
    free(m->b_lines);
}

static int closest_first(const void *x, const void *y) {
    const sim_pair *a = x, *b = y;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->shared != b->shared) return b->shared - a->shared;
    return a->a != b->a ? a->a - b->a : a->b - b->b;
}

static int most_shared_first(const void *x, const void *y) {
    const sim_file_match *a = x, *b = y;
    return a->shared != b->shared ? b->shared - a->shared : a->file - b->file;
}

/* Pair (a, b) into *p when it shares at least min_shared; 1 kept, 0 not, -1 out of memory. */
static int score_pair(const sim_class *c, const hash_set *own, int a, int b, int min_shared, sim_pair *p) {
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    p->files = calloc((size_t)c->n_files, sizeof *p->files);
    if (!p->files) return -1;
    for (int f = 0; f < c->n_files; f++) {
        sim_file_match m;
        if (match_file(c, own, a, b, f, &m) != 0) {
            file_match_free(&m);
            for (int i = 0; i < p->n_files; i++) file_match_free(&p->files[i]);
            free(p->files);
            return -1;
        }
        p->smaller += m.smaller;
        p->shared += m.shared;
        if (m.shared) p->files[p->n_files++] = m;
        else file_match_free(&m);
    }
    if (p->shared < min_shared || p->smaller == 0) {
        for (int i = 0; i < p->n_files; i++) file_match_free(&p->files[i]);
        free(p->files);
        return 0;
    }
    p->score = (double)p->shared / p->smaller;
    qsort(p->files, (size_t)p->n_files, sizeof *p->files, most_shared_first);
    return 1;
}

int sim_compare(const sim_class *c, const sim_prints *starting, double common_fraction, int min_shared,
                sim_pair **out) {
    *out = NULL;
    int ns = c->n_students, nf = c->n_files, cells = ns * nf, n = 0, rc = 0;
    hash_set *own = calloc((size_t)(cells ? cells : 1), sizeof *own);
    hash_set *common = calloc((size_t)(nf ? nf : 1), sizeof *common);
    hash_set *start = calloc((size_t)(nf ? nf : 1), sizeof *start);
    sim_pair *pairs = NULL;
    if (!own || !common || !start) rc = -1;
    for (int f = 0; rc == 0 && f < nf; f++) {
        rc = common_hashes(c, f, common_fraction, &common[f]);
        if (rc == 0) rc = own_hashes(&starting[f], NULL, 0, &start[f]);
    }
    for (int s = 0; rc == 0 && s < ns; s++)
        for (int f = 0; rc == 0 && f < nf; f++) {
            const hash_set *aside[] = {&start[f], &common[f]};
            rc = own_hashes(&c->files[s * nf + f], aside, 2, &own[s * nf + f]);
        }
    size_t cap = 16;
    if (rc == 0 && !(pairs = malloc(cap * sizeof *pairs))) rc = -1;
    for (int a = 0; rc == 0 && a < ns; a++)
        for (int b = a + 1; rc == 0 && b < ns; b++) {
            if ((size_t)n == cap) {
                sim_pair *grown = realloc(pairs, (cap *= 2) * sizeof *pairs);
                if (!grown) {
                    rc = -1;
                    break;
                }
                pairs = grown;
            }
            int kept = score_pair(c, own, a, b, min_shared, &pairs[n]);
            if (kept < 0) rc = -1;
            n += kept > 0;
        }
    for (int i = 0; own && i < cells; i++) free(own[i].h);
    for (int f = 0; f < nf; f++) {
        if (common) free(common[f].h);
        if (start) free(start[f].h);
    }
    free(own);
    free(common);
    free(start);
    if (rc != 0) {
        sim_pairs_free(pairs, n);
        return -1;
    }
    qsort(pairs, (size_t)n, sizeof *pairs, closest_first);
    *out = pairs;
    return n;
}

void sim_pairs_free(sim_pair *pairs, int n) {
    for (int i = 0; pairs && i < n; i++) {
        for (int k = 0; k < pairs[i].n_files; k++) file_match_free(&pairs[i].files[k]);
        free(pairs[i].files);
    }
    free(pairs);
}
