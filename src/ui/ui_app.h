/* ui_app — the course's state between frames and its controller, without
 * curses (ui_app.c); the terminal (src/term) feeds it keys and time, and
 * draws it. */
#ifndef CLT_UI_APP_H
#define CLT_UI_APP_H
#include "course/catalog.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "course/paths.h"
#include "course/config.h"
#include "course/progress.h"
#include "text/stext.h"
#include "run/wproto_warm.h"
#include "ui/tui_jobs.h"
#include "ui/tui_results.h"
#include "ui/tui_state.h"
#include "ui/tui_watch.h"

#define UI_MAX_REFS 64
#define UI_SOLUTION_AFTER 3   /* failed runs before the reference solution opens */

typedef struct {
    char key[256];            /* chapter | device | size */
    tui_ref_time t;
} ui_ref;

typedef struct {
    const lesson *l;
    int index;                /* in the catalogue */
    char kernel_path[1400];   /* the learner's file (or the starting file when the workspace is read-only) */
    char display[300];        /* how messages name it */
    int kernel_ro;            /* the learner's copy could not be made */
    char kernel_err[600];
    char *kernel_text;
    unsigned long long kernel_hash;
    st_doc kernel_doc;        /* highlighted, one line per source line */
    char *lesson_md;
    int lesson_fallback;      /* the Chinese text is missing: English shown */
    st_doc lesson_doc;
    int lesson_w;             /* width lesson_doc was rendered at */
    engine_report rep;        /* the latest run */
    int have_rep;
    double prev_run_ms;       /* the learner's previous passing run on that device */
    int run_id;               /* the job running now, 0 none */
    int run_by_user_cancel;   /* the learner asked to stop it */
    unsigned long long run_hash;
    char passed_copy[1400];   /* where the chapter's last passing text is kept */
    double run_due;           /* when a save's rerun starts (0: none due) */
    tui_watch watch;
    st_doc tabs[TAB_COUNT];
    int tab_w[TAB_COUNT];
    int tab_dirty[TAB_COUNT];
    int failed_runs;
    int run_number;           /* the latest run's number in the history */
    double refs_due;          /* when to time the reference kernels (after a pass, once the learner pauses) */
    int suspended_during_run;
    /* the GPU memory-model analysis (tui_jobs JOB_ANALYZE, gpumodel.h) */
    gpumodel_report *gm;      /* the latest, or NULL */
    ptx_report *ptx;          /* the same text compiled for NVIDIA PTX, or NULL */
    unsigned long long gm_hash;       /* the kernel text it analysed */
    unsigned long long gm_want_hash;  /* the text the running analysis looks at */
    int gm_id;                /* the analysis running now, 0 none */
    /* the chapter's whole verdict (tui_jobs JOB_VERDICT, verdict.h), run after a correct run */
    verdict *vd;              /* the checklist: live while vd_id runs, else the last one; NULL none */
    int vd_id;                /* the verdict running now, 0 none */
    unsigned long long vd_hash;       /* the kernel text it is about */
    double vd_median_ms;      /* the correct run's time it started from, kept as a best time on a pass */
    char vd_device[256];
    int file;                 /* the file shown: 0 the chapter's kernel, k its k-th find-the-bug listing */
    int bug_hints_seen[LESSON_MAX_BUGS]; /* a listing's hints shown so far (the chapter's are in progress) */
    char size_spec[64];       /* the size runs use, "" the chapter's (or the listing's) */
    int warp_line;            /* the kernel line the warp picture shows, 0 the busiest instruction */
} ui_chapter;

#define UI_MIN_COLS 60
#define UI_MIN_ROWS 18

typedef struct {
    int y, x, h, w;           /* a pane: h includes its title row; w 0 when not shown */
} ui_rect;

/* One frame's layout and the documents it shows, prepared before each
 * draw (ui_frame.c) so that the view only reads. */
typedef struct {
    int rows, cols;
    int too_small;
    /* the chapter list */
    int home_welcome_rows;    /* 1 or 2 */
    int home_warn_rows;
    int home_list_y, home_list_rows, home_title_w;
    /* a chapter */
    ui_rect lesson, kernel, results;
    int kernel_digits, kernel_gutter, kernel_code_w;
    int note_beside;          /* the GPU model's notes beside the code */
    int note_bar;             /* rows of the note under the code (0, 1, 2) */
    /* the dialog */
    ui_rect dialog;
    st_doc dialog_doc;
    char dialog_title[128];
    /* the job running, as it stood */
    int job_kind, job_id;
    run_progress job_progress;
    /* each chapter's state for its file as it is now ("changed" after a reset or an edit of a passed one) */
    progress_state state[CATALOG_MAX];
    int passed;               /* chapters passed on their file as it is */
    int next;                 /* the first chapter not passed, or -1 */
} ui_frame;

typedef struct {
    /* the course */
    paths paths;
    catalog cat;
    progress prog;
    int have_progress;
    double progress_seen;     /* when the progress file was last looked at for other writers */
    engine_cache run_cache;   /* the golden reference of the last run, kept for reruns (the job thread's) */
    wproto_warm warm;         /* a worker started while the learner edits, for the next new text's first run */
    gpumodel_cache gm_cache;  /* the GPU model's last analysis of the file compared with (the job thread's) */
    char warn[3200];          /* shown on the home screen: what did not load */
    config cfg;               /* /etc/cltutor.conf and the user's settings */
    char notice[1600];        /* told once at start: the work moved to the workspace */
    char progress_error[1700];/* why progress cannot be saved, told at each save */
    char prefs_path[1300];
    /* terminal */
    int utf8, color;
    int rows, cols;
    /* devices */
    engine_device *devs;
    int n_devs;
    int devs_state;           /* 0 unknown, 1 listing, 2 known, 3 failed */
    char devs_err[600];
    int dev_sel;              /* index into devs, -1 for the engine's default */
    char want_dev_name[256];  /* from the preferences, until the list arrives */
    int want_dev_index;
    char last_dev_name[256];  /* the device the last run used */
    char last_dev_type[8];
    /* work */
    tui_jobs jobs;
    tui_state st;
    int in_chapter;
    ui_chapter ch;
    ui_ref refs[UI_MAX_REFS];
    int n_refs;
    /* status line */
    char note[600];
    int note_err;
    double note_until;
    int editing;              /* an editor owns the terminal */
    int quit;
    double timeout_s;
    int force_poll;
    ui_frame frame;           /* what the next draw shows */
} ui_app;

/* What only the terminal can do, asked for by a key. */
typedef enum { UI_DO_NOTHING = 0, UI_DO_EDIT, UI_DO_SUSPEND, UI_DO_REDRAW } ui_effect_kind;
typedef struct {
    ui_effect_kind kind;
    int line;                 /* UI_DO_EDIT: the line to open at (0: the first build error, or the cursor) */
} ui_effect;

/* The editor's command line for the kernel. */
typedef struct {
    char name[256];           /* as $VISUAL or $EDITOR gave it */
    char script[600], line_arg[32], at[1500];
    const char *argv[8];      /* /bin/sh -c 'exec EDITOR "$@"' sh [+LINE] FILE */
    int line;                 /* the line it opens at (a build error's, the cursor's), 0 none */
} ui_editor;

/* Loads the course, the progress and the settings, and starts the job
 * thread; -1 with the reason in fatal. */
int ui_app_open(ui_app *a, const char *workspace, char *fatal, size_t flen);
/* Saves, stops the jobs and frees; -1 when a job could not be stopped. */
int ui_app_close(ui_app *a);
/* A key (tui_state.h's TK_ codes or a character). */
ui_effect ui_app_key(ui_app *a, int key);
/* Takes in the finished jobs. */
int ui_app_collect(ui_app *a);
/* The timers (notes, saves to rerun, reference timings, other writers'
 * progress); 1 when the screen changed. */
int ui_app_tick(ui_app *a, double now);
/* Whether work is under way (the screen redraws often), and how long the loop may sleep. */
int ui_app_busy(ui_app *a);
int ui_app_wait_ms(ui_app *a, double now);
/* The terminal stops the program (Ctrl-Z): a run's clock will be wrong. */
void ui_app_suspending(ui_app *a);
/* The editor: its command (-1 after a message saying why there is none),
 * the work done while it runs, and what follows its exit. */
int ui_app_editor(ui_app *a, int line, ui_editor *ed);
void ui_app_while_editing(ui_app *a);
void ui_app_after_edit(ui_app *a, const ui_editor *ed, int started, int status);
/* The status line's note (err: shown as an error, for longer), and a message dialog. */
void ui_app_note(ui_app *a, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ui_app_message(ui_app *a, const char *text);

/* Lays out the next frame for a terminal of a->rows x a->cols and builds
 * what it shows (tab, lesson and dialog documents, scroll limits). */
void ui_frame_prepare(ui_app *a);
void ui_frame_free(ui_frame *f);
/* The chapter's one-line summary in the current language: lesson.ini's in
 * English; in Chinese the first paragraph of lesson.zh.md (its goal). */
const char *ui_chapter_summary(const lesson *l, char *buf, size_t len);
/* The key that does what a command line shown in a lesson does, as a
 * note to put after it (" (key C)"), or NULL (an mdr_code_note). */
const char *ui_key_for_command(const char *code, void *user);
/* The home screen's first sentence. */
const char *ui_home_welcome(const ui_app *a, char *buf, size_t len);

/* The sizes a chapter offers (its own, its inputs, its visible tests, its
 * listings'), and the one the next run uses (NULL: the chapter's). */
int ui_chapter_sizes(const ui_app *a, char sizes[][64], int max);
const char *ui_chapter_size(const ui_app *a);

/* The learner's kernel file as the UI names it (relative to the workspace). */
const char *ui_kernel_label(const ui_app *a);
/* For the view: */
const char *ui_device_label(const ui_app *a, char *buf, size_t len);
int ui_default_device(const ui_app *a);
const tui_ref_time *ui_ref_get(ui_app *a, int chapter);
/* The device runs use now: its name (for caches and history). */
const char *ui_device_key(const ui_app *a);
/* The chapter this one is compared with, where it solves the same problem; else NULL. */
const lesson *ui_previous_lesson(const ui_app *a, const lesson *l);
void ui_results_input(ui_app *a, tui_results_in *in);
int ui_solution_unlocked(const ui_app *a);
/* Fills a tab's document (if dirty or the width changed). */
void ui_tab_doc(ui_app *a, tui_tab t, int width);
/* The GPU model's note for a kernel line (1-based), or NULL. */
const char *ui_gm_note(const ui_app *a, int line);
/* Overlay contents */
void ui_overlay_doc(ui_app *a, tui_overlay o, int width, st_doc *out, char *title, size_t tlen);

#endif
