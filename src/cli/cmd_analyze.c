/* analyze: what a GPU would see of a chapter's kernel (coalescing, bank conflicts, atomics), simulated by Oclgrind */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_predict.h"
#include "gpumodel/gm_draw.h"
#include "text/stext.h"
#include "course/paths.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const analyze_usage = N_(
    "Usage: cltutor analyze LESSON [--kernel FILE | --solution] [--size SPEC] [--no-compare]\n"
    "                              [--timeout SEC] [--json] [--draw [LINE]]\n"
    "                              [--gpu GPU | --no-predict]\n"
    "                              [--groups N [--in-order] [--seed N]]\n"
    "\n"
    "Runs a chapter's kernel on Oclgrind, an OpenCL simulator, and reports what a\n"
    "GPU would see of its memory accesses: for every load, store and atomic, the\n"
    "32-byte sectors each warp of 32 work-items touches (coalescing efficiency),\n"
    "local-memory bank conflicts, atomic contention and constant-memory broadcasts;\n"
    "then compares them with the previous chapter's reference (or, where that\n"
    "chapter solves another problem, with this chapter's starting file), and lists\n"
    "the memory errors, data races and uninitialised local reads the simulator found.\n"
    "See docs/gpu-model.md for what each figure means.\n"
    "\n"
    "  --kernel FILE    the .cl file to analyse (default: your exercise)\n"
    "  --solution       analyse the chapter's reference solution\n"
    "  --size SPEC      the problem size (default: the chapter's analysis_size, kept\n"
    "                   small because the simulator is about 1000x slower than a CPU)\n"
    "  --no-compare     skip the comparison\n"
    "  --timeout SEC    stop the simulation after SEC seconds (default 120)\n"
    "  --json           print the analysis as JSON\n"
    "  --draw [LINE]    draw what one warp does to memory instead of the report:\n"
    "                   the busiest instruction, or those at kernel line LINE; its\n"
    "                   lanes joined to the 32-byte sectors they touch (global and\n"
    "                   constant memory), stacked in the 32 banks (local memory) or\n"
    "                   grouped by address (atomics), barrier by barrier, and the\n"
    "                   compared kernel's matching instruction (before -> after).\n"
    "                   Colours on a terminal unless NO_COLOR is set\n"
    "                   (CLICOLOR_FORCE=1 forces them); fits COLUMNS (default 80)\n"
    "  --gpu GPU        the GPU whose time is predicted from the analysis: a profile\n"
    "                   in devices/ (nvidia-h100, the default, or nvidia-h200) or a\n"
    "                   file written by `cltutor bench --profile`\n"
    "  --no-predict     no predicted time\n"
    "  --groups N       simulate only N work-groups of each launch, spread from an\n"
    "                   offset (--seed draws it), and count their figures for all:\n"
    "                   a large size analysed in seconds. Its answer is wrong (the\n"
    "                   other groups never ran) and there is no race check or\n"
    "                   comparison; `cltutor run` at that size checks the answer\n"
    "  --in-order       with --groups: the first N work-groups, for kernels whose\n"
    "                   groups wait on earlier ones (a look-back)\n"
    "  --seed N         with --groups: draws which work-groups run\n"
    "\n"
    "Exit status: 0 analysed, 1 analysed and the simulator found memory errors,\n"
    "data races or uninitialised reads, 2 build error, 3 crash or timeout,\n"
    "64 usage error, 69 Oclgrind is not installed.\n");

/* Live status: the simulation and the comparison's. */
static void on_progress(void *user, const run_progress *p) {
    char label[128];
    if (p->phase == PHASE_QUEUE) {
        cli_on_progress(user, p);
        return;
    }
    if (p->phase == PHASE_RUN)
        snprintf(label, sizeof label, "%s",
                 p->comparison ? _("simulating the kernel to compare with on Oclgrind") : _("simulating the kernel on Oclgrind"));
    else if (p->comparison)
        snprintf(label, sizeof label, _("comparison: %s"), _(run_phase_label(p->phase)));
    else
        snprintf(label, sizeof label, "%s", _(run_phase_label(p->phase)));
    cli_show_status(user, label, p->done, p->elapsed_s);
}

/* The ANSI colour of a style role, for the drawing. */
static const char *ansi_of(int style) {
    switch (ST_ROLE(style)) {
    case ST_OK: return "\033[32m";
    case ST_ERR: return "\033[31m";
    case ST_WARN: case ST_NUMBER: return "\033[33m";
    case ST_DIM: return "\033[2m";
    case ST_LINK: return "\033[36m";
    case ST_KEYWORD: return "\033[35m";
    case ST_TYPE: return "\033[34m";
    case ST_STRING: return "\033[92m";
    case ST_BUILTIN: return "\033[95m";
    default: return "";
    }
}

/* Prints styled lines, coloured when color is set. */
static void print_doc(const st_doc *d, int color) {
    for (int i = 0; i < d->n; i++) {
        const st_line *l = &d->lines[i];
        if (!color) {
            printf("%s\n", st_line_text(l));
            continue;
        }
        for (int s = 0; s < l->n_spans; s++) {
            const st_span *sp = &l->spans[s];
            const char *c = ansi_of(sp->style);
            int bold = sp->style & ST_A_BOLD, on = *c || bold;
            printf("%s%s%.*s%s", bold ? "\033[1m" : "", c, sp->len, l->text + sp->off, on ? "\033[0m" : "");
        }
        putchar('\n');
    }
}

/* --draw: the picture of the busiest instruction, or of line's. Returns 0 when one was drawn. */
static int draw(const gpumodel_report *rep, int line) {
    const char *nc = getenv("NO_COLOR"), *force = getenv("CLICOLOR_FORCE"), *cols = getenv("COLUMNS");
    report_style st = report_style_for(stdout);
    int color = !(nc && *nc) && (st.color || (force && *force && strcmp(force, "0")));
    gm_draw_opts o = {80, 1};
    if (cols && atoi(cols) >= 40) o.width = atoi(cols);
    st_doc d;
    st_doc_init(&d);
    int n = gm_draw_line(&d, rep, line, &o);
    print_doc(&d, color);
    st_doc_free(&d);
    return n > 0 ? 0 : -1;
}

/* --draw's LINE (0: the busiest instruction), or -1 after a usage error. */
static int draw_line_of(const char *arg, int with_json) {
    if (with_json) return cli_usage_error("analyze", "%s", _("--draw and --json cannot be used together")), -1;
    if (!arg) return 0;
    char *end = NULL;
    long v = strtol(arg, &end, 10);
    if (!*arg || *end || v < 1 || v > 1000000)
        return cli_usage_error("analyze", _("--draw takes a kernel line number (1 or more), not '%s'"), arg), -1;
    return (int)v;
}

/* Analyses rq's kernel (compared when asked) into rep; returns its predicted
 * time (NULL: none asked, or no analysis). */
static gp_chapter *analyze_and_predict(cli_ctx *cx, const engine_request *rq, const gm_sampling *smp, int compare,
                                       int predict, const char *gpu, cli_live_status *ls, gpumodel_report *rep) {
    gpumodel_cache kept = {0}; /* the compared file's analysis, for its predicted time */
    if (smp->groups) {
        /* a full size is launched as on the GPU predicted for (its compute units), as the verdict's is */
        engine_request at_size = *rq;
        gp_profile prof;
        char path[1200], err[256];
        if (gp_profile_find(cx->paths.data, gpu ? gpu : GP_DEFAULT_GPU, path, sizeof path, err, sizeof err) == 0 &&
            gp_profile_load(path, &prof, err, sizeof err) == 0)
            at_size.compute_units = prof.compute_units;
        gpumodel_analyze_sampled(&at_size, smp, on_progress, ls, NULL, rep);
    }
    else gpumodel_analyze_chapter(rq, &cx->cat, &cx->paths, compare, &kept, on_progress, ls, NULL, rep);
    cli_clear_status(ls);
    gp_chapter *gp = predict && rep->status == GM_OK ? calloc(1, sizeof *gp) : NULL;
    if (gp) {
        /* the compiled code's unrolled loads, for the prediction's DRAM waits */
        gp_read_compiled_for(cx->paths.data, &cx->cat, gpu, rq->lesson, rep, kept.set ? &kept.rep : NULL);
        gp_chapter_predict(cx->paths.data, &cx->cat, gpu, rq->lesson, rep, kept.set ? &kept.rep : NULL, NULL, gp);
    }
    gpumodel_cache_free(&kept);
    return gp;
}

/* The predicted time, after the report; a missing default profile says nothing. */
static void print_prediction(const gp_chapter *gp, int asked) {
    char **lines;
    int n;
    if (gp && gp->ok && gp_lines(&gp->pr, gp->has_prev ? &gp->prev : NULL, gp->prev_label, &gp->prof, &lines, &n) == 0) {
        putchar('\n');
        for (int i = 0; i < n; i++) printf("%s\n", lines[i]);
        gp_lines_free(lines, n);
    } else if (gp && asked) {
        printf("\n%s %s\n", _("No predicted time:"), gp->err);
    }
}

/* Whether Oclgrind and the plugin are there; else says what to install. */
static int backend_found(gpumodel_report *rep, int json) {
    char icd[1024], plugin[1024];
    if (gpumodel_backend(icd, sizeof icd, plugin, sizeof plugin, rep->message, sizeof rep->message) == 0) return 1;
    rep->status = GM_UNAVAILABLE;
    if (json) {
        cJSON *o = gpumodel_json(rep);
        cli_print_json(o);
        cJSON_Delete(o);
    }
    fprintf(stderr, "cltutor analyze: %s\n", rep->message);
    return 0;
}

static int exit_code_for(const gpumodel_report *rep) {
    if (rep->status == GM_UNAVAILABLE) return EXIT_NO_DEVICE;
    if (rep->status == GM_FAILED) {
        int code = engine_exit_code(rep->run.status);
        return code == 0 || code == 1 ? EXIT_CRASH : code;
    }
    return gpumodel_has_errors(rep) ? EXIT_WRONG : EXIT_CORRECT;
}

/* --groups, --in-order and --seed as a sampling (gm_sample.h); -1 after a usage error. */
static int sampling_of(gm_sampling *smp, double groups, double draw_seed, int drawing) {
    smp->groups = (unsigned)groups;
    smp->draw = (uint64_t)draw_seed;
    if (!smp->groups && smp->in_order)
        return cli_usage_error("analyze", "%s", _("--in-order goes with --groups N")), -1;
    if (smp->groups && drawing)
        return cli_usage_error("analyze", "%s", _("--draw and --groups cannot be used together")), -1;
    return 0;
}

/* The file to analyse: --kernel's, the reference, or the learner's exercise; -1 after saying why. */
static int kernel_file(cli_ctx *cx, const lesson *l, const char *kernel, int solution, char *path, size_t len) {
    char err[1400];
    if (kernel) snprintf(path, len, "%s", kernel);
    else if (solution) return cli_solution_path(cx, "analyze", l, path, len) != 0 ? -1 : 0;
    else if (paths_exercise(&cx->paths, l, path, len, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor analyze: %s\n", err);
        return -1;
    }
    return 0;
}

int cmd_analyze(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"size", required_argument, 0, 's'},
        {"json", no_argument, 0, 'j'},         {"solution", no_argument, 0, 'R'},
        {"no-compare", no_argument, 0, 'C'},   {"timeout", required_argument, 0, 't'},
        {"draw", optional_argument, 0, 'D'},   {"help", no_argument, 0, 'h'},
        {"gpu", required_argument, 0, 'g'},    {"no-predict", no_argument, 0, 'P'},
        {"groups", required_argument, 0, 'G'}, {"in-order", no_argument, 0, 'O'},
        {"seed", required_argument, 0, 'S'},   {0, 0, 0, 0}};
    gm_sampling smp = {0};
    double groups = 0, draw_seed = 0;
    engine_request rq;
    engine_request_defaults(&rq);
    rq.timeout_s = 120;
    const char *kernel = NULL;
    int json = 0, solution = 0, compare = 1, ch, drawing = 0, draw_line = 0, predict = 1;
    const char *draw_arg = NULL, *gpu = NULL;
    while ((ch = getopt_long(argc, argv, "k:s:jRCt:g:Ph", opts, NULL)) != -1) {
        switch (ch) {
        case 'k': kernel = optarg; break;
        case 's': rq.size_spec = optarg; break;
        case 'j': json = 1; break;
        case 'R': solution = 1; break;
        case 'C': compare = 0; break;
        case 't':
            if (cli_parse_double("analyze", "--timeout", optarg, 1, 3600, &rq.timeout_s)) return EXIT_USAGE;
            break;
        case 'D': drawing = 1; draw_arg = optarg; break;
        case 'g': gpu = optarg; break;
        case 'P': predict = 0; break;
        case 'G':
            if (cli_parse_double("analyze", "--groups", optarg, 1, 64, &groups)) return EXIT_USAGE;
            break;
        case 'O': smp.in_order = 1; break;
        case 'S':
            if (cli_parse_double("analyze", "--seed", optarg, 0, 9007199254740991.0, &draw_seed)) return EXIT_USAGE;
            break;
        case 'h': fputs(_(analyze_usage), stdout); return 0;
        default: return cli_usage_error("analyze", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage_error("analyze", _("which chapter? Give its number or name, e.g. `cltutor %s %d`"), "analyze", 3);
    if (drawing && !draw_arg && optind + 2 == argc) draw_arg = argv[--argc]; /* --draw LINE */
    if (optind + 1 < argc) return cli_usage_error("analyze", _("unexpected argument '%s'"), argv[optind + 1]);
    if ((draw_line = draw_line_of(draw_arg, drawing && json)) < 0) return EXIT_USAGE;
    if (kernel && solution)
        return cli_usage_error("analyze", "%s", _("--kernel and --solution cannot be used together"));
    if (sampling_of(&smp, groups, draw_seed, drawing) != 0) return EXIT_USAGE;
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *l = cli_find_lesson(cx, "analyze", argv[optind]);
    if (!l) return EXIT_USAGE;

    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    if (!backend_found(&rep, json)) return EXIT_NO_DEVICE;

    char path[1400];
    if (kernel_file(cx, l, kernel, solution, path, sizeof path) != 0) return EXIT_USAGE;
    rq.lesson = l;
    rq.kernel_path = path;
    cli_live_status ls = {.enabled = !json && isatty(2)};
    gp_chapter *gp = analyze_and_predict(cx, &rq, &smp, compare, predict && !drawing, gpu, &ls, &rep);

    int code = exit_code_for(&rep);
    if (json) {
        cJSON *o = gpumodel_json(&rep);
        cJSON_AddStringToObject(o, "lesson", l->id);
        gp_chapter_add_json(o, gp, gpu != NULL);
        cli_print_json(o);
        cJSON_Delete(o);
    } else if (rep.status == GM_OK && drawing) {
        printf(_("Chapter %d: %s"), l->number, cli_title(l));
        printf("\n%s\n\n", rep.kernel_path);
        if (draw(&rep, draw_line) != 0 && code == EXIT_CORRECT) code = EXIT_USAGE;
    } else if (rep.status == GM_OK) {
        printf(_("Chapter %d: %s"), l->number, cli_title(l));
        putchar('\n');
        for (int i = 0; i < rep.n_lines; i++) printf("%s\n", rep.lines[i]);
        print_prediction(gp, gpu != NULL);
    } else if (rep.run.status == ENG_BUILD || rep.run.status == ENG_USAGE) {
        report_style st = report_style_for(stdout);
        report_print(stdout, &st, l, &rep.run);
    } else {
        printf(_("Chapter %d: %s"), l->number, cli_title(l));
        putchar('\n');
        printf(_("The GPU memory model could not analyse %s.\n"), path);
        printf("%s\n", rep.message);
        if (rep.run.worker_output) printf("\n%s\n%s\n", _("The simulator said:"), rep.run.worker_output);
    }
    if (json && rep.status != GM_OK) fprintf(stderr, "cltutor analyze: %s\n", rep.message);
    gpumodel_report_free(&rep);
    free(gp);
    return code;
}
