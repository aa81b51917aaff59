/* report — a run's result for people (text) and for programs (JSON). */
#define _DEFAULT_SOURCE
#include "run/report.h"
#include "text/diag.h"
#include "text/i18n.h"
#include "text/stext.h"
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

/* text right-aligned in cols columns (a Chinese character takes two) */
static void pad_right(FILE *out, const char *text, int cols) {
    for (int w = st_widths(text); w < cols; w++) fputc(' ', out);
    fputs(text, out);
}

/* text, then spaces to cols columns (at least one) */
static void pad_left(FILE *out, const char *text, int cols) {
    fputs(text, out);
    int w = st_widths(text);
    do fputc(' ', out); while (++w < cols);
}

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
    fputs("  ", out);
    pad_right(out, _(vr->what), 9);
    fputc(' ', out);
    pad_right(out, _("expected"), 12);
    fputc(' ', out);
    pad_right(out, _("actual"), 12);
    fputc(' ', out);
    pad_right(out, _("diff"), 10);
    fprintf(out, "%s\n", ranged ? _("   accepted") : "");
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
    if (listed > shown) {
        fputs("  ", out);
        fprintf(out, _("... and %ld more"), listed - shown);
        fputc('\n', out);
    }
    if (vr->counts) {
        fputs("  ", out);
        pad_left(out, _("total"), 6);
        fprintf(out, "%12lld %12lld %+10lld\n", vr->expected_total, vr->actual_total,
                vr->actual_total - vr->expected_total);
    }
}

void report_print(FILE *out, const report_style *st, const lesson *l, const engine_report *r) {
    const char *title = !strcmp(i18n_lang(), "zh") && l->title_zh[0] ? l->title_zh : l->title;
    fputs(c(st, C_BOLD), out);
    fprintf(out, _("Chapter %d: %s"), l->number, title);
    fprintf(out, "%s\n", c(st, C_RESET));
    if (r->device.name[0]) {
        fprintf(out, _("Device:  %s (%s, %s)"), r->device.name, r->device.type, r->device.platform);
        fputc('\n', out);
    }
    if (r->size_text[0]) {
        fprintf(out, _("Size:    %s, seed %llu"), r->size_text, (unsigned long long)r->seed);
        fputc('\n', out);
    }
    fputc('\n', out);
    const char *col = r->status == ENG_PASS ? C_GREEN : r->status == ENG_WRONG ? C_RED : C_YELLOW;
    fprintf(out, "%s%s%s%s\n", c(st, C_BOLD), c(st, col), _(r->headline), c(st, C_RESET));
    fprintf(out, "%s\n", r->message);
    if (r->status == ENG_WRONG && r->verify.near_ties) {
        fprintf(out, P_("(%ld near tie was accepted either way.)", "(%ld near ties were accepted either way.)",
                        (unsigned long long)r->verify.near_ties),
                r->verify.near_ties);
        fputc('\n', out);
    }
    if (r->status == ENG_WRONG) {
        fputc('\n', out);
        report_print_diff(out, st, &r->verify, st->max_diff_rows);
    }
    if (r->build_log && *r->build_log && (r->status == ENG_BUILD || diag_worst(r->build_log) >= DIAG_WARNING)) {
        fprintf(out, "\n%s%s%s\n%s\n", c(st, C_BOLD), _("Compiler output:"), c(st, C_RESET), r->build_log);
    }
    if (r->worker_output && (r->status == ENG_CRASH || r->status == ENG_RUNTIME))
        fprintf(out, "\n%s%s%s\n%s\n", c(st, C_DIM), _("The runtime printed:"), c(st, C_RESET), r->worker_output);
    else if (r->worker_output && *r->worker_output && (r->status == ENG_PASS || r->status == ENG_WRONG))
        fprintf(out, "\n%s%s%s\n%s\n", c(st, C_DIM), _("Printed while the kernel ran (the last lines):"),
                c(st, C_RESET), r->worker_output);
    if (r->status == ENG_WRONG)
        fprintf(out, "\n%s%s%s\n", c(st, C_DIM), _("Not timed: the result is wrong, so its speed means nothing."),
                c(st, C_RESET));
    if (r->n_samples > 0 && r->status == ENG_PASS) {
        char med[32], mn[32], mx[32], ser[32];
        util_fmt_ms(med, sizeof med, r->timing.median);
        util_fmt_ms(mn, sizeof mn, r->timing.min);
        util_fmt_ms(mx, sizeof mx, r->timing.max);
        util_fmt_ms(ser, sizeof ser, r->serial_ms);
        fputc('\n', out);
        /* TRANSLATORS: the two %s around "Timing" make it bold (they may be empty); keep them around the word */
        fprintf(out, P_("%sTiming%s (kernel, %d run after a warm-up)", "%sTiming%s (kernel, %d runs after a warm-up)",
                        (unsigned long long)r->n_samples),
                c(st, C_BOLD), c(st, C_RESET), r->n_samples);
        fputs("\n  ", out);
        pad_left(out, _("median"), 11);
        fprintf(out, _("%s   (min %s, max %s, standard error %.1f%%)"), med, mn, mx, r->timing.rse * 100);
        fputs("\n  ", out);
        pad_left(out, _("bandwidth"), 11);
        fprintf(out, "%.2f GB/s", report_gbps(r));
        if (report_gflops(r) > 0) fprintf(out, "   %s %.2f GFLOP/s", _("compute"), report_gflops(r));
        fputc('\n', out);
        if (r->serial_ms > 0) {
            fputs("  ", out);
            pad_left(out, _("serial C"), 11);
            if (r->serial_ms >= r->timing.median)
                fprintf(out, _("%s on this machine's CPU: the kernel is %.2fx faster"), ser,
                        r->serial_ms / r->timing.median);
            else
                fprintf(out, _("%s on this machine's CPU: the kernel is %.2fx slower"), ser,
                        r->timing.median / r->serial_ms);
            fputc('\n', out);
        }
        if (!strcmp(r->device.type, "CPU"))
            fprintf(out, "  %s%s%s\n", c(st, C_DIM),
                    _("This is a CPU device: coalescing and local memory do not pay here as they do on a GPU."),
                    c(st, C_RESET));
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
    cJSON_AddBoolToObject(o, "recalled", r->recalled);
    return o;
}
