/* ptx — a kernel's compiled code, without a GPU: clang's NVPTX backend
 * with libclc turns the OpenCL C into NVIDIA PTX, and the memory
 * instructions are read from it with their width and source line: what a
 * vload4 from a float pointer, a float4 pointer or a uchar16 pointer really
 * becomes, which the GPU memory model cannot see. */
#ifndef CLT_PTX_H
#define CLT_PTX_H
#include <stddef.h>

#include "course/catalog.h"

#define PTX_CLANG_ENV "CLTUTOR_CLANG"   /* the clang to use; default clang-15, then clang */
#define PTX_LIBCLC_ENV "CLTUTOR_LIBCLC" /* libclc's NVPTX library; default /usr/lib/clc/nvptx64--nvidiacl.bc */

typedef enum { PTX_LOAD, PTX_STORE, PTX_ATOMIC } ptx_op;
typedef enum { PTX_GLOBAL, PTX_SHARED, PTX_CONST, PTX_LOCAL, PTX_GENERIC } ptx_space;

/* One memory instruction of the PTX, or several alike on one source line. */
typedef struct {
    int line;                    /* the source line (.loc), 0 when unknown */
    ptx_op op;
    ptx_space space;
    int bytes;                   /* bytes one work-item moves with it: element size x vector width */
    int vector;                  /* its vector width (1, 2 or 4) */
    int count;                   /* how many such instructions the line compiled to */
    double block_share;          /* the instructions of the basic blocks they are in, each block's shared among
                                  * its memory instructions (global, local, constant), summed over the count */
    char opcode[40];             /* as written: ld.global.nc.v4.f32 */
} ptx_access;

typedef struct {
    char name[128];
    ptx_access *acc;
    int n, cap;
    int barriers;                /* bar.sync and barrier.sync */
    int registers;               /* registers a work-item holds, as NVIDIA's ptxas allocated them; 0: not known */
} ptx_kernel;

typedef struct {
    int status;                  /* what ptx_compile returned: 0 compiled, 1 does not compile, -1 could not run */
    char message[1024];          /* why not, when status is not 0 */
    ptx_kernel *kernels;
    int n;
    char compiler[160];          /* the compiler's first line of --version, or the driver that compiled it */
    char target[32];             /* the PTX's .target (sm_90); "" when it names none */
    char device[256];            /* the device whose own driver compiled it (ptx_from_driver); "": clang */
    char driver[64];             /* and its driver's version */
    char *ptx;                   /* the whole PTX text */
} ptx_report;

/* Reads the memory instructions of PTX text into out (kernels in order,
 * alike instructions of one line counted together). 0, or -1 when out of memory. */
int ptx_parse(const char *ptx, ptx_report *out);

/* Whether a program binary (len bytes) is PTX text, as NVIDIA's OpenCL
 * driver hands back: a .version and a .target directive. */
int ptx_is_text(const char *bin, size_t len);

/* The registers of each kernel of r, from the build log of NVIDIA's driver
 * built with -cl-nv-verbose (ptxas: "Compiling entry function 'K'", then
 * "Used N registers"). Kernels the log does not name keep 0. */
void ptx_read_registers(const char *log, ptx_report *r);

/* Compiles kernel_path with the chapter's build options for NVIDIA PTX and
 * parses it. Returns 0; 1 when the kernel does not compile (err holds the
 * compiler's message, its paths as display names them); -1 with err when
 * clang or libclc is missing, or the compiler could not run or crashed. */
int ptx_compile(const lesson *l, const char *kernel_path, const char *display, ptx_report *out, char *err,
                size_t errlen);

/* Compiles kernel_path with the OpenCL driver of the device of device_spec
 * (NULL: the default) in a confined worker, where that driver gives PTX
 * (NVIDIA's), and parses it with each kernel's registers (the driver's PTX
 * has no source lines: every access has line 0). Returns 0; 1 when the
 * kernel does not build there (err: the compiler's log); 2 when the device
 * gives no PTX (err says so); 69 when no device matches; -1 with err. */
int ptx_from_driver(const lesson *l, const char *kernel_path, const char *display, const char *device_spec,
                    ptx_report *out, char *err, size_t errlen);

/* The kernel's PTX as the learner's GPU has it: its driver's (ptx_from_driver
 * on device_spec) where driver is set and that driver gives PTX, else clang's
 * (ptx_compile). Returns what the one that answered returned. */
int ptx_compile_for(const lesson *l, const char *kernel_path, const char *display, int driver, const char *device_spec,
                    ptx_report *out, char *err, size_t errlen);

void ptx_report_free(ptx_report *r);

/* One instruction as a sentence for a screen: "global load, 16 bytes a
 * work-item: ld.global.v4.f32 (x4)", translated. */
void ptx_access_text(const ptx_access *a, char *buf, size_t len);

/* "global", "local", "constant"... (OpenCL's names for PTX's state spaces;
 * untranslated: _() them to show). */
const char *ptx_space_name(ptx_space s);

#endif
