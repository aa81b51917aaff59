/* main — cltutor's entry point; also the worker program that runs kernels. */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "run/worker.h"
#include "run/wproto.h"
#include "base/util.h"
#include "text/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `cltutor __worker-selftest DIR [DEVICE]`: shows what a confined worker may do. */
static int selftest(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: cltutor " WPROTO_SELFTEST " DIR [DEVICE]  (DIR: a folder outside the worker's)\n");
        return EXIT_USAGE;
    }
    char *text = NULL, err[1024] = "";
    int rc = wproto_selftest(argv[2], argc > 3 ? argv[3] : NULL, &text, err, sizeof err);
    if (rc < 0) fprintf(stderr, "cltutor: %s\n", err);
    if (text) fputs(text, stdout);
    free(text);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    char dir[4096];
    i18n_init(util_exe_dir(dir, sizeof dir) == 0 ? dir : NULL, CLT_LOCALEDIR);
    if (argc >= 2 && !strcmp(argv[1], WPROTO_MODE)) return worker_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], WPROTO_SELFTEST)) return selftest(argc, argv);
    return cli_main(argc, argv);
}
