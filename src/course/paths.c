/* paths — where the course (lessons, kernels, starting files) and the
 * learner's workspace (edited exercises, progress) live. */
#define _DEFAULT_SOURCE
#include "course/paths.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/kcomment.h"

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

/* The canonical form of dir/rel in out (unchanged when it does not
 * exist); "" when it is too long to hold. */
static void resolve(const char *dir, const char *rel, char *out, size_t len) {
    char joined[PATH_MAX + 64];
    if (util_pathf(joined, sizeof joined, "%s/%s", dir, rel) != 0) {
        out[0] = '\0';
        return;
    }
    char *real = realpath(joined, NULL);
    util_pathf(out, len, "%s", real ? real : joined);
    free(real);
}

static int find_course(paths *p, char *err, size_t errlen) {
    const char *env = getenv("CLTUTOR_DATA");
    char tree[PATH_MAX] = "", share[PATH_MAX] = "";
    if (p->exe_dir[0]) {
        resolve(p->exe_dir, "..", tree, sizeof tree);                 /* build/cltutor in a checkout */
        resolve(p->exe_dir, "../share/cltutor", share, sizeof share); /* PREFIX/bin/cltutor */
    }
    if (env && *env) {
        if (!has_course(env)) {
            util_errf(err, errlen, _("CLTUTOR_DATA=%s has no lessons/ folder: point it at the folder that holds "
                      "lessons/ and exercises/, or unset it"), env);
            return -1;
        }
        if (util_pathf(p->data, sizeof p->data, "%s", env) != 0) {
            util_errf(err, errlen, _("CLTUTOR_DATA is longer than the %zu bytes a course folder may have: move the "
                      "course to a shorter path"), sizeof p->data - 1);
            return -1;
        }
    } else if (tree[0] && has_course(tree) && util_pathf(p->data, sizeof p->data, "%s", tree) == 0) {
        char mk[PATH_MAX + 16];
        snprintf(mk, sizeof mk, "%s/Makefile", tree);
        p->in_source_tree = util_is_file(mk);
    } else if (share[0] && has_course(share) && util_pathf(p->data, sizeof p->data, "%s", share) == 0) {
    } else if (has_course(CLT_DATADIR)) {
        snprintf(p->data, sizeof p->data, "%s", CLT_DATADIR);
    } else {
        util_errf(err, errlen, _("cannot find the course (lessons/) in %s or %s: reinstall cltutor, or set "
                  "CLTUTOR_DATA to the folder that holds lessons/ and exercises/"),
                  share[0] ? share : "../share/cltutor", CLT_DATADIR);
        return -1;
    }
    return 0;
}

static int per_user_workspace(paths *p, char *err, size_t errlen) {
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    p->origin = WS_PER_USER;
    if (xdg && *xdg == '/') snprintf(p->workspace, sizeof p->workspace, "%s/cltutor", xdg);
    else if (home && *home) snprintf(p->workspace, sizeof p->workspace, "%s/.local/share/cltutor", home);
    else {
        util_errf(err, errlen, "%s", _("no workspace: set CLTUTOR_WORKSPACE or HOME"));
        return -1;
    }
    return 0;
}

int paths_init(paths *p, const char *workspace_opt, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    if (util_exe_dir(p->exe_dir, sizeof p->exe_dir) != 0) p->exe_dir[0] = '\0';
    if (find_course(p, err, errlen) != 0) return -1;
    const char *env_ws = getenv("CLTUTOR_WORKSPACE");
    if (workspace_opt && *workspace_opt) {
        snprintf(p->workspace, sizeof p->workspace, "%s", workspace_opt);
        p->origin = WS_FROM_OPTION;
        return 0;
    }
    if (env_ws && *env_ws) {
        snprintf(p->workspace, sizeof p->workspace, "%s", env_ws);
        p->origin = WS_FROM_ENV;
        return 0;
    }
    if (p->in_source_tree) {
        /* a checkout the learner owns keeps the work beside it, git-ignored;
         * a shared, read-only one (a lab) sends each learner to their own */
        char ws[1200];
        snprintf(ws, sizeof ws, "%s/workspace", p->data);
        if ((util_is_dir(ws) ? access(ws, W_OK | X_OK) == 0 : access(p->data, W_OK | X_OK) == 0) &&
            util_pathf(p->workspace, sizeof p->workspace, "%s", ws) == 0) {
            p->origin = WS_IN_TREE;
            return 0;
        }
        p->tree_read_only = 1;
    }
    return per_user_workspace(p, err, errlen);
}

void paths_lessons(const paths *p, char *buf, size_t len) { snprintf(buf, len, "%s/lessons", p->data); }

void paths_starting(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/exercises/%s/%s", p->data, l->id, l->exercise);
}

static const char *comment_in_language(void *ctx, const char *msgid) {
    (void)ctx;
    return i18n_ctr(KCOMMENT_CONTEXT, msgid);
}

/* The shipped file itself (as_shipped) or as the learner gets it. */
static char *starting_text(const paths *p, const lesson *l, const char *file, int as_shipped) {
    char start[1400];
    snprintf(start, sizeof start, "%s/exercises/%s/%s", p->data, l->id, file ? file : l->exercise);
    char *shipped = util_read_file(start, NULL);
    if (!shipped || as_shipped) return shipped;
    char *mine = kcomment_translate(shipped, comment_in_language, NULL);
    free(shipped);
    return mine;
}

char *paths_starting_text(const paths *p, const lesson *l, const char *file) {
    return starting_text(p, l, file, 0);
}

int paths_is_starting_text(const paths *p, const lesson *l, const char *file, const char *text) {
    int same = 0;
    for (int shipped = 0; shipped < 2 && !same && text; shipped++) {
        char *t = starting_text(p, l, file, shipped);
        same = t && !strcmp(t, text);
        free(t);
    }
    return same;
}

void paths_starting_hashes(const paths *p, const lesson *l, unsigned long long hashes[2]) {
    for (int shipped = 0; shipped < 2; shipped++) {
        char *t = starting_text(p, l, NULL, shipped);
        hashes[shipped] = t ? util_hash_text(t) : 0;
        free(t);
    }
}

int paths_reset_exercise(const paths *p, const lesson *l, const char *path, char *bak, size_t baklen, char *err,
                         size_t errlen) {
    char *mine = util_read_file(path, NULL), *orig = paths_starting_text(p, l, NULL);
    int same = mine && orig && !strcmp(mine, orig);
    free(mine);
    if (!orig) {
        char start[1400];
        paths_starting(p, l, start, sizeof start);
        util_errf(err, errlen, _("%s: cannot read the starting file"), start);
        return -1;
    }
    if (same) {
        free(orig);
        if (baklen) bak[0] = '\0';
        return 1;
    }
    snprintf(bak, baklen, "%s.bak", path);
    for (int k = 2; access(bak, F_OK) == 0 && k < 1000; k++) snprintf(bak, baklen, "%s.bak.%d", path, k);
    int failed = (access(path, F_OK) == 0 && util_copy_file(path, bak) != 0) ||
                 util_write_file_atomic(path, orig, strlen(orig)) != 0;
    free(orig);
    if (failed) {
        util_errf(err, errlen, _("cannot write %s or %s: %s"), path, bak, strerror(errno));
        return -1;
    }
    return 0;
}

int paths_solution(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/kernels/%s/%s", p->data, l->id, l->exercise);
    return paths_have_solutions(p) ? 0 : -1;
}

int paths_have_solutions(const paths *p) {
    char k[1200];
    snprintf(k, sizeof k, "%s/kernels", p->data);
    return util_is_dir(k);
}

void paths_exercise_path(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/exercises/%s/%s", p->workspace, l->id, l->exercise);
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
    char *text = paths_starting_text(p, l, file);
    int failed = !text || util_mkdirs(dir) != 0 || util_write_file_atomic(buf, text, strlen(text)) != 0;
    free(text);
    if (failed) {
        util_errf(err, errlen, _("cannot create %s from %s"), buf, start);
        return -1;
    }
    return 0;
}

void paths_passed_copy(const paths *p, const lesson *l, char *buf, size_t len) {
    snprintf(buf, len, "%s/.cltutor/passed/%s/%s", p->workspace, l->id, l->exercise);
}

int paths_keep_passed(const paths *p, const lesson *l, const char *text) {
    char path[1400], dir[1400];
    paths_passed_copy(p, l, path, sizeof path);
    snprintf(dir, sizeof dir, "%s/.cltutor/passed/%s", p->workspace, l->id);
    return text && util_mkdirs(dir) == 0 && util_write_file_atomic(path, text, strlen(text)) == 0 ? 0 : -1;
}

int paths_state_dir(const paths *p, char *buf, size_t len) {
    snprintf(buf, len, "%s/.cltutor", p->workspace);
    return util_mkdirs(buf);
}
