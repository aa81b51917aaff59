/* devices: every OpenCL platform and device */
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

int cmd_devices(cli_ctx *cx, int argc, char **argv) {
    int json;
    int done = cli_json_only_options("devices", argc, argv,
                                     N_("Usage: cltutor devices [--json]\n\nLists every OpenCL platform and device with "
                                     "the index that\n--device takes. The default device (first GPU, else PoCL's CPU "
                                     "device) is marked '*'.\n"), &json);
    if (done >= 0) return done;
    engine_device *devs = NULL;
    char err[1024] = "";
    int n = engine_list_devices(&devs, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "cltutor devices: %s\n", err);
        free(devs);
        return EXIT_NO_DEVICE;
    }
    int def = engine_default_device(devs, n, cx->cfg.device);
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < n; i++) {
            cJSON *o = report_device_json(&devs[i]);
            cJSON_AddBoolToObject(o, "default", i == def);
            cJSON_AddItemToArray(arr, o);
        }
        cli_print_json(arr);
        cJSON_Delete(arr);
    } else if (n == 0) {
        fputs(_("No OpenCL device found.\nInstall PoCL for the CPU (apt-get install pocl-opencl-icd) or your GPU's driver.\n"),
              stdout);
    } else {
        const char *last = "";
        for (int i = 0; i < n; i++) {
            if (strcmp(last, devs[i].platform)) printf(_("Platform: %s\n"), devs[i].platform);
            last = devs[i].platform;
            printf(" %c %d  %-5s %s  ", i == def ? '*' : ' ', devs[i].index, devs[i].type, devs[i].name);
            printf(_("(%s, driver %s)"), devs[i].version, devs[i].driver);
            putchar('\n');
        }
        printf("\n%s\n", _("* the default device. Choose another with --device INDEX or --device NAME."));
    }
    free(devs);
    return n == 0 ? EXIT_NO_DEVICE : 0;
}
