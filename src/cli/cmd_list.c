/* list: the chapters and the learner's state in each */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "course/catalog.h"
#include "run/engine.h"
#include "course/paths.h"
#include "course/progress.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cmd_list(cli_ctx *cx, int argc, char **argv) {
    int json;
    int done = cli_json_only_options("list", argc, argv,
                                     N_("Usage: cltutor list [--json]\n\nLists the chapters with their state (not "
                                     "started, failing,\npassed, or changed: passed, and the file changed since) and your best time. The next chapter to do is marked "
                                     "with '>'.\n"), &json);
    if (done >= 0) return done;
    int rc = cli_load_course(cx);
    if (rc) return rc;
    /* each chapter's state for its file as it is now */
    progress_state now[CATALOG_MAX];
    const char *next = NULL;
    for (int i = 0; i < cx->cat.count; i++) {
        progress_chapter *pc = progress_get(&cx->prog, cx->cat.items[i].id, 0);
        now[i] = pc ? pc->state : PROG_NOT_STARTED;
        char path[1400];
        paths_exercise_path(&cx->paths, &cx->cat.items[i], path, sizeof path);
        if (now[i] == PROG_PASSED) now[i] = progress_state_of_file(pc, path);
        if (!next && now[i] != PROG_PASSED) next = cx->cat.items[i].id;
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
            cJSON_AddStringToObject(o, "state", progress_state_name(now[i]));
            cJSON_AddNumberToObject(o, "best_ms", pc ? pc->best_ms : 0);
            cJSON_AddBoolToObject(o, "next", next && !strcmp(next, l->id));
            cJSON_AddItemToArray(arr, o);
        }
        cli_print_json(arr);
        cJSON_Delete(arr);
        return 0;
    }
    report_style st = report_style_for(stdout);
    const char *head_title = _("chapter"), *head_state = _("state");
    int tw = st_widths(head_title) > 7 ? st_widths(head_title) : 7; /* the widest title */
    int sw = st_widths(head_state) > 12 ? st_widths(head_state) : 12; /* the widest state */
    for (int i = 0; i < cx->cat.count; i++) {
        int w = st_widths(cli_title(&cx->cat.items[i])), ws = st_widths(_(progress_state_name(now[i])));
        if (w > tw) tw = w;
        if (ws > sw) sw = ws;
    }
    printf("   %-3s ", "#");
    cli_cell(stdout, head_title, -tw);
    fputs("  ", stdout);
    cli_cell(stdout, head_state, -sw);
    printf(" %s\n", _("best time"));
    for (int i = 0; i < cx->cat.count; i++) {
        const lesson *l = &cx->cat.items[i];
        progress_chapter *pc = progress_get(&cx->prog, l->id, 0);
        progress_state s = now[i];
        char best[48] = "-";
        if (pc && pc->best_ms > 0) snprintf(best, sizeof best, "%.3f ms", pc->best_ms);
        const char *col = !st.color ? "" : s == PROG_PASSED ? "\033[32m" : s == PROG_FAILING ? "\033[31m"
                        : s == PROG_CHANGED ? "\033[33m" : "";
        printf(" %c %-3d ", next && !strcmp(next, l->id) ? '>' : ' ', l->number);
        cli_cell(stdout, cli_title(l), -tw);
        printf("  %s", col);
        cli_cell(stdout, _(progress_state_name(s)), -sw);
        printf("%s %s\n", st.color ? "\033[0m" : "", best);
    }
    if (next) {
        const lesson *l = catalog_find(&cx->cat, next);
        char text[1200], exercise[1400], err[1400];
        lesson_text_path(l, i18n_lang(), text, sizeof text);
        if (paths_exercise(&cx->paths, l, exercise, sizeof exercise, err, sizeof err) != 0)
            snprintf(exercise, sizeof exercise, "exercises/%s/%s", l->id, l->exercise);
        printf(_("\nNext: chapter %d, %s. Read it in `cltutor` (or %s),\nedit %s, then run `cltutor run %d`.\n"),
               l->number, cli_title(l), text, exercise, l->number);
    }
    return 0;
}
