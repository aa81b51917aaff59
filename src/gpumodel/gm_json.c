/* gm_json — the GPU memory model's report as JSON (`cltutor analyze --json`). */
#include "gpumodel/gpumodel.h"
#include "base/util.h"

#include <cJSON.h>
#include <stdio.h>

static cJSON *summary_json(const gm_summary *s, const gm_kernel *k, int sp, int kd) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "operations", (double)s->execs);
    cJSON_AddNumberToObject(o, "requests", (double)s->requests);
    cJSON_AddNumberToObject(o, "bytes_requested", (double)s->bytes);
    if (sp != GM_LOCAL) {
        cJSON_AddNumberToObject(o, "sectors", (double)s->sectors);
        cJSON_AddNumberToObject(o, "bytes_moved", (double)s->sectors * GM_SECTOR);
        cJSON_AddNumberToObject(o, "sectors_per_request", s->sectors_per_request);
        if (kd != GM_ATOMIC) cJSON_AddNumberToObject(o, "efficiency", s->efficiency);
    }
    if (sp == GM_LOCAL) {
        cJSON_AddNumberToObject(o, "bank_conflict_avg", s->bank_avg);
        cJSON_AddNumberToObject(o, "bank_conflict_max", (double)s->bank_max);
    }
    cJSON_AddNumberToObject(o, "distinct_addresses_avg", s->distinct_avg);
    cJSON_AddNumberToObject(o, "distinct_addresses_max", (double)s->distinct_max);
    if (kd == GM_ATOMIC) {
        cJSON_AddNumberToObject(o, "contention_avg", s->contention_avg);
        cJSON_AddNumberToObject(o, "contention_max", (double)s->contention_max);
    }
    cJSON_AddNumberToObject(o, "busiest_line", k->acc[s->busiest].line);
    return o;
}

/* One memory instruction's figures. */
static cJSON *access_json(const gm_access *a) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "line", a->line);
    cJSON_AddNumberToObject(x, "col", a->col);
    cJSON_AddStringToObject(x, "space", gpumodel_space_name(a->space));
    cJSON_AddStringToObject(x, "kind", gpumodel_kind_name(a->kind));
    if (a->space == GM_GLOBAL && a->arg >= 0) cJSON_AddNumberToObject(x, "argument", a->arg);
    cJSON_AddNumberToObject(x, "bytes_per_access", a->width_max);
    cJSON_AddNumberToObject(x, "bytes_per_work_item", a->bytes_per_item);
    cJSON_AddNumberToObject(x, "work_items", (double)a->items);
    cJSON_AddNumberToObject(x, "executions", (double)a->execs);
    cJSON_AddNumberToObject(x, "requests", (double)a->requests);
    cJSON_AddNumberToObject(x, "requests_per_warp", a->requests_per_warp);
    cJSON_AddNumberToObject(x, "active_lanes_avg", a->lanes_avg);
    if (a->space != GM_LOCAL) {
        cJSON_AddNumberToObject(x, "sectors", (double)a->sectors);
        cJSON_AddNumberToObject(x, "sectors_per_request", a->sectors_per_request);
        if (a->kind != GM_ATOMIC) cJSON_AddNumberToObject(x, "efficiency", a->efficiency);
    } else {
        cJSON_AddNumberToObject(x, "bank_conflict_avg", a->bank_avg);
        cJSON_AddNumberToObject(x, "bank_conflict_max", (double)a->bank_max);
    }
    cJSON_AddNumberToObject(x, "distinct_addresses_avg", a->distinct_avg);
    cJSON_AddNumberToObject(x, "distinct_addresses_max", (double)a->distinct_max);
    if (a->kind == GM_ATOMIC) {
        cJSON_AddNumberToObject(x, "contention_avg", a->contention_avg);
        cJSON_AddNumberToObject(x, "contention_max", (double)a->contention_max);
    }
    if (a->skipped) cJSON_AddNumberToObject(x, "skipped", (double)a->skipped);
    cJSON_AddStringToObject(x, "note", a->note);
    return x;
}

cJSON *gpumodel_json(const gpumodel_report *rep) {
    cJSON *o = cJSON_CreateObject();
    static const char *const st[] = {"ok", "unavailable", "failed"};
    cJSON_AddStringToObject(o, "status", st[rep->status]);
    if (rep->message[0]) cJSON_AddStringToObject(o, "message", rep->message);
    cJSON_AddStringToObject(o, "kernel_path", rep->kernel_path);
    cJSON_AddStringToObject(o, "size", rep->size_text);
    cJSON_AddStringToObject(o, "size_origin", rep->size_origin);
    if (rep->status == GM_UNAVAILABLE) return o;
    cJSON_AddStringToObject(o, "result", engine_status_name(rep->run.status));
    cJSON_AddNumberToObject(o, "wall_s", rep->wall_s);
    cJSON_AddBoolToObject(o, "recalled", rep->recalled);
    cJSON *model = cJSON_AddObjectToObject(o, "model");
    cJSON_AddNumberToObject(model, "warp", GM_WARP);
    cJSON_AddNumberToObject(model, "sector_bytes", GM_SECTOR);
    cJSON_AddNumberToObject(model, "banks", GM_BANKS);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < rep->n_kernels; i++) {
        const gm_kernel *k = &rep->kernels[i];
        cJSON *jk = cJSON_CreateObject();
        cJSON_AddItemToArray(ks, jk);
        cJSON_AddStringToObject(jk, "name", k->name);
        double g[3] = {(double)k->global[0], (double)k->global[1], (double)k->global[2]};
        double l[3] = {(double)k->local[0], (double)k->local[1], (double)k->local[2]};
        cJSON_AddItemToObject(jk, "global_size", cJSON_CreateDoubleArray(g, k->dims > 0 && k->dims <= 3 ? k->dims : 3));
        cJSON_AddItemToObject(jk, "local_size", cJSON_CreateDoubleArray(l, k->dims > 0 && k->dims <= 3 ? k->dims : 3));
        cJSON_AddNumberToObject(jk, "launches", k->launches);
        cJSON_AddNumberToObject(jk, "simulated_s", k->sim_s);
        cJSON_AddNumberToObject(jk, "global_bytes_moved", (double)k->moved);
        cJSON *ja = cJSON_AddArrayToObject(jk, "accesses");
        for (int j = 0; j < k->n_acc; j++) {
            cJSON_AddItemToArray(ja, access_json(&k->acc[j]));
        }
        cJSON *js = cJSON_AddObjectToObject(jk, "summary");
        for (int sp = 0; sp < GM_N_SPACES; sp++)
            for (int kd = 0; kd < GM_N_KINDS; kd++) {
                if (!k->sum[sp][kd].present) continue;
                char key[32];
                snprintf(key, sizeof key, "%s_%s", gpumodel_space_name((gm_space)sp), gpumodel_kind_name((gm_kind)kd));
                cJSON_AddItemToObject(js, key, summary_json(&k->sum[sp][kd], k, sp, kd));
            }
    }
    cJSON *ji = cJSON_AddArrayToObject(o, "issues");
    for (int i = 0; i < rep->n_issues; i++) {
        const gm_issue *is = &rep->issues[i];
        static const char *const kn[] = {"memory", "race", "uninitialised", "divergence", "other", "pointer_int"};
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(ji, x);
        cJSON_AddStringToObject(x, "kind", (unsigned)is->kind < CLT_ARRAY_LEN(kn) ? kn[is->kind] : "other");
        cJSON_AddStringToObject(x, "kernel", is->kernel);
        cJSON_AddStringToObject(x, "what", is->what);
        cJSON_AddNumberToObject(x, "line", is->line);
        cJSON_AddNumberToObject(x, "col", is->col);
        cJSON_AddStringToObject(x, "work_item", is->work_item);
        if (is->kind == GM_ISSUE_RACE) {
            cJSON_AddNumberToObject(x, "other_line", is->line2);
            cJSON_AddNumberToObject(x, "other_col", is->col2);
            cJSON_AddStringToObject(x, "other_work_item", is->work_item2);
        }
        cJSON_AddNumberToObject(x, "count", (double)is->count);
    }
    cJSON *jn = cJSON_AddArrayToObject(o, "notes");
    for (int i = 0; i < rep->n_notes; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(jn, x);
        cJSON_AddNumberToObject(x, "line", rep->notes[i].line);
        cJSON_AddStringToObject(x, "text", rep->notes[i].text);
    }
    if (rep->prev_label[0]) {
        cJSON *jc = cJSON_AddObjectToObject(o, "comparison");
        cJSON_AddStringToObject(jc, "with", rep->prev_label);
        cJSON *s = cJSON_AddArrayToObject(jc, "sentences");
        for (int i = 0; i < rep->n_compare; i++) cJSON_AddItemToArray(s, cJSON_CreateString(rep->compare[i]));
    }
    return o;
}
