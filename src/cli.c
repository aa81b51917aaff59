/* cli — the command line: list, devices, run, check. */
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

typedef struct {
    const char *workspace;
    paths paths;
    catalog cat;
    progress prog;
    int have_progress;
} cli_ctx;

static const char *const main_usage =
    "Usage: cltutor [--workspace DIR] COMMAND [ARGS]\n"
    "\n"
    "An interactive course in OpenCL GPU optimisation.\n"
    "\n"
    "Commands:\n"
    "  list                 the chapters and how far you are in each\n"
    "  devices              every OpenCL platform and device, with its index\n"
    "  run LESSON           build, run, check and time a chapter's kernel\n"
    "  check [LESSON|all]   run your exercises against the visible tests\n"
    "  reset LESSON         put a chapter's starting file back (yours is kept as .bak)\n"
    "\n"
    "LESSON is a chapter number (2) or folder name (02-atomic).\n"
    "Run `cltutor COMMAND --help` for a command's options.\n"
    "\n"
    "Options:\n"
    "  --workspace DIR      where your exercises and progress live\n"
    "                       (default: $CLTUTOR_WORKSPACE, the source tree, or ~/.local/share/cltutor)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit status: 0 correct, 1 wrong result, 2 build error, 3 crash or timeout,\n"
    "64 usage error, 69 no usable OpenCL device.\n";

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cltutor%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry `cltutor%s%s --help`.\n", cmd ? " " : "", cmd ? cmd : "");
    va_end(ap);
    return EXIT_USAGE;
}

static int load_course(cli_ctx *cx) {
    char err[1200];
    if (paths_init(&cx->paths, cx->workspace, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor: %s\n", err);
        return EXIT_USAGE;
    }
    char lessons[1200];
    paths_lessons(&cx->paths, lessons, sizeof lessons);
    if (catalog_load(&cx->cat, lessons, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor: %s\n", err);
        return EXIT_USAGE;
    }
    char state[1200], file[1300];
    if (paths_state_dir(&cx->paths, state, sizeof state) == 0) {
        snprintf(file, sizeof file, "%s/progress.json", state);
        if (progress_load(&cx->prog, file, err, sizeof err) == 0) cx->have_progress = 1;
        else fprintf(stderr, "cltutor: warning: %s; progress will not be saved\n", err);
    }
    return 0;
}

static void save_progress(cli_ctx *cx) {
    char err[1300];
    if (cx->have_progress && progress_save(&cx->prog, err, sizeof err) != 0)
        fprintf(stderr, "cltutor: warning: %s\n", err);
}

static const lesson *find_lesson(cli_ctx *cx, const char *cmd, const char *spec) {
    const lesson *l = catalog_find(&cx->cat, spec);
    if (!l) {
        fprintf(stderr, "cltutor %s: no chapter '%s'. Chapters:", cmd, spec);
        for (int i = 0; i < cx->cat.count; i++) fprintf(stderr, " %s", cx->cat.items[i].id);
        fprintf(stderr, "\nGive the number (2) or the folder name (02-atomic).\n");
    }
    return l;
}

/* Live status on a terminal while the worker runs. */
typedef struct {
    int enabled;
    int shown;
} live_status;

static void on_progress(void *user, const char *phase, int done, int total, double elapsed) {
    live_status *ls = user;
    if (!ls->enabled) return;
    const char *label = !strcmp(phase, "reference") ? "computing the golden reference"
                      : !strcmp(phase, "device") ? "opening the device"
                      : !strcmp(phase, "build") ? "building the kernel"
                      : !strcmp(phase, "setup") ? "preparing buffers"
                      : !strcmp(phase, "run") ? "running" : phase;
    if (done > 0)
        fprintf(stderr, "\r\033[K%s: run %d (%.1f s)", label, done, elapsed);
    else
        fprintf(stderr, "\r\033[K%s... (%.1f s)", label, elapsed);
    (void)total;
    fflush(stderr);
    ls->shown = 1;
}

static void clear_status(live_status *ls) {
    if (ls->shown) fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static void print_json(cJSON *o) {
    char *s = cJSON_Print(o);
    printf("%s\n", s);
    free(s);
}

/* ---- list ---- */

static int cmd_list(cli_ctx *cx, int argc, char **argv) {
    int json = 0;
    static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
        if (ch == 'j') json = 1;
        else if (ch == 'h') {
            printf("Usage: cltutor list [--json]\n\nLists the chapters with their state (not started, failing,\n"
                   "passed) and your best time. The next chapter to do is marked with '>'.\n");
            return 0;
        } else return usage_error("list", "unknown option %s", argv[optind - 1]);
    }
    if (optind < argc) return usage_error("list", "unexpected argument '%s'", argv[optind]);
    int rc = load_course(cx);
    if (rc) return rc;
    const char *next = NULL;
    for (int i = 0; i < cx->cat.count && !next; i++) {
        progress_chapter *pc = progress_get(&cx->prog, cx->cat.items[i].id, 0);
        if (!pc || pc->state != PROG_PASSED) next = cx->cat.items[i].id;
    }
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < cx->cat.count; i++) {
            const lesson *l = &cx->cat.items[i];
            progress_chapter *pc = progress_get(&cx->prog, l->id, 0);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "number", l->number);
            cJSON_AddStringToObject(o, "id", l->id);
            cJSON_AddStringToObject(o, "title", l->title);
            cJSON_AddStringToObject(o, "title_zh", l->title_zh);
            cJSON_AddStringToObject(o, "state", progress_state_name(pc ? pc->state : PROG_NOT_STARTED));
            cJSON_AddNumberToObject(o, "best_ms", pc ? pc->best_ms : 0);
            cJSON_AddBoolToObject(o, "next", next && !strcmp(next, l->id));
            cJSON_AddItemToArray(arr, o);
        }
        print_json(arr);
        cJSON_Delete(arr);
        return 0;
    }
    report_style st = report_style_for(stdout);
    printf("   %-3s %-34s %-12s %s\n", "#", "chapter", "state", "best time");
    for (int i = 0; i < cx->cat.count; i++) {
        const lesson *l = &cx->cat.items[i];
        progress_chapter *pc = progress_get(&cx->prog, l->id, 0);
        progress_state s = pc ? pc->state : PROG_NOT_STARTED;
        char best[48] = "-";
        if (pc && pc->best_ms > 0) snprintf(best, sizeof best, "%.3f ms", pc->best_ms);
        const char *col = !st.color ? "" : s == PROG_PASSED ? "\033[32m" : s == PROG_FAILING ? "\033[31m" : "";
        printf(" %c %-3d %-34s %s%-12s%s %s\n", next && !strcmp(next, l->id) ? '>' : ' ', l->number, l->title, col,
               progress_state_name(s), st.color ? "\033[0m" : "", best);
    }
    if (next) {
        const lesson *l = catalog_find(&cx->cat, next);
        printf("\nNext: chapter %d. Read lessons/%s/lesson.en.md, edit exercises/%s/%s,\nthen run `cltutor run %d`.\n",
               l->number, l->id, l->id, l->exercise, l->number);
    }
    return 0;
}

/* ---- devices ---- */

static int cmd_devices(cli_ctx *cx, int argc, char **argv) {
    (void)cx;
    int json = 0;
    static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
        if (ch == 'j') json = 1;
        else if (ch == 'h') {
            printf("Usage: cltutor devices [--json]\n\nLists every OpenCL platform and device with the index that\n"
                   "--device takes. The default device (first GPU, else PoCL's CPU device) is marked '*'.\n");
            return 0;
        } else return usage_error("devices", "unknown option %s", argv[optind - 1]);
    }
    if (optind < argc) return usage_error("devices", "unexpected argument '%s'", argv[optind]);
    engine_device *devs = NULL;
    char err[1024] = "";
    int n = engine_list_devices(&devs, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "cltutor devices: %s\n", err);
        free(devs);
        return EXIT_NO_DEVICE;
    }
    int def = -1;
    for (int i = 0; i < n && def < 0; i++) if (!strcmp(devs[i].type, "GPU")) def = i;
    for (int i = 0; i < n && def < 0; i++)
        if (util_contains_ci(devs[i].platform, "portable computing") && !strcmp(devs[i].type, "CPU")) def = i;
    if (def < 0 && n > 0) def = 0;
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "index", devs[i].index);
            cJSON_AddStringToObject(o, "name", devs[i].name);
            cJSON_AddStringToObject(o, "platform", devs[i].platform);
            cJSON_AddStringToObject(o, "type", devs[i].type);
            cJSON_AddStringToObject(o, "version", devs[i].version);
            cJSON_AddStringToObject(o, "driver", devs[i].driver);
            cJSON_AddBoolToObject(o, "default", i == def);
            cJSON_AddItemToArray(arr, o);
        }
        print_json(arr);
        cJSON_Delete(arr);
    } else if (n == 0) {
        printf("No OpenCL device found.\nInstall PoCL for the CPU (apt-get install pocl-opencl-icd) or your GPU's driver.\n");
    } else {
        const char *last = "";
        for (int i = 0; i < n; i++) {
            if (strcmp(last, devs[i].platform)) printf("Platform: %s\n", devs[i].platform);
            last = devs[i].platform;
            printf(" %c %d  %-5s %s  (%s, driver %s)\n", i == def ? '*' : ' ', devs[i].index, devs[i].type,
                   devs[i].name, devs[i].version, devs[i].driver);
        }
        printf("\n* the default device. Choose another with --device INDEX or --device NAME.\n");
    }
    free(devs);
    return n == 0 ? EXIT_NO_DEVICE : 0;
}

/* ---- run ---- */

static const char *const run_usage =
    "Usage: cltutor run LESSON [--kernel FILE] [--device SPEC] [--size SPEC] [--seed N]\n"
    "                          [--timeout SEC] [--json]\n"
    "\n"
    "Builds and runs a chapter's kernel, checks it against the serial golden\n"
    "reference and times it.\n"
    "\n"
    "  --kernel FILE    the .cl file to run (default: your exercise in exercises/);\n"
    "                   a file with exactly one kernel runs whatever its name\n"
    "  --solution       run the chapter's reference solution instead\n"
    "  --device SPEC    an index from `cltutor devices` or part of a device name\n"
    "                   (default: the first GPU, else PoCL's CPU device)\n"
    "  --size SPEC      the problem size, SIZE[:INPUT]; the chapter's metadata has\n"
    "                   the default (e.g. 16384x256 for descriptors x centroids)\n"
    "  --seed N         seed of the input generator (default 1)\n"
    "  --timeout SEC    stop the kernel after SEC seconds (default 10)\n"
    "  --no-timing      one run: check correctness only\n"
    "  --json           print the result as JSON (see docs/json.md)\n"
    "\n"
    "Exit status: 0 correct, 1 wrong result, 2 build error, 3 crash or timeout,\n"
    "64 usage error, 69 no usable OpenCL device.\n";

static int parse_double_opt(const char *cmd, const char *name, const char *v, double lo, double hi, double *out) {
    char *end;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || !(d >= lo && d <= hi)) {
        usage_error(cmd, "%s '%s': give a number from %g to %g", name, v, lo, hi);
        return -1;
    }
    *out = d;
    return 0;
}

static int cmd_run(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"device", required_argument, 0, 'd'},
        {"size", required_argument, 0, 's'},   {"seed", required_argument, 0, 'S'},
        {"timeout", required_argument, 0, 't'}, {"json", no_argument, 0, 'j'},
        {"solution", no_argument, 0, 'R'},     {"no-timing", no_argument, 0, 'N'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    engine_request rq;
    engine_request_defaults(&rq);
    const char *kernel = NULL;
    int json = 0, solution = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "k:d:s:S:t:jRNh", opts, NULL)) != -1) {
        switch (ch) {
        case 'k': kernel = optarg; break;
        case 'd': rq.device_spec = optarg; break;
        case 's': rq.size_spec = optarg; break;
        case 'S': {
            char *end;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-') return usage_error("run", "--seed '%s': give a whole number", optarg);
            rq.seed = v;
            break;
        }
        case 't':
            if (parse_double_opt("run", "--timeout", optarg, 0.1, 3600, &rq.timeout_s)) return EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'R': solution = 1; break;
        case 'N': rq.budget_s = 0; break;
        case 'h': fputs(run_usage, stdout); return 0;
        default: return usage_error("run", "unknown option %s", argv[optind - 1]);
        }
    }
    if (optind >= argc) return usage_error("run", "which chapter? Give its number or name, e.g. `cltutor run 2`");
    if (optind + 1 < argc) return usage_error("run", "unexpected argument '%s'", argv[optind + 1]);
    if (kernel && solution) return usage_error("run", "--kernel and --solution cannot be used together");
    int rc = load_course(cx);
    if (rc) return rc;
    const lesson *l = find_lesson(cx, "run", argv[optind]);
    if (!l) return EXIT_USAGE;
    char path[1400], err[1400];
    if (kernel) snprintf(path, sizeof path, "%s", kernel);
    else if (solution) paths_solution(&cx->paths, l, path, sizeof path);
    else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor run: %s\n", err);
        return EXIT_USAGE;
    }
    rq.lesson = l;
    rq.kernel_path = path;
    live_status ls = {.enabled = !json && isatty(2)};
    engine_report rep;
    engine_run(&rq, on_progress, &ls, NULL, &rep);
    clear_status(&ls);
    if (rep.status == ENG_USAGE && !rep.device.name[0] && !rep.has_output) {
        fprintf(stderr, "cltutor run: %s\n", rep.message);
        if (json) {
            cJSON *o = report_json(l, path, &rep);
            print_json(o);
            cJSON_Delete(o);
        }
        engine_report_free(&rep);
        return EXIT_USAGE;
    }
    if (json) {
        cJSON *o = report_json(l, path, &rep);
        print_json(o);
        cJSON_Delete(o);
    } else {
        report_style st = report_style_for(stdout);
        report_print(stdout, &st, l, &rep);
    }
    if (!kernel && !solution && rep.status != ENG_USAGE && rep.status != ENG_NO_DEVICE) {
        progress_record_run(&cx->prog, l->id, rep.status == ENG_PASS, engine_status_name(rep.status),
                            rep.status == ENG_PASS ? rep.timing.median : 0, rep.device.name, (double)time(NULL));
        save_progress(cx);
    }
    int code = engine_exit_code(rep.status);
    engine_report_free(&rep);
    return code;
}

/* ---- check ---- */

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

static int cmd_check(cli_ctx *cx, int argc, char **argv) {
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
            if (parse_double_opt("check", "--timeout", optarg, 0.1, 3600, &timeout)) return EXIT_USAGE;
            break;
        case 'h': fputs(check_usage, stdout); return 0;
        default: return usage_error("check", "unknown option %s", argv[optind - 1]);
        }
    }
    const char *which = optind < argc ? argv[optind] : "all";
    if (optind + 1 < argc) return usage_error("check", "unexpected argument '%s'", argv[optind + 1]);
    int rc = load_course(cx);
    if (rc) return rc;
    const lesson *only = NULL;
    if (strcmp(which, "all") != 0 && !(only = find_lesson(cx, "check", which))) return EXIT_USAGE;
    if (kernel && !only) return usage_error("check", "--kernel needs one chapter, not all");
    report_style st = report_style_for(stdout);
    live_status ls = {.enabled = !json && isatty(2)};
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
            engine_run(&rq, on_progress, &ls, NULL, &rep);
            clear_status(&ls);
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
    if (!kernel && !solution) save_progress(cx);
    if (json) {
        print_json(arr);
    } else {
        printf("\n%d passed, %d failed\n", passed, total - passed);
    }
    cJSON_Delete(arr);
    if (worst) return worst;
    return passed == total ? 0 : EXIT_WRONG;
}

/* ---- reset ---- */

static int cmd_reset(cli_ctx *cx, int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("Usage: cltutor reset LESSON\n\nPuts the chapter's starting file back in your workspace. Your\n"
               "current file is kept beside it as FILE.bak.\n");
        return 0;
    }
    if (argc != 2) return usage_error("reset", "give exactly one chapter, e.g. `cltutor reset 2`");
    int rc = load_course(cx);
    if (rc) return rc;
    const lesson *l = find_lesson(cx, "reset", argv[1]);
    if (!l) return EXIT_USAGE;
    char path[1400], start[1400], bak[1500], err[1400];
    if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor reset: %s\n", err);
        return EXIT_USAGE;
    }
    paths_starting(&cx->paths, l, start, sizeof start);
    snprintf(bak, sizeof bak, "%s.bak", path);
    if (util_copy_file(path, bak) != 0 || util_copy_file(start, path) != 0) {
        fprintf(stderr, "cltutor reset: cannot write %s\n", path);
        return EXIT_USAGE;
    }
    printf("Reset %s (your version is in %s).\n", path, bak);
    return 0;
}

/* ---- no command ---- */

static int cmd_welcome(cli_ctx *cx) {
    printf("cltutor %s: an interactive course in OpenCL GPU optimisation.\n\n", CLT_VERSION);
    char *args[] = {"list", NULL};
    optind = 1;
    int rc = cmd_list(cx, 1, args);
    if (rc) return rc;
    printf("\nCommands: cltutor list | devices | run LESSON | check [LESSON|all] | --help\n");
    return 0;
}

int cli_main(int argc, char **argv) {
    cli_ctx cx;
    memset(&cx, 0, sizeof cx);
    int i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--workspace") && i + 1 < argc) cx.workspace = argv[++i];
        else if (!strncmp(argv[i], "--workspace=", 12)) cx.workspace = argv[i] + 12;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help")) {
            fputs(main_usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
            printf("cltutor %s\n", CLT_VERSION);
            return 0;
        } else if (!strcmp(argv[i], "--workspace")) {
            return usage_error(NULL, "--workspace needs a folder");
        } else break;
    }
    int rc;
    if (i >= argc) rc = cmd_welcome(&cx);
    else {
        const char *cmd = argv[i];
        int sub_argc = argc - i;
        char **sub_argv = argv + i;
        optind = 1;
        opterr = 0;
        if (!strcmp(cmd, "list")) rc = cmd_list(&cx, sub_argc, sub_argv);
        else if (!strcmp(cmd, "devices")) rc = cmd_devices(&cx, sub_argc, sub_argv);
        else if (!strcmp(cmd, "run")) rc = cmd_run(&cx, sub_argc, sub_argv);
        else if (!strcmp(cmd, "check")) rc = cmd_check(&cx, sub_argc, sub_argv);
        else if (!strcmp(cmd, "reset")) rc = cmd_reset(&cx, sub_argc, sub_argv);
        else rc = usage_error(NULL, "unknown command '%s'", cmd);
    }
    catalog_free(&cx.cat);
    progress_free(&cx.prog);
    return rc;
}
