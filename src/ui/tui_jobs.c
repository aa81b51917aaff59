/* tui_jobs — one background thread that runs the UI's engine work in order
 * (device lists, the learner's runs, reference timings) so the screen never
 * waits; the engine itself puts every kernel in a worker process. */
#define _GNU_SOURCE
#include "ui/tui_jobs.h"
#include "base/util.h"
#include "gpumodel/gm_predict.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void wake(tui_jobs *j) {
    char c = 1;
    if (write(j->wake[1], &c, 1) < 0) { /* the pipe is full: the UI will wake anyway */ }
}

static void on_progress(void *user, const run_progress *p) {
    tui_jobs *j = user;
    pthread_mutex_lock(&j->mu);
    j->progress = *p;
    double now = util_now();
    int tell = now - j->progress_at > 0.05 || p->done == 0;
    if (tell) j->progress_at = now;
    pthread_mutex_unlock(&j->mu);
    if (tell) wake(j);
}

static void on_verdict_item(void *user, const verdict *v, int index, const engine_report *rep) {
    (void)index;
    (void)rep;
    tui_jobs *j = user;
    pthread_mutex_lock(&j->mu);
    j->live = *v;
    pthread_mutex_unlock(&j->mu);
    wake(j);
}

static void run_verdict(tui_jobs *j, tui_job *job) {
    char err[512];
    job->vd = calloc(1, sizeof *job->vd);
    if (!job->vd) return;
    if (verdict_plan(job->rq.lesson, job->vd, err, sizeof err) != 0) return;
    pthread_mutex_lock(&j->mu);
    j->live = *job->vd;
    j->live_id = job->id;
    pthread_mutex_unlock(&j->mu);
    verdict_request vq = {.lesson = job->rq.lesson, .kernel_path = job->kernel_path, .display_path = job->display_path,
                          .device_spec = job->device_spec[0] ? job->device_spec : NULL, .timeout_s = job->rq.timeout_s,
                          .previous = job->prev, .previous_reference = job->prev_ref[0] ? job->prev_ref : NULL,
                          .warm = job->rq.warm};
    verdict_run(&vq, job->vd, on_progress, j, on_verdict_item, j, &job->cancel);
    pthread_mutex_lock(&j->mu);
    j->live_id = 0;
    pthread_mutex_unlock(&j->mu);
}

static void run_job(tui_jobs *j, tui_job *job) {
    job->started = util_now();
    if (job->kind == JOB_VERDICT) {
        run_verdict(j, job);
    } else if (job->kind == JOB_DEVICES) {
        job->n_devs = engine_list_devices(&job->devs, job->err, sizeof job->err);
    } else if (job->kind == JOB_ANALYZE) {
        job->gm = calloc(1, sizeof *job->gm);
        if (job->gm)
            gpumodel_analyze_chapter(&job->rq, job->cat, job->paths, 1, job->gm_cache, on_progress, j, &job->cancel, job->gm);
        job->ptx = job->cancel ? NULL : calloc(1, sizeof *job->ptx);
        char err[4096];
        if (job->ptx)
            ptx_compile_for(job->rq.lesson, job->rq.kernel_path, job->rq.display_path, job->driver_ptx,
                            job->device_spec[0] ? job->device_spec : NULL, job->ptx, err, sizeof err);
        /* the compiled code, for the predicted time (where the profile uses it, as `cltutor analyze` does):
         * clang's PTX, the one with source lines (compiled again where the tab shows the driver's); the
         * compared file's too, when it was analysed afresh */
        if (job->gm && job->gm->status == GM_OK && job->ptx && job->ptx->status == 0 && !job->cancel &&
            gp_uses_compiled(job->paths->data, NULL)) {
            if (!job->ptx->device[0]) gp_note_compiled(job->gm, job->ptx);
            gp_read_compiled_for(job->paths->data, job->cat, NULL, job->rq.lesson, job->ptx->device[0] ? job->gm : NULL,
                                 job->gm_cache && job->gm_cache->set && !job->gm->prev_kept ? &job->gm_cache->rep : NULL);
        }
    } else {
        engine_run(&job->rq, on_progress, j, &job->cancel, &job->rep);
    }
    job->wall_s = util_now() - job->started;
}

static void *thread_main(void *arg) {
    tui_jobs *j = arg;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        while (!j->stop && !j->queue) pthread_cond_wait(&j->cv, &j->mu);
        if (j->stop) break;
        tui_job *job = j->queue;
        j->queue = job->next;
        job->next = NULL;
        j->current = job;
        j->progress = (run_progress){.phase = PHASE_START};
        pthread_mutex_unlock(&j->mu);
        wake(j);
        run_job(j, job);
        pthread_mutex_lock(&j->mu);
        j->current = NULL;
        if (job->preempted && !j->stop &&
            (job->kind == JOB_ANALYZE || job->kind == JOB_VERDICT || job->rep.status == ENG_CANCELLED)) {
            /* stopped to make way for a run: start it again later */
            engine_report_free(&job->rep);
            memset(&job->rep, 0, sizeof job->rep);
            if (job->gm) {
                gpumodel_report_free(job->gm);
                free(job->gm);
                job->gm = NULL;
            }
            tui_ptx_free(&job->ptx);
            free(job->vd);
            job->vd = NULL;
            job->cancel = 0;
            job->preempted = 0;
            tui_job **pp = &j->queue;
            while (*pp) pp = &(*pp)->next;
            *pp = job;
        } else {
            tui_job **pp = &j->done;
            while (*pp) pp = &(*pp)->next;
            *pp = job;
        }
        pthread_mutex_unlock(&j->mu);
        wake(j);
        pthread_mutex_lock(&j->mu);
    }
    j->exited = 1;
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

int tui_jobs_start(tui_jobs *j, char *err, size_t errlen) {
    memset(j, 0, sizeof *j);
    if (pipe2(j->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        util_errf(err, errlen, "cannot create a pipe");
        return -1;
    }
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    sigset_t all, old;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGABRT);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&j->thread, NULL, thread_main, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        util_errf(err, errlen, "cannot start the background thread");
        close(j->wake[0]);
        close(j->wake[1]);
        return -1;
    }
    j->started = 1;
    return 0;
}

static void free_list(tui_job *p) {
    while (p) {
        tui_job *n = p->next;
        tui_job_free(p);
        p = n;
    }
}

int tui_jobs_stop(tui_jobs *j, double wait_s) {
    if (!j->started) return 0;
    pthread_mutex_lock(&j->mu);
    j->stop = 1;
    if (j->current) j->current->cancel = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    double until = util_now() + wait_s;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        int done = j->exited;
        pthread_mutex_unlock(&j->mu);
        if (done) break;
        if (util_now() > until) return -1;
        usleep(5000);
    }
    pthread_join(j->thread, NULL);
    free_list(j->queue);
    free_list(j->done);
    j->queue = j->done = NULL;
    close(j->wake[0]);
    close(j->wake[1]);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    j->started = 0;
    return 0;
}

int tui_jobs_wake_fd(const tui_jobs *j) { return j->wake[0]; }

void tui_jobs_drain(tui_jobs *j) {
    char buf[256];
    while (read(j->wake[0], buf, sizeof buf) > 0) {}
}

static void copy_str(char *dst, size_t len, const char *src) { snprintf(dst, len, "%s", src ? src : ""); }

tui_job *tui_job_new_run(tui_job_kind kind, const lesson *l, const char *kernel, const char *display,
                         const char *device, const char *size) {
    tui_job *job = calloc(1, sizeof *job);
    if (!job) return NULL;
    job->kind = kind;
    engine_request_defaults(&job->rq);
    copy_str(job->kernel_path, sizeof job->kernel_path, kernel);
    copy_str(job->display_path, sizeof job->display_path, display ? display : kernel);
    copy_str(job->device_spec, sizeof job->device_spec, device);
    copy_str(job->size_spec, sizeof job->size_spec, size);
    job->rq.lesson = l;
    job->rq.kernel_path = job->kernel_path;
    job->rq.display_path = job->display_path;
    job->rq.device_spec = job->device_spec[0] ? job->device_spec : NULL;
    job->rq.size_spec = job->size_spec[0] ? job->size_spec : NULL;
    return job;
}

tui_job *tui_job_new_devices(void) {
    tui_job *job = calloc(1, sizeof *job);
    if (job) job->kind = JOB_DEVICES;
    return job;
}

tui_job *tui_job_new_analysis(const lesson *l, const char *kernel, const char *display, const catalog *cat,
                              const paths *p, gpumodel_cache *cache) {
    tui_job *job = tui_job_new_run(JOB_ANALYZE, l, kernel, display, NULL, NULL);
    if (!job) return NULL;
    job->cat = cat;
    job->paths = p;
    job->gm_cache = cache;
    job->preemptible = 1;
    return job;
}

tui_job *tui_job_new_verdict(const lesson *l, const char *kernel, const char *display, const char *device,
                             const lesson *prev, const char *prev_ref) {
    tui_job *job = tui_job_new_run(JOB_VERDICT, l, kernel, display, device, NULL);
    if (!job) return NULL;
    job->prev = prev;
    copy_str(job->prev_ref, sizeof job->prev_ref, prev_ref);
    job->preemptible = 1;
    return job;
}

void tui_ptx_free(ptx_report **p) {
    if (*p) ptx_report_free(*p);
    free(*p);
    *p = NULL;
}

void tui_job_free(tui_job *job) {
    if (!job) return;
    free(job->vd);
    if (job->gm) {
        gpumodel_report_free(job->gm);
        free(job->gm);
    }
    tui_ptx_free(&job->ptx);
    engine_report_free(&job->rep);
    free(job->devs);
    free(job);
}

int tui_jobs_submit(tui_jobs *j, tui_job *job) {
    pthread_mutex_lock(&j->mu);
    job->id = ++j->next_id;
    job->next = NULL;
    if (job->kind == JOB_RUN) {
        /* first in line, before other kinds */
        tui_job **pp = &j->queue;
        while (*pp && (*pp)->kind == JOB_RUN) pp = &(*pp)->next;
        job->next = *pp;
        *pp = job;
        if (j->current && j->current->preemptible && j->current->kind != JOB_RUN) {
            j->current->preempted = 1;
            j->current->cancel = 1;
        }
    } else {
        tui_job **pp = &j->queue;
        while (*pp) pp = &(*pp)->next;
        *pp = job;
    }
    pthread_cond_signal(&j->cv);
    int id = job->id;
    pthread_mutex_unlock(&j->mu);
    return id;
}

void tui_jobs_cancel(tui_jobs *j, int kind) {
    pthread_mutex_lock(&j->mu);
    if (j->current && (kind < 0 || (int)j->current->kind == kind)) {
        j->current->cancel = 1;
        j->current->preempted = 0;
    }
    tui_job **pp = &j->queue;
    while (*pp) {
        if (kind < 0 || (int)(*pp)->kind == kind) {
            tui_job *dead = *pp;
            *pp = dead->next;
            tui_job_free(dead);
        } else {
            pp = &(*pp)->next;
        }
    }
    pthread_mutex_unlock(&j->mu);
}

tui_job *tui_jobs_collect(tui_jobs *j) {
    pthread_mutex_lock(&j->mu);
    tui_job *job = j->done;
    if (job) {
        j->done = job->next;
        job->next = NULL;
    }
    pthread_mutex_unlock(&j->mu);
    return job;
}

int tui_jobs_status(tui_jobs *j, int *id, run_progress *progress) {
    pthread_mutex_lock(&j->mu);
    int kind = j->current ? (int)j->current->kind : -1;
    if (j->current) {
        if (id) *id = j->current->id;
        if (progress) {
            *progress = j->progress;
            progress->elapsed_s = util_now() - j->current->started;
        }
    }
    pthread_mutex_unlock(&j->mu);
    return kind;
}

int tui_jobs_pending(tui_jobs *j, int kind) {
    pthread_mutex_lock(&j->mu);
    int n = 0;
    for (tui_job *p = j->queue; p; p = p->next)
        if ((int)p->kind == kind) n++;
    pthread_mutex_unlock(&j->mu);
    return n;
}

int tui_jobs_any(tui_jobs *j) {
    pthread_mutex_lock(&j->mu);
    int any = j->current || j->queue || j->done;
    pthread_mutex_unlock(&j->mu);
    return any;
}

int tui_jobs_verdict_live(tui_jobs *j, int id, verdict *out) {
    pthread_mutex_lock(&j->mu);
    int have = id && j->live_id == id;
    if (have) *out = j->live;
    pthread_mutex_unlock(&j->mu);
    return have;
}
