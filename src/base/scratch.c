/* scratch — a private temporary folder for a command and every process it starts, removed when the command ends, also on SIGINT or SIGTERM. */
#define _GNU_SOURCE
#include "base/scratch.h"
#include "base/util.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    if (flag == FTW_DNR || flag == FTW_D || flag == FTW_DP) chmod(path, 0700); /* a folder made unreadable */
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

int scratch_remove(const char *dir) {
    if (!dir || !*dir || !strcmp(dir, "/")) return -1;
    return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Reaps every child that has ended, noting the main child's status. Returns
 * 1 while children remain, 0 when there are none. */
static int reap(pid_t main_pid, int *main_status, int *main_done) {
    for (;;) {
        int st;
        pid_t w = waitpid(-1, &st, WNOHANG);
        if (w > 0) {
            if (w == main_pid) {
                *main_status = st;
                *main_done = 1;
            }
            continue;
        }
        return w == 0;
    }
}

int scratch_run(const char *prefix, scratch_fn fn, void *arg, char *err, size_t errlen) {
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    if (!mkdtemp(dir)) {
        util_errf(err, errlen, "cannot create a temporary folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
                  strerror(errno));
        return -1;
    }
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);
    int was_reaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &was_reaper);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of the run come back here, to be waited for */
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        util_errf(err, errlen, "cannot start a process: %s", strerror(errno));
        prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
        sigprocmask(SIG_SETMASK, &old, NULL);
        scratch_remove(dir);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(128 + SIGKILL); /* it died before the line above */
        sigprocmask(SIG_SETMASK, &old, NULL);
        setenv("TMPDIR", dir, 1);
        int code = fn(arg, dir);
        fflush(stdout);
        fflush(stderr);
        _exit(code);
    }
    int status = 0, done = 0, got = 0;
    while (!done && !got) {
        siginfo_t si;
        int sig = sigwaitinfo(&set, &si);
        if (sig == SIGCHLD) reap(pid, &status, &done);
        else if (sig > 0) got = sig;
    }
    if (got && !done) kill(pid, SIGKILL); /* its workers and graders die with their parents */
    /* wait for every process of the run (orphans come back here), at most a minute */
    struct timespec step = {0, 100 * 1000 * 1000};
    for (int i = 0; i < 600 && reap(pid, &status, &done); i++) {
        int sig = sigtimedwait(&set, NULL, &step);
        if (sig > 0 && sig != SIGCHLD && !got) {
            got = sig;
            if (!done) kill(pid, SIGKILL);
        }
    }
    scratch_remove(dir);
    prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
    /* signals that came while the run ended are dropped: it is over */
    struct timespec zero = {0, 0};
    while (sigtimedwait(&set, NULL, &zero) > 0) {}
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (got) return 128 + got;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}
