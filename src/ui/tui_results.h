/* tui_results — a run's results as styled lines for the UI's results pane:
 * the verdict, the correctness diff, the build log, timing with speed-ups,
 * and the chapter's run history as a bar chart. No curses here. */
#ifndef CLT_TUI_RESULTS_H
#define CLT_TUI_RESULTS_H
#include "course/catalog.h"
#include "run/engine.h"
#include "course/progress.h"
#include "text/stext.h"
#include "grade/verdict.h"

typedef enum { REF_NONE = 0, REF_WAITING, REF_MEASURING, REF_DONE, REF_FAILED } tui_ref_state;

/* A reference kernel's time on the learner's device, for comparisons. */
typedef struct {
    tui_ref_state state;
    int chapter;
    double ms;
    char note[160];        /* why it failed */
} tui_ref_time;

typedef struct {
    const lesson *lesson;
    const engine_report *rep;   /* the latest run, or NULL */
    int running;                /* a run is under way */
    double prev_run_ms;         /* the learner's previous passing run on the same device, 0 none */
    tui_ref_time prev_ref;      /* the previous chapter's reference */
    tui_ref_time own_ref;       /* this chapter's reference */
    int utf8;                   /* the terminal shows UTF-8 */
    int run_number;             /* the run's number in the chapter's history, 0 unknown */
    const progress_run *last_run; /* the chapter's last recorded run (before this session's) of this file, or NULL */
    const progress_run *last_run_other; /* ... when it ran another text of the file (before a reset, an edit) */
    const verdict *verdict;     /* the chapter's checklist for this file, or NULL */
    int verdict_running;        /* it is still filling */
    const char *source;         /* the kernel text the latest run built, NULL when the file changed since */
    const char *passed_copy;    /* the chapter passed before with another text, kept there (workspace-relative); or NULL */
} tui_results_in;

/* Whether a passing run's time may be shown: not while the race check that
 * may take it back still runs, nor once it failed (a racy time is luck),
 * nor once a visible test gave a wrong answer (right at one size only). */
typedef enum { TUI_TIME_SHOWN, TUI_TIME_CHECKING, TUI_TIME_UNSAFE, TUI_TIME_WRONG } tui_time_state;
tui_time_state tui_results_time_state(const tui_results_in *in);
/* The status line's words for the latest run, from the same record as the
 * tabs: "✓ Correct · 10.00 ms", "✓ Correct · ⠋ checking the chapter… 3/14"
 * (spin: the spinner's frame); *good when it went well. */
void tui_results_status(const tui_results_in *in, const char *spin, char *buf, size_t len, int *good);
/* The status line's words while a run is under way: its step, launches and
 * seconds ("⠋ building the kernel…  0.2 s"), after the checked launch's
 * answer once it is known ("✓ Correct · ⠋ timing the kernel 2/30  0.8 s");
 * *style: 1 that answer is right, -1 wrong, 0 not known yet. */
void tui_results_running(const run_progress *pr, int utf8, const char *spin, char *buf, size_t len, int *style);

void tui_results_summary(const tui_results_in *in, int width, st_doc *out);
void tui_results_check(const tui_results_in *in, int width, st_doc *out);
void tui_results_timing(const tui_results_in *in, int width, st_doc *out);
/* Every run's median as a horizontal bar; device_now marks runs on other devices. */
/* What a run of the history came to, in words: the chapter's verdict when
 * it was decided, else how the one size went; *good when it went well. */
const char *tui_results_run_outcome(const progress_run *r, int *good);
void tui_results_history(const progress_chapter *pc, const char *device_now, int width, int utf8, st_doc *out);

/* "1.81x faster", "3.20x slower", "about as fast" (ratio = before / after). */
void tui_speedup_text(double before_ms, double after_ms, char *buf, size_t len);
/* Parses "FILE:LINE:COL" at the start of a build-log line: the line, or 0. */

#endif
