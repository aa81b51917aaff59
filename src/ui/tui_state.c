/* tui_state — the terminal UI's state and key handling, without curses: which
 * screen, pane, tab and overlay is shown, scroll positions and cursors, and
 * the action each key asks the controller to carry out. */
#include "ui/tui_state.h"

#include <stdio.h>
#include <string.h>

void tui_list_clamp(tui_list *v) {
    int rows = v->rows > 0 ? v->rows : 1;
    if (v->has_cursor) {
        if (v->cur >= v->len) v->cur = v->len - 1;
        if (v->cur < 0) v->cur = 0;
        if (v->cur < v->top) v->top = v->cur;
        if (v->cur >= v->top + rows) v->top = v->cur - rows + 1;
    }
    if (v->top > v->len - rows) v->top = v->len - rows;
    if (v->top < 0) v->top = 0;
}

void tui_list_move(tui_list *v, int delta) {
    if (v->has_cursor) v->cur += delta;
    else v->top += delta;
    tui_list_clamp(v);
}

void tui_list_page(tui_list *v, int dir) {
    int step = v->rows > 2 ? v->rows - 1 : 1;
    if (v->has_cursor) {
        v->cur += dir * step;
        v->top += dir * step;
    } else {
        v->top += dir * step;
    }
    tui_list_clamp(v);
}

void tui_list_home(tui_list *v) {
    v->top = 0;
    v->cur = 0;
    tui_list_clamp(v);
}

void tui_list_end(tui_list *v) {
    v->cur = v->len - 1;
    v->top = v->len;
    tui_list_clamp(v);
}

void tui_list_goto(tui_list *v, int row) {
    v->cur = row;
    if (!v->has_cursor) v->top = row;
    /* keep a little context above the row */
    int rows = v->rows > 0 ? v->rows : 1;
    if (v->has_cursor && (row < v->top || row >= v->top + rows)) v->top = row - rows / 3;
    tui_list_clamp(v);
}

int tui_tab_has_cursor(tui_tab t) { return t == TAB_BUILD || t == TAB_CHANGES || t == TAB_SOLUTION || t == TAB_ANALYSIS; }

void tui_state_init(tui_state *s, int n_chapters) {
    memset(s, 0, sizeof *s);
    s->n_chapters = n_chapters;
    s->home.has_cursor = 1;
    s->home.len = n_chapters;
    s->watch = 1;
    for (int i = 0; i < (int)(sizeof s->chapter_numbers / sizeof s->chapter_numbers[0]); i++) s->chapter_numbers[i] = i + 1;
    s->pane[PANE_KERNEL].has_cursor = 1;
    for (int t = 0; t < TAB_COUNT; t++) {
        s->tabs[t].has_cursor = tui_tab_has_cursor((tui_tab)t);
        s->tab_enabled[t] = 1;
    }
    s->tab_enabled[TAB_ANALYSIS] = 0;
}

void tui_open_chapter(tui_state *s) {
    s->screen = SCR_CHAPTER;
    s->overlay = OV_NONE;
    s->focus = PANE_KERNEL;
    s->tab = TAB_RESULT;
    s->zoom = 0;
    s->kernel_hscroll = 0;
    s->confirm_reset = 0;
    for (int p = 0; p < PANE_COUNT; p++) s->pane[p].top = s->pane[p].cur = 0;
    for (int t = 0; t < TAB_COUNT; t++) s->tabs[t].top = s->tabs[t].cur = 0;
}

int tui_set_tab(tui_state *s, tui_tab t) {
    if (t < 0 || t >= TAB_COUNT || !s->tab_enabled[t]) return 0;
    int changed = s->tab != t;
    s->tab = t;
    return changed;
}

tui_tab tui_tab_step(const tui_state *s, tui_tab t, int dir) {
    int i = (int)t;
    for (int k = 0; k < TAB_COUNT; k++) {
        i = (i + dir + TAB_COUNT) % TAB_COUNT;
        if (s->tab_enabled[i]) return (tui_tab)i;
    }
    return t;
}

tui_list *tui_active_list(tui_state *s) {
    if (s->overlay != OV_NONE) return &s->overlay_list;
    if (s->screen == SCR_HOME) return &s->home;
    if (s->focus == PANE_RESULTS) return &s->tabs[s->tab];
    return &s->pane[s->focus];
}

static tui_action act(tui_action_kind k, int arg) { return (tui_action){k, arg}; }

/* The scrolling commands, on the list they move; 0 for any other command. */
static int scroll(tui_list *v, tui_command cmd) {
    switch (cmd) {
    case CMD_UP: tui_list_move(v, -1); return 1;
    case CMD_DOWN: tui_list_move(v, 1); return 1;
    case CMD_PAGE_UP: tui_list_page(v, -1); return 1;
    case CMD_PAGE_DOWN: tui_list_page(v, 1); return 1;
    case CMD_TOP: tui_list_home(v); return 1;
    case CMD_BOTTOM: tui_list_end(v); return 1;
    default: return 0;
    }
}

static void open_overlay(tui_state *s, tui_overlay o) {
    s->overlay = o;
    s->overlay_list.top = s->overlay_list.cur = 0;
    s->overlay_list.has_cursor = o == OV_DEVICES || o == OV_SIZES || o == OV_FILES;
}

/* A dialog's key toggles it: the key that opened it closes it. */
static tui_action toggle_overlay(tui_state *s, tui_overlay o) {
    if (s->overlay == o) s->overlay = OV_NONE;
    else open_overlay(s, o);
    return act(ACT_NONE, 0);
}

/* The commands that work on every screen and in every dialog. */
static tui_action everywhere(tui_state *s, tui_command cmd) {
    switch (cmd) {
    case CMD_HELP: return toggle_overlay(s, OV_HELP);
    case CMD_QUICKREF: return toggle_overlay(s, OV_QUICKREF);
    case CMD_DEVICES:
        if (s->overlay == OV_DEVICES) return toggle_overlay(s, OV_DEVICES);
        open_overlay(s, OV_DEVICES);
        return act(ACT_RELOAD_DEVICES, 1);
    case CMD_LANGUAGE: return act(ACT_TOGGLE_LANG, 0);
    case CMD_SUSPEND: return act(ACT_SUSPEND, 0);
    case CMD_REDRAW: return act(ACT_REDRAW, 0);
    case CMD_INTERRUPT:
        if (s->overlay != OV_NONE) {
            s->overlay = OV_NONE;
            return s->running ? act(ACT_CANCEL, 0) : act(ACT_NONE, 0);
        }
        if (s->running) return act(ACT_CANCEL, 0);
        open_overlay(s, OV_CONFIRM_QUIT);
        return act(ACT_NONE, 0);
    default: scroll(tui_active_list(s), cmd); return act(ACT_NONE, 0);
    }
}

static tui_action dialog_command(tui_state *s, tui_command cmd) {
    switch (cmd) {
    case CMD_CLOSE: s->overlay = OV_NONE; return act(ACT_NONE, 0);
    case CMD_NEXT_HINT: return act(ACT_NEXT_HINT, 0);
    case CMD_USE_DEVICE:
        if (s->n_devices <= 0) return act(ACT_NONE, 0);
        s->overlay = OV_NONE;
        return act(ACT_SET_DEVICE, s->overlay_list.cur);
    case CMD_RELOAD_DEVICES: return act(ACT_RELOAD_DEVICES, 0);
    case CMD_USE_SIZE:
    case CMD_OPEN_FILE: {
        int n = cmd == CMD_USE_SIZE ? s->n_sizes : s->n_files;
        if (n <= 0) return act(ACT_NONE, 0);
        s->overlay = OV_NONE;
        return act(cmd == CMD_USE_SIZE ? ACT_SET_SIZE : ACT_OPEN_FILE, s->overlay_list.cur);
    }
    case CMD_SIZES: s->overlay = OV_NONE; return act(ACT_NONE, 0);  /* S again closes it */
    case CMD_FILES: s->overlay = OV_NONE; return act(ACT_NONE, 0);  /* B again closes it */
    default: return everywhere(s, cmd);
    }
}

static tui_action home_command(tui_state *s, tui_command cmd, int arg) {
    s->home.len = s->n_chapters;
    s->home.has_cursor = 1;
    switch (cmd) {
    case CMD_QUIT: return act(ACT_QUIT, 0);
    case CMD_OPEN: return s->n_chapters > 0 ? act(ACT_OPEN_CHAPTER, s->home.cur) : act(ACT_NONE, 0);
    case CMD_OPEN_NUMBER:
        for (int i = 0; i < s->n_chapters && i < 100; i++)
            if (s->chapter_numbers[i] == arg + 1) {
                s->home.cur = i;
                tui_list_clamp(&s->home);
                return act(ACT_OPEN_CHAPTER, i);
            }
        return act(ACT_NONE, 0);
    default: return everywhere(s, cmd);
    }
}

/* Opens a results tab (from the tab keys and s/a): the focus goes there. */
static tui_action show_tab(tui_state *s, tui_tab t) {
    s->focus = PANE_RESULTS;
    tui_set_tab(s, t);
    return act(ACT_TAB_CHANGED, t); /* the controller explains a locked tab */
}

static tui_action step_tab(tui_state *s, int dir) {
    tui_tab t = tui_tab_step(s, s->tab, dir);
    return tui_set_tab(s, t) ? act(ACT_TAB_CHANGED, t) : act(ACT_NONE, 0);
}

/* Left and right: the results' tabs, or the kernel sideways. */
static tui_action sideways(tui_state *s, int dir) {
    if (s->focus == PANE_RESULTS) return step_tab(s, dir);
    if (s->focus == PANE_KERNEL) {
        s->kernel_hscroll += dir * 8;
        if (s->kernel_hscroll < 0) s->kernel_hscroll = 0;
    }
    return act(ACT_NONE, 0);
}

/* Enter: edit at the line under the cursor. */
static tui_action enter(tui_state *s) {
    if (s->focus == PANE_KERNEL) return act(ACT_EDIT, s->pane[PANE_KERNEL].cur + 1);
    if (s->focus == PANE_RESULTS && tui_tab_has_cursor(s->tab)) return act(ACT_EDIT_ROW, s->tabs[s->tab].cur);
    if (s->focus == PANE_RESULTS && s->tab == TAB_RESULT) return act(ACT_EDIT, 0);
    return act(ACT_NONE, 0);
}

static tui_action chapter_command(tui_state *s, tui_command cmd, int arg, int key) {
    if (cmd != CMD_RESET) s->confirm_reset = 0;
    switch (cmd) {
    case CMD_BACK:
        if (s->zoom && key == TK_ESC) { s->zoom = 0; return act(ACT_NONE, 0); }
        s->screen = SCR_HOME;
        return act(ACT_HOME, 0);
    case CMD_NEXT_PANE: s->focus = (tui_pane)((s->focus + 1) % PANE_COUNT); return act(ACT_NONE, 0);
    case CMD_PREV_PANE: s->focus = (tui_pane)((s->focus + PANE_COUNT - 1) % PANE_COUNT); return act(ACT_NONE, 0);
    case CMD_ZOOM: s->zoom = !s->zoom; return act(ACT_NONE, 0);
    case CMD_EDIT: return act(ACT_EDIT, 0);
    case CMD_RUN: return act(ACT_RUN, 0);
    case CMD_CANCEL: return s->running ? act(ACT_CANCEL, 0) : act(ACT_NONE, 0);
    case CMD_WATCH: s->watch = !s->watch; return act(ACT_TOGGLE_WATCH, s->watch);
    case CMD_HINTS: open_overlay(s, OV_HINTS); return act(ACT_NONE, 0);
    case CMD_SIZES: open_overlay(s, OV_SIZES); return act(ACT_SIZES, 0);
    case CMD_FILES: open_overlay(s, OV_FILES); return act(ACT_FILES, 0);
    case CMD_TIME_LIMIT: return act(ACT_TIME_LIMIT, 0);
    case CMD_CHECK_ALL: return act(ACT_CHECK_ALL, 0);
    case CMD_WARP: { /* the line under the kernel's cursor, or the GPU-model tab's row */
        int arg = 0;
        if (s->focus == PANE_KERNEL) arg = s->pane[PANE_KERNEL].cur + 1;
        else if (s->focus == PANE_RESULTS && s->tab == TAB_ANALYSIS) arg = -(s->tabs[TAB_ANALYSIS].cur + 1);
        open_overlay(s, OV_WARP);
        return act(ACT_WARP, arg);
    }
    case CMD_NEXT_HINT:
        if (s->next_offered) return act(ACT_NEXT_CHAPTER, 0);
        open_overlay(s, OV_HINTS);
        return act(ACT_NEXT_HINT, 0);
    case CMD_RESET:
        if (s->confirm_reset) { s->confirm_reset = 0; return act(ACT_RESET_EXERCISE, 0); }
        s->confirm_reset = 1;
        return act(ACT_NONE, 0);
    case CMD_PREV_SECTION: return act(ACT_SECTION, -1);
    case CMD_NEXT_SECTION: return act(ACT_SECTION, 1);
    case CMD_PREV_TAB: return step_tab(s, -1);
    case CMD_NEXT_TAB: return step_tab(s, 1);
    case CMD_CHANGES_BASE:
        s->changes_vs_prev = !s->changes_vs_prev;
        s->focus = PANE_RESULTS;
        tui_set_tab(s, TAB_CHANGES);
        s->tabs[TAB_CHANGES].top = s->tabs[TAB_CHANGES].cur = 0;
        return act(ACT_CHANGES_BASE, 0);
    case CMD_SOLUTION: return show_tab(s, TAB_SOLUTION);
    case CMD_ANALYSIS: return show_tab(s, TAB_ANALYSIS);
    case CMD_TAB_NUMBER: return show_tab(s, (tui_tab)arg);
    case CMD_LEFT: return sideways(s, -1);
    case CMD_RIGHT: return sideways(s, 1);
    case CMD_ENTER: return enter(s);
    default: return everywhere(s, cmd);
    }
}

tui_action tui_key(tui_state *s, int key) {
    int arg = 0;
    tui_command cmd = CMD_NONE;
    if (s->overlay == OV_CONFIRM_QUIT) { /* a yes-or-no question: any other key is no */
        s->overlay = OV_NONE;
        return key == 'y' || key == 'Y' || key == 'q' || key == TK_CTRL_C ? act(ACT_QUIT, 0) : act(ACT_NONE, 0);
    }
    if (s->overlay != OV_NONE) {
        tui_key_context own = s->overlay == OV_HINTS ? KC_HINTS : s->overlay == OV_DEVICES ? KC_DEVICES
                            : s->overlay == OV_SIZES ? KC_SIZES : s->overlay == OV_FILES ? KC_FILES : KC_DIALOG;
        cmd = tui_keys_lookup(own, key, &arg);
        if (cmd == CMD_NONE) cmd = tui_keys_lookup(KC_DIALOG, key, &arg);
        if (cmd == CMD_NONE) cmd = tui_keys_lookup(KC_EVERYWHERE, key, &arg);
        return dialog_command(s, cmd);
    }
    tui_key_context screen = s->screen == SCR_HOME ? KC_HOME : KC_CHAPTER;
    cmd = tui_keys_lookup(screen, key, &arg);
    if (cmd == CMD_NONE) cmd = tui_keys_lookup(KC_EVERYWHERE, key, &arg);
    return screen == KC_HOME ? home_command(s, cmd, arg) : chapter_command(s, cmd, arg, key);
}
