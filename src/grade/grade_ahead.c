/* grade_ahead — the work a grade makes side by side ahead of the chapters'
 * loops (see grade_ahead.h). */
#define _GNU_SOURCE
#include "grade/grade_ahead.h"
#include "run/runcache.h"
#include "run/launchcheck.h"
#include "run/wproto.h"
#include "base/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void grade_note_timeout(file_hang *h, const char *test_id) {
    if (h->timeouts++ == 0) snprintf(h->first, sizeof h->first, "%s", test_id);
}
int grade_file_hung(const file_hang *h) { return h->timeouts >= HANG_AFTER_TIMEOUTS; }

/* Jobs of one file that one worker runs in turn (engine_run_set). */
typedef struct {
    ahead_job **jobs;
    int n;
} ahead_set;

typedef struct {
    run_ctx *rc;
    ahead_set *sets;
    int n, next;
    pthread_mutex_t mu;
} ahead_pool;

/* Runs a set's jobs, in as few workers as they allow: after a worker stops
 * early (a crash, a time-out) the rest go to the next, unless their file
 * did not finish two tests already (then they are not run). */
static void run_set(ahead_pool *p, ahead_set *set) {
    run_ctx *rc = p->rc;
    engine_request *rqs = calloc((size_t)set->n, sizeof *rqs);
    engine_report *reps = calloc((size_t)set->n, sizeof *reps);
    for (int from = 0; rqs && reps && from < set->n;) {
        pthread_mutex_lock(&p->mu);
        int hung = grade_file_hung(set->jobs[from]->hang);
        pthread_mutex_unlock(&p->mu);
        if (hung || (rc->cancel && *rc->cancel)) break;
        int m = set->n - from;
        for (int k = 0; k < m; k++) {
            ahead_job *j = set->jobs[from + k];
            grade_request_for(rc, j->l, j->path, j->display, j->at_size ? j->at_size : j->t->size,
                              j->at_size ? j->at_seed : j->t->seed, 0, rc->cache_root, &rqs[k]);
        }
        int done = engine_run_set(rqs, m, NULL, NULL, rc->cancel, reps);
        pthread_mutex_lock(&p->mu);
        for (int k = 0; k < done; k++) {
            ahead_job *j = set->jobs[from + k];
            j->rep = reps[k];
            j->ran = 1;
            if (j->rep.status == ENG_TIMEOUT) grade_note_timeout(j->hang, j->t->id);
        }
        pthread_mutex_unlock(&p->mu);
        from += done;
    }
    free(rqs);
    free(reps);
}

/* Every thread shares the grade's cache of compiled kernels: the first run
 * of each file has filled it (run_ahead), and a filled folder is read by
 * any number of runs at once. */
static void *ahead_thread(void *arg) {
    ahead_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->mu);
        if (i < 0 || (p->rc->cancel && *p->rc->cancel)) return NULL;
        if (p->sets[i].n > 0) grade_note_start(p->rc, p->sets[i].jobs[0]->t);
        run_set(p, &p->sets[i]);
    }
}

/* Runs fn(arg) on `threads` threads, this one among them (at most 8), until each returns. */
static void on_threads(int threads, void *(*fn)(void *), void *arg) {
    pthread_t tid[8];
    int started = 0;
    for (int k = 0; k < threads - 1 && k < 8; k++)
        if (pthread_create(&tid[k], NULL, fn, arg) == 0) started++;
    fn(arg);
    for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
}

static void run_pool(run_ctx *rc, ahead_set *sets, int n, int threads) {
    ahead_pool p = {.rc = rc, .sets = sets, .n = n};
    pthread_mutex_init(&p.mu, NULL);
    on_threads(threads, ahead_thread, &p);
    pthread_mutex_destroy(&p.mu);
}

/* Runs jobs on up to `threads` threads. The first run of each file goes
 * alone: it compiles the kernel into the cache, which two compilers of the
 * same text must not fill at once (different texts compile into different
 * folders, so those may run side by side). Then each file's other runs go
 * in `threads` sets, a worker each, that build the kernel once and run
 * their sizes in turn. */
static void run_ahead(run_ctx *rc, ahead_job *jobs, int n, int threads) {
    ahead_job **ptrs = calloc((size_t)(n ? n : 1), sizeof *ptrs);
    ahead_set *sets = calloc((size_t)(n ? n : 1), sizeof *sets);
    if (!ptrs || !sets) {
        free(ptrs);
        free(sets);
        return; /* the chapter's loop runs each test itself */
    }
    int n_sets = 0;
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int k = 0; k < i && first; k++) first = strcmp(jobs[k].path, jobs[i].path) != 0;
        if (first && !jobs[i].ran) {
            ptrs[i] = &jobs[i];
            sets[n_sets++] = (ahead_set){.jobs = &ptrs[i], .n = 1};
        }
    }
    run_pool(rc, sets, n_sets, threads);
    /* the others, each file's dealt into `threads` sets, one after another in ptrs */
    int used = 0;
    n_sets = 0;
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int k = 0; k < i && first; k++) first = strcmp(jobs[k].path, jobs[i].path) != 0;
        if (!first) continue;
        for (int lane = 0; lane < threads; lane++) {
            ahead_set *set = &sets[n_sets];
            set->jobs = &ptrs[used];
            set->n = 0;
            int nth = 0;
            for (int k = i; k < n; k++) {
                if (strcmp(jobs[k].path, jobs[i].path) != 0 || jobs[k].ran) continue;
                if (nth++ % threads == lane) ptrs[used + set->n++] = &jobs[k];
            }
            used += set->n;
            if (set->n > 0) n_sets++;
        }
    }
    run_pool(rc, sets, n_sets, threads);
    free(ptrs);
    free(sets);
}

/* Runs the untimed tests side by side first (the timed 'large' one and the simulator's run keep the machine to
 * themselves); returns their reports by test, for the chapter's loop to take in order, or NULL: none ran. */
ahead_job *grade_run_untimed_ahead(run_ctx *rc, const lesson *l, grade_chapter *ch, chapter_file *files,
                                    int nf) {
    ahead_job *first = rc->first_runs ? rc->first_runs[ch - rc->r->chapters] : NULL;
    ahead_job *ahead = rc->threads > 1 ? calloc((size_t)AHEAD_SLOTS(ch->n_tests), sizeof *ahead) : NULL;
    if (!ahead) return NULL;
    ahead_job *list = calloc((size_t)ch->n_tests, sizeof *list);
    int n_list = 0;
    for (int i = 0; list && i < ch->n_tests; i++) {
        grade_test *t = &ch->tests[i];
        int f = grade_file_of(files, nf, t);
        if ((t->kind != GT_HIDDEN && t->kind != GT_FIX) || !strcmp(t->id, "large") || f >= nf || !files[f].ok)
            continue;
        ahead_job *j = &list[n_list++];
        if (first && first[i].ran) { /* made before the chapters began: its report is this test's */
            j->rep = first[i].rep;
            j->ran = 1;
            first[i].ran = 0;
            if (j->rep.status == ENG_TIMEOUT) grade_note_timeout(&files[f].hang, t->id);
        }
        j->l = l;
        j->path = files[f].path;
        j->hang = &files[f].hang;
        j->t = t;
        snprintf(j->display, sizeof j->display, "exercises/%s/%s", l->id, t->file);
    }
    run_ahead(rc, list, n_list, rc->threads);
    for (int k = 0; k < n_list; k++) ahead[list[k].t - ch->tests] = list[k];
    for (int i = 0; first && i < ch->n_tests; i++) { /* the fixes' runs at another size, made with them */
        ahead[ch->n_tests + i] = first[ch->n_tests + i];
        first[ch->n_tests + i].ran = 0;
    }
    free(list);
    return ahead;
}

/* A part of one chapter's analyses, made ahead (grade_analysis_ahead). */
typedef struct {
    const lesson *l;
    const grade_test *t;
    const char *path;
    char display[256];
    grade_ahead_part part;
    int goldens; /* not an analysis: the golden answers of t's timed run ('large'), of its checked launch and
                  * of `launches` timed ones (launchcheck_keep_goldens) */
    int launches;
} model_job;

typedef struct {
    run_ctx *rc;
    model_job *jobs;
    int n, next;
    pthread_mutex_t mu;
} model_pool;

static void *model_thread(void *arg) {
    model_pool *p = arg;
    grade_model_limits lim = grade_limits_of(p->rc);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->mu);
        if (i < 0 || (p->rc->cancel && *p->rc->cancel)) return NULL;
        const model_job *j = &p->jobs[i];
        if (j->goldens) {
            engine_request rq;
            grade_request_for(p->rc, j->l, j->path, j->display, j->t->size, j->t->seed, GRADE_LARGE_BUDGET_S,
                              p->rc->cache_root, &rq);
            launchcheck_keep_goldens(&rq, j->launches);
            continue;
        }
        if (j->part == GA_AT_SIZE) grade_note_start(p->rc, j->t);
        grade_analysis_ahead(&lim, j->l, j->t, j->path, j->display, j->part);
    }
}

/* The analyses of each chapter whose exercise passed its first run, on
 * rc->threads threads: each chapter's two parts are jobs of their own, the
 * analyses at the drawn size first (every work-group simulated, with the
 * race check) and the sampled ones at scale after, so that no thread is
 * left alone with a long one at the end; last, short ones to fill the
 * end, the golden answers of each chapter's timed test (which runs alone,
 * later: it then recalls them instead of computing them in turn). */
static void run_models_ahead(run_ctx *rc) {
    grade_result *r = rc->r;
    char kept[PATH_MAX];
    if (runcache_folder(kept, sizeof kept) != 0) return; /* nothing would keep them for the chapters */
    /* the analyses at the drawn size in the first third, those at scale in the second, golden answers last */
    model_job *scales = calloc((size_t)r->n_chapters * 2, sizeof *scales), *goldens = scales + r->n_chapters;
    model_pool mp = {.rc = rc, .jobs = calloc((size_t)r->n_chapters * 3, sizeof *mp.jobs)};
    int n_scales = 0, n_goldens = 0;
    for (int c = 0; mp.jobs && scales && c < r->n_chapters; c++) {
        const grade_chapter *ch = &r->chapters[c];
        const ahead_job *first = NULL;
        const grade_test *t = NULL, *scale = NULL, *large = NULL;
        for (int i = 0; rc->first_runs[c] && i < ch->n_tests; i++) {
            const ahead_job *j = &rc->first_runs[c][i];
            if (j->ran && !strcmp(j->t->file, rc->o->lessons[c]->exercise) && (!first || first->rep.status != ENG_PASS))
                first = j; /* a passing run of the exercise, if any */
            if (!t && (ch->tests[i].kind == GT_TECHNIQUE || ch->tests[i].kind == GT_SAFETY)) t = &ch->tests[i];
            if (!scale && ch->tests[i].kind == GT_TECHNIQUE && ch->tests[i].scale_size[0]) scale = &ch->tests[i];
            if (!large && !strcmp(ch->tests[i].id, "large") && !strcmp(ch->tests[i].file, rc->o->lessons[c]->exercise))
                large = &ch->tests[i];
        }
        if (first && large) { /* a failing kernel's timed run stops after its checked launch */
            model_job g = {.l = rc->o->lessons[c], .t = large, .path = first->path, .goldens = 1,
                           .launches = first->rep.status == ENG_PASS ? GRADE_TIMED_MIN_RUNS : 0};
            snprintf(g.display, sizeof g.display, "%s", first->display);
            goldens[n_goldens++] = g;
        }
        if (!first || first->rep.status != ENG_PASS || !t) continue;
        model_job job = {.l = rc->o->lessons[c], .t = t, .path = first->path, .part = GA_AT_SIZE};
        snprintf(job.display, sizeof job.display, "%s", first->display);
        mp.jobs[mp.n++] = job;
        if (scale) {
            job.t = scale;
            job.part = GA_AT_SCALE;
            scales[n_scales++] = job;
        }
    }
    for (int k = 0; mp.jobs && k < n_scales; k++) mp.jobs[mp.n++] = scales[k];
    for (int k = 0; mp.jobs && k < n_goldens; k++) mp.jobs[mp.n++] = goldens[k];
    free(scales);
    pthread_mutex_init(&mp.mu, NULL);
    on_threads(rc->threads, model_thread, &mp);
    pthread_mutex_destroy(&mp.mu);
    free(mp.jobs);
}

/* The files of the first runs, compiled ahead in rc->threads workers, each
 * file in turn (wproto_build): the runtime's compiler starts once a worker,
 * not once a file. */
typedef struct {
    run_ctx *rc;
    ahead_job **jobs;
    int n, next;
    pthread_mutex_t mu;
} build_pool;

static void *build_thread(void *arg) {
    build_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    int lane = p->next++;
    pthread_mutex_unlock(&p->mu);
    wproto_build_item items[64];
    int m = 0;
    for (int i = lane; i < p->n && m < 64; i += p->rc->threads)
        items[m++] = (wproto_build_item){.lesson = p->jobs[i]->l, .kernel_path = p->jobs[i]->path};
    if (m == 0) return NULL;
    engine_request rq;
    grade_request_for(p->rc, items[0].lesson, items[0].kernel_path, items[0].kernel_path, NULL, 1, 0,
                      p->rc->cache_root, &rq);
    char err[512];
    wproto_build(items, m, rq.device_spec, rq.cache_root, rq.cpu_limit_s, rq.memory_limit_mb, p->rc->cancel, err,
                 sizeof err); /* what it could not build, each file's first run builds and reports */
    return NULL;
}

static void build_ahead(run_ctx *rc, ahead_job **jobs, int n) {
    build_pool p = {.rc = rc, .jobs = jobs, .n = n};
    pthread_mutex_init(&p.mu, NULL);
    on_threads(rc->threads, build_thread, &p);
    pthread_mutex_destroy(&p.mu);
}

/* Every file's untimed tests, for every chapter at once, on rc->threads
 * threads before any chapter runs: the files compiled first (build_ahead),
 * then one worker a file runs its tests in turn (the timed 'large' one waits
 * for its chapter, which runs it alone). Their reports wait in
 * rc->first_runs for the chapters' loops. */
void grade_run_first_ahead(run_ctx *rc, const char *exercises, int have_ex, const char *ex_err, int flat) {
    grade_result *r = rc->r;
    if (rc->threads < 2 || r->n_chapters < 2) return;
    if (!(rc->first_runs = calloc((size_t)r->n_chapters, sizeof *rc->first_runs))) return;
    int n_jobs = 0, n = 0, n_sets = 0;
    for (int c = 0; c < r->n_chapters; c++) n_jobs += AHEAD_SLOTS(r->chapters[c].n_tests);
    ahead_job **ptrs = calloc((size_t)(n_jobs ? n_jobs : 1), sizeof *ptrs);
    ahead_job **firsts = calloc((size_t)(n_jobs ? n_jobs : 1), sizeof *firsts);
    ahead_set *sets = calloc((size_t)(n_jobs ? n_jobs : 1), sizeof *sets);
    chapter_file(*files)[LESSON_MAX_BUGS + 1] = calloc((size_t)r->n_chapters, sizeof *files);
    for (int c = 0; ptrs && firsts && sets && files && c < r->n_chapters; c++) {
        const lesson *l = rc->o->lessons[c];
        grade_chapter *ch = &r->chapters[c];
        if (!(rc->first_runs[c] = calloc((size_t)AHEAD_SLOTS(ch->n_tests ? ch->n_tests : 1), sizeof **rc->first_runs)))
            break;
        int nf = grade_read_chapter_files(rc, l, ch, files[c], exercises, have_ex, ex_err, flat);
        for (int f = 0; f < nf; f++) {
            if (!files[c][f].ok) continue;
            int from = n;
            for (int i = 0; i < ch->n_tests; i++) {
                const grade_test *t = &ch->tests[i];
                if (strcmp(t->file, files[c][f].file) != 0 || !strcmp(t->id, "large") ||
                    (t->kind != GT_HIDDEN && t->kind != GT_FIX))
                    continue;
                ahead_job *j = &rc->first_runs[c][i];
                *j = (ahead_job){.l = l, .path = files[c][f].path, .t = &ch->tests[i], .hang = &files[c][f].hang};
                snprintf(j->display, sizeof j->display, "exercises/%s/%s", l->id, t->file);
                ptrs[n++] = j;
            }
            for (int i = 0; i < ch->n_tests; i++) { /* each fix again at another size, in the same worker */
                const grade_test *t = &ch->tests[i];
                if (t->kind != GT_FIX || !t->holds_size[0] || strcmp(t->file, files[c][f].file) != 0) continue;
                ahead_job *j = &rc->first_runs[c][ch->n_tests + i];
                *j = rc->first_runs[c][i];
                j->at_size = t->holds_size;
                j->at_seed = t->holds_seed;
                ptrs[n++] = j;
            }
            if (n > from) {
                firsts[n_sets] = ptrs[from];
                sets[n_sets++] = (ahead_set){.jobs = &ptrs[from], .n = n - from};
            }
        }
    }
    build_ahead(rc, firsts, n_sets);
    run_pool(rc, sets, n_sets, rc->threads);
    run_models_ahead(rc);
    free(ptrs);
    free(firsts);
    free(sets);
    free(files);
}

void grade_free_first_runs(run_ctx *rc) {
    for (int c = 0; rc->first_runs && c < rc->r->n_chapters; c++) {
        for (int i = 0; rc->first_runs[c] && i < AHEAD_SLOTS(rc->r->chapters[c].n_tests); i++)
            if (rc->first_runs[c][i].ran) engine_report_free(&rc->first_runs[c][i].rep); /* not taken: stopped early */
        free(rc->first_runs[c]);
    }
    free(rc->first_runs);
    rc->first_runs = NULL;
}
