/* ui_app — the course's controller, without curses: loads the course,
 * opens chapters, starts and finishes runs, analyses and verdicts on the job
 * thread, answers the keys' actions, and records progress. The terminal
 * (src/term/ui_main.c) owns the screen, the editor and the signals. */
#define _GNU_SOURCE
#include "ui/ui_app.h"
#include "ui/ui_chapter.h"
#include "base/util.h"
#include "course/workspace.h"
#include "text/clhl.h"
#include "text/mdrender.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the status line and messages ------------------------------------- */

void ui_app_note(ui_app *a, int err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->note, sizeof a->note, fmt, ap);
    va_end(ap);
    a->note_err = err;
    a->note_until = util_now() + (err ? 8 : 4);
}

void ui_app_message(ui_app *a, const char *text) {
    util_copy_text(a->st.message, sizeof a->st.message, text);
    a->st.overlay = OV_MESSAGE;
    a->st.overlay_list.top = a->st.overlay_list.cur = 0;
    a->st.overlay_list.has_cursor = 0;
}

/* Saves now; when it cannot, the status line says where and why, every time. */
void ui_app_save_progress(ui_app *a) {
    char err[1600];
    if (!a->have_progress) {
        ui_app_note(a, 1, "%s", a->progress_error);
        return;
    }
    int rc = progress_save(&a->prog, err, sizeof err);
    if (rc < 0) ui_app_note(a, 1, "%s %s", _("Progress not saved:"), err);
    else if (rc > 0) ui_app_note(a, 1, "%s", err); /* saved, after setting a damaged file aside */
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
        i18n_set_lang(lang->valuestring);
    if (cJSON_IsString(dn)) snprintf(a->want_dev_name, sizeof a->want_dev_name, "%s", dn->valuestring);
    a->want_dev_index = cJSON_IsNumber(di) ? di->valueint : -1;
    cJSON_Delete(o);
}

static void prefs_save(ui_app *a) {
    if (!a->prefs_path[0]) return;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lang", i18n_lang());
    if (a->dev_sel >= 0 && a->dev_sel < a->n_devs) {
        cJSON_AddStringToObject(o, "device_name", a->devs[a->dev_sel].name);
        cJSON_AddNumberToObject(o, "device_index", a->devs[a->dev_sel].index);
    }
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    if (s && util_write_file_atomic(a->prefs_path, s, strlen(s)) != 0)
        ui_app_note(a, 1, "%s %s", _("Settings not saved:"), a->prefs_path);
    free(s);
}

/* ---- devices ---------------------------------------------------------- */

int ui_default_device(const ui_app *a) { return engine_default_device(a->devs, a->n_devs, a->cfg.device); }

const char *ui_device_label(const ui_app *a, char *buf, size_t len) {
    int i = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
    if (i >= 0 && i < a->n_devs) snprintf(buf, len, "%s (%s)", a->devs[i].name, a->devs[i].type);
    else if (a->last_dev_name[0]) snprintf(buf, len, "%s (%s)", a->last_dev_name, a->last_dev_type);
    else if (a->devs_state == 3 || (a->devs_state == 2 && a->n_devs == 0)) snprintf(buf, len, "%s", _("no OpenCL device"));
    else snprintf(buf, len, "%s", _("looking for devices…"));
    return buf;
}

const char *ui_device_spec(const ui_app *a, char *buf, size_t len) {
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
        snprintf(r->t.note, sizeof r->t.note, "%s", withheld ? _("withheld by the instructor") : _("no reference kernel"));
        return;
    }
    tui_job *job = tui_job_new_run(JOB_REFERENCE, ref_lesson, path, NULL, ui_device_spec(a, dev, sizeof dev),
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

static void reset_exercise(ui_app *a) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter || c->kernel_ro) return;
    char bak[1500], err[1600];
    int r = paths_reset_exercise(&a->paths, c->l, c->kernel_path, bak, sizeof bak, err, sizeof err);
    if (r < 0) {
        ui_app_note(a, 1, "%s %s", _("Could not reset:"), err);
        return;
    }
    if (r == 1) {
        ui_app_note(a, 0, "%s", _("This already is the starting file: nothing to reset."));
        return;
    }
    /* the run and the checklist in memory were of the file that was there */
    if (c->run_id) tui_jobs_cancel(&a->jobs, JOB_RUN);
    if (c->vd_id) tui_jobs_cancel(&a->jobs, JOB_VERDICT);
    c->run_id = c->vd_id = 0;
    a->st.running = 0;
    if (c->have_rep) engine_report_free(&c->rep);
    c->have_rep = 0;
    if (c->vd) c->vd->n = 0;
    ui_chapter_load_kernel(a);
    ui_chapter_mark_dirty(a); /* every tab spoke of the file that was there */
    tui_watch_mark_seen(&c->watch);
    c->run_hash = c->kernel_hash; /* the starting file is not an attempt: no run until you edit it */
    const char *slash = strrchr(bak, '/');
    ui_app_note(a, 0, _("The starting file is back; yours is in %s"), slash ? slash + 1 : bak);
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
        snprintf(r->t.note, sizeof r->t.note, "%s", _(job->rep.headline[0] ? job->rep.headline : "failed"));
    }
    if (a->in_chapter) a->ch.tab_dirty[TAB_TIMING] = a->ch.tab_dirty[TAB_RESULT] = 1;
}

void ui_app_handle_jobs(ui_app *a) {
    tui_job *job;
    while ((job = tui_jobs_collect(&a->jobs))) {
        if (job->kind == JOB_DEVICES) finish_devices(a, job);
        else if (job->kind == JOB_REFERENCE) finish_reference(a, job);
        else if (job->kind == JOB_RUN && a->in_chapter && job->id == a->ch.run_id) ui_chapter_finish_run(a, job);
        else if (job->kind == JOB_ANALYZE && a->in_chapter && job->id == a->ch.gm_id) ui_chapter_finish_analysis(a, job);
        else if (job->kind == JOB_VERDICT && a->in_chapter && job->id == a->ch.vd_id) ui_chapter_finish_verdict(a, job);
        tui_job_free(job);
    }
}

static void toggle_lang(ui_app *a) {
    i18n_set_lang(!strcmp(i18n_lang(), "zh") ? "en" : "zh");
    prefs_save(a);
    if (a->in_chapter) {
        if (a->ch.have_rep) { /* "All 256 bins match…" in the new language, where the run's message is it */
            engine_report *r = &a->ch.rep;
            int is_summary = !strcmp(r->message, r->verify.summary);
            verify_resummarise(&r->verify);
            if (is_summary) snprintf(r->message, sizeof r->message, "%s", r->verify.summary);
            else if (!tmsg_empty(&r->message_parts)) /* a build failure, a crash, a time-out */
                tmsg_render(&r->message_parts, r->message, sizeof r->message);
        }
        ui_chapter_load_lesson(a);
        /* the GPU model's report in the new language (the compared file's
         * analysis belongs to the analysis job while one runs) */
        if (a->ch.gm && !a->ch.gm_id)
            gpumodel_retranslate(a->ch.gm, a->gm_cache.set ? &a->gm_cache : NULL, a->ch.l, &a->cat, &a->paths);
        ui_chapter_mark_dirty(a);
    }
}

static void set_device(ui_app *a, int i) {
    if (i < 0 || i >= a->n_devs) return;
    int before = a->dev_sel >= 0 ? a->dev_sel : ui_default_device(a);
    a->dev_sel = i;
    prefs_save(a);
    char buf[300];
    ui_app_note(a, 0, _("Device: %s"), ui_device_label(a, buf, sizeof buf));
    if (a->in_chapter) {
        ui_chapter_mark_dirty(a);
        if (i != before && a->ch.have_rep) ui_chapter_start_run(a);
    }
}

static void next_hint(ui_app *a) {
    if (!a->in_chapter) return;
    if (a->ch.file > 0) { /* a find-the-bug listing: its own hints */
        int *seen = &a->ch.bug_hints_seen[a->ch.file - 1];
        if (*seen < a->ch.l->bugs[a->ch.file - 1].hints.n) (*seen)++;
        a->st.overlay_list.top = 1 << 20;
        return;
    }
    progress_chapter *pc = progress_get(&a->prog, a->ch.l->id, 1);
    if (!pc) return;
    if (pc->hints_seen < a->ch.l->hints.n) {
        progress_set_hints_seen(&a->prog, a->ch.l->id, pc->hints_seen + 1);
        ui_app_save_progress(a);
    }
    a->st.overlay_list.top = 1 << 20; /* show the newest */
}

/* The sizes or files dialog opened: its list, the cursor on the one in use. */
static void list_opened(ui_app *a, int sizes_list) {
    if (!a->in_chapter) return;
    char sizes[24][64];
    int n = ui_chapter_sizes(a, sizes, 24), cur = 0;
    const char *now = ui_chapter_size(a);
    for (int i = 0; now && i < n; i++)
        if (!strcmp(sizes[i], now)) cur = i;
    a->st.n_sizes = n;
    a->st.n_files = 1 + a->ch.l->n_bugs;
    a->st.overlay_list.len = sizes_list ? n : a->st.n_files;
    a->st.overlay_list.cur = sizes_list ? cur : a->ch.file;
}

/* Runs at the i-th size of the chapter's list from now on. */
static void set_size(ui_app *a, int i) {
    if (!a->in_chapter) return;
    char sizes[24][64];
    int n = ui_chapter_sizes(a, sizes, 24);
    if (i < 0 || i >= n) return;
    /* the chapter's own size (or a listing's own) is no choice to keep */
    const lesson *l = a->ch.l;
    const char *own = a->ch.file > 0 && l->bugs[a->ch.file - 1].exposes[0] ? l->bugs[a->ch.file - 1].exposes
                                                                           : l->default_size;
    util_copy_text(a->ch.size_spec, sizeof a->ch.size_spec, strcmp(sizes[i], own) ? sizes[i] : "");
    ui_app_note(a, 0, _("Runs use the size %s now (--size %s on the command line); S changes it."), sizes[i], sizes[i]);
    ui_chapter_start_run(a);
}

/* The next time limit a run may take: 10, 30, 60, 120 s, round. */
static void next_time_limit(ui_app *a) {
    static const double limits[] = {10, 30, 60, 120};
    int i = 0;
    while (i < 4 && limits[i] <= a->timeout_s) i++;
    a->timeout_s = limits[i % 4];
    ui_app_note(a, 0, _("A run may take %.0f s now (--timeout %.0f on the command line); T changes it."), a->timeout_s,
                a->timeout_s);
}

/* The whole check (cltutor check), on the chapter's own kernel. */
static void check_all(ui_app *a) {
    if (!a->in_chapter) return;
    if (a->ch.file != 0) ui_chapter_show_file(a, 0); /* the chapter is passed by its kernel, not a listing */
    ui_chapter_start_verdict(a);
    a->st.tab = TAB_RESULT;
    a->st.focus = PANE_RESULTS;
    a->ch.tab_dirty[TAB_RESULT] = 1;
    ui_app_note(a, 0, "%s", _("Checking: every visible test, the race check and the technique (cltutor check)."));
}

/* Shows file k of the chapter: 0 its kernel, k its k-th find-the-bug listing. */
static void open_file(ui_app *a, int k) {
    if (!a->in_chapter || k < 0 || k > a->ch.l->n_bugs) return;
    a->ch.size_spec[0] = '\0';
    ui_chapter_show_file(a, k);
    if (k == 0) ui_app_note(a, 0, "%s", _("Back to the chapter's kernel."));
    else ui_app_note(a, 0, _("Find the bug: %s. r runs it at %s, where the bug shows; B goes back."),
                     a->ch.l->bugs[k - 1].file, a->ch.l->bugs[k - 1].exposes);
}

/* The warp picture: of the kernel line arg (> 0), of the GPU-model tab's
 * row -arg - 1, or of the busiest instruction; analyses first when needed. */
static void show_warp(ui_app *a, int arg) {
    if (!a->in_chapter) {
        a->st.overlay = OV_NONE;
        return;
    }
    ui_chapter *c = &a->ch;
    c->warp_line = arg > 0 ? arg : 0;
    if (arg < 0) {
        const st_doc *d = &c->tabs[TAB_ANALYSIS]; /* the row's line, or the row above a quoted source line */
        for (int row = -arg - 1; row >= 0 && row < d->n && !c->warp_line && d->lines[row].len > 0; row--)
            c->warp_line = d->lines[row].tag > 0 ? d->lines[row].tag : 0;
    }
    if (!c->gm || c->gm->status != GM_OK || c->gm_hash != c->kernel_hash) ui_chapter_start_analysis(a);
}

/* Carries out a key's action; what only the terminal can do comes back. */
static ui_effect do_action(ui_app *a, tui_action act) {
    switch (act.kind) {
    case ACT_QUIT: a->quit = 1; break;
    case ACT_OPEN_CHAPTER:
        if (act.arg >= 0 && act.arg < a->cat.count) ui_chapter_open(a, act.arg);
        break;
    case ACT_HOME: ui_chapter_close(a); break;
    case ACT_NEXT_CHAPTER:
        if (a->in_chapter && a->ch.index + 1 < a->cat.count) ui_chapter_open(a, a->ch.index + 1);
        break;
    case ACT_EDIT: return (ui_effect){UI_DO_EDIT, act.arg};
    case ACT_EDIT_ROW: {
        if (!a->in_chapter) break;
        st_doc *d = &a->ch.tabs[a->st.tab];
        int row = act.arg, line = 0;
        for (int i = row; i >= 0 && i < d->n && !line; i--) line = d->lines[i].tag;
        if (line > 0 || a->st.tab == TAB_BUILD) return (ui_effect){UI_DO_EDIT, line};
        break;
    }
    case ACT_RUN:
        if (a->in_chapter) ui_chapter_start_run(a);
        break;
    case ACT_CANCEL:
        if (a->in_chapter && a->ch.run_id) {
            a->ch.run_by_user_cancel = 1;
            tui_jobs_cancel(&a->jobs, JOB_RUN);
            ui_app_note(a, 0, "%s", _("Stopping the run…"));
        }
        break;
    case ACT_TOGGLE_WATCH:
        ui_app_note(a, 0, "%s", act.arg ? _("Watch on: saving the file reruns it.") : _("Watch off: press r to run."));
        break;
    case ACT_NEXT_HINT: next_hint(a); break;
    case ACT_SET_DEVICE: set_device(a, act.arg); break;
    case ACT_TOGGLE_LANG: toggle_lang(a); break;
    case ACT_SUSPEND: return (ui_effect){UI_DO_SUSPEND, 0};
    case ACT_REDRAW: return (ui_effect){UI_DO_REDRAW, 0};
    case ACT_TAB_CHANGED:
        if (act.arg == TAB_SOLUTION && !ui_solution_unlocked(a)) a->ch.tab_dirty[TAB_SOLUTION] = 1;
        if (act.arg == TAB_ANALYSIS && a->in_chapter &&
            (!a->ch.gm || a->ch.gm->status != GM_OK || a->ch.gm_hash != a->ch.kernel_hash))
            ui_chapter_start_analysis(a);
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
    case ACT_SIZES:
    case ACT_FILES: list_opened(a, act.kind == ACT_SIZES); break;
    case ACT_SET_SIZE: set_size(a, act.arg); break;
    case ACT_TIME_LIMIT: next_time_limit(a); break;
    case ACT_CHECK_ALL: check_all(a); break;
    case ACT_OPEN_FILE: open_file(a, act.arg); break;
    case ACT_WARP: show_warp(a, act.arg); break;
    case ACT_CHANGES_BASE:
        if (a->in_chapter) a->ch.tab_dirty[TAB_CHANGES] = 1;
        break;
    case ACT_NONE: break;
    }
    return (ui_effect){UI_DO_NOTHING, 0};
}

ui_effect ui_app_key(ui_app *a, int key) {
    int before_reset = a->st.confirm_reset;
    tui_action act = tui_key(&a->st, key);
    if (a->st.confirm_reset && !before_reset)
        ui_app_note(a, 0, "%s", _("Press X again to put the starting file back (yours is kept as .bak)."));
    return do_action(a, act);
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
        workspace_moved_text(a->notice, sizeof a->notice, a->paths.workspace, &news);
    char state[1200], file[1300];
    if (paths_state_dir(&a->paths, state, sizeof state) != 0) {
        snprintf(a->progress_error, sizeof a->progress_error,
                 _("The workspace %s is read-only: progress and changes cannot be saved."), a->paths.workspace);
        append_warning(a, a->progress_error);
        return;
    }
    snprintf(file, sizeof file, "%s/progress.json", state);
    snprintf(a->prefs_path, sizeof a->prefs_path, "%s/ui.json", state);
    int rc = progress_load(&a->prog, file, &a->cat, err, sizeof err);
    if (rc >= 0) a->have_progress = 1;
    if (rc == 1) append_warning(a, err);
    if (rc < 0) {
        snprintf(a->progress_error, sizeof a->progress_error, "%s %s", _("Progress not saved:"), err);
        append_warning(a, a->progress_error);
    }
}

int ui_app_open(ui_app *a, const char *workspace, char *fatal, size_t flen) {
    memset(a, 0, sizeof *a);
    wproto_warm_init(&a->warm);
    a->dev_sel = -1;
    a->want_dev_index = -1;
    const char *to = getenv("CLTUTOR_UI_TIMEOUT");
    a->timeout_s = to && atof(to) > 0 ? atof(to) : 10;
    a->force_poll = getenv("CLTUTOR_UI_POLL") && *getenv("CLTUTOR_UI_POLL") == '1';
    fatal[0] = '\0';
    load_course(a, workspace, fatal, flen);
    if (fatal[0]) return -1;
    prefs_load(a);
    char err[256];
    if (tui_jobs_start(&a->jobs, err, sizeof err) != 0) {
        snprintf(fatal, flen, "cannot start the interface's job thread (%s)", err);
        catalog_free(&a->cat);
        progress_free(&a->prog);
        return -1;
    }
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
    if (a->notice[0]) ui_app_message(a, a->notice);
    request_devices(a);
    return 0;
}

int ui_app_close(ui_app *a) {
    ui_chapter_close(a);
    ui_frame_free(&a->frame);
    ui_app_save_progress(a);
    int stuck = tui_jobs_stop(&a->jobs, 1.0) != 0;
    engine_cache_free(&a->run_cache);
    wproto_warm_free(&a->warm);
    gpumodel_cache_free(&a->gm_cache);
    free(a->devs);
    a->devs = NULL;
    catalog_free(&a->cat);
    progress_free(&a->prog);
    return stuck ? -1 : 0;
}

int ui_app_collect(ui_app *a) {
    tui_jobs_drain(&a->jobs);
    ui_app_handle_jobs(a);
    if (a->in_chapter && a->ch.vd_id && a->ch.vd && tui_jobs_verdict_live(&a->jobs, a->ch.vd_id, a->ch.vd))
        a->ch.tab_dirty[TAB_RESULT] = a->ch.tab_dirty[TAB_CHECK] = 1;
    return 1;
}

int ui_app_busy(ui_app *a) {
    /* a job queued or done but not collected counts: the screen does not show its end yet */
    return (a->in_chapter && (a->ch.run_id || a->ch.run_due > 0)) || tui_jobs_any(&a->jobs);
}

int ui_app_tick(ui_app *a, double now) {
    int changed = 0;
    if (a->note[0] && now > a->note_until) {
        a->note[0] = '\0';
        changed = 1;
    }
    /* another process (`cltutor run` or `check` in a second terminal) wrote progress */
    if (a->have_progress && now - a->progress_seen > 1.0) {
        a->progress_seen = now;
        if (progress_refresh(&a->prog)) {
            if (a->in_chapter) {
                ui_chapter_mark_dirty(a);
                ui_chapter_count_failures(a);
            }
            changed = 1;
        }
    }
    if (a->in_chapter && tui_watch_check(&a->ch.watch, now)) {
        char *text = util_read_file(a->ch.kernel_path, NULL);
        unsigned long long h = util_hash_text(text ? text : "");
        free(text);
        if (h != a->ch.kernel_hash) {
            ui_chapter_load_kernel(a);
            changed = 1;
        }
        if (a->st.watch && h != a->ch.run_hash) a->ch.run_due = now + 0.03; /* let the editor finish writing */
    }
    if (a->in_chapter && a->ch.run_due > 0 && now >= a->ch.run_due) {
        ui_chapter_start_run(a);
        changed = 1;
    }
    if (a->in_chapter && !ui_app_busy(a)) { /* idle: a worker ready for the next save */
        char dev[sizeof a->cfg.device], err[512];
        if (wproto_warm_start(&a->warm, ui_device_spec(a, dev, sizeof dev), err, sizeof err) != 0) { /* runs start their own */ }
    }
    if (a->in_chapter && a->ch.refs_due > 0 && now >= a->ch.refs_due && !a->ch.run_id && !a->ch.run_due) {
        const lesson *prev = ui_previous_lesson(a, a->ch.l);
        if (prev) request_reference(a, prev, a->ch.l);
        request_reference(a, a->ch.l, a->ch.l);
        a->ch.refs_due = 0;
        ui_chapter_mark_dirty(a);
        changed = 1;
    }
    return changed;
}

int ui_app_wait_ms(ui_app *a, double now) {
    int timeout = ui_app_busy(a) ? 100 : 1000;
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
    return timeout;
}

void ui_app_suspending(ui_app *a) {
    if (a->in_chapter && a->ch.run_id) a->ch.suspended_during_run = 1;
}
