/* clbench.h: the OpenCL host code that the programs of bench/lessons/
 * (scan-span.c, reduction.c, occupancy.c, host-cost.c) share: every device
 * of every platform, a one-line description of each, a build that prints
 * its log, and a launch timed by OpenCL profiling events (inline, so that a
 * program need not use them all). Standard C and the OpenCL 1.2 API. */
#ifndef CLBENCH_H
#define CLBENCH_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CB_MAX_DEVICES 16

static inline void cb_check(cl_int err, const char *what) {
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s failed: OpenCL error %d\n", what, (int)err);
        exit(1);
    }
}

/* Does haystack contain needle, ignoring case? */
static inline int cb_contains(const char *haystack, const char *needle) {
    size_t n = strlen(needle);
    for (; *haystack; haystack++) {
        size_t i = 0;
        while (i < n && haystack[i] && tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* Every device of every platform whose device or platform name contains
 * filter (NULL: all), at most max of them. */
static inline int cb_devices(cl_device_id *out, int max, const char *filter) {
    cl_platform_id p[8];
    cl_uint np = 0;
    int count = 0;
    if (clGetPlatformIDs(8, p, &np) != CL_SUCCESS) return 0;
    for (cl_uint i = 0; i < np && i < 8; i++) {
        cl_device_id d[CB_MAX_DEVICES];
        cl_uint nd = 0;
        char pname[256] = "";
        clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, CB_MAX_DEVICES, d, &nd) != CL_SUCCESS) continue;
        for (cl_uint j = 0; j < nd && j < CB_MAX_DEVICES && count < max; j++) {
            char dname[256] = "";
            clGetDeviceInfo(d[j], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            if (!filter || cb_contains(dname, filter) || cb_contains(pname, filter)) out[count++] = d[j];
        }
    }
    return count;
}

/* "NAME (PLATFORM, DEVICE VERSION, driver DRIVER, N compute units)" */
static inline void cb_describe(cl_device_id d, char *buf, size_t size) {
    char name[256] = "", version[256] = "", driver[256] = "", pname[256] = "";
    cl_platform_id p;
    cl_uint units = 0;
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof version, version, NULL);
    clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL);
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    snprintf(buf, size, "%s (%s, %s, driver %s, %u compute units)", name, pname, version, driver, units);
}

/* The program built from src with opts, or NULL after printing the log. */
static inline cl_program cb_build(cl_context ctx, cl_device_id d, const char *src, const char *opts) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cb_check(err, "clCreateProgramWithSource");
    if (clBuildProgram(p, 1, &d, opts, NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%s):\n%s\n", opts, log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* Runs k once over global work-items in groups of local; returns the
 * kernel's own time in nanoseconds, from its profiling event. */
static inline double cb_launch(cl_command_queue q, cl_kernel k, size_t global, size_t local) {
    cl_event e;
    cl_ulong t0 = 0, t1 = 0;
    cb_check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e), "clEnqueueNDRangeKernel");
    cb_check(clWaitForEvents(1, &e), "clWaitForEvents");
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(e);
    return (double)(t1 - t0);
}

static inline int cb_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double cb_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cb_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
