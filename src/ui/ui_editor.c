/* ui_editor — the learner's editor: which one, its command line for the
 * kernel at a line, and what follows its exit (the terminal runs it). */
#define _GNU_SOURCE
#include "ui/ui_app.h"
#include "ui/ui_chapter.h"
#include "base/util.h"
#include "text/clhl.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int on_path(const char *cmd) {
    char word[512];
    size_t n = strcspn(cmd, " \t");
    if (n == 0 || n >= sizeof word) return 0;
    memcpy(word, cmd, n);
    word[n] = '\0';
    if (strchr(word, '/')) return access(word, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    char buf[1200];
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, word);
        if (len && access(buf, X_OK) == 0) return 1;
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

/* Whether the editor takes "+LINE FILE" (most do) or another form. */
static int line_style(const char *cmd) {
    char word[256];
    size_t n = strcspn(cmd, " \t");
    snprintf(word, sizeof word, "%.*s", (int)n, cmd);
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    if (!strncmp(base, "code", 4) || !strncmp(base, "codium", 6)) return 1; /* -g FILE:LINE */
    if (!strncmp(base, "subl", 4) || !strcmp(base, "zed")) return 2;         /* FILE:LINE */
    return 0;
}


/* The editor's command for the learner's kernel at line (0: the first
 * build error, else the kernel pane's cursor); -1 after a message saying
 * why there is none. */
int ui_app_editor(ui_app *a, int line, ui_editor *ed) {
    ui_chapter *c = &a->ch;
    memset(ed, 0, sizeof *ed);
    if (!a->in_chapter) return -1;
    if (c->kernel_ro) {
        char buf[1200];
        util_textf(buf, sizeof buf, _("Your copy of the kernel cannot be created: %s. Set CLTUTOR_WORKSPACE to a folder you can write, or start cltutor with --workspace DIR."), c->kernel_err);
        ui_app_message(a, buf);
        return -1;
    }
    if (line <= 0 && c->have_rep && c->rep.error_line > 0) line = c->rep.error_line;
    if (line <= 0 && a->st.pane[PANE_KERNEL].cur > 0) line = a->st.pane[PANE_KERNEL].cur + 1;
    ed->line = line > 0 ? line : 0;
    const char *cands[4] = {getenv("VISUAL"), getenv("EDITOR"), "nano", "vi"};
    const char *name = NULL;
    char tried[600] = "";
    for (int i = 0; i < 4 && !name; i++) {
        if (!cands[i] || !*cands[i]) continue;
        if (on_path(cands[i])) name = cands[i];
        else {
            size_t tl = strlen(tried);
            util_textf(tried + tl, sizeof tried - tl, "%s%s", tl ? ", " : "", cands[i]);
        }
    }
    if (!name) {
        char buf[1600];
        util_textf(buf, sizeof buf, _("No editor found (tried: %s). Set one, for example: export EDITOR=nano, or edit %s in any editor: saving it reruns it here."), tried, c->kernel_path);
        ui_app_message(a, buf);
        return -1;
    }
    util_copy_text(ed->name, sizeof ed->name, name);
    int style = line_style(name), n = 0;
    if (util_pathf(ed->script, sizeof ed->script, "exec %s \"$@\"", name) != 0) {
        ui_app_message(a, _("The editor's command ($VISUAL or $EDITOR) is too long."));
        return -1;
    }
    ed->argv[n++] = "/bin/sh";
    ed->argv[n++] = "-c";
    ed->argv[n++] = ed->script;
    ed->argv[n++] = "sh";
    if (line > 0 && style != 0) {
        if (style == 1) ed->argv[n++] = "-g";
        snprintf(ed->at, sizeof ed->at, "%s:%d", c->kernel_path, line);
        ed->argv[n++] = ed->at;
    } else {
        if (line > 0) {
            snprintf(ed->line_arg, sizeof ed->line_arg, "+%d", line);
            ed->argv[n++] = ed->line_arg;
        }
        ed->argv[n++] = c->kernel_path;
    }
    ed->argv[n] = NULL;
    return 0;
}

void ui_app_while_editing(ui_app *a) {
    ui_chapter *c = &a->ch;
    tui_jobs_drain(&a->jobs);
    ui_app_handle_jobs(a);
    if (a->in_chapter && tui_watch_check(&c->watch, util_now())) {
        char *text = util_read_file(c->kernel_path, NULL);
        if (text && util_hash_text(text) != c->run_hash && a->st.watch) ui_chapter_start_run(a);
        free(text);
    }
}

void ui_app_after_edit(ui_app *a, const ui_editor *ed, int started, int status) {
    ui_chapter *c = &a->ch;
    if (!started) {
        ui_app_note(a, 1, "%s", _("Could not start the editor (fork failed)."));
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        char buf[800];
        util_textf(buf, sizeof buf, _("The editor '%s' could not be started. Set $VISUAL or $EDITOR to an editor you have."), ed->name);
        ui_app_message(a, buf);
        return;
    }
    /* the editor may have saved: reload and run if the file changed */
    tui_watch_check(&c->watch, util_now() + 10);
    char *text = util_read_file(c->kernel_path, NULL);
    unsigned long long h = util_hash_text(text ? text : "");
    free(text);
    if (h != c->kernel_hash || h != c->run_hash) {
        ui_chapter_load_kernel(a);
        if (a->st.watch && h != c->run_hash) ui_chapter_start_run(a);
    }
    /* back at the line edited; from the lesson, in the kernel pane (on a small screen the two share a place) */
    if (ed->line > 0) {
        a->st.pane[PANE_KERNEL].cur = ed->line - 1;
        if (a->st.focus == PANE_LESSON) a->st.focus = PANE_KERNEL;
    }
}

