/* worker_warm — a worker started before its request (wproto_warm): it
 * confines itself to its scratch folder, opens the device and builds and
 * launches a small kernel, so that the runtime and its compiler are loaded
 * when the learner's kernel comes, then waits for the parent's go. */
#ifndef CLT_WORKER_WARM_H
#define CLT_WORKER_WARM_H
#include <stddef.h>

#include "cl/clhost.h"
#include "run/confine.h"
#include "run/wproto.h"

typedef struct {
    confine_state cs;            /* Landlock in force, beneath the scratch folder alone */
    int device_open;             /* ctx holds the device spec names */
    clh_ctx ctx;
    char spec[256];              /* the device it opened; "" the default */
} worker_warm;

/* Confines the worker to scratch (a private tmpfs where the system allows
 * it, the runtime's cache inside), then opens the device named by spec and
 * runs a small kernel on it. A device that does not open is left to the
 * request's run, which reports it. Returns -1 with err only when the worker
 * cannot be confined. */
int worker_warm_up(worker_warm *w, const char *scratch, const char *spec, char *err, size_t errlen);

/* Waits for the parent's go on SANDBOX_FD_CONTROL: 0 when it came, -1 when
 * the parent let the worker go unused. */
int worker_warm_wait(void);

/* Whether the request is one a warm worker can serve, as the parent
 * promised (no variables of its own, no folder beyond the scratch folder,
 * the same scratch folder): 0, or -1 with err. */
int worker_warm_check(const char *scratch, const wproto_request *wr, char *err, size_t errlen);

/* The request's limits (wproto_header), set now: CPU seconds counted from
 * what the warm-up used. */
void worker_warm_limits(const wproto_request *wr);

#endif
