/* reset: put a chapter's starting file back */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
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

int cmd_reset(cli_ctx *cx, int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(_("Usage: cltutor reset LESSON\n\nPuts the chapter's starting file back in your workspace. Your\n"
                "current file is kept beside it as FILE.bak (FILE.bak.2, .3, ... when\n"
                "earlier backups exist: none is overwritten).\n"), stdout);
        return 0;
    }
    if (argc != 2) return cli_usage_error("reset", "%s", _("give exactly one chapter, e.g. `cltutor reset 2`"));
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *l = cli_find_lesson(cx, "reset", argv[1]);
    if (!l) return EXIT_USAGE;
    char path[1400], bak[1500], err[1400];
    if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor reset: %s\n", err);
        return EXIT_USAGE;
    }
    int r = paths_reset_exercise(&cx->paths, l, path, bak, sizeof bak, err, sizeof err);
    if (r < 0) {
        fprintf(stderr, "cltutor reset: %s\n", err);
        return EXIT_USAGE;
    }
    if (r == 1) printf(_("%s already is the starting file: nothing to reset.\n"), path);
    else printf(_("Reset %s (your version is in %s).\n"), path, bak);
    return 0;
}
