/* bench — the device's own limits (copy bandwidth, FP32 peak) and each
 * chapter's reference measured against them. */
#ifndef CLT_BENCH_H
#define CLT_BENCH_H

/* characters of a row's name in the table: lesson.ini short_title and
 * bench_beyond_title must fit (cltutor validate checks) */
#define BENCH_TITLE_WIDTH 24
#include <stddef.h>
#include "course/catalog.h"
#include "run/engine.h"

typedef struct {
    engine_device device;
    double copy_bytes;      /* bytes of one copy buffer */
    double copy_gbps;       /* read + write bytes per second, 1e9 */
    double copy_ms;         /* median time of one copy */
    double fp32_gflops;     /* a chain of FMAs per work-item */
    unsigned long long global_mem;
    /* with a profile (bench_device_profile) only: each from a micro-kernel */
    int profiled;
    unsigned compute_units;
    double l1_glines;       /* 128-byte lines/s, 1e9: every work-item its own line, in cache */
    double local_gpasses;   /* local-memory bank passes/s, 1e9: conflict-free reads */
    double local_conflict_gpasses; /* the same with 32-way conflicts (a check of the first) */
    double const_greads;    /* distinct __constant addresses/s, 1e9 */
    double const_glines;    /* __constant lines/s when a warp's 32 reads are in 32 lines, 1e9 */
    double l1_grequests;    /* cached one-line load requests/s, one work-item a warp, 1e9 */
    double gatom_spread, gatom_same;  /* global atomics/s, 1e9: own address, one address */
    double latom_spread, latom_same;  /* local atomic warp requests/s, 1e9 */
    double launch_us;       /* an empty kernel's event time */
    double warp_request_ns; /* one warp alone: time per cached load request */
    double dram_latency_ns; /* one work-item alone: a load from DRAM whose address the last one gave */
    double scatter_gsectors; /* 4-byte stores each in a sector of its own (a transpose's writes), 1e9 sectors/s */
    double l2_gbps;         /* a copy that fits the last-level cache (read + write) */
} bench_limits;

/* Measures the device's limits in a worker process. Returns ENG_PASS, or
 * ENG_USAGE (a --device that names no device), ENG_NO_DEVICE or
 * ENG_RUNTIME with err. */
int bench_device_limits(const char *device_spec, run_progress_cb cb, void *user, bench_limits *out,
                        char *err, size_t errlen);
/* The limits and the micro-kernels a device profile needs (docs/bench.md). */
int bench_device_profile(const char *device_spec, run_progress_cb cb, void *user, bench_limits *out,
                         char *err, size_t errlen);

typedef struct {
    const lesson *lesson;
    char variant[64];       /* "" for the reference, else the "beyond" kernel's file */
    char size[64];
    engine_report report;   /* the reference's run; free with bench_row_free */
    double gbps, gflops;
    double serial_ms;       /* the serial C reference on this CPU: median of 3 runs after a warm-up */
    double openmp_ms;       /* the same work as an OpenMP C loop on this CPU (median of 4 after a
                             * warm-up), 0 if the problem has none */
} bench_row;

/* Runs a chapter's reference (kernel_path) at `size`, timed, then times the
 * CPU baselines: the serial C reference and the OpenMP loop. Both depend only
 * on the problem, size and seed, so chapters that share them reuse them. */
/* The CPU baselines of the last problem, size and seed measured, kept by
 * the caller between chapters that share them (zeroed to start). */
typedef struct {
    const problem_ops *ops;
    char size[64];
    uint64_t seed;
    double serial_ms, openmp_ms;
} bench_baselines;

int bench_chapter(const lesson *l, const char *kernel_path, const char *device_spec, const char *size,
                  double budget_s, bench_baselines *kept, run_progress_cb cb, void *user, bench_row *row);
void bench_row_free(bench_row *row);

/* The size a chapter is benchmarked at on this kind of device. */
const char *bench_size_for(const lesson *l, const char *device_type);

/* The sizes a chapter is benchmarked at: bench_size_for, once per input kind
 * that lesson.ini's bench_inputs names ("uniform equal": "256M:uniform",
 * "256M:equal"), else once as it is. Returns how many (at most max). */
#define BENCH_MAX_INPUTS 4
int bench_sizes_for(const lesson *l, const char *device_type, char sizes[][64], int max);

#endif
