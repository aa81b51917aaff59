/* ui_docs — the documents the course's view draws: the tabs under the
 * kernel (result, check, build, timing, history, changes, solution, GPU
 * model) and the overlays, built from the course's state. No curses here. */
#define _GNU_SOURCE
#include "ui/ui_app.h"
#include "gpumodel/gm_predict.h"

#include "text/clhl.h"
#include "text/mdrender.h"
#include "text/srcdiff.h"
#include "ui/tui_build.h"
#include "ui/tui_help.h"
#include "gpumodel/gm_draw.h"
#include "text/i18n.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ui_results_input(ui_app *a, tui_results_in *in) {
    memset(in, 0, sizeof *in);
    if (!a->in_chapter) return;
    ui_chapter *c = &a->ch;
    in->lesson = c->l;
    in->rep = c->have_rep ? &c->rep : NULL;
    in->running = c->run_id != 0;
    in->prev_run_ms = c->prev_run_ms;
    in->utf8 = a->utf8;
    in->run_number = c->run_number;
    in->source = c->have_rep && c->run_hash == c->kernel_hash ? c->kernel_text : NULL;
    progress_chapter *was = progress_get(&a->prog, c->l->id, 0);
    paths_passed_copy(&a->paths, c->l, c->passed_copy, sizeof c->passed_copy);
    if (was && was->ever_passed && was->passed_hash != c->kernel_hash && util_is_file(c->passed_copy))
        in->passed_copy = c->passed_copy + strlen(a->paths.workspace) + 1;
    if (c->vd && c->vd->n > 0 && c->vd_hash == c->kernel_hash) {
        in->verdict = c->vd;
        in->verdict_running = c->vd_id != 0;
    }
    progress_chapter *pc = progress_get(&a->prog, c->l->id, 0);
    const progress_run *last = pc && pc->n_runs > 0 ? &pc->runs[pc->n_runs - 1] : NULL;
    /* a run of another text (before a reset, or an edit outside the course) says nothing of this one */
    if (last && last->file_hash && last->file_hash != c->kernel_hash) in->last_run_other = last;
    else in->last_run = last;
    const lesson *prev = ui_previous_lesson(a, c->l);
    if (prev) {
        const tui_ref_time *t = ui_ref_get(a, prev->number);
        if (t) in->prev_ref = *t;
        else in->prev_ref.state = c->refs_due > 0 ? REF_WAITING : REF_NONE;
        in->prev_ref.chapter = prev->number;
    }
    const tui_ref_time *own = ui_ref_get(a, c->l->number);
    if (own) in->own_ref = *own;
    else if (c->refs_due > 0) in->own_ref.state = REF_WAITING;
}

/* ---- tab and overlay contents ---------------------------------------- */

static void diff_texts(const char *old, const char *old_name, const char *new_text, const char *new_name,
                       st_doc *out) {
    sd_diff d;
    if (srcdiff_compute(old, new_text, &d) == 0) srcdiff_render(&d, 3, old_name, new_name, 1, out);
    srcdiff_free(&d);
}

static void diff_files(const char *old_path, const char *old_name, const char *new_text, const char *new_name,
                       st_doc *out) {
    char *old = util_read_file(old_path, NULL);
    if (!old) st_doc_addf(out, ST_DIM, _("%s: cannot read it."), old_path);
    else diff_texts(old, old_name, new_text, new_name, out);
    free(old);
}

static void wrap_into(st_doc *d, int width, int style, const char *text) {
    st_doc_wrap(d, width, style, text, "", "", style);
}

/* Why the GPU model has no analysis: a kernel that did not build sends the learner to the compiler's messages. */
static void analysis_failed_doc(const gpumodel_report *gm, int width, st_doc *d) {
    st_doc_addf(d, ST_WARN | ST_A_BOLD, "%s", _("The GPU memory model could not analyse this kernel."));
    if (gm->run.status == ENG_BUILD)
        wrap_into(d, width, ST_NORMAL, _("It did not build, so there is nothing to simulate yet: the Build tab (key 3) "
                                         "shows the compiler's messages, with the line of each."));
    else
        wrap_into(d, width, ST_NORMAL, gm->message);
}

/* The GPU model's analysis ends with what NVIDIA's PTX makes of the same
 * text (clang and libclc, `cltutor asm`): each memory instruction on its
 * source line, which the simulator cannot see. */
static void compiled_doc(const ptx_report *r, int width, st_doc *d) {
    if (!r) return;
    st_doc_add(d);
    if (r->device[0]) {
        char title[512];
        snprintf(title, sizeof title, _("Compiled by the OpenCL driver of %s (%s) for %s, as `cltutor asm --device` "
                                         "shows it; its PTX has no source lines (line 0)"),
                 r->device, r->driver, r->target[0] ? r->target : "?");
        wrap_into(d, width, ST_TITLE | ST_A_BOLD, title);
    } else {
        wrap_into(d, width, ST_TITLE | ST_A_BOLD, _("Compiled for NVIDIA PTX (clang and libclc, as `cltutor asm` shows it)"));
    }
    if (r->status != 0) {
        wrap_into(d, width, ST_DIM, r->message);
        return;
    }
    for (int k = 0; k < r->n; k++) {
        const ptx_kernel *pk = &r->kernels[k];
        if (r->n > 1) wrap_into(d, width, ST_NORMAL | ST_A_BOLD, pk->name);
        for (int i = 0; i < pk->n; i++) {
            char text[200], row[240];
            ptx_access_text(&pk->acc[i], text, sizeof text);
            snprintf(row, sizeof row, "  %4d  %s", pk->acc[i].line, text);
            st_doc_add_row(d, row, ST_NORMAL, width, pk->acc[i].line);
        }
        if (!pk->n) wrap_into(d, width, ST_DIM, _("(no memory instruction)"));
        if (pk->registers > 0) {
            char regs[96];
            snprintf(regs, sizeof regs, _("registers: %d a work-item (ptxas)"), pk->registers);
            wrap_into(d, width, ST_DIM, regs);
        }
    }
}

static void analysis_doc(ui_app *a, int width, st_doc *d) {
    ui_chapter *c = &a->ch;
    if (!c->gm) {
        if (c->gm_id) wrap_into(d, width, ST_DIM, _("Simulating your kernel on Oclgrind to see what a GPU would do with its memory accesses (a few seconds)…"));
        else wrap_into(d, width, ST_DIM, _("Press a to analyse your kernel on the GPU memory model: coalescing, bank conflicts and atomics as a GPU would see them, with a note on each source line."));
        return;
    }
    const gpumodel_report *gm = c->gm;
    if (gm->status != GM_OK) {
        analysis_failed_doc(gm, width, d);
        return;
    }
    if (c->gm_hash != c->kernel_hash)
        wrap_into(d, width, ST_WARN | ST_A_BOLD, c->gm_id ? _("The kernel changed: analysing it again…") : _("The kernel changed since this analysis: press a to analyse it again."));
    for (int i = 0; i < gm->n_lines; i++) {
        const char *t = gm->lines[i];
        gm_line_role role = gm->line_roles ? gm->line_roles[i] : GM_LINE_TEXT;
        int style = role == GM_LINE_HEADING ? ST_TITLE | ST_A_BOLD : role == GM_LINE_PROBLEM ? ST_ERR | ST_A_BOLD
                  : role == GM_LINE_CLEAN ? ST_OK : ST_NORMAL;
        /* rows point at their source line, their details wrapping under
         * themselves; source lines and carets keep their columns */
        int lead = (int)strspn(t, " ");
        const char *caret = role == GM_LINE_SOURCE && i + 1 < gm->n_lines && gm->line_roles[i + 1] == GM_LINE_CARET
                                ? strchr(gm->lines[i + 1], '^') : NULL; /* the caret under this source line */
        if (role == GM_LINE_ROW) {
            st_doc_add_row(d, t, style, width, gm->line_src[i]);
        } else if (role != GM_LINE_SOURCE && role != GM_LINE_CARET && lead < 8 && t[lead]) { /* a sentence: wrapped */
            char pre1[16], pre2[16];
            snprintf(pre1, sizeof pre1, "%*s", lead, "");
            snprintf(pre2, sizeof pre2, "%*s", lead + 2, "");
            st_doc_wrap(d, width, style, t + lead, pre1, pre2, style);
        } else if (caret && caret - gm->lines[i + 1] >= lead) { /* the part of the line around the caret */
            char gutter[64];
            snprintf(gutter, sizeof gutter, "%*s", lead < 60 ? lead : 60, "");
            size_t at = (size_t)(caret - gm->lines[i + 1] - lead);
            st_doc_add_code_caret(d, gutter, gutter, t + lead, strlen(t + lead), at, width, gm->line_src[i]);
            i++;
        } else { /* other source lines keep their columns: cut */
            st_line l;
            memset(&l, 0, sizeof l);
            st_line_adds(&l, style, t);
            st_doc_add_cut(d, &l, width);
            st_line_free(&l);
        }
    }
    compiled_doc(c->ptx, width, d);
}

/* The learner's edits: their kernel against the starting file in the learner's language, or as shipped
 * (made before a switch of language): the one it differs from least. */
static void own_changes_doc(ui_app *a, const char *mine, const char *hint, int width, st_doc *d) {
    ui_chapter *c = &a->ch;
    char start[1400];
    paths_starting(&a->paths, c->l, start, sizeof start);
    char *texts[2] = {paths_starting_text(&a->paths, c->l, NULL), util_read_file(start, NULL)};
    int best = -1, fewest = 0;
    for (int k = 0; k < 2; k++) {
        sd_diff own;
        if (!texts[k] || srcdiff_compute(texts[k], c->kernel_text, &own) != 0) continue;
        if (best < 0 || own.n_add + own.n_del < fewest) best = k, fewest = own.n_add + own.n_del;
        srcdiff_free(&own);
    }
    wrap_into(d, width, ST_TITLE | ST_A_BOLD, _("What you changed: your kernel against this chapter's starting file"));
    if (hint) wrap_into(d, width, ST_DIM, hint);
    if (best >= 0 && fewest == 0)
        wrap_into(d, width, ST_DIM, _("Nothing yet: this is the starting file (lines that differ only in spaces "
                                      "are not changes)."));
    else if (best >= 0) diff_texts(texts[best], _("the starting file"), c->kernel_text, mine, d);
    free(texts[0]);
    free(texts[1]);
}

/* What the learner changed (the tab's first view), or, after p, their kernel against the previous stage of
 * the same problem (its reference solution), the step the chapter teaches. */
static void changes_doc(ui_app *a, int width, st_doc *d) {
    ui_chapter *c = &a->ch;
    char path[1400], name[300], mine[400], says[600];
    snprintf(mine, sizeof mine, _("yours (%s)"), c->display);
    const lesson *prev = ui_previous_lesson(a, c->l);
    int have_prev = prev && paths_solution(&a->paths, prev, path, sizeof path) == 0 && util_is_file(path);
    if (!have_prev || !a->st.changes_vs_prev) {
        if (have_prev)
            snprintf(says, sizeof says, _("p: your kernel against chapter %d's reference, the previous stage"),
                     prev->number);
        own_changes_doc(a, mine, have_prev ? says : NULL, width, d);
        return;
    }
    snprintf(name, sizeof name, _("chapter %d's reference"), prev->number);
    snprintf(says, sizeof says, _("Your kernel against the previous stage of this problem: chapter %d's reference solution. Lines that differ only in spaces are not shown as changes."),
             prev->number);
    wrap_into(d, width, ST_TITLE | ST_A_BOLD, says);
    wrap_into(d, width, ST_DIM, _("p: back to your edits since the starting file"));
    diff_files(path, name, c->kernel_text, mine, d);
}

/* The sizes dialog: one row a size (the cursor's rows), then what they are. */
/* The hints seen so far, and how to see the next. */
static void hints_doc(const lesson_hints *h, int seen, int listing, int width, st_doc *out) {
    int zh = !strcmp(i18n_lang(), "zh");
    if (seen > h->n) seen = h->n;
    if (h->n == 0) {
        st_doc_addf(out, ST_DIM, "%s", listing ? _("This listing has no hints.") : _("This chapter has no hints."));
        return;
    }
    for (int i = 0; i < seen; i++) {
        const char *text = zh && h->zh[i] ? h->zh[i] : h->en[i];
        if (!text) continue;
        char pre[32];
        snprintf(pre, sizeof pre, "%d. ", i + 1);
        st_doc_wrap(out, width, ST_NORMAL, text, pre, "   ", ST_KEY | ST_A_BOLD);
        st_doc_add(out);
    }
    if (seen < h->n) st_doc_addf(out, ST_DIM, _("Press n or Enter for hint %d of %d."), seen + 1, h->n);
    else st_doc_addf(out, ST_DIM, _("That was the last hint (%d of %d)."), h->n, h->n);
}

static void sizes_doc(ui_app *a, int width, st_doc *out, char *title, size_t tlen) {
    snprintf(title, tlen, "%s", _("Run at which size?"));
    if (!a->in_chapter) return;
    const lesson *l = a->ch.l;
    char sizes[24][64];
    int n = ui_chapter_sizes(a, sizes, 24);
    const char *now = ui_chapter_size(a);
    for (int i = 0; i < n; i++) {
        int used = now ? !strcmp(sizes[i], now) : i == 0;
        const char *what = !strcmp(sizes[i], l->default_size) ? _("the chapter's size") : NULL;
        for (int k = 0; k < l->n_check_sizes && !what; k++)
            if (!strcmp(sizes[i], l->check_sizes[k])) what = _("a visible test");
        for (int k = 0; k < l->n_bugs && !what; k++)
            if (!strcmp(sizes[i], l->bugs[k].exposes)) what = _("where a find-the-bug listing shows its bug");
        if (!what) what = _("another input at the chapter's size");
        st_line *ln = st_doc_add(out);
        st_line_addf(ln, used ? ST_OK | ST_A_BOLD : ST_NORMAL, "%s %-22s", used ? (a->utf8 ? "●" : "*") : " ", sizes[i]);
        st_line_addf(ln, ST_DIM, " %s", what);
    }
    st_doc_add(out);
    wrap_into(out, width, ST_DIM, _("Enter runs at the selected size; the chapter's size is the one progress counts. On the command line: cltutor run N --size SIZE[:INPUT]."));
}

/* The files dialog: the chapter's kernel, then each find-the-bug listing. */
static void files_doc(ui_app *a, int width, st_doc *out, char *title, size_t tlen) {
    snprintf(title, tlen, "%s", _("The chapter's files"));
    if (!a->in_chapter) return;
    const lesson *l = a->ch.l;
    int zh = !strcmp(i18n_lang(), "zh");
    for (int i = 0; i <= l->n_bugs; i++) {
        int shown = a->ch.file == i;
        st_line *ln = st_doc_add(out);
        st_line_addf(ln, shown ? ST_OK | ST_A_BOLD : ST_NORMAL, "%s %-24s", shown ? (a->utf8 ? "●" : "*") : " ",
                     i ? l->bugs[i - 1].file : l->exercise);
        if (i == 0) st_line_addf(ln, ST_DIM, " %s", _("the chapter's kernel"));
        else st_line_addf(ln, ST_DIM, " %s", zh && l->bugs[i - 1].title_zh[0] ? l->bugs[i - 1].title_zh : l->bugs[i - 1].title);
    }
    st_doc_add(out);
    wrap_into(out, width, ST_DIM, l->n_bugs
        ? _("A find-the-bug listing is a kernel with one bug: open it, run it (r) at the size where the bug shows, and mend it with a small edit (e). On the command line: cltutor check N checks the fixes too.")
        : _("This chapter has no find-the-bug listing."));
}

/* The messages say what to try with the command line's options (--size,
 * --timeout, --device): here, the keys that do the same in the course. */
static void keys_to_try(ui_app *a, int width, st_doc *d) {
    const ui_chapter *c = &a->ch;
    if (!c->have_rep || c->run_id) return;
    const char *keys = NULL;
    switch (c->rep.status) {
    case ENG_TIMEOUT: keys = _("In the course: T gives a run more time, S runs a smaller size, e opens the kernel."); break;
    case ENG_CRASH: keys = _("In the course: S runs a smaller size, d picks another device, e opens the kernel at the line."); break;
    case ENG_RUNTIME: keys = _("In the course: d picks another device, S runs a smaller size."); break;
    case ENG_USAGE:
    case ENG_NO_DEVICE: keys = _("In the course: d picks another device, S another size."); break;
    default: return;
    }
    st_doc_add(d);
    wrap_into(d, width, ST_KEY, keys);
}

/* On a CPU device, under the measured time: the time the GPU model predicts
 * on an NVIDIA H100, from the latest analysis of this text (the GPU model
 * tab's). The compared file's analysis is the job thread's: read only when
 * no analysis runs. */
static void prediction_doc(ui_app *a, int width, st_doc *d) {
    const ui_chapter *c = &a->ch;
    if (c->have_rep && !strcmp(c->rep.device.type, "GPU")) return;
    st_doc_add(d);
    if (!c->gm || c->gm->status != GM_OK || c->gm_hash != c->kernel_hash) {
        wrap_into(d, width, ST_DIM, _("On a GPU: open the GPU model tab to analyse this kernel; the analysis predicts its time on an NVIDIA H100."));
        return;
    }
    gp_chapter *gp = calloc(1, sizeof *gp);
    char **lines;
    int n;
    if (!gp) return;
    gp_chapter_predict(a->paths.data, &a->cat, NULL, c->l, c->gm, !c->gm_id && a->gm_cache.set ? &a->gm_cache.rep : NULL, NULL, gp);
    if (gp->ok && gp_lines(&gp->pr, gp->has_prev ? &gp->prev : NULL, gp->prev_label, &gp->prof, &lines, &n) == 0) {
        for (int i = 0; i < n; i++) wrap_into(d, width, i ? ST_DIM : ST_NORMAL, lines[i]);
        gp_lines_free(lines, n);
    } else {
        wrap_into(d, width, ST_DIM, gp->err);
    }
    free(gp);
}

void ui_tab_doc(ui_app *a, tui_tab t, int width) {
    ui_chapter *c = &a->ch;
    if (!a->in_chapter) return;
    if (!c->tab_dirty[t] && c->tab_w[t] == width) return;
    st_doc *d = &c->tabs[t];
    st_doc_clear(d);
    c->tab_dirty[t] = 0;
    c->tab_w[t] = width;
    tui_results_in in;
    ui_results_input(a, &in);
    switch (t) {
    case TAB_RESULT:
        tui_results_summary(&in, width, d);
        keys_to_try(a, width, d);
        break;
    case TAB_CHECK: tui_results_check(&in, width, d); break;
    case TAB_BUILD: tui_build_doc(&in, width, d); break;
    case TAB_TIMING:
        tui_results_timing(&in, width, d);
        prediction_doc(a, width, d);
        break;
    case TAB_HISTORY:
        tui_results_history(progress_get(&a->prog, c->l->id, 0), ui_device_key(a), width, a->utf8, d);
        break;
    case TAB_CHANGES: changes_doc(a, width, d); break;
    case TAB_SOLUTION: {
        if (!a->cfg.solutions_shown) {
            char buf[1400];
            snprintf(buf, sizeof buf, _("The reference solutions are hidden on this machine ([course] solutions = hidden in %s)."),
                     a->cfg.solutions_hidden_by);
            wrap_into(d, width, ST_DIM, buf);
            break;
        }
        if (!ui_solution_unlocked(a)) {
            char buf[400];
            snprintf(buf, sizeof buf,
                     _("The reference solution opens once you pass this chapter, or after %d versions of your kernel that fail (so far: %d; the untouched starting file does not count). Try the hints first: press n."),
                     UI_SOLUTION_AFTER, c->failed_runs);
            wrap_into(d, width, ST_DIM, buf);
            break;
        }
        char path[1400], name[300], mine[400];
        if (paths_solution(&a->paths, c->l, path, sizeof path) != 0) {
            wrap_into(d, width, ST_DIM, _("The instructor withheld the reference solutions from this install: ask them, or compare with a classmate's passing kernel."));
            break;
        }
        snprintf(name, sizeof name, _("yours (%s)"), c->display);
        snprintf(mine, sizeof mine, _("the reference (kernels/%s/%s)"), c->l->id, c->l->exercise);
        char *ref = util_read_file(path, NULL);
        if (!ref) {
            st_doc_addf(d, ST_DIM, _("%s: cannot read it."), path);
            break;
        }
        sd_diff df;
        if (srcdiff_compute(c->kernel_text, ref, &df) == 0) srcdiff_render(&df, 3, name, mine, 0, d);
        srcdiff_free(&df);
        st_doc_add(d);
        st_doc_addf(d, ST_TITLE | ST_A_BOLD, "%s", _("The whole reference solution:"))->tag = -1;
        int state = 0, n = 0;
        const char *p = ref;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            st_line *l = st_doc_add(d);
            l->tag = -1;
            st_line_addf(l, ST_LINENO, "%4d  ", ++n);
            clhl_line(l, p, len, &state, 4);
            if (!e) break;
            p = e + 1;
        }
        free(ref);
        break;
    }
    case TAB_ANALYSIS: analysis_doc(a, width, d); break;
    default: break;
    }
    if (d->n == 0) st_doc_add(d);
}

/* The GPU model's picture of one warp's request at the chosen line (gm_draw.h). */
static void warp_doc(ui_app *a, int width, st_doc *d, char *title, size_t tlen) {
    snprintf(title, tlen, "%s", _("See the warp"));
    if (!a->in_chapter) return;
    ui_chapter *c = &a->ch;
    if (!c->gm || (c->gm_id && c->gm_hash != c->kernel_hash)) {
        wrap_into(d, width, ST_DIM, c->gm_id ? _("Simulating your kernel on Oclgrind to see what a GPU would do with its memory accesses (a few seconds)…")
                                              : _("Press a to analyse your kernel on the GPU memory model first."));
        return;
    }
    if (c->gm->status != GM_OK) {
        analysis_failed_doc(c->gm, width, d);
        return;
    }
    if (c->gm_hash != c->kernel_hash)
        wrap_into(d, width, ST_WARN | ST_A_BOLD, _("The kernel changed since this analysis: press a to analyse it again."));
    gm_draw_opts o = {width, a->utf8};
    if (gm_draw_line(d, c->gm, c->warp_line, &o) == 0 && c->warp_line > 0) {
        st_doc_add(d);
        gm_draw_line(d, c->gm, 0, &o); /* the busiest instead */
    }
}

void ui_overlay_doc(ui_app *a, tui_overlay o, int width, st_doc *out, char *title, size_t tlen) {
    switch (o) {
    case OV_HELP:
        snprintf(title, tlen, "%s", _("Keys"));
        tui_help_doc(out, width);
        break;
    case OV_QUICKREF:
        snprintf(title, tlen, "%s", _("OpenCL C quick reference"));
        tui_quickref_doc(out, width);
        break;
    case OV_HINTS: {
        snprintf(title, tlen, "%s", _("Hints"));
        if (!a->in_chapter) break;
        const lesson *l = a->ch.l;
        const lesson_hints *h = &l->hints;
        int seen;
        if (a->ch.file > 0) {
            const lesson_bug *bug = &l->bugs[a->ch.file - 1];
            snprintf(title, tlen, _("Hints for %s"), bug->file);
            h = &bug->hints;
            seen = a->ch.bug_hints_seen[a->ch.file - 1];
        } else {
            progress_chapter *pc = progress_get(&a->prog, l->id, 0);
            seen = pc ? pc->hints_seen : 0;
        }
        hints_doc(h, seen, a->ch.file > 0, width, out);
        break;
    }
    case OV_SIZES: sizes_doc(a, width, out, title, tlen); break;
    case OV_FILES: files_doc(a, width, out, title, tlen); break;
    case OV_WARP: warp_doc(a, width, out, title, tlen); break;
    case OV_DEVICES: {
        snprintf(title, tlen, "%s", _("OpenCL devices"));
        if (a->devs_state == 1 && a->n_devs == 0) {
            st_doc_addf(out, ST_DIM, "%s", _("Looking for OpenCL devices…"));
            break;
        }
        if (a->devs_state == 3 || (a->devs_state == 2 && a->n_devs == 0)) {
            st_doc_addf(out, ST_ERR, "%s", a->devs_err[0] ? a->devs_err : _("No OpenCL device found."));
            wrap_into(out, width, ST_DIM, _("Install PoCL for the CPU (apt-get install pocl-opencl-icd) or your GPU's OpenCL driver, then press r."));
            break;
        }
        int def = ui_default_device(a), cur = a->dev_sel >= 0 ? a->dev_sel : def;
        for (int i = 0; i < a->n_devs; i++) {
            const engine_device *d = &a->devs[i];
            st_line *l = st_doc_add(out);
            st_line_addf(l, i == cur ? ST_OK | ST_A_BOLD : ST_NORMAL, "%s %d  ", i == cur ? (a->utf8 ? "●" : "*") : " ", d->index);
            st_line_addf(l, !strcmp(d->type, "GPU") ? ST_OK | ST_A_BOLD : ST_WARN, "%-4s ", d->type);
            st_line_addf(l, ST_NORMAL, "%s", d->name);
            /* the platform and the default mark after the name, or under it where the row has no room */
            char rest[sizeof d->platform + 64];
            snprintf(rest, sizeof rest, "  %s%s%s", d->platform, i == def ? "  " : "", i == def ? _("(default)") : "");
            if (st_line_width(l) + st_widths(rest) > width) {
                l = st_doc_add(out);
                st_line_addf(l, ST_DIM, "%10s%s", "", rest + 2);
            } else {
                st_line_addf(l, ST_DIM, "%s", rest);
            }
        }
        st_doc_add(out);
        int any_cpu = 0;
        for (int i = 0; i < a->n_devs; i++)
            if (!strcmp(a->devs[i].type, "CPU")) any_cpu = 1;
        if (any_cpu) {
            wrap_into(out, width, ST_DIM, _("CPU devices run the kernels correctly, but their timings do not show GPU effects (coalescing, local memory, bank conflicts)."));
        }
        st_doc_addf(out, ST_DIM, "%s", _("Enter: use it   r: look again   Esc: close"));
        break;
    }
    case OV_MESSAGE: {
        snprintf(title, tlen, "%s", _("cltutor"));
        wrap_into(out, width, ST_NORMAL, a->st.message);
        break;
    }
    case OV_CONFIRM_QUIT:
        snprintf(title, tlen, "%s", _("Quit?"));
        st_doc_addf(out, ST_NORMAL, "%s", _("Quit cltutor? Your progress is saved. (y / n)"));
        break;
    default: break;
    }
    if (out->n == 0) st_doc_add(out);
}

/* ---- the editor ------------------------------------------------------- */
