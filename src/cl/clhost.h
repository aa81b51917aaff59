/* clhost — the OpenCL host layer (used only in worker processes): devices, builds, events. */
#ifndef CLT_CLHOST_H
#define CLT_CLHOST_H
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stddef.h>

typedef struct {
    int index;                 /* global index across platforms, as `cltutor devices` shows */
    int platform_index;
    char platform[128];
    char name[256];
    char vendor[128];
    char version[128];         /* CL_DEVICE_VERSION */
    char c_version[64];        /* CL_DEVICE_OPENCL_C_VERSION */
    char driver[64];
    char type[8];              /* "GPU", "CPU", "ACCEL", "OTHER" */
    unsigned compute_units;
    unsigned long long global_mem;
    unsigned long long local_mem;
    size_t max_work_group;
    cl_platform_id platform_id;
    cl_device_id device_id;
} clh_device;

typedef struct {
    clh_device dev;
    cl_context context;
    cl_command_queue queue;
} clh_ctx;

/* Error codes a lookup returns (they double as exit statuses). */
enum { CLH_OK = 0, CLH_NO_DEVICE = 69, CLH_BAD_SPEC = 64 };

const char *clh_error_name(cl_int err);
/* Whether clh_error_name knows the code (vendors report faults with codes of their own). */
int clh_error_known(cl_int err);

/* Lists every device of every platform; *out is malloc'd. Returns count or -1. */
int clh_list(clh_device **out, char *err, size_t errlen);

/* Picks a device: spec is an index, a case-insensitive part of the name, or
 * NULL/"" for the default (first GPU, else PoCL's CPU device, else the first). */
int clh_pick(const clh_device *devs, int n, const char *spec, int *chosen, char *err, size_t errlen);
/* How a device ranks as the default: 0 a GPU, 1 PoCL's CPU device, 2
 * anything else. The default device is the first of the lowest rank. */
int clh_default_rank(const char *type, const char *platform);

/* Opens a context and a profiling queue on the device named by spec. */
int clh_open(clh_ctx *ctx, const char *spec, char *err, size_t errlen);
void clh_close(clh_ctx *ctx);

/* Builds source; on failure returns the OpenCL error and the log in *log
 * (malloc'd), cut as clh_cap_log cuts it. */
cl_int clh_build(clh_ctx *ctx, const char *source, const char *options, cl_program *out, char **log);

/* What of a build log is kept: its first CLH_LOG_KEEP_BYTES, and no more than
 * CLH_LOG_KEEP_ERRORS errors (a few lines of source can make a compiler
 * without an error limit print millions). */
#define CLH_LOG_KEEP_BYTES (64 * 1024)
#define CLH_LOG_KEEP_ERRORS 100

/* A copy of log[0, len) cut at a line end to at most keep_bytes and
 * keep_errors error lines, in one pass. A log that was cut starts with a line
 * that says how much the compiler printed ("The compiler printed 1,048,576
 * errors (157,286,468 bytes in 1,048,577 lines); the first 100 are below.")
 * and ends with one that says how much is not shown. NULL when out of memory. */
char *clh_cap_log(const char *log, size_t len, size_t keep_bytes, int keep_errors);

/* Finds kernel `name` in program; if the program defines exactly one kernel and
 * `lenient` is set, returns it whatever its name. */
cl_kernel clh_kernel(cl_program prog, const char *name, int lenient, char *err, size_t errlen);

/* Kernel time of a finished event in milliseconds, from profiling info. */
double clh_event_ms(cl_event ev);

/* Whether the runtime finishes compiling a kernel only when it first runs,
 * starting a program to do it: PoCL links each kernel, for the launch's
 * work-group size, with the system linker at its first launch. */
int clh_compiles_at_first_launch(const clh_device *d);

/* Sets argument i, noting the first failure in *status. */
void clh_arg(cl_kernel k, cl_uint i, size_t size, const void *value, cl_int *status);

#endif
