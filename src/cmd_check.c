/* check: the learner's exercises against the visible tests */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "catalog.h"
#include "engine.h"
#include "paths.h"
#include "progress.h"
#include "report.h"
#include "util.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const check_usage =
    "Usage: cltutor check [LESSON|all] [--device SPEC] [--kernel FILE] [--json]\n"
    "\n"
    "Runs your exercise for a chapter (default: all chapters) against the\n"
    "chapter's visible tests: several sizes and inputs, correctness only.\n"
    "\n"
    "  --device SPEC    an index from `cltutor devices` or part of a device name\n"
    "  --kernel FILE    check this file instead of your exercise (one chapter only)\n"
    "  --solution       check the reference solutions\n"
    "  --timeout SEC    per test (default 10)\n"
    "  --json           print the results as JSON\n"
    "\n"
    "Exit status: 0 when every test passes, 1 when any fails, 64 usage error,\n"
    "69 no usable OpenCL device.\n";

int cmd_check(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'}, {"kernel", required_argument, 0, 'k'},
        {"json", no_argument, 0, 'j'},         {"solution", no_argument, 0, 'R'},
        {"timeout", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *device = NULL, *kernel = NULL;
    int json = 0, solution = 0;
    double timeout = 10;
    int ch;
    while ((ch = getopt_long(argc, argv, "d:k:jRt:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': device = optarg; break;
        case 'k': kernel = optarg; break;
        case 'j': json = 1; break;
        case 'R': solution = 1; break;
        case 't':
            if (cli_parse_double("check", "--timeout", optarg, 0.1, 3600, &timeout)) return EXIT_USAGE;
            break;
        case 'h': fputs(check_usage, stdout); return 0;
        default: return cli_usage_error("check", "unknown option %s", argv[optind - 1]);
        }
    }
    const char *which = optind < argc ? argv[optind] : "all";
    if (optind + 1 < argc) return cli_usage_error("check", "unexpected argument '%s'", argv[optind + 1]);
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *only = NULL;
    if (strcmp(which, "all") != 0 && !(only = cli_find_lesson(cx, "check", which))) return EXIT_USAGE;
    if (kernel && !only) return cli_usage_error("check", "--kernel needs one chapter, not all");
    report_style st = report_style_for(stdout);
    cli_live_status ls = {.enabled = !json && isatty(2)};
    cJSON *arr = cJSON_CreateArray();
    int total = 0, passed = 0, worst = 0;
    for (int i = 0; i < cx->cat.count; i++) {
        const lesson *l = &cx->cat.items[i];
        if (only && l != only) continue;
        char path[1400], err[1400];
        if (kernel) snprintf(path, sizeof path, "%s", kernel);
        else if (solution) paths_solution(&cx->paths, l, path, sizeof path);
        else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
            fprintf(stderr, "cltutor check: %s\n", err);
            return EXIT_USAGE;
        }
        int chapter_ok = 1;
        if (!json) printf("%sChapter %d: %s%s\n", st.color ? "\033[1m" : "", l->number, l->title, st.color ? "\033[0m" : "");
        for (int t = 0; t < l->n_check_sizes; t++) {
            engine_request rq;
            engine_request_defaults(&rq);
            rq.lesson = l;
            rq.kernel_path = path;
            rq.device_spec = device;
            rq.size_spec = l->check_sizes[t];
            rq.seed = (uint64_t)(t + 1);
            rq.timeout_s = timeout;
            rq.budget_s = 0;
            engine_report rep;
            engine_run(&rq, cli_on_progress, &ls, NULL, &rep);
            cli_clear_status(&ls);
            total++;
            int ok = rep.status == ENG_PASS;
            passed += ok;
            chapter_ok &= ok;
            int code = engine_exit_code(rep.status);
            if (code == EXIT_USAGE || code == EXIT_NO_DEVICE) worst = code;
            if (json) {
                cJSON *o = report_json(l, path, &rep);
                cJSON_AddStringToObject(o, "test", l->check_sizes[t]);
                cJSON_AddItemToArray(arr, o);
            } else {
                printf("  %s%-4s%s %-24s %s%s%s\n", st.color ? (ok ? "\033[32m" : "\033[31m") : "", ok ? "ok" : "FAIL",
                       st.color ? "\033[0m" : "", rep.size_text[0] ? rep.size_text : l->check_sizes[t], rep.headline,
                       ok ? "" : ": ", ok ? "" : rep.message);
                if (rep.status == ENG_WRONG) report_print_diff(stdout, &st, &rep.verify, 6);
                if (rep.status == ENG_BUILD && rep.build_log) printf("%s\n", rep.build_log);
            }
            engine_report_free(&rep);
            if (code == EXIT_BUILD || code == EXIT_USAGE || code == EXIT_NO_DEVICE) {
                /* the other sizes would fail the same way */
                chapter_ok = 0;
                break;
            }
        }
        if (!kernel && !solution) {
            progress_record_run(&cx->prog, l->id, chapter_ok, chapter_ok ? "pass" : "fail", 0, "", (double)time(NULL));
        }
    }
    if (!kernel && !solution) cli_save_progress(cx);
    if (json) {
        cli_print_json(arr);
    } else {
        printf("\n%d passed, %d failed\n", passed, total - passed);
    }
    cJSON_Delete(arr);
    if (worst) return worst;
    return passed == total ? 0 : EXIT_WRONG;
}
