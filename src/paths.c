/* paths — where the course (lessons, kernels, starting files) and the
 * learner's workspace (edited exercises, progress) live. */
#define _DEFAULT_SOURCE
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CLT_DATADIR
#define CLT_DATADIR "/usr/local/share/cltutor"
#endif

static int has_course(const char *dir) {
    char p[1200];
    snprintf(p, sizeof p, "%s/lessons", dir);
    return util_is_dir(p);
}

int paths_init(paths *p, const char *workspace_opt, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    const char *env = getenv("CLTUTOR_DATA");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char tree[PATH_MAX] = "";
    if (n > 0) {
        exe[n] = '\0';
        /* build/cltutor in a source checkout: the course is one folder up */
        snprintf(tree, sizeof tree, "%s/..", dirname(exe));
        char *real = realpath(tree, NULL);
        if (real) {
            snprintf(tree, sizeof tree, "%s", real);
            free(real);
        }
    }
    if (env && *env) {
        if (!has_course(env)) {
            util_errf(err, errlen, "CLTUTOR_DATA=%s has no lessons/ folder", env);
            return -1;
        }
        snprintf(p->data, sizeof p->data, "%s", env);
    } else if (tree[0] && has_course(tree)) {
        snprintf(p->data, sizeof p->data, "%s", tree);
        char mk[1200];
        snprintf(mk, sizeof mk, "%s/Makefile", tree);
        p->in_source_tree = util_is_file(mk);
    } else if (has_course(CLT_DATADIR)) {
        snprintf(p->data, sizeof p->data, "%s", CLT_DATADIR);
    } else {
        util_errf(err, errlen, "cannot find the course (lessons/): set CLTUTOR_DATA to the folder "
                  "that holds lessons/, kernels/ and exercises/");
        return -1;
    }
    const char *ws = workspace_opt && *workspace_opt ? workspace_opt : getenv("CLTUTOR_WORKSPACE");
    if (ws && *ws) {
        snprintf(p->workspace, sizeof p->workspace, "%s", ws);
        p->in_source_tree = 0;
    } else if (p->in_source_tree) {
        snprintf(p->workspace, sizeof p->workspace, "%s", p->data);
    } else {
        const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
        if (xdg && *xdg) snprintf(p->workspace, sizeof p->workspace, "%s/cltutor", xdg);
        else if (home && *home) snprintf(p->workspace, sizeof p->workspace, "%s/.local/share/cltutor", home);
        else {
            util_errf(err, errlen, "no workspace: set CLTUTOR_WORKSPACE or HOME");
            return -1;
        }
    }
    return 0;
}

void paths_lessons(const paths *p, char *buf, size_t len) { snprintf(buf, len, "%s/lessons", p->data); }

void paths_starting(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/exercises/%s/%s", p->data, l->id, l->exercise);
}

int paths_reset_exercise(const paths *p, const lesson *l, const char *path, char *bak, size_t baklen, char *err,
                         size_t errlen) {
    char start[1400];
    paths_starting(p, l, start, sizeof start);
    size_t n_mine = 0, n_start = 0;
    char *mine = util_read_file(path, &n_mine), *orig = util_read_file(start, &n_start);
    int same = mine && orig && n_mine == n_start && !memcmp(mine, orig, n_mine), readable = orig != NULL;
    free(mine);
    free(orig);
    if (!readable) {
        util_errf(err, errlen, "%s: cannot read the starting file", start);
        return -1;
    }
    if (same) {
        if (baklen) bak[0] = '\0';
        return 1;
    }
    snprintf(bak, baklen, "%s.bak", path);
    for (int k = 2; access(bak, F_OK) == 0 && k < 1000; k++) snprintf(bak, baklen, "%s.bak.%d", path, k);
    if ((access(path, F_OK) == 0 && util_copy_file(path, bak) != 0) || util_copy_file(start, path) != 0) {
        util_errf(err, errlen, "cannot write %s or %s: %s", path, bak, strerror(errno));
        return -1;
    }
    return 0;
}

void paths_solution(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/kernels/%s/%s", p->data, l->id, l->exercise);
}

int paths_exercise(const paths *p, const lesson *l, char *buf, size_t len, char *err, size_t errlen) {
    return paths_exercise_file(p, l, l->exercise, buf, len, err, errlen);
}

int paths_exercise_file(const paths *p, const lesson *l, const char *file, char *buf, size_t len, char *err,
                        size_t errlen) {
    snprintf(buf, len, "%s/exercises/%s/%s", p->workspace, l->id, file);
    if (util_is_file(buf)) return 0;
    char dir[1200], start[1200];
    snprintf(dir, sizeof dir, "%s/exercises/%s", p->workspace, l->id);
    snprintf(start, sizeof start, "%s/exercises/%s/%s", p->data, l->id, file);
    if (util_mkdirs(dir) != 0 || util_copy_file(start, buf) != 0) {
        util_errf(err, errlen, "cannot create %s from %s", buf, start);
        return -1;
    }
    return 0;
}

int paths_state_dir(const paths *p, char *buf, size_t len) {
    snprintf(buf, len, "%s/.cltutor", p->workspace);
    return util_mkdirs(buf);
}
