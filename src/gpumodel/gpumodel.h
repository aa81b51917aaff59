/* gpumodel — the GPU memory model: runs a kernel on the Oclgrind simulator with cltutor's plugin and turns its per-instruction warp figures into a report. */
#ifndef CLT_GPUMODEL_H
#define CLT_GPUMODEL_H
#include <cJSON.h>

#include "course/catalog.h"
#include "run/engine.h"
#include "course/paths.h"
#include "gpumodel/gm_sample.h"

#define GM_WARP 32      /* work-items per warp */
#define GM_SECTOR 32    /* bytes per memory sector */
#define GM_BANKS 32     /* local-memory banks of 4 bytes */

typedef enum { GM_GLOBAL = 0, GM_CONSTANT, GM_LOCAL, GM_N_SPACES } gm_space;
typedef enum { GM_LOAD = 0, GM_STORE, GM_ATOMIC, GM_N_KINDS } gm_kind;

/* Which of an instruction's kept warp requests this is (the plugin keeps a few to be drawn). */
typedef enum {
    GM_REQ_FIRST = 0,   /* the first request of the first warp */
    GM_REQ_WORST,       /* the most sectors, the highest conflict degree, the most contention */
    GM_REQ_INTERVAL,    /* work-group 0's first request in one barrier interval */
    GM_N_REQ_ROLES
} gm_req_role;

/* One warp request as the simulator saw it: every lane's address and size. */
typedef struct {
    gm_req_role role;
    unsigned epoch;                      /* barriers the work-group had passed */
    unsigned warp;                       /* warp in the work-group */
    unsigned long long group;            /* the work-group's linear index */
    unsigned long long addr[GM_WARP];    /* simulator addresses: only differences and alignment matter */
    unsigned size[GM_WARP];              /* bytes; 0: the lane did not take part */
} gm_request;

/* One memory instruction (a source line and column, one kind of access). */
typedef struct {
    int line, col;
    gm_space space;
    gm_kind kind;
    unsigned width_min, width_max;       /* bytes one work-item asks for per execution */
    /* sums from the simulator (see docs/gpu-model.md) */
    unsigned long long execs;            /* work-item executions */
    unsigned long long items;            /* work-items that executed it */
    unsigned long long bytes;            /* bytes asked for by all work-items */
    unsigned long long warps;            /* warps that executed it */
    unsigned long long requests;         /* warp requests (a warp executing it once) */
    unsigned long long lanes;            /* work-items taking part, summed over requests */
    unsigned long long sectors;          /* distinct 32-byte sectors, summed over requests (global, constant) */
    unsigned long long useful;           /* requested bytes, at most the bytes moved, per request */
    unsigned long long bank_sum, bank_max;             /* bank-conflict degree (local) */
    unsigned long long distinct_sum, distinct_max;     /* distinct addresses per request */
    unsigned long long contention_sum, contention_max; /* most work-items of a request on one address (atomics) */
    unsigned long long skipped;          /* executions past the sampling limit, left out */
    /* derived */
    double bytes_per_item, requests_per_warp, sectors_per_request, efficiency;
    double bank_avg, distinct_avg, contention_avg, lanes_avg;
    char note[512];                      /* a short note for the source line */
    gm_request *reqs;                    /* requests kept to be drawn (gm_draw.h), owned */
    int n_reqs;
    int reqs_block;                      /* the launch its barrier intervals came from (parsing) */
    int arg;                             /* global: the kernel argument whose buffer it touched, -1: unknown */
    unsigned long long lines;            /* global, constant: distinct 128-byte lines summed over requests (0: not known) */
    int compiled_loads;                  /* global loads: the load instructions the compiled code has for this line,
                                          * issued together where the compiler unrolled a loop (0: not known) */
    int compiled_split;                  /* global and constant loads and stores: the instructions one execution
                                          * becomes, where the compiled code moves fewer bytes at a time than
                                          * width_max (a vload4 from a float pointer: 4); 0: not known */
    double compiled_instr;               /* the compiled code's instructions issued per piece executed, the piece
                                          * with them: the basic blocks of its line's memory instructions, each
                                          * shared among the memory instructions in it (a loop's arithmetic with
                                          * its loads); 0: not known */
} gm_access;

/* The figures of one kind of access in one address space, over a kernel. */
typedef struct {
    int present;
    unsigned long long execs, requests, bytes, sectors, useful;
    unsigned long long bank_max, distinct_max, contention_max;
    unsigned width_max;                  /* the widest access, bytes per work-item */
    double efficiency, sectors_per_request, bank_avg, distinct_avg, contention_avg;
    int busiest;                         /* index in acc[] of the instruction that costs most */
} gm_summary;

#define GM_MAX_ANSWER 16

typedef struct {
    char name[64];
    int dims;
    unsigned long long global[3], local[3];
    int launches;
    double sim_s;                        /* seconds the simulation took */
    gm_access *acc;
    int n_acc;
    gm_summary sum[GM_N_SPACES][GM_N_KINDS];
    unsigned long long moved;            /* global-memory bytes moved (sectors x 32) */
    unsigned answer[GM_MAX_ANSWER];      /* a one-work-item kernel's stored words, by address */
    int n_answer;
} gm_kernel;

typedef enum {
    GM_ISSUE_MEMORY = 0,
    GM_ISSUE_RACE,
    GM_ISSUE_UNINIT,
    GM_ISSUE_DIVERGENCE,
    GM_ISSUE_OTHER,
    GM_ISSUE_POINTER_INT, /* a pointer converted to an integer: an address, which differs between simulator and device */
} gm_issue_kind;

/* A problem the simulator found, once per kind and source location. */
typedef struct {
    gm_issue_kind kind;
    char kernel[64];
    char what[200];                      /* "Invalid write of size 4 at global memory" */
    gm_space space;                      /* the memory it names; GM_N_SPACES: none, or private memory */
    int line, col;                       /* where (0 when unknown) */
    int line2, col2;                     /* the other access of a data race */
    char work_item[128], work_item2[128];
    unsigned long long count;            /* how many times */
} gm_issue;

typedef struct {
    int line;
    char text[1024];
} gm_note;

typedef enum { GM_OK = 0, GM_UNAVAILABLE, GM_FAILED } gm_status;

/* What a line of the report is, for a view to draw it (never read off its words). */
#define GM_LINE_ROLES(X)                                                                                   \
    X(GM_LINE_BLANK, "blank")     X(GM_LINE_HEADING, "heading") /* a title at the left margin */            \
    X(GM_LINE_TEXT, "text")       /* a sentence, indented by its leading spaces */                          \
    X(GM_LINE_ROW, "row")         /* one memory instruction's figures; line_src names its source line */    \
    X(GM_LINE_SOURCE, "source")   /* a quoted source line: columns matter */                                \
    X(GM_LINE_CARET, "caret")     /* a caret under a column of the source line above it */                  \
    X(GM_LINE_PROBLEM, "problem") /* a memory error, data race or uninitialised read */                     \
    X(GM_LINE_CLEAN, "clean")     /* the simulator found no problem */

typedef enum {
#define GM_ENUM(e, name) e,
    GM_LINE_ROLES(GM_ENUM)
#undef GM_ENUM
} gm_line_role;

typedef struct {
    gm_status status;
    char message[1536];                  /* why the analysis could not be done; what to do */
    engine_report run;                   /* the simulated run: build log, result check */
    char kernel_path[1024];              /* the kernel as messages name it */
    char source_path[1024];              /* the file its source lines are quoted from */
    char size_text[64];                  /* the size analysed */
    char size_origin[24];                /* "--size", "analysis_size" or "fallback" */
    gm_kernel *kernels;
    int n_kernels;
    gm_issue *issues;
    int n_issues;
    gm_note *notes;                      /* source line -> short note, sorted by line */
    int n_notes;
    char **lines;                        /* the whole report as text lines, no newlines */
    int n_lines;
    gm_line_role *line_roles;            /* what each line is (n_lines of them) */
    int *line_src;                       /* rows: the source line they are about, else 0 */
    char prev_label[512];                /* what the comparison is with, or "" */
    int prev_kept;                       /* the comparison reused the kept analysis of that file */
    char **compare;                      /* the comparison as sentences */
    int n_compare;
    gm_kernel *prev_kernels;             /* the compared analysis's kernels, for drawing before -> after */
    int n_prev_kernels;
    double wall_s;
    int recalled;                        /* taken from the cache of run results (run/runcache), not simulated again */
    gm_sampling sample;                  /* the work-groups simulated (groups 0: all); the figures count for all */
    unsigned helper_answer[GM_MAX_ANSWER]; /* what the problem's helper kernel answered (left out of kernels) */
    int n_helper_answer;
} gpumodel_report;

/* The size a chapter is analysed at: its analysis_size key, else a small size per problem. */
const char *gpumodel_analysis_size(const lesson *l, int *is_fallback);

/* Finds Oclgrind's ICD library and the plugin. Returns 0, or -1 with what to install in why. */
int gpumodel_backend(char *icd, size_t icd_len, char *plugin, size_t plugin_len, char *why, size_t why_len);

/* Analyses rq's kernel on Oclgrind: rq->size_spec NULL means the analysis size;
 * rq->timeout_s limits the simulation (allow a minute or two: the simulator is slow;
 * `analyze` gives 120 s); the device, timing budget and worker settings are chosen
 * here. rep->status says how it went; rep->lines hold the report. Returns 0 when
 * analysed. */
int gpumodel_analyze(const engine_request *rq, run_progress_cb cb, void *user, volatile int *cancel,
                     gpumodel_report *rep);

/* As gpumodel_analyze, without the race detector (a third less CPU): the
 * figures of a course file (a reference), whose findings nobody reads. Shares
 * its kept results with the comparisons of gpumodel_analyze_chapter. */
int gpumodel_analyze_figures(const engine_request *rq, run_progress_cb cb, void *user, volatile int *cancel,
                             gpumodel_report *rep);

/* Analyses rq's kernel at a large size with only smp's work-groups simulated,
 * without the race check: figures scaled to every work-group, for the cost at
 * a hidden test's size. The run's answer is wrong (the other groups never
 * ran); the test at that size judges correctness. */
int gpumodel_analyze_sampled(const engine_request *rq, const gm_sampling *smp, run_progress_cb cb, void *user,
                             volatile int *cancel, gpumodel_report *rep);

/* The last analysis of the file a chapter's kernel is compared with, kept
 * by its owner between analyses (it rarely changes while a learner saves
 * again). Zeroed to start; one analysis at a time; gpumodel_cache_free() at
 * the end. */
typedef struct {
    int set;
    char path[1200], size[96];
    uint64_t seed;
    long long mtime_ns, file_size;
    gpumodel_report rep;
} gpumodel_cache;
void gpumodel_cache_free(gpumodel_cache *c);

/* Analyses a chapter's kernel (rq->lesson, rq->kernel_path) and, when compare is set,
 * compares it with the previous chapter's reference where that chapter solves the
 * same problem, else with the chapter's starting file (unless the kernel is that
 * file). The comparison's progress comes marked (run_progress.comparison). cache,
 * when given, keeps the compared file's analysis for the next call. */
int gpumodel_analyze_chapter(const engine_request *rq, const catalog *cat, const paths *p, int compare,
                             gpumodel_cache *cache, run_progress_cb cb, void *user, volatile int *cancel,
                             gpumodel_report *rep);

/* Rebuilds rep's text (report lines, comparison, its label) in the current
 * language after a change of language; kept is the compared file's analysis
 * that gpumodel_analyze_chapter kept (NULL: none). */
void gpumodel_retranslate(gpumodel_report *rep, const gpumodel_cache *kept, const lesson *l, const catalog *cat,
                          const paths *pth);

/* Adds the comparison with prev (an analysis of the previous chapter's reference),
 * described by label, and rebuilds rep->lines. */
void gpumodel_compare(gpumodel_report *rep, const gpumodel_report *prev, const char *label);

/* Parses the plugin's output into rep's kernels and issues and computes the figures. */
int gpumodel_parse(const char *text, gpumodel_report *rep, char *err, size_t errlen);

/* Rebuilds rep->notes and rep->lines from the figures. */
void gpumodel_format(gpumodel_report *rep);

/* The note for a source line, or NULL. */
const char *gpumodel_note(const gpumodel_report *rep, int line);

/* The report as JSON (see docs/gpu-model.md). */
cJSON *gpumodel_json(const gpumodel_report *rep);

/* What an instruction costs, to pick the busiest: sectors (global), bank passes
 * (local), serialised atomics, distinct addresses (constant), summed over requests. */
double gpumodel_access_cost(const gm_access *a);
/* Deep copies and frees of kernels (their accesses and kept requests). */
gm_kernel *gpumodel_kernels_copy(const gm_kernel *k, int n);
void gpumodel_kernels_free(gm_kernel *k, int n);

/* Whether the analysis found memory errors, data races or uninitialised reads. */
int gpumodel_has_errors(const gpumodel_report *rep);

const char *gpumodel_space_name(gm_space s);
/* Reads the first line of one of Oclgrind's messages ("Read-write data race
 * at global memory address 0x..."): what kind of problem, and in which memory. */
gm_issue_kind gpumodel_issue_kind(const char *heading);
gm_space gpumodel_issue_space(const char *heading);
const char *gpumodel_kind_name(gm_kind k);

void gpumodel_report_free(gpumodel_report *rep);

#endif
