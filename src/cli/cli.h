/* cli — the command line: shared helpers and the table of commands. */
#ifndef CLT_CLI_H
#define CLT_CLI_H
#include <cJSON.h>
#include <stdio.h>
#include "base/exitcode.h"
#include "base/version.h"
#include "course/catalog.h"
#include "course/config.h"
#include "course/paths.h"
#include "course/progress.h"
#include "run/phase.h"



typedef struct {
    const char *workspace;   /* --workspace, or NULL */
    config cfg;              /* /etc/cltutor.conf and the user's settings */
    paths paths;
    catalog cat;
    progress prog;
    int have_progress;
    char progress_error[1700]; /* why progress cannot be saved, told at each save */
} cli_ctx;

/* Live status on a terminal while a worker runs. */
typedef struct {
    int enabled;
    int shown;
} cli_live_status;

int cli_main(int argc, char **argv);

/* Prints "cltutor CMD: message" and a pointer to --help; returns EXIT_USAGE.
 * fmt is translated by the caller (_("...")); the pointer here. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finds the course and workspace, loads the catalogue and progress. */
/* The course's chapters alone (cx->paths, cx->cat): no workspace is prepared, no progress read. */
int cli_load_catalog(cli_ctx *cx);
int cli_load_course(cli_ctx *cx);
void cli_save_progress(cli_ctx *cx);
/* Options of a command that takes only --json and --help, and no argument.
 * usage is marked N_() and translated here. Returns -1 to go on, else the
 * exit status to return (0 after the usage, printed on --help). */
int cli_json_only_options(const char *cmd, int argc, char **argv, const char *usage, int *json);

/* Marks the chapters named in args (numbers or folder names; none or "all":
 * every chapter) in selected[0 .. cat.count-1]. Returns how many are
 * selected, or -1 after printing the usage error for an unknown one. */
int cli_select_lessons(cli_ctx *cx, const char *cmd, int nargs, char **args, int *selected);
/* Finds a chapter or prints the list of chapters (returns NULL). */
const lesson *cli_find_lesson(cli_ctx *cx, const char *cmd, const char *spec);
/* The chapter's title in the learner's language. */
const char *cli_title(const lesson *l);
/* Prints s in a column of |width| display columns (wide characters take
 * two), as printf's %*s does for width: negative is left-aligned. */
void cli_cell(FILE *f, const char *s, int width);
/* The device to use: the --device option, else the configured default, else NULL (the built-in one). */
const char *cli_device(const cli_ctx *cx, const char *option);
/* The chapter's reference solution in buf; -1 after saying that the
 * install withheld the solutions (a student install). */
int cli_solution_path(cli_ctx *cx, const char *cmd, const lesson *l, char *buf, size_t len);
/* A run_progress_cb for a cli_live_status. */
void cli_on_progress(void *user, const run_progress *p);
/* Shows label (and the launches done, when any) on the live status line. */
void cli_show_status(cli_live_status *ls, const char *label, int done, double elapsed_s);
void cli_clear_status(cli_live_status *ls);
void cli_print_json(cJSON *o);
/* Parses a number option in [lo, hi]; prints a usage error and returns -1 otherwise. */
int cli_parse_double(const char *cmd, const char *name, const char *v, double lo, double hi, double *out);

/* The commands: each takes its argv from the command name on. */
int cmd_list(cli_ctx *cx, int argc, char **argv);
int cmd_devices(cli_ctx *cx, int argc, char **argv);
int cmd_run(cli_ctx *cx, int argc, char **argv);
int cmd_analyze(cli_ctx *cx, int argc, char **argv);
int cmd_asm(cli_ctx *cx, int argc, char **argv);
int cmd_check(cli_ctx *cx, int argc, char **argv);
int cmd_reset(cli_ctx *cx, int argc, char **argv);
int cmd_grade(cli_ctx *cx, int argc, char **argv);
/* `cltutor grade merge` (cmd_merge.c) */
int cmd_grade_merge(int argc, char **argv);
/* `cltutor grade similar` (cmd_similar.c) */
int cmd_grade_similar(cli_ctx *cx, int argc, char **argv);
int cmd_bench(cli_ctx *cx, int argc, char **argv);
int cmd_validate(cli_ctx *cx, int argc, char **argv);
int cmd_doctor(cli_ctx *cx, int argc, char **argv);
int cmd_class(cli_ctx *cx, int argc, char **argv);

#endif
