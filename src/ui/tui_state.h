/* tui_state — the terminal UI's state and key handling, without curses: which
 * screen, pane, tab and overlay is shown, scroll positions and cursors, and
 * the action each key asks the controller to carry out. */
#ifndef CLT_TUI_STATE_H
#define CLT_TUI_STATE_H

#include "ui/tui_keys.h"

typedef enum { SCR_HOME = 0, SCR_CHAPTER } tui_screen;

typedef enum {
    OV_NONE = 0, OV_HELP, OV_QUICKREF, OV_HINTS, OV_DEVICES, OV_MESSAGE, OV_CONFIRM_QUIT,
    OV_SIZES,      /* the sizes and inputs to run at */
    OV_FILES,      /* the chapter's files: its kernel and its find-the-bug listings */
    OV_WARP,       /* the GPU model's picture of one warp's memory request */
    OV_COUNT
} tui_overlay;

typedef enum { PANE_LESSON = 0, PANE_KERNEL, PANE_RESULTS, PANE_COUNT } tui_pane;

typedef enum {
    TAB_RESULT = 0,   /* pass or fail, the message, a timing line */
    TAB_CHECK,        /* the correctness diff */
    TAB_BUILD,        /* the compiler's messages */
    TAB_TIMING,       /* median, spread, GB/s, speed-ups */
    TAB_HISTORY,      /* every run's median as a bar chart */
    TAB_CHANGES,      /* the learner's kernel against the previous stage's reference */
    TAB_SOLUTION,     /* the reference solution, once unlocked */
    TAB_ANALYSIS,     /* the GPU memory-model report, when available */
    TAB_COUNT
} tui_tab;

/* A scrollable list: the first row shown, an optional cursor. */
typedef struct {
    int top;
    int cur;          /* cursor row (when has_cursor) */
    int rows;         /* rows visible (set by the view) */
    int len;          /* rows of content (set by the view) */
    int has_cursor;
} tui_list;

void tui_list_clamp(tui_list *v);
void tui_list_move(tui_list *v, int delta);
void tui_list_page(tui_list *v, int dir);
void tui_list_home(tui_list *v);
void tui_list_end(tui_list *v);
/* Puts the cursor on row (and scrolls it into view). */
void tui_list_goto(tui_list *v, int row);

typedef enum {
    ACT_NONE = 0,
    ACT_QUIT,             /* leave the program */
    ACT_OPEN_CHAPTER,     /* arg: index into the catalogue */
    ACT_HOME,             /* back to the chapter list */
    ACT_EDIT,             /* open the kernel in the editor; arg: line (0: the first build error, if any) */
    ACT_EDIT_ROW,         /* open the editor at the line a row of the current tab points to; arg: row */
    ACT_RUN,              /* rerun now */
    ACT_CANCEL,           /* stop the running job */
    ACT_TOGGLE_WATCH,
    ACT_NEXT_HINT,        /* reveal one more hint */
    ACT_NEXT_CHAPTER,     /* open the chapter after this one */
    ACT_SET_DEVICE,       /* arg: index into the device list */
    ACT_TOGGLE_LANG,
    ACT_SUSPEND,          /* Ctrl-Z */
    ACT_REDRAW,           /* Ctrl-L or a resize */
    ACT_TAB_CHANGED,      /* a tab opened: the controller may compute its content (arg: tab) */
    ACT_RESET_EXERCISE,   /* confirmed: put the starting file back */
    ACT_RELOAD_DEVICES,
    ACT_SECTION,          /* the lesson's next (arg 1) or previous (-1) heading */
    ACT_SIZES,            /* the sizes dialog opened: put its cursor on the size in use */
    ACT_SET_SIZE,         /* arg: index into the sizes */
    ACT_TIME_LIMIT,       /* the next time limit for a run */
    ACT_CHECK_ALL,        /* every visible test, the race check and the technique, now */
    ACT_FILES,            /* the files dialog opened: put its cursor on the file shown */
    ACT_OPEN_FILE,        /* arg: 0 the chapter's kernel, k the k-th find-the-bug listing */
    ACT_WARP,             /* the warp picture opened; arg: a kernel line (> 0), -(row + 1) of the GPU-model tab, 0 the busiest */
    ACT_CHANGES_BASE,     /* the Changes tab compares with the other base (changes_vs_prev switched) */
} tui_action_kind;

typedef struct {
    tui_action_kind kind;
    int arg;
} tui_action;

typedef struct {
    tui_screen screen;
    tui_overlay overlay;
    int n_chapters;
    int chapter_numbers[100];  /* the catalogue's chapter numbers, for the digit keys */
    tui_list home;           /* cursor = selected chapter */
    tui_pane focus;
    tui_tab tab;
    int zoom;                /* the focused pane fills the screen */
    tui_list pane[PANE_COUNT];
    int kernel_hscroll;      /* columns scrolled right in the kernel pane */
    tui_list tabs[TAB_COUNT];
    int tab_enabled[TAB_COUNT];
    tui_list overlay_list;   /* help, reference, hints, devices (cursor there) */
    int n_devices;
    int n_sizes, n_files;    /* the choices of the sizes and files dialogs */
    int running;             /* a run is in progress (set by the controller) */
    int next_offered;        /* the open chapter passed on the text it holds and another follows: n opens it
                              * (set by the controller; the hints stay behind h) */
    int watch;               /* rerun on save */
    int confirm_reset;       /* 'X' pressed once: the next 'X' resets */
    int changes_vs_prev;     /* the Changes tab: the kernel against the previous stage, not the starting file */
    char message[512];       /* OV_MESSAGE text, or a status line note */
} tui_state;

void tui_state_init(tui_state *s, int n_chapters);

/* Handles one key: updates the state and says what the controller must do. */
tui_action tui_key(tui_state *s, int key);

/* Switches to the chapter screen (resets scrolls and tabs). */
void tui_open_chapter(tui_state *s);
/* Opens a tab (if enabled); returns 1 when it changed. */
int tui_set_tab(tui_state *s, tui_tab t);
/* Next and previous enabled tab from t. */
tui_tab tui_tab_step(const tui_state *s, tui_tab t, int dir);
/* The list that scroll keys move now (overlay, tab or pane). */
tui_list *tui_active_list(tui_state *s);
/* Whether a tab's list has a cursor. */
int tui_tab_has_cursor(tui_tab t);

#endif
