/* sandbox — runs a program in a fresh child process (fork and exec) under
 * time limits, with live progress, and hands back what it wrote. */
#define _GNU_SOURCE
#include "run/sandbox.h"
#include "run/gpulock.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUTPUT_KEEP (64 * 1024)

void sandbox_phase(int fd, run_phase phase, double limit_s) {
    char line[96];
    int n = snprintf(line, sizeof line, "phase %s %.3f\n", run_phase_name(phase), limit_s);
    if (n > 0 && write(fd, line, (size_t)n) < 0) { /* the parent is gone; nothing to do */ }
}

void sandbox_progress(int fd, int done, int total) {
    char line[64];
    int n = snprintf(line, sizeof line, "progress %d %d\n", done, total);
    if (n > 0 && write(fd, line, (size_t)n) < 0) { /* ignore */ }
}

int sandbox_gate(int fd, const char *key) {
    char line[192];
    int n = snprintf(line, sizeof line, "gate %s\n", key);
    if (n <= 0 || write(fd, line, (size_t)n) < 0) return 1;
    char go = 'g';
    while (read(SANDBOX_FD_CONTROL, &go, 1) < 0 && errno == EINTR) {}
    return go != 's';
}

static int temp_fd(void) {
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/cltutor-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) unlink(path);
    return fd;
}

static char *read_fd_all(int fd, size_t *len, size_t keep_tail) {
    struct stat st;
    *len = 0;
    if (fstat(fd, &st) != 0) return NULL;
    size_t size = (size_t)st.st_size, off = 0;
    if (keep_tail && size > keep_tail) {
        off = size - keep_tail;
        size = keep_tail;
    }
    char *buf = malloc(size + 1);
    if (!buf) return NULL;
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, buf + got, size - got, (off_t)(off + got));
        if (r <= 0) {
            if (r < 0 && errno == EINTR) continue;
            break;
        }
        got += (size_t)r;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

/* A child waiting at a gate (sandbox_gate): its place in the queue. */
typedef struct {
    char key[160];       /* the gate it asked for, "" none */
    gpulock lock;
    int queued;          /* 0 not yet, 1 in the queue, -1 no queue here (the gate opens) */
    int turn_back;       /* the peek wants nothing past the gate: answered 's', with no place in the queue */
    int last_ahead;
    double since, waited;
} gate_wait;

/* One look at the queue; opens the gate when the child's turn has come.
 * Returns 1 while the child still waits. */
static int gate_step(gate_wait *gw, const sandbox_limits *lim, int control_fd, run_progress_cb cb, void *user,
                     double elapsed) {
    double now = util_now();
    int ahead = 0, open = 1;
    if (gw->turn_back) {
        gw->key[0] = '\0';
        if (write(control_fd, "s", 1) < 0) { /* the child is gone */ }
        return 0;
    }
    if (!gw->queued) {
        char err[256];
        gw->since = now;
        gw->queued = lim && lim->gate_dir && gpulock_enqueue(&gw->lock, lim->gate_dir, gw->key, err, sizeof err) == 0
                         ? 1 : -1;
    }
    if (gw->queued == 1) open = gpulock_try(&gw->lock, &ahead);
    if (!open) {
        if (ahead != gw->last_ahead && cb) cb(user, &(run_progress){.phase = PHASE_QUEUE, .done = ahead, .elapsed_s = elapsed});
        gw->last_ahead = ahead;
        return 1;
    }
    gw->waited += now - gw->since;
    gw->key[0] = '\0';
    if (write(control_fd, "g", 1) < 0) { /* the child is gone */ }
    return 0;
}

void sandbox_set_limits(const sandbox_limits *lim) {
    if (lim && lim->cpu_s > 0) {
        struct rlimit rl = {(rlim_t)lim->cpu_s, (rlim_t)lim->cpu_s + 1};
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (lim && lim->memory_mb > 0) {
        struct rlimit rl = {(rlim_t)lim->memory_mb << 20, (rlim_t)lim->memory_mb << 20};
        setrlimit(RLIMIT_DATA, &rl);
        setrlimit(RLIMIT_FSIZE, &rl); /* nor can what it prints fill the disk */
    }
    if (lim && lim->result_max_bytes > 0) { /* no file it writes outgrows its results */
        struct rlimit rl = {(rlim_t)lim->result_max_bytes + 1, (rlim_t)lim->result_max_bytes + 1};
        struct rlimit now;
        if (getrlimit(RLIMIT_FSIZE, &now) != 0 || now.rlim_cur == RLIM_INFINITY || now.rlim_cur > rl.rlim_cur)
            setrlimit(RLIMIT_FSIZE, &rl);
    }
    struct rlimit none = {0, 0}; /* a worker's memory stays its own */
    setrlimit(RLIMIT_CORE, &none);
}

/* In the child, between fork and exec (only async-signal-safe calls): puts
 * the descriptors where the program expects them, closes every other one,
 * and runs it. Never returns. */
static void exec_child(const char *exe, char *const argv[], char *const envp[], int request_fd, int result_fd,
                       int output_fd, int progress_fd, int control_fd, const sandbox_limits *lim) {
    /* copies above the target numbers first, so that no dup2 below clobbers a source */
    int devnull = open("/dev/null", O_RDWR);
    int fds[6] = {devnull, output_fd, request_fd, result_fd, progress_fd, control_fd};
    for (int i = 0; i < 6; i++)
        if (fds[i] >= 0) fds[i] = fcntl(fds[i], F_DUPFD, 10);
    if (fds[0] < 0 || fds[1] < 0 || fds[3] < 0 || fds[4] < 0 || fds[5] < 0) _exit(126);
    if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 ||
        dup2(fds[2] >= 0 ? fds[2] : fds[0], SANDBOX_FD_REQUEST) < 0 || dup2(fds[3], SANDBOX_FD_RESULT) < 0 ||
        dup2(fds[4], SANDBOX_FD_PROGRESS) < 0 || dup2(fds[5], SANDBOX_FD_CONTROL) < 0)
        _exit(126);
    if (close_range(SANDBOX_FD_CONTROL + 1, ~0U, 0) != 0)
        for (int fd = SANDBOX_FD_CONTROL + 1; fd < 4096; fd++) close(fd);
    sandbox_set_limits(lim);
    if (envp) execve(exe, argv, envp);
    else execv(exe, argv);
    _exit(127);
}

/* Kills the child's whole process group (the child, and anything it started). */
static void kill_group(pid_t pid) {
    if (kill(-pid, SIGKILL) != 0) kill(pid, SIGKILL);
}

/* How the child is started: a program, or a function of ours. */
typedef struct {
    const char *exe;
    char *const *argv, *const *envp;
    int request_fd;
    sandbox_fn fn;
    void *arg;
} child_start;

/* The descriptors between the parent and one child: the files for its
 * results and its output, the progress pipe and the gate's control pipe. */
typedef struct {
    int result_fd, output_fd;
    int progress[2], control[2];
} child_fds;

/* Opens a child's files and pipes; on failure closes what it opened and returns -1. */
static int open_child_fds(child_fds *f) {
    f->result_fd = temp_fd();
    f->output_fd = temp_fd();
    f->progress[0] = f->progress[1] = f->control[0] = f->control[1] = -1;
    if (f->result_fd >= 0 && f->output_fd >= 0 && pipe2(f->progress, O_CLOEXEC) == 0 &&
        pipe2(f->control, O_CLOEXEC) == 0)
        return 0;
    if (f->result_fd >= 0) close(f->result_fd);
    if (f->output_fd >= 0) close(f->output_fd);
    for (int i = 0; i < 2; i++) {
        if (f->progress[i] >= 0) close(f->progress[i]);
        if (f->control[i] >= 0) close(f->control[i]);
    }
    return -1;
}

/* Closes every one of a child's descriptors (a fork that failed). */
static void close_child_fds(const child_fds *f) {
    close(f->result_fd);
    close(f->output_fd);
    for (int i = 0; i < 2; i++) {
        close(f->progress[i]);
        close(f->control[i]);
    }
}

/* In the child, after fork: its own process group, dying with the parent,
 * its output kept away from the terminal; then runs the program or the
 * function. Never returns. */
_Noreturn static void child_main(const child_start *cs, const sandbox_limits *lim, pid_t parent, const child_fds *f) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(125);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_DFL);
    signal(SIGTSTP, SIG_IGN);
    if (cs->exe)
        exec_child(cs->exe, cs->argv, cs->envp, cs->request_fd, f->result_fd, f->output_fd, f->progress[1],
                   f->control[0], lim);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) { dup2(devnull, 0); close(devnull); }
    dup2(f->output_fd, 1);
    dup2(f->output_fd, 2);
    sandbox_set_limits(lim);
    int code = cs->fn(cs->arg, f->result_fd, f->progress[1]);
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

/* The parent's side of a running child, while it watches it. */
typedef struct {
    pid_t pid;
    int progress_fd, control_fd; /* the reading end of the progress pipe, the writing end of the gate's */
    int result_fd;               /* the child's results, as they are written */
    const sandbox_limits *lim;
    run_progress_cb cb;
    void *user;
    double t0, phase_start;
    gate_wait gw;
    char line[512]; /* what has come of the progress line being written */
    size_t used;
} child_watch;

/* What the child has written to its results so far, handed to the
 * limits' peek (not past result_max_bytes: then nothing). */
static void peek_results(child_watch *w) {
    struct stat st;
    if (fstat(w->result_fd, &st) != 0) return;
    if (w->lim->result_max_bytes > 0 && (size_t)st.st_size > w->lim->result_max_bytes) return;
    size_t len = 0;
    char *blob = read_fd_all(w->result_fd, &len, 0);
    if (blob && w->lim->peek(w->user, blob, len)) w->gw.turn_back = 1;
    free(blob);
}

/* Handles one complete line from the child. */
static void handle_line(child_watch *w, char *line, sandbox_result *out) {
    char name[32];
    if (!strncmp(line, "gate ", 5)) {
        util_copy_text(w->gw.key, sizeof w->gw.key, line + 5); /* a key cut alike each time still names one queue */
        return;
    }
    double limit;
    int done, total;
    double now = util_now();
    int phase;
    if (sscanf(line, "phase %31s %lf", name, &limit) == 2 && (phase = run_phase_parse(name)) >= 0) {
        out->phase = (run_phase)phase;
        out->phase_limit_s = limit;
        w->phase_start = now;
        if (w->lim && w->lim->peek && phase == (int)w->lim->peek_at) peek_results(w);
        if (w->cb) w->cb(w->user, &(run_progress){.phase = out->phase, .elapsed_s = now - w->t0});
    } else if (sscanf(line, "progress %d %d", &done, &total) == 2) {
        if (w->cb)
            w->cb(w->user, &(run_progress){.phase = out->phase, .done = done, .total = total, .elapsed_s = now - w->t0});
    }
}

/* Reads what the child wrote on its progress pipe and handles each complete
 * line; returns 0 once the pipe is closed. */
static int read_progress(child_watch *w, sandbox_result *out) {
    ssize_t r = read(w->progress_fd, w->line + w->used, sizeof w->line - 1 - w->used);
    if (r == 0) return 0;
    if (r < 0) return 1;
    w->used += (size_t)r;
    w->line[w->used] = '\0';
    char *nl;
    while ((nl = strchr(w->line, '\n'))) {
        *nl = '\0';
        handle_line(w, w->line, out);
        size_t rest = w->used - (size_t)(nl + 1 - w->line);
        memmove(w->line, nl + 1, rest);
        w->used = rest;
        w->line[w->used] = '\0';
    }
    if (w->used == sizeof w->line - 1) w->used = 0; /* an over-long line: drop it */
    return 1;
}

/* Watches the child, passing its progress on and opening its gate, until it
 * ends, is cancelled or runs out of time. */
static void watch_child(child_watch *w, volatile int *cancel, sandbox_result *out) {
    double total_cap = w->lim && w->lim->total_s > 0 ? w->lim->total_s : 600;
    double grace = w->lim ? w->lim->grace_s : 1.0;
    int pipe_open = 1;
    for (;;) {
        struct pollfd pfd = {.fd = w->progress_fd, .events = POLLIN};
        int pr = pipe_open ? poll(&pfd, 1, 50) : (usleep(20000), 0);
        if (pr > 0) pipe_open = read_progress(w, out);
        /* has it ended? Looked at without reaping, so that its process
         * group cannot be reused before what is left of it is killed */
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == w->pid) break;
        double now = util_now();
        if (cancel && *cancel) {
            out->cancelled = 1;
            break;
        }
        if (w->gw.key[0] && gate_step(&w->gw, w->lim, w->control_fd, w->cb, w->user, now - w->t0))
            w->phase_start = now; /* waiting: no clock */
        if (now - w->phase_start > out->phase_limit_s + grace || now - w->t0 - w->gw.waited > total_cap) {
            out->timed_out = 1;
            break;
        }
    }
}

/* How the child ended (exit code or signal), and what it left: its results
 * (unless too big to read) and the tail of its output. */
static void collect_child(int status, const child_fds *f, const sandbox_limits *lim, sandbox_result *out) {
    if (WIFEXITED(status)) {
        out->exited = 1;
        out->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        out->signaled = 1;
        out->signal = WTERMSIG(status);
    }
    struct stat rst;
    if (lim && lim->result_max_bytes > 0 && fstat(f->result_fd, &rst) == 0 && (size_t)rst.st_size > lim->result_max_bytes)
        out->result_over = (size_t)rst.st_size; /* never read into this process's memory */
    else
        out->blob = read_fd_all(f->result_fd, &out->blob_len, 0);
    size_t olen;
    out->output = read_fd_all(f->output_fd, &olen, OUTPUT_KEEP);
    close(f->result_fd);
    close(f->output_fd);
}

/* Forks the child with its files and pipes; -1 when it could not start. */
static int spawn_child(const child_start *cs, const sandbox_limits *lim, sandbox_child *c) {
    child_fds f;
    if (open_child_fds(&f) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close_child_fds(&f);
        return -1;
    }
    if (pid == 0) child_main(cs, lim, parent, &f);
    setpgid(pid, pid); /* either side may win the race; both ask for the same */
    close(f.progress[1]);
    close(f.control[0]);
    fcntl(f.progress[0], F_SETFL, O_NONBLOCK);
    *c = (sandbox_child){.pid = pid, .result_fd = f.result_fd, .output_fd = f.output_fd,
                         .progress_fd = f.progress[0], .control_fd = f.control[1]};
    return 0;
}

int sandbox_spawn(const char *exe, char *const argv[], char *const envp[], int request_fd, const sandbox_limits *lim,
                  sandbox_child *out) {
    child_start cs = {.exe = exe, .argv = argv, .envp = envp, .request_fd = request_fd};
    return spawn_child(&cs, lim, out);
}

int sandbox_alive(const sandbox_child *c) {
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return c->pid > 0 && waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid != c->pid;
}

int sandbox_go(const sandbox_child *c) { return write(c->control_fd, "g", 1) == 1 ? 0 : -1; }

void sandbox_finish(sandbox_child *c, const sandbox_limits *lim, run_progress_cb cb, void *user, volatile int *cancel,
                    sandbox_result *out) {
    memset(out, 0, sizeof *out);
    out->phase = PHASE_START;
    out->phase_limit_s = 30;
    double t0 = util_now();
    child_watch w = {.pid = c->pid, .progress_fd = c->progress_fd, .control_fd = c->control_fd,
                     .result_fd = c->result_fd, .lim = lim, .cb = cb,
                     .user = user, .t0 = t0, .phase_start = t0,
                     .gw = {.lock = {.ticket_fd = -1, .lock_fd = -1}, .last_ahead = -1}};
    watch_child(&w, cancel, out);
    out->phase_s = util_now() - w.phase_start;
    gpulock_release(&w.gw.lock);
    close(c->control_fd);
    kill_group(c->pid);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
    close(c->progress_fd);
    out->wall_s = util_now() - t0;
    child_fds f = {.result_fd = c->result_fd, .output_fd = c->output_fd};
    collect_child(status, &f, lim, out);
    c->pid = 0;
}

void sandbox_discard(sandbox_child *c) {
    if (c->pid <= 0) return;
    kill_group(c->pid);
    int status;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
    close(c->control_fd);
    close(c->progress_fd);
    close(c->result_fd);
    close(c->output_fd);
    c->pid = 0;
}

static int run_child(const child_start *cs, const sandbox_limits *lim, run_progress_cb cb, void *user,
                     volatile int *cancel, sandbox_result *out) {
    sandbox_child c;
    memset(out, 0, sizeof *out);
    if (spawn_child(cs, lim, &c) != 0) return -1;
    sandbox_finish(&c, lim, cb, user, cancel, out);
    return 0;
}

int sandbox_run(const char *exe, char *const argv[], char *const envp[], int request_fd, const sandbox_limits *lim,
                run_progress_cb cb, void *user, volatile int *cancel, sandbox_result *out) {
    child_start cs = {.exe = exe, .argv = argv, .envp = envp, .request_fd = request_fd};
    return run_child(&cs, lim, cb, user, cancel, out);
}

int sandbox_run_fn(sandbox_fn fn, void *arg, const sandbox_limits *lim, run_progress_cb cb, void *user,
                   volatile int *cancel, sandbox_result *out) {
    child_start cs = {.fn = fn, .arg = arg};
    return run_child(&cs, lim, cb, user, cancel, out);
}

void sandbox_result_free(sandbox_result *r) {
    free(r->blob);
    free(r->output);
    r->blob = r->output = NULL;
}
