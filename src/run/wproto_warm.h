/* wproto_warm — one worker started before it is needed: it confines
 * itself, opens the device and loads the runtime's compiler while the
 * learner edits, so that a saved kernel's first run starts compiling at
 * once. Held by its owner (the course), taken by the next run that suits it. */
#ifndef CLT_WPROTO_WARM_H
#define CLT_WPROTO_WARM_H
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "run/engine.h"
#include "run/sandbox.h"

typedef struct wproto_warm {
    pthread_mutex_t mu;
    sandbox_child child;         /* pid 0: none held */
    int request_fd;              /* its request file, empty until a run fills it */
    char scratch[PATH_MAX];      /* its scratch folder, the run's */
    char device_spec[256];       /* the device it opened ("" the default) */
    uint64_t env_hash;           /* of the variables it was given (wproto_environment) */
    int taken;                   /* how many runs took one */
} wproto_warm;

void wproto_warm_init(wproto_warm *w);
/* Starts a worker ahead for device_spec (NULL: the default device), unless
 * one is held for it already; 0, or -1 with err. */
int wproto_warm_start(wproto_warm *w, const char *device_spec, char *err, size_t errlen);
/* How many runs have taken a worker started ahead. */
int wproto_warm_taken(wproto_warm *w);
/* For wproto_run_items: hands over the held worker when it suits rq (a run
 * on its device, with no variables or folder of its own, from the same
 * environment) and is still alive: 1 with its child, request file and
 * scratch folder, else 0 (one that no longer suits is dropped). */
int wproto_warm_take(wproto_warm *w, const engine_request *rq, sandbox_child *child, int *request_fd, char *scratch,
                     size_t len);
/* Ends the held worker, if any, and removes its folder. */
void wproto_warm_drop(wproto_warm *w);
void wproto_warm_free(wproto_warm *w);

#endif
