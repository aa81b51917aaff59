/* ui_main — the terminal UI's controller: loads the course, runs the event
 * loop (keys, saves, background jobs, signals), launches the editor, and
 * records progress; drawing is in ui_draw.c. */
#define _GNU_SOURCE
#include "term/ui.h"
#include "base/exitcode.h"
#include "term/ui_app.h"

#include "text/clhl.h"
#include "text/mdrender.h"
#include "text/srcdiff.h"
#include "ui/tui_help.h"
#include "text/tui_text.h"
#include "base/util.h"
#include "course/workspace.h"

#include <cJSON.h>
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T(s) tui_tr(s)

static volatile sig_atomic_t sig_quit, sig_int, sig_tstp, sig_cont;
static volatile sig_atomic_t curses_on;
static int self_pipe[2] = {-1, -1};

/* ---- signals and terminal safety ------------------------------------- */

static void poke(void) {
    if (self_pipe[1] >= 0) {
        char c = 1;
        if (write(self_pipe[1], &c, 1) < 0) { /* full: the loop wakes anyway */ }
    }
}

static void on_signal(int sig) {
    int saved = errno;
    if (sig == SIGINT) sig_int = 1;
    else if (sig == SIGTSTP) sig_tstp = 1;
    else if (sig == SIGCONT) sig_cont = 1;
    else sig_quit = 1;
    poke();
    errno = saved;
}

static void on_fatal(int sig) {
    /* put the terminal back before dying */
    if (curses_on) endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void restore_terminal(void) {
    if (curses_on) {
        endwin();
        curses_on = 0;
    }
}

static void child_after_fork(void) {
    /* editors and workers start with ordinary signals, and never touch the screen */
    curses_on = 0;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTSTP, &sa, NULL);
    sigaction(SIGCONT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction fa;
    memset(&fa, 0, sizeof fa);
    fa.sa_handler = on_fatal;
    sigemptyset(&fa.sa_mask);
    sigaction(SIGSEGV, &fa, NULL);
    sigaction(SIGBUS, &fa, NULL);
    sigaction(SIGABRT, &fa, NULL);
    sigaction(SIGFPE, &fa, NULL);
    sigaction(SIGILL, &fa, NULL);
    pthread_atfork(NULL, NULL, child_after_fork);
}

/* ---- small helpers ---------------------------------------------------- */


static void set_note(ui_app *a, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_note(ui_app *a, int err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->note, sizeof a->note, fmt, ap);
    va_end(ap);
    a->note_err = err;
    a->note_until = util_now() + (err ? 8 : 4);
}

static void show_message(ui_app *a, const char *text) {
    util_copy_text(a->st.message, sizeof a->st.message, text);
    a->st.overlay = OV_MESSAGE;
    a->st.overlay_list.top = a->st.overlay_list.cur = 0;
    a->st.overlay_list.has_cursor = 0;
}

/* Saves now; when it cannot, the status line says where and why, every time. */
static void save_progress(ui_app *a) {
    char err[1600];
    if (!a->have_progress) {
        set_note(a, 1, "%s", a->progress_error);
        return;
    }
    int rc = progress_save(&a->prog, err, sizeof err);
    if (rc < 0) set_note(a, 1, "%s %s", T("Progress not saved:"), err);
    else if (rc > 0) set_note(a, 1, "%s", err); /* saved, after setting a damaged file aside */
}

/* ---- preferences (.cltutor/ui.json): language and device -------------- */

static void prefs_load(ui_app *a) {
    char *text = a->prefs_path[0] ? util_read_file(a->prefs_path, NULL) : NULL;
    if (!text) return;
    cJSON *o = cJSON_Parse(text);
    free(text);
    if (!o) return;
    const cJSON *lang = cJSON_GetObjectItemCaseSensitive(o, "lang");
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(o, "device_name");
    const cJSON *di = cJSON_GetObjectItemCaseSensitive(o, "device_index");
    if (cJSON_IsString(lang) && (!strcmp(lang->valuestring, "en") || !strcmp(lang->valuestring, "zh")))
        tui_text_set_lang(lang->valuestring);
    if (cJSON_IsString(dn)) snprintf(a->want_dev_name, sizeof a->want_dev_name, "%s", dn->valuestring);
    a->want_dev_index = cJSON_IsNumber(di) ? di->valueint : -1;
    cJSON_Delete(o);
}

static void prefs_save(ui_app *a) {
    if (!a->prefs_path[0]) return;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lang", tui_text_lang());
    if (a->dev_sel >= 0 && a->dev_sel < a->n_devs) {
        cJSON_AddStringToObject(o, "device_name", a->devs[a->dev_sel].name);
        cJSON_AddNumberToObject(o, "device_index", a->devs[a->dev_sel].index);
    }
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    if (s && util_write_file_atomic(a->prefs_path, s, strlen(s)) != 0)
        set_note(a, 1, "%s %s", T("Settings not saved:"), a->prefs_path);
    free(s);
}

/* ---- devices ---------------------------------------------------------- */

int ui_default_device(const ui_app *a) { return engine_default_device(a->devs, a->n_devs, a->cfg.device); }

const char *ui_device_label(const ui_app *a, char *buf, size_t len) {
    int i = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
    if (i >= 0 && i < a->n_devs) snprintf(buf, len, "%s (%s)", a->devs[i].name, a->devs[i].type);
    else if (a->last_dev_name[0]) snprintf(buf, len, "%s (%s)", a->last_dev_name, a->last_dev_type);
    else if (a->devs_state == 3 || (a->devs_state == 2 && a->n_devs == 0)) snprintf(buf, len, "%s", T("no OpenCL device"));
    else snprintf(buf, len, "%s", T("looking for devices…"));
    return buf;
}

static const char *device_spec(const ui_app *a, char *buf, size_t len) {
    if (a->dev_sel >= 0 && a->dev_sel < a->n_devs) {
        snprintf(buf, len, "%d", a->devs[a->dev_sel].index);
        return buf;
    }
    if (util_pathf(buf, len, "%s", a->cfg.device) != 0) return NULL; /* never a cut name: another device */
    return buf[0] ? buf : NULL;
}

/* The device runs use now: its name (for caches and history). */
const char *ui_device_key(const ui_app *a) {
    int i = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
    if (i >= 0 && i < a->n_devs) return a->devs[i].name;
    return a->last_dev_name;
}

static void request_devices(ui_app *a) {
    if (a->devs_state == 1) return;
    tui_job *job = tui_job_new_devices();
    if (!job) return;
    a->devs_state = 1;
    tui_jobs_submit(&a->jobs, job);
}

/* ---- references (for speed-ups) -------------------------------------- */

static void ref_key(const ui_app *a, int chapter, char *buf, size_t len) {
    util_textf(buf, len, "%d|%s|%s", chapter, ui_device_key(a), a->in_chapter ? a->ch.l->default_size : "");
}

const tui_ref_time *ui_ref_get(ui_app *a, int chapter) {
    char key[256];
    ref_key(a, chapter, key, sizeof key);
    for (int i = 0; i < a->n_refs; i++)
        if (!strcmp(a->refs[i].key, key)) return &a->refs[i].t;
    return NULL;
}

static ui_ref *ref_slot(ui_app *a, const char *key) {
    for (int i = 0; i < a->n_refs; i++)
        if (!strcmp(a->refs[i].key, key)) return &a->refs[i];
    if (a->n_refs == UI_MAX_REFS) {
        memmove(a->refs, a->refs + 1, sizeof a->refs[0] * (UI_MAX_REFS - 1));
        a->n_refs--;
    }
    ui_ref *r = &a->refs[a->n_refs++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    return r;
}

/* Times a chapter's reference solution once per session, device and size. */
static void request_reference(ui_app *a, const lesson *ref_lesson, const lesson *for_lesson) {
    char key[256], path[1400], dev[32];
    ref_key(a, ref_lesson->number, key, sizeof key);
    ui_ref *r = ref_slot(a, key);
    if (r->t.state != REF_NONE) return;
    r->t.chapter = ref_lesson->number;
    int withheld = paths_solution(&a->paths, ref_lesson, path, sizeof path) != 0;
    if (withheld || !util_is_file(path)) {
        r->t.state = REF_FAILED;
        snprintf(r->t.note, sizeof r->t.note, "%s", withheld ? T("withheld by the instructor") : T("no reference kernel"));
        return;
    }
    tui_job *job = tui_job_new_run(JOB_REFERENCE, ref_lesson, path, NULL, device_spec(a, dev, sizeof dev),
                                   for_lesson->default_size);
    if (!job) return;
    job->tag = ref_lesson->number;
    job->preemptible = 1;
    job->rq.budget_s = 0.3;
    job->rq.queue_dir = config_queue_dir(&a->cfg);
    job->rq.min_runs = 3;
    job->rq.max_runs = 20;
    job->rq.timeout_s = a->timeout_s * 2;
    snprintf(job->err, sizeof job->err, "%s", key);
    r->t.state = REF_WAITING;
    tui_jobs_submit(&a->jobs, job);
}

const lesson *ui_previous_lesson(const ui_app *a, const lesson *l) {
    const lesson *prev = l->previous ? catalog_by_number(&a->cat, l->previous) : NULL;
    if (prev && strcmp(prev->problem, l->problem)) prev = NULL; /* another problem: sizes do not compare */
    return prev;
}

/* ---- the chapter ------------------------------------------------------ */

const char *ui_kernel_label(const ui_app *a) { return a->ch.display; }

int ui_solution_unlocked(const ui_app *a) {
    if (!a->in_chapter || !a->cfg.solutions_shown) return 0;
    progress_chapter *pc = progress_get((progress *)&a->prog, a->ch.l->id, 0);
    return (pc && pc->state == PROG_PASSED) || a->ch.failed_runs >= UI_SOLUTION_AFTER;
}

static void mark_tabs_dirty(ui_app *a) {
    for (int t = 0; t < TAB_COUNT; t++) a->ch.tab_dirty[t] = 1;
}

static void load_kernel(ui_app *a) {
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

static void load_lesson_text(ui_app *a) {
    ui_chapter *c = &a->ch;
    free(c->lesson_md);
    char path[1400];
    lesson_text_path(c->l, tui_text_lang(), path, sizeof path);
    c->lesson_md = util_read_file(path, NULL);
    c->lesson_fallback = 0;
    if (!c->lesson_md && !strcmp(tui_text_lang(), "zh")) {
        lesson_text_path(c->l, "en", path, sizeof path);
        c->lesson_md = util_read_file(path, NULL);
        c->lesson_fallback = 1;
    }
    if (!c->lesson_md) {
        char *s = NULL;
        util_sappend(&s, "# %s\n\n%s\n", !strcmp(tui_text_lang(), "zh") && c->l->title_zh[0] ? c->l->title_zh : c->l->title,
                     c->l->summary);
        c->lesson_md = s;
    }
    c->lesson_w = 0;
}

static void count_failures(ui_app *a) {
    progress_chapter *pc = progress_get(&a->prog, a->ch.l->id, 0);
    a->ch.failed_runs = 0;
    if (pc)
        for (int i = 0; i < pc->n_runs; i++)
            if (!pc->runs[i].passed) a->ch.failed_runs++;
}

static void close_chapter(ui_app *a) {
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
    if (c->vd_id) tui_jobs_cancel(&a->jobs, JOB_VERDICT);
    free(c->vd);
    memset(c, 0, sizeof *c);
    a->in_chapter = 0;
    a->st.running = 0;
}

static void open_chapter(ui_app *a, int index) {
    close_chapter(a);
    ui_chapter *c = &a->ch;
    c->l = &a->cat.items[index];
    c->index = index;
    char err[1400];
    if (paths_exercise(&a->paths, c->l, c->kernel_path, sizeof c->kernel_path, err, sizeof err) != 0) {
        c->kernel_ro = 1;
        util_copy_text(c->kernel_err, sizeof c->kernel_err, err);
        paths_starting(&a->paths, c->l, c->kernel_path, sizeof c->kernel_path);
        set_note(a, 1, "%s %s", T("The workspace is read-only: your changes cannot be saved."), err);
    }
    snprintf(c->display, sizeof c->display, "exercises/%s/%s", c->l->id, c->l->exercise);
    load_kernel(a);
    load_lesson_text(a);
    tui_watch_open(&c->watch, c->kernel_path, a->force_poll);
    mark_tabs_dirty(a);
    count_failures(a);
    a->in_chapter = 1;
    tui_open_chapter(&a->st);
    a->st.tab_enabled[TAB_ANALYSIS] = 1;
    progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
    if (!pc || pc->n_runs == 0) a->st.focus = PANE_LESSON; /* a new chapter: read first */
    progress_set_last(&a->prog, c->l->id);
    save_progress(a);
}

/* Starts a run of the learner's kernel now (stopping one under way). */
static void start_run(ui_app *a) {
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
    load_kernel(a);
    tui_watch_mark_seen(&c->watch);
    char dev[sizeof a->cfg.device];
    tui_job *job = tui_job_new_run(JOB_RUN, c->l, c->kernel_path, c->display, device_spec(a, dev, sizeof dev), NULL);
    if (!job) return;
    /* quick feedback: at least 2 timed runs, more while 0.15 s lasts (`cltutor run` times longer) */
    job->rq.timeout_s = a->timeout_s;
    job->rq.budget_s = 0.15;
    job->rq.queue_dir = config_queue_dir(&a->cfg);
    job->rq.min_runs = 2;
    job->rq.max_runs = 30;
    job->rq.cache = &a->run_cache;
    c->run_hash = c->kernel_hash;
    c->run_due = 0;
    if (c->refs_due > 0) c->refs_due = 0; /* set again when this run passes */
    c->run_by_user_cancel = 0;
    c->suspended_during_run = 0;
    c->run_id = tui_jobs_submit(&a->jobs, job);
    a->st.running = 1;
}

/* Analyses the kernel on the GPU memory model (Oclgrind) in the background. */
static void start_analysis(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter || c->gm_id) return;
    tui_job *job = tui_job_new_analysis(c->l, c->kernel_path, &a->cat, &a->paths, &a->gm_cache);
    if (!job) return;
    c->gm_want_hash = c->kernel_hash;
    c->gm_id = tui_jobs_submit(&a->jobs, job);
    c->tab_dirty[TAB_ANALYSIS] = 1;
}

/* After a correct run: every visible test, the race check and the
 * technique, in the background; the Result tab fills the checklist. */
static void start_verdict(ui_app *a) {
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
    tui_job *job = tui_job_new_verdict(c->l, c->kernel_path, c->display, device_spec(a, dev, sizeof dev), prev,
                                       prev_ref);
    if (!job) return;
    job->rq.timeout_s = a->timeout_s;
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

static void finish_verdict(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->vd_id = 0;
    if (!job->vd || job->vd->cancelled) return;
    if (c->vd) *c->vd = *job->vd;
    c->tab_dirty[TAB_RESULT] = 1;
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
    save_progress(a);
    if (util_now() < a->note_until) return; /* the learner's own last action keeps the status line */
    if (job->vd->passed && !was) {
        int next = a->ch.index + 1 < a->cat.count ? a->cat.items[a->ch.index + 1].number : 0;
        if (next) set_note(a, 0, T("Chapter passed: every test, the race check and the technique. Next is chapter %d (q, then pick it)."), next);
        else set_note(a, 0, "%s", T("Chapter passed: every test, the race check and the technique. That was the last chapter."));
    } else if (!job->vd->passed) {
        set_note(a, 1, "%s", T("Correct at this size, but the chapter is not passed yet: see the checklist in the Result tab."));
    }
}

static void finish_analysis(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->gm_id = 0;
    if (job->cancel && !job->gm) return;
    if (c->gm) {
        gpumodel_report_free(c->gm);
        free(c->gm);
    }
    c->gm = job->gm;
    job->gm = NULL;
    c->gm_hash = c->gm_want_hash;
    c->tab_dirty[TAB_ANALYSIS] = 1;
    /* the learner saved again meanwhile and is looking at the report */
    if (a->st.tab == TAB_ANALYSIS && c->kernel_hash != c->gm_hash) start_analysis(a);
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
        if (pc->runs[i].passed && pc->runs[i].median_ms > 0 && !strcmp(pc->runs[i].device, device))
            return pc->runs[i].median_ms;
    return 0;
}

static void finish_run(ui_app *a, tui_job *job) {
    ui_chapter *c = &a->ch;
    c->run_id = 0;
    a->st.running = 0;
    engine_report *r = &job->rep;
    if (r->status == ENG_CANCELLED && !c->run_by_user_cancel) return; /* a newer save took its place */
    if (r->status == ENG_TIMEOUT && c->suspended_during_run) {
        /* the clock ran while we were stopped: that says nothing about the kernel */
        set_note(a, 0, "%s", T("Resumed: running again."));
        start_run(a);
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
    if (c->rep.status != ENG_USAGE && c->rep.status != ENG_NO_DEVICE && c->rep.status != ENG_CANCELLED &&
        !c->kernel_ro) {
        progress_run pr = {.when = (double)time(NULL), .origin = FROM_UI, .passed = c->rep.status == ENG_PASS,
                           .median_ms = c->rep.status == ENG_PASS ? c->rep.timing.median : 0,
                           .file_hash = c->run_hash};
        snprintf(pr.status, sizeof pr.status, "%s", engine_status_name(c->rep.status));
        util_copy_text(pr.device, sizeof pr.device, c->rep.device.name);
        progress_record_run(&a->prog, c->l->id, &pr);
        save_progress(a);
        count_failures(a);
        progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
        c->run_number = pc ? pc->n_runs : 0;
    } else {
        c->run_number = 0;
    }
    /* the references' times, once per session and device, when the learner
     * pauses: they would only slow down the next save's run */
    if (c->rep.status == ENG_PASS && c->rep.n_samples > 0) c->refs_due = util_now() + 1.5;
    if (c->rep.status == ENG_PASS && c->run_hash == c->kernel_hash) start_verdict(a);
    else if (c->vd && c->rep.status != ENG_CANCELLED) c->vd->n = 0; /* wrong here: no checklist to show */
    if (c->rep.status == ENG_BUILD && c->rep.error_line > 0) {
        a->st.pane[PANE_KERNEL].len = c->kernel_doc.n;
        tui_list_goto(&a->st.pane[PANE_KERNEL], c->rep.error_line - 1);
    }
    if (a->st.tab == TAB_ANALYSIS && c->rep.status != ENG_BUILD) {
        if (c->gm_hash != c->kernel_hash) start_analysis(a);
        mark_tabs_dirty(a);
        return;
    }
    a->st.tab = TAB_RESULT;
    a->st.tabs[TAB_RESULT].top = 0;
    a->st.tabs[TAB_CHECK].top = 0;
    a->st.tabs[TAB_BUILD].top = a->st.tabs[TAB_BUILD].cur = 0;
    mark_tabs_dirty(a);
}

static int on_path(const char *cmd) {
    char word[512];
    size_t n = strcspn(cmd, " \t");
    if (n == 0 || n >= sizeof word) return 0;
    memcpy(word, cmd, n);
    word[n] = '\0';
    if (strchr(word, '/')) return access(word, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    char buf[1200];
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, word);
        if (len && access(buf, X_OK) == 0) return 1;
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

/* Whether the editor takes "+LINE FILE" (most do) or another form. */
static int line_style(const char *cmd) {
    char word[256];
    size_t n = strcspn(cmd, " \t");
    snprintf(word, sizeof word, "%.*s", (int)n, cmd);
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    if (!strncmp(base, "code", 4) || !strncmp(base, "codium", 6)) return 1; /* -g FILE:LINE */
    if (!strncmp(base, "subl", 4) || !strcmp(base, "zed")) return 2;         /* FILE:LINE */
    return 0;
}

static void handle_jobs(ui_app *a);

/* Runs the editor on the kernel; the screen comes back afterwards. Saves
 * made meanwhile are run in the background. */
static void edit_kernel(ui_app *a, int line) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter) return;
    if (c->kernel_ro) {
        char buf[1200];
        snprintf(buf, sizeof buf, T("Your copy of the kernel cannot be created: %s. Set CLTUTOR_WORKSPACE to a folder you can write, or start cltutor with --workspace DIR."), c->kernel_err);
        show_message(a, buf);
        return;
    }
    if (line <= 0 && c->have_rep && c->rep.error_line > 0) line = c->rep.error_line;
    if (line <= 0 && a->st.pane[PANE_KERNEL].cur > 0) line = a->st.pane[PANE_KERNEL].cur + 1;
    const char *cands[4] = {getenv("VISUAL"), getenv("EDITOR"), "nano", "vi"};
    const char *ed = NULL;
    char tried[600] = "";
    for (int i = 0; i < 4 && !ed; i++) {
        if (!cands[i] || !*cands[i]) continue;
        if (on_path(cands[i])) ed = cands[i];
        else {
            size_t tl = strlen(tried);
            snprintf(tried + tl, sizeof tried - tl, "%s%s", tl ? ", " : "", cands[i]);
        }
    }
    if (!ed) {
        char buf[1600];
        snprintf(buf, sizeof buf, T("No editor found (tried: %s). Set one, for example: export EDITOR=nano, or edit %s in any editor: saving it reruns it here."), tried, c->kernel_path);
        show_message(a, buf);
        return;
    }
    char script[600], arg1[64], arg2[1500];
    int style = line_style(ed);
    const char *argv[8];
    int n = 0;
    snprintf(script, sizeof script, "exec %s \"$@\"", ed);
    argv[n++] = "/bin/sh";
    argv[n++] = "-c";
    argv[n++] = script;
    argv[n++] = "sh";
    if (line > 0 && style == 1) {
        argv[n++] = "-g";
        snprintf(arg2, sizeof arg2, "%s:%d", c->kernel_path, line);
        argv[n++] = arg2;
    } else if (line > 0 && style == 2) {
        snprintf(arg2, sizeof arg2, "%s:%d", c->kernel_path, line);
        argv[n++] = arg2;
    } else {
        if (line > 0) {
            snprintf(arg1, sizeof arg1, "+%d", line);
            argv[n++] = arg1;
        }
        argv[n++] = c->kernel_path;
    }
    argv[n] = NULL;
    def_prog_mode();
    endwin();
    a->editing = 1;
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTSTP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid > 0) {
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG | WUNTRACED);
            if (w == pid && WIFSTOPPED(status)) {
                /* the editor was suspended (Ctrl-Z in it): stop with it, so the shell gets the terminal */
                kill(getpid(), SIGSTOP);
                kill(pid, SIGCONT);
                continue;
            }
            if (w == pid || (w < 0 && errno != EINTR)) break;
            /* saves made in the editor run now, in the background */
            struct pollfd pfd[2] = {{tui_jobs_wake_fd(&a->jobs), POLLIN, 0}, {tui_watch_fd(&c->watch), POLLIN, 0}};
            poll(pfd, pfd[1].fd >= 0 ? 2 : 1, 100);
            tui_jobs_drain(&a->jobs);
            handle_jobs(a);
            if (tui_watch_check(&c->watch, util_now())) {
                char *text = util_read_file(c->kernel_path, NULL);
                if (text && util_hash_text(text) != c->run_hash && a->st.watch) start_run(a);
                free(text);
            }
            sig_int = sig_tstp = 0;
        }
    }
    a->editing = 0;
    sig_int = sig_tstp = 0;
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    if (pid < 0) {
        set_note(a, 1, "%s", T("Could not start the editor (fork failed)."));
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        char buf[800];
        snprintf(buf, sizeof buf, T("The editor '%s' could not be started. Set $VISUAL or $EDITOR to an editor you have."), ed);
        show_message(a, buf);
        return;
    }
    /* the editor may have saved: reload and run if the file changed */
    tui_watch_check(&c->watch, util_now() + 10);
    char *text = util_read_file(c->kernel_path, NULL);
    unsigned long long h = util_hash_text(text ? text : "");
    free(text);
    if (h != c->kernel_hash || h != c->run_hash) {
        load_kernel(a);
        if (a->st.watch && h != c->run_hash) start_run(a);
    }
}

static void reset_exercise(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter || c->kernel_ro) return;
    char bak[1500], err[1600];
    int r = paths_reset_exercise(&a->paths, c->l, c->kernel_path, bak, sizeof bak, err, sizeof err);
    if (r < 0) {
        set_note(a, 1, "%s %s", T("Could not reset:"), err);
        return;
    }
    if (r == 1) {
        set_note(a, 0, "%s", T("This already is the starting file: nothing to reset."));
        return;
    }
    load_kernel(a);
    tui_watch_mark_seen(&c->watch);
    c->run_hash = c->kernel_hash; /* the starting file is not an attempt: no run until you edit it */
    const char *slash = strrchr(bak, '/');
    set_note(a, 0, T("The starting file is back; yours is in %s"), slash ? slash + 1 : bak);
}

/* ---- jobs ------------------------------------------------------------- */

static void finish_devices(ui_app *a, tui_job *job) {
    free(a->devs);
    a->devs = job->devs;
    job->devs = NULL;
    a->n_devs = job->n_devs > 0 ? job->n_devs : 0;
    a->devs_state = job->n_devs >= 0 ? 2 : 3;
    util_copy_text(a->devs_err, sizeof a->devs_err, job->n_devs < 0 ? job->err : "");
    a->st.n_devices = a->n_devs;
    a->st.overlay_list.len = a->n_devs;
    /* the preferred device: the same index and name, else the same name */
    if (a->dev_sel < 0 && a->want_dev_name[0]) {
        for (int i = 0; i < a->n_devs; i++)
            if (a->devs[i].index == a->want_dev_index && !strcmp(a->devs[i].name, a->want_dev_name)) a->dev_sel = i;
        for (int i = 0; i < a->n_devs && a->dev_sel < 0; i++)
            if (!strcmp(a->devs[i].name, a->want_dev_name)) a->dev_sel = i;
        a->want_dev_name[0] = '\0';
    }
    if (a->dev_sel >= a->n_devs) a->dev_sel = -1;
    if (a->st.overlay == OV_DEVICES) {
        int cur = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
        a->st.overlay_list.cur = cur > 0 ? cur : 0;
    }
}

static void finish_reference(ui_app *a, tui_job *job) {
    ui_ref *r = ref_slot(a, job->err);
    if (job->rep.status == ENG_PASS && job->rep.n_samples > 0) {
        r->t.state = REF_DONE;
        r->t.ms = job->rep.timing.median;
    } else {
        r->t.state = REF_FAILED;
        snprintf(r->t.note, sizeof r->t.note, "%s", T(job->rep.headline[0] ? job->rep.headline : "failed"));
    }
    if (a->in_chapter) a->ch.tab_dirty[TAB_TIMING] = a->ch.tab_dirty[TAB_RESULT] = 1;
}

static void handle_jobs(ui_app *a) {
    tui_job *job;
    while ((job = tui_jobs_collect(&a->jobs))) {
        if (job->kind == JOB_DEVICES) finish_devices(a, job);
        else if (job->kind == JOB_REFERENCE) finish_reference(a, job);
        else if (job->kind == JOB_RUN && a->in_chapter && job->id == a->ch.run_id) finish_run(a, job);
        else if (job->kind == JOB_ANALYZE && a->in_chapter && job->id == a->ch.gm_id) finish_analysis(a, job);
        else if (job->kind == JOB_VERDICT && a->in_chapter && job->id == a->ch.vd_id) finish_verdict(a, job);
        tui_job_free(job);
    }
}

/* ---- the event loop --------------------------------------------------- */

static int translate_key(int ch) {
    switch (ch) {
    case KEY_UP: return TK_UP;
    case KEY_DOWN: return TK_DOWN;
    case KEY_LEFT: return TK_LEFT;
    case KEY_RIGHT: return TK_RIGHT;
    case KEY_PPAGE: return TK_PGUP;
    case KEY_NPAGE: return TK_PGDN;
    case KEY_HOME: return TK_HOME;
    case KEY_END: return TK_END;
    case KEY_ENTER: case '\r': case '\n': return TK_ENTER;
    case '\t': return TK_TAB;
    case KEY_BTAB: return TK_BTAB;
    case KEY_BACKSPACE: case 127: return TK_BACKSPACE;
    case KEY_F(1): return TK_F1;
    case KEY_F(5): return TK_F5;
    case KEY_RESIZE: return TK_RESIZE;
    default: return ch;
    }
}

static void toggle_lang(ui_app *a) {
    tui_text_set_lang(!strcmp(tui_text_lang(), "zh") ? "en" : "zh");
    prefs_save(a);
    if (a->in_chapter) {
        load_lesson_text(a);
        mark_tabs_dirty(a);
    }
}

static void set_device(ui_app *a, int i) {
    if (i < 0 || i >= a->n_devs) return;
    int before = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
    a->dev_sel = i;
    prefs_save(a);
    char buf[300];
    set_note(a, 0, T("Device: %s"), ui_device_label(a, buf, sizeof buf));
    if (a->in_chapter) {
        mark_tabs_dirty(a);
        if (i != before && a->ch.have_rep) start_run(a);
    }
}

static void next_hint(ui_app *a) {
    if (!a->in_chapter) return;
    progress_chapter *pc = progress_get(&a->prog, a->ch.l->id, 1);
    if (!pc) return;
    if (pc->hints_seen < a->ch.l->n_hints) {
        progress_set_hints_seen(&a->prog, a->ch.l->id, pc->hints_seen + 1);
        save_progress(a);
    }
    a->st.overlay_list.top = 1 << 20; /* show the newest */
}

static void suspend_self(ui_app *a) {
    if (a->in_chapter && a->ch.run_id) a->ch.suspended_during_run = 1;
    def_prog_mode();
    endwin();
    kill(getpid(), SIGSTOP);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
}

static void do_action(ui_app *a, tui_action act) {
    switch (act.kind) {
    case ACT_QUIT: a->quit = 1; break;
    case ACT_OPEN_CHAPTER:
        if (act.arg >= 0 && act.arg < a->cat.count) open_chapter(a, act.arg);
        break;
    case ACT_HOME: close_chapter(a); break;
    case ACT_EDIT: edit_kernel(a, act.arg); break;
    case ACT_EDIT_ROW: {
        if (!a->in_chapter) break;
        st_doc *d = &a->ch.tabs[a->st.tab];
        int row = act.arg, line = 0;
        for (int i = row; i >= 0 && i < d->n && !line; i--) line = d->lines[i].tag;
        if (line > 0 || a->st.tab == TAB_BUILD) edit_kernel(a, line);
        break;
    }
    case ACT_RUN:
        if (a->in_chapter) start_run(a);
        break;
    case ACT_CANCEL:
        if (a->in_chapter && a->ch.run_id) {
            a->ch.run_by_user_cancel = 1;
            tui_jobs_cancel(&a->jobs, JOB_RUN);
            set_note(a, 0, "%s", T("Stopping the run…"));
        }
        break;
    case ACT_TOGGLE_WATCH:
        set_note(a, 0, "%s", act.arg ? T("Watch on: saving the file reruns it.") : T("Watch off: press r to run."));
        break;
    case ACT_NEXT_HINT: next_hint(a); break;
    case ACT_SET_DEVICE: set_device(a, act.arg); break;
    case ACT_TOGGLE_LANG: toggle_lang(a); break;
    case ACT_SUSPEND: suspend_self(a); break;
    case ACT_REDRAW: clearok(curscr, TRUE); break;
    case ACT_TAB_CHANGED:
        if (act.arg == TAB_SOLUTION && !ui_solution_unlocked(a)) a->ch.tab_dirty[TAB_SOLUTION] = 1;
        if (act.arg == TAB_ANALYSIS && a->in_chapter &&
            (!a->ch.gm || a->ch.gm->status != GM_OK || a->ch.gm_hash != a->ch.kernel_hash))
            start_analysis(a);
        break;
    case ACT_RESET_EXERCISE: reset_exercise(a); break;
    case ACT_RELOAD_DEVICES:
        if (act.arg == 0 || a->devs_state != 2) request_devices(a);
        if (act.arg == 1) { /* the dialog opens on the device in use */
            int cur = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
            a->st.overlay_list.len = a->n_devs;
            a->st.overlay_list.cur = cur > 0 ? cur : 0;
        }
        break;
    case ACT_SECTION: {
        if (!a->in_chapter) break;
        st_doc *d = &a->ch.lesson_doc;
        tui_list *v = &a->st.pane[PANE_LESSON];
        int row = -1;
        if (act.arg > 0) {
            for (int i = v->top + 1; i < d->n && row < 0; i++)
                if (d->lines[i].tag > MDR_HEADING_TAG && d->lines[i].tag <= MDR_HEADING_TAG + 3 &&
                    d->lines[i - 1].tag != d->lines[i].tag) row = i;
        } else {
            for (int i = v->top - 1; i >= 0 && row < 0; i--)
                if (d->lines[i].tag > MDR_HEADING_TAG && d->lines[i].tag <= MDR_HEADING_TAG + 3 &&
                    (i == 0 || d->lines[i - 1].tag != d->lines[i].tag)) row = i;
            if (row < 0) row = 0;
        }
        if (row >= 0) {
            v->top = row;
            tui_list_clamp(v);
        }
        a->st.focus = PANE_LESSON;
        break;
    }
    case ACT_NONE: break;
    }
}

static void handle_key(ui_app *a, int ch) {
    int key = translate_key(ch);
    if (key == TK_RESIZE) {
        getmaxyx(stdscr, a->rows, a->cols);
    }
    int before_reset = a->st.confirm_reset;
    tui_action act = tui_key(&a->st, key);
    if (a->st.confirm_reset && !before_reset)
        set_note(a, 0, "%s", T("Press X again to put the starting file back (yours is kept as .bak)."));
    do_action(a, act);
}

static void append_warning(ui_app *a, const char *text) {
    size_t n = strlen(a->warn);
    snprintf(a->warn + n, sizeof a->warn - n, "%s\n", text);
}

static void load_course(ui_app *a, const char *workspace, char *fatal, size_t flen) {
    char err[1400];
    if (config_load(&a->cfg, err, sizeof err) != 0) append_warning(a, err);
    if (paths_init(&a->paths, workspace, err, sizeof err) != 0) {
        snprintf(fatal, flen, "%s", err);
        return;
    }
    char lessons[1200];
    paths_lessons(&a->paths, lessons, sizeof lessons);
    if (catalog_load(&a->cat, lessons, err, sizeof err) != 0) {
        snprintf(fatal, flen, "%s", err);
        return;
    }
    if (a->cat.n_skipped) snprintf(a->warn, sizeof a->warn, "%s", a->cat.skipped);
    workspace_news news;
    if (workspace_prepare(&a->paths, &news) != 0) append_warning(a, news.error);
    else if (news.moved || news.moved_progress)
        snprintf(a->notice, sizeof a->notice, T(WORKSPACE_MOVED_FMT), a->paths.workspace, news.moved,
                 news.moved_progress ? T(WORKSPACE_MOVED_PROGRESS) : "");
    char state[1200], file[1300];
    if (paths_state_dir(&a->paths, state, sizeof state) != 0) {
        snprintf(a->progress_error, sizeof a->progress_error,
                 T("The workspace %s is read-only: progress and changes cannot be saved."), a->paths.workspace);
        append_warning(a, a->progress_error);
        return;
    }
    snprintf(file, sizeof file, "%s/progress.json", state);
    snprintf(a->prefs_path, sizeof a->prefs_path, "%s/ui.json", state);
    int rc = progress_load(&a->prog, file, &a->cat, err, sizeof err);
    if (rc >= 0) a->have_progress = 1;
    if (rc == 1) append_warning(a, err);
    if (rc < 0) {
        snprintf(a->progress_error, sizeof a->progress_error, "%s %s", T("Progress not saved:"), err);
        append_warning(a, a->progress_error);
    }
}

static void init_colors_and_locale(ui_app *a) {
    const char *cs = nl_langinfo(CODESET);
    a->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    if (!a->utf8) {
        /* a terminal with no locale set is nearly always UTF-8 today; one
         * that names a UTF-8 locale this machine lacks (zh_CN.UTF-8 without
         * the locales package) still is */
        const char *lc = getenv("LC_ALL"), *ctype = getenv("LC_CTYPE"), *lang = getenv("LANG");
        const char *named = lc && *lc ? lc : ctype && *ctype ? ctype : lang;
        int unset = !named || !*named || !strcmp(named, "C") || !strcmp(named, "POSIX");
        int says_utf8 = named && (util_contains_ci(named, "utf-8") || util_contains_ci(named, "utf8"));
        if ((unset || says_utf8) && setlocale(LC_CTYPE, "C.UTF-8")) a->utf8 = 1;
    }
}

int ui_available(void) {
    const char *term = getenv("TERM");
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

int ui_main(const char *workspace) {
    static ui_app app;
    ui_app *a = &app;
    memset(a, 0, sizeof *a);
    a->dev_sel = -1;
    a->want_dev_index = -1;
    if (!setlocale(LC_ALL, "")) setlocale(LC_CTYPE, ""); /* one missing locale (LC_MESSAGES) spoils them all */
    init_colors_and_locale(a);
    tui_text_set_lang(tui_text_default_lang());
    const char *to = getenv("CLTUTOR_UI_TIMEOUT");
    a->timeout_s = to && atof(to) > 0 ? atof(to) : 10;
    a->force_poll = getenv("CLTUTOR_UI_POLL") && *getenv("CLTUTOR_UI_POLL") == '1';

    char fatal[1400] = "";
    load_course(a, workspace, fatal, sizeof fatal);
    if (fatal[0]) {
        fprintf(stderr, "cltutor: %s\n", fatal);
        return EXIT_USAGE;
    }
    prefs_load(a);
    char err[256];
    if (pipe2(self_pipe, O_NONBLOCK | O_CLOEXEC) != 0 || tui_jobs_start(&a->jobs, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor: cannot start the interface\n");
        return 1;
    }
    install_signals();
    atexit(restore_terminal);
    if (!newterm(NULL, stdout, stdin)) {
        tui_jobs_stop(&a->jobs, 1.0);
        fprintf(stderr, "cltutor: this terminal (TERM=%s) is not supported; try TERM=xterm-256color\n",
                getenv("TERM") ? getenv("TERM") : "");
        return 1;
    }
    curses_on = 1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    ui_colors_init(a);
    getmaxyx(stdscr, a->rows, a->cols);

    tui_state_init(&a->st, a->cat.count);
    for (int i = 0; i < a->cat.count && i < 100; i++) a->st.chapter_numbers[i] = a->cat.items[i].number;
    /* start on the chapter to do next, or where the learner left off */
    int sel = -1;
    for (int i = 0; i < a->cat.count && sel < 0; i++) {
        progress_chapter *pc = progress_get(&a->prog, a->cat.items[i].id, 0);
        if (!pc || pc->state != PROG_PASSED) sel = i;
    }
    if (a->prog.last[0])
        for (int i = 0; i < a->cat.count; i++)
            if (!strcmp(a->cat.items[i].id, a->prog.last)) sel = i;
    a->st.home.cur = sel > 0 ? sel : 0;
    if (a->notice[0]) show_message(a, a->notice);
    request_devices(a);

    int dirty = 1;
    double last_draw = 0;
    while (!a->quit) {
        if (sig_quit) break;
        if (sig_int) {
            sig_int = 0;
            handle_key(a, TK_CTRL_C);
            dirty = 1;
        }
        if (sig_tstp) {
            sig_tstp = 0;
            suspend_self(a);
            dirty = 1;
        }
        if (sig_cont) {
            sig_cont = 0;
            clearok(curscr, TRUE);
            dirty = 1;
        }
        double now = util_now();
        int busy = a->in_chapter && (a->ch.run_id || a->ch.run_due > 0);
        int status_kind = tui_jobs_status(&a->jobs, NULL, NULL);
        if ((busy || status_kind >= 0) && now - last_draw > 0.1) dirty = 1;
        if (a->note[0] && now > a->note_until) {
            a->note[0] = '\0';
            dirty = 1;
        }
        if (dirty) {
            ui_draw(a);
            last_draw = util_now();
            dirty = 0;
        }
        struct pollfd pfd[4];
        int n = 0;
        pfd[n++] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
        pfd[n++] = (struct pollfd){tui_jobs_wake_fd(&a->jobs), POLLIN, 0};
        pfd[n++] = (struct pollfd){self_pipe[0], POLLIN, 0};
        if (a->in_chapter && tui_watch_fd(&a->ch.watch) >= 0) pfd[n++] = (struct pollfd){tui_watch_fd(&a->ch.watch), POLLIN, 0};
        int timeout = 1000;
        if (busy || status_kind >= 0) timeout = 100;
        if (a->in_chapter && tui_watch_fd(&a->ch.watch) < 0) timeout = timeout < 250 ? timeout : 250;
        if (a->in_chapter && a->ch.run_due > 0) {
            int ms = (int)((a->ch.run_due - now) * 1000);
            if (ms < timeout) timeout = ms < 0 ? 0 : ms;
        }
        if (a->in_chapter && a->ch.refs_due > 0) {
            int ms = (int)((a->ch.refs_due - now) * 1000) + 1;
            if (ms < timeout) timeout = ms < 0 ? 0 : ms;
        }
        if (a->note[0]) timeout = timeout < 500 ? timeout : 500;
        int pr = poll(pfd, (nfds_t)n, timeout);
        if (pr < 0 && errno != EINTR) break;
        if (pfd[2].revents) {
            char buf[64];
            while (read(self_pipe[0], buf, sizeof buf) > 0) {}
        }
        if (pfd[1].revents) {
            tui_jobs_drain(&a->jobs);
            handle_jobs(a);
            if (a->in_chapter && a->ch.vd_id && a->ch.vd &&
                tui_jobs_verdict_live(&a->jobs, a->ch.vd_id, a->ch.vd))
                a->ch.tab_dirty[TAB_RESULT] = 1;
            dirty = 1;
        }
        now = util_now();
        /* another process (`cltutor run` or `check` in a second terminal) wrote progress */
        if (a->have_progress && now - a->progress_seen > 1.0) {
            a->progress_seen = now;
            if (progress_refresh(&a->prog)) {
                mark_tabs_dirty(a);
                count_failures(a);
                dirty = 1;
            }
        }
        if (a->in_chapter && tui_watch_check(&a->ch.watch, now)) {
            char *text = util_read_file(a->ch.kernel_path, NULL);
            unsigned long long h = util_hash_text(text ? text : "");
            free(text);
            if (h != a->ch.kernel_hash) {
                load_kernel(a);
                dirty = 1;
            }
            if (a->st.watch && h != a->ch.run_hash) a->ch.run_due = now + 0.03; /* let the editor finish writing */
        }
        if (a->in_chapter && a->ch.run_due > 0 && now >= a->ch.run_due) {
            start_run(a);
            dirty = 1;
        }
        if (a->in_chapter && a->ch.refs_due > 0 && now >= a->ch.refs_due && !a->ch.run_id && !a->ch.run_due) {
            const lesson *prev = ui_previous_lesson(a, a->ch.l);
            if (prev) request_reference(a, prev, a->ch.l);
            request_reference(a, a->ch.l, a->ch.l);
            a->ch.refs_due = 0;
            mark_tabs_dirty(a);
            dirty = 1;
        }
        int ch;
        while ((ch = getch()) != ERR) {
            handle_key(a, ch);
            dirty = 1;
            if (a->quit) break;
        }
        if (pr < 0) dirty = 1;
    }
    close_chapter(a);
    restore_terminal();
    save_progress(a);
    if (tui_jobs_stop(&a->jobs, 1.0) != 0) _exit(0); /* a job that cannot be stopped (listing devices): its worker dies with us */
    engine_cache_free(&a->run_cache);
    gpumodel_cache_free(&a->gm_cache);
    free(a->devs);
    catalog_free(&a->cat);
    progress_free(&a->prog);
    return 0;
}
