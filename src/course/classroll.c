/* classroll — a class's progress, read from the students' own workspaces */
#define _DEFAULT_SOURCE
#include "course/classroll.h"

#include "base/util.h"
#include "text/i18n.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASSROLL_HOME_WORKSPACE ".local/share/cltutor" /* where an installed course keeps a learner's work */

void classroll_init(classroll *c, const catalog *cat) {
    memset(c, 0, sizeof *c);
    c->cat = cat;
}

/* The workspace of dir, in ws: dir itself, or the installed course's under a home (the student is then
 * the home's owner, named by its folder). 0, or -1 none. */
static int workspace_of(const char *dir, char *ws, size_t len) {
    char probe[1400];
    if (util_pathf(probe, sizeof probe, "%s/.cltutor/progress.json", dir) == 0 && util_is_file(probe))
        return snprintf(ws, len, "%s", dir) < (int)len ? 0 : -1;
    if (util_pathf(probe, sizeof probe, "%s/" CLASSROLL_HOME_WORKSPACE "/.cltutor/progress.json", dir) == 0 &&
        util_is_file(probe))
        return util_pathf(ws, len, "%s/" CLASSROLL_HOME_WORKSPACE, dir);
    return -1;
}

/* The last component of a path, without trailing slashes. */
static void base_name(const char *path, char *out, size_t len) {
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/') end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/') start--;
    snprintf(out, len, "%.*s", (int)(end - start), path + start);
}

/* Reads one student's progress and what it says of each chapter now. */
static void read_student(classroll *c, classroll_student *s) {
    char path[1400];
    util_pathf(path, sizeof path, "%s/.cltutor/progress.json", s->workspace);
    if (progress_read(&s->prog, path, c->cat, s->error, sizeof s->error) != 0) return;
    for (int i = 0; i < c->cat->count && i < CATALOG_MAX; i++) {
        const lesson *l = &c->cat->items[i];
        const progress_chapter *pc = progress_find(&s->prog, l->id);
        s->state[i] = pc ? pc->state : PROG_NOT_STARTED;
        if (s->state[i] == PROG_PASSED) {
            char file[1400];
            util_pathf(file, sizeof file, "%s/exercises/%s/%s", s->workspace, l->id, l->exercise);
            s->state[i] = progress_state_of_file(pc, file);
        }
        s->passed += s->state[i] == PROG_PASSED;
        s->runs[i] = pc ? pc->n_runs : 0;
        for (int r = 0; pc && r < pc->n_runs; r++)
            if (pc->runs[r].when > s->last_when) s->last_when = pc->runs[r].when;
    }
}

static int add_one(classroll *c, const char *ws, const char *name) {
    classroll_student *more = realloc(c->items, sizeof *more * (size_t)(c->count + 1));
    if (!more) return -1;
    c->items = more;
    classroll_student *s = &c->items[c->count++];
    memset(s, 0, sizeof *s);
    snprintf(s->workspace, sizeof s->workspace, "%s", ws);
    snprintf(s->name, sizeof s->name, "%s", name);
    read_student(c, s);
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const classroll_student *)a)->name, ((const classroll_student *)b)->name);
}

int classroll_add(classroll *c, const char *dir, char *err, size_t errlen) {
    if (!util_is_dir(dir)) {
        util_errf(err, errlen, _("%s is not a folder: give a student's workspace, a home, or a folder of them"), dir);
        return -1;
    }
    char ws[1400], name[256];
    if (workspace_of(dir, ws, sizeof ws) == 0) {
        base_name(dir, name, sizeof name);
        return add_one(c, ws, name) == 0 ? 1 : -1;
    }
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, alphasort), added = 0;
    for (int i = 0; i < n; i++) {
        char sub[1400];
        if (entries[i]->d_name[0] != '.' && util_pathf(sub, sizeof sub, "%s/%s", dir, entries[i]->d_name) == 0 &&
            util_is_dir(sub) && workspace_of(sub, ws, sizeof ws) == 0 &&
            add_one(c, ws, entries[i]->d_name) == 0)
            added++;
        free(entries[i]);
    }
    free(entries);
    if (added == 0)
        util_errf(err, errlen, _("%s holds no cltutor workspace (a folder with .cltutor/progress.json, a home with "
                                 "%s, or folders of them)"), dir, CLASSROLL_HOME_WORKSPACE);
    return added ? added : -1;
}

void classroll_sort(classroll *c) {
    if (c->count > 1) qsort(c->items, (size_t)c->count, sizeof *c->items, by_name);
}

void classroll_free(classroll *c) {
    for (int i = 0; i < c->count; i++) progress_free(&c->items[i].prog);
    free(c->items);
    memset(c, 0, sizeof *c);
}
