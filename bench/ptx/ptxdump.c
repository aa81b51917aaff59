/* ptxdump — builds an OpenCL C file for the first GPU of the first platform
 * that has one and writes the program's binary (NVIDIA's driver: PTX text)
 * to standard output: what the driver's own compiler made of the kernel;
 * the build log (with -cl-nv-verbose: registers and spills) to standard error.
 *   gcc -O2 -o ptxdump bench/ptx/ptxdump.c -lOpenCL
 *   ./ptxdump kernels/04-float4/histogram.cl "-DLOCAL_SIZE=64" > k.ptx */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: ptxdump FILE.cl [OPTIONS]\n"); return 64; }
    char *src = read_all(argv[1]);
    if (!src) { fprintf(stderr, "ptxdump: cannot read %s\n", argv[1]); return 66; }
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
    if (!dev) { fprintf(stderr, "ptxdump: no GPU\n"); return 69; }
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    const char *s = src;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &e);
    e = clBuildProgram(p, 1, &dev, argc > 2 ? argv[2] : "", NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[16384];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "ptxdump: build failed (%d):\n%s\n", e, log);
        return 1;
    }
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (log[0]) fprintf(stderr, "%s\n", log);
    size_t len = 0;
    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
    unsigned char *bin = malloc(len + 1);
    clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    fwrite(bin, 1, len, stdout);
    free(bin);
    clReleaseProgram(p);
    clReleaseContext(ctx);
    free(src);
    return 0;
}
