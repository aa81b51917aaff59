/* grade_batch — grades every submission folder of a directory, N at a time, each in
 * its own forked grader process, and gathers one row of scores per student. */
#define _GNU_SOURCE
#include "grade/grade_batch.h"
#include "grade/grade_html.h"
#include "base/scratch.h"
#include "base/csv.h"
#include "base/util.h"
#include "grade/grade_late.h"
#include "grade/grade_unpack.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int grade_remove_tree(const char *dir) { return scratch_remove(dir); }

static int cmp_rows(const void *a, const void *b) {
    return strcmp(((const grade_batch_row *)a)->student, ((const grade_batch_row *)b)->student);
}

/* A file name for a student's report: letters, digits and ._-@+ kept, the
 * rest '_'. A long name keeps its start and gets a hash of the whole name, so
 * that NAME.json and the temporary file it is written through
 * (NAME.json.tmpXXXXXX) stay within a file name's 255 bytes. */
#define REPORT_NAME_MAX 200
static void report_name(const char *student, char *buf, size_t len) {
    size_t j = 0;
    if (student[0] == '.' || !student[0]) buf[j++] = '_';
    for (const char *p = student; *p && j + 1 < len; p++) {
        unsigned char c = (unsigned char)*p;
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                   c == '_' || c == '-' || c == '@' || c == '+';
        buf[j++] = keep ? (char)c : '_';
    }
    buf[j] = '\0';
    if (j > REPORT_NAME_MAX && len > REPORT_NAME_MAX) {
        unsigned long long h = 1469598103934665603ull;
        for (const char *p = student; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
        snprintf(buf + REPORT_NAME_MAX - 17, len - (REPORT_NAME_MAX - 17), "-%016llx", h);
    }
}

typedef struct {
    pid_t pid;         /* also its process group */
    int fd;            /* progress: one byte per finished test; -1 once at its end */
    int row;
    int ticks;
    double started;
    int killed;        /* stopped at the per-student limit */
} running;

/* A student's JSON report, and beside it (NAME.md, NAME.html) the feedback the
 * student may read, hidden inputs withheld as st says. 0, or 2 when one could not be written. */
static int write_reports(const grade_batch_row *row, const grade_result *r, const grade_report_style *st) {
    char *json = grade_report_render(r, GF_JSON, st), *md = grade_report_render(r, GF_MARKDOWN, st);
    char *html = md ? grade_html_feedback(row->student, md) : NULL;
    char md_path[sizeof row->report], html_path[sizeof row->report + 2];
    snprintf(md_path, sizeof md_path, "%.*s.md", (int)strlen(row->report) - 5, row->report); /* NAME.json */
    snprintf(html_path, sizeof html_path, "%.*s.html", (int)strlen(row->report) - 5, row->report);
    int rc = json && util_write_file_atomic(row->report, json, strlen(json)) == 0 ? 0 : 2;
    if (!md || util_write_file_atomic(md_path, md, strlen(md)) != 0) rc = 2;
    if (!html || util_write_file_atomic(html_path, html, strlen(html)) != 0) rc = 2;
    free(json);
    free(md);
    free(html);
    return rc;
}

/* The child: grades one student and writes the reports (write_reports). */
static int grade_child(const grade_options *base, grade_batch_row *row, const char *work_dir,
                       const grade_report_style *st, int progress_fd);

static void child_tick(void *user, const grade_chapter *ch, const grade_test *t, int done, int total) {
    (void)ch; (void)t; (void)done; (void)total;
    int fd = *(int *)user;
    if (write(fd, ".", 1) < 0) { /* the parent is gone */ }
}

static int grade_child(const grade_options *base, grade_batch_row *row, const char *work_dir,
                       const grade_report_style *st, int progress_fd) {
    grade_options o = *base;
    o.submission = row->dir;
    if (base->due > 0 && !o.submitted && row->archive) /* unpacked files are new: the archive's own time */
        o.submitted = grade_submission_time(row->entry);
    o.student = row->student;
    o.seed = row->seed;
    o.analysis_seed = grade_analysis_seed(base); /* the batch's: every student measured at the same sizes */
    o.work_dir = work_dir;
    if (util_mkdirs(work_dir) != 0) return 2;
    setenv("TMPDIR", work_dir, 1); /* the GPU model's folders too: removed with this student's */
    grade_result r;
    grade_run(&o, child_tick, &progress_fd, NULL, &r);
    int rc = write_reports(row, &r, st);
    grade_result_free(&r);
    grade_remove_tree(work_dir);
    return rc;
}

/* Reads a finished student's report back into the row. */
static void read_back(const grade_options *o, grade_batch_row *row) {
    char *text = util_read_file(row->report, NULL);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!j) {
        snprintf(row->error, sizeof row->error, "%s", _("the grader wrote no report"));
        return;
    }
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
    if (cJSON_IsString(err)) {
        row->fatal = 1;
        snprintf(row->error, sizeof row->error, "%s", err->valuestring);
    }
    row->score = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "score"));
    row->max_score = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "max_score"));
    row->tests = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "tests"));
    row->passed = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "passed"));
    row->failed = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "failed"));
    row->skipped = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "skipped"));
    row->wall_s = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "wall_s"));
    const cJSON *chs = cJSON_GetObjectItemCaseSensitive(j, "chapters"), *c;
    cJSON_ArrayForEach(c, chs) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "lesson");
        if (!cJSON_IsString(id)) continue;
        for (int i = 0; i < o->n_lessons; i++)
            if (!strcmp(o->lessons[i]->id, id->valuestring))
                row->chapter_score[i] = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "score"));
        row->submitted += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "submitted"));
        row->files_refused += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "refused"));
    }
    row->graded = !row->fatal;
    cJSON_Delete(j);
}

/* A report of its own for a student the grader did not grade (fatal: the JSON's
 * error), so that every row of the CSV has one. */
static void write_fatal_report(const grade_options *o, const grade_batch_row *row, int fatal, double wall_s,
                               const grade_report_style *st) {
    grade_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.submission, sizeof r.submission, "%s", row->entry);
    snprintf(r.student, sizeof r.student, "%s", row->student);
    r.seed = row->seed;
    r.analysis_seed = grade_analysis_seed(o);
    r.timeout_s = o->timeout_s;
    r.cpu_s = o->cpu_s;
    r.memory_mb = o->memory_mb;
    r.wall_s = wall_s;
    r.fatal = fatal;
    snprintf(r.fatal_msg, sizeof r.fatal_msg, "%s", row->error);
    write_reports(row, &r, st);
}

/* A student stopped at the limit: the row says so, and so does a report of its own. */
static void stopped_at_limit(const grade_options *o, grade_batch_row *row, double limit_s,
                             const grade_report_style *st) {
    row->time_limit = 1;
    row->fatal = 0;
    /* TRANSLATORS: time_limit is the status in the CSV of grades: keep it as it is */
    snprintf(row->error, sizeof row->error,
             _("time_limit: grading took more than %.0f s (--student-limit), so its processes were stopped and it "
               "has no grade; grade this student alone, or with a larger --student-limit"), limit_s);
    write_fatal_report(o, row, 3, limit_s, st);
}

/* One entry of the batch folder: a folder, an archive to unpack, or refused. */
static void classify(const char *name, const char *path, grade_batch_row *row) {
    memset(row, 0, sizeof *row);
    snprintf(row->entry, sizeof row->entry, "%s", path);
    snprintf(row->student, sizeof row->student, "%s", name);
    struct stat st;
    if (stat(path, &st) != 0) {
        row->refused = 1;
        snprintf(row->error, sizeof row->error, _("%s cannot be read (%s)"), name, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(row->dir, sizeof row->dir, "%s", path);
    } else if (S_ISREG(st.st_mode) && unpack_kind_of(name) != UNPACK_NONE) {
        row->archive = (int)unpack_kind_of(name);
        unpack_stem(name, row->student, sizeof row->student);
    } else {
        row->refused = 1;
        snprintf(row->error, sizeof row->error,
                 _("%s is not a folder, a .zip or a .tar.gz; a student's submission is one of these"), name);
    }
}

/* The kernel files (*.cl) under a submission folder, at most `left` entries deep into it looked at. */
static int count_kernels_in(const char *dir, int depth, int *left) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && --*left > 0) {
        if (e->d_name[0] == '.') continue;
        char path[1400];
        if (util_pathf(path, sizeof path, "%s/%s", dir, e->d_name) != 0) continue;
        size_t len = strlen(e->d_name);
        if (util_is_file(path)) count += len > 3 && !strcmp(e->d_name + len - 3, ".cl");
        else if (depth > 0 && util_is_dir(path)) count += count_kernels_in(path, depth - 1, left);
    }
    closedir(d);
    return count;
}

/* What grading a row costs, in kernel files handed in (at least 1; 0 for a refused entry). */
static int row_work(const grade_batch_row *row) {
    if (row->refused) return 0;
    unpack_limits lim;
    unpack_limits_default(&lim);
    int left = lim.max_entries;
    int n = row->archive ? unpack_count_kernels(row->entry, lim.max_entries) : count_kernels_in(row->entry, 4, &left);
    return n > 1 ? n : 1;
}

typedef struct {
    int row, work;
} shard_item;

static int by_work(const void *a, const void *b) {
    const shard_item *x = a, *y = b;
    return x->work != y->work ? y->work - x->work : x->row - y->row; /* heaviest first; then by name */
}

/* Keeps the rows of one shard, in their order (by name): the students are
 * dealt heaviest first, each to the shard with the least work so far (the
 * lowest-numbered on a tie), so that shards get about the same work. Every
 * machine that lists the same folder deals it the same way. Returns the
 * rows kept. */
static int keep_shard(grade_batch_row *rows, int n, int shard, int shards) {
    shard_item *items = calloc((size_t)n, sizeof *items);
    long long *load = calloc((size_t)shards, sizeof *load);
    char *mine = calloc((size_t)n, 1);
    int k = 0;
    if (items && load && mine) {
        for (int i = 0; i < n; i++) items[i] = (shard_item){i, row_work(&rows[i])};
        qsort(items, (size_t)n, sizeof *items, by_work);
        for (int i = 0; i < n; i++) {
            int to = 0;
            for (int s = 1; s < shards; s++)
                if (load[s] < load[to]) to = s;
            load[to] += items[i].work;
            mine[items[i].row] = to == shard - 1;
        }
    } else { /* no memory to weigh them: every shards-th student from the shard-th on */
        for (int i = 0; mine && i < n; i++) mine[i] = i % shards == shard - 1;
    }
    for (int i = 0; mine && i < n; i++)
        if (mine[i]) rows[k++] = rows[i];
    free(items);
    free(load);
    free(mine);
    return k;
}

int grade_batch_list(const char *batch_dir, int shard, int shards, grade_batch_row **rows_out, int *n_out,
                     int *all_out, char *err, size_t errlen) {
    *rows_out = NULL;
    *n_out = 0;
    DIR *d = opendir(batch_dir);
    if (!d) {
        util_errf(err, errlen, _("%s: cannot open the folder of submissions"), batch_dir);
        return -1;
    }
    int n = 0, cap = 0;
    grade_batch_row *rows = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[sizeof rows->dir];
        if (util_pathf(path, sizeof path, "%s/%s", batch_dir, e->d_name) != 0) {
            closedir(d);
            free(rows);
            util_errf(err, errlen, _("%s/%s: the path is longer than %zu bytes; grade from a shorter path"), batch_dir,
                      e->d_name, sizeof path - 1);
            return -1;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            grade_batch_row *nr = realloc(rows, sizeof *nr * (size_t)cap);
            if (!nr) break;
            rows = nr;
        }
        classify(e->d_name, path, &rows[n++]);
    }
    closedir(d);
    if (n == 0) {
        free(rows);
        util_errf(err, errlen, _("%s has no submissions (one folder, .zip or .tar.gz per student)"), batch_dir);
        return -1;
    }
    qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
    /* two entries for one student (ada/ and ada.zip): the archive is refused, under its file's name */
    int dups = 0;
    for (int i = 1; i < n; i++)
        if (!strcmp(rows[i].student, rows[i - 1].student)) {
            grade_batch_row *r = rows[i].archive ? &rows[i] : &rows[i - 1];
            const char *base = strrchr(r->entry, '/') ? strrchr(r->entry, '/') + 1 : r->entry;
            snprintf(r->error, sizeof r->error, _("%s: another submission is also named %s; keep one"), base,
                     r->student);
            util_copy_text(r->student, sizeof r->student, base);
            r->refused = 1;
            r->archive = 0;
            dups++;
        }
    if (dups) qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
    if (all_out) *all_out = n;
    if (shards > 0) n = keep_shard(rows, n, shard, shards);
    *rows_out = rows;
    *n_out = n;
    return 0;
}

/* The batch's own: the folder is removed when the student's grader ends, so a
 * student's files lie on disk only while they are graded. */
int grade_batch_unpack(grade_batch_row *row, int i, const char *scratch) {
    unpack_limits lim;
    unpack_limits_default(&lim);
    if (util_pathf(row->dir, sizeof row->dir, "%s/in-%d", scratch, i) != 0 || mkdir(row->dir, 0700) != 0 ||
        unpack_archive(row->entry, row->dir, &lim, row->error, sizeof row->error) != 0) {
        if (!row->error[0])
            snprintf(row->error, sizeof row->error, _("cannot create a temporary folder in %s"), scratch);
        row->refused = 1;
        grade_remove_tree(row->dir);
        return -1;
    }
    return 0;
}

/* A batch while it runs: the rows, the graders running and the counts. */
typedef struct {
    const grade_options *base;
    const grade_report_style *st;
    grade_batch_row *rows;
    int n, jobs;
    running *run;
    const char *tmpl;            /* the batch's temporary folder */
    double student_limit_s;
    int next, active, finished, ticks, per_student;
    const char *last;            /* the student finished last */
} batch_state;

/* Starts graders while there are free places. */
static void start_graders(batch_state *b) {
    while (b->active < b->jobs && b->next < b->n) {
        grade_batch_row *row = &b->rows[b->next];
        if (row->refused) {
            b->next++;
            continue;
        }
        if (row->archive && grade_batch_unpack(row, b->next, b->tmpl) != 0) {
            write_fatal_report(b->base, row, 1, 0, b->st);
            b->ticks += b->per_student; /* nothing of it will run */
            b->finished++;
            b->next++;
            continue;
        }
        int slot = 0;
        while (b->run[slot].pid) slot++;
        int pfd[2];
        if (pipe(pfd) != 0) break;
        char work[1100];
        snprintf(work, sizeof work, "%s/%d", b->tmpl, b->next);
        fflush(stdout);
        fflush(stderr);
        pid_t parent = getpid(), pid = fork();
        if (pid == 0) {
            setpgid(0, 0); /* the student's grader and its workers: one group to stop at the limit */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(128 + SIGKILL); /* the batch ended before the line above */
            close(pfd[0]);
            for (int k = 0; k < b->jobs; k++) if (b->run[k].pid && b->run[k].fd >= 0) close(b->run[k].fd);
            _exit(grade_child(b->base, row, work, b->st, pfd[1]));
        }
        close(pfd[1]);
        if (pid < 0) {
            close(pfd[0]);
            snprintf(row->error, sizeof row->error, "%s", _("could not start a grader process"));
            row->fatal = 1;
            b->finished++;
            b->next++;
            continue;
        }
        setpgid(pid, pid);
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        b->run[slot] = (running){.pid = pid, .fd = pfd[0], .row = b->next, .ticks = 0, .started = util_now()};
        b->active++;
        b->next++;
    }
}

/* Reads the graders' progress (waiting up to 200 ms), and stops those past the limit. */
static void poll_graders(batch_state *b) {
    struct pollfd pf[64];
    int np = 0, map[64];
    for (int k = 0; k < b->jobs && np < 64; k++)
        if (b->run[k].pid && b->run[k].fd >= 0) {
            pf[np] = (struct pollfd){.fd = b->run[k].fd, .events = POLLIN};
            map[np++] = k;
        }
    if (np) poll(pf, (nfds_t)np, 200);
    else usleep(20000);
    for (int p = 0; p < np; p++) {
        if (!(pf[p].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[256];
        ssize_t r;
        while ((r = read(pf[p].fd, buf, sizeof buf)) > 0) {
            b->run[map[p]].ticks += (int)r;
            b->ticks += (int)r;
        }
        if (r == 0) { /* the grader has finished (its workers too): stop polling it */
            close(pf[p].fd);
            b->run[map[p]].fd = -1;
        }
    }
    double now = util_now();
    for (int k = 0; k < b->jobs; k++) {
        running *g = &b->run[k];
        if (g->pid && !g->killed && b->student_limit_s > 0 && now - g->started > b->student_limit_s) {
            kill(-g->pid, SIGKILL);
            kill(g->pid, SIGKILL);
            g->killed = 1;
        }
    }
}

/* Reads back the graders that have ended into their rows. */
static void reap_graders(batch_state *b) {
    for (int k = 0; k < b->jobs; k++) {
        running *g = &b->run[k];
        if (!g->pid) continue;
        int status;
        if (waitpid(g->pid, &status, WNOHANG) != g->pid) continue;
        if (g->fd >= 0) {
            char buf[256];
            ssize_t r;
            while ((r = read(g->fd, buf, sizeof buf)) > 0) { g->ticks += (int)r; b->ticks += (int)r; }
            close(g->fd);
            g->fd = -1;
        }
        grade_batch_row *row = &b->rows[g->row];
        if (g->killed) {
            kill(-g->pid, SIGKILL); /* what is left of its group */
            char work[1100];
            snprintf(work, sizeof work, "%s/%d", b->tmpl, g->row);
            grade_remove_tree(work);
            stopped_at_limit(b->base, row, b->student_limit_s, b->st);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            read_back(b->base, row);
        } else {
            row->fatal = 1;
            snprintf(row->error, sizeof row->error, "%s",
                     WIFSIGNALED(status) ? _("the grader process was killed")
                                         : _("the grader process could not write its report"));
        }
        if (g->ticks < b->per_student) b->ticks += b->per_student - g->ticks;
        if (row->archive) grade_remove_tree(row->dir); /* its files go with its grading */
        b->last = row->student;
        g->pid = 0;
        b->active--;
        b->finished++;
    }
}

/* Each row's report path, seed and chapter scores; 0, or -1 with err. */
static int prepare_rows(const grade_options *base, grade_batch_row *rows, int n, const char *reports_dir,
                        int same_seed, char *err, size_t errlen) {
    if (util_mkdirs(reports_dir) != 0) {
        util_errf(err, errlen, _("%s: cannot create the reports folder"), reports_dir);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char name[256];
        report_name(rows[i].student, name, sizeof name);
        snprintf(rows[i].report, sizeof rows[i].report, "%s/%s.json", reports_dir, name);
        /* names that differ only in case are one file on a case-insensitive file system (macOS, Windows) */
        for (int k = 0; k < i; k++)
            if (!strcasecmp(rows[k].report, rows[i].report))
                snprintf(rows[i].report, sizeof rows[i].report, "%s/%s-%d.json", reports_dir, name, i + 1);
        rows[i].chapter_score = malloc(sizeof(double) * (size_t)(base->n_lessons ? base->n_lessons : 1));
        for (int c = 0; c < base->n_lessons; c++) rows[i].chapter_score[c] = -1;
        rows[i].seed = same_seed ? base->seed : grade_student_seed(base->seed, rows[i].student);
        unlink(rows[i].report); /* a report left from an earlier batch must not pass for this one's */
    }
    return 0;
}

int grade_batch_run(const grade_options *base, const char *batch_dir, const char *reports_dir,
                    const grade_batch_spec *spec, const grade_report_style *st, grade_batch_cb cb, void *user,
                    grade_batch_row **rows_out, int *n_out, char *err, size_t errlen) {
    *rows_out = NULL;
    *n_out = 0;
    int n = 0;
    grade_batch_row *rows = NULL;
    if (grade_batch_list(batch_dir, spec->shard, spec->shards, &rows, &n, NULL, err, errlen) != 0) return -1;
    int per_student = prepare_rows(base, rows, n, reports_dir, spec->same_seed, err, errlen) == 0
                          ? grade_count(base, err, errlen) : -1;
    if (per_student < 0) {
        grade_batch_free(rows, n);
        return -1;
    }
    char tmpl[1024];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmpl, sizeof tmpl, "%s/cltutor-batch-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(tmpl)) {
        grade_batch_free(rows, n);
        util_errf(err, errlen, _("cannot create a temporary folder in %s"), tmpdir && *tmpdir ? tmpdir : "/tmp");
        return -1;
    }
    int refused = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].refused) {
            write_fatal_report(base, &rows[i], 1, 0, st);
            refused++;
        }
    int jobs = spec->jobs < 1 ? 1 : spec->jobs;
    /* the CPUs the jobs leave over go to each student's untimed tests */
    grade_options per = *base;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (per.threads <= 0) per.threads = ncpu > jobs ? (int)(ncpu / jobs) : 1;
    batch_state b = {.base = &per, .st = st, .rows = rows, .n = n, .jobs = jobs,
                     .run = calloc((size_t)jobs, sizeof(running)), .tmpl = tmpl,
                     .student_limit_s = spec->student_limit_s, .finished = refused, .per_student = per_student,
                     .last = ""};
    int total = per_student * (n - refused), last_ticks = 0, last_finished = 0;
    if (cb) cb(user, 0, total, 0, n, b.last);
    while (b.finished < n) {
        start_graders(&b);
        poll_graders(&b);
        reap_graders(&b);
        int shown = b.ticks < total ? b.ticks : total;
        if (cb && (shown != last_ticks || b.finished != last_finished)) cb(user, shown, total, b.finished, n, b.last);
        last_ticks = shown;
        last_finished = b.finished;
    }
    free(b.run);
    grade_remove_tree(tmpl);
    *rows_out = rows;
    *n_out = n;
    return 0;
}

void grade_batch_free(grade_batch_row *rows, int n) {
    for (int i = 0; i < n; i++) free(rows[i].chapter_score);
    free(rows);
}

void grade_batch_status(const grade_batch_row *row, char *buf, size_t len) {
    if (row->graded && !row->submitted && row->files_refused)
        snprintf(buf, len, "refused: %d file%s refused by the source policy (the report says why)", row->files_refused,
                 row->files_refused == 1 ? "" : "s");
    else if (row->graded) snprintf(buf, len, "%s", row->submitted ? "ok" : "no files");
    else if (row->time_limit) snprintf(buf, len, "time_limit");
    else if (row->refused) snprintf(buf, len, "refused: %s", row->error);
    else snprintf(buf, len, "error: %s", row->error);
}

char *grade_batch_csv(const grade_options *o, const grade_batch_row *rows, int n) {
    char *out = NULL, a[32], status[600];
    util_sappend(&out, "student,score,max_score,percent");
    for (int i = 0; i < o->n_lessons; i++) util_sappend(&out, ",%s", o->lessons[i]->id);
    util_sappend(&out, ",tests,passed,failed,skipped,seed,status,report\n");
    for (int r = 0; r < n; r++) {
        const grade_batch_row *row = &rows[r];
        csv_field(&out, row->student);
        grade_batch_status(row, status, sizeof status);
        if (row->graded) {
            grade_format_points(row->score, a, sizeof a);
            util_sappend(&out, ",%s", a);
            grade_format_points(row->max_score, a, sizeof a);
            util_sappend(&out, ",%s,%.1f", a, row->max_score > 0 ? 100.0 * row->score / row->max_score : 0.0);
            for (int i = 0; i < o->n_lessons; i++) {
                if (row->chapter_score[i] < 0) { util_sappend(&out, ","); continue; }
                grade_format_points(row->chapter_score[i], a, sizeof a);
                util_sappend(&out, ",%s", a);
            }
            util_sappend(&out, ",%d,%d,%d,%d,%llu,", row->tests, row->passed, row->failed, row->skipped,
                         (unsigned long long)row->seed);
        } else {
            util_sappend(&out, ",,,");
            for (int i = 0; i < o->n_lessons; i++) util_sappend(&out, ",");
            util_sappend(&out, ",,,,,%llu,", (unsigned long long)row->seed);
        }
        csv_field(&out, status);
        util_sappend(&out, ",");
        csv_field(&out, row->report);
        util_sappend(&out, "\n");
    }
    return out;
}

/* One student's row as JSON (numbers null when not graded). */
static cJSON *row_json(const grade_options *o, const grade_batch_row *row) {
    cJSON *j = cJSON_CreateObject();
    char status[600];
    grade_batch_status(row, status, sizeof status);
    cJSON_AddStringToObject(j, "student", row->student);
    if (row->graded) {
        cJSON_AddNumberToObject(j, "score", grade_points_json(row->score));
        cJSON_AddNumberToObject(j, "max_score", grade_points_json(row->max_score));
        cJSON *c = cJSON_AddObjectToObject(j, "chapters");
        for (int i = 0; i < o->n_lessons; i++)
            if (row->chapter_score[i] < 0) cJSON_AddNullToObject(c, o->lessons[i]->id);
            else cJSON_AddNumberToObject(c, o->lessons[i]->id, grade_points_json(row->chapter_score[i]));
        cJSON_AddNumberToObject(j, "tests", row->tests);
        cJSON_AddNumberToObject(j, "passed", row->passed);
        cJSON_AddNumberToObject(j, "failed", row->failed);
        cJSON_AddNumberToObject(j, "skipped", row->skipped);
    } else {
        cJSON_AddNullToObject(j, "score");
        cJSON_AddNullToObject(j, "max_score");
    }
    cJSON_AddNumberToObject(j, "seed", (double)row->seed);
    cJSON_AddStringToObject(j, "status", status);
    cJSON_AddStringToObject(j, "report", row->report);
    return j;
}

char *grade_batch_json(const grade_options *o, const grade_batch_spec *spec, const grade_batch_row *rows, int n,
                       const char *const *class_names, int n_class) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "cltutor-grade-batch");
    cJSON_AddNumberToObject(j, "format_version", 1);
    cJSON_AddNumberToObject(j, "seed", (double)o->seed);
    if (spec && spec->shards > 0) {
        char sh[32];
        snprintf(sh, sizeof sh, "%d/%d", spec->shard, spec->shards);
        cJSON_AddStringToObject(j, "shard", sh);
    } else cJSON_AddNullToObject(j, "shard");
    cJSON *ch = cJSON_AddArrayToObject(j, "chapters");
    for (int i = 0; i < o->n_lessons; i++) cJSON_AddItemToArray(ch, cJSON_CreateString(o->lessons[i]->id));
    cJSON *cl = cJSON_AddArrayToObject(j, "class");
    for (int i = 0; i < n_class; i++) cJSON_AddItemToArray(cl, cJSON_CreateString(class_names[i]));
    cJSON *st = cJSON_AddArrayToObject(j, "students");
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(st, row_json(o, &rows[i]));
    char *s = cJSON_Print(j), *out = NULL;
    cJSON_Delete(j);
    util_sappend(&out, "%s\n", s ? s : "{}");
    free(s);
    return out;
}
