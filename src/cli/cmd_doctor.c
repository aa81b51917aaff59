/* doctor: what cltutor needs on this machine, and what to do about each problem */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "cli/doctor.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *const doctor_usage = N_(
    "Usage: cltutor doctor [--json]\n"
    "\n"
    "Checks what cltutor needs on this machine and says, for each problem,\n"
    "exactly what to do: the course and the workspace (and whether your\n"
    "progress can be saved), the settings files (/etc/cltutor.conf and\n"
    "~/.config/cltutor/config), the OpenCL drivers, every device (a small\n"
    "kernel is built and run on each), PoCL, Oclgrind and cltutor's plugin for\n"
    "it, and the terminal (UTF-8, colours, size).\n"
    "\n"
    "  --json    print the findings as JSON\n"
    "\n"
    "Exit status: 0 nothing failed (warnings aside), 1 a problem was found,\n"
    "64 usage error.\n");

/* What this terminal offers: the view's own measurements. */
static void measure_terminal(doctor_terminal *t) {
    memset(t, 0, sizeof *t);
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    t->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    t->is_tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    t->term = getenv("TERM");
    struct winsize ws;
    if (t->is_tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
        t->cols = ws.ws_col;
        t->rows = ws.ws_row;
    }
    const char *ct = getenv("COLORTERM");
    t->colours = (ct && *ct) || (t->term && strstr(t->term, "256color")) ? 256 : t->term && *t->term ? 8 : 0;
    i18n_set_lang(i18n_lang()); /* the environment's locale may be plain C, where gettext would give English */
}

int cmd_doctor(cli_ctx *cx, int argc, char **argv) {
    int json;
    int done = cli_json_only_options("doctor", argc, argv, doctor_usage, &json);
    if (done >= 0) return done;
    char course_err[1400] = "", config_err[1400] = "";
    config_load(&cx->cfg, config_err, sizeof config_err);
    int have_paths = paths_init(&cx->paths, cx->workspace, course_err, sizeof course_err) == 0;
    char lessons[1200];
    if (have_paths) {
        paths_lessons(&cx->paths, lessons, sizeof lessons);
        if (catalog_load(&cx->cat, lessons, course_err, sizeof course_err) != 0) have_paths = 0;
    }
    doctor_terminal term;
    measure_terminal(&term);
    cli_live_status ls = {.enabled = !json && isatty(2)};
    doctor_report rep;
    doctor_run(have_paths ? &cx->paths : NULL, have_paths ? &cx->cat : NULL, course_err, &cx->cfg, config_err, &term,
               cli_on_progress, &ls, &rep);
    cli_clear_status(&ls);
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < rep.n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "check", rep.items[i].check);
            cJSON_AddStringToObject(o, "status", doctor_status_name(rep.items[i].status));
            cJSON_AddStringToObject(o, "summary", rep.items[i].summary);
            if (rep.items[i].fix[0]) cJSON_AddStringToObject(o, "fix", rep.items[i].fix);
            cJSON_AddItemToArray(arr, o);
        }
        cli_print_json(arr);
        cJSON_Delete(arr);
    } else {
        report_style st = report_style_for(stdout);
        for (int i = 0; i < rep.n; i++) {
            const doctor_finding *f = &rep.items[i];
            const char *color = !st.color ? "" : f->status == DOC_FAIL ? "\033[31;1m" : f->status == DOC_WARN ? "\033[33m" : "\033[32m";
            printf("  %s", color);
            cli_cell(stdout, f->status == DOC_OK ? _("ok") : f->status == DOC_WARN ? _("warn") : _("FAIL"), -4);
            printf("%s  %-14s ", st.color ? "\033[0m" : "", f->check);
            for (const char *line = f->summary; *line;) { /* a summary of several lines stays in its column */
                size_t n = strcspn(line, "\n");
                printf("%s%.*s\n", line == f->summary ? "" : "                       ", (int)n, line);
                line += n + (line[n] == '\n');
            }
            if (f->fix[0] && f->status != DOC_OK) {
                printf("  %-4s  %-14s ", "", "");
                printf(_("what to do: %s\n"), f->fix);
            }
        }
        if (rep.failed && rep.warned)
            printf(P_("\n%d problem to mend (and warnings).\n", "\n%d problems to mend (and warnings).\n",
                      (unsigned long long)rep.failed), rep.failed);
        else if (rep.failed)
            printf(P_("\n%d problem to mend.\n", "\n%d problems to mend.\n", (unsigned long long)rep.failed),
                   rep.failed);
        else if (rep.warned) printf("\n%s\n", _("Everything cltutor needs is here (see the warnings)."));
        else printf("\n%s\n", _("Everything cltutor needs is here."));
    }
    return rep.failed ? 1 : 0;
}
