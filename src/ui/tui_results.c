/* tui_results — a run's results as styled lines for the UI's results pane:
 * the verdict, the correctness diff, timing with speed-ups,
 * and the chapter's run history as a bar chart. No curses here. */
#define _GNU_SOURCE
#include "ui/tui_results.h"
#include "text/diag.h"
#include "run/report.h"
#include "text/i18n.h"
#include "base/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void tui_speedup_text(double before, double after, char *buf, size_t len) {
    if (before <= 0 || after <= 0) {
        snprintf(buf, len, "-");
        return;
    }
    double r = before / after;
    if (r > 0.97 && r < 1.03) snprintf(buf, len, "%s", _("about as fast"));
    else if (r >= 1) snprintf(buf, len, _("%.2fx faster"), r);
    else snprintf(buf, len, _("%.2fx slower"), 1 / r);
}

static int status_style(engine_status s) {
    return (s == ENG_PASS ? ST_OK : s == ENG_WRONG || s == ENG_BUILD ? ST_ERR : ST_WARN) | ST_A_BOLD;
}

static const char *status_mark(engine_status s, int utf8) {
    if (!utf8) return s == ENG_PASS ? "[ok]" : "[x]";
    return s == ENG_PASS ? "✓" : s == ENG_CANCELLED ? "■" : "✗";
}

static void wrap_text(st_doc *out, int width, int style, const char *text, const char *indent) {
    st_doc_wrap(out, width, style, text, indent, indent, ST_NORMAL);
}

static void check_doc(const tui_results_in *in, int width, st_doc *out, int with_summary);
static void printed_lines(st_doc *out, const char *title, const char *text);
static void fmt_when(double when, char *buf, size_t len);
static const char *note_text(const char *note, int headline_only, char *buf, size_t len);

static int is_cpu(const engine_report *r) { return !strcmp(r->device.type, "CPU"); }

/* Adds text to p with its spaces made unbreakable, so that an item such as
 * "vs serial C: 1.74x faster" stays on one line. */
static void add_nb(st_para *p, int style, const char *text) {
    for (const char *t = text; *t; t++) {
        if (*t == ' ') st_para_add(p, style, "\xc2\xa0", 2);
        else st_para_add(p, style, t, 1);
    }
}

static void timing_line(const tui_results_in *in, int width, st_doc *out) {
    const engine_report *r = in->rep;
    char med[32], buf[96], label[96];
    st_fmt_ms(med, sizeof med, r->timing.median);
    st_para p;
    st_para_init(&p);
    add_nb(&p, ST_DIM, _("median "));
    add_nb(&p, ST_NORMAL | ST_A_BOLD, med);
    st_para_add(&p, ST_DIM, " · ", strlen(" · "));
    snprintf(buf, sizeof buf, "%.2f GB/s", report_gbps(r));
    add_nb(&p, ST_NORMAL, buf);
    if (report_gflops(r) > 0) {
        st_para_add(&p, ST_DIM, " · ", strlen(" · "));
        snprintf(buf, sizeof buf, "%.2f GFLOP/s", report_gflops(r));
        add_nb(&p, ST_NORMAL, buf);
    }
    st_para_wrap(&p, width, "", "", ST_NORMAL, out);
    st_para_free(&p);
    st_para_init(&p);
    if (r->serial_ms > 0) {
        tui_speedup_text(r->serial_ms, r->timing.median, buf, sizeof buf);
        snprintf(label, sizeof label, "%s", _("vs serial C: "));
        add_nb(&p, ST_DIM, label);
        add_nb(&p, r->serial_ms >= r->timing.median ? ST_OK : ST_WARN, buf);
    }
    if (in->prev_ref.state == REF_DONE) {
        tui_speedup_text(in->prev_ref.ms, r->timing.median, buf, sizeof buf);
        st_para_add(&p, ST_DIM, "   ", 3);
        snprintf(label, sizeof label, _("vs chapter %d: "), in->prev_ref.chapter);
        add_nb(&p, ST_DIM, label);
        add_nb(&p, in->prev_ref.ms >= r->timing.median ? ST_OK : ST_WARN, buf);
    } else if (in->prev_ref.state == REF_WAITING || in->prev_ref.state == REF_MEASURING) {
        st_para_add(&p, ST_DIM, "   ", 3);
        snprintf(label, sizeof label, _("vs chapter %d: measuring…"), in->prev_ref.chapter);
        add_nb(&p, ST_DIM, label);
    }
    if (in->prev_run_ms > 0) {
        tui_speedup_text(in->prev_run_ms, r->timing.median, buf, sizeof buf);
        st_para_add(&p, ST_DIM, "   ", 3);
        snprintf(label, sizeof label, "%s", _("vs your last run: "));
        add_nb(&p, ST_DIM, label);
        add_nb(&p, in->prev_run_ms >= r->timing.median * 0.97 ? ST_OK : ST_WARN, buf);
    }
    if (!st_para_empty(&p)) st_para_wrap(&p, width, "", "", ST_NORMAL, out);
    st_para_free(&p);
}

/* Launches that spread this much say the machine is busy: a comparison with a run made at another
 * moment may be off by as much, whatever it says. */
static void noise_note(const engine_report *r, int width, st_doc *out) {
    if (r->n_samples < 3 || r->timing.median <= 0 || (r->timing.max - r->timing.min) / r->timing.median <= 0.25) return;
    char lo[32], hi[32], words[400];
    st_fmt_ms(lo, sizeof lo, r->timing.min);
    st_fmt_ms(hi, sizeof hi, r->timing.max);
    snprintf(words, sizeof words, _("Noisy: this run's launches took %s to %s, so something else is using the "
                                    "machine; comparisons with runs made at other moments may be off by as much."),
             lo, hi);
    wrap_text(out, width, ST_WARN, words, "");
}

tui_time_state tui_results_time_state(const tui_results_in *in) {
    const verdict *v = in->verdict;
    int pending = 0;
    for (int i = 0; v && i < v->n; i++)
        if (v->items[i].kind == VK_TEST && v->items[i].outcome == VO_FAIL) return TUI_TIME_WRONG;
    for (int i = 0; v && i < v->n; i++) {
        if (v->items[i].kind != VK_SAFETY) continue;
        if (v->items[i].outcome == VO_FAIL) return TUI_TIME_UNSAFE;
        pending |= v->items[i].outcome == VO_PENDING;
    }
    return pending && in->verdict_running ? TUI_TIME_CHECKING : TUI_TIME_SHOWN;
}

void tui_results_status(const tui_results_in *in, const char *spin, char *buf, size_t len, int *good) {
    const engine_report *r = in->rep;
    buf[0] = '\0';
    *good = 0;
    if (!r) return;
    tui_time_state ts = tui_results_time_state(in);
    *good = r->status == ENG_PASS && ts != TUI_TIME_UNSAFE && ts != TUI_TIME_WRONG;
    char ms[32] = "", words[160];
    if (*good && ts == TUI_TIME_SHOWN && r->n_samples > 0) st_fmt_ms(ms, sizeof ms, r->timing.median);
    if (r->status == ENG_PASS && ts == TUI_TIME_WRONG) {
        int tests = 0, failed = 0;
        for (int i = 0; i < in->verdict->n; i++)
            if (in->verdict->items[i].kind == VK_TEST) {
                tests++;
                failed += in->verdict->items[i].outcome == VO_FAIL;
            }
        snprintf(words, sizeof words, P_("Correct at this size, but %d of %d visible tests fails",
                                         "Correct at this size, but %d of %d visible tests fail", (unsigned long long)failed),
                 failed, tests);
    } else {
        snprintf(words, sizeof words, "%s", ts == TUI_TIME_UNSAFE && r->status == ENG_PASS
                                                ? _("Correct here, but the race check failed") : _(r->headline));
    }
    snprintf(buf, len, "%s %s%s%s", *good ? (in->utf8 ? "✓" : "+") : (in->utf8 ? "✗" : "x"), words, ms[0] ? " · " : "",
             ms);
    if (*good && in->verdict_running && in->verdict) {
        int done = 0;
        for (int i = 0; i < in->verdict->n; i++) done += in->verdict->items[i].outcome != VO_PENDING;
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, " · %s ", spin);
        n = strlen(buf);
        snprintf(buf + n, len - n, _("checking the chapter… %d/%d"), done, in->verdict->n);
    }
}

void tui_results_running(const run_progress *pr, int utf8, const char *spin, char *buf, size_t len, int *style) {
    char queue[96], step[160];
    *style = pr->checked;
    if (pr->phase == PHASE_QUEUE) {
        snprintf(queue, sizeof queue, _("waiting for the device (%d ahead)"), pr->done);
        snprintf(step, sizeof step, "%s %s  %.1f s", spin, queue, pr->elapsed_s);
    } else if (pr->checked < 0) /* the worker ends without timing: its time would be no use */
        snprintf(step, sizeof step, "%s %s…  %.1f s", spin, _("finishing the run"), pr->elapsed_s);
    else if (run_phase_runs_kernel(pr->phase) && pr->done > 0)
        snprintf(step, sizeof step, "%s %s %d/%d  %.1f s", spin, _(run_phase_label(pr->phase)), pr->done, pr->total,
                 pr->elapsed_s);
    else
        snprintf(step, sizeof step, "%s %s…  %.1f s", spin, _(run_phase_label(pr->phase)), pr->elapsed_s);
    if (pr->checked)
        snprintf(buf, len, "%s %s · %s   %s", pr->checked > 0 ? (utf8 ? "✓" : "+") : (utf8 ? "✗" : "x"),
                 pr->checked > 0 ? _("Correct") : _("Wrong result"), step, _("c: cancel"));
    else
        snprintf(buf, len, "%s   %s", step, _("c: cancel"));
}

/* The chapter's checklist: every visible test, the race check, the technique. */
static void verdict_doc(const tui_results_in *in, int width, st_doc *out) {
    const verdict *v = in->verdict;
    if (out->n > 0) st_doc_add(out);
    int tests = 0, tests_ok = 0, pending = 0;
    for (int i = 0; i < v->n; i++) {
        if (v->items[i].kind == VK_TEST) {
            tests++;
            tests_ok += v->items[i].outcome == VO_PASS;
        }
        pending += v->items[i].outcome == VO_PENDING;
    }
    const char *title = in->verdict_running ? _("Checking the whole chapter…") : v->passed
                      ? _("Chapter passed: every test, the race check and the technique.")
                      : v->cancelled ? _("The chapter check was stopped.") : _("The chapter is not passed yet:");
    st_doc_addf(out, (in->verdict_running ? ST_DIM : v->passed ? ST_OK : ST_WARN) | ST_A_BOLD, "%s", title);
    st_line *l = st_doc_add(out);
    const char *ok = in->utf8 ? "✓" : "+", *bad = in->utf8 ? "✗" : "x", *wait = in->utf8 ? "·" : "-";
    int tests_done = 1, tests_fail = 0;
    for (int i = 0; i < v->n; i++)
        if (v->items[i].kind == VK_TEST) {
            tests_done &= v->items[i].outcome != VO_PENDING;
            tests_fail |= v->items[i].outcome == VO_FAIL;
        }
    st_line_addf(l, tests_fail ? ST_ERR : tests_done ? ST_OK : ST_DIM, "  %s ", tests_fail ? bad : tests_done ? ok : wait);
    st_line_addf(l, ST_NORMAL, _("%d of %d visible tests"), tests_ok, tests);
    for (int i = 0; i < v->n; i++) {
        const verdict_item *it = &v->items[i];
        if (it->kind == VK_TEST && it->outcome != VO_FAIL) continue;
        int style = it->outcome == VO_PASS ? ST_OK : it->outcome == VO_FAIL ? ST_ERR : ST_DIM;
        const char *mark = it->outcome == VO_PASS ? ok : it->outcome == VO_FAIL ? bad : wait;
        char name[256], head[256], text[600];
        verdict_item_name(it, name, sizeof name);
        verdict_headline(it->headline, head, sizeof head);
        if (it->kind == VK_TEST) util_textf(text, sizeof text, _("size %s: %s"), it->size, head);
        else if (it->outcome == VO_PENDING) util_textf(text, sizeof text, "%s", name);
        else util_textf(text, sizeof text, _("%s: %s"), name, head);
        /* wrapped, so that the figure at its end shows at any width */
        st_para p;
        st_para_init(&p);
        st_para_add(&p, style, mark, strlen(mark));
        st_para_add(&p, ST_NORMAL, " ", 1);
        st_para_add(&p, ST_NORMAL, text, strlen(text));
        int first = out->n;
        st_para_wrap(&p, width, "  ", "    ", ST_NORMAL, out);
        st_para_free(&p);
        if (it->line > 0 && first < out->n) out->lines[first].tag = it->line;
        if (it->outcome == VO_FAIL || it->outcome == VO_SKIP) {
            char detail[sizeof it->detail * 2];
            wrap_text(out, width, ST_DIM, verdict_detail(it, detail, sizeof detail), "    ");
        }
    }
    (void)pending;
}

/* The Result tab before a run of this text: what runs or was checked, or what the last run of the file said. */
static void no_run_summary(const tui_results_in *in, int width, st_doc *out) {
    if (in->running) st_doc_addf(out, ST_DIM, "%s", _("Running… the result appears here."));
    else if (in->verdict) verdict_doc(in, width, out); /* a check (C) of this file, with no run of it yet */
    else if (in->last_run && in->last_run->verdict == PV_FAILED) {
        char when[32], buf[600], nb[300];
        fmt_when(in->last_run->when, when, sizeof when);
        const char *note = in->last_run->verdict_note[0] ? note_text(in->last_run->verdict_note, 0, nb, sizeof nb)
                                                         : _("not passed");
        snprintf(buf, sizeof buf, _("Your last check (%s) did not pass the chapter: %s. Press C to check it "
                                    "again, r to run it, or e to edit it."), when, note);
        wrap_text(out, width, ST_WARN, buf, "");
    } else if (in->last_run) {
        char when[32], buf[300], med[32];
        fmt_when(in->last_run->when, when, sizeof when);
        st_fmt_ms(med, sizeof med, in->last_run->median_ms);
        if (in->last_run->passed && in->last_run->median_ms > 0)
            snprintf(buf, sizeof buf, _("Your last run (%s) passed in %s. Press r to run the kernel again, or e to edit it: saving the file runs it."), when, med);
        else if (in->last_run->passed) /* a check from the command line times nothing */
            snprintf(buf, sizeof buf, _("Your last run (%s) passed. Press r to run and time the kernel again, or e to edit it: saving the file runs it."), when);
        else
            snprintf(buf, sizeof buf, _("Your last run (%s): %s. Press r to run the kernel again, or e to edit it: saving the file runs it."), when, _(in->last_run->status));
        wrap_text(out, width, ST_NORMAL, buf, "");
    } else if (in->last_run_other) {
        char when[32], buf[400];
        fmt_when(in->last_run_other->when, when, sizeof when);
        snprintf(buf, sizeof buf, _("Your last run (%s) was of another version of this file (before a reset or an "
                                    "edit): this one has not run yet. Press r to run it, or e to edit it: saving "
                                    "the file runs it."), when);
        wrap_text(out, width, ST_NORMAL, buf, "");
    } else {
        wrap_text(out, width, ST_NORMAL, _("Not run yet. Press r to run your kernel, or e to edit it: saving the file runs it again."), "");
    }
}

void tui_results_summary(const tui_results_in *in, int width, st_doc *out) {
    const engine_report *r = in->rep;
    if (!r) {
        no_run_summary(in, width, out);
        return;
    }
    st_line *l = st_doc_add(out);
    st_line_addf(l, status_style(r->status), "%s %s", status_mark(r->status, in->utf8), _(r->headline));
    if (in->run_number > 0) st_line_addf(l, ST_DIM, _("   run %d"), in->run_number);
    if (r->device.name[0]) st_line_addf(l, ST_DIM, "   %s · %s", r->size_text, r->device.name);
    wrap_text(out, width, ST_NORMAL, r->message, "");
    if (in->passed_copy && (r->status != ENG_PASS || (in->verdict && in->verdict->failed))) {
        char buf[1600];
        snprintf(buf, sizeof buf, _("You passed this chapter before with another text; the one that passed is kept in %s."),
                 in->passed_copy);
        wrap_text(out, width, ST_WARN, buf, "");
    }
    if (r->status == ENG_WRONG && r->verify.near_ties) {
        char buf[160];
        snprintf(buf, sizeof buf,
                 P_("(%ld near tie was accepted either way.)", "(%ld near ties were accepted either way.)",
                    (unsigned long long)r->verify.near_ties),
                 r->verify.near_ties);
        wrap_text(out, width, ST_DIM, buf, "");
    }
    tui_time_state ts = tui_results_time_state(in);
    if (r->status == ENG_PASS && r->n_samples > 0 && ts == TUI_TIME_WRONG) {
        wrap_text(out, width, ST_DIM, _("Not timed: a visible test gives a wrong answer, so its speed means nothing yet."), "");
        verdict_doc(in, width, out);
    } else if (r->status == ENG_PASS && r->n_samples > 0 && ts == TUI_TIME_UNSAFE) {
        wrap_text(out, width, ST_DIM, _("Not timed: the race check failed, so this result holds only by luck of the device."), "");
        verdict_doc(in, width, out);
    } else if (r->status == ENG_PASS && r->n_samples > 0 && ts == TUI_TIME_CHECKING) {
        verdict_doc(in, width, out);
        st_doc_add(out);
        wrap_text(out, width, ST_DIM, _("The time shows once the race check has passed."), "");
    } else if (r->status == ENG_PASS && r->n_samples > 0) {
        if (in->verdict) { /* the checklist first: on a small screen it is what must show */
            verdict_doc(in, width, out);
            st_doc_add(out);
        }
        timing_line(in, width, out);
        /* true whatever the numbers say: a CPU's times follow its caches and cores, not a GPU's memory */
        if (is_cpu(r))
            wrap_text(out, width, ST_DIM, _("A CPU device: its caches set these times, not a GPU's memory (8: GPU "
                                            "model)."), "");
    } else if (r->status == ENG_WRONG) {
        if (in->verdict) { /* a check (C) of this wrong text: its checklist where the learner looks */
            verdict_doc(in, width, out);
            st_doc_add(out);
        }
        check_doc(in, width, out, 0);
    } else if (r->status == ENG_BUILD) {
        int shown = 0;
        if (r->build_log) {
            const char *p = r->build_log;
            while (*p && shown < 4) {
                const char *e = strchr(p, '\n');
                size_t n = e ? (size_t)(e - p) : strlen(p);
                char *msg = n > 0 ? strndup(p, n) : NULL;
                int ref;
                diag_severity sev = diag_read(p, n, &ref, NULL);
                if (msg && ref && (sev == DIAG_ERROR || shown == 0)) {
                    wrap_text(out, width, ST_ERR, msg, "");
                    shown++;
                }
                free(msg);
                p = e ? e + 1 : p + n;
            }
        }
        if (r->error_line > 0) {
            char buf[160];
            snprintf(buf, sizeof buf, _("Press e to edit at line %d, or 3 for the whole compiler log."), r->error_line);
            st_doc_addf(out, ST_DIM, "%s", buf);
        }
    } else if ((r->status == ENG_CRASH || r->status == ENG_RUNTIME || r->status == ENG_TIMEOUT) && r->worker_output) {
        printed_lines(out, _("The runtime printed:"), r->worker_output);
    }
    /* a learner's printf, for debugging: its last lines */
    if ((r->status == ENG_PASS || r->status == ENG_WRONG) && r->worker_output && *r->worker_output)
        printed_lines(out, _("Printed while the kernel ran (the last lines):"), r->worker_output);
}

/* The checklist's visible tests for the Check tab: how many match, and
 * each one that does not, with what its run found. */
static void verdict_tests_doc(const tui_results_in *in, int width, st_doc *out) {
    const verdict *v = in->verdict;
    int tests = 0, tests_ok = 0, failed = 0, pending = 0;
    for (int i = 0; i < v->n; i++) {
        if (v->items[i].kind != VK_TEST) continue;
        tests++;
        tests_ok += v->items[i].outcome == VO_PASS;
        failed += v->items[i].outcome == VO_FAIL;
        pending += v->items[i].outcome == VO_PENDING;
    }
    if (tests == 0) return;
    if (out->n > 0) st_doc_add(out);
    st_line *l = st_doc_add(out);
    const char *mark = failed ? (in->utf8 ? "✗" : "x") : pending ? (in->utf8 ? "·" : "-") : (in->utf8 ? "✓" : "+");
    st_line_addf(l, failed ? ST_ERR : pending ? ST_DIM : ST_OK, "%s ", mark);
    st_line_addf(l, ST_NORMAL | ST_A_BOLD, _("%d of %d visible tests"), tests_ok, tests);
    if (pending && in->verdict_running) st_line_addf(l, ST_DIM, " · %s", _("Checking the whole chapter…"));
    for (int i = 0; i < v->n; i++) {
        const verdict_item *it = &v->items[i];
        if (it->kind != VK_TEST || it->outcome != VO_FAIL) continue;
        char head[256];
        verdict_headline(it->headline, head, sizeof head);
        l = st_doc_add(out);
        st_line_addf(l, ST_ERR, "  %s ", in->utf8 ? "✗" : "x");
        st_line_addf(l, ST_NORMAL, _("size %s: %s"), it->size, head);
        if (it->line > 0) l->tag = it->line;
        char detail[sizeof it->detail * 2];
        wrap_text(out, width, ST_DIM, verdict_detail(it, detail, sizeof detail), "    ");
    }
    if (failed)
        wrap_text(out, width, ST_DIM, _("S runs the kernel at one of these sizes, with its differing values here."), "");
}

void tui_results_check(const tui_results_in *in, int width, st_doc *out) {
    const engine_report *r = in->rep;
    if (in->verdict && (!r || !r->has_output)) { /* checked (C) but not run: the checklist's tests are the evidence */
        verdict_tests_doc(in, width, out);
        return;
    }
    check_doc(in, width, out, 1);
    if (in->verdict) verdict_tests_doc(in, width, out);
}

static void printed_lines(st_doc *out, const char *title, const char *text) {
    st_doc_addf(out, ST_DIM, "%s", title);
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        st_line *wl = st_doc_add(out);
        st_line_adds(wl, ST_DIM, "  ");
        st_line_add(wl, ST_DIM, p, n);
        p = e ? e + 1 : p + n;
    }
}

static void check_doc(const tui_results_in *in, int width, st_doc *out, int with_summary) {
    const engine_report *r = in->rep;
    if (!r || !r->has_output) {
        if (!r && in->last_run) /* run or checked before (the header tells how it went), not since the course opened */
            wrap_text(out, width, ST_DIM, _("Not run since the course opened: press r to run your kernel and see its "
                                            "values against the golden reference here, or C to check the whole chapter."), "");
        else st_doc_addf(out, ST_DIM, "%s", r ? _("No output to compare: the kernel did not finish.") : _("Not run yet."));
        return;
    }
    const verify_report *vr = &r->verify;
    if (vr->ok) {
        st_doc_addf(out, ST_OK, "%s %s", status_mark(ENG_PASS, in->utf8), vr->summary);
        return;
    }
    if (with_summary) wrap_text(out, width, ST_NORMAL, vr->summary, "");
    int ranged = 0;
    for (int i = 0; i < vr->n_entries; i++)
        if (vr->entries[i].lo != vr->entries[i].hi) ranged = 1;
    st_line *h = st_doc_add(out);
    int hs = ST_DIM | ST_A_BOLD;
    st_line_adds(h, hs, "  ");
    st_line_pad(h, hs, _(vr->what), 9, 1);
    st_line_adds(h, hs, " ");
    st_line_pad(h, hs, _("expected"), 12, 1);
    st_line_adds(h, hs, " ");
    st_line_pad(h, hs, _("actual"), 12, 1);
    st_line_adds(h, hs, " ");
    st_line_pad(h, hs, _("diff"), 10, 1);
    if (ranged) st_line_adds(h, hs, _("   accepted"));
    long listed = 0;
    for (int i = 0; i < vr->n_entries; i++) {
        const vr_entry *e = &vr->entries[i];
        long long d = e->actual - e->expected;
        st_line *l = st_doc_add(out);
        int style = e->wrong ? ST_ERR : ST_DIM;
        st_line_addf(l, style, "%s %9ld %12lld ", e->wrong ? (in->utf8 ? "▶" : ">") : " ", e->index, e->expected);
        st_line_addf(l, e->wrong ? (ST_ERR | ST_A_BOLD) : ST_DIM, "%12lld", e->actual);
        st_line_addf(l, style, " %+10lld", d);
        if (ranged && e->lo != e->hi) st_line_addf(l, ST_DIM, "   %lld..%lld", e->lo, e->hi);
        listed++;
    }
    long more = vr->n_wrong;
    for (int i = 0; i < vr->n_entries; i++)
        if (vr->entries[i].wrong) more--;
    if (more > 0) st_doc_addf(out, ST_DIM, _("  … and %ld more wrong"), more);
    if (!vr->counts) return; /* a scan's or an image's sum means nothing */
    st_line *t = st_doc_add(out);
    st_line_adds(t, ST_NORMAL | ST_A_BOLD, "  ");
    st_line_pad(t, ST_NORMAL | ST_A_BOLD, _("total"), 9, 1);
    st_line_addf(t, ST_NORMAL | ST_A_BOLD, " %12lld %12lld %+10lld", vr->expected_total, vr->actual_total,
                 vr->actual_total - vr->expected_total);
    /* a cause only where it can happen: one serial work-item races with nobody */
    int serial = in->lesson && !strcmp(lesson_param_get(in->lesson, "dispatch", ""), "serial");
    if (vr->actual_total < vr->expected_total)
        wrap_text(out, width, ST_DIM, serial ? _("Fewer counts than expected: some inputs were not counted (does the loop cover every one?).")
                                             : _("Fewer counts than expected: updates were lost (two work-items added to one bin without an atomic?), or some inputs were not counted."), "");
    else if (vr->actual_total > vr->expected_total)
        wrap_text(out, width, ST_DIM, serial ? _("More counts than expected: some inputs were counted more than once (check the loop bounds).")
                                             : _("More counts than expected: some inputs were counted more than once (work-items past the end of the data that do not return early?)."), "");
}

/* A small chart of the timing samples in order: one block per sample. */
static void sparkline(st_line *l, const double *v, int n, int maxw, int utf8) {
    static const char *const blocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    if (n <= 0) return;
    double lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
    int step = n > maxw ? (n + maxw - 1) / maxw : 1;
    for (int i = 0; i < n; i += step) {
        double x = v[i];
        for (int k = 1; k < step && i + k < n; k++)
            if (v[i + k] > x) x = v[i + k];
        int b = hi > lo ? (int)((x - lo) / (hi - lo) * 7.0 + 0.5) : 0;
        if (utf8) st_line_adds(l, ST_BAR, blocks[b]);
        else st_line_adds(l, ST_BAR, b > 5 ? "#" : b > 2 ? "+" : ".");
    }
}

static void compare_row(st_doc *out, const char *label, double ms, double mine, const char *state_text) {
    char t[32], s[64];
    st_line *l = st_doc_add(out);
    int pad = 30 - st_widths(label);
    st_line_addf(l, ST_NORMAL, "  %s%*s", label, pad > 0 ? pad : 1, "");
    if (state_text) {
        st_line_adds(l, ST_DIM, state_text);
        return;
    }
    st_fmt_ms(t, sizeof t, ms);
    tui_speedup_text(ms, mine, s, sizeof s);
    st_line_addf(l, ST_NORMAL, "%10s   ", t);
    st_line_adds(l, (ms >= mine * 0.97 ? ST_OK : ST_WARN) | ST_A_BOLD, s);
}

static void ref_row(st_doc *out, const tui_ref_time *rt, const char *label, double mine) {
    switch (rt->state) {
    case REF_NONE: return;
    case REF_WAITING:
    case REF_MEASURING: compare_row(out, label, 0, mine, _("measuring…")); return;
    case REF_FAILED: compare_row(out, label, 0, mine, rt->note[0] ? rt->note : _("could not be measured")); return;
    case REF_DONE: compare_row(out, label, rt->ms, mine, NULL); return;
    }
}

/* The Timing tab of a course opened again, before a run of this text: the last run's time, or why it has
 * none. 0 where there is no such run. */
static int last_run_timing(const tui_results_in *in, int width, st_doc *out) {
    const progress_run *last = in->last_run;
    if (!last) return 0;
    char when[32], med[32], buf[400];
    fmt_when(last->when, when, sizeof when);
    st_fmt_ms(med, sizeof med, last->median_ms);
    int failed = last->verdict == PV_FAILED;
    if (last->passed && !failed && last->median_ms > 0) /* the last time measured, until a run measures anew */
        snprintf(buf, sizeof buf, _("Your last timed run (%s) took %s on %s. Press r to time the kernel again."), when, med,
                 last->device[0] ? last->device : "?");
    else if (last->passed && !failed) /* a check from the command line times nothing */
        snprintf(buf, sizeof buf, _("Your last run (%s) passed. Press r to run and time the kernel again, or e to edit it: saving the file runs it."), when);
    else
        snprintf(buf, sizeof buf, _("Your last run (%s) was not timed: %s. Press r to run the kernel again."), when,
                 failed ? _("the chapter's check did not pass") : _(last->status));
    wrap_text(out, width, last->passed && !failed ? ST_NORMAL : ST_DIM, buf, "");
    return 1;
}

void tui_results_timing(const tui_results_in *in, int width, st_doc *out) {
    const engine_report *r = in->rep;
    int timed = r && r->n_samples > 0 && r->status == ENG_PASS;
    if (!r && last_run_timing(in, width, out)) return;
    tui_time_state ts = tui_results_time_state(in);
    if (timed && ts == TUI_TIME_WRONG) {
        wrap_text(out, width, ST_DIM, _("Not timed: a visible test gives a wrong answer, so its speed means nothing yet."), "");
        return;
    }
    if (timed && ts == TUI_TIME_UNSAFE) {
        wrap_text(out, width, ST_DIM, _("Not timed: the race check failed, so this result holds only by luck of the device."), "");
        return;
    }
    if (timed && ts == TUI_TIME_CHECKING) {
        wrap_text(out, width, ST_DIM, _("The time shows once the race check has passed."), "");
        return;
    }
    if (!timed) {
        if (!r) st_doc_addf(out, ST_DIM, "%s", _("Not run yet."));
        else wrap_text(out, width, ST_DIM,
                       _("Not timed: the kernel did not run to the end, or gave a wrong answer, so its speed means nothing."), "");
        if (!r || r->serial_ms <= 0) return;
    }
    char a[32], b[32], c[32];
    if (timed) {
        st_doc_addf(out, ST_TITLE | ST_A_BOLD,
                    P_("Kernel time: %d run after a warm-up, %s", "Kernel time: %d runs after a warm-up, %s",
                       (unsigned long long)r->n_samples),
                    r->n_samples, r->size_text);
        st_fmt_ms(a, sizeof a, r->timing.median);
        st_line *l = st_doc_add(out);
        st_line_adds(l, ST_NORMAL, "  ");
        st_line_pad(l, ST_NORMAL, _("median"), 12, 0);
        st_line_adds(l, ST_NORMAL | ST_A_BOLD, a);
        st_fmt_ms(a, sizeof a, r->timing.min);
        st_fmt_ms(b, sizeof b, r->timing.max);
        l = st_doc_add(out);
        st_line_adds(l, ST_NORMAL, "  ");
        st_line_pad(l, ST_NORMAL, _("spread"), 12, 0);
        st_line_addf(l, ST_NORMAL, _("min %s · max %s · standard error %.1f%%"), a, b, r->timing.rse * 100);
        l = st_doc_add(out);
        st_line_adds(l, ST_NORMAL, "  ");
        st_line_pad(l, ST_NORMAL, _("samples"), 12, 0);
        sparkline(l, r->samples_ms, r->n_samples, width - 16 > 8 ? width - 16 : 8, in->utf8);
        l = st_doc_add(out);
        st_line_adds(l, ST_NORMAL, "  ");
        st_line_pad(l, ST_NORMAL, _("bandwidth"), 12, 0);
        st_line_addf(l, ST_NORMAL | ST_A_BOLD, "%.2f GB/s", report_gbps(r));
        st_line_addf(l, ST_DIM, _("   (%.2f MB read and written)"), r->work.bytes / 1e6);
        if (report_gflops(r) > 0) {
            l = st_doc_add(out);
            st_line_adds(l, ST_NORMAL, "  ");
        st_line_pad(l, ST_NORMAL, _("compute"), 12, 0);
            st_line_addf(l, ST_NORMAL | ST_A_BOLD, "%.2f GFLOP/s", report_gflops(r));
        }
        st_doc_add(out);
    }
    double mine = timed ? r->timing.median : 0;
    st_doc_addf(out, ST_TITLE | ST_A_BOLD, "%s", _("Compared with (same device, same size)"));
    if (r->serial_ms > 0) {
        st_fmt_ms(c, sizeof c, r->serial_ms);
        if (mine > 0) compare_row(out, _("serial C on this CPU"), r->serial_ms, mine, NULL);
        else {
            st_line *l = st_doc_add(out);
            st_line_adds(l, ST_NORMAL, "  ");
            st_line_pad(l, ST_NORMAL, _("serial C on this CPU"), 30, 0);
            st_line_pad(l, ST_NORMAL, c, 10, 1);
        }
    }
    if (mine > 0) {
        char label[96];
        if (in->prev_ref.state != REF_NONE) {
            snprintf(label, sizeof label, _("chapter %d's reference"), in->prev_ref.chapter);
            ref_row(out, &in->prev_ref, label, mine);
        }
        if (in->own_ref.state != REF_NONE) ref_row(out, &in->own_ref, _("this chapter's reference"), mine);
        if (in->prev_run_ms > 0) compare_row(out, _("your previous run"), in->prev_run_ms, mine, NULL);
        noise_note(r, width, out);
    }
    if (is_cpu(r)) {
        st_doc_add(out);
        wrap_text(out, width, ST_DIM,
                  _("This is a CPU device: coalescing, float4 loads and local memory do not change timings the way they do on a GPU. Press d to pick a GPU if there is one."),
                  "");
    }
}

/* A run's verdict note as the progress file keeps it (English: "NAME: HEADLINE",
 * or a sentence), in the learner's language where its words have a translation;
 * headline_only: what went wrong without the check's name, where a row has no
 * room for both. */
static const char *note_text(const char *note, int headline_only, char *buf, size_t len) {
    static const char *const sentences[] = {N_("the race check or the technique could not run here")};
    for (size_t i = 0; i < sizeof sentences / sizeof sentences[0]; i++)
        if (!strcmp(note, sentences[i])) return _(sentences[i]);
    const char *sep = NULL;
    for (const char *p = strstr(note, ": "); p; p = strstr(p + 1, ": ")) {
        sep = p; /* names may hold ": " */
        if (!strncmp(p + 2, "Met: ", 5) || !strncmp(p + 2, "Not met: ", 9)) break; /* a technique's figure follows */
    }
    if (!sep) return note;
    char name[sizeof ((progress_run *)0)->verdict_note], head[256];
    snprintf(name, sizeof name, "%.*s", (int)(sep - note), note);
    const char *tn = _(name), *th = verdict_headline(sep + 2, head, sizeof head);
    if (!strcmp(th, sep + 2)) th = sep + 2;
    if (headline_only) return th == sep + 2 ? sep + 2 : (snprintf(buf, len, "%s", th), buf);
    if (tn == name && th == sep + 2) return note; /* neither part is a message */
    snprintf(buf, len, _("%s: %s"), tn, th);
    return buf;
}

static void fmt_when(double when, char *buf, size_t len) {
    time_t t = (time_t)when, now = time(NULL);
    struct tm tm, tn;
    localtime_r(&t, &tm);
    localtime_r(&now, &tn);
    if (tm.tm_year == tn.tm_year && tm.tm_yday == tn.tm_yday) strftime(buf, len, "%H:%M:%S", &tm);
    else strftime(buf, len, "%m-%d %H:%M", &tm);
}

const char *tui_results_run_outcome(const progress_run *r, int *good) {
    *good = r->passed && r->verdict != PV_FAILED;
    switch (r->verdict) {
    case PV_PASSED: return _("passed");
    case PV_FAILED: return _("not passed");
    case PV_INCOMPLETE: return _("unchecked");
    case PV_NONE: break;
    }
    return r->passed ? _("correct") : _(r->status);
}

void tui_results_history(const progress_chapter *pc, const char *device_now, int width, int utf8, st_doc *out) {
    if (!pc || pc->n_runs == 0) {
        st_doc_addf(out, ST_DIM, "%s", _("No runs yet: each run's median time appears here as a bar."));
        return;
    }
    double max = 0, best = 0;
    int n_other = 0;
    for (int i = 0; i < pc->n_runs; i++) {
        const progress_run *r = &pc->runs[i];
        if (r->passed && r->verdict != PV_FAILED && r->median_ms > 0) {
            if (r->median_ms > max) max = r->median_ms;
            if (!r->unsafe && (best == 0 || r->median_ms < best)) best = r->median_ms; /* a racy time is luck */
        }
        if (device_now && *device_now && r->device[0] && strcmp(r->device, device_now)) n_other++;
    }
    char bs[32];
    st_fmt_ms(bs, sizeof bs, best);
    st_line *h = st_doc_add(out);
    st_line_addf(h, ST_TITLE | ST_A_BOLD,
                 pc->n_runs == 1 ? _("%d run; shorter is faster")
                                 : P_("%d run, oldest first; shorter is faster", "%d runs, oldest first; shorter is faster",
                                      (unsigned long long)pc->n_runs),
                 pc->n_runs);
    if (best > 0) st_line_addf(h, ST_DIM, _("   best %s"), bs);
    if (n_other) st_line_addf(h, ST_DIM, "%s", _("   (dim: another device)"));
    st_doc_addf(out, ST_DIM, "%s", _("   # when        from  result        median"));
    int barw = width - 51; /* number, time, origin, result and median take 48 columns, the best mark 2 */
    if (barw < 6) barw = 6;
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    for (int i = 0; i < pc->n_runs; i++) {
        const progress_run *r = &pc->runs[i];
        int other = device_now && *device_now && r->device[0] && strcmp(r->device, device_now), good;
        char when[32], med[32];
        fmt_when(r->when, when, sizeof when);
        /* no time for a run the chapter's check did not pass: the Result and Timing tabs give none */
        st_fmt_ms(med, sizeof med, r->passed && r->verdict != PV_FAILED ? r->median_ms : 0);
        st_line *l = st_doc_add(out);
        st_line_addf(l, other ? ST_DIM : ST_LINENO, "%4d %-11s ", i + 1, when);
        const char *origin = _(progress_origin_name(r->origin));
        st_line_adds(l, ST_DIM, origin);
        st_line_addf(l, ST_NORMAL, "%*s", 6 - st_widths(origin) > 0 ? 6 - st_widths(origin) : 1, "");
        const char *outcome = tui_results_run_outcome(r, &good);
        char sbuf[64];
        snprintf(sbuf, sizeof sbuf, "%s %s", good ? (utf8 ? "✓" : "+") : (utf8 ? "✗" : "x"), outcome);
        int pad = 13 - st_widths(sbuf);
        st_line_adds(l, other ? ST_DIM : good ? ST_OK : ST_ERR, sbuf);
        st_line_addf(l, ST_NORMAL, "%*s", pad > 0 ? pad + 1 : 1, "");
        st_line_addf(l, other ? ST_DIM : ST_NORMAL, "%9s ", med);
        if (r->verdict_note[0] && r->verdict != PV_PASSED) {
            char nb[sizeof r->verdict_note * 2];
            const char *note = note_text(r->verdict_note, 0, nb, sizeof nb);
            if (st_widths(note) > barw + 2) note = note_text(r->verdict_note, 1, nb, sizeof nb);
            st_line_adds(l, ST_DIM, note);
        } else if (r->passed && r->median_ms > 0 && max > 0) {
            double units = r->median_ms / max * barw * 8;
            int full = (int)(units / 8), rem = (int)units % 8;
            if (full == 0 && rem == 0) rem = 1;
            int style = other ? ST_DIM : (r->median_ms == best ? ST_OK : ST_BAR);
            for (int k = 0; k < full; k++) st_line_adds(l, style, utf8 ? "█" : "#");
            if (rem) st_line_adds(l, style, utf8 ? eighths[rem] : "");
            if (r->median_ms == best) st_line_adds(l, ST_OK | ST_A_BOLD, utf8 ? " ★" : " *");
        }
    }
}
