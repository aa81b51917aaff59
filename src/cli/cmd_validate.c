/* validate: checks that chapters are complete and consistent (metadata, texts, hints, kernels, bug listings) */
#define _DEFAULT_SOURCE
#include "run/bench.h"
#include "cli/cli.h"
#include "course/catalog.h"
#include "course/claims.h"
#include "course/figsource.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/technique.h"
#include "grade/verdict.h"
#include "course/paths.h"
#include "problem/problem.h"
#include "run/report.h"
#include "base/util.h"
#include "text/codefrag.h"
#include "text/i18n.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIN_HINTS 3

/* The two %s are VERDICT_PREVIOUS_FIGURES. */
static const char *const validate_usage = N_(
    "Usage: cltutor validate [LESSON...|all] [--device SPEC] [--timeout SEC] [--static]\n"
    "                        [--results DIR] [--write-figures]\n"
    "\n"
    "Checks that chapters are complete and consistent; for lesson authors.\n"
    "For each chapter named (default: every chapter):\n"
    "  metadata        required lesson.ini keys, a known problem, sizes that parse,\n"
    "                  files that exist, a previous chapter that exists\n"
    "  text            lesson.en.md and lesson.zh.md exist and are not empty\n"
    "  hints           at least 3 hints in each language, none missing, for the\n"
    "                  chapter and for each find-the-bug listing; no hint\n"
    "                  quotes code its file already has\n"
    "  sources         every figure in the texts (a number with a unit of time,\n"
    "                  GB/s, FLOP/s or a speed-up) equals one in a committed\n"
    "                  results file at the precision written, or its paragraph\n"
    "                  or table carries a \"Source:\" label naming where it\n"
    "                  comes from (docs/authoring.md)\n"
    "  claims          no sentence names the project's design notes (a document\n"
    "                  outside the repository), and none says the chapter's\n"
    "                  variant kernels are not kept while bench/variants/ holds\n"
    "                  them\n"
    "  reference       the reference solution passes every visible test\n"
    "  starting file   the learner's starting file builds and runs on every\n"
    "                  visible test, and is wrong on at least one (a crash is\n"
    "                  not a wrong answer)\n"
    "  bug NAME        each find-the-bug listing fails on its exposing input,\n"
    "                  and the reference passes that input\n"
    "  figures         where a technique check compares with the previous\n"
    "                  chapter's reference, the figures committed for installs\n"
    "                  without it (%s) match that reference\n"
    "Prints one line per check and a closing line \"N passed, N failed\".\n"
    "\n"
    "  --device SPEC    an index from `cltutor devices` or part of a device name\n"
    "  --timeout SEC    limit for each kernel run (default 20)\n"
    "  --static         metadata, texts, hints, sources and claims only: no\n"
    "                   kernel is built or run\n"
    "  --results DIR    the committed results (default: docs/results beside the\n"
    "                   course, when there is one)\n"
    "  --write-figures  write each %s afresh instead of checking it\n"
    "\n"
    "Exit status: 0 when every check passes, 1 when any fails, 64 usage error,\n"
    "69 no usable OpenCL device.\n");

/* [lesson] keys every chapter must have; a missing one is otherwise filled
 * in silently (bench_size, check_sizes) or makes the chapter unreadable. */
static const char *const required_keys[] = {"title",        "title_zh",  "summary",    "problem",
                                            "kernels",      "exercise",  "default_size", "bench_size",
                                            "check_sizes",  "previous"};

typedef struct {
    cli_ctx *cx;
    const char *device;
    double timeout;
    int static_only;
    int write_figures;       /* --write-figures: rewrite each chapter's previous-reference.ini */
    const char *results_dir; /* --results, else docs/results beside the course */
    figsource_index results;
    int have_results;
    char results_err[512];
    report_style style;
    cli_live_status live;
    int passed, failed, fatal;
} validate_run;

/* One check's line: "ok   NAME  detail" or "FAIL NAME  detail", then indented notes. */
static void result(validate_run *vr, int ok, const char *name, const char *notes, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void result(validate_run *vr, int ok, const char *name, const char *notes, const char *fmt, ...) {
    char detail[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    const report_style *st = &vr->style;
    printf("  %s", st->color ? (ok ? "\033[32m" : "\033[31m") : "");
    cli_cell(stdout, ok ? _("ok") : _("FAIL"), -4);
    printf("%s %-18s %s\n", st->color ? "\033[0m" : "", name, detail);
    if (notes && *notes) {
        const char *p = notes;
        while (*p) {
            const char *eol = strchr(p, '\n');
            int len = eol ? (int)(eol - p) : (int)strlen(p);
            printf("            %.*s\n", len, p);
            p = eol ? eol + 1 : p + len;
        }
    }
    if (ok) vr->passed++;
    else vr->failed++;
}

/* ---- metadata */

typedef struct {
    int seen[CLT_ARRAY_LEN(required_keys)];
} key_scan;

static int on_key(void *user, const char *section, const char *name, const char *value) {
    key_scan *ks = user;
    (void)value;
    if (strcmp(section, "lesson") != 0) return 1;
    for (size_t i = 0; i < CLT_ARRAY_LEN(required_keys); i++)
        if (!strcmp(name, required_keys[i])) ks->seen[i] = 1;
    return 1;
}

static void note(char **notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(char **notes, const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    util_sappend(notes, "%s\n", line);
}

static void check_size(const problem_ops *ops, const char *what, const char *spec, char **notes) {
    prob_size s;
    char err[512];
    if (problem_parse_size(ops, spec, &s, err, sizeof err) != 0) note(notes, "%s '%s': %s", what, spec, err);
}

static void check_file(const char *path, const char *what, char **notes) {
    if (!util_is_file(path)) note(notes, _("%s: %s is missing"), what, path);
}

/* Returns 1 when the metadata is sound. */
static int check_metadata(validate_run *vr, const lesson *l) {
    const paths *p = &vr->cx->paths;
    char *notes = NULL;
    char path[1400];
    snprintf(path, sizeof path, "%s/lesson.ini", l->dir);
    key_scan ks;
    memset(&ks, 0, sizeof ks);
    ini_parse(path, on_key, &ks);
    for (size_t i = 0; i < CLT_ARRAY_LEN(required_keys); i++)
        if (!ks.seen[i]) note(&notes, _("lesson.ini: [lesson] has no '%s' key"), required_keys[i]);
    const problem_ops *ops = problem_find(l->problem);
    if (!ops) {
        note(&notes, _("problem = %s: no such problem"), l->problem);
    } else {
        check_size(ops, "default_size", l->default_size, &notes);
        check_size(ops, "bench_size", l->bench_size, &notes);
        char bench_sizes[BENCH_MAX_INPUTS][64]; /* bench_size with each of bench_inputs */
        int n_bench = bench_sizes_for(l, "GPU", bench_sizes, BENCH_MAX_INPUTS);
        for (int b = 0; b < n_bench && lesson_param_get(l, "bench_inputs", NULL); b++)
            check_size(ops, "bench_inputs", bench_sizes[b], &notes);
        for (int t = 0; t < l->n_check_sizes; t++) check_size(ops, "check_sizes", l->check_sizes[t], &notes);
        for (int b = 0; b < l->n_bugs; b++) {
            char what[64];
            snprintf(what, sizeof what, "[bug.%s] exposes", l->bugs[b].name);
            check_size(ops, what, l->bugs[b].exposes, &notes);
            for (int o = 0; o < b; o++) /* grading runs one hidden test per exposing input */
                if (!strcmp(l->bugs[o].exposes, l->bugs[b].exposes))
                    note(&notes, _("[bug.%s] and [bug.%s] are exposed by the same input %s: give each listing its own"),
                         l->bugs[o].name, l->bugs[b].name, l->bugs[b].exposes);
        }
    }
    if (l->previous < 0 || l->previous >= l->number)
        note(&notes, _("previous = %d: give 0 or an earlier chapter's number"), l->previous);
    else if (l->previous > 0 && !catalog_by_number(&vr->cx->cat, l->previous))
        note(&notes, _("previous = %d: no such chapter"), l->previous);
    paths_solution(p, l, path, sizeof path);
    check_file(path, _("reference solution"), &notes);
    paths_starting(p, l, path, sizeof path);
    check_file(path, _("starting file"), &notes);
    for (int b = 0; b < l->n_bugs; b++) {
        char what[64];
        snprintf(path, sizeof path, "%s/exercises/%s/%s", p->data, l->id, l->bugs[b].file);
        snprintf(what, sizeof what, "[bug.%s] file", l->bugs[b].name);
        check_file(path, what, &notes);
        if (!l->bugs[b].title[0] || !l->bugs[b].title_zh[0])
            note(&notes, _("[bug.%s]: give both title and title_zh"), l->bugs[b].name);
    }
    const char *names[][2] = {{"short_title", lesson_param_get(l, "short_title", l->title)},
                              {"bench_beyond_title", lesson_param_get(l, "bench_beyond_title", "")}};
    for (size_t i = 0; i < CLT_ARRAY_LEN(names); i++)
        if (strlen(names[i][1]) > BENCH_TITLE_WIDTH)
            note(&notes, _("%s: '%s' has %zu characters; `cltutor bench` shows %d: give a shorter %s"), names[i][0],
                 names[i][1], strlen(names[i][1]), BENCH_TITLE_WIDTH, names[i][0]);
    int ok = notes == NULL;
    result(vr, ok, "metadata", notes, "%s", ok ? _("lesson.ini is complete") : _("lesson.ini has problems:"));
    free(notes);
    return ok && ops;
}

/* ---- texts and hints */

static long text_size(const char *path, int *blank) {
    size_t len = 0;
    char *s = util_read_file(path, &len);
    *blank = 1;
    if (!s) return -1;
    for (size_t i = 0; i < len; i++)
        if (!isspace((unsigned char)s[i])) *blank = 0;
    free(s);
    return (long)len;
}

static void check_texts(validate_run *vr, const lesson *l) {
    char *notes = NULL;
    long sizes[2];
    static const char *const langs[] = {"en", "zh"};
    for (int i = 0; i < 2; i++) {
        char path[1400];
        int blank;
        lesson_text_path(l, langs[i], path, sizeof path);
        sizes[i] = text_size(path, &blank);
        if (sizes[i] < 0) note(&notes, _("%s is missing"), path);
        else if (blank) note(&notes, _("%s is empty"), path);
    }
    if (notes) result(vr, 0, "text", notes, "%s", _("the lesson text is incomplete:"));
    else result(vr, 1, "text", NULL, _("lesson.en.md (%ld bytes), lesson.zh.md (%ld bytes)"), sizes[0], sizes[1]);
    free(notes);
}

static int blank_text(const char *s) {
    if (!s) return 1;
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return 0;
    return 1;
}

/* Counts one set of hints; notes missing ones and code the file they are about already has. */
static void hint_set_notes(const lesson_hints *h, const char *what, const char *source, const char *file_name,
                           char **notes, int *n_en, int *n_zh) {
    *n_en = *n_zh = 0;
    for (int i = 0; i < h->n; i++) {
        *n_en += !blank_text(h->en[i]);
        *n_zh += !blank_text(h->zh[i]);
        if (blank_text(h->en[i])) note(notes, _("%sen.%d is missing"), what, i + 1);
        if (blank_text(h->zh[i])) note(notes, _("%szh.%d is missing"), what, i + 1);
        for (int lang = 0; lang < 2 && source; lang++) {
            const char *text = lang ? h->zh[i] : h->en[i];
            char frag[256];
            size_t pos = 0;
            while (text && codefrag_next(text, &pos, 6, frag, sizeof frag))
                if (codefrag_in_source(frag, source))
                    note(notes, _("%s%s.%d quotes %s, which %s already has: a hint gives only code still to be "
                                  "written"), what, lang ? "zh" : "en", i + 1, frag, file_name);
        }
    }
    if (*n_en < MIN_HINTS)
        note(notes, P_("%s%d English hint: give at least %d", "%s%d English hints: give at least %d",
                       (unsigned long long)*n_en), what, *n_en, MIN_HINTS);
    if (*n_zh < MIN_HINTS)
        note(notes, P_("%s%d Chinese hint: give at least %d", "%s%d Chinese hints: give at least %d",
                       (unsigned long long)*n_zh), what, *n_zh, MIN_HINTS);
}

/* The chapter's hints against its starting file, each listing's against the listing. */
static void check_hints(validate_run *vr, const lesson *l) {
    char *notes = NULL, path[1400], what[64];
    int n_en, n_zh, bug_en, bug_zh;
    paths_starting(&vr->cx->paths, l, path, sizeof path);
    char *source = util_read_file(path, NULL);
    hint_set_notes(&l->hints, "", source, l->exercise, &notes, &n_en, &n_zh);
    free(source);
    for (int b = 0; b < l->n_bugs; b++) {
        snprintf(path, sizeof path, "%s/exercises/%s/%s", vr->cx->paths.data, l->id, l->bugs[b].file);
        snprintf(what, sizeof what, "[bug.%s] ", l->bugs[b].name);
        source = util_read_file(path, NULL);
        hint_set_notes(&l->bugs[b].hints, what, source, l->bugs[b].file, &notes, &bug_en, &bug_zh);
        free(source);
    }
    if (notes) result(vr, 0, "hints", notes, "%s", _("the hints are incomplete or give away code already there:"));
    else if (l->n_bugs)
        result(vr, 1, "hints", NULL, P_("%d in English, %d in Chinese; and for %d find-the-bug listing",
                                        "%d in English, %d in Chinese; and for each of %d find-the-bug listings",
                                        (unsigned long long)l->n_bugs), n_en, n_zh, l->n_bugs);
    else result(vr, 1, "hints", NULL, _("%d in English, %d in Chinese"), n_en, n_zh);
    free(notes);
}

/* ---- figures in the texts */

static void check_sources(validate_run *vr, const lesson *l) {
    if (!vr->have_results) {
        result(vr, 1, "sources", NULL, _("not checked: %s"), vr->results_err);
        return;
    }
    static const char *const langs[] = {"en", "zh"};
    char *notes = NULL;
    int seen = 0, bad = 0;
    for (int i = 0; i < 2; i++) {
        char path[1400], name[64];
        size_t len = 0;
        lesson_text_path(l, langs[i], path, sizeof path);
        char *md = util_read_file(path, &len);
        if (!md) continue; /* the text check names it */
        int n_bad = 0;
        snprintf(name, sizeof name, "lesson.%s.md", langs[i]);
        seen += figsource_check_lesson(&vr->results, name, md, len, &notes, &n_bad);
        bad += n_bad;
        free(md);
    }
    if (bad)
        result(vr, 0, "sources", notes, P_("%d figure without a source:", "%d figures without a source:",
                                           (unsigned long long)bad), bad);
    else
        result(vr, 1, "sources", NULL, P_("%d figure, each in %s or labelled with its source",
                                          "%d figures, each in %s or labelled with its source", (unsigned long long)seen),
               seen, vr->results.dir);
    free(notes);
}

/* ---- sentences the repository cannot back */

static void check_claims(validate_run *vr, const lesson *l) {
    static const char *const langs[] = {"en", "zh"};
    char variants[1024];
    claims_chapter_variants(vr->cx->paths.data, l->number, variants, sizeof variants);
    char *notes = NULL;
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        char path[1400], name[64];
        size_t len = 0;
        lesson_text_path(l, langs[i], path, sizeof path);
        char *md = util_read_file(path, &len);
        if (!md) continue; /* the text check names it */
        snprintf(name, sizeof name, "lesson.%s.md", langs[i]);
        bad += claims_check_lesson(name, md, len, variants, &notes);
        free(md);
    }
    if (bad)
        result(vr, 0, "claims", notes, P_("%d sentence the repository cannot back:",
                                          "%d sentences the repository cannot back:", (unsigned long long)bad), bad);
    else
        result(vr, 1, "claims", NULL, "%s",
               variants[0] ? _("no design notes cited; no variant in bench/variants/ called lost")
                           : _("no design notes cited"));
    free(notes);
}

/* ---- kernels */

/* Runs one file on one size, correctness only. Sets vr->fatal on a device or usage problem. */
static void run_one(validate_run *vr, const lesson *l, const char *path, const char *size, engine_report *rep) {
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = l;
    rq.kernel_path = path;
    rq.device_spec = vr->device;
    rq.size_spec = size;
    rq.seed = 1;
    rq.timeout_s = vr->timeout;
    rq.budget_s = 0;
    engine_run(&rq, cli_on_progress, &vr->live, NULL, rep);
    cli_clear_status(&vr->live);
    if (rep->status == ENG_NO_DEVICE) vr->fatal = EXIT_NO_DEVICE;
    else if (rep->bad_device_spec) vr->fatal = EXIT_USAGE;
}

/* A short account of a failed run: the engine's message and the first build errors. */
static void failure_notes(char **notes, const char *size, const engine_report *rep) {
    note(notes, "%s: %s: %s", size, _(rep->headline), rep->message);
    if (rep->status == ENG_BUILD && rep->build_log) {
        const char *p = rep->build_log;
        for (int n = 0; n < 6 && *p; n++) {
            const char *eol = strchr(p, '\n');
            int len = eol ? (int)(eol - p) : (int)strlen(p);
            note(notes, "  %.*s", len, p);
            p = eol ? eol + 1 : p + len;
        }
    }
}

static void check_reference(validate_run *vr, const lesson *l) {
    char path[1400];
    paths_solution(&vr->cx->paths, l, path, sizeof path);
    char *notes = NULL;
    int passed = 0;
    for (int t = 0; t < l->n_check_sizes && !vr->fatal; t++) {
        engine_report rep;
        run_one(vr, l, path, l->check_sizes[t], &rep);
        engine_status st = rep.status;
        if (st == ENG_PASS) passed++;
        else failure_notes(&notes, rep.size_text[0] ? rep.size_text : l->check_sizes[t], &rep);
        engine_report_free(&rep);
        if (st == ENG_BUILD) break;
    }
    if (vr->fatal) {
        free(notes);
        return;
    }
    if (notes) result(vr, 0, "reference", notes, "%s", _("the reference solution fails visible tests:"));
    else result(vr, 1, "reference", NULL, _("passes all %d visible tests"), passed);
    free(notes);
}

/* The figures a student install uses in place of the previous chapter's
 * reference (see VERDICT_PREVIOUS_FIGURES): measured afresh, then compared
 * with the committed file or written. */
static void check_figures(validate_run *vr, const lesson *l) {
    technique_check tq[TECHNIQUE_MAX];
    char err[512], path[1400], ref[1400];
    int nq = technique_parse(lesson_param_get(l, "technique", ""), tq, TECHNIQUE_MAX, err, sizeof err), wants = 0;
    for (int i = 0; i < nq; i++) wants |= technique_needs_previous(&tq[i]);
    const lesson *prev = l->previous > 0 ? catalog_by_number(&vr->cx->cat, l->previous) : NULL;
    if (!wants || !prev) return;
    snprintf(path, sizeof path, "%s/" VERDICT_PREVIOUS_FIGURES, l->dir);
    paths_solution(&vr->cx->paths, prev, ref, sizeof ref);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = prev;
    rq.kernel_path = rq.display_path = ref;
    rq.size_spec = gpumodel_analysis_size(l, NULL);
    rq.device_spec = vr->device;
    rq.timeout_s = 120;
    gpumodel_report gm;
    gpumodel_analyze_figures(&rq, cli_on_progress, &vr->live, NULL, &gm);
    cli_clear_status(&vr->live);
    technique_baseline now = technique_baseline_of(&gm), committed;
    if (gm.status == GM_UNAVAILABLE) result(vr, 1, "figures", NULL, _("not measured here: %s"), gm.message);
    else if (!now.known) result(vr, 0, "figures", NULL, _("chapter %d's reference could not be analysed: %s"), prev->number,
                                gm.message);
    else if (vr->write_figures)
        result(vr, technique_baseline_save(path, &now, prev->id) == 0, "figures", NULL, _("wrote %s (%s)"), path, now.size);
    else if (technique_baseline_load(path, &committed, err, sizeof err) != 0)
        result(vr, 0, "figures", NULL, _("%s; write it with `cltutor validate %d --write-figures`"), err, l->number);
    else if (strcmp(committed.size, now.size) || committed.global_load_bytes != now.global_load_bytes ||
             committed.load_requests != now.load_requests)
        result(vr, 0, "figures", NULL, _("%s says %s: %.0f bytes, %.0f requests; chapter %d's reference now loads %.0f "
               "bytes in %.0f requests at %s: write it afresh with `cltutor validate %d --write-figures`"), path,
               committed.size, committed.global_load_bytes, committed.load_requests, prev->number,
               now.global_load_bytes, now.load_requests, now.size, l->number);
    else result(vr, 1, "figures", NULL, _("%s matches chapter %d's reference"), VERDICT_PREVIOUS_FIGURES, prev->number);
    gpumodel_report_free(&gm);
}

/* The reference's cost at the chapter's analysis size (VERDICT_REFERENCE_COST),
 * for installs without the reference: measured afresh, then compared with the
 * committed file or written. */
static void check_cost_figures(validate_run *vr, const lesson *l) {
    technique_check tq[TECHNIQUE_MAX];
    char err[512], path[1400], ref[1400];
    int nq = technique_parse(lesson_param_get(l, "technique", ""), tq, TECHNIQUE_MAX, err, sizeof err), wants = 0;
    for (int i = 0; i < nq; i++) wants |= technique_needs_reference(&tq[i]);
    if (!wants) return;
    snprintf(path, sizeof path, "%s/" VERDICT_REFERENCE_COST, l->dir);
    gp_profile prof;
    if (paths_solution(&vr->cx->paths, l, ref, sizeof ref) != 0 || verdict_cost_profile(l, &prof, err, sizeof err) != 0) {
        result(vr, 0, "figures", NULL, _("the reference's cost cannot be modelled: %s"), err);
        return;
    }
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = l;
    rq.kernel_path = rq.display_path = ref;
    rq.size_spec = gpumodel_analysis_size(l, NULL);
    rq.device_spec = vr->device;
    rq.timeout_s = 120;
    gpumodel_report gm;
    gpumodel_analyze_figures(&rq, cli_on_progress, &vr->live, NULL, &gm);
    cli_clear_status(&vr->live);
    gm_cost_figures now, committed;
    memset(&now, 0, sizeof now);
    util_copy_text(now.size, sizeof now.size, gm.size_text);
    if (gm.status == GM_UNAVAILABLE) result(vr, 1, "figures", NULL, _("not measured here: %s"), gm.message);
    else if (gm.status != GM_OK || gm_cost_of(&gm, l, &prof, &now.cost, err, sizeof err) != 0)
        result(vr, 0, "figures", NULL, _("chapter %d's reference could not be analysed: %s"), l->number,
               gm.status != GM_OK ? gm.message : err);
    else if (vr->write_figures)
        result(vr, gm_cost_save(path, &now, l->id) == 0, "figures", NULL, _("wrote %s (%s)"), path, now.size);
    else if (gm_cost_load(path, &committed, err, sizeof err) != 0)
        result(vr, 0, "figures", NULL, _("%s; write it with `cltutor validate %d --write-figures`"), err, l->number);
    else if (strcmp(committed.size, now.size) || fabs(committed.cost.total_s / now.cost.total_s - 1) > 1e-4)
        result(vr, 0, "figures", NULL, _("%s says %s: %.6g s; the reference now costs %.6g s at %s: write it afresh "
               "with `cltutor validate %d --write-figures`"), path, committed.size, committed.cost.total_s,
               now.cost.total_s, now.size, l->number);
    else result(vr, 1, "figures", NULL, _("%s matches the chapter's reference"), VERDICT_REFERENCE_COST);
    gpumodel_report_free(&gm);
}

static void check_starting(validate_run *vr, const lesson *l) {
    char path[1400];
    paths_starting(&vr->cx->paths, l, path, sizeof path);
    char *notes = NULL;
    int wrong = 0, correct = 0;
    for (int t = 0; t < l->n_check_sizes && !vr->fatal; t++) {
        engine_report rep;
        run_one(vr, l, path, l->check_sizes[t], &rep);
        engine_status st = rep.status;
        if (st == ENG_PASS) correct++;
        else if (st == ENG_WRONG) wrong++;
        else failure_notes(&notes, rep.size_text[0] ? rep.size_text : l->check_sizes[t], &rep);
        engine_report_free(&rep);
        if (st == ENG_BUILD) break;
    }
    if (vr->fatal) {
        free(notes);
        return;
    }
    if (notes)
        result(vr, 0, "starting file", notes, _("%s must build and run (a wrong answer is fine):"), l->exercise);
    else if (wrong)
        result(vr, 1, "starting file", NULL, _("builds and runs; wrong on %d of %d tests, as a starting point should be"),
               wrong, wrong + correct);
    else
        result(vr, 0, "starting file", NULL, _("%s already passes all %d visible tests: a starting file leaves the "
               "chapter's work to the learner"), l->exercise, correct);
    free(notes);
}

static void check_bug(validate_run *vr, const lesson *l, const lesson_bug *bug) {
    char path[1400], ref[1400], name[64];
    snprintf(path, sizeof path, "%s/exercises/%s/%s", vr->cx->paths.data, l->id, bug->file);
    paths_solution(&vr->cx->paths, l, ref, sizeof ref);
    snprintf(name, sizeof name, "bug %s", bug->name);
    engine_report rep, fix;
    run_one(vr, l, path, bug->exposes, &rep);
    if (vr->fatal) {
        engine_report_free(&rep);
        return;
    }
    run_one(vr, l, ref, bug->exposes, &fix);
    if (vr->fatal) {
        engine_report_free(&rep);
        engine_report_free(&fix);
        return;
    }
    const char *size = rep.size_text[0] ? rep.size_text : bug->exposes;
    char *notes = NULL;
    int shows = rep.status == ENG_WRONG || rep.status == ENG_CRASH || rep.status == ENG_RUNTIME;
    if (rep.status == ENG_PASS)
        note(&notes, _("%s passes on %s: the bug does not show there; choose an input that exposes it"), bug->file, size);
    else if (rep.status == ENG_TIMEOUT)
        note(&notes, _("%s hangs on %s: a listing must fail with a wrong result or a crash, never a hang"), bug->file, size);
    else if (!shows)
        failure_notes(&notes, size, &rep);
    if (fix.status != ENG_PASS) {
        note(&notes, _("the reference solution does not pass %s:"), size);
        failure_notes(&notes, size, &fix);
    }
    if (notes) result(vr, 0, name, notes, _("%s on %s:"), bug->file, size);
    else result(vr, 1, name, NULL, _("%s fails on %s (%s); the reference passes it"), bug->file, size, _(rep.headline));
    free(notes);
    engine_report_free(&rep);
    engine_report_free(&fix);
}

static void validate_lesson(validate_run *vr, const lesson *l) {
    const report_style *st = &vr->style;
    fputs(st->color ? "\033[1m" : "", stdout);
    printf(_("Chapter %d (%s): %s"), l->number, l->id, cli_title(l));
    printf("%s\n", st->color ? "\033[0m" : "");
    fflush(stdout);
    int meta_ok = check_metadata(vr, l);
    check_texts(vr, l);
    check_hints(vr, l);
    check_sources(vr, l);
    check_claims(vr, l);
    if (vr->static_only) return;
    if (!meta_ok) {
        result(vr, 0, "kernels", NULL, "%s", _("not run: fix the metadata first"));
        return;
    }
    check_reference(vr, l);
    if (!vr->fatal) check_starting(vr, l);
    for (int b = 0; b < l->n_bugs && !vr->fatal; b++) check_bug(vr, l, &l->bugs[b]);
    if (!vr->fatal) check_figures(vr, l);
    if (!vr->fatal) check_cost_figures(vr, l);
}

/* Chapters that did not load at all: one failed metadata check each. */
static void report_skipped(validate_run *vr, const char *only) {
    const catalog *c = &vr->cx->cat;
    const char *p = c->skipped;
    while (*p) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p);
        char line[1100];
        snprintf(line, sizeof line, "%.*s", len, p);
        p = eol ? eol + 1 : p + len;
        if (!line[0] || (only && !strstr(line, only))) continue;
        printf("%s%s%s\n", vr->style.color ? "\033[1m" : "", _("Chapter that did not load"),
               vr->style.color ? "\033[0m" : "");
        result(vr, 0, "metadata", NULL, "%s", line);
    }
}

/* The committed results the texts' figures are checked against: --results, else docs/results beside the course. */
static void load_results(validate_run *vr) {
    char dir[1400];
    if (vr->results_dir) util_copy_text(dir, sizeof dir, vr->results_dir);
    else if (util_pathf(dir, sizeof dir, "%s/docs/results", vr->cx->paths.data) || !util_is_dir(dir)) {
        util_errf(vr->results_err, sizeof vr->results_err, _("no docs/results/ beside the course in %s; give --results DIR"),
                  vr->cx->paths.data);
        return;
    }
    vr->have_results = figsource_index_load(&vr->results, dir, vr->results_err, sizeof vr->results_err) == 0;
}

int cmd_validate(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {{"device", required_argument, 0, 'd'},
                                         {"timeout", required_argument, 0, 't'},
                                         {"static", no_argument, 0, 's'},
                                         {"write-figures", no_argument, 0, 'W'},
                                         {"results", required_argument, 0, 'r'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    validate_run vr = {.cx = cx, .timeout = 20};
    int ch;
    while ((ch = getopt_long(argc, argv, "d:t:sWr:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': vr.device = optarg; break;
        case 't':
            if (cli_parse_double("validate", "--timeout", optarg, 0.1, 3600, &vr.timeout)) return EXIT_USAGE;
            break;
        case 's': vr.static_only = 1; break;
        case 'W': vr.write_figures = 1; break;
        case 'r': vr.results_dir = optarg; break;
        case 'h': printf(_(validate_usage), VERDICT_PREVIOUS_FIGURES, VERDICT_PREVIOUS_FIGURES); return 0;
        default: return cli_usage_error("validate", _("unknown option %s"), argv[optind - 1]);
        }
    }
    int rc = cli_load_course(cx);
    if (rc) return rc;
    if (!paths_have_solutions(&cx->paths)) {
        fputs("cltutor validate: ", stderr);
        fprintf(stderr, _("this install has no reference solutions (%s/kernels/): validate a "
                "source checkout or an instructor's install\n"), cx->paths.data);
        return EXIT_USAGE;
    }
    int selected[CATALOG_MAX];
    int n_selected = cli_select_lessons(cx, "validate", argc - optind, argv + optind, selected);
    if (n_selected < 0) return EXIT_USAGE;
    load_results(&vr);
    if (vr.results_dir && !vr.have_results) {
        fprintf(stderr, "cltutor validate: --results %s: %s\n", vr.results_dir, vr.results_err);
        return EXIT_USAGE;
    }
    vr.style = report_style_for(stdout);
    vr.live.enabled = isatty(2);
    for (int i = 0; i < cx->cat.count && !vr.fatal; i++) {
        const lesson *l = &cx->cat.items[i];
        if (selected[i]) validate_lesson(&vr, l);
    }
    if (n_selected == cx->cat.count) report_skipped(&vr, NULL);
    if (vr.fatal == EXIT_NO_DEVICE)
        fprintf(stderr, "cltutor validate: %s\n", _("no usable OpenCL device; use --static to check the texts alone"));
    else if (vr.fatal)
        fprintf(stderr, "cltutor validate: %s\n", _("the device given with --device cannot be used"));
    printf(_("\n%d passed, %d failed\n"), vr.passed, vr.failed);
    figsource_index_free(&vr.results);
    if (vr.fatal) return vr.fatal;
    return vr.failed ? EXIT_WRONG : 0;
}
