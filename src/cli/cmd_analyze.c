/* analyze: what a GPU would see of a chapter's kernel (coalescing, bank conflicts, atomics), simulated by Oclgrind */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/gm_predict.h"
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
    "                              [--timeout SEC] [--gpu GPU | --no-predict] [--json]\n"
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
    "  --gpu GPU        the GPU whose time is predicted from the analysis: a profile\n"
    "                   in devices/ (nvidia-h100, the default, or nvidia-h200) or a\n"
    "                   file written by `cltutor bench --profile`\n"
    "  --no-predict     no predicted time\n"
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

static int exit_code_for(const gpumodel_report *rep) {
    if (rep->status == GM_UNAVAILABLE) return EXIT_NO_DEVICE;
    if (rep->status == GM_FAILED) {
        int code = engine_exit_code(rep->run.status);
        return code == 0 || code == 1 ? EXIT_CRASH : code;
    }
    return gpumodel_has_errors(rep) ? EXIT_WRONG : EXIT_CORRECT;
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

int cmd_analyze(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"size", required_argument, 0, 's'},
        {"json", no_argument, 0, 'j'},         {"solution", no_argument, 0, 'R'},
        {"no-compare", no_argument, 0, 'C'},   {"timeout", required_argument, 0, 't'},
        {"gpu", required_argument, 0, 'g'},    {"no-predict", no_argument, 0, 'P'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    engine_request rq;
    engine_request_defaults(&rq);
    rq.timeout_s = 120;
    const char *kernel = NULL;
    const char *gpu = NULL;
    int json = 0, solution = 0, compare = 1, predict = 1, ch;
    while ((ch = getopt_long(argc, argv, "k:s:jRCt:g:Ph", opts, NULL)) != -1) {
        switch (ch) {
        case 'k': kernel = optarg; break;
        case 's': rq.size_spec = optarg; break;
        case 'j': json = 1; break;
        case 'R': solution = 1; break;
        case 'C': compare = 0; break;
        case 'g': gpu = optarg; break;
        case 'P': predict = 0; break;
        case 't':
            if (cli_parse_double("analyze", "--timeout", optarg, 1, 3600, &rq.timeout_s)) return EXIT_USAGE;
            break;
        case 'h': fputs(_(analyze_usage), stdout); return 0;
        default: return cli_usage_error("analyze", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage_error("analyze", _("which chapter? Give its number or name, e.g. `cltutor %s %d`"), "analyze", 3);
    if (optind + 1 < argc) return cli_usage_error("analyze", _("unexpected argument '%s'"), argv[optind + 1]);
    if (kernel && solution)
        return cli_usage_error("analyze", "%s", _("--kernel and --solution cannot be used together"));
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *l = cli_find_lesson(cx, "analyze", argv[optind]);
    if (!l) return EXIT_USAGE;

    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char icd[1024], plugin[1024];
    if (gpumodel_backend(icd, sizeof icd, plugin, sizeof plugin, rep.message, sizeof rep.message) != 0) {
        rep.status = GM_UNAVAILABLE;
        if (json) {
            cJSON *o = gpumodel_json(&rep);
            cli_print_json(o);
            cJSON_Delete(o);
        }
        fprintf(stderr, "cltutor analyze: %s\n", rep.message);
        return EXIT_NO_DEVICE;
    }

    char path[1400], err[1400];
    if (kernel) snprintf(path, sizeof path, "%s", kernel);
    else if (solution) {
        if (cli_solution_path(cx, "analyze", l, path, sizeof path) != 0) return EXIT_USAGE;
    } else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor analyze: %s\n", err);
        return EXIT_USAGE;
    }
    rq.lesson = l;
    rq.kernel_path = path;
    cli_live_status ls = {.enabled = !json && isatty(2)};
    gpumodel_cache kept = {0}; /* the compared file's analysis, for its predicted time */
    gpumodel_analyze_chapter(&rq, &cx->cat, &cx->paths, compare, &kept, on_progress, &ls, NULL, &rep);
    cli_clear_status(&ls);
    gp_chapter *gp = predict && rep.status == GM_OK ? calloc(1, sizeof *gp) : NULL;
    if (gp) gp_chapter_predict(cx->paths.data, &cx->cat, gpu, l, &rep, kept.set ? &kept.rep : NULL, NULL, gp);
    gpumodel_cache_free(&kept);

    int code = exit_code_for(&rep);
    if (json) {
        cJSON *o = gpumodel_json(&rep);
        cJSON_AddStringToObject(o, "lesson", l->id);
        gp_chapter_add_json(o, gp, gpu != NULL);
        cli_print_json(o);
        cJSON_Delete(o);
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
