/* wproto_warm — one worker started ahead, held until a run takes it. */
#define _GNU_SOURCE
#include "run/wproto_warm.h"
#include "run/confine.h"
#include "run/wproto.h"
#include "base/util.h"
#include "text/i18n.h"

#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

void wproto_warm_init(wproto_warm *w) {
    memset(w, 0, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    w->request_fd = -1;
}

static uint64_t environment_hash(char **envp) {
    uint64_t h = 0;
    for (size_t i = 0; envp && envp[i]; i++) h = h * 1000003u ^ util_hash64(envp[i], strlen(envp[i]));
    return h;
}

static uint64_t current_environment_hash(void) {
    char **envp = wproto_environment();
    uint64_t h = environment_hash(envp);
    wproto_environment_free(envp);
    return h;
}

/* Ends the held worker and removes its folder; under w->mu. */
static void drop_held(wproto_warm *w) {
    if (!w->child.pid) return;
    sandbox_discard(&w->child);
    if (w->request_fd >= 0) close(w->request_fd);
    w->request_fd = -1;
    util_remove_tree(w->scratch);
    w->scratch[0] = '\0';
}

/* Whether the held worker is alive and was started for spec in this environment; under w->mu. */
static int held_suits(const wproto_warm *w, const char *spec, uint64_t env_hash) {
    return w->child.pid && sandbox_alive(&w->child) && !strcmp(w->device_spec, spec ? spec : "") &&
           w->env_hash == env_hash;
}

int wproto_warm_start(wproto_warm *w, const char *device_spec, char *err, size_t errlen) {
    char exe[PATH_MAX];
    if (wproto_find_worker(exe, sizeof exe, err, errlen) != 0) return -1;
    char **envp = wproto_environment();
    if (!envp) {
        util_errf(err, errlen, "%s", _("out of memory"));
        return -1;
    }
    uint64_t env_hash = environment_hash(envp);
    int rc = 0;
    pthread_mutex_lock(&w->mu);
    if (!held_suits(w, device_spec, env_hash)) {
        drop_held(w);
        /* as for any run: without Landlock only this keeps a worker from reading this process's memory */
        if (confine_landlock_abi() == 0) prctl(PR_SET_DUMPABLE, 0);
        snprintf(w->device_spec, sizeof w->device_spec, "%s", device_spec ? device_spec : "");
        w->env_hash = env_hash;
        rc = wproto_make_scratch(w->scratch, sizeof w->scratch, err, errlen);
        if (rc == 0 && (w->request_fd = wproto_open_request(w->scratch)) < 0) {
            util_errf(err, errlen, _("cannot write the worker's request in %s"), w->scratch);
            rc = -1;
        }
        char *const argv[] = {exe, WPROTO_MODE, WPROTO_WARM, w->scratch, w->device_spec, NULL};
        sandbox_limits none = {0}; /* the worker sets its run's limits once it has its request */
        if (rc == 0 && sandbox_spawn(exe, argv, envp, w->request_fd, &none, &w->child) != 0) {
            util_errf(err, errlen, "%s", _("fork failed"));
            rc = -1;
        }
        if (rc != 0) {
            if (w->request_fd >= 0) close(w->request_fd);
            w->request_fd = -1;
            if (w->scratch[0]) util_remove_tree(w->scratch);
            w->scratch[0] = '\0';
            w->child.pid = 0;
        }
    }
    pthread_mutex_unlock(&w->mu);
    wproto_environment_free(envp);
    return rc;
}

int wproto_warm_taken(wproto_warm *w) {
    pthread_mutex_lock(&w->mu);
    int taken = w->taken;
    pthread_mutex_unlock(&w->mu);
    return taken;
}

int wproto_warm_take(wproto_warm *w, const engine_request *rq, sandbox_child *child, int *request_fd, char *scratch,
                     size_t len) {
    if ((rq->worker_env && rq->worker_env[0]) || rq->worker_writable) return 0;
    uint64_t env_hash = current_environment_hash();
    pthread_mutex_lock(&w->mu);
    int ok = w->child.pid != 0;
    if (ok && !held_suits(w, rq->device_spec, env_hash)) {
        drop_held(w);
        ok = 0;
    }
    if (ok) {
        *child = w->child;
        *request_fd = w->request_fd;
        snprintf(scratch, len, "%s", w->scratch);
        w->child.pid = 0;
        w->request_fd = -1;
        w->scratch[0] = '\0';
        w->taken++;
    }
    pthread_mutex_unlock(&w->mu);
    return ok;
}

void wproto_warm_drop(wproto_warm *w) {
    pthread_mutex_lock(&w->mu);
    drop_held(w);
    pthread_mutex_unlock(&w->mu);
}

void wproto_warm_free(wproto_warm *w) {
    wproto_warm_drop(w);
    pthread_mutex_destroy(&w->mu);
}
