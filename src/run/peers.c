/* peers — the libraries a learner would call instead (PyTorch, NPP, CUB), timed on the same GPU by bench/peers.py */
#define _DEFAULT_SOURCE
#include "run/peers.h"

#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *peer_status_name(peer_status s) {
    static const char *const names[] = {"pass", "absent", "wrong", "error"};
    return s >= PEER_PASS && s <= PEER_ERROR ? names[s] : "error";
}

static peer_status status_from(const char *s) {
    for (int i = PEER_PASS; i <= PEER_ERROR; i++)
        if (s && !strcmp(s, peer_status_name((peer_status)i))) return (peer_status)i;
    return PEER_ERROR;
}

static void copy_str(const cJSON *o, const char *key, char *dst, size_t len) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(v)) util_copy_text(dst, len, v->valuestring);
}

/* One line of the script's output; 0 when it is not a peer's. */
static int parse_line(const char *line, bench_peer *p) {
    cJSON *o = cJSON_Parse(line);
    if (!o) return 0;
    memset(p, 0, sizeof *p);
    copy_str(o, "peer", p->name, sizeof p->name);
    copy_str(o, "problem", p->problem, sizeof p->problem);
    copy_str(o, "size", p->size, sizeof p->size);
    copy_str(o, "input", p->input, sizeof p->input);
    copy_str(o, "version", p->version, sizeof p->version);
    copy_str(o, "message", p->message, sizeof p->message);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
    p->status = status_from(cJSON_IsString(st) ? st->valuestring : NULL);
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(o, "median_ms");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs");
    if (cJSON_IsNumber(ms)) p->median_ms = ms->valuedouble;
    if (cJSON_IsNumber(runs)) p->runs = runs->valueint;
    if (p->status == PEER_PASS && p->median_ms <= 0) p->status = PEER_ERROR;
    cJSON_Delete(o);
    return p->name[0] && p->problem[0];
}

/* Reads the child's output until it closes or the deadline passes. Returns 0, or -1 on the deadline. */
static int read_all(int fd, double limit_s, char **out) {
    double end = util_now() + limit_s;
    char buf[4096];
    for (;;) {
        int left_ms = (int)((end - util_now()) * 1000);
        if (left_ms <= 0) return -1;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, left_ms);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        buf[n] = 0;
        util_sappend(out, "%s", buf);
    }
}

int peers_measure(const char *script, const peers_sizes *sizes, double budget_s, double limit_s, bench_peer *out,
                  int max, char *err, size_t errlen) {
    if (!util_is_file(script)) {
        util_errf(err, errlen, _("%s is missing"), script);
        return -1;
    }
    char budget[32], *argv[16];
    int a = 0;
    snprintf(budget, sizeof budget, "%g", budget_s);
    argv[a++] = "python3";
    argv[a++] = (char *)script;
    argv[a++] = "--budget";
    argv[a++] = budget;
    if (sizes->bytes[0]) argv[a++] = "--bytes", argv[a++] = (char *)sizes->bytes;
    if (sizes->bytes_inputs[0]) argv[a++] = "--bytes-inputs", argv[a++] = (char *)sizes->bytes_inputs;
    if (sizes->scan[0]) argv[a++] = "--scan", argv[a++] = (char *)sizes->scan;
    if (sizes->integral[0]) argv[a++] = "--integral", argv[a++] = (char *)sizes->integral;
    argv[a] = NULL;
    int fds[2];
    if (pipe(fds) != 0) {
        util_errf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", 0, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, "python3", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        util_errf(err, errlen, _("cannot run python3: %s"), strerror(rc));
        return -1;
    }
    char *text = NULL;
    int timed_out = read_all(fds[0], limit_s, &text) != 0;
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    int n = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line && n < max; line = strtok(NULL, "\n"))
        n += parse_line(line, &out[n]);
    free(text);
    if (timed_out) {
        util_errf(err, errlen, _("%s ran past %.0f s and was stopped"), script, limit_s);
        return n ? n : -1;
    }
    if (!n) {
        util_errf(err, errlen, WIFEXITED(status) ? _("%s printed no results (exit %d)") : _("%s crashed (signal %d)"),
                  script, WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return -1;
    }
    return n;
}
