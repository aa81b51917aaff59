/* progress — what the learner has done: each chapter's state, best time,
#define _DEFAULT_SOURCE
 * run history and hints seen; saved atomically as JSON in the workspace. */
#include "progress.h"
#include "util.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS_KEPT 200

const char *progress_state_name(progress_state s) {
    return s == PROG_PASSED ? "passed" : s == PROG_FAILING ? "failing" : s == PROG_CHANGED ? "changed" : "not started";
}

static progress_state state_from(const char *s) {
    return !s ? PROG_NOT_STARTED : !strcmp(s, "passed") ? PROG_PASSED : !strcmp(s, "failing") ? PROG_FAILING
                                                                                              : PROG_NOT_STARTED;
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

static const char *jstr(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

int progress_load(progress *p, const char *path, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    char *text = util_read_file(path, NULL);
    if (!text) return errno == ENOENT ? 0 : (util_errf(err, errlen, "%s: cannot read", path), -1);
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsObject(root)) {
        util_errf(err, errlen, "%s: not valid progress JSON; move it aside to start afresh", path);
        cJSON_Delete(root);
        return -1;
    }
    const char *last = jstr(root, "last");
    if (last) snprintf(p->last, sizeof p->last, "%s", last);
    const cJSON *chs = cJSON_GetObjectItemCaseSensitive(root, "chapters");
    const cJSON *ch;
    cJSON_ArrayForEach(ch, chs) {
        if (!ch->string) continue;
        progress_chapter *c = progress_get(p, ch->string, 1);
        if (!c) break;
        c->state = state_from(jstr(ch, "state"));
        c->best_ms = jnum(ch, "best_ms");
        const char *bd = jstr(ch, "best_device");
        if (bd) snprintf(c->best_device, sizeof c->best_device, "%s", bd);
        c->hints_seen = (int)jnum(ch, "hints_seen");
        const char *ph = jstr(ch, "passed_hash");
        if (ph) c->passed_hash = strtoull(ph, NULL, 16);
        c->ever_passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ch, "ever_passed")) || c->state == PROG_PASSED;
        const cJSON *runs = cJSON_GetObjectItemCaseSensitive(ch, "runs");
        int n = cJSON_GetArraySize(runs);
        c->runs = calloc((size_t)(n ? n : 1), sizeof(progress_run));
        const cJSON *r;
        cJSON_ArrayForEach(r, runs) {
            progress_run *pr = &c->runs[c->n_runs++];
            pr->when = jnum(r, "when");
            pr->passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "passed"));
            pr->median_ms = jnum(r, "median_ms");
            const char *s = jstr(r, "status"), *d = jstr(r, "device");
            snprintf(pr->status, sizeof pr->status, "%s", s ? s : "");
            snprintf(pr->device, sizeof pr->device, "%s", d ? d : "");
        }
    }
    cJSON_Delete(root);
    return 0;
}

int progress_save(const progress *p, char *err, size_t errlen) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "last", p->last);
    cJSON *chs = cJSON_AddObjectToObject(root, "chapters");
    for (int i = 0; i < p->count; i++) {
        const progress_chapter *c = &p->chapters[i];
        cJSON *o = cJSON_AddObjectToObject(chs, c->id);
        cJSON_AddStringToObject(o, "state", progress_state_name(c->state));
        cJSON_AddNumberToObject(o, "best_ms", c->best_ms);
        cJSON_AddStringToObject(o, "best_device", c->best_device);
        cJSON_AddNumberToObject(o, "hints_seen", c->hints_seen);
        char hash[24];
        snprintf(hash, sizeof hash, "%016llx", c->passed_hash);
        cJSON_AddStringToObject(o, "passed_hash", hash);
        cJSON_AddBoolToObject(o, "ever_passed", c->ever_passed);
        cJSON *runs = cJSON_AddArrayToObject(o, "runs");
        for (int j = 0; j < c->n_runs; j++) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "when", c->runs[j].when);
            cJSON_AddBoolToObject(r, "passed", c->runs[j].passed);
            cJSON_AddStringToObject(r, "status", c->runs[j].status);
            cJSON_AddNumberToObject(r, "median_ms", c->runs[j].median_ms);
            cJSON_AddStringToObject(r, "device", c->runs[j].device);
            cJSON_AddItemToArray(runs, r);
        }
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    int rc = text ? util_write_file_atomic(p->path, text, strlen(text)) : -1;
    free(text);
    if (rc != 0) util_errf(err, errlen, "%s: cannot save progress (%s)", p->path, strerror(errno));
    return rc;
}

void progress_free(progress *p) {
    for (int i = 0; i < p->count; i++) free(p->chapters[i].runs);
    free(p->chapters);
    p->chapters = NULL;
    p->count = 0;
}

void progress_record_run(progress *p, const char *id, int passed, const char *status, double median_ms,
                         const char *device, double when) {
    progress_chapter *c = progress_get(p, id, 1);
    if (!c) return;
    if (c->n_runs >= MAX_RUNS_KEPT) {
        memmove(c->runs, c->runs + 1, sizeof *c->runs * (size_t)(c->n_runs - 1));
        c->n_runs--;
    }
    progress_run *nr = realloc(c->runs, sizeof *nr * (size_t)(c->n_runs + 1));
    if (!nr) return;
    c->runs = nr;
    progress_run *r = &c->runs[c->n_runs++];
    memset(r, 0, sizeof *r);
    r->when = when;
    r->passed = passed;
    r->median_ms = median_ms;
    snprintf(r->status, sizeof r->status, "%s", status);
    snprintf(r->device, sizeof r->device, "%s", device ? device : "");
    if (!passed) c->state = PROG_FAILING;
    snprintf(p->last, sizeof p->last, "%s", id);
}

void progress_record_verdict(progress *p, const char *id, int passed, unsigned long long file_hash, double median_ms,
                             const char *device) {
    progress_chapter *c = progress_get(p, id, 1);
    if (!c) return;
    if (!passed) {
        c->state = PROG_FAILING;
        return;
    }
    c->state = PROG_PASSED;
    c->passed_hash = file_hash;
    c->ever_passed = 1;
    if (median_ms > 0 && (c->best_ms == 0 || median_ms < c->best_ms)) {
        c->best_ms = median_ms;
        snprintf(c->best_device, sizeof c->best_device, "%s", device ? device : "");
    }
}

progress_state progress_state_now(const progress_chapter *c, unsigned long long file_hash) {
    if (!c) return PROG_NOT_STARTED;
    if (c->state == PROG_PASSED && c->passed_hash && file_hash && c->passed_hash != file_hash) return PROG_CHANGED;
    return c->state;
}
