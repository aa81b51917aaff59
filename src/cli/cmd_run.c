/* run: build, run, verify and time one chapter's kernel */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "gpumodel/gm_predict.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "course/paths.h"
#include "course/progress.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const run_usage = N_(
    "Usage: cltutor run LESSON [--kernel FILE | --solution] [--device SPEC] [--size SPEC]\n"
    "                          [--seed N] [--timeout SEC] [--no-timing] [--compare]\n"
    "                          [--predict] [--gpu GPU] [--json]\n"
    "\n"
    "Builds and runs a chapter's kernel, checks it against the serial golden\n"
    "reference and times it.\n"
    "\n"
    "  --kernel FILE    the .cl file to run (default: your exercise in the workspace);\n"
    "                   a file with exactly one kernel runs whatever its name\n"
    "  --solution       run the chapter's reference solution instead\n"
    "  --device SPEC    an index from `cltutor devices` or part of a device name\n"
    "                   (default: the first GPU, else PoCL's CPU device)\n"
    "  --size SPEC      the problem size, SIZE[:INPUT]; the chapter's metadata has\n"
    "                   the default (e.g. 16384x256 for descriptors x centroids)\n"
    "  --seed N         seed of the input generator (default 1)\n"
    "  --timeout SEC    stop the kernel after SEC seconds (default 10)\n"
    "  --no-timing      one run: check correctness only\n"
    "  --compare        also time the chapter's reference and the previous\n"
    "                   chapter's reference at the same size, on the same device\n"
    "  --predict        also predict the kernel's time on a GPU at the same size,\n"
    "                   from the GPU memory model (`cltutor analyze`; Oclgrind)\n"
    "  --gpu GPU        the GPU predicted (implies --predict): a profile in devices/\n"
    "                   (nvidia-h100, the default, or nvidia-h200) or a file written\n"
    "                   by `cltutor bench --profile`\n"
    "  --json           print the result as JSON (see docs/json.md)\n"
    "\n"
    "Exit status: 0 correct, 1 wrong result, 2 build error, 3 crash or timeout,\n"
    "64 usage error, 69 no usable OpenCL device.\n");

/* Times one reference kernel like the learner's run; returns its median or 0. */
static double time_reference(cli_ctx *cx, const lesson *l, const engine_request *like, const char *size) {
    char path[1400];
    if (paths_solution(&cx->paths, l, path, sizeof path) != 0) return 0; /* withheld: no row */
    engine_request rq = *like;
    rq.lesson = l;
    rq.kernel_path = rq.display_path = path;
    rq.size_spec = size;
    engine_report r;
    engine_run(&rq, NULL, NULL, NULL, &r);
    double ms = r.status == ENG_PASS ? r.timing.median : 0;
    engine_report_free(&r);
    return ms;
}

static void print_comparison(int chapter, double ref_ms, double mine_ms) {
    double ratio = ref_ms >= mine_ms ? ref_ms / mine_ms : mine_ms / ref_ms;
    char label[96];
    snprintf(label, sizeof label, _("chapter %d reference"), chapter);
    fputs("  ", stdout);
    cli_cell(stdout, label, -24);
    printf(" %10.3f ms   ", ref_ms);
    if (ratio < 1.03) printf("%s\n", _("yours is about as fast"));
    else if (ref_ms >= mine_ms) printf(_("yours is %.2fx faster\n"), ratio);
    else printf(_("yours is %.2fx slower\n"), ratio);
}

/* The learner's time beside the chapter's reference and the previous stage's. */
static void compare_with_references(cli_ctx *cx, const lesson *l, const engine_request *rq, const engine_report *mine,
                                    int json) {
    if (json) return; /* comparisons are for people; scripts can run each kernel */
    char device[16];
    snprintf(device, sizeof device, "%d", mine->device.index);
    engine_request like = *rq;
    like.device_spec = device;
    like.size_spec = mine->size_text;
    const lesson *prev = l->previous ? catalog_by_number(&cx->cat, l->previous) : NULL;
    if (prev && strcmp(prev->problem, l->problem)) prev = NULL; /* another problem: sizes do not compare */
    double ref = time_reference(cx, l, &like, mine->size_text);
    double before = prev ? time_reference(cx, prev, &like, mine->size_text) : 0;
    printf(_("\nCompared on the same device at %s:\n"), mine->size_text);
    fputs("  ", stdout);
    cli_cell(stdout, _("yours"), -24);
    printf(" %10.3f ms\n", mine->timing.median);
    if (ref > 0) print_comparison(l->number, ref, mine->timing.median);
    if (before > 0) print_comparison(prev->number, before, mine->timing.median);
}

/* The learner's own run goes into the chapter's history. */
static void record_run(cli_ctx *cx, const lesson *l, const char *path, const engine_report *rep) {
    progress_run pr = {.when = (double)time(NULL), .origin = FROM_RUN, .passed = rep->status == ENG_PASS,
                       .median_ms = rep->status == ENG_PASS ? rep->timing.median : 0};
    snprintf(pr.status, sizeof pr.status, "%s", engine_status_name(rep->status));
    util_copy_text(pr.device, sizeof pr.device, rep->device.name);
    char *text = util_read_file(path, NULL);
    pr.file_hash = util_hash_text(text);
    free(text);
    progress_record_run(&cx->prog, l->id, &pr);
    cli_save_progress(cx);
}

/* --predict: the GPU model's analysis of the same file (compared like
 * `analyze`), and the time it predicts at the size just run. */
static gp_chapter *predict_run(cli_ctx *cx, const lesson *l, const char *path, const engine_report *rep,
                               const char *gpu, int live) {
    gp_chapter *gp = calloc(1, sizeof *gp);
    if (!gp) return NULL;
    engine_request arq;
    engine_request_defaults(&arq);
    arq.lesson = l;
    arq.kernel_path = path;
    arq.timeout_s = 120;
    gpumodel_report ar;
    memset(&ar, 0, sizeof ar);
    gpumodel_cache kept = {0};
    cli_live_status ls = {.enabled = live};
    gpumodel_analyze_chapter(&arq, &cx->cat, &cx->paths, 1, &kept, cli_on_progress, &ls, NULL, &ar);
    cli_clear_status(&ls);
    if (ar.status != GM_OK)
        util_copy_text(gp->err, sizeof gp->err, ar.message[0] ? ar.message : _("the GPU model could not analyse the kernel"));
    else {
        /* the compiled code's unrolled loads, for the DRAM waits */
        gp_read_compiled_for(cx->paths.data, &cx->cat, gpu, l, &ar, kept.set ? &kept.rep : NULL);
        gp_chapter_predict(cx->paths.data, &cx->cat, gpu, l, &ar, kept.set ? &kept.rep : NULL, rep->size_text, gp);
    }
    gpumodel_cache_free(&kept);
    gpumodel_report_free(&ar);
    return gp;
}

static void print_prediction(const gp_chapter *gp) {
    char **lines;
    int n;
    if (!gp) return;
    if (gp->ok && gp_lines(&gp->pr, gp->has_prev ? &gp->prev : NULL, gp->prev_label, &gp->prof, &lines, &n) == 0) {
        putchar('\n');
        for (int i = 0; i < n; i++) printf("%s\n", lines[i]);
        gp_lines_free(lines, n);
    } else {
        printf("\n%s %s\n", _("No predicted time:"), gp->err);
    }
}

int cmd_run(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"device", required_argument, 0, 'd'},
        {"size", required_argument, 0, 's'},   {"seed", required_argument, 0, 'S'},
        {"timeout", required_argument, 0, 't'}, {"json", no_argument, 0, 'j'},
        {"solution", no_argument, 0, 'R'},     {"no-timing", no_argument, 0, 'N'},
        {"compare", no_argument, 0, 'C'},      {"predict", no_argument, 0, 'P'},
        {"gpu", required_argument, 0, 'g'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    engine_request rq;
    engine_request_defaults(&rq);
    rq.budget_s = cx->cfg.budget_s;
    rq.queue_dir = config_queue_dir(&cx->cfg);
    const char *kernel = NULL;
    const char *gpu = NULL;
    int json = 0, solution = 0, compare = 0, predict = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "k:d:s:S:t:jRNCPg:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'k': kernel = optarg; break;
        case 'd': rq.device_spec = optarg; break;
        case 's': rq.size_spec = optarg; break;
        case 'S': {
            char *end;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-') return cli_usage_error("run", _("--seed '%s': give a whole number"), optarg);
            rq.seed = v;
            break;
        }
        case 't':
            if (cli_parse_double("run", "--timeout", optarg, 0.1, 3600, &rq.timeout_s)) return EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'R': solution = 1; break;
        case 'N': rq.budget_s = 0; break;
        case 'C': compare = 1; break;
        case 'P': predict = 1; break;
        case 'g': gpu = optarg, predict = 1; break;
        case 'h': fputs(_(run_usage), stdout); return 0;
        default: return cli_usage_error("run", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage_error("run", _("which chapter? Give its number or name, e.g. `cltutor %s %d`"), "run", 2);
    if (optind + 1 < argc) return cli_usage_error("run", _("unexpected argument '%s'"), argv[optind + 1]);
    if (kernel && solution) return cli_usage_error("run", "%s", _("--kernel and --solution cannot be used together"));
    rq.device_spec = cli_device(cx, rq.device_spec);
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *l = cli_find_lesson(cx, "run", argv[optind]);
    if (!l) return EXIT_USAGE;
    char path[1400], err[1400];
    if (kernel) snprintf(path, sizeof path, "%s", kernel);
    else if (solution) {
        if (cli_solution_path(cx, "run", l, path, sizeof path) != 0) return EXIT_USAGE;
    } else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor run: %s\n", err);
        return EXIT_USAGE;
    }
    rq.lesson = l;
    rq.kernel_path = path;
    cli_live_status ls = {.enabled = !json && isatty(2)};
    engine_report rep;
    rq.tell_checked = 1; /* the live status says the answer while the launches are timed */
    engine_run(&rq, cli_on_progress, &ls, NULL, &rep);
    cli_clear_status(&ls);
    if (rep.status == ENG_USAGE && !rep.device.name[0] && !rep.has_output) {
        fprintf(stderr, "cltutor run: %s\n", rep.message);
        if (json) {
            cJSON *o = report_json(l, path, &rep);
            cli_print_json(o);
            cJSON_Delete(o);
        }
        engine_report_free(&rep);
        return EXIT_USAGE;
    }
    gp_chapter *gp = predict && rep.status == ENG_PASS ? predict_run(cx, l, path, &rep, gpu, ls.enabled) : NULL;
    if (json) {
        cJSON *o = report_json(l, path, &rep);
        gp_chapter_add_json(o, gp, 1);
        cli_print_json(o);
        cJSON_Delete(o);
    } else {
        report_style st = report_style_for(stdout);
        report_print(stdout, &st, l, &rep);
        print_prediction(gp);
        if (!predict && rep.status == ENG_PASS && !strcmp(rep.device.type, "CPU"))
            printf(_("\nOn a GPU: `cltutor run %d --predict` adds the time the GPU model predicts on an NVIDIA H100.\n"),
                   l->number);
        if (rep.status == ENG_PASS)
            printf(_("\nThis is one size. The chapter is passed when every visible test, the race check and the "
                   "technique\nhold: `cltutor check %d` runs them all.\n"), l->number);
    }
    if (!kernel && !solution && rep.status != ENG_USAGE && rep.status != ENG_NO_DEVICE) record_run(cx, l, path, &rep);
    if (compare && rep.status == ENG_PASS && rep.n_samples > 0) compare_with_references(cx, l, &rq, &rep, json);
    int code = engine_exit_code(rep.status);
    engine_report_free(&rep);
    free(gp);
    return code;
}
