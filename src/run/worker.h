/* worker — the code that runs in a worker process: opens the device, builds
 * and times the learner's kernel, and writes raw results for the parent. */
#ifndef CLT_WORKER_H
#define CLT_WORKER_H
#include <stdint.h>

#include "base/blob.h"
#include "run/engine.h"
#include "cl/clhost.h"

/* Record tags of the worker's results. */
#define W_DEVICE BLOB_TAG('D', 'E', 'V', 'I')  /* engine_device */
#define W_STATUS BLOB_TAG('S', 'T', 'A', 'T')  /* int: engine_status */
#define W_MESSAGE BLOB_TAG('M', 'E', 'S', 'G') /* text */
#define W_FAILURE BLOB_TAG('F', 'A', 'I', 'L') /* int: prob_failure, when the device side failed */
#define W_BADSPEC BLOB_TAG('B', 'S', 'P', 'C') /* empty: the device spec named no device */
#define W_BUILDLOG BLOB_TAG('B', 'L', 'O', 'G') /* text */
#define W_OUTPUT BLOB_TAG('O', 'U', 'T', 'P')  /* raw output buffer of the first (checked) launch */
#define W_SAMPLES BLOB_TAG('S', 'A', 'M', 'P') /* double[]: kernel ms of each timed launch */
#define W_HASHES BLOB_TAG('H', 'A', 'S', 'H')  /* uint64_t[]: util_hash64 of each timed launch's output */
#define W_OUTPUTS BLOB_TAG('O', 'U', 'T', 'S') /* each timed launch's output, one after another, where an output
                                                * is at most WORKER_KEEP_OUTPUT_BYTES */
#define W_INPUT BLOB_TAG('I', 'N', 'P', 'T')   /* worker_input_change, one per input buffer the kernel changed */
#define W_KINFO BLOB_TAG('K', 'I', 'N', 'F')   /* engine_kernel_info, one per kernel, before any run */
#define W_CONFINE BLOB_TAG('C', 'O', 'N', 'F') /* text: how the worker is confined (confine_describe) */
#define W_PROBE BLOB_TAG('P', 'R', 'O', 'B')   /* self-test: "NAME\tallowed|refused\tDETAIL\tEXPECTED" */
#define W_ITEM BLOB_TAG('I', 'T', 'E', 'M')    /* worker_item_start: the records of a set's next run follow */
#define W_CACHEFILE BLOB_TAG('C', 'F', 'I', 'L') /* "RELATIVE/PATH\0BYTES": a file the runtime compiled, for the
                                                 * parent to keep in the kernel's cache folder (WK_BUILD:
                                                 * "INDEX/RELATIVE/PATH", INDEX the file's in the request) */
#define W_BUILT BLOB_TAG('B', 'L', 'T', 'D')     /* WK_BUILD: int32 pair, a file's index and its cl_int build status */
#define W_BINARY BLOB_TAG('B', 'I', 'N', 'Y')    /* WK_BINARY: the program binary the device's compiler made */

/* Where a run of a set (several sizes of one kernel, WR_ITEM) begins: its
 * index, and the seconds since the worker started. */
typedef struct {
    uint32_t index, reserved;
    double started_s;
} worker_item_start;

/* What a worker may write: its scratch folder is a tmpfs of its own this
 * large (where the kernel allows a mount namespace), and the runtime's
 * kernel cache lives in it; at most WORKER_CACHE_BYTES of that cache in
 * WORKER_CACHE_FILES files go back to the parent, which keeps them. */
#define WORKER_KEEP_OUTPUT_BYTES 16384
#define WORKER_DISK_BYTES (256ULL << 20)
#define WORKER_DISK_FILES 4096L
#define WORKER_CACHE_BYTES (1024 * 1024)
#define WORKER_CACHE_FILES 256
#define WORKER_BINARY_BYTES (16u << 20) /* the most of a program binary a worker hands back */

/* An input buffer that differed from its host copy after the runs. */
typedef struct {
    char name[32];
    uint64_t bytes;         /* the buffer's size */
    uint64_t differ;        /* bytes that changed */
    uint64_t first;         /* offset of the first */
} worker_input_change;

/* Writes d as a W_DEVICE record. */
void worker_put_device(int fd, const clh_device *d);

/* The worker process's main (`cltutor __worker`): reads its request on
 * SANDBOX_FD_REQUEST and writes records to SANDBOX_FD_RESULT; returns the
 * exit status (64 without a request). */
int worker_main(int argc, char **argv);

#endif
