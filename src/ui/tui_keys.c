/* tui_keys — the bindings of keys to commands, and the help screen's rows
 * made from them. */
#include "ui/tui_keys.h"
#include "text/i18n.h"

#include <stdio.h>
#include <string.h>

static const tui_binding bindings[] = {
    /* everywhere (a dialog passes these through too) */
    {KC_EVERYWHERE, '?', 0, CMD_HELP},          {KC_EVERYWHERE, TK_F1, 0, CMD_HELP},
    {KC_EVERYWHERE, 'o', 0, CMD_QUICKREF},      {KC_EVERYWHERE, 'd', 0, CMD_DEVICES},
    {KC_EVERYWHERE, 'L', 0, CMD_LANGUAGE},      {KC_EVERYWHERE, TK_CTRL_C, 0, CMD_INTERRUPT},
    {KC_EVERYWHERE, TK_CTRL_Z, 0, CMD_SUSPEND}, {KC_EVERYWHERE, TK_CTRL_L, 0, CMD_REDRAW},
    {KC_EVERYWHERE, TK_RESIZE, 0, CMD_REDRAW},
    {KC_EVERYWHERE, TK_UP, 0, CMD_UP},          {KC_EVERYWHERE, 'k', 0, CMD_UP},
    {KC_EVERYWHERE, TK_DOWN, 0, CMD_DOWN},      {KC_EVERYWHERE, 'j', 0, CMD_DOWN},
    {KC_EVERYWHERE, TK_PGUP, 0, CMD_PAGE_UP},   {KC_EVERYWHERE, 'b', 0, CMD_PAGE_UP},
    {KC_EVERYWHERE, TK_PGDN, 0, CMD_PAGE_DOWN}, {KC_EVERYWHERE, ' ', 0, CMD_PAGE_DOWN},
    {KC_EVERYWHERE, TK_HOME, 0, CMD_TOP},       {KC_EVERYWHERE, 'g', 0, CMD_TOP},
    {KC_EVERYWHERE, TK_END, 0, CMD_BOTTOM},     {KC_EVERYWHERE, 'G', 0, CMD_BOTTOM},
    /* the chapter list */
    {KC_HOME, TK_ENTER, 0, CMD_OPEN},           {KC_HOME, TK_RIGHT, 0, CMD_OPEN},
    {KC_HOME, 'l', 0, CMD_OPEN},                {KC_HOME, '1', '9', CMD_OPEN_NUMBER},
    {KC_HOME, 'q', 0, CMD_QUIT},
    /* a chapter */
    {KC_CHAPTER, 'e', 0, CMD_EDIT},             {KC_CHAPTER, 'r', 0, CMD_RUN},
    {KC_CHAPTER, TK_F5, 0, CMD_RUN},            {KC_CHAPTER, 'c', 0, CMD_CANCEL},
    {KC_CHAPTER, 'w', 0, CMD_WATCH},            {KC_CHAPTER, TK_TAB, 0, CMD_NEXT_PANE},
    {KC_CHAPTER, TK_BTAB, 0, CMD_PREV_PANE},    {KC_CHAPTER, TK_LEFT, 0, CMD_LEFT},
    {KC_CHAPTER, TK_RIGHT, 0, CMD_RIGHT},       {KC_CHAPTER, '[', 0, CMD_PREV_TAB},
    {KC_CHAPTER, ']', 0, CMD_NEXT_TAB},         {KC_CHAPTER, '{', 0, CMD_PREV_SECTION},
    {KC_CHAPTER, '}', 0, CMD_NEXT_SECTION},     {KC_CHAPTER, '1', '8', CMD_TAB_NUMBER},
    {KC_CHAPTER, TK_ENTER, 0, CMD_ENTER},       {KC_CHAPTER, 'h', 0, CMD_HINTS},
    {KC_CHAPTER, 'n', 0, CMD_NEXT_HINT},        {KC_CHAPTER, 's', 0, CMD_SOLUTION},
    {KC_CHAPTER, 'a', 0, CMD_ANALYSIS},         {KC_CHAPTER, 'z', 0, CMD_ZOOM},
    {KC_CHAPTER, 'X', 0, CMD_RESET},            {KC_CHAPTER, 'q', 0, CMD_BACK},
    {KC_CHAPTER, TK_ESC, 0, CMD_BACK},
    {KC_CHAPTER, 'C', 0, CMD_CHECK_ALL},        {KC_CHAPTER, 'S', 0, CMD_SIZES},
    {KC_CHAPTER, 'T', 0, CMD_TIME_LIMIT},       {KC_CHAPTER, 'B', 0, CMD_FILES},
    {KC_CHAPTER, 'v', 0, CMD_WARP},             {KC_CHAPTER, 'p', 0, CMD_CHANGES_BASE},
    /* dialogs */
    {KC_DIALOG, TK_ESC, 0, CMD_CLOSE},          {KC_DIALOG, 'q', 0, CMD_CLOSE},
    {KC_DIALOG, TK_ENTER, 0, CMD_CLOSE},
    {KC_HINTS, TK_ENTER, 0, CMD_NEXT_HINT},     {KC_HINTS, 'n', 0, CMD_NEXT_HINT},
    {KC_HINTS, 'h', 0, CMD_CLOSE},
    {KC_DEVICES, TK_ENTER, 0, CMD_USE_DEVICE},  {KC_DEVICES, 'r', 0, CMD_RELOAD_DEVICES},
    {KC_SIZES, TK_ENTER, 0, CMD_USE_SIZE},      {KC_SIZES, 'S', 0, CMD_SIZES},
    {KC_FILES, TK_ENTER, 0, CMD_OPEN_FILE},     {KC_FILES, 'B', 0, CMD_FILES},
    {KC_EVERYWHERE, 0, 0, CMD_NONE},
};

static const tui_key_help rows[] = {
    {0, KC_EVERYWHERE, {CMD_HELP}, 0, N_("this help")},
    {0, KC_EVERYWHERE, {CMD_QUICKREF}, 0, N_("OpenCL C quick reference")},
    {0, KC_EVERYWHERE, {CMD_DEVICES}, 0, N_("devices: choose the OpenCL device")},
    {0, KC_EVERYWHERE, {CMD_LANGUAGE}, 0, N_("language: English / 中文")},
    {0, KC_EVERYWHERE, {CMD_INTERRUPT}, 0, N_("stop the run; when nothing runs, quit (asks first)")},
    {0, KC_EVERYWHERE, {CMD_SUSPEND}, 0, N_("suspend (fg brings it back)")},
    {0, KC_EVERYWHERE, {CMD_REDRAW}, 0, N_("redraw the screen")},
    {0, KC_EVERYWHERE, {CMD_UP, CMD_DOWN}, 0, N_("scroll, or move the cursor (kernel, build log, diffs)")},
    {0, KC_EVERYWHERE, {CMD_PAGE_UP, CMD_PAGE_DOWN}, 0, N_("page up / down")},
    {0, KC_EVERYWHERE, {CMD_TOP, CMD_BOTTOM}, 0, N_("top / bottom")},
    {1, KC_HOME, {CMD_OPEN}, 0, N_("open the chapter")},
    {1, KC_HOME, {CMD_OPEN_NUMBER}, 0, N_("open chapter N")},
    {1, KC_HOME, {CMD_QUIT}, 0, N_("quit")},
    {2, KC_CHAPTER, {CMD_EDIT}, 0, N_("edit the kernel (at the first build error, or the line under the cursor)")},
    {2, KC_CHAPTER, {CMD_RUN}, 0, N_("run: build, check and time the kernel")},
    {2, KC_CHAPTER, {CMD_CANCEL}, 0, N_("cancel the run")},
    {2, KC_CHAPTER, {CMD_WATCH}, 0, N_("watch on/off: saving the file reruns it")},
    {2, KC_CHAPTER, {CMD_NEXT_PANE, CMD_PREV_PANE}, 0, N_("next / previous pane: lesson, kernel, results")},
    {2, KC_CHAPTER, {CMD_LEFT, CMD_RIGHT}, 0, N_("previous / next tab (results); scroll sideways (kernel)")},
    {2, KC_CHAPTER, {CMD_PREV_TAB, CMD_NEXT_TAB}, 0, N_("previous / next results tab")},
    {2, KC_CHAPTER, {CMD_PREV_SECTION, CMD_NEXT_SECTION}, 0, N_("lesson: previous / next section")},
    {2, KC_CHAPTER, {CMD_TAB_NUMBER}, 0,
     N_("results tabs: result, check, build, timing, history, changes, solution, GPU model")},
    {2, KC_CHAPTER, {CMD_ENTER}, 0, N_("edit at the line under the cursor (kernel, build log, diffs)")},
    {2, KC_CHAPTER, {CMD_HINTS}, 0, N_("hints seen so far")},
    {2, KC_CHAPTER, {CMD_NEXT_HINT}, 0, N_("show the next hint; once the chapter is passed, open the next chapter")},
    {2, KC_CHAPTER, {CMD_SOLUTION}, 0, N_("the reference solution (after you pass, or after 3 failed runs)")},
    {2, KC_CHAPTER, {CMD_ANALYSIS}, 0, N_("the GPU memory-model report, when available")},
    {2, KC_CHAPTER, {CMD_CHANGES_BASE}, 0,
     N_("changes: your edits since the starting file, or your kernel against the previous stage")},
    {2, KC_CHAPTER, {CMD_WARP}, 0, N_("see the warp: draw the selected line's memory accesses (GPU model)")},
    {2, KC_CHAPTER, {CMD_ZOOM}, 0, N_("zoom: the focused pane fills the screen")},
    {2, KC_CHAPTER, {CMD_RESET}, 1, N_("put the starting file back (yours is kept as .bak)")},
    {2, KC_CHAPTER, {CMD_CHECK_ALL}, 0, N_("check: every visible test, the race check and the technique (cltutor check)")},
    {2, KC_CHAPTER, {CMD_SIZES}, 0, N_("size and input to run at (--size)")},
    {2, KC_CHAPTER, {CMD_TIME_LIMIT}, 0, N_("time limit of a run: 10, 30, 60 or 120 s (--timeout)")},
    {2, KC_CHAPTER, {CMD_FILES}, 0, N_("the chapter's files: its kernel and the find-the-bug listings")},
    {2, KC_CHAPTER, {CMD_BACK}, 0, N_("back to the chapter list")},
    {3, KC_DIALOG, {CMD_CLOSE}, 0, N_("close")},
    {3, KC_HINTS, {CMD_NEXT_HINT}, 0, N_("hints: show the next hint")},
    {3, KC_HINTS, {CMD_CLOSE}, 0, N_("hints: close (h again)")},
    {3, KC_DEVICES, {CMD_USE_DEVICE}, 0, N_("devices: use the selected device")},
    {3, KC_DEVICES, {CMD_RELOAD_DEVICES}, 0, N_("devices: look for devices again")},
    {3, KC_SIZES, {CMD_USE_SIZE}, 0, N_("sizes: run at the selected size")},
    {3, KC_SIZES, {CMD_SIZES}, 0, N_("sizes: close (S again)")},
    {3, KC_FILES, {CMD_OPEN_FILE}, 0, N_("files: open the selected file")},
    {3, KC_FILES, {CMD_FILES}, 0, N_("files: close (B again)")},
    {0, KC_EVERYWHERE, {CMD_NONE}, 0, NULL},
};

const tui_binding *tui_bindings(void) { return bindings; }

const tui_key_help *tui_help_rows(void) { return rows; }

tui_command tui_keys_lookup(tui_key_context ctx, int key, int *arg) {
    for (const tui_binding *b = bindings; b->command != CMD_NONE; b++) {
        if (b->context != ctx) continue;
        int last = b->key_last ? b->key_last : b->key;
        if (key >= b->key && key <= last) {
            if (arg) *arg = key - b->key;
            return b->command;
        }
    }
    return CMD_NONE;
}

static const char *key_name(int key, char *buf, size_t len) {
    static const struct {
        int key;
        const char *name;
    } names[] = {
        {TK_UP, "↑"},         {TK_DOWN, "↓"},        {TK_LEFT, "←"},       {TK_RIGHT, "→"},
        {TK_PGUP, "PgUp"},    {TK_PGDN, "PgDn"},     {TK_HOME, "Home"},    {TK_END, "End"},
        {TK_ENTER, "Enter"},  {TK_TAB, "Tab"},       {TK_BTAB, "Shift-Tab"}, {TK_F1, "F1"},
        {TK_F5, "F5"},        {TK_ESC, "Esc"},       {TK_CTRL_C, "Ctrl-C"}, {TK_CTRL_Z, "Ctrl-Z"},
        {TK_CTRL_L, "Ctrl-L"}, {' ', "Space"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].key == key) return names[i].name;
    snprintf(buf, len, "%c", key > ' ' && key < 127 ? key : '?');
    return buf;
}

/* Named keys (arrows, Enter, Ctrl-...) come before characters; Space counts as a character. */
static int is_named(int key) { return key >= TK_BASE || key < ' '; }

void tui_help_row_keys(const tui_key_help *row, char *buf, size_t len) {
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        int first_of_pass = 1;
        for (int c = 0; c < 3 && row->commands[c] != CMD_NONE; c++)
            for (const tui_binding *b = bindings; b->command != CMD_NONE; b++) {
                if (b->context != row->context || b->command != row->commands[c] || b->key == TK_RESIZE) continue;
                if (is_named(b->key) != (pass == 0)) continue;
                char one[32], last[32], range[72];
                const char *name = key_name(b->key, one, sizeof one);
                if (b->key_last) {
                    snprintf(range, sizeof range, "%s-%s", name, key_name(b->key_last, last, sizeof last));
                    name = range;
                }
                size_t n = strlen(buf);
                snprintf(buf + n, len - n, "%s%s%s%s", n == 0 ? "" : first_of_pass ? "  " : " ", name,
                         row->twice ? " " : "", row->twice ? name : "");
                first_of_pass = 0;
            }
    }
}
