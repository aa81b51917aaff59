/* ui_main — the terminal: curses, signals, keys, the editor and the event
 * loop around the course's controller (src/ui/ui_app.c); drawing is in
 * ui_draw.c. */
#define _GNU_SOURCE
#include "term/ui.h"
#include "term/ui_view.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "text/i18n.h"
#include "ui/ui_app.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t sig_quit, sig_int, sig_tstp, sig_cont;
static volatile sig_atomic_t curses_on;
static int self_pipe[2] = {-1, -1};

/* ---- signals and terminal safety ------------------------------------- */

static void poke(void) {
    if (self_pipe[1] >= 0) {
        char c = 1;
        if (write(self_pipe[1], &c, 1) < 0) { /* full: the loop wakes anyway */ }
    }
}

static void on_signal(int sig) {
    int saved = errno;
    if (sig == SIGINT) sig_int = 1;
    else if (sig == SIGTSTP) sig_tstp = 1;
    else if (sig == SIGCONT) sig_cont = 1;
    else sig_quit = 1;
    poke();
    errno = saved;
}

static void on_fatal(int sig) {
    /* put the terminal back before dying */
    if (curses_on) endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void restore_terminal(void) {
    if (curses_on) {
        endwin();
        curses_on = 0;
    }
}

static void child_after_fork(void) {
    /* editors and workers start with ordinary signals, and never touch the screen */
    curses_on = 0;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTSTP, &sa, NULL);
    sigaction(SIGCONT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction fa;
    memset(&fa, 0, sizeof fa);
    fa.sa_handler = on_fatal;
    sigemptyset(&fa.sa_mask);
    sigaction(SIGSEGV, &fa, NULL);
    sigaction(SIGBUS, &fa, NULL);
    sigaction(SIGABRT, &fa, NULL);
    sigaction(SIGFPE, &fa, NULL);
    sigaction(SIGILL, &fa, NULL);
    pthread_atfork(NULL, NULL, child_after_fork);
}

/* Runs the editor on the kernel; the screen comes back afterwards. Saves
 * made meanwhile are run in the background. */
static void edit_kernel(ui_app *a, int line) {
    ui_editor ed;
    if (ui_app_editor(a, line, &ed) != 0) return;
    ui_chapter *c = &a->ch;
    def_prog_mode();
    endwin();
    a->editing = 1;
    pid_t pid = fork();
    if (pid == 0) {
        i18n_restore_env(); /* the editor speaks the learner's own language, not the course's switch */
        signal(SIGINT, SIG_DFL);
        signal(SIGTSTP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execv(ed.argv[0], (char *const *)ed.argv);
        _exit(127);
    }
    int status = 0;
    if (pid > 0) {
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG | WUNTRACED);
            if (w == pid && WIFSTOPPED(status)) {
                /* the editor was suspended (Ctrl-Z in it): stop with it, so the shell gets the terminal */
                kill(getpid(), SIGSTOP);
                kill(pid, SIGCONT);
                continue;
            }
            if (w == pid || (w < 0 && errno != EINTR)) break;
            /* saves made in the editor run now, in the background */
            struct pollfd pfd[2] = {{tui_jobs_wake_fd(&a->jobs), POLLIN, 0}, {tui_watch_fd(&c->watch), POLLIN, 0}};
            poll(pfd, pfd[1].fd >= 0 ? 2 : 1, 100);
            ui_app_while_editing(a);
            sig_int = sig_tstp = 0;
        }
    }
    a->editing = 0;
    sig_int = sig_tstp = 0;
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    ui_app_after_edit(a, &ed, pid > 0, status);
}

/* ---- the event loop --------------------------------------------------- */

static int translate_key(int ch) {
    switch (ch) {
    case KEY_UP: return TK_UP;
    case KEY_DOWN: return TK_DOWN;
    case KEY_LEFT: return TK_LEFT;
    case KEY_RIGHT: return TK_RIGHT;
    case KEY_PPAGE: return TK_PGUP;
    case KEY_NPAGE: return TK_PGDN;
    case KEY_HOME: return TK_HOME;
    case KEY_END: return TK_END;
    case KEY_ENTER: case '\r': case '\n': return TK_ENTER;
    case '\t': return TK_TAB;
    case KEY_BTAB: return TK_BTAB;
    case KEY_BACKSPACE: case 127: return TK_BACKSPACE;
    case KEY_F(1): return TK_F1;
    case KEY_F(5): return TK_F5;
    case KEY_RESIZE: return TK_RESIZE;
    default: return ch;
    }
}

static void suspend_self(ui_app *a) {
    ui_app_suspending(a);
    def_prog_mode();
    endwin();
    kill(getpid(), SIGSTOP);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
}

static void init_colors_and_locale(ui_app *a) {
    const char *cs = nl_langinfo(CODESET);
    a->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    if (!a->utf8) {
        /* a terminal with no locale set is nearly always UTF-8 today; one
         * that names a UTF-8 locale this machine lacks (zh_CN.UTF-8 without
         * the locales package) still is */
        const char *lc = getenv("LC_ALL"), *ctype = getenv("LC_CTYPE"), *lang = getenv("LANG");
        const char *named = lc && *lc ? lc : ctype && *ctype ? ctype : lang;
        int unset = !named || !*named || !strcmp(named, "C") || !strcmp(named, "POSIX");
        int says_utf8 = named && (util_contains_ci(named, "utf-8") || util_contains_ci(named, "utf8"));
        if ((unset || says_utf8) && setlocale(LC_CTYPE, "C.UTF-8")) a->utf8 = 1;
    }
}

int ui_available(void) {
    const char *term = getenv("TERM");
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

/* curses in raw, non-blocking mode; 0, or -1 after saying why not */
static int start_curses(ui_app *a) {
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, "cltutor: this terminal (TERM=%s) is not supported; try TERM=xterm-256color\n",
                getenv("TERM") ? getenv("TERM") : "");
        return -1;
    }
    curses_on = 1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    ui_colors_init(a);
    getmaxyx(stdscr, a->rows, a->cols);
    return 0;
}

/* A key read from curses, with what only the terminal does. */
static void handle_key(ui_app *a, int ch) {
    int key = translate_key(ch);
    if (key == TK_RESIZE) getmaxyx(stdscr, a->rows, a->cols);
    ui_effect e = ui_app_key(a, key);
    if (e.kind == UI_DO_EDIT) edit_kernel(a, e.line);
    else if (e.kind == UI_DO_SUSPEND) suspend_self(a);
    else if (e.kind == UI_DO_REDRAW) clearok(curscr, TRUE);
}

/* The signals that came since the last look; 1 when the screen must be drawn again. */
static int handle_signals(ui_app *a) {
    int dirty = 0;
    if (sig_int) {
        sig_int = 0;
        handle_key(a, TK_CTRL_C);
        dirty = 1;
    }
    if (sig_tstp) {
        sig_tstp = 0;
        suspend_self(a);
        dirty = 1;
    }
    if (sig_cont) {
        sig_cont = 0;
        clearok(curscr, TRUE);
        dirty = 1;
    }
    return dirty;
}

/* $CLTUTOR_UI_TRACE names a file that gets a line, "keys N", each time the
 * screen has been drawn after keys were read, "busy" or "idle" when a drawn
 * screen is the first with work running or with none, and "ahead N" when
 * the Nth run took a worker started ahead: the screen tests wait for these
 * instead of sleeping. NULL when unset or not writable. */
static FILE *open_trace(void) {
    const char *path = getenv("CLTUTOR_UI_TRACE");
    FILE *f = path && *path ? fopen(path, "ae") : NULL;
    if (f) setvbuf(f, NULL, _IOLBF, 0);
    return f;
}

/* Draws when needed, sleeps until a key, a job, a signal, a save or a
 * timer, and hands each to the controller. */
static void event_loop(ui_app *a, FILE *trace) {
    int dirty = 1, keyed = 0, was_busy = -1, taken = 0;
    long key_draws = 0;
    double last_draw = 0;
    while (!a->quit && !sig_quit) {
        dirty |= handle_signals(a);
        double now = util_now();
        if (ui_app_busy(a) && now - last_draw > 0.1) dirty = 1; /* the spinner and the clock */
        dirty |= ui_app_tick(a, now);
        if (dirty) {
            ui_frame_prepare(a);
            ui_draw(a);
            last_draw = util_now();
            dirty = 0;
            if (trace && keyed && !a->editing) fprintf(trace, "keys %ld\n", ++key_draws);
            if (trace && wproto_warm_taken(&a->warm) != taken) fprintf(trace, "ahead %d\n", taken = wproto_warm_taken(&a->warm));
            if (trace && ui_app_busy(a) != was_busy) fprintf(trace, "%s\n", (was_busy = ui_app_busy(a)) ? "busy" : "idle");
            keyed = 0;
        }
        struct pollfd pfd[4];
        int n = 0;
        pfd[n++] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
        pfd[n++] = (struct pollfd){tui_jobs_wake_fd(&a->jobs), POLLIN, 0};
        pfd[n++] = (struct pollfd){self_pipe[0], POLLIN, 0};
        if (a->in_chapter && tui_watch_fd(&a->ch.watch) >= 0) pfd[n++] = (struct pollfd){tui_watch_fd(&a->ch.watch), POLLIN, 0};
        int pr = poll(pfd, (nfds_t)n, ui_app_wait_ms(a, now));
        if (pr < 0 && errno != EINTR) break;
        if (pfd[2].revents) {
            char buf[64];
            while (read(self_pipe[0], buf, sizeof buf) > 0) {}
        }
        if (pfd[1].revents) dirty |= ui_app_collect(a);
        dirty |= ui_app_tick(a, util_now());
        int ch;
        while ((ch = getch()) != ERR) {
            handle_key(a, ch);
            dirty = keyed = 1;
            if (a->quit) break;
        }
        if (pr < 0) dirty = 1;
    }
}

int ui_main(const char *workspace) {
    static ui_app app; /* large: not on the stack */
    ui_app *a = &app;
    if (!setlocale(LC_ALL, "")) setlocale(LC_CTYPE, ""); /* one missing locale (LC_MESSAGES) spoils them all */
    i18n_set_lang(i18n_env_lang());
    char fatal[1400];
    if (ui_app_open(a, workspace, fatal, sizeof fatal) != 0) {
        fprintf(stderr, "cltutor: %s\n", fatal);
        return EXIT_USAGE;
    }
    init_colors_and_locale(a);
    if (pipe2(self_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
        fprintf(stderr, "cltutor: cannot start the interface (%s)\n", strerror(errno));
        ui_app_close(a);
        return 1;
    }
    install_signals();
    atexit(restore_terminal);
    if (start_curses(a) != 0) {
        ui_app_close(a);
        return 1;
    }
    FILE *trace = open_trace();
    event_loop(a, trace);
    if (trace) fclose(trace);
    restore_terminal();
    if (ui_app_close(a) != 0) _exit(0); /* a job that cannot be stopped (listing devices): its worker dies with us */
    return 0;
}
