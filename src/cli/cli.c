/* cli — the command line: shared helpers and the table of commands. */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "course/paths.h"
#include "course/progress.h"
#include "run/report.h"
#include "term/ui.h"
#include "base/util.h"
#include "course/workspace.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdarg.h>

static const char *const main_usage = N_(
    "Usage: cltutor [--workspace DIR] COMMAND [ARGS]\n"
    "\n"
    "An interactive course in OpenCL GPU optimisation.\n"
    "\n"
    "Commands:\n"
    "  list                  the chapters and how far you are in each\n"
    "  devices               every OpenCL platform and device, with its index\n"
    "  run LESSON            build, run, check and time a chapter's kernel\n"
    "  analyze LESSON        what a GPU would see of its memory accesses (simulated)\n"
    "  asm LESSON            its memory instructions as NVIDIA's PTX has them (no GPU needed)\n"
    "  check [LESSON...]     run your exercises against the visible tests\n"
    "  reset LESSON          put a chapter's starting file back (yours is kept as .bak)\n"
    "  grade [LESSON...]     grade exercises with hidden tests (instructors; --batch for a class)\n"
    "  class DIR...          a class's progress from the students' workspaces (instructors)\n"
    "  bench [LESSON...]     reference kernels against the device's own limits\n"
    "  validate [LESSON...]  check chapters: metadata, texts, hints, kernels (authors)\n"
    "  doctor                what this machine lacks for cltutor, and what to do\n"
    "\n"
    "LESSON is a chapter number (2) or folder name (02-atomic).\n"
    "Run `cltutor COMMAND --help` for a command's options.\n"
    "\n"
    "Options:\n"
    "  --workspace DIR       where your exercises and progress live\n"
    "                        (default: $CLTUTOR_WORKSPACE, workspace/ in a source checkout,\n"
    "                        or ~/.local/share/cltutor)\n"
    "  -h, --help            this help\n"
    "  -V, --version         the version\n"
    "\n"
    "Exit status: 0 correct, 1 wrong result, 2 build error, 3 crash or timeout,\n"
    "64 usage error, 69 no usable OpenCL device.\n");

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    char name[128];
    snprintf(name, sizeof name, "cltutor%s%s", cmd ? " " : "", cmd ? cmd : "");
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fprintf(stderr, _("Try `%s --help`.\n"), name);
    va_end(ap);
    return EXIT_USAGE;
}

/* "cltutor: warning: ..." on stderr; fmt is translated by the caller. */
static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cltutor: %s", _("warning: "));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_load_catalog(cli_ctx *cx) {
    char err[1600];
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
    if (cx->cat.n_skipped) {
        fprintf(stderr, "cltutor: %s", _("warning: "));
        fprintf(stderr, P_("skipped %d chapter that did not load:\n", "skipped %d chapters that did not load:\n",
                           cx->cat.n_skipped), cx->cat.n_skipped);
        fputs(cx->cat.skipped, stderr);
    }
    return 0;
}

int cli_load_course(cli_ctx *cx) {
    int rc = cli_load_catalog(cx);
    if (rc) return rc;
    char err[1600];
    workspace_news news;
    if (workspace_prepare(&cx->paths, &news) != 0) warn("%s", news.error);
    else if (news.moved || news.moved_progress) {
        char told[2400];
        workspace_moved_text(told, sizeof told, cx->paths.workspace, &news);
        fprintf(stderr, "cltutor: %s\n", told);
    }
    char state[1200], file[1300];
    if (paths_state_dir(&cx->paths, state, sizeof state) != 0) {
        snprintf(cx->progress_error, sizeof cx->progress_error, _("cannot save progress: the folder %s cannot be "
                 "created; make the workspace writable or choose another (--workspace DIR)"), state);
        return 0;
    }
    snprintf(file, sizeof file, "%s/progress.json", state);
    rc = progress_load(&cx->prog, file, &cx->cat, err, sizeof err);
    if (rc >= 0) cx->have_progress = 1;
    if (rc == 1) warn("%s", err);
    if (rc < 0) snprintf(cx->progress_error, sizeof cx->progress_error, _("cannot save progress: %s"), err);
    return 0;
}

void cli_save_progress(cli_ctx *cx) {
    char err[1600];
    if (!cx->have_progress) warn("%s", cx->progress_error);
    else if (progress_save(&cx->prog, err, sizeof err) != 0) warn("%s", err);
}

const char *cli_title(const lesson *l) {
    return !strcmp(i18n_lang(), "zh") && l->title_zh[0] ? l->title_zh : l->title;
}

void cli_cell(FILE *f, const char *s, int width) {
    int pad = (width < 0 ? -width : width) - st_widths(s);
    for (int i = 0; width > 0 && i < pad; i++) fputc(' ', f);
    fputs(s, f);
    for (int i = 0; width < 0 && i < pad; i++) fputc(' ', f);
}

const char *cli_device(const cli_ctx *cx, const char *option) {
    if (option && *option) return option;
    if (!cx->cfg.device[0]) return NULL;
    /* the settings' device, where it names one; else the default device, with a word on the setting (the
     * learner never typed a --device to blame) */
    engine_device *devs = NULL;
    char err[256];
    int n = engine_list_devices(&devs, err, sizeof err);
    int found = n <= 0 || engine_device_match(devs, n, cx->cfg.device) >= 0; /* none at all: the run says so */
    free(devs);
    if (found) return cx->cfg.device;
    warn(_("[device] default = %s in %s names no device here: the default device is used instead. `cltutor "
           "devices` lists them: mend the setting or remove it."),
         cx->cfg.device, cx->cfg.device_set_by);
    return NULL;
}

int cli_solution_path(cli_ctx *cx, const char *cmd, const lesson *l, char *buf, size_t len) {
    if (!cx->cfg.solutions_shown) {
        fprintf(stderr, "cltutor %s: ", cmd);
        fprintf(stderr, _("the reference solutions are hidden here ([course] solutions = hidden in %s).\n"),
                cx->cfg.solutions_hidden_by);
        return -1;
    }
    if (paths_solution(&cx->paths, l, buf, len) == 0) return 0;
    fprintf(stderr, "cltutor %s: ", cmd);
    fprintf(stderr, _("the instructor withheld the reference solutions from this install (it has no "
            "%s/kernels/), so there is no reference for chapter %d to run here.\n"), cx->paths.data, l->number);
    return -1;
}

const lesson *cli_find_lesson(cli_ctx *cx, const char *cmd, const char *spec) {
    const lesson *l = catalog_find(&cx->cat, spec);
    if (!l) {
        fprintf(stderr, "cltutor %s: ", cmd);
        fprintf(stderr, _("no chapter '%s'. Chapters:"), spec);
        for (int i = 0; i < cx->cat.count; i++) fprintf(stderr, " %s", cx->cat.items[i].id);
        fprintf(stderr, "\n%s\n", _("Give the number (2) or the folder name (02-atomic)."));
    }
    return l;
}

int cli_json_only_options(const char *cmd, int argc, char **argv, const char *usage, int *json) {
    static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    *json = 0;
    while ((ch = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
        if (ch == 'j') *json = 1;
        else if (ch == 'h') return fputs(_(usage), stdout), 0;
        else return cli_usage_error(cmd, _("unknown option %s"), argv[optind - 1]);
    }
    if (optind < argc) return cli_usage_error(cmd, _("unexpected argument '%s'"), argv[optind]);
    return -1;
}

int cli_select_lessons(cli_ctx *cx, const char *cmd, int nargs, char **args, int *selected) {
    int all = nargs == 0 || (nargs == 1 && !strcmp(args[0], "all")), n = 0;
    for (int i = 0; i < cx->cat.count; i++) selected[i] = all;
    if (all) return cx->cat.count;
    for (int a = 0; a < nargs; a++) {
        const lesson *l = cli_find_lesson(cx, cmd, args[a]);
        if (!l) return -1;
        selected[l - cx->cat.items] = 1;
    }
    for (int i = 0; i < cx->cat.count; i++) n += selected[i];
    return n;
}

/* Live status on a terminal while the worker runs. */
void cli_on_progress(void *user, const run_progress *p) {
    cli_live_status *ls = user;
    if (p->phase == PHASE_QUEUE) {
        /* said even without a live status line: a wait needs its reason */
        if (ls->enabled) {
            fputs("\r\033[K", stderr);
            fprintf(stderr, _("waiting for the device (%d ahead)... (%.1f s)"), p->done, p->elapsed_s);
        } else {
            fputs("cltutor: ", stderr);
            fprintf(stderr, _("waiting for the device (%d ahead): another timing run is using it\n"), p->done);
        }
        ls->shown = ls->enabled;
        return;
    }
    char label[200];
    if (p->checked) /* the checked launch's answer, while the launches are timed */
        snprintf(label, sizeof label, "%s · %s", p->checked > 0 ? _("Correct") : _("Wrong result"),
                 p->checked > 0 ? _(run_phase_label(p->phase)) : _("finishing the run"));
    else
        snprintf(label, sizeof label, "%s", _(run_phase_label(p->phase)));
    cli_show_status(ls, label, p->checked < 0 ? 0 : p->done, p->elapsed_s);
}

void cli_show_status(cli_live_status *ls, const char *label, int done, double elapsed_s) {
    if (!ls->enabled) return;
    if (done > 0) {
        fputs("\r\033[K", stderr);
        fprintf(stderr, _("%s: run %d (%.1f s)"), label, done, elapsed_s);
    } else
        fprintf(stderr, "\r\033[K%s... (%.1f s)", label, elapsed_s);
    fflush(stderr);
    ls->shown = 1;
}

void cli_clear_status(cli_live_status *ls) {
    if (ls->shown) fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

int cli_parse_double(const char *cmd, const char *name, const char *v, double lo, double hi, double *out) {
    char *end;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || !(d >= lo && d <= hi)) {
        cli_usage_error(cmd, _("%s '%s': give a number from %g to %g"), name, v, lo, hi);
        return -1;
    }
    *out = d;
    return 0;
}

void cli_print_json(cJSON *o) {
    char *s = cJSON_Print(o);
    printf("%s\n", s);
    free(s);
}

static int cmd_welcome(cli_ctx *cx) {
    printf(_("cltutor %s: an interactive course in OpenCL GPU optimisation.\n\n"), CLT_VERSION);
    char *args[] = {"list", NULL};
    optind = 1;
    int rc = cmd_list(cx, 1, args);
    if (rc) return rc;
    printf("\n%s\n", _("Commands: cltutor list | devices | run LESSON | check [LESSON...] | --help"));
    return 0;
}

typedef struct {
    const char *name;
    int (*fn)(cli_ctx *cx, int argc, char **argv);
} cli_command;

/* Every command; its help is `cltutor NAME --help`. */
static const cli_command commands[] = {
    {"list", cmd_list},
    {"devices", cmd_devices},
    {"run", cmd_run},
    {"analyze", cmd_analyze},
    {"asm", cmd_asm},
    {"check", cmd_check},
    {"reset", cmd_reset},
    {"grade", cmd_grade},
    {"class", cmd_class},
    {"bench", cmd_bench},
    {"validate", cmd_validate},
    {"doctor", cmd_doctor},
};

int cli_main(int argc, char **argv) {
    cli_ctx cx;
    memset(&cx, 0, sizeof cx);
    char cfg_err[1400];
    if (config_load(&cx.cfg, cfg_err, sizeof cfg_err) != 0) warn("%s", cfg_err);
    int i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--workspace") && i + 1 < argc) cx.workspace = argv[++i];
        else if (!strncmp(argv[i], "--workspace=", 12)) cx.workspace = argv[i] + 12;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help")) {
            fputs(_(main_usage), stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
            printf("cltutor %s\n", CLT_VERSION);
            return 0;
        } else if (!strcmp(argv[i], "--workspace")) {
            return cli_usage_error(NULL, "%s", _("--workspace needs a folder"));
        } else break;
    }
    int rc;
#ifdef CLT_NO_UI
    if (i >= argc) rc = cmd_welcome(&cx);
#else
    if (i >= argc) rc = ui_available() ? ui_main(cx.workspace) : cmd_welcome(&cx);
#endif
    else {
        const char *cmd = argv[i];
        int sub_argc = argc - i;
        char **sub_argv = argv + i;
        optind = 1;
        opterr = 0;
        const cli_command *c = NULL;
        for (size_t k = 0; k < CLT_ARRAY_LEN(commands); k++)
            if (!strcmp(commands[k].name, cmd)) c = &commands[k];
        if (c) rc = c->fn(&cx, sub_argc, sub_argv);
        else rc = cli_usage_error(NULL, _("unknown command '%s'"), cmd);
    }
    catalog_free(&cx.cat);
    progress_free(&cx.prog);
    return rc;
}
