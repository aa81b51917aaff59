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

static int scroll_key(tui_list *v, int key) {
    switch (key) {
    case TK_UP: case 'k': tui_list_move(v, -1); return 1;
    case TK_DOWN: case 'j': tui_list_move(v, 1); return 1;
    case TK_PGUP: case 'b': tui_list_page(v, -1); return 1;
    case TK_PGDN: case ' ': tui_list_page(v, 1); return 1;
    case TK_HOME: case 'g': tui_list_home(v); return 1;
    case TK_END: case 'G': tui_list_end(v); return 1;
    default: return 0;
    }
}

static void open_overlay(tui_state *s, tui_overlay o) {
    s->overlay = o;
    s->overlay_list.top = s->overlay_list.cur = 0;
    s->overlay_list.has_cursor = o == OV_DEVICES;
}

static tui_action overlay_key(tui_state *s, int key) {
    tui_overlay o = s->overlay;
    if (o == OV_CONFIRM_QUIT) {
        s->overlay = OV_NONE;
        if (key == 'y' || key == 'Y' || key == 'q' || key == TK_CTRL_C) return act(ACT_QUIT, 0);
        return act(ACT_NONE, 0);
    }
    if (key == TK_ESC || key == 'q' || (key == '?' && o == OV_HELP) || (key == 'o' && o == OV_QUICKREF) ||
        (key == 'h' && o == OV_HINTS) || (key == 'd' && o == OV_DEVICES) || (key == TK_F1 && o == OV_HELP) ||
        (key == TK_ENTER && (o == OV_MESSAGE || o == OV_HELP || o == OV_QUICKREF))) {
        s->overlay = OV_NONE;
        return act(ACT_NONE, 0);
    }
    if (key == TK_CTRL_C) {
        s->overlay = OV_NONE;
        return s->running ? act(ACT_CANCEL, 0) : act(ACT_NONE, 0);
    }
    if (o == OV_HINTS && (key == 'n' || key == TK_ENTER)) return act(ACT_NEXT_HINT, 0);
    if (o == OV_DEVICES) {
        if (key == TK_ENTER && s->n_devices > 0) {
            s->overlay = OV_NONE;
            return act(ACT_SET_DEVICE, s->overlay_list.cur);
        }
        if (key == 'r') return act(ACT_RELOAD_DEVICES, 0);
    }
    if (key == '?' || key == TK_F1) { open_overlay(s, OV_HELP); return act(ACT_NONE, 0); }
    if (key == 'o' && o != OV_QUICKREF) { open_overlay(s, OV_QUICKREF); return act(ACT_NONE, 0); }
    if (key == 'L') return act(ACT_TOGGLE_LANG, 0);
    if (key == TK_CTRL_Z) return act(ACT_SUSPEND, 0);
    if (key == TK_CTRL_L || key == TK_RESIZE) return act(ACT_REDRAW, 0);
    scroll_key(&s->overlay_list, key);
    return act(ACT_NONE, 0);
}

static tui_action global_key(tui_state *s, int key, int *handled) {
    *handled = 1;
    switch (key) {
    case '?': case TK_F1: open_overlay(s, OV_HELP); return act(ACT_NONE, 0);
    case 'o': open_overlay(s, OV_QUICKREF); return act(ACT_NONE, 0);
    case 'd': open_overlay(s, OV_DEVICES); return act(ACT_RELOAD_DEVICES, 1);
    case 'L': return act(ACT_TOGGLE_LANG, 0);
    case TK_CTRL_Z: return act(ACT_SUSPEND, 0);
    case TK_CTRL_L: case TK_RESIZE: return act(ACT_REDRAW, 0);
    case TK_CTRL_C:
        if (s->running) return act(ACT_CANCEL, 0);
        open_overlay(s, OV_CONFIRM_QUIT);
        return act(ACT_NONE, 0);
    default: *handled = 0; return act(ACT_NONE, 0);
    }
}

static tui_action home_key(tui_state *s, int key) {
    s->home.len = s->n_chapters;
    s->home.has_cursor = 1;
    switch (key) {
    case 'q': return act(ACT_QUIT, 0);
    case TK_ESC: return act(ACT_NONE, 0);
    case TK_ENTER: case TK_RIGHT: case 'l':
        if (s->n_chapters > 0) return act(ACT_OPEN_CHAPTER, s->home.cur);
        return act(ACT_NONE, 0);
    default: break;
    }
    if (key >= '1' && key <= '9') {
        for (int i = 0; i < s->n_chapters && i < 100; i++)
            if (s->chapter_numbers[i] == key - '0') {
                s->home.cur = i;
                tui_list_clamp(&s->home);
                return act(ACT_OPEN_CHAPTER, i);
            }
        return act(ACT_NONE, 0);
    }
    scroll_key(&s->home, key);
    return act(ACT_NONE, 0);
}

static tui_action chapter_key(tui_state *s, int key) {
    if (key != 'X') s->confirm_reset = 0;
    switch (key) {
    case 'q': case TK_ESC:
        if (s->zoom && key == TK_ESC) { s->zoom = 0; return act(ACT_NONE, 0); }
        s->screen = SCR_HOME;
        return act(ACT_HOME, 0);
    case TK_TAB: s->focus = (tui_pane)((s->focus + 1) % PANE_COUNT); return act(ACT_NONE, 0);
    case TK_BTAB: s->focus = (tui_pane)((s->focus + PANE_COUNT - 1) % PANE_COUNT); return act(ACT_NONE, 0);
    case 'z': s->zoom = !s->zoom; return act(ACT_NONE, 0);
    case 'e': return act(ACT_EDIT, 0);
    case 'r': return act(ACT_RUN, 0);
    case 'c': return s->running ? act(ACT_CANCEL, 0) : act(ACT_NONE, 0);
    case 'w': s->watch = !s->watch; return act(ACT_TOGGLE_WATCH, s->watch);
    case 'h': open_overlay(s, OV_HINTS); return act(ACT_NONE, 0);
    case 'n': open_overlay(s, OV_HINTS); return act(ACT_NEXT_HINT, 0);
    case 'X':
        if (s->confirm_reset) { s->confirm_reset = 0; return act(ACT_RESET_EXERCISE, 0); }
        s->confirm_reset = 1;
        return act(ACT_NONE, 0);
    case '{': case '}': return act(ACT_SECTION, key == '}' ? 1 : -1);
    case ']': case '[': {
        tui_tab t = tui_tab_step(s, s->tab, key == ']' ? 1 : -1);
        if (tui_set_tab(s, t)) return act(ACT_TAB_CHANGED, t);
        return act(ACT_NONE, 0);
    }
    case 's': case 'a': {
        tui_tab t = key == 's' ? TAB_SOLUTION : TAB_ANALYSIS;
        s->focus = PANE_RESULTS;
        tui_set_tab(s, t);
        return act(ACT_TAB_CHANGED, t); /* the controller explains a locked tab */
    }
    default: break;
    }
    if (key >= '1' && key <= '8') {
        tui_tab t = (tui_tab)(key - '1');
        s->focus = PANE_RESULTS;
        tui_set_tab(s, t);
        return act(ACT_TAB_CHANGED, t);
    }
    if (key == TK_LEFT || key == TK_RIGHT) {
        int dir = key == TK_RIGHT ? 1 : -1;
        if (s->focus == PANE_RESULTS) {
            tui_tab t = tui_tab_step(s, s->tab, dir);
            if (tui_set_tab(s, t)) return act(ACT_TAB_CHANGED, t);
        } else if (s->focus == PANE_KERNEL) {
            s->kernel_hscroll += dir * 8;
            if (s->kernel_hscroll < 0) s->kernel_hscroll = 0;
        }
        return act(ACT_NONE, 0);
    }
    if (key == TK_ENTER) {
        if (s->focus == PANE_KERNEL) return act(ACT_EDIT, s->pane[PANE_KERNEL].cur + 1);
        if (s->focus == PANE_RESULTS && tui_tab_has_cursor(s->tab)) return act(ACT_EDIT_ROW, s->tabs[s->tab].cur);
        if (s->focus == PANE_RESULTS && s->tab == TAB_RESULT) return act(ACT_EDIT, 0);
        return act(ACT_NONE, 0);
    }
    scroll_key(tui_active_list(s), key);
    return act(ACT_NONE, 0);
}

tui_action tui_key(tui_state *s, int key) {
    if (s->overlay != OV_NONE) return overlay_key(s, key);
    int handled;
    tui_action a = global_key(s, key, &handled);
    if (handled) return a;
    return s->screen == SCR_HOME ? home_key(s, key) : chapter_key(s, key);
}
