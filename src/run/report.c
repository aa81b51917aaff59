/* report — a run's result for people (text) and for programs (JSON). */
#define _DEFAULT_SOURCE
#include "run/report.h"
#include "text/diag.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>


report_style report_style_for(FILE *out) {
    report_style st = {0, 12};
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    st.color = isatty(fileno(out)) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
    return st;
}

static const char *c(const report_style *st, const char *code) { return st->color ? code : ""; }

double report_gbps(const engine_report *r) {
    return r->timing.median > 0 ? r->work.bytes / (r->timing.median * 1e-3) * 1e-9 : 0;
}

double report_gflops(const engine_report *r) {
    return r->timing.median > 0 && r->work.flops > 0 ? r->work.flops / (r->timing.median * 1e-3) * 1e-9 : 0;
}

void report_print_diff(FILE *out, const report_style *st, const verify_report *vr, int max_rows) {
    if (vr->n_entries == 0) return;
    int ranged = 0;
    for (int i = 0; i < vr->n_entries; i++)
        if (vr->entries[i].lo != vr->entries[i].hi) ranged = 1;
    fprintf(out, "  %9s %12s %12s %10s%s\n", vr->what, "expected", "actual", "diff", ranged ? "   accepted" : "");
    int shown = 0;
    for (int i = 0; i < vr->n_entries && shown < max_rows; i++, shown++) {
        const vr_entry *e = &vr->entries[i];
        long long d = e->actual - e->expected;
        fprintf(out, "  %s%9ld %12lld %12lld %+10lld%s", e->wrong ? c(st, C_RED) : c(st, C_DIM), e->index,
                e->expected, e->actual, d, c(st, C_RESET));
        if (ranged && e->lo != e->hi) fprintf(out, "   %lld..%lld", e->lo, e->hi);
        fputc('\n', out);
    }
    long listed = vr->n_wrong;
    for (int i = 0; i < vr->n_entries; i++) if (!vr->entries[i].wrong) listed++;
    if (listed > shown) fprintf(out, "  ... and %ld more\n", listed - shown);
    if (vr->counts)
        fprintf(out, "  total %12lld %12lld %+10lld\n", vr->expected_total, vr->actual_total,
                vr->actual_total - vr->expected_total);
}

void report_print(FILE *out, const report_style *st, const lesson *l, const engine_report *r) {
    fprintf(out, "%sChapter %d: %s%s\n", c(st, C_BOLD), l->number, l->title, c(st, C_RESET));
    if (r->device.name[0])
        fprintf(out, "Device:  %s (%s, %s)\n", r->device.name, r->device.type, r->device.platform);
    if (r->size_text[0]) fprintf(out, "Size:    %s, seed %llu\n", r->size_text, (unsigned long long)r->seed);
    fputc('\n', out);
    const char *col = r->status == ENG_PASS ? C_GREEN : r->status == ENG_WRONG ? C_RED : C_YELLOW;
    fprintf(out, "%s%s%s%s\n", c(st, C_BOLD), c(st, col), r->headline, c(st, C_RESET));
    fprintf(out, "%s\n", r->message);
    if (r->status == ENG_WRONG && r->verify.near_ties)
        fprintf(out, "(%ld near ties were accepted either way.)\n", r->verify.near_ties);
    if (r->status == ENG_WRONG) {
        fputc('\n', out);
        report_print_diff(out, st, &r->verify, st->max_diff_rows);
    }
    if (r->build_log && *r->build_log && (r->status == ENG_BUILD || diag_worst(r->build_log) >= DIAG_WARNING)) {
        fprintf(out, "\n%sCompiler output:%s\n%s\n", c(st, C_BOLD), c(st, C_RESET), r->build_log);
    }
    if (r->worker_output && (r->status == ENG_CRASH || r->status == ENG_RUNTIME))
        fprintf(out, "\n%sThe runtime printed:%s\n%s\n", c(st, C_DIM), c(st, C_RESET), r->worker_output);
    else if (r->worker_output && *r->worker_output && (r->status == ENG_PASS || r->status == ENG_WRONG))
        fprintf(out, "\n%sPrinted while the kernel ran (the last lines):%s\n%s\n", c(st, C_DIM), c(st, C_RESET),
                r->worker_output);
    if (r->status == ENG_WRONG)
        fprintf(out, "\n%sNot timed: the result is wrong, so its speed means nothing.%s\n", c(st, C_DIM),
                c(st, C_RESET));
    if (r->n_samples > 0 && r->status == ENG_PASS) {
        char med[32], mn[32], mx[32], ser[32];
        util_fmt_ms(med, sizeof med, r->timing.median);
        util_fmt_ms(mn, sizeof mn, r->timing.min);
        util_fmt_ms(mx, sizeof mx, r->timing.max);
        util_fmt_ms(ser, sizeof ser, r->serial_ms);
        fprintf(out, "\n%sTiming%s (kernel, %d runs after a warm-up)\n", c(st, C_BOLD), c(st, C_RESET), r->n_samples);
        fprintf(out, "  median     %s   (min %s, max %s, standard error %.1f%%)\n", med, mn, mx,
                r->timing.rse * 100);
        fprintf(out, "  bandwidth  %.2f GB/s", report_gbps(r));
        if (report_gflops(r) > 0) fprintf(out, "   compute %.2f GFLOP/s", report_gflops(r));
        fputc('\n', out);
        if (r->serial_ms > 0)
            fprintf(out, "  serial C   %s on this machine's CPU: the kernel is %.2fx %s\n", ser,
                    r->serial_ms >= r->timing.median ? r->serial_ms / r->timing.median : r->timing.median / r->serial_ms,
                    r->serial_ms >= r->timing.median ? "faster" : "slower");
        if (!strcmp(r->device.type, "CPU"))
            fprintf(out, "  %sThis is a CPU device: coalescing and local memory do not pay here as they do on a GPU.%s\n",
                    c(st, C_DIM), c(st, C_RESET));
    }
}

cJSON *report_device_json(const engine_device *d) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", d->index);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "platform", d->platform);
    cJSON_AddStringToObject(o, "type", d->type);
    cJSON_AddStringToObject(o, "version", d->version);
    cJSON_AddStringToObject(o, "driver", d->driver);
    return o;
}

cJSON *report_json(const lesson *l, const char *kernel_path, const engine_report *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lesson", l->id);
    cJSON_AddNumberToObject(o, "chapter", l->number);
    cJSON_AddStringToObject(o, "kernel_file", kernel_path ? kernel_path : "");
    cJSON_AddStringToObject(o, "status", engine_status_name(r->status));
    cJSON_AddNumberToObject(o, "exit_code", engine_exit_code(r->status));
    cJSON_AddBoolToObject(o, "correct", r->status == ENG_PASS);
    cJSON_AddStringToObject(o, "headline", r->headline);
    cJSON_AddStringToObject(o, "message", r->message);
    cJSON_AddItemToObject(o, "device", report_device_json(&r->device));
    cJSON_AddStringToObject(o, "size", r->size_text);
    cJSON_AddNumberToObject(o, "seed", (double)r->seed);
    if (r->build_log) cJSON_AddStringToObject(o, "build_log", r->build_log);
    else cJSON_AddNullToObject(o, "build_log");
    if (r->error_line) {
        cJSON *loc = cJSON_AddObjectToObject(o, "error_location");
        cJSON_AddNumberToObject(loc, "line", r->error_line);
        cJSON_AddNumberToObject(loc, "column", r->error_col);
    }
    if (r->has_output) {
        const verify_report *vr = &r->verify;
        cJSON *v = cJSON_AddObjectToObject(o, "verify");
        cJSON_AddBoolToObject(v, "ok", vr->ok);
        cJSON_AddStringToObject(v, "unit", vr->what);
        cJSON_AddNumberToObject(v, "checked", (double)vr->n_checked);
        cJSON_AddNumberToObject(v, "wrong", (double)vr->n_wrong);
        cJSON_AddNumberToObject(v, "first_wrong", (double)vr->first_wrong);
        if (vr->counts) {
            cJSON_AddNumberToObject(v, "expected_total", (double)vr->expected_total);
            cJSON_AddNumberToObject(v, "actual_total", (double)vr->actual_total);
        }
        cJSON_AddNumberToObject(v, "near_ties", (double)vr->near_ties);
        cJSON_AddStringToObject(v, "summary", vr->summary);
        cJSON *diffs = cJSON_AddArrayToObject(v, "diff");
        for (int i = 0; i < vr->n_entries; i++) {
            const vr_entry *e = &vr->entries[i];
            cJSON *d = cJSON_CreateObject();
            cJSON_AddNumberToObject(d, "index", (double)e->index);
            cJSON_AddNumberToObject(d, "expected", (double)e->expected);
            cJSON_AddNumberToObject(d, "actual", (double)e->actual);
            cJSON_AddNumberToObject(d, "accepted_min", (double)e->lo);
            cJSON_AddNumberToObject(d, "accepted_max", (double)e->hi);
            cJSON_AddBoolToObject(d, "wrong", e->wrong);
            cJSON_AddItemToArray(diffs, d);
        }
    } else {
        cJSON_AddNullToObject(o, "verify");
    }
    if (r->n_samples > 0 && r->status == ENG_PASS) {
        cJSON *t = cJSON_AddObjectToObject(o, "timing");
        cJSON_AddNumberToObject(t, "runs", r->n_samples);
        cJSON_AddNumberToObject(t, "median_ms", r->timing.median);
        cJSON_AddNumberToObject(t, "min_ms", r->timing.min);
        cJSON_AddNumberToObject(t, "max_ms", r->timing.max);
        cJSON_AddNumberToObject(t, "mean_ms", r->timing.mean);
        cJSON_AddNumberToObject(t, "stddev_ms", r->timing.stddev);
        cJSON_AddNumberToObject(t, "relative_standard_error", r->timing.rse);
        cJSON_AddNumberToObject(t, "bytes", r->work.bytes);
        cJSON_AddNumberToObject(t, "flops", r->work.flops);
        cJSON_AddNumberToObject(t, "gb_per_s", report_gbps(r));
        cJSON_AddNumberToObject(t, "gflop_per_s", report_gflops(r));
        cJSON_AddNumberToObject(t, "serial_ms", r->serial_ms);
        cJSON_AddNumberToObject(t, "speedup_over_serial", r->serial_ms / r->timing.median);
    } else {
        cJSON_AddNullToObject(o, "timing");
    }
    if (r->worker_output) cJSON_AddStringToObject(o, "runtime_output", r->worker_output);
    cJSON_AddNumberToObject(o, "wall_s", r->wall_s);
    return o;
}
