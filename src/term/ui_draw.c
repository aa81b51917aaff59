/* ui_draw — the terminal UI's view: draws the chapter list, the chapter
 * screen (lesson, kernel, results), overlays and status lines with ncursesw. */
#include "term/ui_view.h"
#include "text/diag.h"
#include "base/version.h"

#include "text/mdrender.h"
#include "text/i18n.h"
#include "base/util.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { P_ROLE0 = 1, P_HEADER = P_ROLE0 + ST_ROLES, P_FOCUS, P_TITLE, P_SELECT, P_STATUS, P_COUNT };

static attr_t role_attr[ST_ROLES];
static attr_t chrome_attr[P_COUNT];
static int use_color;
static int utf8_lines; /* draw lines with Unicode box characters rather than the terminal's ACS */

void ui_colors_init(ui_app *a) {
    const char *nc = getenv("NO_COLOR");
    use_color = has_colors() && !(nc && *nc);
    a->color = use_color;
    utf8_lines = a->utf8;
    for (int r = 0; r < ST_ROLES; r++) role_attr[r] = A_NORMAL;
    if (use_color) {
        start_color();
        use_default_colors();
        int grey = COLORS >= 16 ? 8 : COLOR_WHITE;
        struct { int role, fg; attr_t extra; } map[] = {
            {ST_DIM, grey, COLORS >= 16 ? A_NORMAL : A_DIM}, {ST_TITLE, COLOR_CYAN, A_BOLD},
            {ST_H1, COLOR_YELLOW, A_BOLD}, {ST_H2, COLOR_CYAN, A_BOLD}, {ST_H3, -1, A_BOLD},
            {ST_CODE, COLOR_GREEN, A_NORMAL}, {ST_LINK, COLOR_BLUE, A_UNDERLINE}, {ST_QUOTE, grey, A_NORMAL},
            {ST_KEYWORD, COLOR_MAGENTA, A_NORMAL}, {ST_QUAL, COLOR_BLUE, A_BOLD}, {ST_TYPE, COLOR_GREEN, A_NORMAL},
            {ST_BUILTIN, COLOR_CYAN, A_NORMAL}, {ST_COMMENT, grey, A_NORMAL}, {ST_NUMBER, COLOR_YELLOW, A_NORMAL},
            {ST_STRING, COLOR_YELLOW, A_NORMAL}, {ST_PREPROC, COLOR_MAGENTA, A_NORMAL}, {ST_LINENO, grey, A_NORMAL},
            {ST_OK, COLOR_GREEN, A_NORMAL}, {ST_ERR, COLOR_RED, A_NORMAL}, {ST_WARN, COLOR_YELLOW, A_NORMAL},
            {ST_ADD, COLOR_GREEN, A_NORMAL}, {ST_DEL, COLOR_RED, A_NORMAL}, {ST_HUNK, COLOR_CYAN, A_NORMAL},
            {ST_MARK, -1, A_REVERSE}, {ST_BAR, COLOR_BLUE, A_NORMAL}, {ST_KEY, COLOR_YELLOW, A_BOLD},
        };
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
            init_pair((short)(P_ROLE0 + map[i].role), (short)map[i].fg, -1);
            role_attr[map[i].role] = COLOR_PAIR(P_ROLE0 + map[i].role) | map[i].extra;
        }
        init_pair(P_HEADER, COLOR_WHITE, COLOR_BLUE);
        init_pair(P_FOCUS, COLOR_BLACK, COLOR_CYAN);
        init_pair(P_TITLE, COLOR_WHITE, grey == 8 ? 8 : COLOR_BLACK);
        init_pair(P_SELECT, COLOR_BLACK, COLOR_CYAN);
        init_pair(P_STATUS, COLOR_WHITE, grey == 8 ? 8 : COLOR_BLACK);
        chrome_attr[P_HEADER] = COLOR_PAIR(P_HEADER) | A_BOLD;
        chrome_attr[P_FOCUS] = COLOR_PAIR(P_FOCUS) | A_BOLD;
        chrome_attr[P_TITLE] = COLOR_PAIR(P_TITLE);
        chrome_attr[P_SELECT] = COLOR_PAIR(P_SELECT);
        chrome_attr[P_STATUS] = COLOR_PAIR(P_STATUS);
    } else {
        role_attr[ST_DIM] = A_DIM;
        role_attr[ST_TITLE] = A_BOLD;
        role_attr[ST_H1] = A_BOLD | A_UNDERLINE;
        role_attr[ST_H2] = A_BOLD;
        role_attr[ST_H3] = A_BOLD;
        role_attr[ST_LINK] = A_UNDERLINE;
        role_attr[ST_QUOTE] = A_DIM;
        role_attr[ST_KEYWORD] = A_BOLD;
        role_attr[ST_QUAL] = A_BOLD;
        role_attr[ST_COMMENT] = A_DIM;
        role_attr[ST_LINENO] = A_DIM;
        role_attr[ST_OK] = A_BOLD;
        role_attr[ST_ERR] = A_BOLD;
        role_attr[ST_WARN] = A_BOLD;
        role_attr[ST_ADD] = A_BOLD;
        role_attr[ST_HUNK] = A_BOLD;
        role_attr[ST_MARK] = A_REVERSE;
        role_attr[ST_KEY] = A_BOLD;
        chrome_attr[P_HEADER] = A_REVERSE | A_BOLD;
        chrome_attr[P_FOCUS] = A_REVERSE | A_BOLD;
        chrome_attr[P_TITLE] = A_UNDERLINE;
        chrome_attr[P_SELECT] = A_REVERSE;
        chrome_attr[P_STATUS] = A_REVERSE;
    }
}

static attr_t style_attr(int style) {
    attr_t at = role_attr[ST_ROLE(style) < ST_ROLES ? ST_ROLE(style) : 0];
    if (style & ST_A_BOLD) at |= A_BOLD;
    if (style & ST_A_UNDERLINE) at |= A_UNDERLINE;
    if (style & ST_A_REVERSE) at |= A_REVERSE;
#ifdef A_ITALIC
    if (style & ST_A_ITALIC) at |= use_color ? A_ITALIC : A_UNDERLINE;
#endif
    return at;
}

/* Prints text at (y, x) in at most w columns; returns the columns used. */
/* Writes s in at most w columns; a cut text ends in an ellipsis. Returns the
 * columns written. */
static int put_text(int y, int x, int w, const char *s, attr_t at) {
    if (w <= 0 || !s) return 0;
    int cols;
    size_t len = strlen(s), n = st_fit(s, len, w, &cols);
    attrset(at);
    if (n < len && w >= 4) {
        n = st_fit(s, len, w - 1, &cols);
        while (n > 0 && s[n - 1] == ' ') n--, cols--;
        mvaddnstr(y, x, s, (int)n);
        addstr(utf8_lines ? "…" : "~");
        cols++;
    } else {
        mvaddnstr(y, x, s, (int)n);
    }
    attrset(A_NORMAL);
    return cols;
}

/* Writes s over at most two lines of w columns, breaking at a space; returns
 * the lines used. */
static int put_text2(int y, int x, int w, const char *s, attr_t at) {
    int cols;
    size_t len = strlen(s), n = st_fit(s, len, w, &cols);
    if (n == len) return put_text(y, x, w, s, at), 1;
    size_t cut = n;
    while (cut > 0 && s[cut] != ' ') cut--;
    if (cut == 0) return put_text(y, x, w, s, at), 1;
    attrset(at);
    mvaddnstr(y, x, s, (int)cut);
    attrset(A_NORMAL);
    put_text(y + 1, x, w, s + cut + 1, at);
    return 2;
}

static void draw_hline(int y, int x, int w, attr_t at) {
    if (w <= 0) return;
    attrset(at);
    if (utf8_lines)
        for (int i = 0; i < w; i++) mvaddstr(y, x + i, "─");
    else
        mvhline(y, x, ACS_HLINE, w);
    attrset(A_NORMAL);
}

static void draw_vline(int y, int x, int h, attr_t at) {
    attrset(at);
    for (int i = 0; i < h; i++) {
        if (utf8_lines) mvaddstr(y + i, x, "│");
        else mvaddch(y + i, x, ACS_VLINE);
    }
    attrset(A_NORMAL);
}

static void corner(int y, int x, const char *u, chtype acs, attr_t at) {
    attrset(at);
    if (utf8_lines) mvaddstr(y, x, u);
    else mvaddch(y, x, acs);
    attrset(A_NORMAL);
}

static void fill(int y, int x, int w, attr_t at) {
    if (w <= 0) return;
    attrset(at);
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
}

/* Draws a styled line clipped to [x, x+w), skipping hskip columns; extra is
 * or-ed into every attribute (a selection). Fills the rest with fill_at. A
 * line cut at the right edge ends in a dim "…" there, so a cut word reads as cut. */
static void draw_sline(int y, int x, int w, const st_line *l, int hskip, attr_t extra, attr_t fill_at) {
    int col = 0;
    int skip = hskip;
    int cut = l && w > 1 && st_line_width(l) - hskip > w;
    if (cut) w--;
    for (int k = 0; l && k < l->n_spans && col < w; k++) {
        const char *t = l->text + l->spans[k].off;
        size_t n = (size_t)l->spans[k].len;
        if (skip > 0) {
            int sw = st_width(t, n);
            if (sw <= skip) {
                skip -= sw;
                continue;
            }
            int over = 0;
            size_t b = st_skip(t, n, skip, &over);
            t += b;
            n -= b;
            skip = 0;
            for (int o = 0; o < over && col < w; o++) mvaddch(y, x + col++, ' ');
        }
        int cols;
        size_t fit = st_fit(t, n, w - col, &cols);
        attrset(style_attr(l->spans[k].style) | extra);
        if (fit) mvaddnstr(y, x + col, t, (int)fit);
        col += cols;
        if (fit < n) break;
    }
    attrset(fill_at | extra);
    if (col < w) mvhline(y, x + col, ' ', w - col);
    if (cut) {
        attrset(style_attr(ST_DIM) | extra);
        mvaddstr(y, x + w, utf8_lines ? "…" : ">");
    }
    attrset(A_NORMAL);
}

static const char *lesson_title(const lesson *l) {
    return !strcmp(i18n_lang(), "zh") && l->title_zh[0] ? l->title_zh : l->title;
}

static void draw_bar(int y, const char *left, const char *right, attr_t at) {
    int cols = COLS;
    fill(y, 0, cols, at);
    int rw = st_widths(right);
    int lw = put_text(y, 0, cols - (rw ? rw + 1 : 0), left, at);
    (void)lw;
    if (rw && rw < cols) put_text(y, cols - rw, rw, right, at);
}

/* ---- status line ------------------------------------------------------ */

static void status_text(const ui_app *a, char *left, size_t len, int *left_style) {
    run_progress pr = a->frame.job_progress;
    int id = a->frame.job_id, kind = a->frame.job_kind;
    double el = pr.elapsed_s;
    const char *phase = _(run_phase_label(pr.phase));
    static const char *const spin_u[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
    static const char *const spin_a[] = {"|", "/", "-", "\\"};
    int frame = (int)(util_now() * 10);
    const char *spin = a->utf8 ? spin_u[frame % 10] : spin_a[frame % 4];
    *left_style = ST_NORMAL;
    left[0] = '\0';
    if (a->in_chapter && a->ch.run_id) {
        int answer = 0;
        if (kind == JOB_RUN && id == a->ch.run_id) {
            char words[300];
            tui_results_running(&pr, a->utf8, spin, words, sizeof words, &answer);
            snprintf(left, len, " %s", words);
        } else {
            snprintf(left, len, " %s %s", spin, _("waiting to run…"));
        }
        *left_style = (answer > 0 ? ST_OK : answer < 0 ? ST_ERR : ST_KEY) | ST_A_BOLD;
        return;
    }
    if (a->note[0]) {
        util_textf(left, len, " %s", a->note);
        *left_style = a->note_err ? ST_ERR | ST_A_BOLD : ST_NORMAL | ST_A_BOLD;
        return;
    }
    if (a->in_chapter && a->ch.run_due > 0) {
        snprintf(left, len, " %s %s", spin, _("saved: starting…"));
        return;
    }
    if (a->in_chapter && !a->ch.have_rep && a->st.watch) {
        snprintf(left, len, " %s", _("Watching your kernel: every save runs it."));
        *left_style = ST_DIM;
    }
    if (a->in_chapter && a->ch.have_rep) {
        /* the same record as the tabs: no time while the race check may take it back */
        tui_results_in in = {.rep = &a->ch.rep, .utf8 = a->utf8};
        if (a->ch.vd && a->ch.vd->n > 0 && a->ch.vd_hash == a->ch.kernel_hash) {
            in.verdict = a->ch.vd;
            in.verdict_running = a->ch.vd_id != 0;
        }
        int good;
        char words[300];
        tui_results_status(&in, spin, words, sizeof words, &good);
        snprintf(left, len, " %s", words);
        *left_style = (good ? ST_OK : ST_ERR) | ST_A_BOLD;
    }
    if (kind == JOB_ANALYZE) {
        size_t n = strlen(left);
        snprintf(left + n, len - n, "   %s %s%s: %s %.1f s", spin, _("GPU model"),
                 pr.comparison ? _(" (the comparison)") : "", phase, el);
    }
    if (kind == JOB_REFERENCE) {
        size_t n = strlen(left);
        snprintf(left + n, len - n, "   %s %s %.1f s", spin, _("timing a reference…"), el);
    }
}

static void draw_status(const ui_app *a, const char *keys_in) {
    int y = LINES - 1;
    char left[400];
    int ls;
    status_text(a, left, sizeof left, &ls);
    attr_t base = chrome_attr[P_STATUS];
    fill(y, 0, COLS, base);
    /* as many key hints as fit beside the status, from the left; a dim hint of the status (watching
     * the file, which the kernel pane's title says too) gives way to them where they do not all fit */
    char keys[400];
    snprintf(keys, sizeof keys, "%s", keys_in);
    if ((ls & ~ST_A_BOLD) == ST_DIM && st_widths(left) + st_widths(keys) + 3 > COLS) left[0] = '\0';
    int room = COLS - st_widths(left) - 3;
    while (st_widths(keys) > room) {
        char *cut = strstr(keys, " · ");
        char *last = NULL;
        while (cut) {
            last = cut;
            cut = strstr(cut + 1, " · ");
        }
        if (!last) {
            keys[0] = '\0';
            break;
        }
        snprintf(last, sizeof keys - (size_t)(last - keys), " ");
    }
    int kw = st_widths(keys);
    int lw = put_text(y, 0, COLS, left, base | (style_attr(ls) & (A_BOLD)) | (use_color ? 0 : 0));
    if (use_color && ls != ST_NORMAL) {
        /* colour the status word itself */
        attr_t col = style_attr(ls);
        put_text(y, 0, lw, left, (col & ~A_COLOR) | base | A_BOLD);
    }
    if (kw + lw + 2 <= COLS) put_text(y, COLS - kw - 1, kw, keys, base);
}

/* ---- home ------------------------------------------------------------- */


/* The title bar, the welcome, the progress bar, the first warning and the
 * list's column titles. */
static void draw_home_header(const ui_app *a) {
    char dev[300], right[400], left[300];
    snprintf(left, sizeof left, " cltutor %s · %s", CLT_VERSION, _("OpenCL GPU optimisation"));
    snprintf(right, sizeof right, "%s · %s ", ui_device_label(a, dev, sizeof dev), !strcmp(i18n_lang(), "zh") ? "中文" : "EN");
    if (st_widths(left) + st_widths(right) + 2 > COLS) snprintf(left, sizeof left, " cltutor");
    draw_bar(0, left, right, chrome_attr[P_HEADER]);
    int y = 1;
    char welcome[600];
    y++;
    y += put_text2(y, 2, COLS - 4, ui_home_welcome(a, welcome, sizeof welcome), A_BOLD);
    int passed = a->frame.passed;
    {
        char pbuf[200];
        snprintf(pbuf, sizeof pbuf, _("%d of %d chapters passed "), passed, a->cat.count);
        int pw = put_text(y, 2, COLS - 4, pbuf, style_attr(ST_DIM));
        int bw = a->cat.count * 2;
        if (2 + pw + bw < COLS - 2)
            for (int i = 0; i < a->cat.count; i++)
                put_text(y, 2 + pw + 2 * i, 2, i < passed ? (a->utf8 ? "██" : "##") : (a->utf8 ? "░░" : ".."),
                         style_attr(i < passed ? ST_OK : ST_DIM));
        y++;
    }
    if (a->warn[0]) {
        /* the first warning in full (up to three lines): it says what to do */
        char w[1200];
        util_copy_text(w, sizeof w, a->warn);
        char *nl = strchr(w, '\n');
        if (nl) *nl = '\0';
        st_doc wd;
        st_doc_init(&wd);
        st_doc_wrap(&wd, COLS - 4, ST_WARN | ST_A_BOLD, w, "", "", ST_NORMAL);
        for (int i = 0; i < wd.n && i < a->frame.home_warn_rows; i++)
            draw_sline(y++, 2, COLS - 4, &wd.lines[i], 0, 0, A_NORMAL);
        st_doc_free(&wd);
    }
    y++;
    int title_w = a->frame.home_title_w;
    int x_state = 9 + title_w + 2, x_best = x_state + 16, x_runs = x_best + 12;
    attr_t hdr = style_attr(ST_DIM | ST_A_BOLD);
    put_text(y, 6, 3, "#", hdr);
    put_text(y, 9, title_w, _("Chapter"), hdr);
    put_text(y, x_state, 15, _("State"), hdr);
    put_text(y, x_best, 11, _("Best"), hdr);
    if (x_runs + 5 < COLS) put_text(y, x_runs, 6, _("Runs"), hdr);
}

/* The chapters, one a row, the selected one marked, the next one pointed at. */
static void draw_home_list(const ui_app *a) {
    int y = a->frame.home_list_y, list_rows = a->frame.home_list_rows, title_w = a->frame.home_title_w;
    int x_state = 9 + title_w + 2, x_best = x_state + 16, x_runs = x_best + 12;
    const tui_list *hl = &a->st.home;
    int next = a->frame.next; /* the first chapter not passed */
    for (int r = 0; r < list_rows && hl->top + r < a->cat.count; r++) {
        int i = hl->top + r;
        const lesson *l = &a->cat.items[i];
        const progress_chapter *pc = progress_find(&a->prog, l->id);
        progress_state s = a->frame.state[i];
        int sel = i == hl->cur;
        attr_t base = sel ? chrome_attr[P_SELECT] : A_NORMAL;
        fill(y + r, 0, COLS, base);
        put_text(y + r, 1, 3, sel ? (a->utf8 ? "▶" : ">") : " ", base | A_BOLD);
        char num[8];
        snprintf(num, sizeof num, "%2d", l->number);
        put_text(y + r, 5, 3, num, base | A_BOLD);
        char title[300];
        snprintf(title, sizeof title, "%s", lesson_title(l));
        /* the next chapter keeps room for its marker: a long title is cut to make it */
        const char *marker = a->utf8 ? _("← next") : _("<- next");
        int mw = st_widths(marker);
        int room = i == next && title_w - mw - 2 >= 8 ? title_w - mw - 2 : title_w;
        int tw = put_text(y + r, 9, room, title, base | (sel ? A_BOLD : 0));
        if (i == next && tw + 2 + mw <= title_w)
            put_text(y + r, 9 + tw + 2, mw, marker, sel ? base : style_attr(ST_KEY | ST_A_BOLD));
        const char *st = s == PROG_PASSED ? (a->utf8 ? "✓ " : "+ ") : s == PROG_FAILING ? (a->utf8 ? "✗ " : "x ")
                         : s == PROG_CHANGED ? "~ " : (a->utf8 ? "· " : "- ");
        char stext[64];
        snprintf(stext, sizeof stext, "%s%s", st, _(progress_state_name(s)));
        attr_t sat = sel ? base : style_attr(s == PROG_PASSED ? ST_OK : s == PROG_FAILING ? ST_ERR
                                             : s == PROG_CHANGED ? ST_WARN : ST_DIM);
        put_text(y + r, x_state, 15, stext, sat);
        char best[32];
        st_fmt_ms(best, sizeof best, pc ? pc->best_ms : 0);
        put_text(y + r, x_best, 11, best, base);
        if (pc && pc->n_runs && x_runs + 5 < COLS) {
            char runs[16];
            snprintf(runs, sizeof runs, "%4d", pc->n_runs);
            put_text(y + r, x_runs, 6, runs, base);
        }
    }
}

/* The selected chapter: its summary and last run, and for a newcomer how the course works. */
static void draw_home_detail(const ui_app *a) {
    int list_rows = a->frame.home_list_rows;
    const tui_list *hl = &a->st.home;
    int dy = a->frame.home_list_y + (list_rows < a->cat.count ? list_rows : a->cat.count) + 1;
    if (a->cat.count > 0 && dy < LINES - 2) {
        const lesson *l = &a->cat.items[hl->cur];
        draw_hline(dy - 1, 2, COLS - 4, style_attr(ST_DIM));
        char head[300];
        snprintf(head, sizeof head, "%d · %s", l->number, lesson_title(l));
        put_text(dy++, 2, COLS - 4, head, style_attr(ST_TITLE | ST_A_BOLD));
        st_doc d;
        st_doc_init(&d);
        char sum[1024];
        st_doc_wrap(&d, COLS - 4, ST_NORMAL, ui_chapter_summary(l, sum, sizeof sum), "", "", ST_NORMAL);
        const progress_chapter *pc = progress_find(&a->prog, l->id);
        if (pc && pc->n_runs > 0) {
            const progress_run *lr = &pc->runs[pc->n_runs - 1];
            char when[32], med[32], buf[300];
            time_t t = (time_t)lr->when;
            struct tm tm;
            localtime_r(&t, &tm);
            strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
            st_fmt_ms(med, sizeof med, pc->best_ms);
            int good;
            char runs[64], hints[64];
            snprintf(runs, sizeof runs, P_("%d run", "%d runs", (unsigned long long)pc->n_runs), pc->n_runs);
            snprintf(hints, sizeof hints, P_("%d hint seen", "%d hints seen", (unsigned long long)pc->hints_seen),
                     pc->hints_seen);
            snprintf(buf, sizeof buf, _("Last run %s: %s. %s, %s, best %s."), when, tui_results_run_outcome(lr, &good),
                     runs, hints, med);
            st_doc_addf(&d, ST_DIM, "%s", buf);
        } else {
            st_doc_addf(&d, ST_DIM, "%s", _("Not started. Press Enter to open it."));
        }
        for (int i = 0; i < d.n && dy < LINES - 1; i++) draw_sline(dy++, 2, COLS - 4, &d.lines[i], 0, 0, A_NORMAL);
        st_doc_free(&d);
        /* how it works, for someone who has not run anything yet */
        int any_run = 0;
        for (int i = 0; i < a->prog.count; i++)
            if (a->prog.chapters[i].n_runs) any_run = 1;
        static const char *const steps[] = {
            N_("How it works: open a chapter with Enter and read the lesson on the left."),
            N_("Press e to edit the kernel in your editor; every save builds, checks and times it."),
            N_("The results appear below the kernel: what is wrong, how fast it is, and why."),
            N_("Stuck? n shows a hint, o the OpenCL C quick reference, ? every key.")};
        int n_steps = (int)(sizeof steps / sizeof steps[0]);
        if (!any_run && dy + n_steps + 1 < LINES - 1) {
            dy++;
            for (int i = 0; i < n_steps; i++) put_text(dy++, 2, COLS - 4, _(steps[i]), i == 0 ? style_attr(ST_TITLE) : A_NORMAL);
        }
    }
}

static void draw_home(const ui_app *a) {
    draw_home_header(a);
    draw_home_list(a);
    draw_home_detail(a);
    draw_status(a, _("Enter open · ? help · q quit · d device · L 中文/EN · ↑↓ move "));
}

/* ---- chapter ---------------------------------------------------------- */


/* The focused pane's title bar starts with a mark, so that focus shows
 * without colour too (NO_COLOR, a screen reader, a captured screen). */
static void focus_mark(int y, int x, int focused, attr_t at) {
    if (focused) put_text(y, x, 1, utf8_lines ? "▶" : ">", at | A_BOLD);
}

static void pane_title(ui_rect b, const char *left, const char *right, int focused) {
    attr_t at = focused ? chrome_attr[P_FOCUS] : chrome_attr[P_TITLE];
    fill(b.y, b.x, b.w, at);
    focus_mark(b.y, b.x, focused, at);
    int rw = st_widths(right);
    put_text(b.y, b.x + 1, b.w - rw - 4, left, at);
    if (rw && rw + 2 < b.w) put_text(b.y, b.x + b.w - rw - 1, rw, right, at);
}

static void scroll_pct(const tui_list *v, char *buf, size_t len) {
    if (v->len <= v->rows) snprintf(buf, len, "%s", _("all"));
    else if (v->top == 0) snprintf(buf, len, "%s", _("top"));
    else if (v->top + v->rows >= v->len) snprintf(buf, len, "%s", _("end"));
    else snprintf(buf, len, "%d%%", (int)(100.0 * (v->top + v->rows) / v->len));
}

static void draw_doc(ui_rect b, const st_doc *d, const tui_list *v, int focused, int hskip) {
    for (int r = 0; r < b.h - 1; r++) {
        int i = v->top + r;
        int cur = v->has_cursor && focused && i == v->cur;
        if (i < d->n) draw_sline(b.y + 1 + r, b.x + 1, b.w - 1, &d->lines[i], hskip, cur ? A_REVERSE : 0, A_NORMAL);
        else fill(b.y + 1 + r, b.x, b.w, A_NORMAL);
        mvaddch(b.y + 1 + r, b.x, ' ');
    }
}

static void draw_lesson(const ui_app *a, ui_rect b, int focused) {
    const ui_chapter *c = &a->ch;
    char left[200], right[32];
    snprintf(left, sizeof left, "%s%s", _("Lesson"), c->lesson_fallback ? _(" (English: no Chinese text yet)") : "");
    scroll_pct(&a->st.pane[PANE_LESSON], right, sizeof right);
    pane_title(b, left, right, focused);
    draw_doc(b, &c->lesson_doc, &a->st.pane[PANE_LESSON], focused, 0);
}

/* Lines the compiler complained about: 2 error, 1 warning. */
static int log_mark(const ui_app *a, int line) {
    const engine_report *r = &a->ch.rep;
    if (!a->ch.have_rep || !r->build_log) return 0;
    int mark = 0;
    const char *p = r->build_log;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int ln;
        diag_severity sev = diag_read(p, n, &ln, NULL);
        if (ln == line) {
            if (sev == DIAG_ERROR) mark = 2;
            else if (sev == DIAG_WARNING && mark < 1) mark = 1;
        }
        p = e ? e + 1 : p + n;
    }
    return mark;
}

static void draw_kernel(const ui_app *a, ui_rect b, int focused) {
    const ui_chapter *c = &a->ch;
    const ui_frame *f = &a->frame;
    const tui_list *v = &a->st.pane[PANE_KERNEL];
    char left[400], right[64];
    snprintf(right, sizeof right, _("line %d/%d"), v->cur + 1, v->len);
    snprintf(left, sizeof left, "%s%s · %s", c->display, c->kernel_ro ? _(" [read-only]") : "",
             a->st.watch ? _("watching") : _("watch off"));
    if (st_widths(left) + st_widths(right) + 5 > b.w) /* the file's name alone */
        snprintf(left, sizeof left, "%s%s · %s", c->l->exercise, c->kernel_ro ? _(" [read-only]") : "",
                 a->st.watch ? _("watching") : _("watch off"));
    pane_title(b, left, right, focused);
    /* the GPU model's notes: markers in the gutter, the cursor line's note in
     * the pane's last rows, or beside the code when there is room (ui_frame.c) */
    int digits = f->kernel_digits, gutter = f->kernel_gutter, code_w = f->kernel_code_w;
    int beside = f->note_beside, note_bar = f->note_bar, rows = v->rows;
    const char *cur_note = note_bar ? ui_gm_note(a, v->cur + 1) : NULL;
    const char *bar_text = cur_note ? cur_note : _("GPU model notes on the marked lines: move the cursor there (8: the report)");
    for (int r = 0; r < rows; r++) {
        int i = v->top + r, y = b.y + 1 + r;
        fill(y, b.x, b.w, A_NORMAL);
        if (i >= c->kernel_doc.n) continue;
        int mark = log_mark(a, i + 1);
        int cur = focused && i == v->cur;
        const char *note = ui_gm_note(a, i + 1);
        char num[24];
        snprintf(num, sizeof num, "%*d", digits < 12 ? digits : 12, i + 1);
        if (mark) put_text(y, b.x, 1, mark == 2 ? (a->utf8 ? "▶" : ">") : (a->utf8 ? "●" : "*"),
                           style_attr((mark == 2 ? ST_ERR : ST_WARN) | ST_A_BOLD));
        else if (note) put_text(y, b.x, 1, a->utf8 ? "◆" : "#", style_attr(ST_HUNK | ST_A_BOLD));
        attr_t nat = mark ? style_attr((mark == 2 ? ST_ERR : ST_WARN) | ST_A_BOLD) : style_attr(ST_LINENO);
        if (cur) nat = chrome_attr[P_SELECT] | A_BOLD;
        put_text(y, b.x + 1, digits, num, nat);
        draw_sline(y, b.x + gutter, b.w - gutter, &c->kernel_doc.lines[i], a->st.kernel_hscroll, 0, A_NORMAL);
        if (beside && note) {
            int x = b.x + gutter + code_w + 2;
            put_text(y, x, b.x + b.w - x, a->utf8 ? "◆ " : "# ", style_attr(ST_HUNK | ST_A_BOLD));
            put_text(y, x + 2, b.x + b.w - x - 2, note, style_attr(ST_HUNK));
        }
    }
    if (note_bar) {
        char buf[700];
        if (cur_note) snprintf(buf, sizeof buf, "%s %d: %s", a->utf8 ? "◆" : "#", v->cur + 1, cur_note);
        else snprintf(buf, sizeof buf, "%s %s", a->utf8 ? "◆" : "#", bar_text);
        st_doc nd;
        st_doc_init(&nd);
        st_doc_wrap(&nd, b.w - 1, ST_HUNK, buf, "", "    ", ST_HUNK);
        for (int k = 0; k < note_bar; k++) {
            int y = b.y + b.h - note_bar + k;
            fill(y, b.x, b.w, A_NORMAL);
            if (k < nd.n) draw_sline(y, b.x + 1, b.w - 1, &nd.lines[k], 0, 0, A_NORMAL);
        }
        st_doc_free(&nd);
    }
}

/* A tab's name, and a shorter one for a narrow terminal. */
static const char *tab_name(tui_tab t, int brief) {
    static const char *const names[] = {N_("Result"), N_("Check"), N_("Build"), N_("Timing"), N_("History"), N_("Changes"), N_("Solution"), N_("GPU model")};
    return brief && t == TAB_ANALYSIS ? _("GPU") : _(names[t]);
}

static void draw_results(const ui_app *a, ui_rect b, int focused) {
    /* tab bar */
    attr_t at = focused ? chrome_attr[P_FOCUS] : chrome_attr[P_TITLE];
    fill(b.y, b.x, b.w, at);
    focus_mark(b.y, b.x, focused, at);
    /* " 1 Result " where every tab fits so; else "1:Result" with short names; else the digits */
    int need_full = 1, need_brief = 1;
    for (int t = 0; t < TAB_COUNT; t++)
        if (a->st.tab_enabled[t] || t == TAB_ANALYSIS) {
            need_full += st_widths(tab_name((tui_tab)t, 0)) + 5;
            need_brief += st_widths(tab_name((tui_tab)t, 1)) + 3;
        }
    int form = need_full <= b.w ? 2 : need_brief <= b.w ? 1 : 0;
    int x = b.x + 1;
    for (int t = 0; t < TAB_COUNT; t++) {
        if (t == TAB_ANALYSIS && !a->st.tab_enabled[t]) continue;
        char label[64];
        int active = (int)a->st.tab == t;
        if (form == 2 || (form == 0 && active)) snprintf(label, sizeof label, " %d %s ", t + 1, tab_name((tui_tab)t, 0));
        else if (form == 1) snprintf(label, sizeof label, "%d:%s", t + 1, tab_name((tui_tab)t, 1));
        else snprintf(label, sizeof label, " %d ", t + 1);
        int lw = st_widths(label);
        if (x + lw >= b.x + b.w) break;
        attr_t la = active ? (at | A_REVERSE | A_BOLD) : at;
        if (t == TAB_SOLUTION && !ui_solution_unlocked(a) && !active) la = at | A_DIM;
        put_text(b.y, x, lw, label, la);
        x += lw + 1;
    }
    draw_doc(b, &a->ch.tabs[a->st.tab], &a->st.tabs[a->st.tab], focused, 0);
}

static void draw_chapter(const ui_app *a) {
    const ui_chapter *c = &a->ch;
    const lesson *l = c->l;
    progress_state s = a->frame.state[c->index];
    char left[400], right[400], dev[300], state[64];
    snprintf(left, sizeof left, " cltutor › %d · %s", l->number, lesson_title(l));
    snprintf(state, sizeof state, "%s %s", s == PROG_PASSED ? (a->utf8 ? "✓" : "+") : s == PROG_FAILING ? (a->utf8 ? "✗" : "x")
             : s == PROG_CHANGED ? "~" : (a->utf8 ? "·" : "-"),
             _(progress_state_name(s)));
    const char *lang = !strcmp(i18n_lang(), "zh") ? "中文" : "EN";
    ui_device_label(a, dev, sizeof dev);
    /* where the bar is short, the device's name is cut (never to its type alone) before the title is */
    int fixed = st_widths(state) + st_widths(lang) + 7, room = COLS - 2 - fixed - st_widths(left);
    if (room < 20) room = 20;
    if (st_widths(dev) > room) {
        size_t n = st_fit(dev, strlen(dev), room - 1, NULL);
        snprintf(dev + n, sizeof dev - n, "%s", a->utf8 ? "…" : "~");
    }
    snprintf(right, sizeof right, "%s · %s · %s ", state, dev, lang);
    draw_bar(0, left, right, chrome_attr[P_HEADER]);

    const ui_frame *f = &a->frame;
    tui_pane focus = a->st.focus;
    if (f->lesson.w) draw_lesson(a, f->lesson, focus == PANE_LESSON);
    if (f->lesson.w && f->kernel.w) draw_vline(f->kernel.y, f->kernel.x - 1, f->kernel.h, style_attr(ST_DIM));
    if (f->kernel.w) draw_kernel(a, f->kernel, focus == PANE_KERNEL);
    if (f->results.w) draw_results(a, f->results, focus == PANE_RESULTS);
    const char *keys;
    if (a->st.confirm_reset) keys = _("X again: reset · any other key: keep ");
    else if (c->run_id) keys = _("c cancel · ? help · e edit · Tab pane ");
    /* help, the pane key and the way back first: the bar is cut from the right, and below 90 columns Tab
     * is the only way between the panes */
    else if (a->st.next_offered) keys = _("n next chapter · ? help · Tab pane · q back · e edit · r run · C check · S size · B files · h hints ");
    else keys = _("? help · Tab pane · q back · e edit · r run · C check · S size · B files · n hint · w watch ");
    draw_status(a, keys);
}

/* ---- overlays --------------------------------------------------------- */

static void draw_overlay(const ui_app *a) {
    const ui_rect *b = &a->frame.dialog;
    const st_doc *dp = &a->frame.dialog_doc;
    const char *title = a->frame.dialog_title;
    int w = b->w, h = b->h, y0 = b->y, x0 = b->x;
    const tui_list *v = &a->st.overlay_list;
    attr_t frame = use_color ? style_attr(ST_TITLE) : A_BOLD;
    for (int r = 0; r < h; r++) fill(y0 + r, x0, w, A_NORMAL);
    corner(y0, x0, "┌", ACS_ULCORNER, frame);
    draw_hline(y0, x0 + 1, w - 2, frame);
    corner(y0, x0 + w - 1, "┐", ACS_URCORNER, frame);
    draw_vline(y0 + 1, x0, h - 2, frame);
    draw_vline(y0 + 1, x0 + w - 1, h - 2, frame);
    corner(y0 + h - 1, x0, "└", ACS_LLCORNER, frame);
    draw_hline(y0 + h - 1, x0 + 1, w - 2, frame);
    corner(y0 + h - 1, x0 + w - 1, "┘", ACS_LRCORNER, frame);
    char t[160];
    snprintf(t, sizeof t, " %s ", title);
    put_text(y0, x0 + 2, w - 4, t, frame | A_BOLD);
    const char *foot = a->st.overlay == OV_CONFIRM_QUIT ? "" : dp->n > v->rows ? _(" ↑↓ scroll · Esc close ") : _(" Esc close ");
    if (!a->utf8 && dp->n > v->rows) foot = _(" j/k scroll · Esc close ");
    int fw = st_widths(foot);
    if (fw && fw < w - 4) put_text(y0 + h - 1, x0 + w - fw - 2, fw, foot, frame);
    tui_overlay ov = a->st.overlay;
    int list = ov == OV_DEVICES || ov == OV_SIZES || ov == OV_FILES; /* one row an item, the cursor's */
    int n_items = ov == OV_DEVICES ? a->n_devs : ov == OV_SIZES ? a->st.n_sizes : a->st.n_files;
    int top = list ? 0 : v->top;
    for (int r = 0; r < h - 2; r++) {
        int i = top + r;
        int sel = list && i == v->cur && i < n_items;
        if (i < dp->n) draw_sline(y0 + 1 + r, x0 + 2, w - 4, &dp->lines[i], 0, sel ? A_REVERSE : 0, A_NORMAL);
    }
}

static void draw_too_small(void) {
    erase();
    char buf[200];
    snprintf(buf, sizeof buf, _("Terminal too small: %dx%d."), COLS, LINES);
    int y = LINES / 2 - 1;
    if (y < 0) y = 0;
    put_text(y, 0, COLS, buf, A_BOLD);
    snprintf(buf, sizeof buf, _("cltutor needs at least %dx%d; enlarge the window (q quits)."), UI_MIN_COLS, UI_MIN_ROWS);
    if (y + 1 < LINES) put_text2(y + 1, 0, COLS, buf, A_NORMAL);
}

void ui_draw(const ui_app *a) {
    if (a->editing) return;
    if (a->frame.too_small) {
        draw_too_small();
        refresh();
        return;
    }
    erase();
    if (a->in_chapter && a->st.screen == SCR_CHAPTER) draw_chapter(a);
    else draw_home(a);
    if (a->st.overlay != OV_NONE) draw_overlay(a);
    refresh();
}
