/* class: a class's progress from the students' workspaces, as a table, CSV or JSON (instructors) */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "base/csv.h"
#include "base/util.h"
#include "course/classroll.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const class_usage = N_(
    "Usage: cltutor class DIR... [--csv] [--json] [--board]\n"
    "\n"
    "A class's progress, read from the students' own workspaces: for each\n"
    "student, the chapters passed, each chapter's state and runs, the best\n"
    "times, the hints opened and the last run. Nothing in the workspaces is\n"
    "changed; a progress file that cannot be read is named in its row.\n"
    "\n"
    "Each DIR is a student's workspace (a folder holding .cltutor/progress.json),\n"
    "a home whose installed course keeps one in .local/share/cltutor, or a\n"
    "folder of either (a class's workspaces, or /home). A student is named by\n"
    "the workspace's folder, or by the home's.\n"
    "\n"
    "  --csv    one line per student and chapter: student, chapter, state,\n"
    "           runs, best_ms, best_device, hints_seen, last_run, error\n"
    "  --json   everything, per student (not with --csv)\n"
    "  --board  a board per chapter: the students who passed it, fastest best\n"
    "           time first, each with the device it was timed on\n"
    "\n"
    "In the table, one mark per chapter: P passed, F failing, C changed since\n"
    "it passed, . not started.\n"
    "\n"
    "Exit status: 0, or 1 when a progress file could not be read, 64 usage error.\n");

typedef enum { CLASS_TABLE, CLASS_CSV, CLASS_JSON, CLASS_BOARD } class_format;

/* A Unix time as "YYYY-MM-DD HH:MM" UTC, or "-" for none. */
static void fmt_when(double when, char *buf, size_t len) {
    if (when <= 0) {
        snprintf(buf, len, "-");
        return;
    }
    time_t t = (time_t)when;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

static char state_mark(progress_state s) {
    switch (s) {
    case PROG_PASSED: return 'P';
    case PROG_FAILING: return 'F';
    case PROG_CHANGED: return 'C';
    default: return '.';
    }
}

static void print_table(const classroll *c) {
    int nw = st_widths(_("student"));
    for (int i = 0; i < c->count; i++)
        if (st_widths(c->items[i].name) > nw) nw = st_widths(c->items[i].name);
    cli_cell(stdout, _("student"), -nw);
    printf("  ");
    cli_cell(stdout, _("passed"), -6);
    printf("  ");
    for (int k = 0; k < c->cat->count; k++) printf("%d ", c->cat->items[k].number % 10);
    printf(" %6s  %s\n", _("runs"), _("last run (UTC)"));
    for (int i = 0; i < c->count; i++) {
        const classroll_student *s = &c->items[i];
        cli_cell(stdout, s->name, -nw);
        printf("  ");
        if (s->error[0]) {
            printf("%s\n", s->error);
            continue;
        }
        char passed[16], when[32];
        snprintf(passed, sizeof passed, "%d/%d", s->passed, c->cat->count);
        cli_cell(stdout, passed, -6);
        printf("  ");
        int runs = 0;
        for (int k = 0; k < c->cat->count; k++) {
            printf("%c ", state_mark(s->state[k]));
            runs += s->runs[k];
        }
        fmt_when(s->last_when, when, sizeof when);
        printf(" %6d  %s\n", runs, when);
    }
    printf("\n%s\n", _("P passed, F failing, C changed since it passed, . not started"));
}

static void print_csv(const classroll *c) {
    char *out = NULL;
    util_sappend(&out, "student,chapter,state,runs,best_ms,best_device,hints_seen,last_run,error\n");
    for (int i = 0; i < c->count; i++) {
        const classroll_student *s = &c->items[i];
        for (int k = 0; k < c->cat->count; k++) {
            const lesson *l = &c->cat->items[k];
            const progress_chapter *pc = s->error[0] ? NULL : progress_find(&s->prog, l->id);
            double last = 0;
            for (int r = 0; pc && r < pc->n_runs; r++)
                if (pc->runs[r].when > last) last = pc->runs[r].when;
            char when[32] = "";
            if (last > 0) fmt_when(last, when, sizeof when);
            csv_field(&out, s->name);
            util_sappend(&out, ",%s,%s,%d,", l->id, s->error[0] ? "" : progress_state_name(s->state[k]), s->runs[k]);
            if (pc && pc->best_ms > 0) util_sappend(&out, "%.6g", pc->best_ms);
            util_sappend(&out, ",");
            csv_field(&out, pc ? pc->best_device : "");
            util_sappend(&out, ",%d,%s,", pc ? pc->hints_seen : 0, when);
            csv_field(&out, s->error);
            util_sappend(&out, "\n");
        }
    }
    fputs(out ? out : "", stdout);
    free(out);
}

static void print_json(const classroll *c) {
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "students");
    for (int i = 0; i < c->count; i++) {
        const classroll_student *s = &c->items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "student", s->name);
        cJSON_AddStringToObject(o, "workspace", s->workspace);
        if (s->error[0]) {
            cJSON_AddStringToObject(o, "error", s->error);
            cJSON_AddItemToArray(arr, o);
            continue;
        }
        cJSON_AddNumberToObject(o, "passed", s->passed);
        cJSON_AddNumberToObject(o, "chapters", c->cat->count);
        cJSON_AddNumberToObject(o, "last_run", s->last_when);
        cJSON *chs = cJSON_AddArrayToObject(o, "chapter_progress");
        for (int k = 0; k < c->cat->count; k++) {
            const lesson *l = &c->cat->items[k];
            const progress_chapter *pc = progress_find(&s->prog, l->id);
            cJSON *ch = cJSON_CreateObject();
            cJSON_AddStringToObject(ch, "id", l->id);
            cJSON_AddNumberToObject(ch, "number", l->number);
            cJSON_AddStringToObject(ch, "state", progress_state_name(s->state[k]));
            cJSON_AddNumberToObject(ch, "runs", s->runs[k]);
            cJSON_AddNumberToObject(ch, "best_ms", pc ? pc->best_ms : 0);
            cJSON_AddStringToObject(ch, "best_device", pc ? pc->best_device : "");
            cJSON_AddNumberToObject(ch, "hints_seen", pc ? pc->hints_seen : 0);
            cJSON_AddItemToArray(chs, ch);
        }
        cJSON_AddItemToArray(arr, o);
    }
    cli_print_json(root);
    cJSON_Delete(root);
}

typedef struct {
    const char *name, *device;
    double ms;
} board_entry;

static int by_time(const void *a, const void *b) {
    const board_entry *x = a, *y = b;
    return x->ms < y->ms ? -1 : x->ms > y->ms ? 1 : strcmp(x->name, y->name);
}

/* Per chapter, the students whose chapter stands passed, by best time (their own timed runs). */
static void print_board(const classroll *c) {
    board_entry *e = calloc((size_t)(c->count ? c->count : 1), sizeof *e);
    if (!e) return;
    for (int k = 0; k < c->cat->count; k++) {
        const lesson *l = &c->cat->items[k];
        int n = 0;
        for (int i = 0; i < c->count; i++) {
            const classroll_student *s = &c->items[i];
            const progress_chapter *pc = s->error[0] ? NULL : progress_find(&s->prog, l->id);
            if (pc && s->state[k] == PROG_PASSED && pc->best_ms > 0)
                e[n++] = (board_entry){s->name, pc->best_device, pc->best_ms};
        }
        char head[256];
        util_textf(head, sizeof head, _("Chapter %d: %s"), l->number, cli_title(l));
        printf("%s%s\n", k ? "\n" : "", head);
        if (!n) printf("   %s\n", _("no one has passed it yet"));
        qsort(e, (size_t)n, sizeof *e, by_time);
        for (int i = 0; i < n; i++) {
            printf("%3d. ", i + 1);
            cli_cell(stdout, e[i].name, -24);
            printf(" %10.3f ms  %s\n", e[i].ms, e[i].device);
        }
    }
    free(e);
}

int cmd_class(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {{"csv", no_argument, 0, 'c'}, {"json", no_argument, 0, 'j'},
                                         {"board", no_argument, 0, 'b'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int ch, csv = 0, json = 0, board = 0;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': csv = 1; break;
        case 'j': json = 1; break;
        case 'b': board = 1; break;
        case 'h': fputs(_(class_usage), stdout); return 0;
        default: return cli_usage_error("class", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_usage_error("class", "%s", _("give the students' workspaces (DIR...)"));
    if (csv + json + board > 1) return cli_usage_error("class", "%s", _("--csv, --json and --board: choose one"));
    class_format format = csv ? CLASS_CSV : json ? CLASS_JSON : board ? CLASS_BOARD : CLASS_TABLE;
    int rc = cli_load_catalog(cx); /* the instructor's own workspace is not needed, nor touched */
    if (rc) return rc;
    classroll roll;
    classroll_init(&roll, &cx->cat);
    for (int i = optind; i < argc; i++) {
        char err[1400];
        if (classroll_add(&roll, argv[i], err, sizeof err) < 0) {
            classroll_free(&roll);
            return cli_usage_error("class", "%s", err);
        }
    }
    classroll_sort(&roll);
    if (format == CLASS_CSV) print_csv(&roll);
    else if (format == CLASS_JSON) print_json(&roll);
    else if (format == CLASS_BOARD) print_board(&roll);
    else print_table(&roll);
    int unreadable = 0;
    for (int i = 0; i < roll.count; i++)
        if (roll.items[i].error[0]) {
            if (format != CLASS_TABLE) fprintf(stderr, "cltutor class: %s\n", roll.items[i].error);
            unreadable = 1;
        }
    classroll_free(&roll);
    return unreadable ? 1 : 0;
}
