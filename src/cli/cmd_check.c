/* check: the learner's exercises against the visible tests */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "run/engine.h"
#include "run/wproto.h"
#include "run/report.h"
#include "base/util.h"
#include "grade/verdict.h"
#include "text/i18n.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const check_usage = N_(
    "Usage: cltutor check [LESSON...|all] [--kernel FILE | --solution] [--device SPEC]\n"
    "                     [--timeout SEC] [--json]\n"
    "\n"
    "Runs your exercises for the chapters named (default: every chapter; one you\n"
    "have not touched is checked but not marked failing) through the chapter's\n"
    "whole verdict, as the course and the grader decide it:\n"
    "  tests      correct at every visible size and input (ragged sizes, length 1,\n"
    "             the chapter's own size, the inputs that expose each listing's bug)\n"
    "  safety     no data race, memory error, uninitialised __local read or\n"
    "             divergent barrier when Oclgrind simulates it (a CPU hides races)\n"
    "  technique  what the chapter teaches, measured on your kernel by the GPU\n"
    "             memory model (coalesced loads, float4 loads, __local reuse, ...)\n"
    "A chapter passes only when all three hold. Its find-the-bug listings are\n"
    "checked too, first on the input that exposes their bug.\n"
    "\n"
    "  --device SPEC    an index from `cltutor devices` or part of a device name\n"
    "  --kernel FILE    check this file instead of your exercise (one chapter only)\n"
    "  --solution       check the reference solutions\n"
    "  --timeout SEC    per test (default 10)\n"
    "  --json           print the results as JSON\n"
    "\n"
    "Exit status: 0 when every test passes, 1 when any fails, 64 usage error,\n"
    "69 no usable OpenCL device.\n");

typedef struct {
    cli_ctx *cx;
    const char *device;
    double timeout;
    int json;
    report_style style;
    cli_live_status live;
    cJSON *results;
    int total, passed, fatal;
} check_run;

/* The start of a result's line: "    ok   NAME                   ", the mark
 * coloured, both in columns whatever the language. */
static void print_mark(const report_style *st, const char *mark, const char *colour, const char *name) {
    printf("    %s", st->color ? colour : "");
    cli_cell(stdout, mark, -4);
    printf("%s ", st->color && *colour ? "\033[0m" : "");
    cli_cell(stdout, name, -22);
    putchar(' ');
}

/* Prints (or adds to the JSON) one size's result; returns its exit code. */
static int show_result(check_run *cr, const lesson *l, const char *path, const char *label, const char *size,
                       const engine_report *rep) {
    cr->total++;
    int ok = rep->status == ENG_PASS;
    cr->passed += ok;
    int code = engine_exit_code(rep->status);
    if (code == EXIT_USAGE || code == EXIT_NO_DEVICE) cr->fatal = code;
    if (cr->json) {
        cJSON *o = report_json(l, path, rep);
        cJSON_AddStringToObject(o, "test", size);
        cJSON_AddStringToObject(o, "label", label);
        cJSON_AddItemToArray(cr->results, o);
        return code;
    }
    const report_style *st = &cr->style;
    print_mark(st, ok ? _("ok") : _("FAIL"), ok ? "\033[32m" : "\033[31m", rep->size_text[0] ? rep->size_text : size);
    if (ok) printf("%s\n", _(rep->headline));
    else printf(_("%s: %s\n"), _(rep->headline), rep->message);
    if (rep->status == ENG_WRONG) report_print_diff(stdout, st, &rep->verify, 6);
    if (rep->status == ENG_BUILD && rep->build_log) printf("%s\n", rep->build_log);
    return code;
}

/* Runs one kernel file over a list of size specs (the first alone: it
 * builds the kernel; the others in one worker); returns 1 if all pass. */
static int check_file(check_run *cr, const lesson *l, const char *path, const char *label,
                      const char *const *sizes, int n_sizes) {
    int all_ok = 1;
    if (!cr->json) printf("  %s\n", label);
    engine_request *rqs = calloc((size_t)(n_sizes ? n_sizes : 1), sizeof *rqs);
    engine_report *reps = calloc((size_t)(n_sizes ? n_sizes : 1), sizeof *reps);
    if (!rqs || !reps) n_sizes = 0, all_ok = 0, cr->fatal = EXIT_CRASH;
    for (int t = 0; t < n_sizes; t++) {
        engine_request_defaults(&rqs[t]);
        rqs[t].lesson = l;
        rqs[t].kernel_path = path;
        rqs[t].device_spec = cr->device;
        rqs[t].size_spec = sizes[t];
        rqs[t].seed = (uint64_t)(t + 1);
        rqs[t].timeout_s = cr->timeout;
        rqs[t].budget_s = 0;
    }
    for (int t = 0; t < n_sizes;) {
        int done = engine_run_set(&rqs[t], t == 0 ? 1 : n_sizes - t, cli_on_progress, &cr->live, NULL, reps);
        cli_clear_status(&cr->live);
        int stop = 0;
        for (int k = 0; k < done; k++) {
            int code = show_result(cr, l, path, label, sizes[t + k], &reps[k]);
            all_ok &= reps[k].status == ENG_PASS;
            engine_report_free(&reps[k]);
            stop |= code == EXIT_BUILD || code == EXIT_USAGE || code == EXIT_NO_DEVICE;
        }
        t += done;
        if (stop && t < n_sizes) { /* every other size would fail the same way */
            for (int k = t; k < n_sizes; k++) cr->total++;
            all_ok = 0;
            break;
        }
    }
    free(rqs);
    free(reps);
    return all_ok;
}

typedef struct {
    check_run *cr;
    const lesson *l;
    const char *path;
    const char *label;
} verdict_print;

/* name without a leading "WORD: " (or "WORD："), which the column before it already says */
static const char *after_word(const char *name, const char *word) {
    size_t n = strlen(word);
    if (strncmp(name, word, n) != 0) return name;
    if (!strncmp(name + n, ": ", 2)) return name + n + 2;
    if (!strncmp(name + n, "\xef\xbc\x9a", 3)) return name + n + 3; /* a full-width colon */
    return name;
}

static void on_verdict_item(void *user, const verdict *v, int index, const engine_report *rep) {
    verdict_print *vp = user;
    check_run *cr = vp->cr;
    const verdict_item *it = &v->items[index];
    cli_clear_status(&cr->live);
    int ok = it->outcome == VO_PASS, skip = it->outcome == VO_SKIP;
    cr->total += !skip;
    cr->passed += ok;
    if (rep) {
        int code = engine_exit_code(rep->status);
        if (code == EXIT_USAGE || code == EXIT_NO_DEVICE) cr->fatal = code;
    }
    if (cr->json) {
        cJSON *o = rep ? report_json(vp->l, vp->path, rep) : cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", verdict_kind_name(it->kind));
        cJSON_AddStringToObject(o, "id", it->id);
        cJSON_AddStringToObject(o, "test", it->size[0] ? it->size : it->id);
        cJSON_AddStringToObject(o, "label", vp->label);
        cJSON_AddStringToObject(o, "outcome", verdict_outcome_name(it->outcome));
        if (!rep) {
            cJSON_AddStringToObject(o, "lesson", vp->l->id);
            cJSON_AddNumberToObject(o, "chapter", vp->l->number);
            cJSON_AddStringToObject(o, "status", verdict_outcome_name(it->outcome));
            cJSON_AddStringToObject(o, "headline", it->headline);
            cJSON_AddStringToObject(o, "message", it->detail);
            if (it->line) cJSON_AddNumberToObject(o, "line", it->line);
        }
        cJSON_AddItemToArray(cr->results, o);
        return;
    }
    const report_style *st = &cr->style;
    const char *mark = ok ? _("ok") : skip ? _("skip") : _("FAIL");
    const char *colour = ok ? "\033[32m" : skip ? "\033[33m" : "\033[31m";
    const char *what = it->kind == VK_TEST ? it->size : it->kind == VK_SAFETY ? _("race check")
                     : it->kind == VK_OWN ? _("own kernel") : _("technique");
    print_mark(st, mark, colour, what);
    char name[256], head[256];
    verdict_item_name(it, name, sizeof name);
    verdict_headline(it->headline, head, sizeof head);
    if (it->kind != VK_TEST) printf(_("%s: %s\n"), after_word(name, what), head);
    else if (!ok) printf(_("%s: %s\n"), head, it->detail);
    else printf("%s\n", head);
    /* why a check could not run here is the same for each: said once a chapter */
    int first_skip = 1;
    for (int i = 0; i < index && skip; i++) first_skip &= v->items[i].outcome != VO_SKIP;
    if (it->kind != VK_TEST && !ok && (!skip || first_skip)) printf("         %s\n", it->detail);
    if (rep && rep->status == ENG_WRONG) report_print_diff(stdout, st, &rep->verify, 6);
    if (rep && rep->status == ENG_BUILD && rep->build_log) printf("%s\n", rep->build_log);
}

/* A fixed listing counts only as the shipped listing with its bug mended. */
static void check_fix_is_edit(check_run *cr, const lesson *l, const lesson_bug *bug, const char *path) {
    char shipped[1400];
    snprintf(shipped, sizeof shipped, "%s/exercises/%s/%s", cr->cx->paths.data, l->id, bug->file);
    char *listing = util_read_file(shipped, NULL), *fixed = util_read_file(path, NULL);
    int dist = listing && fixed ? verdict_fix_distance(listing, fixed) : -1;
    int allowed = verdict_fix_allowed(bug);
    cr->total++;
    const report_style *st = &cr->style;
    if (dist >= 0 && dist <= allowed) {
        cr->passed++;
        if (!cr->json) {
            print_mark(st, _("ok"), "", _("a fix, not a rewrite"));
            printf(P_("%d code line changed (at most %d)\n", "%d code lines changed (at most %d)\n",
                      (unsigned long long)dist), dist, allowed);
        }
    } else if (!cr->json) {
        print_mark(st, _("FAIL"), "", _("a fix, not a rewrite"));
        printf(_("%d code lines differ from the shipped listing; a fix of this bug changes at most %d.\n"), dist,
               allowed);
        printf("         %s\n", _("Find the bug in the listing and mend it there, rather than replacing the listing."));
    }
    free(listing);
    free(fixed);
}

/* The learner has worked on the chapter: run it before, or changed its
 * file, whose text is mine (a bare `check` of chapters never opened records nothing). */
static int worked_on(cli_ctx *cx, const lesson *l, const char *mine) {
    int changed = !paths_is_starting_text(&cx->paths, l, NULL, mine);
    const progress_chapter *pc = progress_get(&cx->prog, l->id, 0);
    return changed || (pc && pc->n_runs > 0);
}

/* A passing text is kept; a failing one of a chapter passed before is told where the passing one is. */
static void passed_before(cli_ctx *cx, const lesson *l, int passed, const char *text, int json) {
    char kept[1400];
    paths_passed_copy(&cx->paths, l, kept, sizeof kept);
    const progress_chapter *pc = progress_get(&cx->prog, l->id, 0);
    if (passed) paths_keep_passed(&cx->paths, l, text);
    else if (!json && pc && pc->ever_passed && util_is_file(kept))
        printf(_("    You passed this chapter before with another text; the one that passed is kept in %s.\n"), kept);
}

/* The exercise through the whole verdict; returns 1 when nothing failed (checks
 * that could not run here aside), with *passed set when the chapter passes. */
static int check_verdict(check_run *cr, const lesson *l, const char *path, const char *label, int *passed,
                         progress_run *run) {
    *passed = 0;
    verdict v;
    char err[1024];
    if (verdict_plan(l, &v, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor check: %s\n", err);
        cr->fatal = EXIT_USAGE;
        return 0;
    }
    if (!cr->json) printf("  %s\n", label);
    verdict_request vq = {.lesson = l, .kernel_path = path, .display_path = path, .device_spec = cr->device,
                          .timeout_s = cr->timeout};
    char prev_ref[1400];
    const lesson *prev = l->previous > 0 ? catalog_by_number(&cr->cx->cat, l->previous) : NULL;
    if (prev && !strcmp(prev->problem, l->problem) && paths_solution(&cr->cx->paths, prev, prev_ref, sizeof prev_ref) == 0) {
        vq.previous = prev;
        vq.previous_reference = prev_ref;
    }
    verdict_print vp = {.cr = cr, .l = l, .path = path, .label = label};
    verdict_run(&vq, &v, cli_on_progress, &cr->live, on_verdict_item, &vp, NULL);
    cli_clear_status(&cr->live);
    if (!cr->json) {
        if (v.passed) printf("    %s\n", _("Chapter passed: every test, the race check and the technique."));
        else if (v.failed || v.cancelled) printf("    %s\n", _("Chapter not passed yet: every line above must say ok."));
        else fputs(_("    Every test passed, but the race check and the technique could not be checked here\n"
                     "    (they need Oclgrind: sh scripts/deps.sh build installs it), so the chapter is not\n"
                     "    marked passed.\n"), stdout);
    }
    *passed = v.passed;
    verdict_to_progress(&v, run);
    run->passed = 1;
    for (int i = 0; i < v.n; i++)
        if (v.items[i].kind == VK_TEST && v.items[i].outcome != VO_PASS && run->passed) {
            run->passed = 0;
            snprintf(run->status, sizeof run->status, "%s", engine_status_name(v.items[i].status));
        }
    if (run->passed) snprintf(run->status, sizeof run->status, "%s", engine_status_name(ENG_PASS));
    return !v.failed && !v.cancelled;
}

/* Compiles the files about to be checked in one worker first (wproto_build):
 * the runtime's compiler then starts once, not once a file. A file it could
 * not build, or one the cache already holds, its own checks build. */
static void build_ahead(cli_ctx *cx, const check_run *cr, const int *selected, int solution) {
    enum { MAX_FILES = CATALOG_MAX * (LESSON_MAX_BUGS + 1), PATH_LEN = 1400 };
    char *paths = malloc((size_t)MAX_FILES * PATH_LEN), err[PATH_LEN];
    wproto_build_item *items = malloc(MAX_FILES * sizeof *items);
    int n = 0;
    for (int i = 0; paths && items && i < cx->cat.count; i++) {
        const lesson *l = &cx->cat.items[i];
        for (int b = -1; selected[i] && b < (solution ? 0 : l->n_bugs); b++) {
            char *path = paths + (size_t)n * PATH_LEN;
            int found = solution ? cx->cfg.solutions_shown && paths_solution(&cx->paths, l, path, PATH_LEN) == 0
                                 : paths_exercise_file(&cx->paths, l, b < 0 ? l->exercise : l->bugs[b].file, path,
                                                       PATH_LEN, err, sizeof err) == 0;
            if (found) items[n++] = (wproto_build_item){.lesson = l, .kernel_path = path};
        }
    }
    if (n > 1) wproto_build(items, n, cr->device, NULL, 0, 0, NULL, err, sizeof err);
    free(paths);
    free(items);
}

int cmd_check(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'}, {"kernel", required_argument, 0, 'k'},
        {"json", no_argument, 0, 'j'},         {"solution", no_argument, 0, 'R'},
        {"timeout", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    check_run cr = {.cx = cx, .timeout = 10};
    const char *kernel = NULL;
    int solution = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "d:k:jRt:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': cr.device = optarg; break;
        case 'k': kernel = optarg; break;
        case 'j': cr.json = 1; break;
        case 'R': solution = 1; break;
        case 't':
            if (cli_parse_double("check", "--timeout", optarg, 0.1, 3600, &cr.timeout)) return EXIT_USAGE;
            break;
        case 'h': fputs(_(check_usage), stdout); return 0;
        default: return cli_usage_error("check", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (kernel && solution) return cli_usage_error("check", "%s", _("--kernel and --solution cannot be used together"));
    cr.device = cli_device(cx, cr.device);
    int rc = cli_load_course(cx);
    if (rc) return rc;
    int selected[CATALOG_MAX];
    int n_selected = cli_select_lessons(cx, "check", argc - optind, argv + optind, selected);
    if (n_selected < 0) return EXIT_USAGE;
    if (kernel && (n_selected != 1 || optind >= argc))
        return cli_usage_error("check", "%s",
                               _("--kernel needs exactly one chapter, as in `cltutor check 3 --kernel FILE`"));
    /* chapters named one by one are the learner's to judge; `check` or
     * `check all` judges only those the learner has worked on */
    int named = optind < argc && strcmp(argv[optind], "all") != 0;
    cr.style = report_style_for(stdout);
    cr.live.enabled = !cr.json && isatty(2);
    cr.results = cJSON_CreateArray();
    if (!kernel) build_ahead(cx, &cr, selected, solution);
    for (int i = 0; i < cx->cat.count && !cr.fatal; i++) {
        const lesson *l = &cx->cat.items[i];
        if (!selected[i]) continue;
        char path[1400], err[1400];
        if (kernel) snprintf(path, sizeof path, "%s", kernel);
        else if (solution) {
            if (cli_solution_path(cx, "check", l, path, sizeof path) != 0) return EXIT_USAGE;
        } else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
            fprintf(stderr, "cltutor check: %s\n", err);
            return EXIT_USAGE;
        }
        if (!cr.json)
        {
            fputs(cr.style.color ? "\033[1m" : "", stdout);
            printf(_("Chapter %d: %s"), l->number, cli_title(l));
            printf("%s\n", cr.style.color ? "\033[0m" : "");
        }
        char label[512];
        snprintf(label, sizeof label, "%s", kernel ? kernel : solution ? _("reference solution") : l->exercise);
        int chapter_ok = 0;
        /* the text checked, read before the checks: the learner may save meanwhile */
        char *text = util_read_file(path, NULL);
        progress_run pr = {.when = (double)time(NULL), .origin = FROM_CHECK, .file_hash = util_hash_text(text)};
        check_verdict(&cr, l, path, label, &chapter_ok, &pr);
        /* find-the-bug listings: the exposing input first, then the usual tests */
        for (int b = 0; b < l->n_bugs && !kernel && !cr.fatal; b++) {
            const lesson_bug *bug = &l->bugs[b];
            char bpath[1400];
            if (solution) cli_solution_path(cx, "check", l, bpath, sizeof bpath);
            else if (paths_exercise_file(&cx->paths, l, bug->file, bpath, sizeof bpath, err, sizeof err) != 0) {
                fprintf(stderr, "cltutor check: %s\n", err);
                free(text);
                return EXIT_USAGE;
            }
            const char *bsizes[LESSON_MAX_SIZES + 1];
            bsizes[0] = bug->exposes;
            int nb = 1;
            for (int t = 0; t < l->n_check_sizes && t < LESSON_MAX_SIZES; t++)
                if (strcmp(l->check_sizes[t], bug->exposes) != 0) bsizes[nb++] = l->check_sizes[t]; /* once each */
            const char *btitle = !strcmp(i18n_lang(), "zh") && bug->title_zh[0] ? bug->title_zh : bug->title;
            snprintf(label, sizeof label, _("find the bug: %s (%s)"), btitle[0] ? btitle : bug->name,
                     solution ? _("reference solution") : bug->file);
            int fixed = check_file(&cr, l, bpath, label, bsizes, nb);
            if (fixed && !solution) check_fix_is_edit(&cr, l, bug, bpath);
        }
        if (!kernel && !solution && (named || worked_on(cx, l, text))) {
            progress_record_verdict(&cx->prog, l->id, &pr);
            passed_before(cx, l, chapter_ok, text, cr.json);
        }
        free(text);
    }
    if (!kernel && !solution) cli_save_progress(cx);
    if (cr.json) cli_print_json(cr.results);
    else printf(_("\n%d passed, %d failed\n"), cr.passed, cr.total - cr.passed);
    cJSON_Delete(cr.results);
    if (cr.fatal) return cr.fatal;
    return cr.passed == cr.total ? 0 : EXIT_WRONG;
}
