/* gm_predict — a kernel's time on a real GPU predicted from the GPU memory model's counts and a measured device profile (devices/NAME.ini). */
#ifndef CLT_GM_PREDICT_H
#define CLT_GM_PREDICT_H
#include <cJSON.h>
#include <stddef.h>

#include "course/catalog.h"
#include "gpumodel/gpumodel.h"
#include "gpumodel/ptx.h"

/* The device figures a prediction uses: one key each in the profile's
 * [limits] section. X(enum, key, need, what it is); need: GPN_POSITIVE must
 * be there and above 0, GPN_PRESENT must be there (0 allowed), GPN_OPTIONAL
 * may be left out (the model then does without it). */
#define GP_KEYS(X)                                                                                                 \
    X(GPK_COPY, "copy_gb_per_s", GPN_POSITIVE, "copy bandwidth, read + write bytes, 1e9/s")                         \
    X(GPK_FP32, "fp32_gflop_per_s", GPN_POSITIVE, "FP32 peak, 1e9 flop/s")                                          \
    X(GPK_L1, "l1_lines_g_per_s", GPN_POSITIVE, "128-byte lines the load/store units serve, 1e9/s (whole device)")  \
    X(GPK_LOCAL, "local_passes_g_per_s", GPN_POSITIVE, "local-memory bank passes, 1e9/s (whole device)")            \
    X(GPK_CONST, "constant_reads_g_per_s", GPN_POSITIVE, "constant-cache addresses served, 1e9/s (whole device)")   \
    X(GPK_GATOM_SPREAD, "global_atomic_spread_g_per_s", GPN_POSITIVE,                                               \
      "global atomics, each work-item its own address, 1e9/s")                                                      \
    X(GPK_GATOM_SAME, "global_atomic_same_g_per_s", GPN_POSITIVE, "global atomics, every work-item one address, 1e9/s") \
    X(GPK_LATOM_SPREAD, "local_atomic_spread_g_per_s", GPN_POSITIVE,                                                \
      "local atomics, each work-item its own address, 1e9/s")                                                       \
    X(GPK_LATOM_SAME, "local_atomic_same_g_per_s", GPN_POSITIVE,                                                    \
      "local atomics, every work-item of a group one address, 1e9/s")                                               \
    X(GPK_LAUNCH, "launch_us", GPN_PRESENT, "time of an empty kernel, microseconds")                                \
    X(GPK_WARP_NS, "warp_request_ns", GPN_PRESENT, "time a lone warp takes per cached load request, nanoseconds")   \
    X(GPK_L2, "l2_gb_per_s", GPN_OPTIONAL, "bandwidth of a copy that fits the last-level cache, 1e9/s (recorded, not used)") \
    X(GPK_LOCAL_CONFLICT, "local_conflict_passes_g_per_s", GPN_OPTIONAL,                                            \
      "local-memory bank passes of 32-way conflicted requests, 1e9/s (whole device)")                               \
    X(GPK_CONST_LINES, "constant_lines_g_per_s", GPN_OPTIONAL,                                                      \
      "constant-cache lines when a warp's reads fall in 32 lines, 1e9/s (whole device)")                            \
    X(GPK_L1_REQUESTS, "l1_requests_g_per_s", GPN_OPTIONAL,                                                         \
      "cached load requests of one line, one work-item a warp, 1e9/s (whole device)")                                \
    X(GPK_DRAM_NS, "dram_latency_ns", GPN_OPTIONAL,                                                                 \
      "time a lone work-item waits for a load from DRAM whose address the last load gave, nanoseconds")       \
    X(GPK_SCATTER, "scattered_store_sectors_g_per_s", GPN_OPTIONAL,                                                \
      "sectors of 4-byte global stores, each lane of a warp in a sector of its own, 1e9/s (a transpose's writes)")

typedef enum { GPN_POSITIVE, GPN_PRESENT, GPN_OPTIONAL } gp_need;

typedef enum {
#define GPK_ENUM(e, key, need, what) e,
    GP_KEYS(GPK_ENUM)
#undef GPK_ENUM
    GP_N_KEYS
} gp_key;

typedef struct {
    char path[1024];
    char name[128];                  /* "NVIDIA H100" */
    char device[128];                /* the OpenCL device name it was measured on */
    char driver[64], date[32];
    int compute_units;
    double v[GP_N_KEYS];
    int estimated[GP_N_KEYS];        /* 1: the [source] section says "estimate ..." */
    char source[GP_N_KEYS][160];     /* where each figure comes from */
    /* [accuracy], written by the validation: "" when not yet validated */
    char validated[32];              /* date */
    double geomean_error;            /* geometric-mean absolute error, 0.23 = 23% */
    int kernels, within_2x, directions_ok, directions;
} gp_profile;

/* Reads a profile. Returns 0, or -1 with "FILE:LINE: what is wrong" in err. */
int gp_profile_load(const char *path, gp_profile *p, char *err, size_t errlen);

/* A profile by name (devices/NAME.ini under data_dir) or by path (one with a
 * '/' or ending in .ini). Returns 0, or -1 with what exists in err. */
int gp_profile_find(const char *data_dir, const char *name, char *path, size_t len, char *err, size_t errlen);

/* Writes a profile (the figures, their sources, no accuracy). Returns 0 or -1 with err. */
int gp_profile_write(const char *path, const gp_profile *p, char *err, size_t errlen);

/* The time terms: X(enum, name for machines, the limit's name for people) */
#define GP_TERMS(X)                                                              \
    X(GPT_MEMORY, "memory", N_("memory-bound"))                                  \
    X(GPT_L1, "load_store", N_("load/store-bound"))                              \
    X(GPT_LOCAL, "local", N_("local-memory-bound"))                              \
    X(GPT_CONSTANT, "constant", N_("constant-cache-bound"))                      \
    X(GPT_COMPUTE, "compute", N_("compute-bound"))                               \
    X(GPT_GATOMIC, "global_atomics", N_("global-atomic-bound"))                  \
    X(GPT_LATOMIC, "local_atomics", N_("local-atomic-bound"))                    \
    X(GPT_LATENCY, "latency", N_("latency-bound"))                               \
    X(GPT_LAUNCH, "launch", N_("launch-bound"))

typedef enum {
#define GPT_ENUM(e, name, label) e,
    GP_TERMS(GPT_ENUM)
#undef GPT_ENUM
    GP_N_TERMS
} gp_term;

const char *gp_term_name(gp_term t);

/* What a kernel does at the predicted size, in the units of the profile. */
typedef struct {
    double dram_bytes;        /* global bytes the work-items use (at least the problem's ideal bytes) */
    double l1_lines;          /* 128-byte lines of global loads and stores */
    double local_passes;      /* bank passes of local loads and stores */
    double local_requests;    /* of those, the first pass of each request (and 128-byte phase) */
    double constant_reads;    /* distinct constant addresses, summed over requests */
    double constant_lines;    /* lines past each request's first, summed over requests */
    double l1_requests;       /* global load and store requests */
    double flops;             /* the problem's floating-point operations */
    double warp_instructions; /* instructions the warps issue, from the compiled code (0: not known) */
    double gatomic_spread, gatomic_same;  /* global atomic operations, by whether they collide */
    double latomic_spread, latomic_same;  /* local atomic warp requests, by whether they collide */
    double warp_requests;     /* memory requests one warp makes, one after another */
    double dram_waits;        /* DRAM loads waited for, over all warps: global load requests over the loads the
                               * compiled code issues together for their line, times the share not from caches */
    double scattered_sectors; /* sectors global stores write part of, past the whole sectors their bytes fill */
    double warps;             /* the launch's warps */
    double group_warps;       /* warps in a work-group */
    double groups_per_cu;     /* gp_scale's */
    int launches;
} gp_counts;

typedef struct {
    char name[64];
    gp_counts c;
    double t[GP_N_TERMS];     /* seconds each term would take alone */
    double total_s;
    gp_term limit;
} gp_kernel;

#define GP_MAX_ARGS 16

/* How the analysed counts grow to the predicted size: instructions run at
 * most once per work-item grow with the work-items (items), those in loops
 * with the work (items x loop); a serial kernel (dispatch = serial) keeps
 * its work-items. Where the host's geometry is known (groups > 0: the
 * problem's launch_items), global-memory accesses grow with the buffer they
 * touch (else with the data) and everything else with the work-groups,
 * whatever the loops. */
typedef struct {
    double items, loop;
    double data;                /* the ideal bytes' growth */
    double groups;              /* the kernel's work-items' growth, 0: not known */
    double arg[GP_MAX_ARGS];    /* with groups: each buffer argument's growth, 0: not known */
    double ideal_bytes, flops;  /* the problem's work model at the predicted size */
    double groups_per_cu;       /* the lesson's groups_per_compute_unit: the host launches at most that many
                                 * work-groups a compute unit, each then doing more (0: no such cap) */
} gp_scale;

/* The scale between two sizes of a chapter's problem. Returns 0, or -1 with err. */
int gp_scale_for(const lesson *l, const char *from_size, const char *to_size, gp_scale *s, char *err, size_t errlen);

/* s with the growth of one kernel's work-groups, where the problem knows them
 * (answer: the problem's helper kernel's words at the analysis, for a shape
 * the file chooses; n_answer 0 where none). */
void gp_scale_kernel(const lesson *l, const char *from_size, const char *to_size, const char *kernel,
                     const unsigned *answer, int n_answer, gp_scale *s);

/* The warps a compute unit holds at once, for the DRAM-latency term: 64 on
 * NVIDIA's Volta to Hopper data-centre GPUs (2048 work-items an SM). */
#define GP_RESIDENT_WARPS 64

/* The warps of c's launch a device holds at once (at least 1). */
double gp_resident_warps(const gp_counts *c, const gp_profile *p);

/* The time the resident warps spend waiting for c's DRAM loads, one load in
 * flight a warp, where p knows its DRAM latency (else 0). */
double gp_dram_chain_s(const gp_counts *c, const gp_profile *p);

/* Notes in rep's global loads how many load instructions the compiled code
 * (ptx: clang's, with source lines) has for each line: a loop the compiler
 * unrolled issues that many loads before it waits for the first. */
void gp_note_compiled(gpumodel_report *rep, const ptx_report *ptx);

/* gp_note_compiled with rep's kernel compiled by clang for NVIDIA PTX here;
 * nothing where clang or libclc is missing or the kernel does not compile. */
void gp_read_compiled(gpumodel_report *rep, const lesson *l);

/* Whether the profile named gpu (NULL: GP_DEFAULT_GPU) predicts with the
 * compiled code (it has dram_latency_ns, as the H200's): where it does not,
 * a prediction is the same without it, and nothing need be compiled. */
int gp_uses_compiled(const char *data_dir, const char *gpu);

/* gp_read_compiled for rep and for prev (the file it was compared with;
 * either may be NULL) where the profile named gpu (NULL: GP_DEFAULT_GPU)
 * predicts with them (it has dram_latency_ns): a clang run each, skipped
 * where the prediction would not use it. */
void gp_read_compiled_for(const char *data_dir, const catalog *cat, const char *gpu, const lesson *l,
                          gpumodel_report *rep, gpumodel_report *prev);

/* A kernel's counts at the predicted size. */
void gp_counts_of(const gm_kernel *k, const gp_scale *s, gp_counts *c);

/* The model: each term is a count over the profile's rate; the load/store,
 * local, constant and compute terms share the issue slots and add up; the
 * kernel takes the launches plus the largest of memory, issue and atomics. */
void gp_predict_kernel(const gp_counts *c, const gp_profile *p, gp_kernel *out);

#define GP_MAX_KERNELS 8
typedef struct {
    char size[96];            /* the predicted size */
    char from_size[96];       /* the analysed size */
    gp_kernel k[GP_MAX_KERNELS];
    int n;
    double total_s;
    gp_term limit;            /* the busiest kernel's limit */
    int limit_kernel;
} gp_prediction;

/* Predicts an analysed report at `size`. Returns 0, or -1 with err. */
int gp_predict(const gpumodel_report *rep, const lesson *l, const char *size, const gp_profile *p,
               gp_prediction *out, char *err, size_t errlen);

/* The size predicted for a chapter: its bench_size, with the analysed input kind where it names one. */
void gp_target_size(const lesson *l, const char *analysed, char *buf, size_t len);

/* "memory-bound: 5.1 GB at 3.0 TB/s" */
void gp_limit_text(const gp_prediction *pr, const gp_profile *p, char *buf, size_t len);
/* "not yet validated" or "measured error 23% (geometric mean over 34 kernels, 30 within 2x)" */
void gp_accuracy_text(const gp_profile *p, char *buf, size_t len);

/* The prediction for a chapter's analysis (and the file it was compared with,
 * prev, may be NULL) as lines for people: each labelled a prediction. */
int gp_lines(const gp_prediction *pr, const gp_prediction *prev, const char *prev_label, const gp_profile *p,
             char ***lines, int *n);
void gp_lines_free(char **lines, int n);

cJSON *gp_json(const gp_prediction *pr, const gp_prediction *prev, const gp_profile *p);


/* A chapter's prediction, ready to show: the profile, the kernel's and the
 * compared file's predictions. */
typedef struct {
    int ok;                 /* 1: pr holds a prediction */
    char err[1024];         /* else why not */
    gp_profile prof;
    gp_prediction pr, prev;
    int has_prev;
    char prev_label[512];
    double predict_s;       /* the time gp_chapter_predict took (the analysis not counted) */
} gp_chapter;

/* Predicts an analysis (and prev, the analysis it was compared with, or
 * NULL: the previous chapter's reference, found in cat, scaled with that
 * chapter's dispatch) of chapter l on the GPU named gpu (a profile name or
 * file; NULL: GP_DEFAULT_GPU) at size (NULL: gp_target_size). Returns 0
 * when out->ok. */
#define GP_DEFAULT_GPU "nvidia-h100"
/* The chapter whose kernel chapter l's is compared with: the previous
 * chapter where it solves the same problem, else l (its starting file). */
const lesson *gp_compared_lesson(const catalog *cat, const lesson *l);
int gp_chapter_predict(const char *data_dir, const catalog *cat, const char *gpu, const lesson *l,
                       const gpumodel_report *rep, const gpumodel_report *prev, const char *size, gp_chapter *out);
/* Adds "prediction" to a command's JSON object (with "predict_s"), or where
 * it failed and asked is set, "prediction_error". gp may be NULL. */
void gp_chapter_add_json(cJSON *o, const gp_chapter *gp, int asked);

#endif
