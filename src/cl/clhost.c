/* clhost — the OpenCL host layer (used only in worker processes): devices, builds, events. */
#define _GNU_SOURCE
#include "cl/clhost.h"
#include "text/diag.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *clh_error_name(cl_int e) {
    switch (e) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
    E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    case -9999: return _("CL_NV_ILLEGAL_ADDRESS (NVIDIA: a kernel read or wrote outside a buffer)");
    default: return "CL_UNKNOWN_ERROR";
    }
}

int clh_error_known(cl_int e) { return strcmp(clh_error_name(e), "CL_UNKNOWN_ERROR") != 0; }

static void dev_str(cl_device_id d, cl_device_info what, char *buf, size_t len) {
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS) buf[0] = '\0';
    buf[len - 1] = '\0';
    util_rstrip(buf);
}

int clh_list(clh_device **out, char *err, size_t errlen) {
    *out = NULL;
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || np == 0) return 0;
    if (e != CL_SUCCESS) {
        util_errf(err, errlen, _("clGetPlatformIDs failed: %s"), clh_error_name(e));
        return -1;
    }
    cl_platform_id plats[16];
    if (np > 16) np = 16;
    if ((e = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        util_errf(err, errlen, _("clGetPlatformIDs failed: %s"), clh_error_name(e));
        return -1;
    }
    int count = 0, cap = 0;
    clh_device *list = NULL;
    for (cl_uint p = 0; p < np; p++) {
        char pname[128];
        pname[0] = '\0';
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        pname[sizeof pname - 1] = '\0';
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
        cl_device_id ids[64];
        if (nd > 64) nd = 64;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL) != CL_SUCCESS) continue; /* a broken driver */
        for (cl_uint d = 0; d < nd; d++) {
            if (count == cap) {
                cap = cap ? cap * 2 : 8;
                clh_device *nl = realloc(list, sizeof *list * (size_t)cap);
                if (!nl) { free(list); util_errf(err, errlen, "%s", _("out of memory")); return -1; }
                list = nl;
            }
            clh_device *cd = &list[count];
            memset(cd, 0, sizeof *cd);
            cd->index = count;
            cd->platform_index = (int)p;
            snprintf(cd->platform, sizeof cd->platform, "%s", pname);
            cd->platform_id = plats[p];
            cd->device_id = ids[d];
            dev_str(ids[d], CL_DEVICE_NAME, cd->name, sizeof cd->name);
            dev_str(ids[d], CL_DEVICE_VENDOR, cd->vendor, sizeof cd->vendor);
            dev_str(ids[d], CL_DEVICE_VERSION, cd->version, sizeof cd->version);
            dev_str(ids[d], CL_DEVICE_OPENCL_C_VERSION, cd->c_version, sizeof cd->c_version);
            dev_str(ids[d], CL_DRIVER_VERSION, cd->driver, sizeof cd->driver);
            cl_device_type t = 0;
            clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            snprintf(cd->type, sizeof cd->type, "%s",
                     (t & CL_DEVICE_TYPE_GPU) ? "GPU" : (t & CL_DEVICE_TYPE_CPU) ? "CPU"
                     : (t & CL_DEVICE_TYPE_ACCELERATOR) ? "ACCEL" : "OTHER");
            cl_uint cu = 0;
            clGetDeviceInfo(ids[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
            cd->compute_units = cu;
            cl_ulong gm = 0, lm = 0;
            clGetDeviceInfo(ids[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
            cd->global_mem = gm;
            cd->local_mem = lm;
            size_t wg = 0;
            clGetDeviceInfo(ids[d], CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
            cd->max_work_group = wg;
            count++;
        }
    }
    *out = list;
    return count;
}

int clh_default_rank(const char *type, const char *platform) {
    if (!strcmp(type, "GPU")) return 0;
    return !strcmp(type, "CPU") && util_contains_ci(platform, "portable computing") ? 1 : 2;
}

int clh_pick(const clh_device *devs, int n, const char *spec, int *chosen, char *err, size_t errlen) {
    if (n <= 0) {
        util_errf(err, errlen, "%s",
                  _("No OpenCL device found. Install PoCL for the CPU (apt-get install pocl-opencl-icd) "
                    "or your GPU's OpenCL driver, then run `cltutor devices`."));
        return CLH_NO_DEVICE;
    }
    if (!spec || !*spec) {
        *chosen = 0;
        for (int i = 1; i < n; i++)
            if (clh_default_rank(devs[i].type, devs[i].platform) < clh_default_rank(devs[*chosen].type, devs[*chosen].platform))
                *chosen = i;
        return CLH_OK;
    }
    int digits = 1;
    for (const char *p = spec; *p; p++) if (!isdigit((unsigned char)*p)) digits = 0;
    if (digits) {
        int idx = atoi(spec);
        if (idx < n) { *chosen = idx; return CLH_OK; }
        util_errf(err, errlen,
                  P_("--device %s: there are only %d device (0..%d); see `cltutor devices`",
                     "--device %s: there are only %d devices (0..%d); see `cltutor devices`", (unsigned long long)n),
                  spec, n, n - 1);
        return CLH_BAD_SPEC;
    }
    for (int i = 0; i < n; i++)
        if (util_contains_ci(devs[i].name, spec) || util_contains_ci(devs[i].platform, spec)) {
            *chosen = i;
            return CLH_OK;
        }
    util_errf(err, errlen, _("--device '%s' matches no device name; see `cltutor devices`"), spec);
    return CLH_BAD_SPEC;
}

int clh_open(clh_ctx *ctx, const char *spec, char *err, size_t errlen) {
    memset(ctx, 0, sizeof *ctx);
    clh_device *devs = NULL;
    int n = clh_list(&devs, err, errlen);
    if (n < 0) return CLH_NO_DEVICE;
    int idx = 0;
    int rc = clh_pick(devs, n, spec, &idx, err, errlen);
    if (rc != CLH_OK) { free(devs); return rc; }
    ctx->dev = devs[idx];
    free(devs);
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->dev.platform_id, 0};
    ctx->context = clCreateContext(props, 1, &ctx->dev.device_id, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        util_errf(err, errlen, _("clCreateContext on %s failed: %s"), ctx->dev.name, clh_error_name(e));
        return CLH_NO_DEVICE;
    }
    /* The 1.2 call on purpose: some ICDs spin in clCreateCommandQueueWithProperties. */
    ctx->queue = clCreateCommandQueue(ctx->context, ctx->dev.device_id, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        util_errf(err, errlen, _("clCreateCommandQueue on %s failed: %s"), ctx->dev.name, clh_error_name(e));
        clReleaseContext(ctx->context);
        ctx->context = NULL;
        return CLH_NO_DEVICE;
    }
    return CLH_OK;
}

void clh_close(clh_ctx *ctx) {
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->context) clReleaseContext(ctx->context);
    ctx->queue = NULL;
    ctx->context = NULL;
}

static void clh_format_count(size_t v, char *buf, size_t len);

cl_int clh_build(clh_ctx *ctx, const char *source, const char *options, cl_program *out, char **log) {
    *out = NULL;
    *log = NULL;
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx->context, 1, &source, NULL, &e);
    if (e != CL_SUCCESS) return e;
    e = clBuildProgram(p, 1, &ctx->dev.device_id, options, NULL, NULL);
    size_t len = 0;
    clGetProgramBuildInfo(p, ctx->dev.device_id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    if (len > 1) {
        /* the API hands out the whole log or nothing: fetch it, keep its head */
        char *full = malloc(len + 1);
        if (full && clGetProgramBuildInfo(p, ctx->dev.device_id, CL_PROGRAM_BUILD_LOG, len, full, NULL) == CL_SUCCESS) {
            full[len] = '\0';
            *log = clh_cap_log(full, strlen(full), CLH_LOG_KEEP_BYTES, CLH_LOG_KEEP_ERRORS);
        } else if (!full) {
            char big[32], msg[160];
            clh_format_count(len, big, sizeof big);
            snprintf(msg, sizeof msg, _("The compiler printed a log of %s bytes, more than the worker could hold."), big);
            *log = strdup(msg);
        }
        free(full);
    }
    if (e == CL_BUILD_PROGRAM_FAILURE && diag_worst(*log) < DIAG_WARNING /* only the runtime's own line */) {
        /* PoCL drops a log it cannot hold and keeps only its own last line */
        char *with = NULL;
        util_sappend(&with, "%s%s%s", *log ? *log : "", *log && **log ? "\n" : "",
                     _("The compiler failed and its messages were lost: the runtime kept none of them. A kernel "
                       "that makes the compiler print more than it can hold (a macro that expands to millions of "
                       "errors) does this."));
        if (with) {
            free(*log);
            *log = with;
        }
    }
    if (e != CL_SUCCESS) {
        clReleaseProgram(p);
        return e;
    }
    *out = p;
    return CL_SUCCESS;
}

/* 1234567 as "1,234,567". */
static void clh_format_count(size_t v, char *buf, size_t len) {
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%zu", v), o = 0;
    for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}


char *clh_cap_log(const char *log, size_t len, size_t keep_bytes, int keep_errors) {
    size_t kept = 0, lines = 0, errors = 0, kept_errors = 0;
    int full = 0; /* the head is complete: nothing more is kept */
    for (size_t i = 0; i < len;) {
        const char *eol = memchr(log + i, '\n', len - i);
        size_t end = eol ? (size_t)(eol - log) + 1 : len;
        int err = diag_read(log + i, end - i, NULL, NULL) == DIAG_ERROR;
        lines++;
        errors += err;
        if (!full && (end > keep_bytes || (err && kept_errors == (size_t)keep_errors))) full = 1;
        if (!full) {
            kept = end;
            kept_errors += err;
        }
        i = end;
    }
    if (kept == len) {
        char *copy = malloc(len + 1);
        if (!copy) return NULL;
        memcpy(copy, log, len);
        copy[len] = '\0';
        return copy;
    }
    int cut_line = kept == 0; /* a first line longer than the whole allowance: keep its start */
    if (cut_line) kept = keep_bytes < len ? keep_bytes : len;
    char n_err[32], n_bytes[32], n_lines[32], more_err[32], more_lines[32];
    clh_format_count(errors, n_err, sizeof n_err);
    clh_format_count(len, n_bytes, sizeof n_bytes);
    clh_format_count(lines, n_lines, sizeof n_lines);
    size_t shown_lines = 0;
    for (size_t i = 0; i < kept; i++) shown_lines += log[i] == '\n';
    if (kept && log[kept - 1] != '\n') shown_lines++;
    clh_format_count(errors - kept_errors, more_err, sizeof more_err);
    clh_format_count(lines - shown_lines, more_lines, sizeof more_lines);
    /* two counts in a sentence: the first picks the sentence, P_ the form for the second */
    char head[400], tail[400], body[320];
    if (errors)
        snprintf(body, sizeof body,
                 errors == 1 ? P_("The compiler printed %s error (%s bytes in %s lines); the first %zu is below.",
                                  "The compiler printed %s error (%s bytes in %s lines); the first %zu are below.",
                                  kept_errors)
                             : P_("The compiler printed %s errors (%s bytes in %s lines); the first %zu is below.",
                                  "The compiler printed %s errors (%s bytes in %s lines); the first %zu are below.",
                                  kept_errors),
                 n_err, n_bytes, n_lines, kept_errors);
    else
        snprintf(body, sizeof body,
                 P_("The compiler printed %s lines (%s bytes); the first %zu is below.",
                    "The compiler printed %s lines (%s bytes); the first %zu are below.", shown_lines),
                 n_lines, n_bytes, shown_lines);
    snprintf(head, sizeof head, "%s\n", body);
    if (cut_line && lines == 1) {
        char more_bytes[32];
        clh_format_count(len - kept, more_bytes, sizeof more_bytes);
        snprintf(body, sizeof body, _("[%s more bytes of that line not shown]"), more_bytes);
        snprintf(tail, sizeof tail, " ...\n%s\n", body);
    } else {
        size_t more_l = lines - shown_lines;
        snprintf(body, sizeof body,
                 errors - kept_errors == 1
                     ? P_("[%s more error in %s more line not shown]", "[%s more error in %s more lines not shown]",
                          more_l)
                     : P_("[%s more errors in %s more line not shown]", "[%s more errors in %s more lines not shown]",
                          more_l),
                 more_err, more_lines);
        snprintf(tail, sizeof tail, "%s%s\n", cut_line ? " ...\n" : "", body);
    }
    size_t hl = strlen(head), tl = strlen(tail);
    char *out = malloc(hl + kept + tl + 1);
    if (!out) return NULL;
    memcpy(out, head, hl);
    memcpy(out + hl, log, kept);
    memcpy(out + hl + kept, tail, tl + 1);
    return out;
}

cl_kernel clh_kernel(cl_program prog, const char *name, int lenient, char *err, size_t errlen) {
    cl_uint nk = 0;
    cl_kernel ks[32];
    cl_int e = clCreateKernelsInProgram(prog, 32, ks, &nk);
    if (e != CL_SUCCESS) {
        util_errf(err, errlen, _("clCreateKernelsInProgram failed: %s"), clh_error_name(e));
        return NULL;
    }
    cl_kernel found = NULL;
    char names[512] = "";
    for (cl_uint i = 0; i < nk; i++) {
        char kn[128] = "";
        clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof kn, kn, NULL);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kn);
        if (!found && (!strcmp(kn, name) || (lenient && nk == 1))) found = ks[i];
        else clReleaseKernel(ks[i]);
    }
    if (!found) {
        if (nk == 0)
            util_errf(err, errlen, _("the file defines no __kernel function; expected one named '%s'"), name);
        else
            util_errf(err, errlen, _("no kernel named '%s' in the file (it defines: %s)"), name, names);
    }
    return found;
}

double clh_event_ms(cl_event ev) {
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
        return -1.0;
    return (double)(t1 - t0) * 1e-6;
}

void clh_arg(cl_kernel k, cl_uint i, size_t size, const void *value, cl_int *status) {
    cl_int e = clSetKernelArg(k, i, size, value);
    if (e != CL_SUCCESS && *status == CL_SUCCESS) *status = e;
}

int clh_compiles_at_first_launch(const clh_device *d) {
    return util_contains_ci(d->platform, "Portable Computing Language") || util_contains_ci(d->platform, "pocl");
}
