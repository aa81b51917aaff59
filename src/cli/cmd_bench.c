/* bench: each chapter's reference against the device's own limits */
#define _DEFAULT_SOURCE
#include "run/bench.h"
#include "gpumodel/gm_predict.h"
#include "run/peers.h"
#include "cli/cli.h"
#include "run/report.h"
#include "base/util.h"
#include "text/i18n.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const bench_usage = N_(
    "Usage: cltutor bench [LESSON...|all] [--device SPEC] [--budget SEC] [--json] [--no-peers]\n"
    "       cltutor bench --profile FILE [--device SPEC]\n"
    "\n"
    "Measures the device's own limits (the bandwidth of a copy kernel over\n"
    "buffers far larger than any cache, reads and writes counted, and a\n"
    "simple FP32 peak kernel), then each chapter's reference solution at its\n"
    "benchmark size: median kernel time and spread, effective bandwidth and\n"
    "GFLOP/s as fractions of those limits, and the speedup over GPU1\n"
    "(chapter 2), over the serial C reference and over an OpenMP C loop\n"
    "doing the same work on this CPU. On a CPU device the chapters run at a\n"
    "smaller size (lesson.ini bench_size_cpu, else default_size).\n"
    "\n"
    "  --device SPEC   an index from `cltutor devices` or part of a device name\n"
    "  --budget SEC    time spent repeating each kernel (default 2)\n"
    "  --json          print the results as JSON\n"
    "  --no-peers      do not time the libraries a learner would call instead\n"
    "  --profile FILE  measure what the time prediction needs (copy bandwidth,\n"
    "                  FP32 peak and a micro-kernel each for cached lines, local\n"
    "                  banks, constant reads, atomics and launches) and write\n"
    "                  them to FILE as a device profile (devices/*.ini); no chapters\n"
    "\n"
    "Each kernel is timed as the copy is: a few instances on inputs of their\n"
    "own, launched back to back, each checked after the series.\n"
    "\n"
    "Peers: on an NVIDIA GPU, where python3 finds PyTorch (and NPP), the same\n"
    "run times torch.bincount, torch.cumsum and NPP's integral image at the\n"
    "sizes of chapters 7, 8 and 9 (bench/peers.py), and, where nvcc is\n"
    "installed, NVIDIA's CUB (DeviceHistogram, DeviceScan) at those of\n"
    "chapters 7 and 8, with the reference's speed-up over each. A peer that\n"
    "is not there is named, not timed.\n");

static void fmt_ratio(char *buf, size_t len, double r) {
    if (r <= 0) snprintf(buf, len, "-");
    else snprintf(buf, len, r >= 100 ? "%.0fx" : r >= 10 ? "%.1fx" : "%.2fx", r);
}

/* "268435456:uniform" -> "256M:uniform": a one-number size in K or M when it
 * divides evenly; sizes with an x are left as they are. */
static void fmt_size(char *buf, size_t len, const char *size_text) {
    char *end;
    long n = strtol(size_text, &end, 10);
    if (end == size_text || *end == 'x' || n <= 0) snprintf(buf, len, "%s", size_text);
    else if (n % 1048576 == 0) snprintf(buf, len, "%ldM%s", n / 1048576, end);
    else if (n % 1024 == 0) snprintf(buf, len, "%ldK%s", n / 1024, end);
    else snprintf(buf, len, "%s", size_text);
}

/* The row's name in the table: the beyond kernel's title, else the chapter's
 * short title (lesson.ini short_title; validate keeps both within the column). */
static void row_title(char *buf, size_t len, const bench_row *r) {
    const lesson *l = r->lesson;
    const char *t = r->variant[0] ? lesson_param_get(l, "bench_beyond_title", r->variant)
                                  : lesson_param_get(l, "short_title", l->title);
    snprintf(buf, len, "%.*s", BENCH_TITLE_WIDTH, t);
}

/* The peers' results, for the rows they compare with. */
typedef struct {
    bench_peer items[PEERS_MAX];
    int n;
    char note[512]; /* why none was timed; "" when the script ran */
} peers_run;

/* Whether a row ran on the input kind ("" or NULL: any): "256M:equal" is equal. */
static int row_input_is(const bench_row *r, const char *input) {
    const char *colon = strchr(r->report.size_text, ':');
    return !input || !*input || (colon && !strcmp(colon + 1, input));
}

/* The chapter's reference (beyond 0) or beyond kernel (1) that did a
 * problem on an input kind ("": the first of any), passed; NULL none. */
static const bench_row *row_for_problem(const bench_row *rows, int n, const char *problem, int beyond,
                                        const char *input) {
    for (int i = 0; i < n; i++)
        if (!rows[i].variant[0] == !beyond && rows[i].report.status == ENG_PASS &&
            !strcmp(rows[i].lesson->problem, problem) && row_input_is(&rows[i], input))
            return &rows[i];
    return NULL;
}

/* The count before the size's ":INPUT" ("268435456:uniform" -> "268435456"). */
static void size_count(const bench_row *r, char *out, size_t len) {
    out[0] = 0;
    if (!r) return;
    util_copy_text(out, len, r->report.size_text);
    char *colon = strchr(out, ':');
    if (colon) *colon = 0;
    long v;
    if (!strchr(out, 'x') && util_parse_count(out, &v) == 0) snprintf(out, len, "%ld", v);
}

static void measure_peers(const cli_ctx *cx, const bench_limits *lim, const bench_row *rows, int n, double budget,
                          cli_live_status *live, peers_run *pr) {
    memset(pr, 0, sizeof *pr);
    const bench_row *by[3] = {row_for_problem(rows, n, "bytes", 0, ""), row_for_problem(rows, n, "scan", 0, ""),
                              row_for_problem(rows, n, "integral", 0, "")};
    if (!by[0] && !by[1] && !by[2]) return; /* no chapter here has a peer */
    if (!strstr(lim->device.type, "GPU") || !util_contains_ci(lim->device.platform, "NVIDIA")) {
        util_textf(pr->note, sizeof pr->note, _("not timed: they run through CUDA, and %s is not an NVIDIA GPU"),
                   lim->device.name);
        return;
    }
    peers_sizes sz;
    memset(&sz, 0, sizeof sz);
    size_count(by[0], sz.bytes, sizeof sz.bytes);
    for (int i = 0; i < n; i++) { /* CUB's histogram on every input kind the reference ran on */
        const char *colon = strchr(rows[i].report.size_text, ':');
        size_t used = strlen(sz.bytes_inputs);
        if (!rows[i].variant[0] && !strcmp(rows[i].lesson->problem, "bytes") && colon)
            snprintf(sz.bytes_inputs + used, sizeof sz.bytes_inputs - used, "%s%s", used ? "," : "", colon + 1);
    }
    size_count(by[1], sz.scan, sizeof sz.scan);
    size_count(by[2], sz.integral, sizeof sz.integral);
    char script[1400];
    util_pathf(script, sizeof script, "%s/bench/peers.py", cx->paths.data);
    if (live->enabled) fprintf(stderr, "\r\033[K%s", _("Timing the peers (PyTorch, NPP, CUB)..."));
    pr->n = peers_measure(script, &sz, budget, 300, pr->items, PEERS_MAX, pr->note, sizeof pr->note);
    if (live->enabled) fprintf(stderr, "\r\033[K");
    if (pr->n < 0) pr->n = 0;
    else if (pr->n > 0) pr->note[0] = 0;
}

/* A peer's figures beside its chapter's reference: GB/s on the reference's
 * ideal bytes, and how many times faster the reference is. */
static void peer_figures(const bench_peer *p, const bench_row *r, double *gbps, double *speedup) {
    *gbps = *speedup = 0;
    if (!r || p->status != PEER_PASS || p->median_ms <= 0) return;
    *gbps = r->gbps * r->report.timing.median / p->median_ms;
    *speedup = p->median_ms / r->report.timing.median;
}

static void print_peers_table(const bench_limits *lim, const bench_row *rows, int n, const peers_run *pr) {
    if (!pr->n && !pr->note[0]) return;
    printf("\n%s\n", _("Peers: what a learner would call instead, on the same GPU at the same size (CUDA events after a warm-up)."));
    if (pr->note[0]) printf("  %s\n", pr->note);
    for (int i = 0; i < pr->n; i++) {
        const bench_peer *p = &pr->items[i];
        const bench_row *r = row_for_problem(rows, n, p->problem, 0, p->input),
                        *b = row_for_problem(rows, n, p->problem, 1, p->input);
        char num[8] = "-", med[16], ratio[16], ratio_b[16], size[48];
        if (r) snprintf(num, sizeof num, "%d", r->lesson->number);
        if (p->status != PEER_PASS) {
            printf("%-3s %-24s %s: %s\n", num, p->name, peer_status_name(p->status), p->message);
            continue;
        }
        double gbps, speedup, gbps_b, speedup_b;
        peer_figures(p, r, &gbps, &speedup);
        peer_figures(p, b, &gbps_b, &speedup_b);
        util_fmt_ms(med, sizeof med, p->median_ms);
        fmt_ratio(ratio, sizeof ratio, speedup);
        char spec[96];
        snprintf(spec, sizeof spec, "%s%s%s", p->size, p->input[0] ? ":" : "", p->input);
        fmt_size(size, sizeof size, spec);
        printf("%-3s %-24s %-16s %10s %8.1f GB/s %5.1f%%  ", num, p->name, size, med, gbps,
               lim->copy_gbps > 0 ? 100 * gbps / lim->copy_gbps : 0);
        if (b) {
            fmt_ratio(ratio_b, sizeof ratio_b, speedup_b);
            printf(_("reference %s, %d+ %s the peer's speed (%s)\n"), ratio, b->lesson->number, ratio_b, p->version);
        } else {
            printf(_("reference %s the peer's speed (%s)\n"), ratio, p->version);
        }
    }
}

static void add_peers_json(cJSON *o, const bench_limits *lim, const bench_row *rows, int n, const peers_run *pr) {
    cJSON *arr = cJSON_AddArrayToObject(o, "peers");
    if (pr->note[0]) cJSON_AddStringToObject(o, "peers_note", pr->note);
    for (int i = 0; i < pr->n; i++) {
        const bench_peer *p = &pr->items[i];
        const bench_row *r = row_for_problem(rows, n, p->problem, 0, p->input),
                        *b = row_for_problem(rows, n, p->problem, 1, p->input);
        double gbps, speedup, gbps_b, speedup_b;
        peer_figures(p, r, &gbps, &speedup);
        peer_figures(p, b, &gbps_b, &speedup_b);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "peer", p->name);
        cJSON_AddStringToObject(c, "problem", p->problem);
        if (r) cJSON_AddNumberToObject(c, "chapter", r->lesson->number);
        cJSON_AddStringToObject(c, "size", p->size);
        if (p->input[0]) cJSON_AddStringToObject(c, "input", p->input);
        cJSON_AddStringToObject(c, "status", peer_status_name(p->status));
        if (p->status == PEER_PASS) {
            cJSON_AddNumberToObject(c, "median_ms", p->median_ms);
            cJSON_AddNumberToObject(c, "runs", p->runs);
            cJSON_AddNumberToObject(c, "gb_per_s", gbps);
            cJSON_AddNumberToObject(c, "fraction_of_copy", lim->copy_gbps > 0 ? gbps / lim->copy_gbps : 0);
            cJSON_AddNumberToObject(c, "reference_speedup", speedup);
            if (b) cJSON_AddNumberToObject(c, "beyond_speedup", speedup_b);
            cJSON_AddStringToObject(c, "version", p->version);
        } else {
            cJSON_AddStringToObject(c, "message", p->message);
        }
        cJSON_AddItemToArray(arr, c);
    }
}

/* The rows as JSON; returns how many failed. */
static int print_bench_json(const bench_limits *lim, const bench_row *rows, int n, const bench_row *gpu1,
                            const peers_run *pr, const char *date) {
    int failures = 0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "date", date);
    cJSON_AddItemToObject(o, "device", report_device_json(&lim->device));
    cJSON *lj = cJSON_AddObjectToObject(o, "limits");
    cJSON_AddNumberToObject(lj, "copy_gb_per_s", lim->copy_gbps);
    cJSON_AddNumberToObject(lj, "copy_buffer_bytes", lim->copy_bytes);
    cJSON_AddNumberToObject(lj, "fp32_gflop_per_s", lim->fp32_gflops);
    cJSON *arr = cJSON_AddArrayToObject(o, "chapters");
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        const engine_report *e = &r->report;
        cJSON *c = cJSON_CreateObject();
        cJSON_AddNumberToObject(c, "chapter", r->lesson->number);
        cJSON_AddStringToObject(c, "lesson", r->lesson->id);
        cJSON_AddStringToObject(c, "kernel", r->variant[0] ? r->variant : r->lesson->exercise);
        cJSON_AddBoolToObject(c, "beyond", r->variant[0] != 0);
        cJSON_AddStringToObject(c, "size", e->size_text[0] ? e->size_text : r->size);
        cJSON_AddStringToObject(c, "status", engine_status_name(e->status));
        cJSON_AddNumberToObject(c, "runs", e->n_samples);
        cJSON_AddNumberToObject(c, "median_ms", e->timing.median);
        cJSON_AddNumberToObject(c, "min_ms", e->timing.min);
        cJSON_AddNumberToObject(c, "max_ms", e->timing.max);
        cJSON_AddNumberToObject(c, "relative_standard_error", e->timing.rse);
        cJSON_AddNumberToObject(c, "gb_per_s", r->gbps);
        cJSON_AddNumberToObject(c, "fraction_of_copy", lim->copy_gbps > 0 ? r->gbps / lim->copy_gbps : 0);
        cJSON_AddNumberToObject(c, "gflop_per_s", r->gflops);
        cJSON_AddNumberToObject(c, "fraction_of_fp32_peak", lim->fp32_gflops > 0 ? r->gflops / lim->fp32_gflops : 0);
        cJSON_AddNumberToObject(c, "serial_ms", r->serial_ms);
        cJSON_AddNumberToObject(c, "openmp_ms", r->openmp_ms);
        cJSON_AddNumberToObject(c, "speedup_over_serial", e->timing.median > 0 ? r->serial_ms / e->timing.median : 0);
        cJSON_AddNumberToObject(c, "speedup_over_openmp", e->timing.median > 0 && r->openmp_ms > 0 ? r->openmp_ms / e->timing.median : 0);
        if (gpu1 && !strcmp(r->lesson->problem, "surf") && !strcmp(gpu1->report.size_text, e->size_text))
            cJSON_AddNumberToObject(c, "speedup_over_gpu1", gpu1->report.timing.median / e->timing.median);
        if (e->status != ENG_PASS) cJSON_AddStringToObject(c, "message", e->message);
        cJSON_AddItemToArray(arr, c);
        failures += e->status != ENG_PASS;
    }
    add_peers_json(o, lim, rows, n, pr);
    cli_print_json(o);
    cJSON_Delete(o);
    return failures;
}

/* The rows as a table; returns how many failed. */
static int print_bench_table(const bench_limits *lim, const bench_row *rows, int n, const bench_row *gpu1,
                             const peers_run *pr, const char *date) {
    int failures = 0;
    printf(_("Device:  %s (%s, %s, driver %s), %s\n"), lim->device.name, lim->device.type, lim->device.platform,
           lim->device.driver, date);
    printf(_("Limits:  copy %.1f GB/s (%.0f MiB buffers, read + write), FP32 peak %.1f GFLOP/s\n\n"), lim->copy_gbps,
           lim->copy_bytes / 1048576, lim->fp32_gflops);
    /* the column heads: words in the learner's language, units as they are */
    printf("%-3s ", "#");
    cli_cell(stdout, _("kernel"), -24);
    putchar(' ');
    cli_cell(stdout, _("size"), -16);
    putchar(' ');
    cli_cell(stdout, _("median"), 10);
    putchar(' ');
    cli_cell(stdout, _("spread"), 6);
    printf(" %8s %6s %8s %6s %7s %7s %7s\n", "GB/s", "%copy", "GFLOP/s", "%peak", "vs GPU1", "vs C", "vs OMP");
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        const engine_report *e = &r->report;
        char title[BENCH_TITLE_WIDTH + 1], size[48], med[16], g1[16], vs_c[16], vs_omp[16], num[8];
        row_title(title, sizeof title, r);
        snprintf(num, sizeof num, "%d%s", r->lesson->number, r->variant[0] ? "+" : "");
        if (e->status != ENG_PASS) {
            printf("%-3s %-24s %-16s %s: %s\n", num, title, r->size, _(e->headline), e->message);
            failures++;
            continue;
        }
        util_fmt_ms(med, sizeof med, e->timing.median);
        double spread = e->timing.median > 0 ? (e->timing.max - e->timing.min) / e->timing.median * 100 : 0;
        fmt_ratio(g1, sizeof g1, gpu1 && !strcmp(r->lesson->problem, "surf") &&
                                         !strcmp(gpu1->report.size_text, e->size_text)
                                     ? gpu1->report.timing.median / e->timing.median : 0);
        fmt_ratio(vs_c, sizeof vs_c, r->serial_ms / e->timing.median);
        fmt_ratio(vs_omp, sizeof vs_omp, r->openmp_ms > 0 ? r->openmp_ms / e->timing.median : 0);
        char gfl[16] = "-", pk[16] = "-";
        if (r->gflops > 0) {
            snprintf(gfl, sizeof gfl, "%.1f", r->gflops);
            snprintf(pk, sizeof pk, "%.1f%%", lim->fp32_gflops > 0 ? 100 * r->gflops / lim->fp32_gflops : 0);
        }
        fmt_size(size, sizeof size, e->size_text);
        printf("%-3s %-24s %-16s %10s %5.1f%% %8.1f %5.1f%% %8s %6s %7s %7s %7s\n", num, title,
               size, med, spread, r->gbps, lim->copy_gbps > 0 ? 100 * r->gbps / lim->copy_gbps : 0, gfl,
               pk, g1, vs_c, vs_omp);
    }
    printf("\n%s", _("median: kernel time from profiling events after a warm-up; spread: (max - min) / median.\n"
           "GB/s: bytes an ideal kernel must move / median. vs GPU1, C, OMP: speedup over chapter 2's\n"
           "kernel at the same size, the serial C reference and an OpenMP C loop on this machine's CPU.\n"
           "N+: the chapter's \"beyond\" kernel, past what the chapter asks.\n"));
    print_peers_table(lim, rows, n, pr);
    return failures;
}

/* bench --profile: the device's figures, written as a profile for gm_predict. */
static int write_profile(const char *device, const char *file) {
    cli_live_status live = {.enabled = isatty(2)};
    bench_limits lim;
    char err[1400];
    int st = bench_device_profile(device, cli_on_progress, &live, &lim, err, sizeof err);
    cli_clear_status(&live);
    if (st != ENG_PASS) {
        fprintf(stderr, "cltutor bench: %s\n", err);
        return st == ENG_USAGE ? EXIT_USAGE : EXIT_NO_DEVICE;
    }
    gp_profile p;
    memset(&p, 0, sizeof p);
    util_copy_text(p.name, sizeof p.name, lim.device.name);
    util_copy_text(p.device, sizeof p.device, lim.device.name);
    util_copy_text(p.driver, sizeof p.driver, lim.device.driver);
    time_t now = time(NULL);
    strftime(p.date, sizeof p.date, "%Y-%m-%d", gmtime(&now));
    p.compute_units = (int)lim.compute_units;
    const double v[GP_N_KEYS] = {lim.copy_gbps, lim.fp32_gflops, lim.l1_glines, lim.local_gpasses, lim.const_greads,
                                 lim.gatom_spread, lim.gatom_same, lim.latom_spread, lim.latom_same, lim.launch_us,
                                 lim.warp_request_ns, lim.l2_gbps, lim.local_conflict_gpasses, lim.const_glines,
                                 lim.l1_grequests, lim.dram_latency_ns, lim.scatter_gsectors};
    for (int k = 0; k < GP_N_KEYS; k++) {
        p.v[k] = v[k];
        snprintf(p.source[k], sizeof p.source[k], "measured: cltutor bench --profile, %s", p.date);
    }
    if (gp_profile_write(file, &p, err, sizeof err) != 0) {
        fprintf(stderr, "cltutor bench: %s\n", err);
        return EXIT_CRASH;
    }
    printf(_("Device:  %s (%s, %s, driver %s), %s\n"), lim.device.name, lim.device.type, lim.device.platform,
           lim.device.driver, p.date);
    printf(_("Profile: copy %.1f GB/s, FP32 %.1f GFLOP/s, cached lines %.1f G/s (%.1f G one-line requests/s), "
             "local passes %.1f G/s "
             "(%.1f G/s with 32-way conflicts), constant reads %.1f G/s (%.1f G lines/s, 32 lines a warp), "
             "global atomics %.2f / %.2f G/s "
             "(own / one address), local atomic requests %.2f / %.2f G/s, launch %.1f us, a lone warp's request %.1f ns, "
             "a DRAM load in a chain %.1f ns, scattered store sectors %.2f G/s, cached copy %.1f GB/s\n"),
           lim.copy_gbps, lim.fp32_gflops, lim.l1_glines, lim.l1_grequests, lim.local_gpasses, lim.local_conflict_gpasses,
           lim.const_greads, lim.const_glines, lim.gatom_spread, lim.gatom_same, lim.latom_spread, lim.latom_same, lim.launch_us,
           lim.warp_request_ns, lim.dram_latency_ns, lim.scatter_gsectors, lim.l2_gbps);
    printf(_("Written to %s\n"), file);
    return 0;
}

int cmd_bench(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {{"device", required_argument, 0, 'd'},
                                         {"budget", required_argument, 0, 'b'},
                                         {"json", no_argument, 0, 'j'},
                                         {"no-peers", no_argument, 0, 'P'},
                                         {"profile", required_argument, 0, 'p'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *device = NULL, *profile = NULL;
    double budget = 2;
    int json = 0, no_peers = 0, ch;
    while ((ch = getopt_long(argc, argv, "d:b:jPp:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': device = optarg; break;
        case 'b':
            if (cli_parse_double("bench", "--budget", optarg, 0.1, 600, &budget)) return EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'P': no_peers = 1; break;
        case 'p': profile = optarg; break;
        case 'h': fputs(_(bench_usage), stdout); return 0;
        default: return cli_usage_error("bench", _("unknown option %s"), argv[optind - 1]);
        }
    }
    device = cli_device(cx, device);
    if (profile) {
        if (optind < argc) return cli_usage_error("bench", "%s", _("--profile measures the device, not chapters"));
        return write_profile(device, profile);
    }
    int rc = cli_load_course(cx);
    if (rc) return rc;
    /* which chapters */
    const lesson *chosen[CATALOG_MAX];
    int selected[CATALOG_MAX], n = 0;
    if (cli_select_lessons(cx, "bench", argc - optind, argv + optind, selected) < 0) return EXIT_USAGE;
    for (int i = 0; i < cx->cat.count; i++)
        if (selected[i]) chosen[n++] = &cx->cat.items[i];
    cli_live_status live = {.enabled = isatty(2)};
    bench_limits lim;
    char err[512];
    int st = bench_device_limits(device, cli_on_progress, &live, &lim, err, sizeof err);
    if (st != ENG_PASS) {
        cli_clear_status(&live);
        fprintf(stderr, "cltutor bench: %s\n", err);
        return st == ENG_USAGE ? EXIT_USAGE : EXIT_NO_DEVICE;
    }
    cli_clear_status(&live);
    char spec[16];
    snprintf(spec, sizeof spec, "%d", lim.device.index); /* the same device for every chapter */

    /* each chapter's reference, and its "beyond" kernel where it has one */
    bench_row *rows = calloc((size_t)(2 * BENCH_MAX_INPUTS * n + 1), sizeof *rows);
    if (!rows) return fprintf(stderr, "cltutor bench: %s\n", _("out of memory")), EXIT_CRASH;
    int n_chapters = n;
    n = 0;
    bench_baselines baselines = {0}; /* chapters of one problem and size share the CPU's times */
    for (int i = 0; i < n_chapters; i++) {
        const lesson *l = chosen[i];
        const char *beyond = lesson_param_get(l, "bench_beyond", NULL);
        char sizes[BENCH_MAX_INPUTS][64];
        int n_sizes = bench_sizes_for(l, lim.device.type, sizes, BENCH_MAX_INPUTS);
        for (int s = 0; s < n_sizes; s++) /* the kernel beside its beyond kernel, on the same inputs */
            for (int v = 0; v < (beyond ? 2 : 1); v++) {
                char path[1400];
                if (cli_solution_path(cx, "bench", l, path, sizeof path) != 0) {
                    for (int k = 0; k < n; k++) bench_row_free(&rows[k]);
                    free(rows);
                    return EXIT_USAGE;
                }
                if (v) {
                    char *slash = strrchr(path, '/');
                    snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "%s", beyond);
                }
                if (live.enabled) {
                    fprintf(stderr, "\r\033[K[%d/%d] ", i + 1, n_chapters);
                    fprintf(stderr, v ? _("chapter %d: %s (beyond)\n") : _("chapter %d: %s\n"), l->number,
                            cli_title(l));
                }
                bench_chapter(l, path, spec, sizes[s], budget, &baselines, cli_on_progress, &live, &rows[n]);
                if (v) snprintf(rows[n].variant, sizeof rows[n].variant, "%s", beyond);
                cli_clear_status(&live);
                n++;
            }
    }
    /* GPU1 (chapter 2) is the baseline of the SURF stages */
    const bench_row *gpu1 = NULL;
    for (int i = 0; i < n; i++)
        if (rows[i].lesson->number == 2 && !rows[i].variant[0] && rows[i].report.status == ENG_PASS) gpu1 = &rows[i];

    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    peers_run peers = {0};
    if (!no_peers) measure_peers(cx, &lim, rows, n, budget, &live, &peers);
    int failures = json ? print_bench_json(&lim, rows, n, gpu1, &peers, date)
                        : print_bench_table(&lim, rows, n, gpu1, &peers, date);
    for (int i = 0; i < n; i++) bench_row_free(&rows[i]);
    free(rows);
    return failures ? EXIT_WRONG : 0;
}
