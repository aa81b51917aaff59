/* asm: a chapter's kernel compiled for NVIDIA PTX (by clang without a GPU, or by the device's own driver), its
 * memory instructions with their widths */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "course/catalog.h"
#include "course/paths.h"
#include "gpumodel/ptx.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char asm_usage[] = N_(
    "Usage: cltutor asm LESSON [--kernel FILE | --solution] [--device SPEC] [--ptx] [--json]\n"
    "\n"
    "Compiles the chapter's kernel for NVIDIA GPUs as clang's NVPTX backend and\n"
    "libclc do (no GPU needed: sudo apt-get install clang-15 libclc-15) and lists\n"
    "its memory instructions by source line: global, local and constant loads,\n"
    "stores and atomics, each with the bytes one work-item moves with it. A\n"
    "vload4 from a float pointer shows here as four 4-byte loads, a read\n"
    "through a float4 pointer as one 16-byte load. NVIDIA's own OpenCL\n"
    "compiler may choose differently: with --device on an NVIDIA GPU, the PTX is\n"
    "the driver's own, with the registers each kernel holds (its PTX has no\n"
    "source lines, so the instructions are counted by kind).\n"
    "\n"
    "  --kernel FILE    the .cl file to compile (default: your exercise)\n"
    "  --solution       the chapter's reference solution\n"
    "  --device SPEC    compile with this device's own OpenCL compiler (an index\n"
    "                   from `cltutor devices` or part of a name): NVIDIA's\n"
    "                   driver gives PTX; another device's binary is not PTX\n"
    "  --ptx            print the whole PTX instead\n"
    "  --json           the instructions as JSON\n");

static const char *op_name(ptx_op op) {
    return op == PTX_LOAD ? _("load") : op == PTX_STORE ? _("store") : _("atomic");
}

static void print_kernel(const ptx_kernel *k) {
    printf("\n%s %s\n  ", _("kernel"), k->name);
    cli_cell(stdout, _("line"), 6);
    fputs("  ", stdout);
    cli_cell(stdout, _("what"), -22);
    cli_cell(stdout, _("bytes"), 6);
    printf("  %s\n", _("instruction"));
    int totals[PTX_GENERIC + 1][3] = {{0}};
    for (int i = 0; i < k->n; i++) {
        const ptx_access *a = &k->acc[i];
        char what[96], line[16];
        snprintf(what, sizeof what, "%s %s", _(ptx_space_name(a->space)), op_name(a->op));
        snprintf(line, sizeof line, "%d", a->line);
        printf("  ");
        cli_cell(stdout, a->line ? line : "?", 6);
        fputs("  ", stdout);
        cli_cell(stdout, what, -22);
        printf("%6d  %s", a->bytes, a->opcode);
        if (a->count > 1) printf("  x%d", a->count);
        putchar('\n');
        totals[a->space][a->op] += a->count;
    }
    if (!k->n) printf("  %s\n", _("(no memory instruction)"));
    if (k->registers > 0) {
        printf("  ");
        printf(_("registers: %d a work-item (ptxas)"), k->registers);
        putchar('\n');
    }
    printf("  ");
    printf(_("global memory: %d loads, %d stores, %d atomics; barriers: %d\n"), totals[PTX_GLOBAL][PTX_LOAD],
           totals[PTX_GLOBAL][PTX_STORE], totals[PTX_GLOBAL][PTX_ATOMIC], k->barriers);
}

static cJSON *report_json(const ptx_report *r, const lesson *l, const char *display) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lesson", l->id);
    cJSON_AddStringToObject(o, "kernel_file", display);
    cJSON_AddStringToObject(o, "compiled_by", r->device[0] ? "driver" : "clang");
    if (r->device[0]) {
        cJSON_AddStringToObject(o, "device", r->device);
        cJSON_AddStringToObject(o, "driver", r->driver);
    }
    cJSON_AddStringToObject(o, "target", r->device[0] ? r->target : "nvptx64-nvidia-nvcl");
    cJSON_AddStringToObject(o, "compiler", r->compiler);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < r->n; i++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", r->kernels[i].name);
        cJSON_AddNumberToObject(k, "barriers", r->kernels[i].barriers);
        if (r->kernels[i].registers > 0) cJSON_AddNumberToObject(k, "registers", r->kernels[i].registers);
        cJSON *acc = cJSON_AddArrayToObject(k, "memory");
        for (int j = 0; j < r->kernels[i].n; j++) {
            const ptx_access *a = &r->kernels[i].acc[j];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddNumberToObject(x, "line", a->line);
            cJSON_AddStringToObject(x, "space", ptx_space_name(a->space));
            cJSON_AddStringToObject(x, "op", a->op == PTX_LOAD ? "load" : a->op == PTX_STORE ? "store" : "atomic");
            cJSON_AddNumberToObject(x, "bytes", a->bytes);
            cJSON_AddNumberToObject(x, "vector", a->vector);
            cJSON_AddNumberToObject(x, "count", a->count);
            cJSON_AddStringToObject(x, "instruction", a->opcode);
            cJSON_AddItemToArray(acc, x);
        }
        cJSON_AddItemToArray(ks, k);
    }
    return o;
}

/* How asm shows a report: the whole PTX, JSON, or the table. */
typedef enum { ASM_TABLE, ASM_PTX, ASM_JSON } asm_view;

static void show(const ptx_report *r, const lesson *l, const char *path, asm_view view) {
    if (view == ASM_PTX) {
        fputs(r->ptx, stdout);
        return;
    }
    if (view == ASM_JSON) {
        cJSON *o = report_json(r, l, path);
        cli_print_json(o);
        cJSON_Delete(o);
        return;
    }
    if (r->device[0])
        printf(_("Chapter %d: %s compiled by the OpenCL driver of %s (%s) for %s; its PTX has no source lines, so "
                 "each kind of instruction is counted\n"), l->number, path, r->device, r->driver,
               r->target[0] ? r->target : "?");
    else
        printf(_("Chapter %d: %s compiled for NVIDIA PTX (%s, libclc; no GPU used)\n"), l->number, path,
               r->compiler[0] ? r->compiler : "clang");
    for (int i = 0; i < r->n; i++) print_kernel(&r->kernels[i]);
    printf("\n%s\n", _("bytes: what one work-item moves with the instruction; a warp of 32 moves 32 times that."));
}

/* The kernel compiled by the device's own driver, in a worker; its PTX shown, or why there is none. */
static int asm_on_device(const lesson *l, const char *path, const char *device, asm_view view) {
    ptx_report r;
    char err[4096];
    int rc = ptx_from_driver(l, path, path, device, &r, err, sizeof err);
    if (rc == 1) fprintf(stderr, _("cltutor asm: %s does not build on that device:\n%s\n"), path, err);
    else if (rc == 2) fprintf(stderr, _("cltutor asm: %s. Without --device, asm shows the PTX clang makes for NVIDIA GPUs.\n"), err);
    else if (rc != 0) fprintf(stderr, "cltutor asm: %s\n", err);
    else show(&r, l, path, view);
    ptx_report_free(&r);
    return rc == 0 ? 0 : rc == 1 ? EXIT_BUILD : rc == 2 || rc == EXIT_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_CRASH;
}

int cmd_asm(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {{"kernel", required_argument, 0, 'k'}, {"solution", no_argument, 0, 'R'},
                                         {"ptx", no_argument, 0, 'p'},         {"json", no_argument, 0, 'j'},
                                         {"device", required_argument, 0, 'd'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *kernel = NULL, *device = NULL;
    int solution = 0, whole = 0, json = 0, ch;
    while ((ch = getopt_long(argc, argv, "k:Rpjd:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': device = optarg; break;
        case 'k': kernel = optarg; break;
        case 'R': solution = 1; break;
        case 'p': whole = 1; break;
        case 'j': json = 1; break;
        case 'h': fputs(_(asm_usage), stdout); return 0;
        default: return cli_usage_error("asm", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage_error("asm", _("which chapter? Give its number or name, e.g. `cltutor %s %d`"), "asm", 4);
    if (optind + 1 < argc) return cli_usage_error("asm", _("unexpected argument '%s'"), argv[optind + 1]);
    if (kernel && solution) return cli_usage_error("asm", "%s", _("--kernel and --solution cannot be used together"));
    if (whole && json) return cli_usage_error("asm", "%s", _("--ptx and --json cannot be used together"));
    int rc = cli_load_course(cx);
    if (rc) return rc;
    const lesson *l = cli_find_lesson(cx, "asm", argv[optind]);
    if (!l) return EXIT_USAGE;
    char path[1400], err[4096];
    if (kernel) snprintf(path, sizeof path, "%s", kernel);
    else if (solution) {
        if (cli_solution_path(cx, "asm", l, path, sizeof path) != 0) return EXIT_USAGE;
    } else if (paths_exercise(&cx->paths, l, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor asm: %s\n", err);
        return EXIT_USAGE;
    }
    if (!util_is_file(path)) {
        fprintf(stderr, "cltutor asm: ");
        fprintf(stderr, _("%s: no such file\n"), path);
        return EXIT_USAGE;
    }
    asm_view view = whole ? ASM_PTX : json ? ASM_JSON : ASM_TABLE;
    if (device) return asm_on_device(l, path, device, view);
    ptx_report r;
    int got = ptx_compile(l, path, path, &r, err, sizeof err);
    if (got < 0) {
        fprintf(stderr, "cltutor asm: %s\n", err);
        return EXIT_NO_DEVICE;
    }
    if (got > 0) {
        fprintf(stderr, _("cltutor asm: %s does not compile:\n%s"), path, err);
        return EXIT_BUILD;
    }
    show(&r, l, path, view);
    ptx_report_free(&r);
    return 0;
}
