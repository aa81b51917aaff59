/* catalog — the chapters: reads lessons/NN-slug/lesson.ini and finds a lesson by number or name. */
#define _DEFAULT_SOURCE
#include "course/catalog.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <dirent.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    lesson *l;
    char err[512];
} parse_ctx;

static void copy_field(char *dst, size_t len, const char *src) {
    snprintf(dst, len, "%s", src);
}

/* Splits a space-separated list into fixed-size slots; returns the count. */
static int split_words(const char *s, char (*out)[64], int max) {
    int n = 0;
    while (*s && n < max) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        size_t w = 0;
        while (s[w] && !isspace((unsigned char)s[w])) w++;
        snprintf(out[n], 64, "%.*s", (int)(w < 63 ? w : 63), s);
        n++;
        s += w;
    }
    return n;
}

/* A hint key (en.N or zh.N) of [hints] or [bug.NAME]; an indented
 * continuation line comes as the same key again. Returns 1, or 0 with err set. */
static int add_hint(lesson_hints *h, const char *section, const char *name, const char *value, char *err,
                    size_t errlen) {
    const char *dot = strchr(name, '.');
    int idx = dot ? atoi(dot + 1) : 0;
    if (!dot || idx < 1 || idx > LESSON_MAX_HINTS) {
        snprintf(err, errlen, _("[%s]: hint key '%s' should be en.N or zh.N with N in 1..%d"), section, name,
                 LESSON_MAX_HINTS);
        return 0;
    }
    char **slot = !strncmp(name, "en.", 3) ? &h->en[idx - 1] : !strncmp(name, "zh.", 3) ? &h->zh[idx - 1] : NULL;
    if (!slot) {
        snprintf(err, errlen, _("[%s]: hint key '%s': language must be en or zh"), section, name);
        return 0;
    }
    if (*slot && **slot && *value) {
        /* inih keeps a physical line under 200 bytes; no space between CJK text */
        size_t len = strlen(*slot);
        int glue = (unsigned char)(*slot)[len - 1] < 0x80 && (unsigned char)value[0] < 0x80;
        util_sappend(slot, "%s%s", glue ? " " : "", value);
    } else {
        free(*slot);
        *slot = util_strdup(value);
    }
    if (idx > h->n) h->n = idx;
    return 1;
}

static int on_entry(void *user, const char *section, const char *name, const char *value) {
    parse_ctx *pc = user;
    lesson *l = pc->l;
    if (strcmp(section, "lesson") == 0) {
        if (!strcmp(name, "title")) copy_field(l->title, sizeof l->title, value);
        else if (!strcmp(name, "title_zh")) copy_field(l->title_zh, sizeof l->title_zh, value);
        else if (!strcmp(name, "summary")) copy_field(l->summary, sizeof l->summary, value);
        else if (!strcmp(name, "problem")) copy_field(l->problem, sizeof l->problem, value);
        else if (!strcmp(name, "exercise")) copy_field(l->exercise, sizeof l->exercise, value);
        else if (!strcmp(name, "kernels")) l->n_kernels = split_words(value, l->kernels, LESSON_MAX_KERNELS);
        else if (!strcmp(name, "default_size")) copy_field(l->default_size, sizeof l->default_size, value);
        else if (!strcmp(name, "bench_size")) copy_field(l->bench_size, sizeof l->bench_size, value);
        else if (!strcmp(name, "check_sizes"))
            l->n_check_sizes = split_words(value, l->check_sizes, LESSON_MAX_SIZES);
        else if (!strcmp(name, "previous")) l->previous = atoi(value);
        else {
            if (l->n_params >= LESSON_MAX_PARAMS) {
                snprintf(pc->err, sizeof pc->err, _("too many keys in [lesson] (at '%s')"), name);
                return 0;
            }
            lesson_param *p = &l->params[l->n_params++];
            copy_field(p->key, sizeof p->key, name);
            copy_field(p->value, sizeof p->value, value);
        }
        return 1;
    }
    if (strcmp(section, "hints") == 0) return add_hint(&l->hints, section, name, value, pc->err, sizeof pc->err);
    if (strncmp(section, "bug.", 4) == 0 && section[4]) {
        lesson_bug *b = NULL;
        for (int i = 0; i < l->n_bugs; i++)
            if (!strcmp(l->bugs[i].name, section + 4)) b = &l->bugs[i];
        if (!b) {
            if (l->n_bugs >= LESSON_MAX_BUGS) {
                snprintf(pc->err, sizeof pc->err, _("more than %d [bug.*] sections"), LESSON_MAX_BUGS);
                return 0;
            }
            b = &l->bugs[l->n_bugs++];
            copy_field(b->name, sizeof b->name, section + 4);
        }
        if (!strcmp(name, "file")) copy_field(b->file, sizeof b->file, value);
        else if (!strcmp(name, "exposes")) copy_field(b->exposes, sizeof b->exposes, value);
        else if (!strcmp(name, "title")) copy_field(b->title, sizeof b->title, value);
        else if (!strcmp(name, "title_zh")) copy_field(b->title_zh, sizeof b->title_zh, value);
        else if (!strncmp(name, "en.", 3) || !strncmp(name, "zh.", 3))
            return add_hint(&b->hints, section, name, value, pc->err, sizeof pc->err);
        else if (!strcmp(name, "max_changed_lines")) {
            char *end;
            long v = strtol(value, &end, 10);
            if (end == value || *end || v < 1 || v > 1000) {
                snprintf(pc->err, sizeof pc->err, _("[%s] max_changed_lines: '%s' is not a number from 1 to 1000"),
                         section, value);
                return 0;
            }
            b->max_changed_lines = (int)v;
        } else {
            snprintf(pc->err, sizeof pc->err,
                     _("unknown key '%s' in [%s] (file, exposes, title, title_zh, max_changed_lines, en.N, zh.N)"), name, section);
            return 0;
        }
        return 1;
    }
    snprintf(pc->err, sizeof pc->err, _("unknown section [%s] (use [lesson], [hints] or [bug.NAME])"), section);
    return 0;
}

/* Whether line n of the file is one inih cuts (it reads 199 bytes a line and reports the rest as a syntax error). */
static int line_too_long(const char *path, int n) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int line = 1, len = 0, c, longest = 0;
    while ((c = fgetc(f)) != EOF && line <= n) {
        if (c == '\n') {
            if (line == n || line == n - 1) longest = len > longest ? len : longest;
            line++, len = 0;
        } else len++;
    }
    if (line == n && len > longest) longest = len;
    fclose(f);
    return longest >= 199;
}

int lesson_load(lesson *l, const char *dir, const char *id, char *err, size_t errlen) {
    memset(l, 0, sizeof *l);
    copy_field(l->dir, sizeof l->dir, dir);
    copy_field(l->id, sizeof l->id, id);
    l->number = atoi(id);
    const char *dash = strchr(id, '-');
    copy_field(l->slug, sizeof l->slug, dash ? dash + 1 : id);

    char path[1200];
    snprintf(path, sizeof path, "%s/lesson.ini", dir);
    parse_ctx pc = {.l = l};
    int rc = ini_parse(path, on_entry, &pc);
    if (rc < 0) {
        util_errf(err, errlen, _("%s: cannot read the file"), path);
        lesson_free(l);
        return -1;
    }
    if (rc > 0) {
        if (line_too_long(path, rc)) /* inih reads the rest of the line as another line: its error misleads */
            util_copy_text(pc.err, sizeof pc.err, _("the line is longer than inih reads (199 bytes): continue a long value on "
                                                    "indented lines"));
        util_errf(err, errlen, "%s:%d: %s", path, rc, pc.err[0] ? pc.err : _("syntax error"));
        lesson_free(l);
        return -1;
    }
    const char *missing = !l->title[0] ? "title" : !l->problem[0] ? "problem"
                        : !l->exercise[0] ? "exercise" : !l->n_kernels ? "kernels"
                        : !l->default_size[0] ? "default_size" : NULL;
    if (missing) {
        util_errf(err, errlen, _("%s: the [lesson] section has no '%s' key"), path, missing);
        lesson_free(l);
        return -1;
    }
    for (int i = 0; i < l->n_bugs; i++)
        if (!l->bugs[i].file[0] || !l->bugs[i].exposes[0]) {
            util_errf(err, errlen, _("%s: [bug.%s] needs both 'file' and 'exposes'"), path, l->bugs[i].name);
            lesson_free(l);
            return -1;
        }
    if (!l->bench_size[0]) copy_field(l->bench_size, sizeof l->bench_size, l->default_size);
    if (!l->n_check_sizes) {
        copy_field(l->check_sizes[0], sizeof l->check_sizes[0], l->default_size);
        l->n_check_sizes = 1;
    }
    return 0;
}

static void hints_free(lesson_hints *h) {
    for (int i = 0; i < LESSON_MAX_HINTS; i++) {
        free(h->en[i]);
        free(h->zh[i]);
    }
    memset(h, 0, sizeof *h);
}

void lesson_free(lesson *l) {
    hints_free(&l->hints);
    for (int b = 0; b < l->n_bugs; b++) hints_free(&l->bugs[b].hints);
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_lesson_dir_name(const char *n) {
    return isdigit((unsigned char)n[0]) && isdigit((unsigned char)n[1]) && n[2] == '-' && n[3];
}

int catalog_load(catalog *c, const char *root, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    copy_field(c->root, sizeof c->root, root);
    DIR *d = opendir(root);
    if (!d) {
        util_errf(err, errlen, _("%s: cannot open the lessons folder"), root);
        return -1;
    }
    char *names[CATALOG_MAX];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < CATALOG_MAX)
        if (is_lesson_dir_name(e->d_name)) names[n++] = util_strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    c->items = calloc((size_t)(n ? n : 1), sizeof(lesson));
    char first[1024] = "";
    for (int i = 0; i < n; i++) {
        char dir[1200], why[1024];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        if (lesson_load(&c->items[c->count], dir, names[i], why, sizeof why) == 0) {
            c->count++;
        } else {
            if (!first[0]) snprintf(first, sizeof first, "%s", why);
            size_t used = strlen(c->skipped);
            snprintf(c->skipped + used, sizeof c->skipped - used, "%s\n", why);
            c->n_skipped++;
        }
        free(names[i]);
    }
    if (c->count == 0) {
        if (first[0]) util_errf(err, errlen, "%s", first);
        else util_errf(err, errlen, _("%s: no lesson folders (NN-name) found"), root);
        catalog_free(c);
        return -1;
    }
    return 0;
}

void catalog_free(catalog *c) {
    for (int i = 0; i < c->count; i++) lesson_free(&c->items[i]);
    free(c->items);
    c->items = NULL;
    c->count = 0;
}

const lesson *catalog_by_number(const catalog *c, int number) {
    for (int i = 0; i < c->count; i++)
        if (c->items[i].number == number) return &c->items[i];
    return NULL;
}

const lesson *catalog_find(const catalog *c, const char *spec) {
    if (!spec || !*spec) return NULL;
    int all_digits = 1;
    for (const char *p = spec; *p; p++)
        if (!isdigit((unsigned char)*p)) all_digits = 0;
    if (all_digits && strlen(spec) <= 3) return catalog_by_number(c, atoi(spec));
    for (int i = 0; i < c->count; i++)
        if (!strcmp(c->items[i].id, spec) || !strcmp(c->items[i].slug, spec)) return &c->items[i];
    /* a trailing slash or a path such as lessons/02-atomic */
    const char *base = strrchr(spec, '/');
    if (base && base[1] == '\0') {
        char tmp[128];
        snprintf(tmp, sizeof tmp, "%.*s", (int)(base - spec), spec);
        return catalog_find(c, tmp);
    }
    if (base) return catalog_find(c, base + 1);
    return NULL;
}

const char *lesson_param_get(const lesson *l, const char *key, const char *def) {
    for (int i = 0; i < l->n_params; i++)
        if (!strcmp(l->params[i].key, key)) return l->params[i].value;
    return def;
}

long lesson_param_long(const lesson *l, const char *key, long def) {
    const char *v = lesson_param_get(l, key, NULL);
    return v ? strtol(v, NULL, 10) : def;
}

void lesson_text_path(const lesson *l, const char *lang, char *buf, size_t len) {
    snprintf(buf, len, "%s/lesson.%s.md", l->dir, lang && !strcmp(lang, "zh") ? "zh" : "en");
}
