/* gm_sample — a kernel analysed at a hidden test's full size by simulating
 * only some of its work-groups (see gm_sample.h). */
#define _DEFAULT_SOURCE
#include "gpumodel/gm_sample.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gm_sampling_parse(const char *value, gm_sampling *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    if (!value || !*value) return 0;
    char word[32] = "";
    unsigned groups = 0;
    int n = sscanf(value, "%u %31s", &groups, word);
    if (n < 1 || groups == 0 || groups > 64 || (n == 2 && strcmp(word, "in_order") != 0))
        return util_errf(err, errlen, _("scale_analysis: '%s' is not GROUPS [in_order] (1 to 64 work-groups)"),
                         value), -1;
    s->groups = groups;
    s->in_order = n == 2;
    return 0;
}

double gm_sample_scale(const gm_sampling *s, unsigned long long total_groups) {
    if (!s || !s->groups || total_groups <= s->groups) return 1;
    return (double)total_groups / (double)s->groups;
}

/* ---- finding each kernel's opening brace in the text ---------------------- */

/* Past white space, comments and preprocessor lines from p. */
static const char *skip_space(const char *p, int *at_line_start) {
    for (;;) {
        if (*p == '\n') { *at_line_start = 1; p++; }
        else if (isspace((unsigned char)*p)) p++;
        else if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; }
        else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (*p == '#' && *at_line_start) { /* a directive, with its continued lines */
            while (*p && *p != '\n') p += p[0] == '\\' && p[1] == '\n' ? 2 : 1;
        } else if (p[0] == '\\' && p[1] == '\n') p += 2;
        else return p;
    }
}

/* Past one token from p: a name, a number, a literal or one character. */
static const char *skip_token(const char *p) {
    if (isalpha((unsigned char)*p) || *p == '_' || isdigit((unsigned char)*p)) {
        while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
        return p;
    }
    if (*p == '"' || *p == '\'') {
        char q = *p++;
        while (*p && *p != q && *p != '\n') p += p[0] == '\\' && p[1] ? 2 : 1;
        return *p == q ? p + 1 : p;
    }
    return *p ? p + 1 : p;
}

static int is_word(const char *p, const char *end, const char *w) {
    size_t n = strlen(w);
    return (size_t)(end - p) == n && !strncmp(p, w, n);
}

/* From an opening parenthesis at p, past its closing one; NULL if it has none. */
static const char *skip_parens(const char *p) {
    int depth = 0, line_start = 0;
    do {
        p = skip_space(p, &line_start);
        line_start = 0;
        if (!*p) return NULL;
        if (*p == '(') depth++;
        else if (*p == ')') depth--;
        p = skip_token(p);
    } while (depth > 0);
    return p;
}

/* After the kernel keyword at p: the point just past the body's opening
 * brace, or NULL where the header is not plain (*is_decl set for a
 * declaration ending in ';'). */
static const char *kernel_body(const char *p, int *is_decl) {
    int line_start = 0;
    *is_decl = 0;
    const char *name_end = NULL;
    for (;;) {
        p = skip_space(p, &line_start);
        line_start = 0;
        if (!*p || *p == ';' || *p == '{' || *p == ')') return NULL;
        const char *e = skip_token(p);
        if (is_word(p, e, "__attribute__")) {
            p = skip_space(e, &line_start);
            if (*p != '(' || !(p = skip_parens(p))) return NULL;
            continue;
        }
        if (*p == '(') {
            if (!name_end) return NULL;
            break;
        }
        name_end = isalpha((unsigned char)*p) || *p == '_' ? e : NULL;
        p = e;
    }
    if (!(p = skip_parens(p))) return NULL;
    for (;;) { /* attributes after the parameters */
        p = skip_space(p, &line_start);
        const char *e = skip_token(p);
        if (!is_word(p, e, "__attribute__")) break;
        p = skip_space(e, &line_start);
        if (*p != '(' || !(p = skip_parens(p))) return NULL;
    }
    if (*p == ';') { *is_decl = 1; return NULL; }
    return *p == '{' ? p + 1 : NULL;
}

int gm_sample_quick(const gm_sampling *s) { return s && s->groups >= 1 && s->groups <= GM_SAMPLE_QUICK_MAX; }

/* The test that leaves a work-group out, in OpenCL C of the builtins alone. */
static void guard_text(const gm_sampling *s, char *buf, size_t len) {
    if (gm_sample_quick(s)) {
        snprintf(buf, len, " if (__clt_left_out()) return; ");
        return;
    }
    const char *g = "((ulong)get_group_id(0) + (ulong)get_num_groups(0) * ((ulong)get_group_id(1) + "
                    "(ulong)get_num_groups(1) * (ulong)get_group_id(2)))";
    const char *t = "((ulong)get_num_groups(0) * (ulong)get_num_groups(1) * (ulong)get_num_groups(2))";
    if (s->in_order) {
        snprintf(buf, len, " if (%s >= %uUL) return; ", g, s->groups);
        return;
    }
    /* evenly spread: the groups r = (g - offset) mod T with r a multiple of T/K, the first K of them */
    snprintf(buf, len,
             " if (%s > %uUL && ((((%s + %s - (%" PRIu64 "UL %% %s)) %% %s) %% (%s / %uUL)) != 0 || "
             "(((%s + %s - (%" PRIu64 "UL %% %s)) %% %s) / (%s / %uUL)) >= %uUL)) return; ",
             t, s->groups, g, t, s->draw, t, t, t, s->groups, g, t, s->draw, t, t, t, s->groups, s->groups);
}

/* Quick mode: the simulator runs only the first and the last work-group of
 * a launch (OCLGRIND_QUICK), so the work-group ids are permuted for the
 * kernel to see the chosen groups there: the launched group L is the group
 * (L + a) mod T, with the last one swapped for b. The same groups as the
 * guard above chooses: a = draw mod T (0 in order), b = a + T/2 (1 in
 * order). The builtins that tell a group apart are macros over the real
 * ones; `#line 1` keeps the kernel's own line numbers. */
static void quick_prelude(const gm_sampling *s, char *buf, size_t len) {
    char first[64], second[96];
    if (s->in_order) {
        snprintf(first, sizeof first, "0");
        snprintf(second, sizeof second, "1 %% t");
    } else {
        snprintf(first, sizeof first, "%" PRIu64 "UL %% t", s->draw);
        snprintf(second, sizeof second, "(%" PRIu64 "UL %% t + t / 2) %% t", s->draw);
    }
    snprintf(buf, len,
             "ulong __clt_groups(void) { return (ulong)get_num_groups(0) * get_num_groups(1) * get_num_groups(2); }\n"
             "ulong __clt_first(ulong t) { return %s; }\n"
             "ulong __clt_second(ulong t) { return %s; }\n"
             "ulong __clt_real(void) {\n"
             "  ulong t = __clt_groups(), a = __clt_first(t), b = __clt_second(t), last = (a + t - 1) %% t;\n"
             "  ulong r = ((ulong)get_group_id(0) + get_num_groups(0) * ((ulong)get_group_id(1) + get_num_groups(1) * "
             "get_group_id(2)) + a) %% t;\n"
             "  return %uU < 2 ? r : r == last ? b : r == b ? last : r;\n"
             "}\n"
             "int __clt_left_out(void) {\n"
             "  ulong t = __clt_groups(), r = __clt_real();\n"
             "  return t > %uUL && r != __clt_first(t) && (%uU < 2 || r != __clt_second(t));\n"
             "}\n"
             "size_t __clt_group_id(uint d) {\n"
             "  ulong r = __clt_real(), nx = get_num_groups(0), ny = get_num_groups(1);\n"
             "  return d == 0 ? r %% nx : d == 1 ? r / nx %% ny : d == 2 ? r / (nx * ny) : 0;\n"
             "}\n"
             "size_t __clt_global_id(uint d) {\n"
             "  return d < 3 ? __clt_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d) : 0;\n"
             "}\n"
             "#define get_group_id(d) __clt_group_id(d)\n"
             "#define get_global_id(d) __clt_global_id(d)\n"
             "#line 1\n",
             first, second, s->groups, s->groups, s->groups);
}

char *gm_sample_source(const char *src, const gm_sampling *s, char *err, size_t errlen) {
    char guard[2048], prelude[2048] = "";
    guard_text(s, guard, sizeof guard);
    if (gm_sample_quick(s)) quick_prelude(s, prelude, sizeof prelude);
    char *out = NULL;
    util_sappend(&out, "%s", prelude);
    const char *p = src, *copied = src;
    int line_start = 1, kernels = 0;
    while (*(p = skip_space(p, &line_start))) {
        line_start = 0;
        const char *e = skip_token(p);
        if (is_word(p, e, "__kernel") || is_word(p, e, "kernel")) {
            int decl = 0;
            const char *body = kernel_body(e, &decl);
            if (!body && !decl) {
                free(out);
                int line = 1;
                for (const char *q = src; q < p; q++) line += *q == '\n';
                util_errf(err, errlen, _("line %d: the kernel's name, parameters and opening brace must be written "
                                         "out, not made by a macro, to be analysed at a large size"), line);
                return NULL;
            }
            if (body) {
                util_sappend(&out, "%.*s%s", (int)(body - copied), copied, guard);
                copied = p = body;
                kernels++;
                continue;
            }
        }
        p = e;
    }
    if (!kernels) {
        free(out);
        util_errf(err, errlen, "%s", _("no __kernel function was found in the file"));
        return NULL;
    }
    util_sappend(&out, "%s", copied);
    return out;
}
