/* ui_chapter — the open chapter in the course: its kernel and lesson text,
 * and its runs, GPU-model analyses and verdicts from start to finish. */
#define _GNU_SOURCE
#include "ui/ui_app.h"
#include "ui/ui_chapter.h"
#include "base/util.h"
#include "text/clhl.h"
#include "text/i18n.h"
#include "problem/problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *ui_kernel_label(const ui_app *a) { return a->ch.display; }

int ui_solution_unlocked(const ui_app *a) {
    if (!a->in_chapter || !a->cfg.solutions_shown) return 0;
    progress_chapter *pc = progress_get((progress *)&a->prog, a->ch.l->id, 0);
    return (pc && pc->state == PROG_PASSED) || a->ch.failed_runs >= UI_SOLUTION_AFTER;
}

void ui_chapter_mark_dirty(ui_app *a) {
    for (int t = 0; t < TAB_COUNT; t++) a->ch.tab_dirty[t] = 1;
}

void ui_chapter_load_kernel(ui_app *a) {
    ui_chapter *c = &a->ch;
    free(c->kernel_text);
    c->kernel_text = util_read_file(c->kernel_path, NULL);
    if (!c->kernel_text) c->kernel_text = util_strdup("");
    c->kernel_hash = util_hash_text(c->kernel_text);
    st_doc_clear(&c->kernel_doc);
    int state = 0;
    const char *p = c->kernel_text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        st_line *l = st_doc_add(&c->kernel_doc);
        clhl_line(l, p, n, &state, 4);
        l->tag = c->kernel_doc.n;
        if (!e) break;
        p = e + 1;
    }
    if (c->kernel_doc.n == 0) st_doc_add(&c->kernel_doc);
    c->tab_dirty[TAB_CHANGES] = c->tab_dirty[TAB_SOLUTION] = 1;
}

void ui_chapter_load_lesson(ui_app *a) {
    ui_chapter *c = &a->ch;
    free(c->lesson_md);
    char path[1400];
    lesson_text_path(c->l, i18n_lang(), path, sizeof path);
    c->lesson_md = util_read_file(path, NULL);
    c->lesson_fallback = 0;
    if (!c->lesson_md && !strcmp(i18n_lang(), "zh")) {
        lesson_text_path(c->l, "en", path, sizeof path);
        c->lesson_md = util_read_file(path, NULL);
        c->lesson_fallback = 1;
    }
    if (!c->lesson_md) {
        char *s = NULL;
        util_sappend(&s, "# %s\n\n%s\n", !strcmp(i18n_lang(), "zh") && c->l->title_zh[0] ? c->l->title_zh : c->l->title,
                     c->l->summary);
        c->lesson_md = s;
    }
    c->lesson_w = 0;
}

/* Failed attempts, for the solution's lock: one per text of the kernel that
 * failed, not counting the untouched starting file (pressing r three times
 * on it is no attempt). */
void ui_chapter_count_failures(ui_app *a) {
    progress_chapter *pc = progress_get(&a->prog, a->ch.l->id, 0);
    a->ch.failed_runs = 0;
    if (!pc) return;
    unsigned long long start[2]; /* as the learner got it, as shipped */
    paths_starting_hashes(&a->paths, a->ch.l, start);
    for (int i = 0; i < pc->n_runs; i++) {
        const progress_run *r = &pc->runs[i];
        int counted = r->passed || (r->file_hash && (r->file_hash == start[0] || r->file_hash == start[1]));
        for (int k = 0; k < i && !counted; k++) counted = !pc->runs[k].passed && pc->runs[k].file_hash == r->file_hash;
        if (!counted) a->ch.failed_runs++;
    }
}

void ui_chapter_close(ui_app *a) {
    if (!a->in_chapter) return;
    ui_chapter *c = &a->ch;
    if (c->run_id) tui_jobs_cancel(&a->jobs, JOB_RUN);
    tui_watch_close(&c->watch);
    free(c->kernel_text);
    free(c->lesson_md);
    st_doc_free(&c->kernel_doc);
    st_doc_free(&c->lesson_doc);
    for (int t = 0; t < TAB_COUNT; t++) st_doc_free(&c->tabs[t]);
    if (c->have_rep) engine_report_free(&c->rep);
    if (c->gm_id) tui_jobs_cancel(&a->jobs, JOB_ANALYZE);
    if (c->gm) {
        gpumodel_report_free(c->gm);
        free(c->gm);
    }
    tui_ptx_free(&c->ptx);
    if (c->vd_id) tui_jobs_cancel(&a->jobs, JOB_VERDICT);
    free(c->vd);
    memset(c, 0, sizeof *c);
    a->in_chapter = 0;
    a->st.running = 0;
}

/* The learner's copy of file k of the chapter (0 its kernel, k its k-th
 * find-the-bug listing): the file the kernel pane shows, runs and edits. */
static void find_file(ui_app *a, int k, char *err, size_t errlen) {
    ui_chapter *c = &a->ch;
    const char *name = k ? c->l->bugs[k - 1].file : c->l->exercise;
    int rc = k ? paths_exercise_file(&a->paths, c->l, name, c->kernel_path, sizeof c->kernel_path, err, errlen)
               : paths_exercise(&a->paths, c->l, c->kernel_path, sizeof c->kernel_path, err, errlen);
    c->kernel_ro = rc != 0;
    if (c->kernel_ro) { /* the course's own copy, to read */
        util_copy_text(c->kernel_err, sizeof c->kernel_err, err);
        if (k) util_pathf(c->kernel_path, sizeof c->kernel_path, "%s/exercises/%s/%s", a->paths.data, c->l->id, name);
        else paths_starting(&a->paths, c->l, c->kernel_path, sizeof c->kernel_path);
    }
    util_textf(c->display, sizeof c->display, "exercises/%s/%s", c->l->id, name);
}

void ui_chapter_show_file(ui_app *a, int k) {
    ui_chapter *c = &a->ch;
    if (k < 0 || k > c->l->n_bugs) return;
    if (c->run_id) tui_jobs_cancel(&a->jobs, JOB_RUN);
    if (c->vd_id) tui_jobs_cancel(&a->jobs, JOB_VERDICT);
    c->run_id = c->vd_id = 0;
    a->st.running = 0;
    tui_watch_close(&c->watch);
    if (c->have_rep) engine_report_free(&c->rep);
    c->have_rep = 0;
    if (c->vd) c->vd->n = 0;
    c->file = k;
    char err[1400];
    find_file(a, k, err, sizeof err);
    if (c->kernel_ro) ui_app_note(a, 1, "%s %s", _("The workspace is read-only: your changes cannot be saved."), err);
    ui_chapter_load_kernel(a);
    c->run_hash = c->kernel_hash; /* showing a file is not a run of it */
    tui_watch_open(&c->watch, c->kernel_path, a->force_poll);
    a->st.pane[PANE_KERNEL].top = a->st.pane[PANE_KERNEL].cur = 0;
    ui_chapter_mark_dirty(a);
}

/* The size the next run uses: the one chosen (S), else a listing's own, else the chapter's. */
const char *ui_chapter_size(const ui_app *a) {
    const ui_chapter *c = &a->ch;
    if (c->size_spec[0]) return c->size_spec;
    if (c->file > 0 && c->l->bugs[c->file - 1].exposes[0]) return c->l->bugs[c->file - 1].exposes;
    return NULL;
}

int ui_chapter_sizes(const ui_app *a, char sizes[][64], int max) {
    const lesson *l = a->ch.l;
    int n = 0;
    #define ADD_SIZE(s)                                                                    \
        do {                                                                               \
            int seen = 0;                                                                  \
            for (int k = 0; k < n; k++) seen |= !strcmp(sizes[k], (s));                     \
            if (!seen && n < max) util_copy_text(sizes[n++], 64, (s));                      \
        } while (0)
    ADD_SIZE(l->default_size);
    const problem_ops *ops = problem_find(l->problem);
    for (int i = 1; ops && ops->input_kinds[i]; i++) {
        char s[64];
        util_textf(s, sizeof s, "%s:%s", l->default_size, ops->input_kinds[i]);
        ADD_SIZE(s);
    }
    for (int i = 0; i < l->n_check_sizes; i++) ADD_SIZE(l->check_sizes[i]);
    for (int i = 0; i < l->n_bugs; i++)
        if (l->bugs[i].exposes[0]) ADD_SIZE(l->bugs[i].exposes);
    #undef ADD_SIZE
    return n;
}

void ui_chapter_open(ui_app *a, int index) {
    ui_chapter_close(a);
    ui_chapter *c = &a->ch;
    c->watch = (tui_watch){.fd = -1, .wd = -1}; /* watching nothing yet (a zeroed one would close stdin) */
    c->l = &a->cat.items[index];
    c->index = index;
    ui_chapter_show_file(a, 0);
    ui_chapter_load_lesson(a);
    ui_chapter_count_failures(a);
    a->in_chapter = 1;
    tui_open_chapter(&a->st);
    a->st.tab_enabled[TAB_ANALYSIS] = 1;
    progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
    if (!pc || pc->n_runs == 0) a->st.focus = PANE_LESSON; /* a new chapter: read first */
    progress_set_last(&a->prog, c->l->id);
    ui_app_save_progress(a);
}

/* Starts a run of the learner's kernel now (stopping one under way). */
void ui_chapter_start_run(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter) return;
    if (c->run_id) {
        tui_jobs_cancel(&a->jobs, JOB_RUN);
        c->run_id = 0;
    }
    if (c->vd_id) { /* its file changed: this run starts a new one */
        tui_jobs_cancel(&a->jobs, JOB_VERDICT);
        c->vd_id = 0;
    }
    ui_chapter_load_kernel(a);
    tui_watch_mark_seen(&c->watch);
    char dev[sizeof a->cfg.device];
    tui_job *job = tui_job_new_run(JOB_RUN, c->l, c->kernel_path, c->display, ui_device_spec(a, dev, sizeof dev),
                                   ui_chapter_size(a));
    if (!job) return;
    /* quick feedback: at least 2 timed runs, more while 0.15 s lasts (`cltutor run` times longer) */
    job->rq.timeout_s = a->timeout_s;
    job->rq.budget_s = 0.15;
    job->rq.queue_dir = config_queue_dir(&a->cfg);
    job->rq.min_runs = 2;
    job->rq.max_runs = 30;
    job->rq.cache = &a->run_cache;
    job->rq.warm = &a->warm;
    job->rq.tell_checked = 1; /* the status line says the answer while the launches are timed */
    c->run_hash = c->kernel_hash;
    c->run_due = 0;
    if (c->refs_due > 0) c->refs_due = 0; /* set again when this run passes */
    c->run_by_user_cancel = 0;
    c->suspended_during_run = 0;
    c->run_id = tui_jobs_submit(&a->jobs, job);
    a->st.running = 1;
}

/* Analyses the kernel on the GPU memory model (Oclgrind) in the background. */
void ui_chapter_start_analysis(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter || c->gm_id) return;
    tui_job *job = tui_job_new_analysis(c->l, c->kernel_path, c->display, &a->cat, &a->paths, &a->gm_cache);
    if (!job) return;
    if (strstr(c->rep.device.platform, "NVIDIA")) { /* the runs' GPU compiles to PTX itself: show its own */
        if (!ui_device_spec(a, job->device_spec, sizeof job->device_spec)) job->device_spec[0] = '\0';
        job->driver_ptx = 1;
    }
    c->gm_want_hash = c->kernel_hash;
    c->gm_id = tui_jobs_submit(&a->jobs, job);
    c->tab_dirty[TAB_ANALYSIS] = 1;
}

/* After a correct run: every visible test, the race check and the
 * technique, in the background; the Result tab fills the checklist. */
void ui_chapter_start_verdict(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter) return;
    if (c->vd_id) tui_jobs_cancel(&a->jobs, JOB_VERDICT);
    char dev[sizeof a->cfg.device];
    const lesson *prev = ui_previous_lesson(a, c->l);
    char prev_ref[1400] = "";
    if (!prev || strcmp(prev->problem, c->l->problem) || paths_solution(&a->paths, prev, prev_ref, sizeof prev_ref) != 0) {
        prev = NULL;
        prev_ref[0] = '\0';
    }
    tui_job *job = tui_job_new_verdict(c->l, c->kernel_path, c->display, ui_device_spec(a, dev, sizeof dev), prev,
                                       prev_ref);
    if (!job) return;
    job->rq.timeout_s = a->timeout_s;
    job->rq.warm = &a->warm;
    if (!c->vd) c->vd = calloc(1, sizeof *c->vd);
    char err[512];
    if (!c->vd || verdict_plan(c->l, c->vd, err, sizeof err) != 0) {
        tui_job_free(job);
        return;
    }
    c->vd_hash = c->run_hash;
    c->vd_median_ms = c->rep.n_samples > 0 ? c->rep.timing.median : 0;
    snprintf(c->vd_device, sizeof c->vd_device, "%s", c->rep.device.name);
    c->vd_id = tui_jobs_submit(&a->jobs, job);
}

void ui_chapter_finish_verdict(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->vd_id = 0;
    if (!job->vd || job->vd->cancelled) return;
    if (c->vd) *c->vd = *job->vd;
    c->tab_dirty[TAB_RESULT] = c->tab_dirty[TAB_CHECK] = c->tab_dirty[TAB_TIMING] = 1; /* a failed race check takes the timing back */
    if (c->kernel_ro) return;
    int was = 0;
    progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
    if (pc) was = pc->state == PROG_PASSED && pc->passed_hash == c->vd_hash;
    progress_run pr = {.when = (double)time(NULL), .origin = FROM_UI, .passed = 1, .file_hash = c->vd_hash,
                       .median_ms = c->vd_median_ms};
    snprintf(pr.status, sizeof pr.status, "%s", engine_status_name(ENG_PASS));
    util_copy_text(pr.device, sizeof pr.device, c->vd_device);
    verdict_to_progress(job->vd, &pr);
    progress_record_verdict(&a->prog, c->l->id, &pr);
    ui_app_save_progress(a);
    if (job->vd->passed && c->vd_hash == c->kernel_hash) paths_keep_passed(&a->paths, c->l, c->kernel_text);
    if (util_now() < a->note_until) return; /* the learner's own last action keeps the status line */
    if (job->vd->passed && !was) {
        int next = a->ch.index + 1 < a->cat.count ? a->cat.items[a->ch.index + 1].number : 0;
        if (next) ui_app_note(a, 0, _("Chapter passed: every test, the race check and the technique. Next is chapter %d: press n to open it."), next);
        else ui_app_note(a, 0, "%s", _("Chapter passed: every test, the race check and the technique. That was the last chapter."));
    } else if (!job->vd->passed) {
        ui_app_note(a, 1, "%s", _("Correct at this size, but the chapter is not passed yet: see the checklist in the Result tab."));
    }
}

void ui_chapter_finish_analysis(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->gm_id = 0;
    if (job->cancel && !job->gm) return;
    if (c->gm) {
        gpumodel_report_free(c->gm);
        free(c->gm);
    }
    c->gm = job->gm;
    job->gm = NULL;
    tui_ptx_free(&c->ptx);
    c->ptx = job->ptx;
    job->ptx = NULL;
    c->gm_hash = c->gm_want_hash;
    c->tab_dirty[TAB_ANALYSIS] = c->tab_dirty[TAB_TIMING] = 1; /* the Timing tab shows its prediction */
    /* the learner saved again meanwhile and is looking at the report */
    if (a->st.tab == TAB_ANALYSIS && c->kernel_hash != c->gm_hash) ui_chapter_start_analysis(a);
}

const char *ui_gm_note(const ui_app *a, int line) {
    const gpumodel_report *gm = a->in_chapter ? a->ch.gm : NULL;
    if (!gm || gm->status != GM_OK || a->ch.gm_hash != a->ch.kernel_hash) return NULL;
    return gpumodel_note(gm, line);
}

/* The last passing run on this device before now, for "vs your last run". */
static double last_passing_ms(ui_app *a, const char *device) {
    progress_chapter *pc = progress_get(&a->prog, a->ch.l->id, 0);
    if (!pc) return 0;
    for (int i = pc->n_runs - 1; i >= 0; i--)
        if (pc->runs[i].passed && !pc->runs[i].unsafe && pc->runs[i].median_ms > 0 &&
            !strcmp(pc->runs[i].device, device))
            return pc->runs[i].median_ms;
    return 0;
}

void ui_chapter_finish_run(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->run_id = 0;
    a->st.running = 0;
    engine_report *r = &job->rep;
    if (r->status == ENG_CANCELLED && !c->run_by_user_cancel) return; /* a newer save took its place */
    if (r->status == ENG_CANCELLED) ui_app_note(a, 0, "%s", _("Run stopped.")); /* not "Stopping…" for seconds more */
    if (r->status == ENG_TIMEOUT && c->suspended_during_run) {
        /* the clock ran while we were stopped: that says nothing about the kernel */
        ui_app_note(a, 0, "%s", _("Resumed: running again."));
        ui_chapter_start_run(a);
        return;
    }
    if (r->device.name[0]) {
        snprintf(a->last_dev_name, sizeof a->last_dev_name, "%s", r->device.name);
        snprintf(a->last_dev_type, sizeof a->last_dev_type, "%s", r->device.type);
    }
    if (c->have_rep) engine_report_free(&c->rep);
    c->rep = *r;
    memset(r, 0, sizeof *r); /* ownership moved */
    c->have_rep = 1;
    c->prev_run_ms = c->rep.device.name[0] ? last_passing_ms(a, c->rep.device.name) : 0;
    /* the chapter's own kernel at its own size is the learner's progress; a listing or another size is practice */
    if (c->rep.status != ENG_USAGE && c->rep.status != ENG_NO_DEVICE && c->rep.status != ENG_CANCELLED &&
        !c->kernel_ro && c->file == 0 && !c->size_spec[0]) {
        progress_run pr = {.when = (double)time(NULL), .origin = FROM_UI, .passed = c->rep.status == ENG_PASS,
                           .median_ms = c->rep.status == ENG_PASS ? c->rep.timing.median : 0,
                           .file_hash = c->run_hash};
        snprintf(pr.status, sizeof pr.status, "%s", engine_status_name(c->rep.status));
        util_copy_text(pr.device, sizeof pr.device, c->rep.device.name);
        progress_record_run(&a->prog, c->l->id, &pr);
        ui_app_save_progress(a);
        ui_chapter_count_failures(a);
        progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
        c->run_number = pc ? pc->n_runs : 0;
    } else {
        c->run_number = 0;
    }
    /* the references' times, once per session and device, when the learner
     * pauses: they would only slow down the next save's run */
    if (c->rep.status == ENG_PASS && c->rep.n_samples > 0) c->refs_due = util_now() + 1.5;
    if (c->rep.status == ENG_PASS && c->run_hash == c->kernel_hash && c->file == 0) ui_chapter_start_verdict(a);
    else if (c->vd && c->rep.status != ENG_CANCELLED) c->vd->n = 0; /* wrong here: no checklist to show */
    if (c->rep.status == ENG_BUILD && c->rep.error_line > 0) {
        a->st.pane[PANE_KERNEL].len = c->kernel_doc.n;
        tui_list_goto(&a->st.pane[PANE_KERNEL], c->rep.error_line - 1);
    }
    if (a->st.tab == TAB_ANALYSIS && c->rep.status != ENG_BUILD) {
        if (c->gm_hash != c->kernel_hash) ui_chapter_start_analysis(a);
        ui_chapter_mark_dirty(a);
        return;
    }
    a->st.tab = TAB_RESULT;
    a->st.tabs[TAB_RESULT].top = 0;
    a->st.tabs[TAB_CHECK].top = 0;
    a->st.tabs[TAB_BUILD].top = a->st.tabs[TAB_BUILD].cur = 0;
    ui_chapter_mark_dirty(a);
}

