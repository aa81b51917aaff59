/* workspace — makes the learner's folder ready: creates it, and moves work
 * from the old layout (edits made inside the course's exercises/, progress
 * in the checkout's .cltutor/) into it, once, losing nothing. */
#define _DEFAULT_SOURCE
#include "course/workspace.h"
#include "base/util.h"
#include "text/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MARKER ".cltutor/layout"

/* Runs argv, its standard output into *out (malloc'd); the exit status, -1 when it cannot run. */
static int run_capture(char *const argv[], char **out, size_t *out_len) {
    int fds[2];
    *out = NULL;
    *out_len = 0;
    if (pipe(fds) != 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    size_t cap = 0;
    for (;;) {
        if (*out_len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *grown = realloc(*out, cap);
            if (!grown) break;
            *out = grown;
        }
        ssize_t n = read(fds[0], *out + *out_len, cap - *out_len - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        *out_len += (size_t)n;
    }
    if (*out) (*out)[*out_len] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int parent_dirs(const char *file) {
    char dir[1400];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = '\0';
    return util_mkdirs(dir);
}

/* One file of the checkout's exercises/ that git reports changed: the
 * learner's version goes into the workspace, then the course's comes back. */
static int move_one(const paths *p, char code_x, char code_y, const char *rel, workspace_news *news) {
    char from[1400], to[1400];
    if (util_pathf(from, sizeof from, "%s/%s", p->data, rel) != 0 ||
        util_pathf(to, sizeof to, "%s/%s", p->workspace, rel) != 0) {
        util_errf(news->error, sizeof news->error, _("the path of exercises/%s is too long to move: nothing was moved; "
                  "move the checkout to a shorter path and run cltutor again"), rel);
        return -1;
    }
    int untracked = code_x == '?' || code_x == '!', deleted = code_y == 'D' || code_x == 'D';
    if (!deleted) {
        if (util_is_file(to)) {
            /* the workspace has its own copy already: keep both */
            char base[1400];
            snprintf(base, sizeof base, "%s", to);
            int bad = util_pathf(to, sizeof to, "%s.from-course", base);
            for (int k = 2; !bad && util_is_file(to) && k < 1000; k++)
                bad = util_pathf(to, sizeof to, "%s.from-course-%d", base, k);
            if (bad) {
                util_errf(news->error, sizeof news->error, _("the path of %s is too long to keep both copies: nothing "
                          "was moved; move the checkout to a shorter path and run cltutor again"), base);
                return -1;
            }
        }
        if (parent_dirs(to) != 0 || util_copy_file(from, to) != 0) {
            util_errf(news->error, sizeof news->error, _("cannot copy %s to %s (%s): nothing was moved; fix it and "
                      "run cltutor again"), from, to, strerror(errno));
            return -1;
        }
        news->moved++;
    }
    if (untracked) return unlink(from) == 0 ? 0 : -1;
    char *argv[] = {"git", "-C", (char *)p->data, "checkout", "-q", "HEAD", "--", (char *)rel, NULL};
    char *out;
    size_t len;
    int rc = run_capture(argv, &out, &len);
    free(out);
    return rc == 0 ? 0 : -1;
}

/* Whether git tracks a file in the chapter folder of rel ("exercises/02-atomic/notes.txt"):
 * tracked holds `git ls-files -z` of exercises/. An untracked file in a folder git does
 * not know is a new chapter an author is writing, not a learner's edit. */
static int chapter_tracked(const char *tracked, size_t len, const char *rel) {
    const char *slash = strchr(rel, '/');
    slash = slash ? strchr(slash + 1, '/') : NULL;
    if (!slash) return 1; /* a file directly in exercises/ */
    size_t dir = (size_t)(slash - rel) + 1;
    for (size_t at = 0; at < len; at += strlen(tracked + at) + 1)
        if (!strncmp(tracked + at, rel, dir)) return 1;
    return 0;
}

/* Edits made in the checkout's own exercises/ (the layout before the
 * workspace existed), as git sees them. */
static int move_tree_edits(const paths *p, workspace_news *news) {
    char git[1200];
    snprintf(git, sizeof git, "%s/.git", p->data);
    if (access(git, F_OK) != 0) return 0;
    char *argv[] = {"git", "-C", (char *)p->data, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored",
                    "--", "exercises", NULL};
    char *out;
    size_t len;
    if (run_capture(argv, &out, &len) != 0 || !out) {
        free(out);
        return 0; /* no git here: there is nothing it can tell apart */
    }
    char *ls[] = {"git", "-C", (char *)p->data, "ls-files", "-z", "--", "exercises", NULL};
    char *tracked = NULL;
    size_t tracked_len = 0;
    if (run_capture(ls, &tracked, &tracked_len) != 0) tracked_len = 0;
    int rc = 0;
    for (size_t at = 0; at + 3 < len && rc == 0;) {
        const char *entry = out + at;
        size_t n = strlen(entry);
        at += n + 1;
        if (n < 4) continue;
        if (entry[0] == 'R' || entry[0] == 'C') at += strlen(out + at) + 1; /* the rename's old name follows */
        int untracked = entry[0] == '?' || entry[0] == '!';
        if (untracked && !chapter_tracked(tracked, tracked_len, entry + 3)) continue; /* an author's new chapter */
        rc = move_one(p, entry[0], entry[1], entry + 3, news);
    }
    free(tracked);
    free(out);
    return rc;
}

/* The checkout's .cltutor/ (progress, preferences) from the old layout. */
static int move_tree_state(const paths *p, workspace_news *news) {
    char old[1200], new_dir[1200];
    snprintf(old, sizeof old, "%s/.cltutor", p->data);
    snprintf(new_dir, sizeof new_dir, "%s/.cltutor", p->workspace);
    if (!util_is_dir(old) || util_is_dir(new_dir)) return 0;
    if (rename(old, new_dir) != 0) {
        util_errf(news->error, sizeof news->error, _("cannot move %s to %s (%s)"), old, new_dir, strerror(errno));
        return -1;
    }
    news->moved_progress = 1;
    return 0;
}

void workspace_moved_text(char *buf, size_t len, const char *workspace, const workspace_news *news) {
    if (news->moved_progress)
        snprintf(buf, len, P_("Your work now lives in %s, apart from the course: %d edited file from the course's "
                              "exercises/ and your progress moved there, and the course's own starting files are "
                              "back in place.",
                              "Your work now lives in %s, apart from the course: %d edited files from the course's "
                              "exercises/ and your progress moved there, and the course's own starting files are "
                              "back in place.", (unsigned long long)news->moved),
                 workspace, news->moved);
    else
        snprintf(buf, len, P_("Your work now lives in %s, apart from the course: %d edited file from the course's "
                              "exercises/ moved there, and the course's own starting files are back in place.",
                              "Your work now lives in %s, apart from the course: %d edited files from the course's "
                              "exercises/ moved there, and the course's own starting files are back in place.",
                              (unsigned long long)news->moved),
                 workspace, news->moved);
}

int workspace_prepare(const paths *p, workspace_news *news) {
    memset(news, 0, sizeof *news);
    if (util_mkdirs_private(p->workspace) != 0) {
        util_errf(news->error, sizeof news->error, _("cannot create the workspace %s (%s): choose another with "
                  "--workspace DIR or CLTUTOR_WORKSPACE"), p->workspace, strerror(errno));
        return -1;
    }
    if (p->origin != WS_IN_TREE) return 0;
    char marker[1200];
    snprintf(marker, sizeof marker, "%s/" MARKER, p->workspace);
    if (util_is_file(marker)) return 0;
    if (move_tree_state(p, news) != 0 || move_tree_edits(p, news) != 0) return -1;
    char state[1200];
    snprintf(state, sizeof state, "%s/.cltutor", p->workspace);
    static const char text[] = "2\n"; /* the layout: a workspace apart from the course */
    if (util_mkdirs(state) != 0 || util_write_file_atomic(marker, text, sizeof text - 1) != 0) return 0;
    return 0;
}
