/* ui_app — what the terminal UI's controller (ui_main.c) and view (ui_draw.c)
 * share: the application's state between frames. */
#ifndef CLT_UI_APP_H
#define CLT_UI_APP_H
#include "course/catalog.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "course/paths.h"
#include "course/config.h"
#include "course/progress.h"
#include "text/stext.h"
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
    unsigned long long gm_hash;       /* the kernel text it analysed */
    unsigned long long gm_want_hash;  /* the text the running analysis looks at */
    int gm_id;                /* the analysis running now, 0 none */
    /* the chapter's whole verdict (tui_jobs JOB_VERDICT, verdict.h), run after a correct run */
    verdict *vd;              /* the checklist: live while vd_id runs, else the last one; NULL none */
    int vd_id;                /* the verdict running now, 0 none */
    unsigned long long vd_hash;       /* the kernel text it is about */
    double vd_median_ms;      /* the correct run's time it started from, kept as a best time on a pass */
    char vd_device[256];
} ui_chapter;

typedef struct {
    /* the course */
    paths paths;
    catalog cat;
    progress prog;
    int have_progress;
    double progress_seen;     /* when the progress file was last looked at for other writers */
    engine_cache run_cache;   /* the golden reference of the last run, kept for reruns (the job thread's) */
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
} ui_app;

/* ui_draw.c */
void ui_draw(ui_app *a);
void ui_colors_init(ui_app *a);
/* The learner's kernel file as the UI names it (relative to the workspace). */
const char *ui_kernel_label(const ui_app *a);

/* ui_main.c: helpers the view uses */
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
