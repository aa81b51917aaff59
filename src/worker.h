/* worker — the code that runs in a worker process: opens the device, builds
 * and times the learner's kernel, and writes raw results for the parent. */
#ifndef CLT_WORKER_H
#define CLT_WORKER_H
#include "blob.h"
#include "engine.h"

/* Record tags of the worker's results. */
#define W_DEVICE BLOB_TAG('D', 'E', 'V', 'I')  /* engine_device */
#define W_STATUS BLOB_TAG('S', 'T', 'A', 'T')  /* int: engine_status */
#define W_MESSAGE BLOB_TAG('M', 'E', 'S', 'G') /* text */
#define W_BUILDLOG BLOB_TAG('B', 'L', 'O', 'G') /* text */
#define W_OUTPUT BLOB_TAG('O', 'U', 'T', 'P')  /* raw output buffer */
#define W_SAMPLES BLOB_TAG('S', 'A', 'M', 'P') /* double[]: kernel ms */
#define W_KINFO BLOB_TAG('K', 'I', 'N', 'F')   /* engine_kernel_info, one per kernel, before any run */

/* Worker entry points (sandbox_fn). arg is an engine_request. */
int worker_run_kernel(void *arg, int result_fd, int progress_fd);
/* arg unused: writes one W_DEVICE per device. */
int worker_list_devices(void *arg, int result_fd, int progress_fd);

#endif
