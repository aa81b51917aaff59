/* report — a run's result for people (text) and for programs (JSON). */
#ifndef CLT_REPORT_H
#define CLT_REPORT_H
#include <stdio.h>
#include <cJSON.h>
#include "run/engine.h"

typedef struct {
    int color;            /* ANSI colours */
    int max_diff_rows;    /* rows of the correctness diff (default 12) */
} report_style;

/* ANSI escapes the text reports use when report_style.color is set. */
#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_GREEN "\033[32m"
#define C_RED "\033[31m"
#define C_YELLOW "\033[33m"
#define C_DIM "\033[2m"

/* Colours when out is a terminal and NO_COLOR is unset. */
report_style report_style_for(FILE *out);

/* The full text report of one run. */
void report_print(FILE *out, const report_style *st, const lesson *l, const engine_report *r);

/* The correctness diff alone (used by the report and the UI). */
void report_print_diff(FILE *out, const report_style *st, const verify_report *vr, int max_rows);

/* Effective bandwidth in GB/s and GFLOP/s of the median time (0 when not timed). */
double report_gbps(const engine_report *r);
double report_gflops(const engine_report *r);

/* A device as a JSON object: index, name, platform, type, version, driver. */
cJSON *report_device_json(const engine_device *d);

/* The run as JSON (see docs/json.md). */
cJSON *report_json(const lesson *l, const char *kernel_path, const engine_report *r);

#endif
