/* config — settings a lab or a learner chooses once: the system file
 * (/etc/cltutor.conf) first, then the user's (~/.config/cltutor/config),
 * each key of the later file winning. Command-line options win over both.
 *
 *   [device]
 *   default = 0            ; --device when none is given (an index or part of a name)
 *   [timing]
 *   budget_s = 1           ; seconds `run` and the course spend repeating a kernel to time it
 *   queue = yes            ; timing waits its turn for the device (a shared GPU)
 *   queue_dir = /tmp/cltutor-gpu
 *   [course]
 *   solutions = shown      ; shown | hidden: whether learners may see the reference solutions
 *                          ; (any other value hides them, and is reported)
 *   [lab]
 *   locked = no            ; yes (in the system file): CLTUTOR_SYSTEM_CONFIG cannot stand in for it
 */
#ifndef CLT_CONFIG_H
#define CLT_CONFIG_H
#include <stddef.h>

#define CONFIG_DEFAULT_QUEUE_DIR "/tmp/cltutor-gpu" /* the timing queue's folder (gpulock) */
#define CONFIG_SYSTEM_FILE "/etc/cltutor.conf"

typedef struct {
    char device[128];        /* "" the built-in default (first GPU, else PoCL's CPU) */
    char device_set_by[1024]; /* the file that chose device */
    double budget_s;
    int queue;
    char queue_dir[512];
    int solutions_shown;
    char solutions_hidden_by[1024]; /* the file that hid them */
    char files[2][1024];     /* the files read, "" where absent */
    int locked;              /* the system file says [lab] locked = yes */
    char ignored_system_config[1024]; /* CLTUTOR_SYSTEM_CONFIG, ignored because the lab's file is locked; or "" */
} config;

/* The defaults, then the system file ($CLTUTOR_SYSTEM_CONFIG or
 * /etc/cltutor.conf), then the user's ($CLTUTOR_CONFIG, else
 * $XDG_CONFIG_HOME/cltutor/config or ~/.config/cltutor/config). Returns 0,
 * or -1 with err naming the file, line and key at fault (the defaults stand
 * for what was not read; every line at fault is named, one per line).
 * CLTUTOR_SYSTEM_CONFIG is ignored where /etc/cltutor.conf says
 * [lab] locked = yes. */
int config_load(config *c, char *err, size_t errlen);
/* config_load with lab_file as the lab's file instead of /etc/cltutor.conf (the tests). */
int config_load_lab(config *c, const char *lab_file, char *err, size_t errlen);
/* The queue folder when timing queues, else NULL (for engine_request.queue_dir). */
const char *config_queue_dir(const config *c);

#endif
