/* progress — what the learner has done, saved as JSON in the workspace
 * under a lock, merged with what other processes wrote (see progress.h). */
#define _DEFAULT_SOURCE
#include "course/progress.h"
#include "text/i18n.h"
#include "base/util.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHAPTERS_UNFILTERED 256 /* without a catalog to tell chapters from junk */

static const char *const origin_names[] = {
#define PG_NAME(e, name) name,
    PROGRESS_ORIGINS(PG_NAME)
#undef PG_NAME
};
static const char *const verdict_names[] = {
#define PG_NAME(e, name) name,
    PROGRESS_VERDICTS(PG_NAME)
#undef PG_NAME
};

const char *progress_origin_name(progress_origin o) {
    return (unsigned)o < CLT_ARRAY_LEN(origin_names) ? origin_names[o] : "?";
}

const char *progress_verdict_name(progress_verdict v) {
    return (unsigned)v < CLT_ARRAY_LEN(verdict_names) ? verdict_names[v] : "?";
}

const char *progress_state_name(progress_state s) {
    return s == PROG_PASSED ? N_("passed") : s == PROG_FAILING ? N_("failing") : s == PROG_CHANGED ? N_("changed")
                            : N_("not started");
}

static int index_of(const char *const *names, int n, const char *s, int fallback) {
    for (int i = 0; s && i < n; i++)
        if (!strcmp(names[i], s)) return i;
    return fallback;
}

static progress_state state_from(const char *s) {
    return !s ? PROG_NOT_STARTED : !strcmp(s, "passed") ? PROG_PASSED : !strcmp(s, "failing") ? PROG_FAILING
                                                                                              : PROG_NOT_STARTED;
}

const progress_chapter *progress_find(const progress *p, const char *id) {
    for (int i = 0; i < p->count; i++)
        if (!strcmp(p->chapters[i].id, id)) return &p->chapters[i];
    return NULL;
}

progress_chapter *progress_get(progress *p, const char *id, int create) {
    for (int i = 0; i < p->count; i++)
        if (!strcmp(p->chapters[i].id, id)) return &p->chapters[i];
    if (!create) return NULL;
    progress_chapter *nc = realloc(p->chapters, sizeof *nc * (size_t)(p->count + 1));
    if (!nc) return NULL;
    p->chapters = nc;
    progress_chapter *c = &p->chapters[p->count++];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    return c;
}

/* ---- the file ---------------------------------------------------------- */

static const char *jstr(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void copy_str(char *dst, size_t len, const char *s) { snprintf(dst, len, "%s", s ? s : ""); }

static int known_chapter(const progress *p, const char *id) {
    if (!p->cat) return p->count < MAX_CHAPTERS_UNFILTERED;
    for (int i = 0; i < p->cat->count; i++)
        if (!strcmp(p->cat->items[i].id, id)) return 1;
    return 0;
}

static void run_from_json(const cJSON *r, progress_run *pr) {
    memset(pr, 0, sizeof *pr);
    pr->when = jnum(r, "when");
    pr->origin = (progress_origin)index_of(origin_names, (int)CLT_ARRAY_LEN(origin_names), jstr(r, "origin"), FROM_UI);
    pr->passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "passed"));
    pr->median_ms = jnum(r, "median_ms");
    copy_str(pr->status, sizeof pr->status, jstr(r, "status"));
    copy_str(pr->device, sizeof pr->device, jstr(r, "device"));
    const char *h = jstr(r, "file_hash");
    if (h) pr->file_hash = strtoull(h, NULL, 16);
    pr->verdict = (progress_verdict)index_of(verdict_names, (int)CLT_ARRAY_LEN(verdict_names), jstr(r, "verdict"),
                                             PV_NONE);
    copy_str(pr->verdict_note, sizeof pr->verdict_note, jstr(r, "verdict_note"));
    pr->unsafe = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "unsafe"));
}

static void chapter_from_json(progress_chapter *c, const cJSON *ch) {
    c->state = state_from(jstr(ch, "state"));
    c->best_ms = jnum(ch, "best_ms");
    copy_str(c->best_device, sizeof c->best_device, jstr(ch, "best_device"));
    c->hints_seen = (int)jnum(ch, "hints_seen");
    const char *ph = jstr(ch, "passed_hash");
    if (ph) c->passed_hash = strtoull(ph, NULL, 16);
    c->ever_passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ch, "ever_passed")) || c->state == PROG_PASSED;
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(ch, "runs");
    int n = cJSON_IsArray(runs) ? cJSON_GetArraySize(runs) : 0, skip = n > PROGRESS_MAX_RUNS ? n - PROGRESS_MAX_RUNS : 0;
    c->runs = calloc((size_t)(n - skip > 0 ? n - skip : 1), sizeof(progress_run));
    if (!c->runs) return;
    const cJSON *r;
    int i = 0;
    cJSON_ArrayForEach(r, runs) {
        if (i++ >= skip && cJSON_IsObject(r)) run_from_json(r, &c->runs[c->n_runs++]);
    }
}

/* Parses text into p (empty first); -1 when it is not progress. */
static int parse(progress *p, const char *text) {
    cJSON *root = cJSON_Parse(text);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return -1;
    }
    copy_str(p->last, sizeof p->last, jstr(root, "last"));
    const cJSON *ch;
    cJSON_ArrayForEach(ch, cJSON_GetObjectItemCaseSensitive(root, "chapters")) {
        if (!ch->string || !cJSON_IsObject(ch) || progress_get(p, ch->string, 0) || !known_chapter(p, ch->string))
            continue;
        progress_chapter *c = progress_get(p, ch->string, 1);
        if (!c) break;
        chapter_from_json(c, ch);
    }
    cJSON_Delete(root);
    return 0;
}

static void clear_chapters(progress *p) {
    for (int i = 0; i < p->count; i++) free(p->chapters[i].runs);
    free(p->chapters);
    p->chapters = NULL;
    p->count = 0;
    p->last[0] = '\0';
}

/* Renames a file that is not progress aside, never over another. */
static void set_aside(const char *path, char *err, size_t errlen) {
    char aside[1400], stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(aside, sizeof aside, "%s.corrupt-%s", path, stamp);
    for (int k = 2; access(aside, F_OK) == 0 && k < 1000; k++)
        snprintf(aside, sizeof aside, "%s.corrupt-%s-%d", path, stamp, k);
    if (rename(path, aside) == 0)
        util_errf(err, errlen, _("%s was not a progress file (damaged or edited by hand): it is kept as %s, and "
                  "progress starts afresh"), path, aside);
    else
        util_errf(err, errlen, _("%s is not a progress file and cannot be moved aside (%s): move it away yourself"),
                  path, strerror(errno));
}

static long long stamp_of(const struct stat *st) {
    return ((long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec) ^ ((long long)st->st_size << 40);
}

/* Reads the file into p (empty first). 0 read or missing; 1 set aside; -1 unusable. */
/* set_aside_damaged: a file that is not progress is renamed aside (the
 * learner's own); else it is only reported (someone else's, read-only). */
static int read_file_into(progress *p, int set_aside_damaged, char *err, size_t errlen) {
    clear_chapters(p);
    struct stat st;
    p->seen_stamp = 0;
    if (stat(p->path, &st) != 0) {
        if (errno == ENOENT) return 0;
        util_errf(err, errlen, "%s: %s", p->path, strerror(errno));
        return -1;
    }
    p->seen_stamp = stamp_of(&st);
    if (!S_ISREG(st.st_mode)) {
        util_errf(err, errlen, _("%s is not a file (a folder or device is in its place): move it away so that "
                  "progress can be saved"), p->path);
        return -1;
    }
    char *text = util_read_file(p->path, NULL);
    if (!text) {
        util_errf(err, errlen, _("%s cannot be read (%s): make it readable (chmod u+rw)"), p->path, strerror(errno));
        return -1;
    }
    int rc = parse(p, text);
    free(text);
    if (rc == 0) return 0;
    clear_chapters(p);
    if (!set_aside_damaged) {
        util_errf(err, errlen, _("%s is not cltutor progress (damaged or truncated)"), p->path);
        return -1;
    }
    set_aside(p->path, err, errlen);
    return 1;
}

int progress_load(progress *p, const char *path, const catalog *cat, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    p->cat = cat;
    return read_file_into(p, 1, err, errlen);
}

int progress_read(progress *p, const char *path, const catalog *cat, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    p->cat = cat;
    return read_file_into(p, 0, err, errlen) == 0 ? 0 : -1;
}

static cJSON *run_to_json(const progress_run *r) {
    cJSON *o = cJSON_CreateObject();
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", r->file_hash);
    cJSON_AddNumberToObject(o, "when", r->when);
    cJSON_AddStringToObject(o, "origin", progress_origin_name(r->origin));
    cJSON_AddBoolToObject(o, "passed", r->passed);
    cJSON_AddStringToObject(o, "status", r->status);
    cJSON_AddNumberToObject(o, "median_ms", r->median_ms);
    cJSON_AddStringToObject(o, "device", r->device);
    cJSON_AddStringToObject(o, "file_hash", hash);
    cJSON_AddStringToObject(o, "verdict", progress_verdict_name(r->verdict));
    if (r->verdict_note[0]) cJSON_AddStringToObject(o, "verdict_note", r->verdict_note);
    if (r->unsafe) cJSON_AddBoolToObject(o, "unsafe", 1);
    return o;
}

static char *to_text(const progress *p) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 2);
    cJSON_AddStringToObject(root, "last", p->last);
    cJSON *chs = cJSON_AddObjectToObject(root, "chapters");
    for (int i = 0; i < p->count; i++) {
        const progress_chapter *c = &p->chapters[i];
        cJSON *o = cJSON_AddObjectToObject(chs, c->id);
        char hash[24];
        snprintf(hash, sizeof hash, "%016llx", c->passed_hash);
        cJSON_AddStringToObject(o, "state", progress_state_name(c->state));
        cJSON_AddNumberToObject(o, "best_ms", c->best_ms);
        cJSON_AddStringToObject(o, "best_device", c->best_device);
        cJSON_AddNumberToObject(o, "hints_seen", c->hints_seen);
        cJSON_AddStringToObject(o, "passed_hash", hash);
        cJSON_AddBoolToObject(o, "ever_passed", c->ever_passed);
        cJSON *runs = cJSON_AddArrayToObject(o, "runs");
        for (int j = 0; j < c->n_runs; j++) cJSON_AddItemToArray(runs, run_to_json(&c->runs[j]));
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

/* ---- changes: applied now, and replayed on the file's content at save --- */

static void add_run(progress_chapter *c, const progress_run *run) {
    if (c->n_runs >= PROGRESS_MAX_RUNS) {
        memmove(c->runs, c->runs + 1, sizeof *c->runs * (size_t)(c->n_runs - 1));
        c->n_runs--;
    }
    progress_run *nr = realloc(c->runs, sizeof *nr * (size_t)(c->n_runs + 1));
    if (!nr) return;
    c->runs = nr;
    c->runs[c->n_runs++] = *run;
}

static void apply_verdict(progress_chapter *c, const progress_run *v) {
    progress_run *into = NULL;
    for (int i = c->n_runs - 1; i >= 0 && !into; i--)
        if (c->runs[i].file_hash == v->file_hash && c->runs[i].origin == v->origin && c->runs[i].verdict == PV_NONE)
            into = &c->runs[i];
    if (into) {
        into->verdict = v->verdict;
        into->unsafe = v->unsafe;
        copy_str(into->verdict_note, sizeof into->verdict_note, v->verdict_note);
    } else {
        add_run(c, v);
    }
    if (v->verdict == PV_FAILED) c->state = PROG_FAILING;
    if (v->verdict != PV_PASSED) return;
    c->state = PROG_PASSED;
    c->passed_hash = v->file_hash;
    c->ever_passed = 1;
    if (v->median_ms > 0 && (c->best_ms == 0 || v->median_ms < c->best_ms)) {
        c->best_ms = v->median_ms;
        copy_str(c->best_device, sizeof c->best_device, v->device);
    }
}

static void apply(progress *p, const progress_op *op) {
    if (op->kind == PO_LAST) {
        copy_str(p->last, sizeof p->last, op->id);
        return;
    }
    progress_chapter *c = progress_get(p, op->id, 1);
    if (!c) return;
    switch (op->kind) {
    case PO_RUN:
        add_run(c, &op->run);
        if (!op->run.passed) c->state = PROG_FAILING;
        break;
    case PO_VERDICT: apply_verdict(c, &op->run); break;
    case PO_HINTS:
        if (op->hints_seen > c->hints_seen) c->hints_seen = op->hints_seen;
        break;
    case PO_LAST: break;
    }
}

static void record(progress *p, const progress_op *op) {
    apply(p, op);
    progress_op *grown = realloc(p->pending, sizeof *grown * (size_t)(p->n_pending + 1));
    if (!grown) return;
    p->pending = grown;
    p->pending[p->n_pending++] = *op;
}

void progress_record_run(progress *p, const char *id, const progress_run *run) {
    progress_op op = {.kind = PO_RUN, .run = *run};
    copy_str(op.id, sizeof op.id, id);
    record(p, &op);
    progress_set_last(p, id);
}

void progress_record_verdict(progress *p, const char *id, const progress_run *v) {
    progress_op op = {.kind = PO_VERDICT, .run = *v};
    copy_str(op.id, sizeof op.id, id);
    record(p, &op);
}

void progress_set_hints_seen(progress *p, const char *id, int seen) {
    progress_op op = {.kind = PO_HINTS, .hints_seen = seen};
    copy_str(op.id, sizeof op.id, id);
    record(p, &op);
}

void progress_set_last(progress *p, const char *id) {
    progress_op op = {.kind = PO_LAST};
    copy_str(op.id, sizeof op.id, id);
    record(p, &op);
}

/* ---- saving under the lock --------------------------------------------- */

static int take_lock(const char *path, char *err, size_t errlen) {
    char lock[1300];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        util_errf(err, errlen, _("cannot save progress: %s cannot be created (%s); make the folder writable or "
                  "choose another workspace (--workspace DIR)"), lock, strerror(errno));
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(fd);
            util_errf(err, errlen, _("cannot lock %s: %s"), lock, strerror(errno));
            return -1;
        }
    return fd;
}

int progress_save(progress *p, char *err, size_t errlen) {
    if (access(p->path, F_OK) == 0 && access(p->path, W_OK) != 0) {
        util_errf(err, errlen, _("cannot save progress: %s is read-only; make it writable (chmod u+w %s)"), p->path,
                  p->path);
        return -1;
    }
    int lock = take_lock(p->path, err, errlen);
    if (lock < 0) return -1;
    /* the newest content, with this process's changes replayed on it */
    progress merged = {.cat = p->cat};
    snprintf(merged.path, sizeof merged.path, "%s", p->path);
    char why[1400] = "";
    int rc = read_file_into(&merged, 1, why, sizeof why);
    if (rc < 0) {
        util_errf(err, errlen, _("cannot save progress: %s"), why);
        close(lock);
        return -1;
    }
    /* a file damaged since it was loaded is set aside: this process's view is written */
    if (rc == 0)
        for (int i = 0; i < p->n_pending; i++) apply(&merged, &p->pending[i]);
    char *text = to_text(rc == 0 ? &merged : p);
    int wrote = text ? util_write_file_atomic(p->path, text, strlen(text)) : -1;
    int saved_errno = errno;
    free(text);
    close(lock);
    if (wrote != 0) {
        progress_free(&merged);
        util_errf(err, errlen, _("cannot save progress to %s (%s)"), p->path, strerror(saved_errno));
        return -1;
    }
    struct stat st;
    if (stat(p->path, &st) == 0) p->seen_stamp = stamp_of(&st);
    if (rc == 0) {
        clear_chapters(p);
        p->chapters = merged.chapters;
        p->count = merged.count;
        memcpy(p->last, merged.last, sizeof p->last);
    } else {
        progress_free(&merged);
    }
    free(p->pending);
    p->pending = NULL;
    p->n_pending = 0;
    if (rc == 1) util_errf(err, errlen, "%s", why); /* saved, after setting a damaged file aside */
    return rc == 1 ? 1 : 0;
}

int progress_refresh(progress *p) {
    struct stat st;
    if (stat(p->path, &st) != 0 || !S_ISREG(st.st_mode) || stamp_of(&st) == p->seen_stamp) return 0;
    progress fresh = {.cat = p->cat};
    snprintf(fresh.path, sizeof fresh.path, "%s", p->path);
    char err[1400];
    if (read_file_into(&fresh, 1, err, sizeof err) != 0) {
        progress_free(&fresh); /* damaged meanwhile: the next save sets it aside and says so */
        p->seen_stamp = stamp_of(&st);
        return 0;
    }
    for (int i = 0; i < p->n_pending; i++) apply(&fresh, &p->pending[i]);
    clear_chapters(p);
    p->chapters = fresh.chapters;
    p->count = fresh.count;
    memcpy(p->last, fresh.last, sizeof p->last);
    p->seen_stamp = fresh.seen_stamp;
    return 1;
}

void progress_free(progress *p) {
    clear_chapters(p);
    free(p->pending);
    p->pending = NULL;
    p->n_pending = 0;
}

progress_state progress_state_of_file(const progress_chapter *c, const char *path) {
    if (!c || c->state != PROG_PASSED) return c ? c->state : PROG_NOT_STARTED;
    char *text = util_read_file(path, NULL);
    progress_state s = progress_state_now(c, text ? util_hash_text(text) : 0);
    free(text);
    return s;
}

progress_state progress_state_now(const progress_chapter *c, unsigned long long file_hash) {
    if (!c) return PROG_NOT_STARTED;
    if (c->state == PROG_PASSED && c->passed_hash && file_hash && c->passed_hash != file_hash) return PROG_CHANGED;
    return c->state;
}
