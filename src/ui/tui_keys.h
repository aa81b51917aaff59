/* tui_keys — the UI's one key map: which key runs which command where. The
 * key handling (tui_state.c) looks commands up here, and the help screen
 * (tui_help.c) lists the same bindings, so the two cannot disagree. */
#ifndef CLT_TUI_KEYS_H
#define CLT_TUI_KEYS_H
#include <stddef.h>

/* Keys: characters are themselves (ASCII); the rest are these. */
enum {
    TK_NONE = 0,
    TK_CTRL_C = 3,
    TK_CTRL_L = 12,
    TK_CTRL_Z = 26,
    TK_ESC = 27,
    TK_BASE = 0x200000,
    TK_UP, TK_DOWN, TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
    TK_ENTER, TK_TAB, TK_BTAB, TK_BACKSPACE, TK_F1, TK_F5, TK_RESIZE,
};

/* Where a binding holds; a key is looked up in the most specific first
 * (a dialog's own, then any dialog's; the screen's; then everywhere). */
typedef enum {
    KC_EVERYWHERE = 0,
    KC_HOME,        /* the chapter list */
    KC_CHAPTER,     /* a chapter's panes */
    KC_DIALOG,      /* any dialog (help, reference, hints, devices, a message) */
    KC_HINTS,       /* the hints dialog */
    KC_DEVICES,     /* the devices dialog */
    KC_SIZES,       /* the sizes dialog */
    KC_FILES,       /* the chapter's files dialog */
    KC_COUNT
} tui_key_context;

#define TUI_COMMANDS(X)                                                         \
    X(CMD_HELP) X(CMD_QUICKREF) X(CMD_DEVICES) X(CMD_LANGUAGE) X(CMD_INTERRUPT) \
    X(CMD_SUSPEND) X(CMD_REDRAW)                                                \
    X(CMD_UP) X(CMD_DOWN) X(CMD_PAGE_UP) X(CMD_PAGE_DOWN) X(CMD_TOP) X(CMD_BOTTOM) \
    X(CMD_OPEN) X(CMD_OPEN_NUMBER) X(CMD_QUIT)                                  \
    X(CMD_EDIT) X(CMD_RUN) X(CMD_CANCEL) X(CMD_WATCH) X(CMD_NEXT_PANE) X(CMD_PREV_PANE) \
    X(CMD_LEFT) X(CMD_RIGHT) X(CMD_PREV_TAB) X(CMD_NEXT_TAB) X(CMD_PREV_SECTION) \
    X(CMD_NEXT_SECTION) X(CMD_TAB_NUMBER) X(CMD_ENTER) X(CMD_HINTS) X(CMD_NEXT_HINT) \
    X(CMD_SOLUTION) X(CMD_ANALYSIS) X(CMD_ZOOM) X(CMD_RESET) X(CMD_BACK)        \
    X(CMD_CLOSE) X(CMD_USE_DEVICE) X(CMD_RELOAD_DEVICES) X(CMD_SIZES) X(CMD_USE_SIZE) X(CMD_TIME_LIMIT)   \
    X(CMD_CHECK_ALL) X(CMD_FILES) X(CMD_OPEN_FILE) X(CMD_WARP) X(CMD_CHANGES_BASE)

typedef enum {
    CMD_NONE = 0,
#define CMD_ENUM(c) c,
    TUI_COMMANDS(CMD_ENUM)
#undef CMD_ENUM
    CMD_COUNT
} tui_command;

typedef struct {
    tui_key_context context;
    int key, key_last;      /* one key, or a range of them ('1'..'9'); key_last 0: one */
    tui_command command;
} tui_binding;

/* The command key runs in a context (CMD_NONE: none); *arg gets the key's
 * place in its range ('3' in '1'..'9': 2). */
tui_command tui_keys_lookup(tui_key_context ctx, int key, int *arg);

/* The help screen's rows: a line for some commands of a context, with the
 * keys bound to them written out. */
typedef struct {
    int section;            /* 0 everywhere, 1 chapter list, 2 chapter, 3 dialogs */
    tui_key_context context;
    tui_command commands[3];/* listed in this order; CMD_NONE ends it early */
    int twice;              /* the key is pressed twice ("X X") */
    const char *what;       /* English; translated when shown */
} tui_key_help;

/* The rows, ending with one whose what is NULL. */
const tui_key_help *tui_help_rows(void);
/* The keys of a row as shown: named keys first, then characters
 * ("↑ ↓  k j", "PgUp PgDn  b Space", "1-9"). */
void tui_help_row_keys(const tui_key_help *row, char *buf, size_t len);
/* Every binding, ending with one whose command is CMD_NONE. */
const tui_binding *tui_bindings(void);

#endif
